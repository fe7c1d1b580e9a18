//! Tables: column widths from the tree (relative, else equal), cell shading and borders,
//! colspan and rowspan on the grid every writer shares ([`grid_positions`]), the caption above,
//! header rows repeated on every page the table spans, and rows taller than the room left split
//! between pages line by line.

use super::layout::{BODY, Layout};
use super::lines::Line;
use super::page::Item;
use super::structure::{ARTIFACT, Kind};
use super::text::{Anchor, Rgb};
use crate::ast::numbering::{BlockNumber, number_at, number_blocks_if_any};
use crate::ast::{Align, Block, Cell, Table, grid_positions};
use crate::report::WarningKind;

const PAD_X: f32 = 3.0;
const PAD_Y: f32 = 2.0;
const BORDER: f32 = 0.5;

/// One line of a cell's content.
#[derive(Debug, Clone)]
enum CellLine {
    Text(Line, f32),
    Image {
        w: f32,
        h: f32,
        media: String,
        x: f32,
    },
    Gap(f32),
}

impl CellLine {
    fn height(&self) -> f32 {
        match self {
            CellLine::Text(l, _) => l.height,
            CellLine::Image { h, .. } => *h + 2.0,
            CellLine::Gap(h) => *h,
        }
    }
}

struct CellBox {
    x: f32,
    w: f32,
    rowspan: usize,
    lines: Vec<CellLine>,
    /// Lines already drawn (a row split across pages).
    next: usize,
    background: Option<Rgb>,
    borders: crate::ast::Borders,
    /// The cell's structure node ([`ARTIFACT`] for header rows drawn again).
    tag: u32,
}

struct RowBox {
    cells: Vec<CellBox>,
    height: f32,
}

