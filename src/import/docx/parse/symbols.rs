//! Stage one: `w:sym` characters of the symbol fonts: Word stores the font's own code, usually in
//! the private-use range U+F020–U+F0FF (ECMA-376 §17.3.3.30), which shows the intended glyph only
//! in that font. A table per font (Symbol, Wingdings, Webdings) gives the Unicode character showing
//! the same picture (arrows, bullets, check marks, Greek, math), so every writer and font shows it.
//! Codes with no Unicode equivalent (or fonts without a table) are kept as they are and reported by
//! the caller.

/// What a `w:sym` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbol {
    /// The Unicode character for the font's glyph.
    Mapped(char),
    /// Not a private-use code: the character is already Unicode.
    Plain(char),
    /// A private-use code of a font without a table entry for it.
    Unknown(char),
}

/// Maps `code` (`w:char`, hexadecimal) of `font` (`w:font`) to what it shows.
pub fn resolve(font: Option<&str>, code: u32) -> Option<Symbol> {
    let c = char::from_u32(code)?;
    // Symbol fonts are addressed at F0xx (or, from older writers, at the bare byte).
    let byte = match code {
        0xF020..=0xF0FF => (code - 0xF000) as u8,
        0x20..=0xFF => code as u8,
        _ => return Some(Symbol::Plain(c)),
    };
    let private = code >= 0xF000;
    let table: Option<fn(u8) -> Option<char>> =
        match font.map(|f| f.trim().to_ascii_lowercase()).as_deref() {
            Some("symbol") => Some(symbol),
            Some("wingdings") => Some(wingdings),
            Some("webdings") => Some(webdings),
            _ => None,
        };
    Some(match table.and_then(|t| t(byte)) {
        Some(m) => Symbol::Mapped(m),
        None if private => Symbol::Unknown(c),
        // A bare byte of a font without a table (or without that entry) reads as Latin-1.
        None => Symbol::Plain(c),
    })
}

// The tables: Adobe's Symbol encoding (with Windows' Euro at A0), and Unicode's own mapping of
// the Wingdings and Webdings pictures, the one the Wingdings/Webdings characters of Unicode 7.0
// were encoded from ("Status of encoding of Wingdings and Webdings Symbols", UTC L2/12-368,
// WG2 N4384, its data file of Unicode code points and font indexes). Entries left out have no
// equivalent.

