//! Hand-built trees for the HTML writer: single-feature fixtures (golden tests) and one tree with
//! every block and inline kind (validator and browser checks). Shared by `tests/html_export.rs`
//! and `examples/html_fixtures.rs` (included there with `#[path]`).

#![allow(dead_code)]

use sdconv::Document;
use sdconv::ast::{
    Align, Block, Cell, Change, ChangeKind, Comment, DirectoryKind, Image, IndexNode, Inline,
    NoteKind, NumberFormat, Paragraph, Row, Table, TextStyle, TextType,
};
use sdconv::export::html::HtmlOptions;
use sdconv::lang::Language;

// ---- tiny tree builders ----

pub fn t(s: &str) -> Inline {
    Inline::text(s)
}
pub fn st(style: TextStyle, children: Vec<Inline>) -> Inline {
    Inline::styled(style, children)
}
pub fn link(href: &str, children: Vec<Inline>) -> Inline {
    Inline::Link {
        href: href.into(),
        children,
    }
}
pub fn note(kind: NoteKind, content: Vec<Inline>) -> Inline {
    Inline::Note { kind, content }
}
pub fn xref(target: &str, number: bool, text: bool) -> Inline {
    Inline::CrossRef {
        target: target.into(),
        number,
        text,
    }
}
pub fn para(kind: TextType, level: u8, content: Vec<Inline>) -> Paragraph {
    Paragraph {
        level,
        ..Paragraph::new(kind, content)
    }
}
pub fn p(kind: TextType, level: u8, content: Vec<Inline>) -> Block {
    Block::Paragraph(para(kind, level, content))
}
pub fn text(s: &str) -> Block {
    p(TextType::Paragraph, 0, vec![t(s)])
}
pub fn with_id(mut b: Block, id: &str) -> Block {
    match &mut b {
        Block::Paragraph(p) => p.id = Some(id.into()),
        Block::Image(i) => i.id = Some(id.into()),
        Block::Table(t) => t.id = Some(id.into()),
        _ => {}
    }
    b
}
pub fn image(media: &str, caption: Option<&str>) -> Image {
    Image {
        media: media.into(),
        caption: caption.map(String::from),
        ..Image::default()
    }
}
pub fn cell(blocks: Vec<Block>) -> Cell {
    Cell {
        blocks,
        ..Cell::default()
    }
}
pub fn tcell(s: &str) -> Cell {
    cell(vec![text(s)])
}
pub fn row(cells: Vec<Cell>) -> Row {
    Row {
        cells,
        ..Row::default()
    }
}
pub fn doc(title: &str, blocks: Vec<Block>) -> Document {
    let mut d = Document::new();
    d.meta.title = Some(title.into());
    d.blocks = blocks;
    d
}

// ---- a minimal PNG encoder (stored deflate blocks), for real, decodable test images ----

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// An 8-bit RGB PNG of `width` × `height` whose pixels `pixel(x, y)` gives.
pub fn png(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 3]) -> Vec<u8> {
    let mut raw = Vec::new();
    for y in 0..height {
        raw.push(0); // filter: none
        for x in 0..width {
            raw.extend_from_slice(&pixel(x, y));
        }
    }
    let mut z = vec![0x78, 0x01];
    let chunks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, c) in chunks.iter().enumerate() {
        z.push(u8::from(i + 1 == chunks.len()));
        let len = c.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(c);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in &raw {
        a = (a + u32::from(byte)) % 65_521;
        b = (b + a) % 65_521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &z);
    chunk(&mut out, b"IEND", &[]);
    out
}

pub fn gradient_png() -> Vec<u8> {
    png(48, 32, |x, y| [(x * 5) as u8, (y * 8) as u8, 160])
}
pub fn checker_png() -> Vec<u8> {
    png(16, 16, |x, y| {
        if (x / 4 + y / 4) % 2 == 0 {
            [20, 20, 20]
        } else {
            [240, 200, 0]
        }
    })
}
pub fn dot_png() -> Vec<u8> {
    png(8, 8, |_, _| [200, 30, 60])
}