impl Layout<'_> {
    pub(crate) fn table(&mut self, index: usize, t: &Table, number: &BlockNumber) {
        let geo = self.flow.geo;
        let indent = f32::from(t.indent.min(crate::ast::MAX_INDENT)) * 14.0;
        let avail = (geo.text_width() - indent).max(20.0);
        let total = match t.width_percent {
            Some(p) if p.is_finite() && p > 0.0 => avail * p.min(100.0) / 100.0,
            _ => avail,
        };
        // A right-to-left table (Word's `bidiVisual`) runs its columns from the right, its
        // alignment and indent counted from its start, the right edge.
        let rtl = t.dir.or(self.doc.meta.direction) == Some(crate::ast::Direction::Rtl);
        let align = match (rtl, t.align) {
            (true, Align::Left) => Align::Right,
            (true, Align::Right) => Align::Left,
            (_, a) => a,
        };
        let left = geo.left
            + if rtl { 0.0 } else { indent }
            + match align {
                Align::Center => (avail - total) / 2.0,
                Align::Right => avail - total,
                _ => 0.0,
            };
        let grid = t.grid_width().max(1);
        let mut widths = column_widths(&t.columns, grid, total);
        // A table whose words do not fit is set smaller (down to 70 %) before words are cut.
        let need: f32 = min_widths(t, grid, 1.0).iter().sum();
        let scale = if need > total && grid <= 64 {
            (total / need).max(0.7)
        } else {
            1.0
        };
        widen_for_words(&mut widths, &min_widths(t, grid, scale));
        let mut starts = Vec::with_capacity(grid + 1);
        let mut acc = left;
        for w in &widths {
            starts.push(acc);
            acc += w;
        }
        starts.push(acc);
        let border = t
            .border_color
            .as_deref()
            .and_then(parse_hex)
            .unwrap_or([0.55, 0.55, 0.55]);

        // Lay out every cell.
        let positions = grid_positions(t);
        let mut rows: Vec<RowBox> = Vec::with_capacity(t.rows.len());
        for (row, pos) in t.rows.iter().zip(&positions) {
            let mut cells = Vec::with_capacity(row.cells.len());
            for (cell, &(col, span)) in row.cells.iter().zip(pos) {
                let col = col.min(grid - 1);
                let end = (col + span).min(grid);
                let x = starts[col];
                let w = (starts[end] - x).max(1.0);
                let x = if rtl {
                    starts[0] + starts[grid] - (x + w)
                } else {
                    x
                };
                let lines = self.cell_lines(cell, w, row.header, scale);
                cells.push(CellBox {
                    x,
                    w,
                    rowspan: cell.rowspan.max(1) as usize,
                    lines,
                    next: 0,
                    background: cell.background.as_deref().and_then(parse_hex),
                    borders: cell.borders,
                    tag: ARTIFACT,
                });
            }
            let height = cells
                .iter()
                .filter(|c| c.rowspan == 1)
                .map(|c| content_height(c) + 2.0 * PAD_Y)
                .fold(min_row_height(row.min_height.as_deref()), f32::max);
            rows.push(RowBox { cells, height });
        }
        // A cell spanning rows grows the last row it spans when its content needs more.
        for r in 0..rows.len() {
            for c in 0..rows[r].cells.len() {
                let span = rows[r].cells[c].rowspan;
                if span > 1 {
                    let last = (r + span - 1).min(rows.len() - 1);
                    let need = content_height(&rows[r].cells[c]) + 2.0 * PAD_Y;
                    let have: f32 = rows[r..=last].iter().map(|x| x.height).sum();
                    if need > have {
                        rows[last].height += need - have;
                    }
                }
            }
        }

        let header_count = t.rows.iter().take_while(|r| r.header).count();
        let header_h: f32 = rows[..header_count].iter().map(|r| r.height).sum();
        // Headers repeat only when they leave room for the body.
        let repeat =
            header_count > 0 && header_count < rows.len() && header_h < geo.body_height() / 3.0;

        let caption = self.table_caption(t.caption.as_deref(), number, total);
        let cap_h: f32 = caption.iter().map(|l| l.height).sum();
        let first_h = rows
            .iter()
            .take(header_count + 1)
            .map(|r| r.height)
            .sum::<f32>()
            .min(geo.body_height() / 2.0);
        self.flow.need(cap_h + first_h + 4.0);
        self.flow.anchor(Anchor::Block(index));
        if let Some(id) = &t.id {
            self.flow.anchor(Anchor::Id(id.clone()));
        }
        let outer = self.flow.tags.current;
        let table = self.flow.tags.open(Kind::Table);
        if !caption.is_empty() {
            let node = self.flow.tags.open(Kind::Caption);
            for l in caption {
                self.flow.line(l, left);
            }
            self.flow.tags.close(node);
        }
        self.table_structure(table, t, header_count, &mut rows);
        self.flow.y += 2.0;
        self.flow.used = true;

        let heights: Vec<f32> = rows.iter().map(|r| r.height).collect();
        for r in 0..rows.len() {
            let h = heights[r];
            let notes = row_notes(&rows[r]);
            let notes_h = self.notes_height(&notes);
            let fresh_room = geo.body_height() - if repeat { header_h } else { 0.0 };
            if h + notes_h > self.flow.room() && (h <= fresh_room || self.flow.room() < BODY * 3.0)
            {
                self.table_page_break(&rows, header_count, repeat, r, border, &heights);
            }
            if h <= self.flow.room() {
                let span_h = spanned_heights(&rows[r], &heights[r..]);
                self.draw_row(&mut rows[r], h, &span_h, border);
                self.cite_row(&rows[r], &notes, table);
            } else {
                // Taller than a page: split line by line.
                loop {
                    let room = self.flow.room() - 2.0 * PAD_Y;
                    let part = take_lines(&rows[r], room);
                    let part_h = part + 2.0 * PAD_Y;
                    let span_h = vec![part_h; rows[r].cells.len()];
                    self.draw_row_part(&mut rows[r], part_h, &span_h, border, room);
                    if rows[r].cells.iter().all(|c| c.next >= c.lines.len()) {
                        break;
                    }
                    self.table_page_break(&rows, header_count, repeat, r, border, &heights);
                }
                self.cite_row(&rows[r], &notes, table);
            }
        }
        self.flow.tags.current = outer;
        self.flow.y += 8.0;
    }

    /// The table's structure: header rows in a head, the others in a body, a node per row
    /// and per cell (a cell of a header row heads its column, a header cell elsewhere its
    /// row). Each cell keeps its node for drawing.
    fn table_structure(&mut self, table: u32, t: &Table, header_count: usize, rows: &mut [RowBox]) {
        let tags = &mut self.flow.tags;
        if !tags.on {
            return;
        }
        let head = (header_count > 0).then(|| tags.add(table, Kind::TableHead));
        let body = (rows.len() > header_count).then(|| tags.add(table, Kind::TableBody));
        // Readers (and PDF/UA) expect a regular grid: every row covers every column, counting
        // spans and cells reaching down from rows above; a short row gets empty cells.
        let grid = t.grid_width().max(1);
        let mut below = vec![0u32; grid];
        let positions = grid_positions(t);
        let count = t.rows.len();
        for (r, ((row, boxed), pos)) in t
            .rows
            .iter()
            .zip(rows.iter_mut())
            .zip(&positions)
            .enumerate()
        {
            let group = if r < header_count { head } else { body };
            let tr = tags.add(group.unwrap_or(table), Kind::Row);
            let mut covered: Vec<bool> = below.iter().map(|&n| n > 0).collect();
            for ((cell, b), &(col, span)) in row.cells.iter().zip(boxed.cells.iter_mut()).zip(pos) {
                let col = col.min(grid - 1);
                let cols = span.clamp(1, grid - col);
                // A span past the last row would promise rows that are not there.
                let rows_spanned = (cell.rowspan.max(1) as usize).min(count - r);
                for c in col..col + cols {
                    covered[c] = true;
                    below[c] = below[c].max(rows_spanned as u32);
                }
                let (cols, rows_spanned) = (cols as u32, rows_spanned as u32);
                let kind = if row.header || cell.header {
                    Kind::HeaderCell {
                        column: row.header,
                        cols,
                        rows: rows_spanned,
                    }
                } else {
                    Kind::Cell {
                        cols,
                        rows: rows_spanned,
                    }
                };
                b.tag = tags.add(tr, kind);
            }
            // (Not for thousands of columns: a hostile table would get millions of nodes.)
            if grid <= 256 {
                for _ in covered.iter().filter(|c| !**c) {
                    tags.add(tr, Kind::Cell { cols: 1, rows: 1 });
                }
            }
            for n in &mut below {
                *n = n.saturating_sub(1);
            }
        }
    }

    /// Puts a row's footnotes on the page, their nodes in the first cell that cites one.
    fn cite_row(&mut self, row: &RowBox, notes: &[usize], table: u32) {
        if notes.is_empty() {
            return;
        }
        let citing = row.cells.iter().find(|c| {
            c.lines
                .iter()
                .any(|l| matches!(l, CellLine::Text(l, _) if !l.notes.is_empty()))
        });
        self.flow.tags.current = citing.map_or(table, |c| c.tag);
        self.flow.cite(notes);
        self.flow.tags.current = table;
    }

    fn table_page_break(
        &mut self,
        rows: &[RowBox],
        header_count: usize,
        repeat: bool,
        r: usize,
        border: Rgb,
        heights: &[f32],
    ) {
        self.flow.new_page();
        if repeat && r >= header_count {
            for (h, row) in rows.iter().enumerate().take(header_count) {
                // Header rows are drawn again from their laid-out lines.
                let mut copy = RowBox {
                    cells: row
                        .cells
                        .iter()
                        .map(|c| CellBox {
                            x: c.x,
                            w: c.w,
                            rowspan: 1,
                            lines: c.lines.clone(),
                            next: 0,
                            background: c.background,
                            borders: c.borders,
                            tag: ARTIFACT,
                        })
                        .collect(),
                    height: heights[h],
                };
                let span_h = vec![heights[h]; copy.cells.len()];
                self.draw_row(&mut copy, heights[h], &span_h, border);
            }
        }
    }

    fn notes_height(&self, notes: &[usize]) -> f32 {
        notes
            .iter()
            .filter_map(|&n| self.flow.footnotes.get(n))
            .flatten()
            .map(|l| l.height)
            .sum::<f32>()
            .min(self.flow.geo.body_height() * 0.5)
    }

    fn draw_row(&mut self, row: &mut RowBox, h: f32, span_h: &[f32], border: Rgb) {
        self.draw_row_part(row, h, span_h, border, f32::INFINITY);
    }

    /// Draws what fits of each cell within `room` (content height), frames `h` tall.
    fn draw_row_part(&mut self, row: &mut RowBox, h: f32, span_h: &[f32], border: Rgb, room: f32) {
        let y = self.flow.y;
        let limit = self.flow.limit();
        let outer = self.flow.tags.current;
        for (ci, cell) in row.cells.iter_mut().enumerate() {
            self.flow.tags.current = cell.tag;
            let ch = span_h.get(ci).copied().unwrap_or(h).min(limit - y).max(h);
            if let Some(bg) = cell.background {
                self.flow.push(Item::Fill {
                    x: cell.x,
                    y,
                    w: cell.w,
                    h: ch,
                    color: bg,
                    under: true,
                });
            }
            let pad = if cell.w > 4.0 * PAD_X { PAD_X } else { 0.0 };
            let mut cy = y + PAD_Y;
            let mut used = 0.0;
            while cell.next < cell.lines.len() {
                let line = &cell.lines[cell.next];
                let lh = line.height();
                // Always progress by one line on a fresh part, so nothing loops.
                if used + lh > room && used > 0.0 {
                    break;
                }
                match line {
                    // A copy: header rows are drawn again on the pages they repeat on. When
                    // only positions are wanted nothing is drawn, so nothing is copied.
                    CellLine::Text(l, x) if self.flow.keep_items => {
                        self.flow.draw_line(l.clone(), cell.x + pad + x, cy);
                    }
                    CellLine::Text(..) => {}
                    CellLine::Image { w, h, media, x } => {
                        if cell.tag != ARTIFACT {
                            let alt = self.flow.tags.alt.get(media).cloned();
                            self.flow.tags.open(Kind::Figure {
                                media: media.clone(),
                                alt,
                                bbox: None,
                            });
                        }
                        self.flow.push(Item::Image {
                            x: cell.x + pad + x,
                            y: cy + 1.0,
                            w: *w,
                            h: *h,
                            media: media.clone(),
                        });
                        self.flow.tags.current = cell.tag;
                    }
                    CellLine::Gap(_) => {}
                }
                cy += lh;
                used += lh;
                cell.next += 1;
            }
            let b = cell.borders;
            let (x1, x2, y1, y2) = (cell.x, cell.x + cell.w, y, y + ch);
            for (on, (ax, ay, bx, by)) in [
                (b.top, (x1, y1, x2, y1)),
                (b.bottom, (x1, y2, x2, y2)),
                (b.left, (x1, y1, x1, y2)),
                (b.right, (x2, y1, x2, y2)),
            ] {
                if on != Some(false) {
                    self.flow.push(Item::Rule {
                        x1: ax,
                        y1: ay,
                        x2: bx,
                        y2: by,
                        width: BORDER,
                        color: border,
                    });
                }
            }
        }
        self.flow.tags.current = outer;
        self.flow.y += h;
        self.flow.used = true;
    }

    /// A cell's content as lines `w` points wide.
    fn cell_lines(&mut self, cell: &Cell, w: f32, header: bool, scale: f32) -> Vec<CellLine> {
        let pad = if w > 4.0 * PAD_X { PAD_X } else { 0.0 };
        let inner = (w - 2.0 * pad).max(1.0);
        let size = cell_size(cell) * scale;
        let mut out = Vec::new();
        self.blocks_in_cell(
            &cell.blocks,
            cell,
            inner,
            size,
            header || cell.header,
            &mut out,
        );
        out
    }

    fn blocks_in_cell(
        &mut self,
        blocks: &[Block],
        cell: &Cell,
        inner: f32,
        size: f32,
        bold: bool,
        out: &mut Vec<CellLine>,
    ) {
        // Most cells number nothing: their blocks take the default without a list.
        let numbers = number_blocks_if_any(blocks);
        for (i, b) in blocks.iter().enumerate() {
            let n = number_at(&numbers, i);
            if i > 0 {
                out.push(CellLine::Gap(2.0));
            }
            match b {
                Block::Paragraph(p) => {
                    // A copy only when the cell changes how the paragraph is drawn.
                    let mut p = std::borrow::Cow::Borrowed(p);
                    if let (Some(a), Align::Left) = (cell.align, p.align)
                        && a != Align::Left
                    {
                        p.to_mut().align = a;
                    }
                    if bold {
                        let p = p.to_mut();
                        p.content = vec![crate::ast::Inline::styled(
                            crate::ast::TextStyle::Bold,
                            std::mem::take(&mut p.content),
                        )];
                    }
                    let (lines, offset) = self.paragraph_lines(&p, n, inner, size);
                    out.extend(lines.into_iter().map(|l| CellLine::Text(l, offset)));
                }
                Block::Image(img) => {
                    let (w, h) = self.image_size(img, inner);
                    let x = match img.align {
                        Align::Center => (inner - w) / 2.0,
                        Align::Right => inner - w,
                        _ => 0.0,
                    };
                    out.push(CellLine::Image {
                        w,
                        h,
                        media: img.media.clone(),
                        x,
                    });
                }
                Block::Table(inner_table) => {
                    // A table in a cell: its cells' content in reading order.
                    self.nested_tables += 1;
                    if self.nested_tables == 1 {
                        self.warn(
                            WarningKind::Lossy,
                            "a table inside a table cell is drawn as its cells' content, one after another",
                            None,
                        );
                    }
                    for row in &inner_table.rows {
                        for c in &row.cells {
                            self.blocks_in_cell(&c.blocks, c, inner, size, bold || row.header, out);
                        }
                    }
                }
                Block::PageBreak | Block::Directory { .. } => {}
            }
        }
    }
}

