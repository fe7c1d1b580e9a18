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