// ---- single-feature fixtures (golden files) ----

/// Every golden fixture: name, tree, options.
pub fn goldens() -> Vec<(&'static str, Document, HtmlOptions)> {
    vec![
        ("headings", headings(), HtmlOptions::default()),
        ("lists", lists(), HtmlOptions::default()),
        ("figure_de", figure("de_DE"), HtmlOptions::default()),
        (
            "figure_ru",
            figure("en_EN"),
            HtmlOptions::default().with_language(Language::Ru),
        ),
        ("table", table(), HtmlOptions::default()),
        ("notes", notes(), HtmlOptions::default()),
        ("cross_refs", cross_refs(), HtmlOptions::default()),
        ("tracked", tracked(), HtmlOptions::default()),
        ("comments", comments(), HtmlOptions::default()),
        ("page_break", page_break(), HtmlOptions::default()),
        (
            "directories",
            directories(),
            HtmlOptions::default().with_language(Language::De),
        ),
        ("unsafe", unsafe_content(), HtmlOptions::default()),
    ]
}

pub fn headings() -> Document {
    use TextType::*;
    let mut restarted = para(HeadingOl, 1, vec![t("Restarted at five")]);
    restarted.restart = true;
    restarted.start = Some(5);
    doc(
        "Headings",
        vec![
            p(Heading, 0, vec![t("Preface")]),
            p(HeadingOl, 0, vec![t("Scope")]),
            p(HeadingOl, 1, vec![t("Terms")]),
            p(ParagraphOl, 2, vec![t("A numbered paragraph.")]),
            p(ParagraphOl, 2, vec![t("Another one.")]),
            p(HeadingOl, 1, vec![t("Duties")]),
            Block::Paragraph(restarted),
            p(HeadingOl, 2, vec![t("Below the restart")]),
            p(HeadingOl, 0, vec![t("Second chapter")]),
            p(Heading, 5, vec![t("Level five, ranked under the chapter")]),
            p(Paragraph, 0, vec![t("Plain text.")]),
        ],
    )
}

pub fn lists() -> Document {
    use TextType::*;
    let item = |kind, level, s: &str| para(kind, level, vec![t(s)]);
    let mut first = item(ListOl, 0, "starts at three");
    first.start = Some(3);
    let mut restart = item(ListOl, 1, "restarted at one");
    restart.restart = true;
    let mut roman = item(ListOl, 0, "upper roman");
    roman.number_format = Some(NumberFormat::UpperRoman);
    roman.list_id = Some("r".into());
    let mut roman2 = item(ListOl, 0, "continues after the paragraph");
    roman2.number_format = Some(NumberFormat::UpperRoman);
    roman2.list_id = Some("r".into());
    let mut plain = item(ListUl, 0, "no marker");
    plain.number_format = Some(NumberFormat::None);
    doc(
        "Lists",
        vec![
            Block::Paragraph(first),
            Block::Paragraph(item(ListOl, 0, "four")),
            Block::Paragraph(item(ListOl, 1, "four a")),
            Block::Paragraph(item(ListOl, 1, "four b")),
            Block::Paragraph(restart),
            Block::Paragraph(item(ListOl, 0, "five")),
            Block::Paragraph(item(ListUl, 2, "jump of two levels")),
            Block::Paragraph(item(ListUl, 0, "a bullet after numbers")),
            text("Between lists."),
            Block::Paragraph(roman),
            text("Interruption."),
            Block::Paragraph(roman2),
            Block::Paragraph(plain),
        ],
    )
}

pub fn figure(language: &str) -> Document {
    let mut d = doc(
        "Figures",
        vec![
            Block::Image(Image {
                width_percent: Some(50.0),
                alt: Some("A gradient".into()),
                align: Align::Center,
                ..image("gradient.png", Some("Colour ramp"))
            }),
            Block::Image(Image {
                numbered: false,
                ..image("checker.png", Some("Unnumbered caption"))
            }),
            Block::Image(image("dot.png", None)),
            Block::Image(image("dot.png", Some("Second numbered"))),
        ],
    );
    d.meta.language = Some(language.into());
    d.media.add("gradient.png", gradient_png());
    d.media.add("checker.png", checker_png());
    d.media.add("dot.png", dot_png());
    d
}

