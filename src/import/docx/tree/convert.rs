//! Stage two's entry: the model of stage one → the document tree. [`build`] runs the
//! [`Converter`] over the main body, the comments and the page parts; block lists are converted
//! here, paragraphs in [`super::paragraphs`], inline content in [`super::inlines`], fields in
//! [`super::fields`], tables in [`super::tables`]. The converter's state and shared helpers are
//! in [`super::converter`].

use std::collections::HashSet;

use super::converter::{Converter, DEFAULT_TEXT_WIDTH, FieldState, Out, Sources};
use super::copies::Copied;
use super::looks::NumberLooks;
use super::references;
use crate::ast::{self, Comment};
use crate::import::docx::parse::comments::RawComment;
use crate::import::docx::parse::model::{self, Item};
use crate::import::docx::parse::parts::PageParts;
use crate::report::{Report, WarningKind};

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
    doc.par_inline_lists_mut(references::join_number_and_text_refs);
    Built {
        doc,
        wanted: conv.media.wanted,
        wide: conv.wide_images,
        looks: conv.looks,
        report: conv.report,
    }
}

impl<'a> Converter<'a> {
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
        let blocks = self.top_level(body.blocks, &widths);
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
        // Most blocks become one block (a page break inside a paragraph splits it; a chunk
        // brings several): room for one each, instead of doubling up from four.
        let mut out = Out {
            blocks: Vec::with_capacity(blocks.len()),
            ..Out::default()
        };
        let mut pending: Vec<Item> = Vec::new();
        self.blocks_into(blocks, widths, &mut out, &mut pending);
        self.finish_list(out, pending, widths.is_some())
    }

    /// Converts `blocks` onto `out`, the anchors before a paragraph waiting in `pending`;
    /// `widths` per block of `blocks` at top level.
    pub(super) fn blocks_into(
        &mut self,
        blocks: impl IntoIterator<Item = model::Block>,
        widths: Option<&[u64]>,
        out: &mut Out,
        pending: &mut Vec<Item>,
    ) {
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
                        if let Some(chunk) = self.src.chunks.get(&**part) {
                            if !self.copy_fits(Copied::Chunk, part, "w:altChunk") {
                                continue;
                            }
                            for block in &chunk.blocks {
                                out.push(block.clone());
                            }
                            self.lose_order(true);
                        }
                    }
                }
                model::Block::Para(p) => {
                    let items = std::mem::take(pending);
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
                    self.paragraph(p, items, out);
                    if let Some(section) = section {
                        // A paragraph holding nothing but the section break is the break
                        // (read as mammoth reads, it stays: its raw text counts it).
                        if !self.src.word_refs
                            && out.blocks.len() == before + 1
                            && matches!(out.blocks.last(), Some(ast::Block::Paragraph(q))
                                if q.content.is_empty() && q.id.is_none())
                        {
                            out.blocks.pop();
                            self.lose_order(true);
                        }
                        self.section_ends.push((out.blocks.len(), *section));
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
                    self.table(t, out);
                }
            }
        }
    }

    /// Ends a block list: the anchors left after its last paragraph, then the captions onto
    /// the blocks they name (at `top` level moving the section ends with the blocks).
    pub(super) fn finish_list(
        &mut self,
        out: Out,
        pending: Vec<Item>,
        top: bool,
    ) -> Vec<ast::Block> {
        // Anchors after the last paragraph: bookmarks wait for the next block; comment anchors
        // with nothing to attach to are dropped (their comment stays in the list).
        for item in pending {
            if let Item::Bookmark(name) = item {
                self.carry.push(name);
            }
        }
        if !top && !out.captions.is_empty() {
            if let Some(log) = &mut self.log {
                log.nested_captions = true;
            }
        }
        // Only the body's list has sections: a cell's list (a file may have as many cells as
        // sections) must not copy their starts.
        let mut marks: Vec<usize> = if top {
            self.section_ends.iter().map(|(at, _)| *at).collect()
        } else {
            Vec::new()
        };
        let blocks = super::captions::attach(out, &mut self.report, self.src.main_part, &mut marks);
        if top {
            for ((at, _), moved) in self.section_ends.iter_mut().zip(marks) {
                *at = moved;
            }
        }
        blocks
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
