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

use std::collections::{BTreeMap, HashMap, HashSet};

use bytes::Bytes;

use super::marks::{self, Loss, MarkPolicy};
use crate::ast::inline::{Leaf, Run, accepted_text, from_runs, plain_text, to_runs};
use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{
    Align, Block, Document, Image, Inline, Mark, NoteKind, Paragraph, Table, TextStyle, TextType,
    grid_positions,
};
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

/// One level of the open list context.
struct Frame {
    ordered: bool,
    /// Alternate markers (`*`, `1)`) to keep this list apart from the one before it.
    alt: bool,
    /// Column where this level's item content starts.
    content: usize,
    /// The number a next item continuing this (ordered) list shows: Markdown numbers the
    /// items after a list's first itself.
    next: u32,
}

/// The lists being written: their quote depth, the outer list's id and one frame per level.
struct ListCtx {
    quote: u8,
    list_id: Option<String>,
    frames: Vec<Frame>,
    /// The last item written was empty: content after a blank line cannot join it.
    last_empty: bool,
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

    // ----- blocks ------------------------------------------------------------------------

    fn body(&mut self) {
        let doc = self.doc;
        let numbers = number_blocks(&doc.blocks);
        let mut ctx: Option<ListCtx> = None;
        let mut last_item = false;
        for (i, block) in doc.blocks.iter().enumerate() {
            self.block = i;
            let n = numbers.get(i).cloned().unwrap_or_default();
            if let Block::Paragraph(p) = block {
                if p.kind.is_list() {
                    self.list_item(p, &n, &mut ctx, last_item);
                    last_item = true;
                    continue;
                }
            }
            last_item = false;
            let indent = match block {
                Block::Paragraph(p) => p.indent,
                Block::Image(img) => img.indent,
                Block::Table(t) => t.indent,
                Block::PageBreak | Block::Directory { .. } => 0,
            };
            // An indented block right after a list item continues that item (or an outer one);
            // indent beyond the innermost item is a block quote inside it.
            let cont = ctx.as_ref().and_then(|c| {
                let depth = usize::from(indent).checked_sub(usize::from(c.quote) + 1)?;
                let mut level = depth.min(c.frames.len().checked_sub(1)?);
                if c.last_empty && level + 1 == c.frames.len() {
                    // Quote it inside the parent item instead (or leave the list).
                    level = level.checked_sub(1)?;
                }
                Some((level, depth - level))
            });
            let lines = self.block_lines(block, &n);
            if cont.is_none() {
                ctx = None;
            }
            if lines.is_empty() {
                continue;
            }
            match (cont, ctx.as_mut()) {
                (Some((level, inner)), Some(c)) => {
                    c.frames.truncate(level + 1);
                    c.last_empty = false;
                    let col = c.frames.last().map_or(0, |f| f.content);
                    let quote = c.quote;
                    let pad = format!("{}{}", " ".repeat(col), "> ".repeat(inner));
                    self.emit(&lines, quote, &pad, &pad, true);
                }
                _ => self.emit(&lines, indent, "", "", true),
            }
        }
    }

    /// Appends `lines`: the first prefixed by `first`, the rest by `rest` (list markers and
    /// content indentation), all inside `quote` block-quote levels; after a blank line when
    /// `blank` (a quoted blank line when both neighbours are quoted).
    fn emit(&mut self, lines: &[String], quote: u8, first: &str, rest: &str, blank: bool) {
        let q = "> ".repeat(usize::from(quote));
        if !self.out.is_empty() {
            if blank {
                let shared = "> ".repeat(usize::from(quote.min(self.last_quote)));
                self.out.push('\n');
                self.out.push_str(shared.trim_end());
            }
            self.out.push('\n');
        }
        for (k, line) in lines.iter().enumerate() {
            if k > 0 {
                self.out.push('\n');
            }
            let pad = if k == 0 { first } else { rest };
            if line.is_empty() {
                // Keep the markers (quotes, an empty item's list marker), not trailing spaces.
                let lead = format!("{q}{pad}");
                self.out.push_str(lead.trim_end());
                continue;
            }
            self.out.push_str(&q);
            self.out.push_str(pad);
            self.out.push_str(line);
        }
        self.last_quote = quote;
    }