fn symbol(code: u8) -> Option<char> {
    let c = match code {
        0x20 => '\u{20}',
        0x21 => '\u{21}',
        0x22 => '\u{2200}',
        0x23 => '\u{23}',
        0x24 => '\u{2203}',
        0x25 => '\u{25}',
        0x26 => '\u{26}',
        0x27 => '\u{220B}',
        0x28 => '\u{28}',
        0x29 => '\u{29}',
        0x2A => '\u{2217}',
        0x2B => '\u{2B}',
        0x2C => '\u{2C}',
        0x2D => '\u{2212}',
        0x2E => '\u{2E}',
        0x2F => '\u{2F}',
        0x30 => '\u{30}',
        0x31 => '\u{31}',
        0x32 => '\u{32}',
        0x33 => '\u{33}',
        0x34 => '\u{34}',
        0x35 => '\u{35}',
        0x36 => '\u{36}',
        0x37 => '\u{37}',
        0x38 => '\u{38}',
        0x39 => '\u{39}',
        0x3A => '\u{3A}',
        0x3B => '\u{3B}',
        0x3C => '\u{3C}',
        0x3D => '\u{3D}',
        0x3E => '\u{3E}',
        0x3F => '\u{3F}',
        0x40 => '\u{2245}',
        0x41 => '\u{391}',
        0x42 => '\u{392}',
        0x43 => '\u{3A7}',
        0x44 => '\u{394}',
        0x45 => '\u{395}',
        0x46 => '\u{3A6}',
        0x47 => '\u{393}',
        0x48 => '\u{397}',
        0x49 => '\u{399}',
        0x4A => '\u{3D1}',
        0x4B => '\u{39A}',
        0x4C => '\u{39B}',
        0x4D => '\u{39C}',
        0x4E => '\u{39D}',
        0x4F => '\u{39F}',
        0x50 => '\u{3A0}',
        0x51 => '\u{398}',
        0x52 => '\u{3A1}',
        0x53 => '\u{3A3}',
        0x54 => '\u{3A4}',
        0x55 => '\u{3A5}',
        0x56 => '\u{3C2}',
        0x57 => '\u{3A9}',
        0x58 => '\u{39E}',
        0x59 => '\u{3A8}',
        0x5A => '\u{396}',
        0x5B => '\u{5B}',
        0x5C => '\u{2234}',
        0x5D => '\u{5D}',
        0x5E => '\u{22A5}',
        0x5F => '\u{5F}',
        0x61 => '\u{3B1}',
        0x62 => '\u{3B2}',
        0x63 => '\u{3C7}',
        0x64 => '\u{3B4}',
        0x65 => '\u{3B5}',
        0x66 => '\u{3C6}',
        0x67 => '\u{3B3}',
        0x68 => '\u{3B7}',
        0x69 => '\u{3B9}',
        0x6A => '\u{3D5}',
        0x6B => '\u{3BA}',
        0x6C => '\u{3BB}',
        0x6D => '\u{3BC}',
        0x6E => '\u{3BD}',
        0x6F => '\u{3BF}',
        0x70 => '\u{3C0}',
        0x71 => '\u{3B8}',
        0x72 => '\u{3C1}',
        0x73 => '\u{3C3}',
        0x74 => '\u{3C4}',
        0x75 => '\u{3C5}',
        0x76 => '\u{3D6}',
        0x77 => '\u{3C9}',
        0x78 => '\u{3BE}',
        0x79 => '\u{3C8}',
        0x7A => '\u{3B6}',
        0x7B => '\u{7B}',
        0x7C => '\u{7C}',
        0x7D => '\u{7D}',
        0x7E => '\u{223C}',
        0xA0 => '\u{20AC}',
        0xA1 => '\u{3D2}',
        0xA2 => '\u{2032}',
        0xA3 => '\u{2264}',
        0xA4 => '\u{2044}',
        0xA5 => '\u{221E}',
        0xA6 => '\u{192}',
        0xA7 => '\u{2663}',
        0xA8 => '\u{2666}',
        0xA9 => '\u{2665}',
        0xAA => '\u{2660}',
        0xAB => '\u{2194}',
        0xAC => '\u{2190}',
        0xAD => '\u{2191}',
        0xAE => '\u{2192}',
        0xAF => '\u{2193}',
        0xB0 => '\u{B0}',
        0xB1 => '\u{B1}',
        0xB2 => '\u{2033}',
        0xB3 => '\u{2265}',
        0xB4 => '\u{D7}',
        0xB5 => '\u{221D}',
        0xB6 => '\u{2202}',
        0xB7 => '\u{2022}',
        0xB8 => '\u{F7}',
        0xB9 => '\u{2260}',
        0xBA => '\u{2261}',
        0xBB => '\u{2248}',
        0xBC => '\u{2026}',
        0xBD => '\u{23D0}',
        0xBE => '\u{23AF}',
        0xBF => '\u{21B5}',
        0xC0 => '\u{2135}',
        0xC1 => '\u{2111}',
        0xC2 => '\u{211C}',
        0xC3 => '\u{2118}',
        0xC4 => '\u{2297}',
        0xC5 => '\u{2295}',
        0xC6 => '\u{2205}',
        0xC7 => '\u{2229}',
        0xC8 => '\u{222A}',
        0xC9 => '\u{2283}',
        0xCA => '\u{2287}',
        0xCB => '\u{2284}',
        0xCC => '\u{2282}',
        0xCD => '\u{2286}',
        0xCE => '\u{2208}',
        0xCF => '\u{2209}',
        0xD0 => '\u{2220}',
        0xD1 => '\u{2207}',
        0xD2 => '\u{AE}',
        0xD3 => '\u{A9}',
        0xD4 => '\u{2122}',
        0xD5 => '\u{220F}',
        0xD6 => '\u{221A}',
        0xD7 => '\u{22C5}',
        0xD8 => '\u{AC}',
        0xD9 => '\u{2227}',
        0xDA => '\u{2228}',
        0xDB => '\u{21D4}',
        0xDC => '\u{21D0}',
        0xDD => '\u{21D1}',
        0xDE => '\u{21D2}',
        0xDF => '\u{21D3}',
        0xE0 => '\u{25CA}',
        0xE1 => '\u{3008}',
        0xE2 => '\u{AE}',
        0xE3 => '\u{A9}',
        0xE4 => '\u{2122}',
        0xE5 => '\u{2211}',
        0xE6 => '\u{239B}',
        0xE7 => '\u{239C}',
        0xE8 => '\u{239D}',
        0xE9 => '\u{23A1}',
        0xEA => '\u{23A2}',
        0xEB => '\u{23A3}',
        0xEC => '\u{23A7}',
        0xED => '\u{23A8}',
        0xEE => '\u{23A9}',
        0xEF => '\u{23AA}',
        0xF1 => '\u{3009}',
        0xF2 => '\u{222B}',
        0xF3 => '\u{2320}',
        0xF4 => '\u{23AE}',
        0xF5 => '\u{2321}',
        0xF6 => '\u{239E}',
        0xF7 => '\u{239F}',
        0xF8 => '\u{23A0}',
        0xF9 => '\u{23A4}',
        0xFA => '\u{23A5}',
        0xFB => '\u{23A6}',
        0xFC => '\u{23AB}',
        0xFD => '\u{23AC}',
        0xFE => '\u{23AD}',
        _ => return None,
    };
    Some(c)
}

