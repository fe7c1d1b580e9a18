//! What the writers repeat is bounded when a document is read (`sdconv::ast::repeats`): the
//! directories of one kind list their entries at most four times over (or 4 MiB), and the
//! cross-references that show their target's text repeat it at most four times over (or
//! 4 MiB). Past that, a directory is left out and a cross-reference becomes a link with the
//! start of its target's text, with one warning each; ordinary documents are untouched.

use sdconv::ast::{Block, DirectoryKind, Document, Inline, Paragraph, TextType};
use sdconv::{Converted, ExportOptions, Format, ImportOptions, WarningKind};

/// `doc` read back through the import pipeline (as its JSON form).
fn read(doc: &Document) -> Converted<Document> {
    sdconv::import(
        Format::Json,
        doc.to_json().as_bytes(),
        &ImportOptions::default(),
    )
    .expect("the JSON form reads")
}

fn heading(text: String, id: Option<&str>) -> Block {
    let mut p = Paragraph::new(TextType::Heading, vec![Inline::text(text)]);
    p.id = id.map(str::to_string);
    Block::Paragraph(p)
}

fn directories(doc: &Document) -> Vec<DirectoryKind> {
    doc.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Directory { kind } => Some(*kind),
            _ => None,
        })
        .collect()
}

/// 100 headings of 20,000 bytes: one table of contents lists about 2 MB, so four of them
/// (8 MB, past the 4 MiB floor) are the budget, and the six after them are left out.
#[test]
fn tables_of_contents_past_four_times_their_entries_are_left_out() {
    let mut doc = Document::new();
    for i in 0..10 {
        doc.blocks.push(Block::Directory {
            kind: DirectoryKind::Content,
        });
        doc.blocks
            .push(heading(format!("{i}").repeat(20_000), None));
    }
    for _ in 0..90 {
        doc.blocks.push(heading("h".repeat(20_000), None));
    }
    doc.blocks.push(Block::Directory {
        kind: DirectoryKind::Tables,
    });
    let c = read(&doc);
    let kept = directories(&c.value);
    assert_eq!(kept.len(), 5, "{kept:?}");
    assert_eq!(kept.last(), Some(&DirectoryKind::Tables));
    let dropped: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Dropped && w.message.contains("directories"))
        .collect();
    assert_eq!(dropped.len(), 1, "{:?}", c.warnings);
    assert!(
        dropped[0].message.starts_with("6 directories"),
        "{}",
        dropped[0].message
    );
    // Every heading is kept.
    assert_eq!(c.value.blocks.len(), 100 + 5);
    // The HTML holds four tables of contents of 2 MB, not ten.
    let html = sdconv::export(&c.value, Format::HtmlAllInOne, &ExportOptions::default())
        .expect("html")
        .value;
    assert!(
        html.len() < 6 * 2_000_000 + 2_000_000,
        "{} bytes",
        html.len()
    );
}

#[test]
fn a_document_with_its_directories_is_untouched() {
    let mut doc = Document::new();
    for kind in [
        DirectoryKind::Content,
        DirectoryKind::Content,
        DirectoryKind::Images,
        DirectoryKind::Tables,
        DirectoryKind::Weblinks,
        DirectoryKind::Indexes,
    ] {
        doc.blocks.push(Block::Directory { kind });
    }
    for i in 0..500 {
        doc.blocks
            .push(heading(format!("Chapter {i}"), Some(&format!("h{i}"))));
        let mut p = Paragraph::new(
            TextType::Paragraph,
            vec![
                Inline::text("See "),
                Inline::CrossRef {
                    target: format!("h{}", 499 - i),
                    number: true,
                    text: true,
                },
            ],
        );
        p.id = None;
        doc.blocks.push(Block::Paragraph(p));
    }
    let c = read(&doc);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.value, doc);
}

