//! Parts the tree holds a copy of at every place that names them: notes (at each reference),
//! charts, SmartArt diagrams and embedded documents (`w:altChunk`). Word names each once in
//! ordinary files; a hostile one can name a 1 MB note a million times in a few kilobytes of
//! zipped XML. The copies together stay within a budget: every part's size once (so a file that
//! names each part once never reaches it), and [`MIN_COPIES`] more for parts named again (only
//! [`MIN_NESTED_COPIES`] more in an embedded Word document, whose blocks the outer document
//! copies within its own).
//! Past it a reference is left out, with one warning (`Converter::copy_fits`, beside the
//! converter's other helpers).
//!
//! Links copy their targets the same way: every wrapper of a link's text and every linked
//! picture holds one (`Converter::link_fits`). Their copies count against the same budget, which
//! holds every target the file writes down once: its relationships' targets and its main part,
//! where anchors and field codes are written (a note's links count only their anchors in the
//! note's size: the targets are shared).
//!
//! Sizes are footprints ([`crate::ast::footprint`]): bytes of text, and [`NODE_WEIGHT`] for
//! each node, about what a node takes in memory, so the budget bounds memory as well as text.
//!
//! The body's second half (`super::seam`) starts with nothing copied; the join keeps it only when
//! both halves' copies together fit (what the second half left out, one converter leaves out
//! too), else that half is converted again behind the first, so the copies left out are always
//! one converter's.

use std::collections::HashMap;

use foldhash::fast::RandomState as FastHash;

use crate::ast::{self, footprint};
use crate::import::docx::chunks::ChunkBlocks;
use crate::import::docx::parse::model::{Block, Item, RunItem};
use crate::import::docx::parse::notes::NoteMap;
use crate::import::docx::parse::smartart::DiagramItem;

/// What a node weighs in a footprint: about its size in memory (the tree's inlines take 80
/// bytes, its blocks up to 240).
pub const NODE_WEIGHT: usize = 128;

/// What parts named more than once may copy beyond every part's size once.
pub const MIN_COPIES: usize = 16 << 20;

/// [`MIN_COPIES`] for a Word document embedded in another (`w:altChunk`).
pub const MIN_NESTED_COPIES: usize = 64 << 10;

/// Which kind of part a copy is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Copied {
    /// A footnote, by id.
    Footnote,
    /// An endnote, by id.
    Endnote,
    /// A chart's data table, by part name.
    Chart,
    /// A SmartArt diagram's text, by part name.
    Diagram,
    /// An embedded document's blocks, by part name.
    Chunk,
}

/// Each copied part's footprint, and the budget of all copies.
#[derive(Debug, Default)]
pub struct Copies<'a> {
    sizes: HashMap<(Copied, &'a str), usize, FastHash>,
    /// The most all copies together may hold.
    pub budget: usize,
}

/// The parts that are copied where they are named.
pub struct CopiedParts<'a> {
    /// `word/footnotes.xml`'s notes.
    pub footnotes: &'a NoteMap,
    /// `word/endnotes.xml`'s notes.
    pub endnotes: &'a NoteMap,
    /// Chart tables by part.
    pub charts: &'a HashMap<String, ast::Table>,
    /// Diagram texts by part.
    pub diagrams: &'a HashMap<String, Vec<DiagramItem>>,
    /// Embedded documents by part.
    pub chunks: &'a HashMap<String, ChunkBlocks>,
    /// The bytes of the link targets the file writes down: its relationships' targets, and its
    /// main part, which holds every anchor and field code.
    pub links: usize,
}

