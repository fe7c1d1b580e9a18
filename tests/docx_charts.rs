//! Charts (`c:chart` parts): kept as their cached data, a table with the title as caption,
//! where the chart stood; the drawing's styling is reported lost. The Word writer writes such a
//! table back as a chart part, which reads back as the same table.

mod docx_support;

use docx_support::*;
use sdconv::ast::chart::{ChartData, ChartKind};
use sdconv::ast::{Block, Inline, Paragraph, TextType, inline::plain_text};
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

/// The text of part `name` of zip `bytes`.
fn zip_part(bytes: &[u8], name: &str) -> String {
    let mut z = sdconv::internal::archive::ZipReader::new(bytes, &Default::default()).unwrap();
    String::from_utf8(z.read(name).unwrap()).unwrap()
}

fn export_word(doc: &sdconv::Document) -> sdconv::Converted<Vec<u8>> {
    sdconv::export(doc, Format::Word, &ExportOptions::default()).unwrap()
}

fn import_word(bytes: &[u8]) -> sdconv::Document {
    let back = sdconv::import(Format::Word, bytes, &Default::default()).unwrap();
    assert_eq!(back.value.validate(), Ok(()));
    back.value
}

/// A chart table of `kind` with two series (one point missing) and text XML must escape.
fn chart_table(kind: ChartKind, title: Option<&str>) -> ChartData {
    ChartData {
        kind,
        title: title.map(str::to_string),
        // A bubble chart's second column holds the first series' sizes.
        series: if kind == ChartKind::Bubble {
            vec!["R&D <2024>".into(), "R&D <2024> (size)".into()]
        } else {
            vec!["R&D <2024>".into(), "Sales \"net\"".into()]
        },
        categories: vec!["North & East".into(), "South".into(), "Wüste 🌵".into()],
        values: vec![
            vec!["4.5".into(), "-3".into()],
            vec!["1,000".into(), String::new()],
            vec!["0".into(), "7.25".into()],
        ],
    }
}

