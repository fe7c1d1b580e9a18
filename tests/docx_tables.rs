//! Tables: spans, merges, header rows, grid widths, gridBefore/After, nesting, ragged rows,
//! and captions.

mod docx_support;

use docx_support::*;
use sdconv::WarningKind;
use sdconv::ast::{Block, Table, TextType, inline::plain_text};

fn table(c: &sdconv::Converted<sdconv::Document>, i: usize) -> &Table {
    match &c.value.blocks[i] {
        Block::Table(t) => t,
        other => panic!("block {i} is {other:?}"),
    }
}

fn tc(props: &str, text: &str) -> String {
    format!("<w:tc><w:tcPr>{props}</w:tcPr>{}</w:tc>", p(text))
}

fn tr(props: &str, cells: &[String]) -> String {
    format!("<w:tr><w:trPr>{props}</w:trPr>{}</w:tr>", cells.concat())
}

fn tbl(grid: &[u32], rows: &[String]) -> String {
    let cols: String = grid
        .iter()
        .map(|w| format!(r#"<w:gridCol w:w="{w}"/>"#))
        .collect();
    format!(
        r#"<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/></w:tblPr><w:tblGrid>{cols}</w:tblGrid>{}</w:tbl>"#,
        rows.concat()
    )
}

/// The messages of the warnings of `kind`.
fn messages_of(c: &sdconv::Converted<sdconv::Document>, kind: WarningKind) -> Vec<&str> {
    c.warnings
        .iter()
        .filter(|w| w.kind == kind)
        .map(|w| w.message.as_str())
        .collect()
}

/// Each row as (text, colspan, rowspan) per cell.
fn shape(t: &Table) -> Vec<Vec<(String, u32, u32)>> {
    t.rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .map(|c| {
                    let text = c
                        .blocks
                        .iter()
                        .map(|b| match b {
                            Block::Paragraph(p) => plain_text(&p.content),
                            Block::Table(_) => "<table>".into(),
                            _ => "?".into(),
                        })
                        .collect::<Vec<_>>()
                        .join("|");
                    (text, c.colspan, c.rowspan)
                })
                .collect()
        })
        .collect()
}

