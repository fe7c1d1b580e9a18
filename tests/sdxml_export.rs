//! The sd.xml writer: DTD validity (`xmllint --dtdvalid` against the service's DTD) for
//! single-feature trees and generated ones, in both modes; the mapping of each feature; strict
//! mode; determinism; escaping; the zip.

mod common;

use std::io::{Cursor, Read};

use common::{arb, assert_dtd_valid, pis};
use proptest::prelude::*;
use sdconv::ast::inline::normalize;
use sdconv::ast::{
    Align, Block, Borders, Cell, Change, ChangeKind, Comment, DirectoryKind, Document, Extent,
    Image, IndexNode, Inline, MediaItem, Meta, NoteKind, Paragraph, Row, Table, TextStyle,
    TextType, VAlign, WordExportPresets,
};
use sdconv::export::sdxml::{SdxmlExportOptions, write, write_xml};
use sdconv::internal::sdxml_ext::Ext;
use sdconv::{ExportOptions, Format, Warning, WarningKind};
use serde_json::json;

fn normal() -> SdxmlExportOptions {
    SdxmlExportOptions::default()
}

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn styled(style: TextStyle, children: Vec<Inline>) -> Inline {
    Inline::styled(style, children)
}

fn para(kind: TextType, content: Vec<Inline>) -> Paragraph {
    Paragraph::new(kind, normalize(&content))
}

fn doc_of(blocks: Vec<Block>) -> Document {
    Document {
        blocks,
        ..Document::new()
    }
}

fn with_media(mut doc: Document, names: &[&str]) -> Document {
    for name in names {
        doc.media
            .insert(MediaItem::new(*name, arb::tiny_png(40, 30)));
    }
    doc
}

/// The XML of `doc` in both modes, each checked against the DTD; strict output has no PI.
fn both(doc: &Document) -> (sdconv::Converted<String>, sdconv::Converted<String>) {
    assert_eq!(doc.validate(), Ok(()), "test tree is invalid");
    let n = write_xml(doc, &normal());
    assert_dtd_valid(&n.value);
    let s = write_xml(doc, &SdxmlExportOptions::strict());
    assert_dtd_valid(&s.value);
    assert!(!s.value.contains("<?sdconv"), "{}", s.value);
    (n, s)
}

/// The body between `<document>` and `</document>`.
fn body(xml: &str) -> &str {
    let start = xml.find("<document>").expect("document") + "<document>".len();
    let end = xml.rfind("</document>").expect("/document");
    &xml[start..end]
}

fn fields(v: serde_json::Value) -> Ext {
    match v {
        serde_json::Value::Object(map) => Ext::Fields(map),
        other => panic!("not an object: {other}"),
    }
}

fn zip_names(zip: &[u8]) -> Vec<String> {
    let reader =
        sdconv::internal::archive::ZipReader::new(zip, &sdconv::Limits::default()).unwrap();
    reader.names().to_vec()
}

fn kinds(warnings: &[Warning]) -> Vec<WarningKind> {
    warnings.iter().map(|w| w.kind).collect()
}

#[test]
fn empty_document_is_the_minimal_valid_file() {
    let (n, s) = both(&Document::new());
    let expected = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<smashdoc><meta><title></title>\
        <subtitle></subtitle><description></description><footer></footer><creator></creator>\
        </meta><document></document></smashdoc>";
    assert_eq!(n.value, expected);
    assert_eq!(s.value, expected);
    assert!(n.warnings.is_empty() && s.warnings.is_empty());
}

#[test]
fn meta_is_written_in_dtd_order() {
    let mut doc = Document::new();
    doc.meta = Meta {
        id: Some("doc-1".into()),
        generator: Some("2.6.1.1".into()),
        title: Some("Title".into()),
        subtitle: Some("Sub".into()),
        description: Some("Desc".into()),
        filename: Some("file".into()),
        footer: Some("Foot".into()),
        pages: Default::default(),
        tags: vec!["t1".into(), "t2".into()],
        supplemental: Some("partner data".into()),
        language: Some("en_EN".into()),
        // Direction and hyphenation travel in the meta PI: tests/scripts_formats.rs.
        direction: None,
        hyphenate: false,
        creator: Some("Henry".into()),
        word_export_presets: Some(WordExportPresets {
            template_id: "tpl".into(),
            language: "en_US".into(),
            toc_text: true,
            toc_image: false,
            toc_table: true,
            caption_image: false,
            caption_table: true,
            tags: vec!["p".into()],
        }),
        grid: vec!["10%".into(), "90%".into()],
        grid_indentation_enabled: Some("true".into()),
        spellcheck_lang: Some("en".into()),
        word: None,
    };
    let (n, s) = both(&doc);
    let expected = "<smashdoc version=\"2.6.1.1\" id=\"doc-1\"><meta>\
        <?sdconv {\"fields\":{\"supplemental\":\"partner data\"}}?>\
        <language value=\"en_EN\"/><title>Title</title><filename>file</filename>\
        <subtitle>Sub</subtitle><description>Desc</description><footer>Foot</footer>\
        <creator>Henry</creator><tags><tag>t1</tag><tag>t2</tag></tags>\
        <word-export-presets template_id=\"tpl\" language=\"en_US\" toc_text=\"1\" toc_image=\"0\" \
        toc_table=\"1\" caption_image=\"0\" caption_table=\"1\"><tag>p</tag></word-export-presets>\
        <grid><item>10%</item><item>90%</item></grid>\
        <grid-indentation-enabled>true</grid-indentation-enabled>\
        <spellcheck-lang>en</spellcheck-lang></meta>";
    assert!(n.value.contains(expected), "{}", n.value);
    assert!(n.warnings.is_empty(), "{:?}", n.warnings);
    // Strict: supplemental is the one field lost.
    assert_eq!(kinds(&s.warnings), [WarningKind::Dropped]);
    assert!(
        s.warnings[0].message.contains("supplemental ×1"),
        "{:?}",
        s.warnings
    );
}

