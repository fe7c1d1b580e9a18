//! Markdown reader: CommonMark plus the GFM tables, footnotes and strike-through, parsed by
//! pulldown-cmark (a total parser: any text gives events), then mapped onto the tree.
//!
//! What maps to what (the checklist):
//! - `#`…`######` → heading level 0…5 (unnumbered); paragraphs → paragraphs.
//! - `*em*` italic, `**strong**` bold, `~~strike~~` strike, `` `code` `` code, links and
//!   autolinks (`<a@b.c>` becomes `mailto:`) → links; link titles are dropped (warned).
//! - Images: a paragraph holding only an image → an image block (alt text → `alt`, title →
//!   `caption`); other images stay inline. Each distinct path is resolved once through the
//!   caller's resolver and stored under its file name (made unique); an unresolved one is
//!   warned `MissingMedia` and the block keeps the name.
//! - Lists → list items, nesting depth → `level` (deeper than 6 is clamped, warned); all items
//!   of one top-level list share a `list_id` so numbering continues across the paragraphs inside
//!   them; an ordered list's start number → `start` of its first item, and a nested ordered list
//!   that does not directly follow its parent item gets `restart`. Loose/tight is ignored.
//!   **A list item's extra blocks** (second paragraph, code block, table, image) become blocks of
//!   their own with `indent` = quote depth + list depth: they stay visually under the item and the
//!   Markdown writer turns such blocks back into item content. An item that starts with
//!   something other than a paragraph gets an empty item paragraph first.
//! - GFM tables: the first row is the header row (`header` on row and cells), column alignment →
//!   cell `align`, columns of equal width; cell text → one paragraph.
//! - Footnotes: the definition's content becomes the [`Inline::Note`] at each reference (several
//!   paragraphs joined by line breaks; lists and tables inside are flattened, warned); unused
//!   definitions are warned (pulldown-cmark leaves a reference without definition as text).
//! - Block quotes → their paragraphs with `indent` + 1 per quote level.
//! - Code blocks → a code block paragraph (`code`: the info string's first word as language) of
//!   code-formatted text, lines joined by line breaks (an empty code block is dropped, warned).
//! - Thematic break (`---`) → page break (the Markdown writer writes page breaks as `---`).
//! - Hard breaks → line breaks; soft breaks → a space.
//! - Raw HTML, inline or block, is kept as plain text and warned: it is never passed through.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use bytes::Bytes;
use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::ast::inline::{Leaf, Run, from_runs};
use crate::ast::{
    Align, Block, Cell, Document, Image, Inline, MAX_INDENT, MAX_LEVEL, Mark, MediaStore, NoteKind,
    Paragraph, Row, Table, TextStyle, TextType,
};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Converted, Location, Report, WarningKind};

/// How deep footnote definitions may refer to further footnotes before the reference is kept as
/// text (bounds recursion on hostile input).
const MAX_NOTE_DEPTH: usize = 8;

/// Options for the Markdown reader.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct MarkdownImportOptions {
    /// Input limits; the text may be at most [`Limits::max_entry_size`] bytes.
    pub limits: Limits,
}

