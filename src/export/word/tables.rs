//! Tables: `w:tbl` with the template's table style, column widths in `w:tblGrid`, `w:gridSpan`
//! for column spans, `w:vMerge` (restart + continuation cells) for row spans, `w:tblHeader` on
//! header rows (`w:cnfStyle` first-row in nested tables, which nobody repeats), cell borders, shading, alignment; the caption (Caption style, `SEQ`) above.

use std::fmt::Write;

use crate::ast::chart::ChartData;
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Block, Cell, DirectoryKind, Table, VAlign, grid_positions, length};
use crate::report::WarningKind;
use crate::xml::escape_attr;

use super::captions::CaptionKind;
use super::writer::{CellFormat, Writer};
use crate::ooxml::{CELL_MARGINS, MIN_CELL_TEXT};

/// A `#rrggbb` colour as Word's `RRGGBB` (ST_HexColorRGB, xsd:hexBinary: either case), if it is
/// one. The case is kept so a reader gets the tree's string back.
fn hex_color(c: &str) -> Option<String> {
    let h = c.strip_prefix('#').unwrap_or(c);
    (h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit())).then(|| h.to_string())
}

/// A CSS length (`6.3mm`, `12pt`, `1cm`, `0.5in`, `20px`) in whole twips, the unit of
/// `w:trHeight` (rounded, so a reader gets [`length::rounded_points`] of it back).
fn twips(len: &str) -> Option<u32> {
    let t = length::twips(len)?.round();
    (0.0..31_680.0).contains(&t).then_some(t as u32)
}

/// A font size (`9.75pt`) in half-points, the unit of `w:sz` (rounded to the nearest, as
/// [`length::rounded_points`] with a step of 10 twips).
fn half_points(size: &str) -> Option<u32> {
    let h = (length::twips(size)? / 10.0).round();
    // Word's range is 1-1638 pt (ST_HpsMeasure); a positive size beyond it is clamped.
    (h > 0.0).then(|| h.clamp(2.0, 3276.0) as u32)
}