#[test]
fn meta_values_outside_the_dtd_go_in_the_pi() {
    let mut doc = Document::new();
    doc.meta.language = Some("fr_CA".into());
    doc.meta.title = Some(String::new());
    doc.meta.tags = vec![String::new(), "x".into()];
    doc.meta.word_export_presets = Some(WordExportPresets {
        language: "fr_FR".into(),
        ..WordExportPresets::default()
    });
    let (n, _) = both(&doc);
    assert!(!n.value.contains("<language"), "{}", n.value);
    assert!(!n.value.contains("<word-export-presets"), "{}", n.value);
    assert!(n.value.contains("<tags><tag>x</tag></tags>"), "{}", n.value);
    assert_eq!(
        pis(&n.value),
        [fields(json!({
            "language": "fr_CA",
            "title": "",
            "tags": ["", "x"],
            "word_export_presets": {"template_id": "", "language": "fr_FR", "toc_text": false,
                "toc_image": false, "toc_table": false, "caption_image": false,
                "caption_table": false},
        }))]
    );
}

#[test]
fn paragraph_kinds_map_to_elements() {
    let cases = [
        (
            TextType::Paragraph,
            0,
            "<paragraph indent=\"0\">x</paragraph>",
        ),
        (
            TextType::ParagraphOl,
            2,
            "<paragraph enumeration=\"2\" indent=\"0\">x</paragraph>",
        ),
        (TextType::Heading, 3, "<heading level=\"3\">x</heading>"),
        (
            TextType::HeadingOl,
            1,
            "<heading enumeration=\"1\">x</heading>",
        ),
        (TextType::ListOl, 4, "<ol-li indent=\"4\">x</ol-li>"),
        (TextType::ListUl, 0, "<ul-li indent=\"0\">x</ul-li>"),
        (
            TextType::Caption,
            0,
            "<paragraph indent=\"0\"><?sdconv {\"fields\":{\"kind\":\"caption\"}}?>x</paragraph>",
        ),
    ];
    for (kind, level, expected) in cases {
        let doc = doc_of(vec![Block::Paragraph(Paragraph {
            level,
            ..para(kind, vec![t("x")])
        })]);
        let (n, s) = both(&doc);
        assert_eq!(body(&n.value), expected, "{kind:?}");
        assert!(n.warnings.is_empty(), "{kind:?}: {:?}", n.warnings);
        if kind == TextType::Caption {
            assert!(
                s.warnings[0].message.contains("kind ×1"),
                "{:?}",
                s.warnings
            );
        }
    }
}

#[test]
fn paragraph_attributes_and_the_rest_in_one_pi() {
    let p = Paragraph {
        kind: TextType::Heading,
        level: 1,
        indent: 2,
        align: Align::Center,
        style: Some("Title style".into()),
        id: Some("h1".into()),
        origin_ids: Some("o1".into()),
        restart: true,
        start: Some(4),
        list_id: None,
        number_format: None,
        code: None,
        mark: None,
        lang: None,
        dir: None,
        content: vec![t("Head")],
    };
    let item = Paragraph {
        align: Align::Right,
        list_id: Some("L1".into()),
        style: Some("S".into()),
        restart: true,
        level: 2,
        ..para(TextType::ListOl, vec![t("item")])
    };
    let plain = Paragraph {
        style: Some("Body".into()),
        indent: 15,
        level: 3,
        ..para(TextType::Paragraph, vec![])
    };
    let doc = doc_of(vec![
        Block::Paragraph(p),
        Block::Paragraph(item),
        Block::Paragraph(plain),
    ]);
    let (n, s) = both(&doc);
    assert_eq!(
        body(&n.value),
        "<heading level=\"1\" indent=\"2\" alignment=\"center\" restartNumbering=\"1\" \
         origin_ids=\"o1\" id=\"h1\"><?sdconv {\"fields\":{\"start\":4,\"style\":\"Title style\"}}?>\
         Head</heading>\
         <ol-li indent=\"2\" list-id=\"L1\"><?sdconv {\"fields\":{\"align\":\"right\",\
         \"restart\":true,\"style\":\"S\"}}?>item</ol-li>\
         <paragraph stylename=\"Body\" indent=\"15\"><?sdconv {\"fields\":{\"level\":3}}?>\
         </paragraph>"
    );
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert_eq!(
        s.warnings[0].message,
        "strict DTD mode: 6 tree field value(s) not written, sd.xml has no attribute for them \
         or cannot hold their characters (align ×1, level ×1, restart ×1, start ×1, style ×2)"
    );
}

#[test]
fn repeated_differences_each_get_their_pi() {
    // List items have no `stylename`: every one carries its style in a PI, the same PI many
    // times over, which the writer works out once and writes again while the pair repeats.
    let item = |style: &str, text: &str| {
        Block::Paragraph(Paragraph {
            style: Some(style.into()),
            ..para(TextType::ListUl, vec![t(text)])
        })
    };
    let doc = doc_of(vec![
        item("Compact", "a"),
        item("Compact", "b"),
        item("Other", "c"),
        item("Compact", "d"),
        Block::Paragraph(para(TextType::ListUl, vec![t("e")])),
        item("Compact", "f"),
    ]);
    let (n, _) = both(&doc);
    let compact = fields(json!({"style": "Compact"}));
    let other = fields(json!({"style": "Other"}));
    assert_eq!(
        pis(&n.value),
        vec![
            compact.clone(),
            compact.clone(),
            other,
            compact.clone(),
            compact
        ]
    );
    assert!(
        body(&n.value).contains("<ul-li indent=\"0\">e</ul-li>"),
        "{}",
        n.value
    );
}

