//! What a character needs from a font: which writing system it belongs to (to pick a fallback
//! font that writes it), whether it must be shaped (joined, reordered, combined), and whether
//! a line may break around it without a space (UAX #14's ideographic classes).
//!
//! Ranges rather than the full Unicode script property: the fallback only needs to tell apart
//! the scripts whose fonts differ, and a lookup here runs for every character outside the
//! bundled fonts' Latin, Greek and Cyrillic.

/// A writing system, as far as choosing a font goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Script {
    /// Latin, Greek, Cyrillic, symbols, punctuation: what the bundled faces write.
    Common,
    Arabic,
    Hebrew,
    Syriac,
    Thaana,
    Devanagari,
    Bengali,
    Gurmukhi,
    Gujarati,
    Oriya,
    Tamil,
    Telugu,
    Kannada,
    Malayalam,
    Sinhala,
    Thai,
    Lao,
    Tibetan,
    Myanmar,
    Khmer,
    Georgian,
    Armenian,
    Ethiopic,
    /// Hangul syllables and jamo.
    Hangul,
    /// Hiragana and katakana.
    Kana,
    /// Han ideographs and CJK punctuation, shared by Chinese, Japanese and Korean.
    Han,
    /// Anything else: found by asking every font.
    Other,
}

impl Script {
    /// The script of `c`.
    pub(crate) fn of(c: char) -> Script {
        let u = c as u32;
        match u {
            0..=0x058F => {
                if (0x0530..=0x058F).contains(&u) {
                    Script::Armenian
                } else {
                    Script::Common
                }
            }
            0x0590..=0x05FF | 0xFB1D..=0xFB4F => Script::Hebrew,
            0x0600..=0x06FF
            | 0x0750..=0x077F
            | 0x0870..=0x08FF
            | 0xFB50..=0xFDFF
            | 0xFE70..=0xFEFF => Script::Arabic,
            0x0700..=0x074F | 0x0860..=0x086F => Script::Syriac,
            0x0780..=0x07BF => Script::Thaana,
            0x0900..=0x097F | 0xA8E0..=0xA8FF => Script::Devanagari,
            0x0980..=0x09FF => Script::Bengali,
            0x0A00..=0x0A7F => Script::Gurmukhi,
            0x0A80..=0x0AFF => Script::Gujarati,
            0x0B00..=0x0B7F => Script::Oriya,
            0x0B80..=0x0BFF => Script::Tamil,
            0x0C00..=0x0C7F => Script::Telugu,
            0x0C80..=0x0CFF => Script::Kannada,
            0x0D00..=0x0D7F => Script::Malayalam,
            0x0D80..=0x0DFF => Script::Sinhala,
            0x0E00..=0x0E7F => Script::Thai,
            0x0E80..=0x0EFF => Script::Lao,
            0x0F00..=0x0FFF => Script::Tibetan,
            0x1000..=0x109F => Script::Myanmar,
            0x10A0..=0x10FF | 0x2D00..=0x2D2F => Script::Georgian,
            0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF => Script::Hangul,
            0x1200..=0x139F | 0x2D80..=0x2DDF => Script::Ethiopic,
            0x1780..=0x17FF | 0x19E0..=0x19FF => Script::Khmer,
            0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Script::Kana,
            0x2E80..=0x2FDF
            | 0x3000..=0x303F
            | 0x3190..=0x31EF
            | 0x3200..=0x33FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF65
            | 0xFFE0..=0xFFEF
            | 0x20000..=0x3134F => Script::Han,
            0x1E00..=0x2E7F => Script::Common,
            _ => Script::Other,
        }
    }

    /// Whether text in this script is written right to left.
    #[cfg(test)]
    pub(crate) fn is_rtl(self) -> bool {
        matches!(
            self,
            Script::Arabic | Script::Hebrew | Script::Syriac | Script::Thaana
        )
    }
}

/// Whether a text must go through the shaper rather than a plain character-to-glyph map:
/// joining scripts, scripts whose vowels reorder or stack, and combining marks anywhere.
pub(crate) fn needs_shaping(text: &str) -> bool {
    // Every word of a Latin document is asked: ASCII is answered in one vectorised pass.
    !text.is_ascii()
        && text.chars().any(|c| {
            let u = c as u32;
            // Everything below the Hebrew block that is not a combining mark maps one to one.
            if u < 0x0590 {
                return (0x0300..=0x036F).contains(&u);
            }
            !matches!(
                Script::of(c),
                Script::Common | Script::Han | Script::Kana | Script::Hangul
            ) || (0x1AB0..=0x1AFF).contains(&u)
                || (0x1DC0..=0x1DFF).contains(&u)
                || (0x20D0..=0x20FF).contains(&u)
                || (0xFE20..=0xFE2F).contains(&u)
        })
}

/// Whether `c` is a combining mark or a dependent vowel sign: it belongs to the character
/// before it, so a line is never cut in front of it. (The common blocks of the scripts sdconv
/// shapes; a mark outside them only loses this protection when a word is cut.)
pub(crate) fn is_mark(c: char) -> bool {
    let u = c as u32;
    // ASCII and Latin-1 (most text the layout sets) hold no combining mark.
    if u < 0x0300 {
        return false;
    }
    matches!(u,
        0x0300..=0x036F
        | 0x0483..=0x0489
        | 0x0591..=0x05BD | 0x05BF | 0x05C1..=0x05C2 | 0x05C4..=0x05C5 | 0x05C7
        | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670 | 0x06D6..=0x06DC | 0x06DF..=0x06E4
        | 0x06E7..=0x06E8 | 0x06EA..=0x06ED
        | 0x0900..=0x0903 | 0x093A..=0x093C | 0x093E..=0x094F | 0x0951..=0x0957 | 0x0962..=0x0963
        | 0x0981..=0x0983 | 0x09BC | 0x09BE..=0x09CD | 0x09D7 | 0x09E2..=0x09E3
        | 0x0E31 | 0x0E34..=0x0E3A | 0x0E47..=0x0E4E
        | 0x0EB1 | 0x0EB4..=0x0EBC | 0x0EC8..=0x0ECD
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x200C..=0x200D | 0x20D0..=0x20FF
        | 0x3099..=0x309A | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F)
}

