//! Language tags (BCP 47) and the script facts readers and writers need about text: which of
//! Word's three language slots a character belongs to, and which languages are written right to
//! left.
//!
//! Word keeps three languages per run (`w:lang`): `w:val` for Latin and other simple scripts,
//! `w:eastAsia` for Chinese, Japanese and Korean, `w:bidi` for right-to-left and other complex
//! scripts (Arabic, Hebrew, Thai, Devanagari…), and picks one by the script of each character
//! (ECMA-376 Part 1, §17.3.2.20). The Word reader and writer both go through [`slot_of_char`] and
//! [`slot_of_language`] so that what one writes the other reads back.

use crate::lang::Language;

/// The longest tag we keep; BCP 47 tags in real documents are far shorter, and a bound keeps a
/// hostile attribute from travelling through every writer.
pub const MAX_TAG_LEN: usize = 64;

/// Which of Word's three language slots applies to some text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// `w:val`: Latin, Cyrillic, Greek and other simple scripts.
    Latin = 0,
    /// `w:eastAsia`: Han, kana, Hangul.
    EastAsian = 1,
    /// `w:bidi`: right-to-left and complex scripts.
    Complex = 2,
}

impl Slot {
    /// The `w:lang` attribute of this slot.
    pub fn attribute(self) -> &'static str {
        match self {
            Slot::Latin => "w:val",
            Slot::EastAsian => "w:eastAsia",
            Slot::Complex => "w:bidi",
        }
    }
}

/// The BCP 47 form of a language code as documents spell it: `_` becomes `-`, the language
/// subtag is lower case, a region upper case, a script title case (`de_DE` → `de-DE`,
/// `zh-hans-cn` → `zh-Hans-CN`). The API's own codes map to their tags (`en_EN` → `en`), since
/// `EN` is no region. `None` for anything that is not shaped like a tag.
pub fn normalize(code: &str) -> Option<String> {
    let code = code.trim();
    if code.is_empty() || code.len() > MAX_TAG_LEN {
        return None;
    }
    if let Some(api) = Language::parse_api(code) {
        return Some(api.bcp47().to_string());
    }
    let mut out = String::with_capacity(code.len());
    for (n, sub) in code.split(['-', '_']).enumerate() {
        let ok =
            !sub.is_empty() && sub.len() <= 8 && sub.bytes().all(|b| b.is_ascii_alphanumeric());
        // The primary language subtag is an ISO 639 code, two or three letters. BCP 47 keeps
        // four to eight letters for languages it may register one day, but none is, and a
        // browser or screen reader takes such a tag for no language (a Word file's
        // `dc:language` may say `language`).
        if !ok
            || (n == 0
                && !(sub.len() <= 3
                    && sub.len() >= 2
                    && sub.bytes().all(|b| b.is_ascii_alphabetic())))
        {
            return None;
        }
        if n > 0 {
            out.push('-');
        }
        let letters = sub.bytes().all(|b| b.is_ascii_alphabetic());
        if n > 0 && letters && sub.len() == 4 {
            let (first, rest) = sub.split_at(1);
            out.push_str(&first.to_ascii_uppercase());
            out.push_str(&rest.to_ascii_lowercase());
        } else if n > 0 && ((letters && sub.len() == 2) || (sub.len() == 3 && !letters)) {
            out.push_str(&sub.to_ascii_uppercase());
        } else {
            out.push_str(&sub.to_ascii_lowercase());
        }
    }
    Some(out)
}

/// Whether `tag` is already a tag in the form [`normalize`] gives.
pub fn is_normalized(tag: &str) -> bool {
    normalize(tag).as_deref() == Some(tag)
}

/// The primary language subtag (`ar` of `ar-SA`).
pub fn primary(tag: &str) -> &str {
    tag.split(['-', '_']).next().unwrap_or(tag)
}

