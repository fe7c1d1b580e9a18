//! proptest strategies for valid, canonical document trees.
//!
//! [`document`] covers every block kind (tables with row and column spans that respect the grid,
//! blocks nested in cells), every inline kind (notes inside notes, tracked changes, comment
//! anchors that name existing comments, index marks, inline images), metadata with values the
//! sd.xml DTD cannot hold, empty strings and characters XML cannot hold, formulas, ruby, code
//! blocks and charts. Every inline list is
//! normalised, ids are unique, every referenced image is in the media store and nothing else is;
//! percentages are whole or .5. Generated trees pass `Document::validate`.

#[path = "../../fuzz/fuzz_targets/tidy.rs"]
mod tidy;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use sdconv::ast::chart::{ChartData, ChartKind};
use sdconv::ast::inline::normalize;
use sdconv::ast::math::MathNode;
use sdconv::ast::pages::{PagePiece, PageSection, PageText, Pages, Slots};
use sdconv::ast::{
    Align, Block, Borders, Cell, Change, ChangeKind, Comment, Direction, DirectoryKind, Document,
    Extent, Image, IndexNode, Inline, MediaItem, Meta, NoteKind, NumberFormat, Paragraph, Row,
    Table, TextStyle, TextType, VAlign, WordExportPresets,
};

/// Media names trees refer to (spaces and non-ASCII on purpose).
pub const MEDIA: [&str; 3] = ["a.png", "b c.png", "ü-ß.png"];
/// Comment ids anchors may use.
pub const COMMENTS: [&str; 2] = ["c0", "c1"];

/// The first 24 bytes of a PNG: signature and IHDR with the pixel size.
pub fn tiny_png(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    png.extend_from_slice(&width.to_be_bytes());
    png.extend_from_slice(&height.to_be_bytes());
    png
}

/// Text, mostly ordinary, sometimes with markup characters or characters XML 1.0 cannot hold.
pub fn text() -> BoxedStrategy<String> {
    prop_oneof![
        10 => "[a-zA-Z0-9 äöüß€😀<>&\"'?\\]\t\n\r-]{1,10}",
        1 => Just("]]> ?> --> <!-- &amp; \"q\"".to_string()),
        1 => "[a-z]{0,3}[\\x01\\x0b\\x{FFFE}][a-z]{0,3}",
    ]
    .boxed()
}

/// An optional text that is sometimes empty.
fn opt_text() -> BoxedStrategy<Option<String>> {
    option::of(prop_oneof![6 => text(), 1 => Just(String::new())]).boxed()
}

/// A simple name (style names, ids, hrefs).
fn name() -> BoxedStrategy<String> {
    prop_oneof![
        6 => "[A-Za-z][A-Za-z0-9_ -]{0,8}",
        1 => Just("x\"&<y>".to_string()),
        1 => Just(String::new()),
    ]
    .boxed()
}

fn percent() -> impl Strategy<Value = f32> {
    prop::sample::select(vec![
        5.0f32, 10.0, 12.5, 20.0, 25.0, 33.5, 50.0, 66.5, 100.0,
    ])
}

fn align() -> impl Strategy<Value = Align> {
    prop::sample::select(vec![
        Align::Left,
        Align::Center,
        Align::Right,
        Align::Justify,
    ])
}

/// Language tags of several scripts and directions (issue 31).
fn lang_tag() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "ar-SA", "he-IL", "en-US", "de-DE", "ja-JP", "zh-CN", "hi-IN",
    ])
    .prop_map(str::to_string)
}

fn direction() -> impl Strategy<Value = Direction> {
    prop::sample::select(vec![Direction::Ltr, Direction::Rtl])
}

fn style() -> impl Strategy<Value = TextStyle> {
    prop::sample::select(vec![
        TextStyle::Code,
        TextStyle::SmallCaps,
        TextStyle::Bold,
        TextStyle::Italic,
        TextStyle::Underline,
        TextStyle::Strike,
        TextStyle::Subscript,
        TextStyle::Superscript,
    ])
}

