//! Markdown settles after one trip: writing a tree, reading the text back and writing that tree
//! again gives the same text. What Markdown cannot hold is lost on the first write (with a
//! warning), never a little more on each trip. Each case here is a tree the `roundtrip` and
//! `write_markdown` fuzz targets found that did not settle, reduced to its core.

use sdconv::ast::inline::normalize;
use sdconv::ast::*;
use sdconv::export::markdown::{MarkdownOptions, write};
use sdconv::import::markdown::{MarkdownImportOptions, read};
use sdconv::{Converted, WarningKind};

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn styled(style: TextStyle, children: Vec<Inline>) -> Inline {
    Inline::styled(style, children)
}

fn note(content: Vec<Inline>) -> Inline {
    Inline::Note {
        kind: NoteKind::Footnote,
        content,
    }
}

fn doc(blocks: Vec<Block>) -> Document {
    Document {
        blocks,
        ..Document::new()
    }
}

fn para(content: Vec<Inline>) -> Block {
    Block::Paragraph(Paragraph::new(TextType::Paragraph, normalize(&content)))
}

/// A one-row table whose cells hold one paragraph each.
fn table(cells: Vec<Vec<Inline>>) -> Block {
    Block::Table(Table {
        rows: vec![Row {
            cells: cells
                .into_iter()
                .map(|content| Cell {
                    blocks: vec![para(content)],
                    ..Cell::default()
                })
                .collect(),
            ..Row::default()
        }],
        ..Table::default()
    })
}

/// Writes `doc`, reads the text back, writes again: returns the first write (with its warnings)
/// after checking that the second gives the same text.
fn assert_settles(doc: &Document) -> Converted<String> {
    let first = write(doc, &MarkdownOptions::default()).map(|o| o.text);
    let back = read(
        first.value.as_bytes(),
        &MarkdownImportOptions::default(),
        &mut |_| None,
    )
    .expect("the reader takes the writer's text");
    let second = write(&back.value, &MarkdownOptions::default()).value.text;
    assert_eq!(
        first.value, second,
        "the text changed on the second trip (left: first write, right: second)"
    );
    first
}

#[test]
fn a_footnote_starting_with_an_empty_paragraph_starts_on_the_marker_line() {
    let out = assert_settles(&doc(vec![para(vec![
        t("a"),
        note(vec![Inline::LineBreak, t("x"), Inline::LineBreak, t("y")]),
    ])]));
    assert_eq!(out.value, "a[^1]\n\n[^1]: x\n\n    y\n");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Lossy && w.message.contains("empty paragraphs")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn a_footnote_of_only_breaks_is_an_empty_definition() {
    let out = assert_settles(&doc(vec![para(vec![
        t("a"),
        note(vec![Inline::LineBreak, Inline::LineBreak]),
    ])]));
    assert_eq!(out.value, "a[^1]\n\n[^1]:\n");
}

#[test]
fn an_empty_footnote_is_written_without_a_warning() {
    let out = assert_settles(&doc(vec![para(vec![t("a"), note(Vec::new())])]));
    assert_eq!(out.value, "a[^1]\n\n[^1]:\n");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn image_alt_text_is_written_without_edge_spaces() {
    let mut d = doc(vec![Block::Image(Image {
        media: "a.png".into(),
        alt: Some(" aaaa\t".into()),
        ..Image::default()
    })]);
    d.media.add("a.png", b"\x89PNG\r\n\x1a\n".to_vec());
    assert_eq!(assert_settles(&d).value, "![aaaa](images/a.png)\n");
}

#[test]
fn a_heading_whose_only_break_is_at_its_end_is_an_atx_heading() {
    let heading = Block::Paragraph(Paragraph::new(
        TextType::Heading,
        vec![t("1 "), Inline::LineBreak],
    ));
    let out = assert_settles(&doc(vec![heading]));
    assert_eq!(out.value, "# 1&#32;&#32;\n");
}

#[test]
fn a_heading_with_an_inner_break_is_a_setext_heading() {
    let heading = Block::Paragraph(Paragraph::new(
        TextType::Heading,
        vec![t("a"), Inline::LineBreak, t("b")],
    ));
    assert_eq!(assert_settles(&doc(vec![heading])).value, "a\\\nb\n===\n");
}
