//! Walk helpers for passes: visit every block (including blocks inside table cells) and every
//! inline list, with a path that says where each one is.

use std::collections::BTreeSet;
use std::fmt;

use rayon::prelude::*;

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

    /// Calls `f` on every block like [`Document::walk_blocks_mut`] (a table before its cells),
    /// on all cores, for a pass that changes each block on its own: the top-level blocks are
    /// shared out between the cores, each with its tables' content, in no particular order.
    ///
    /// Why: a walk over the tree once it is built reaches memory that has left the cache
    /// (large.docx's 20,000 blocks, each several cache lines, took about 2 ms a walk), and the
    /// import's passes walk it several times while the other core waits. Started from the
    /// top-level blocks, with no list of the blocks made on one core first, the cores share
    /// the walk itself.
    pub fn par_walk_blocks_mut(&mut self, f: impl Fn(&mut Block) + Sync) {
        par_blocks_mut(&mut self.blocks, &f);
    }

    /// Calls `f` on every list of inline content like [`Document::walk_inline_lists_mut`], on
    /// all cores (shared out as [`Document::par_walk_blocks_mut`] does), for a pass that
    /// changes each list on its own; a paragraph's or comment's lists come in the walker's
    /// order.
    pub fn par_inline_lists_mut(&mut self, f: impl Fn(&mut Vec<Inline>) + Sync) {
        let f = &f;
        let (blocks, comments) = (&mut self.blocks, &mut self.comments);
        rayon::join(
            || {
                par_blocks_mut(blocks, &|b: &mut Block| {
                    if let Block::Paragraph(p) = b {
                        inline_lists_mut(&mut p.content, &mut |list| f(list));
                    }
                });
            },
            || {
                comments
                    .par_iter_mut()
                    .for_each(|c| inline_lists_mut(&mut c.content, &mut |list| f(list)));
            },
        );
    }

    /// Folds every block (`block`, told whether it stands in a table cell) and every inline
    /// node (`inline`) that [`Document::walk_blocks`] and [`Document::walk_inlines`] visit, on
    /// all cores: each task folds the content of its share of the top-level blocks (a block's
    /// own, and its tables' and paragraphs' content, in the walkers' order) or of the comments
    /// into a `T::default()` of its own, and `merge` joins the tasks' results in no particular
    /// order (a fold whose result depends on the order cannot use it).
    pub fn par_fold<T: Default + Send>(
        &self,
        block: impl Fn(&mut T, &Block, bool) + Sync,
        inline: impl Fn(&mut T, &Inline) + Sync,
        merge: impl Fn(T, T) -> T + Sync,
    ) -> T {
        let visit = Fold { block, inline };
        let (in_blocks, in_comments) = rayon::join(
            || {
                self.blocks
                    .par_iter()
                    .fold(T::default, |mut acc, b| {
                        visit.block(&mut acc, b, false);
                        acc
                    })
                    .reduce(T::default, &merge)
            },
            || {
                self.comments
                    .par_iter()
                    .fold(T::default, |mut acc, c| {
                        inlines(&c.content, &mut |i| (visit.inline)(&mut acc, i));
                        acc
                    })
                    .reduce(T::default, &merge)
            },
        );
        merge(in_blocks, in_comments)
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
        let add = |names: &mut BTreeSet<String>, media: &String| {
            if !names.contains(media) {
                names.insert(media.clone());
            }
        };
        self.par_fold(
            |names, block, _| {
                if let Block::Image(img) = block {
                    add(names, &img.media);
                }
            },
            |names, inline| {
                if let Inline::Image { media, .. } = inline {
                    add(names, media);
                }
            },
            |names, more| union(names, more, BTreeSet::len),
        )
    }
}

/// [`Document::par_walk_blocks_mut`] on a block list.
fn par_blocks_mut(blocks: &mut [Block], f: &(impl Fn(&mut Block) + Sync)) {
    fn each(block: &mut Block, f: &impl Fn(&mut Block)) {
        f(block);
        if let Block::Table(table) = block {
            for cell in table.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                for b in &mut cell.blocks {
                    each(b, f);
                }
            }
        }
    }
    blocks.par_iter_mut().for_each(|b| each(b, f));
}

/// Joins two collections that tasks of [`Document::par_fold`] gathered, the smaller into the
/// larger (`len` tells their sizes): for sets and maps whose joined content does not depend on
/// which was first.
pub(crate) fn union<C>(a: C, b: C, len: impl Fn(&C) -> usize) -> C
where
    C: IntoIterator + Extend<C::Item>,
{
    let (mut larger, smaller) = if len(&a) >= len(&b) { (a, b) } else { (b, a) };
    larger.extend(smaller);
    larger
}