fn change() -> impl Strategy<Value = Change> {
    (
        any::<bool>(),
        option::of("[A-Z][a-z]{0,5}"),
        option::of(Just("2024-01-02T03:04:05Z".to_string())),
    )
        .prop_map(|(insert, author, date)| Change {
            kind: if insert {
                ChangeKind::Insert
            } else {
                ChangeKind::Delete
            },
            author,
            date,
        })
}

fn leaf() -> BoxedStrategy<Inline> {
    prop_oneof![
        12 => text().prop_map(Inline::text),
        2 => Just(Inline::LineBreak),
        1 => (prop_oneof![Just("b1".to_string()), name()], any::<bool>(), any::<bool>())
            .prop_map(|(target, number, text)| Inline::CrossRef { target, number, text }),
        1 => (prop::sample::select(MEDIA.to_vec()), opt_text(), opt_text())
            .prop_map(|(media, caption, alt)| Inline::Image { media: media.into(), caption, alt }),
        1 => prop::sample::select(vec!["ix0", "ix1", "x\"y"])
            .prop_map(|id| Inline::IndexMark { id: id.into() }),
        1 => (text(), text()).prop_map(|(base, reading)| Inline::Ruby { base, reading }),
        1 => (any::<bool>(), math_row()).prop_map(|(display, math)| Inline::Math { display, math }),
        1 => prop::sample::select(COMMENTS.to_vec()).prop_map(|id| Inline::CommentStart { id: id.into() }),
        1 => prop::sample::select(COMMENTS.to_vec()).prop_map(|id| Inline::CommentEnd { id: id.into() }),
    ]
    .boxed()
}

/// Characters of math leaves: letters, digits, operators, Greek, and ones XML must escape.
fn math_text() -> BoxedStrategy<String> {
    prop_oneof![
        6 => "[a-zA-Z0-9]{1,3}",
        2 => prop::sample::select(vec!["+", "=", "−", "<", "&", "(", ")", "α", "∞", ","]).prop_map(String::from),
        1 => "[a-z ]{1,6}",
    ]
    .boxed()
}

/// A formula row with fractions, scripts, radicals, big operators, delimiters, matrices,
/// accents and functions nested up to three deep.
pub fn math_row() -> BoxedStrategy<Vec<MathNode>> {
    let leaf = prop_oneof![
        3 => math_text().prop_map(|text| MathNode::Ident { text }),
        2 => "[0-9]{1,3}(\\.[0-9])?".prop_map(|text| MathNode::Number { text }),
        2 => prop::sample::select(vec!["+", "=", "<", "&", "−", "→"]).prop_map(MathNode::op),
        1 => "[a-z ]{1,8}".prop_map(|text| MathNode::Text { text }),
    ];
    let node = leaf.prop_recursive(3, 16, 3, |inner| {
        let row = vec(inner, 1..3);
        prop_oneof![
            (row.clone(), row.clone()).prop_map(|(num, den)| MathNode::Fraction { num, den }),
            (
                row.clone(),
                option::of(row.clone()),
                option::of(row.clone())
            )
                .prop_filter("a script", |(_, sub, sup)| sub.is_some() || sup.is_some())
                .prop_map(|(base, sub, sup)| MathNode::Scripts { base, sub, sup }),
            (option::of(row.clone()), row.clone())
                .prop_map(|(degree, body)| MathNode::Radical { degree, body }),
            (
                prop::sample::select(vec!["∑", "∫", "∏"]),
                option::of(row.clone()),
                option::of(row.clone()),
                row.clone()
            )
                .prop_map(|(op, sub, sup, body)| MathNode::Nary {
                    op: op.into(),
                    sub,
                    sup,
                    body
                }),
            (
                prop::sample::select(vec![("(", ")"), ("[", "]"), ("|", "|"), ("{", "")]),
                row.clone()
            )
                .prop_map(|((open, close), body)| MathNode::Delimited {
                    open: open.into(),
                    close: close.into(),
                    body
                }),
            vec(vec(row.clone(), 2), 1..3).prop_map(|rows| MathNode::Matrix { rows }),
            (
                prop::sample::select(vec!["^", "¯", "→"]),
                any::<bool>(),
                row.clone()
            )
                .prop_map(|(accent, under, body)| MathNode::Accent {
                    accent: accent.into(),
                    under: under && accent == "¯",
                    body
                }),
            (prop::sample::select(vec!["sin", "log", "lim"]), row).prop_map(|(name, body)| {
                MathNode::Function {
                    name: vec![MathNode::ident(name)],
                    body,
                }
            }),
        ]
    });
    vec(node, 1..4).boxed()
}

