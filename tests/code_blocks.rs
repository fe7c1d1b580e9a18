//! Code blocks (issue 14 item 13): a paragraph that is wholly code keeps its exact whitespace
//! and its language through every reader and writer.

mod docx_support;

use docx_support::*;
use sdconv::ast::inline::plain_text;
use sdconv::ast::{Block, Document, Paragraph};
use sdconv::{ExportOptions, Format, ImportOptions};

const SOURCE: &str = "fn main() {\n    let x = 1;\n\tprintln!(\"{x}  <ok>\");\n}";

fn code_blocks(doc: &Document) -> Vec<&Paragraph> {
    doc.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) if p.code.is_some() => Some(p),
            _ => None,
        })
        .collect()
}

fn from_markdown() -> Document {
    let md = format!("Before.\n\n```rust\n{SOURCE}\n```\n\n    indented  code\n");
    let c = sdconv::import(Format::Markdown, md.as_bytes(), &ImportOptions::default()).unwrap();
    assert!(
        c.warnings.is_empty(),
        "no warning about the language: {:?}",
        c.warnings
    );
    let doc = c.value;
    doc.validate().unwrap();
    doc
}

fn export(doc: &Document, format: Format) -> Vec<u8> {
    sdconv::export(doc, format, &ExportOptions::default())
        .unwrap()
        .value
}

#[test]
fn markdown_code_blocks_keep_language_and_whitespace() {
    let doc = from_markdown();
    let blocks = code_blocks(&doc);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].code.as_deref(), Some("rust"));
    assert_eq!(plain_text(&blocks[0].content), SOURCE);
    assert_eq!(blocks[1].code.as_deref(), Some(""));
    assert_eq!(plain_text(&blocks[1].content), "indented  code");
}

#[test]
fn html_writes_pre_code_with_the_language() {
    let doc = from_markdown();
    let html = String::from_utf8(export(&doc, Format::HtmlAllInOne)).unwrap();
    let want = "<pre class=\"code\" tabindex=\"0\"><code class=\"language-rust\">fn main() {\n    let x = 1;\n\tprintln!(\"{x}  &lt;ok&gt;\");\n}</code></pre>";
    assert!(html.contains(want), "{html}");
    assert!(
        html.contains("<pre class=\"code\" tabindex=\"0\"><code>indented  code</code></pre>"),
        "{html}"
    );
}

#[test]
fn markdown_writes_a_fence_with_the_language() {
    let doc = from_markdown();
    let md = String::from_utf8(export(&doc, Format::Markdown)).unwrap();
    assert!(md.contains(&format!("```rust\n{SOURCE}\n```")), "{md}");
    // And reads back to the same tree.
    let back = sdconv::import(Format::Markdown, md.as_bytes(), &ImportOptions::default())
        .unwrap()
        .value;
    assert_eq!(back.blocks, doc.blocks);
}

#[test]
fn word_and_sdxml_round_trip_code_blocks() {
    let doc = from_markdown();
    for format in [Format::Word, Format::Sdxml] {
        let bytes = export(&doc, format);
        let back = sdconv::import(format, &bytes, &ImportOptions::default())
            .unwrap()
            .value;
        assert_eq!(back.blocks, doc.blocks, "{format:?}");
    }
    // Word: the monospace paragraph style, spaces preserved, the language in a tagged control.
    let docx = export(&doc, Format::Word);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(docx)).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name("word/document.xml").unwrap(), &mut xml).unwrap();
    assert!(
        xml.contains(r#"<w:pStyle w:val="HTMLPreformatted"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<w:tag w:val="sdconv:code-language=rust"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"xml:space="preserve">    let x = 1;"#),
        "{xml}"
    );
}

#[test]
fn parsx_keeps_the_lines() {
    let doc = from_markdown();
    let bytes = export(&doc, Format::Parsx);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut xml = String::new();
    std::io::Read::read_to_string(&mut z.by_name("parsx.xml").unwrap(), &mut xml).unwrap();
    assert!(xml.contains("    let x = 1;"), "{xml}");
}

#[test]
fn word_code_styles_are_code_blocks() {
    let styles = [
        NORMAL.to_string(),
        pstyle(
            "SourceCode",
            "Source Code",
            r#"<w:basedOn w:val="Normal"/>"#,
        ),
        pstyle("HTMLPreformatted", "HTML Preformatted", ""),
        pstyle("PlainText", "Plain Text", ""),
    ]
    .concat();
    let body = [
        ps("SourceCode", "  indented()"),
        ps("HTMLPreformatted", "a  b"),
        ps("PlainText", "plain"),
        p("prose"),
    ]
    .concat();
    let c = docx(&body).styles(&styles).read();
    valid(&c);
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
    let blocks = code_blocks(&c.value);
    let texts: Vec<String> = blocks.iter().map(|p| plain_text(&p.content)).collect();
    assert_eq!(texts, ["  indented()", "a  b", "plain"]);
    assert!(blocks.iter().all(|p| p.code.as_deref() == Some("")));
    let html = String::from_utf8(export(&c.value, Format::HtmlAllInOne)).unwrap();
    assert!(
        html.contains("<pre class=\"code\" tabindex=\"0\"><code>  indented()</code></pre>"),
        "{html}"
    );
}

#[test]
fn a_hand_edited_code_language_in_sdxml_is_dropped_not_trusted() {
    use std::io::Read;
    let doc = from_markdown();
    let bytes = export(&doc, Format::Sdxml);
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut xml = String::new();
    z.by_name("sd.xml")
        .unwrap()
        .read_to_string(&mut xml)
        .unwrap();
    assert!(xml.contains(r#""code":"rust""#), "{xml}");
    let edited = xml.replace(r#""code":"rust""#, r#""code":"rust; drop""#);
    let mut w = sdconv::internal::archive::ZipWriter::new();
    w.add(
        "sd.xml",
        edited.as_bytes(),
        sdconv::internal::archive::Compression::Deflate,
    )
    .unwrap();
    let c = sdconv::import(
        Format::Sdxml,
        &w.finish().unwrap(),
        &ImportOptions::default(),
    )
    .unwrap();
    c.value.validate().unwrap();
    assert_eq!(
        code_blocks(&c.value).len(),
        1,
        "only the indented block is left"
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("read as an ordinary paragraph")),
        "{:?}",
        c.warnings
    );
}