/// Wingdings codes 0x20-0xFF (index `code - 0x20`); `\0` where Unicode has no equivalent
/// (0xFF, the Windows logo, was not encoded).
#[rustfmt::skip]
static WINGDINGS: [char; 224] = [
    '\u{20}', '\u{1F589}', '\u{2702}', '\u{2701}', '\u{1F453}', '\u{1F56D}', '\u{1F56E}', '\u{1F56F}', // 0x20
    '\u{1F57F}', '\u{2706}', '\u{1F582}', '\u{1F583}', '\u{1F4EA}', '\u{1F4EB}', '\u{1F4EC}', '\u{1F4ED}', // 0x28
    '\u{1F5C0}', '\u{1F5C1}', '\u{1F5CE}', '\u{1F5CF}', '\u{1F5D0}', '\u{1F5C4}', '\u{23F3}', '\u{1F5AE}', // 0x30
    '\u{1F5B0}', '\u{1F5B2}', '\u{1F5B3}', '\u{1F5B4}', '\u{1F5AB}', '\u{1F5AC}', '\u{2707}', '\u{270D}', // 0x38
    '\u{1F58E}', '\u{270C}', '\u{1F58F}', '\u{1F44D}', '\u{1F44E}', '\u{261C}', '\u{261E}', '\u{261D}', // 0x40
    '\u{1F597}', '\u{1F590}', '\u{263A}', '\u{1F610}', '\u{2639}', '\u{1F4A3}', '\u{1F571}', '\u{1F3F3}', // 0x48
    '\u{1F3F1}', '\u{2708}', '\u{263C}', '\u{1F322}', '\u{2744}', '\u{1F546}', '\u{271E}', '\u{1F548}', // 0x50
    '\u{2720}', '\u{2721}', '\u{262A}', '\u{262F}', '\u{1F549}', '\u{2638}', '\u{2648}', '\u{2649}', // 0x58
    '\u{264A}', '\u{264B}', '\u{264C}', '\u{264D}', '\u{264E}', '\u{264F}', '\u{2650}', '\u{2651}', // 0x60
    '\u{2652}', '\u{2653}', '\u{1F670}', '\u{1F675}', '\u{26AB}', '\u{1F53E}', '\u{25FC}', '\u{1F78F}', // 0x68
    '\u{1F790}', '\u{2751}', '\u{2752}', '\u{1F79F}', '\u{29EB}', '\u{25C6}', '\u{2756}', '\u{1F799}', // 0x70
    '\u{2327}', '\u{2BB9}', '\u{2318}', '\u{1F3F5}', '\u{1F3F6}', '\u{1F676}', '\u{1F677}', '\u{0}', // 0x78
    '\u{1F10B}', '\u{2780}', '\u{2781}', '\u{2782}', '\u{2783}', '\u{2784}', '\u{2785}', '\u{2786}', // 0x80
    '\u{2787}', '\u{2788}', '\u{2789}', '\u{1F10C}', '\u{278A}', '\u{278B}', '\u{278C}', '\u{278D}', // 0x88
    '\u{278E}', '\u{278F}', '\u{2790}', '\u{2791}', '\u{2792}', '\u{2793}', '\u{1F662}', '\u{1F660}', // 0x90
    '\u{1F661}', '\u{1F663}', '\u{1F65E}', '\u{1F65C}', '\u{1F65D}', '\u{1F65F}', '\u{2219}', '\u{2022}', // 0x98
    '\u{2B1D}', '\u{2B58}', '\u{1F786}', '\u{1F788}', '\u{1F78A}', '\u{1F78B}', '\u{1F53F}', '\u{25AA}', // 0xA0
    '\u{1F78E}', '\u{1F7C1}', '\u{1F7C5}', '\u{2605}', '\u{1F7CB}', '\u{1F7CF}', '\u{1F7D3}', '\u{1F7D1}', // 0xA8
    '\u{2BD0}', '\u{2316}', '\u{2BCE}', '\u{2BCF}', '\u{2BD1}', '\u{272A}', '\u{2730}', '\u{1F550}', // 0xB0
    '\u{1F551}', '\u{1F552}', '\u{1F553}', '\u{1F554}', '\u{1F555}', '\u{1F556}', '\u{1F557}', '\u{1F558}', // 0xB8
    '\u{1F559}', '\u{1F55A}', '\u{1F55B}', '\u{2BB0}', '\u{2BB1}', '\u{2BB2}', '\u{2BB3}', '\u{2BB4}', // 0xC0
    '\u{2BB5}', '\u{2BB6}', '\u{2BB7}', '\u{1F66A}', '\u{1F66B}', '\u{1F655}', '\u{1F654}', '\u{1F657}', // 0xC8
    '\u{1F656}', '\u{1F650}', '\u{1F651}', '\u{1F652}', '\u{1F653}', '\u{232B}', '\u{2326}', '\u{2B98}', // 0xD0
    '\u{2B9A}', '\u{2B99}', '\u{2B9B}', '\u{2B88}', '\u{2B8A}', '\u{2B89}', '\u{2B8B}', '\u{1F868}', // 0xD8
    '\u{1F86A}', '\u{1F869}', '\u{1F86B}', '\u{1F86C}', '\u{1F86D}', '\u{1F86F}', '\u{1F86E}', '\u{1F878}', // 0xE0
    '\u{1F87A}', '\u{1F879}', '\u{1F87B}', '\u{1F87C}', '\u{1F87D}', '\u{1F87F}', '\u{1F87E}', '\u{21E6}', // 0xE8
    '\u{21E8}', '\u{21E7}', '\u{21E9}', '\u{2B04}', '\u{21F3}', '\u{2B01}', '\u{2B00}', '\u{2B03}', // 0xF0
    '\u{2B02}', '\u{1F8AC}', '\u{1F8AD}', '\u{1F5F6}', '\u{2713}', '\u{1F5F7}', '\u{1F5F9}', '\u{0}', // 0xF8
];

