//! Word numbering → list items, numbered headings and paragraphs, with enough kept (list id,
//! format, start, restart) to draw Word's numbers.

mod docx_support;

use docx_support::*;
use sdconv::ast::{NumberFormat, TextType, inline::plain_text};

const NUMBERING: &str = r#"
<w:abstractNum w:abstractNumId="10">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="20">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="o"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="30">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pStyle w:val="Heading1"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2."/><w:pStyle w:val="Heading2"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2.%3"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="40">
  <w:lvl w:ilvl="0"><w:start w:val="4"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="%1."/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="30"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="10"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
<w:num w:numId="6"><w:abstractNumId w:val="40"/></w:num>
"#;

fn styles() -> String {
    [
        NORMAL.to_string(),
        pstyle(
            "Heading1",
            "heading 1",
            r#"<w:pPr><w:numPr><w:numId w:val="3"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr>"#,
        ),
        pstyle(
            "Heading2",
            "heading 2",
            r#"<w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="3"/></w:numPr></w:pPr>"#,
        ),
        pstyle(
            "ListBullet",
            "List Bullet",
            r#"<w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr>"#,
        ),
        pstyle("ListParagraph", "List Paragraph", ""),
    ]
    .concat()
}

fn item(num: &str, ilvl: u8, text: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num}"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
    )
}

#[test]
fn lists_levels_formats_and_continuation() {
    let body = [
        item("1", 0, "one"),
        item("1", 1, "one-a"),
        item("1", 1, "one-b"),
        item("1", 0, "two"),
        p("interruption"),
        // Continues: the third item of the list, after a paragraph between.
        item("1", 0, "three"),
        // Another numId on the same abstract definition continues its counters: 4 (its own
        // id numbers nothing the start does not say, so it goes).
        item("4", 0, "four"),
        // An override restarts (its own id says nothing more: the run says it with `restart`).
        item("5", 0, "restarted"),
        // Bullets draw no numbers: their list id says nothing and goes.
        ps("ListBullet", "bullet from the style"),
        item("2", 1, "nested bullet"),
        // numId 0 switches numbering off.
        r#"<w:p><w:pPr><w:pStyle w:val="ListBullet"/><w:numPr><w:numId w:val="0"/></w:numPr></w:pPr><w:r><w:t>not a list</w:t></w:r></w:p>"#.into(),
        // A list of its own, used nowhere else: no list id needed (numbers are the same without).
        item("6", 0, "starts at IV"),
        item("6", 0, "V"),
    ]
    .concat();
    let c = docx(&body).styles(&styles()).numbering(NUMBERING).read();
    valid(&c);
    let got: Vec<_> = paras(&c)
        .into_iter()
        .map(|p| {
            (
                p.kind,
                p.level,
                p.list_id.clone(),
                p.number_format,
                p.start,
                p.restart,
                plain_text(&p.content),
            )
        })
        .collect();
    use NumberFormat as F;
    use TextType::*;
    let s = |x: &str| Some(x.to_string());
    assert_eq!(
        got,
        vec![
            (ListOl, 0, s("1"), None, None, false, "one".into()),
            (ListOl, 1, s("1"), None, None, false, "one-a".into()),
            (ListOl, 1, s("1"), None, None, false, "one-b".into()),
            (ListOl, 0, s("1"), None, None, false, "two".into()),
            (Paragraph, 0, None, None, None, false, "interruption".into()),
            (ListOl, 0, s("1"), None, None, false, "three".into()),
            (ListOl, 0, None, None, Some(4), false, "four".into()),
            (ListOl, 0, None, None, None, true, "restarted".into()),
            (
                ListUl,
                0,
                None,
                None,
                None,
                false,
                "bullet from the style".into()
            ),
            (ListUl, 1, None, None, None, false, "nested bullet".into()),
            (Paragraph, 0, None, None, None, false, "not a list".into()),
            (
                ListOl,
                0,
                None,
                Some(F::UpperRoman),
                Some(4),
                false,
                "starts at IV".into()
            ),
            (
                ListOl,
                0,
                None,
                Some(F::UpperRoman),
                None,
                false,
                "V".into()
            ),
        ]
    );
    golden("lists", &c);
}

#[test]
fn numbered_headings_and_legal_paragraphs() {
    let body = [
        ps("Heading1", "Scope"),
        ps("Heading2", "Terms"),
        // A body paragraph on the headings' third level: legal numbering "1.1.1".
        item("3", 2, "The party shall…"),
        ps("Heading2", "Payment"),
        ps("Heading1", "End"),
    ]
    .concat();
    let c = docx(&body).styles(&styles()).numbering(NUMBERING).read();
    valid(&c);
    let got: Vec<_> = paras(&c)
        .into_iter()
        .map(|p| (p.kind, p.level, p.list_id.clone(), p.start, p.restart))
        .collect();
    use TextType::*;
    // One outline sequence: its numId says nothing more, so the tree does not keep it.
    assert_eq!(
        got,
        vec![
            (HeadingOl, 0, None, None, false),
            (HeadingOl, 1, None, None, false),
            (ParagraphOl, 2, None, None, false),
            (HeadingOl, 1, None, None, false),
            (HeadingOl, 0, None, None, false),
        ]
    );
}

#[test]
fn restart_under_a_new_parent_is_what_a_writer_does_anyway() {
    // 1. a) b) 2. a) — the second "a)" restarts because of its parent, which any writer does:
    // nothing extra is recorded. A numbering whose level 1 never restarts (lvlRestart 0)
    // continues with c), which the tree records as start 3 (a continuation, not a restart).
    let numbering = r#"<w:abstractNum w:abstractNumId="1">
        <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
        <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/><w:lvlRestart w:val="0"/></w:lvl>
      </w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>"#;
    let body = [
        item("1", 0, "1"),
        item("1", 1, "a"),
        item("1", 1, "b"),
        item("1", 0, "2"),
        item("1", 1, "c"),
    ]
    .concat();
    let c = docx(&body).styles(&styles()).numbering(numbering).read();
    valid(&c);
    let last = paras(&c)[4];
    assert_eq!((last.start, last.restart), (Some(3), false));
}