#[test]
fn image_block_attributes() {
    let img = Image {
        media: "cat.png".into(),
        caption: Some("A cat".into()),
        alt: Some("a grey cat".into()),
        width_percent: Some(33.5),
        extent: Some(Extent {
            width: 914_400,
            height: 457_200,
        }),
        align: Align::Center,
        indent: 1,
        numbered: false,
        id: Some("i1".into()),
        style: Some("Fig".into()),
        origin_ids: None,
    };
    let doc = with_media(doc_of(vec![Block::Image(img)]), &["cat.png"]);
    let (n, _) = both(&doc);
    assert_eq!(
        body(&n.value),
        "<image indent=\"1\" caption=\"A cat\" width=\"33.5%\" alignment=\"center\" \
         num-enabled=\"0\" stylename=\"Fig\" id=\"i1\"><?sdconv {\"fields\":{\"alt\":\"a grey cat\",\
         \"extent\":{\"height\":457200,\"width\":914400}}}?>cat.png</image>"
    );
    let plain = with_media(
        doc_of(vec![Block::Image(Image {
            media: "cat.png".into(),
            width_percent: Some(20.0),
            ..Image::default()
        })]),
        &["cat.png"],
    );
    let (n, s) = both(&plain);
    assert_eq!(body(&n.value), "<image width=\"20%\">cat.png</image>");
    assert!(s.warnings.is_empty());
}

fn cell(text: &str, header: bool) -> Cell {
    Cell {
        header,
        blocks: vec![Block::Paragraph(para(TextType::Paragraph, vec![t(text)]))],
        ..Cell::default()
    }
}

fn row(cells: Vec<Cell>, header: bool) -> Row {
    Row {
        header,
        cells,
        ..Row::default()
    }
}

#[test]
fn table_with_spans_widths_and_cell_attributes() {
    let rich = Cell {
        colspan: 2,
        rowspan: 2,
        align: Some(Align::Right),
        valign: Some(VAlign::Middle),
        borders: Borders {
            top: Some(true),
            right: Some(false),
            bottom: None,
            left: Some(true),
        },
        font_size: Some("9.75pt".into()),
        background: Some("#ff0000".into()),
        background_intensity: Some("50".into()),
        col_ids: Some("c1 c2".into()),
        ..cell("big", false)
    };
    let table = Table {
        columns: vec![20.0, 33.5, 46.5],
        rows: vec![
            row(
                vec![cell("A", true), cell("B", true), cell("C", true)],
                true,
            ),
            row(vec![rich, cell("x", false)], false),
            Row {
                id: Some("r3".into()),
                min_height: Some("6.3mm".into()),
                ..row(vec![cell("y", false)], false)
            },
        ],
        caption: Some("Results".into()),
        numbered: false,
        width_percent: Some(92.0),
        align: Align::Center,
        indent: 2,
        border_color: Some("#00ff00".into()),
        id: Some("t1".into()),
        style: Some("Grid".into()),
        origin_ids: Some("o".into()),
        chart: None,
        dir: None,
    };
    let (n, s) = both(&doc_of(vec![Block::Table(table)]));
    assert_eq!(
        body(&n.value),
        "<table indent=\"2\" caption=\"Results\" width=\"92%\" alignment=\"center\" \
         num-enabled=\"0\" border-color=\"#00ff00\" origin_ids=\"o\" stylename=\"Grid\" id=\"t1\">\
         <column_width><item>20%</item><item>33.5%</item><item>46.5%</item></column_width>\
         <tr><th><p>A</p></th><th><p>B</p></th><th><p>C</p></th></tr>\
         <tr><td col-ids=\"c1 c2\" colspan=\"2\" rowspan=\"2\" border-top=\"1\" border-right=\"0\" \
         border-left=\"1\" font-size=\"9.75pt\" text-align=\"right\" vertical-align=\"middle\" \
         background-color=\"#ff0000\" background-intensity=\"50\"><p>big</p></td><td><p>x</p></td></tr>\
         <tr row-id=\"r3\" min-height=\"6.3mm\"><td><p>y</p></td></tr></table>"
    );
    assert!(n.warnings.is_empty() && s.warnings.is_empty());
}

#[test]
fn row_header_flags_the_derivation_gets_wrong_travel_in_the_pi() {
    // The reader marks a row as header when every row above it ended up one and its own cells
    // are all th; where that derivation is wrong the row says so in a PI.
    let table = Table {
        rows: vec![
            // All th but not a header row: the derivation says yes.
            row(vec![cell("a", true)], false),
            // A header row below a non-header one: the derivation says no (the chain broke).
            row(vec![cell("b", true)], true),
            // A header row with a td: the derivation says no.
            row(vec![cell("c", false)], true),
        ],
        ..Table::default()
    };
    let (n, _) = both(&doc_of(vec![Block::Table(table)]));
    assert_eq!(
        pis(&n.value),
        [
            // `false` is the default: `null` resets it (see `sdxml_ext::apply_fields`).
            fields(json!({"header": null})),
            fields(json!({"header": true})),
            fields(json!({"header": true}))
        ]
    );
    // A row without cells is not "all th": a header row without cells states it, and the chain
    // goes on below it.
    let table = Table {
        columns: vec![50.0, 50.0],
        rows: vec![
            row(vec![cell("a", true)], true),
            row(vec![], true),
            row(vec![cell("b", true)], true),
            row(vec![cell("c", false)], false),
        ],
        ..Table::default()
    };
    let (n, _) = both(&doc_of(vec![Block::Table(table)]));
    assert_eq!(pis(&n.value), [fields(json!({"header": true}))]);
}