/// One inline node, wrappers and notes nested up to three deep (not yet normalised).
fn inline() -> BoxedStrategy<Inline> {
    leaf()
        .prop_recursive(3, 24, 4, |inner| {
            let kids = vec(inner, 0..4);
            prop_oneof![
                3 => (style(), kids.clone())
                    .prop_map(|(style, children)| Inline::Styled { style, children }),
                1 => (prop_oneof![Just("https://example.org/?a=1&b=2".to_string()), name()], kids.clone())
                    .prop_map(|(href, children)| Inline::Link { href: href.into(), children }),
                1 => (name(), kids.clone()).prop_map(|(style, children)| Inline::Span { style, children }),
                1 => (option::of(lang_tag()), option::of(direction()), kids.clone())
                    .prop_map(|(lang, dir, children)| Inline::Lang { lang, dir, children }),
                1 => (change(), kids.clone())
                    .prop_map(|(change, children)| Inline::Tracked { change, children }),
                1 => (prop::sample::select(vec![NoteKind::Footnote, NoteKind::Endnote, NoteKind::Sidenote]), kids)
                    .prop_map(|(kind, content)| Inline::Note { kind, content }),
            ]
        })
        .boxed()
}

/// Canonical inline content.
pub fn inlines() -> BoxedStrategy<Vec<Inline>> {
    vec(inline(), 0..6).prop_map(|v| normalize(&v)).boxed()
}

fn text_type() -> impl Strategy<Value = TextType> {
    prop::sample::select(TextType::ALL.to_vec())
}

/// A paragraph; an id, when wanted, is a placeholder made unique by [`document`].
pub fn paragraph() -> BoxedStrategy<Paragraph> {
    let shape = (
        text_type(),
        0u8..=5,
        prop_oneof![3 => Just(0u8), 1 => 0u8..=15],
        align(),
        option::of(name()),
        any::<bool>(),
    );
    let extra = (
        option::of(name()),
        any::<bool>(),
        option::of(1u32..50),
        option::of(name()),
        option::of(prop::sample::select(vec![
            NumberFormat::Decimal,
            NumberFormat::LowerRoman,
            NumberFormat::Bullet,
            NumberFormat::None,
        ])),
    );
    let lang_dir = (option::of(lang_tag()), option::of(direction()));
    (shape, extra, lang_dir, inlines())
        .prop_map(
            |(
                (kind, level, indent, align, style, id),
                (origin_ids, restart, start, list_id, number_format),
                (lang, dir),
                content,
            )| {
                Paragraph {
                    kind,
                    level,
                    indent,
                    align,
                    style,
                    id: id.then(|| "?".to_string()),
                    origin_ids,
                    restart,
                    start,
                    list_id,
                    number_format,
                    code: None,
                    // Paragraph-mark changes: tests/track_changes.rs.
                    mark: None,
                    lang,
                    dir,
                    content,
                }
            },
        )
        .boxed()
}

