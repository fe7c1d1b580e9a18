//! Where a line may break inside text written without spaces between words: Thai, Lao, Khmer,
//! Myanmar and Tai Tham (UAX #14 class SA). UAX #14 leaves these to a dictionary; ICU4X's
//! dictionaries find the word boundaries. WebAssembly builds leave the dictionaries out (their
//! size budget): there such text breaks at its spaces only, which UAX #14 allows without one.

/// Whether `c` belongs to a script written without spaces between words (UAX #14 SA).
pub(crate) fn is_unspaced(c: char) -> bool {
    // Asked for every character the paged layout sets: text before Thai answers at once.
    if (c as u32) < 0x0E00 {
        return false;
    }
    matches!(c as u32,
        0x0E00..=0x0EFF          // Thai, Lao
        | 0x1000..=0x109F        // Myanmar
        | 0x1780..=0x17FF        // Khmer
        | 0x19E0..=0x19FF        // Khmer symbols
        | 0x1A20..=0x1AAF        // Tai Tham
        | 0xA9E0..=0xA9FF        // Myanmar extended-B
        | 0xAA60..=0xAA7F) // Myanmar extended-A
}

/// Byte offsets in `text`, ascending, where a line may break between two characters of such a
/// script: a word boundary the dictionary found. Empty for text without them.
pub(crate) fn unspaced_breaks(text: &str) -> Vec<usize> {
    if !text.chars().any(is_unspaced) {
        return Vec::new();
    }
    dictionary_breaks(text)
        .into_iter()
        .filter(|&i| {
            let before = text.get(..i).and_then(|t| t.chars().next_back());
            let after = text.get(i..).and_then(|t| t.chars().next());
            matches!((before, after), (Some(b), Some(a)) if is_unspaced(b) && is_unspaced(a))
        })
        .collect()
}

#[cfg(not(target_arch = "wasm32"))]
fn dictionary_breaks(text: &str) -> Vec<usize> {
    use icu_segmenter::LineSegmenter;
    use icu_segmenter::options::LineBreakOptions;
    // The compiled-in data: built once per call is cheap (no allocation for the borrowed
    // segmenter), and only text with such characters gets here.
    LineSegmenter::new_dictionary(LineBreakOptions::default())
        .segment_str(text)
        .collect()
}

#[cfg(target_arch = "wasm32")]
fn dictionary_breaks(_text: &str) -> Vec<usize> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thai_breaks_between_words_only() {
        let text = "ภาษาไทยเป็นภาษาราชการ มีผู้พูด";
        let breaks = unspaced_breaks(text);
        let mut words = Vec::new();
        let mut from = 0;
        for &i in &breaks {
            words.push(&text[from..i]);
            from = i;
        }
        words.push(&text[from..]);
        // The space is not one of these breaks: the layout breaks at spaces itself.
        assert_eq!(words, ["ภาษา", "ไทย", "เป็น", "ภาษา", "ราชการ มี", "ผู้", "พูด"]);
        // Never in front of a combining mark (the vowel and tone marks of เป็น, ผู้).
        for &i in &breaks {
            let next = text[i..].chars().next();
            assert!(
                next.is_some_and(|c| !crate::fonts::script::is_mark(c)),
                "{i}"
            );
        }
    }

    #[test]
    fn other_text_has_no_dictionary_breaks() {
        assert!(unspaced_breaks("plain English words").is_empty());
        assert!(unspaced_breaks("東京 مرحبا").is_empty());
        assert!(unspaced_breaks("").is_empty());
        assert!(is_unspaced('\u{0E00}') && !is_unspaced('\u{0DFF}') && !is_unspaced('a'));
    }
}
