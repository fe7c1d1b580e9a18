//! Stage two's converter: the model of stage one → the document tree. [`build`] runs it over
//! the main body, the comments and the page parts. [`Converter`] holds what the conversion of
//! one document shares (sources, warnings, media names, list counters, ids, the field stack) and
//! converts block lists here; paragraphs in [`super::paragraphs`], inline content in
//! [`super::inlines`], fields in [`super::fields`], tables in [`super::tables`].

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::fields::FieldState;

use super::looks::NumberLooks;
use super::mapping::{StyleInfo, StyleMapping};
use super::media::MediaNames;
use super::numbering::ListCounters;
use super::references;
use crate::ast::{self, Comment};
use crate::import::docx::parse::comments::RawComment;
use crate::import::docx::parse::model::{self, Item};
use crate::import::docx::parse::notes::NoteMap;
use crate::import::docx::parse::numbering::Numbering;
use crate::import::docx::parse::parser::Facts;
use crate::import::docx::parse::parts::PageParts;
use crate::import::docx::parse::props::{LangSlots, Section};
use crate::import::docx::parse::styles::Styles;
use crate::report::{Location, Report, WarningKind};

/// Default text width when no section says: 6 inches in EMU.
pub const DEFAULT_TEXT_WIDTH: u64 = 6 * 914_400;

/// What stage two hands back besides the tree (which has no media bytes yet, and carries the
/// footer's and page headers' text in its metadata until they are merged with the caller's).
pub struct Built {
    /// The tree.
    pub doc: ast::Document,
    /// The (part, media name) pairs of the pictures the tree refers to.
    pub wanted: Vec<(String, String)>,
    /// (media, width, height) of the image blocks wider than their text (see
    /// [`super::pictures::drop_implied_extents`]).
    pub wide: HashSet<(String, u64, u64)>,
    /// How Word draws the numbers of the tree's numbered paragraphs.
    pub looks: NumberLooks,
    /// Warnings so far.
    pub report: Report,
}

/// Converts the main body, the comments and the page parts, then points references at the
/// ids their bookmarks' blocks received and joins Word's number-and-text reference pairs.
pub fn build(
    src: Sources<'_>,
    body: model::Body,
    comments: Vec<RawComment>,
    mut page: PageParts,
    report: Report,
) -> Built {
    let mut conv = Converter::new(src, report);
    let settings = std::mem::take(&mut page.settings);
    conv.theme_lang = settings.theme_lang;
    let last_section = body.final_section.clone();
    let blocks = conv.document(body);
    let comments = conv.comments(comments);
    let ends = std::mem::take(&mut conv.section_ends);
    let (pages, template_footer) = conv.pages(ends, last_section, page);
    let mut doc = ast::Document::new();
    doc.blocks = blocks;
    doc.comments = comments;
    // Languages and directions once the whole body is known; the caller's metadata and the
    // core properties are weighed against them later (`super::meta::settle`).
    let styles = conv.src.styles;
    let fallback = super::language::fallback_lang(&styles.doc_rpr.lang, conv.src.core_language);
    let settled = super::language::settle(&mut doc, styles.doc_ppr.bidi, fallback.as_deref());
    doc.meta.language = settled.language;
    doc.meta.direction = (settled.direction == ast::Direction::Rtl).then_some(settled.direction);
    doc.meta.hyphenate = settings.auto_hyphenation;
    // The service's one-line footer: the first section's default footer, as text.
    doc.meta.footer = super::pages::footer_line(&pages).or(template_footer);
    doc.meta.pages = pages;
    if conv.src.word_refs {
        doc.meta.word = Some(ast::WordRefs {
            styles: styles.word_styles(),
            note_ids: std::mem::take(&mut conv.note_ids),
            outside_bookmarks: std::mem::take(&mut conv.outside_bookmarks),
        });
    }
    if !conv.alias.is_empty() {
        references::rewrite_targets(&mut doc, &conv.alias);
    }
    doc.walk_inline_lists_mut(&mut references::join_number_and_text_refs);
    Built {
        doc,
        wanted: conv.media.wanted,
        wide: conv.wide_images,
        looks: conv.looks,
        report: conv.report,
    }
}

/// Everything stage two reads besides the body.
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
    pub(super) lists: ListCounters,
    pub(super) ids: HashSet<String>,
    /// Bookmark names that point at another block's id.
    pub alias: HashMap<String, String>,
    pub(super) carry: Vec<String>,
    pub(super) chains: HashMap<&'a str, Rc<[StyleInfo<'a>]>>,
    pub(super) warned: HashSet<String>,
    /// Paragraph styles `warn_unmapped` has looked at: whether it has nothing more to say of
    /// them (warned already, or the default paragraph style), else only paragraphs with
    /// numbering or an outline level can still draw the warning.
    pub(super) unmapped_styles: HashMap<String, bool>,
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
}

impl<'a> Converter<'a> {
    pub fn new(src: Sources<'a>, report: Report) -> Self {
        Converter {
            src,
            report,
            media: MediaNames::default(),
            wide_images: HashSet::new(),
            diagram_count: 0,
            lists: ListCounters::default(),
            ids: HashSet::new(),
            alias: HashMap::new(),
            carry: Vec::new(),
            chains: HashMap::new(),
            warned: HashSet::new(),
            unmapped_styles: HashMap::new(),
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
        if self.warned.insert(key) {
            self.warn(kind, message, element);
        }
    }

    /// Converts the main body.
    pub fn document(&mut self, body: model::Body) -> Vec<ast::Block> {
        let widths = section_widths(&body);
        // Balance was counted while parsing the main part.
        let facts = self.src.facts;
        self.fields = FieldState {
            disabled: facts.field_underflow || facts.field_depth != 0,
            ..FieldState::default()
        };
        if self.fields.disabled {
            self.warn(
                WarningKind::Repaired,
                "the document's field markers do not balance; fields are shown as their results",
                "w:fldChar",
            );
        }
        let blocks = self.block_list(body.blocks, Some(&widths));
        if !self.carry.is_empty() {
            self.carry.clear();
        }
        blocks
    }

    /// Converts comment bodies (ids deduplicated, first wins).
    pub fn comments(&mut self, raws: Vec<RawComment>) -> Vec<Comment> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for raw in raws {
            if !seen.insert(raw.id.clone()) {
                continue;
            }
            let content = self.inline_of_blocks(raw.blocks, false);
            out.push(Comment {
                id: raw.id,
                author: raw.author,
                initials: raw.initials,
                date: raw.date,
                content,
            });
        }
        out
    }