    fn list_item(
        &mut self,
        p: &Paragraph,
        n: &BlockNumber,
        ctx: &mut Option<ListCtx>,
        last_item: bool,
    ) {
        let ordered = p.kind == TextType::ListOl;
        if ctx.as_ref().is_some_and(|c| c.quote != p.indent) {
            *ctx = None;
        }
        let c = ctx.get_or_insert_with(|| ListCtx {
            quote: p.indent,
            list_id: p.list_id.clone(),
            frames: Vec::new(),
            last_empty: false,
        });
        let wanted = usize::from(p.level);
        let level = wanted.min(c.frames.len());
        if level < wanted {
            self.warn_once(
                "list-skip",
                WarningKind::Lossy,
                "a list level skipped in the tree is written one level below its parent",
            );
        }
        let value = n.value.unwrap_or(1).min(999_999_999);
        let (alt, new_list) = match c.frames.get(level) {
            Some(f) if f.ordered != ordered => (false, true),
            Some(f) => {
                // Any number but the next (a restart, a start, another list's item under the
                // same parent) shows only as the first of a new list.
                let new_list = (ordered && (p.restart || value != f.next))
                    || (level == 0 && c.list_id != p.list_id);
                (if new_list { !f.alt } else { f.alt }, new_list)
            }
            None => (false, true),
        };
        if level == 0 {
            c.list_id = p.list_id.clone();
        }
        let base = if level == 0 {
            0
        } else {
            c.frames.get(level - 1).map_or(0, |f| f.content)
        };
        let marker = if ordered {
            format!("{value}{} ", if alt { ')' } else { '.' })
        } else {
            (if alt { "* " } else { "- " }).to_string()
        };
        c.frames.truncate(level);
        c.frames.push(Frame {
            ordered,
            alt,
            content: base + marker.len(),
            next: value.saturating_add(1),
        });
        let quote = c.quote;
        if p.align != Align::Left {
            self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
        }
        let lines = self.paragraph_lines(p, &[]);
        let first = format!("{}{marker}", " ".repeat(base));
        let rest = " ".repeat(base + marker.len());
        c.last_empty = lines.is_empty();
        // A list may only interrupt a paragraph when it starts at 1 and is not empty; a new
        // top-level list gets a blank line anyway, for the reader's eye.
        let interrupts = new_list && ((ordered && value != 1) || lines.is_empty() || level == 0);
        let lines = if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        };
        self.emit(&lines, quote, &first, &rest, !last_item || interrupts);
    }

    /// The lines of one non-list block (no quote or list prefix); empty when nothing is written.
    fn block_lines(&mut self, block: &Block, n: &BlockNumber) -> Vec<String> {
        match block {
            Block::Paragraph(p) if p.kind.is_heading() => self.heading_lines(p, n),
            Block::Paragraph(p) => {
                if p.kind == TextType::Caption {
                    self.warn_once(
                        "caption",
                        WarningKind::Lossy,
                        "a stand-alone caption is written as a paragraph",
                    );
                }
                if p.align != Align::Left {
                    self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
                }
                let prefix = match (p.kind, &n.label) {
                    (TextType::ParagraphOl, Some(label)) => vec![Inline::text(format!("{label} "))],
                    _ => Vec::new(),
                };
                self.paragraph_lines(p, &prefix)
            }
            Block::Image(img) => self.image_lines(img),
            Block::Table(t) => self.table_lines(t, n),
            Block::PageBreak => vec!["---".into()],
            Block::Directory { kind } => {
                self.warn(
                    WarningKind::Dropped,
                    format!(
                        "{} directory not written (Markdown has none)",
                        kind.as_str()
                    ),
                );
                Vec::new()
            }
        }
    }

    fn heading_lines(&mut self, p: &Paragraph, n: &BlockNumber) -> Vec<String> {
        let mut content = Vec::new();
        if p.kind == TextType::HeadingOl {
            if let Some(label) = &n.label {
                content.push(Inline::text(format!("{label} ")));
            }
        }
        content.extend(p.content.iter().cloned());
        if p.align != Align::Left {
            self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
        }
        let level = usize::from(p.level.min(5)) + 1;
        if level <= 2 && self.keeps_break(&content) {
            // Only setext headings can hold a hard break.
            let mut lines = self.inline_lines(&content, Ctx::Para);
            if lines.iter().all(String::is_empty) {
                lines = vec!["#".repeat(level)];
                return lines;
            }
            lines.push((if level == 1 { "===" } else { "---" }).to_string());
            return lines;
        }
        let text = self.inline_lines(&content, Ctx::Heading).join(" ");
        if text.is_empty() {
            vec!["#".repeat(level)]
        } else {
            vec![format!("{} {text}", "#".repeat(level))]
        }
    }

    /// Whether `content`, written as a paragraph, holds a line break: not one at its end, nor
    /// one inside a note (the setext heading form is only for breaks the reader will see, so a
    /// second trip chooses the same form). Asks [`Writer::prepare`] without keeping its warnings:
    /// the content is written afterwards and warns then.
    fn keeps_break(&mut self, content: &[Inline]) -> bool {
        let report = std::mem::take(&mut self.report);
        let warned = self.warned.clone();
        let runs = self.prepare(content, Ctx::Para);
        self.report = report;
        self.warned = warned;
        runs.iter().any(|r| r.leaf == Leaf::LineBreak)
    }

    /// A paragraph's lines: a fenced block (with its language) for a code block, else inline
    /// content with hard breaks.
    fn paragraph_lines(&mut self, p: &Paragraph, prefix: &[Inline]) -> Vec<String> {
        if let Some(language) = p.code.as_deref().filter(|_| prefix.is_empty()) {
            if let Some(code) = code_block_text(&p.content) {
                let longest = longest_run(&code, '`');
                let fence = "`".repeat(longest.max(2) + 1);
                let info = if crate::ast::is_code_language(language) {
                    language
                } else {
                    ""
                };
                let mut lines = vec![format!("{fence}{info}")];
                lines.extend(code.split('\n').map(str::to_string));
                lines.push(fence);
                return lines;
            }
        }
        let mut content = prefix.to_vec();
        content.extend(p.content.iter().cloned());
        let lines = self.inline_lines(&content, Ctx::Para);
        if lines.len() == 1 && lines.first().is_some_and(String::is_empty) {
            return Vec::new();
        }
        lines
    }

    fn image_lines(&mut self, img: &Image) -> Vec<String> {
        if img.width_percent.is_some() || img.extent.is_some() || img.align != Align::Left {
            self.warn_once(
                "image-size",
                WarningKind::Lossy,
                "image width, size and alignment are not written",
            );
        }
        let mut r = Render::new(Ctx::Para);
        self.image(
            &mut r,
            &img.media,
            img.alt.as_deref(),
            img.caption.as_deref(),
        );
        vec![r.finish()]
    }

    fn table_lines(&mut self, t: &Table, n: &BlockNumber) -> Vec<String> {
        let width = t.grid_width();
        if t.rows.is_empty() || width == 0 {
            self.warn(WarningKind::Dropped, "empty table not written");
            return Vec::new();
        }
        let mut grid: Vec<Vec<String>> = vec![vec![String::new(); width]; t.rows.len()];
        let mut aligns: Vec<Option<Align>> = vec![None; width];
        let mut spans = false;
        for (r, (row, positions)) in t.rows.iter().zip(grid_positions(t)).enumerate() {
            for (cell, (col, span)) in row.cells.iter().zip(positions) {
                if cell.colspan > 1 || cell.rowspan > 1 {
                    spans = true;
                }
                if let Some(a) = cell.align {
                    if let Some(slot) = aligns.get_mut(col) {
                        slot.get_or_insert(a);
                    }
                }
                let text = self.cell_text(&cell.blocks);
                if let Some(slot) = grid.get_mut(r).and_then(|row| row.get_mut(col)) {
                    *slot = text;
                }
                let _ = span;
            }
        }
        if spans {
            self.warn(
                WarningKind::Lossy,
                "merged table cells cannot be expressed in Markdown; covered cells are left empty",
            );
        }
        if t.width_percent.is_some() || t.align != Align::Left {
            self.warn_once(
                "table-size",
                WarningKind::Lossy,
                "table width and alignment are not written",
            );
        }
        let mut lines = Vec::with_capacity(t.rows.len() + 3);
        let row_line = |cells: &[String]| {
            let mut s = String::from("|");
            for c in cells {
                s.push(' ');
                s.push_str(c);
                if !c.is_empty() {
                    s.push(' ');
                }
                s.push('|');
            }
            s
        };
        for (r, row) in grid.iter().enumerate() {
            lines.push(row_line(row));
            if r == 0 {
                let mut s = String::from("|");
                for a in &aligns {
                    s.push_str(match a {
                        Some(Align::Left) => " :--- |",
                        Some(Align::Center) => " :---: |",
                        Some(Align::Right) => " ---: |",
                        _ => " --- |",
                    });
                }
                lines.push(s);
            }
        }
        if aligns.contains(&Some(Align::Justify)) {
            self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
        }
        if let Some(caption) = t.caption.as_deref().filter(|c| !c.is_empty()) {
            self.warn_once(
                "table-caption",
                WarningKind::Lossy,
                "table captions are written as a paragraph after the table",
            );
            let text = match n.caption {
                Some(num) => format!("{} {num}: {caption}", self.lang.table()),
                None => caption.to_string(),
            };
            lines.push(String::new());
            lines.extend(self.inline_lines(&[Inline::text(text)], Ctx::Para));
        }
        lines
    }

    /// One cell's content on one line.
    fn cell_text(&mut self, blocks: &[Block]) -> String {
        let mut content: Vec<Inline> = Vec::new();
        let mut paragraphs = 0;
        for block in blocks {
            let part = match block {
                Block::Paragraph(p) => p.content.clone(),
                Block::Image(img) => vec![Inline::Image {
                    media: img.media.clone(),
                    caption: img.caption.clone(),
                    alt: img.alt.clone(),
                }],
                Block::Table(_) => {
                    self.warn(
                        WarningKind::Dropped,
                        "a table inside a table cell cannot be written in Markdown",
                    );
                    continue;
                }
                Block::PageBreak | Block::Directory { .. } => continue,
            };
            if paragraphs > 0 {
                content.push(Inline::text(" "));
            }
            paragraphs += 1;
            content.extend(part);
        }
        if paragraphs > 1 {
            self.warn_once(
                "cell-blocks",
                WarningKind::Lossy,
                "table cells holding several blocks are joined into one line",
            );
        }
        let normalized = crate::ast::inline::normalize(&content);
        self.inline_lines(&normalized, Ctx::Cell).join(" ")
    }

    fn footnotes(&mut self) {
        let mut i = 0;
        while i < self.notes.len() {
            let content = self.notes.get(i).cloned().unwrap_or_default();
            i += 1;
            // The note's line breaks separate its paragraphs: every break that is written, also
            // one inside formatting (the reader gives it back at the top level).
            let mut paragraphs: Vec<Vec<Run>> = vec![Vec::new()];
            for run in self.prepare(&content, Ctx::Para) {
                if run.leaf == Leaf::LineBreak {
                    paragraphs.push(Vec::new());
                } else if let Some(p) = paragraphs.last_mut() {
                    p.push(run);
                }
            }
            // Markdown has no empty paragraphs: an empty one (two breaks in a row, or a break at
            // either end) is left out, and the first written one goes on the marker's line, which
            // is what the reader gives back (so a second trip writes the same text).
            let mut written = 0;
            let mut skipped = false;
            let several = paragraphs.len() > 1;
            for para in paragraphs {
                let lines = self.inline_lines(&from_runs(para), Ctx::Para);
                if lines.iter().all(String::is_empty) {
                    skipped = true;
                    continue;
                }
                if written == 0 {
                    let marker = format!("[^{i}]: ");
                    self.emit(&lines, 0, &marker, "    ", true);
                } else {
                    self.emit(&lines, 0, "    ", "    ", true);
                }
                written += 1;
            }
            if written == 0 {
                self.emit(&[String::new()], 0, &format!("[^{i}]:"), "", true);
            }
            // An empty note is written as it is; only line breaks that are not written are lost.
            if skipped && several {
                self.warn_once(
                    "note-empty-paragraph",
                    WarningKind::Lossy,
                    "empty paragraphs in a footnote are not written (Markdown has none)",
                );
            }
        }
    }

    // ----- inline content ----------------------------------------------------------------

    /// Renders inline content to lines (split at hard breaks).
    fn inline_lines(&mut self, content: &[Inline], ctx: Ctx) -> Vec<String> {
        let runs = self.prepare(content, ctx);
        let runs = move_boundary_space(runs);
        let tree = from_runs(runs);
        let mut r = Render::new(ctx);
        self.inlines(&mut r, &tree);
        let text = r.finish();
        if text.is_empty() {
            return Vec::new();
        }
        text.split('\n').map(str::to_string).collect()
    }

    /// Reduces inline content to what Markdown holds, warning about the rest.
    fn prepare(&mut self, content: &[Inline], ctx: Ctx) -> Vec<Run> {
        let mut out = Vec::new();
        for run in to_runs(content) {
            let Some(marks) = marks::reduce(run.marks, self) else {
                continue;
            };
            let leaf = match run.leaf {
                Leaf::LineBreak if ctx != Ctx::Para => {
                    self.warn_once(
                        "break-in-line",
                        WarningKind::Lossy,
                        "a line break in a heading or table cell is written as a space",
                    );
                    Leaf::Text(" ".into())
                }
                Leaf::Atom(Inline::CommentStart { .. } | Inline::CommentEnd { .. }) => {
                    self.warn_once("comments", WarningKind::Dropped, "comments are not written");
                    continue;
                }
                Leaf::Atom(Inline::IndexMark { .. }) => {
                    self.warn_once(
                        "index",
                        WarningKind::Dropped,
                        "index entries are not written",
                    );
                    continue;
                }
                Leaf::Atom(Inline::Ruby { base, reading }) => {
                    self.warn_once(
                        "ruby",
                        WarningKind::Lossy,
                        "ruby is written as \"base (reading)\"",
                    );
                    Leaf::Text(Inline::ruby_text(&base, &reading))
                }
                Leaf::Atom(Inline::CrossRef { target, .. }) => {
                    self.warn_once(
                        "xref",
                        WarningKind::Lossy,
                        "cross-references are written as their text",
                    );
                    match self.targets.get(&target) {
                        Some(text) if !text.is_empty() => Leaf::Text(text.clone()),
                        Some(_) => {
                            self.warn(
                                WarningKind::Lossy,
                                format!(
                                    "cross-reference to {target:?}, which has no number or text, written as \"{}\"",
                                    crate::export::XREF_MARK
                                ),
                            );
                            Leaf::Text(crate::export::XREF_MARK.into())
                        }
                        None => {
                            self.warn(
                                WarningKind::Dropped,
                                format!("cross-reference to unknown id {target:?} dropped"),
                            );
                            continue;
                        }
                    }
                }
                other => other,
            };
            out.push(Run { marks, leaf });
        }
        // A break at the end of a paragraph has no Markdown form (a trailing `\` is literal).
        while matches!(
            out.last(),
            Some(Run {
                leaf: Leaf::LineBreak,
                ..
            })
        ) {
            out.pop();
        }
        out
    }

    fn inlines(&mut self, r: &mut Render, content: &[Inline]) {
        for inline in content {
            self.inline(r, inline);
        }
    }

    fn inline(&mut self, r: &mut Render, inline: &Inline) {
        match inline {
            Inline::Text { text } => r.text(text),
            Inline::Styled { style, children } => match style {
                TextStyle::Code => self.code(r, children),
                TextStyle::Bold | TextStyle::Italic | TextStyle::Strike => {
                    let d = match style {
                        TextStyle::Bold => "**",
                        TextStyle::Italic => "*",
                        _ => "~~",
                    };
                    r.delim(d, true);
                    self.inlines(r, children);
                    r.delim(d, false);
                }
                _ => self.inlines(r, children),
            },
            Inline::Link { href, children } => {
                let text = plain_text(children);
                let plain = children.iter().all(|c| matches!(c, Inline::Text { .. }));
                if plain && autolinkable(href, &text) {
                    r.raw(&format!("<{text}>"));
                    return;
                }
                if r.note_end == Some(r.buf.len()) {
                    self.warn_once(
                        "note-link",
                        WarningKind::Lossy,
                        "a space is written between a footnote reference and a link right after it",
                    );
                    r.raw(" ");
                }
                r.raw("[");
                self.inlines(r, children);
                r.raw("](");
                r.raw(&destination(href));
                r.raw(")");
            }
            Inline::Note { kind, content } => {
                if *kind != NoteKind::Footnote {
                    self.warn_once(
                        "note-kind",
                        WarningKind::Lossy,
                        "endnotes and sidenotes are written as footnotes",
                    );
                }
                self.notes.push(content.clone());
                let label = self.notes.len();
                r.raw(&format!("[^{label}]"));
                r.note_end = Some(r.buf.len());
            }
            Inline::Image {
                media,
                caption,
                alt,
            } => self.image(r, media, alt.as_deref(), caption.as_deref()),
            Inline::LineBreak => r.hard_break(),
            Inline::Span { children, .. } | Inline::Tracked { children, .. } => {
                self.inlines(r, children)
            }
            Inline::Ruby { base, reading } => r.text(&Inline::ruby_text(base, reading)),
            Inline::Math { display, math } => {
                let tex = crate::ast::math_tex::write(math);
                let fence = if *display { "$$" } else { "$" };
                // Inside a table cell a `|` would end the cell.
                let tex = if r.ctx == Ctx::Cell {
                    tex.replace('|', "\\vert ")
                } else {
                    tex
                };
                r.raw(fence);
                r.raw(&tex);
                r.raw(fence);
            }
            Inline::CrossRef { .. }
            | Inline::IndexMark { .. }
            | Inline::CommentStart { .. }
            | Inline::CommentEnd { .. } => {}
        }
    }

    /// Code: a code span per piece of text (a span cannot hold a break or emphasis). Emphasis
    /// inside code is written around its spans (`**`x`**`), which reads back as the same tree;
    /// other formatting has no Markdown form and is dropped with a warning.
    fn code(&mut self, r: &mut Render, children: &[Inline]) {
        for child in children {
            match child {
                // A heading or table cell is one line: no hard break there.
                Inline::Text { text } if r.ctx != Ctx::Para && text.contains('\n') => {
                    self.warn_once(
                        "break-in-line",
                        WarningKind::Lossy,
                        "a line break in a heading or table cell is written as a space",
                    );
                    r.code_span(&text.replace('\n', " "));
                }
                Inline::Text { text } => {
                    for (k, segment) in text.split('\n').enumerate() {
                        if k > 0 {
                            r.hard_break();
                        }
                        r.code_span(segment);
                    }
                }
                Inline::LineBreak => r.hard_break(),
                Inline::Styled {
                    style: style @ (TextStyle::Bold | TextStyle::Italic | TextStyle::Strike),
                    children,
                } => {
                    let d = match style {
                        TextStyle::Bold => "**",
                        TextStyle::Italic => "*",
                        _ => "~~",
                    };
                    r.delim(d, true);
                    self.code(r, children);
                    r.delim(d, false);
                }
                other => {
                    self.warn_once(
                        "code-format",
                        WarningKind::Lossy,
                        "formatting inside code other than emphasis is not written",
                    );
                    match other.children() {
                        Some(children) => self.code(r, children),
                        None => self.inline(r, other),
                    }
                }
            }
        }
    }

    fn image(&mut self, r: &mut Render, media: &str, alt: Option<&str>, caption: Option<&str>) {
        let path = self.image_path(media);
        r.raw("![");
        // The reader trims alt text (white space at its edges is not part of the description):
        // trimmed here too, the text reads back as written.
        if let Some(alt) = alt.map(str::trim) {
            r.text(alt);
        }
        r.raw("](");
        r.raw(&destination(&path));
        if let Some(c) = caption.filter(|c| !c.is_empty()) {
            r.raw(" \"");
            let mut escaped = String::new();
            for ch in c.chars() {
                match ch {
                    // `|` too: in a table cell it would end the cell even inside a title.
                    '"' | '\\' | '|' => {
                        escaped.push('\\');
                        escaped.push(ch);
                    }
                    '&' => escaped.push_str("\\&"),
                    '\n' | '\r' => escaped.push(' '),
                    _ => escaped.push(ch),
                }
            }
            r.raw(&escaped);
            r.raw("\"");
        }
        r.raw(")");
    }

    /// `images/<file>` for media `name`, registering the bytes for [`MarkdownOutput::files`].
    fn image_path(&mut self, media: &str) -> String {
        if let Some(name) = self.image_names.get(media) {
            return format!("images/{name}");
        }
        let name = unique_file_name(media, &mut self.taken);
        match self.doc.media.get(media).map(|item| item.bytes()) {
            // The file must be real: a picture still deflated is inflated here.
            Some(Ok(bytes)) => {
                self.files.insert(format!("images/{name}"), bytes);
            }
            Some(Err(e)) => self.warn(
                WarningKind::MissingMedia,
                format!("{e}; referenced without a file"),
            ),
            None => self.warn(
                WarningKind::MissingMedia,
                format!("image {media:?} is not in the media store; referenced without a file"),
            ),
        }
        self.image_names.insert(media.to_string(), name.clone());
        format!("images/{name}")
    }
}

