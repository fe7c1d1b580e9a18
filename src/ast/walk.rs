//! Walk helpers for passes: visit every block (including blocks inside table cells) and every
//! inline list, with a path that says where each one is.

use std::collections::BTreeSet;
use std::fmt;

use super::{Block, Document, Inline};

/// Where a block is: the top-level index, then for blocks inside tables
/// `(row, cell, block)` triples, outermost first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockPath(pub Vec<usize>);

impl BlockPath {
    /// The index of the top-level block this path is in.
    pub fn top(&self) -> usize {
        self.0.first().copied().unwrap_or(0)
    }

    /// Whether the block is inside a table cell.
    pub fn in_table(&self) -> bool {
        self.0.len() > 1
    }
}

impl fmt::Display for BlockPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = self.0.iter();
        if let Some(top) = parts.next() {
            write!(f, "block {top}")?;
        }
        let rest: Vec<_> = parts.collect();
        for chunk in rest.chunks(3) {
            if let [row, cell, block] = chunk {
                write!(f, " > row {row} > cell {cell} > block {block}")?;
            }
        }
        Ok(())
    }
}

impl Document {
    /// Calls `f` on every block, depth-first, table content after its table.
    pub fn walk_blocks(&self, f: &mut impl FnMut(&BlockPath, &Block)) {
        let mut path = BlockPath::default();
        walk(&self.blocks, &mut path, f);
    }

    /// Calls `f` on every block, mutably, depth-first; `f` runs on a table before its cells.
    pub fn walk_blocks_mut(&mut self, f: &mut impl FnMut(&BlockPath, &mut Block)) {
        let mut path = BlockPath::default();
        walk_mut(&mut self.blocks, &mut path, f);
    }

    /// Calls `f` on every list of inline content: paragraph text (in tables too), note content
    /// (after the list holding the note) and comment text.
    pub fn walk_inline_lists_mut(&mut self, f: &mut impl FnMut(&mut Vec<Inline>)) {
        self.walk_blocks_mut(&mut |_, block| {
            if let Block::Paragraph(p) = block {
                inline_lists_mut(&mut p.content, f);
            }
        });
        for comment in &mut self.comments {
            inline_lists_mut(&mut comment.content, f);
        }
    }

    /// Calls `f` on every inline node, depth-first (wrappers before their children, notes before
    /// their content), in paragraphs, tables and comments.
    pub fn walk_inlines(&self, f: &mut impl FnMut(&Inline)) {
        self.walk_blocks(&mut |_, block| {
            if let Block::Paragraph(p) = block {
                inlines(&p.content, f);
            }
        });
        for comment in &self.comments {
            inlines(&comment.content, f);
        }
    }

    /// Points every image block and inline image whose media `new_name` gives a name for at
    /// that name (the media store is the caller's to match).
    pub fn rename_media(&mut self, new_name: impl Fn(&str) -> Option<String>) {
        self.walk_blocks_mut(&mut |_, block| {
            if let Block::Image(img) = block
                && let Some(name) = new_name(&img.media)
            {
                img.media = name;
            }
        });
        self.walk_inline_lists_mut(&mut |list| {
            for inline in list.iter_mut() {
                if let Inline::Image { media, .. } = inline
                    && let Some(name) = new_name(media)
                {
                    *media = name;
                }
            }
        });
    }

    /// The names of the media the tree shows: image blocks and inline images, in tables,
    /// notes and comments too.
    pub fn referenced_media(&self) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        self.walk_blocks(&mut |_, block| {
            if let Block::Image(img) = block {
                names.insert(img.media.clone());
            }
        });
        self.walk_inlines(&mut |inline| {
            if let Inline::Image { media, .. } = inline {
                names.insert(media.clone());
            }
        });
        names
    }
}

fn walk(blocks: &[Block], path: &mut BlockPath, f: &mut impl FnMut(&BlockPath, &Block)) {
    for (i, block) in blocks.iter().enumerate() {
        path.0.push(i);
        f(path, block);
        if let Block::Table(table) = block {
            for (r, row) in table.rows.iter().enumerate() {
                for (c, cell) in row.cells.iter().enumerate() {
                    path.0.push(r);
                    path.0.push(c);
                    walk(&cell.blocks, path, f);
                    path.0.pop();
                    path.0.pop();
                }
            }
        }
        path.0.pop();
    }
}

fn walk_mut(
    blocks: &mut [Block],
    path: &mut BlockPath,
    f: &mut impl FnMut(&BlockPath, &mut Block),
) {
    for (i, block) in blocks.iter_mut().enumerate() {
        path.0.push(i);
        f(path, block);
        if let Block::Table(table) = block {
            for (r, row) in table.rows.iter_mut().enumerate() {
                for (c, cell) in row.cells.iter_mut().enumerate() {
                    path.0.push(r);
                    path.0.push(c);
                    walk_mut(&mut cell.blocks, path, f);
                    path.0.pop();
                    path.0.pop();
                }
            }
        }
        path.0.pop();
    }
}

fn inline_lists_mut(list: &mut Vec<Inline>, f: &mut impl FnMut(&mut Vec<Inline>)) {
    f(list);
    for inline in list.iter_mut() {
        match inline {
            Inline::Note { content, .. } => inline_lists_mut(content, f),
            other => {
                if let Some(children) = other.children_mut() {
                    inline_lists_mut(children, f);
                }
            }
        }
    }
}

fn inlines(list: &[Inline], f: &mut impl FnMut(&Inline)) {
    for inline in list {
        f(inline);
        match inline {
            Inline::Note { content, .. } => inlines(content, f),
            other => {
                if let Some(children) = other.children() {
                    inlines(children, f);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;

    fn doc_with_table() -> Document {
        let cell = Cell {
            blocks: vec![Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                vec![Inline::text("in cell")],
            ))],
            ..Cell::default()
        };
        let mut doc = Document::new();
        doc.blocks = vec![
            Block::Paragraph(Paragraph::new(TextType::Heading, vec![Inline::text("top")])),
            Block::Table(Table {
                rows: vec![Row {
                    cells: vec![Cell::default(), cell],
                    ..Row::default()
                }],
                ..Table::default()
            }),
        ];
        doc
    }

    #[test]
    fn walks_into_cells_with_paths() {
        let doc = doc_with_table();
        let mut seen = Vec::new();
        doc.walk_blocks(&mut |path, _| seen.push(path.to_string()));
        assert_eq!(
            seen,
            vec!["block 0", "block 1", "block 1 > row 0 > cell 1 > block 0"]
        );
    }

    #[test]
    fn inline_lists_reach_cells() {
        let mut doc = doc_with_table();
        doc.walk_inline_lists_mut(&mut |list| {
            for i in list.iter_mut() {
                if let Inline::Text { text } = i {
                    *text = text.to_uppercase();
                }
            }
        });
        let mut texts = Vec::new();
        doc.walk_inlines(&mut |i| {
            if let Inline::Text { text } = i {
                texts.push(text.clone());
            }
        });
        assert_eq!(texts, vec!["TOP", "IN CELL"]);
    }
}
