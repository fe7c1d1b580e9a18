//! What a copy of part of the tree holds, as the readers' copy budgets count it: the bytes of
//! its texts and other strings, and a weight for each node.
//!
//! A reader that copies one source part at each place that names it bounds those copies by
//! this measure, so a small file cannot name one large part a million times: the Markdown
//! reader its notes, the Word reader its charts and embedded documents (and its notes, before
//! conversion, counted alike in `import::docx::tree::copies`). The caller picks the node
//! weight: one to count nodes, or about a node's memory to bound memory.

use super::{Block, Inline, Paragraph, Table};

/// The footprint of `content`: its strings' bytes (a formula's as its linear text) and `node`
/// for each inline, notes' contents and nested inlines included.
pub fn inlines(content: &[Inline], node: usize) -> usize {
    content
        .iter()
        .map(|i| {
            let own = match i {
                Inline::Text { text } => text.len(),
                Inline::Link { href, .. } => href.len(),
                Inline::Span { style, .. } => style.len(),
                Inline::CrossRef { target, .. } => target.len(),
                Inline::Image {
                    media,
                    caption,
                    alt,
                } => strings([Some(media), caption.as_ref(), alt.as_ref()]),
                Inline::IndexMark { id }
                | Inline::CommentStart { id }
                | Inline::CommentEnd { id } => id.len(),
                Inline::Ruby { base, reading } => base.len().saturating_add(reading.len()),
                Inline::Math { math, .. } => super::math::linear_text(math).len(),
                Inline::Tracked { change, .. } => {
                    strings([change.author.as_ref(), change.date.as_ref()])
                }
                _ => 0,
            };
            let inside = match i {
                Inline::Note { content, .. } => inlines(content, node),
                other => other.children().map_or(0, |c| inlines(c, node)),
            };
            own.saturating_add(inside).saturating_add(node)
        })
        .fold(0, usize::saturating_add)
}

/// The footprint of `blocks`: `node` for each block, row and cell, the strings they carry and
/// their paragraphs' [`inlines`].
pub fn blocks(blocks: &[Block], node: usize) -> usize {
    blocks
        .iter()
        .map(|b| {
            let own = match b {
                Block::Paragraph(p) => paragraph(p, node),
                Block::Image(img) => strings([
                    Some(&img.media),
                    img.caption.as_ref(),
                    img.alt.as_ref(),
                    img.id.as_ref(),
                    img.style.as_ref(),
                ]),
                Block::Table(t) => return table(t, node),
                Block::PageBreak | Block::Directory { .. } => 0,
            };
            own.saturating_add(node)
        })
        .fold(0, usize::saturating_add)
}

/// The footprint of a table as a block: `node` for it, each row and each cell, its strings and
/// its cells' [`blocks`].
pub fn table(t: &Table, node: usize) -> usize {
    t.rows
        .iter()
        .flat_map(|r| &r.cells)
        .map(|c| blocks(&c.blocks, node).saturating_add(node))
        .fold(
            strings([t.caption.as_ref(), t.id.as_ref(), t.style.as_ref()])
                .saturating_add(t.rows.len().saturating_add(1).saturating_mul(node)),
            usize::saturating_add,
        )
}

fn paragraph(p: &Paragraph, node: usize) -> usize {
    strings([p.style.as_ref(), p.id.as_ref(), p.list_id.as_ref()])
        .saturating_add(inlines(&p.content, node))
}

/// The bytes of the strings that are there.
pub(crate) fn strings<const N: usize>(all: [Option<&String>; N]) -> usize {
    all.into_iter()
        .flatten()
        .map(String::len)
        .fold(0, usize::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Cell, Row, TextType};

    #[test]
    fn counts_strings_and_weighs_every_node() {
        let para = |t: &str| {
            Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                vec![Inline::Styled {
                    style: crate::ast::TextStyle::Bold,
                    children: vec![Inline::text(t)],
                }],
            ))
        };
        // A paragraph: the block, its emphasis and its text.
        assert_eq!(blocks(&[para("abc")], 1), 3 + 3);
        assert_eq!(blocks(&[para("abc")], 10), 3 + 30);
        let table = Block::Table(Table {
            rows: vec![Row {
                cells: vec![
                    Cell {
                        blocks: vec![para("ab")],
                        ..Cell::default()
                    },
                    Cell::default(),
                ],
                ..Row::default()
            }],
            ..Table::default()
        });
        // The table, its row, two cells, and the paragraph of three nodes with two bytes.
        assert_eq!(blocks(&[table], 1), 1 + 1 + 2 + (2 + 3));
        let note = Inline::Note {
            kind: crate::ast::NoteKind::Footnote,
            content: vec![Inline::text("note")],
        };
        assert_eq!(inlines(&[note], 2), 4 + 2 + 2);
    }
}
