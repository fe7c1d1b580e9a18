//! Hostile sd.xml that asks for far more memory than its size: marks nested deep around many
//! runs, warnings whose locations repeat long element paths, and row spans that push each other
//! into a huge table grid. Each test builds a small case of the input and checks the bound and
//! that the text is kept.

use sdconv::ast::inline::{Leaf, to_runs};
use sdconv::ast::{Block, Inline, Mark, TextStyle};
use sdconv::import::sdxml::{SdxmlImportOptions, read};
use sdconv::internal::archive::{Compression, ZipWriter};
use sdconv::{Converted, Document, Warning, WarningKind};

/// Reads `body` (the content of `<document>`) from an sd.xml zip, as an upload would come.
fn read_body(body: &str) -> sdconv::Result<Converted<Document>> {
    let xml = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><smashdoc id="x"><document>{body}</document></smashdoc>"#
    );
    let mut w = ZipWriter::new();
    w.add("sd.xml", xml.as_bytes(), Compression::Deflate)
        .unwrap();
    read(&w.finish().unwrap(), &SdxmlImportOptions::default())
}

fn paragraph_content(doc: &Document) -> &[Inline] {
    match doc.blocks.first() {
        Some(Block::Paragraph(p)) => &p.content,
        other => panic!("expected a paragraph, got {other:?}"),
    }
}

fn dropped(w: &[Warning], text: &str) -> usize {
    w.iter()
        .filter(|w| w.kind == WarningKind::Dropped && w.message.contains(text))
        .count()
}

#[test]
fn marks_nested_deep_are_bounded_per_run_and_the_text_is_kept() {
    // Repeated formatting adds nothing: bold and italic 100 times over is bold italic once, and
    // no warning.
    let n = 500;
    let runs_xml = "x<br/>".repeat(n);
    let body = format!(
        "<paragraph>{}{runs_xml}{}</paragraph>",
        "<b><i>".repeat(100),
        "</i></b>".repeat(100)
    );
    let out = read_body(&body).unwrap();
    assert_eq!(out.value.validate(), Ok(()));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let runs = to_runs(paragraph_content(&out.value));
    let bold_italic = vec![Mark::Style(TextStyle::Bold), Mark::Style(TextStyle::Italic)];
    assert!(runs.iter().all(|r| r.marks == bold_italic), "{runs:?}");
    let texts = runs
        .iter()
        .filter(|r| matches!(&r.leaf, Leaf::Text(t) if t == "x"))
        .count();
    assert_eq!(texts, n);

    // Different marks (40 character styles, each inside the one before) are cut to a bound
    // with one warning, and every piece of text is still there.
    let styles = 40;
    let open: String = (0..styles)
        .map(|k| format!(r#"<inline stylename="s{k}">"#))
        .collect();
    let body = format!(
        "<paragraph>{open}{runs_xml}{}</paragraph>",
        "</inline>".repeat(styles)
    );
    let out = read_body(&body).unwrap();
    assert_eq!(out.value.validate(), Ok(()));
    let runs = to_runs(paragraph_content(&out.value));
    let most = runs.iter().map(|r| r.marks.len()).max().unwrap_or(0);
    assert!(most >= 8, "the outer marks are kept ({most})");
    assert!(most <= 16, "{most} marks on one run");
    let texts = runs
        .iter()
        .filter(|r| matches!(&r.leaf, Leaf::Text(t) if t == "x"))
        .count();
    assert_eq!(texts, n);
    assert_eq!(
        dropped(&out.warnings, "different marks"),
        1,
        "{:?}",
        out.warnings
    );
}

#[test]
fn warning_locations_and_counts_are_bounded() {
    // 100 unknown wrappers with 1 000-byte names around 300 different unknown elements: every
    // warning's location would hold the whole 100 kB path, and each name a warning of its own.
    let depth = 100;
    let names: Vec<String> = (0..depth)
        .map(|k| format!("n{k}{}", "x".repeat(1000)))
        .collect();
    let open: String = names.iter().map(|n| format!("<{n}>")).collect();
    let close: String = names.iter().rev().map(|n| format!("</{n}>")).collect();
    let leaves: String = (0..300).map(|k| format!("<q{k}/>")).collect();
    let body = format!("{open}{leaves}<paragraph>kept text</paragraph>{close}");
    let out = read_body(&body).unwrap();
    let w = &out.warnings;
    assert!(!w.is_empty());
    for warning in w {
        let element = warning.location.element.as_deref().unwrap_or("");
        assert!(
            element.len() <= 2_000,
            "location of {} bytes",
            element.len()
        );
        assert!(
            warning.message.len() <= 1_000,
            "message of {} bytes",
            warning.message.len()
        );
    }
    // One warning per name up to a limit, then one that counts the rest.
    assert!(w.len() <= 260, "{} warnings", w.len());
    assert!(
        w.iter()
            .any(|w| w.kind == WarningKind::UnknownElement && w.message.contains("more warnings")),
        "{w:?}"
    );
    let text: String = out
        .value
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(sdconv::ast::inline::plain_text(&p.content)),
            _ => None,
        })
        .collect();
    assert_eq!(text, "kept text");
}