pub fn table() -> Document {
    let mut header = row(vec![
        tcell("Name"),
        Cell {
            colspan: 2,
            ..tcell("Values")
        },
    ]);
    header.header = true;
    let body1 = row(vec![
        Cell {
            rowspan: 2,
            header: true,
            ..tcell("Alpha")
        },
        Cell {
            align: Some(Align::Right),
            background: Some("#ffeecc".into()),
            ..tcell("1")
        },
        cell(vec![
            p(TextType::ListUl, 0, vec![t("first")]),
            p(TextType::ListUl, 0, vec![t("second")]),
        ]),
    ]);
    let body2 = row(vec![
        Cell {
            background: Some("red; background:url(x)".into()),
            ..tcell("2")
        },
        tcell("3"),
    ]);
    doc(
        "Table",
        vec![Block::Table(Table {
            columns: vec![2.0, 1.0, 1.0],
            rows: vec![header, body1, body2],
            caption: Some("Measurements".into()),
            width_percent: Some(80.0),
            ..Table::default()
        })],
    )
}

pub fn notes() -> Document {
    doc(
        "Notes",
        vec![
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("Text"),
                    note(NoteKind::Footnote, vec![t("First footnote.")]),
                    t(" and more"),
                    note(NoteKind::Endnote, vec![t("First endnote.")]),
                    t(" and a margin note"),
                    note(NoteKind::Sidenote, vec![t("In the margin.")]),
                    t("."),
                ],
            ),
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("Second"),
                    note(
                        NoteKind::Footnote,
                        vec![
                            t("Holds "),
                            st(TextStyle::Italic, vec![t("style")]),
                            note(NoteKind::Footnote, vec![t("nested")]),
                        ],
                    ),
                    note(NoteKind::Endnote, vec![t("Second endnote.")]),
                ],
            ),
        ],
    )
}

pub fn cross_refs() -> Document {
    let mut d = doc(
        "Cross-references",
        vec![
            with_id(
                p(TextType::HeadingOl, 0, vec![t("Target heading")]),
                "sec:intro",
            ),
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("See "),
                    xref("sec:intro", true, false),
                    t(", "),
                    xref("sec:intro", true, true),
                    t(", "),
                    xref("fig1", true, false),
                    t(", "),
                    xref("tab1", false, true),
                    t(", "),
                    xref("missing", true, false),
                    t(" and "),
                    link("#fig1", vec![t("a link to the figure")]),
                    t(", "),
                    link("#nowhere", vec![t("a dead link")]),
                    t("."),
                ],
            ),
            with_id(Block::Image(image("dot.png", Some("Red dot"))), "fig1"),
            with_id(
                Block::Table(Table {
                    rows: vec![row(vec![tcell("x")])],
                    caption: Some("Small table".into()),
                    ..Table::default()
                }),
                "tab1",
            ),
            with_id(text("Duplicate id, first"), "dup"),
            with_id(text("Duplicate id, second"), "dup"),
        ],
    );
    d.media.add("dot.png", dot_png());
    d
}

pub fn tracked() -> Document {
    doc(
        "Tracked changes",
        vec![p(
            TextType::Paragraph,
            0,
            vec![
                t("Kept "),
                Inline::Tracked {
                    change: Change {
                        kind: ChangeKind::Insert,
                        author: Some("Ann <ann@example.org>".into()),
                        date: Some("2024-03-01T09:30:00Z".into()),
                    },
                    children: vec![t("inserted "), st(TextStyle::Bold, vec![t("bold")])],
                },
                t(" "),
                Inline::Tracked {
                    change: Change {
                        kind: ChangeKind::Delete,
                        author: Some("Bob".into()),
                        date: Some("last Tuesday".into()),
                    },
                    children: vec![t("deleted")],
                },
                t(" end."),
            ],
        )],
    )
}

