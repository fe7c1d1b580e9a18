//! What makes a generated tree valid, shared by the fuzz targets' generator (`tree.rs`) and
//! proptest's (`tests/common/arb.rs`, which includes this file by path).

use std::collections::BTreeSet;

use sdconv::Document;
use sdconv::ast::inline::normalize;
use sdconv::ast::{Block, IndexNode, Inline};

/// Makes a generated tree valid but for its media: unique block ids, comment anchors only for
/// comments that exist, index ids. Returns the media names the tree refers to, for the caller
/// to store exactly those.
pub fn tidy(doc: &mut Document) -> BTreeSet<String> {
    let mut n = 0;
    doc.walk_blocks_mut(&mut |_, block| {
        let id = match block {
            Block::Paragraph(p) => &mut p.id,
            Block::Image(i) => &mut i.id,
            Block::Table(t) => &mut t.id,
            _ => return,
        };
        if id.is_some() {
            *id = Some(format!("b{n}"));
            n += 1;
        }
    });
    let known: BTreeSet<String> = doc.comments.iter().map(|c| c.id.clone()).collect();
    doc.walk_inline_lists_mut(&mut |list| {
        list.retain(|i| match i {
            Inline::CommentStart { id } | Inline::CommentEnd { id } => known.contains(id),
            _ => true,
        });
    });
    // Dropping anchors can leave mergeable neighbours: normalise again.
    doc.walk_blocks_mut(&mut |_, block| {
        if let Block::Paragraph(p) = block {
            p.content = normalize(&p.content);
        }
    });
    let mut next = 0;
    fn number(nodes: &mut [IndexNode], next: &mut usize) {
        for node in nodes {
            node.id = format!("ix{next}");
            *next += 1;
            number(&mut node.children, next);
        }
    }
    number(&mut doc.indexes, &mut next);
    doc.referenced_media()
}