/// A code block: a plain paragraph wholly in code style, lines and indentation kept, with a
/// language (or none known).
pub fn code_paragraph() -> BoxedStrategy<Paragraph> {
    (
        prop::sample::select(vec!["", "rust", "python"]),
        vec(("[ \t]{0,4}", "[a-z(){}<&;=\" ]{1,12}"), 1..4),
    )
        .prop_map(|(language, lines)| {
            let mut code = Vec::new();
            for (k, (indent, line)) in lines.into_iter().enumerate() {
                if k > 0 {
                    code.push(Inline::LineBreak);
                }
                code.push(Inline::text(format!("{indent}{line}")));
            }
            Paragraph {
                code: Some(language.to_string()),
                ..Paragraph::new(
                    TextType::Paragraph,
                    normalize(&[Inline::styled(TextStyle::Code, code)]),
                )
            }
        })
        .boxed()
}

/// A chart's data table (every kind, with or without title, a point sometimes missing).
pub fn chart_table() -> BoxedStrategy<Table> {
    (
        prop::sample::select(vec![
            ChartKind::Bar,
            ChartKind::Column,
            ChartKind::Line,
            ChartKind::Pie,
            ChartKind::Area,
            ChartKind::Scatter,
            ChartKind::Other,
        ]),
        option::of("[A-Z][a-z&<> ]{0,8}[a-z]"),
        vec("[A-Z][a-z&<\" ]{0,6}[a-z]", 1..4),
        vec(
            ("[A-Za-z0-9&< ]{1,6}", vec(option::of(-1000i32..1000), 4)),
            0..5,
        ),
    )
        .prop_map(|(kind, title, series, rows)| {
            let n = series.len();
            let (categories, values) = rows
                .into_iter()
                .map(|(category, values)| {
                    let values = values
                        .into_iter()
                        .take(n)
                        .map(|v| {
                            v.map(|v| (f64::from(v) / 4.0).to_string())
                                .unwrap_or_default()
                        })
                        .collect();
                    (category, values)
                })
                .unzip();
            ChartData {
                kind,
                title,
                series,
                categories,
                values,
            }
            .to_table()
        })
        .boxed()
}

/// An image block.
pub fn image() -> BoxedStrategy<Image> {
    let a = (
        prop::sample::select(MEDIA.to_vec()),
        opt_text(),
        opt_text(),
        option::of(percent()),
        option::of((1u64..20_000_000, 1u64..20_000_000)),
    );
    let b = (
        align(),
        prop_oneof![3 => Just(0u8), 1 => 0u8..=15],
        any::<bool>(),
        any::<bool>(),
        option::of(name()),
        option::of(name()),
    );
    (a, b)
        .prop_map(
            |(
                (media, caption, alt, width, extent),
                (align, indent, numbered, id, style, origin_ids),
            )| Image {
                media: media.into(),
                caption,
                alt,
                width_percent: width,
                extent: extent.map(|(width, height)| Extent { width, height }),
                align,
                indent,
                numbered,
                id: id.then(|| "?".to_string()),
                style,
                origin_ids,
            },
        )
        .boxed()
}

fn cell_blocks(nested: bool) -> BoxedStrategy<Vec<Block>> {
    let para = paragraph().prop_map(Block::Paragraph);
    if nested {
        return vec(para, 0..3).boxed();
    }
    let block = prop_oneof![
        12 => para,
        1 => image().prop_map(Block::Image),
        1 => table(true).prop_map(Block::Table),
        1 => Just(Block::PageBreak),
        1 => Just(Block::Directory { kind: DirectoryKind::Content }),
    ];
    vec(block, 0..3).boxed()
}

