//! Fuzzes the Word reader with arbitrary bytes.
//!
//! Input starting with the zip signature `PK` goes to the reader as it is (package layer,
//! content types, relationships). Anything else becomes the main part `word/document.xml` of a
//! minimal package built in memory, so mutations reach the body parser and the mapping stage.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use sdconv::Format;
use sdconv::internal::archive::{Compression, ZipWriter};

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#;
const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

fuzz_target!(|data: &[u8]| {
    if data.starts_with(b"PK") {
        common::check_import(Format::Word, data);
        return;
    }
    let mut zip = ZipWriter::new();
    let parts = [
        ("[Content_Types].xml", CONTENT_TYPES.as_bytes()),
        ("_rels/.rels", RELS.as_bytes()),
        ("word/document.xml", data),
    ];
    for (name, bytes) in parts {
        // Stored, not deflated: the fuzzer's time goes to the reader, not to compression.
        if zip.add(name, bytes, Compression::Store).is_err() {
            return;
        }
    }
    if let Ok(bytes) = zip.finish() {
        common::check_import(Format::Word, &bytes);
    }
});
