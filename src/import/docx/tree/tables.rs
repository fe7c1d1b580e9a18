//! Stage two for tables: Word's per-row cell lists (`w:gridSpan`, `w:vMerge`, `w:hMerge`,
//! `w:gridBefore`/`w:gridAfter`) → the tree's grid of cells with `colspan`/`rowspan`.
//!
//! Every cell is placed on the grid first; vertical merges extend the cell above when it starts
//! in the same column with the same span (otherwise the cell stands alone, with a warning);
//! columns nobody covers are filled with empty cells (ragged rows, with a warning), so the
//! result always passes `validate()`. Column widths come from `w:tblGrid`, as percentages that
//! add up to 100.

use std::collections::HashMap;

use foldhash::fast::RandomState as FastHash;

use super::converter::{Converter, Out};
use crate::ast::{self, Align, Borders, Cell, Row, Table, length};
use crate::import::docx::parse::model::{self, Item, Merge, RunItem};
use crate::import::docx::parse::xmlutil::twips;
use crate::limits::MAX_TABLE_COLUMNS;
use crate::report::WarningKind;

use crate::ast::length::EMU_PER_TWIP;
use crate::ooxml::{CELL_MARGINS, MIN_CELL_TEXT};

/// A row's cells by first column: (row, index in its row) of the cell covering it. Looked up
/// and filled for every cell, so hashed with foldhash (seeded per process) instead of SipHash.
type Owners = HashMap<usize, (usize, usize), FastHash>;

struct Placed {
    col: usize,
    span: usize,
    rowspan: u32,
    cell: Cell,
    filler: bool,
}

