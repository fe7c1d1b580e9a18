//! What the writers repeat of a document, bounded: every directory lists its entries again,
//! and a cross-reference that shows its target's text writes that text again. A few kilobytes
//! of a zip can hold a thousand tables of contents over a thousand headings, or a thousand
//! cross-references to a heading of 100 KB: written out, gigabytes. Every import passes the tree
//! through [`bound_repeats`], so every writer sees the bounded tree; ordinary documents are far
//! from both budgets and come through unchanged.

use std::collections::HashMap;

use super::inline::{plain_text, plain_text_len};
use super::{Block, DirectoryKind, Document, IndexNode, Inline, NoteKind};
use crate::report::{Location, Report, WarningKind};

/// What every entry of a directory costs besides its text (its number, link and markup), in
/// bytes.
const ENTRY: usize = 32;

/// The directories of one kind list at most this many bytes in all, or four times what there
/// is to list when that is more: room for many more lists of one kind than any real document
/// has (chapter tables of contents included).
const MIN_DIRECTORY_BUDGET: usize = 4 << 20;

/// The cross-references that show their target's text show at most this many bytes of it in
/// all, or four times the text of every target when that is more.
const MIN_XREF_BUDGET: usize = 4 << 20;

/// How much of a target's text a cross-reference past the budget shows, in characters.
const EXCERPT: usize = 64;

/// Leaves out the directories past their kind's budget and writes the text-showing
/// cross-references past theirs as a link with the start of the target's text, with one
/// warning each.
pub fn bound_repeats(doc: &mut Document, report: &mut Report) {
    let mut repeats = false;
    doc.walk_blocks(&mut |_, b| repeats |= matches!(b, Block::Directory { .. }));
    doc.walk_inlines(&mut |i| repeats |= matches!(i, Inline::CrossRef { text: true, .. }));
    // Most documents have neither: no need to measure them.
    if !repeats {
        return;
    }
    let sizes = Sizes::of(doc);
    bound_directories(doc, &sizes, report);
    bound_cross_refs(doc, &sizes, report);
}

/// What the directories and cross-references of a document would write, read in one walk.
#[derive(Default)]
struct Sizes {
    /// What one directory of each kind lists, in bytes (an upper bound: every heading, picture,
    /// table, link and note, wherever it is).
    listed: HashMap<DirectoryKind, usize>,
    /// Each target id's text, in bytes, and its start.
    targets: HashMap<String, (usize, String)>,
    /// All targets' text together.
    target_bytes: usize,
}

impl Sizes {
    fn of(doc: &Document) -> Self {
        let mut s = Sizes::default();
        let add = |s: &mut Sizes, kind, bytes: usize| {
            let n = s.listed.entry(kind).or_default();
            *n = n.saturating_add(ENTRY.saturating_add(bytes));
        };
        doc.walk_blocks(&mut |_, block| {
            let (id, text) = match block {
                Block::Paragraph(p) => {
                    if p.kind.is_heading() {
                        add(&mut s, DirectoryKind::Content, plain_text_len(&p.content));
                    }
                    // Only a target's text is needed: most paragraphs have no id.
                    (p.id.as_ref(), p.id.as_ref().map(|_| plain_text(&p.content)))
                }
                Block::Image(img) => {
                    add(&mut s, DirectoryKind::Images, caption_len(&img.caption));
                    (img.id.as_ref(), img.caption.clone())
                }
                Block::Table(t) => {
                    add(&mut s, DirectoryKind::Tables, caption_len(&t.caption));
                    (t.id.as_ref(), t.caption.clone())
                }
                _ => (None, None),
            };
            if let (Some(id), Some(text)) = (id, text) {
                s.target_bytes = s.target_bytes.saturating_add(text.len());
                let start = text.chars().take(EXCERPT).collect();
                s.targets.entry(id.clone()).or_insert((text.len(), start));
            }
        });
        doc.walk_inlines(&mut |inline| match inline {
            Inline::Link { href, .. } => {
                add(
                    &mut s,
                    DirectoryKind::Weblinks,
                    href.len().saturating_mul(2),
                );
            }
            Inline::Image { caption, .. } => {
                add(&mut s, DirectoryKind::Images, caption_len(caption));
            }
            Inline::Note { kind, content } => {
                let kind = match kind {
                    NoteKind::Sidenote => DirectoryKind::Sidenotes,
                    _ => DirectoryKind::Footnotes,
                };
                add(&mut s, kind, plain_text_len(content));
            }
            Inline::IndexMark { .. } => add(&mut s, DirectoryKind::Indexes, 0),
            _ => {}
        });
        // The index tree, without recursion: its depth is the input's.
        let mut nodes: Vec<&IndexNode> = doc.indexes.iter().collect();
        while let Some(node) = nodes.pop() {
            let text = node.title.len() + node.description.as_ref().map_or(0, String::len);
            add(&mut s, DirectoryKind::Indexes, text);
            nodes.extend(&node.children);
        }
        s
    }
}

