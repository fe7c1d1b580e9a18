//! Generated sample documents for benchmarks, fuzz seeds, examples and tests.
//!
//! [`large_document`] builds a deterministic, realistic tree of any size: headings on three levels
//! (some numbered), list runs with nesting, numbered paragraphs, body text with bold, italic, code,
//! links, footnotes and cross-references, tables with header rows, spans and captions, and images
//! whose bytes are real (tiny, valid) PNG files. [`small_document`] has a little of everything
//! the tree can hold. Both pass [`Document::validate`] and hold inline content in canonical form.

use crate::ast::inline::normalize;
use crate::ast::{
    Align, Block, Cell, Comment, DirectoryKind, Document, Image, Inline, Meta, NoteKind, Paragraph,
    Row, Table, TextStyle, TextType,
};

/// A deterministic document with `paragraphs` paragraph blocks (headings, list items and body
/// text together), `tables` tables and `images` images, spread evenly through the body.
///
/// The same arguments always give the same tree; `seed` varies the text, the table shapes and
/// the image sizes. Media are named `img-0001.png`, `img-0002.png`, … in order of appearance.
pub fn large_document(paragraphs: usize, tables: usize, images: usize, seed: u64) -> Document {
    let mut g = Gen {
        rng: Rng::new(seed),
        heading_ids: Vec::new(),
        headings: 0,
        list_run: 0,
        lists: 0,
        tables: 0,
        images: 0,
    };
    let mut doc = Document::new();
    doc.meta = Meta {
        title: Some(format!("Generated document {seed}")),
        subtitle: Some(format!(
            "{paragraphs} paragraphs, {tables} tables, {images} images"
        )),
        description: Some("A deterministic document made by sdconv::sample".into()),
        filename: Some(format!("generated-{seed}")),
        language: Some("en_EN".into()),
        creator: Some("sdconv sample generator".into()),
        tags: vec!["generated".into(), "sample".into()],
        ..Meta::default()
    };
    let total = paragraphs + tables + images;
    // Tables and images are placed at evenly spaced slots; every other slot is a paragraph. A
    // table or image that falls due on a taken slot goes in the next one, so counts are exact.
    let (mut placed_paragraphs, mut placed_tables, mut placed_images) = (0, 0, 0);
    for slot in 0..total {
        let due_tables = (slot + 1) * tables / total;
        let due_images = (slot + 1) * images / total;
        let block = if due_tables > placed_tables
            || (placed_paragraphs == paragraphs && placed_tables < tables)
        {
            placed_tables += 1;
            g.table()
        } else if due_images > placed_images || placed_paragraphs == paragraphs {
            placed_images += 1;
            g.image(&mut doc)
        } else {
            placed_paragraphs += 1;
            Block::Paragraph(g.paragraph())
        };
        doc.blocks.push(block);
    }
    doc
}

