//! Inline content: text with formatting, links, notes, references and anchors.
//!
//! Inline content has a **canonical form**, produced by [`normalize`]: formatting is nested in one
//! fixed order ([`Mark`]'s order), adjacent runs with the same formatting are merged, empty text
//! and empty wrappers are gone. Every reader returns canonical inlines, so two trees that mean the
//! same thing compare equal, and writers whose target grammar only allows some nestings (the sd.xml
//! DTD forbids `<a>` inside `<sup>`, for example) can always write the canonical order.
//!
//! Language and direction ([`Inline::Lang`]) are a mark like formatting: a run in another
//! language than its paragraph is wrapped in one `Lang`, placed inside tracked changes and links
//! and outside character styles and formatting (see [`Mark`]). Runs never nest two: an inner
//! `Lang` overrides the outer one's fields, so flattening keeps one merged mark per run.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::block::Direction;

mod canonical;

pub use canonical::{
    Leaf, Run, append, canonical_marks, from_runs, into_runs, is_normalized, normalize,
    normalize_owned, to_runs, unwrap_marks,
};

/// A character-level format. The declaration order is the canonical nesting order, outermost
/// first; it is an order the sd.xml DTD accepts at every step (`kbd` may not hold `inline`, `sub`
/// may not hold `sup`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextStyle {
    /// Monospaced code (`kbd` in sd.xml, `code` in HTML).
    Code,
    /// Small capitals (`sd-sc`).
    SmallCaps,
    /// Bold (`b`).
    Bold,
    /// Italic (`i`).
    Italic,
    /// Underline (`u`).
    Underline,
    /// Strike-through (`s`).
    Strike,
    /// Subscript (`sub`); never together with [`TextStyle::Superscript`].
    Subscript,
    /// Superscript (`sup`).
    Superscript,
}

/// Which kind of note a [`Inline::Note`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// A note at the bottom of the page (Word footnote, sd.xml `footnote`).
    #[default]
    Footnote,
    /// A note at the end of the document (Word endnote).
    Endnote,
    /// A margin note (sd.xml `sidenote`).
    Sidenote,
}

/// Whether a tracked change inserted or deleted its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    /// Text added while changes were tracked (`w:ins`, `w:moveTo`).
    Insert,
    /// Text removed while changes were tracked (`w:del`, `w:moveFrom`); still shown as deleted.
    Delete,
}

/// A tracked change: who changed what, when.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Change {
    /// Insertion or deletion.
    pub kind: ChangeKind,
    /// The author as the source names them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// The date as the source wrote it (ISO 8601 in Word).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// One piece of inline content.
///
/// Example: `Hello <b>world</b>` is
/// `[Text("Hello "), Styled { style: Bold, children: [Text("world")] }]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Inline {
    /// Plain text. Tabs are kept as `\t`; never empty in canonical form.
    Text {
        /// The characters.
        text: String,
    },
    /// Formatted content: `<b>bold</b>`.
    Styled {
        /// The format.
        style: TextStyle,
        /// What it applies to.
        children: Vec<Inline>,
    },
    /// A hyperlink: `<a href="https://example.org">site</a>`. Internal targets start with `#`.
    Link {
        /// Where it points. Shared: a link cut into pieces (by a picture or a formula inside
        /// it, which no wrapper holds) is one wrapper per piece, each holding the address.
        href: Arc<str>,
        /// The link text.
        children: Vec<Inline>,
    },
    /// A named character style (Word character style, sd.xml `inline@stylename`).
    Span {
        /// The style's name.
        style: String,
        /// What it applies to.
        children: Vec<Inline>,
    },
    /// Text in another language or direction than its paragraph: `<span lang="ar" dir="rtl">`,
    /// Word `w:lang`/`w:rtl` on runs. At least one of `lang` and `dir` is set and it holds
    /// something. It applies to text and line breaks only (an image or note has no language of
    /// its own), nests inside [`Inline::Tracked`] and [`Inline::Link`] and outside
    /// [`Inline::Span`] and [`Inline::Styled`], so a link whose text changes language stays one
    /// link.
    Lang {
        /// The language (BCP 47), when it differs from the paragraph's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lang: Option<String>,
        /// The direction, when it differs from the paragraph's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dir: Option<Direction>,
        /// What it applies to.
        children: Vec<Inline>,
    },
    /// Content inserted or deleted under change tracking.
    Tracked {
        /// Who, when, and which kind.
        change: Change,
        /// The inserted or deleted content.
        children: Vec<Inline>,
    },
    /// A footnote, endnote or sidenote, anchored here.
    Note {
        /// Which kind of note.
        kind: NoteKind,
        /// The note's text; several source paragraphs are joined with [`Inline::LineBreak`].
        content: Vec<Inline>,
    },
    /// A cross-reference to a block or bookmark id (sd.xml `xref`, Word `REF`/`PAGEREF`).
    CrossRef {
        /// The id of the target (without `#`).
        target: String,
        /// Show the target's number (sd.xml `data-num-enabled`).
        #[serde(default)]
        number: bool,
        /// Show the target's text (sd.xml `data-content-enabled`).
        #[serde(default)]
        text: bool,
    },
    /// A line break inside a paragraph (Word `w:br`, sd.xml `br`).
    LineBreak,
    /// An image inside the text, by media name: `<img filename="a.png" caption="A"/>`.
    Image {
        /// Name in the [`crate::ast::MediaStore`].
        media: String,
        /// Caption text (sd.xml `img@caption`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        caption: Option<String>,
        /// Alternative text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        alt: Option<String>,
    },
    /// An index entry marker (sd.xml `index@data-id`), pointing into [`crate::ast::Document::indexes`].
    IndexMark {
        /// The index node id.
        id: String,
    },
    /// Where a comment's range starts; the comment is in [`crate::ast::Document::comments`].
    CommentStart {
        /// The comment id.
        id: String,
    },
    /// Where a comment's range ends.
    CommentEnd {
        /// The comment id.
        id: String,
    },
    /// Ruby: base text with its reading above it (Word `w:ruby`, HTML `<ruby>`), e.g. 漢字 with
    /// かんじ. Formats without ruby show "base (reading)" ([`Inline::ruby_text`]).
    Ruby {
        /// The base text.
        base: String,
        /// The reading (ruby text).
        reading: String,
    },
    /// A formula, inline in the text or displayed on its own line (Word `m:oMath`/`m:oMathPara`,
    /// TeX `$…$`/`$$…$$`).
    Math {
        /// Displayed as a block (centred on its own line) rather than inline.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        display: bool,
        /// The formula's row.
        math: Vec<crate::ast::math::MathNode>,
    },
}

