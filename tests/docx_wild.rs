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

// ---- item 3: grouped drawings and canvases ------------------------------------------------

const WPG: &str = "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup";
const WPC: &str = "http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas";

/// A text box shape at (`x`, `y`) EMU holding one paragraph.
fn text_shape(x: u64, y: u64, text: &str) -> String {
    format!(
        r#"<wps:wsp><wps:cNvSpPr txBox="1"/><wps:spPr><a:xfrm><a:off x="{x}" y="{y}"/><a:ext cx="100000" cy="100000"/></a:xfrm></wps:spPr><wps:txbx><w:txbxContent>{}</w:txbxContent></wps:txbx><wps:bodyPr/></wps:wsp>"#,
        p(text)
    )
}

/// A shape with neither text nor picture (a rectangle, a connector).
const BARE_RECT: &str = r#"<wps:wsp><wps:cNvSpPr/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></a:xfrm><a:prstGeom prst="rect"/></wps:spPr><wps:bodyPr/></wps:wsp>"#;

/// A picture inside a group.
const GROUP_PIC: &str = r#"<pic:pic><pic:nvPicPr><pic:cNvPr id="3" name="p"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdImg"/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="900000"/><a:ext cx="10" cy="10"/></a:xfrm></pic:spPr></pic:pic>"#;

/// A floating drawing (inside `mc:AlternateContent` as Word writes it) whose graphic is
/// `inner` of kind `uri`.
fn anchored_graphic(requires: &str, uri: &str, inner: &str) -> String {
    format!(
        r#"<w:p><w:r><w:t>anchor</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="{requires}"><w:drawing><wp:anchor><wp:extent cx="2000000" cy="2000000"/><wp:docPr id="1" name="Group 1"/><a:graphic><a:graphicData uri="{uri}">{inner}</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:rect><v:textbox><w:txbxContent>{}</w:txbxContent></v:textbox></v:rect></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>"#,
        p("fallback must not show")
    )
}

#[test]
fn a_group_keeps_text_boxes_in_reading_order_and_pictures() {
    // Drawing order: the lower box first, then a picture, a bare rectangle, the upper box.
    let group = format!(
        r#"<wpg:wgp xmlns:wpg="{WPG}"><wpg:cNvGrpSpPr/><wpg:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="2000000" cy="2000000"/><a:chOff x="0" y="0"/><a:chExt cx="2000000" cy="2000000"/></a:xfrm></wpg:grpSpPr>{}{GROUP_PIC}{BARE_RECT}{}</wpg:wgp>"#,
        text_shape(0, 1_000_000, "lower box"),
        text_shape(0, 10, "upper box"),
    );
    let body = anchored_graphic("wpg", WPG, &group) + &p("after");
    let c = docx(&body).image("rIdImg", "g.png", png(4, 3)).read();
    valid(&c);
    let t = texts(&c);
    assert_eq!(t, ["anchor", "upper box", "lower box", "after"], "{t:?}");
    // The picture is kept as an image.
    let images = c
        .value
        .blocks
        .iter()
        .filter(|b| matches!(b, Block::Image(_)))
        .count()
        + c.value
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::Paragraph(p) => Some(&p.content),
                _ => None,
            })
            .flatten()
            .filter(|i| matches!(i, sdconv::ast::Inline::Image { .. }))
            .count();
    assert_eq!(images, 1);
    assert!(c.value.media.get("g.png").is_some());
    let m = messages(&c);
    assert!(
        m.contains(&"a shape without picture or text in a group or canvas dropped; its text and pictures are kept".to_string()),
        "{m:?}"
    );
    assert!(
        !m.iter()
            .any(|w| w.contains("a drawing without picture or text")),
        "{m:?}"
    );
}