/// The two callbacks of [`Document::par_fold`].
struct Fold<B, I> {
    block: B,
    inline: I,
}

impl<B, I> Fold<B, I> {
    /// Folds `b` (in a table cell or not), then its content, in the walkers' order.
    fn block<T>(&self, acc: &mut T, b: &Block, in_table: bool)
    where
        B: Fn(&mut T, &Block, bool),
        I: Fn(&mut T, &Inline),
    {
        (self.block)(acc, b, in_table);
        match b {
            Block::Paragraph(p) => inlines(&p.content, &mut |i| (self.inline)(acc, i)),
            Block::Table(table) => {
                for cell in table.rows.iter().flat_map(|r| r.cells.iter()) {
                    for b in &cell.blocks {
                        self.block(acc, b, true);
                    }
                }
            }
            _ => {}
        }
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
    use std::collections::BTreeSet;

    /// Paragraphs `a`–`f` at the top level, in a table's cells and in a table in a cell.
    fn nested_tables() -> Document {
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
        doc
    }

    #[test]
    fn paragraphs_come_in_the_walkers_order() {
        let mut doc = nested_tables();
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

    /// [`nested_tables`] with a directory in a cell, a note and a link in a paragraph, and a
    /// comment, for the walks on all cores.
    fn everything() -> Document {
        let mut doc = nested_tables();
        let note = Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![
                Inline::text("note"),
                Inline::CrossRef {
                    target: "x".into(),
                    number: false,
                    text: true,
                },
            ],
        };
        let link = Inline::Link {
            href: "https://example.org".into(),
            children: vec![Inline::text("link")],
        };
        if let Some(Block::Paragraph(p)) = doc.blocks.first_mut() {
            p.content.extend([note, link]);
        }
        if let Some(Block::Table(t)) = doc.blocks.get_mut(1) {
            t.rows[1].cells[0].blocks.push(Block::Directory {
                kind: DirectoryKind::Content,
            });
        }
        doc.comments.push(Comment {
            id: "1".into(),
            author: None,
            initials: None,
            date: None,
            content: vec![Inline::text("comment")],
        });
        doc
    }

    /// What the walkers on one core see: every block (with whether it is in a table) and
    /// every inline node.
    fn seen_in_turn(doc: &Document) -> Vec<String> {
        let mut seen = Vec::new();
        doc.walk_blocks(&mut |path, b| seen.push(format!("{b:?} {}", path.in_table())));
        doc.walk_inlines(&mut |i| seen.push(format!("{i:?}")));
        seen.sort();
        seen
    }

    #[test]
    fn a_union_holds_both_sides_whichever_is_larger() {
        let small: BTreeSet<u8> = [1, 2].into();
        let large: BTreeSet<u8> = [2, 3, 4].into();
        let all: BTreeSet<u8> = [1, 2, 3, 4].into();
        assert_eq!(union(small.clone(), large.clone(), BTreeSet::len), all);
        assert_eq!(union(large, small, BTreeSet::len), all);
    }

    #[test]
    fn the_fold_on_all_cores_sees_what_the_walkers_see() {
        let doc = everything();
        let mut seen: Vec<String> = doc.par_fold(
            |seen: &mut Vec<String>, b, in_table| seen.push(format!("{b:?} {in_table}")),
            |seen, i| seen.push(format!("{i:?}")),
            |mut seen, more| {
                seen.extend(more);
                seen
            },
        );
        seen.sort();
        assert_eq!(seen.len(), 22, "{seen:#?}");
        assert_eq!(seen, seen_in_turn(&doc));
    }

    #[test]
    fn the_walks_on_all_cores_change_what_the_walkers_change() {
        let upper = |list: &mut Vec<Inline>| {
            for i in list.iter_mut() {
                if let Inline::Text { text } = i {
                    *text = text.to_uppercase();
                }
            }
        };
        let mut in_turn = everything();
        in_turn.walk_inline_lists_mut(&mut |list| upper(list));
        let mut at_once = everything();
        at_once.par_inline_lists_mut(upper);
        assert_eq!(at_once, in_turn);
        assert_ne!(at_once, everything());

        let mark = |b: &mut Block| {
            if let Block::Paragraph(p) = b {
                p.id = Some(format!("seen {}", p.id.is_some()));
            }
        };
        in_turn.walk_blocks_mut(&mut |_, b| mark(b));
        at_once.par_walk_blocks_mut(mark);
        assert_eq!(at_once, in_turn);
        // Each paragraph once.
        let ids: Vec<_> = in_turn
            .paragraphs_mut()
            .into_iter()
            .map(|p| p.id.clone())
            .collect();
        assert_eq!(ids, vec![Some("seen false".to_string()); 6]);
    }
}
