//! HTML export, what assistive technology relies on: one banner, a level-one heading, heading
//! ranks without gaps, named keyboard-reachable table regions, header cells with a scope, links
//! with something to read. The browser proves the same with axe-core (`tests/browser/axe.mjs`,
//! run by `.ci/html-checks.sh`); these pin the markup that gets it there.

mod html_fixtures;

use html_fixtures::*;
use sdconv::Document;
use sdconv::ast::{Block, Cell, DirectoryKind, Inline, Row, Table, TextType};
use sdconv::export::html::{HtmlOptions, write_all_in_one};

fn page(doc: &Document) -> String {
    write_all_in_one(doc, &HtmlOptions::default()).value
}

/// Byte offset of `needle` in `html`, failing with the page when it is missing.
fn at(html: &str, needle: &str) -> usize {
    html.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} missing in\n{html}"))
}

#[test]
fn the_page_header_is_the_one_banner_and_the_title_the_h1_inside_main() {
    // The metafiles fixture has a Word page header and a title.
    let html = page(&metafiles());
    let main = at(&html, "<main>");
    assert_eq!(html.matches("<header").count(), 2, "{html}");
    assert!(at(&html, "<header class=\"page-header\">") < main);
    let title = at(
        &html,
        "<header class=\"doc-header\">\n<h1 class=\"doc-title\">Metafiles</h1>",
    );
    assert!(main < title && title < at(&html, "</main>"));
    assert!(!html.contains("visually-hidden\">"), "{html}");
}

#[test]
fn a_page_without_title_or_heading_is_named_by_a_hidden_h1() {
    let mut doc = Document::new();
    doc.meta.filename = Some("letter.docx".into());
    doc.blocks = vec![
        text("Dear reader,"),
        Block::Directory {
            kind: DirectoryKind::Tables,
        },
        text("Yours."),
    ];
    let html = page(&doc);
    let h1 = at(
        &html,
        "<main>\n<h1 class=\"visually-hidden\">letter.docx</h1>\n",
    );
    // The directory is spliced in where its block was, after the inserted heading.
    let nav = at(&html, "<nav class=\"lot\"");
    assert!(h1 < at(&html, "<p>Dear reader,</p>"));
    assert!(at(&html, "<p>Dear reader,</p>") < nav && nav < at(&html, "<p>Yours.</p>"));
    assert_eq!(html.matches("<h1").count(), 1);

    // A heading of any level is the page's first heading, so no hidden one is added.
    doc.blocks
        .insert(0, p(TextType::Heading, 2, vec![t("Re: your letter")]));
    let html = page(&doc);
    assert!(
        html.contains("<h1 id=\"sd-h-1\">Re: your letter</h1>"),
        "{html}"
    );
    assert!(!html.contains("visually-hidden\">"), "{html}");

    // In a language whose tag is longer than the generated words' (`en-US` after `en`), the
    // `<html lang>` rewrite moves `main`, and the hidden heading with it.
    doc.blocks.remove(0);
    doc.meta.language = Some("en-US".into());
    let html = page(&doc);
    assert!(html.contains("<html lang=\"en-US\""), "{html}");
    at(
        &html,
        "<main>\n<h1 class=\"visually-hidden\">letter.docx</h1>\n",
    );
}

#[test]
fn headings_rank_by_the_outline_and_list_titles_fit_in() {
    let doc = doc(
        "Ranks",
        vec![
            p(TextType::Heading, 0, vec![t("Chapter")]),
            p(TextType::Heading, 3, vec![t("Deep")]),
            Block::Directory {
                kind: DirectoryKind::Content,
            },
            p(TextType::Heading, 4, vec![t("Deeper")]),
            p(TextType::Heading, 1, vec![t("Section")]),
        ],
    );
    let html = page(&doc);
    for expected in [
        "<h1 id=\"sd-h-1\">Chapter</h1>",
        "<h2 id=\"sd-h-2\">Deep</h2>",
        // The contents list sits under "Deep": its title ranks below it.
        "<h3 class=\"toc-title\" id=\"sd-dir-1\">Contents</h3>",
        "<h3 id=\"sd-h-3\">Deeper</h3>",
        "<h2 id=\"sd-h-4\">Section</h2>",
    ] {
        assert!(html.contains(expected), "{expected}\n{html}");
    }
}

#[test]
fn tables_scroll_in_named_focusable_regions_with_scoped_headers() {
    let mut corner = row(vec![tcell(" "), tcell("Q1")]);
    corner.header = true;
    let uncaptioned = Block::Table(Table {
        rows: vec![corner, row(vec![tcell("Sales"), tcell("3")])],
        ..Table::default()
    });
    let mut doc = table();
    doc.blocks.push(uncaptioned);
    let html = page(&doc);
    for expected in [
        "<div class=\"table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"Table 1: Measurements\">",
        // No caption: named by its place among the page's tables.
        "<div class=\"table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"Table 2\">",
        "<th scope=\"col\"><p>Name</p></th>",
        "<th scope=\"row\" rowspan=\"2\"><p>Alpha</p></th>",
        // An empty corner cell heads nothing.
        "<tr><td><p> </p></td><th scope=\"col\"><p>Q1</p></th></tr>",
    ] {
        assert!(html.contains(expected), "{expected}\n{html}");
    }
    assert!(!html.contains("<th><"), "{html}");
}

#[test]
fn a_header_cell_holding_a_table_is_not_empty() {
    let inner = Block::Table(Table {
        rows: vec![row(vec![tcell("x")])],
        ..Table::default()
    });
    let mut head = row(vec![Cell {
        blocks: vec![inner],
        ..Cell::default()
    }]);
    head.header = true;
    let doc = doc(
        "Nested",
        vec![Block::Table(Table {
            rows: vec![head, Row::default()],
            ..Table::default()
        })],
    );
    assert!(page(&doc).contains("<th scope=\"col\"><div class=\"table-wrap\""));
}

#[test]
fn links_without_anything_to_read_are_not_links() {
    let unnamed_picture = Inline::Image {
        media: "missing.png".into(),
        caption: None,
        alt: None,
    };
    let doc = doc(
        "Links",
        vec![Block::Paragraph(para(
            TextType::Paragraph,
            0,
            vec![
                t("a"),
                link("https://example.org/empty", vec![Inline::LineBreak, t(" ")]),
                link("https://example.org/logo", vec![unnamed_picture]),
            ],
        ))],
    );
    let out = write_all_in_one(&doc, &HtmlOptions::default());
    let html = &out.value;
    assert!(
        !html.contains("href=\"https://example.org/empty\""),
        "{html}"
    );
    assert!(html.contains("a<br> "), "{html}");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message.contains("without text")),
        "{:?}",
        out.warnings
    );
    assert!(
        html.contains(
            "<a href=\"https://example.org/logo\" aria-label=\"https://example.org/logo\">"
        ),
        "{html}"
    );
}

#[test]
fn comments_are_a_landmark_beside_main_and_sidenotes_are_notes() {
    let html = page(&comments());
    let aside = at(&html, "<aside class=\"comments\"");
    assert!(at(&html, "</main>") < aside, "{html}");
    let html = page(&notes());
    assert!(html.contains("<aside class=\"sidenote\" id=\"sd-sn-1\" role=\"note\">"));
}