/// The text of a code block's paragraph when it is only code text and line breaks.
fn code_block_text(content: &[Inline]) -> Option<String> {
    let runs = to_runs(content);
    let code = Mark::Style(TextStyle::Code);
    let mut text = String::new();
    for run in &runs {
        if run.marks != [code.clone()] {
            return None;
        }
        match &run.leaf {
            Leaf::Text(t) if !t.contains('\n') => text.push_str(t),
            Leaf::LineBreak => text.push('\n'),
            _ => return None,
        }
    }
    Some(text)
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut best, mut cur) = (0, 0);
    for ch in s.chars() {
        if ch == c {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

fn is_emphasis(mark: &Mark) -> bool {
    matches!(
        mark,
        Mark::Style(TextStyle::Bold | TextStyle::Italic | TextStyle::Strike)
    )
}

/// Emphasis that starts or ends with white space (or a break) is not emphasis to a Markdown
/// parser: move such space out of the emphasis that opens or closes next to it. Moving space
/// out can leave other space at a new edge, so this repeats until nothing changes (each round
/// only removes marks or splits text at its edges; the bound is a safety net).
fn move_boundary_space(mut runs: Vec<Run>) -> Vec<Run> {
    for _ in 0..32 {
        let next = boundary_pass(&runs);
        if next == runs {
            break;
        }
        runs = next;
    }
    runs
}

fn boundary_pass(runs: &[Run]) -> Vec<Run> {
    let emph = |r: Option<&Run>| -> Vec<Mark> {
        r.map(|r| r.marks.iter().filter(|m| is_emphasis(m)).cloned().collect())
            .unwrap_or_default()
    };
    let mut out = Vec::with_capacity(runs.len());
    for i in 0..runs.len() {
        let Some(run) = runs.get(i) else { continue };
        let prev = emph(i.checked_sub(1).and_then(|j| runs.get(j)));
        let next = emph(runs.get(i + 1));
        let opening: Vec<Mark> = run
            .marks
            .iter()
            .filter(|m| is_emphasis(m) && !prev.contains(m))
            .cloned()
            .collect();
        let closing: Vec<Mark> = run
            .marks
            .iter()
            .filter(|m| is_emphasis(m) && !next.contains(m))
            .cloned()
            .collect();
        let without = |drop: &[&[Mark]]| -> Vec<Mark> {
            run.marks
                .iter()
                .filter(|m| !drop.iter().any(|d| d.contains(m)))
                .cloned()
                .collect()
        };
        match &run.leaf {
            Leaf::Text(t) if opening.is_empty() && closing.is_empty() => out.push(Run {
                marks: run.marks.clone(),
                leaf: Leaf::Text(t.clone()),
            }),
            Leaf::Text(t) => {
                let core = t.trim_matches(char::is_whitespace);
                if core.is_empty() {
                    out.push(Run {
                        marks: without(&[&opening, &closing]),
                        leaf: Leaf::Text(t.clone()),
                    });
                    continue;
                }
                let lead_len = t.len() - t.trim_start_matches(char::is_whitespace).len();
                let trail_start = t.trim_end_matches(char::is_whitespace).len();
                let (lead, tail) = (&t[..lead_len], &t[trail_start..]);
                if !lead.is_empty() {
                    out.push(Run {
                        marks: without(&[&opening]),
                        leaf: Leaf::Text(lead.to_string()),
                    });
                }
                out.push(Run {
                    marks: run.marks.clone(),
                    leaf: Leaf::Text(core.to_string()),
                });
                if !tail.is_empty() {
                    out.push(Run {
                        marks: without(&[&closing]),
                        leaf: Leaf::Text(tail.to_string()),
                    });
                }
            }
            Leaf::LineBreak => {
                // A delimiter just after a hard break stands at a line start, where it can open
                // but never close. When the next run opens emphasis of its own, the writer may
                // have to close and reopen the break's marks right there: then the break carries
                // none, so they close before it instead.
                let next_opens = next.iter().any(|m| !run.marks.contains(m));
                let emphasis: Vec<Mark> = run
                    .marks
                    .iter()
                    .filter(|m| is_emphasis(m))
                    .cloned()
                    .collect();
                let mut marks = if next_opens {
                    without(&[&emphasis])
                } else {
                    without(&[&opening, &closing])
                };
                // A hard break cannot end a link's text either (`[a\` newline `](…)` reads as
                // a backslash): a link that ends at the break ends before it.
                let link_goes_on = |m: &Mark| {
                    !matches!(m, Mark::Link(_))
                        || runs.get(i + 1).is_some_and(|r| r.marks.contains(m))
                };
                marks.retain(link_goes_on);
                out.push(Run {
                    marks,
                    leaf: Leaf::LineBreak,
                });
            }
            Leaf::Atom(a) => out.push(Run {
                marks: run.marks.clone(),
                leaf: Leaf::Atom(a.clone()),
            }),
        }
    }
    out
}

/// Whether `[text](href)` can be written `<href>` (or `<address>` for `mailto:`).
fn autolinkable(href: &str, text: &str) -> bool {
    let clean = |s: &str| {
        !s.is_empty()
            && !s
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '\\' | '&'))
    };
    if let Some(address) = href.strip_prefix("mailto:") {
        return address == text
            && clean(address)
            && address.split_once('@').is_some_and(|(user, host)| {
                !user.is_empty()
                    && !host.is_empty()
                    && host
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
                    && user
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".!#$%'*+/=?^_`{|}~-".contains(c))
            });
    }
    if href != text || !clean(href) {
        return false;
    }
    let Some((scheme, _)) = href.split_once(':') else {
        return false;
    };
    (2..=32).contains(&scheme.len())
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// A link destination: bare when it can be, else in `<…>`.
fn destination(href: &str) -> String {
    let mut depth = 0i32;
    let mut balanced = true;
    for c in href.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    balanced = false;
                }
            }
            _ => {}
        }
    }
    let angle = !balanced
        || depth != 0
        || href.is_empty()
        || href
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>'));
    let mut out = String::with_capacity(href.len() + 2);
    if angle {
        out.push('<');
    }
    let chars: Vec<char> = href.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\\' | '<' | '>' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '&' if chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == '#') =>
            {
                out.push_str("\\&");
            }
            // A line ending cannot appear in a destination: percent-encode controls.
            c if c.is_control() => out.push_str(&format!("%{:02X}", c as u32 & 0xFF)),
            c => out.push(c),
        }
    }
    if angle {
        out.push('>');
    }
    out
}

