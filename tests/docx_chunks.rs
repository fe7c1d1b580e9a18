//! Embedded chunks (`w:altChunk`), as mail merges and document assembly tools write them:
//! an HTML page, plain text and a whole Word document become blocks where the chunk stood;
//! what a chunk holds that the tree cannot, and chunks of other types, are warned.

mod docx_support;

use docx_support::{docx, p, ps, valid};
use sdconv::ast::inline::plain_text;
use sdconv::ast::{Block, Inline, MediaKind, TextType};

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn chunk(id: &str) -> String {
    format!(r#"<w:altChunk r:id="{id}"/>"#)
}

fn html() -> String {
    format!(
        r#"<!DOCTYPE html><html><head><style>p {{ color: red }}</style></head><body>
<h1>Merged letter</h1><p>Dear <b>Ms Smith</b>, see <a href="https://example.org/terms">the terms</a>.</p>
<ul><li>First point<ul><li>Detail</li></ul></li><li>Second point</li></ul>
<table><tr><th>Item</th><th>Price</th></tr><tr><td colspan="2">Included <img alt="logo" src="data:image/png;base64,{PNG}"></td></tr></table>
<form><input name="q"></form></body></html>"#
    )
}

fn inner_word() -> Vec<u8> {
    docx(&[p("Inner one"), p("Inner two")].concat()).build()
}

fn texts(blocks: &[Block]) -> Vec<String> {
    blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => plain_text(&p.content),
            Block::Table(_) => "<table>".to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn html_text_and_word_chunks_become_blocks_in_place() {
    let body = [
        p("Before"),
        chunk("rIdC1"),
        p("Between"),
        chunk("rIdC2"),
        chunk("rIdC3"),
        ps("Normal", "After"),
    ]
    .concat();
    let c = docx(&body)
        .rel("rIdC1", "aFChunk", "chunk1.html", false)
        .rel("rIdC2", "aFChunk", "chunk2.txt", false)
        .rel("rIdC3", "aFChunk", "inner.docx", false)
        .part("word/chunk1.html", html().as_bytes())
        .part("word/chunk2.txt", b"Line one\r\n\r\nLine two\n")
        .part("word/inner.docx", &inner_word())
        .read();
    valid(&c);
    let doc = &c.value;
    assert_eq!(
        texts(&doc.blocks),
        [
            "Before",
            "Merged letter",
            "Dear Ms Smith, see the terms.",
            "First point",
            "Detail",
            "Second point",
            "<table>",
            "Between",
            "Line one",
            "Line two",
            "Inner one",
            "Inner two",
            "After",
        ]
    );
    let kinds: Vec<(TextType, u8)> = doc.blocks[1..6]
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => (p.kind, p.level),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            (TextType::Heading, 0),
            (TextType::Paragraph, 0),
            (TextType::ListUl, 0),
            (TextType::ListUl, 1),
            (TextType::ListUl, 0),
        ]
    );
    // The link and the emphasis, the table's header row and span, the picture.
    let Block::Paragraph(dear) = &doc.blocks[2] else {
        panic!()
    };
    assert!(
        dear.content.iter().any(
            |i| matches!(i, Inline::Link { href, .. } if &**href == "https://example.org/terms")
        )
    );
    let Block::Table(t) = &doc.blocks[6] else {
        panic!()
    };
    assert!(t.rows[0].header);
    assert_eq!(t.rows[1].cells[0].colspan, 2);
    let pictures: Vec<&sdconv::ast::MediaItem> = doc.media.iter().collect();
    assert_eq!(pictures.len(), 1, "{pictures:?}");
    assert_eq!(pictures[0].kind, MediaKind::Png);
    assert!(doc.referenced_media().contains(&pictures[0].name));
    // One warning: the form the tree cannot hold.
    let warned: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("input"), "{warned:?}");
}

#[test]
fn other_chunk_types_and_broken_ones_are_warned() {
    let body = [p("Text"), chunk("rIdR"), chunk("rIdW"), chunk("rIdX")].concat();
    let c = docx(&body)
        .rel("rIdR", "aFChunk", "letter.rtf", false)
        .rel("rIdW", "aFChunk", "broken.docx", false)
        .part("word/letter.rtf", br"{\rtf1 Hello}")
        .part("word/broken.docx", b"not a zip")
        .read();
    valid(&c);
    assert_eq!(texts(&c.value.blocks), ["Text"]);
    let warned: Vec<&str> = c.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(warned.len(), 3, "{warned:?}");
    assert!(warned.iter().any(|w| w.contains("type .rtf")), "{warned:?}");
    assert!(
        warned
            .iter()
            .any(|w| w.contains("broken.docx") && w.contains("cannot be read"))
    );
    assert!(
        warned
            .iter()
            .any(|w| w.contains("rIdX") && w.contains("names no part"))
    );
}

#[test]
fn word_chunks_nested_past_the_limit_stop() {
    // A chunk holding a chunk holding … each a Word document with one paragraph.
    let mut inner = docx(&p("Deepest")).build();
    for depth in (0..5).rev() {
        inner = docx(&[p(&format!("Level {depth}")), chunk("rIdN")].concat())
            .rel("rIdN", "aFChunk", "nested.docx", false)
            .part("word/nested.docx", &inner)
            .build();
    }
    let c = docx(&chunk("rIdN"))
        .rel("rIdN", "aFChunk", "nested.docx", false)
        .part("word/nested.docx", &inner)
        .read();
    valid(&c);
    let shown = texts(&c.value.blocks);
    assert_eq!(shown, ["Level 0", "Level 1", "Level 2"]);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("nested more than 3 deep")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn nested_word_chunks_share_what_the_document_may_inflate() {
    // Two Word chunks, each inflating to about 60 KB of text.
    let words = "lorem ipsum dolor sit amet ".repeat(2_300);
    let inner = docx(&p(&words)).build();
    let body = [chunk("rIdA"), chunk("rIdB")].concat();
    let outer = docx(&body)
        .rel("rIdA", "aFChunk", "a.docx", false)
        .rel("rIdB", "aFChunk", "b.docx", false)
        .part("word/a.docx", &inner)
        .part("word/b.docx", &inner)
        .build();
    let read = |total: u64| {
        let mut options = sdconv::ImportOptions::default();
        options.limits = sdconv::Limits::default().with_max_total_size(total);
        sdconv::import(sdconv::Format::Word, &outer, &options)
    };
    // 100 KB in all: each chunk may inflate half of what is left, less than it needs.
    let refused = read(100_000).map(|c| c.value.blocks.len());
    assert!(
        matches!(refused, Err(sdconv::Error::TooLarge { .. })),
        "{refused:?}"
    );
    // 400 KB: both fit.
    let c = read(400_000).unwrap();
    assert_eq!(texts(&c.value.blocks).len(), 2);
}