impl MarkdownImportOptions {
    /// Sets [`MarkdownImportOptions::limits`].
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// Reads Markdown `text` (UTF-8). `resolve` is asked once for each distinct image path as written
/// (`images/cat.png`, `https://…`) and returns the bytes, or `None` when it cannot.
pub fn read(
    text: &[u8],
    opts: &MarkdownImportOptions,
    resolve: &mut dyn FnMut(&str) -> Option<Bytes>,
) -> Result<Converted<Document>> {
    if text.len() as u64 > opts.limits.max_entry_size {
        return Err(Error::TooLarge {
            what: "Markdown text",
            detail: format!(
                "{} bytes, at most {}",
                text.len(),
                opts.limits.max_entry_size
            ),
        });
    }
    let text = crate::xml::decode(text, "markdown")?;
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_MATH;
    let events: Vec<Event<'_>> = Parser::new_ext(text, options).collect();
    let mut reader = Reader {
        events: &events,
        definitions: HashMap::new(),
        used: HashSet::new(),
        active: Vec::new(),
        notes: HashMap::new(),
        report: Report::new(),
        media: MediaStore::new(),
        media_by_path: HashMap::new(),
        taken: HashSet::new(),
        resolve,
        lists_seen: 0,
        warned: HashSet::new(),
    };
    reader.find_definitions();
    let body = reader.main_ranges();
    let mut blocks = Vec::new();
    for range in body {
        let mut part = reader.blocks(range);
        blocks.append(&mut part);
    }
    let mut unused: Vec<&String> = reader
        .definitions
        .keys()
        .filter(|k| !reader.used.contains(*k))
        .collect();
    unused.sort();
    let unused: Vec<String> = unused.into_iter().cloned().collect();
    for label in unused {
        reader.report.warn(
            WarningKind::Dropped,
            format!("footnote [^{label}] is defined but never referenced; not imported"),
            Location::part("markdown"),
        );
    }
    let doc = Document {
        blocks,
        media: reader.media,
        ..Document::new()
    };
    Ok(reader.report.finish(doc))
}

struct Reader<'e, 'a, 'r> {
    events: &'e [Event<'a>],
    /// Footnote label (lower case) → the event range of its content.
    definitions: HashMap<String, Range<usize>>,
    used: HashSet<String>,
    /// Labels whose definitions are being converted (cycle guard).
    active: Vec<String>,
    /// Converted note contents by label.
    notes: HashMap<String, Vec<Inline>>,
    report: Report,
    media: MediaStore,
    media_by_path: HashMap<String, String>,
    taken: HashSet<String>,
    resolve: &'r mut dyn FnMut(&str) -> Option<Bytes>,
    lists_seen: u32,
    warned: HashSet<&'static str>,
}

/// One open Markdown list.
struct ListFrame {
    ordered: bool,
    start: u64,
    list_id: String,
    /// Whether the current item's own paragraph has been emitted.
    item_done: bool,
    /// Whether the list's first item has been emitted.
    first_done: bool,
}

/// The inline content being collected for one paragraph, heading or cell.
#[derive(Default)]
struct InlineBuf {
    runs: Vec<Run>,
    marks: Vec<Mark>,
    /// Inside an image: its alt text so far and how many images deep.
    image: Option<PendingImage>,
}

struct PendingImage {
    depth: usize,
    dest: String,
    title: String,
    alt: String,
}

/// The paragraph being built.
struct Para {
    kind: TextType,
    level: u8,
    indent: u8,
    list: Option<ListInfo>,
    buf: InlineBuf,
    verbatim: Verbatim,
    /// A code block's language (empty when the fence names none).
    language: Option<String>,
}

/// What a list item paragraph carries about its list.
#[derive(Debug, Clone)]
struct ListInfo {
    list_id: String,
    start: Option<u32>,
    restart: bool,
}

/// The paragraph slot of a list item: its kind, level and indent.
struct ItemSlot {
    kind: TextType,
    level: u8,
    indent: u8,
    list: ListInfo,
}

/// How text events of a paragraph are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verbatim {
    /// Ordinary inline content.
    No,
    /// A code block: code-formatted, newlines are line breaks.
    Code,
    /// An HTML block: plain text, newlines are line breaks.
    Html,
}

impl Para {
    fn plain(indent: u8) -> Para {
        Para {
            kind: TextType::Paragraph,
            level: 0,
            indent,
            list: None,
            buf: InlineBuf::default(),
            verbatim: Verbatim::No,
            language: None,
        }
    }
}

struct TableBuf {
    aligns: Vec<Alignment>,
    rows: Vec<Row>,
    row: Vec<Cell>,
    head: bool,
    indent: u8,
}

/// Block-level state while converting one event range.
#[derive(Default)]
struct State {
    blocks: Vec<Block>,
    quote: u8,
    lists: Vec<ListFrame>,
    para: Option<Para>,
    table: Option<TableBuf>,
    /// Inside a footnote definition being skipped (main text) — depth of nesting.
    skip: usize,
}