#[test]
fn a_canvas_keeps_its_text_boxes() {
    let canvas = format!(
        r#"<wpc:wpc xmlns:wpc="{WPC}"><wpc:bg/><wpc:whole/>{}{BARE_RECT}{BARE_RECT}</wpc:wpc>"#,
        text_shape(5, 5, "on the canvas")
    );
    let c = docx(&anchored_graphic("wpc", WPC, &canvas)).read();
    valid(&c);
    assert_eq!(texts(&c), ["anchor", "on the canvas"]);
    let dropped: Vec<String> = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Dropped)
        .map(|w| w.message.clone())
        .collect();
    assert_eq!(
        dropped,
        [
            "2 shapes without picture or text in a group or canvas dropped; its text and pictures are kept"
        ]
    );
}

#[test]
fn a_group_of_bare_shapes_is_dropped_with_the_warning() {
    let group = format!(r#"<wpg:wgp xmlns:wpg="{WPG}">{BARE_RECT}{BARE_RECT}</wpg:wgp>"#);
    let c = docx(&anchored_graphic("wpg", WPG, &group)).read();
    valid(&c);
    assert_eq!(texts(&c), ["anchor"]);
    assert!(
        messages(&c)
            .iter()
            .any(|m| m == "a drawing without picture or text (a shape or line) is dropped"),
        "{:?}",
        messages(&c)
    );
}

// ---- item 4: captions that are only label and number --------------------------------------

/// A caption paragraph (Word's Caption style) holding only `Table {SEQ Table}` inside the
/// bookmark `_Ref71265628`, what "Insert Caption" leaves when no text is typed.
fn bare_caption(label: &str) -> String {
    format!(
        r#"<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr><w:bookmarkStart w:id="7" w:name="_Ref71265628"/><w:r><w:t xml:space="preserve">{label} </w:t></w:r>{}<w:bookmarkEnd w:id="7"/></w:p>"#,
        field(&format!(r"SEQ {label} \* ARABIC"), "1")
    )
}

fn one_cell_table(text: &str) -> String {
    format!(
        r#"<w:tbl><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc>{}</w:tc></w:tr></w:tbl>"#,
        p(text)
    )
}

fn ref_paragraph() -> String {
    format!(
        r#"<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r>{}</w:p>"#,
        field(r"REF _Ref71265628 \h", "Table 1")
    )
}

#[test]
fn a_caption_of_only_label_and_number_keeps_the_table_numbered() {
    let body = [
        bare_caption("Table"),
        one_cell_table("cell"),
        ref_paragraph(),
    ]
    .concat();
    let c = docx(&body)
        .styles(&[NORMAL.to_string(), pstyle("Caption", "caption", "")].concat())
        .read();
    valid(&c);
    let t = match &c.value.blocks[0] {
        Block::Table(t) => t,
        other => panic!("{other:?}"),
    };
    assert!(t.numbered, "the table stays numbered");
    assert_eq!(
        t.caption.as_deref(),
        Some(""),
        "caption present, text empty"
    );
    let id =
        t.id.clone()
            .expect("the caption's bookmark is the table's id");
    let Block::Paragraph(see) = &c.value.blocks[1] else {
        panic!("{:?}", c.value.blocks[1]);
    };
    assert!(
        see.content.iter().any(|i| matches!(
            i,
            sdconv::ast::Inline::CrossRef { target, number: true, .. } if *target == id
        )),
        "{:?}",
        see.content
    );
    // Every writer that shows text shows "Table 1" for the reference (and the caption), never
    // the bookmark name; Word's REF field result is "Table 1".
    for (format, shown, _) in written(&c.value) {
        match format {
            "sdxml" => {}
            "word" => assert!(shown.contains(">Table 1<"), "{format}: {shown}"),
            _ => {
                assert!(shown.contains("Table 1"), "{format}: {shown}");
                assert!(
                    !visible(&shown).contains("_Ref71265628"),
                    "{format}: {shown}"
                );
            }
        }
    }
    // The caption survives a Word round trip as label and number alone.
    let docx = sdconv::export(&c.value, sdconv::Format::Word, &captions_on()).unwrap();
    let back = sdconv::import::docx::read(&docx.value, &Default::default()).unwrap();
    let Block::Table(t2) = &back.value.blocks[0] else {
        panic!("{:?}", back.value.blocks[0]);
    };
    assert_eq!((t2.caption.as_deref(), t2.numbered), (Some(""), true));
}

#[test]
fn a_reference_to_a_target_without_number_or_text_never_shows_the_id() {
    use sdconv::ast::{Inline, Paragraph, TextType};
    let xref = |target: &str| Inline::CrossRef {
        target: target.into(),
        number: false,
        text: true,
    };
    let mut empty = Paragraph::new(TextType::Paragraph, Vec::new());
    empty.id = Some("_Ref555".into());
    let doc = Document {
        blocks: vec![
            Block::Paragraph(empty),
            Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                vec![
                    Inline::Text {
                        text: "see ".into(),
                    },
                    xref("_Ref555"),
                    Inline::Text {
                        text: " and ".into(),
                    },
                    xref("_Ref999"),
                ],
            )),
        ],
        ..Document::default()
    };
    for (format, shown, warnings) in written(&doc) {
        if format == "sdxml" {
            continue;
        }
        let raw = ["_Ref555", "_Ref999"];
        if format != "word" {
            let seen = visible(&shown);
            assert!(!raw.iter().any(|r| seen.contains(r)), "{format}: {seen}");
        }
        assert!(shown.contains('\u{2197}'), "{format}: {shown}");
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("_Ref555") || w.contains("_Ref999")),
            "{format}: {warnings:?}"
        );
    }
}