#[test]
fn cell_paragraphs_are_p_and_list_items_stay_list_items() {
    let c = Cell {
        blocks: vec![
            Block::Paragraph(Paragraph {
                align: Align::Center,
                id: Some("p1".into()),
                ..para(TextType::Heading, vec![t("h")])
            }),
            Block::Paragraph(Paragraph {
                level: 1,
                ..para(TextType::ListUl, vec![t("li")])
            }),
            Block::Paragraph(para(
                TextType::Paragraph,
                vec![t("a"), Inline::LineBreak, t("b")],
            )),
        ],
        ..Cell::default()
    };
    let table = Table {
        rows: vec![row(vec![c], false)],
        ..Table::default()
    };
    let (n, _) = both(&doc_of(vec![Block::Table(table)]));
    assert_eq!(
        body(&n.value),
        "<table><tr><td><p><?sdconv {\"fields\":{\"align\":\"center\",\"id\":\"p1\",\
         \"kind\":\"heading\"}}?>h</p><ul-li indent=\"1\">li</ul-li>\
         <p>a<b><?sdconv {\"wrapper\":null}?><br/></b>b</p></td></tr></table>"
    );
}

#[test]
fn blocks_a_cell_cannot_hold() {
    let inner = Table {
        columns: vec![100.0],
        rows: vec![row(vec![cell("inner", false)], false)],
        ..Table::default()
    };
    let c = Cell {
        blocks: vec![
            Block::Table(inner.clone()),
            Block::Image(Image {
                media: "a.png".into(),
                caption: Some("cap".into()),
                ..Image::default()
            }),
            Block::PageBreak,
        ],
        ..Cell::default()
    };
    let doc = with_media(
        doc_of(vec![Block::Table(Table {
            rows: vec![row(vec![c], false)],
            ..Table::default()
        })]),
        &["a.png"],
    );
    let (n, s) = both(&doc);
    let blocks: Vec<Block> = pis(&n.value)
        .into_iter()
        .filter_map(|e| match e {
            Ext::Block(b) => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0], Block::Table(inner));
    assert_eq!(kinds(&n.warnings), [WarningKind::Lossy; 3]);
    assert!(n.warnings[0].message.contains("service will not show it"));
    // Strict: the image becomes an inline image, the rest is left out.
    assert!(
        s.value
            .contains("<td><p><img filename=\"a.png\" caption=\"cap\"/></p></td>"),
        "{}",
        s.value
    );
    assert_eq!(
        kinds(&s.warnings),
        [
            WarningKind::Dropped,
            WarningKind::Lossy,
            WarningKind::Dropped
        ]
    );
}

#[test]
fn empty_table_travels_whole() {
    let table = Table {
        caption: Some("Empty".into()),
        ..Table::default()
    };
    let (n, s) = both(&doc_of(vec![Block::Table(table.clone())]));
    assert_eq!(pis(&n.value), [Ext::Block(Block::Table(table))]);
    assert!(!body(&n.value).contains("<table"));
    assert_eq!(kinds(&n.warnings), [WarningKind::Lossy]);
    assert_eq!(body(&s.value), "<table caption=\"Empty\"><tr></tr></table>");
    // Column widths alone satisfy the DTD.
    let widths = Table {
        columns: vec![50.0, 50.0],
        ..Table::default()
    };
    let (n, _) = both(&doc_of(vec![Block::Table(widths)]));
    assert_eq!(
        body(&n.value),
        "<table><column_width><item>50%</item><item>50%</item></column_width></table>"
    );
}

#[test]
fn page_breaks_and_directories() {
    let doc = doc_of(vec![
        Block::PageBreak,
        Block::Directory {
            kind: DirectoryKind::Content,
        },
        Block::Directory {
            kind: DirectoryKind::Sidenotes,
        },
    ]);
    let (n, _) = both(&doc);
    assert_eq!(
        body(&n.value),
        "<pagebreak/><directory type=\"content\"/><directory type=\"sidenotes\"/>"
    );
}

