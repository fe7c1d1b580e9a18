//! `Format::sniff` and `Format::detect`, the format rule every binding shares, on real files:
//! every Word file of the shared corpus, the service's real sd.xml exports, the samples, and
//! what must never be guessed (garbage, truncated zips, other formats).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use sdconv::internal::archive::{Compression, ZipWriter};
use sdconv::{Error, ErrorKind, ExportOptions, Format, Undetected};

fn zip(entries: &[&str]) -> Vec<u8> {
    let mut w = ZipWriter::new();
    for name in entries {
        w.add(name, b"<x/>", Compression::Deflate).unwrap();
    }
    w.finish().unwrap()
}

fn sample(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("samples")
            .join(name),
    )
    .unwrap()
}

#[test]
fn every_real_word_file_is_word_by_content() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = common::files_with(&fixtures, "docx");
    if let Some(shared) = common::shared_dir() {
        let corpus = common::files_with(&shared.join("corpus/docx"), "docx");
        assert!(corpus.len() >= 100, "only {} corpus files", corpus.len());
        files.extend(corpus);
    }
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(
            Format::sniff(&bytes),
            Ok(Format::Word),
            "{}",
            path.display()
        );
    }
}

#[test]
fn real_sdxml_exports_and_the_samples_are_told_apart() {
    if let Some(samples) = common::real_sdxml_samples() {
        for (name, bytes) in samples {
            assert_eq!(Format::sniff(&bytes), Ok(Format::Sdxml), "{name}");
        }
    }
    assert_eq!(Format::sniff(&sample("sample.docx")), Ok(Format::Word));
    assert_eq!(
        Format::sniff(&sample("sample.sdxml.zip")),
        Ok(Format::Sdxml)
    );
}

#[test]
fn what_the_engine_writes_is_sniffed_back_as_itself() {
    let doc = sdconv::internal::sample::large_document(3, 2, 1, 1);
    let formats = [
        Format::Word,
        Format::Sdxml,
        Format::Json,
        Format::Markdown,
        Format::Parsx,
        Format::Html,
    ];
    for format in formats {
        let bytes = sdconv::export(&doc, format, &ExportOptions::default())
            .unwrap()
            .value;
        let sniffed = Format::sniff(&bytes);
        if format.can_read() {
            assert_eq!(sniffed, Ok(format), "{format}");
        } else {
            // parsX and the HTML download are zips of formats sdconv does not read.
            assert!(
                matches!(sniffed, Err(Undetected::ForeignZip(_))),
                "{format}"
            );
        }
    }
}

#[test]
fn zip_entries_decide_between_sdxml_and_word() {
    assert_eq!(Format::sniff(&zip(&["sd.xml"])), Ok(Format::Sdxml));
    assert_eq!(
        Format::sniff(&zip(&["export/SD.XML", "export/images/a.png"])),
        Ok(Format::Sdxml)
    );
    assert_eq!(
        Format::sniff(&zip(&["[Content_Types].xml"])),
        Ok(Format::Word)
    );
    assert_eq!(Format::sniff(&zip(&["_rels/.rels"])), Ok(Format::Word));
    // An sd.xml beside a Word main part is a Word package's stray file.
    assert_eq!(
        Format::sniff(&zip(&["sd.xml", "word/document.xml"])),
        Ok(Format::Word)
    );
    // Deeper than one folder is not where the sd.xml reader looks.
    assert!(matches!(
        Format::sniff(&zip(&["a/b/sd.xml"])),
        Err(Undetected::ForeignZip(m)) if m.contains("a/b/sd.xml")
    ));
    assert!(matches!(
        Format::sniff(&zip(&["mimetype", "content.xml"])),
        Err(Undetected::ForeignZip(m)) if m.contains("OpenDocument")
    ));
    assert!(matches!(
        Format::sniff(&zip(&[])),
        Err(Undetected::ForeignZip(m)) if m.contains("empty")
    ));
}

#[test]
fn text_is_json_markdown_or_named_markup() {
    assert_eq!(Format::sniff(b"  \n{\"a\":1}"), Ok(Format::Json));
    assert_eq!(Format::sniff(b"\xEF\xBB\xBF{}"), Ok(Format::Json));
    assert_eq!(Format::sniff(b"# Title\n\n*Text*."), Ok(Format::Markdown));
    assert_eq!(Format::sniff(b"plain words"), Ok(Format::Markdown));
    assert_eq!(Format::sniff(b"   \n"), Ok(Format::Markdown));
    // A README that opens with an HTML block is still Markdown.
    assert_eq!(
        Format::sniff(b"<p align=\"center\"><img src=\"logo.png\"></p>\n\n# Project\n"),
        Ok(Format::Markdown)
    );
    assert_eq!(
        Format::sniff(b"<!-- note -->\n# Title"),
        Ok(Format::Markdown)
    );
    let foreign = |bytes: &[u8]| match Format::sniff(bytes) {
        Err(Undetected::Foreign(what)) => what,
        other => panic!("{other:?}"),
    };
    assert!(foreign(b"<?xml version=\"1.0\"?><a/>").contains("XML"));
    assert!(foreign(b"<!DOCTYPE html><html></html>").contains("HTML"));
    assert!(foreign(b"<HTML><body></body></HTML>").contains("HTML"));
    assert!(foreign(b"<?xml version=\"1.0\"?><pkg:package xmlns:pkg=\"x\"/>").contains("Word XML"));
    assert!(foreign(b"<smashdoc><paragraph indent=\"0\"/></smashdoc>").contains("sd.xml"));
    let fodt = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scripts/arabic.fodt");
    assert!(foreign(&std::fs::read(fodt).unwrap()).contains("XML"));
}

