//! Filters: which blocks an action applies to. A block must pass every filter of the action.

use serde::Deserialize;
use serde_json::Value;

use crate::ast::inline::{Leaf, plain_text, to_runs};
use crate::ast::{Block, Inline, Mark, MediaStore, TextStyle, TextType};

/// Image orientation, by displayed size (or pixel size when the source gives none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    /// Wider than high.
    Landscape,
    /// Higher than wide (or square).
    Portrait,
}

/// One filter, as the catalog spells it: `{"type": "short", "maxChars": 80}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Filter {
    /// A paragraph of any text type.
    Paragraph,
    /// An image block.
    Image,
    /// A table.
    Table,
    /// A page break.
    PageBreak,
    /// A paragraph of this `textType` (API spelling).
    TextType {
        /// `paragraph`, `heading`, …
        #[serde(rename = "textType")]
        text_type: TextType,
    },
    /// A paragraph without visible content (only whitespace, no image, note or anchor).
    Empty,
    /// A paragraph whose every visible character is bold.
    AllBold,
    /// A paragraph of at most `maxChars` characters (default 80), not empty.
    Short {
        /// The limit.
        #[serde(default = "eighty", rename = "maxChars")]
        max_chars: usize,
    },
    /// A block whose source style name is this one (case-insensitive).
    Style {
        /// The style name.
        style: String,
    },
    /// An image in this orientation.
    Orientation {
        /// `landscape` or `portrait`.
        orientation: Orientation,
    },
    /// A paragraph whose text starts with a typed number (`1.`, `a)`, `§ 3`).
    TypedNumbering,
    /// A paragraph whose text does not end with `.`, `!`, `?`, `:` or `;`.
    NoFinalPunctuation,
    /// A paragraph that ends in the middle of a sentence: its last character is a letter, a
    /// digit or a comma.
    EndsMidSentence,
}

fn eighty() -> usize {
    80
}

impl Filter {
    /// Reads one filter from the catalog; the error is serde's (it names the unknown type).
    pub fn deserialize_value(v: &Value) -> Result<Filter, String> {
        Filter::deserialize(v).map_err(|e| e.to_string())
    }

    /// Whether `block` passes.
    pub fn matches(&self, block: &Block, media: &MediaStore) -> bool {
        let para = match block {
            Block::Paragraph(p) => Some(p),
            _ => None,
        };
        let text = || para.map(|p| plain_text(&p.content)).unwrap_or_default();
        match self {
            Filter::Paragraph => para.is_some(),
            Filter::Image => matches!(block, Block::Image(_)),
            Filter::Table => matches!(block, Block::Table(_)),
            Filter::PageBreak => matches!(block, Block::PageBreak),
            Filter::TextType { text_type } => para.is_some_and(|p| p.kind == *text_type),
            Filter::Empty => para.is_some_and(|p| is_empty(&p.content)),
            Filter::AllBold => para.is_some_and(|p| Boldness::of(&p.content).all_bold()),
            Filter::Short { max_chars } => {
                let t = text();
                let n = t.trim().chars().count();
                para.is_some() && n > 0 && n <= *max_chars
            }
            Filter::Style { style } => {
                let s = match block {
                    Block::Paragraph(p) => p.style.as_deref(),
                    Block::Image(i) => i.style.as_deref(),
                    Block::Table(t) => t.style.as_deref(),
                    _ => None,
                };
                s.is_some_and(|s| s.eq_ignore_ascii_case(style))
            }
            Filter::Orientation { orientation } => match block {
                Block::Image(img) => {
                    let size = img.extent.map(|e| (e.width, e.height)).or_else(|| {
                        let m = media.get(&img.media)?;
                        Some((u64::from(m.width?), u64::from(m.height?)))
                    });
                    size.is_some_and(|(w, h)| {
                        (w > h) == matches!(orientation, Orientation::Landscape)
                    })
                }
                _ => false,
            },
            Filter::TypedNumbering => para.is_some_and(|p| {
                crate::magic::marker::parse(&crate::magic::marker::leading_text(&p.content))
                    .is_some()
            }),
            Filter::NoFinalPunctuation => para.is_some_and(|p| {
                !last_plain_char(&p.content).is_some_and(|c| FINAL_PUNCTUATION.contains(&c))
            }),
            Filter::EndsMidSentence => para.is_some_and(|p| ends_mid_sentence(&p.content)),
        }
    }
}

/// Whether inline content shows nothing: only whitespace text, no atoms.
pub fn is_empty(content: &[Inline]) -> bool {
    to_runs(content).iter().all(|r| match &r.leaf {
        Leaf::Text(t) => t.trim().is_empty(),
        // A lone line break shows nothing either.
        Leaf::LineBreak => true,
        Leaf::Atom(_) => false,
    })
}

/// What [`Filter::AllBold`] reads of a paragraph. Content followed by more content is all bold
/// when both parts have no visible text outside bold and one has some in bold, so a paragraph
/// that keeps growing at its end (`merge-with-next`) is asked only of what it takes in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Boldness {
    /// No visible text outside bold.
    no_plain: bool,
    /// Some visible text in bold.
    any_bold: bool,
}

impl Boldness {
    /// The boldness of `content`.
    pub(crate) fn of(content: &[Inline]) -> Self {
        let mut b = Boldness {
            no_plain: true,
            any_bold: false,
        };
        for r in &to_runs(content) {
            if let Leaf::Text(t) = &r.leaf {
                if t.trim().is_empty() {
                    continue;
                }
                if !r.marks.contains(&Mark::Style(TextStyle::Bold)) {
                    // Nothing after it can make the content all bold.
                    b.no_plain = false;
                    return b;
                }
                b.any_bold = true;
            }
        }
        b
    }

