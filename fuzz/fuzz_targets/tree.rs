//! Fuzz bytes → a small, valid document tree, built by reading the bytes as a sequence of
//! choices (`arbitrary`'s [`Unstructured`]): each byte steers one decision, so a mutation of
//! the input changes the tree a little, and libFuzzer's coverage feedback can steer it.
//!
//! It covers what the test suite's proptest generator (`tests/common/arb.rs`) covers — every
//! block kind, tables with row and column spans inside their grid and blocks nested in cells,
//! every inline kind nested up to three deep (notes inside notes, tracked changes, comment
//! anchors of existing comments, index marks, inline images), metadata, comments and the index
//! tree, page sections with headers and footers, empty strings and characters XML cannot hold — plus the characters Markdown treats as
//! syntax. It differs where speed needs it:
//!
//! - The tree is bounded: at most [`MAX_NODES`] blocks, cells and inlines in all, so a writer
//!   never spends long on one input (the proptest generator could build a few hundred nodes,
//!   and its strategies — regular expressions among them — were rebuilt for every input).
//! - Pictures are tiny: a valid PNG of at most 4 × 4 pixels, or (as in the wild) only a PNG
//!   header that claims a size, so no writer spends its time on pixels.
//! - When the bytes run out every choice takes its first option (no more nodes, empty lists),
//!   so any input, the empty one too, gives a tree at once.
//!
//! The tree is made valid the way the proptest generator makes its trees valid: unique ids,
//! comment anchors only for comments that exist, normalised inline lists, index ids, exactly the
//! referenced pictures in the media store. A tree that still fails `Document::validate` is a bug
//! of this generator and panics, so the fuzzer reports it.

#![allow(dead_code)]

#[path = "tidy.rs"]
mod tidy;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use sdconv::Document;
use sdconv::ast::inline::normalize;
use sdconv::ast::pages::{PagePiece, PageSection, PageText, Pages, Slots};
use sdconv::ast::{
    Align, Block, Borders, Cell, Change, ChangeKind, Comment, Direction, DirectoryKind, Extent,
    Image, IndexNode, Inline, Meta, NoteKind, NumberFormat, Paragraph, Row, Table, TextStyle,
    TextType, VAlign, WordExportPresets,
};

/// Blocks, cells and inline nodes one tree may hold in all.
pub const MAX_NODES: usize = 48;
/// How deep inline wrappers and notes nest.
const MAX_INLINE_DEPTH: u8 = 3;
/// Media names trees refer to (spaces and non-ASCII on purpose).
const MEDIA: [&str; 3] = ["a.png", "b c.png", "ü-ß.png"];
/// Comment ids anchors may use.
const COMMENTS: [&str; 2] = ["c0", "c1"];

/// What text is made of: mostly letters and spaces; markup characters of XML, HTML and Markdown;
/// characters XML 1.0 cannot hold (U+0001, U+000B, U+FFFE); line ends and tabs.
const CHARS: [char; 64] = [
    'a', 'b', 'c', 'd', 'e', 'x', 'y', 'z', 'A', 'B', 'Z', '0', '1', '9', ' ', ' ', ' ', ' ', 'ä',
    'ö', 'ß', '€', '😀', '漢', '<', '>', '&', '"', '\'', '?', ']', '[', '\\', '-', '*', '_', '`',
    '#', '|', '!', '~', '$', '(', ')', '.', ':', '/', '=', '+', ';', '{', '}', '%', '^', '@', ',',
    '\t', '\n', '\r', '\u{1}', '\u{b}', '\u{FFFE}', '\u{a0}', '\u{200b}',
];
/// Texts that have broken writers before, or could.
const SPECIAL: [&str; 6] = [
    "]]> ?> --> <!-- &amp; \"q\"",
    "https://example.org/?a=1&b=2",
    "&#32; &nbsp; \\*",
    "1. ",
    "[^1]",
    "    ",
];

/// The tree `data` stands for.
pub fn tree(data: &[u8]) -> Document {
    let mut g = Gen {
        u: Unstructured::new(data),
        budget: MAX_NODES,
    };
    // Reading choices fails only on an impossible request (an empty range); that would be a bug
    // here, and an empty document is still a fine tree to write.
    let mut doc = g.document().unwrap_or_default();
    finish(&mut doc);
    if let Err(violations) = doc.validate() {
        panic!("the fuzz tree generator built an invalid tree: {violations:#?}");
    }
    doc
}

