//! Charts: a chart's data table written as a real chart part (`word/charts/chartN.xml`, a
//! DrawingML `c:chartSpace`, ECMA-376 Part 1 §21.2) shown by a `w:drawing` inline in its own
//! paragraph.
//!
//! The part holds the chart kind, the title (`c:title`), and per series its name (`c:tx`),
//! categories (`c:cat`, or `c:xVal` for scatter charts) and values (`c:val` / `c:yVal`) as
//! caches (`c:strCache`, `c:numCache`) of references into a workbook that is not embedded:
//! Word and LibreOffice draw the cached values (Word cannot edit the data without the
//! workbook). Bar, column, line, area, scatter and other (radar) charts have two axes, pie
//! charts none. The reader makes the same table back ([`ChartData::to_table`]); a table the
//! part cannot hold whole is written as a table (see [`ChartData::from_table`]).

use std::fmt::Write;

use crate::ast::chart::{ChartData, ChartKind, OTHER_KIND_URI, Stacking, is_chart_number};
use crate::number_format;
use crate::xml::{escape_attr, escape_text};

use super::writer::Writer;
use crate::ast::length::EMU_PER_TWIP;

use crate::ooxml::XML_DECL;
/// The `a:graphicData@uri` of a chart.
const CHART_URI: &str = "http://schemas.openxmlformats.org/drawingml/2006/chart";
/// The content type of a chart part.
pub(crate) const CHART_CONTENT_TYPE: &str =
    "application/vnd.openxmlformats-officedocument.drawingml.chart+xml";
/// Series colours (Office's default accents): without a theme part, which the writer does not
/// write, readers take "automatic" colours from, LibreOffice draws series without fill.
const PALETTE: [&str; 6] = ["4472C4", "ED7D31", "A5A5A5", "FFC000", "5B9BD5", "70AD47"];

/// Ids of the two axes of a chart that has axes.
const AXES: (u32, u32) = (111_111_111, 222_222_222);

/// Spreadsheet column letters of 0-based column `n` (`A`, …, `Z`, `AA`, …).
fn column_letters(mut n: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap_or_default()
}