impl Converter<'_> {
    /// Converts a table and pushes it (or nothing, for a table without rows).
    pub fn table(&mut self, t: model::Table, out: &mut Out) {
        let id = self.take_carried_id();
        if t.rows.iter().all(|r| r.cells.is_empty()) {
            self.warn_table("a table without cells is dropped");
            return;
        }
        let mut rows: Vec<Vec<Placed>> = Vec::with_capacity(t.rows.len());
        // The previous row's cells by first column: (row, index) of the cell covering it,
        // the origin for vertical merges. Keyed sparsely so wide spans cost nothing per column.
        let mut owner = Owners::default();
        let mut merge_repaired = false;
        // Cells past the widest table the tree holds, told once.
        let mut cut_cells = 0usize;
        let headers: Vec<bool> = t.rows.iter().map(|r| r.header).collect();
        let row_heights: Vec<Option<String>> = t
            .rows
            .iter()
            .map(|r| self.row_height(r.height.as_ref()))
            .collect();
        let width_percent = self.width_percent(t.width.as_ref());
        let border_color = self.table_border_color(&t.borders);
        let grid_len = t.grid.len();
        for (r, row) in t.rows.into_iter().enumerate() {
            // A cell each, and a filler before and after; cells past the widest table are
            // dropped below, so a hostile row's length reserves no more than that.
            let cells = row.cells.len().min(MAX_TABLE_COLUMNS);
            let mut placed: Vec<Placed> = Vec::with_capacity(cells + 2);
            let mut new_owner = Owners::with_capacity_and_hasher(cells, FastHash::default());
            let mut col = (row.grid_before as usize).min(MAX_TABLE_COLUMNS);
            if col > 0 {
                placed.push(filler(0, col));
            }
            let in_row = row.cells.len();
            for (k, cell) in row.cells.into_iter().enumerate() {
                let span = (cell.span.max(1) as usize).min(MAX_TABLE_COLUMNS);
                if col + span > MAX_TABLE_COLUMNS {
                    cut_cells += in_row - k;
                    break;
                }
                if cell.hmerge == Some(Merge::Continue) {
                    if let Some(prev) = placed.last_mut().filter(|p| !p.filler) {
                        prev.span += span;
                        let blocks = self.cell_blocks(cell.blocks, &t.grid, prev.col, prev.span);
                        self.lose_order(!blocks.is_empty());
                        prev.cell.blocks.extend(blocks.into_iter().filter(has_text));
                        col += span;
                        continue;
                    }
                }
                if cell.vmerge == Some(Merge::Continue) {
                    if let Some(&(orow, oidx)) = owner.get(&col) {
                        let fits = rows
                            .get(orow)
                            .and_then(|cells| cells.get(oidx))
                            .is_some_and(|o| o.col == col && o.span == span);
                        if fits {
                            let blocks = self.cell_blocks(cell.blocks, &t.grid, col, span);
                            self.lose_order(!blocks.is_empty());
                            if let Some(o) = rows.get_mut(orow).and_then(|c| c.get_mut(oidx)) {
                                o.rowspan += 1;
                                // Text in a covered cell is unusual; keep it in the merged cell.
                                o.cell.blocks.extend(blocks.into_iter().filter(has_text));
                            }
                            new_owner.insert(col, (orow, oidx));
                            col += span;
                            continue;
                        }
                    }
                    merge_repaired = true;
                }
                let (align, size) = shared_format(&cell.blocks);
                let borders = cell_borders(&cell.borders);
                let background = self.hex_color(cell.fill.as_deref(), "w:shd");
                let mut blocks = self.cell_blocks(cell.blocks, &t.grid, col, span);
                // A cell ends with a paragraph (ECMA-376 §17.4.66): the empty one after a
                // nested table is that rule's, not the author's (writers add it, ours too).
                if let [.., ast::Block::Table(_), ast::Block::Paragraph(last)] = blocks.as_slice() {
                    if super::language::is_empty_default(last) {
                        blocks.pop();
                    }
                }
                // The alignment all paragraphs share is the cell's (Word has no cell `w:jc`);
                // a picture's alignment is its own, so a cell holding one keeps them apart.
                let align =
                    align.filter(|_| blocks.iter().all(|b| matches!(b, ast::Block::Paragraph(_))));
                if let Some(a) = align {
                    for b in &mut blocks {
                        if let ast::Block::Paragraph(p) = b {
                            if p.align == a {
                                p.align = Align::Left;
                            }
                        }
                    }
                }
                // The tree outlives the reader: a cell of one paragraph keeps no room for three
                // more (of 240 bytes each).
                blocks.shrink_to_fit();
                new_owner.insert(col, (r, placed.len()));
                placed.push(Placed {
                    col,
                    span,
                    rowspan: 1,
                    cell: Cell {
                        valign: cell.valign,
                        align,
                        borders,
                        // Half-points are tenths of twips: exact in points.
                        font_size: size.map(|h| length::points(i64::from(h) * 10)),
                        background,
                        blocks,
                        ..Cell::default()
                    },
                    filler: false,
                });
                col += span;
            }
            let after = (row.grid_after as usize).min(MAX_TABLE_COLUMNS.saturating_sub(col));
            if after > 0 {
                placed.push(filler(col, after));
            }
            rows.push(placed);
            owner = new_owner;
        }
        if merge_repaired {
            self.warn_table(
                "a vertically merged cell has no matching cell above; kept as a cell of its own",
            );
        }
        if cut_cells > 0 {
            self.warn(
                WarningKind::Dropped,
                format!(
                    "{cut_cells} cell(s) past the table's {MAX_TABLE_COLUMNS} columns are left out"
                ),
                "w:tc",
            );
        }

        // The grid: tblGrid's columns, or more when rows reach further.
        let reach = rows
            .iter()
            .flat_map(|r| r.iter().map(|p| p.col + p.span))
            .max()
            .unwrap_or(0);
        let width = reach.max(grid_len).min(MAX_TABLE_COLUMNS);

        // Fill what no cell covers, row by row, honouring row spans from above. Intervals, not
        // per-column flags, so the work follows the cells, not the grid's width.
        let mut active: Vec<(usize, usize, u32)> = Vec::new();
        let mut padded = false;
        let mut out_rows = Vec::with_capacity(rows.len());
        let mut all_headers = true;
        let total_rows = rows.len();
        for (r, mut placed) in rows.into_iter().enumerate() {
            let mut spans: Vec<(usize, usize)> = active
                .iter()
                .map(|&(c, s, _)| (c, s))
                .chain(placed.iter().map(|p| (p.col, p.span)))
                .collect();
            spans.sort_unstable();
            let mut c = 0;
            for (start, span) in spans {
                if start > c {
                    placed.push(filler(c, start - c));
                    padded = true;
                }
                c = c.max(start + span);
            }
            if c < width {
                placed.push(filler(c, width - c));
                padded = true;
            }
            placed.sort_by_key(|p| p.col);
            // A header row only among header rows from the first (kept as the rows go: asking
            // every row before took time growing with the square of the rows).
            let header = headers.get(r).copied().unwrap_or(false) && all_headers;
            all_headers = header;
            let min_height = row_heights.get(r).cloned().flatten();
            let rows_left = (total_rows - r) as u32;
            for a in &mut active {
                a.2 -= 1;
            }
            active.retain(|a| a.2 > 0);
            let cells = placed
                .into_iter()
                .map(|p| {
                    let rowspan = p.rowspan.min(rows_left).max(1);
                    if rowspan > 1 {
                        active.push((p.col, p.span, rowspan - 1));
                    }
                    Cell {
                        colspan: p.span as u32,
                        rowspan,
                        header,
                        ..p.cell
                    }
                })
                .collect();
            out_rows.push(Row {
                header,
                min_height,
                cells,
                ..Row::default()
            });
        }
        if padded {
            self.warn_table("a row is shorter than the table's grid; padded with empty cells");
        }
        let table = Table {
            columns: column_widths(&t.grid, width),
            rows: out_rows,
            align: t.align.unwrap_or_default(),
            style: t
                .style
                .as_deref()
                // Read as mammoth reads, every table keeps its style: a style map matches it.
                .filter(|s| self.src.word_refs || !self.src_styles().is_plain_table(s))
                .map(|s| self.style_name(s)),
            id,
            width_percent,
            border_color,
            // Provisional until the document's direction is known (`super::language`).
            dir: t.bidi_visual.then_some(ast::Direction::Rtl),
            ..Table::default()
        };
        out.blocks.push(ast::Block::Table(table));
    }

    fn warn_table(&mut self, message: &str) {
        self.warn(WarningKind::Repaired, message, "w:tbl");
    }

    /// Converts a cell's blocks with the cell's text width as the width pictures are measured
    /// against: a picture's `width_percent` inside a cell is a share of the cell, as the HTML
    /// and Word writers apply it (measured against the page, a picture filling a cell came
    /// back a fraction of it and shrank on every round trip). The cell's width is its grid
    /// columns' less Word's default cell margins (108 twips a side), as the Word writer
    /// reserves them; a table without a usable grid keeps the page's width.
    fn cell_blocks(
        &mut self,
        blocks: Vec<model::Block>,
        grid: &[u64],
        col: usize,
        span: usize,
    ) -> Vec<ast::Block> {
        // Saturating: the grid's widths are the file's, any size.
        let twips = grid
            .iter()
            .skip(col)
            .take(span)
            .fold(0u64, |sum, w| sum.saturating_add(*w));
        if twips == 0 || grid.len() < col + span {
            return self.block_list(blocks, None);
        }
        let page = self.text_width;
        self.text_width = twips
            .saturating_sub(u64::from(CELL_MARGINS))
            .max(u64::from(MIN_CELL_TEXT))
            .saturating_mul(EMU_PER_TWIP);
        let out = self.block_list(blocks, None);
        self.text_width = page;
        out
    }

    /// `w:tblW` of type `pct` as a percentage of the text width: fiftieths of a percent
    /// (§17.18.90), or a number with `%` (later editions). Other types (`dxa`, `auto`, `nil`)
    /// give none: the grid says the width.
    fn width_percent(&mut self, width: Option<&(Option<String>, String)>) -> Option<f32> {
        let (ty, w) = width?;
        if ty.as_deref() != Some("pct") {
            return None;
        }
        let w = w.trim();
        let pct = match w.strip_suffix('%') {
            Some(p) => p.trim().parse::<f64>().ok(),
            None => w.parse::<f64>().ok().map(|f| f / 50.0),
        };
        match pct {
            Some(p) if p.is_finite() && p > 0.0 && p <= 1000.0 => Some(p as f32),
            // Zero is how some writers say "automatic".
            Some(0.0) => None,
            _ => {
                self.warn(
                    WarningKind::InvalidValue,
                    format!("table width {w:?} is no percentage; the grid's width is kept"),
                    "w:tblW",
                );
                None
            }
        }
    }

    /// The colour of `w:tblBorders` when every side drawn has the same `RRGGBB` one.
    fn table_border_color(&mut self, sides: &[model::BorderSide]) -> Option<String> {
        let mut colors = sides
            .iter()
            .filter(|s| s.drawn())
            .map(|s| s.color.as_deref().unwrap_or("auto"));
        let first = colors.next()?;
        if colors.any(|c| c != first) {
            return None;
        }
        self.hex_color(Some(first), "w:tblBorders")
    }

    /// A Word colour (`RRGGBB`, ST_HexColor) as the tree's `#rrggbb`, the case kept as written;
    /// `auto` (the default colour) is none, anything else none with a warning.
    fn hex_color(&mut self, color: Option<&str>, element: &str) -> Option<String> {
        let c = color?.trim();
        if c.len() == 6 && c.chars().all(|c| c.is_ascii_hexdigit()) {
            return Some(format!("#{c}"));
        }
        if !c.eq_ignore_ascii_case("auto") {
            self.warn(
                WarningKind::InvalidValue,
                format!("colour {c:?} is no RRGGBB value; left out"),
                element,
            );
        }
        None
    }

    /// `w:trHeight` as the tree's minimum height, in points (exact: twips are twentieths of a
    /// point). `atLeast` (and no rule, which Word treats so) is a minimum; an `exact` height is
    /// kept as the minimum too, the nearest the tree has; `auto` says nothing.
    fn row_height(&mut self, height: Option<&(String, Option<String>)>) -> Option<String> {
        let (v, rule) = height?;
        if rule.as_deref() == Some("auto") {
            return None;
        }
        match twips(v) {
            Some(t) if t > 0 => Some(length::points(t.min(31_680))),
            Some(_) => None,
            None => {
                self.warn(
                    WarningKind::InvalidValue,
                    format!("row height {v:?} is no length; left out"),
                    "w:trHeight",
                );
                None
            }
        }
    }
}