fn cell(nested: bool) -> BoxedStrategy<Cell> {
    let look = (
        any::<bool>(),
        option::of(align()),
        option::of(prop::sample::select(vec![
            VAlign::Top,
            VAlign::Middle,
            VAlign::Bottom,
        ])),
        (
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            option::of(any::<bool>()),
            option::of(any::<bool>()),
        ),
    );
    let extra = (
        option::of(Just("9.75pt".to_string())),
        option::of(prop::sample::select(vec![
            "#ff00AA".to_string(),
            "red".to_string(),
            String::new(),
        ])),
        option::of(Just("50".to_string())),
        option::of(name()),
    );
    (look, extra, cell_blocks(nested))
        .prop_map(
            |(
                (header, align, valign, (top, right, bottom, left)),
                (font_size, background, background_intensity, col_ids),
                blocks,
            )| Cell {
                colspan: 1,
                rowspan: 1,
                header,
                align,
                valign,
                borders: Borders {
                    top,
                    right,
                    bottom,
                    left,
                },
                font_size,
                background,
                background_intensity,
                col_ids,
                blocks,
            },
        )
        .boxed()
}

/// A table whose cells fill a grid of 1–4 columns and 0–4 rows, with spans that stay inside it
/// and never overlap; `nested` tables (inside cells) hold only paragraphs.
pub fn table(nested: bool) -> BoxedStrategy<Table> {
    let grid = (
        1usize..=4,
        0usize..=4,
        any::<bool>(),
        vec(any::<u8>(), 48),
        vec(cell(nested), 16),
        vec(
            (
                any::<bool>(),
                option::of(name()),
                option::of(Just("6.3mm".to_string())),
            ),
            4,
        ),
    );
    let look = (
        opt_text(),
        any::<bool>(),
        option::of(percent()),
        align(),
        prop_oneof![3 => Just(0u8), 1 => 0u8..=15],
        option::of(prop::sample::select(vec![
            "#000000".to_string(),
            "blue".to_string(),
        ])),
        (any::<bool>(), option::of(name()), option::of(name())),
    );
    (grid, look)
        .prop_map(
            |(
                (ncols, nrows, given, seeds, pool, rows_meta),
                (
                    caption,
                    numbered,
                    width_percent,
                    align,
                    indent,
                    border_color,
                    (id, style, origin_ids),
                ),
            )| {
                let mut seeds = seeds.into_iter().cycle();
                let mut pool = pool.into_iter().cycle();
                let mut seed = move || usize::from(seeds.next().unwrap_or(0));
                // busy[c]: rows (this one included) that column c is still covered by from above.
                let mut busy = vec![0usize; ncols];
                let mut rows = Vec::new();
                for (r, (header, row_id, min_height)) in
                    rows_meta.into_iter().take(nrows).enumerate()
                {
                    let mut cells = Vec::new();
                    let mut c = 0;
                    loop {
                        while c < ncols && busy[c] > 0 {
                            c += 1;
                        }
                        // Sometimes a row ends before the grid does.
                        if c >= ncols || (!cells.is_empty() && seed() % 8 == 0) {
                            break;
                        }
                        let run = busy[c..].iter().take_while(|&&b| b == 0).count();
                        let colspan = 1 + seed() % run;
                        let rowspan = 1 + seed() % (nrows - r);
                        for b in &mut busy[c..c + colspan] {
                            *b = rowspan;
                        }
                        let mut cell = pool.next().unwrap_or_default();
                        cell.colspan = colspan as u32;
                        cell.rowspan = rowspan as u32;
                        cells.push(cell);
                        c += colspan;
                    }
                    for b in &mut busy {
                        *b = b.saturating_sub(1);
                    }
                    rows.push(Row {
                        header,
                        id: row_id,
                        min_height,
                        cells,
                    });
                }
                let widths = [10.0f32, 12.5, 20.0, 25.0, 33.5, 50.0];
                let columns = if given {
                    (0..ncols).map(|_| widths[seed() % widths.len()]).collect()
                } else {
                    Vec::new()
                };
                Table {
                    columns,
                    rows,
                    caption,
                    numbered,
                    width_percent,
                    align,
                    indent,
                    border_color,
                    id: id.then(|| "?".to_string()),
                    style,
                    origin_ids,
                    // Chart tables come from chart_table(): a chart is drawn from its data.
                    chart: None,
                    // Set by `block()`: nested tables keep the default.
                    dir: None,
                }
            },
        )
        .boxed()
}

