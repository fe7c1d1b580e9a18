//! The converter of stage two: [`Converter`], the state the conversion of one document shares
//! (sources, warnings, media names, list counters, ids, the field stack), with the helpers every
//! step uses (warnings, block ids), and the small values the steps hand each other ([`Sources`],
//! [`Out`], [`CaptionInfo`]).
//!
//! The steps (`convert`, `paragraphs`, `inlines`, `fields`, `tables`, `pages`, `language`,
//! `captions`) each add their methods to [`Converter`] in their own file and import it from
//! here; this file imports none of them, so the imports run one way (the state here used to
//! live in `convert`, and every step imported it from there while `convert` imported the steps).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use crate::room::Room;

use foldhash::fast::RandomState as FastHash;

use super::copies::{Copied, Copies};
use super::looks::NumberLooks;
use super::mapping::{StyleInfo, StyleMapping};
use super::media::MediaNames;
use super::numbering::{Count, ListCounters, ListNumber};
use crate::ast;
use crate::import::docx::parse::model;
use crate::import::docx::parse::notes::NoteMap;
use crate::import::docx::parse::numbering::Numbering;
use crate::import::docx::parse::parser::Facts;
use crate::import::docx::parse::props::{LangSlots, Section};
use crate::import::docx::parse::styles::Styles;
use crate::report::{Location, Report, WarningKind};

/// Default text width when no section says: 6 inches in EMU.
pub const DEFAULT_TEXT_WIDTH: u64 = 6 * 914_400;

/// Everything stage two reads besides the body.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub styles: &'a Styles,
    pub numbering: &'a Numbering,
    pub mapping: &'a StyleMapping,
    /// Read as mammoth does ([`crate::import::docx::DocxImportOptions::word_refs`]).
    pub word_refs: bool,
    pub footnotes: &'a NoteMap,
    pub endnotes: &'a NoteMap,
    pub comment_ids: &'a HashSet<String>,
    pub facts: &'a Facts,
    /// Lower-cased zip entry names, to know whether a picture's part exists.
    pub parts: &'a HashSet<String>,
    /// The main part's name, for warning locations.
    pub main_part: &'a str,
    /// SmartArt data parts read: part name → items in reading order.
    pub diagrams: &'a std::collections::HashMap<
        String,
        Vec<crate::import::docx::parse::smartart::DiagramItem>,
    >,
    /// Chart parts' data tables, by part name.
    pub charts: &'a HashMap<String, ast::Table>,
    /// The core properties' `dc:language`: the document's language when the body has no
    /// letters to count (`super::language::fallback_lang`).
    pub core_language: Option<&'a str>,
    /// Embedded chunks read, by part name.
    pub chunks: &'a HashMap<String, crate::import::docx::chunks::ChunkBlocks>,
    /// Which bodies are converted in two halves at once (`super::seam`).
    pub split: Split,
    /// The main body's top-level blocks parsed again, for a second half that did not join
    /// (`super::seam`: the pool's converter consumed its own); `None` where they cannot be had.
    pub again: &'a (dyn Fn() -> Option<Vec<model::Block>> + Sync),
    /// The footprint of each part copied where it is named, and the budget of those copies.
    pub copies: &'a Copies<'a>,
}

/// What a copy counted against the budget of copies is of: each has its own warning.
#[derive(Debug, Clone, Copy)]
enum Budgeted {
    /// A part named at several places (`Converter::copy_fits`).
    Parts,
    /// A link target (`Converter::link_fits`).
    Links,
}

/// Which bodies are converted in two halves at once (`super::seam`).
#[derive(Debug, Clone, Copy)]
pub struct Split {
    /// Bodies of this many top-level blocks or more; `usize::MAX`: none.
    pub from: usize,
    /// The calling thread leaves the second half to the pool even when the pool has not
    /// started on it by the time the first is done (tests, to join halves of small files).
    pub always: bool,
}

impl Split {
    /// No body is split.
    pub const NEVER: Split = Split {
        from: usize::MAX,
        always: false,
    };

    /// Whether a body of `blocks` top-level blocks is converted in two halves: it is long
    /// enough and the pool has a second thread. The reader keeps the main part's text for a
    /// second parse exactly then (`super::seam`), so both ask here.
    pub fn splits(self, blocks: usize) -> bool {
        blocks >= self.from && rayon::current_num_threads() > 1
    }
}