    /// Converts a block list (the body, a cell, a text box); `widths` per block at top level.
    pub fn block_list(
        &mut self,
        blocks: Vec<model::Block>,
        widths: Option<&[u64]>,
    ) -> Vec<ast::Block> {
        let mut out = Out::default();
        let mut pending: Vec<Item> = Vec::new();
        for (i, b) in blocks.into_iter().enumerate() {
            if let Some(w) = widths {
                self.text_width = w.get(i).copied().unwrap_or(DEFAULT_TEXT_WIDTH);
                self.block_no = out.blocks.len();
            }
            match b {
                model::Block::Loose(item) => pending.push(item),
                // An embedded chunk: its blocks stand where it stood.
                model::Block::Para(p) if !p.chunks.is_empty() => {
                    for part in &p.chunks {
                        if let Some(chunk) = self.src.chunks.get(part) {
                            for block in &chunk.blocks {
                                out.push(block.clone());
                            }
                        }
                    }
                }
                model::Block::Para(p) => {
                    let items = std::mem::take(&mut pending);
                    if self.src.word_refs {
                        // mammoth writes a bookmark between paragraphs before the paragraph.
                        for item in &items {
                            if let Item::Bookmark(name) = item {
                                self.outside_bookmarks.push(name.clone());
                            }
                        }
                    }
                    // A section ends with this paragraph: the next block starts the next one.
                    let section = widths.and(p.props.section.clone());
                    let before = out.blocks.len();
                    self.paragraph(p, items, &mut out);
                    if let Some(section) = section {
                        // A paragraph holding nothing but the section break is the break
                        // (read as mammoth reads, it stays: its raw text counts it).
                        if !self.src.word_refs
                            && out.blocks.len() == before + 1
                            && matches!(out.blocks.last(), Some(ast::Block::Paragraph(q))
                                if q.content.is_empty() && q.id.is_none())
                        {
                            out.blocks.pop();
                        }
                        self.section_ends.push((out.blocks.len(), section));
                    }
                }
                model::Block::Table(t) => {
                    pending.retain(|item| match item {
                        Item::Bookmark(name) => {
                            self.carry.push(name.clone());
                            false
                        }
                        _ => true,
                    });
                    self.table(t, &mut out);
                }
            }
        }
        // Anchors after the last paragraph: bookmarks wait for the next block; comment anchors
        // with nothing to attach to are dropped (their comment stays in the list).
        for item in pending {
            if let Item::Bookmark(name) = item {
                self.carry.push(name);
            }
        }
        let mut marks: Vec<usize> = self.section_ends.iter().map(|(at, _)| *at).collect();
        let top = widths.is_some();
        let blocks = super::captions::attach(
            out,
            &mut self.report,
            self.src.main_part,
            if top { &mut marks } else { &mut [] },
        );
        if top {
            for ((at, _), moved) in self.section_ends.iter_mut().zip(marks) {
                *at = moved;
            }
        }
        blocks
    }

    pub(super) fn assign_id(&mut self, bookmarks: &mut Vec<String>) -> Option<String> {
        // A name not starting with `_` is the tree's id (the writer's contract); Word's own
        // `_Toc…`/`_Ref…` bookmarks on the same block become aliases of it, so references to
        // them resolve to that id.
        if let Some(i) = bookmarks
            .iter()
            .position(|b| !b.starts_with('_') && !self.ids.contains(b))
        {
            let named = bookmarks.remove(i);
            bookmarks.insert(0, named);
        }
        let mut id: Option<String> = None;
        for b in bookmarks.drain(..) {
            if self.ids.contains(&b) {
                continue;
            }
            match &id {
                None => {
                    self.ids.insert(b.clone());
                    id = Some(b);
                }
                Some(first) => {
                    self.alias.insert(b, first.clone());
                }
            }
        }
        id
    }

    /// Takes the bookmarks waiting for a block (before a table) as its id.
    pub fn take_carried_id(&mut self) -> Option<String> {
        let mut carried = std::mem::take(&mut self.carry);
        self.assign_id(&mut carried)
    }
}

/// The text width of each top-level block's section: a section ends at a paragraph whose
/// `w:pPr` holds a `w:sectPr`; the body's own `w:sectPr` is the last section.
fn section_widths(body: &model::Body) -> Vec<u64> {
    let last = body
        .final_section
        .as_ref()
        .and_then(|s| s.text_width)
        .unwrap_or(DEFAULT_TEXT_WIDTH);
    let mut out = vec![last; body.blocks.len()];
    let mut current = last;
    for (i, b) in body.blocks.iter().enumerate().rev() {
        if let model::Block::Para(p) = b {
            if let Some(s) = &p.props.section {
                current = s.text_width.unwrap_or(DEFAULT_TEXT_WIDTH);
            }
        }
        if let Some(slot) = out.get_mut(i) {
            *slot = current;
        }
    }
    out
}
