//! What a Word list level shows, read from its level text (`w:lvlText`) and number format: the
//! same facts a typed marker gives (`1.1` has two parts, `(a)` is a letter, `aa)` a doubled
//! letter), so automatic numbers take the rule a typed number would.

use crate::ast::NumberFormat;
use crate::import::docx::NumberLook;

/// The shape of a drawn number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// How many levels' numbers it shows (`%1.%2` = 2, `(%3)` = 1).
    pub parts: usize,
    /// The level's own number is drawn twice in a row (`%3%3)`: `aa)`, `bb)`).
    pub doubled: bool,
    /// The level's own number format.
    pub format: NumberFormat,
}

/// Reads `look`'s level text. `None` when there is none or it shows no number (a bullet, a
/// fixed text): then only the number format can be matched.
pub fn of(look: &NumberLook) -> Option<Shape> {
    let text = look.text.as_deref()?;
    // `%1`..`%9` stand for the counters of levels 1..9.
    let mut placeholders: Vec<(usize, u8)> = Vec::new();
    let bytes = text.as_bytes();
    for (i, pair) in bytes.windows(2).enumerate() {
        if pair[0] == b'%' && (b'1'..=b'9').contains(&pair[1]) {
            placeholders.push((i, pair[1] - b'0'));
        }
    }
    let &(last_at, last) = placeholders.last()?;
    let doubled = placeholders.len() >= 2
        && placeholders
            .get(placeholders.len() - 2)
            .is_some_and(|&(at, level)| level == last && at + 2 == last_at);
    let mut levels: Vec<u8> = placeholders.iter().map(|&(_, l)| l).collect();
    levels.sort_unstable();
    levels.dedup();
    Some(Shape {
        parts: levels.len(),
        doubled,
        format: look.format,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(format: NumberFormat, text: &str) -> Option<Shape> {
        of(&NumberLook {
            format,
            text: Some(text.into()),
        })
    }

    #[test]
    fn level_texts() {
        let s = shape(NumberFormat::Decimal, "%1.%2.%3").unwrap();
        assert_eq!((s.parts, s.doubled), (3, false));
        let s = shape(NumberFormat::LowerLetter, "(%2)").unwrap();
        assert_eq!((s.parts, s.doubled), (1, false));
        let s = shape(NumberFormat::LowerLetter, "%3%3)").unwrap();
        assert_eq!((s.parts, s.doubled), (1, true));
        let s = shape(NumberFormat::Decimal, "§ %1").unwrap();
        assert_eq!((s.parts, s.doubled), (1, false));
        assert_eq!(shape(NumberFormat::Bullet, "\u{f0b7}"), None);
        assert_eq!(shape(NumberFormat::Decimal, "100%"), None);
        assert_eq!(
            of(&NumberLook {
                format: NumberFormat::Decimal,
                text: None
            }),
            None
        );
    }
}