/// The document written in every text-bearing format, as text to search, with the warnings.
fn written(doc: &Document) -> Vec<(&'static str, String, Vec<String>)> {
    use sdconv::Format;
    let mut out = Vec::new();
    for format in [
        Format::Html,
        Format::HtmlAllInOne,
        Format::Markdown,
        Format::Parsx,
        Format::Sdxml,
        Format::Word,
    ] {
        let done = sdconv::export(doc, format, &captions_on())
            .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        let warnings = done.warnings.iter().map(|w| w.message.clone()).collect();
        out.push((format.name(), unzip_text(&done.value), warnings));
    }
    out
}

/// Export options with Word's table and figure captions switched on.
fn captions_on() -> sdconv::ExportOptions {
    let mut options = sdconv::ExportOptions::default();
    options.word.settings = options
        .word
        .settings
        .with_table_caption(true)
        .with_image_caption(true);
    options
}

/// Markup's text outside tags (ids and hrefs are not what a reader sees).
fn visible(markup: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in markup.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The bytes as text, or every entry of a zip as text, joined.
fn unzip_text(bytes: &[u8]) -> String {
    use std::io::Read;
    let Ok(mut z) = zip::ZipArchive::new(std::io::Cursor::new(bytes)) else {
        return String::from_utf8_lossy(bytes).into_owned();
    };
    let mut all = String::new();
    for i in 0..z.len() {
        let mut s = String::new();
        if let Ok(mut f) = z.by_index(i) {
            if f.read_to_string(&mut s).is_ok() {
                all.push_str(&s);
            }
        }
    }
    all
}

// ---- item 5: symbols ----------------------------------------------------------------------

#[test]
fn symbols_of_symbol_fonts_become_the_unicode_they_show() {
    let sym = |font: &str, code: &str| format!(r#"<w:sym w:font="{font}" w:char="{code}"/>"#);
    let body = format!(
        "<w:p><w:r>{}{}{}{}{}{}{}{}</w:r></w:p>",
        sym("Symbol", "F061"),    // alpha
        sym("Symbol", "F0AE"),    // arrow right
        sym("Symbol", "F0B7"),    // bullet
        sym("Wingdings", "F0FC"), // check mark
        sym("Wingdings", "F0D8"), // arrowhead bullet
        sym("Webdings", "F061"),  // heavy check mark
        sym("Wingdings", "F0FF"), // no Unicode equivalent (the Windows logo)
        sym("Wingdings", "F0FF"), // the same again: one warning
    );
    let c = docx(&body).read();
    valid(&c);
    assert_eq!(texts(&c), ["α→•✓\u{2B9A}✔\u{F0FF}\u{F0FF}"]);
    assert_eq!(
        messages(&c),
        [
            "symbol U+F0FF of the font \"Wingdings\" has no Unicode equivalent; kept as that code, which shows only in that font"
        ]
    );
}

// ---- item 6: style-warning noise ----------------------------------------------------------

/// List 5: one level that shows no number.
const NO_NUMBER_LIST: &str = r#"<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="none"/><w:lvlText w:val=""/></w:lvl></w:abstractNum><w:num w:numId="5"><w:abstractNumId w:val="1"/></w:num>"#;

#[test]
fn body_text_styles_are_silent_and_structural_cues_are_named() {
    let body_styles = [
        ("BodyText", "Body Text"),
        ("FirstParagraph", "First Paragraph"),
        ("Compact", "Compact"),
        ("TextBody", "Text Body"),
        ("Default", "Default"),
        ("Standard", "Standard"),
        ("NormalWeb", "Normal (Web)"),
    ];
    let mut styles = NORMAL.to_string();
    let mut body = String::new();
    for (id, name) in body_styles {
        styles.push_str(&pstyle(id, name, r#"<w:basedOn w:val="Normal"/>"#));
        body.push_str(&ps(id, name));
    }
    // Cues: a heading-like name, a list-like name, numbering without a number.
    styles.push_str(&pstyle("ChapterTitle", "Chapter Title", ""));
    styles.push_str(&pstyle("StepList", "Step List", ""));
    styles.push_str(&pstyle(
        "Numbered",
        "Numbered",
        r#"<w:pPr><w:numPr><w:numId w:val="5"/></w:numPr></w:pPr>"#,
    ));
    body.push_str(&ps("ChapterTitle", "A chapter"));
    body.push_str(&ps("StepList", "A step"));
    body.push_str(&ps("Numbered", "Unnumbered"));
    let c = docx(&body).styles(&styles).numbering(NO_NUMBER_LIST).read();
    valid(&c);
    assert_eq!(texts(&c).len(), 10);
    assert_eq!(
        messages(&c),
        [
            "Unrecognised paragraph style: Chapter Title (Style ID: ChapterTitle); its name looks like a heading, but it is kept as a plain paragraph",
            "Unrecognised paragraph style: Step List (Style ID: StepList); its name looks like a list, but it is kept as a plain paragraph",
            "Unrecognised paragraph style: Numbered (Style ID: Numbered); it has numbering (numId 5) without a number, but it is kept as a plain paragraph",
        ]
    );
}

/// Title and Subtitle at the start are the document's title and subtitle: the reader uses them,
/// so they draw no warning; a Title paragraph further down stays a paragraph and says so once.
#[test]
fn title_styles_warn_only_where_they_are_not_the_title() {
    let mut styles = NORMAL.to_string();
    styles.push_str(&pstyle("Title", "Title", ""));
    styles.push_str(&pstyle("Subtitle", "Subtitle", ""));
    let body = [
        ps("Title", "The report"),
        ps("Subtitle", "Its subtitle"),
        p("Body text."),
    ]
    .concat();
    let c = docx(&body).styles(&styles).read();
    valid(&c);
    assert_eq!(c.value.meta.title.as_deref(), Some("The report"));
    assert_eq!(c.value.meta.subtitle.as_deref(), Some("Its subtitle"));
    assert!(messages(&c).is_empty(), "{:?}", messages(&c));

    let late = [
        p("Body text."),
        ps("Title", "Not the title"),
        ps("Title", "Nor this"),
    ]
    .concat();
    let c = docx(&late).styles(&styles).read();
    assert_eq!(
        messages(&c),
        [
            "Unrecognised paragraph style: Title; it is not at the start of the document, where it would be the title, so it is kept as a plain paragraph"
        ]
    );
}

/// The bundled sample, converted as the README's first command does, draws no warning.
#[test]
fn the_bundled_sample_reads_without_warnings() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/samples/sample.docx")).unwrap();
    let c = sdconv::import(
        sdconv::Format::Word,
        &bytes,
        &sdconv::ImportOptions::default(),
    )
    .unwrap();
    let messages: Vec<String> = c.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(messages.is_empty(), "{messages:?}");
}

/// The reader decides once per style what its name says; numbering still counts per paragraph.
#[test]
fn a_quiet_style_still_draws_the_warning_when_a_later_paragraph_is_numbered() {
    let mut styles = NORMAL.to_string();
    styles.push_str(&pstyle("Plain", "Plain", ""));
    let numbered = r#"<w:p><w:pPr><w:pStyle w:val="Plain"/><w:numPr><w:numId w:val="5"/></w:numPr></w:pPr><w:r><w:t>Numbered</w:t></w:r></w:p>"#;
    // Quiet first (the style's name says nothing), then numbered twice: one warning.
    let body = [
        ps("Plain", "First"),
        numbered.to_string(),
        numbered.to_string(),
    ]
    .concat();
    let c = docx(&body).styles(&styles).numbering(NO_NUMBER_LIST).read();
    valid(&c);
    assert_eq!(texts(&c).len(), 3);
    assert_eq!(
        messages(&c),
        [
            "Unrecognised paragraph style: Plain (Style ID: Plain); it has numbering (numId 5) without a number, but it is kept as a plain paragraph"
        ]
    );
}

// ---- item 9: page headers -----------------------------------------------------------------

fn header_part(text: &str) -> Vec<u8> {
    format!(
        r#"<w:hdr {NS}><w:p><w:pPr><w:pStyle w:val="Header"/></w:pPr><w:r><w:t>{text}</w:t></w:r><w:r><w:tab/></w:r>{}</w:p></w:hdr>"#,
        field("PAGE", "3")
    )
    .into_bytes()
}

#[test]
fn page_headers_are_kept_in_the_metadata_and_written_back() {
    let body = format!(
        r#"{}<w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/><w:headerReference w:type="first" r:id="rIdH2"/><w:headerReference w:type="even" r:id="rIdH3"/><w:titlePg/></w:sectPr>"#,
        p("text")
    );
    let c = docx(&body)
        .rel("rIdH1", "header", "header1.xml", false)
        .rel("rIdH2", "header", "header2.xml", false)
        .rel("rIdH3", "header", "header3.xml", false)
        .part("word/header1.xml", &header_part("Annual report"))
        .part("word/header2.xml", &header_part("Cover"))
        .part("word/header3.xml", &header_part("Even pages"))
        .read();
    valid(&c);
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
    let m = &c.value.meta;
    let section = &m.pages.sections[0];
    let text = |t: &Option<sdconv::ast::PageText>| t.as_ref().map(|t| t.lines(None).concat());
    assert_eq!(
        text(&section.header.default).as_deref(),
        Some("Annual report\t")
    );
    assert_eq!(text(&section.header.first).as_deref(), Some("Cover\t"));
    assert_eq!(text(&section.header.even).as_deref(), Some("Even pages\t"));
    assert!(section.title_page);
    // The page number stays a field.
    assert_eq!(
        section.header.default.as_ref().unwrap().paragraphs[0].last(),
        Some(&sdconv::ast::PagePiece::PageNumber)
    );
    // Word writes them back (default, first with titlePg, even with evenAndOddHeaders) and
    // reads them again; sd.xml carries them in its extension.
    for format in [sdconv::Format::Word, sdconv::Format::Sdxml] {
        let bytes = sdconv::export(&c.value, format, &Default::default())
            .unwrap()
            .value;
        let back = sdconv::import(format, &bytes, &Default::default())
            .unwrap()
            .value;
        assert_eq!(back.meta.pages, m.pages, "{format:?}");
    }
    // HTML: the default header above the text, on screen too; the first-page and even-page
    // headers and the page number are not shown, warned.
    let out = sdconv::export(&c.value, sdconv::Format::HtmlAllInOne, &Default::default()).unwrap();
    let html = String::from_utf8(out.value).unwrap();
    assert!(
        html.contains("<header class=\"page-header\">\n<p>Annual report</p>\n</header>"),
        "{html}"
    );
    assert!(!html.contains(".page-header { display: none; }"));
    let warned: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert!(
        warned.iter().any(|w| w.contains("2 other page header")),
        "{warned:?}"
    );
    assert!(
        warned.iter().any(|w| w.contains("page numbers")),
        "{warned:?}"
    );
}

#[test]
fn the_template_title_header_is_not_read_as_the_documents() {
    let mut doc = Document::default();
    doc.meta.title = Some("A title".into());
    doc.blocks = vec![Block::Paragraph(sdconv::ast::Paragraph::new(
        sdconv::ast::TextType::Paragraph,
        vec![sdconv::ast::Inline::text("x")],
    ))];
    let bytes = sdconv::export(&doc, sdconv::Format::Word, &Default::default())
        .unwrap()
        .value;
    let text = unzip_text(&bytes);
    assert!(
        text.contains("A title</w:t>"),
        "the template shows the title"
    );
    let back = sdconv::import(sdconv::Format::Word, &bytes, &Default::default())
        .unwrap()
        .value;
    assert!(back.meta.pages.is_empty(), "{:?}", back.meta.pages);
}

// ---- item 11: SmartArt --------------------------------------------------------------------

#[test]
fn smartart_text_becomes_a_nested_list_with_a_warning() {
    const DGM: &str = "http://schemas.openxmlformats.org/drawingml/2006/diagram";
    let body = format!(
        r#"<w:p><w:r><w:t>Process:</w:t></w:r><w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Diagram 1"/><a:graphic><a:graphicData uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>{}"#,
        p("after")
    );
    let data = format!(
        r#"<dgm:dataModel xmlns:dgm="{DGM}" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst><dgm:pt modelId="{{0}}" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt><dgm:pt modelId="{{B}}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>Build</a:t></a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="{{A}}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>Plan</a:t></a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="{{A1}}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>Gather </a:t></a:r><a:r><a:t>needs</a:t></a:r></a:p></dgm:t></dgm:pt><dgm:pt modelId="{{S}}" type="sibTrans"/></dgm:ptLst><dgm:cxnLst><dgm:cxn modelId="1" srcId="{{0}}" destId="{{B}}" srcOrd="1" destOrd="0"/><dgm:cxn modelId="2" srcId="{{0}}" destId="{{A}}" srcOrd="0" destOrd="0"/><dgm:cxn modelId="3" srcId="{{A}}" destId="{{A1}}" srcOrd="0" destOrd="0"/><dgm:cxn modelId="4" type="presOf" srcId="{{A}}" destId="{{S}}"/></dgm:cxnLst></dgm:dataModel>"#
    );
    let c = docx(&body)
        .rel("rIdDm", "diagramData", "diagrams/data1.xml", false)
        .part("word/diagrams/data1.xml", data.as_bytes())
        .read();
    valid(&c);
    let items: Vec<(sdconv::ast::TextType, u8, String)> = c
        .value
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some((p.kind, p.level, plain_text(&p.content))),
            _ => None,
        })
        .collect();
    use sdconv::ast::TextType::*;
    assert_eq!(
        items,
        [
            (Paragraph, 0, "Process:".to_string()),
            (ListUl, 0, "Plan".to_string()),
            (ListUl, 1, "Gather needs".to_string()),
            (ListUl, 0, "Build".to_string()),
            (Paragraph, 0, "after".to_string()),
        ]
    );
    assert_eq!(
        messages(&c),
        [
            "a SmartArt diagram is kept as its text, a nested list after the paragraph that anchors it; the drawing itself is not kept"
        ]
    );
}

// ---- item 10: ruby ------------------------------------------------------------------------

#[test]
fn ruby_is_kept_as_base_and_reading() {
    use sdconv::ast::Inline;
    let body = r#"<w:p><w:r><w:t xml:space="preserve">Read </w:t></w:r><w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="21"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt><w:r><w:t>かんじ</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>漢字</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:t>.</w:t></w:r></w:p>"#;
    let c = docx(body).read();
    valid(&c);
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
    let Block::Paragraph(p) = &c.value.blocks[0] else {
        panic!("{:?}", c.value.blocks[0]);
    };
    assert_eq!(
        p.content,
        [
            Inline::text("Read "),
            Inline::Ruby {
                base: "漢字".into(),
                reading: "かんじ".into()
            },
            Inline::text(".")
        ]
    );
    let html = sdconv::export(&c.value, sdconv::Format::HtmlAllInOne, &Default::default())
        .unwrap()
        .value;
    let html = String::from_utf8(html).unwrap();
    assert!(
        html.contains("Read <ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>."),
        "{html}"
    );
    for (format, shown, warnings) in written(&c.value) {
        match format {
            "html" | "html_all_in_one" | "word" => {}
            _ => assert!(
                visible(&shown).contains("漢字 (かんじ)"),
                "{format}: {shown}"
            ),
        }
        if matches!(format, "markdown" | "parsx") {
            assert!(
                warnings.iter().any(|w| w.contains("ruby")),
                "{format}: {warnings:?}"
            );
        }
    }
    // Word and sd.xml give the ruby back.
    for format in [sdconv::Format::Word, sdconv::Format::Sdxml] {
        let bytes = sdconv::export(&c.value, format, &Default::default())
            .unwrap()
            .value;
        let back = sdconv::import(format, &bytes, &Default::default())
            .unwrap()
            .value;
        assert_eq!(back.blocks, c.value.blocks, "{format:?}");
    }
}

// ---- item 8 (part): charts kept as their data -----------------------------------------------

#[test]
fn a_chart_is_kept_as_its_data_table() {
    const C: &str = "http://schemas.openxmlformats.org/drawingml/2006/chart";
    let body = format!(
        r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="{C}"><c:chart xmlns:c="{C}" r:id="rIdChart"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>{}"#,
        p("after")
    );
    let series = |name: &str, values: [&str; 2]| {
        format!(
            r#"<c:ser><c:idx val="0"/><c:tx><c:strRef><c:f>S!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>{name}</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:ptCount val="2"/><c:pt idx="0"><c:v>Q1</c:v></c:pt><c:pt idx="1"><c:v>Q2</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="2"/><c:pt idx="0"><c:v>{}</c:v></c:pt><c:pt idx="1"><c:v>{}</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>"#,
            values[0], values[1]
        )
    };
    let chart = format!(
        r#"<c:chartSpace xmlns:c="{C}" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart><c:barDir val="col"/>{}{}</c:barChart><c:valAx><c:title><c:tx><c:rich><a:p><a:r><a:t>EUR</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx></c:plotArea></c:chart></c:chartSpace>"#,
        series("2023", ["1.5", "2"]),
        series("2024", ["3", "4.25"])
    );
    let c = docx(&body)
        .rel("rIdChart", "chart", "charts/chart1.xml", false)
        .part("word/charts/chart1.xml", chart.as_bytes())
        .read();
    valid(&c);
    let table = c
        .value
        .blocks
        .iter()
        .find_map(|b| match b {
            Block::Table(t) => Some(t),
            _ => None,
        })
        .expect("the chart's data table");
    assert_eq!(table.caption.as_deref(), Some("Revenue"));
    let grid: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|cell| {
                    let mut out = Vec::new();
                    collect(&cell.blocks, &mut out);
                    out.concat()
                })
                .collect()
        })
        .collect();
    assert_eq!(
        grid,
        [
            vec!["", "2023", "2024"],
            vec!["Q1", "1.5", "3"],
            vec!["Q2", "2", "4.25"]
        ]
    );
    assert!(table.rows[0].header);
    assert_eq!(
        messages(&c),
        ["a chart is kept as its data table and kind (title as caption); its styling is not"]
    );
    assert_eq!(texts(&c).last().map(String::as_str), Some("after"));
}