#[test]
fn marks_nest_in_canonical_order_as_elements() {
    // Every mark at once, built inside out and normalised into canonical order.
    let mut inner = vec![t("x")];
    for style in [
        TextStyle::Superscript,
        TextStyle::Strike,
        TextStyle::Underline,
        TextStyle::Italic,
        TextStyle::Bold,
        TextStyle::SmallCaps,
        TextStyle::Code,
    ] {
        inner = vec![styled(style, inner)];
    }
    let content = vec![Inline::Link {
        href: "https://e.org/?a&b".into(),
        children: vec![Inline::Span {
            style: "Em".into(),
            children: inner,
        }],
    }];
    for (kind, open, close) in [
        (
            TextType::Paragraph,
            "<paragraph indent=\"0\">",
            "</paragraph>",
        ),
        (TextType::Heading, "<heading level=\"0\">", "</heading>"),
    ] {
        let (n, _) = both(&doc_of(vec![Block::Paragraph(para(kind, content.clone()))]));
        assert_eq!(
            body(&n.value),
            format!(
                "{open}<a href=\"https://e.org/?a&amp;b\"><inline stylename=\"Em\"><kbd><sd-sc><b><i>\
                 <u><s><sup>x</sup></s></u></i></b></sd-sc></kbd></inline></a>{close}"
            )
        );
    }
    // Subscript too, and the same in a cell `p` and inside a footnote (where `inline` is not
    // allowed: the character style becomes an open/close PI).
    let sub = vec![Inline::Span {
        style: "Em".into(),
        children: vec![styled(TextStyle::Subscript, vec![t("2")])],
    }];
    let note = Inline::Note {
        kind: NoteKind::Footnote,
        content: sub.clone(),
    };
    let (n, s) = both(&doc_of(vec![Block::Paragraph(para(
        TextType::Paragraph,
        vec![note],
    ))]));
    assert_eq!(
        body(&n.value),
        "<paragraph indent=\"0\"><footnote><?sdconv {\"open\":{\"span\":\"Em\"}}?><sub>2</sub>\
         <?sdconv {\"close\":null}?></footnote></paragraph>"
    );
    assert!(n.warnings.is_empty(), "{:?}", n.warnings);
    assert_eq!(
        body(&s.value),
        "<paragraph indent=\"0\"><footnote><sub>2</sub></footnote></paragraph>"
    );
    assert_eq!(kinds(&s.warnings), [WarningKind::Lossy]);
}

#[test]
fn line_breaks_where_br_is_and_is_not_allowed() {
    let content = vec![
        t("a"),
        Inline::LineBreak,
        styled(TextStyle::Italic, vec![t("b"), Inline::LineBreak, t("c")]),
        Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("n"), Inline::LineBreak, t("m")],
        },
    ];
    let (n, s) = both(&doc_of(vec![Block::Paragraph(para(
        TextType::Paragraph,
        content,
    ))]));
    assert_eq!(
        body(&n.value),
        "<paragraph indent=\"0\">a<b><?sdconv {\"wrapper\":null}?><br/></b><i>b<br/>c</i>\
         <footnote>n<br/>m</footnote></paragraph>"
    );
    assert_eq!(
        body(&s.value),
        "<paragraph indent=\"0\">a<b><br/></b><i>b<br/>c</i><footnote>n<br/>m</footnote></paragraph>"
    );
    assert_eq!(kinds(&s.warnings), [WarningKind::Lossy]);
}

#[test]
fn notes_and_what_they_cannot_hold() {
    let inner_note = Inline::Note {
        kind: NoteKind::Footnote,
        content: vec![t("inner")],
    };
    let img = Inline::Image {
        media: "a.png".into(),
        caption: None,
        alt: None,
    };
    let xref = Inline::CrossRef {
        target: "h1".into(),
        number: true,
        text: false,
    };
    let content = vec![
        Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("f"), inner_note.clone(), img.clone(), xref.clone()],
        },
        Inline::Note {
            kind: NoteKind::Endnote,
            content: vec![t("e")],
        },
        Inline::Note {
            kind: NoteKind::Sidenote,
            content: vec![t("s"), xref.clone()],
        },
    ];
    let doc = with_media(
        doc_of(vec![Block::Paragraph(para(TextType::Paragraph, content))]),
        &["a.png"],
    );
    let (n, s) = both(&doc);
    let xref_xml = "<xref href=\"h1\" data-num-enabled=\"1\" data-content-enabled=\"0\"/>";
    assert_eq!(
        body(&n.value),
        format!(
            "<paragraph indent=\"0\"><footnote>f{}{}{}</footnote>\
             <footnote><?sdconv {{\"fields\":{{\"kind\":\"endnote\"}}}}?>e</footnote>\
             <sidenote>s{xref_xml}</sidenote></paragraph>",
            Ext::Inline(inner_note).to_pi(),
            Ext::Inline(img).to_pi(),
            Ext::Inline(xref).to_pi(),
        )
    );
    assert_eq!(kinds(&n.warnings), [WarningKind::Lossy]);
    assert!(
        n.warnings[0]
            .message
            .contains("(cross-reference ×1, image ×1, note ×1)"),
        "{:?}",
        n.warnings
    );
    assert_eq!(
        body(&s.value),
        format!(
            "<paragraph indent=\"0\"><footnote>f</footnote><footnote>e</footnote>\
             <sidenote>s{xref_xml}</sidenote></paragraph>"
        )
    );
    // Strict: the endnote marker (a field) and the three items are reported, once per kind.
    assert_eq!(
        kinds(&s.warnings),
        [WarningKind::Dropped, WarningKind::Dropped]
    );
}

#[test]
fn cell_p_cannot_hold_sidenotes_or_index_marks() {
    let content = vec![
        Inline::Note {
            kind: NoteKind::Sidenote,
            content: vec![t("s")],
        },
        Inline::IndexMark { id: "ix".into() },
        Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("f")],
        },
    ];
    let c = Cell {
        blocks: vec![Block::Paragraph(para(TextType::Paragraph, content.clone()))],
        ..Cell::default()
    };
    let table = Table {
        rows: vec![row(vec![c], false)],
        ..Table::default()
    };
    let (n, _) = both(&doc_of(vec![Block::Table(table)]));
    assert_eq!(
        body(&n.value),
        format!(
            "<table><tr><td><p>{}{}<footnote>f</footnote></p></td></tr></table>",
            Ext::Inline(content[0].clone()).to_pi(),
            Ext::Inline(content[1].clone()).to_pi()
        )
    );
    // At the top level both are elements.
    let (n, _) = both(&doc_of(vec![Block::Paragraph(para(
        TextType::Paragraph,
        content,
    ))]));
    assert_eq!(
        body(&n.value),
        "<paragraph indent=\"0\"><sidenote>s</sidenote><index data-id=\"ix\"/>\
         <footnote>f</footnote></paragraph>"
    );
}

