//! The package layer: finding the main part, namespaces, encodings, and refusing what is not a
//! Word document with an error that says what it is.

mod docx_support;

use docx_support::*;
use sdconv::Error;
use sdconv::ast::{Block, inline::plain_text};
use sdconv::import::docx::{DocxImportOptions, read};

fn texts(c: &sdconv::Converted<sdconv::Document>) -> Vec<String> {
    c.value
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(plain_text(&p.content)),
            _ => None,
        })
        .collect()
}

fn found(bytes: &[u8]) -> String {
    match read(bytes, &DocxImportOptions::default()) {
        Err(Error::WrongFormat { expected, found }) => {
            assert_eq!(expected, "docx");
            found
        }
        other => panic!("expected WrongFormat, got {other:?}"),
    }
}

#[test]
fn main_part_is_found_through_the_relationships() {
    let c = docx(&p("second")).main_part("word/document2.xml").read();
    assert_eq!(texts(&c), ["second"]);
    // Without _rels/.rels the content type override names it.
    let c = docx(&p("by type"))
        .main_part("word/main.xml")
        .without_package_rels()
        .read();
    assert_eq!(texts(&c), ["by type"]);
}

#[test]
fn strict_namespaces_any_prefix_and_a_bom() {
    let strict = r#"<?xml version="1.0" encoding="UTF-8"?><x:document xmlns:x="http://purl.oclc.org/ooxml/wordprocessingml/main" x:conformance="strict"><x:body><x:p><x:r><x:rPr><x:b x:val="on"/></x:rPr><x:t>Strict</x:t></x:r></x:p><x:sectPr><x:pgSz x:w="595.30pt" x:h="841.90pt"/></x:sectPr></x:body></x:document>"#;
    let c = docx("").raw_document(strict).read();
    valid(&c);
    assert_eq!(texts(&c), ["Strict"]);
    let bom = format!(
        "\u{FEFF}<?xml version=\"1.0\"?><w:document {NS}><w:body>{}</w:body></w:document>",
        p("bom")
    );
    let c = docx("").raw_document(&bom).read();
    assert_eq!(texts(&c), ["bom"]);
}

#[test]
fn docm_reads_like_docx() {
    let c = docx(&p("macro"))
        .main_type("application/vnd.ms-word.document.macroEnabled.main+xml")
        .read();
    assert_eq!(texts(&c), ["macro"]);
}

#[test]
fn foreign_inputs_are_named() {
    assert_eq!(found(b"%PDF-1.4\n%..."), "a PDF");
    let ole = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0, 0, 0];
    assert_eq!(
        found(&ole),
        "an OLE compound file (.doc or encrypted .docx)"
    );
    assert_eq!(found(b""), "an empty file");
    assert_eq!(
        found(&[0x13, 0x37, 0xC0, 0xDE, 0xFF, 0x00, 0x80]),
        "unrecognised binary data"
    );
    let xlsx = docx("")
        .main_type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml")
        .build();
    assert_eq!(found(&xlsx), "an Excel workbook (.xlsx)");
    let mut z = sdconv::internal::archive::ZipWriter::new();
    z.add(
        "hello.txt",
        b"hi",
        sdconv::internal::archive::Compression::Deflate,
    )
    .unwrap();
    assert_eq!(
        found(&z.finish().unwrap()),
        "a zip archive that holds no Word document"
    );
    let err = read(b"%PDF", &DocxImportOptions::default()).unwrap_err();
    assert_eq!(err.kind(), sdconv::ErrorKind::Input);
}

#[test]
fn a_malformed_main_part_is_an_xml_error_naming_it() {
    let bytes = docx("")
        .raw_document("<w:document><w:body><w:p></w:body>")
        .build();
    let err = read(&bytes, &DocxImportOptions::default()).unwrap_err();
    assert!(
        matches!(err, Error::Xml { ref part, .. } if part == "word/document.xml"),
        "{err}"
    );
}

#[test]
fn a_malformed_optional_part_is_a_warning() {
    let c = docx(&p("x")).styles("<w:style").read();
    valid(&c);
    assert!(
        messages(&c)
            .iter()
            .any(|m| m.starts_with("word/styles.xml is unreadable")),
        "{:?}",
        messages(&c)
    );
}

#[test]
fn truncated_and_corrupted_files_give_errors_not_panics() {
    let bytes = docx(&(p("Hello") + &p("World"))).build();
    for cut in (0..bytes.len()).step_by(37) {
        let _ = read(&bytes[..cut], &DocxImportOptions::default());
    }
    let mut flipped = bytes.clone();
    for i in (0..flipped.len()).step_by(53) {
        flipped[i] ^= 0x5A;
        let _ = read(&flipped, &DocxImportOptions::default());
    }
}

#[test]
fn facade_routes_word() {
    assert!(sdconv::Format::Word.can_read());
    let c = sdconv::import(
        sdconv::Format::Word,
        &docx(&p("via facade")).build(),
        &sdconv::ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(texts(&c), ["via facade"]);
}
