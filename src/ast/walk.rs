//! Walk helpers for passes: visit every block (including blocks inside table cells) and every
//! inline list, with a path that says where each one is.

use std::collections::BTreeSet;
use std::fmt;

use super::{Block, Document, Inline, Paragraph};

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

    /// Every paragraph, mutably, in the order [`Document::walk_blocks_mut`] visits them (those
    /// in a table's cells after the table's place): for a pass that works on each paragraph on
    /// its own, on all cores.
    pub fn paragraphs_mut(&mut self) -> Vec<&mut Paragraph> {
        paragraphs_in(&mut self.blocks)
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

    /// Takes out every picture whose media name `which` accepts: image blocks (in table cells
    /// too) and images in text, notes and comments. The page sections' starts move with the
    /// top-level blocks that go, and text is put back in canonical form (a picture between two
    /// texts leaves them side by side; a link holding only a picture goes with it).
    pub fn remove_images(&mut self, which: impl Fn(&str) -> bool) {
        let goes = |b: &Block| matches!(b, Block::Image(img) if which(&img.media));
        let removed: Vec<bool> = self.blocks.iter().map(goes).collect();
        if removed.contains(&true) {
            self.blocks.retain(|b| !goes(b));
            self.meta.pages.blocks_removed(&removed);
        }
        let text = |content: &mut Vec<Inline>| {
            if remove_inline_images(content, &which) {
                *content = super::inline::normalize(content);
            }
        };
        // The walk visits a table before its cells: each table's cells are filtered as it
        // passes, and their paragraphs visited after.
        self.walk_blocks_mut(&mut |_, block| match block {
            Block::Table(table) => {
                for cell in table.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                    cell.blocks.retain(|b| !goes(b));
                }
            }
            Block::Paragraph(p) => text(&mut p.content),
            _ => {}
        });
        for comment in &mut self.comments {
            text(&mut comment.content);
        }
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

/// Removes the inline images `which` accepts from `list` and everything in it, notes included;
/// `true` when one went.
fn remove_inline_images(list: &mut Vec<Inline>, which: &impl Fn(&str) -> bool) -> bool {
    let before = list.len();
    list.retain(|i| !matches!(i, Inline::Image { media, .. } if which(media)));
    let mut removed = list.len() < before;
    for inline in list.iter_mut() {
        if let Inline::Note { content, .. } = inline {
            removed |= remove_inline_images(content, which);
        } else if let Some(children) = inline.children_mut() {
            removed |= remove_inline_images(children, which);
        }
    }
    removed
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

/// Every paragraph of `blocks` and of their tables' cells, mutably, in the order of
/// [`Document::paragraphs_mut`].
pub(crate) fn paragraphs_in(blocks: &mut [Block]) -> Vec<&mut Paragraph> {
    let mut out = Vec::new();
    paragraphs_mut(blocks, &mut out);
    out
}

/// [`walk_mut`]'s order, keeping only paragraphs: a callback cannot hand its block out.
fn paragraphs_mut<'d>(blocks: &'d mut [Block], out: &mut Vec<&'d mut Paragraph>) {
    for block in blocks {
        match block {
            Block::Paragraph(p) => out.push(p),
            Block::Table(table) => {
                for cell in table.rows.iter_mut().flat_map(|row| row.cells.iter_mut()) {
                    paragraphs_mut(&mut cell.blocks, out);
                }
            }
            _ => {}
        }
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

    #[test]
    fn paragraphs_come_in_the_walkers_order() {
        let para =
            |t: &str| Block::Paragraph(Paragraph::new(TextType::Paragraph, vec![Inline::text(t)]));
        let cell = |blocks: Vec<Block>| Cell {
            blocks,
            ..Cell::default()
        };
        let inner = Table {
            rows: vec![Row {
                cells: vec![cell(vec![para("c")])],
                ..Row::default()
            }],
            ..Table::default()
        };
        let outer = Table {
            rows: vec![
                Row {
                    cells: vec![
                        cell(vec![para("b"), Block::Table(inner)]),
                        cell(vec![para("d")]),
                    ],
                    ..Row::default()
                },
                Row {
                    cells: vec![cell(vec![para("e")])],
                    ..Row::default()
                },
            ],
            ..Table::default()
        };
        let mut doc = Document::new();
        doc.blocks = vec![para("a"), Block::Table(outer), Block::PageBreak, para("f")];
        let mut walked = Vec::new();
        doc.walk_blocks(&mut |_, b| {
            if let Block::Paragraph(p) = b {
                walked.push(p.content.clone());
            }
        });
        let collected: Vec<_> = doc
            .paragraphs_mut()
            .into_iter()
            .map(|p| p.content.clone())
            .collect();
        assert_eq!(walked.len(), 6);
        assert_eq!(collected, walked);
    }

    /// Pictures leave the tree with nothing behind that a writer would trip on: the sections
    /// after a removed block start one earlier, the texts around an inline picture are one, and
    /// a link holding only a picture goes with it.
    #[test]
    fn removing_images_keeps_sections_and_canonical_form() {
        let picture = |media: &str| Inline::Image {
            media: media.into(),
            caption: None,
            alt: None,
        };
        let block = |media: &str| {
            Block::Image(Image {
                media: media.into(),
                caption: None,
                alt: None,
                width_percent: None,
                extent: None,
                align: Align::default(),
                indent: 0,
                numbered: true,
                id: None,
                style: None,
                origin_ids: None,
            })
        };
        let mut doc = Document::new();
        doc.blocks = vec![
            block("a.png"),
            Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                vec![
                    Inline::text("x"),
                    picture("b.png"),
                    Inline::text("y"),
                    Inline::Link {
                        href: "https://example.org".into(),
                        children: vec![picture("b.png")],
                    },
                ],
            )),
            block("keep.png"),
        ];
        doc.meta.pages.sections = vec![
            pages::PageSection::default(),
            pages::PageSection {
                start: 1,
                ..pages::PageSection::default()
            },
        ];
        doc.remove_images(|m| m != "keep.png");
        assert_eq!(doc.blocks.len(), 2);
        assert_eq!(doc.meta.pages.sections[1].start, 0);
        let Block::Paragraph(p) = &doc.blocks[0] else {
            panic!("paragraph")
        };
        assert_eq!(p.content, [Inline::text("xy")]);
        assert!(matches!(&doc.blocks[1], Block::Image(i) if i.media == "keep.png"));
    }

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
