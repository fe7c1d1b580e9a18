//! Tables: `tabelle` with its caption, `thead`/`tbody` rows, and `th`/`td` cells holding
//! flow content.

use super::Writer;
use super::markup::yes_no;
use crate::ast::numbering::{BlockNumber, number_at, number_blocks_if_any};
use crate::ast::{Align, Cell, Table};
use crate::report::WarningKind;

impl Writer<'_> {
    pub(super) fn table(&mut self, t: &Table, n: &BlockNumber) {
        if t.rows.is_empty() {
            self.warn(WarningKind::Dropped, "table without rows not written");
            return;
        }
        self.warn_indent(t.indent);
        if t.columns.windows(2).any(|w| (w[0] - w[1]).abs() > 0.01)
            || t.width_percent.is_some()
            || t.align != Align::Left
        {
            self.warn_once(
                "table-widths",
                WarningKind::Lossy,
                "table and column widths and table alignment are not written to parsX",
            );
        }
        let id = self.block_ids.get(&self.path).cloned();
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if let Some(id) = id.as_deref() {
            attrs.push(("id", id));
        }
        attrs.push(("nummeriert", yes_no(n.caption.is_some())));
        self.open("tabelle", &attrs);
        if let Some(c) = t.caption.as_deref().filter(|c| !c.is_empty()) {
            self.open("titel", &[]);
            self.text_element("text", c);
            self.close("titel");
        }
        self.open("table", &[]);
        let head = t.rows.iter().take_while(|r| r.header).count();
        let saved_block = self.block;
        for (r, row) in t.rows.iter().enumerate() {
            if r == 0 && head > 0 {
                self.open("thead", &[]);
            }
            if r == head {
                self.open("tbody", &[]);
            }
            self.open("tr", &[]);
            for (c, cell) in row.cells.iter().enumerate() {
                self.path.push(r);
                self.path.push(c);
                self.cell(cell, row.header);
                self.path.pop();
                self.path.pop();
            }
            self.close("tr");
            if r + 1 == head {
                self.close("thead");
            }
        }
        if head < t.rows.len() {
            self.close("tbody");
        }
        self.block = saved_block;
        self.close("table");
        self.close("tabelle");
    }

    fn cell(&mut self, cell: &Cell, header_row: bool) {
        let name = if cell.header || header_row {
            "th"
        } else {
            "td"
        };
        if cell.valign.is_some()
            || cell.background.is_some()
            || cell.font_size.is_some()
            || cell.borders != crate::ast::Borders::default()
        {
            self.warn_once(
                "cell-format",
                WarningKind::Lossy,
                "cell borders, shading, font size and vertical alignment are not written to parsX",
            );
        }
        let colspan = cell.colspan.max(1).to_string();
        let rowspan = cell.rowspan.max(1).to_string();
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if cell.colspan > 1 {
            attrs.push(("colspan", &colspan));
        }
        if cell.rowspan > 1 {
            attrs.push(("rowspan", &rowspan));
        }
        if cell.blocks.is_empty() {
            self.newline();
            self.start_tag(name, &attrs, true);
            return;
        }
        self.open(name, &attrs);
        // Most cells number nothing: their blocks take the default without a list.
        let numbers = number_blocks_if_any(&cell.blocks);
        let mut lists = Vec::new();
        for (i, block) in cell.blocks.iter().enumerate() {
            self.path.push(i);
            let n = number_at(&numbers, i);
            self.flow_block(block, n, &mut lists, cell.align);
            self.path.pop();
        }
        self.close_lists(&mut lists);
        self.close(name);
    }
}
