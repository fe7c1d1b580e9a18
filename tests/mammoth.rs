//! The mammoth flavor of the HTML writer against mammoth 1.13 itself: each case of
//! `tests/fixtures/mammoth/cases.json` is a small Word file (made by `make.py` there) and
//! mammoth's options; `tests/golden/mammoth/<case>.html` is the fragment mammoth wrote for it
//! (`golden.js`), `.messages.txt` its warnings and `.txt` its `extractRawText`. Ours must be
//! the same bytes, the same warnings in the same order, the same text.

use std::path::Path;

use sdconv::export::html::mammoth::{self, MammothOptions};
use sdconv::import::docx::DocxImportOptions;
use sdconv::{Document, Format, ImportOptions, WarningKind};

const FIXTURES: &str = "tests/fixtures/mammoth";
const GOLDEN: &str = "tests/golden/mammoth";

fn read(file: &str) -> Document {
    let bytes = std::fs::read(Path::new(FIXTURES).join(file)).expect("fixture");
    let mut options = ImportOptions::default();
    options.docx = DocxImportOptions::default().with_word_refs(true);
    sdconv::import(Format::Word, &bytes, &options)
        .expect("reads")
        .value
}

/// mammoth's options from the case's JSON (`styleMap` as a string or an array).
fn options(json: Option<&serde_json::Value>) -> MammothOptions {
    let mut o = MammothOptions::default();
    let Some(json) = json else { return o };
    match json.get("styleMap") {
        Some(serde_json::Value::String(s)) => o = o.with_style_map(s),
        Some(serde_json::Value::Array(lines)) => {
            o.style_map = lines
                .iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect()
        }
        _ => {}
    }
    if let Some(b) = json.get("includeDefaultStyleMap").and_then(|v| v.as_bool()) {
        o = o.with_default_style_map(b);
    }
    if let Some(b) = json.get("ignoreEmptyParagraphs").and_then(|v| v.as_bool()) {
        o = o.with_ignore_empty_paragraphs(b);
    }
    if let Some(p) = json.get("idPrefix").and_then(|v| v.as_str()) {
        o = o.with_id_prefix(p);
    }
    o
}

fn cases() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("cases.json")).expect("cases");
    serde_json::from_str(&text).expect("cases.json")
}

fn golden(name: &str, ext: &str) -> String {
    std::fs::read_to_string(Path::new(GOLDEN).join(format!("{name}.{ext}"))).expect("golden")
}

#[test]
fn fragments_are_mammoths() {
    let mut failed = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let doc = read(case["file"].as_str().expect("file"));
        let out = mammoth::write(&doc, &options(case.get("options")));
        let want = golden(name, "html");
        if out.value != want {
            failed.push(format!(
                "{name}:\n ours:    {}\n mammoth: {want}",
                out.value
            ));
        }
        // mammoth's warnings are about styles and style maps: ours of those kinds, in order.
        let ours: String = out
            .warnings
            .iter()
            .filter(|w| {
                matches!(
                    w.kind,
                    WarningKind::UnmappedStyle | WarningKind::InvalidValue
                )
            })
            .map(|w| format!("warning: {}\n", w.message))
            .collect();
        let want = golden(name, "messages.txt");
        if ours != want {
            failed.push(format!(
                "{name} warnings:\n ours:    {ours:?}\n mammoth: {want:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn raw_text_is_mammoths() {
    let mut failed = Vec::new();
    for case in cases() {
        let name = case["name"].as_str().expect("name");
        let doc = read(case["file"].as_str().expect("file"));
        let want = golden(name, "txt");
        let ours = mammoth::raw_text(&doc);
        if ours != want {
            failed.push(format!("{name}:\n ours:    {ours:?}\n mammoth: {want:?}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// What mammoth drops and we keep on request: the page header and footer.
#[test]
fn headers_and_footers_on_request() {
    let mut doc = read("basics.docx");
    doc.meta.pages.sections.push(sdconv::ast::PageSection {
        header: sdconv::ast::Slots {
            default: Some(sdconv::ast::PageText {
                paragraphs: vec![vec![sdconv::ast::PagePiece::Text(
                    "Head & shoulders".into(),
                )]],
            }),
            ..Default::default()
        },
        ..Default::default()
    });
    let plain = mammoth::write(&doc, &MammothOptions::default()).value;
    assert!(!plain.contains("<header>"), "{plain}");
    let with = mammoth::write(&doc, &MammothOptions::default().with_headers_footers(true)).value;
    assert!(
        with.starts_with("<header><p>Head &amp; shoulders</p></header><p>A Title</p>"),
        "{with}"
    );
}

/// A tree that did not come from Word with its styles (Markdown here) still gets mammoth's
/// shape: headings by level, lists nested, code as text.
#[test]
fn a_tree_from_elsewhere() {
    let md = "# Title\n\nSome *text* and **more**.\n\n- a\n  - b\n- c\n";
    let doc = sdconv::import(Format::Markdown, md.as_bytes(), &ImportOptions::default())
        .expect("reads")
        .value;
    let out = mammoth::write(&doc, &MammothOptions::default());
    assert_eq!(
        out.value,
        "<h1>Title</h1><p>Some <em>text</em> and <strong>more</strong>.</p><ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>"
    );
}

/// Style map lines that do not parse: one warning each, the rest still applies; hostile
/// lines never panic.
#[test]
fn bad_style_map_lines_warn_once_each() {
    let doc = read("styles.docx");
    let opts = MammothOptions::default().with_style_map(
        "p[style-name='Warning'] => div.warning > p:fresh\nbroken [\n'\n=> !\np[style-name=",
    );
    let out = mammoth::write(&doc, &opts);
    let bad = out
        .warnings
        .iter()
        .filter(|w| {
            w.message
                .starts_with("Did not understand this style mapping")
        })
        .count();
    assert_eq!(bad, 4);
    assert!(
        out.value
            .starts_with("<div class=\"warning\"><p>Careful</p><p>Also careful</p></div>")
    );
}
