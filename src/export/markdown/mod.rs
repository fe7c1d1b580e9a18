//! Markdown writer (GitHub Flavored Markdown; raw HTML only for tables a pipe table cannot hold).
//!
//! What maps to what (the checklist):
//! - Metadata → a YAML front-matter block (pandoc's convention: `title`, `subtitle`, `author`,
//!   `lang`, `description`, `keywords`, every value double-quoted), then the title as the first
//!   `#` heading and the subtitle as a paragraph under it; the reader reads both back.
//! - Headings → ATX `#`…`######` (a heading with line breaks at level 0/1 → setext; deeper, the
//!   breaks become spaces, warned); numbered headings and paragraphs get their shared outline
//!   number ([`crate::ast::numbering`]) as a text prefix `1.2 `.
//! - Bold `**`, italic `*`, strike `~~`, code spans (fence and padding chosen to fit the text);
//!   underline, small caps, sub- and superscript have no GFM syntax: plain text, warned.
//!   Markdown's special characters in text are backslash-escaped; white space at the edges of a
//!   line is left out (a parser drops it) and moved out of emphasis; where emphasis rules would
//!   not see a delimiter (`a**.b**`), the neighbouring letter is written as a character reference.
//! - Formulas → TeX: `$…$` inline, `$$…$$` display.
//! - Links `[text](dest)`, autolinks `<https://…>` when the text is the address; pictures
//!   `![alt](images/name)` with their caption as visible text on the next line, as the HTML
//!   shows it (`*Figure 3: text*`, which the reader takes back as the caption; an inline
//!   picture's caption is its title), the bytes returned in [`MarkdownOutput::files`]
//!   (or, from [`write_parts`], the pictures as the tree holds them; from
//!   [`write_all_in_one`], inside the text as `data:` URIs); Windows metafiles are drawn as SVG
//!   files.
//! - Lists with their nesting and start numbers (markers `-`/`1.`; a new list right after
//!   another of the same kind switches to `*`/`1)` so they stay apart); blocks indented under
//!   a list item (indent = quote depth + item level + 1, what the reader produces for an item's
//!   extra paragraphs) are written as that item's content.
//! - Paragraphs with a quote style (`Quote`, `Intense Quote`, …, what the reader gives quotes)
//!   → block quotes (`> ` per indent step); other indentation is not written (warned once).
//! - A paragraph made only of code text with line breaks → a fenced code block.
//! - Tables per [`Tables`]: GFM pipe tables for plain grids (first row the header, column
//!   alignment from the cells, the caption with its label as a paragraph after, warned; a
//!   caption that is only its label, `Table 2`, too); tables with merged
//!   cells, nested tables or cells holding several blocks, lists or pictures → an HTML `<table>`
//!   with `colspan`/`rowspan` and the caption as `<caption>`.
//! - Footnotes (and endnotes/sidenotes, warned) → `[^n]` with definitions at the end; a note's
//!   line breaks separate the definition's paragraphs. Comments, when asked, are footnotes too.
//! - Line breaks → backslash + newline; page breaks → `---` or the marker line asked for;
//!   page header and footer as paragraphs when asked; directories dropped (warned).
//! - Dropped with a warning: comments (unless asked for), index marks, deleted tracked text
//!   (inserted text is kept), character styles, cross-references (their text is written, as
//!   block ids have no anchors), alignment, image sizes, supplemental data.

mod blocks;
mod front;
mod html_table;
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
use super::metafiles::{self, Shown};
use crate::ast::inline::accepted_text;
use crate::ast::numbering::number_blocks;
use crate::ast::{Block, Document, Inline, MediaItem, TextStyle};
use crate::lang::Language;
use crate::report::{Converted, Location, Report, WarningKind};

/// How tables are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tables {
    /// GFM pipe tables where a table is a plain grid (no merged cells, one paragraph per cell);
    /// HTML `<table>` for the others, which a pipe table cannot hold.
    #[default]
    Auto,
    /// Always HTML `<table>` with `colspan`/`rowspan`.
    Html,
    /// Always GFM pipe tables: spans expanded with empty cells, a cell's blocks on one line.
    Gfm,
}