/// A file name safe to write next to the Markdown, unique ignoring case.
fn unique_file_name(media: &str, taken: &mut HashSet<String>) -> String {
    let base: String = media
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = if base.is_empty() || base.chars().all(|c| c == '.') {
        "image".to_string()
    } else {
        base
    };
    let (stem, ext) = match base.rfind('.') {
        Some(i) if i > 0 => (&base[..i], &base[i..]),
        _ => (base.as_str(), ""),
    };
    let mut candidate = base.clone();
    let mut n = 2u32;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}

/// Whether CommonMark counts `c` as punctuation for emphasis rules (ASCII punctuation and, close
/// enough, every non-ASCII character that is neither alphanumeric nor white space).
fn is_punct(c: char) -> bool {
    c.is_ascii_punctuation() || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
}

/// Builds one block's inline Markdown, remembering where emphasis delimiters and hard breaks
/// are so [`Render::finish`] can make the parser see them as written.
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

/// The white space a Markdown parser strips at the edges of a line (CommonMark's whitespace
/// characters other than line endings): written there as character references.
const EDGE_SPACE: [char; 4] = [' ', '\t', '\u{b}', '\u{c}'];

struct Render {
    ctx: Ctx,
    /// Where the last footnote reference ends: what follows it must not join it into other
    /// syntax (`[^1][a](b)` or `[^1](b)` would be read as a link, `[^1]:` as a definition).
    note_end: Option<usize>,
    /// The delimiter written last, when it closed emphasis and nothing followed it yet (checked
    /// with the end of `buf`).
    last_close: Option<String>,
    buf: String,
    /// Byte offset, character and opening-ness of every delimiter character.
    delims: Vec<(usize, char, bool)>,
    /// Indices of lines that end in a hard break.
    hard: HashSet<usize>,
    line: usize,
}