fn clamp_u8(n: usize, max: u8) -> u8 {
    u8::try_from(n).unwrap_or(max).min(max)
}

impl State {
    /// Indent of a block that is not an item's own paragraph.
    fn block_indent(&self) -> u8 {
        clamp_u8(usize::from(self.quote) + self.lists.len(), MAX_INDENT)
    }
}

impl<'e, 'a, 'r> Reader<'e, 'a, 'r> {
    fn warn(&mut self, kind: WarningKind, message: impl Into<String>) {
        self.report.warn(kind, message, Location::part("markdown"));
    }

    fn warn_once(&mut self, key: &'static str, kind: WarningKind, message: &str) {
        if self.warned.insert(key) {
            self.warn(kind, message);
        }
    }

    /// Records the event range of every footnote definition.
    fn find_definitions(&mut self) {
        let mut depth = 0usize;
        let mut open: Option<(String, usize)> = None;
        for (i, e) in self.events.iter().enumerate() {
            match e {
                Event::Start(Tag::FootnoteDefinition(label)) => {
                    if depth == 0 {
                        open = Some((label.to_lowercase(), i + 1));
                    }
                    depth += 1;
                }
                Event::End(TagEnd::FootnoteDefinition) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        if let Some((label, start)) = open.take() {
                            self.definitions.entry(label).or_insert(start..i);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The event ranges outside footnote definitions.
    fn main_ranges(&self) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut start = 0usize;
        for (i, e) in self.events.iter().enumerate() {
            match e {
                Event::Start(Tag::FootnoteDefinition(_)) => {
                    if depth == 0 && start < i {
                        out.push(start..i);
                    }
                    depth += 1;
                }
                Event::End(TagEnd::FootnoteDefinition) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        start = i + 1;
                    }
                }
                _ => {}
            }
        }
        if depth == 0 && start < self.events.len() {
            out.push(start..self.events.len());
        }
        out
    }

    /// Converts the events in `range` into blocks.
    fn blocks(&mut self, range: Range<usize>) -> Vec<Block> {
        let mut st = State::default();
        let events = self.events;
        for e in events.get(range).unwrap_or_default() {
            if st.skip > 0 {
                match e {
                    Event::Start(Tag::FootnoteDefinition(_)) => st.skip += 1,
                    Event::End(TagEnd::FootnoteDefinition) => st.skip -= 1,
                    _ => {}
                }
                continue;
            }
            self.event(&mut st, e);
        }
        // Balanced events close everything; finish whatever a truncated range left open.
        self.finish_para(&mut st);
        while !st.lists.is_empty() {
            self.end_item(&mut st);
            st.lists.pop();
        }
        st.blocks
    }

    fn event(&mut self, st: &mut State, e: &Event<'a>) {
        // Inside an image every event only adds to the alt text.
        if let Some(buf) = self.current_buf(st) {
            if let Some(img) = &mut buf.image {
                match e {
                    Event::Start(Tag::Image { .. }) => img.depth += 1,
                    Event::End(TagEnd::Image) => {
                        img.depth -= 1;
                        if img.depth == 0 {
                            self.finish_image(st);
                        }
                    }
                    Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) | Event::Html(t) => {
                        img.alt.push_str(t)
                    }
                    Event::SoftBreak | Event::HardBreak => img.alt.push(' '),
                    _ => {}
                }
                return;
            }
        }
        match e {
            Event::Start(tag) => self.start(st, tag),
            Event::End(tag) => self.end(st, *tag),
            Event::Text(t) => {
                if let Some(p) = &mut st.para {
                    if p.verbatim != Verbatim::No {
                        push_verbatim(&mut p.buf, t, p.verbatim == Verbatim::Code);
                        return;
                    }
                }
                self.text(st, t.to_string());
            }
            Event::Code(t) => {
                let buf = self.inline_buf(st);
                let mut marks = buf.marks.clone();
                marks.push(Mark::Style(TextStyle::Code));
                buf.runs.push(Run {
                    marks,
                    leaf: Leaf::Text(t.to_string()),
                });
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                self.warn_once(
                    "html",
                    WarningKind::Lossy,
                    "raw HTML is kept as plain text, never passed through",
                );
                match &mut st.para {
                    Some(p) if p.verbatim != Verbatim::No => {
                        push_verbatim(&mut p.buf, t, p.verbatim == Verbatim::Code)
                    }
                    _ => self.text(st, t.to_string()),
                }
            }
            Event::FootnoteReference(label) => self.note_ref(st, label),
            Event::SoftBreak => self.text(st, " ".into()),
            Event::HardBreak => {
                let buf = self.inline_buf(st);
                let marks = buf.marks.clone();
                buf.runs.push(Run {
                    marks,
                    leaf: Leaf::LineBreak,
                });
            }
            Event::Rule => {
                self.finish_para(st);
                self.ensure_item(st);
                st.blocks.push(Block::PageBreak);
            }
            Event::TaskListMarker(done) => {
                self.text(st, if *done { "[x] " } else { "[ ] " }.into());
            }
            Event::InlineMath(t) => self.math(st, t, false),
            Event::DisplayMath(t) => self.math(st, t, true),
        }
    }