#[test]
fn other_formats_and_garbage_are_named_never_guessed() {
    let foreign = |bytes: &[u8]| match Format::sniff(bytes) {
        Err(Undetected::Foreign(what)) => what,
        other => panic!("{other:?}"),
    };
    assert_eq!(foreign(b""), "an empty file");
    assert_eq!(foreign(b"%PDF-1.7\n"), "a PDF");
    assert!(foreign(b"{\\rtf1\\ansi hello}").contains("RTF"));
    assert!(foreign(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0]).contains("OLE"));
    assert_eq!(foreign(b"\x89PNG\r\n\x1a\n"), "an image");
    assert_eq!(
        foreign(&(0..=255u8).cycle().take(1024).collect::<Vec<_>>()),
        "binary data"
    );
    assert!(foreign(b"\xff\xfe\x00garbage").contains("UTF-16"));
    assert_eq!(foreign(b"text with a bad byte \xC3( in it"), "binary data");
    // A PK that is not a zip.
    assert!(matches!(
        Format::sniff(b"PK\x03\x04 and nothing else"),
        Err(Undetected::BrokenZip(_))
    ));
}

#[test]
fn truncated_zips_still_name_their_format_or_say_they_are_broken() {
    let docx = sample("sample.docx");
    let sdxml = sample("sample.sdxml.zip");
    for (bytes, format) in [(&docx, Format::Word), (&sdxml, Format::Sdxml)] {
        // Every cut that keeps the first local header's name: the directory is gone, the
        // local headers still tell the format, and its reader reports the damage.
        let step = (bytes.len() / 97).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            match Format::sniff(&bytes[..cut]) {
                Ok(f) => assert_eq!(f, format, "cut at {cut}"),
                Err(Undetected::BrokenZip(_) | Undetected::Foreign(_)) => {
                    assert!(cut < 100, "cut at {cut} lost the format")
                }
                Err(other) => panic!("cut at {cut}: {other:?}"),
            }
        }
        // The reader of the sniffed format refuses the damage with an input error.
        let cut = &bytes[..bytes.len() / 2];
        let read = sdconv::import(Format::sniff(cut).unwrap(), cut, &Default::default());
        assert_eq!(read.err().map(|e| e.kind()), Some(ErrorKind::Input));
    }
}

#[test]
fn detect_takes_the_name_first_and_a_zip_name_as_a_promise() {
    let sdxml = zip(&["sd.xml"]);
    let named = |bytes: &[u8], name: &str| Format::detect(bytes, Some(Path::new(name)));
    assert_eq!(named(&sdxml, "a.docx"), Ok(Format::Word));
    assert_eq!(named(&sdxml, "a.json"), Ok(Format::Json));
    assert_eq!(named(&sdxml, "a.zip"), Ok(Format::Sdxml));
    assert_eq!(named(&sdxml, "a.sdxml.zip"), Ok(Format::Sdxml));
    assert_eq!(named(&sdxml, "no-extension"), Ok(Format::Sdxml));
    assert_eq!(Format::detect(&sdxml, None), Ok(Format::Sdxml));
    assert_eq!(named(b"# T", "notes.TXT"), Ok(Format::Markdown));
    // A format this build does not read is still the name's: the caller checks can_read.
    assert_eq!(named(b"%PDF-1.7", "a.pdf"), Ok(Format::Pdf));
    assert!(matches!(
        named(b"plain text", "in.zip"),
        Err(Undetected::BrokenZip(m)) if m.contains("zip header")
    ));
    // As an engine error: an input error, with the reason in the message.
    let e = Error::from(named(b"plain text", "in.ZIP").unwrap_err());
    assert_eq!(e.kind(), ErrorKind::Input);
    assert!(e.to_string().contains("not a valid zip archive"), "{e}");
}

#[test]
fn large_inputs_are_sniffed_from_their_start() {
    // 32 MiB of text and of garbage: only the head is read, so both answer at once.
    let text = vec![b'a'; 32 << 20];
    let mut garbage = vec![0u8; 32 << 20];
    for (i, b) in garbage.iter_mut().enumerate() {
        *b = ((i as u32).wrapping_mul(2_654_435_761) >> 24) as u8;
    }
    for (bytes, expected) in [(&text, Some(Format::Markdown)), (&garbage, None)] {
        let start = Instant::now();
        let found = Format::sniff(bytes).ok();
        assert!(
            start.elapsed() < Duration::from_millis(500),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(found, expected);
    }
}

proptest! {
    #![proptest_config(common::config(2000))]

    #[test]
    fn any_bytes_give_an_answer(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = Format::sniff(&bytes);
        let _ = Format::detect(&bytes, Some(Path::new("x.zip")));
    }

    #[test]
    fn any_damage_to_a_zip_gives_an_answer(
        cut in 0usize..4096,
        flips in proptest::collection::vec((0usize..4096, any::<u8>()), 0..8),
    ) {
        let mut bytes = zip(&["[Content_Types].xml", "word/document.xml", "sd.xml"]);
        for (at, value) in flips {
            let len = bytes.len();
            bytes[at % len] = value;
        }
        bytes.truncate(cut);
        let _ = Format::sniff(&bytes);
    }
}