impl Writer<'_> {
    pub(crate) fn write_table(
        &mut self,
        out: &mut String,
        t: &Table,
        number: &BlockNumber,
        avail: u32,
    ) {
        if t.chart.is_some() {
            // A chart's title is a numbered caption; an unnumbered one is a caption paragraph
            // above a chart without a title (which a reader attaches to the chart again). The
            // chart's id is a bookmark in the chart's paragraph.
            let mut bare = t.clone();
            bare.id = None;
            let unnumbered = t.caption.as_deref().filter(|_| !t.numbered);
            if unnumbered.is_some() {
                bare.caption = None;
            }
            if let Some(data) = ChartData::from_table(&bare) {
                if let Some(text) = unnumbered.filter(|text| !text.is_empty()) {
                    if self.settings.table_caption {
                        self.write_caption(out, CaptionKind::Table, false, text, None, true);
                    } else {
                        self.hidden_captions.1 += 1;
                    }
                }
                return self.write_chart(out, &data, avail, t.id.as_deref());
            }
            self.warn(
                WarningKind::Lossy,
                "c:chart",
                "a chart whose table a chart part cannot hold whole (formatting, spans, rich text, missing names or values that are not numbers) is written as its data table; Word gets no chart",
            );
        }
        if t.rows.is_empty() {
            // A w:tbl needs a row; an empty table has nothing to show. Its caption and its id
            // go with it: written alone they would be read as the next block's (a caption
            // paragraph and a bookmark before a picture or table are that block's), and
            // cross-references to it are reported as naming an unknown id.
            self.warn(
                WarningKind::Dropped,
                "table",
                "a table without rows is left out, with its caption and id",
            );
            return;
        }
        let caption = t
            .caption
            .as_deref()
            .filter(|c| (!c.is_empty() || number.caption.is_some()) && self.settings.table_caption);
        if let Some(text) = caption {
            self.write_caption(
                out,
                CaptionKind::Table,
                number.caption.is_some(),
                text,
                t.id.as_deref(),
                true,
            );
        } else if t.caption.as_deref().is_some_and(|c| !c.is_empty()) {
            self.hidden_captions.1 += 1;
        }
        // Without a caption the table's bookmark is an empty one just before it (allowed at
        // body level): a bookmark around the whole table would hold any cross-reference to the
        // table made inside it, and LibreOffice loops evaluating such a REF.
        let id_bookmark: Option<u32> = match (caption, &t.id) {
            (None, Some(id)) => {
                let bid = self.block_bookmark(out, id, String::new());
                let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
                None
            }
            _ => None,
        };
        self.table_depth += 1;
        let nested = self.table_depth > 1;
        let positions = grid_positions(t);
        // The grid holds every span even when the widths given are fewer (LibreOffice refuses
        // a gridSpan past the grid).
        let spans = positions
            .iter()
            .flat_map(|row| row.iter().map(|&(col, span)| col + span))
            .max()
            .unwrap_or(0);
        let grid = t.grid_width().max(spans).max(1);
        let pct = t
            .width_percent
            .filter(|p| p.is_finite() && *p > 0.0)
            .unwrap_or(100.0)
            .min(100.0);
        let total = (f64::from(avail) * f64::from(pct) / 100.0) as u32;
        let widths = column_widths(&t.columns, grid, total);
        out.push_str("<w:tbl><w:tblPr>");
        out.push_str(r#"<w:tblStyle w:val=""#);
        escape_attr(&self.tpl.table_style, out);
        out.push_str(r#""/>"#);
        out.push_str(self.table_bidi(t));
        // The width the tree gives, in fiftieths of a percent (§17.18.90); none given is
        // Word's `auto`, which the fixed grid (the full text width) decides.
        if t.width_percent.is_some() {
            let _ = write!(
                out,
                r#"<w:tblW w:w="{}" w:type="pct"/>"#,
                (pct * 50.0).round() as u32
            );
        } else {
            out.push_str(r#"<w:tblW w:w="0" w:type="auto"/>"#);
        }
        match t.align {
            Align::Center => out.push_str(r#"<w:jc w:val="center"/>"#),
            Align::Right => out.push_str(r#"<w:jc w:val="right"/>"#),
            _ => {}
        }
        if t.indent > 0 {
            let ind = self.indent(t.indent, avail);
            let _ = write!(out, r#"<w:tblInd w:w="{ind}" w:type="dxa"/>"#);
        }
        let border_color = t.border_color.as_deref().and_then(hex_color);
        if let Some(color) = t.border_color.as_deref() {
            match hex_color(color) {
                Some(c) => {
                    out.push_str("<w:tblBorders>");
                    for side in ["top", "left", "bottom", "right", "insideH", "insideV"] {
                        let _ = write!(
                            out,
                            r#"<w:{side} w:val="single" w:sz="4" w:space="0" w:color="{c}"/>"#
                        );
                    }
                    out.push_str("</w:tblBorders>");
                }
                None => self.warn(
                    WarningKind::InvalidValue,
                    "table",
                    format!("border colour {color:?} is not #rrggbb; the style's is used"),
                ),
            }
        }
        let header_first = t.rows.first().is_some_and(|r| r.header);
        let _ = write!(
            out,
            r#"<w:tblLayout w:type="fixed"/><w:tblLook w:val="{}" w:firstRow="{}" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="1" w:noVBand="1"/></w:tblPr><w:tblGrid>"#,
            if header_first { "0620" } else { "0600" },
            u8::from(header_first)
        );
        for w in &widths {
            let _ = write!(out, r#"<w:gridCol w:w="{w}"/>"#);
        }
        out.push_str("</w:tblGrid>");
        let mut repaired = false;
        // Row spans still open: start column → (span, rows left).
        let mut open: Vec<(usize, usize, u32)> = Vec::new();
        for (row, cols) in t.rows.iter().zip(&positions) {
            out.push_str("<w:tr>");
            let mut trpr = String::new();
            if let Some(h) = row.min_height.as_deref() {
                match twips(h) {
                    Some(v) => {
                        let _ = write!(trpr, r#"<w:trHeight w:val="{v}" w:hRule="atLeast"/>"#);
                    }
                    None => self.warn(
                        WarningKind::InvalidValue,
                        "tr",
                        format!("row height {h:?} is not a length; left out"),
                    ),
                }
            }
            if row.header && nested {
                // Word does not repeat the header rows of a nested table, and LibreOffice 7.4
                // loops on load when repeated header rows of a nested table hold note
                // references. The header flag travels as the first-row conditional formatting
                // mark (ECMA-376 §17.3.1.8), which neither acts on and our reader reads back.
                trpr.push_str(r#"<w:cnfStyle w:val="100000000000" w:firstRow="1"/>"#);
            } else if row.header {
                trpr.push_str("<w:tblHeader/>");
            }
            if !trpr.is_empty() {
                let _ = write!(out, "<w:trPr>{trpr}</w:trPr>");
            }
            // Cells of this row and continuation cells of spans from above, in column order.
            let mut items: Vec<(usize, usize, Option<&Cell>)> = open
                .iter()
                .map(|&(col, span, _)| (col, span, None))
                .collect();
            for (cell, &(col, span)) in row.cells.iter().zip(cols) {
                items.push((col, span, Some(cell)));
            }
            items.sort_by_key(|&(col, _, _)| col);
            for s in &mut open {
                s.2 -= 1;
            }
            open.retain(|s| s.2 > 0);
            let empty_row = items.is_empty();
            if empty_row {
                // A row needs a cell (Word reports rows without one as damage).
                items.push((0, grid, None));
            }
            let mut next_col = 0;
            for (col, span, cell) in items {
                // Overlapping spans (a hostile tree): a continuation under a cell ends its merge;
                // a cell moves right past what is already taken.
                let (col, span) = if col < next_col {
                    repaired = true;
                    match cell {
                        None => {
                            open.retain(|&(c, _, _)| c != col);
                            continue;
                        }
                        Some(_) => (next_col, span.saturating_sub(next_col - col).max(1)),
                    }
                } else {
                    (col, span)
                };
                // Word places cells one after another: a gap before a cell (a row with fewer
                // cells than the columns a lower row span needs) would shift it and break the
                // vertical merge, so the gap gets an empty cell.
                if col > next_col {
                    let gap = col - next_col;
                    let width: u32 = widths.iter().skip(next_col).take(gap).sum();
                    let _ = write!(out, r#"<w:tc><w:tcPr><w:tcW w:w="{width}" w:type="dxa"/>"#);
                    if gap > 1 {
                        let _ = write!(out, r#"<w:gridSpan w:val="{gap}"/>"#);
                    }
                    out.push_str("</w:tcPr><w:p/></w:tc>");
                }
                next_col = col + span;
                let width: u32 = widths.iter().skip(col).take(span).sum();
                out.push_str("<w:tc><w:tcPr>");
                let _ = write!(out, r#"<w:tcW w:w="{width}" w:type="dxa"/>"#);
                if span > 1 {
                    let _ = write!(out, r#"<w:gridSpan w:val="{span}"/>"#);
                }
                let Some(cell) = cell else {
                    if empty_row {
                        out.push_str("</w:tcPr><w:p/></w:tc>");
                    } else {
                        out.push_str("<w:vMerge/></w:tcPr><w:p/></w:tc>");
                    }
                    continue;
                };
                if cell.rowspan > 1 {
                    out.push_str(r#"<w:vMerge w:val="restart"/>"#);
                    open.push((col, span, cell.rowspan - 1));
                }
                self.cell_properties(out, cell, border_color.as_deref());
                out.push_str("</w:tcPr>");
                let format = CellFormat {
                    align: cell.align,
                    size: cell.font_size.as_deref().and_then(half_points),
                };
                let inner = width.saturating_sub(CELL_MARGINS).max(MIN_CELL_TEXT);
                self.write_blocks(out, &cell.blocks, inner, Some(format), false);
                // A cell ends with a paragraph (ECMA-376 17.4.66); a chart is one.
                let chart_last = matches!(
                    cell.blocks.last(),
                    Some(Block::Table(t)) if ChartData::from_table(t).is_some()
                );
                if !chart_last
                    && !matches!(
                        cell.blocks.last(),
                        Some(
                            Block::Paragraph(_)
                                | Block::Image(_)
                                | Block::PageBreak
                                | Block::Directory {
                                    kind: DirectoryKind::Content
                                        | DirectoryKind::Images
                                        | DirectoryKind::Tables
                                }
                        )
                    )
                {
                    out.push_str(&format.empty_paragraph());
                }
                out.push_str("</w:tc>");
            }
            out.push_str("</w:tr>");
        }
        out.push_str("</w:tbl>");
        self.table_depth -= 1;
        if repaired {
            self.warn(
                WarningKind::Repaired,
                "table",
                "cells whose spans overlap were moved so each grid column is covered once",
            );
        }
        if let Some(bid) = id_bookmark {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
        }
    }

    /// `w:tcBorders` (drawn in the table's border colour, else `auto`), shading, `w:vAlign`.
    fn cell_properties(&mut self, out: &mut String, cell: &Cell, border_color: Option<&str>) {
        let color = border_color.unwrap_or("auto");
        let b = cell.borders;
        if [b.top, b.left, b.bottom, b.right]
            .iter()
            .any(Option::is_some)
        {
            out.push_str("<w:tcBorders>");
            for (side, v) in [
                ("top", b.top),
                ("left", b.left),
                ("bottom", b.bottom),
                ("right", b.right),
            ] {
                match v {
                    Some(true) => {
                        let _ = write!(
                            out,
                            r#"<w:{side} w:val="single" w:sz="4" w:space="0" w:color="{color}"/>"#
                        );
                    }
                    Some(false) => {
                        let _ = write!(out, r#"<w:{side} w:val="nil"/>"#);
                    }
                    None => {}
                }
            }
            out.push_str("</w:tcBorders>");
        }
        if let Some(bg) = cell.background.as_deref() {
            match hex_color(bg) {
                Some(c) => {
                    let _ = write!(out, r#"<w:shd w:val="clear" w:color="auto" w:fill="{c}"/>"#);
                }
                None => self.warn(
                    WarningKind::InvalidValue,
                    "td",
                    format!("background {bg:?} is not #rrggbb; left out"),
                ),
            }
        }
        if let Some(v) = cell.valign {
            let v = match v {
                VAlign::Top => "top",
                VAlign::Middle => "center",
                VAlign::Bottom => "bottom",
            };
            let _ = write!(out, r#"<w:vAlign w:val="{v}"/>"#);
        }
    }
}

/// Column widths in twips summing to `total`: the relative widths given, else equal.
fn column_widths(columns: &[f32], grid: usize, total: u32) -> Vec<u32> {
    let given: Vec<f64> = columns
        .iter()
        .map(|&c| {
            if c.is_finite() && c > 0.0 {
                f64::from(c)
            } else {
                0.0
            }
        })
        .collect();
    let sum: f64 = given.iter().sum();
    let rel: Vec<f64> = if given.len() == grid && sum > 0.0 {
        given
            .iter()
            .map(|c| if *c > 0.0 { *c } else { sum / grid as f64 })
            .collect()
    } else {
        vec![1.0; grid]
    };
    let sum: f64 = rel.iter().sum();
    // To the nearest twip: the reader turns each width back into the shortest percentage
    // within half a twip of it, which this gives back as the same twips (a table settles after
    // one trip through Word; truncating lost a twip, and a hundredth of a percent, each time).
    let mut out: Vec<u32> = rel
        .iter()
        .map(|r| ((f64::from(total) * r / sum).round() as u32).max(1))
        .collect();
    // Put the rounding rest in the last column so the grid adds up exactly.
    let others: u64 = out.iter().rev().skip(1).map(|&w| u64::from(w)).sum();
    if let Some(last) = out.last_mut() {
        *last = u32::try_from(u64::from(total).saturating_sub(others))
            .unwrap_or(u32::MAX)
            .max(1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_widths() {
        assert_eq!(twips("6.3mm"), Some(357));
        assert_eq!(twips("12pt"), Some(240));
        assert_eq!(twips("x"), None);
        assert_eq!(half_points("9.75pt"), Some(20));
        assert_eq!(half_points("9.750243756093903pt"), Some(20));
        assert_eq!(half_points("9.5pt"), Some(19));
        assert_eq!(column_widths(&[25.0, 75.0], 2, 1000), vec![250, 750]);
        assert_eq!(column_widths(&[], 3, 1000), vec![333, 333, 334]);
        assert_eq!(hex_color("#a1b2c3").as_deref(), Some("a1b2c3"));
        assert_eq!(hex_color("red"), None);
    }
}
