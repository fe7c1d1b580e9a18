//! Stage two: how Word draws the numbers of the numbered paragraphs a document holds: each list
//! level's number format and level text (`w:lvlText`, `%1.%2`, `(%3)`, `%3%3)`), by the list id and
//! level the tree gives those paragraphs.
//!
//! The tree keeps a list's id, level and number format, which is all a writer needs to number
//! it again. Magic import needs more: whether Word shows `1.1` or `1.`, `a)` or `aa)` at a level,
//! so that Word's automatic numbers take the same style-set rules as numbers typed into the text.

use std::collections::HashMap;

use crate::ast::NumberFormat;

/// One list level as Word draws it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberLook {
    /// `w:numFmt`, as the tree names it.
    pub format: NumberFormat,
    /// `w:lvlText`, when the level has one.
    pub text: Option<String>,
}

/// The looks of the list levels a document's numbered paragraphs use, keyed by the
/// paragraph's `list_id` and `level` in the tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NumberLooks {
    levels: HashMap<(String, u8), NumberLook>,
}

impl NumberLooks {
    /// Records the look of list `list_id` at tree `level`. The first paragraph seen wins: one
    /// list id at one tree level is one Word level in every document but contrived ones.
    pub fn record(&mut self, list_id: &str, level: u8, look: impl FnOnce() -> NumberLook) {
        // Made only for the first paragraph of a level: the level's text is the numbering
        // part's, which thousands of paragraphs may name.
        self.levels
            .entry((list_id.to_string(), level))
            .or_insert_with(look);
    }

    /// Records what `later` recorded, as if its paragraphs came after these.
    pub fn extend(&mut self, later: NumberLooks) {
        for (key, look) in later.levels {
            self.levels.entry(key).or_insert(look);
        }
    }

    /// The look of list `list_id` at tree `level`.
    pub fn get(&self, list_id: &str, level: u8) -> Option<&NumberLook> {
        self.levels.get(&(list_id.to_string(), level))
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_look_of_a_level_wins() {
        let mut looks = NumberLooks::default();
        let look = |t: &str| NumberLook {
            format: NumberFormat::Decimal,
            text: Some(t.into()),
        };
        looks.record("3", 1, || look("%1.%2"));
        looks.record("3", 1, || look("%2."));
        assert_eq!(looks.get("3", 1), Some(&look("%1.%2")));
        assert_eq!(looks.get("3", 0), None);
        assert!(!looks.is_empty());
    }
}