impl Tables {
    /// `auto`, `html` or `gfm` (any case).
    pub fn parse(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(Tables::Auto),
            "html" => Some(Tables::Html),
            "gfm" => Some(Tables::Gfm),
            _ => None,
        }
    }
}

/// Options for the Markdown writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct MarkdownOptions {
    /// Language of the figure/table words in captions and cross-reference texts; the document's
    /// own language when `None`.
    pub language: Option<Language>,
    /// How tables are written; [`Tables::Auto`] by default.
    pub tables: Tables,
    /// Whether comments are written, as footnotes after the text they are on (`false`: left
    /// out, warned).
    pub comments: bool,
    /// Whether the page header and footer texts are written (the header before the body, the
    /// footer after it); off by default, since they repeat on every printed page.
    pub headers_footers: bool,
    /// The line written for a page break, e.g. `<!-- pagebreak -->` to split the text into
    /// chunks; `None` writes a thematic break (`---`).
    pub page_breaks: Option<String>,
}

impl MarkdownOptions {
    /// Sets [`MarkdownOptions::language`].
    pub fn with_language(mut self, language: Language) -> Self {
        self.language = Some(language);
        self
    }

    /// Sets [`MarkdownOptions::tables`].
    pub fn with_tables(mut self, tables: Tables) -> Self {
        self.tables = tables;
        self
    }

    /// Sets [`MarkdownOptions::comments`].
    pub fn with_comments(mut self, comments: bool) -> Self {
        self.comments = comments;
        self
    }

    /// Sets [`MarkdownOptions::headers_footers`].
    pub fn with_headers_footers(mut self, on: bool) -> Self {
        self.headers_footers = on;
        self
    }