impl<'a> Copies<'a> {
    /// Measures every part once; the budget is their sizes and `beyond` more
    /// ([`MIN_COPIES`] for a document, nothing for one embedded in another, which the
    /// outer document's budget counts as a part of its own).
    pub fn measure(parts: CopiedParts<'a>, beyond: usize) -> Self {
        let mut sizes = HashMap::default();
        let notes = [
            (Copied::Footnote, parts.footnotes),
            (Copied::Endnote, parts.endnotes),
        ];
        for (kind, map) in notes {
            for (id, blocks) in map {
                sizes.insert((kind, id.as_str()), model_blocks(blocks));
            }
        }
        for (part, table) in parts.charts {
            sizes.insert(
                (Copied::Chart, part.as_str()),
                footprint::table(table, NODE_WEIGHT),
            );
        }
        for (part, items) in parts.diagrams {
            let size = items
                .iter()
                .map(|(_, text)| text.len().saturating_add(2 * NODE_WEIGHT))
                .fold(0, usize::saturating_add);
            sizes.insert((Copied::Diagram, part.as_str()), size);
        }
        for (part, chunk) in parts.chunks {
            let size = footprint::blocks(&chunk.blocks, NODE_WEIGHT);
            sizes.insert((Copied::Chunk, part.as_str()), size);
        }
        let budget = sizes
            .values()
            .copied()
            .fold(beyond.saturating_add(parts.links), usize::saturating_add);
        Copies { sizes, budget }
    }

    /// The footprint of one copy of a part (nothing for a part not read).
    pub fn size(&self, kind: Copied, name: &str) -> usize {
        self.sizes.get(&(kind, name)).copied().unwrap_or(0)
    }
}

/// A parsed block list's footprint, as [`footprint::blocks`] counts the tree's.
fn model_blocks(blocks: &[Block]) -> usize {
    blocks
        .iter()
        .map(|b| {
            let inside = match b {
                Block::Para(p) => p
                    .items
                    .iter()
                    .map(item)
                    .chain(p.textboxes.iter().map(|tb| model_blocks(tb)))
                    .fold(0, usize::saturating_add),
                Block::Table(t) => t
                    .rows
                    .iter()
                    .flat_map(|r| &r.cells)
                    .map(|c| model_blocks(&c.blocks).saturating_add(NODE_WEIGHT))
                    .fold(
                        t.rows.len().saturating_mul(NODE_WEIGHT),
                        usize::saturating_add,
                    ),
                Block::Loose(i) => item(i),
            };
            inside.saturating_add(NODE_WEIGHT)
        })
        .fold(0, usize::saturating_add)
}

fn item(item: &Item) -> usize {
    let own = match item {
        Item::Run(run) => run
            .content
            .iter()
            .map(|c| {
                let text = match c {
                    RunItem::Text(s) | RunItem::Instr(s) => s.len(),
                    // Shared with the relationship: the chart's table is a copy of its own,
                    // counted where it is named.
                    RunItem::Chart(_) => 0,
                    RunItem::NoteRef(_, s) | RunItem::CommentRef(s) => s.len(),
                    RunItem::Ruby(base, reading) => base.len().saturating_add(reading.len()),
                    RunItem::Math { math, .. } => ast::math::linear_text(math).len(),
                    RunItem::Image(img) => {
                        footprint::strings([img.alt.as_ref(), img.title.as_ref()])
                    }
                    _ => 0,
                };
                text.saturating_add(NODE_WEIGHT)
            })
            .fold(0, usize::saturating_add),
        // The target is shared with the relationship (each wrapper's copy of it is counted
        // as it is made, `Converter::link_fits`); only the anchor is the note's own. Counting
        // the target here would let a note that names one long target many times raise the
        // budget it is charged against.
        Item::LinkStart(link) => link.anchor.as_deref().map_or(0, str::len),
        Item::Bookmark(s)
        | Item::CommentStart(s)
        | Item::CommentEnd(s)
        | Item::SimpleFieldStart(s) => s.len(),
        // Every copy of the note holds the change's author and date again.
        Item::ChangeStart(c) => footprint::strings([c.author.as_ref(), c.date.as_ref()]),
        _ => 0,
    };
    own.saturating_add(NODE_WEIGHT)
}
