//! GFM pipe tables: the header row, column alignment, spans expanded with empty cells, one
//! line per cell, and the caption as a paragraph after the table. Tables a pipe table cannot
//! hold go to [`super::html_table`] unless the options ask for pipe tables.

use super::html_table::needs_html;
use super::images::caption_text;
use super::inline::one_line;
use super::{Ctx, Tables, Writer};
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Block, Inline, Table, grid_positions};
use crate::report::WarningKind;

impl Writer<'_> {
    pub(super) fn table_lines(&mut self, t: &Table, n: &BlockNumber) -> Vec<String> {
        let width = t.grid_width();
        if t.rows.is_empty() || width == 0 {
            self.warn(WarningKind::Dropped, "empty table not written");
            return Vec::new();
        }
        let html = match self.opts.tables {
            Tables::Gfm => false,
            Tables::Html => true,
            Tables::Auto => needs_html(t),
        };
        if html {
            if t.width_percent.is_some() || t.align != Align::Left {
                self.warn_once(
                    "table-size",
                    WarningKind::Lossy,
                    "table width and alignment are not written",
                );
            }
            return self.html_table_lines(t, n);
        }
        let mut grid: Vec<Vec<String>> = vec![vec![String::new(); width]; t.rows.len()];
        let mut aligns: Vec<Option<Align>> = vec![None; width];
        let mut spans = false;
        for (r, (row, positions)) in t.rows.iter().zip(grid_positions(t)).enumerate() {
            for (cell, (col, span)) in row.cells.iter().zip(positions) {
                if cell.colspan > 1 || cell.rowspan > 1 {
                    spans = true;
                }
                if let Some(a) = cell.align {
                    if let Some(slot) = aligns.get_mut(col) {
                        slot.get_or_insert(a);
                    }
                }
                let text = self.cell_text(&cell.blocks);
                if let Some(slot) = grid.get_mut(r).and_then(|row| row.get_mut(col)) {
                    *slot = text;
                }
                let _ = span;
            }
        }
        if spans {
            self.warn(
                WarningKind::Lossy,
                "merged table cells cannot be expressed in Markdown; covered cells are left empty",
            );
        }
        if t.width_percent.is_some() || t.align != Align::Left {
            self.warn_once(
                "table-size",
                WarningKind::Lossy,
                "table width and alignment are not written",
            );
        }
        let mut lines = Vec::with_capacity(t.rows.len() + 3);
        let row_line = |cells: &[String]| {
            // `| a | b |`: sized once rather than grown.
            let mut s = String::with_capacity(1 + cells.iter().map(|c| c.len() + 3).sum::<usize>());
            s.push('|');
            for c in cells {
                s.push(' ');
                s.push_str(c);
                if !c.is_empty() {
                    s.push(' ');
                }
                s.push('|');
            }
            s
        };
        for (r, row) in grid.iter().enumerate() {
            lines.push(row_line(row));
            if r == 0 {
                let mut s = String::from("|");
                for a in &aligns {
                    s.push_str(match a {
                        Some(Align::Left) => " :--- |",
                        Some(Align::Center) => " :---: |",
                        Some(Align::Right) => " ---: |",
                        _ => " --- |",
                    });
                }
                lines.push(s);
            }
        }
        if aligns.contains(&Some(Align::Justify)) {
            self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
        }
        if let Some(text) = caption_text(self.lang.table(), t.caption.as_deref(), n.caption) {
            self.warn_once(
                "table-caption",
                WarningKind::Lossy,
                "table captions are written as a paragraph after the table",
            );
            lines.push(String::new());
            lines.extend(self.inline_lines(&[Inline::text(text)], Ctx::Para));
        }
        lines
    }

    /// One cell's content on one line.
    fn cell_text(&mut self, blocks: &[Block]) -> String {
        if let [Block::Paragraph(p)] = blocks {
            if p.content.iter().all(|i| matches!(i, Inline::Text { .. })) {
                // Text alone is already in canonical form: no copy to build or normalise.
                return one_line(self.inline_lines(&p.content, Ctx::Cell));
            }
        }
        let mut content: Vec<Inline> = Vec::new();
        let mut paragraphs = 0;
        for block in blocks {
            let part = match block {
                Block::Paragraph(p) => p.content.clone(),
                Block::Image(img) => vec![Inline::Image {
                    media: img.media.clone(),
                    caption: img.caption.clone(),
                    alt: img.alt.clone(),
                }],
                Block::Table(_) => {
                    self.warn(
                        WarningKind::Dropped,
                        "a table inside a table cell cannot be written in Markdown",
                    );
                    continue;
                }
                Block::PageBreak | Block::Directory { .. } => continue,
            };
            if paragraphs > 0 {
                content.push(Inline::text(" "));
            }
            paragraphs += 1;
            content.extend(part);
        }
        if paragraphs > 1 {
            self.warn_once(
                "cell-blocks",
                WarningKind::Lossy,
                "table cells holding several blocks are joined into one line",
            );
        }
        let normalized = crate::ast::inline::normalize(&content);
        one_line(self.inline_lines(&normalized, Ctx::Cell))
    }
}