/// Webdings codes 0x20-0xFF (index `code - 0x20`).
#[rustfmt::skip]
static WEBDINGS: [char; 224] = [
    '\u{20}', '\u{1F577}', '\u{1F578}', '\u{1F572}', '\u{1F576}', '\u{1F3C6}', '\u{1F396}', '\u{1F587}', // 0x20
    '\u{1F5E8}', '\u{1F5E9}', '\u{1F5F0}', '\u{1F5F1}', '\u{1F336}', '\u{1F397}', '\u{1F67E}', '\u{1F67C}', // 0x28
    '\u{1F5D5}', '\u{1F5D6}', '\u{1F5D7}', '\u{23F4}', '\u{23F5}', '\u{23F6}', '\u{23F7}', '\u{23EA}', // 0x30
    '\u{23E9}', '\u{23EE}', '\u{23ED}', '\u{23F8}', '\u{23F9}', '\u{23FA}', '\u{1F5DA}', '\u{1F5F3}', // 0x38
    '\u{1F6E0}', '\u{1F3D7}', '\u{1F3D8}', '\u{1F3D9}', '\u{1F3DA}', '\u{1F3DC}', '\u{1F3ED}', '\u{1F3DB}', // 0x40
    '\u{1F3E0}', '\u{1F3D6}', '\u{1F3DD}', '\u{1F6E3}', '\u{1F50D}', '\u{1F3D4}', '\u{1F441}', '\u{1F442}', // 0x48
    '\u{1F3DE}', '\u{1F3D5}', '\u{1F6E4}', '\u{1F3DF}', '\u{1F6F3}', '\u{1F56C}', '\u{1F56B}', '\u{1F568}', // 0x50
    '\u{1F508}', '\u{1F394}', '\u{1F395}', '\u{1F5EC}', '\u{1F67D}', '\u{1F5ED}', '\u{1F5EA}', '\u{1F5EB}', // 0x58
    '\u{2B94}', '\u{2714}', '\u{1F6B2}', '\u{2B1C}', '\u{1F6E1}', '\u{1F4E6}', '\u{1F6F1}', '\u{2B1B}', // 0x60
    '\u{1F691}', '\u{1F6C8}', '\u{1F6E9}', '\u{1F6F0}', '\u{1F7C8}', '\u{1F574}', '\u{2B24}', '\u{1F6E5}', // 0x68
    '\u{1F694}', '\u{1F5D8}', '\u{1F5D9}', '\u{2753}', '\u{1F6F2}', '\u{1F687}', '\u{1F68D}', '\u{26F3}', // 0x70
    '\u{29B8}', '\u{2296}', '\u{1F6AD}', '\u{1F5EE}', '\u{23D0}', '\u{1F5EF}', '\u{1F5F2}', '\u{0}', // 0x78
    '\u{1F6B9}', '\u{1F6BA}', '\u{1F6C9}', '\u{1F6CA}', '\u{1F6BC}', '\u{1F47D}', '\u{1F3CB}', '\u{26F7}', // 0x80
    '\u{1F3C2}', '\u{1F3CC}', '\u{1F3CA}', '\u{1F3C4}', '\u{1F3CD}', '\u{1F3CE}', '\u{1F698}', '\u{1F5E0}', // 0x88
    '\u{1F6E2}', '\u{1F4B0}', '\u{1F3F7}', '\u{1F4B3}', '\u{1F46A}', '\u{1F5E1}', '\u{1F5E2}', '\u{1F5E3}', // 0x90
    '\u{272F}', '\u{1F584}', '\u{1F585}', '\u{1F583}', '\u{1F586}', '\u{1F5B9}', '\u{1F5BA}', '\u{1F5BB}', // 0x98
    '\u{1F575}', '\u{1F570}', '\u{1F5BD}', '\u{1F5BE}', '\u{1F4CB}', '\u{1F5D2}', '\u{1F5D3}', '\u{1F56E}', // 0xA0
    '\u{1F4DA}', '\u{1F5DE}', '\u{1F5DF}', '\u{1F5C3}', '\u{1F5C2}', '\u{1F5BC}', '\u{1F3AD}', '\u{1F39C}', // 0xA8
    '\u{1F398}', '\u{1F399}', '\u{1F3A7}', '\u{1F4BF}', '\u{1F39E}', '\u{1F4F7}', '\u{1F39F}', '\u{1F3AC}', // 0xB0
    '\u{1F4FD}', '\u{1F4F9}', '\u{1F4FE}', '\u{1F4FB}', '\u{1F39A}', '\u{1F39B}', '\u{1F4FA}', '\u{1F4BB}', // 0xB8
    '\u{1F5A5}', '\u{1F5A6}', '\u{1F5A7}', '\u{1F579}', '\u{1F3AE}', '\u{1F57B}', '\u{1F57C}', '\u{1F4DF}', // 0xC0
    '\u{1F581}', '\u{1F580}', '\u{1F5A8}', '\u{1F5A9}', '\u{1F5BF}', '\u{1F5AA}', '\u{1F5DC}', '\u{1F512}', // 0xC8
    '\u{1F513}', '\u{1F5DD}', '\u{1F4E5}', '\u{1F4E4}', '\u{1F573}', '\u{1F323}', '\u{1F324}', '\u{1F325}', // 0xD0
    '\u{1F326}', '\u{2601}', '\u{1F328}', '\u{1F327}', '\u{1F329}', '\u{1F32A}', '\u{1F32C}', '\u{1F32B}', // 0xD8
    '\u{1F31C}', '\u{1F321}', '\u{1F6CB}', '\u{1F6CF}', '\u{1F37D}', '\u{1F378}', '\u{1F6CE}', '\u{1F6CD}', // 0xE0
    '\u{24C5}', '\u{267F}', '\u{1F6C6}', '\u{1F588}', '\u{1F393}', '\u{1F5E4}', '\u{1F5E5}', '\u{1F5E6}', // 0xE8
    '\u{1F5E7}', '\u{1F6EA}', '\u{1F43F}', '\u{1F426}', '\u{1F41F}', '\u{1F415}', '\u{1F408}', '\u{1F66C}', // 0xF0
    '\u{1F66E}', '\u{1F66D}', '\u{1F66F}', '\u{1F5FA}', '\u{1F30D}', '\u{1F30F}', '\u{1F30E}', '\u{1F54A}', // 0xF8
];