pub fn comments() -> Document {
    let mut d = doc(
        "Comments",
        vec![
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("Before "),
                    Inline::CommentStart { id: "c1".into() },
                    t("plain "),
                    st(
                        TextStyle::Bold,
                        vec![
                            t("bold "),
                            Inline::CommentStart { id: "c2".into() },
                            t("both"),
                        ],
                    ),
                    t(" tail"),
                ],
            ),
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("next paragraph"),
                    Inline::CommentEnd { id: "c1".into() },
                    t(" only c2"),
                    Inline::CommentEnd { id: "c2".into() },
                    t(" after."),
                ],
            ),
        ],
    );
    d.comments = vec![
        Comment {
            id: "c1".into(),
            author: Some("Ann".into()),
            date: Some("2024-03-01T09:30:00Z".into()),
            content: vec![t("Spans two paragraphs & <formatting>.")],
            ..Comment::default()
        },
        Comment {
            id: "c2".into(),
            author: Some("Bob".into()),
            content: vec![t("Overlaps.")],
            ..Comment::default()
        },
        Comment {
            id: "c3".into(),
            author: Some("Cy".into()),
            content: vec![t("Not anchored anywhere.")],
            ..Comment::default()
        },
    ];
    d
}

pub fn page_break() -> Document {
    doc(
        "Page break",
        vec![text("Page one."), Block::PageBreak, text("Page two.")],
    )
}

pub fn directories() -> Document {
    use TextType::*;
    let mut d = doc(
        "Verzeichnisse",
        vec![
            Block::Directory {
                kind: DirectoryKind::Content,
            },
            Block::Directory {
                kind: DirectoryKind::Images,
            },
            Block::Directory {
                kind: DirectoryKind::Tables,
            },
            p(HeadingOl, 0, vec![t("Einleitung")]),
            p(
                HeadingOl,
                1,
                vec![
                    t("Mit "),
                    st(TextStyle::Italic, vec![t("Stil")]),
                    note(NoteKind::Footnote, vec![t("Fußnote")]),
                ],
            ),
            p(Heading, 3, vec![t("Sprung auf Ebene vier")]),
            Block::Image(image("dot.png", Some("Punkt"))),
            Block::Table(Table {
                rows: vec![row(vec![tcell("x")])],
                caption: Some("Kleine Tabelle".into()),
                ..Table::default()
            }),
            p(HeadingOl, 0, vec![t("Schluss")]),
        ],
    );
    d.meta.language = Some("de_DE".into());
    d.media.add("dot.png", dot_png());
    d
}

pub fn unsafe_content() -> Document {
    let mut d = doc(
        "<script>alert(\"title\")</script>",
        vec![
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("<script>alert(1)</script> & \"quotes\" \u{1}"),
                    link("javascript:alert(1)", vec![t("js")]),
                    t(" "),
                    link(" JaVaScRiPt:alert(1)", vec![t("mixed case")]),
                    t(" "),
                    link("java\tscript:alert(1)", vec![t("tab inside")]),
                    t(" "),
                    link("\u{0}javascript:alert(1)", vec![t("control")]),
                    t(" "),
                    link(
                        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
                        vec![t("data")],
                    ),
                    t(" "),
                    link("vbscript:msgbox(1)", vec![t("vb")]),
                    t(" "),
                    link("https://example.org/?a=1&b=\"2\"", vec![t("safe")]),
                    t(" "),
                    link("mailto:someone@example.org", vec![t("mail")]),
                    t(" "),
                    link("docs/page.html", vec![t("relative")]),
                ],
            ),
            Block::Paragraph(Paragraph {
                style: Some("\"><script>".into()),
                ..para(
                    TextType::Paragraph,
                    0,
                    vec![Inline::Span {
                        style: "x\" onmouseover=\"alert(1)".into(),
                        children: vec![t("span with a hostile style name")],
                    }],
                )
            }),
        ],
    );
    d.meta.description = Some("\"><img src=x onerror=alert(1)>".into());
    d
}

