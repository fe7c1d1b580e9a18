//! What `sdconv convert` keeps when given no options: a document's captions reach Word and PDF
//! output (the API's explicit settings default to off; a command-line user expects to keep what
//! the document has), and the flags still decide when given.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use sdconv::ast::Block;
use sdconv::{Format, ImportOptions};

fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The caption labels (`Figure N:`, `Table N:`) pdftotext finds in `pdf`.
fn labels(pdf: &Path) -> BTreeSet<String> {
    let out = Command::new("pdftotext")
        .args([pdf.to_str().unwrap(), "-"])
        .output()
        .expect("pdftotext (poppler-utils) runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| matches!(w[0], "Figure" | "Table"))
        .filter_map(|w| {
            let n = w[1].strip_suffix(':')?;
            (!n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
                .then(|| format!("{} {n}", w[0]))
        })
        .collect()
}

#[test]
fn convert_to_pdf_and_word_keeps_the_captions_by_default() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("skipping: ../shared is absent");
        return;
    };
    let input = shared.join("bench/medium.docx");
    let bytes = std::fs::read(&input).unwrap();
    let doc = sdconv::import(Format::Word, &bytes, &ImportOptions::default())
        .unwrap()
        .value;
    let (mut figures, mut tables) = (0, 0);
    doc.walk_blocks(&mut |_, b| match b {
        Block::Image(i) if i.numbered && i.caption.is_some() => figures += 1,
        Block::Table(t) if t.numbered && t.caption.is_some() => tables += 1,
        _ => {}
    });
    assert!(figures + tables >= 20, "{figures} figures, {tables} tables");
    let expected: BTreeSet<String> = (1..=figures)
        .map(|n| format!("Figure {n}"))
        .chain((1..=tables).map(|n| format!("Table {n}")))
        .collect();

    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("out.pdf");
    run(&[
        "convert",
        input.to_str().unwrap(),
        "-o",
        pdf.to_str().unwrap(),
    ]);
    let found = labels(&pdf);
    let missing: Vec<_> = expected.difference(&found).collect();
    assert!(
        missing.is_empty(),
        "captions missing from the PDF: {missing:?}"
    );

    // Word: one SEQ field per caption.
    let docx = dir.path().join("out.docx");
    run(&[
        "convert",
        input.to_str().unwrap(),
        "-o",
        docx.to_str().unwrap(),
    ]);
    let back = sdconv::import(
        Format::Word,
        &std::fs::read(&docx).unwrap(),
        &ImportOptions::default(),
    )
    .unwrap()
    .value;
    let mut numbered = 0;
    back.walk_blocks(&mut |_, b| {
        numbered += usize::from(matches!(b, Block::Image(i) if i.numbered && i.caption.is_some()))
            + usize::from(matches!(b, Block::Table(t) if t.numbered && t.caption.is_some()));
    });
    assert_eq!(numbered, figures + tables);

    // A flag given decides: only table captions asked for, so no figure is labelled.
    let tables_only = dir.path().join("tables.pdf");
    run(&[
        "convert",
        input.to_str().unwrap(),
        "-o",
        tables_only.to_str().unwrap(),
        "--table-caption",
    ]);
    let found = labels(&tables_only);
    assert!(found.iter().all(|l| l.starts_with("Table")), "{found:?}");
    assert_eq!(found.len(), tables);
}