/// Any top-level block.
pub fn block() -> BoxedStrategy<Block> {
    prop_oneof![
        10 => paragraph().prop_map(Block::Paragraph),
        2 => image().prop_map(Block::Image),
        2 => (table(false), option::of(direction())).prop_map(|(mut t, dir)| {
            t.dir = dir;
            Block::Table(t)
        }),
        1 => chart_table().prop_map(Block::Table),
        1 => code_paragraph().prop_map(Block::Paragraph),
        1 => Just(Block::PageBreak),
        1 => prop::sample::select(DirectoryKind::ALL.to_vec()).prop_map(|kind| Block::Directory { kind }),
    ]
    .boxed()
}

/// Metadata, including languages the DTD does not list and empty strings.
pub fn meta() -> BoxedStrategy<Meta> {
    let ids = (
        option::of(name()),
        option::of(Just("2.6.1.1".to_string())),
        option::of(direction()),
        any::<bool>(),
    );
    let texts = (
        opt_text(),
        opt_text(),
        opt_text(),
        opt_text(),
        opt_text(),
        opt_text(),
        opt_text(),
    );
    let presets = option::of((
        name(),
        prop::sample::select(vec!["de_DE", "en_EN", "en_US", "fr_FR"]),
        vec(any::<bool>(), 5),
        vec(prop_oneof![4 => text(), 1 => Just(String::new())], 0..3),
    ))
    .prop_map(|p| {
        p.map(|(template_id, language, flags, tags)| WordExportPresets {
            template_id,
            language: language.into(),
            toc_text: flags[0],
            toc_image: flags[1],
            toc_table: flags[2],
            caption_image: flags[3],
            caption_table: flags[4],
            tags,
        })
    });
    let rest = (
        vec(prop_oneof![4 => text(), 1 => Just(String::new())], 0..3),
        option::of(prop::sample::select(vec![
            "de_DE", "en_EN", "ru_RU", "fr_CA", "", "ar-SA", "ja-JP",
        ])),
        presets,
        vec(
            prop_oneof![Just("10%".to_string()), Just(String::new()), text()],
            0..3,
        ),
        option::of(prop::sample::select(vec!["true", "false", ""])),
        option::of(prop::sample::select(vec!["de", "en-US"])),
    );
    (ids, texts, rest)
        .prop_map(
            |(
                (id, generator, direction, hyphenate),
                (title, subtitle, description, filename, footer, supplemental, creator),
                (tags, language, word_export_presets, grid, gie, spell),
            )| Meta {
                id,
                generator,
                title,
                subtitle,
                description,
                filename,
                footer,
                // `document_with_pages` adds them over the blocks.
                pages: Default::default(),
                tags,
                supplemental,
                language: language.map(str::to_string),
                direction,
                hyphenate,
                creator,
                word_export_presets,
                grid,
                grid_indentation_enabled: gie.map(str::to_string),
                spellcheck_lang: spell.map(str::to_string),
                word: None,
            },
        )
        .boxed()
}

fn index_nodes() -> BoxedStrategy<Vec<IndexNode>> {
    let node = (text(), option::of(name()), opt_text(), opt_text()).prop_map(
        |(title, target, description, sorting_key)| IndexNode {
            id: String::new(),
            title,
            target,
            description,
            sorting_key,
            children: Vec::new(),
        },
    );
    let tree = node.prop_recursive(2, 8, 3, |inner| {
        (inner.clone(), vec(inner, 0..3)).prop_map(|(mut n, children)| {
            n.children = children;
            n
        })
    });
    vec(tree, 0..3).boxed()
}