/// A block list being built, with what the caption pass needs to know: which blocks are
/// caption paragraphs.
#[derive(Default)]
pub struct Out {
    pub blocks: Vec<ast::Block>,
    /// (index in `blocks`, numbering facts) of each caption paragraph.
    pub captions: Vec<(usize, CaptionInfo)>,
}

impl Out {
    pub(super) fn push(&mut self, block: ast::Block) {
        self.blocks.push(block);
    }

    pub(super) fn push_caption(&mut self, block: ast::Block, info: CaptionInfo) {
        self.captions.push((self.blocks.len(), info));
        self.blocks.push(block);
    }
}

/// What a caption paragraph's numbering said.
#[derive(Debug, Clone, Default)]
pub struct CaptionInfo {
    /// The `SEQ` identifier (`Figure`, `Table`).
    pub label: Option<String>,
    /// A `SEQ` field numbered it.
    pub numbered: bool,
    /// Kept with the next paragraph (`w:keepNext`): a caption above the block it names.
    pub keep_next: bool,
}

/// The stage-two converter of one document.
pub struct Converter<'a> {
    pub(super) src: Sources<'a>,
    /// Warnings so far.
    pub report: Report,
    /// Media names handed out.
    pub media: MediaNames,
    /// (media, width, height) of image blocks wider than their text: their width is not what
    /// `width_percent` (at most 100) says, so they keep their extent.
    pub wide_images: HashSet<(String, u64, u64)>,
    /// SmartArt diagrams converted so far (each gets its own list id).
    pub(super) diagram_count: usize,
    /// The footprint of the copies of notes, charts, diagrams and embedded documents, and the
    /// bytes of link targets copied, so far (`super::copies`).
    pub(super) copied: usize,
    pub(super) lists: ListCounters,
    pub(super) ids: HashSet<String>,
    /// Bookmark names that point at another block's id.
    pub alias: HashMap<String, String>,
    pub(super) carry: Vec<String>,
    /// Each paragraph style's chain (it and the styles it is based on), built once per style and
    /// looked up for every paragraph: hashed with foldhash (seeded per process), not SipHash.
    pub(super) chains: HashMap<&'a str, Rc<[StyleInfo<'a>]>, FastHash>,
    pub(super) warned: HashSet<String>,
    /// Picture parts already looked up, by the address of their shared name (each
    /// relationship's target is one string; held here, so no other string takes its address):
    /// the media name given, or `None` for a part missing from the package. A file naming one
    /// long part name at every picture has it lower-cased, looked up and warned of once, not per
    /// picture.
    pub(super) picture_parts: HashMap<usize, (Arc<str>, Option<String>)>,
    /// Paragraph styles `warn_unmapped` has looked at: whether it has nothing more to say of
    /// them (warned already, or the default paragraph style), else only paragraphs with
    /// numbering or an outline level can still draw the warning. Looked up for most
    /// paragraphs: hashed with foldhash.
    pub(super) unmapped_styles: HashMap<String, bool, FastHash>,
    pub(super) fields: FieldState,
    pub text_width: u64,
    pub(super) note_depth: u32,
    /// Word ids of the body's note references so far (kept with `word_refs` only).
    pub(super) note_ids: Vec<String>,
    /// Bookmarks that stand between paragraphs, not in one (kept with `word_refs` only).
    pub(super) outside_bookmarks: Vec<String>,
    pub(super) footer_mode: bool,
    pub(super) block_no: usize,
    /// (index of the next top-level block, its properties) of each section ended so far.
    pub(super) section_ends: Vec<(usize, Section)>,
    /// How Word draws the numbers of the numbered paragraphs made so far.
    pub looks: NumberLooks,
    /// The theme's font languages (`w:themeFontLang`), below the document defaults.
    pub(super) theme_lang: LangSlots,
    /// Room for the plain text of the paragraph being decided, reused from one to the next
    /// (up to 64 KiB).
    pub(super) para_text: Room<String, { 64 * 1024 }>,
    /// Kept by the converter of the body's second half (`super::seam`), which starts without
    /// what the first half leaves: what it did with the state that carries across the seam.
    pub(super) log: Option<Box<SeamLog>>,
}

