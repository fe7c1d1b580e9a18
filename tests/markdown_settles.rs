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
    assert_eq!(out.value, "# 1\n");
}

#[test]
fn a_heading_with_an_inner_break_is_a_setext_heading() {
    let heading = Block::Paragraph(Paragraph::new(
        TextType::Heading,
        vec![t("a"), Inline::LineBreak, t("b")],
    ));
    assert_eq!(assert_settles(&doc(vec![heading])).value, "a\\\nb\n===\n");
}

#[test]
fn a_footnote_reference_stays_apart_from_a_link_after_it() {
    let link = Inline::Link {
        href: "x\"&<y>".into(),
        children: vec![t("a")],
    };
    let out = assert_settles(&doc(vec![para(vec![note(Vec::new()), link])]));
    assert_eq!(out.value, "[^1] [a](<x\"&\\<y\\>>)\n\n[^1]:\n");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Lossy && w.message.contains("footnote reference")),
        "{:?}",
        out.warnings
    );
    // Text after a reference that would make it a link or a definition is escaped instead.
    for (after, written) in [("(b)", "[^1]\\(b)"), (": b", "[^1]\\: b")] {
        let out = assert_settles(&doc(vec![para(vec![note(vec![t("n")]), t(after)])]));
        assert_eq!(out.value, format!("{written}\n\n[^1]: n\n"));
    }
}

#[test]
fn white_space_a_parser_strips_at_line_edges_is_left_out() {
    let heading = Block::Paragraph(Paragraph::new(TextType::Heading, vec![t("\u{b};a\u{c}")]));
    let item = Block::Paragraph(Paragraph::new(TextType::ListOl, vec![t("\u{b}")]));
    let out = assert_settles(&doc(vec![heading, item]));
    assert_eq!(out.value, "# ;a\n\n1.\n");
}

#[test]
fn a_break_inside_formatting_in_a_footnote_separates_its_paragraphs() {
    let content = vec![
        t("a"),
        Inline::Span {
            style: "s".into(),
            children: vec![t("b"), Inline::LineBreak, t("c")],
        },
    ];
    let out = assert_settles(&doc(vec![para(vec![t("x"), note(content)])]));
    assert_eq!(out.value, "x[^1]\n\n[^1]: ab\n\n    c\n");
}

#[test]
fn emphasis_around_code_goes_on_into_the_same_emphasis_after_it() {
    // Code nests outside bold in the tree (`Code{Bold{a}}`, then `Bold{b}`): written as two bold
    // spans, the delimiters met as `****`, which reads as literal asterisks.
    let content = vec![
        styled_code_bold("a"),
        Inline::styled(TextStyle::Bold, vec![t(" b")]),
    ];
    for block in [para(content.clone()), cell_table(content)] {
        let out = assert_settles(&doc(vec![block]));
        assert!(out.value.contains("**`a` b**"), "{}", out.value);
    }
}

fn styled_code_bold(text: &str) -> Inline {
    Inline::styled(
        TextStyle::Code,
        vec![Inline::styled(TextStyle::Bold, vec![t(text)])],
    )
}

/// A one-cell table holding `content`.
fn cell_table(content: Vec<Inline>) -> Block {
    Block::Table(Table {
        rows: vec![Row {
            cells: vec![Cell {
                blocks: vec![para(content)],
                ..Cell::default()
            }],
            ..Row::default()
        }],
        ..Table::default()
    })
}

#[test]
fn emphasis_closing_before_a_format_character_stays_emphasis() {
    // U+FEFF is neither letter nor punctuation to Rust's char tests, and not punctuation to the
    // parser: the closing `**` after code needs the character written as a reference.
    let content = vec![
        styled_code_bold("m"),
        t("\u{feff}x"),
        Inline::styled(TextStyle::Code, vec![t("\r")]),
    ];
    let out = assert_settles(&doc(vec![para(content)]));
    assert_eq!(out.value, "**`m`**&#65279;x` `\n");
}

#[test]
fn a_line_end_in_code_in_a_heading_is_a_space() {
    let heading = Block::Paragraph(Paragraph::new(
        TextType::Heading,
        vec![Inline::styled(TextStyle::Code, vec![t("a\nb")])],
    ));
    let out = assert_settles(&doc(vec![heading]));
    assert_eq!(out.value, "# `a b`\n");
}

#[test]
fn a_mark_going_on_past_a_break_into_new_emphasis_closes_before_the_break() {
    // `Strike{"<", break}` then `Bold{Strike{"A"}}`: the strike goes on past the break, but bold
    // opens there, so the strike must close and reopen inside it; a `~~` at the start of a line
    // can only open, so it has to close before the break instead.
    let content = vec![
        Inline::styled(TextStyle::Strike, vec![t("<"), Inline::LineBreak]),
        Inline::styled(
            TextStyle::Bold,
            vec![Inline::styled(TextStyle::Strike, vec![t("A")])],
        ),
    ];
    let out = assert_settles(&doc(vec![para(content)]));
    assert!(!out.value.contains("\n~~"), "{}", out.value);
}

#[test]
fn emphasis_running_across_a_break_stays_one_span() {
    let content = vec![Inline::styled(
        TextStyle::Italic,
        vec![t("a"), Inline::LineBreak, t("b")],
    )];
    let out = assert_settles(&doc(vec![para(content)]));
    assert_eq!(out.value.matches('*').count(), 2, "{}", out.value);
}

#[test]
fn a_break_ending_a_link_goes_after_it() {
    let link = Inline::Link {
        href: "https://example.org/".into(),
        children: vec![t("a"), Inline::LineBreak],
    };
    let out = assert_settles(&doc(vec![para(vec![link, t("b")])]));
    assert!(
        out.value.starts_with("[a](https://example.org/)"),
        "{}",
        out.value
    );
}
