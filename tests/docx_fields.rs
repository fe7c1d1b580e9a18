//! Hyperlinks, bookmarks, cross-references and the other fields.

mod docx_support;

use docx_support::*;
use sdconv::WarningKind;
use sdconv::ast::{Block, DirectoryKind, Inline, inline::plain_text};

fn blocks(c: &sdconv::Converted<sdconv::Document>) -> &[Block] {
    &c.value.blocks
}

fn para_text(b: &Block) -> String {
    match b {
        Block::Paragraph(p) => plain_text(&p.content),
        other => format!("{other:?}"),
    }
}

#[test]
fn hyperlinks_external_internal_and_by_field() {
    let body = format!(
        r#"<w:p><w:hyperlink r:id="rIdLink"><w:r><w:t>site</w:t></w:r></w:hyperlink><w:r><w:t> and </w:t></w:r><w:hyperlink w:anchor="target"><w:r><w:t>inside</w:t></w:r></w:hyperlink><w:r><w:t> and </w:t></w:r>{}<w:hyperlink r:id="rIdMissing"><w:r><w:t> broken</w:t></w:r></w:hyperlink></w:p>
        <w:p><w:bookmarkStart w:id="1" w:name="target"/><w:r><w:t>Target</w:t></w:r><w:bookmarkEnd w:id="1"/></w:p>"#,
        field(
            r#"HYPERLINK "https://example.org/f" \o "tip""#,
            "field link"
        )
    );
    let c = docx(&body)
        .rel("rIdLink", "hyperlink", "https://example.org/?a=1&b=2", true)
        .read();
    valid(&c);
    let Block::Paragraph(p) = &blocks(&c)[0] else {
        panic!()
    };
    let links: Vec<(String, String)> = p
        .content
        .iter()
        .filter_map(|i| match i {
            Inline::Link { href, children } => Some((href.to_string(), plain_text(children))),
            _ => None,
        })
        .collect();
    assert_eq!(
        links,
        [
            (
                "https://example.org/?a=1&b=2".to_string(),
                "site".to_string()
            ),
            ("#target".into(), "inside".into()),
            ("https://example.org/f".into(), "field link".into()),
        ]
    );
    assert!(plain_text(&p.content).ends_with("field link broken"));
    assert!(messages(&c).iter().any(|m| m.contains("rIdMissing")));
    golden("links", &c);
}

#[test]
fn bookmarks_become_ids_and_refs_cross_references() {
    let body = [
        // A body-level bookmark belongs to the next paragraph; _GoBack is not a target.
        r#"<w:bookmarkStart w:id="0" w:name="intro"/>"#.to_string(),
        r#"<w:p><w:bookmarkStart w:id="9" w:name="_GoBack"/><w:bookmarkStart w:id="2" w:name="alias"/><w:r><w:t>Intro</w:t></w:r></w:p>"#.into(),
        format!(
            "<w:p><w:r><w:t>See </w:t></w:r>{}<w:r><w:t>, section </w:t></w:r>{}<w:r><w:t>, page </w:t></w:r>{}<w:r><w:t> and </w:t></w:r>{}</w:p>",
            field(r"REF intro \h", "Intro"),
            field(r"REF alias \r \h", "1"),
            field(r"PAGEREF intro \h", "3"),
            field(r"REF nowhere \h", "Error! Reference source not found.")
        ),
    ]
    .concat();
    let c = docx(&body).read();
    valid(&c);
    let Block::Paragraph(first) = &blocks(&c)[0] else {
        panic!()
    };
    assert_eq!(first.id.as_deref(), Some("intro"));
    let Block::Paragraph(p) = &blocks(&c)[1] else {
        panic!()
    };
    let refs: Vec<(String, bool, bool)> = p
        .content
        .iter()
        .filter_map(|i| match i {
            Inline::CrossRef {
                target,
                number,
                text,
            } => Some((target.clone(), *number, *text)),
            _ => None,
        })
        .collect();
    // "alias" shares the paragraph with "intro": the reference points at the paragraph's id.
    assert_eq!(
        refs,
        [
            ("intro".to_string(), false, true),
            ("intro".into(), true, false),
            ("intro".into(), true, false)
        ]
    );
    assert_eq!(
        plain_text(&p.content),
        "See , section , page  and Error! Reference source not found."
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Repaired && w.message.contains("nowhere"))
    );
    golden("bookmarks", &c);
}

#[test]
fn tocs_become_directories_and_other_fields_keep_their_result() {
    let toc_entry = |text: &str, anchor: &str| {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="TOC1"/></w:pPr><w:hyperlink w:anchor="{anchor}"><w:r><w:t>{text}</w:t></w:r><w:r><w:tab/></w:r>{}</w:hyperlink></w:p>"#,
            field(&format!(r"PAGEREF {anchor} \h"), "1")
        )
    };
    let body = [
        r#"<w:p><w:r><w:t>Contents</w:t></w:r></w:p>"#.to_string(),
        r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC \o "1-3" \h \z \u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r></w:p>"#.into(),
        toc_entry("Chapter", "_Toc1"),
        toc_entry("Section", "_Toc2"),
        r#"<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#.into(),
        format!("<w:p>{}</w:p>", field(r#"TOC \h \z \c "Figure""#, "No table of figures entries found.")),
        format!("<w:p>{}</w:p>", field(r#"TOC \c "Table""#, "")),
        format!("<w:p><w:r><w:t>Page </w:t></w:r>{}<w:fldSimple w:instr=\" DATE \"><w:r><w:t>1.1.2030</w:t></w:r></w:fldSimple></w:p>", field("PAGE", "7")),
        r#"<w:p><w:bookmarkStart w:id="1" w:name="_Toc1"/><w:r><w:t>Chapter</w:t></w:r></w:p>"#.into(),
    ]
    .concat();
    let c = docx(&body).read();
    valid(&c);
    let b = blocks(&c);
    assert_eq!(para_text(&b[0]), "Contents");
    assert!(matches!(
        b[1],
        Block::Directory {
            kind: DirectoryKind::Content
        }
    ));
    assert!(matches!(
        b[2],
        Block::Directory {
            kind: DirectoryKind::Images
        }
    ));
    assert!(matches!(
        b[3],
        Block::Directory {
            kind: DirectoryKind::Tables
        }
    ));
    assert_eq!(para_text(&b[4]), "Page 71.1.2030");
    assert_eq!(para_text(&b[5]), "Chapter");
    assert_eq!(b.len(), 6, "the cached TOC entries are gone: {b:?}");
    // Nothing warned about the TOC's own paragraphs and references.
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
    golden("toc", &c);
}

#[test]
fn unbalanced_fields_are_shown_as_results() {
    let body = r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>TOC</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>cached</w:t></w:r></w:p><w:p><w:r><w:t>rest of the document</w:t></w:r></w:p>"#;
    let c = docx(body).read();
    valid(&c);
    let texts: Vec<String> = blocks(&c).iter().map(para_text).collect();
    assert_eq!(texts, ["cached", "rest of the document"]);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("do not balance"))
    );
}
