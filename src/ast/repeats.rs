//! What the writers repeat of a document, bounded: every directory lists its entries again, a
//! cross-reference that shows its target's text writes that text again, and every piece of a
//! link writes its address (a link is cut into pieces wherever a picture or a formula stands in
//! its text, which no wrapper holds). A few kilobytes of a zip can hold a thousand tables of
//! contents over a thousand headings, a thousand cross-references to a heading of 100 KB, or a
//! link to a 100 KB address around thousands of formulas: written out, gigabytes. Every import
//! passes the tree through [`bound_repeats`], so every writer sees the bounded tree. The budgets
//! are four times what the document holds, and never less than 4 MiB: a document whose
//! directories, references and links are each written in it is far from them.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::footprint;
use super::inline::plain_text;
use super::links;
use super::union;
use super::{Block, DirectoryKind, Document, IndexNode, Inline, NoteKind};
use crate::report::{Location, Report, WarningKind};

/// What every entry of a directory costs besides its text, in bytes: about what the PDF and
/// Word writers spend on one (its line, number, dots, link and page number), the most of any
/// writer, so a directory of many short entries is weighed as the writers pay for it.
const ENTRY: usize = 256;

/// The directories of one kind list at most this many bytes in all, or four times what there
/// is to list when that is more: room for many more lists of one kind than any real document
/// has (chapter tables of contents included).
const MIN_DIRECTORY_BUDGET: usize = 4 << 20;

/// The cross-references show at most this many bytes of their targets' text in all, or four
/// times the text of every target they name when that is more.
const MIN_XREF_BUDGET: usize = 4 << 20;

/// How much of a target's text a cross-reference past the budget shows, in characters.
const EXCERPT: usize = 64;

/// The pieces of links write at most this many bytes of addresses in all, or four times every
/// address once when that is more.
const MIN_LINK_BUDGET: usize = 4 << 20;

/// Leaves out the directories past their kind's budget, writes the cross-references past
/// theirs as a link with the start of the target's text, and, when `links` (the Word reader
/// charges its links against a budget of its own, and its links share one address per
/// relationship), keeps the text without the link of the link pieces past theirs; one warning
/// each.
pub fn bound_repeats(doc: &mut Document, links: bool, report: &mut Report) {
    let Repeated {
        per_kind,
        in_cells,
        links_read,
        referenced,
        piece_bytes,
    } = doc.par_fold(
        |r: &mut Repeated, b, in_table| {
            if let Block::Directory { kind } = b {
                *r.per_kind.entry(*kind).or_default() += 1;
                r.in_cells |= in_table;
            }
        },
        |r, i| match i {
            Inline::CrossRef { target, .. } if !r.referenced.contains(target) => {
                r.referenced.insert(target.clone());
            }
            Inline::Link { href, .. } if links => {
                r.piece_bytes = r.piece_bytes.saturating_add(href.len());
                r.links_read
                    .insert(Arc::as_ptr(href).cast::<u8>() as usize, href.len());
            }
            _ => {}
        },
        Repeated::merge,
    );
    // Four directories of a kind always fit their budget (four times what one lists).
    let directories = per_kind.values().any(|n| *n > 4);
    let address_bytes = links_read
        .values()
        .fold(0usize, |sum, len| sum.saturating_add(*len));
    let link_budget = MIN_LINK_BUDGET.max(address_bytes.saturating_mul(4));
    if piece_bytes > link_budget {
        bound_links(doc, link_budget, report);
    }
    // Most documents have neither more than four directories of a kind nor cross-references:
    // no need to measure them.
    let xrefs = !referenced.is_empty();
    if directories || xrefs {
        let sizes = Sizes::of(doc, directories, referenced);
        if directories {
            bound_directories(doc, &sizes, in_cells, report);
        }
        if xrefs {
            bound_cross_refs(doc, &sizes, report);
        }
    }
}

/// What [`bound_repeats`] counts of the tree, on all cores.
#[derive(Default)]
struct Repeated {
    /// How many directories of each kind.
    per_kind: HashMap<DirectoryKind, usize>,
    /// Whether one stands in a table cell.
    in_cells: bool,
    /// The addresses as the readers made them (one per link written in the file, which all
    /// its pieces share), each once, with its length.
    links_read: HashMap<usize, usize>,
    /// The ids cross-references name (any may show its target's text: one without a number
    /// does); only their blocks are measured.
    referenced: HashSet<String>,
    /// All the links' pieces' addresses together.
    piece_bytes: usize,
}

impl Repeated {
    fn merge(mut self, more: Repeated) -> Repeated {
        for (kind, n) in more.per_kind {
            *self.per_kind.entry(kind).or_default() += n;
        }
        self.in_cells |= more.in_cells;
        self.links_read = union(self.links_read, more.links_read, HashMap::len);
        self.referenced = union(self.referenced, more.referenced, HashSet::len);
        self.piece_bytes = self.piece_bytes.saturating_add(more.piece_bytes);
        self
    }
}

