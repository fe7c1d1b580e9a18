//! Paragraphs, headings, the style mapping, run formatting, breaks and special characters.

mod docx_support;

use docx_support::*;
use sdconv::ast::{Block, Inline, TextStyle, TextType, inline::plain_text};
use sdconv::import::docx::{DocxImportOptions, StyleMapping, read};
use sdconv::{Error, WarningKind};

fn kinds(c: &sdconv::Converted<sdconv::Document>) -> Vec<(TextType, u8, String)> {
    paras(c)
        .into_iter()
        .map(|p| (p.kind, p.level, plain_text(&p.content)))
        .collect()
}

fn styles() -> String {
    [
        NORMAL.to_string(),
        pstyle("Heading1", "heading 1", r#"<w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/></w:rPr>"#),
        // German Word: English built-in name, localised id.
        pstyle("berschrift2", "heading 2", r#"<w:basedOn w:val="Normal"/>"#),
        // A producer that localised the name too: the id pattern still says heading 3.
        pstyle("Titre3", "Titre 3", r#"<w:basedOn w:val="Normal"/>"#),
        // A custom style based on heading 1 is a heading.
        pstyle("Chapter", "Chapter", r#"<w:basedOn w:val="Heading1"/>"#),
        // Only an outline level.
        pstyle("Outlined", "Outlined", r#"<w:pPr><w:outlineLvl w:val="4"/></w:pPr>"#),
        pstyle("Caption", "caption", ""),
        pstyle("Quote", "Quote", r#"<w:basedOn w:val="Normal"/>"#),
        pstyle("TOCHeading", "TOC Heading", r#"<w:basedOn w:val="Heading1"/>"#),
    ]
    .concat()
}

#[test]
fn headings_by_name_id_chain_and_outline_level() {
    let body = [
        ps("Heading1", "One"),
        ps("berschrift2", "Zwei"),
        ps("Titre3", "Trois"),
        ps("Chapter", "Custom"),
        ps("Outlined", "Five"),
        "<w:p><w:pPr><w:outlineLvl w:val=\"1\"/></w:pPr><w:r><w:t>Direct</w:t></w:r></w:p>".into(),
        ps("Normal", "Body"),
        ps("Quote", "Quoted"),
        ps("Quote", "Again"),
        ps("TOCHeading", "Contents"),
        p("Plain"),
    ]
    .concat();
    let c = docx(&body).styles(&styles()).read();
    valid(&c);
    use TextType::*;
    assert_eq!(
        kinds(&c),
        vec![
            (Heading, 0, "One".into()),
            (Heading, 1, "Zwei".into()),
            (Heading, 2, "Trois".into()),
            (Heading, 0, "Custom".into()),
            (Heading, 4, "Five".into()),
            (Heading, 1, "Direct".into()),
            (Paragraph, 0, "Body".into()),
            (Paragraph, 0, "Quoted".into()),
            (Paragraph, 0, "Again".into()),
            (Paragraph, 0, "Contents".into()),
            (Paragraph, 0, "Plain".into()),
        ]
    );
    // Quote is a plain paragraph with no structural cue: no warning (nor for Normal).
    let unmapped: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::UnmappedStyle)
        .map(|w| w.message.as_str())
        .collect();
    assert!(unmapped.is_empty(), "{unmapped:?}");
    golden("headings", &c);
}

#[test]
fn style_mapping_comes_first() {
    let mapping = StyleMapping::from_json(
        r#"{"Quote": {"textType": "heading-ol", "level": 2}, "Heading 1": {"textType": "paragraph"}, "Caption": {"textType": "caption"}}"#,
    )
    .unwrap();
    let body = [
        ps("Quote", "Q"),
        ps("Heading1", "H"),
        ps("berschrift2", "Z"),
    ]
    .concat();
    let bytes = docx(&body).styles(&styles()).build();
    let mut options = DocxImportOptions::default();
    options.style_mapping = mapping;
    let c = read(&bytes, &options).unwrap();
    valid(&c);
    assert_eq!(
        kinds(&c),
        vec![
            (TextType::HeadingOl, 2, "Q".into()),
            // "Heading 1" in the mapping matches the style named "heading 1" regardless of case.
            (TextType::Paragraph, 0, "H".into()),
            (TextType::Heading, 1, "Z".into()),
        ]
    );
    assert!(
        c.warnings
            .iter()
            .all(|w| w.kind != WarningKind::UnmappedStyle)
    );
}

#[test]
fn invalid_style_mappings_are_parameter_errors_naming_the_entry() {
    for (json, name) in [
        (
            r#"{"Title": {"textType": "title"}}"#,
            r#"styleMapping["Title"].textType"#,
        ),
        (
            r#"{"Title": {"textType": "heading", "level": 6}}"#,
            r#"styleMapping["Title"].level"#,
        ),
        (
            r#"{"Title": {"textType": "heading", "level": -1}}"#,
            r#"styleMapping["Title"].level"#,
        ),
        (
            r#"{"Title": {"level": 1}}"#,
            r#"styleMapping["Title"].textType"#,
        ),
        (r#"{"Title": "heading"}"#, r#"styleMapping["Title"]"#),
        (r#"["heading"]"#, "styleMapping"),
    ] {
        let err = StyleMapping::from_json(json).unwrap_err();
        assert_eq!(err.kind(), sdconv::ErrorKind::Parameter, "{json}");
        match &err {
            Error::Parameter { name: n, .. } => assert_eq!(n, name, "{json}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn run_formatting_with_toggles_and_code() {
    let st = [
        NORMAL.to_string(),
        pstyle("BoldPara", "Bold Para", r#"<w:rPr><w:b/></w:rPr>"#),
        cstyle("Strong", "Strong", r#"<w:rPr><w:b/></w:rPr>"#),
        cstyle("VerbatimChar", "Verbatim Char", r#"<w:rPr><w:rFonts w:ascii="Consolas"/></w:rPr>"#),
        r#"<w:style w:type="character" w:customStyle="1" w:styleId="Highlight"><w:name w:val="Highlight"/></w:style>"#.to_string(),
    ]
    .concat();
    let run = |rpr: &str, t: &str| {
        format!(r#"<w:r><w:rPr>{rpr}</w:rPr><w:t xml:space="preserve">{t}</w:t></w:r>"#)
    };
    let body = [
        format!(
            "<w:p>{}</w:p>",
            [
                run("<w:b/>", "bold "),
                run("<w:b w:val=\"0\"/>", "notbold "),
                run("<w:i w:val=\"true\"/>", "italic "),
                run("<w:u w:val=\"single\"/>", "under "),
                run("<w:u w:val=\"none\"/>", "nounder "),
                run("<w:strike/>", "strike "),
                run("<w:dstrike/>", "dstrike "),
                run("<w:vertAlign w:val=\"superscript\"/>", "sup"),
                run("<w:vertAlign w:val=\"subscript\"/>", "sub"),
                run("<w:smallCaps/>", " caps "),
                run("<w:rFonts w:ascii=\"Courier New\"/>", "mono"),
                run("<w:rStyle w:val=\"VerbatimChar\"/>", " verbatim"),
                run("<w:rStyle w:val=\"Highlight\"/>", " custom"),
                run("<w:b w:val=\"off\"/><w:i w:val=\"0\"/>", " plain"),
            ]
            .concat()
        ),
        // Paragraph style bold + character style bold toggles off (ECMA-376 §17.7.3).
        format!(
            "<w:p><w:pPr><w:pStyle w:val=\"BoldPara\"/></w:pPr>{}{}</w:p>",
            run("", "styled "),
            run("<w:rStyle w:val=\"Strong\"/>", "toggled")
        ),
    ]
    .concat();
    let c = docx(&body).styles(&st).read();
    valid(&c);
    let ps = paras(&c);
    let has = |i: usize, style: TextStyle, text: &str| {
        fn find(list: &[Inline], style: TextStyle, text: &str, inside: bool) -> bool {
            list.iter().any(|i| match i {
                Inline::Text { text: t } => inside && t.contains(text),
                Inline::Styled { style: s, children } => {
                    find(children, style, text, inside || *s == style)
                }
                other => other
                    .children()
                    .is_some_and(|c| find(c, style, text, inside)),
            })
        }
        find(&ps[i].content, style, text, false)
    };
    assert!(has(0, TextStyle::Bold, "bold"));
    assert!(!has(0, TextStyle::Bold, "notbold"));
    assert!(has(0, TextStyle::Italic, "italic"));
    assert!(has(0, TextStyle::Underline, "under"));
    assert!(!has(0, TextStyle::Underline, "nounder"));
    assert!(has(0, TextStyle::Strike, "dstrike"));
    assert!(has(0, TextStyle::Superscript, "sup"));
    assert!(has(0, TextStyle::Subscript, "sub"));
    assert!(has(0, TextStyle::SmallCaps, "caps"));
    assert!(has(0, TextStyle::Code, "mono"));
    assert!(has(0, TextStyle::Code, "verbatim"));
    assert!(!has(0, TextStyle::Code, "custom"));
    assert!(has(1, TextStyle::Bold, "styled"));
    assert!(!has(1, TextStyle::Bold, "toggled"));
    golden("formatting", &c);
}

#[test]
fn breaks_tabs_symbols_and_hyphens() {
    let body = [
        r#"<w:p><w:r><w:t>a</w:t><w:br/><w:t>b</w:t><w:cr/><w:t>c</w:t><w:tab/><w:t>d</w:t><w:br w:type="column"/><w:t>e</w:t></w:r></w:p>"#,
        r#"<w:p><w:r><w:t>before</w:t><w:br w:type="page"/><w:t>after</w:t></w:r></w:p>"#,
        r#"<w:p><w:r><w:t>x</w:t><w:sym w:font="Symbol" w:char="F0B7"/><w:sym w:font="Arial" w:char="2014"/><w:t>soft</w:t><w:softHyphen/><w:t>hy</w:t><w:noBreakHyphen/><w:t>phen</w:t></w:r></w:p>"#,
        r#"<w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:t>new page</w:t></w:r></w:p>"#,
        r#"<w:p/>"#,
    ]
    .concat();
    let c = docx(&body).read();
    valid(&c);
    let b = &c.value.blocks;
    assert!(matches!(&b[0], Block::Paragraph(p) if plain_text(&p.content) == "a\nb\nc\td\ne"));
    assert!(matches!(&b[1], Block::Paragraph(p) if plain_text(&p.content) == "before"));
    assert!(matches!(b[2], Block::PageBreak));
    assert!(matches!(&b[3], Block::Paragraph(p) if plain_text(&p.content) == "after"));
    assert!(
        matches!(&b[4], Block::Paragraph(p) if plain_text(&p.content) == "x\u{2022}\u{2014}soft\u{AD}hy\u{2011}phen")
    );
    assert!(matches!(b[5], Block::PageBreak));
    assert!(matches!(&b[6], Block::Paragraph(p) if plain_text(&p.content) == "new page"));
    assert!(
        matches!(&b[7], Block::Paragraph(p) if p.content.is_empty()),
        "empty paragraphs stay"
    );
    golden("breaks", &c);
}

#[test]
fn alternate_content_takes_one_branch() {
    let body = r#"<w:p><w:r><w:t>A</w:t></w:r>
      <mc:AlternateContent><mc:Choice Requires="w14"><w:r><w:t>choice</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t>fallback</w:t></w:r></mc:Fallback></mc:AlternateContent>
      <mc:AlternateContent><mc:Choice Requires="cx1"><w:r><w:t>unknown</w:t></w:r></mc:Choice><mc:Fallback><w:r><w:t>second</w:t></w:r></mc:Fallback></mc:AlternateContent>
    </w:p>"#;
    let c = docx(body).read();
    valid(&c);
    assert_eq!(kinds(&c)[0].2, "Achoicesecond");
}

#[test]
fn content_controls_smart_tags_and_custom_xml_are_unwrapped() {
    let body = r#"<w:sdt><w:sdtPr><w:alias w:val="x"/></w:sdtPr><w:sdtContent><w:p><w:r><w:t>block sdt</w:t></w:r></w:p></w:sdtContent></w:sdt>
      <w:customXml w:element="c"><w:p><w:smartTag w:element="place"><w:r><w:t>smart</w:t></w:r></w:smartTag><w:sdt><w:sdtContent><w:r><w:t> inline</w:t></w:r></w:sdtContent></w:sdt><w:customXml w:element="d"><w:r><w:t> custom</w:t></w:r></w:customXml></w:p></w:customXml>"#;
    let c = docx(body).read();
    valid(&c);
    let k: Vec<String> = kinds(&c).into_iter().map(|k| k.2).collect();
    assert_eq!(k, ["block sdt", "smart inline custom"]);
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
}

#[test]
fn equations_are_formulas_and_unknown_elements_keep_text_with_a_warning() {
    let body = r#"<w:p><w:r><w:t>E=</w:t></w:r><m:oMath><m:r><m:t>mc</m:t></m:r><m:sSup><m:e><m:r><m:t>2</m:t></m:r></m:e></m:sSup></m:oMath><w:foo><w:r><w:t> kept</w:t></w:r></w:foo></w:p>"#;
    let c = docx(body).read();
    valid(&c);
    assert_eq!(kinds(&c)[0].2, "E=mc2 kept");
    assert!(
        paras(&c)[0]
            .content
            .iter()
            .any(|i| matches!(i, Inline::Math { display: false, .. }))
    );
    let kinds: Vec<WarningKind> = c.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WarningKind::UnknownElement]);
}

/// Word writes an emoji as `mc:AlternateContent` whose Choice is `w16se:symEx` (the code point)
/// and whose Fallback is the text: the character is kept either way (it was lost).
#[test]
fn emoji_as_sym_ex_is_kept() {
    let body = r#"<w:p><w:r><w:t xml:space="preserve">Hello </w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="w16se"><w16se:symEx xmlns:w16se="http://schemas.microsoft.com/office/word/2015/wordml/symex" w16se:font="Apple Color Emoji" w16se:char="1F431"/></mc:Choice><mc:Fallback><w:t>🐱</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>"#;
    let c = docx(body).read();
    assert_eq!(
        sdconv::ast::inline::plain_text(&paras(&c)[0].content),
        "Hello 🐱"
    );
}