// ---- issue 27: text of shapes in a locked canvas -------------------------------------------

#[test]
fn text_of_shapes_in_a_locked_canvas_is_kept() {
    let shape = |text: &str, y: u32| {
        format!(
            r#"<a:sp><a:spPr><a:xfrm><a:off x="0" y="{y}"/><a:ext cx="914400" cy="304800"/></a:xfrm></a:spPr><a:txSp><a:txBody><a:bodyPr/><a:p><a:r><a:t>{text}</a:t></a:r></a:p><a:p/></a:txBody></a:txSp></a:sp>"#
        )
    };
    let canvas = format!(
        r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="2743200" cy="1828800"/><wp:docPr id="1" name="Canvas"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/lockedCanvas"><lc:lockedCanvas xmlns:lc="http://schemas.openxmlformats.org/drawingml/2006/lockedCanvas">{}{}<a:cxnSp><a:spPr/></a:cxnSp></lc:lockedCanvas></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#,
        shape("Input stage", 0),
        shape("Output stage", 914400)
    );
    let c = docx(&format!("{}{canvas}{}", p("Before"), p("After"))).read();
    valid(&c);
    let text: Vec<String> = c
        .value
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => sdconv::ast::inline::plain_text(&p.content),
            other => format!("{other:?}"),
        })
        .filter(|t| !t.is_empty())
        .collect();
    assert_eq!(text, ["Before", "Input stage", "Output stage", "After"]);
    // The connector has no text: that loss is warned, and the shapes' text is placed after the
    // paragraph holding the canvas, as a text box's; never "the drawing had no text".
    let warned = messages(&c);
    assert!(
        warned
            .iter()
            .any(|w| w.contains("a shape without picture or text")),
        "{warned:?}"
    );
    assert!(
        warned
            .iter()
            .all(|w| w.contains("shape without") || w.contains("text box content is placed after")),
        "{warned:?}"
    );
}