struct Gen<'a> {
    u: Unstructured<'a>,
    /// Nodes still allowed.
    budget: usize,
}

impl Gen<'_> {
    /// A number in `0..n` (`n` ≥ 1).
    fn below(&mut self, n: usize) -> Result<usize> {
        self.u.int_in_range(0..=n - 1)
    }

    fn flag(&mut self) -> Result<bool> {
        self.u.arbitrary()
    }

    /// One of `options`, which must not be empty.
    fn pick<T: Clone>(&mut self, options: &[T]) -> Result<T> {
        Ok(options[self.below(options.len())?].clone())
    }

    /// Takes one node from the budget; `false` when it is spent.
    fn node(&mut self) -> bool {
        self.budget = self.budget.saturating_sub(1);
        self.budget > 0
    }

    /// How many items a list gets: at most `max`, fewer when the budget is low.
    fn count(&mut self, max: usize) -> Result<usize> {
        let n = self.u.int_in_range(0..=max)?;
        Ok(n.min(self.budget))
    }

    fn opt<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<Option<T>> {
        Ok(if self.flag()? { Some(f(self)?) } else { None })
    }

    /// Text of one to ten characters, or one of the special strings.
    fn text(&mut self) -> Result<String> {
        if self.below(16)? == 0 {
            return Ok(self.pick(&SPECIAL)?.to_string());
        }
        let len = 1 + self.below(10)?;
        let mut s = String::with_capacity(len);
        for _ in 0..len {
            s.push(self.pick(&CHARS)?);
        }
        Ok(s)
    }

    /// An optional text that is sometimes empty.
    fn opt_text(&mut self) -> Result<Option<String>> {
        Ok(match self.below(8)? {
            0..=3 => None,
            4 => Some(String::new()),
            _ => Some(self.text()?),
        })
    }

    /// A simple name (style names, ids, hrefs): mostly a word, sometimes markup or empty.
    fn name(&mut self) -> Result<String> {
        Ok(match self.below(8)? {
            0 => "x\"&<y>".to_string(),
            1 => String::new(),
            _ => {
                const FIRST: &[u8] = b"ABCabcxyz";
                const REST: &[u8] = b"Aabz09_ -";
                let mut s = String::new();
                s.push(char::from(self.pick(FIRST)?));
                for _ in 0..self.below(9)? {
                    s.push(char::from(self.pick(REST)?));
                }
                s
            }
        })
    }

    fn percent(&mut self) -> Result<f32> {
        self.pick(&[5.0, 10.0, 12.5, 20.0, 25.0, 33.5, 50.0, 66.5, 100.0])
    }

    fn align(&mut self) -> Result<Align> {
        self.pick(&[Align::Left, Align::Center, Align::Right, Align::Justify])
    }

    /// Indentation: mostly none.
    fn indent(&mut self) -> Result<u8> {
        Ok(if self.below(4)? == 0 {
            self.u.int_in_range(0..=15)?
        } else {
            0
        })
    }

    fn change(&mut self) -> Result<Change> {
        Ok(Change {
            kind: if self.flag()? {
                ChangeKind::Insert
            } else {
                ChangeKind::Delete
            },
            author: self.opt(|g| g.pick(&["Ann", "B", "Zoë"]).map(str::to_string))?,
            date: self.opt(|_| Ok("2024-01-02T03:04:05Z".to_string()))?,
        })
    }

    // ----- inline content ------------------------------------------------------------------

    fn leaf(&mut self) -> Result<Inline> {
        Ok(match self.below(19)? {
            0..=11 => Inline::text(self.text()?),
            12 | 13 => Inline::LineBreak,
            14 => Inline::CrossRef {
                target: if self.flag()? {
                    "b1".to_string()
                } else {
                    self.name()?
                },
                number: self.flag()?,
                text: self.flag()?,
            },
            15 => Inline::Image {
                media: self.pick(&MEDIA)?.to_string(),
                caption: self.opt_text()?,
                alt: self.opt_text()?,
            },
            16 => Inline::IndexMark {
                id: self.pick(&["ix0", "ix1", "x\"y"])?.to_string(),
            },
            17 => Inline::CommentStart {
                id: self.pick(&COMMENTS)?.to_string(),
            },
            _ => Inline::CommentEnd {
                id: self.pick(&COMMENTS)?.to_string(),
            },
        })
    }

    /// One inline node; wrappers and notes nest while `depth` allows.
    fn inline(&mut self, depth: u8) -> Result<Inline> {
        if depth == 0 || self.below(2)? == 0 {
            return self.leaf();
        }
        let kind = self.below(8)?;
        let children = self.inline_list(depth - 1, 3)?;
        Ok(match kind {
            0..=2 => Inline::Styled {
                style: self.pick(&[
                    TextStyle::Code,
                    TextStyle::SmallCaps,
                    TextStyle::Bold,
                    TextStyle::Italic,
                    TextStyle::Underline,
                    TextStyle::Strike,
                    TextStyle::Subscript,
                    TextStyle::Superscript,
                ])?,
                children,
            },
            3 => Inline::Link {
                href: if self.flag()? {
                    "https://example.org/?a=1&b=2".into()
                } else {
                    self.name()?.into()
                },
                children,
            },
            4 => Inline::Span {
                style: self.name()?,
                children,
            },
            5 => Inline::Tracked {
                change: self.change()?,
                children,
            },
            6 => Inline::Lang {
                lang: self.opt(Self::lang_tag)?,
                dir: self.opt(Self::direction)?,
                children,
            },
            _ => Inline::Note {
                kind: self.pick(&[NoteKind::Footnote, NoteKind::Endnote, NoteKind::Sidenote])?,
                content: children,
            },
        })
    }

    /// A language tag of one of several scripts (issue 31).
    fn lang_tag(&mut self) -> Result<String> {
        self.pick(&[
            "ar-SA", "he-IL", "en-US", "de-DE", "ja-JP", "zh-CN", "hi-IN",
        ])
        .map(str::to_string)
    }

    fn direction(&mut self) -> Result<Direction> {
        self.pick(&[Direction::Ltr, Direction::Rtl])
    }

    /// Up to `max` inline nodes (not yet normalised).
    fn inline_list(&mut self, depth: u8, max: usize) -> Result<Vec<Inline>> {
        let n = self.count(max)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            if !self.node() {
                break;
            }
            out.push(self.inline(depth)?);
        }
        Ok(out)
    }

    /// Canonical inline content.
    fn inlines(&mut self) -> Result<Vec<Inline>> {
        Ok(normalize(&self.inline_list(MAX_INLINE_DEPTH, 5)?))
    }

    // ----- blocks --------------------------------------------------------------------------

    fn paragraph(&mut self) -> Result<Paragraph> {
        let kind = self.pick(&TextType::ALL)?;
        let content = self.inlines()?;
        Ok(Paragraph {
            kind,
            level: self.u.int_in_range(0..=5)?,
            indent: self.indent()?,
            align: self.align()?,
            style: self.opt(Self::name)?,
            // A placeholder that `finish` makes unique.
            id: self.opt(|_| Ok("?".to_string()))?,
            origin_ids: self.opt(Self::name)?,
            restart: self.flag()?,
            start: self.opt(|g| g.u.int_in_range(1..=49))?,
            list_id: self.opt(Self::name)?,
            number_format: self.opt(|g| {
                g.pick(&[
                    NumberFormat::Decimal,
                    NumberFormat::LowerRoman,
                    NumberFormat::Bullet,
                    NumberFormat::None,
                ])
            })?,
            // Code blocks are tested with wholly-code content in tests/code_blocks.rs.
            code: None,
            lang: self.opt(Self::lang_tag)?,
            dir: self.opt(Self::direction)?,
            ..Paragraph::new(kind, content)
        })
    }

    fn image(&mut self) -> Result<Image> {
        Ok(Image {
            media: self.pick(&MEDIA)?.to_string(),
            caption: self.opt_text()?,
            alt: self.opt_text()?,
            width_percent: self.opt(Self::percent)?,
            extent: self.opt(|g| {
                Ok(Extent {
                    width: g.u.int_in_range(1..=20_000_000)?,
                    height: g.u.int_in_range(1..=20_000_000)?,
                })
            })?,
            align: self.align()?,
            indent: self.indent()?,
            numbered: self.flag()?,
            id: self.opt(|_| Ok("?".to_string()))?,
            style: self.opt(Self::name)?,
            origin_ids: self.opt(Self::name)?,
        })
    }

    /// A cell's blocks: paragraphs, and (outside nested tables) pictures, tables and breaks.
    fn cell_blocks(&mut self, nested: bool) -> Result<Vec<Block>> {
        let n = self.count(2)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            if !self.node() {
                break;
            }
            let kind = if nested { 0 } else { self.below(16)? };
            out.push(match kind {
                0..=11 => Block::Paragraph(self.paragraph()?),
                12 => Block::Image(self.image()?),
                13 => Block::Table(self.table(true)?),
                14 => Block::PageBreak,
                _ => Block::Directory {
                    kind: DirectoryKind::Content,
                },
            });
        }
        Ok(out)
    }

    fn cell(&mut self, nested: bool, colspan: usize, rowspan: usize) -> Result<Cell> {
        let mut tri = || -> Result<Option<bool>> {
            Ok(match self.below(3)? {
                0 => None,
                1 => Some(false),
                _ => Some(true),
            })
        };
        let borders = Borders {
            top: tri()?,
            right: tri()?,
            bottom: tri()?,
            left: tri()?,
        };
        Ok(Cell {
            colspan: colspan as u32,
            rowspan: rowspan as u32,
            header: self.flag()?,
            align: self.opt(Self::align)?,
            valign: self.opt(|g| g.pick(&[VAlign::Top, VAlign::Middle, VAlign::Bottom]))?,
            borders,
            font_size: self.opt(|_| Ok("9.75pt".to_string()))?,
            background: self.opt(|g| g.pick(&["#ff00AA", "red", ""]).map(str::to_string))?,
            background_intensity: self.opt(|_| Ok("50".to_string()))?,
            col_ids: self.opt(Self::name)?,
            blocks: self.cell_blocks(nested)?,
        })
    }

    /// A table whose cells fill a grid of 1–4 columns and 0–4 rows, with spans that stay
    /// inside it and never overlap; `nested` tables (inside cells) hold only paragraphs.
    fn table(&mut self, nested: bool) -> Result<Table> {
        let ncols = 1 + self.below(4)?;
        let nrows = self.count(4)?;
        // busy[c]: rows (this one included) that column c is still covered by from above.
        let mut busy = vec![0usize; ncols];
        let mut rows = Vec::with_capacity(nrows);
        for r in 0..nrows {
            let mut cells = Vec::new();
            let mut c = 0;
            loop {
                while c < ncols && busy[c] > 0 {
                    c += 1;
                }
                // Sometimes a row ends before the grid does; every cell costs a node.
                if c >= ncols || (!cells.is_empty() && (self.below(8)? == 0 || !self.node())) {
                    break;
                }
                let run = busy[c..].iter().take_while(|&&b| b == 0).count();
                let colspan = 1 + self.below(run)?;
                let rowspan = 1 + self.below(nrows - r)?;
                for b in &mut busy[c..c + colspan] {
                    *b = rowspan;
                }
                cells.push(self.cell(nested, colspan, rowspan)?);
                c += colspan;
            }
            for b in &mut busy {
                *b = b.saturating_sub(1);
            }
            rows.push(Row {
                header: self.flag()?,
                id: self.opt(Self::name)?,
                min_height: self.opt(|_| Ok("6.3mm".to_string()))?,
                cells,
            });
        }
        let columns = if self.flag()? {
            (0..ncols)
                .map(|_| self.pick(&[10.0f32, 12.5, 20.0, 25.0, 33.5, 50.0]))
                .collect::<Result<_>>()?
        } else {
            Vec::new()
        };
        Ok(Table {
            columns,
            rows,
            caption: self.opt_text()?,
            numbered: self.flag()?,
            width_percent: self.opt(Self::percent)?,
            align: self.align()?,
            indent: self.indent()?,
            border_color: self.opt(|g| g.pick(&["#000000", "blue"]).map(str::to_string))?,
            id: self.opt(|_| Ok("?".to_string()))?,
            style: self.opt(Self::name)?,
            origin_ids: self.opt(Self::name)?,
            // Chart tables come from Word only, which does not write charts back yet.
            chart: None,
            dir: self.opt(Self::direction)?,
        })
    }

    fn block(&mut self) -> Result<Block> {
        Ok(match self.below(16)? {
            0..=9 => Block::Paragraph(self.paragraph()?),
            10 | 11 => Block::Image(self.image()?),
            12 | 13 => Block::Table(self.table(false)?),
            14 => Block::PageBreak,
            _ => Block::Directory {
                kind: self.pick(&DirectoryKind::ALL)?,
            },
        })
    }

    // ----- the document --------------------------------------------------------------------

    fn meta(&mut self) -> Result<Meta> {
        let mut texts = Vec::new();
        for _ in 0..7 {
            texts.push(self.opt_text()?);
        }
        let [
            title,
            subtitle,
            description,
            filename,
            footer,
            supplemental,
            creator,
        ] = <[Option<String>; 7]>::try_from(texts).unwrap_or_default();
        let word_export_presets = self.opt(|g| {
            Ok(WordExportPresets {
                template_id: g.name()?,
                language: g.pick(&["de_DE", "en_EN", "en_US", "fr_FR"])?.into(),
                toc_text: g.flag()?,
                toc_image: g.flag()?,
                toc_table: g.flag()?,
                caption_image: g.flag()?,
                caption_table: g.flag()?,
                tags: g.strings()?,
            })
        })?;
        Ok(Meta {
            id: self.opt(Self::name)?,
            generator: self.opt(|_| Ok("2.6.1.1".to_string()))?,
            title,
            subtitle,
            description,
            filename,
            footer,
            supplemental,
            creator,
            tags: self.strings()?,
            language: self.opt(|g| {
                g.pick(&["de_DE", "en_EN", "ru_RU", "fr_CA", "", "ar-SA", "ja-JP"])
                    .map(str::to_string)
            })?,
            word_export_presets,
            grid: {
                let n = self.below(3)?;
                (0..n)
                    .map(|_| match self.below(3)? {
                        0 => Ok("10%".to_string()),
                        1 => Ok(String::new()),
                        _ => self.text(),
                    })
                    .collect::<Result<_>>()?
            },
            grid_indentation_enabled: self
                .opt(|g| g.pick(&["true", "false", ""]).map(str::to_string))?,
            spellcheck_lang: self.opt(|g| g.pick(&["de", "en-US"]).map(str::to_string))?,
            direction: self.opt(Self::direction)?,
            hyphenate: self.flag()?,
            // `document` adds the page sections once the blocks they point at exist.
            ..Meta::default()
        })
    }

    /// Zero to two texts, sometimes empty ones (tags).
    fn strings(&mut self) -> Result<Vec<String>> {
        let n = self.below(3)?;
        (0..n)
            .map(|_| {
                if self.below(5)? == 0 {
                    Ok(String::new())
                } else {
                    self.text()
                }
            })
            .collect()
    }

    fn comments(&mut self) -> Result<Vec<Comment>> {
        let n = self.below(3)?;
        let mut out = Vec::new();
        for id in COMMENTS.iter().take(n) {
            let mut content = Vec::new();
            for _ in 0..self.below(3)? {
                content.push(if self.below(4)? == 0 {
                    Inline::LineBreak
                } else {
                    Inline::text(self.text()?)
                });
            }
            out.push(Comment {
                id: id.to_string(),
                author: self.opt(|g| g.pick(&["Ann", "B"]).map(str::to_string))?,
                initials: self.opt(|_| Ok("AB".to_string()))?,
                date: self.opt(|_| Ok("2024-05-06".to_string()))?,
                content: normalize(&content),
            });
        }
        Ok(out)
    }

    fn index_nodes(&mut self, depth: u8) -> Result<Vec<IndexNode>> {
        let n = self.below(3)?;
        let mut out = Vec::new();
        for _ in 0..n {
            out.push(IndexNode {
                // Numbered by `finish`.
                id: String::new(),
                title: self.text()?,
                target: self.opt(Self::name)?,
                description: self.opt_text()?,
                sorting_key: self.opt_text()?,
                children: if depth > 0 {
                    self.index_nodes(depth - 1)?
                } else {
                    Vec::new()
                },
            });
        }
        Ok(out)
    }

    fn document(&mut self) -> Result<Document> {
        // The body first: the bytes at the front of the input steer what matters most.
        let n = self.count(8)?;
        let mut blocks = Vec::with_capacity(n);
        for _ in 0..n {
            if !self.node() {
                break;
            }
            blocks.push(self.block()?);
        }
        let comments = self.comments()?;
        let indexes = self.index_nodes(1)?;
        let mut meta = self.meta()?;
        meta.pages = self.pages(blocks.len())?;
        Ok(Document {
            blocks,
            comments,
            indexes,
            meta,
            media: self.media()?,
            ..Document::new()
        })
    }

    /// Page sections over `blocks` top-level blocks: the first at block 0, the others in order,
    /// two sometimes at the same block or one past the last block (as cleanup leaves them when
    /// a section's blocks all go); headers and footers in every variant, with page fields.
    fn pages(&mut self, blocks: usize) -> Result<Pages> {
        let n = self.below(4)?;
        let mut sections = Vec::with_capacity(n);
        let mut start = 0;
        for i in 0..n {
            if i > 0 {
                start += self.below(blocks - start + 1)?;
            }
            sections.push(PageSection {
                start,
                title_page: self.flag()?,
                header: self.slots()?,
                footer: self.slots()?,
            });
        }
        let pages = Pages {
            even_and_odd: self.flag()?,
            sections,
        };
        // Sections without a header or footer anywhere are no pages at all: readers give
        // `Pages::default()` for them, and the JSON form leaves them out.
        Ok(if pages.is_empty() {
            Pages::default()
        } else {
            pages
        })
    }

    fn slots(&mut self) -> Result<Slots> {
        Ok(Slots {
            default: self.opt(Self::page_text)?,
            first: self.opt(Self::page_text)?,
            even: self.opt(Self::page_text)?,
        })
    }

    /// Zero to two paragraphs (an empty one too) of text and page-number fields.
    fn page_text(&mut self) -> Result<PageText> {
        let mut paragraphs = Vec::new();
        for _ in 0..self.below(3)? {
            let mut pieces = Vec::new();
            for _ in 0..self.below(4)? {
                pieces.push(match self.below(6)? {
                    0 => PagePiece::PageNumber,
                    1 => PagePiece::PageCount,
                    2 => PagePiece::SectionPageCount,
                    _ => PagePiece::Text(self.text()?),
                });
            }
            paragraphs.push(pieces);
        }
        Ok(PageText { paragraphs })
    }

    /// The pictures' bytes, one per media name: a small valid PNG, or only a PNG header that
    /// claims a size (up to 4000 pixels wide); `finish` keeps the ones the tree refers to.
    fn media(&mut self) -> Result<sdconv::ast::MediaStore> {
        let mut store = sdconv::ast::MediaStore::new();
        for name in MEDIA {
            let bytes = if self.below(4)? == 0 {
                png_header(self.u.int_in_range(1..=4000)?, self.u.int_in_range(1..=50)?)
            } else {
                png(
                    self.u.int_in_range(1..=4)?,
                    self.u.int_in_range(1..=4)?,
                    self.u.arbitrary()?,
                )
            };
            store.add(name, bytes);
        }
        Ok(store)
    }
}