/// Whether a language is written right to left by default (its primary subtag or an explicit
/// Arabic/Hebrew/Syriac/Thaana/N'Ko script subtag).
pub fn is_rtl_language(tag: &str) -> bool {
    const RTL: [&str; 14] = [
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "syr", "ug", "ur", "yi",
    ];
    let lower = primary(tag).to_ascii_lowercase();
    RTL.contains(&lower.as_str())
        || tag.split(['-', '_']).skip(1).any(|s| {
            ["arab", "hebr", "syrc", "thaa", "nkoo"].contains(&s.to_ascii_lowercase().as_str())
        })
}

/// The Word slot a language belongs in: Chinese, Japanese and Korean in `w:eastAsia`, right-to-
/// left and complex-script languages (Thai, Indic, …) in `w:bidi`, the rest in `w:val`.
pub fn slot_of_language(tag: &str) -> Slot {
    const EAST_ASIAN: [&str; 4] = ["zh", "ja", "ko", "yue"];
    const COMPLEX: [&str; 18] = [
        "th", "lo", "km", "my", "hi", "mr", "ne", "sa", "bn", "gu", "pa", "ta", "te", "kn", "ml",
        "si", "or", "bo",
    ];
    let lower = primary(tag).to_ascii_lowercase();
    if EAST_ASIAN.contains(&lower.as_str()) {
        Slot::EastAsian
    } else if COMPLEX.contains(&lower.as_str()) || is_rtl_language(tag) {
        Slot::Complex
    } else {
        Slot::Latin
    }
}

/// The Word slot a character is formatted with, or `None` for characters that belong to no
/// script (digits, punctuation, spaces), which take their surroundings' language.
pub fn slot_of_char(c: char) -> Option<Slot> {
    let u = c as u32;
    if u < 0x80 {
        // Most text is ASCII: no table walk for it.
        return c.is_ascii_alphabetic().then_some(Slot::Latin);
    }
    match u {
        // Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan…, Arabic supplements and extended.
        0x0590..=0x08FF
        // Indic scripts through Sinhala, Thai, Lao, Tibetan, Myanmar.
        | 0x0900..=0x109F
        // Khmer, Mongolian.
        | 0x1780..=0x18AF
        // Hebrew and Arabic presentation forms.
        | 0xFB1D..=0xFDFF
        | 0xFE70..=0xFEFF => {
            // Arabic-Indic digits are numbers, not letters: they follow their surroundings.
            if (0x0660..=0x0669).contains(&u) || (0x06F0..=0x06F9).contains(&u) {
                None
            } else {
                Some(Slot::Complex)
            }
        }
        // Hangul Jamo.
        0x1100..=0x11FF
        // CJK punctuation, kana, bopomofo, Hangul compatibility, CJK ideographs, Yi, Hangul.
        | 0x2E80..=0x2FDF
        | 0x3040..=0x9FFF
        | 0xA960..=0xA97F
        | 0xAC00..=0xD7FF
        | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF
        | 0x20000..=0x3FFFF => {
            // Fullwidth digits are still numbers.
            if (0xFF10..=0xFF19).contains(&u) {
                None
            } else {
                Some(Slot::EastAsian)
            }
        }
        // CJK symbols and punctuation (。、「」), but not the ideographic space.
        0x3001..=0x303F => Some(Slot::EastAsian),
        _ if c.is_alphabetic() => Some(Slot::Latin),
        _ => None,
    }
}

/// How many of `text`'s characters are letters of some slot ([`slot_of_char`]). ASCII text,
/// most of any document, is counted byte by byte (the language pass counts every paragraph).
pub fn letter_count(text: &str) -> usize {
    let mut counts = SlotCounts::default();
    counts.add(text);
    counts.0.iter().sum()
}

/// How many ASCII letters `bytes` holds, without a branch per byte (so the compiler can count
/// many bytes at once): setting bit 5 lowercases a letter, and only `a`–`z` then land below 26
/// once `a` is subtracted. Counted in byte-wide sums of at most 255 bytes, which cannot
/// overflow: a vector then adds sixteen or more bytes in one instruction, where word-wide
/// sums add two.
fn ascii_letters(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            let letters = chunk.iter().fold(0u8, |n, &b| {
                n + u8::from((b | 0x20).wrapping_sub(b'a') < 26)
            });
            usize::from(letters)
        })
        .sum()
}