impl Inline {
    /// Plain text.
    pub fn text(s: impl Into<String>) -> Self {
        Inline::Text { text: s.into() }
    }

    /// Formatted children.
    pub fn styled(style: TextStyle, children: Vec<Inline>) -> Self {
        Inline::Styled { style, children }
    }

    /// What a format without ruby shows for [`Inline::Ruby`]: `base (reading)`.
    pub fn ruby_text(base: &str, reading: &str) -> String {
        if reading.is_empty() {
            base.to_string()
        } else {
            format!("{base} ({reading})")
        }
    }

    /// The children of a wrapper (styled, link, span, tracked), if this is one.
    pub fn children(&self) -> Option<&[Inline]> {
        match self {
            Inline::Styled { children, .. }
            | Inline::Link { children, .. }
            | Inline::Span { children, .. }
            | Inline::Lang { children, .. }
            | Inline::Tracked { children, .. } => Some(children),
            _ => None,
        }
    }

    /// Mutable children of a wrapper, if this is one.
    pub fn children_mut(&mut self) -> Option<&mut Vec<Inline>> {
        match self {
            Inline::Styled { children, .. }
            | Inline::Link { children, .. }
            | Inline::Span { children, .. }
            | Inline::Lang { children, .. }
            | Inline::Tracked { children, .. } => Some(children),
            _ => None,
        }
    }
}

/// A wrapper that applies to a run of inline content; see [`Run`].
///
/// The derived order is the canonical nesting order, outermost first: tracked change, link,
/// language, character style, then the [`TextStyle`]s in their order. Language sits inside the
/// link so that a link stays whole where its text changes language, and outside the styles
/// because a foreign phrase is usually longer than the formatting within it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Inside a tracked change.
    Tracked(ChangeKey),
    /// Inside a link to this target. Every run inside the link holds the mark, so the target
    /// is shared, not copied: a long target over many runs would otherwise be copied per run.
    Link(Arc<str>),
    /// In another language or direction.
    Lang(LangKey),
    /// Inside a character style of this name (shared as a link's target is).
    Span(Arc<str>),
    /// Formatted.
    Style(TextStyle),
}

/// The fields of an [`Inline::Lang`].
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LangKey {
    /// The language (BCP 47).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<Direction>,
}

impl LangKey {
    /// Whether it says nothing (neither language nor direction).
    pub fn is_empty(&self) -> bool {
        self.lang.is_none() && self.dir.is_none()
    }

    /// This key with `inner`'s fields where `inner` sets them: what text inside both means.
    pub fn overlaid(&self, inner: &LangKey) -> LangKey {
        LangKey {
            lang: inner.lang.clone().or_else(|| self.lang.clone()),
            dir: inner.dir.or(self.dir),
        }
    }
}

/// [`Change`] in a form that can be ordered (a mark must be `Ord` to have a canonical place).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ChangeKey {
    /// `true` for an insertion, `false` for a deletion.
    pub insert: bool,
    /// The author (shared by every run of the change, as a link's target is).
    pub author: Option<Arc<str>>,
    /// The date.
    pub date: Option<Arc<str>>,
}

