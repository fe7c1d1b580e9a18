//! Markdown writer (GitHub Flavored Markdown, no raw HTML ever).
//!
//! What maps to what (the checklist):
//! - Headings → ATX `#`…`######` (a heading with line breaks at level 0/1 → setext; deeper, the
//!   breaks become spaces, warned); numbered headings and paragraphs get their shared outline
//!   number ([`crate::ast::numbering`]) as a text prefix `1.2 `.
//! - Bold `**`, italic `*`, strike `~~`, code spans (fence and padding chosen to fit the text);
//!   underline, small caps, sub- and superscript have no GFM syntax: plain text, warned.
//!   Markdown's special characters in text are backslash-escaped; leading and trailing spaces
//!   of a line become `&#32;` so the parser keeps them; where emphasis rules would not see a
//!   delimiter (`a**.b**`), the neighbouring letter is written as a character reference.
//! - Links `[text](dest)`, autolinks `<https://…>` when the text is the address; images
//!   `![alt](images/name "caption")` with the bytes returned in [`MarkdownOutput::files`].
//! - Lists with their nesting and start numbers (markers `-`/`1.`; a new list right after
//!   another of the same kind switches to `*`/`1)` so they stay apart); blocks indented under
//!   a list item (indent = quote depth + item level + 1, what the reader produces for an item's
//!   extra paragraphs) are written as that item's content.
//! - Other indents → block quotes (`> ` per step), as the reader maps quotes to indents.
//! - A paragraph made only of code text with line breaks → a fenced code block.
//! - GFM pipe tables: the first row is the header; column alignment from the cells; spans are
//!   expanded with empty cells and cells holding several blocks are joined with spaces (warned).
//!   Table captions are written as a paragraph after the table (warned).
//! - Footnotes (and endnotes/sidenotes, warned) → `[^n]` with definitions at the end; a note's
//!   line breaks separate the definition's paragraphs.
//! - Line breaks → backslash + newline; page breaks → `---`; directories dropped (warned).
//! - Dropped with a warning: comments, index marks, deleted tracked text (inserted text is
//!   kept), character styles, cross-references (their text is written), block ids, alignment,
//!   image sizes, document metadata.

mod blocks;
mod images;
mod inline;
mod links;
mod notes;
mod render;
mod runs;
mod tables;

use std::collections::{BTreeMap, HashMap, HashSet};

use bytes::Bytes;

use super::marks::{Loss, MarkPolicy};
use crate::ast::inline::accepted_text;
use crate::ast::numbering::number_blocks;
use crate::ast::{Block, Document, Inline, TextStyle};
use crate::lang::Language;
use crate::report::{Converted, Location, Report, WarningKind};

/// Options for the Markdown writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct MarkdownOptions {
    /// Language of the figure/table words in captions and cross-reference texts; the document's
    /// own language when `None`.
    pub language: Option<Language>,
}

impl MarkdownOptions {
    /// Sets [`MarkdownOptions::language`].
    pub fn with_language(mut self, language: Language) -> Self {
        self.language = Some(language);
        self
    }
}

/// The Markdown text and the files it refers to.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MarkdownOutput {
    /// The Markdown text.
    pub text: String,
    /// Files to write next to the text: (`images/name`, bytes), in name order.
    pub files: Vec<(String, Bytes)>,
}

/// Writes `doc` as GitHub Flavored Markdown.
pub fn write(doc: &Document, opts: &MarkdownOptions) -> Converted<MarkdownOutput> {
    let language = opts
        .language
        .or_else(|| doc.meta.language.as_deref().and_then(Language::parse))
        .unwrap_or_default();
    let mut w = Writer {
        doc,
        lang: language,
        report: Report::new(),
        warned: HashSet::new(),
        block: 0,
        out: String::new(),
        last_quote: 0,
        notes: Vec::new(),
        files: BTreeMap::new(),
        image_names: HashMap::new(),
        taken: HashSet::new(),
        targets: HashMap::new(),
    };
    w.collect_targets(&doc.blocks);
    w.meta_warnings();
    w.body();
    w.footnotes();
    if !w.out.is_empty() {
        w.out.push('\n');
    }
    let files = w.files.into_iter().collect();
    w.report.finish(MarkdownOutput { text: w.out, files })
}

