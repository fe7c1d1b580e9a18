//! The readers' XML tokenizer against quick-xml's reader on real XML: every XML part of every
//! Word file of `../shared/corpus/docx` and `../shared/bench`, and every sd.xml of
//! `../shared/corpus/sdxml`, must read as the same events at the same positions (or fail with
//! the same error at the same offset). The hand-made and mutated cases are the unit tests of
//! `src/xml/tokens.rs`; arbitrary text is the `xml_tokens` fuzz target's.

mod common;

use std::path::Path;

use sdconv::Limits;
use sdconv::internal::archive::ZipReader;
use sdconv::internal::xml::decode;
use sdconv::internal::xml_tokens_check;

/// Every entry of the zip at `path` whose name ends in `.xml` or `.rels`, read and decoded as
/// the readers read and decode parts (one that is not UTF-8 never reaches the tokenizer).
fn xml_parts(path: &Path) -> Vec<(String, String)> {
    let bytes = std::fs::read(path).unwrap();
    let Ok(mut zip) = ZipReader::new(&bytes, &Limits::default()) else {
        return Vec::new();
    };
    let names: Vec<String> = zip.names().to_vec();
    let mut parts = Vec::new();
    for name in names {
        if !(name.ends_with(".xml") || name.ends_with(".rels")) {
            continue;
        }
        if let Ok(raw) = zip.read(&name)
            && let Ok(text) = decode(&raw, &name)
        {
            parts.push((name, text.to_string()));
        }
    }
    parts
}

#[test]
fn real_xml_reads_as_quick_xml_reads_it() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut files = common::files_with(&shared.join("corpus/docx"), "docx");
    files.extend(common::files_with(&shared.join("bench"), "docx"));
    files.extend(common::files_with(&shared.join("corpus/sdxml"), "zip"));
    let (mut parts, mut events) = (0, 0);
    for file in &files {
        for (name, text) in xml_parts(file) {
            match xml_tokens_check(&text) {
                Ok(n) => events += n,
                Err(e) => panic!("{} {name}: {e}", file.display()),
            }
            parts += 1;
        }
    }
    for sd in common::files_with(&shared.join("corpus/sdxml"), "xml") {
        let text = std::fs::read_to_string(&sd).unwrap();
        if let Err(e) = xml_tokens_check(&text) {
            panic!("{}: {e}", sd.display());
        }
        parts += 1;
    }
    // The corpus and the benchmark documents hold 1,786 XML parts and 1.1 million events: a
    // lost folder or a reader stopping early shows here.
    eprintln!("{parts} parts, {events} events");
    assert!(parts > 1_000, "{parts} parts");
    assert!(events > 1_000_000, "{events} events");
}
