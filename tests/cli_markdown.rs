//! `sdconv convert … -o x.md`: the Markdown writer's options as flags, and the pictures of a
//! Word file written into `images/` beside the text (inflated ahead, as for the HTML folder),
//! byte for byte the pictures the Word file holds.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Output};

fn sdconv(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(args: &[&str]) -> Output {
    let out = sdconv(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

const TABLE: &str = "# Report\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";

#[test]
fn table_flags_choose_the_table_form() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.md");
    std::fs::write(&input, TABLE).unwrap();
    let input = input.to_str().unwrap();
    let html = ok(&["convert", input, "--to", "md", "--tables", "html"]).stdout;
    let html = String::from_utf8(html).unwrap();
    assert!(
        html.contains("<table>") && !html.contains("| a | b |"),
        "{html}"
    );
    let pipes = ok(&["convert", input, "--to", "md"]).stdout;
    let pipes = String::from_utf8(pipes).unwrap();
    assert!(
        pipes.contains("| a | b |") && !pipes.contains("<table>"),
        "{pipes}"
    );
    let bad = sdconv(&["convert", input, "--to", "md", "--tables", "latex"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("auto, html, gfm"));
}

#[test]
fn page_break_marker_cuts_the_text() {
    let dir = tempfile::tempdir().unwrap();
    // The tree as the JSON dump spells it, from the Markdown reader, with a page break added.
    let md = dir.path().join("in.md");
    std::fs::write(&md, "First page.\n\nSecond page.\n").unwrap();
    let json = ok(&["convert", md.to_str().unwrap(), "--to", "json"]).stdout;
    let mut tree: serde_json::Value = serde_json::from_slice(&json).unwrap();
    tree["blocks"]
        .as_array_mut()
        .unwrap()
        .insert(1, serde_json::json!({"type": "page_break"}));
    let input = dir.path().join("in.json");
    std::fs::write(&input, tree.to_string()).unwrap();
    let input = input.to_str().unwrap();
    let marker = "<!-- pagebreak -->";
    let out = ok(&["convert", input, "--to", "md", "--page-breaks", marker]).stdout;
    let out = String::from_utf8(out).unwrap();
    let (first, marked, second) = (
        out.find("First page.").unwrap(),
        out.find(marker).expect("marker written"),
        out.find("Second page.").unwrap(),
    );
    assert!(first < marked && marked < second, "{out}");
    let plain = String::from_utf8(ok(&["convert", input, "--to", "md"]).stdout).unwrap();
    assert!(!plain.contains(marker) && plain.contains("---"), "{plain}");
    let bad = sdconv(&["convert", input, "--to", "md", "--page-breaks", " "]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The pictures of a Word file: `word/media/…` entry bytes.
fn word_pictures(docx: &Path) -> BTreeSet<Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(docx).unwrap()).unwrap();
    let mut pictures = BTreeSet::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        if entry.name().unwrap().starts_with("word/media/") {
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            pictures.insert(bytes);
        }
    }
    pictures
}

#[test]
fn word_pictures_land_beside_the_text() {
    let docx = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sample.docx");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sub/sample.md");
    ok(&[
        "convert",
        docx.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut written = BTreeSet::new();
    for entry in std::fs::read_dir(dir.path().join("sub/images")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            text.contains(&format!("](images/{name}")),
            "{name} not referenced"
        );
        written.insert(std::fs::read(&path).unwrap());
    }
    let pictures = word_pictures(&docx);
    assert!(!pictures.is_empty());
    assert_eq!(written, pictures);
    // Nothing of the work folder is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path().join("sub"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
}
