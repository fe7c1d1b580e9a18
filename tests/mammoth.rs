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

/// Counts, over real Word files, how many fragments and raw texts are mammoth's bytes; prints
/// the files that differ. Needs mammoth's outputs written beforehand (`MAMMOTH_OUT`: a folder
/// of `<name>.html` and `<name>.txt`, `<name>` the file's name without `.docx`) and
/// `MAMMOTH_FILES` (the .docx files, separated by newlines).
#[test]
#[ignore = "needs mammoth's outputs: MAMMOTH_OUT and MAMMOTH_FILES"]
fn corpus_counts() {
    let (Ok(out), Ok(files)) = (std::env::var("MAMMOTH_OUT"), std::env::var("MAMMOTH_FILES"))
    else {
        return;
    };
    let (mut same, mut same_text, mut total) = (0, 0, 0);
    for file in files.lines().filter(|l| !l.is_empty()) {
        let path = Path::new(file);
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let Ok(want) = std::fs::read_to_string(Path::new(&out).join(format!("{stem}.html"))) else {
            continue;
        };
        let bytes = std::fs::read(path).expect("input");
        let mut options = ImportOptions::default();
        options.docx = DocxImportOptions::default().with_word_refs(true);
        let Ok(doc) = sdconv::import(Format::Word, &bytes, &options) else {
            println!("UNREADABLE {file}");
            continue;
        };
        total += 1;
        let ours = mammoth::write(&doc.value, &MammothOptions::default()).value;
        if let Ok(dir) = std::env::var("MAMMOTH_OURS") {
            let _ = std::fs::write(Path::new(&dir).join(format!("{stem}.html")), &ours);
            let _ = std::fs::write(
                Path::new(&dir).join(format!("{stem}.txt")),
                mammoth::raw_text(&doc.value),
            );
        }
        if ours == want {
            same += 1;
        } else {
            println!(
                "DIFF {stem}\n  ours:    {}\n  mammoth: {}",
                excerpt(&ours, &want),
                excerpt(&want, &ours)
            );
        }
        let text = std::fs::read_to_string(Path::new(&out).join(format!("{stem}.txt")))
            .unwrap_or_default();
        if mammoth::raw_text(&doc.value) == text {
            same_text += 1;
        } else {
            println!("TEXTDIFF {stem}");
        }
    }
    println!("identical fragments: {same} of {total}; identical raw texts: {same_text} of {total}");
}

/// `a` from where it first differs from `b`, 160 characters.
fn excerpt(a: &str, b: &str) -> String {
    let at = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    let start = a[..at].char_indices().rev().nth(40).map_or(0, |(i, _)| i);
    a[start..].chars().take(160).collect()
}

/// The command line: `--html-flavor mammoth` with a style map file and `mammoth-text` give
/// mammoth's bytes on standard output; a bad line is one warning on stderr.
#[test]
fn command_line_flavors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let map = dir.path().join("map.txt");
    let case = cases()
        .into_iter()
        .find(|c| c["name"] == "styles-mapped")
        .expect("case");
    let text = case["options"]["styleMap"].as_str().expect("a string map");
    std::fs::write(&map, text).expect("map");
    let input = std::fs::canonicalize(Path::new(FIXTURES).join("styles.docx")).expect("input");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sdconv"))
            .arg("convert")
            .arg(&input)
            .args(args)
            .output()
            .expect("runs")
    };
    let out = run(&[
        "--to",
        "html_all_in_one",
        "--html-flavor",
        "mammoth",
        "--style-map",
        map.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        golden("styles-mapped", "html")
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr
            .matches("Did not understand this style mapping")
            .count(),
        1,
        "{stderr}"
    );
    let out = run(&["--to", "html_all_in_one", "--html-flavor", "mammoth-text"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        golden("styles", "txt")
    );
}