/// Whether a line may break before and after `c` with no space (UAX #14 classes ID, and the
/// kana and Hangul syllables that behave like it): Chinese and Japanese run without spaces.
/// Korean is written with spaces between words and breaks there, as Word does by default.
pub(crate) fn breaks_around(c: char) -> bool {
    let u = c as u32;
    // Asked twice for every character the paged layout sets: text before the CJK blocks (all
    // Latin, Greek, Cyrillic, Arabic…) answers at once instead of walking every range.
    if u < 0x2E80 {
        return false;
    }
    matches!(u,
        0x2E80..=0x2FDF
        | 0x3003..=0x3004 | 0x3006..=0x3007 | 0x3012..=0x3013 | 0x3020..=0x3029
        | 0x3030..=0x303A | 0x303D..=0x303F
        | 0x3042..=0x3096 | 0x30A2..=0x30FA | 0x31F0..=0x31FF
        | 0x3190..=0x31EF | 0x3200..=0x33FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF
        | 0xFF01 | 0xFF03..=0xFF07 | 0xFF0A..=0xFF0B | 0xFF0D | 0xFF0F..=0xFF19
        | 0xFF1C..=0xFF1E | 0xFF20..=0xFF3A | 0xFF3C | 0xFF3E..=0xFF5A | 0xFF5C | 0xFF5E
        | 0x20000..=0x3134F)
}

/// Characters a line must not start with (UAX #14 CL, CP, EX, IS, NS and the small kana:
/// Japanese kinsoku): closing brackets, full stops and commas of CJK text, `ー`, `々`.
pub(crate) fn no_break_before(c: char) -> bool {
    matches!(
        c,
        '、' | '。'
            | '，'
            | '．'
            | '：'
            | '；'
            | '？'
            | '！'
            | '）'
            | '」'
            | '』'
            | '】'
            | '〕'
            | '〉'
            | '》'
            | '〙'
            | '〗'
            | '］'
            | '｝'
            | '｠'
            | '〟'
            | 'ー'
            | '々'
            | '〻'
            | 'ゝ'
            | 'ゞ'
            | 'ヽ'
            | 'ヾ'
            | '・'
            | 'ぁ'
            | 'ぃ'
            | 'ぅ'
            | 'ぇ'
            | 'ぉ'
            | 'っ'
            | 'ゃ'
            | 'ゅ'
            | 'ょ'
            | 'ゎ'
            | 'ァ'
            | 'ィ'
            | 'ゥ'
            | 'ェ'
            | 'ォ'
            | 'ッ'
            | 'ャ'
            | 'ュ'
            | 'ョ'
            | 'ヮ'
            | 'ヵ'
            | 'ヶ'
            | ')'
            | ']'
            | '}'
            | '.'
            | ','
            | ':'
            | ';'
            | '!'
            | '?'
            | '%'
            | '’'
            | '”'
    )
}

/// Characters a line must not end with (UAX #14 OP and the opening quotes of CJK text).
pub(crate) fn no_break_after(c: char) -> bool {
    matches!(
        c,
        '（' | '「'
            | '『'
            | '【'
            | '〔'
            | '〈'
            | '《'
            | '〘'
            | '〖'
            | '［'
            | '｛'
            | '｟'
            | '〝'
            | '('
            | '['
            | '{'
            | '‘'
            | '“'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_of_sample_letters() {
        assert_eq!(Script::of('a'), Script::Common);
        assert_eq!(Script::of('Ж'), Script::Common);
        assert_eq!(Script::of('ب'), Script::Arabic);
        assert_eq!(Script::of('ש'), Script::Hebrew);
        assert_eq!(Script::of('東'), Script::Han);
        assert_eq!(Script::of('か'), Script::Kana);
        assert_eq!(Script::of('한'), Script::Hangul);
        assert_eq!(Script::of('ก'), Script::Thai);
        assert_eq!(Script::of('ह'), Script::Devanagari);
        assert!(Script::Arabic.is_rtl() && !Script::Thai.is_rtl());
    }

    #[test]
    fn what_needs_shaping() {
        assert!(!needs_shaping("Hello, wörld — Ελλάδα"));
        assert!(!needs_shaping("東京は日本の首都です"));
        assert!(needs_shaping("مرحبا"));
        assert!(needs_shaping("हिन्दी"));
        assert!(needs_shaping("ภาษาไทย"));
        // A combining acute accent after a Latin letter.
        assert!(needs_shaping("e\u{301}"));
    }

    #[test]
    fn marks_and_breaks() {
        assert!(is_mark('\u{0E34}') && is_mark('\u{093F}') && is_mark('\u{064E}'));
        assert!(!is_mark('a') && !is_mark('ก'));
        assert!(breaks_around('東') && breaks_around('か') && !breaks_around('한'));
        // The quick answers below the first range end exactly where the ranges start.
        assert!(breaks_around('\u{2E80}') && !breaks_around('\u{2E7F}') && !breaks_around('a'));
        assert!(is_mark('\u{0300}') && !is_mark('\u{02FF}') && !is_mark('é'));
        assert!(no_break_before('。') && no_break_before('っ') && !no_break_before('東'));
        assert!(no_break_after('「') && !no_break_after('」'));
    }
}