/// One heading of 100,000 bytes and 100 cross-references that show its text: 4 MiB hold 41
/// of them; the other 59 link to it with the start of its text.
#[test]
fn cross_references_past_four_times_their_targets_text_show_its_start() {
    let mut doc = Document::new();
    doc.blocks.push(heading("word ".repeat(20_000), Some("p")));
    // Half of them without a flag: a reference that shows no number shows the text.
    let refs: Vec<Inline> = (0..100)
        .flat_map(|i| {
            [
                Inline::CrossRef {
                    target: "p".into(),
                    number: false,
                    text: i % 2 == 0,
                },
                Inline::text(" "),
            ]
        })
        .collect();
    doc.blocks
        .push(Block::Paragraph(Paragraph::new(TextType::Paragraph, refs)));
    let c = read(&doc);
    let Block::Paragraph(p) = &c.value.blocks[1] else {
        panic!("{:?}", c.value.blocks[1])
    };
    let xrefs = p
        .content
        .iter()
        .filter(|i| matches!(i, Inline::CrossRef { .. }))
        .count();
    let links: Vec<_> = p
        .content
        .iter()
        .filter_map(|i| match i {
            Inline::Link { href, children } => Some((href, children)),
            _ => None,
        })
        .collect();
    assert_eq!((xrefs, links.len()), (41, 59));
    let excerpt = format!(
        "{}…",
        "word ".repeat(13).chars().take(64).collect::<String>()
    );
    for (href, children) in links {
        assert_eq!(&**href, "#p");
        assert_eq!(children, &vec![Inline::text(excerpt.clone())]);
    }
    let lossy: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Lossy && w.message.contains("cross-references"))
        .collect();
    assert_eq!(lossy.len(), 1, "{:?}", c.warnings);
    assert!(lossy[0].message.starts_with("59 "), "{}", lossy[0].message);
    let html =
        sdconv::export(&c.value, Format::HtmlAllInOne, &ExportOptions::default()).expect("html");
    assert!(html.value.len() < 5_000_000, "{} bytes", html.value.len());
    // The links find their target as the cross-references do.
    assert!(html.warnings.is_empty(), "{:?}", html.warnings);
    let page = String::from_utf8_lossy(&html.value);
    assert_eq!(
        page.matches("href=\"#p\"").count(),
        100,
        "every reference links to the heading"
    );
}

/// A link to a 20,000-byte address around 1,000 formulas is 1,001 pieces, each writing the
/// address: 4 MiB hold 209 of them; the others keep their text without the link.
#[test]
fn link_pieces_past_four_times_their_addresses_keep_only_their_text() {
    let url = format!("https://example.org/{}", "u".repeat(20_000 - 20));
    let md = format!("[a{}]({url})\n", "$x$a".repeat(1_000));
    let c = sdconv::import(Format::Markdown, md.as_bytes(), &ImportOptions::default())
        .expect("markdown");
    let mut linked = 0;
    let mut text = String::new();
    c.value.walk_inlines(&mut |i| match i {
        Inline::Link { href, .. } => {
            assert_eq!(&**href, url);
            linked += 1;
        }
        Inline::Text { text: t } => text.push_str(t),
        _ => {}
    });
    assert_eq!(linked, 209);
    assert_eq!(text, "a".repeat(1_001), "every piece's text is kept");
    let dropped: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Dropped && w.message.contains("pieces of links"))
        .collect();
    assert_eq!(dropped.len(), 1, "{:?}", c.warnings);
    assert!(
        dropped[0].message.starts_with("792 "),
        "{}",
        dropped[0].message
    );
    let html =
        sdconv::export(&c.value, Format::HtmlAllInOne, &ExportOptions::default()).expect("html");
    assert!(html.value.len() < 5_000_000, "{} bytes", html.value.len());
}