fn table(doc: &Document) -> &sdconv::ast::Table {
    match doc.blocks.first() {
        Some(Block::Table(t)) => t,
        other => panic!("expected a table, got {other:?}"),
    }
}

fn cell_texts(t: &sdconv::ast::Table) -> Vec<String> {
    t.rows
        .iter()
        .flat_map(|r| &r.cells)
        .flat_map(|c| &c.blocks)
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(sdconv::ast::inline::plain_text(&p.content)),
            _ => None,
        })
        .collect()
}

#[test]
fn overlapping_row_spans_cannot_make_a_huge_grid() {
    // Each one-cell row spans 1 000 rows: the spans push each row's cell one column further, a
    // 3 000 × 1 000 grid from a few bytes.
    let rows = 3_000;
    let body = format!(
        "<table>{}</table>",
        r#"<tr><td rowspan="1000"><p>a</p></td></tr>"#.repeat(rows)
    );
    let out = read_body(&body).unwrap();
    assert_eq!(out.value.validate(), Ok(()));
    let t = table(&out.value);
    assert_eq!(t.rows.len(), rows);
    let slots = t.rows.len() * t.grid_width();
    assert!(slots <= 300_000, "{slots} grid slots");
    assert_eq!(cell_texts(t), vec!["a".to_string(); rows]);
    assert_eq!(dropped(&out.warnings, "spans"), 1, "{:?}", out.warnings);

    // The same with column spans.
    let body = format!(
        "<table>{}</table>",
        r#"<tr><td colspan="1000"><p>b</p></td></tr>"#.repeat(rows)
    );
    let out = read_body(&body).unwrap();
    assert_eq!(out.value.validate(), Ok(()));
    let t = table(&out.value);
    assert!(t.rows.len() * t.grid_width() <= 300_000);
    assert_eq!(cell_texts(t), vec!["b".to_string(); rows]);
    assert_eq!(dropped(&out.warnings, "spans"), 1, "{:?}", out.warnings);

    // Rows without cells under one wide row: they go, and the spans across them shrink to
    // match, so the cells keep their places.
    let body = format!(
        "<table><tr>{}</tr>{}</table>",
        r#"<td rowspan="1000"><p>c</p></td>"#.repeat(300),
        "<tr></tr>".repeat(4_000)
    );
    let out = read_body(&body).unwrap();
    assert_eq!(out.value.validate(), Ok(()));
    let t = table(&out.value);
    assert!(t.rows.len() * t.grid_width() <= 1_100_000);
    assert_eq!(t.grid_width(), 300);
    assert_eq!(cell_texts(t), vec!["c".to_string(); 300]);
    assert_eq!(
        dropped(&out.warnings, "rows without cells were left out"),
        1,
        "{:?}",
        out.warnings
    );

    // An ordinary table keeps its spans, without a warning.
    let body = r#"<table><tr><td rowspan="2"><p>a</p></td><td colspan="2"><p>b</p></td></tr><tr><td><p>c</p></td><td><p>d</p></td></tr></table>"#;
    let out = read_body(body).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let t = table(&out.value);
    assert_eq!(t.rows[0].cells[0].rowspan, 2);
    assert_eq!(t.rows[0].cells[1].colspan, 2);
    assert_eq!(t.grid_width(), 3);
}

#[test]
fn a_ragged_grid_past_the_bound_loses_its_last_rows() {
    // No spans to cut: 1 000 cells in the first row, then rows of one cell each, which the PDF
    // and Markdown writers pad to the full 1 000 columns.
    let body = format!(
        "<table><tr>{}</tr>{}</table>",
        "<td><p>a</p></td>".repeat(1_000),
        "<tr><td><p>b</p></td></tr>".repeat(2_000)
    );
    let out = read_body(&body).unwrap();
    let t = table(&out.value);
    let slots = t.rows.len() * t.grid_width();
    assert!(slots <= (1 << 20) + 8 * 3_000, "{slots} grid slots");
    assert!(
        t.rows.len() > 1_000 && t.rows.len() < 2_001,
        "{} rows",
        t.rows.len()
    );
    assert_eq!(t.rows[0].cells.len(), 1_000);
    assert_eq!(
        dropped(&out.warnings, "rows were left out"),
        1,
        "{:?}",
        out.warnings
    );
}

/// A wide header over thousands of short rows, as a real table can be, is kept whole.
#[test]
fn a_ragged_table_of_real_size_is_kept_whole() {
    let body = format!(
        "<table><tr>{}</tr>{}</table>",
        "<th><p>h</p></th>".repeat(120),
        "<tr><td><p>a</p></td><td><p>b</p></td><td><p>c</p></td></tr>".repeat(10_000)
    );
    let out = read_body(&body).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(table(&out.value).rows.len(), 10_001);
}
