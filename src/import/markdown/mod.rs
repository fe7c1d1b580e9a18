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
//!   definitions are warned (pulldown-cmark leaves a reference without definition as text). Each
//!   reference holds a copy; once the copies would pass a budget in proportion to the text
//!   (notes referred to many times, nested), further references stay as text, warned.
//! - Block quotes → their paragraphs with `indent` + 1 per quote level and the style `Quote`.
//! - Code blocks → a code block paragraph (`code`: the info string's first word as language) of
//!   code-formatted text, lines joined by line breaks (an empty code block is dropped, warned).
//! - Thematic break (`---`) → page break (the Markdown writer writes page breaks as `---`).
//! - Hard breaks → line breaks; soft breaks → a space.
//! - Raw HTML, inline or block, is kept as plain text and warned: it is never passed through.
//! - YAML front matter (pandoc's `---` block at the start) → `meta` (title, subtitle,
//!   author/creator, lang, description/abstract, keywords/tags; other keys ignored; a block that
//!   is not such metadata warns and stays text). A first `#` heading repeating the title and a
//!   paragraph after it repeating the subtitle are those fields, not body blocks.

mod events;
mod front;
mod images;
mod inline;
mod notes;
mod paragraphs;

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use bytes::Bytes;
use pulldown_cmark::{Alignment, Event, Options, Parser, Tag, TagEnd};

use crate::ast::inline::Run;
use crate::ast::{Block, Cell, Document, Inline, MAX_INDENT, Mark, MediaStore, Row, TextType};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Converted, Location, Report, WarningKind};

/// The paragraph style of block-quoted text (Word's built-in name).
const QUOTE_STYLE: &str = "Quote";

/// How deep footnote definitions may refer to further footnotes before the reference is kept as
/// text (bounds recursion on hostile input).
const MAX_NOTE_DEPTH: usize = 8;

/// What references may copy out of their notes ([`crate::ast::footprint::inlines`]: bytes of
/// text, and one per node), per byte of the text (at least [`MIN_NOTE_COPIES`]): an ordinary
/// text refers to each note once or twice, which copies no more than the text holds.
const NOTE_COPIES_PER_BYTE: usize = 8;

/// The least budget of copied note content, for short texts.
const MIN_NOTE_COPIES: usize = 1 << 20;

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
    let mut report = Report::new();
    let (meta, text) = front::split(text, &mut report);
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
        note_copies: 0,
        note_budget: NOTE_COPIES_PER_BYTE
            .saturating_mul(text.len())
            .max(MIN_NOTE_COPIES),
        report,
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
    front::drop_title_blocks(&meta, &mut blocks);
    let doc = Document {
        blocks,
        meta,
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
    /// Converted note contents by label, with their footprint (one per node).
    notes: HashMap<String, (Vec<Inline>, usize)>,
    /// What the references' copies of notes hold so far (footprints), and the most they
    /// may.
    note_copies: usize,
    note_budget: usize,
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
    /// The distinct marks open, which every run added gets: a mark opened inside the same mark
    /// (`*a *b* c*`) is not repeated, as the tree's canonical form keeps one of each, so hostile
    /// nesting cannot make each run copy a list as long as the nesting.
    marks: Vec<Mark>,
    /// One entry per open emphasis, strong, strike-through, script or link tag, innermost last:
    /// whether it added a mark to `marks` (its end then takes that mark off again).
    opened: Vec<bool>,
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
}