/// A small document with a little of everything: metadata, headings (plain and numbered), list
/// items on two levels, a numbered paragraph, formatting, a link, a footnote, an endnote, a
/// cross-reference, a line break, an inline image, a table with a header row and spans, an image
/// block, a caption, a comment, a page break and a table of contents.
pub fn small_document() -> Document {
    let t = Inline::text;
    let styled = |s, text: &str| Inline::styled(s, vec![Inline::text(text)]);
    let para = |kind, level, content: Vec<Inline>| {
        Block::Paragraph(Paragraph {
            level,
            ..Paragraph::new(kind, normalize(&content))
        })
    };
    let mut doc = Document::new();
    doc.meta = Meta {
        title: Some("Sample document".into()),
        subtitle: Some("A little of everything".into()),
        description: Some("Made by sdconv::sample::small_document".into()),
        filename: Some("sample".into()),
        footer: Some("sdconv sample".into()),
        language: Some("en_EN".into()),
        creator: Some("sdconv".into()),
        tags: vec!["sample".into()],
        ..Meta::default()
    };
    doc.media.add("img-0001.png", png(24, 16, 1));
    doc.media.add("img-0002.png", png(8, 8, 2));
    doc.comments.push(Comment {
        id: "c1".into(),
        author: Some("Reviewer".into()),
        initials: Some("RV".into()),
        date: Some("2024-01-02T03:04:05Z".into()),
        content: vec![t("Check this sentence.")],
    });
    let mut intro = Paragraph::new(TextType::Heading, vec![t("Introduction")]);
    intro.id = Some("intro".into());
    let cell = |text: &str, header: bool, colspan: u32, rowspan: u32| Cell {
        header,
        colspan,
        rowspan,
        blocks: vec![Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![Inline::text(text)],
        ))],
        ..Cell::default()
    };
    doc.blocks = vec![
        Block::Directory {
            kind: DirectoryKind::Content,
        },
        Block::Paragraph(intro),
        para(
            TextType::Paragraph,
            0,
            vec![
                t("This is "),
                styled(TextStyle::Bold, "bold"),
                t(", "),
                styled(TextStyle::Italic, "italic"),
                t(", "),
                Inline::styled(
                    TextStyle::Bold,
                    vec![styled(TextStyle::Italic, "both"), t(" at once")],
                ),
                t(" and "),
                styled(TextStyle::Code, "code"),
                t(". H"),
                styled(TextStyle::Subscript, "2"),
                t("O and E = mc"),
                styled(TextStyle::Superscript, "2"),
                t("."),
                Inline::Note {
                    kind: NoteKind::Footnote,
                    content: vec![t("A footnote with "), styled(TextStyle::Italic, "style")],
                },
            ],
        ),
        para(
            TextType::Paragraph,
            0,
            vec![
                t("Visit "),
                Inline::Link {
                    href: "https://example.org/".into(),
                    children: vec![t("example.org")],
                },
                t(" or see "),
                Inline::CrossRef {
                    target: "scope".into(),
                    number: true,
                    text: true,
                },
                t("."),
                Inline::LineBreak,
                Inline::CommentStart { id: "c1".into() },
                t("A commented sentence."),
                Inline::CommentEnd { id: "c1".into() },
                Inline::Note {
                    kind: NoteKind::Endnote,
                    content: vec![t("An endnote.")],
                },
            ],
        ),
        Block::Paragraph(Paragraph {
            id: Some("scope".into()),
            ..Paragraph::new(TextType::HeadingOl, vec![t("Scope")])
        }),
        para(TextType::HeadingOl, 1, vec![t("Details")]),
        para(TextType::ListUl, 0, vec![t("First bullet")]),
        para(TextType::ListUl, 1, vec![t("Nested bullet")]),
        para(TextType::ListUl, 0, vec![t("Second bullet")]),
        para(TextType::ListOl, 0, vec![t("Step one")]),
        para(TextType::ListOl, 0, vec![t("Step two")]),
        para(
            TextType::ParagraphOl,
            0,
            vec![t("A numbered paragraph with an inline image "), {
                Inline::Image {
                    media: "img-0002.png".into(),
                    caption: Some("A dot".into()),
                    alt: None,
                }
            }],
        ),
        Block::Table(Table {
            columns: vec![40.0, 30.0, 30.0],
            caption: Some("Results".into()),
            id: Some("results".into()),
            rows: vec![
                Row {
                    header: true,
                    cells: vec![
                        cell("Name", true, 1, 1),
                        cell("Before", true, 1, 1),
                        cell("After", true, 1, 1),
                    ],
                    ..Row::default()
                },
                Row {
                    cells: vec![
                        cell("Alpha", false, 1, 2),
                        cell("1", false, 1, 1),
                        cell("2", false, 1, 1),
                    ],
                    ..Row::default()
                },
                Row {
                    cells: vec![cell("both 3", false, 2, 1)],
                    ..Row::default()
                },
            ],
            ..Table::default()
        }),
        Block::Image(Image {
            media: "img-0001.png".into(),
            caption: Some("A gradient".into()),
            alt: Some("A small coloured gradient".into()),
            width_percent: Some(50.0),
            align: Align::Center,
            ..Image::default()
        }),
        para(TextType::Caption, 0, vec![t("A caption paragraph")]),
        Block::PageBreak,
        para(TextType::Heading, 0, vec![t("Appendix")]),
        para(TextType::Paragraph, 0, vec![t("The end.")]),
    ];
    doc
}