// ---- one tree with everything (validator and browser checks) ----

/// Every block and inline kind, three real PNGs.
/// A chart as an EMF picture block and an equation as an inline WMF (LibreOffice's metafiles of
/// one drawing, `tests/fixtures/metafile`), under a page header: the page must show both
/// pictures, drawn as SVG, and the header above the text.
pub fn metafiles() -> Document {
    let mut d = doc(
        "Metafiles",
        vec![
            text("A chart pasted from a spreadsheet, as Office keeps it (EMF):"),
            Block::Image(Image {
                extent: Some(sdconv::ast::Extent {
                    width: 3_657_600,
                    height: 2_194_560,
                }),
                ..image("chart.emf", Some("Sales by region"))
            }),
            p(
                TextType::Paragraph,
                0,
                vec![
                    t("An equation shown by its WMF preview: "),
                    Inline::Image {
                        media: "equation.wmf".into(),
                        caption: None,
                        alt: Some("equation".into()),
                    },
                    t(" holds."),
                ],
            ),
        ],
    );
    // A page header, which the page shows above the text.
    d.meta.pages.sections.push(sdconv::ast::PageSection {
        header: sdconv::ast::Slots {
            default: Some(sdconv::ast::PageText {
                paragraphs: vec![vec![sdconv::ast::PagePiece::Text(
                    "Quarterly report".into(),
                )]],
            }),
            ..Default::default()
        },
        ..Default::default()
    });
    d.media.add(
        "chart.emf",
        include_bytes!("../fixtures/metafile/lo-shapes.emf").to_vec(),
    );
    d.media.add(
        "equation.wmf",
        include_bytes!("../fixtures/metafile/lo-shapes.wmf").to_vec(),
    );
    d
}