/// The stretch of text [`SlotCounts::add`] tells ASCII or not at a time: long enough that the
/// test is cheap per byte, short enough that one curly quote in a paragraph does not send the
/// whole paragraph down the per-character path.
const ASCII_STRETCH: usize = 64;

/// Letters counted by [`Slot`]: which slot most of some text's letters belong to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SlotCounts([usize; 3]);

impl SlotCounts {
    /// Counts the letters of `text` (digits, spaces and punctuation count for no slot).
    pub fn add(&mut self, text: &str) {
        // Every run of a Word file is counted while its tree is built (on one core), and the
        // language pass counts every paragraph: ASCII text has Latin letters only, counted byte
        // by byte: the whole text at once when it is all ASCII (most runs), else a stretch at
        // a time.
        if text.is_ascii() {
            self.0[Slot::Latin as usize] += ascii_letters(text.as_bytes());
            return;
        }
        let mut rest = text;
        while !rest.is_empty() {
            // At least 61 bytes: a character is at most four.
            let stretch = crate::limits::char_prefix(rest, ASCII_STRETCH);
            let after = rest.get(stretch.len()..).unwrap_or_default();
            if stretch.is_ascii() {
                self.0[Slot::Latin as usize] += ascii_letters(stretch.as_bytes());
            } else {
                for c in stretch.chars() {
                    if let Some(slot) = slot_of_char(c) {
                        self.0[slot as usize] += 1;
                    }
                }
            }
            rest = after;
        }
    }

    /// The slot of most letters (`Latin` first on a tie); `None` without letters.
    pub fn majority(&self) -> Option<Slot> {
        let best = (0..3).max_by_key(|&i| (self.0[i], std::cmp::Reverse(i)))?;
        (self.0[best] > 0).then(|| [Slot::Latin, Slot::EastAsian, Slot::Complex][best])
    }

    /// The slot of most letters of `text`.
    pub fn of(text: &str) -> Option<Slot> {
        let mut counts = SlotCounts::default();
        counts.add(text);
        counts.majority()
    }
}

/// Whether two language codes name the same language: equal as tags, or one a prefix of the
/// other by whole subtags (`en` and `en-US`), as an API code and a document's tag often are.
pub fn same_language(a: &str, b: &str) -> bool {
    let (Some(a), Some(b)) = (normalize(a), normalize(b)) else {
        return false;
    };
    let prefix = |short: &str, long: &str| {
        long.strip_prefix(short)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    };
    prefix(&a, &b) || prefix(&b, &a)
}