    /// The boldness of this content followed by content of boldness `next`.
    pub(crate) fn then(self, next: Boldness) -> Self {
        Boldness {
            no_plain: self.no_plain && next.no_plain,
            any_bold: self.any_bold || next.any_bold,
        }
    }

    /// Whether every visible character is bold, and there is one.
    pub(crate) fn all_bold(self) -> bool {
        self.no_plain && self.any_bold
    }
}

/// Whether the last visible character of `content` is a letter, digit or comma (and the
/// content ends with text, not with a note or image). It looks from the end, so asking it of a
/// paragraph that keeps growing at its end (`merge-with-next`) costs what it reads there, not
/// the whole paragraph each time.
pub fn ends_mid_sentence(content: &[Inline]) -> bool {
    match last_shown(content) {
        Some(Inline::Text { text }) => text
            .trim_end()
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == ','),
        _ => false,
    }
}

/// What ends a sentence, for [`Filter::NoFinalPunctuation`].
const FINAL_PUNCTUATION: [char; 6] = ['.', '!', '?', ':', ';', '…'];

/// The last character of the [`plain_text`] of `content` that is not white space. It looks from
/// the end, so asking it of a paragraph that keeps growing at its end (`merge-with-next`) costs
/// what it reads there, not the whole paragraph each time.
fn last_plain_char(content: &[Inline]) -> Option<char> {
    let last = |s: &str| s.trim_end().chars().next_back();
    content.iter().rev().find_map(|inline| match inline {
        Inline::Text { text } => last(text),
        Inline::LineBreak => None,
        Inline::Ruby { base, reading } => last(&Inline::ruby_text(base, reading)),
        Inline::Math { math, .. } => last(&crate::ast::math::linear_text(math)),
        other => other.children().and_then(last_plain_char),
    })
}

/// The last leaf of `content` that shows something: text that is not all white space, a line
/// break or an atom (the leaves [`to_runs`] makes, in reverse).
fn last_shown(content: &[Inline]) -> Option<&Inline> {
    content
        .iter()
        .rev()
        .find_map(|inline| match (inline.children(), inline) {
            (Some(children), _) => last_shown(children),
            // From the end only: a merged paragraph's last text can be long.
            (None, Inline::Text { text }) if text.trim_end().is_empty() => None,
            (None, leaf) => Some(leaf),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::NoteKind;

    /// The definition over runs, as first written: the last run that shows something.
    fn by_runs(content: &[Inline]) -> bool {
        let runs = to_runs(content);
        let last = runs.iter().rev().find(|r| match &r.leaf {
            Leaf::Text(t) => !t.trim().is_empty(),
            _ => true,
        });
        matches!(last.map(|r| &r.leaf), Some(Leaf::Text(t))
            if t.trim_end().chars().last().is_some_and(|c| c.is_alphanumeric() || c == ','))
    }

    #[test]
    fn looking_from_the_end_is_looking_at_the_last_run() {
        let t = Inline::text;
        let bold = |c| Inline::styled(TextStyle::Bold, c);
        let note = Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("ends")],
        };
        let cases: Vec<(Vec<Inline>, bool)> = vec![
            (vec![], false),
            (vec![t("  ")], false),
            (vec![t("was")], true),
            (vec![t("so,  ")], true),
            (vec![t("done.")], false),
            (vec![bold(vec![t("was")]), t(" "), bold(vec![])], true),
            (vec![t("was"), bold(vec![t("End.")]), t("  ")], false),
            (vec![t("was"), Inline::LineBreak, t(" ")], false),
            (vec![t("was"), note.clone()], false),
            (vec![note, bold(vec![bold(vec![t("deep")]), t("\t")])], true),
        ];
        for (content, expected) in cases {
            assert_eq!(ends_mid_sentence(&content), expected, "{content:?}");
            assert_eq!(by_runs(&content), expected, "{content:?}");
        }
    }

    #[test]
    fn the_last_plain_character_is_the_plain_texts() {
        let t = Inline::text;
        let bold = |c| Inline::styled(TextStyle::Bold, c);
        let note = Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("ends.")],
        };
        let ruby = |base: &str, reading: &str| Inline::Ruby {
            base: base.into(),
            reading: reading.into(),
        };
        let cases: Vec<Vec<Inline>> = vec![
            vec![],
            vec![t(" \u{a0} ")],
            vec![t("done.")],
            vec![t("done."), note.clone()],
            vec![t("was"), Inline::LineBreak, t("\t")],
            vec![bold(vec![t("End!")]), bold(vec![]), t("  ")],
            vec![t("a"), ruby("漢", "kan")],
            vec![t("a."), ruby("漢", "")],
            vec![note, bold(vec![bold(vec![t("deep;")]), t("\n")])],
        ];
        for content in cases {
            let whole = plain_text(&content);
            assert_eq!(
                last_plain_char(&content),
                whole.trim_end().chars().last(),
                "{content:?}"
            );
            let para = Block::Paragraph(crate::ast::Paragraph {
                content: content.clone(),
                ..Default::default()
            });
            assert_eq!(
                Filter::NoFinalPunctuation.matches(&para, &MediaStore::default()),
                !whole.trim_end().ends_with(FINAL_PUNCTUATION),
                "{content:?}"
            );
        }
    }
}