/// Keeps the pieces of links while their addresses fit `budget` together; past it, a piece's
/// text stays without its link.
fn bound_links(doc: &mut Document, budget: usize, report: &mut Report) {
    let mut written = 0usize;
    let unlinked = links::unwrap_links(doc, |href| {
        let after = written.saturating_add(href.len());
        let fits = after <= budget;
        if fits {
            written = after;
        }
        !fits
    });
    report.warn(
        WarningKind::Dropped,
        format!(
            "{unlinked} pieces of links kept as text without their link: together they would \
             write their addresses more than four times over"
        ),
        Location::default().element("a"),
    );
}

/// What the directories and cross-references of a document would write.
#[derive(Default)]
struct Sizes {
    /// What one directory of each kind lists, in bytes: every heading (with the text of the
    /// references in it), picture, table, link and note, wherever it is, each with what a
    /// writer spends on an entry.
    listed: HashMap<DirectoryKind, usize>,
    /// Each target id's text, in bytes (every string of it, alternative texts included), its
    /// start and whether that is less than all of it.
    targets: HashMap<String, (usize, String, bool)>,
    /// All those targets' text together.
    target_bytes: usize,
}

impl Sizes {
    /// What `doc`'s directories list, when it has `directories`, and the text of the targets
    /// its cross-references name (`referenced`).
    fn of(doc: &Document, directories: bool, referenced: HashSet<String>) -> Self {
        let mut s = Sizes::default();
        let add = |s: &mut Sizes, kind, bytes: usize| {
            let n = s.listed.entry(kind).or_default();
            *n = n.saturating_add(ENTRY.saturating_add(bytes));
        };
        if !referenced.is_empty() {
            doc.walk_blocks(&mut |_, block| {
                let id = match block {
                    Block::Paragraph(p) => p.id.as_ref(),
                    Block::Image(img) => img.id.as_ref(),
                    Block::Table(t) => t.id.as_ref(),
                    _ => None,
                };
                // Only a referenced block is measured (in an sd.xml file every paragraph has
                // an id), and the first block with an id is its target.
                let Some(id) = id.filter(|id| referenced.contains(*id)) else {
                    return;
                };
                if s.targets.contains_key(id) {
                    return;
                }
                let (bytes, text) = match block {
                    // All its strings: a reference can show a picture's alternative text too.
                    Block::Paragraph(p) => {
                        (footprint::inlines(&p.content, 0), plain_text(&p.content))
                    }
                    Block::Image(img) => caption_text(&img.caption),
                    Block::Table(t) => caption_text(&t.caption),
                    _ => return,
                };
                s.target_bytes = s.target_bytes.saturating_add(bytes);
                let start: String = text.chars().take(EXCERPT).collect();
                let cut = start.len() < text.len();
                s.targets.insert(id.clone(), (bytes, start, cut));
            });
        }
        if !directories {
            return s;
        }
        doc.walk_blocks(&mut |_, block| match block {
            Block::Paragraph(p) if p.kind.is_heading() => {
                // All its strings (a picture's alternative text too), and the text of the
                // references in it, which its entry shows as the heading does.
                let bytes = footprint::inlines(&p.content, 0)
                    .saturating_add(shown_by_refs(&p.content, &s.targets));
                add(&mut s, DirectoryKind::Content, bytes);
            }
            Block::Image(img) => add(&mut s, DirectoryKind::Images, caption_len(&img.caption)),
            Block::Table(t) => add(&mut s, DirectoryKind::Tables, caption_len(&t.caption)),
            _ => {}
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
                add(&mut s, kind, footprint::inlines(content, 0));
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

/// The text the cross-references in `content` show, in bytes, by their targets' sizes.
fn shown_by_refs(content: &[Inline], targets: &HashMap<String, (usize, String, bool)>) -> usize {
    content.iter().fold(0usize, |n, inline| {
        n.saturating_add(match inline {
            Inline::CrossRef { target, .. } => targets.get(target).map_or(0, |t| t.0),
            Inline::Note { content, .. } => shown_by_refs(content, targets),
            other => other.children().map_or(0, |c| shown_by_refs(c, targets)),
        })
    })
}

/// A caption's size and text, for a target.
fn caption_text(caption: &Option<String>) -> (usize, String) {
    let text = caption.clone().unwrap_or_default();
    (text.len(), text)
}

fn caption_len(caption: &Option<String>) -> usize {
    caption.as_ref().map_or(0, String::len)
}

fn bound_directories(doc: &mut Document, sizes: &Sizes, in_cells: bool, report: &mut Report) {
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
    if in_cells {
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
    }
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
            let Inline::CrossRef { target, .. } = inline else {
                continue;
            };
            let Some((bytes, start, cut_short)) = sizes.targets.get(target.as_str()) else {
                continue;
            };
            let after = shown.saturating_add(*bytes);
            if after <= budget {
                shown = after;
                continue;
            }
            cut += 1;
            let mut excerpt = start.clone();
            if *cut_short {
                excerpt.push('…');
            }
            *inline = Inline::Link {
                href: format!("#{target}").into(),
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
