//! Charts (`c:chart` parts): kept as their cached data, a table with the title as caption,
//! where the chart stood; the drawing itself is reported lost.

mod docx_support;

use docx_support::*;
use sdconv::ast::chart::ChartKind;
use sdconv::ast::{Block, inline::plain_text};
use sdconv::{ExportOptions, Format, WarningKind};

const CHART: &str = r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Rainfall</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:lineChart>
<c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>Bonn</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Jan</c:v></c:pt><c:pt idx="1"><c:v>Feb</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>61</c:v></c:pt><c:pt idx="1"><c:v>48</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>
</c:lineChart></c:plotArea></c:chart></c:chartSpace>"#;

fn chart_run(rid: &str) -> String {
    format!(
        r#"<w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="2" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="{rid}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#
    )
}

#[test]
fn a_chart_is_kept_as_its_data_table_where_it_stood() {
    let body = format!(
        "<w:p><w:r><w:t>Before</w:t></w:r>{}<w:r><w:t>after</w:t></w:r></w:p>",
        chart_run("rId9")
    );
    let c = docx(&body)
        .rel("rId9", "chart", "charts/chart1.xml", false)
        .part("word/charts/chart1.xml", CHART.as_bytes())
        .read();
    valid(&c);
    let kinds: Vec<&str> = c
        .value
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => match plain_text(&p.content).as_str() {
                "Before" => "before",
                "after" => "after",
                _ => "other paragraph",
            },
            Block::Table(_) => "table",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["before", "table", "after"]);
    let Some(Block::Table(t)) = c.value.blocks.get(1) else {
        panic!("no table");
    };
    assert_eq!(t.caption.as_deref(), Some("Rainfall"));
    let cells: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|cell| match cell.blocks.first() {
                    Some(Block::Paragraph(p)) => plain_text(&p.content),
                    _ => String::new(),
                })
                .collect()
        })
        .collect();
    assert_eq!(cells, [["", "Bonn"], ["Jan", "61"], ["Feb", "48"]]);
    assert_eq!(
        messages(&c),
        ["a chart is kept as its data table and kind (title as caption); its styling is not"]
    );
    assert_eq!(c.warnings[0].kind, WarningKind::Lossy);
}

#[test]
fn a_chart_whose_part_is_missing_is_reported_dropped() {
    let body = format!("<w:p>{}</w:p>", chart_run("rId9"));
    let c = docx(&body)
        .rel("rId9", "chart", "charts/chart1.xml", false)
        .read();
    valid(&c);
    assert!(!c.value.blocks.iter().any(|b| matches!(b, Block::Table(_))));
    assert_eq!(c.warnings.len(), 1, "{:?}", messages(&c));
    assert_eq!(c.warnings[0].kind, WarningKind::Dropped);
    assert!(c.warnings[0].message.contains("chart"));
}

fn chart_doc() -> sdconv::Document {
    let body = format!("<w:p>{}</w:p>", chart_run("rId9"));
    let c = docx(&body)
        .rel("rId9", "chart", "charts/chart1.xml", false)
        .part("word/charts/chart1.xml", CHART.as_bytes())
        .read();
    valid(&c);
    c.value
}

#[test]
fn html_draws_the_chart_as_svg_before_its_table() {
    let doc = chart_doc();
    let Some(Block::Table(t)) = doc.blocks.first() else {
        panic!("no table");
    };
    assert_eq!(t.chart, Some(ChartKind::Line));
    let out = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let html = String::from_utf8(out.value).unwrap();
    let svg = html
        .find("<svg class=\"chart\" role=\"img\"")
        .expect("an svg");
    let table = html.find("<table").expect("a table");
    assert!(svg < table);
    assert!(html.contains("aria-label=\"Rainfall\""));
    assert!(html.contains("<polyline points=\""), "a line");
    assert!(html.contains(">Jan</text>") && html.contains(">Bonn</text>"));
}

#[test]
fn sdxml_keeps_the_chart_kind_and_markdown_the_table_with_caption() {
    let doc = chart_doc();
    let xml = sdconv::export::sdxml::write_xml(&doc, &Default::default()).value;
    let back = sdconv::import::sdxml::read_xml(xml.as_bytes(), &mut |_| None, &Default::default())
        .unwrap();
    assert_eq!(back.value.blocks, doc.blocks);
    let md = sdconv::export::markdown::write(&doc, &Default::default())
        .value
        .text;
    assert!(md.contains("Rainfall"), "{md}");
    assert!(md.contains("| Jan | 61 |"), "{md}");
}

#[test]
fn word_writes_the_data_table_and_says_the_chart_is_lost() {
    let doc = chart_doc();
    let out = sdconv::export(&doc, Format::Word, &ExportOptions::default()).unwrap();
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message == "a chart is written as its data table; Word gets no chart part")
    );
    let back = sdconv::import(Format::Word, &out.value, &Default::default()).unwrap();
    let Some(Block::Table(t)) = back.value.blocks.first() else {
        panic!("no table");
    };
    assert_eq!(t.rows.len(), 3);
    assert_eq!(t.chart, None);
}