/// State of [`large_document`]'s generator.
struct Gen {
    rng: Rng,
    /// Ids of the headings made so far: cross-reference targets.
    heading_ids: Vec<String>,
    headings: usize,
    /// Items left in the current list run.
    list_run: usize,
    lists: usize,
    tables: usize,
    images: usize,
}

const WORDS: &[&str] = &[
    "document",
    "conversion",
    "table",
    "figure",
    "service",
    "partner",
    "export",
    "import",
    "heading",
    "paragraph",
    "structure",
    "content",
    "reader",
    "writer",
    "format",
    "layout",
    "number",
    "caption",
    "value",
    "result",
    "section",
    "chapter",
    "method",
    "analysis",
    "data",
    "review",
    "summary",
    "the",
    "a",
    "of",
    "and",
    "in",
    "to",
    "with",
    "for",
    "on",
    "is",
    "are",
    "was",
    "be",
    "by",
    "that",
    "this",
    "it",
    "as",
    "from",
    "or",
    "which",
    "each",
    "every",
];

impl Gen {
    fn words(&mut self, n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(WORDS[self.rng.below(WORDS.len())]);
        }
        s
    }

    fn sentence(&mut self) -> String {
        let n = 4 + self.rng.below(12);
        let mut s = self.words(n);
        if let Some(first) = s.get(..1) {
            s = first.to_uppercase() + s.get(1..).unwrap_or_default();
        }
        s.push('.');
        s
    }

    fn paragraph(&mut self) -> Paragraph {
        if self.list_run > 0 {
            return self.list_item();
        }
        let roll = self.rng.below(100);
        if roll < 8 {
            self.heading()
        } else if roll < 14 {
            self.lists += 1;
            self.list_run = 3 + self.rng.below(5);
            self.list_item()
        } else if roll < 17 {
            Paragraph::new(TextType::ParagraphOl, vec![Inline::text(self.sentence())])
        } else {
            Paragraph {
                align: if self.rng.below(20) == 0 {
                    Align::Justify
                } else {
                    Align::Left
                },
                ..Paragraph::new(TextType::Paragraph, self.body())
            }
        }
    }

    fn heading(&mut self) -> Paragraph {
        self.headings += 1;
        // Mostly deeper levels, as in real documents: ~1 in 8 at the top.
        let level = match self.rng.below(8) {
            0 => 0,
            1..=3 => 1,
            _ => 2,
        };
        let kind = if self.rng.below(2) == 0 {
            TextType::HeadingOl
        } else {
            TextType::Heading
        };
        let id = format!("h-{}", self.headings);
        self.heading_ids.push(id.clone());
        let n = 2 + self.rng.below(4);
        let mut text = self.words(n);
        if let Some(first) = text.get(..1) {
            text = first.to_uppercase() + text.get(1..).unwrap_or_default();
        }
        Paragraph {
            level,
            id: Some(id),
            ..Paragraph::new(kind, vec![Inline::text(text)])
        }
    }

    fn list_item(&mut self) -> Paragraph {
        self.list_run -= 1;
        let kind = if self.lists % 2 == 0 {
            TextType::ListOl
        } else {
            TextType::ListUl
        };
        let n = 3 + self.rng.below(8);
        let content = if self.rng.below(4) == 0 {
            let head = self.words(2);
            normalize(&[
                Inline::styled(TextStyle::Bold, vec![Inline::text(head)]),
                Inline::text(format!(": {}", self.words(n))),
            ])
        } else {
            vec![Inline::text(self.words(n))]
        };
        Paragraph {
            level: self.rng.below(3) as u8,
            list_id: Some(format!("list-{}", self.lists)),
            ..Paragraph::new(kind, content)
        }
    }

    /// Body text: 1-5 sentences, some words formatted, some links, notes and cross-references.
    fn body(&mut self) -> Vec<Inline> {
        let mut out = Vec::new();
        let sentences = 1 + self.rng.below(5);
        for i in 0..sentences {
            if i > 0 {
                out.push(Inline::text(" "));
            }
            let s = self.sentence();
            match self.rng.below(12) {
                0 => {
                    // A formatted phrase inside the sentence.
                    let (head, tail) = s.split_at(s.find(' ').unwrap_or(s.len()));
                    let style =
                        [TextStyle::Bold, TextStyle::Italic, TextStyle::Code][self.rng.below(3)];
                    out.push(Inline::styled(style, vec![Inline::text(head)]));
                    out.push(Inline::text(tail));
                }
                1 => {
                    out.push(Inline::text(s));
                    out.push(Inline::text(" See "));
                    out.push(Inline::Link {
                        href: format!("https://example.org/{}", self.rng.below(1000)).into(),
                        children: vec![Inline::text(self.words(2))],
                    });
                    out.push(Inline::text("."));
                }
                2 => {
                    out.push(Inline::text(s));
                    let note = self.sentence();
                    out.push(Inline::Note {
                        kind: NoteKind::Footnote,
                        content: vec![Inline::text(note)],
                    });
                }
                3 if !self.heading_ids.is_empty() => {
                    let target = self.heading_ids[self.rng.below(self.heading_ids.len())].clone();
                    out.push(Inline::text(s));
                    out.push(Inline::text(" (see "));
                    out.push(Inline::CrossRef {
                        target,
                        number: true,
                        text: false,
                    });
                    out.push(Inline::text(")"));
                }
                4 => {
                    out.push(Inline::styled(
                        TextStyle::Bold,
                        vec![Inline::styled(TextStyle::Italic, vec![Inline::text(s)])],
                    ));
                }
                _ => out.push(Inline::text(s)),
            }
        }
        normalize(&out)
    }

    fn table(&mut self) -> Block {
        self.tables += 1;
        let cols = 2 + self.rng.below(5);
        let rows = 3 + self.rng.below(10);
        let mut columns = vec![(100 / cols) as f32; cols];
        // Widths add up to 100: the last column takes the remainder.
        if let Some(last) = columns.last_mut() {
            *last = (100 - 100 / cols * (cols - 1)) as f32;
        }
        let mut table_rows = Vec::with_capacity(rows);
        table_rows.push(Row {
            header: true,
            cells: (0..cols)
                .map(|c| self.cell(format!("Column {}", c + 1), true, 1, 1))
                .collect(),
            ..Row::default()
        });
        // `covered` = the first column is taken by a rowspan from the row above.
        let mut covered = false;
        for r in 1..rows {
            let mut cells = Vec::with_capacity(cols);
            let mut col = 0;
            if covered {
                col = 1;
                covered = false;
            } else if r + 1 < rows && self.rng.below(6) == 0 {
                // A first-column cell spanning two rows.
                let text = self.words(1);
                cells.push(self.cell(text, false, 1, 2));
                col = 1;
                covered = true;
            }
            while col < cols {
                let span = if col + 1 < cols && self.rng.below(10) == 0 {
                    2
                } else {
                    1
                };
                let text = self.cell_text();
                cells.push(self.cell(text, false, span as u32, 1));
                col += span;
            }
            table_rows.push(Row {
                cells,
                ..Row::default()
            });
        }
        let words = self.words(3);
        let caption = format!("Table {}: {words}", self.tables);
        Block::Table(Table {
            columns,
            rows: table_rows,
            caption: Some(caption),
            id: Some(format!("t-{}", self.tables)),
            ..Table::default()
        })
    }

    fn cell_text(&mut self) -> String {
        if self.rng.below(3) == 0 {
            format!("{}.{}", self.rng.below(1000), self.rng.below(100))
        } else {
            let n = 1 + self.rng.below(4);
            self.words(n)
        }
    }

    fn cell(&mut self, text: String, header: bool, colspan: u32, rowspan: u32) -> Cell {
        let content = if !header && self.rng.below(8) == 0 {
            vec![Inline::styled(TextStyle::Bold, vec![Inline::text(text)])]
        } else {
            vec![Inline::text(text)]
        };
        Cell {
            header,
            colspan,
            rowspan,
            blocks: vec![Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                content,
            ))],
            ..Cell::default()
        }
    }

    fn image(&mut self, doc: &mut Document) -> Block {
        self.images += 1;
        let name = format!("img-{:04}.png", self.images);
        let w = 4 + self.rng.below(60) as u32;
        let h = 4 + self.rng.below(40) as u32;
        doc.media.add(name.clone(), png(w, h, self.rng.next()));
        let words = self.words(3);
        Block::Image(Image {
            media: name,
            caption: Some(format!("Figure {}: {words}", self.images)),
            alt: (self.images % 3 == 0).then(|| self.words(4)),
            width_percent: Some([25.0, 50.0, 75.0, 100.0][self.rng.below(4)]),
            align: if self.images % 2 == 0 {
                Align::Center
            } else {
                Align::Left
            },
            id: Some(format!("f-{}", self.images)),
            ..Image::default()
        })
    }
}

