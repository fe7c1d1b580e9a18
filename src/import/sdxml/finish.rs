//! Passes that need the whole body: placing 2.2x attached footnote texts, reading the referenced
//! images, dropping comment anchors without a comment, and making block ids unique.

use std::collections::HashSet;

use super::parser::{Parser, shown};
use crate::ast::inline::{Leaf, from_runs, to_runs};
use crate::ast::{Block, Inline, NoteKind};
use crate::error::Result;
use crate::report::{Converted, Location, WarningKind};

/// Runs the passes and returns the tree with its warnings.
pub(super) fn finish(
    mut p: Parser<'_>,
    resolve: &mut dyn FnMut(&str) -> Result<Option<crate::ast::MediaItem>>,
) -> Result<Converted<crate::ast::Document>> {
    place_attached(&mut p);
    let media = std::mem::take(&mut p.media);
    for (name, loc) in media {
        match resolve(&name)? {
            Some(item) => {
                p.doc.media.insert(item);
            }
            None => p.warn.once(
                WarningKind::MissingMedia,
                format!(
                    "image {:?} is referenced but not in images/; the reference was kept",
                    shown(&name)
                ),
                loc,
            ),
        }
    }
    if p.comment_anchors || !p.doc.comments.is_empty() {
        fix_comments(&mut p);
    }
    unique_ids(&mut p);
    Ok(Converted {
        value: p.doc,
        warnings: p.warn.finish(),
    })
}

fn doc_location(p: &Parser<'_>, element: &str) -> Location {
    Location::part(p.part).element(element)
}

/// 2.2x exports keep footnote texts as paragraphs in `attached-sections`. When the body has as
/// many empty footnote anchors as there are such paragraphs, each text goes into its anchor in
/// order; otherwise the blocks are appended to the body, so no text is lost.
fn place_attached(p: &mut Parser<'_>) {
    if p.attached.is_empty() {
        return;
    }
    let attached = std::mem::take(&mut p.attached);
    let mut anchors = 0usize;
    p.doc.walk_inline_lists_mut(&mut |list| {
        for_each_empty_footnote(list, &mut |_| anchors += 1);
    });
    let all_paragraphs = attached.iter().all(|b| matches!(b, Block::Paragraph(_)));
    let count = attached.len();
    if all_paragraphs && anchors == count {
        let mut texts = attached.into_iter().filter_map(|b| match b {
            Block::Paragraph(para) => Some(para.content),
            _ => None,
        });
        p.doc.walk_inline_lists_mut(&mut |list| {
            for_each_empty_footnote(list, &mut |content| {
                if let Some(text) = texts.next() {
                    *content = text;
                }
            });
        });
        let loc = doc_location(p, "attached-sections");
        p.warn.once(
            WarningKind::Repaired,
            format!(
                "{count} footnote texts from <attached-sections> were put into the body's empty \
                 footnotes, in order"
            ),
            loc,
        );
    } else {
        let loc = doc_location(p, "attached-sections");
        p.warn.once(
            WarningKind::Lossy,
            format!(
                "{count} blocks of <attached-sections> could not be tied to footnote anchors \
                 ({anchors} empty footnotes in the body); they were appended to the end of the \
                 document"
            ),
            loc,
        );
        p.doc.blocks.extend(attached);
    }
}

/// Calls `f` on the content of every empty footnote in `list` (anchors may sit inside tracked
/// changes, the only wrapper an atom keeps).
fn for_each_empty_footnote(list: &mut [Inline], f: &mut impl FnMut(&mut Vec<Inline>)) {
    for inline in list {
        match inline {
            Inline::Note {
                kind: NoteKind::Footnote,
                content,
            } if content.is_empty() => f(content),
            Inline::Tracked { children, .. } => for_each_empty_footnote(children, f),
            _ => {}
        }
    }
}