impl From<&Change> for ChangeKey {
    fn from(c: &Change) -> Self {
        ChangeKey {
            insert: c.kind == ChangeKind::Insert,
            author: c.author.as_deref().map(Arc::from),
            date: c.date.as_deref().map(Arc::from),
        }
    }
}

impl From<&ChangeKey> for Change {
    fn from(k: &ChangeKey) -> Self {
        Change {
            kind: if k.insert {
                ChangeKind::Insert
            } else {
                ChangeKind::Delete
            },
            author: k.author.as_deref().map(str::to_string),
            date: k.date.as_deref().map(str::to_string),
        }
    }
}

impl Mark {
    /// The mark that `inline` applies to its children, if it is a wrapper.
    pub fn of(inline: &Inline) -> Option<Mark> {
        match inline {
            Inline::Styled { style, .. } => Some(Mark::Style(*style)),
            Inline::Link { href, .. } => Some(Mark::Link(Arc::clone(href))),
            Inline::Span { style, .. } => Some(Mark::Span(style.as_str().into())),
            Inline::Lang { lang, dir, .. } => Some(Mark::Lang(LangKey {
                lang: lang.clone(),
                dir: *dir,
            })),
            Inline::Tracked { change, .. } => Some(Mark::Tracked(change.into())),
            _ => None,
        }
    }

    /// [`Mark::of`] for an inline the caller gives up: the mark and the children, moved, or the
    /// inline itself when it wraps nothing.
    pub fn split(inline: Inline) -> Result<(Mark, Vec<Inline>), Inline> {
        Ok(match inline {
            Inline::Styled { style, children } => (Mark::Style(style), children),
            Inline::Link { href, children } => (Mark::Link(href), children),
            Inline::Span { style, children } => (Mark::Span(style.into()), children),
            Inline::Lang {
                lang,
                dir,
                children,
            } => (Mark::Lang(LangKey { lang, dir }), children),
            Inline::Tracked { change, children } => (Mark::Tracked((&change).into()), children),
            other => return Err(other),
        })
    }

    /// Wraps `children` in this mark.
    pub fn wrap(&self, children: Vec<Inline>) -> Inline {
        self.clone().into_wrapper(children)
    }

    /// [`Mark::wrap`] for a mark the caller gives up: a language moves instead of being
    /// copied (shared strings are copied once either way).
    pub fn into_wrapper(self, children: Vec<Inline>) -> Inline {
        match self {
            Mark::Style(style) => Inline::Styled { style, children },
            Mark::Link(href) => Inline::Link { href, children },
            Mark::Span(style) => Inline::Span {
                style: style.to_string(),
                children,
            },
            Mark::Lang(LangKey { lang, dir }) => Inline::Lang {
                lang,
                dir,
                children,
            },
            Mark::Tracked(key) => Inline::Tracked {
                change: (&key).into(),
                children,
            },
        }
    }

    /// Whether this mark may apply to an atom (note, image, cross-reference, anchor). Only a
    /// tracked change does: formatting a footnote anchor or linking it has no meaning any writer
    /// could keep.
    fn applies_to_atoms(&self) -> bool {
        matches!(self, Mark::Tracked(_))
    }
}

/// The text a reader sees once tracked changes are accepted: deleted text left out, notes
/// excluded, breaks as spaces (what a cross-reference to the paragraph shows).
pub fn accepted_text(content: &[Inline]) -> String {
    let mut out = String::new();
    for run in to_runs(content) {
        let deleted = run
            .marks
            .iter()
            .any(|m| matches!(m, Mark::Tracked(k) if !k.insert));
        match run.leaf {
            Leaf::Text(t) if !deleted => out.push_str(&t),
            Leaf::LineBreak if !deleted => out.push(' '),
            _ => {}
        }
    }
    out
}

/// The plain text of inline content, notes excluded, line breaks as `\n`.
pub fn plain_text(inlines: &[Inline]) -> String {
    let mut s = String::new();
    push_plain_text(inlines, &mut s);
    s
}

fn push_plain_text(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Text { text } => out.push_str(text),
            Inline::LineBreak => out.push('\n'),
            Inline::Ruby { base, reading } => out.push_str(&Inline::ruby_text(base, reading)),
            Inline::Math { math, .. } => out.push_str(&crate::ast::math::linear_text(math)),
            other => {
                if let Some(children) = other.children() {
                    push_plain_text(children, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_skips_notes() {
        let t = Inline::text;
        let input = vec![
            t("a"),
            Inline::Note {
                kind: NoteKind::Footnote,
                content: vec![t("zzz")],
            },
            Inline::LineBreak,
            Inline::styled(TextStyle::Bold, vec![t("b")]),
        ];
        assert_eq!(plain_text(&input), "a\nb");
    }
}