#[test]
fn atoms_cross_refs_images_index_marks() {
    let content = vec![
        Inline::CrossRef {
            target: "#odd \"target\"".into(),
            number: false,
            text: true,
        },
        Inline::Image {
            media: "a.png".into(),
            caption: None,
            alt: None,
        },
        Inline::Image {
            media: "a.png".into(),
            caption: Some("Cap".into()),
            alt: Some("Alt".into()),
        },
        Inline::Image {
            media: "a.png".into(),
            caption: Some(String::new()),
            alt: None,
        },
        Inline::IndexMark { id: "ix1".into() },
    ];
    let doc = with_media(
        doc_of(vec![Block::Paragraph(para(TextType::Paragraph, content))]),
        &["a.png"],
    );
    let (n, s) = both(&doc);
    assert_eq!(
        body(&n.value),
        "<paragraph indent=\"0\"><xref href=\"#odd &quot;target&quot;\" data-num-enabled=\"0\" \
         data-content-enabled=\"1\"/><img filename=\"a.png\" caption=\"\"/>\
         <img filename=\"a.png\" caption=\"Cap\"><?sdconv {\"fields\":{\"alt\":\"Alt\"}}?></img>\
         <img filename=\"a.png\" caption=\"\"><?sdconv {\"fields\":{\"caption\":\"\"}}?></img>\
         <index data-id=\"ix1\"/></paragraph>"
    );
    assert!(
        s.value
            .contains("<img filename=\"a.png\" caption=\"Cap\"/>")
    );
}

#[test]
fn tracked_changes_and_comments() {
    let change = Change {
        kind: ChangeKind::Delete,
        author: Some("Ann".into()),
        date: None,
    };
    let content = vec![
        Inline::CommentStart { id: "c1".into() },
        Inline::Tracked {
            change,
            children: vec![t("old "), styled(TextStyle::Bold, vec![t("bold")])],
        },
        Inline::CommentEnd { id: "c1".into() },
    ];
    let mut doc = doc_of(vec![Block::Paragraph(para(TextType::Paragraph, content))]);
    doc.comments = vec![Comment {
        id: "c1".into(),
        author: Some("Bob".into()),
        initials: None,
        date: None,
        content: vec![t("Why?")],
    }];
    let (n, s) = both(&doc);
    assert_eq!(
        body(&n.value),
        "<?sdconv {\"comments\":[{\"id\":\"c1\",\"author\":\"Bob\",\"content\":[{\"type\":\"text\",\
         \"text\":\"Why?\"}]}]}?><paragraph indent=\"0\">\
         <?sdconv {\"inline\":{\"type\":\"comment_start\",\"id\":\"c1\"}}?>\
         <?sdconv {\"open\":{\"tracked\":{\"insert\":false,\"author\":\"Ann\",\"date\":null}}}?>\
         old <b>bold</b><?sdconv {\"close\":null}?>\
         <?sdconv {\"inline\":{\"type\":\"comment_end\",\"id\":\"c1\"}}?></paragraph>"
    );
    assert_eq!(kinds(&n.warnings), [WarningKind::Lossy, WarningKind::Lossy]);
    assert_eq!(
        body(&s.value),
        "<paragraph indent=\"0\">old <b>bold</b></paragraph>"
    );
    assert_eq!(
        kinds(&s.warnings),
        [WarningKind::Dropped, WarningKind::Lossy]
    );
}

#[test]
fn index_tree() {
    let mut doc = Document::new();
    doc.indexes = vec![IndexNode {
        id: "n1".into(),
        title: "Apples".into(),
        target: Some("p1".into()),
        description: Some(String::new()),
        sorting_key: Some("a".into()),
        children: vec![IndexNode {
            id: "n2".into(),
            title: "Green".into(),
            ..IndexNode::default()
        }],
    }];
    let (n, _) = both(&doc);
    assert!(
        n.value.ends_with(
            "</document><indexes><index-node id=\"n1\" target-reference-id=\"p1\" \
             title=\"Apples\" sorting-key=\"a\"><?sdconv {\"fields\":{\"description\":\"\"}}?>\
             <index-node id=\"n2\" title=\"Green\"></index-node></index-node></indexes></smashdoc>"
        ),
        "{}",
        n.value
    );
}