    fn start(&mut self, st: &mut State, tag: &Tag<'a>) {
        match tag {
            Tag::Paragraph => self.begin_para(st, Verbatim::No),
            Tag::Heading { level, .. } => {
                self.finish_para(st);
                self.ensure_item(st);
                let level = clamp_u8((*level as usize).saturating_sub(1), MAX_LEVEL);
                st.para = Some(Para {
                    kind: TextType::Heading,
                    level,
                    ..Para::plain(st.block_indent())
                });
            }
            Tag::BlockQuote(_) => {
                self.finish_para(st);
                self.ensure_item(st);
                st.quote = st.quote.saturating_add(1);
            }
            Tag::CodeBlock(kind) => {
                // The info string's first word is the language (CommonMark §4.5).
                let language = match kind {
                    CodeBlockKind::Fenced(info) => {
                        let word = info.split_whitespace().next().unwrap_or("");
                        if crate::ast::is_code_language(word) {
                            word.to_string()
                        } else {
                            self.warn_once(
                                "code-info",
                                WarningKind::Lossy,
                                "a code block's info string that is not a language name is not kept",
                            );
                            String::new()
                        }
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                self.begin_para(st, Verbatim::Code);
                if let Some(para) = st.para.as_mut() {
                    para.language = Some(language);
                }
            }
            Tag::HtmlBlock => self.begin_para(st, Verbatim::Html),
            Tag::List(start) => {
                self.finish_para(st);
                self.ensure_item(st);
                let list_id = match st.lists.first() {
                    Some(outer) => outer.list_id.clone(),
                    None => {
                        self.lists_seen += 1;
                        format!("md{}", self.lists_seen)
                    }
                };
                st.lists.push(ListFrame {
                    ordered: start.is_some(),
                    start: start.unwrap_or(1),
                    list_id,
                    item_done: true,
                    first_done: false,
                });
            }
            Tag::Item => {
                self.finish_para(st);
                if let Some(l) = st.lists.last_mut() {
                    l.item_done = false;
                }
            }
            Tag::FootnoteDefinition(_) => st.skip = 1,
            Tag::Table(aligns) => {
                self.finish_para(st);
                self.ensure_item(st);
                st.table = Some(TableBuf {
                    aligns: aligns.clone(),
                    rows: Vec::new(),
                    row: Vec::new(),
                    head: false,
                    indent: st.block_indent(),
                });
            }
            Tag::TableHead => {
                if let Some(t) = &mut st.table {
                    t.head = true;
                    t.row.clear();
                }
            }
            Tag::TableRow => {
                if let Some(t) = &mut st.table {
                    t.head = false;
                    t.row.clear();
                }
            }
            // A cell's inline content collects in a paragraph of its own (never an item's).
            Tag::TableCell => st.para = Some(Para::plain(0)),
            Tag::Emphasis => self.push_mark(st, Mark::Style(TextStyle::Italic)),
            Tag::Strong => self.push_mark(st, Mark::Style(TextStyle::Bold)),
            Tag::Strikethrough => self.push_mark(st, Mark::Style(TextStyle::Strike)),
            Tag::Superscript => self.push_mark(st, Mark::Style(TextStyle::Superscript)),
            Tag::Subscript => self.push_mark(st, Mark::Style(TextStyle::Subscript)),
            Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => {
                if !title.is_empty() {
                    self.warn_once("link-title", WarningKind::Lossy, "link titles are not kept");
                }
                let href = if *link_type == LinkType::Email && !dest_url.starts_with("mailto:") {
                    format!("mailto:{dest_url}")
                } else {
                    dest_url.to_string()
                };
                self.push_mark(st, Mark::Link(href));
            }
            Tag::Image {
                dest_url, title, ..
            } => {
                let buf = self.inline_buf(st);
                buf.image = Some(PendingImage {
                    depth: 1,
                    dest: dest_url.to_string(),
                    title: title.to_string(),
                    alt: String::new(),
                });
            }
            Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => {}
        }
    }

    fn end(&mut self, st: &mut State, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::HtmlBlock => {
                self.finish_para(st)
            }
            TagEnd::BlockQuote(_) => {
                self.finish_para(st);
                st.quote = st.quote.saturating_sub(1);
            }
            TagEnd::List(_) => {
                self.finish_para(st);
                st.lists.pop();
            }
            TagEnd::Item => self.end_item(st),
            TagEnd::FootnoteDefinition => {}
            TagEnd::Table => {
                if let Some(t) = st.table.take() {
                    let n = t.aligns.len().max(1);
                    st.blocks.push(Block::Table(Table {
                        columns: vec![100.0 / n as f32; n],
                        rows: t.rows,
                        indent: t.indent,
                        ..Table::default()
                    }));
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some(t) = &mut st.table {
                    let cells = std::mem::take(&mut t.row);
                    t.rows.push(Row {
                        header: t.head,
                        cells,
                        ..Row::default()
                    });
                    t.head = false;
                }
            }
            TagEnd::TableCell => {
                let para = st.para.take();
                if let Some(t) = &mut st.table {
                    let buf = para.map(|p| p.buf).unwrap_or_default();
                    let col = t.row.len();
                    let align = match t.aligns.get(col) {
                        Some(Alignment::Left) => Some(Align::Left),
                        Some(Alignment::Center) => Some(Align::Center),
                        Some(Alignment::Right) => Some(Align::Right),
                        _ => None,
                    };
                    let content = from_runs(buf.runs);
                    let blocks = if content.is_empty() {
                        Vec::new()
                    } else {
                        vec![Block::Paragraph(Paragraph::new(
                            TextType::Paragraph,
                            content,
                        ))]
                    };
                    t.row.push(Cell {
                        header: t.head,
                        align,
                        blocks,
                        ..Cell::default()
                    });
                }
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link => {
                let buf = self.inline_buf(st);
                buf.marks.pop();
            }
            TagEnd::Image => {}
            TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::MetadataBlock(_) => {}
        }
    }

    // ----- paragraphs ----------------------------------------------------------------------

    /// Opens a paragraph: the current item's own paragraph when the item has none yet, else a
    /// block indented under the quotes and lists around it.
    fn begin_para(&mut self, st: &mut State, verbatim: Verbatim) {
        self.finish_para(st);
        let mut para = Para {
            verbatim,
            ..Para::plain(st.block_indent())
        };
        if let Some(item) = self.take_item_slot(st) {
            para.kind = item.kind;
            para.level = item.level;
            para.indent = item.indent;
            para.list = Some(item.list);
        }
        st.para = Some(para);
    }

    /// If the innermost list's current item has no paragraph yet, claims it.
    fn take_item_slot(&mut self, st: &mut State) -> Option<ItemSlot> {
        let depth = st.lists.len();
        let quote = st.quote;
        let prev_is_parent = match st.blocks.last() {
            Some(Block::Paragraph(p)) => p.kind.is_list() && usize::from(p.level) + 1 < depth,
            _ => false,
        };
        let frame = st.lists.last_mut()?;
        if frame.item_done {
            return None;
        }
        frame.item_done = true;
        let level = depth.saturating_sub(1);
        if level > usize::from(MAX_LEVEL) {
            self.warn_once(
                "list-depth",
                WarningKind::Lossy,
                "lists nested deeper than 6 levels are flattened to level 6",
            );
        }
        let first = !frame.first_done;
        frame.first_done = true;
        let (start, restart) = if first && frame.ordered {
            let start = u32::try_from(frame.start).unwrap_or(u32::MAX);
            // A nested list that does not directly follow its parent item would otherwise
            // continue the counting of an earlier nested list of the same parent.
            ((start != 1).then_some(start), level > 0 && !prev_is_parent)
        } else {
            (None, false)
        };
        let kind = if frame.ordered {
            TextType::ListOl
        } else {
            TextType::ListUl
        };
        Some(ItemSlot {
            kind,
            level: clamp_u8(level, MAX_LEVEL),
            indent: quote.min(MAX_INDENT),
            list: ListInfo {
                list_id: frame.list_id.clone(),
                start,
                restart,
            },
        })
    }

    /// Before a block that cannot be an item's own paragraph: gives the item an empty one.
    fn ensure_item(&mut self, st: &mut State) {
        if let Some(slot) = self.take_item_slot(st) {
            st.blocks.push(Block::Paragraph(list_paragraph(
                slot.kind,
                slot.level,
                slot.indent,
                slot.list,
                Vec::new(),
            )));
        }
    }

    fn end_item(&mut self, st: &mut State) {
        self.finish_para(st);
        self.ensure_item(st);
    }

    fn finish_para(&mut self, st: &mut State) {
        let Some(mut para) = st.para.take() else {
            return;
        };
        if para.buf.image.is_some() {
            // An image left open by a truncated range: keep what we have.
            let img = para.buf.image.take();
            if let Some(img) = img {
                let atom = self.image_atom(img);
                para.buf.runs.push(Run {
                    marks: Vec::new(),
                    leaf: Leaf::Atom(atom),
                });
            }
        }
        if para.verbatim != Verbatim::No {
            // The block's last line ends with a newline that is not a break.
            while matches!(
                para.buf.runs.last(),
                Some(Run {
                    leaf: Leaf::LineBreak,
                    ..
                })
            ) {
                para.buf.runs.pop();
            }
        }
        let only_image = para.list.is_none()
            && para.kind == TextType::Paragraph
            && para.verbatim == Verbatim::No
            && para.buf.runs.len() == 1
            && matches!(
                para.buf.runs.first(),
                Some(Run {
                    leaf: Leaf::Atom(Inline::Image { .. }),
                    ..
                })
            );
        let content = from_runs(para.buf.runs);
        if only_image {
            if let Some(Inline::Image {
                media,
                caption,
                alt,
            }) = content.into_iter().next()
            {
                st.blocks.push(Block::Image(Image {
                    media,
                    caption,
                    alt,
                    indent: para.indent,
                    ..Image::default()
                }));
            }
            return;
        }
        if let Some(list) = para.list {
            st.blocks.push(Block::Paragraph(list_paragraph(
                para.kind,
                para.level,
                para.indent,
                list,
                content,
            )));
            return;
        }
        if content.is_empty() && para.kind == TextType::Paragraph {
            if para.verbatim == Verbatim::Code {
                self.warn(WarningKind::Dropped, "empty code block dropped");
            }
            return;
        }
        st.blocks.push(Block::Paragraph(Paragraph {
            level: para.level,
            indent: para.indent,
            code: para.language.filter(|_| para.kind == TextType::Paragraph),
            ..Paragraph::new(para.kind, content)
        }));
    }

    // ----- inline content --------------------------------------------------------------------

    /// The inline buffer events go to: the open paragraph (or cell), else a new paragraph (text
    /// directly inside a tight list item has no paragraph event).
    fn inline_buf<'s>(&mut self, st: &'s mut State) -> &'s mut InlineBuf {
        if st.para.is_none() {
            self.begin_para(st, Verbatim::No);
        }
        let indent = st.block_indent();
        &mut st.para.get_or_insert_with(|| Para::plain(indent)).buf
    }

    fn current_buf<'s>(&self, st: &'s mut State) -> Option<&'s mut InlineBuf> {
        st.para.as_mut().map(|p| &mut p.buf)
    }

    /// A TeX formula (`$…$`, `$$…$$`); one the TeX reader cannot take is kept as its source text.
    fn math(&mut self, st: &mut State, tex: &str, display: bool) {
        let leaf = match crate::ast::math_tex::parse(tex) {
            Ok((math, unknown)) => {
                if !unknown.is_empty() {
                    self.warn(
                        WarningKind::Lossy,
                        format!(
                            "TeX commands {} in a formula are not known: kept as text",
                            unknown.join(", ")
                        ),
                    );
                }
                Leaf::Atom(Inline::Math { display, math })
            }
            Err(e) => {
                self.warn(
                    WarningKind::Lossy,
                    format!("a formula could not be read ({e}): its TeX source is kept as text"),
                );
                let fence = if display { "$$" } else { "$" };
                Leaf::Text(format!("{fence}{tex}{fence}"))
            }
        };
        let buf = self.inline_buf(st);
        let marks = buf.marks.clone();
        buf.runs.push(Run { marks, leaf });
    }

    fn text(&mut self, st: &mut State, text: String) {
        let buf = self.inline_buf(st);
        let marks = buf.marks.clone();
        buf.runs.push(Run {
            marks,
            leaf: Leaf::Text(text),
        });
    }

    fn push_mark(&mut self, st: &mut State, mark: Mark) {
        self.inline_buf(st).marks.push(mark);
    }

    fn push_atom(&mut self, st: &mut State, atom: Inline) {
        let buf = self.inline_buf(st);
        let linked = buf.marks.iter().any(|m| matches!(m, Mark::Link(_)));
        let marks = buf.marks.clone();
        buf.runs.push(Run {
            marks,
            leaf: Leaf::Atom(atom),
        });
        if linked {
            self.warn_once(
                "linked-atom",
                WarningKind::Lossy,
                "a link around an image or footnote is dropped (the tree cannot link them)",
            );
        }
    }

    fn finish_image(&mut self, st: &mut State) {
        let Some(buf) = self.current_buf(st) else {
            return;
        };
        let Some(img) = buf.image.take() else {
            return;
        };
        let atom = self.image_atom(img);
        self.push_atom(st, atom);
    }

    fn image_atom(&mut self, img: PendingImage) -> Inline {
        let media = self.media_name(&img.dest);
        let alt = img.alt.trim().to_string();
        Inline::Image {
            media,
            caption: (!img.title.is_empty()).then_some(img.title),
            alt: (!alt.is_empty()).then_some(alt),
        }
    }

    /// The media name for an image path: resolved once, stored under its file name.
    fn media_name(&mut self, path: &str) -> String {
        if let Some(name) = self.media_by_path.get(path) {
            return name.clone();
        }
        let file = file_name(path);
        let name = unique(&file, &mut self.taken);
        match (self.resolve)(path) {
            Some(bytes) => {
                self.media.add(name.clone(), bytes);
            }
            None => self.warn(
                WarningKind::MissingMedia,
                format!("image {path:?} could not be resolved; kept as {name:?} without bytes"),
            ),
        }
        self.media_by_path.insert(path.to_string(), name.clone());
        name
    }

    fn note_ref(&mut self, st: &mut State, label: &str) {
        let key = label.to_lowercase();
        let Some(range) = self.definitions.get(&key).cloned() else {
            self.warn(
                WarningKind::InvalidValue,
                format!("footnote [^{label}] has no definition; kept as text"),
            );
            self.text(st, format!("[^{label}]"));
            return;
        };
        if self.active.contains(&key) || self.active.len() >= MAX_NOTE_DEPTH {
            self.warn(
                WarningKind::InvalidValue,
                format!("footnote [^{label}] refers to itself or nests too deep; kept as text"),
            );
            self.text(st, format!("[^{label}]"));
            return;
        }
        self.used.insert(key.clone());
        let content = match self.notes.get(&key) {
            Some(c) => c.clone(),
            None => {
                self.active.push(key.clone());
                let blocks = self.blocks(range);
                self.active.pop();
                let c = self.note_content(blocks);
                self.notes.insert(key, c.clone());
                c
            }
        };
        self.push_atom(
            st,
            Inline::Note {
                kind: NoteKind::Footnote,
                content,
            },
        );
    }

    /// A note holds inline content: paragraphs are joined by line breaks; other blocks are
    /// flattened.
    fn note_content(&mut self, blocks: Vec<Block>) -> Vec<Inline> {
        let mut out = Vec::new();
        for block in blocks {
            let part = match block {
                Block::Paragraph(p) => {
                    if p.kind != TextType::Paragraph || p.indent > 0 {
                        self.warn_once(
                            "note-blocks",
                            WarningKind::Lossy,
                            "lists, headings and tables inside footnotes are flattened to text",
                        );
                    }
                    p.content
                }
                Block::Image(img) => vec![Inline::Image {
                    media: img.media,
                    caption: img.caption,
                    alt: img.alt,
                }],
                Block::Table(t) => {
                    self.warn_once(
                        "note-blocks",
                        WarningKind::Lossy,
                        "lists, headings and tables inside footnotes are flattened to text",
                    );
                    let mut cells = Vec::new();
                    for row in t.rows {
                        for cell in row.cells {
                            for b in cell.blocks {
                                if let Block::Paragraph(p) = b {
                                    if !cells.is_empty() {
                                        cells.push(Inline::text(" "));
                                    }
                                    cells.extend(p.content);
                                }
                            }
                        }
                    }
                    cells
                }
                Block::PageBreak | Block::Directory { .. } => continue,
            };
            if !out.is_empty() {
                out.push(Inline::LineBreak);
            }
            out.extend(part);
        }
        crate::ast::inline::normalize(&out)
    }
}

