//! How close the mammoth flavor comes to mammoth 1.13 over real Word files: counts the
//! fragments and raw texts that are mammoth's bytes, and prints where the others differ.
//! A measurement, not a test (mammoth runs in Node beforehand):
//!
//! ```text
//! MAMMOTH_OUT=/tmp/mm/out MAMMOTH_FILES="$(ls ../shared/corpus/docx/*/*.docx)" \
//!     cargo run --release --example mammoth_corpus
//! ```
//!
//! `MAMMOTH_OUT` holds `<name>.html` (`convertToHtml`'s value) and `<name>.txt`
//! (`extractRawText`'s) for each file; `MAMMOTH_OURS`, when set, is a folder our outputs are
//! written to for comparison.

use std::path::Path;

use sdconv::export::html::mammoth::{self, MammothOptions};
use sdconv::import::docx::DocxImportOptions;
use sdconv::{Format, ImportOptions};

/// Counts, over real Word files, how many fragments and raw texts are mammoth's bytes; prints
/// the files that differ. Needs mammoth's outputs written beforehand (`MAMMOTH_OUT`: a folder
/// of `<name>.html` and `<name>.txt`, `<name>` the file's name without `.docx`) and
/// `MAMMOTH_FILES` (the .docx files, separated by newlines).
fn main() {
    let (Ok(out), Ok(files)) = (std::env::var("MAMMOTH_OUT"), std::env::var("MAMMOTH_FILES"))
    else {
        eprintln!("set MAMMOTH_OUT (mammoth's outputs) and MAMMOTH_FILES (the .docx files)");
        std::process::exit(2);
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