/// Forty thousand links to one address, each written in the file, are all kept: 4.4 MB of
/// addresses, past the 4 MiB floor, but each one is in the file.
#[test]
fn many_links_to_one_address_are_all_kept() {
    let url = format!("https://example.org/{}", "a".repeat(90));
    let md = format!("- [details]({url})\n").repeat(40_000);
    let c = sdconv::import(Format::Markdown, md.as_bytes(), &ImportOptions::default())
        .expect("markdown");
    let mut linked = 0;
    c.value
        .walk_inlines(&mut |i| linked += matches!(i, Inline::Link { .. }) as usize);
    assert_eq!(linked, 40_000);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

/// Directories in table cells count with the others (a tree from JSON may put them there).
#[test]
fn directories_in_table_cells_are_bounded_too() {
    use sdconv::ast::{Cell, Row, Table};
    let mut doc = Document::new();
    let cells = (0..10)
        .map(|_| Cell {
            blocks: vec![Block::Directory {
                kind: DirectoryKind::Content,
            }],
            ..Cell::default()
        })
        .collect();
    doc.blocks.push(Block::Table(Table {
        rows: vec![Row {
            cells,
            ..Row::default()
        }],
        ..Table::default()
    }));
    for _ in 0..100 {
        doc.blocks.push(heading("h".repeat(20_000), None));
    }
    let c = read(&doc);
    let Block::Table(t) = &c.value.blocks[0] else {
        panic!("{:?}", c.value.blocks[0])
    };
    let kept = t.rows[0]
        .cells
        .iter()
        .filter(|cell| matches!(cell.blocks.as_slice(), [Block::Directory { .. }]))
        .count();
    assert_eq!(kept, 4);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.starts_with("6 directories")),
        "{:?}",
        c.warnings
    );
}

/// A directory of many short entries is weighed as the writers pay for it (a line, a number,
/// dots and a page number each): 2,000 one-letter headings list 514 KB, so eight tables of
/// contents fill the 4 MiB floor.
#[test]
fn short_entries_count_what_a_writer_spends_on_each() {
    let mut doc = Document::new();
    for _ in 0..100 {
        doc.blocks.push(Block::Directory {
            kind: DirectoryKind::Content,
        });
    }
    for _ in 0..2_000 {
        doc.blocks.push(heading("h".into(), None));
    }
    assert_eq!(directories(&read(&doc).value).len(), 8);
}

/// A heading's entry shows a picture's alternative text too: 2 MB of it count.
#[test]
fn a_heading_entry_counts_its_pictures_alternative_text() {
    let mut doc = Document::new();
    for _ in 0..100 {
        doc.blocks.push(Block::Directory {
            kind: DirectoryKind::Content,
        });
    }
    let p = Paragraph::new(
        TextType::Heading,
        vec![
            Inline::text("H"),
            Inline::Image {
                media: "a.png".into(),
                caption: None,
                alt: Some("a".repeat(2_000_000)),
            },
        ],
    );
    doc.blocks.push(Block::Paragraph(p));
    let kept = directories(&read(&doc).value).len();
    assert_eq!(kept, 4, "four times one list of 2 MB");
}

/// A heading's entry shows the text of a reference in it: one to a paragraph of 1 MB makes
/// each table of contents list 1 MB, so four of them are the budget, not thousands.
#[test]
fn a_heading_entry_counts_the_text_its_references_show() {
    let mut doc = Document::new();
    let mut big = Paragraph::new(TextType::Paragraph, vec![Inline::text("w".repeat(1 << 20))]);
    big.id = Some("big".into());
    doc.blocks.push(Block::Paragraph(big));
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Heading,
        vec![
            Inline::text("H "),
            Inline::CrossRef {
                target: "big".into(),
                number: false,
                text: true,
            },
        ],
    )));
    for _ in 0..300 {
        doc.blocks.push(Block::Directory {
            kind: DirectoryKind::Content,
        });
    }
    let c = read(&doc);
    assert_eq!(directories(&c.value).len(), 4);
    let html =
        sdconv::export(&c.value, Format::HtmlAllInOne, &ExportOptions::default()).expect("html");
    assert!(html.value.len() < 8 << 20, "{} bytes", html.value.len());
}
