//! The `sdconv` binary as a user runs it: exit codes, stderr lines, outputs.

mod common;
mod docx_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use sdconv::internal::sample::small_document;
use sdconv::{Document, Error, ExportOptions, Format};

fn sdconv(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A temp dir holding `doc.json`, the small sample's JSON dump.
fn with_json() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("doc.json");
    std::fs::write(&path, small_document().to_json()).unwrap();
    (dir, path)
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &[][..],
        &["convert"],
        &["frobnicate", "x"],
        &["convert", "doc.json", "--to", "odt"],
        &["convert", "doc.json", "--from", "nonsense", "--to", "json"],
        &["convert", "doc.json", "--warnings", "loud", "--to", "json"],
    ] {
        let out = sdconv(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    let out = sdconv(&["convert", "doc.json", "--to", "odt"], dir.path());
    assert!(
        stderr(&out).contains("unknown format \"odt\""),
        "{}",
        stderr(&out)
    );
}

#[test]
fn output_format_that_cannot_be_inferred_is_a_usage_error() {
    let (dir, _) = with_json();
    // No --to and stdout: nothing to infer from.
    let out = sdconv(&["convert", "doc.json"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("needs --to"), "{}", stderr(&out));
    // `.zip` could be sd.xml, parsX or HTML.
    let out = sdconv(&["convert", "doc.json", "-o", "out.zip"], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!dir.path().join("out.zip").exists());
}

#[test]
fn missing_input_exits_1_with_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = sdconv(&["convert", "missing.zip", "--to", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("sdconv: missing.zip: "), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn json_to_json_round_trips_to_stdout_and_to_a_file() {
    let (dir, _) = with_json();
    let out = sdconv(&["convert", "doc.json", "--to", "json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let doc = Document::from_json(std::str::from_utf8(&out.stdout).unwrap()).unwrap();
    // A JSON dump carries no image bytes, so compare the dump, not the tree.
    assert_eq!(doc.to_json(), small_document().to_json());

    // `--to` inferred from `-o`, `--from` from the extension; `-o -` is stdout.
    let out = sdconv(&["convert", "doc.json", "-o", "copy.json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let copy = std::fs::read_to_string(dir.path().join("copy.json")).unwrap();
    assert_eq!(copy, small_document().to_json());
    let out = sdconv(
        &["convert", "doc.json", "-o", "-", "--to", "json"],
        dir.path(),
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), copy);
}

#[test]
fn stdin_input_is_sniffed() {
    let (dir, path) = with_json();
    let bytes = std::fs::read(path).unwrap();
    let out = common::sdconv_with_stdin(&["convert", "-", "--to", "json"], dir.path(), &bytes);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, bytes);
}

/// `convert` maps an input of 1 MiB or more instead of reading it: the output must be the
/// same bytes as from the same file read through standard input.
#[test]
fn a_mapped_large_input_converts_as_a_read_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = sdconv::internal::sample::large_document(200, 4, 2, 1);
    // A picture of 1.3 MB (stored PNG data): the Word file passes the mapping threshold.
    doc.media
        .add("img-0001.png", sdconv::internal::sample::png(700, 600, 3));
    let docx = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    assert!(
        docx.len() >= 1 << 20,
        "only {} bytes: not mapped",
        docx.len()
    );
    std::fs::write(dir.path().join("big.docx"), &docx).unwrap();
    let out = sdconv(
        &["convert", "big.docx", "-o", "mapped.sdxml.zip"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let read = common::sdconv_with_stdin(&["convert", "-", "--to", "sdxml"], dir.path(), &docx);
    assert_eq!(read.status.code(), Some(0), "{}", stderr(&read));
    let mapped = std::fs::read(dir.path().join("mapped.sdxml.zip")).unwrap();
    assert!(mapped.len() > 1 << 20, "the pictures are in the output");
    assert!(
        mapped == read.stdout,
        "mapped and read inputs give different bytes"
    );
    // The HTML folder hands the mapped pages back after each picture (later reads fault them
    // in again): every picture is still written whole.
    let out = sdconv(
        &[
            "convert",
            "big.docx",
            "--to",
            "html",
            "-o",
            "site/index.html",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut written: Vec<Vec<u8>> = std::fs::read_dir(dir.path().join("site/images"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    let mut given: Vec<Vec<u8>> = doc
        .media
        .iter()
        .map(|m| m.bytes().unwrap().to_vec())
        .collect();
    written.sort();
    given.sort();
    assert!(
        written == given,
        "the pictures written differ from the document's"
    );
}

#[test]
fn warnings_json_prints_an_array() {
    let (dir, _) = with_json();
    let out = sdconv(
        &["convert", "doc.json", "--to", "json", "--warnings", "json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(report, serde_json::json!([]));
}

#[test]
fn unavailable_formats_exit_1_with_not_available_yet() {
    // Pick a writer this build lacks; the message comes from the library.
    let Some(missing) = Format::ALL.into_iter().find(|&f| {
        matches!(
            sdconv::export(&Document::new(), f, &ExportOptions::default()),
            Err(Error::Unavailable(_))
        )
    }) else {
        eprintln!("skipped: every output format is available");
        return;
    };
    let (dir, _) = with_json();
    let out = sdconv(&["convert", "doc.json", "--to", missing.name()], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("sdconv: doc.json: "), "{err}");
    assert!(err.contains("not available yet"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn zip_that_is_not_a_zip_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.zip"), b"plain text").unwrap();
    let out = sdconv(&["convert", "in.zip", "--to", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("sdconv: in.zip: not a valid zip archive"),
        "{err}"
    );
}

#[test]
fn zip_content_decides_the_input_format() {
    let dir = tempfile::tempdir().unwrap();
    let zip = |entry: &str| {
        let mut w = sdconv::internal::archive::ZipWriter::new();
        w.add(
            entry,
            b"<x/>",
            sdconv::internal::archive::Compression::Deflate,
        )
        .unwrap();
        w.finish().unwrap()
    };
    std::fs::write(dir.path().join("a.zip"), zip("sd.xml")).unwrap();
    std::fs::write(dir.path().join("b.zip"), zip("[Content_Types].xml")).unwrap();
    std::fs::write(dir.path().join("c.zip"), zip("other.txt")).unwrap();
    // Which reader gets the bytes is unit-tested in the binary (detect.rs); here: whatever the
    // readers make of them, the CLI did recognise both.
    for name in ["a.zip", "b.zip"] {
        let out = sdconv(&["convert", name, "--to", "json"], dir.path());
        assert!(!stderr(&out).contains("cannot tell"), "{}", stderr(&out));
    }
    let out = sdconv(&["convert", "c.zip", "--to", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("neither sd.xml"), "{}", stderr(&out));
}

#[test]
fn inspect_json_prints_counts() {
    let (dir, _) = with_json();
    let out = sdconv(&["inspect", "doc.json", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "json");
    assert_eq!(v["meta"]["title"], "Sample document");
    let c = &v["counts"];
    assert_eq!(c["blocks"], small_document().blocks.len());
    assert_eq!(c["paragraphs"]["heading"], 2);
    assert_eq!(c["paragraphs"]["heading-ol"], 2);
    assert_eq!(c["paragraphs"]["list-ul"], 3);
    assert_eq!(c["paragraphs"]["list-ol"], 2);
    // Seven cells, one paragraph each.
    assert_eq!(c["paragraphs_in_tables"], 7);
    assert_eq!(c["tables"], 1);
    assert_eq!(c["table_rows"], 3);
    assert_eq!(c["images"], 1);
    assert_eq!(c["inline_images"], 1);
    assert_eq!(c["footnotes"], 1);
    assert_eq!(c["endnotes"], 1);
    assert_eq!(c["links"], 1);
    assert_eq!(c["cross_refs"], 1);
    assert_eq!(c["page_breaks"], 1);
    assert_eq!(c["directories"], 1);
    assert_eq!(c["comments"], 1);
    assert_eq!(c["media"]["items"], 2);
    let bytes: u64 = small_document().media.iter().map(|m| m.size as u64).sum();
    assert_eq!(c["media"]["bytes"], bytes);
    // Read back from JSON the media have no bytes, so the tree still validates (names present).
    assert_eq!(v["valid"], true);
    assert_eq!(v["warnings"], serde_json::json!([]));
}

#[test]
fn inspect_text_lists_metadata_and_counts() {
    let (dir, _) = with_json();
    let out = sdconv(&["inspect", "doc.json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    for expected in [
        "file:         doc.json (json)",
        "title:        Sample document",
        "language:     en_EN",
        "tags:         sample",
        "tables:       1 (3 rows, 7 cells)",
        "notes:        1 footnotes, 1 endnotes, 0 sidenotes",
        "validation:   ok",
        "warnings:     0",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn inspect_reports_violations_without_failing() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = small_document();
    if let Some(sdconv::ast::Block::Paragraph(p)) = doc.blocks.get_mut(1) {
        p.level = 9;
    }
    std::fs::write(dir.path().join("bad.json"), doc.to_json()).unwrap();
    let out = sdconv(&["inspect", "bad.json", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    let first = v["violations"][0].as_str().unwrap();
    assert!(first.contains("block 1: level 9"), "{first}");
}

#[test]
fn broken_json_exits_1_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.json"),
        "{\"format_version\": 1,\n oops",
    )
    .unwrap();
    let out = sdconv(&["convert", "bad.json", "--to", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("sdconv: bad.json: json: line 2"), "{err}");
}

#[test]
fn html_output_is_a_page_with_its_stylesheet_and_images_beside_it() {
    let (dir, _) = with_json();
    // The JSON dump has no image bytes: export from the sd.xml form, which does.
    let zip = sdconv::export(&small_document(), Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    std::fs::write(dir.path().join("doc.sdxml.zip"), zip).unwrap();
    let out = sdconv(
        &[
            "convert",
            "doc.sdxml.zip",
            "-o",
            "site/page.html",
            "--language",
            "de_DE",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = std::fs::read_to_string(dir.path().join("site/page.html")).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..100]);
    assert!(page.contains(r#"<html lang="de-DE">"#));
    assert!(page.contains("Abbildung 1"), "German caption label");
    assert!(dir.path().join("site/style.css").is_file());
    let images: Vec<_> = std::fs::read_dir(dir.path().join("site/images"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(images.len(), small_document().media.len());
    // A .zip output gets the API's download form instead.
    let out = sdconv(
        &["convert", "doc.sdxml.zip", "--to", "html", "-o", "page.zip"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let zip = std::fs::read(dir.path().join("page.zip")).unwrap();
    assert!(sdconv::internal::archive::looks_like_zip(&zip));
}

#[test]
fn bad_language_is_a_usage_error() {
    let (dir, _) = with_json();
    let out = sdconv(
        &["convert", "doc.json", "--to", "html", "--language", "xx"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn style_mapping_file_is_applied_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    // A minimal docx whose one paragraph uses a custom style "Lead".
    let mut w = sdconv::internal::archive::ZipWriter::new();
    let parts: [(&str, &str); 4] = [
        (
            "[Content_Types].xml",
            r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#,
        ),
        (
            "_rels/.rels",
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#,
        ),
        (
            "word/_rels/document.xml.rels",
            r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="s1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#,
        ),
        (
            "word/document.xml",
            r#"<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:pPr><w:pStyle w:val="Lead"/></w:pPr><w:r><w:t>Intro</w:t></w:r></w:p></w:body></w:document>"#,
        ),
    ];
    for (name, xml) in parts {
        w.add(
            name,
            xml.as_bytes(),
            sdconv::internal::archive::Compression::Deflate,
        )
        .unwrap();
    }
    w.add(
        "word/styles.xml",
        br#"<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Lead"><w:name w:val="Lead"/></w:style></w:styles>"#,
        sdconv::internal::archive::Compression::Deflate,
    )
    .unwrap();
    std::fs::write(dir.path().join("in.docx"), w.finish().unwrap()).unwrap();
    std::fs::write(
        dir.path().join("map.json"),
        r#"{"Lead": {"textType": "heading", "level": 1}}"#,
    )
    .unwrap();
    let out = sdconv(
        &[
            "convert",
            "in.docx",
            "--to",
            "json",
            "-o",
            "out.json",
            "--style-mapping",
            "map.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc = Document::from_json(&std::fs::read_to_string(dir.path().join("out.json")).unwrap())
        .unwrap();
    let sdconv::ast::Block::Paragraph(p) = &doc.blocks[0] else {
        panic!("{:?}", doc.blocks)
    };
    assert_eq!((p.kind, p.level), (sdconv::ast::TextType::Heading, 1));
    // An invalid mapping: exit 1, one line naming the file and the entry.
    std::fs::write(
        dir.path().join("bad.json"),
        r#"{"Lead": {"textType": "banner", "level": 1}}"#,
    )
    .unwrap();
    let out = sdconv(
        &[
            "convert",
            "in.docx",
            "--to",
            "json",
            "--style-mapping",
            "bad.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("sdconv: bad.json: ") && err.contains("Lead"),
        "{err}"
    );
}

#[test]
fn markdown_images_are_read_from_beside_the_input_and_written_beside_the_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pic.png"),
        sdconv::internal::sample::png(4, 3, 1),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("in.md"),
        "# T\n\n![a picture](pic.png)\n\n![secret](../../etc/passwd)\n",
    )
    .unwrap();
    let out = sdconv(&["convert", "in.md", "-o", "out/doc.md"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The picture beside the input arrived; the path leaving the folder was not followed.
    let err = stderr(&out);
    assert!(
        err.contains("passwd"),
        "a missing-media warning names it: {err}"
    );
    let md = std::fs::read_to_string(dir.path().join("out/doc.md")).unwrap();
    assert!(md.contains("![a picture](images/"), "{md}");
    let written: Vec<_> = std::fs::read_dir(dir.path().join("out/images"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(written.len(), 1);
}

#[test]
fn catalogs_print_what_the_api_returns() {
    let dir = tempfile::tempdir().unwrap();
    let out = sdconv(&["style-sets", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        sdconv::magic::catalog_json()
    );
    let out = sdconv(&["routines", "--json"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let routines: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        routines.as_array().is_some_and(|r| r.len() >= 8),
        "{routines}"
    );
    let out = sdconv(&["style-sets"], dir.path());
    assert!(String::from_utf8_lossy(&out.stdout).contains("contract_1-a-i"));
}

#[test]
fn magic_and_routines_flags_reach_the_import() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.md"), "# T\n\n\"quoted\"  text\n").unwrap();
    let out = sdconv(
        &[
            "convert",
            "in.md",
            "--to",
            "markdown",
            "--routines",
            "typographic-quotes",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("“quoted”"));
    let out = sdconv(
        &[
            "convert",
            "in.md",
            "--to",
            "json",
            "--routines",
            "no-such-routine",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("no-such-routine"), "{}", stderr(&out));
    let (dir, _) = with_json();
    let out = sdconv(
        &[
            "convert",
            "doc.json",
            "--to",
            "json",
            "--magic",
            "contract_9",
        ],
        dir.path(),
    );
    // Magic import applies to Word input only; an unknown key is still refused up front.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("contract_9"), "{}", stderr(&out));
}

#[test]
fn word_export_flags_and_template_catalogs() {
    let dir = tempfile::tempdir().unwrap();
    let zip = sdconv::export(&small_document(), Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    std::fs::write(dir.path().join("doc.sdxml.zip"), zip).unwrap();
    let out = sdconv(
        &[
            "convert",
            "doc.sdxml.zip",
            "-o",
            "out.docx",
            "--template",
            "contract",
            "--language",
            "ru_RU",
            "--image-caption",
            "--image-toc",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let docx = std::fs::read(dir.path().join("out.docx")).unwrap();
    let mut zip =
        sdconv::internal::archive::ZipReader::new(&docx, &sdconv::Limits::default()).unwrap();
    let body = String::from_utf8(zip.read("word/document.xml").unwrap()).unwrap();
    assert!(body.contains("Рисунок"), "Russian figure label");
    assert!(body.contains(r#"\c "Рисунок""#), "a list of figures field");
    // The settings object as the API sends it; a combination the spec forbids fails naming it.
    std::fs::write(
        dir.path().join("settings.json"),
        r#"{"language":"de_DE","imageCaption":false,"tableCaption":true,"textToc":false,"imageToc":true,"tableToc":false,"compressedImages":false}"#,
    )
    .unwrap();
    let out = sdconv(
        &[
            "convert",
            "doc.sdxml.zip",
            "-o",
            "x.docx",
            "--settings",
            "settings.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("imageToc"), "{}", stderr(&out));
    let out = sdconv(
        &[
            "convert",
            "doc.sdxml.zip",
            "-o",
            "x.docx",
            "--template",
            "nope",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    let out = sdconv(&["templates", "word", "--json"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        sdconv::export::word::WordTemplates::builtin().catalog_json()
    );
    let out = sdconv(&["templates", "sdox", "--json"], dir.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        sdconv::export::word::sdox_catalog_json()
    );
}

/// Names in `dir`, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A Word file's pictures are inflated into files while the reader works and moved into the
/// HTML folder afterwards: the folder holds exactly the pictures the page shows, byte for byte,
/// and nothing of the work done ahead, also when written again over an earlier output.
#[test]
fn word_pictures_written_ahead_land_in_the_html_folder() {
    use docx_support::{docx, drawing, png};
    let dir = tempfile::tempdir().unwrap();
    let shown = png(3, 2);
    let word = docx(&format!("<w:p>{}</w:p>", drawing("rIdA", 9525, 9525, "a")))
        .image("rIdA", "a.png", shown.clone())
        // Related, so read, but not shown on the page.
        .image("rIdB", "b.png", png(5, 5))
        .build();
    std::fs::write(dir.path().join("in.docx"), word).unwrap();
    for round in 0..2 {
        let out = sdconv(&["convert", "in.docx", "-o", "site/index.html"], dir.path());
        assert!(out.status.success(), "round {round}: {}", stderr(&out));
        let site = dir.path().join("site");
        assert_eq!(names_in(&site), ["images", "index.html", "style.css"]);
        let images = names_in(&site.join("images"));
        assert_eq!(images.len(), 1, "round {round}: {images:?}");
        assert_eq!(
            std::fs::read(site.join("images").join(&images[0])).unwrap(),
            shown
        );
        let page = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(page.contains(&format!("images/{}", images[0])), "{page}");
    }
}

/// A Word conversion that fails after its pictures were started on leaves no folder behind,
/// not even the output's folders it made.
#[test]
fn a_failed_word_conversion_leaves_no_pictures_behind() {
    use docx_support::{docx, png};
    let dir = tempfile::tempdir().unwrap();
    let word = docx("")
        .raw_document("<w:document><w:body><w:p>")
        .image("rIdA", "a.png", png(3, 2))
        .build();
    std::fs::write(dir.path().join("in.docx"), word).unwrap();
    let out = sdconv(
        &["convert", "in.docx", "-o", "out/site/index.html"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(names_in(dir.path()), ["in.docx"]);
    // Into a folder that exists: it stays, empty.
    std::fs::create_dir(dir.path().join("site")).unwrap();
    let out = sdconv(&["convert", "in.docx", "-o", "site/index.html"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(names_in(dir.path()), ["in.docx", "site"]);
    assert!(names_in(&dir.path().join("site")).is_empty());
}

/// A one-file output (here Word) is written into a hidden file beside its target and moved into
/// place only once the conversion has succeeded: a conversion failing in the writer (the
/// template is resolved there, after the file was started) leaves the old output as it was and
/// nothing behind, not even the folders it made. The file holds what the writer gives in
/// memory (standard output).
#[test]
fn a_one_file_output_replaces_the_old_one_only_on_success() {
    let dir = tempfile::tempdir().unwrap();
    let zip = sdconv::export(&small_document(), Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    std::fs::write(dir.path().join("doc.sdxml.zip"), zip).unwrap();
    std::fs::write(dir.path().join("out.docx"), b"old").unwrap();
    let failing = |output: &str| {
        let args = [
            "convert",
            "doc.sdxml.zip",
            "-o",
            output,
            "--template",
            "nope",
        ];
        let out = sdconv(&args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
    };
    failing("out.docx");
    assert_eq!(std::fs::read(dir.path().join("out.docx")).unwrap(), b"old");
    failing("new/deeper/out.docx");
    assert_eq!(names_in(dir.path()), ["doc.sdxml.zip", "out.docx"]);

    for (output, format) in [
        ("out.docx", "word"),
        ("out.sdxml.zip", "sdxml"),
        ("new/out.parsx.zip", "parsx"),
    ] {
        let out = sdconv(
            &["convert", "doc.sdxml.zip", "-o", output, "--to", format],
            dir.path(),
        );
        assert!(out.status.success(), "{output}: {}", stderr(&out));
        let piped = sdconv(
            &["convert", "doc.sdxml.zip", "-o", "-", "--to", format],
            dir.path(),
        );
        assert!(piped.status.success(), "{output}: {}", stderr(&piped));
        let written = std::fs::read(dir.path().join(output)).unwrap();
        assert!(
            written == piped.stdout,
            "{output} differs from standard output"
        );
    }
    assert_eq!(
        names_in(dir.path()),
        ["doc.sdxml.zip", "new", "out.docx", "out.sdxml.zip"]
    );
    assert_eq!(names_in(&dir.path().join("new")), ["out.parsx.zip"]);
}

/// `--language` reaches the parsX writer (its `xml:lang` and cross-reference words) through
/// the engine's `ExportOptions`, as it reaches the HTML, Markdown, Word and PDF writers.
#[test]
fn language_reaches_the_parsx_writer() {
    let (dir, _) = with_json();
    let parsx_xml = |args: &[&str]| {
        let out = sdconv(args, dir.path());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let mut zip =
            sdconv::internal::archive::ZipReader::new(&out.stdout, &Default::default()).unwrap();
        String::from_utf8(zip.read("parsx.xml").unwrap()).unwrap()
    };
    let german = parsx_xml(&[
        "convert",
        "doc.json",
        "--to",
        "parsx",
        "--language",
        "de_DE",
    ]);
    assert!(german.contains("xml:lang=\"de"), "{german}");
    let russian = parsx_xml(&[
        "convert",
        "doc.json",
        "--to",
        "parsx",
        "--language",
        "ru_RU",
    ]);
    assert!(russian.contains("xml:lang=\"ru"), "{russian}");
}

/// Outputs that are not plain files of their own are written through, as before the staged
/// writing: a symbolic link keeps pointing at the file it names, which gets the output; a file
/// with a second hard link keeps it. A target name as long as the file system allows works
/// (the staged file's own name is short).
#[cfg(unix)]
#[test]
fn links_are_written_through_and_long_names_work() {
    let dir = tempfile::tempdir().unwrap();
    let zip = sdconv::export(&small_document(), Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    std::fs::write(dir.path().join("doc.sdxml.zip"), zip).unwrap();
    let piped = sdconv(
        &["convert", "doc.sdxml.zip", "-o", "-", "--to", "word"],
        dir.path(),
    );
    assert!(piped.status.success(), "{}", stderr(&piped));

    std::fs::write(dir.path().join("real.docx"), b"old").unwrap();
    std::os::unix::fs::symlink("real.docx", dir.path().join("link.docx")).unwrap();
    std::fs::hard_link(dir.path().join("real.docx"), dir.path().join("twin.docx")).unwrap();
    for target in ["link.docx", "twin.docx"] {
        let out = sdconv(&["convert", "doc.sdxml.zip", "-o", target], dir.path());
        assert!(out.status.success(), "{target}: {}", stderr(&out));
        assert!(
            std::fs::read(dir.path().join("real.docx")).unwrap() == piped.stdout,
            "{target}: the file behind it has the output"
        );
        std::fs::write(dir.path().join("real.docx"), b"old").unwrap();
    }
    assert!(
        std::fs::symlink_metadata(dir.path().join("link.docx"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read(dir.path().join("twin.docx")).unwrap(),
        b"old",
        "still the same file as real.docx"
    );

    let long = format!("new/{}.docx", "a".repeat(240));
    let out = sdconv(&["convert", "doc.sdxml.zip", "-o", &long], dir.path());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read(dir.path().join(&long)).unwrap() == piped.stdout);
    assert_eq!(names_in(&dir.path().join("new")).len(), 1);
}

#[test]
fn pdf_standard_is_asked_with_a_flag() {
    let (dir, _) = with_json();
    let out = sdconv(
        &[
            "convert",
            "doc.json",
            "-o",
            "out.pdf",
            "--pdf-standard",
            "a2b+ua1",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pdf = std::fs::read(dir.path().join("out.pdf")).unwrap();
    let text = String::from_utf8_lossy(&pdf);
    // The XMP metadata (uncompressed) names both standards.
    assert!(text.contains("pdfuaid:part") && text.contains("pdfaid:part"));
    let out = sdconv(
        &["convert", "doc.json", "-o", "x.pdf", "--pdf-standard", "a4"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("a2b+ua1"), "{}", stderr(&out));
}