/// What all of a cell's paragraphs say alike, directly: the `w:jc` each sets, and the paragraph
/// mark size each sets when every run of text has that size too (a size on the marks alone
/// would be no size of the text).
fn shared_format(blocks: &[model::Block]) -> (Option<Align>, Option<u32>) {
    // Asked of every cell: the paragraphs are walked again rather than listed.
    let paras = || {
        blocks.iter().filter_map(|b| match b {
            model::Block::Para(p) => Some(p),
            _ => None,
        })
    };
    let Some(first) = paras().next() else {
        return (None, None);
    };
    let align = first
        .props
        .align
        .filter(|a| paras().all(|p| p.props.align == Some(*a)));
    let size = first.props.mark_size.filter(|s| {
        paras().all(|p| {
            p.props.mark_size == Some(*s)
                && p.items.iter().all(|i| match i {
                    Item::Run(r) if has_run_text(r) => r.props.size == Some(*s),
                    _ => true,
                })
        })
    });
    (align, size)
}

fn has_run_text(r: &model::Run) -> bool {
    r.content
        .iter()
        .any(|c| matches!(c, RunItem::Text(t) if !t.is_empty()))
}

/// `w:tcBorders` as the tree's borders: a side drawn or not (`nil`/`none`), as said; `start`
/// and `end` are the left and right of a left-to-right table.
fn cell_borders(sides: &[model::BorderSide]) -> Borders {
    let mut b = Borders::default();
    for s in sides {
        let slot = match s.side.as_str() {
            "top" => &mut b.top,
            "bottom" => &mut b.bottom,
            "left" | "start" => &mut b.left,
            "right" | "end" => &mut b.right,
            _ => continue,
        };
        *slot = Some(s.drawn());
    }
    b
}

