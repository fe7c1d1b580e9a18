//! Patterns met in Word files from the wild (issue 14): markup our reader used to lose without
//! saying so. Each fixture is built from the pattern's description, not copied from a file.

mod docx_support;

use docx_support::*;
use sdconv::ast::{Block, inline::plain_text};
use sdconv::{Converted, Document, WarningKind};

/// The paragraph texts of the tree, tables and text of captions included, in order.
fn texts(c: &Converted<Document>) -> Vec<String> {
    let mut out = Vec::new();
    collect(&c.value.blocks, &mut out);
    out
}

fn collect(blocks: &[Block], out: &mut Vec<String>) {
    for b in blocks {
        match b {
            Block::Paragraph(p) => out.push(plain_text(&p.content)),
            Block::Table(t) => {
                out.extend(t.caption.clone());
                for row in &t.rows {
                    for cell in &row.cells {
                        collect(&cell.blocks, out);
                    }
                }
            }
            Block::Image(i) => out.extend(i.caption.clone()),
            _ => {}
        }
    }
}

/// Every word of the tree's text.
fn words(c: &Converted<Document>) -> Vec<String> {
    texts(c)
        .iter()
        .flat_map(|t| t.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

// ---- item 1: unknown elements around runs --------------------------------------------------

/// Each case: body markup, and the words inside its unknown element.
const UNKNOWN_AROUND_RUNS: [(&str, &[&str]); 5] = [
    // A misspelt or future paragraph element.
    (
        r#"<w:p2><w:pPr/><w:r><w:t>future paragraph</w:t></w:r><w:r><w:t xml:space="preserve"> text</w:t></w:r></w:p2>"#,
        &["future", "paragraph", "text"],
    ),
    // An unknown wrapper of paragraphs and loose runs in one.
    (
        r#"<w:section><w:p><w:r><w:t>inside</w:t></w:r></w:p><w:r><w:t>loose run</w:t></w:r></w:section>"#,
        &["inside", "loose", "run"],
    ),
    // Text without its run, inside an unknown element.
    (r#"<w:x><w:t>bare</w:t></w:x>"#, &["bare"]),
    // A hyperlink and a simple field straight in an unknown block.
    (
        r##"<w:wrapper><w:hyperlink w:anchor="a"><w:r><w:t>linked</w:t></w:r></w:hyperlink><w:fldSimple w:instr="DATE"><w:r><w:t xml:space="preserve"> today</w:t></w:r></w:fldSimple></w:wrapper>"##,
        &["linked", "today"],
    ),
    // Unknown inside a paragraph (already kept before; the claim still holds).
    (
        r#"<w:p><w:r><w:t>a</w:t></w:r><w:foo><w:r><w:t xml:space="preserve"> b</w:t></w:r></w:foo></w:p>"#,
        &["a", "b"],
    ),
];

#[test]
fn unknown_elements_around_runs_keep_their_text_as_claimed() {
    for (body, expected) in UNKNOWN_AROUND_RUNS {
        let c = docx(&format!("{}{}", p("before"), body)).read();
        valid(&c);
        let kept: Vec<&str> = c
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::UnknownElement)
            .map(|w| w.message.as_str())
            .collect();
        assert!(
            !kept.is_empty()
                && kept
                    .iter()
                    .all(|m| m.ends_with("read through, its text kept")),
            "{body}: {kept:?}"
        );
        // The claim: every word inside the unknown element is in the tree.
        let have = words(&c);
        for w in expected.iter() {
            assert!(have.iter().any(|h| h == w), "{body}: {w:?} lost: {have:?}");
        }
        assert_eq!(texts(&c)[0], "before", "{body}");
    }
}

#[test]
fn an_unknown_paragraph_element_becomes_one_paragraph() {
    let body = [
        p("one"),
        r#"<w:p2><w:r><w:t>two</w:t></w:r><w:r><w:t xml:space="preserve"> and more</w:t></w:r></w:p2>"#
            .to_string(),
        p("three"),
    ]
    .concat();
    let c = docx(&body).read();
    valid(&c);
    assert_eq!(texts(&c), ["one", "two and more", "three"]);
    assert_eq!(
        messages(&c),
        ["unknown element <w:p2> read through, its text kept"]
    );
}

// ---- item 2: several w:body elements ------------------------------------------------------

#[test]
fn every_body_is_read_in_order() {
    let doc = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:document {NS}><w:body>{}{}</w:body><w:body>{}</w:body><w:body>{}<w:sectPr/></w:body></w:document>"#,
        p("first"),
        p("second"),
        p("third"),
        p("fourth")
    );
    let c = docx("").raw_document(&doc).read();
    valid(&c);
    assert_eq!(texts(&c), ["first", "second", "third", "fourth"]);
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
}
