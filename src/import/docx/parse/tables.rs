//! Stage one for tables (`w:tbl`, ECMA-376 §17.4): grid, `w:tblW`, `w:tblBorders`, rows with
//! `w:tblHeader`, `w:trHeight`, `w:gridBefore`/`w:gridAfter`, cells with `w:gridSpan`,
//! `w:vMerge`, legacy `w:hMerge`, `w:vAlign`, `w:tcBorders` and `w:shd`; values are kept as
//! written and judged in stage two (`tree/tables.rs`), which warns about odd ones. Rows and cells wrapped in content controls or custom XML are read through.

use quick_xml::events::{BytesStart, Event};

use super::model::{BorderSide, Cell, Merge, Row, Table};
use super::parser::BodyParser;
use super::xmlutil::{attr, attr_string, on_off, twips, val};
use crate::ast::{Align, VAlign};
use crate::error::Result;
use crate::xml::{LocalName, XmlReader};

fn merge_of(e: &BytesStart<'_>) -> Merge {
    // `<w:vMerge/>` without a value continues the merge (§17.4.85).
    match attr(e, "val").as_deref() {
        Some("restart") => Merge::Restart,
        _ => Merge::Continue,
    }
}

/// The sides of the `w:tblBorders` / `w:tcBorders` whose `Start` was just read, up to its end.
fn border_sides(r: &mut XmlReader<'_>) -> Result<Vec<BorderSide>> {
    let mut sides = Vec::new();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        let event = r.next_event()?;
        // Direct children only: an empty one leaves the depth as it was, a `Start` one adds one
        // (its own children, deeper, are no sides).
        let direct = match &event {
            Event::Empty(_) => r.depth() == target + 1,
            Event::Start(_) => r.depth() == target + 2,
            _ => false,
        };
        match event {
            // A handful of sides exist; a hostile file's thousands are not kept.
            Event::Start(e) | Event::Empty(e) if direct && sides.len() < 16 => {
                sides.push(BorderSide {
                    side: e.local().to_owned(),
                    val: val(&e),
                    color: attr_string(&e, "color"),
                });
            }
            Event::Eof => return Err(r.invalid("the part ends inside a borders element")),
            _ => {}
        }
    }
    Ok(sides)
}

fn count(e: &BytesStart<'_>) -> u32 {
    val(e)
        .and_then(|v| v.trim().parse::<i64>().ok())
        .map_or(0, |n| {
            n.clamp(0, crate::limits::MAX_TABLE_COLUMNS as i64) as u32
        })
}

impl BodyParser<'_, '_> {
    /// Reads the `w:tbl` whose start was just read.
    pub fn table(&mut self) -> Result<Table> {
        let mut t = Table::default();
        self.table_depth += 1;
        let read = self.table_children(&mut t);
        self.table_depth -= 1;
        read?;
        Ok(t)
    }

    fn table_children(&mut self, t: &mut Table) -> Result<()> {
        loop {
            match self.r.next_event()? {
                Event::Start(e) => match e.local() {
                    "tblPr" => self.table_props(t)?,
                    "tblGrid" => self.table_grid(t)?,
                    "tr" => {
                        let row = self.row()?;
                        t.rows.push(row);
                    }
                    // Row-level wrappers.
                    "sdt" | "sdtContent" | "customXml" | "ins" | "del" | "moveFrom" | "moveTo" => {
                        self.table_children(t)?
                    }
                    _ => self.r.skip_element()?,
                },
                Event::End(_) => return Ok(()),
                Event::Eof => return Err(self.r.invalid("the part ends inside w:tbl")),
                _ => {}
            }
        }
    }