/// What the converter of the body's second half did with the state that carries across the
/// seam, in order, so it can be done again behind the first half's state and checked
/// (`super::seam`).
#[derive(Debug, Default)]
pub struct SeamLog {
    /// Each numbered paragraph counted, with the number it kept (none for a paragraph that
    /// counts but is no numbered kind).
    pub lists: Vec<(Count, Option<ListNumber>)>,
    /// The index in `lists` of each paragraph made that took its number, in the order made.
    pub numbered: Vec<usize>,
    /// Blocks came, went or moved that these logs do not follow (an embedded chunk's blocks, a
    /// dropped section break paragraph, a merged cell's blocks moved into the cell it
    /// continues): numbered paragraphs cannot be found by the order they were made, nor a
    /// block by the id it took.
    pub order_lost: bool,
    /// A caption was attached inside a cell or a text box, a choice that depends on the ids of
    /// the caption and of what it names.
    pub nested_captions: bool,
    /// The bookmarks of each block that took an id, with the id it took.
    pub ids: Vec<(Vec<String>, String)>,
    /// The key of each warning given once, with its index in the report.
    pub warned: Vec<(String, usize)>,
}

impl<'a> Converter<'a> {
    pub fn new(src: Sources<'a>, report: Report) -> Self {
        Converter {
            src,
            report,
            media: MediaNames::default(),
            wide_images: HashSet::new(),
            diagram_count: 0,
            copied: 0,
            lists: ListCounters::default(),
            ids: HashSet::new(),
            alias: HashMap::new(),
            carry: Vec::new(),
            chains: HashMap::default(),
            warned: HashSet::new(),
            picture_parts: HashMap::new(),
            unmapped_styles: HashMap::default(),
            fields: FieldState::default(),
            text_width: DEFAULT_TEXT_WIDTH,
            note_depth: 0,
            note_ids: Vec::new(),
            outside_bookmarks: Vec::new(),
            footer_mode: false,
            block_no: 0,
            section_ends: Vec::new(),
            looks: NumberLooks::default(),
            theme_lang: LangSlots::default(),
            para_text: Room::default(),
            log: None,
        }
    }

    pub(super) fn loc(&self) -> Location {
        Location::part(self.src.main_part).block(self.block_no)
    }