impl Render {
    fn new(ctx: Ctx) -> Self {
        Render {
            ctx,
            note_end: None,
            last_close: None,
            buf: String::new(),
            delims: Vec::new(),
            hard: HashSet::new(),
            line: 0,
        }
    }

    fn at_line_start(&self) -> bool {
        self.buf.is_empty() || self.buf.ends_with('\n')
    }

    fn raw(&mut self, s: &str) {
        self.buf.push_str(s);
    }

    fn delim(&mut self, d: &str, open: bool) {
        // Opening right where the same delimiter just closed (`**`a`****b**`, from code, which
        // nests outside emphasis in the tree, then emphasis alone) would read as literal
        // asterisks: the emphasis goes on instead (`**`a`b**`), which reads back as the same marks.
        if open && self.last_close.as_deref() == Some(d) && self.buf.ends_with(d) {
            if let Some(keep) = self.delims.len().checked_sub(d.len()) {
                if self.delims[keep..]
                    .iter()
                    .all(|&(pos, _, open)| !open && pos >= self.buf.len() - d.len())
                {
                    self.delims.truncate(keep);
                    self.buf.truncate(self.buf.len() - d.len());
                    self.last_close = None;
                    return;
                }
            }
        }
        self.last_close = None;
        for c in d.chars() {
            self.delims.push((self.buf.len(), c, open));
            self.buf.push(c);
        }
        if !open {
            self.last_close = Some(d.to_string());
        }
    }