/// SplitMix64: tiny, fast and fully determined by its seed (no platform-dependent state); the
/// generator of the samples and of the crate's randomised unit tests.
pub(crate) struct Rng(u64);

impl Rng {
    /// The generator for `seed`.
    pub(crate) fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1A4_F87D)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0; the slight modulo bias does not matter here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A valid RGB PNG of `width` × `height` pixels showing a gradient tinted by `tint`.
///
/// The image data is zlib-wrapped with stored (uncompressed) deflate blocks: valid for every
/// decoder, and no compression library is needed.
pub fn png(width: u32, height: u32, tint: u64) -> Vec<u8> {
    let [r0, g0, b0, ..] = tint.to_le_bytes();
    let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
    let mut raw = Vec::with_capacity(height as usize * (1 + 3 * width as usize));
    for y in 0..u64::from(height) {
        raw.push(0); // filter type: none
        for x in 0..u64::from(width) {
            // u64: no overflow whatever the size.
            raw.push(r0.wrapping_add((x * 255 / w) as u8));
            raw.push(g0.wrapping_add((y * 255 / h) as u8));
            raw.push(b0);
        }
    }
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, no interlace.
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    png_chunks(&[
        (b"IHDR", &ihdr),
        (b"IDAT", &zlib_stored(&raw)),
        (b"IEND", &[]),
    ])
}