fn content_height(c: &CellBox) -> f32 {
    c.lines.iter().map(CellLine::height).sum()
}

/// The height of the content that fits in `room` (at least one line per cell).
fn take_lines(row: &RowBox, room: f32) -> f32 {
    let mut max: f32 = 0.0;
    for c in &row.cells {
        let mut used = 0.0;
        for l in &c.lines[c.next.min(c.lines.len())..] {
            if used + l.height() > room && used > 0.0 {
                break;
            }
            used += l.height();
        }
        max = max.max(used);
    }
    max
}

fn row_notes(row: &RowBox) -> Vec<usize> {
    row.cells
        .iter()
        .flat_map(|c| &c.lines)
        .filter_map(|l| match l {
            CellLine::Text(l, _) => Some(l.notes.iter().copied()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// For each cell, the height of the rows it spans (from this row on).
fn spanned_heights(row: &RowBox, heights: &[f32]) -> Vec<f32> {
    row.cells
        .iter()
        .map(|c| heights.iter().take(c.rowspan).sum())
        .collect()
}

fn min_row_height(s: Option<&str>) -> f32 {
    let Some(s) = s else { return 0.0 };
    // twips → points
    crate::ast::length::twips(s)
        .map(|tw| (tw as f32 / 20.0).clamp(0.0, 200.0))
        .unwrap_or(0.0)
}

/// Column widths summing to `total`: the tree's relative widths when they fit the grid, else equal.
fn column_widths(columns: &[f32], grid: usize, total: f32) -> Vec<f32> {
    let valid = columns.len() == grid && columns.iter().all(|w| w.is_finite() && *w > 0.0);
    if valid {
        let sum: f32 = columns.iter().sum();
        columns.iter().map(|w| w / sum * total).collect()
    } else {
        vec![total / grid as f32; grid]
    }
}

/// Per grid column, the width its longest word needs (cells spanning one column), in the face
/// the cell is drawn in (bold in header rows).
fn min_widths(t: &Table, grid: usize, scale: f32) -> Vec<f32> {
    let mut min = vec![0.0f32; grid];
    let mut text = String::new();
    for (row, pos) in t.rows.iter().zip(grid_positions(t)) {
        for (cell, (col, span)) in row.cells.iter().zip(pos) {
            if span != 1 || col >= grid {
                continue;
            }
            let size = cell_size(cell) * scale;
            let face = if row.header || cell.header {
                crate::fonts::metrics::Face::Bold
            } else {
                crate::fonts::metrics::Face::Regular
            };
            let mut longest: f32 = 0.0;
            for b in &cell.blocks {
                if let Block::Paragraph(p) = b {
                    text.clear();
                    super::text::plain_into(&p.content, &mut text);
                    super::text::each_unbreakable(&text, |w| {
                        longest = longest.max(crate::fonts::metrics::width(face, size, w));
                    });
                }
            }
            min[col] = min[col].max(longest + 2.0 * PAD_X + 1.0);
        }
    }
    min
}

/// Gives columns narrower than their longest word the width it needs, taken from columns with
/// room to spare, when the table is wide enough for every column's words; otherwise shares the
/// width out in proportion to what the columns need.
fn widen_for_words(widths: &mut [f32], min: &[f32]) {
    let total: f32 = widths.iter().sum();
    let need: f32 = min.iter().sum();
    if need > total {
        // Not enough room for every word: each column gets its share of what they need, so
        // the cuts inside words are spread evenly (a 1,000-column table stays equal).
        if need > 0.0 && widths.len() <= 64 {
            for (w, m) in widths.iter_mut().zip(min) {
                *w = m / need * total;
            }
        }
        return;
    }
    let deficit: f32 = widths.iter().zip(min).map(|(w, m)| (m - w).max(0.0)).sum();
    if deficit <= 0.0 {
        return;
    }
    let slack: f32 = widths.iter().zip(min).map(|(w, m)| (w - m).max(0.0)).sum();
    if slack <= 0.0 {
        return;
    }
    for (w, m) in widths.iter_mut().zip(min) {
        if *w < *m {
            *w = *m;
        } else {
            *w -= (*w - m) / slack * deficit;
        }
    }
}

fn cell_size(cell: &Cell) -> f32 {
    cell.font_size
        .as_deref()
        .and_then(|s| s.trim().trim_end_matches("pt").trim().parse::<f32>().ok())
        .filter(|s| s.is_finite())
        .map_or(BODY * 0.9, |s| s.clamp(5.0, 24.0))
}

/// `#rrggbb` → RGB 0..1.
pub(crate) fn parse_hex(s: &str) -> Option<Rgb> {
    let h = s.trim().trim_start_matches('#');
    if h.len() != 6 || !h.is_ascii() {
        return None;
    }
    let c = |i: usize| {
        u8::from_str_radix(&h[i..i + 2], 16)
            .ok()
            .map(|v| f32::from(v) / 255.0)
    };
    Some([c(0)?, c(2)?, c(4)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_tree_or_fall_back_to_equal() {
        assert_eq!(column_widths(&[1.0, 3.0], 2, 100.0), vec![25.0, 75.0]);
        assert_eq!(column_widths(&[1.0], 2, 100.0), vec![50.0, 50.0]);
        assert_eq!(parse_hex("#ff0000"), Some([1.0, 0.0, 0.0]));
        assert_eq!(parse_hex("red"), None);
        let mut w = vec![50.0, 50.0];
        widen_for_words(&mut w, &[70.0, 10.0]);
        assert_eq!(w, vec![70.0, 30.0]);
        let mut w = vec![50.0, 50.0];
        widen_for_words(&mut w, &[150.0, 50.0]);
        assert_eq!(w, vec![75.0, 25.0], "no room: shares of the need");
    }
}
