//! Character sets of metafile text: ANSI strings (WMF TEXTOUT, EMF EXTTEXTOUTA) as Windows
//! code page 1252, and the Symbol font's own encoding (equation previews write Greek letters
//! and operators in it) mapped to Unicode so the SVG's text means what it shows.

/// Windows-1252 bytes 0x80..=0x9F (the rest is Latin-1).
const CP1252_HIGH: [u16; 32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
];

/// Adobe Symbol encoding, bytes 0x20..=0x7F (0 where the byte keeps its ASCII meaning).
const SYMBOL_LOW: [u16; 96] = [
    0, 0, 0x2200, 0, 0x2203, 0, 0, 0x220B, 0, 0, 0x2217, 0, 0, 0x2212, 0, 0, // 0x20
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // 0x30
    0x2245, 0x0391, 0x0392, 0x03A7, 0x0394, 0x0395, 0x03A6, 0x0393, 0x0397, 0x0399, 0x03D1, 0x039A,
    0x039B, 0x039C, 0x039D, 0x039F, // 0x40
    0x03A0, 0x0398, 0x03A1, 0x03A3, 0x03A4, 0x03A5, 0x03C2, 0x03A9, 0x039E, 0x03A8, 0x0396, 0,
    0x2234, 0, 0x22A5, 0, // 0x50
    0x203E, 0x03B1, 0x03B2, 0x03C7, 0x03B4, 0x03B5, 0x03C6, 0x03B3, 0x03B7, 0x03B9, 0x03D5, 0x03BA,
    0x03BB, 0x03BC, 0x03BD, 0x03BF, // 0x60
    0x03C0, 0x03B8, 0x03C1, 0x03C3, 0x03C4, 0x03C5, 0x03D6, 0x03C9, 0x03BE, 0x03C8, 0x03B6, 0, 0,
    0, 0x223C, 0, // 0x70
];

/// Adobe Symbol encoding, bytes 0xA0..=0xFF.
const SYMBOL_HIGH: [u16; 96] = [
    0x20AC, 0x03D2, 0x2032, 0x2264, 0x2044, 0x221E, 0x0192, 0x2663, 0x2666, 0x2665, 0x2660, 0x2194,
    0x2190, 0x2191, 0x2192, 0x2193, // 0xA0
    0x00B0, 0x00B1, 0x2033, 0x2265, 0x00D7, 0x221D, 0x2202, 0x2022, 0x00F7, 0x2260, 0x2261, 0x2248,
    0x2026, 0x23D0, 0x23AF, 0x21B5, // 0xB0
    0x2135, 0x2111, 0x211C, 0x2118, 0x2297, 0x2295, 0x2205, 0x2229, 0x222A, 0x2283, 0x2287, 0x2284,
    0x2282, 0x2286, 0x2208, 0x2209, // 0xC0
    0x2220, 0x2207, 0x00AE, 0x00A9, 0x2122, 0x220F, 0x221A, 0x22C5, 0x00AC, 0x2227, 0x2228, 0x21D4,
    0x21D0, 0x21D1, 0x21D2, 0x21D3, // 0xD0
    0x25CA, 0x2329, 0x00AE, 0x00A9, 0x2122, 0x2211, 0x239B, 0x239C, 0x239D, 0x23A1, 0x23A2, 0x23A3,
    0x23A7, 0x23A8, 0x23A9, 0x23AA, // 0xE0
    0x0020, 0x232A, 0x222B, 0x2320, 0x23AE, 0x2321, 0x239E, 0x239F, 0x23A0, 0x23A4, 0x23A5, 0x23A6,
    0x23AB, 0x23AC, 0x23AD, 0x0020, // 0xF0
];

/// Decodes ANSI bytes as Windows-1252, stopping at a NUL.
pub(crate) fn ansi(bytes: &[u8]) -> String {
    bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| match b {
            0x80..=0x9F => char::from_u32(CP1252_HIGH[(b - 0x80) as usize] as u32).unwrap_or(' '),
            b => b as char,
        })
        .collect()
}

/// Whether a font face uses the Symbol encoding.
pub(crate) fn is_symbol_face(face: &str) -> bool {
    face.trim().eq_ignore_ascii_case("symbol")
}

/// Maps text drawn in the Symbol font to Unicode: both the byte form and the private-use form
/// (U+F020..U+F0FF) that Unicode text records use for symbol fonts.
pub(crate) fn symbol_to_unicode(s: &str) -> String {
    s.chars()
        .map(|c| {
            let code = c as u32;
            let byte = if (0xF020..=0xF0FF).contains(&code) {
                code - 0xF000
            } else if code <= 0xFF {
                code
            } else {
                return c;
            };
            let mapped = match byte {
                0x20..=0x7F => SYMBOL_LOW[(byte - 0x20) as usize],
                0xA0..=0xFF => SYMBOL_HIGH[(byte - 0xA0) as usize],
                _ => 0,
            };
            if mapped != 0 {
                char::from_u32(mapped as u32).unwrap_or(c)
            } else {
                char::from_u32(byte).unwrap_or(c)
            }
        })
        .collect()
}

/// A CSS font family list for a face: the face, then a generic family from LOGFONT's
/// pitch-and-family byte (MS-WMF 2.1.1.8) or, when that says nothing, from the name.
pub(crate) fn family_list(face: &str, pitch_family: u8) -> String {
    let clean: String = face
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\' | ';' | '<' | '>' | '&') && !c.is_control())
        .collect();
    let lower = clean.to_ascii_lowercase();
    let generic = match pitch_family & 0xF0 {
        0x10 => "serif",
        0x20 => "sans-serif",
        0x30 => "monospace",
        0x40 => "cursive",
        _ if [
            "times", "roman", "serif", "cambria", "georgia", "garamond", "book",
        ]
        .iter()
        .any(|k| lower.contains(k))
            && !lower.contains("sans") =>
        {
            "serif"
        }
        _ if ["courier", "mono", "consolas", "fixed"]
            .iter()
            .any(|k| lower.contains(k)) =>
        {
            "monospace"
        }
        _ => "sans-serif",
    };
    let clean = clean.trim();
    if clean.is_empty() {
        generic.to_string()
    } else {
        format!("'{clean}', {generic}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansi_and_symbol() {
        assert_eq!(ansi(b"a\x80b\0junk"), "a\u{20ac}b");
        assert_eq!(symbol_to_unicode("ab\u{f070}="), "\u{3b1}\u{3b2}\u{3c0}=");
        assert_eq!(symbol_to_unicode("\u{b4}"), "\u{d7}");
    }

    #[test]
    fn families() {
        assert_eq!(
            family_list("Times New Roman", 0),
            "'Times New Roman', serif"
        );
        assert_eq!(family_list("Arial", 0x22), "'Arial', sans-serif");
        assert_eq!(family_list("", 0x31), "monospace");
        assert_eq!(family_list("a'b\"c", 0), "'abc', sans-serif");
    }
}