pub fn everything() -> Document {
    use TextType::*;
    let mut d = Document::new();
    d.meta.title = Some("Everything sdconv writes".into());
    d.meta.subtitle = Some("A fixture for validators and browsers".into());
    d.meta.description = Some("Every block and inline kind of the document tree.".into());
    d.meta.footer = Some("© Example Ltd. — confidential".into());
    d.meta.creator = Some("sdconv tests".into());
    d.meta.tags = vec!["fixture".into(), "html".into()];
    d.meta.language = Some("en_EN".into());
    d.media.add("gradient.png", gradient_png());
    d.media.add("checker.png", checker_png());
    d.media.add("../dot image.png", dot_png());

    let dir = |kind| Block::Directory { kind };
    let mut restart = para(ListOl, 0, vec![t("restarted list")]);
    restart.restart = true;
    restart.start = Some(7);
    let mut header = row(vec![tcell("Key"), tcell("Value"), tcell("Notes")]);
    header.header = true;
    let nested = Table {
        rows: vec![row(vec![tcell("inner a"), tcell("inner b")])],
        ..Table::default()
    };
    d.blocks = vec![
        dir(DirectoryKind::Content),
        dir(DirectoryKind::Images),
        dir(DirectoryKind::Tables),
        with_id(
            p(
                HeadingOl,
                0,
                vec![
                    t("Introduction"),
                    note(NoteKind::Footnote, vec![t("A footnote in a heading.")]),
                ],
            ),
            "intro",
        ),
        p(
            Paragraph,
            0,
            vec![
                t("Styles: "),
                st(TextStyle::Bold, vec![t("bold")]),
                t(", "),
                st(TextStyle::Italic, vec![t("italic")]),
                t(", "),
                st(TextStyle::Underline, vec![t("underline")]),
                t(", "),
                st(TextStyle::Strike, vec![t("strike")]),
                t(", H"),
                st(TextStyle::Subscript, vec![t("2")]),
                t("O, x"),
                st(TextStyle::Superscript, vec![t("2")]),
                t(", "),
                st(TextStyle::Code, vec![t("code()")]),
                t(", "),
                st(TextStyle::SmallCaps, vec![t("Small Caps")]),
                t(", "),
                Inline::Span {
                    style: "Emphasis Strong".into(),
                    children: vec![t("a character style")],
                },
                t(".\tAfter a tab."),
                Inline::LineBreak,
                t("After a line break, an inline image "),
                Inline::Image {
                    media: "checker.png".into(),
                    caption: Some("checker".into()),
                    alt: Some("Checkerboard".into()),
                },
                t(" and links: "),
                link("https://example.org/a?b=1&c=2", vec![t("web")]),
                t(", "),
                link("mailto:team@example.org", vec![t("mail")]),
                t(", "),
                link("javascript:alert(1)", vec![t("unsafe, text kept")]),
                t(", "),
                link("#intro", vec![t("internal")]),
                t("."),
            ],
        ),
        p(
            Paragraph,
            0,
            vec![
                t("References: "),
                xref("intro", true, true),
                t(", "),
                xref("fig-ramp", true, false),
                t(", "),
                xref("tab-main", true, false),
                t("; index"),
                Inline::IndexMark { id: "ix-a".into() },
                t(" marks; "),
                Inline::CommentStart { id: "c1".into() },
                t("a commented range "),
                st(TextStyle::Bold, vec![t("crossing bold")]),
                Inline::CommentEnd { id: "c1".into() },
                t("; "),
                Inline::Tracked {
                    change: Change {
                        kind: ChangeKind::Insert,
                        author: Some("Ann".into()),
                        date: Some("2024-03-01T09:30:00Z".into()),
                    },
                    children: vec![t("inserted")],
                },
                t(" and "),
                Inline::Tracked {
                    change: Change {
                        kind: ChangeKind::Delete,
                        author: Some("Bob".into()),
                        date: None,
                    },
                    children: vec![t("deleted")],
                },
                t(" text; an endnote"),
                note(NoteKind::Endnote, vec![t("The endnote.")]),
                t(" and a sidenote"),
                note(
                    NoteKind::Sidenote,
                    vec![t("The sidenote, beside the text.")],
                ),
                t("."),
            ],
        ),
        p(HeadingOl, 1, vec![t("Numbered paragraphs")]),
        p(ParagraphOl, 2, vec![t("First numbered paragraph.")]),
        p(ParagraphOl, 2, vec![t("Second numbered paragraph.")]),
        p(Caption, 0, vec![t("A free-standing caption paragraph.")]),
        p(HeadingOl, 1, vec![t("Lists")]),
        p(ListOl, 0, vec![t("one")]),
        p(ListOl, 1, vec![t("one a")]),
        p(ListOl, 3, vec![t("a jump to level four")]),
        p(ListOl, 0, vec![t("two")]),
        Block::Paragraph(restart),
        p(ListUl, 0, vec![t("bullet")]),
        p(ListUl, 1, vec![t("nested bullet")]),
        p(HeadingOl, 0, vec![t("Figures and tables")]),
        with_id(
            Block::Image(Image {
                width_percent: Some(60.0),
                alt: Some("A colour ramp".into()),
                align: Align::Center,
                ..image("gradient.png", Some("A colour ramp"))
            }),
            "fig-ramp",
        ),
        Block::Image(Image {
            numbered: false,
            ..image("../dot image.png", Some("An unnumbered dot"))
        }),
        with_id(
            Block::Table(Table {
                columns: vec![25.0, 25.0, 50.0],
                caption: Some("Main table".into()),
                rows: vec![
                    header,
                    row(vec![
                        Cell {
                            rowspan: 2,
                            ..tcell("spans two rows")
                        },
                        Cell {
                            background: Some("#eef6ff".into()),
                            ..tcell("blue")
                        },
                        cell(vec![
                            p(ListUl, 0, vec![t("a list")]),
                            p(ListUl, 0, vec![t("in a cell")]),
                        ]),
                    ]),
                    row(vec![Cell {
                        colspan: 2,
                        ..cell(vec![Block::Table(nested)])
                    }]),
                    row(vec![
                        tcell("an image in a cell"),
                        cell(vec![Block::Image(image("checker.png", None))]),
                        tcell("end"),
                    ]),
                ],
                ..Table::default()
            }),
            "tab-main",
        ),
        // A row without cells, covered by a row span: left out, the span shortened.
        Block::Table(Table {
            rows: vec![
                row(vec![
                    Cell {
                        rowspan: 2,
                        ..tcell("tall")
                    },
                    tcell("a"),
                ]),
                Row::default(),
                row(vec![tcell("b"), tcell("c")]),
            ],
            ..Table::default()
        }),
        Block::PageBreak,
        p(Heading, 1, vec![t("Deeper headings")]),
        p(Heading, 2, vec![t("Level three")]),
        p(Heading, 3, vec![t("Level four")]),
        p(Heading, 4, vec![t("Level five")]),
        p(Heading, 5, vec![t("Level six")]),
        dir(DirectoryKind::Weblinks),
        dir(DirectoryKind::Indexes),
        dir(DirectoryKind::Sidenotes),
        dir(DirectoryKind::Footnotes),
    ];
    d.comments = vec![Comment {
        id: "c1".into(),
        author: Some("Ann".into()),
        date: Some("2024-03-01".into()),
        content: vec![t("A comment on a range.")],
        ..Comment::default()
    }];
    d.indexes = vec![IndexNode {
        id: "ix-a".into(),
        title: "Index entry".into(),
        children: vec![IndexNode {
            id: "ix-b".into(),
            title: "Sub-entry".into(),
            ..IndexNode::default()
        }],
        ..IndexNode::default()
    }];
    // A code line wider than a phone's screen: the block scrolls, and a keyboard must reach it.
    let mut code = para(
        Paragraph,
        0,
        vec![t(&format!("let wide = \"{}\";", "x".repeat(160)))],
    );
    code.code = Some("rust".into());
    d.blocks.push(Block::Paragraph(code));
    d
}