#[test]
fn spans_merges_header_rows_and_widths() {
    let body = tbl(
        &[1000, 2000, 2000],
        &[
            tr(
                "<w:tblHeader/>",
                &[tc(r#"<w:gridSpan w:val="2"/>"#, "AB"), tc("", "C")],
            ),
            tr(
                "",
                &[
                    tc(r#"<w:vMerge w:val="restart"/>"#, "D"),
                    tc("", "E"),
                    tc(
                        r#"<w:vMerge w:val="restart"/><w:vAlign w:val="center"/>"#,
                        "F",
                    ),
                ],
            ),
            tr(
                "",
                &[
                    tc("<w:vMerge/>", ""),
                    tc("", "H"),
                    tc(r#"<w:vMerge w:val="continue"/>"#, ""),
                ],
            ),
            tr(
                "",
                &[
                    tc("<w:vMerge/>", ""),
                    tc(r#"<w:gridSpan w:val="2"/>"#, "KL"),
                ],
            ),
        ],
    );
    let c = docx(&body).read();
    valid(&c);
    let t = table(&c, 0);
    assert_eq!(t.columns, vec![20.0, 40.0, 40.0]);
    assert_eq!(
        shape(t),
        vec![
            vec![("AB".into(), 2, 1), ("C".into(), 1, 1)],
            vec![("D".into(), 1, 3), ("E".into(), 1, 1), ("F".into(), 1, 2)],
            vec![("H".into(), 1, 1)],
            vec![("KL".into(), 2, 1)],
        ]
    );
    assert!(t.rows[0].header && t.rows[0].cells.iter().all(|c| c.header));
    assert!(!t.rows[1].header);
    // Word's default grid style is no choice of the author: not kept.
    assert_eq!(t.style, None);
    assert!(c.warnings.is_empty(), "{:?}", messages(&c));
    golden("table_spans", &c);
}

#[test]
fn grid_before_after_and_ragged_rows_keep_the_grid_valid() {
    let body = tbl(
        &[1000, 1000, 1000],
        &[
            tr(r#"<w:gridBefore w:val="1"/>"#, &[tc("", "b"), tc("", "c")]),
            tr(r#"<w:gridAfter w:val="2"/>"#, &[tc("", "a")]),
            tr("", &[tc("", "short")]),
            // A continuation with nothing above it stays a cell of its own.
            tr("", &[tc("", "x"), tc("<w:vMerge/>", "orphan"), tc("", "z")]),
        ],
    );
    let c = docx(&body).read();
    valid(&c);
    assert_eq!(
        shape(table(&c, 0)),
        vec![
            vec![("".into(), 1, 1), ("b".into(), 1, 1), ("c".into(), 1, 1)],
            vec![("a".into(), 1, 1), ("".into(), 2, 1)],
            vec![("short".into(), 1, 1), ("".into(), 2, 1)],
            vec![
                ("x".into(), 1, 1),
                ("orphan".into(), 1, 1),
                ("z".into(), 1, 1)
            ],
        ]
    );
    let repaired = messages_of(&c, WarningKind::Repaired);
    assert_eq!(repaired.len(), 2, "{repaired:?}");
}

#[test]
fn nested_tables_and_lists_in_cells() {
    let inner = tbl(&[500, 500], &[tr("", &[tc("", "i1"), tc("", "i2")])]);
    let numbering = r#"<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>"#;
    let item = r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>item</w:t></w:r></w:p>"#;
    let body = format!(
        "<w:tbl><w:tblGrid><w:gridCol w:w=\"1000\"/><w:gridCol w:w=\"3000\"/></w:tblGrid><w:tr><w:tc>{}{inner}</w:tc><w:tc>{item}</w:tc></w:tr></w:tbl>",
        p("outer")
    );
    let c = docx(&body).numbering(numbering).read();
    valid(&c);
    let t = table(&c, 0);
    assert_eq!(t.columns, vec![25.0, 75.0]);
    assert_eq!(
        shape(t),
        vec![vec![("outer|<table>".into(), 1, 1), ("item".into(), 1, 1)]]
    );
    let Block::Table(nested) = &t.rows[0].cells[0].blocks[1] else {
        panic!()
    };
    assert_eq!(
        shape(nested),
        vec![vec![("i1".into(), 1, 1), ("i2".into(), 1, 1)]]
    );
    let Block::Paragraph(li) = &t.rows[0].cells[1].blocks[0] else {
        panic!()
    };
    assert_eq!(li.kind, TextType::ListUl);
    golden("table_nested", &c);
}

#[test]
fn a_caption_before_a_table_becomes_its_caption() {
    let caption = format!(
        r#"<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr><w:bookmarkStart w:id="5" w:name="_Ref5"/><w:r><w:t xml:space="preserve">Table </w:t></w:r>{}<w:bookmarkEnd w:id="5"/><w:r><w:t>: Results</w:t></w:r></w:p>"#,
        field(r"SEQ Table \* ARABIC", "1")
    );
    let body = [
        caption,
        tbl(&[1000], &[tr("", &[tc("", "cell")])]),
        format!(
            "<w:p><w:r><w:t>See </w:t></w:r>{}</w:p>",
            field(r"REF _Ref5 \h", "Table 1")
        ),
    ]
    .concat();
    let styles = [NORMAL.to_string(), pstyle("Caption", "caption", "")].concat();
    let c = docx(&body).styles(&styles).read();
    valid(&c);
    assert_eq!(c.value.blocks.len(), 2, "the caption paragraph is absorbed");
    let t = table(&c, 0);
    assert_eq!(t.caption.as_deref(), Some("Results"));
    assert!(t.numbered);
    assert_eq!(
        t.id.as_deref(),
        Some("_Ref5"),
        "cross-references still find it"
    );
    golden("table_caption", &c);
}

/// A typed caption between a picture and a table goes to the neighbour its label names: `Tab.`
/// and `Табл.` name tables (as a `TOC \c "Tab."` does), `Abb.` pictures, whichever comes first.
#[test]
fn a_typed_label_abbreviating_table_names_the_table_not_the_picture() {
    let styles = [NORMAL.to_string(), pstyle("Caption", "caption", "")].concat();
    let picture = || format!("<w:p>{}</w:p>", drawing("rIdImg", 914_400, 914_400, "alt"));
    let table = || tbl(&[1000], &[tr("", &[tc("", "cell")])]);
    for (caption, text, names_table) in [
        ("Tab. 2 – Werte", "Werte", true),
        ("Табл. 3 — Данные", "Данные", true),
        ("Tab 4: Werte", "Werte", true),
        ("Abb. 5 Hund", "Hund", false),
    ] {
        let body = [picture(), ps("Caption", caption), table()].concat();
        let c = docx(&body)
            .styles(&styles)
            .image("rIdImg", "image1.png", png(1, 1))
            .read();
        valid(&c);
        let b = &c.value.blocks;
        assert_eq!(
            b.len(),
            2,
            "{caption}: the caption paragraph is absorbed: {b:?}"
        );
        let (image_caption, table_caption) = match (&b[0], &b[1]) {
            (Block::Image(i), Block::Table(t)) => (i.caption.as_deref(), t.caption.as_deref()),
            other => panic!("{caption}: {other:?}"),
        };
        let (on_table, on_image) = if names_table {
            (Some(text), None)
        } else {
            (None, Some(text))
        };
        assert_eq!(table_caption, on_table, "{caption}");
        assert_eq!(image_caption, on_image, "{caption}");
    }
}
/// Table formatting as other producers write it: `w:tblW` as `NN%` (later editions of
/// ECMA-376), `start`/`end` cell borders, a row height without `w:hRule` (Word treats it as
/// "at least"), a cell whose paragraphs share `w:jc` and a size on every run and mark, shading;
/// odd values are warned about and left out, never an error.
#[test]
fn table_width_borders_heights_and_cell_formatting_from_other_producers() {
    let sized = |text: &str| {
        format!(
            r#"<w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:sz w:val="21"/></w:rPr></w:pPr><w:r><w:rPr><w:sz w:val="21"/></w:rPr><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let formatted = format!(
        r#"<w:tc><w:tcPr><w:tcBorders><w:start w:val="single" w:sz="4"/><w:end w:val="none"/><w:insideH w:val="single"/></w:tcBorders><w:shd w:val="clear" w:fill="a1B2c3"/></w:tcPr>{}{}</w:tc>"#,
        sized("one"),
        sized("two")
    );
    let mixed = r#"<w:tc><w:p><w:pPr><w:jc w:val="center"/><w:rPr><w:sz w:val="21"/></w:rPr></w:pPr><w:r><w:t>default size</w:t></w:r></w:p></w:tc>"#;
    let xml = format!(
        r#"<w:tbl><w:tblPr><w:tblW w:w="80%" w:type="pct"/><w:tblBorders><w:top w:val="single" w:color="FF0000"/><w:insideV w:val="single" w:color="FF0000"/><w:bottom w:val="nil"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:trPr><w:trHeight w:val="397"/></w:trPr>{formatted}{mixed}</w:tr><w:tr><w:trPr><w:trHeight w:val="300" w:hRule="auto"/></w:trPr>{}{}</w:tr></w:tbl>{}"#,
        tc("", "a"),
        tc("", "b"),
        // Odd values: a width that is no number, a colour that is no RRGGBB, a height with no unit
        // Word knows.
        r#"<w:tbl><w:tblPr><w:tblW w:w="wide" w:type="pct"/><w:tblBorders><w:top w:val="single" w:color="red"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:trPr><w:trHeight w:val="3em"/></w:trPr><w:tc><w:p/></w:tc></w:tr></w:tbl>"#
    );
    let c = docx(&xml).read();
    let t = table(&c, 0);
    assert_eq!(t.width_percent, Some(80.0));
    assert_eq!(t.border_color.as_deref(), Some("#FF0000"));
    assert_eq!(t.rows[0].min_height.as_deref(), Some("19.85pt"));
    assert_eq!(t.rows[1].min_height, None);
    let cell = &t.rows[0].cells[0];
    assert_eq!(cell.align, Some(sdconv::ast::Align::Center));
    assert_eq!(cell.font_size.as_deref(), Some("10.5pt"));
    assert_eq!(cell.borders.left, Some(true));
    assert_eq!(cell.borders.right, Some(false));
    assert_eq!((cell.borders.top, cell.borders.bottom), (None, None));
    assert_eq!(cell.background.as_deref(), Some("#a1B2c3"));
    for b in &cell.blocks {
        match b {
            Block::Paragraph(p) => assert_eq!(p.align, sdconv::ast::Align::Left),
            other => panic!("{other:?}"),
        }
    }
    // The marks say 10.5 pt but the text is in the style's size: no cell size.
    let other = &t.rows[0].cells[1];
    assert_eq!(other.font_size, None);
    assert_eq!(other.align, Some(sdconv::ast::Align::Center));
    let odd = table(&c, 1);
    assert_eq!(
        (
            odd.width_percent,
            &odd.border_color,
            &odd.rows[0].min_height
        ),
        (None, &None, &None)
    );
    let invalid = messages_of(&c, WarningKind::InvalidValue);
    assert_eq!(invalid.len(), 3, "{invalid:?}");
}

/// A row wider than the tree's widest table (1,000 columns) loses the cells past it, and says
/// how many in one warning; many header rows stay header rows (each row used to ask every row
/// before it).
#[test]
fn cells_past_the_widest_table_are_told_and_header_rows_stay_headers() {
    let wide: Vec<String> = (0..1_003).map(|i| tc("", &format!("c{i}"))).collect();
    let header = r#"<w:tblHeader/>"#;
    let mut rows: Vec<String> = (0..3_000)
        .map(|i| tr(header, &[tc("", &format!("h{i}"))]))
        .collect();
    rows.push(tr("", &wide));
    rows.push(tr(header, &[tc("", "body, not a header")]));
    let c = docx(&tbl(&[1000], &rows)).read();
    valid(&c);
    let t = table(&c, 0);
    assert_eq!(t.rows.len(), 3_002);
    assert!(t.rows[..3_000].iter().all(|r| r.header));
    assert!(!t.rows[3_000].header && !t.rows[3_001].header);
    assert_eq!(t.rows[3_000].cells.len(), 1_000);
    let dropped = messages_of(&c, WarningKind::Dropped);
    assert_eq!(
        dropped,
        ["3 cell(s) past the table's 1000 columns are left out"],
        "{:?}",
        c.warnings
    );
}