/// Where inline content is written: what a line break can be, what must be escaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// A paragraph, list item or setext heading: breaks are hard breaks.
    Para,
    /// An ATX heading: one line, `#` escaped.
    Heading,
    /// A table cell: one line, `|` escaped everywhere (also in code).
    Cell,
}

struct Writer<'d> {
    doc: &'d Document,
    lang: Language,
    report: Report,
    warned: HashSet<String>,
    block: usize,
    out: String,
    /// Quote depth of the last block written (blank lines between blocks keep the shallower).
    last_quote: u8,
    /// Footnote contents in number order (label = index + 1).
    notes: Vec<Vec<Inline>>,
    files: BTreeMap<String, Bytes>,
    image_names: HashMap<String, String>,
    taken: HashSet<String>,
    /// What a cross-reference to an id shows.
    targets: HashMap<String, String>,
}

impl<'d> Writer<'d> {
    fn warn(&mut self, kind: WarningKind, message: impl Into<String>) {
        self.report
            .warn(kind, message, Location::part("markdown").block(self.block));
    }

    fn warn_once(&mut self, key: &str, kind: WarningKind, message: &str) {
        if self.warned.insert(key.to_string()) {
            self.warn(kind, message);
        }
    }

    fn meta_warnings(&mut self) {
        let m = &self.doc.meta;
        let mut fields = Vec::new();
        for (name, value) in [
            ("title", &m.title),
            ("subtitle", &m.subtitle),
            ("description", &m.description),
            ("creator", &m.creator),
            ("footer", &m.footer),
            ("supplemental", &m.supplemental),
        ] {
            if value.as_deref().is_some_and(|s| !s.is_empty()) {
                fields.push(name);
            }
        }
        if !m.tags.is_empty() {
            fields.push("tags");
        }
        if !fields.is_empty() {
            self.report.warn(
                WarningKind::Dropped,
                format!(
                    "Markdown has no metadata: {} not written",
                    fields.join(", ")
                ),
                Location::part("markdown"),
            );
        }
        if !self.doc.comments.is_empty() {
            self.warn_once("comments", WarningKind::Dropped, "comments are not written");
        }
        let mut has_id = false;
        self.doc.walk_blocks(&mut |_, b| {
            has_id |= match b {
                Block::Paragraph(p) => p.id.is_some(),
                Block::Image(i) => i.id.is_some(),
                Block::Table(t) => t.id.is_some(),
                _ => false,
            };
        });
        if has_id {
            self.report.warn(
                WarningKind::Lossy,
                "block ids are not written (Markdown has no anchors)",
                Location::part("markdown"),
            );
        }
    }

    /// Records the text cross-references to each id show.
    fn collect_targets(&mut self, blocks: &[Block]) {
        let numbers = number_blocks(blocks);
        for (block, n) in blocks.iter().zip(numbers) {
            let (id, label, text) = match block {
                Block::Paragraph(p) => (p.id.as_deref(), n.label, accepted_text(&p.content)),
                Block::Image(img) => (
                    img.id.as_deref(),
                    n.caption.map(|c| format!("{} {c}", self.lang.figure())),
                    img.caption.clone().unwrap_or_default(),
                ),
                Block::Table(t) => {
                    for row in &t.rows {
                        for cell in &row.cells {
                            self.collect_targets(&cell.blocks);
                        }
                    }
                    (
                        t.id.as_deref(),
                        n.caption.map(|c| format!("{} {c}", self.lang.table())),
                        t.caption.clone().unwrap_or_default(),
                    )
                }
                _ => (None, None, String::new()),
            };
            if let Some(id) = id {
                let shown = match (label, text.is_empty()) {
                    (Some(l), false) => format!("{l} {text}"),
                    (Some(l), true) => l,
                    (None, _) => text,
                };
                self.targets
                    .entry(id.to_string())
                    .or_insert(shown.replace('\n', " "));
            }
        }
    }
}

/// Markdown writes bold, italic, strikethrough and code, and every link.
impl MarkPolicy for Writer<'_> {
    fn keeps_style(&self, style: TextStyle) -> bool {
        !matches!(
            style,
            TextStyle::Underline
                | TextStyle::SmallCaps
                | TextStyle::Subscript
                | TextStyle::Superscript
        )
    }

    fn keeps_link(&mut self, _href: &str) -> bool {
        true
    }

    fn lost(&mut self, loss: Loss) {
        let (key, kind, message) = loss.warning("Markdown");
        self.warn_once(&key, kind, &message);
    }
}