    fn table_props(&mut self, t: &mut Table) -> Result<()> {
        let target = self.r.depth().saturating_sub(1);
        while self.r.depth() > target {
            let event = self.r.next_event()?;
            let empty = matches!(event, Event::Empty(_));
            match event {
                Event::Start(e) | Event::Empty(e) => {
                    // Only direct children of tblPr (not w:tblPrChange's old values).
                    if self.r.depth() > target + 2 {
                        continue;
                    }
                    match e.local() {
                        "tblStyle" => t.style = val(&e),
                        "tblW" => {
                            t.width = attr_string(&e, "w").map(|w| (attr_string(&e, "type"), w))
                        }
                        "tblBorders" if !empty => t.borders = border_sides(&mut self.r)?,
                        "bidiVisual" => t.bidi_visual = on_off(&e),
                        "jc" => {
                            t.align = match val(&e).as_deref() {
                                Some("center") => Some(Align::Center),
                                Some("right" | "end") => Some(Align::Right),
                                Some(_) => Some(Align::Left),
                                None => None,
                            }
                        }
                        _ => {}
                    }
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside w:tblPr")),
                _ => {}
            }
        }
        Ok(())
    }

    fn table_grid(&mut self, t: &mut Table) -> Result<()> {
        let target = self.r.depth().saturating_sub(1);
        // A later tblGrid (there should be one) replaces an earlier one.
        t.grid.clear();
        while self.r.depth() > target {
            match self.r.next_event()? {
                Event::Start(e) | Event::Empty(e)
                    if e.local() == "gridCol" && self.r.depth() <= target + 2 =>
                {
                    let w = attr(&e, "w").and_then(|v| twips(&v)).unwrap_or(0).max(0);
                    if t.grid.len() < crate::limits::MAX_TABLE_COLUMNS {
                        t.grid.push(w as u64);
                    }
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside w:tblGrid")),
                _ => {}
            }
        }
        Ok(())
    }

    fn row(&mut self) -> Result<Row> {
        let mut row = Row::default();
        self.row_children(&mut row)?;
        Ok(row)
    }

    fn row_children(&mut self, row: &mut Row) -> Result<()> {
        loop {
            match self.r.next_event()? {
                Event::Start(e) => match e.local() {
                    "trPr" => self.row_props(row)?,
                    "tc" => {
                        let cell = self.cell()?;
                        row.cells.push(cell);
                    }
                    "sdt" | "sdtContent" | "customXml" => self.row_children(row)?,
                    _ => self.r.skip_element()?,
                },
                Event::End(_) => return Ok(()),
                Event::Eof => return Err(self.r.invalid("the part ends inside w:tr")),
                _ => {}
            }
        }
    }

    fn row_props(&mut self, row: &mut Row) -> Result<()> {
        let target = self.r.depth().saturating_sub(1);
        while self.r.depth() > target {
            match self.r.next_event()? {
                Event::Start(e) | Event::Empty(e) => {
                    if self.r.depth() > target + 2 {
                        continue;
                    }
                    match e.local() {
                        "tblHeader" => row.header = on_off(&e),
                        // How our writer marks the header rows of a nested table (Word does not
                        // repeat those, and `w:tblHeader` there makes LibreOffice loop): the
                        // first-row conditional formatting mark, as an attribute or as the
                        // first digit of the `w:val` bit string.
                        "cnfStyle" if self.table_depth > 1 => {
                            let first = attr(&e, "firstRow")
                                .map(|v| matches!(v.as_ref(), "1" | "true" | "on"));
                            let bits = attr(&e, "val").map(|v| v.starts_with('1'));
                            if first.or(bits).unwrap_or(false) {
                                row.header = true;
                            }
                        }
                        "gridBefore" => row.grid_before = count(&e),
                        "gridAfter" => row.grid_after = count(&e),
                        "trHeight" => {
                            row.height =
                                attr_string(&e, "val").map(|v| (v, attr_string(&e, "hRule")))
                        }
                        _ => {}
                    }
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside w:trPr")),
                _ => {}
            }
        }
        Ok(())
    }

    fn cell(&mut self) -> Result<Cell> {
        let mut cell = Cell {
            blocks: self.block_lists.take(),
            ..Cell::default()
        };
        loop {
            match self.r.next_event()? {
                Event::Start(e) => {
                    if e.local() == "tcPr" {
                        self.cell_props(&mut cell)?;
                    } else {
                        self.block_start(&e, &mut cell.blocks)?;
                    }
                }
                Event::Empty(e) => self.block_empty(&e, &mut cell.blocks),
                Event::End(_) => {
                    cell.blocks = self.block_lists.finish(std::mem::take(&mut cell.blocks));
                    return Ok(cell);
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside w:tc")),
                _ => {}
            }
        }
    }

    fn cell_props(&mut self, cell: &mut Cell) -> Result<()> {
        let target = self.r.depth().saturating_sub(1);
        while self.r.depth() > target {
            let event = self.r.next_event()?;
            let empty = matches!(event, Event::Empty(_));
            match event {
                Event::Start(e) | Event::Empty(e) => {
                    if self.r.depth() > target + 2 {
                        continue;
                    }
                    match e.local() {
                        "gridSpan" => cell.span = count(&e).max(1),
                        "vMerge" => cell.vmerge = Some(merge_of(&e)),
                        "hMerge" => cell.hmerge = Some(merge_of(&e)),
                        "tcBorders" if !empty => cell.borders = border_sides(&mut self.r)?,
                        "shd" => cell.fill = attr_string(&e, "fill"),
                        "vAlign" => {
                            cell.valign = match val(&e).as_deref() {
                                Some("center") => Some(VAlign::Middle),
                                Some("bottom") => Some(VAlign::Bottom),
                                Some("top") => Some(VAlign::Top),
                                _ => None,
                            }
                        }
                        _ => {}
                    }
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside w:tcPr")),
                _ => {}
            }
        }
        Ok(())
    }
}