    /// Sets [`MarkdownOptions::page_breaks`].
    pub fn with_page_breaks(mut self, marker: impl Into<String>) -> Self {
        self.page_breaks = Some(marker.into());
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

/// The Markdown text and the pictures it refers to, not read yet.
#[derive(Debug, Clone)]
pub struct MarkdownParts {
    /// The Markdown text.
    pub text: String,
    /// The pictures the text refers to: (`images/name`, the picture), in name order. A picture
    /// still deflated in its source stays so: a caller writing files can inflate it straight
    /// into its file ([`crate::ast::MediaItem::write_to`]), in parallel.
    pub images: Vec<(String, MediaItem)>,
}

/// Writes `doc` as GitHub Flavored Markdown, with the bytes of its pictures, inflated in
/// parallel. A picture that does not inflate is left out of the files, with a warning.
pub fn write(doc: &Document, opts: &MarkdownOptions) -> Converted<MarkdownOutput> {
    let Converted {
        value: MarkdownParts { text, images },
        warnings,
    } = write_parts(doc, opts);
    let mut report = Report::new();
    for warning in warnings {
        report.push(warning);
    }
    let files = read_pictures(images, &mut report);
    report.finish(MarkdownOutput { text, files })
}

/// The bytes of `pictures`, inflated in parallel; one that does not inflate is left out, with
/// a warning in `report`.
fn read_pictures(pictures: Vec<(String, MediaItem)>, report: &mut Report) -> Vec<(String, Bytes)> {
    let crate::ast::media::ReadFiles { files, broken } = crate::ast::media::read_files(pictures);
    for (_, e) in broken {
        report.warn(
            WarningKind::MissingMedia,
            format!("{e}; referenced without a file"),
            Location::default().element("image"),
        );
    }
    files
}

/// Writes `doc` as Markdown with its pictures inside the text as `data:` URIs (each
/// `![alt](images/name)` of [`write()`] pointing at its picture's bytes instead): one file, the
/// Markdown counterpart of the single-file HTML page. The warnings are [`write()`]'s; a picture
/// that does not inflate keeps its `images/` reference.
pub fn write_all_in_one(doc: &Document, opts: &MarkdownOptions) -> Converted<String> {
    let Converted {
        value: MarkdownParts {
            text,
            images: pictures,
        },
        warnings,
    } = write_parts(doc, opts);
    let mut report = Report::new();
    for warning in warnings {
        report.push(warning);
    }
    // The type from the store, which sniffed it when the picture came in (a tree read from its
    // JSON dump has the type but no bytes).
    let kinds: HashMap<String, &'static str> = pictures
        .iter()
        .map(|(name, item)| (name.clone(), item.kind.mime()))
        .collect();
    let files = read_pictures(pictures, &mut report);
    let by_name: HashMap<&str, (&str, &Bytes)> = files
        .iter()
        .filter_map(|(name, bytes)| Some((name.as_str(), (*kinds.get(name)?, bytes))))
        .collect();
    report.finish(images::inline_pictures(&text, &by_name))
}

/// [`write()`] without reading the pictures: the text and the pictures it refers to, for a
/// caller that writes them itself (the command line, into files beside the text).
pub fn write_parts(doc: &Document, opts: &MarkdownOptions) -> Converted<MarkdownParts> {
    // Windows metafiles become SVG files: what a Markdown viewer (a browser) can show.
    let (doc, drawn) = metafiles::drawn(
        doc,
        Shown::Svg,
        "kept as it is, which Markdown viewers do not display",
    );
    let doc = &*doc;
    let language = opts
        .language
        .or_else(|| doc.meta.language.as_deref().and_then(Language::parse))
        .unwrap_or_default();
    let mut report = Report::new();
    for warning in drawn {
        report.push(warning);
    }
    let mut w = Writer {
        doc,
        opts,
        lang: language,
        report,
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
    w.front_matter();
    w.body();
    // The Word footer with its paragraphs, else the service's one-line footer.
    let footer = match doc.meta.pages.one_page().footer {
        Some(text) => Some(text.plain_lines().join("\n")),
        None => doc.meta.footer.clone(),
    };
    w.furniture(footer.as_deref());
    w.footnotes();
    if !w.out.is_empty() {
        w.out.push('\n');
    }
    let images = w.files.into_iter().collect();
    w.report.finish(MarkdownParts {
        text: w.out,
        images,
    })
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
    opts: &'d MarkdownOptions,
    lang: Language,
    report: Report,
    warned: HashSet<String>,
    block: usize,
    out: String,
    /// Quote depth of the last block written (blank lines between blocks keep the shallower).
    last_quote: u8,
    /// Footnote contents in number order (label = index + 1).
    notes: Vec<Vec<Inline>>,
    /// `images/<file>` → the picture, clones sharing the tree's bytes.
    files: BTreeMap<String, MediaItem>,
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
        if !self.doc.comments.is_empty() && !self.opts.comments {
            self.warn_once("comments", WarningKind::Dropped, "comments are not written");
        }
        if let Some(message) = crate::ast::changes::unshown_marks(self.doc) {
            self.warn_once("paragraph-marks", WarningKind::Lossy, &message);
        }
    }

    /// Records the text cross-references to each id show.
    fn collect_targets(&mut self, blocks: &[Block]) {
        // Blocks without an id and without a table to look into (most cells) hold no target:
        // nothing to number.
        let may_hold = blocks.iter().any(|b| match b {
            Block::Paragraph(p) => p.id.is_some(),
            Block::Image(img) => img.id.is_some(),
            Block::Table(_) => true,
            _ => false,
        });
        if !may_hold {
            return;
        }
        let numbers = number_blocks(blocks);
        for (block, n) in blocks.iter().zip(numbers) {
            // Only a block with an id can be a target: the others' text is not asked for.
            let (id, label, text) = match block {
                Block::Paragraph(p) => match p.id.as_deref() {
                    Some(id) => (Some(id), n.label, accepted_text(&p.content)),
                    None => continue,
                },
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
        let (key, kind, message) = match loss {
            // Markdown writes comments as notes when asked: these two say what is lost without
            // naming the format, in the words `meta_warnings` uses under the same key.
            Loss::Comments => (
                "comments".into(),
                WarningKind::Dropped,
                "comments are not written".into(),
            ),
            Loss::Index => (
                "index".into(),
                WarningKind::Dropped,
                "index entries are not written".into(),
            ),
            _ => loss.warning("Markdown"),
        };
        self.warn_once(&key, kind, &message);
    }
}