/// What the page of `doc` must show: headings, tables, images (all depths).
pub fn counts(doc: &Document) -> (usize, usize, usize) {
    let (mut headings, mut tables, mut images) = (0, 0, 0);
    doc.walk_blocks(&mut |_, b| match b {
        Block::Paragraph(p) => {
            if p.kind.is_heading() {
                headings += 1;
            }
            images += p
                .content
                .iter()
                .filter(|i| matches!(i, Inline::Image { .. }))
                .count();
        }
        Block::Table(_) => tables += 1,
        Block::Image(_) => images += 1,
        _ => {}
    });
    (headings, tables, images)
}

// ---- pseudo-random valid trees (validator check of odd combinations) ----

/// A small deterministic generator (64-bit LCG), so the example needs no randomness crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize].clone()
    }
}

fn random_inlines(r: &mut Lcg, depth: u32) -> Vec<Inline> {
    let n = 1 + r.below(5);
    let mut out = Vec::new();
    for _ in 0..n {
        let choice = if depth >= 3 { r.below(8) } else { r.below(14) };
        out.push(match choice {
            0..=3 => t(r.pick(&["word ", "<tag> & \"q\" ", "Ü\tx ", "текст "])),
            4 => Inline::LineBreak,
            5 => xref(
                r.pick(&["h1", "f1", "t1", "nowhere"]),
                r.below(2) == 0,
                r.below(2) == 0,
            ),
            6 => note(
                r.pick(&[NoteKind::Footnote, NoteKind::Endnote, NoteKind::Sidenote]),
                vec![t("note")],
            ),
            7 => Inline::CommentStart {
                id: r.pick(&["c1", "c2"]).into(),
            },
            8 => Inline::CommentEnd {
                id: r.pick(&["c1", "c2"]).into(),
            },
            9 => Inline::Image {
                media: "dot.png".into(),
                caption: None,
                alt: Some("dot".into()),
            },
            10 => st(
                r.pick(&[
                    TextStyle::Bold,
                    TextStyle::Italic,
                    TextStyle::Code,
                    TextStyle::Subscript,
                    TextStyle::SmallCaps,
                ]),
                random_inlines(r, depth + 1),
            ),
            11 => link(
                r.pick(&[
                    "https://example.org/x y",
                    "#h1",
                    "javascript:void(0)",
                    "a/b.html",
                ]),
                random_inlines(r, depth + 1),
            ),
            12 => Inline::Tracked {
                change: Change {
                    kind: r.pick(&[ChangeKind::Insert, ChangeKind::Delete]),
                    author: Some("A".into()),
                    date: Some(r.pick(&["2024-01-01T00:00:00Z", "not a date"]).into()),
                },
                children: random_inlines(r, depth + 1),
            },
            _ => Inline::IndexMark { id: "ix".into() },
        });
    }
    out
}