/// Comments with a duplicate id are dropped (with a warning); anchors naming no comment are
/// removed, since a writer could not place them.
fn fix_comments(p: &mut Parser<'_>) {
    let mut seen = HashSet::new();
    let before = p.doc.comments.len();
    p.doc.comments.retain(|c| seen.insert(c.id.clone()));
    if p.doc.comments.len() < before {
        let n = before - p.doc.comments.len();
        let loc = doc_location(p, "document");
        p.warn.once(
            WarningKind::Dropped,
            format!("{n} comments repeating an earlier comment's id were left out"),
            loc,
        );
    }
    let mut removed = 0usize;
    p.doc.walk_inline_lists_mut(&mut |list| {
        let dangling = |i: &Inline| match i {
            Inline::CommentStart { id } | Inline::CommentEnd { id } => !seen.contains(id),
            _ => false,
        };
        if !any_inline(list, &dangling) {
            return;
        }
        let keep: Vec<_> = to_runs(list)
            .into_iter()
            .filter(|r| !matches!(&r.leaf, Leaf::Atom(a) if dangling(a)))
            .collect();
        *list = from_runs(keep);
        removed += 1;
    });
    if removed > 0 {
        let loc = doc_location(p, "document");
        p.warn.once(
            WarningKind::Dropped,
            "comment anchors naming no comment were left out".to_string(),
            loc,
        );
    }
}

/// Whether `f` holds for an inline of `list` or inside its wrappers (not inside notes: their
/// content is a list of its own).
fn any_inline(list: &[Inline], f: &impl Fn(&Inline) -> bool) -> bool {
    list.iter()
        .any(|i| f(i) || i.children().is_some_and(|c| any_inline(c, f)))
}

/// Calls `f` on every block, table content after its table, with the tree's lifetime (so ids can
/// be borrowed, unlike through [`crate::ast::Document::walk_blocks`]).
fn each_block<'a>(blocks: &'a [Block], f: &mut impl FnMut(&'a Block)) {
    for block in blocks {
        f(block);
        if let Block::Table(t) = block {
            for cell in t.rows.iter().flat_map(|r| &r.cells) {
                each_block(&cell.blocks, f);
            }
        }
    }
}

/// Block ids must be unique (cross-references need one target); a repeated id gets a suffix.
fn unique_ids(p: &mut Parser<'_>) {
    // The usual case, no repeats, costs one pass without copying any id.
    let mut repeated = false;
    {
        let mut seen: HashSet<&str> = HashSet::with_capacity(p.doc.blocks.len());
        each_block(&p.doc.blocks, &mut |block| {
            let id = match block {
                Block::Paragraph(x) => x.id.as_deref(),
                Block::Image(x) => x.id.as_deref(),
                Block::Table(x) => x.id.as_deref(),
                Block::PageBreak | Block::Directory { .. } => None,
            };
            if let Some(id) = id {
                repeated |= !seen.insert(id);
            }
        });
    }
    if !repeated {
        return;
    }
    let mut seen: HashSet<String> = HashSet::new();
    // Next suffix to try per repeated id, so many repeats of one id cost linear time.
    let mut next: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut renamed: Vec<(String, String)> = Vec::new();
    p.doc.walk_blocks_mut(&mut |_, block| {
        let id = match block {
            Block::Paragraph(x) => &mut x.id,
            Block::Image(x) => &mut x.id,
            Block::Table(x) => &mut x.id,
            Block::PageBreak | Block::Directory { .. } => return,
        };
        let Some(current) = id.as_ref() else {
            return;
        };
        if seen.insert(current.clone()) {
            return;
        }
        let mut n = next.get(current).copied().unwrap_or(2);
        let fresh = loop {
            let candidate = format!("{current}-{n}");
            n += 1;
            if !seen.contains(&candidate) {
                break candidate;
            }
        };
        next.insert(current.clone(), n);
        seen.insert(fresh.clone());
        renamed.push((current.clone(), fresh.clone()));
        *id = Some(fresh);
    });
    if let Some((from, to)) = renamed.first() {
        let loc = doc_location(p, "document");
        p.warn.once(
            WarningKind::Repaired,
            format!(
                "{} repeated block ids were made unique (first: {from:?} → {to:?})",
                renamed.len()
            ),
            loc,
        );
    }
}