#[test]
fn nasty_text_is_escaped_and_reads_back() {
    let nasty = "a<b>&\"c\"'d ]]> ?> --> \r\n\tend ";
    let mut doc = doc_of(vec![Block::Paragraph(Paragraph {
        style: Some(nasty.into()),
        ..para(
            TextType::Paragraph,
            vec![
                t(nasty),
                Inline::Link {
                    href: nasty.into(),
                    children: vec![t("l")],
                },
            ],
        )
    })]);
    doc.meta.title = Some(nasty.into());
    let (n, _) = both(&doc);
    assert!(pis(&n.value).is_empty(), "{}", n.value);
    // Read it back with an XML parser: text and attributes are exact.
    let limits = sdconv::Limits::default();
    let mut r = sdconv::internal::xml::XmlReader::new(&n.value, "sd.xml", &limits);
    let (mut title, mut paragraph, mut attrs) = (None, None, Vec::new());
    loop {
        match r.next_event().unwrap() {
            quick_xml::events::Event::Start(e) => {
                let name = sdconv::internal::xml::local_name(&e).into_owned();
                attrs.extend(sdconv::internal::xml::attrs(&e).into_iter().map(|(_, v)| v));
                match name.as_str() {
                    "title" => title = Some(r.read_text().unwrap()),
                    "paragraph" => paragraph = Some(r.read_text().unwrap()),
                    _ => {}
                }
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(title.as_deref(), Some(nasty));
    // The link's text follows the text.
    assert_eq!(paragraph, Some(format!("{nasty}l")));
    // stylename on the paragraph; the href is inside read_text's span, so check it in the output.
    assert_eq!(attrs.iter().filter(|a| *a == nasty).count(), 1, "{attrs:?}");
    let mut href = String::new();
    sdconv::internal::xml::escape_attr(nasty, &mut href);
    assert!(n.value.contains(&format!("<a href=\"{href}\">l</a>")));
}

#[test]
fn characters_xml_cannot_hold_travel_in_pis() {
    let bad = "a\u{1}b\u{FFFE}";
    let mut doc = doc_of(vec![Block::Paragraph(Paragraph {
        id: Some("x\u{B}".into()),
        ..para(TextType::Paragraph, vec![t(bad)])
    })]);
    doc.meta.title = Some(bad.into());
    let (n, s) = both(&doc);
    assert_eq!(
        pis(&n.value),
        [
            fields(json!({"title": bad})),
            fields(json!({"id": "x\u{B}"})),
            Ext::Inline(t(bad)),
        ]
    );
    assert!(n.value.contains("<title>ab</title>"));
    assert!(n.value.contains("id=\"x\""));
    assert!(
        s.value
            .contains("<paragraph indent=\"0\" id=\"x\">ab</paragraph>")
    );
    assert_eq!(
        kinds(&s.warnings),
        [WarningKind::Dropped, WarningKind::Dropped]
    );
}

#[test]
fn strict_mode_aggregates_one_warning_per_kind() {
    let note = |kind| Inline::Note {
        kind,
        content: vec![t("n")],
    };
    let mut doc = doc_of(
        (0..5)
            .map(|_| {
                Block::Paragraph(Paragraph {
                    start: Some(3),
                    ..para(
                        TextType::Caption,
                        vec![
                            note(NoteKind::Endnote),
                            Inline::Tracked {
                                change: Change {
                                    kind: ChangeKind::Insert,
                                    author: None,
                                    date: None,
                                },
                                children: vec![t("x")],
                            },
                            Inline::LineBreak,
                        ],
                    )
                })
            })
            .collect(),
    );
    doc.meta.supplemental = Some("s".into());
    let (_, s) = both(&doc);
    assert_eq!(
        kinds(&s.warnings),
        [WarningKind::Dropped, WarningKind::Lossy, WarningKind::Lossy],
        "{:?}",
        s.warnings
    );
    assert!(
        s.warnings[0]
            .message
            .contains("16 tree field value(s) not written")
            && s.warnings[0]
                .message
                .contains("(kind ×10, start ×5, supplemental ×1)"),
        "{}",
        s.warnings[0].message
    );
    assert!(s.warnings[1].message.contains("5 tracked change(s)"));
    assert!(s.warnings[2].message.contains("5 line break(s)"));
    // The first place is named.
    assert_eq!(s.warnings[1].location.block, Some(0));
}

#[test]
fn zip_holds_sd_xml_and_stored_images() {
    let mut doc = with_media(
        doc_of(vec![Block::Image(Image {
            media: "a.png".into(),
            ..Image::default()
        })]),
        &["a.png", "unused.png"],
    );
    doc.blocks.push(Block::Paragraph(para(
        TextType::Paragraph,
        vec![Inline::Image {
            media: "b c.png".into(),
            caption: None,
            alt: None,
        }],
    )));
    doc.media
        .insert(MediaItem::new("b c.png", arb::tiny_png(1, 2)));
    let out = write(&doc, &normal()).unwrap();
    assert_eq!(kinds(&out.warnings), [WarningKind::Dropped]);
    assert!(out.warnings[0].message.contains("1 media item(s)"));
    let mut zip = zip::ZipArchive::new(Cursor::new(&out.value)).unwrap();
    let names = zip_names(&out.value);
    assert_eq!(
        names,
        ["sd.xml", "images/", "images/a.png", "images/b c.png"]
    );
    let mut xml = String::new();
    {
        let mut f = zip.by_name("sd.xml").unwrap();
        assert_eq!(f.compression(), zip::CompressionMethod::Deflated);
        f.read_to_string(&mut xml).unwrap();
    }
    assert_eq!(xml, write_xml(&doc, &normal()).value);
    let mut f = zip.by_name("images/a.png").unwrap();
    assert_eq!(f.compression(), zip::CompressionMethod::Stored);
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).unwrap();
    assert_eq!(bytes, arb::tiny_png(40, 30));
}

#[test]
fn media_without_bytes_or_missing_is_reported() {
    // A tree read from JSON: the item knows its size, not its bytes.
    let mut doc = doc_of(vec![
        Block::Image(Image {
            media: "a.png".into(),
            ..Image::default()
        }),
        Block::Image(Image {
            media: "gone.png".into(),
            ..Image::default()
        }),
    ]);
    // As a tree read from the JSON dump has it: size and hash, no bytes.
    let dumped = serde_json::to_value(MediaItem::new("a.png", arb::tiny_png(1, 1))).unwrap();
    doc.media
        .insert(serde_json::from_value::<MediaItem>(dumped).unwrap());
    let out = write(&doc, &normal()).unwrap();
    assert_eq!(
        kinds(&out.warnings),
        [WarningKind::MissingMedia, WarningKind::MissingMedia]
    );
    assert_eq!(zip_names(&out.value), ["sd.xml", "images/"]);
}

#[test]
fn unsafe_media_names_are_renamed_everywhere() {
    let bad_cell = Cell {
        blocks: vec![Block::Image(Image {
            media: "a/b.png".into(),
            ..Image::default()
        })],
        ..Cell::default()
    };
    let doc = with_media(
        doc_of(vec![
            Block::Image(Image {
                media: "../x.png".into(),
                ..Image::default()
            }),
            Block::Paragraph(para(
                TextType::Paragraph,
                vec![Inline::Image {
                    media: "a/b.png".into(),
                    caption: None,
                    alt: None,
                }],
            )),
            Block::Table(Table {
                rows: vec![row(vec![bad_cell], false)],
                ..Table::default()
            }),
        ]),
        &["../x.png", "a/b.png", "a_b.png"],
    );
    let (n, _) = both(&doc);
    assert!(n.value.contains("<image>.._x.png</image>"), "{}", n.value);
    assert!(
        n.value
            .contains("<img filename=\"a_b-2.png\" caption=\"\"/>")
    );
    assert!(n.value.contains("\"media\":\"a_b-2.png\""), "{}", n.value);
    let repaired = n
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Repaired)
        .count();
    assert_eq!(repaired, 2);
    let out = write(&doc, &normal()).unwrap();
    let names = zip_names(&out.value);
    assert_eq!(
        names,
        ["sd.xml", "images/", "images/.._x.png", "images/a_b-2.png"]
    );
}

#[test]
fn export_facade_routes_sdxml() {
    assert!(Format::Sdxml.can_write());
    let doc = doc_of(vec![Block::Paragraph(para(
        TextType::Paragraph,
        vec![t("x")],
    ))]);
    let out = sdconv::export(&doc, Format::Sdxml, &ExportOptions::default()).unwrap();
    assert_eq!(out.value, write(&doc, &normal()).unwrap().value);
    let mut opts = ExportOptions::default();
    opts.sdxml = SdxmlExportOptions::strict();
    let strict = sdconv::export(&doc, Format::Sdxml, &opts).unwrap();
    assert_eq!(
        strict.value,
        write(&doc, &SdxmlExportOptions::strict()).unwrap().value
    );
}

/// A large tree: 10,000 paragraphs, 200 tables, 50 images.
fn large_tree() -> Document {
    let mut doc = Document::new();
    for i in 0..50 {
        doc.media
            .insert(MediaItem::new(format!("img{i}.png"), arb::tiny_png(i, 10)));
    }
    for i in 0..10_000u32 {
        let kind = TextType::ALL[(i % 7) as usize];
        doc.blocks.push(Block::Paragraph(Paragraph {
            level: (i % 3) as u8,
            id: Some(format!("p{i}")),
            ..para(
                kind,
                vec![
                    t("Lorem ipsum dolor sit amet, "),
                    styled(TextStyle::Bold, vec![t("consectetur")]),
                    t(" adipiscing elit & more."),
                    Inline::Note {
                        kind: NoteKind::Footnote,
                        content: vec![t("note")],
                    },
                ],
            )
        }));
        if i % 50 == 0 {
            let rows = (0..5)
                .map(|r| {
                    row(
                        (0..4).map(|c| cell(&format!("{r}/{c}"), r == 0)).collect(),
                        r == 0,
                    )
                })
                .collect();
            doc.blocks.push(Block::Table(Table {
                columns: vec![25.0; 4],
                rows,
                ..Table::default()
            }));
        }
        if i % 200 == 0 {
            doc.blocks.push(Block::Image(Image {
                media: format!("img{}.png", i / 200),
                width_percent: Some(50.0),
                ..Image::default()
            }));
        }
    }
    doc
}

#[test]
fn large_tree_is_valid() {
    let doc = large_tree();
    // The best of a few runs: the machine may be shared.
    let best = |f: &dyn Fn()| {
        (0..3)
            .map(|_| {
                let started = std::time::Instant::now();
                f();
                started.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let xml_time = best(&|| drop(write_xml(&doc, &normal())));
    let zip_time = best(&|| drop(write(&doc, &normal())));
    let xml = write_xml(&doc, &normal()).value;
    let out = write(&doc, &normal()).unwrap();
    eprintln!(
        "large tree ({} blocks): sd.xml of {} bytes in {xml_time:?}; zip of {} bytes in {zip_time:?}",
        doc.blocks.len(),
        xml.len(),
        out.value.len()
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(xml.matches("<table>").count(), 200);
    assert_eq!(xml.matches("<image ").count(), 50);
    assert_dtd_valid(&xml);
}

proptest! {
    #![proptest_config(common::config(64))]

    /// Generated trees: both modes DTD-valid, strict without PIs, bytes deterministic, every PI
    /// one of ours.
    #[test]
    fn generated_trees_are_dtd_valid_and_deterministic(doc in arb::document()) {
        let (n, _) = both(&doc);
        let _ = pis(&n.value);
        let a = write(&doc, &normal()).unwrap().value;
        let b = write(&doc, &normal()).unwrap().value;
        prop_assert_eq!(a, b);
        let c = write(&doc.clone(), &SdxmlExportOptions::strict()).unwrap().value;
        let d = write(&doc, &SdxmlExportOptions::strict()).unwrap().value;
        prop_assert_eq!(c, d);
    }
}