fn random_paragraph(r: &mut Lcg, in_cell: bool) -> Block {
    let kinds = if in_cell {
        vec![TextType::Paragraph, TextType::ListOl, TextType::ListUl]
    } else {
        TextType::ALL.to_vec()
    };
    let mut para = para(r.pick(&kinds), r.below(6) as u8, random_inlines(r, 0));
    para.content = sdconv::ast::inline::normalize(&para.content);
    if r.below(6) == 0 {
        para.restart = true;
        para.start = Some(1 + r.below(9) as u32);
    }
    Block::Paragraph(para)
}

/// A valid tree (canonical inlines, consistent tables) mixing every kind at random.
pub fn random_tree(seed: u64) -> Document {
    let mut r = Lcg(seed);
    let mut blocks = Vec::new();
    let n = 10 + r.below(30);
    for i in 0..n {
        blocks.push(match r.below(12) {
            0..=6 => random_paragraph(&mut r, false),
            7 => Block::Image(Image {
                numbered: r.below(3) != 0,
                width_percent: Some(10.0 + r.below(90) as f32),
                ..image("dot.png", Some("random image"))
            }),
            8 => {
                let cols = 1 + r.below(4) as usize;
                let mut rows = Vec::new();
                for ri in 0..1 + r.below(4) {
                    let mut cells = Vec::new();
                    let mut c = 0;
                    while c < cols {
                        let span = if cols - c >= 2 && r.below(4) == 0 {
                            2
                        } else {
                            1
                        };
                        let blocks = (0..r.below(3))
                            .map(|_| random_paragraph(&mut r, true))
                            .collect();
                        cells.push(Cell {
                            colspan: span as u32,
                            header: ri == 0 && r.below(2) == 0,
                            ..cell(blocks)
                        });
                        c += span;
                    }
                    let mut row = row(cells);
                    row.header = ri == 0 && r.below(2) == 0;
                    rows.push(row);
                }
                Block::Table(Table {
                    columns: (0..cols).map(|_| 1.0 + r.below(5) as f32).collect(),
                    rows,
                    caption: (r.below(2) == 0).then(|| "random table".to_string()),
                    ..Table::default()
                })
            }
            9 => Block::PageBreak,
            10 => Block::Directory {
                kind: r.pick(&DirectoryKind::ALL),
            },
            _ => text("filler"),
        });
        // A few cross-reference targets.
        if i == 2 {
            let last = blocks.pop().unwrap_or(Block::PageBreak);
            blocks.push(with_id(last, "h1"));
        }
    }
    blocks.push(with_id(
        Block::Image(image("dot.png", Some("target"))),
        "f1",
    ));
    blocks.push(with_id(
        Block::Table(Table {
            rows: vec![row(vec![tcell("x")])],
            caption: Some("target".into()),
            ..Table::default()
        }),
        "t1",
    ));
    let mut d = doc(&format!("Random tree {seed}"), blocks);
    d.media.add("dot.png", dot_png());
    d.comments = vec![
        Comment {
            id: "c1".into(),
            author: Some("A".into()),
            content: vec![t("one")],
            ..Comment::default()
        },
        Comment {
            id: "c2".into(),
            content: vec![t("two")],
            ..Comment::default()
        },
    ];
    d.indexes = vec![IndexNode {
        id: "ix".into(),
        title: "Entry".into(),
        ..IndexNode::default()
    }];
    d
}