    fn hard_break(&mut self) {
        self.buf.push_str("\\\n");
        self.hard.insert(self.line);
        self.line += 1;
    }

    /// Escaped text.
    fn text(&mut self, text: &str) {
        let chars: Vec<char> = text
            .chars()
            .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
            .collect();
        let mut i = 0;
        if self.at_line_start() && self.ctx == Ctx::Para {
            // Block syntax a line could start with: `#`, `-`, `+`, `=`, `1.` / `1)`.
            if let Some(&c) = chars.first() {
                if matches!(c, '#' | '-' | '+' | '=') {
                    self.buf.push('\\');
                    self.buf.push(c);
                    i = 1;
                } else if c.is_ascii_digit() {
                    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
                    if matches!(chars.get(digits), Some('.' | ')')) {
                        self.buf.extend(&chars[..digits]);
                        self.buf.push('\\');
                        self.buf.extend(chars.get(digits));
                        i = digits + 1;
                    }
                }
            }
        }
        let after_note = self.note_end == Some(self.buf.len());
        while let Some(&c) = chars.get(i) {
            let next = chars.get(i + 1).copied();
            match c {
                '(' | ':' if i == 0 && after_note => {
                    self.buf.push('\\');
                    self.buf.push(c);
                }
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '~' | '|' | '$' => {
                    self.buf.push('\\');
                    self.buf.push(c);
                }
                '#' if self.ctx == Ctx::Heading => self.buf.push_str("\\#"),
                '&' if next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '#') => {
                    self.buf.push_str("\\&");
                }
                // `!` before a following link or note would make it an image.
                '!' if next.is_none() => self.buf.push_str("\\!"),
                c => self.buf.push(c),
            }
            i += 1;
        }
    }

    fn code_span(&mut self, code: &str) {
        if code.is_empty() {
            return;
        }
        // A carriage return would end the line; the parser reads it as a space anyway.
        let code = code.replace('\r', " ");
        let code = if self.ctx == Ctx::Cell {
            code.replace('|', "\\|")
        } else {
            code
        };
        let fence = "`".repeat(longest_run(&code, '`') + 1);
        let all_space = code.chars().all(|c| c == ' ');
        let pad = !all_space
            && (code.starts_with('`')
                || code.ends_with('`')
                || (code.starts_with(' ') && code.ends_with(' ')));
        self.buf.push_str(&fence);
        if pad {
            self.buf.push(' ');
        }
        self.buf.push_str(&code);
        if pad {
            self.buf.push(' ');
        }
        self.buf.push_str(&fence);
    }

    /// The finished text: delimiters made visible to the parser, line-edge spaces kept.
    fn finish(mut self) -> String {
        self.fix_flanking();
        let mut out = String::with_capacity(self.buf.len());
        for (k, line) in self.buf.split('\n').enumerate() {
            if k > 0 {
                out.push('\n');
            }
            let (body, brk) = match line.strip_suffix('\\') {
                Some(body) if self.hard.contains(&k) => (body, "\\"),
                _ => (line, ""),
            };
            let start = body.len() - body.trim_start_matches(EDGE_SPACE).len();
            let end = body.trim_end_matches(EDGE_SPACE).len().max(start);
            for c in body[..start].chars() {
                out.push_str(&format!("&#{};", c as u32));
            }
            out.push_str(&body[start..end]);
            for c in body[end..].chars() {
                out.push_str(&format!("&#{};", c as u32));
            }
            out.push_str(brk);
        }
        out
    }

    /// CommonMark only takes `*`/`~` runs as emphasis when they are left- (opening) or
    /// right-flanking (closing). Where the text around a run breaks that (a letter before an
    /// opening run followed by punctuation, or punctuation before a closing run followed by a
    /// letter), the letter is written as a character reference, which counts as punctuation.
    fn fix_flanking(&mut self) {
        let mut fixes: Vec<usize> = Vec::new();
        let mut i = 0;
        while i < self.delims.len() {
            let Some(&(start, ch, _)) = self.delims.get(i) else {
                break;
            };
            let mut j = i;
            let (mut opens, mut closes) = (false, false);
            while let Some(&(pos, c, open)) = self.delims.get(j) {
                if c != ch || pos != start + (j - i) {
                    break;
                }
                if open {
                    opens = true;
                } else {
                    closes = true;
                }
                j += 1;
            }
            let end = start + (j - i);
            let prev = self.buf[..start].chars().next_back();
            let next = self.buf[end..].chars().next();
            // Not ASCII punctuation: a non-ASCII character may or may not be Unicode punctuation
            // to the parser (U+FEFF is not), and a character reference is right either way.
            let letter = |c: Option<char>| {
                c.is_some_and(|c| !c.is_whitespace() && !c.is_ascii_punctuation())
            };
            if opens && next.is_some_and(is_punct) && letter(prev) {
                if let Some(c) = prev {
                    fixes.push(start - c.len_utf8());
                }
            }
            if closes && prev.is_some_and(is_punct) && letter(next) {
                fixes.push(end);
            }
            i = j.max(i + 1);
        }
        fixes.sort_unstable();
        fixes.dedup();
        for &at in fixes.iter().rev() {
            if let Some(c) = self.buf[at..].chars().next() {
                let entity = format!("&#{};", c as u32);
                self.buf.replace_range(at..at + c.len_utf8(), &entity);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_and_autolinks() {
        assert_eq!(destination("https://a.b/c"), "https://a.b/c");
        assert_eq!(destination("a b"), "<a b>");
        assert_eq!(destination("a)"), "<a)>");
        assert_eq!(destination("x&amp;"), "x\\&amp;");
        assert!(autolinkable("https://a.b", "https://a.b"));
        assert!(!autolinkable("https://a.b", "site"));
        assert!(autolinkable("mailto:a@b.c", "a@b.c"));
        assert!(!autolinkable("a:b", "a:b"));
    }

    #[test]
    fn flanking_fix_uses_references() {
        let mut r = Render::new(Ctx::Para);
        r.text("a");
        r.delim("**", true);
        r.text(".b");
        r.delim("**", false);
        assert_eq!(r.finish(), "&#97;**.b**");
        let mut r = Render::new(Ctx::Para);
        r.delim("*", true);
        r.text("b.");
        r.delim("*", false);
        r.text("c");
        assert_eq!(r.finish(), "*b.*&#99;");
    }

    #[test]
    fn line_starts_and_edges_are_escaped() {
        let mut r = Render::new(Ctx::Para);
        r.text("1. x ");
        r.hard_break();
        r.text("  # y!");
        assert_eq!(r.finish(), "1\\. x&#32;\\\n&#32;&#32;# y\\!");
    }
}