// ---- issue 27: a REF to a bookmark around a whole caption ----------------------------------

#[test]
fn a_reference_to_a_whole_caption_shows_its_label_and_number() {
    // "Insert Caption" with text typed after the number, the bookmark around all of it.
    let caption = format!(
        r#"<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr><w:bookmarkStart w:id="7" w:name="_Ref71265628"/><w:r><w:t xml:space="preserve">Table </w:t></w:r>{}<w:r><w:t xml:space="preserve"> This is my table!</w:t></w:r><w:bookmarkEnd w:id="7"/></w:p>"#,
        field(r"SEQ Table \* ARABIC", "1")
    );
    let see = format!(
        r#"<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r>{}</w:p>"#,
        field(r"REF _Ref71265628 \h", "Table 1 This is my table!")
    );
    let body = [caption, one_cell_table("cell"), see].concat();
    let c = docx(&body)
        .styles(&[NORMAL.to_string(), pstyle("Caption", "caption", "")].concat())
        .read();
    valid(&c);
    let Block::Paragraph(see) = &c.value.blocks[1] else {
        panic!("{:?}", c.value.blocks[1]);
    };
    assert!(
        see.content.iter().any(|i| matches!(
            i,
            sdconv::ast::Inline::CrossRef {
                number: true,
                text: true,
                ..
            }
        )),
        "{:?}",
        see.content
    );
    // Every writer that shows the reference shows the label and number and the text.
    for (format, shown, _) in written(&c.value) {
        if matches!(format, "sdxml" | "word") {
            continue;
        }
        let shown = visible(&shown);
        let at = shown
            .find("See ")
            .unwrap_or_else(|| panic!("{format}: {shown}"));
        let reference = &shown[at..];
        assert!(
            reference.contains("Table 1") && reference.contains("This is my table"),
            "{format}: {reference}"
        );
    }
}
