//! Hyphenation: where a word may break at the end of a line, with a hyphen drawn there.
//!
//! Two sources of break points: soft hyphens in the text (U+00AD, Word's optional hyphens),
//! which [`super::text`] turns into [`Token::Hyphen`] always, and, when the document asks
//! for it (`w:autoHyphenation`) or the caller does, the Liang patterns of the paragraph's
//! language (hypher: about 35 languages, none right to left). Only a word that is one run of
//! text in one style is split; its letters stay two from the start and three from the end
//! of a break, as TeX's `\lefthyphenmin` and `\righthyphenmin` keep them.
//!
//! The breakers ([`super::fit`], the greedy [`super::lines`]) treat a hyphen point as a
//! break that costs a penalty and adds the hyphen's width to the line that ends there; a
//! point not broken at draws nothing.

use super::text::Token;
use crate::fonts::book::{self, FontId};
use crate::fonts::shape::Glyph;

/// Letters kept before the first break point and after the last.
const LEFT_MIN: usize = 2;
const RIGHT_MIN: usize = 3;
/// Words shorter than this are never split (as Word's default "hyphenation zone" leaves
/// short words whole).
const MIN_WORD: usize = LEFT_MIN + RIGHT_MIN;
/// Words longer than this are not looked up (hypher allocates past ~45 bytes; such a
/// "word" is a URL or a code, which patterns would split wrongly anyway).
const MAX_WORD: usize = 64;

/// The hyphenation patterns for a BCP 47 language tag, if hypher has them.
pub(crate) fn language(tag: Option<&str>) -> Option<hypher::Lang> {
    let primary = tag?.split(['-', '_']).next()?;
    let bytes: [u8; 2] = primary.to_ascii_lowercase().as_bytes().try_into().ok()?;
    hypher::Lang::from_iso(bytes)
}

/// The width of the hyphen drawn where a word in `font` at `size` points breaks.
pub(crate) fn hyphen_width(font: FontId, size: f32) -> f32 {
    book::advance_of(font, "-") * size / 1000.0
}

/// The glyph drawn at a break: the font's hyphen, carrying the text U+00AD (two bytes in
/// UTF-8) so that a text extractor or screen reader knows it only marks a break (ISO
/// 32000-1, 14.8.2.2.3: a hyphen the layout adds is a soft hyphen in the text).
pub(crate) fn hyphen_glyph(font: FontId) -> Glyph {
    Glyph {
        id: book::glyph(font, '-').unwrap_or(0),
        advance: book::advance_of(font, "-"),
        dx: 0.0,
        dy: 0.0,
        start: 0,
        end: '\u{AD}'.len_utf8() as u32,
    }
}

/// Puts a [`Token::Hyphen`] at each point where the patterns of `lang` break a word that is
/// one text token between spaces (or breaks, or the paragraph's ends).
pub(crate) fn insert(tokens: &mut Vec<Token>, lang: hypher::Lang) {
    let is_edge = |t: Option<&Token>| {
        matches!(
            t,
            None | Some(Token::Space { .. } | Token::Break | Token::Hyphen { .. })
        )
    };
    // The break points of each token first: most paragraphs have no word to split, and
    // then the tokens stay where they are.
    let cuts: Vec<Vec<usize>> = (0..tokens.len())
        .map(|i| match &tokens[i] {
            Token::Text {
                text, glyphs: None, ..
            } if is_edge(i.checked_sub(1).and_then(|p| tokens.get(p)))
                && is_edge(tokens.get(i + 1)) =>
            {
                cuts(text, lang)
            }
            _ => Vec::new(),
        })
        .collect();
    let added: usize = cuts.iter().map(|c| 2 * c.len()).sum();
    if added == 0 {
        return;
    }
    let mut out = Vec::with_capacity(tokens.len() + added);
    for (token, cuts) in std::mem::take(tokens).into_iter().zip(cuts) {
        let Token::Text {
            text, style, font, ..
        } = &token
        else {
            out.push(token);
            continue;
        };
        if cuts.is_empty() {
            out.push(token);
            continue;
        }
        let mut from = 0;
        for cut in cuts.into_iter().chain(std::iter::once(text.len())) {
            let part = &text[from..cut];
            out.push(Token::Text {
                text: part.into(),
                style: *style,
                width: book::advance_of(*font, part) * style.size / 1000.0,
                font: *font,
                glyphs: None,
            });
            if cut < text.len() {
                out.push(Token::Hyphen {
                    width: hyphen_width(*font, style.size),
                });
            }
            from = cut;
        }
    }
    *tokens = out;
}

/// The byte offsets in `word` where the patterns allow a break, leaving punctuation around
/// the letters alone ("(extensive)," breaks inside "extensive" only).
fn cuts(word: &str, lang: hypher::Lang) -> Vec<usize> {
    let Some(first) = word.find(char::is_alphabetic) else {
        return Vec::new();
    };
    let last = word
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_alphabetic())
        .map_or(word.len(), |(i, c)| i + c.len_utf8());
    let core = &word[first..last];
    let letters = core.chars().count();
    // A word with digits, marks or inner punctuation other than an apostrophe is a name, a
    // number or a code: left whole.
    if !(MIN_WORD..=MAX_WORD).contains(&letters)
        || !core.chars().all(|c| c.is_alphabetic() || c == '\'')
    {
        return Vec::new();
    }
    // The patterns are written in lower case; a character whose lower case is longer or
    // shorter (Turkish İ) would shift the offsets, so such words stay whole.
    let lower: String = core.chars().flat_map(char::to_lowercase).collect();
    if lower.chars().count() != letters {
        return Vec::new();
    }
    // The byte offset of each character of `core` (at most MAX_WORD of them).
    let offsets: Vec<usize> = core.char_indices().map(|(i, _)| i).collect();
    let mut out = Vec::new();
    let mut chars = 0usize;
    for syllable in hypher::hyphenate_bounded(&lower, lang, LEFT_MIN, RIGHT_MIN) {
        chars += syllable.chars().count();
        match offsets.get(chars) {
            Some(&o) if o > 0 => out.push(first + o),
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(word: &str, lang: &str) -> String {
        let lang = language(Some(lang)).expect("patterns");
        let mut out = String::new();
        let mut from = 0;
        for c in cuts(word, lang) {
            out.push_str(&word[from..c]);
            out.push('-');
            from = c;
        }
        out.push_str(&word[from..]);
        out
    }

    #[test]
    fn words_split_by_the_languages_patterns() {
        assert_eq!(split("extensive", "en-US"), "ex-ten-sive");
        assert_eq!(split("(Hyphenation),", "en"), "(Hy-phen-ation),");
        assert_eq!(split("Silbentrennung", "de-DE"), "Sil-ben-tren-nung");
        // Non-ASCII letters keep their byte offsets; "bü-ro" would leave two letters after.
        assert_eq!(split("Übersetzungsbüro", "de"), "Über-set-zungs-büro");
        // Short words, numbers and codes stay whole.
        assert_eq!(split("the", "en"), "the");
        assert_eq!(split("x86_64-linux", "en"), "x86_64-linux");
        assert_eq!(split("1234567", "en"), "1234567");
    }

    #[test]
    fn languages_without_patterns_give_none() {
        assert!(language(Some("ar-SA")).is_none());
        assert!(language(Some("zh-CN")).is_none());
        assert!(language(None).is_none());
        assert!(language(Some("english")).is_none());
        assert!(language(Some("fr_FR")).is_some());
    }
}