/// An empty cell where the row leaves the grid uncovered. It holds one empty paragraph, as an
/// empty cell read from Word does (a cell must end with a paragraph, ECMA-376 §17.4.66), so
/// the table reads back the same after the next trip through Word.
fn filler(col: usize, span: usize) -> Placed {
    Placed {
        col,
        span,
        rowspan: 1,
        cell: Cell {
            blocks: vec![ast::Block::Paragraph(ast::Paragraph::default())],
            ..Cell::default()
        },
        filler: true,
    }
}

fn has_text(b: &ast::Block) -> bool {
    // Empty paragraphs of covered cells are layout, not content.
    match b {
        ast::Block::Paragraph(p) => !ast::inline::plain_text(&p.content).trim().is_empty(),
        _ => true,
    }
}

/// Relative widths in percent (two decimals, adding up to 100): from the grid's twips when
/// they cover the columns, else equal.
fn column_widths(grid: &[u64], width: usize) -> Vec<f32> {
    if width == 0 {
        return Vec::new();
    }
    let known: Vec<u64> = grid.iter().take(width).copied().collect();
    let known_sum: u64 = known.iter().sum();
    let mut twips: Vec<f64> = if known_sum == 0 {
        vec![1.0; width]
    } else {
        let avg = known_sum as f64 / known.len() as f64;
        (0..width)
            .map(|i| known.get(i).map_or(avg, |w| *w as f64))
            .collect()
    };
    let sum: f64 = twips.iter().sum();
    if sum <= 0.0 {
        twips = vec![1.0; width];
    }
    let sum: f64 = twips.iter().sum();
    // A width in twips is exact to a twip at best (writers round), so each percentage is the
    // shortest decimal (up to 4 places) within half a twip of it: 3,610 of 9,026 twips is 40%,
    // not 39.99%, while 1,000 of 6,000 stays 16.67%. Within half a twip, the Word writer
    // (rounding to the nearest twip) gives the same twips back, so widths settle after one
    // trip; two places alone are coarser than a twip in a table under 10,000 twips wide.
    let half_twip = if known_sum == 0 { 0.0 } else { 50.0 / sum };
    let mut out: Vec<f32> = twips
        .iter()
        .map(|w| {
            let pct = w / sum * 100.0;
            // Equal widths (no grid) are exact: two places.
            let places = if half_twip > 0.0 { 10_000.0 } else { 100.0 };
            let mut v = (pct * places).round() / places;
            for scale in [1.0, 10.0, 100.0, 1_000.0] {
                let short = (pct * scale).round() / scale;
                let close = if half_twip > 0.0 {
                    (short - pct).abs() < half_twip
                } else {
                    short == pct
                };
                if close {
                    v = short;
                    break;
                }
            }
            v as f32
        })
        .collect();
    let rest: f32 = out.iter().take(width - 1).sum();
    if let Some(last) = out.last_mut() {
        *last = ((100.0 - rest) * 10_000.0).round() / 10_000.0;
        if *last < 0.0 {
            *last = 0.0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_add_up() {
        let w = column_widths(&[1000, 2000, 3000], 3);
        assert_eq!(w, vec![16.67, 33.33, 50.0]);
        let w = column_widths(&[], 3);
        assert_eq!(w, vec![33.33, 33.33, 33.34]);
        let w = column_widths(&[1000], 2);
        assert_eq!(w, vec![50.0, 50.0]);
    }
}