#[test]
fn word_writes_a_chart_part_that_reads_back_as_the_same_chart() {
    let doc = chart_doc();
    let out = export_word(&doc);
    assert!(
        !out.warnings.iter().any(|w| w.message.contains("chart")),
        "{:?}",
        out.warnings
    );
    let docx = &out.value;
    let chart = zip_part(docx, "word/charts/chart1.xml");
    for want in [
        "<c:chartSpace ",
        "<c:lineChart>",
        "<a:t>Rainfall</a:t>",
        "<c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache>",
        "<c:v>Bonn</c:v>",
        "<c:cat><c:strRef>",
        "<c:v>Jan</c:v>",
        "<c:val><c:numRef>",
        "<c:numCache><c:formatCode>General</c:formatCode><c:ptCount val=\"2\"/><c:pt idx=\"0\"><c:v>61</c:v>",
        "<c:catAx>",
        "<c:valAx>",
    ] {
        assert!(chart.contains(want), "no {want} in {chart}");
    }
    let types = zip_part(docx, "[Content_Types].xml");
    assert!(types.contains(r#"<Override PartName="/word/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>"#), "{types}");
    let rels = zip_part(docx, "word/_rels/document.xml.rels");
    assert!(rels.contains(r#"Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart1.xml"/>"#), "{rels}");
    let document = zip_part(docx, "word/document.xml");
    assert!(document.contains(r#"<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rIdChart1"/>"#), "{document}");
    assert_eq!(import_word(docx).blocks, doc.blocks);
}

#[test]
fn numbers_in_their_formats_round_trip_through_word_and_draw() {
    let data = ChartData {
        kind: ChartKind::Column,
        title: Some("Margins".into()),
        series: vec!["Share".into(), "Revenue".into()],
        categories: vec!["North".into(), "South".into()],
        values: vec![
            vec!["46%".into(), "$1,234.50".into()],
            vec!["7.5%".into(), "4.4".into()],
        ],
    };
    let table = data.to_table();
    assert_eq!(ChartData::from_table(&table), Some(data.clone()));
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![Block::Table(table)];
    let out = export_word(&doc);
    assert!(
        !out.warnings.iter().any(|w| w.message.contains("chart")),
        "{:#?}",
        out.warnings
    );
    // The part caches numbers, with the codes that show them so.
    let part = zip_part(&out.value, "word/charts/chart1.xml");
    assert!(part.contains("<c:formatCode>0%</c:formatCode>"), "{part}");
    assert!(part.contains("<c:v>0.46</c:v>"), "{part}");
    assert!(part.contains("formatCode=\"0.0%\""), "{part}");
    assert_eq!(import_word(&out.value).blocks, doc.blocks);
    // The page draws them: bars, and the axis in the first value's format.
    let html = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let html = String::from_utf8(html.value).unwrap();
    assert!(html.contains("<rect"), "bars drawn");
    assert!(html.contains("%</text>"), "a percent axis label");
}

#[test]
fn every_chart_kind_round_trips_through_word() {
    for kind in [
        ChartKind::Bar,
        ChartKind::Column,
        ChartKind::Line,
        ChartKind::Pie,
        ChartKind::Area,
        ChartKind::Scatter,
        ChartKind::Doughnut,
        ChartKind::Radar,
        ChartKind::StackedBar,
        ChartKind::StackedColumn,
        ChartKind::StackedArea,
        ChartKind::PercentBar,
        ChartKind::PercentColumn,
        ChartKind::PercentArea,
        ChartKind::Bubble,
        ChartKind::Other,
    ] {
        for title in [Some("Q1 & Q2 <draft>"), None] {
            let table = chart_table(kind, title).to_table();
            assert_eq!(
                ChartData::from_table(&table),
                Some(chart_table(kind, title))
            );
            let mut doc = sdconv::Document::new();
            doc.blocks = vec![
                Block::Paragraph(Paragraph::new(
                    TextType::Paragraph,
                    vec![Inline::text("Before")],
                )),
                Block::Table(table),
                Block::Paragraph(Paragraph::new(
                    TextType::Paragraph,
                    vec![Inline::text("after")],
                )),
            ];
            let docx = export_word(&doc).value;
            let chart = zip_part(&docx, "word/charts/chart1.xml");
            // Pie and doughnut charts have no axes; every other kind has two.
            let round = matches!(kind, ChartKind::Pie | ChartKind::Doughnut);
            assert_eq!(
                chart.matches("<c:axId ").count(),
                if round { 0 } else { 4 },
                "{kind:?}"
            );
            assert_eq!(chart.contains("<c:title>"), title.is_some(), "{kind:?}");
            assert_eq!(import_word(&docx).blocks, doc.blocks, "{kind:?} {title:?}");
        }
    }
}

#[test]
fn scatter_charts_keep_numeric_x_values_as_numbers() {
    let mut data = chart_table(ChartKind::Scatter, Some("Fit"));
    data.categories = vec!["0.5".into(), "1".into(), "2.75".into()];
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![Block::Table(data.to_table())];
    let docx = export_word(&doc).value;
    let chart = zip_part(&docx, "word/charts/chart1.xml");
    assert!(chart.contains("<c:xVal><c:numRef>"), "{chart}");
    assert!(chart.contains("<c:yVal><c:numRef>"), "{chart}");
    assert_eq!(import_word(&docx).blocks, doc.blocks);
}

#[test]
fn a_chart_in_a_table_cell_round_trips_through_word() {
    let chart = chart_table(ChartKind::Column, Some("Inner")).to_table();
    let outer = sdconv::ast::Table {
        columns: vec![100.0],
        rows: vec![sdconv::ast::Row {
            cells: vec![sdconv::ast::Cell {
                blocks: vec![Block::Table(chart)],
                ..Default::default()
            }],
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![Block::Table(outer)];
    let docx = export_word(&doc).value;
    assert_eq!(import_word(&docx).blocks, doc.blocks);
}

#[test]
fn a_chart_table_a_chart_part_cannot_hold_is_written_as_a_table_with_a_warning() {
    let base = chart_table(ChartKind::Column, Some("Sales")).to_table();
    let mut bold = base.clone();
    if let Some(Block::Paragraph(p)) = bold.rows[1].cells[1].blocks.first_mut() {
        p.content = vec![Inline::styled(
            sdconv::ast::TextStyle::Bold,
            vec![Inline::text("4.5")],
        )];
    }
    let mut words = base.clone();
    words.rows[1].cells[1] =
        chart_table(ChartKind::Column, None).to_table().rows[0].cells[1].clone();
    words.rows[1].cells[1].header = false;
    let mut no_name = base.clone();
    no_name.rows[0].cells[1].blocks = vec![Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![],
    ))];
    for (what, table) in [
        ("bold value", bold),
        ("a word as value", words),
        ("an unnamed series", no_name),
    ] {
        assert_eq!(ChartData::from_table(&table), None, "{what}");
        let mut doc = sdconv::Document::new();
        doc.blocks = vec![Block::Table(table.clone())];
        let out = export_word(&doc);
        assert!(
            out.warnings.iter().any(|w| w
                .message
                .contains("is written as its data table; Word gets no chart")),
            "{what}: {:?}",
            out.warnings
        );
        assert!(
            sdconv::internal::archive::ZipReader::new(&out.value, &Default::default())
                .unwrap()
                .names()
                .iter()
                .all(|n| !n.contains("charts/"))
        );
        let Some(Block::Table(t)) = import_word(&out.value).blocks.into_iter().next() else {
            panic!("{what}: no table");
        };
        assert_eq!(t.chart, None, "{what}");
        assert_eq!(t.rows.len(), table.rows.len(), "{what}");
    }
}

/// A chart keeps its id (a bookmark in the chart's paragraph) and an unnumbered caption (a
/// caption paragraph above a chart without a title): both read back as they were, and a
/// cross-reference to the chart still finds it.
#[test]
fn a_chart_keeps_its_id_and_an_unnumbered_caption() {
    let mut titled = chart_table(ChartKind::Column, Some("Sales")).to_table();
    titled.id = Some("sales".into());
    let mut plain = chart_table(ChartKind::Pie, Some("Shares")).to_table();
    plain.numbered = false;
    plain.id = Some("shares".into());
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![
        Block::Table(titled.clone()),
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![Inline::CrossRef {
                target: "shares".into(),
                number: false,
                text: true,
            }],
        )),
        Block::Table(plain.clone()),
    ];
    let mut options = ExportOptions::default();
    options.word.settings = options.word.settings.with_table_caption(true);
    let out = sdconv::export(&doc, Format::Word, &options).unwrap();
    assert!(
        !out.warnings
            .iter()
            .any(|w| w.message.contains("Word gets no chart")),
        "{:?}",
        out.warnings
    );
    let back = import_word(&out.value);
    let tables: Vec<_> = back
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Table(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(tables, [titled, plain], "{}", back.to_json());
    assert!(
        matches!(&back.blocks[1], Block::Paragraph(p) if matches!(p.content.as_slice(), [Inline::CrossRef { target, .. }] if target == "shares")),
        "{}",
        back.to_json()
    );
}

/// LibreOffice opens the written chart: its PDF shows the title, series names and categories.
/// `CHART_PDF_OUT=dir` keeps the .docx and .pdf for a person to look at.
#[test]
fn libreoffice_draws_the_written_chart() {
    use std::process::Command;
    if Command::new("soffice").arg("--version").output().is_err() {
        eprintln!("skipping: soffice (LibreOffice) is not installed");
        return;
    }
    if Command::new("pdftotext").arg("-v").output().is_err() {
        eprintln!("skipping: pdftotext (poppler-utils) is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let keep = std::env::var_os("CHART_PDF_OUT").map(std::path::PathBuf::from);
    let dir = keep.as_deref().unwrap_or(tmp.path());
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![Inline::text("A column chart:")],
        )),
        Block::Table(chart_table(ChartKind::Column, Some("Quarterly figures")).to_table()),
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![Inline::text("A pie chart:")],
        )),
        Block::Table(chart_table(ChartKind::Pie, Some("Share by region")).to_table()),
    ];
    let path = dir.join("chart.docx");
    std::fs::write(&path, export_word(&doc).value).unwrap();
    let out = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            tmp.path().join("profile").display()
        ))
        .args(["--headless", "--convert-to", "pdf", "--outdir"])
        .arg(dir)
        .arg(&path)
        .output()
        .unwrap();
    let pdf = path.with_extension("pdf");
    assert!(
        pdf.exists(),
        "not converted: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    for want in [
        "Quarterly figures",
        "Share by region",
        "R&D <2024>",
        "North & East",
        "South",
    ] {
        assert!(text.contains(want), "{want:?} not in the PDF text:\n{text}");
    }
    // The bars and slices are drawn in the series' colours (a chart without a theme's
    // automatic colours once came out as axes and labels only).
    if Command::new("pdftoppm").arg("-v").output().is_err() {
        eprintln!("skipping the pixel check: pdftoppm is not installed");
        return;
    }
    let ppm = Command::new("pdftoppm")
        .args(["-r", "30", "-f", "1", "-l", "1"])
        .arg(&pdf)
        .output()
        .unwrap()
        .stdout;
    // Binary PPM: "P6", width, height, maximum, one white-space byte, then RGB triples.
    let mut fields = 0;
    let mut at = 0;
    while fields < 4 {
        while ppm[at].is_ascii_whitespace() {
            at += 1;
        }
        while !ppm[at].is_ascii_whitespace() {
            at += 1;
        }
        fields += 1;
    }
    let pixels = &ppm[at + 1..];
    let near = |p: &[u8], rgb: [u8; 3]| p.iter().zip(rgb).all(|(a, b)| a.abs_diff(b) < 24);
    let count = |rgb| pixels.chunks(3).filter(|p| near(p, rgb)).count();
    let (blue, orange) = (count([0x44, 0x72, 0xC4]), count([0xED, 0x7D, 0x31]));
    assert!(
        blue > 50 && orange > 500,
        "blue {blue}, orange {orange} pixels"
    );
}
