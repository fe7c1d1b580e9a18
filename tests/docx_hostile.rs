//! Pathological inputs: deep nesting, huge spans, runaway fields. Each must end quickly in a
//! tree or a typed error, on a thread with a small (2 MiB) stack like a server's workers.

mod docx_support;

use std::sync::mpsc;
use std::time::Duration;

use docx_support::*;
use sdconv::Error;
use sdconv::ast::TextType;
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
    assert_eq!(err.kind(), sdconv::ErrorKind::TooLarge);
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

/// Rewrites the main part of a corpus file with `f` and reads the result.
fn with_main_part(bytes: &[u8], f: impl Fn(&str) -> String) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut z = zip::ZipArchive::new(std::io::Cursor::new(bytes)).ok()?;
    let mut w = sdconv::internal::archive::ZipWriter::new();
    for i in 0..z.len() {
        let mut e = z.by_index(i).ok()?;
        let name = e.name().ok()?.to_string();
        if name.ends_with('/') {
            continue;
        }
        let mut data = Vec::new();
        e.read_to_end(&mut data).ok()?;
        if name == "word/document.xml" {
            data = f(&String::from_utf8(data).ok()?).into_bytes();
        }
        w.add(
            &name,
            &data,
            sdconv::internal::archive::Compression::Deflate,
        )
        .ok()?;
    }
    w.finish().ok()
}

#[test]
fn mutated_corpus_main_parts_never_panic() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/docx");
    if !dir.is_dir() {
        eprintln!("skipped: ../shared/corpus/docx is absent");
        return;
    }
    let files = [
        "docx-rs/fixtures__comment__comment.docx",
        "docx-rs/fixtures__table_merged_libre_office__table_merged.docx",
        "docx-rs/fixtures__toc0__toc0.docx",
        "docx-rs/fixtures__image_inline_and_anchor__image_inline_and_anchor.docx",
        "docx-rs/fixtures__instr_links__instr_links.docx",
        "mammoth/test__test-data__text-box.docx",
        "python-docx/features__steps__test_files__tbl-having-tables.docx",
    ];
    // A fixed-seed xorshift: the same mutations on every run.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut outcomes = (0, 0);
    for file in files {
        let Ok(bytes) = std::fs::read(dir.join(file)) else {
            continue;
        };
        for _ in 0..60 {
            let (a, b, op) = (next() as usize, next() as usize, next() % 8);
            let mutated = with_main_part(&bytes, |xml| {
                let n = xml.len().max(1);
                let (mut i, mut j) = (a % n, b % n);
                if i > j {
                    std::mem::swap(&mut i, &mut j);
                }
                while !xml.is_char_boundary(i) {
                    i -= 1;
                }
                while !xml.is_char_boundary(j) {
                    j -= 1;
                }
                // Renaming one element everywhere keeps the XML well-formed but puts content
                // where Word never would: tables in runs, paragraphs in paragraphs, fields in
                // cells.
                const RENAMES: [(&str, &str); 8] = [
                    ("w:p", "w:tbl"),
                    ("w:r", "w:p"),
                    ("w:tc", "w:r"),
                    ("w:t", "w:instrText"),
                    ("w:tr", "w:tc"),
                    ("w:hyperlink", "w:tbl"),
                    ("w:rPr", "w:pPr"),
                    ("w:p", "w:fldSimple"),
                ];
                if op >= 4 {
                    let (from, to) = RENAMES[(a ^ b) % RENAMES.len()];
                    return xml
                        .replace(&format!("<{from}>"), &format!("<{to}>"))
                        .replace(&format!("<{from} "), &format!("<{to} "))
                        .replace(&format!("</{from}>"), &format!("</{to}>"));
                }
                match op {
                    // Cut a range: unbalanced tags, half elements.
                    0 => format!("{}{}", &xml[..i], &xml[j..]),
                    // Repeat a range: duplicated starts and ends.
                    1 => format!("{}{}", &xml[..j], &xml[i..]),
                    // Swap two halves around a point.
                    2 => format!("{}{}", &xml[i..], &xml[..i]),
                    // Drop every closing tag of one kind found in the range.
                    _ => {
                        let mid = &xml[i..j];
                        let cut = mid.replace("</w:p>", "").replace("</w:tc>", "");
                        format!("{}{}{}", &xml[..i], cut, &xml[j..])
                    }
                }
            });
            let Some(m) = mutated else { continue };
            match run(m) {
                Ok(c) => {
                    outcomes.0 += 1;
                    // Linked pictures aside, every tree validates.
                    if let Err(v) = c.value.validate() {
                        assert!(
                            v.iter().all(|v| v.message.contains("media store")),
                            "{file}: {v:?}"
                        );
                    }
                }
                Err(_) => outcomes.1 += 1,
            }
        }
    }
    eprintln!(
        "mutations: {} trees, {} typed errors",
        outcomes.0, outcomes.1
    );
}

/// Every paragraph in a style holds the style's name in the tree: a name far longer than Word
/// allows, on thousands of paragraphs, would be copied into each. It is cut to Word's 253
/// characters, with one warning.
#[test]
fn style_names_longer_than_word_allows_are_cut() {
    // Two bytes a character: the cut falls on a character's boundary, not a byte count.
    let long = "é".repeat(300);
    let style = format!(
        r#"<w:style w:type="paragraph" w:customStyle="1" w:styleId="Long"><w:name w:val="{long}"/></w:style>"#
    );
    let body = (0..3)
        .map(|i| {
            format!(
                r#"<w:p><w:pPr><w:pStyle w:val="Long"/></w:pPr><w:r><w:t>p{i}</w:t></w:r></w:p>"#
            )
        })
        .collect::<String>();
    let c = run(docx(&body).styles(&style).build()).expect("reads");
    valid(&c);
    let styles: Vec<_> = paras(&c).iter().map(|p| p.style.clone()).collect();
    assert_eq!(styles, vec![Some("é".repeat(253)); 3]);
    let cut: Vec<_> = messages(&c)
        .into_iter()
        .filter(|m| m.contains("style names longer than Word allows"))
        .collect();
    assert_eq!(
        cut,
        ["style names longer than Word allows are cut to 253 characters (1 of them)"]
    );
}

/// A level is resolved for every numbered paragraph and each paragraph's count holds its
/// definition's id: a numbering part with a megabyte id or level text would be copied for each.
/// Ids longer than a number can be leave their definitions out (here the abstract one and the
/// list naming it); level strings longer than 255
/// characters are cut; each with one warning. The ordinary list beside them still numbers.
#[test]
fn numbering_ids_and_level_texts_are_bounded() {
    let long_id = "7".repeat(100);
    let numbering = format!(
        r#"<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.{}"/></w:lvl></w:abstractNum><w:abstractNum w:abstractNumId="{long_id}"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="{long_id}"/></w:num>"#,
        "x".repeat(300)
    );
    let body = [numbered(1, 0, "kept"), numbered(2, 0, "left")].concat();
    let c = run(docx(&body).numbering(&numbering).build()).expect("reads");
    valid(&c);
    let kinds: Vec<_> = paras(&c).iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [TextType::ListOl, TextType::Paragraph]);
    let told: Vec<_> = messages(&c)
        .into_iter()
        .filter(|m| m.starts_with("numbering"))
        .collect();
    assert_eq!(
        told,
        [
            "numbering definitions with an id longer than 32 characters are left out (2 of them)",
            "numbering level texts, formats and styles longer than 255 characters are cut (1 of them)"
        ]
    );
}