fn caption_len(caption: &Option<String>) -> usize {
    caption.as_ref().map_or(0, String::len)
}

fn bound_directories(doc: &mut Document, sizes: &Sizes, report: &mut Report) {
    let mut listed: HashMap<DirectoryKind, usize> = HashMap::new();
    let mut left_out = 0usize;
    let mut keeps = |kind: &DirectoryKind| {
        let one = sizes.listed.get(kind).copied().unwrap_or(ENTRY);
        let budget = MIN_DIRECTORY_BUDGET.max(one.saturating_mul(4));
        let so_far = listed.entry(*kind).or_default();
        let after = so_far.saturating_add(one);
        if after > budget {
            left_out += 1;
            return false;
        }
        *so_far = after;
        true
    };
    let keep: Vec<bool> = doc
        .blocks
        .iter()
        .map(|b| match b {
            Block::Directory { kind } => keeps(kind),
            _ => true,
        })
        .collect();
    if keep.contains(&false) {
        let removed: Vec<bool> = keep.iter().map(|k| !k).collect();
        let mut keep = keep.into_iter();
        doc.blocks.retain(|_| keep.next().unwrap_or(true));
        doc.meta.pages.blocks_removed(&removed);
    }
    // Directories in table cells (a tree from JSON may put them anywhere).
    doc.walk_blocks_mut(&mut |_, block| {
        if let Block::Table(t) = block {
            for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                cell.blocks.retain(|b| match b {
                    Block::Directory { kind } => keeps(kind),
                    _ => true,
                });
            }
        }
    });
    if left_out > 0 {
        report.warn(
            WarningKind::Dropped,
            format!(
                "{left_out} directories (tables of contents, lists of figures, …) left out: \
                 together they would list their entries more than four times over"
            ),
            Location::default().element("directory"),
        );
    }
}

fn bound_cross_refs(doc: &mut Document, sizes: &Sizes, report: &mut Report) {
    let budget = MIN_XREF_BUDGET.max(sizes.target_bytes.saturating_mul(4));
    let mut shown = 0usize;
    let mut cut = 0usize;
    doc.walk_inline_lists_mut(&mut |list| {
        for inline in list.iter_mut() {
            let Inline::CrossRef {
                target, text: true, ..
            } = inline
            else {
                continue;
            };
            let Some((bytes, start)) = sizes.targets.get(target.as_str()) else {
                continue;
            };
            let after = shown.saturating_add(*bytes);
            if after <= budget {
                shown = after;
                continue;
            }
            cut += 1;
            let mut excerpt = start.clone();
            if start.len() < *bytes {
                excerpt.push('…');
            }
            *inline = Inline::Link {
                href: format!("#{target}"),
                children: vec![Inline::text(excerpt)],
            };
        }
    });
    if cut > 0 {
        report.warn(
            WarningKind::Lossy,
            format!(
                "{cut} cross-references written as a link with the start of their target's \
                 text: together they would repeat their targets' text more than four times over"
            ),
            Location::default().element("xref"),
        );
    }
}