fn list_paragraph(
    kind: TextType,
    level: u8,
    indent: u8,
    list: ListInfo,
    content: Vec<Inline>,
) -> Paragraph {
    Paragraph {
        level,
        indent,
        list_id: Some(list.list_id),
        start: list.start,
        restart: list.restart,
        ..Paragraph::new(kind, content)
    }
}

/// Adds code or HTML block text: each newline becomes a line break; code is code-formatted.
fn push_verbatim(buf: &mut InlineBuf, text: &str, code: bool) {
    let code = if code {
        vec![Mark::Style(TextStyle::Code)]
    } else {
        Vec::new()
    };
    let mut first = true;
    for line in text.split('\n') {
        if !first {
            buf.runs.push(Run {
                marks: code.clone(),
                leaf: Leaf::LineBreak,
            });
        }
        first = false;
        if !line.is_empty() {
            buf.runs.push(Run {
                marks: code.clone(),
                leaf: Leaf::Text(line.to_string()),
            });
        }
    }
}

/// The file name part of an image path or URL: after the last `/`, without query or fragment.
fn file_name(path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let name = path.rsplit(['/', '\\']).next().unwrap_or("");
    if name.is_empty() || name == "." || name == ".." {
        "image".into()
    } else {
        name.to_string()
    }
}

/// `name`, or `name-2`, `name-3`, … before the extension, unique in `taken` ignoring case.
fn unique(name: &str, taken: &mut HashSet<String>) -> String {
    let (stem, ext) = match name.rfind('.') {
        Some(i) if i > 0 => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    let mut candidate = name.to_string();
    let mut n = 2u32;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_come_from_the_last_path_part() {
        assert_eq!(file_name("images/cat.png?x=1#y"), "cat.png");
        assert_eq!(file_name("https://a.b/"), "image");
        assert_eq!(file_name("..\\x.gif"), "x.gif");
        let mut taken = HashSet::new();
        assert_eq!(unique("a.png", &mut taken), "a.png");
        assert_eq!(unique("A.png", &mut taken), "A-2.png");
    }
}