fn comments() -> BoxedStrategy<Vec<Comment>> {
    let content = vec(
        prop_oneof![3 => text().prop_map(Inline::text), 1 => Just(Inline::LineBreak)],
        0..3,
    )
    .prop_map(|v| normalize(&v));
    (
        0usize..=2,
        vec(
            (
                option::of("[A-Z][a-z]{0,5}"),
                option::of(Just("AB".to_string())),
                option::of(Just("2024-05-06".to_string())),
                content,
            ),
            2,
        ),
    )
        .prop_map(|(n, parts)| {
            parts
                .into_iter()
                .zip(COMMENTS)
                .take(n)
                .map(|((author, initials, date, content), id)| Comment {
                    id: id.into(),
                    author,
                    initials,
                    date,
                    content,
                })
                .collect()
        })
        .boxed()
}

/// A whole valid document.
pub fn document() -> BoxedStrategy<Document> {
    (
        meta(),
        vec(block(), 0..8),
        comments(),
        index_nodes(),
        1u32..4000,
    )
        .prop_map(|(meta, blocks, comments, indexes, px)| {
            let mut doc = Document {
                meta,
                blocks,
                comments,
                indexes,
                ..Document::new()
            };
            finish(&mut doc, px);
            doc
        })
        .boxed()
}

/// A [`document`] with page sections over its blocks ([`pages`]).
pub fn document_with_pages() -> BoxedStrategy<Document> {
    (document(), pages())
        .prop_map(|(mut doc, mut pages)| {
            // The starts were drawn in 0..=8 and stay in order when cut to the blocks there
            // are; those cut to the end start past the last block, as cleanup can leave them.
            let end = doc.blocks.len();
            for section in &mut pages.sections {
                section.start = section.start.min(end);
            }
            doc.meta.pages = pages;
            doc
        })
        .boxed()
}

/// Page sections as `fuzz/fuzz_targets/tree.rs` makes them: the first at block 0, the others
/// in order (two at one block too), every header and footer variant, page-number fields.
/// Starts are in 0..=8 ([`document`] has at most 8 top-level blocks).
pub fn pages() -> BoxedStrategy<Pages> {
    let piece = prop_oneof![
        1 => Just(PagePiece::PageNumber),
        1 => Just(PagePiece::PageCount),
        1 => Just(PagePiece::SectionPageCount),
        3 => text().prop_map(PagePiece::Text),
    ];
    let page_text = vec(vec(piece, 0..4), 0..3).prop_map(|paragraphs| PageText { paragraphs });
    let slots = (
        option::of(page_text.clone()),
        option::of(page_text.clone()),
        option::of(page_text),
    )
        .prop_map(|(default, first, even)| Slots {
            default,
            first,
            even,
        });
    let section = (0usize..=8, any::<bool>(), slots.clone(), slots);
    (any::<bool>(), vec(section, 0..4))
        .prop_map(|(even_and_odd, drawn)| {
            let mut starts: Vec<usize> = drawn.iter().map(|s| s.0).collect();
            starts.sort_unstable();
            if let Some(first) = starts.first_mut() {
                *first = 0;
            }
            let sections = drawn
                .into_iter()
                .zip(starts)
                .map(|((_, title_page, header, footer), start)| PageSection {
                    start,
                    title_page,
                    header,
                    footer,
                })
                .collect();
            let pages = Pages {
                even_and_odd,
                sections,
            };
            // Sections without a header or footer anywhere are no pages at all: readers give
            // `Pages::default()` for them, and the JSON form leaves them out.
            if pages.is_empty() {
                Pages::default()
            } else {
                pages
            }
        })
        .boxed()
}

/// Makes a generated tree valid: unique ids, anchors only for comments that exist, index ids,
/// media items for exactly the referenced images.
pub fn finish(doc: &mut Document, px: u32) {
    let used = tidy::tidy(doc);
    for (i, name) in used.into_iter().enumerate() {
        doc.media
            .insert(MediaItem::new(name, tiny_png(px + i as u32, 7)));
    }
}