/// Makes a generated tree valid: unique ids, anchors only for comments that exist, index ids,
/// media items for exactly the referenced images.
fn finish(doc: &mut Document) {
    let used = tidy::tidy(doc);
    for name in MEDIA {
        if !used.contains(name) {
            doc.media.remove(name);
        }
    }
}

/// The first 24 bytes of a PNG: signature and IHDR with the pixel size, nothing after.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&width.to_be_bytes());
    png.extend_from_slice(&height.to_be_bytes());
    png
}

/// A complete 8-bit greyscale PNG of `width` × `height` pixels, all of value `grey`: the pixel
/// rows in one stored (uncompressed) deflate block, with correct checksums.
fn png(width: u32, height: u32, grey: u8) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32fast::hash(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut raw = Vec::new();
    for _ in 0..height {
        raw.push(0); // filter: none
        raw.extend(std::iter::repeat_n(grey, width as usize));
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65521;
        b = (b + a) % 65521;
    }
    let mut zlib = vec![0x78, 0x01, 0x01];
    let len = raw.len() as u16;
    zlib.extend_from_slice(&len.to_le_bytes());
    zlib.extend_from_slice(&(!len).to_le_bytes());
    zlib.extend_from_slice(&raw);
    zlib.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &zlib);
    chunk(&mut out, b"IEND", &[]);
    out
}