/// A PNG file of `chunks` (type and data) in order, each with its length and CRC, after the
/// signature: the caller writes IHDR first and IEND last, or leaves them out on purpose (tests
/// and fuzz targets build damaged files with it).
pub fn png_chunks(chunks: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in chunks {
        chunk(&mut out, kind, data);
    }
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4).
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    // CMF 0x78 (deflate, 32K window), FLG 0x01 (no dict, lowest level; 0x7801 % 31 == 0).
    let mut out = vec![0x78, 0x01];
    let mut blocks = data.chunks(0xFFFF).peekable();
    if blocks.peek().is_none() {
        // An empty final stored block.
        out.extend_from_slice(&[1, 0, 0, 0xFF, 0xFF]);
    }
    while let Some(block) = blocks.next() {
        let last = blocks.peek().is_none();
        out.push(u8::from(last));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::MediaKind;
    use crate::ast::inline::is_normalized;

    fn count(doc: &Document, pred: impl Fn(&Block) -> bool) -> usize {
        doc.blocks.iter().filter(|b| pred(b)).count()
    }

    #[test]
    fn large_document_has_the_counts_asked_for_and_validates() {
        let doc = large_document(2_000, 40, 25, 7);
        assert_eq!(doc.validate(), Ok(()));
        assert_eq!(count(&doc, |b| matches!(b, Block::Paragraph(_))), 2_000);
        assert_eq!(count(&doc, |b| matches!(b, Block::Table(_))), 40);
        assert_eq!(count(&doc, |b| matches!(b, Block::Image(_))), 25);
        assert_eq!(doc.media.len(), 25);
        assert!(doc.media.contains("img-0001.png") && doc.media.contains("img-0025.png"));
        // Realistic variety: every kind of paragraph the generator promises shows up.
        for kind in [
            TextType::Paragraph,
            TextType::ParagraphOl,
            TextType::Heading,
            TextType::HeadingOl,
            TextType::ListOl,
            TextType::ListUl,
        ] {
            let n = count(&doc, |b| matches!(b, Block::Paragraph(p) if p.kind == kind));
            assert!(n > 0, "no {kind:?}");
        }
        let mut levels = [false; 3];
        let (mut notes, mut xrefs, mut links, mut bold) = (0, 0, 0, 0);
        for b in &doc.blocks {
            if let Block::Paragraph(p) = b {
                if p.kind.is_heading() {
                    levels[usize::from(p.level)] = true;
                }
            }
        }
        doc.walk_inlines(&mut |i| match i {
            Inline::Note { .. } => notes += 1,
            Inline::CrossRef { .. } => xrefs += 1,
            Inline::Link { .. } => links += 1,
            Inline::Styled {
                style: TextStyle::Bold,
                ..
            } => bold += 1,
            _ => {}
        });
        assert_eq!(levels, [true; 3]);
        assert!(notes > 0 && xrefs > 0 && links > 0 && bold > 0);
        let spans = doc.blocks.iter().any(|b| match b {
            Block::Table(t) => t
                .rows
                .iter()
                .any(|r| r.cells.iter().any(|c| c.colspan > 1 || c.rowspan > 1)),
            _ => false,
        });
        assert!(spans, "no table has a span");
    }

    #[test]
    fn large_document_is_deterministic_and_seeded() {
        let a = large_document(300, 5, 5, 1);
        assert_eq!(a, large_document(300, 5, 5, 1));
        assert_ne!(a, large_document(300, 5, 5, 2));
    }

    #[test]
    fn large_document_handles_degenerate_sizes() {
        assert!(large_document(0, 0, 0, 0).blocks.is_empty());
        let only_tables = large_document(0, 3, 0, 0);
        assert_eq!(only_tables.blocks.len(), 3);
        assert_eq!(only_tables.validate(), Ok(()));
    }

    #[test]
    fn small_document_validates_and_has_everything() {
        let doc = small_document();
        assert_eq!(doc.validate(), Ok(()));
        for block in &doc.blocks {
            if let Block::Paragraph(p) = block {
                assert!(is_normalized(&p.content));
            }
        }
        assert_eq!(count(&doc, |b| matches!(b, Block::Table(_))), 1);
        assert_eq!(count(&doc, |b| matches!(b, Block::Image(_))), 1);
        assert_eq!(count(&doc, |b| matches!(b, Block::PageBreak)), 1);
        assert_eq!(count(&doc, |b| matches!(b, Block::Directory { .. })), 1);
        let mut kinds = std::collections::HashSet::new();
        doc.walk_blocks(&mut |_, b| {
            if let Block::Paragraph(p) = b {
                kinds.insert(p.kind);
            }
        });
        assert_eq!(kinds.len(), TextType::ALL.len(), "{kinds:?}");
        assert_eq!(doc.comments.len(), 1);
    }

    #[test]
    fn png_is_well_formed() {
        let bytes = png(5, 3, 42);
        let item = crate::ast::MediaItem::new("a.png", bytes.clone());
        assert_eq!(item.kind, MediaKind::Png);
        assert_eq!((item.width, item.height), (Some(5), Some(3)));
        // Check every chunk's CRC and that the stored IDAT payload inflates to the raw rows.
        let mut at = 8;
        let mut idat = Vec::new();
        while at < bytes.len() {
            let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
            let body = &bytes[at + 4..at + 8 + len];
            let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
            assert_eq!(crc32(body), crc);
            if &body[..4] == b"IDAT" {
                idat.extend_from_slice(&body[4..]);
            }
            at += 12 + len;
        }
        assert_eq!(at, bytes.len());
        // zlib header, one final stored block of 3 rows × (1 + 5×3) bytes, adler32.
        assert_eq!(&idat[..3], &[0x78, 0x01, 1]);
        let raw_len = 3 * (1 + 5 * 3);
        assert_eq!(u16::from_le_bytes([idat[3], idat[4]]) as usize, raw_len);
        assert_eq!(idat.len(), 2 + 5 + raw_len + 4);
        assert_eq!(
            adler32(&idat[7..7 + raw_len]).to_be_bytes(),
            idat[7 + raw_len..]
        );
    }

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }
}