/// A `c:strRef` (text) or `c:numRef` (numbers) over `points` (index, text) of
/// `Sheet1!$col$first:$col$last`: the formula Word would link, and the cache it shows.
fn data_ref(out: &mut String, numbers: bool, col: usize, count: usize, points: &[(usize, &str)]) {
    let (tag, cache) = if numbers {
        ("numRef", "numCache")
    } else {
        ("strRef", "strCache")
    };
    let c = column_letters(col);
    let _ = write!(out, "<c:{tag}><c:f>Sheet1!${c}$2:${c}${}</c:f>", count + 1);
    let _ = write!(out, "<c:{cache}>");
    if !numbers {
        let _ = write!(out, r#"<c:ptCount val="{count}"/>"#);
        for (i, text) in points {
            let _ = write!(out, r#"<c:pt idx="{i}"><c:v>"#);
            escape_text(text, out);
            out.push_str("</c:v></c:pt>");
        }
        let _ = write!(out, "</c:{cache}></c:{tag}>");
        return;
    }
    // The table shows each number as the chart did (`45%`): the cache holds the number, with
    // the series' format code, and a point's own where it differs, so it is shown so again.
    let shown: Vec<(usize, Option<number_format::Shown>)> = points
        .iter()
        .map(|(i, text)| (*i, number_format::parse(text)))
        .collect();
    let series_code = shown
        .iter()
        .find_map(|(_, s)| s.as_ref().map(|s| s.code.clone()))
        .unwrap_or_else(|| "General".to_string());
    out.push_str("<c:formatCode>");
    escape_text(&series_code, out);
    out.push_str("</c:formatCode>");
    let _ = write!(out, r#"<c:ptCount val="{count}"/>"#);
    for (i, s) in &shown {
        // Every value is a number (`ChartData::from_table` checked): nothing else is cached.
        let Some(s) = s else { continue };
        let _ = write!(out, r#"<c:pt idx="{i}""#);
        if s.code != series_code {
            out.push_str(r#" formatCode=""#);
            escape_attr(&s.code, out);
            out.push('"');
        }
        let _ = write!(out, "><c:v>{}</c:v></c:pt>", s.value);
    }
    let _ = write!(out, "</c:{cache}></c:{tag}>");
}

/// The plot element of `kind` and what opens it before its series.
fn plot(kind: ChartKind) -> (&'static str, String) {
    let grouping = |plain: &str| {
        let g = match kind.stacking() {
            Stacking::None => plain,
            Stacking::Stacked => "stacked",
            Stacking::Percent => "percentStacked",
        };
        format!(r#"<c:grouping val="{g}"/><c:varyColors val="0"/>"#)
    };
    match kind.unstacked() {
        ChartKind::Bar => (
            "barChart",
            format!(r#"<c:barDir val="bar"/>{}"#, grouping("clustered")),
        ),
        ChartKind::Column => (
            "barChart",
            format!(r#"<c:barDir val="col"/>{}"#, grouping("clustered")),
        ),
        ChartKind::Line => ("lineChart", grouping("standard")),
        ChartKind::Area => ("areaChart", grouping("standard")),
        ChartKind::Pie => ("pieChart", r#"<c:varyColors val="1"/>"#.into()),
        ChartKind::Doughnut => ("doughnutChart", r#"<c:varyColors val="1"/>"#.into()),
        ChartKind::Scatter => (
            "scatterChart",
            r#"<c:scatterStyle val="lineMarker"/><c:varyColors val="0"/>"#.into(),
        ),
        ChartKind::Bubble => ("bubbleChart", r#"<c:varyColors val="0"/>"#.into()),
        // A kind drawn as its table only is written as a radar chart, marked so that a reader
        // takes it back as what it was (see `chart_part`).
        _ => (
            "radarChart",
            r#"<c:radarStyle val="marker"/><c:varyColors val="0"/>"#.into(),
        ),
    }
}

/// The chart part (`c:chartSpace`) for `data`.
pub(crate) fn chart_part(data: &ChartData) -> String {
    let mut x = String::from(XML_DECL);
    x.push_str(r#"<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:roundedCorners val="0"/><c:chart>"#);
    match &data.title {
        Some(title) => {
            x.push_str(r#"<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>"#);
            escape_text(title, &mut x);
            x.push_str(r#"</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>"#);
        }
        None => x.push_str(r#"<c:autoTitleDeleted val="1"/>"#),
    }
    let (element, head) = plot(data.kind);
    let _ = write!(x, "<c:plotArea><c:layout/><c:{element}>{head}");
    let count = data.categories.len();
    let bubble = data.kind == ChartKind::Bubble;
    let scatter = data.kind == ChartKind::Scatter || bubble;
    // Numeric x values are numbers to a scatter chart (placed by value); text is numbered.
    let numeric_x = scatter && data.categories.iter().all(|c| is_chart_number(c));
    // The cached points of column `c` of the values.
    let column = |c: usize| -> Vec<(usize, &str)> {
        data.values
            .iter()
            .enumerate()
            .filter_map(|(i, row)| {
                row.get(c)
                    .filter(|v| !v.is_empty())
                    .map(|v| (i, v.as_str()))
            })
            .collect()
    };
    let categories: Vec<(usize, &str)> = data
        .categories
        .iter()
        .map(String::as_str)
        .enumerate()
        .collect();
    // A bubble chart's columns come in pairs: a series' values, then its sizes.
    let step = if bubble { 2 } else { 1 };
    for (k, first) in (0..data.series.len()).step_by(step).enumerate() {
        let name = &data.series[first];
        let col = column_letters(first + 1);
        let _ = write!(
            x,
            r#"<c:ser><c:idx val="{k}"/><c:order val="{k}"/><c:tx><c:strRef><c:f>Sheet1!${col}$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>"#
        );
        escape_text(name, &mut x);
        x.push_str("</c:v></c:pt></c:strCache></c:strRef></c:tx>");
        let colour = PALETTE[k % PALETTE.len()];
        let fill = format!(r#"<a:solidFill><a:srgbClr val="{colour}"/></a:solidFill>"#);
        match data.kind {
            ChartKind::Line | ChartKind::Scatter | ChartKind::Radar | ChartKind::Other => {
                let _ = write!(
                    x,
                    r#"<c:spPr><a:ln w="28575">{fill}</a:ln></c:spPr><c:marker><c:symbol val="circle"/><c:size val="5"/><c:spPr>{fill}</c:spPr></c:marker>"#
                );
            }
            ChartKind::Bar
            | ChartKind::Column
            | ChartKind::StackedBar
            | ChartKind::StackedColumn
            | ChartKind::PercentBar
            | ChartKind::PercentColumn
            | ChartKind::Bubble => {
                let _ = write!(x, r#"<c:spPr>{fill}</c:spPr><c:invertIfNegative val="0"/>"#);
            }
            ChartKind::Area | ChartKind::StackedArea | ChartKind::PercentArea => {
                let _ = write!(x, "<c:spPr>{fill}</c:spPr>");
            }
            // Each slice its own colour.
            ChartKind::Pie | ChartKind::Doughnut => {
                for i in 0..data.categories.len() {
                    let colour = PALETTE[i % PALETTE.len()];
                    let _ = write!(
                        x,
                        r#"<c:dPt><c:idx val="{i}"/><c:bubble3D val="0"/><c:spPr><a:solidFill><a:srgbClr val="{colour}"/></a:solidFill></c:spPr></c:dPt>"#
                    );
                }
            }
        }
        let values = column(first);
        let (cat, val) = if scatter {
            ("xVal", "yVal")
        } else {
            ("cat", "val")
        };
        let _ = write!(x, "<c:{cat}>");
        data_ref(&mut x, numeric_x, 0, count, &categories);
        let _ = write!(x, "</c:{cat}><c:{val}>");
        data_ref(&mut x, true, first + 1, count, &values);
        let _ = write!(x, "</c:{val}>");
        if bubble {
            x.push_str("<c:bubbleSize>");
            data_ref(&mut x, true, first + 2, count, &column(first + 1));
            x.push_str(r#"</c:bubbleSize><c:bubble3D val="0"/>"#);
        }
        if matches!(data.kind, ChartKind::Line | ChartKind::Scatter) {
            x.push_str(r#"<c:smooth val="0"/>"#);
        }
        x.push_str("</c:ser>");
    }
    let (a, b) = AXES;
    match data.kind {
        ChartKind::Pie => {
            let _ = write!(x, r#"<c:firstSliceAng val="0"/></c:{element}>"#);
        }
        ChartKind::Doughnut => {
            let _ = write!(
                x,
                r#"<c:firstSliceAng val="0"/><c:holeSize val="50"/></c:{element}>"#
            );
        }
        ChartKind::Scatter | ChartKind::Bubble => {
            if bubble {
                x.push_str(r#"<c:bubbleScale val="100"/><c:showNegBubbles val="0"/>"#);
            }
            let _ = write!(x, r#"<c:axId val="{a}"/><c:axId val="{b}"/></c:{element}>"#);
            value_axis(&mut x, a, b, "b", false);
            value_axis(&mut x, b, a, "l", true);
        }
        kind => {
            if matches!(kind.unstacked(), ChartKind::Bar | ChartKind::Column) {
                x.push_str(r#"<c:gapWidth val="150"/>"#);
                if kind.stacking() != Stacking::None {
                    // Stacked bars lie on each other, not beside.
                    x.push_str(r#"<c:overlap val="100"/>"#);
                }
            }
            let _ = write!(x, r#"<c:axId val="{a}"/><c:axId val="{b}"/>"#);
            if kind == ChartKind::Other {
                // A kind drawn as its table only, written as a radar chart: marked, so a
                // reader takes it back as what it was, not as a radar chart.
                let _ = write!(x, r#"<c:extLst><c:ext uri="{OTHER_KIND_URI}"/></c:extLst>"#);
            }
            let _ = write!(x, "</c:{element}>");
            // Horizontal bars have their categories on the left, values along the bottom.
            let (cat_pos, val_pos) = if kind.unstacked() == ChartKind::Bar {
                ("l", "b")
            } else {
                ("b", "l")
            };
            let _ = write!(
                x,
                r#"<c:catAx><c:axId val="{a}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="{cat_pos}"/><c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="{b}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>"#
            );
            value_axis(&mut x, b, a, val_pos, true);
        }
    }
    x.push_str(r#"</c:plotArea><c:legend><c:legendPos val="r"/><c:overlay val="0"/></c:legend><c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>"#);
    x
}

/// A `c:valAx` with id `id` crossing `cross` at `pos` (`b`, `l`), with gridlines when `grid`.
fn value_axis(x: &mut String, id: u32, cross: u32, pos: &str, grid: bool) {
    let _ = write!(
        x,
        r#"<c:valAx><c:axId val="{id}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="{pos}"/>{}<c:numFmt formatCode="General" sourceLinked="1"/><c:majorTickMark val="out"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/><c:crossAx val="{cross}"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>"#,
        if grid { "<c:majorGridlines/>" } else { "" }
    );
}

impl Writer<'_> {
    /// Writes `data` as a chart part and a paragraph showing it, `avail` twips wide (3:5 high).
    /// Writes a chart paragraph; the block's `id`, if any, is a bookmark around the drawing
    /// (a reader gives it to the chart).
    pub(crate) fn write_chart(
        &mut self,
        out: &mut String,
        data: &ChartData,
        avail: u32,
        block_id: Option<&str>,
    ) {
        let rel = self.chart_rel(chart_part(data));
        let id = self.next_doc_pr;
        self.next_doc_pr += 1;
        let cx = u64::from(avail) * EMU_PER_TWIP;
        let cy = cx * 3 / 5;
        out.push_str("<w:p>");
        // In a cell, the paragraph mark says the cell's font size as its other paragraphs do.
        if let Some(cell) = self.cell.filter(|c| c.size.is_some()) {
            out.push_str("<w:pPr>");
            cell.push_mark_size(out);
            out.push_str("</w:pPr>");
        }
        let bookmark = block_id.map(|id| self.block_bookmark(out, id, String::new()));
        let _ = write!(
            out,
            r#"<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{cx}" cy="{cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="{id}" name="Chart {id}"/><wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="{CHART_URI}"><c:chart xmlns:c="{CHART_URI}" r:id="{rel}"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#
        );
        if let Some(bid) = bookmark {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
        }
        out.push_str("</w:p>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_letters_count_like_a_spreadsheet() {
        let got: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
            .into_iter()
            .map(column_letters)
            .collect();
        assert_eq!(
            got,
            ["A", "B", "Z", "AA", "AB", "AZ", "BA", "ZZ", "AAA"].map(String::from)
        );
    }
}
