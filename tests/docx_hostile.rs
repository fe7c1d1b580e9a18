//! Pathological inputs: deep nesting, huge spans, runaway fields. Each must end quickly in a
//! tree or a typed error, on a thread with a small (2 MiB) stack like a server's workers.

mod docx_support;

use std::sync::mpsc;
use std::time::Duration;

use docx_support::*;
use sdconv::Error;
use sdconv::import::docx::{DocxImportOptions, read};

fn run(bytes: Vec<u8>) -> Result<sdconv::Converted<sdconv::Document>, Error> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let _ = tx.send(read(&bytes, &DocxImportOptions::default()));
        })
        .unwrap();
    rx.recv_timeout(Duration::from_secs(120))
        .expect("the reader panicked or hung")
}

#[test]
fn deep_unknown_nesting_reads_or_hits_the_depth_limit() {
    let deep = |n: usize| {
        let open = "<w:foo>".repeat(n);
        let close = "</w:foo>".repeat(n);
        format!("<w:p>{open}<w:r><w:t>deep</w:t></w:r>{close}</w:p>")
    };
    let ok = run(docx(&deep(240)).build()).unwrap();
    valid(&ok);
    let err = run(docx(&deep(400)).build()).unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err}");
    assert_eq!(err.api_status(), 403);
}

#[test]
fn deeply_nested_tables() {
    let mut t = p("core");
    for _ in 0..80 {
        t = format!("<w:tbl><w:tr><w:tc>{t}</w:tc></w:tr></w:tbl>");
    }
    let c = run(docx(&t).build()).unwrap();
    valid(&c);
}

#[test]
fn wide_spans_on_many_rows_stay_linear() {
    let row = r#"<w:tr><w:tc><w:tcPr><w:gridSpan w:val="1000"/></w:tcPr><w:p/></w:tc><w:tc><w:tcPr><w:vMerge/></w:tcPr><w:p/></w:tc></w:tr>"#;
    let body = format!("<w:tbl>{}</w:tbl>", row.repeat(20_000));
    let c = run(docx(&body).build()).unwrap();
    valid(&c);
}

#[test]
fn runaway_and_deep_fields() {
    let begins = r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r>"#.repeat(50_000);
    let c = run(docx(&format!(
        "<w:p>{begins}<w:r><w:t>still here</w:t></w:r></w:p>"
    ))
    .build())
    .unwrap();
    valid(&c);
    assert!(
        sdconv::ast::inline::plain_text(match &c.value.blocks[0] {
            sdconv::ast::Block::Paragraph(p) => &p.content,
            _ => panic!(),
        })
        .contains("still here")
    );
    let nested = format!(
        "<w:p>{}<w:r><w:t>x</w:t></w:r>{}</w:p>",
        r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>QUOTE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#.repeat(200),
        r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#.repeat(200)
    );
    let c = run(docx(&nested).build()).unwrap();
    valid(&c);
}

#[test]
fn many_pictures_with_the_same_file_name() {
    let mut d = docx("");
    let mut body = String::new();
    for i in 0..3000 {
        let id = format!("rId{i}");
        d = d.rel(&id, "image", &format!("media/d{i}/a.png"), false);
        d = d.part(&format!("word/media/d{i}/a.png"), &png(1, 1));
        body.push_str(&format!("<w:p>{}</w:p>", drawing(&id, 10, 10, "")));
    }
    let d = d.raw_document(&format!(
        r#"<w:document {NS}><w:body>{body}</w:body></w:document>"#
    ));
    let c = run(d.build()).unwrap();
    valid(&c);
    assert_eq!(c.value.media.len(), 3000);
    assert!(c.value.media.get("a-3000.png").is_some());
}