    /// The document's styles.
    pub fn src_styles(&self) -> &'a Styles {
        self.src.styles
    }

    /// A style's display name.
    pub fn style_name(&self, id: &str) -> String {
        self.src.styles.name_of(id).to_string()
    }

    pub fn warn(&mut self, kind: WarningKind, message: impl Into<String>, element: &str) {
        let loc = self.loc().element(element);
        self.report.warn(kind, message, loc);
    }

    /// Warns once per `key`.
    pub(super) fn warn_once(
        &mut self,
        key: String,
        kind: WarningKind,
        message: impl Into<String>,
        element: &str,
    ) {
        if let Some(log) = &mut self.log {
            if !self.warned.contains(&key) {
                log.warned.push((key.clone(), self.report.warnings().len()));
            }
        }
        if self.warned.insert(key) {
            self.warn(kind, message, element);
        }
    }

    /// Whether `bytes` more of link targets fit the budget of copies (`super::copies`):
    /// counted when they do; when not, the caller keeps the text without its link (or leaves a
    /// linked picture out) and one warning says so. Each wrapper of a link's text and each
    /// linked picture holds a copy of its target, and a hostile file can cut one link into a
    /// wrapper per run (runs in and out of a tracked change), carry a field's link across
    /// thousands of paragraphs, or name one long target from thousands of places.
    pub(super) fn link_fits(&mut self, bytes: usize, element: &str) -> bool {
        self.fits(bytes, Budgeted::Links, element)
    }

    /// Whether one more copy of the part fits the budget (`super::copies`): counted when it
    /// does; when not, the caller leaves the reference out and one warning says so.
    pub(super) fn copy_fits(&mut self, kind: Copied, name: &str, element: &str) -> bool {
        self.fits(self.src.copies.size(kind, name), Budgeted::Parts, element)
    }

    /// Counts `bytes` more copies when they fit the budget, else warns once for `what`.
    fn fits(&mut self, bytes: usize, what: Budgeted, element: &str) -> bool {
        let copied = self.copied.saturating_add(bytes);
        if copied <= self.src.copies.budget {
            self.copied = copied;
            return true;
        }
        let budget = self.src.copies.budget;
        let room = if budget >= 1 << 20 {
            format!("{} MiB", budget >> 20)
        } else {
            format!("{} KiB", budget >> 10)
        };
        let (key, message) = match what {
            Budgeted::Parts => (
                "copy-budget",
                format!(
                    "parts named many times (notes, charts, SmartArt, embedded documents) would copy more than {room} into the tree; the references past that are left out"
                ),
            ),
            Budgeted::Links => (
                "link-budget",
                format!(
                    "links and linked pictures would copy more than {room} of their targets into the tree; the links past that keep their text without the link, the pictures are left out"
                ),
            ),
        };
        self.warn_once(key.into(), WarningKind::Dropped, message, element);
        false
    }

    pub(super) fn assign_id(&mut self, bookmarks: &mut Vec<String>) -> Option<String> {
        let given = match &self.log {
            Some(_) if !bookmarks.is_empty() => Some(bookmarks.clone()),
            _ => None,
        };
        let id = assign(&mut self.ids, &mut self.alias, bookmarks);
        if let (Some(log), Some(given), Some(id)) = (&mut self.log, given, &id) {
            log.ids.push((given, id.clone()));
        }
        id
    }

    /// Notes in the seam log, when `lost`, that blocks came, went or moved out of the order
    /// they were made in.
    pub(super) fn lose_order(&mut self, lost: bool) {
        if let (Some(log), true) = (&mut self.log, lost) {
            log.order_lost = true;
        }
    }

    /// Counts a numbered paragraph; its number when `kept` (the paragraph is a numbered kind).
    pub(super) fn count_list(&mut self, count: Count, kept: bool) -> Option<ListNumber> {
        let logged = self.log.is_some().then(|| count.clone());
        let n = self.lists.count(count, self.src.numbering, self.src.styles);
        let n = kept.then_some(n);
        if let (Some(log), Some(count)) = (&mut self.log, logged) {
            log.lists.push((count, n.clone()));
        }
        n
    }

    /// Takes the bookmarks waiting for a block (before a table) as its id.
    pub fn take_carried_id(&mut self) -> Option<String> {
        let mut carried = std::mem::take(&mut self.carry);
        self.assign_id(&mut carried)
    }
}

/// Gives a block the first of `bookmarks` not in `ids` as its id, and records it there. A name
/// not starting with `_` goes first (the tree's id, by the writers' contract); Word's own
/// `_Toc…`/`_Ref…` bookmarks on the same block become aliases of it, so references to them
/// resolve to that id.
pub(super) fn assign(
    ids: &mut HashSet<String>,
    alias: &mut HashMap<String, String>,
    bookmarks: &mut Vec<String>,
) -> Option<String> {
    if let Some(i) = bookmarks
        .iter()
        .position(|b| !b.starts_with('_') && !ids.contains(b))
    {
        let named = bookmarks.remove(i);
        bookmarks.insert(0, named);
    }
    let mut id: Option<String> = None;
    for b in bookmarks.drain(..) {
        if ids.contains(&b) {
            continue;
        }
        match &id {
            None => {
                ids.insert(b.clone());
                id = Some(b);
            }
            Some(first) => {
                alias.insert(b, first.clone());
            }
        }
    }
    id
}

/// One complex field open across paragraphs: its instruction so far, and what its result does.
#[derive(Debug, Default)]
pub(super) struct Frame {
    pub(super) instr: String,
    pub(super) result: bool,
    pub(super) drop: bool,
    /// The target of the hyperlink the result is, shared by the runs of the result.
    pub(super) link: Option<std::sync::Arc<str>>,
}

/// The stack of complex fields open (ECMA-376 §17.16), kept across paragraphs; the steps
/// in `fields` push and pop it.
#[derive(Debug, Default)]
pub(super) struct FieldState {
    pub(super) frames: Vec<Frame>,
    pub(super) overflow: usize,
    pub(super) disabled: bool,
}