/// The entry of `code` in a table of codes 0x20-0xFF.
fn lookup(table: &[char; 224], code: u8) -> Option<char> {
    let c = *table.get(usize::from(code).checked_sub(0x20)?)?;
    (c != '\0').then_some(c)
}

fn wingdings(code: u8) -> Option<char> {
    lookup(&WINGDINGS, code)
}

fn webdings(code: u8) -> Option<char> {
    lookup(&WEBDINGS, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fonts_map_their_private_codes() {
        assert_eq!(resolve(Some("Symbol"), 0xF061), Some(Symbol::Mapped('α')));
        assert_eq!(resolve(Some("Symbol"), 0xF0AE), Some(Symbol::Mapped('→')));
        assert_eq!(resolve(Some("symbol"), 0xB7), Some(Symbol::Mapped('•')));
        assert_eq!(
            resolve(Some("Symbol"), 0xF0F0),
            Some(Symbol::Unknown('\u{F0F0}'))
        );
        assert_eq!(
            resolve(Some("Marlett"), 0xF061),
            Some(Symbol::Unknown('\u{F061}'))
        );
        assert_eq!(resolve(Some("Arial"), 0x2014), Some(Symbol::Plain('—')));
        assert_eq!(resolve(None, 0xD800), None);
    }

    /// A sample of each font against Unicode's mapping (UTC L2/12-368; Adobe's Symbol
    /// encoding): Greek, arrows, bullets, check marks and ballot boxes.
    #[test]
    fn samples_of_each_font_map_to_unicode() {
        let cases: [(&str, u32, char); 24] = [
            // Greek and math in Symbol.
            ("Symbol", 0xF061, 'α'),
            ("Symbol", 0xF062, 'β'),
            ("Symbol", 0xF044, 'Δ'),
            ("Symbol", 0xF057, 'Ω'),
            ("Symbol", 0xF070, 'π'),
            ("Symbol", 0xF0B4, '×'),
            ("Symbol", 0xF0DE, '⇒'),
            // Wingdings: bullets.
            ("Wingdings", 0xF09F, '•'),
            ("Wingdings", 0xF0A7, '▪'),
            ("Wingdings", 0xF06C, '\u{26AB}'),
            ("Wingdings", 0xF0A8, '\u{1F78E}'),
            ("Wingdings", 0xF076, '❖'),
            // Wingdings: arrows.
            ("Wingdings", 0xF0E8, '\u{1F87A}'),
            ("Wingdings", 0xF0D8, '\u{2B9A}'),
            ("Wingdings", 0xF0F0, '⇨'),
            // Wingdings: check marks and ballot boxes.
            ("Wingdings", 0xF0FC, '✓'),
            ("Wingdings", 0xF0FB, '\u{1F5F6}'),
            ("Wingdings", 0xF0FE, '\u{1F5F9}'),
            ("Wingdings", 0xF0FD, '\u{1F5F7}'),
            ("Wingdings", 0xF06F, '\u{1F78F}'),
            // Webdings: check mark, cancellation, media controls, the globe.
            ("Webdings", 0xF061, '✔'),
            ("Webdings", 0xF072, '\u{1F5D9}'),
            ("Webdings", 0xF034, '\u{23F5}'),
            ("Webdings", 0xF0FC, '\u{1F30D}'),
        ];
        for (font, code, want) in cases {
            assert_eq!(
                resolve(Some(font), code),
                Some(Symbol::Mapped(want)),
                "{font} {code:X}"
            );
        }
        // Bare bytes (older writers) map like the private-use codes.
        assert_eq!(resolve(Some("Wingdings"), 0xFC), Some(Symbol::Mapped('✓')));
        // Wingdings' last code (the Windows logo) was not encoded: no equivalent.
        assert_eq!(
            resolve(Some("Wingdings"), 0xF0FF),
            Some(Symbol::Unknown('\u{F0FF}'))
        );
    }

    #[test]
    fn every_wingdings_and_webdings_picture_has_a_character() {
        for code in 0x20u8..=0xFE {
            if code == 0x7F {
                continue;
            }
            assert!(wingdings(code).is_some(), "Wingdings {code:X}");
            assert!(webdings(code).is_some(), "Webdings {code:X}");
        }
        assert!(webdings(0xFF).is_some());
        // No two codes of one font show the same picture.
        for table in [&WINGDINGS, &WEBDINGS] {
            let mut seen = std::collections::HashSet::new();
            assert!(
                table
                    .iter()
                    .filter(|c| **c != '\0')
                    .all(|c| seen.insert(*c))
            );
        }
    }
}