/// Whether a character is a strong right-to-left letter (Hebrew, Arabic and their relatives).
pub fn is_rtl_char(c: char) -> bool {
    let u = c as u32;
    matches!(u, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
        && !((0x0660..=0x0669).contains(&u) || (0x06F0..=0x06F9).contains(&u))
        && c.is_alphabetic()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_counted_alike_on_both_paths() {
        for text in ["abc, 123 def!", "abc ünd 東京 مرحبا ١٢٣", "", "123 ٣"] {
            let slow = text.chars().filter(|c| slot_of_char(*c).is_some()).count();
            assert_eq!(letter_count(text), slow, "{text}");
        }
        assert_eq!(letter_count("abc, 123 def!"), 6);
        let every_byte: Vec<u8> = (0..=255).collect();
        assert_eq!(
            ascii_letters(&every_byte),
            every_byte
                .iter()
                .filter(|b| b.is_ascii_alphabetic())
                .count()
        );
        // Letters only, far past what one byte-wide sum holds.
        assert_eq!(letter_count(&"a".repeat(1000)), 1000);
        assert_eq!(ascii_letters("Z".repeat(256).as_bytes()), 256);
        // Long text with characters of other scripts on and across the stretch boundaries.
        let long = format!(
            "{}ü{}東京{}مرحبا{}",
            "a".repeat(63),
            "b, ".repeat(21),
            "c".repeat(300),
            "1".repeat(64)
        );
        for text in [
            "abc, 123 def!",
            "abc ünd 東京 مرحبا ١٢٣",
            "",
            "123 ٣",
            "東京 ab",
            &long,
        ] {
            let mut slow = SlotCounts::default();
            for c in text.chars() {
                if let Some(slot) = slot_of_char(c) {
                    slow.0[slot as usize] += 1;
                }
            }
            let mut fast = SlotCounts::default();
            fast.add(text);
            assert_eq!(fast, slow, "{text}");
        }
        let mut counts = SlotCounts::default();
        counts.add("ab1");
        counts.add("東京東");
        assert_eq!(counts.0, [2, 3, 0]);
        assert_eq!(counts.majority(), Some(Slot::EastAsian));
        assert_eq!(letter_count("東京 مرحبا ١٢٣"), 7);
    }

    #[test]
    fn normalizes_the_spellings_documents_use() {
        assert_eq!(normalize("de_DE").as_deref(), Some("de-DE"));
        assert_eq!(normalize("ar-SA").as_deref(), Some("ar-SA"));
        assert_eq!(normalize("en_EN").as_deref(), Some("en"));
        assert_eq!(normalize("ZH-hans-cn").as_deref(), Some("zh-Hans-CN"));
        assert_eq!(normalize("es-419").as_deref(), Some("es-419"));
        assert_eq!(normalize(" ja-JP ").as_deref(), Some("ja-JP"));
        for bad in ["", "-", "a b", "1de", "de--DE", "x<y", "abcdefghi-DE"] {
            assert_eq!(normalize(bad), None, "{bad:?}");
        }
        assert_eq!(normalize(&"a".repeat(100)), None);
        // A word where a language should be (a Word file's `dc:language`): no primary tag.
        assert_eq!(normalize("language"), None);
        assert!(is_normalized("he-IL") && !is_normalized("he_IL"));
        let meta = |l: &str| crate::ast::Meta {
            language: Some(l.to_string()),
            ..Default::default()
        };
        assert_eq!(meta("de_DE").lang_tag().as_deref(), Some("de-DE"));
        assert_eq!(meta("ar-SA").lang_tag().as_deref(), Some("ar-SA"));
        assert_eq!(meta("en_EN").lang_tag().as_deref(), Some("en"));
        assert_eq!(meta("not a tag").lang_tag(), None);
    }

    #[test]
    fn slots_follow_the_script() {
        assert_eq!(slot_of_char('a'), Some(Slot::Latin));
        assert_eq!(slot_of_char('ж'), Some(Slot::Latin));
        assert_eq!(slot_of_char('س'), Some(Slot::Complex));
        assert_eq!(slot_of_char('ש'), Some(Slot::Complex));
        assert_eq!(slot_of_char('ก'), Some(Slot::Complex));
        assert_eq!(slot_of_char('ह'), Some(Slot::Complex));
        assert_eq!(slot_of_char('東'), Some(Slot::EastAsian));
        assert_eq!(slot_of_char('か'), Some(Slot::EastAsian));
        assert_eq!(slot_of_char('한'), Some(Slot::EastAsian));
        assert_eq!(slot_of_char('。'), Some(Slot::EastAsian));
        for neutral in ['1', '٤', ' ', '.', '%'] {
            assert_eq!(slot_of_char(neutral), None, "{neutral:?}");
        }
        assert_eq!(slot_of_language("ar-SA"), Slot::Complex);
        assert_eq!(slot_of_language("th-TH"), Slot::Complex);
        assert_eq!(slot_of_language("ja-JP"), Slot::EastAsian);
        assert_eq!(slot_of_language("de-DE"), Slot::Latin);
        assert!(is_rtl_language("fa-IR") && is_rtl_language("az-Arab"));
        assert!(!is_rtl_language("hi-IN"));
        assert!(is_rtl_char('ا') && !is_rtl_char('٣') && !is_rtl_char('a'));
        assert_eq!(SlotCounts::of("Python لغة برمجة"), Some(Slot::Complex));
        assert_eq!(SlotCounts::of("ab 東"), Some(Slot::Latin));
        assert_eq!(SlotCounts::of(" 2023. "), None);
        assert!(same_language("en", "en-US") && same_language("en_EN", "en-GB"));
        assert!(!same_language("en", "eng") && !same_language("de-DE", "de-AT"));
    }
}
