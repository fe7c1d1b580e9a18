//! The `<?sdconv JSON?>` extension PIs (see [`crate::sdxml_ext`]) and the checks that keep what
//! they carry inside the tree's invariants: a hand-edited payload may hold a level 9, a
//! non-canonical inline list or a table span past its grid, and the reader still returns a tree
//! that validates.

use super::frame::{Ctx, Frame};
use super::parser::{Parser, shown};
use super::runs::Builder;
use crate::ast::inline::{is_normalized, normalize};
use crate::ast::{Block, Image, Inline, MAX_INDENT, MAX_LEVEL, Paragraph, Table};
use crate::error::{Error, Result};
use crate::limits::MAX_TABLE_COLUMNS;
use crate::report::WarningKind;
use crate::sdxml_ext::{Ext, TARGET};

impl Parser<'_> {
    /// A processing instruction.
    pub(super) fn pi(&mut self, target: &str, content: &str) -> Result<()> {
        if target != TARGET {
            let target = shown(target);
            let key = format!("pi:{target}");
            self.note(WarningKind::UnknownElement, &key, "", || {
                format!("processing instruction <?{target}?> is not one of ours; ignored")
            });
            return Ok(());
        }
        let Some(ext) = Ext::decode(content) else {
            self.note(WarningKind::InvalidValue, "pi-json", "", || {
                "an <?sdconv?> instruction whose JSON is not an extension payload was ignored"
                    .to_string()
            });
            return Ok(());
        };
        match ext {
            Ext::Fields(map) => self.fields_pi(map),
            Ext::Open(mark) => {
                let max = self.max_depth;
                match self.inline_target(true) {
                    Some(b) => {
                        if b.depth() >= max {
                            return Err(Error::TooLarge {
                                what: "inline nesting depth",
                                detail: format!(
                                    "{}: more than {max} marks open through <?sdconv?> instructions",
                                    self.part
                                ),
                            });
                        }
                        if !b.open(mark) {
                            self.too_many_marks("");
                        }
                    }
                    None => self.misplaced("open"),
                }
            }
            Ext::Close(_) => match self.inline_target(false) {
                Some(b) => {
                    if !b.close() {
                        self.note(WarningKind::InvalidValue, "pi-close", "", || {
                            "an <?sdconv {\"close\":null}?> without an open mark was ignored"
                                .to_string()
                        });
                    }
                }
                None => self.misplaced("close"),
            },
            Ext::Inline(mut inline) => {
                if self.inline_target(true).is_none() {
                    self.misplaced("inline");
                    return Ok(());
                }
                if let Inline::Note { content, .. } = &mut inline {
                    *content = normalize(content);
                }
                self.scan_inline(&inline);
                if let Inline::Ruby { base, reading } = &inline {
                    // The service's "base (reading)" follows: it is this ruby's, not text. Our
                    // writer leaves it out where XML cannot hold it; then what follows is text.
                    let shown = Inline::ruby_text(base, reading);
                    if crate::xml::xml_clean(&shown) {
                        self.skip_text = shown;
                    }
                }
                if let Some(b) = self.builders.last_mut() {
                    b.inline(&inline);
                }
            }
            Ext::Wrapper(_) => {
                let unmarked = matches!(self.frames.last(), Some(Frame::Inline { .. }))
                    && self.builders.last_mut().is_some_and(Builder::unmark_elem);
                if !unmarked {
                    self.misplaced("wrapper");
                }
            }
            Ext::Block(mut block) => {
                self.close_implicit()?;
                if self.frames.last().map(Frame::ctx) == Some(Ctx::Blocks) {
                    self.fix_pi_block(&mut block)?;
                    self.emit(block);
                } else {
                    self.note(WarningKind::Dropped, "pi-block", "", || {
                        "an <?sdconv {\"block\":…}?> outside the body or a table cell was left \
                         out"
                        .to_string()
                    });
                }
            }
            Ext::Math(inline) => {
                if self.inline_target(true).is_none() || !matches!(inline, Inline::Math { .. }) {
                    self.misplaced("math");
                    return Ok(());
                }
                if let Some(b) = self.builders.last_mut() {
                    b.inline(&inline);
                }
                self.math_fallback = Some(self.builders.len());
            }
            Ext::MathEnd(_) => {
                if self.math_fallback.take().is_none() {
                    self.misplaced("math_end");
                }
            }
            Ext::Comments(comments) => {
                for mut c in comments {
                    self.adopt_inlines(&mut c.content);
                    self.doc.comments.push(c);
                }
            }
        }
        Ok(())
    }

    /// A `fields` PI: kept for the node the open element builds, or applied at once to nodes that
    /// are complete when their element opens (notes' kind, index nodes).
    fn fields_pi(&mut self, map: serde_json::Map<String, serde_json::Value>) {
        match self.frames.last_mut() {
            Some(Frame::Note { kind }) => {
                let shell = Inline::Note {
                    kind: *kind,
                    content: Vec::new(),
                };
                match crate::sdxml_ext::apply_fields(&shell, &map) {
                    Some(Inline::Note { kind: k, .. }) => *kind = k,
                    _ => self.misplaced("fields"),
                }
            }
            Some(Frame::IndexNode(node)) => {
                match crate::sdxml_ext::apply_fields(node.as_ref(), &map) {
                    // Children follow the PI, so none are lost by replacing the node.
                    Some(applied) => **node = applied,
                    None => self.misplaced("fields"),
                }
            }
            Some(Frame::Img { fields, .. }) => match fields {
                Some(existing) => existing.extend(map),
                None => *fields = Some(map),
            },
            Some(frame) => match frame.fields_mut() {
                Some(Some(existing)) => existing.extend(map),
                Some(slot) => *slot = Some(map),
                None => self.misplaced("fields"),
            },
            None => self.misplaced("fields"),
        }
    }

    fn misplaced(&mut self, what: &str) {
        let key = format!("pi-misplaced:{what}");
        self.note(WarningKind::InvalidValue, &key, "", || {
            format!(
                "an <?sdconv {{\"{what}\":…}}?> instruction in a place it cannot apply was ignored"
            )
        });
    }

    /// The builder inline PIs go to; in a block container, `open` starts an implicit paragraph.
    fn inline_target(&mut self, open: bool) -> Option<&mut Builder> {
        match self.frames.last().map(Frame::ctx) {
            Some(Ctx::Inline) => {}
            Some(Ctx::Blocks) if open => self.open_implicit(),
            _ => return None,
        }
        self.builders.last_mut()
    }

    /// Records media and comment anchors met in inline content that came from a PI.
    fn scan_inline(&mut self, inline: &Inline) {
        match inline {
            Inline::Image { media, .. } => self.media_ref(media),
            Inline::CommentStart { .. } | Inline::CommentEnd { .. } => self.comment_anchors = true,
            Inline::Note { content, .. } => content.iter().for_each(|i| self.scan_inline(i)),
            other => {
                if let Some(children) = other.children() {
                    children.iter().for_each(|i| self.scan_inline(i));
                }
            }
        }
    }

    /// Makes inline content from a PI canonical and records what it references.
    pub(super) fn adopt_inlines(&mut self, content: &mut Vec<Inline>) {
        if !is_normalized(content) {
            *content = normalize(content);
        }
        for i in content.iter() {
            self.scan_inline(i);
        }
    }

    /// A block from a `block` PI: every node inside it checked like parsed ones.
    pub(super) fn fix_pi_block(&mut self, block: &mut Block) -> Result<()> {
        match block {
            Block::Paragraph(p) => {
                self.adopt_inlines(&mut p.content);
                self.fix_paragraph(p);
            }
            Block::Image(img) => {
                self.fix_image(img);
                let media = img.media.clone();
                self.media_ref(&media);
            }
            Block::Table(t) => self.fix_table(t, true)?,
            Block::PageBreak | Block::Directory { .. } => {}
        }
        Ok(())
    }

    fn clamped(&mut self, what: &str, field: &str, max: u8) {
        let key = format!("clamp:{what}.{field}");
        self.note(WarningKind::InvalidValue, &key, what, || {
            format!("a {what} {field} above {max} was set to {max}")
        });
    }

    /// Levels and indents inside the tree's ranges (only a `fields` PI can break them).
    pub(super) fn fix_paragraph(&mut self, p: &mut Paragraph) {
        if p.level > MAX_LEVEL {
            self.clamped("paragraph", "level", MAX_LEVEL);
            p.level = MAX_LEVEL;
        }
        if p.indent > MAX_INDENT {
            self.clamped("paragraph", "indent", MAX_INDENT);
            p.indent = MAX_INDENT;
        }
        let bad_code = p.code.as_deref().is_some_and(|language| {
            p.kind != crate::ast::TextType::Paragraph || !crate::ast::is_code_language(language)
        });
        if bad_code {
            self.note(WarningKind::InvalidValue, "code", "paragraph", || {
                "a code block that is not a plain paragraph or whose language is not one word was read as an ordinary paragraph".to_string()
            });
            p.code = None;
        }
    }

    pub(super) fn fix_image(&mut self, img: &mut Image) {
        if img.indent > MAX_INDENT {
            self.clamped("image", "indent", MAX_INDENT);
            img.indent = MAX_INDENT;
        }
        if let Some(w) = img.width_percent {
            if !(w.is_finite() && w > 0.0 && w <= 100.0) {
                self.bad_value("image", "width", &w.to_string(), "no width");
                img.width_percent = None;
            }
        }
    }

    /// Spans, grid and column widths made consistent, so every cell lies inside the grid:
    /// zero spans become 1, row spans past the last row are cut, missing column widths are added.
    /// A grid wider than [`MAX_TABLE_COLUMNS`] is refused. `from_pi` also checks the cells'
    /// blocks (parsed cell blocks were checked as they were read).
    pub(super) fn fix_table(&mut self, t: &mut Table, from_pi: bool) -> Result<()> {
        if t.indent > MAX_INDENT {
            self.clamped("table", "indent", MAX_INDENT);
            t.indent = MAX_INDENT;
        }
        if let Some(w) = t.width_percent {
            if !(w.is_finite() && w > 0.0 && w <= 100.0) {
                self.bad_value("table", "width", &w.to_string(), "no width");
                t.width_percent = None;
            }
        }
        if t.columns.iter().any(|w| !w.is_finite() || *w < 0.0) {
            self.bad_value("table", "columns", "(not a number)", "no column widths");
            t.columns.clear();
        }
        let rows = t.rows.len();
        for (r, row) in t.rows.iter_mut().enumerate() {
            for cell in &mut row.cells {
                if from_pi {
                    for b in &mut cell.blocks {
                        self.fix_pi_block(b)?;
                    }
                }
                if cell.colspan == 0 || cell.rowspan == 0 {
                    self.bad_value("td", "span", "0", "1");
                    cell.colspan = cell.colspan.max(1);
                    cell.rowspan = cell.rowspan.max(1);
                }
                if cell.colspan as usize > MAX_TABLE_COLUMNS {
                    self.bad_value(
                        "td",
                        "colspan",
                        &cell.colspan.to_string(),
                        "the most allowed",
                    );
                    cell.colspan = MAX_TABLE_COLUMNS as u32;
                }
                let left = u32::try_from(rows - r).unwrap_or(u32::MAX);
                if cell.rowspan > left {
                    self.note(
                        WarningKind::InvalidValue,
                        "rowspan-past-end",
                        "td@rowspan",
                        || {
                            "a cell's rowspan reached past the table's last row; it was cut there"
                                .to_string()
                        },
                    );
                    cell.rowspan = left;
                }
            }
        }
        let width = self.bound_slots(t)?;
        if !t.columns.is_empty() && width > t.columns.len() {
            let (have, need) = (t.columns.len(), width);
            self.note(
                WarningKind::InvalidValue,
                "columns-short",
                "column_width",
                || {
                    format!(
                        "<column_width> lists {have} columns but the rows need {need}; the missing \
                     widths were set to the average"
                    )
                },
            );
            let avg = t.columns.iter().sum::<f32>() / have as f32;
            let avg = if avg.is_finite() { avg } else { 0.0 };
            t.columns.resize(need, avg);
        }
        Ok(())
    }
}

/// Grid slots (rows × columns) the tables of a document may lay out beyond
/// [`SLOTS_PER_CELL`] per cell they hold. Writers spend time and memory on every slot (Word
/// writes a cell for each one a row span covers), and spans let a few bytes ask for many: 20 000
/// one-cell rows spanning 1 000 rows each push each other into 1 000 columns, a 20-million-slot
/// grid from a 2 KB zip. Tables whose cells fill their grid never come near the bound, and a
/// million slots leave room for ragged ones (a wide header over thousands of short rows).
const TABLE_SLOTS_FREE: usize = 1 << 20;

/// Grid slots each cell read may lay out (spans merge a few slots into one cell; a ragged
/// table's short rows leave slots empty, which the PDF and Markdown writers pad).
const SLOTS_PER_CELL: usize = 8;

impl Parser<'_> {
    /// The table's grid width, once its grid fits in what the document's tables may still lay
    /// out (see [`TABLE_SLOTS_FREE`]). A table that does not fit loses, until it does, its rows
    /// without cells (the spans across them shortened to match), then its row spans, then its
    /// column spans, then its last rows (one warning saying which). A table whose grid passes
    /// [`MAX_TABLE_COLUMNS`] is refused.
    fn bound_slots(&mut self, t: &mut Table) -> Result<usize> {
        let cells: usize = t.rows.iter().map(|r| r.cells.len()).sum();
        self.table_cells = self.table_cells.saturating_add(cells);
        let allowed = self
            .table_cells
            .saturating_mul(SLOTS_PER_CELL)
            .saturating_add(TABLE_SLOTS_FREE)
            .saturating_sub(self.table_slots);
        let mut width = self.checked_width(t)?;
        let asked = t.rows.len().saturating_mul(width);
        let mut done = Vec::new();
        for step in 0..3 {
            if t.rows.len().saturating_mul(width) <= allowed {
                break;
            }
            let what = match step {
                0 => match drop_empty_rows(t) {
                    0 => continue,
                    n => format!("its {n} rows without cells were left out"),
                },
                1 => match set_spans(t, false) {
                    0 => continue,
                    n => format!("{n} row spans were set to 1"),
                },
                _ => match set_spans(t, true) {
                    0 => continue,
                    n => format!("{n} column spans were set to 1"),
                },
            };
            done.push(what);
            width = self.checked_width(t)?;
        }
        // Still too large without spans: a ragged table (a wide row over many short ones,
        // which some writers pad to the full width). Its last rows go; without row spans left,
        // no cell reaches into them.
        let fits = allowed.checked_div(width).unwrap_or(t.rows.len()).max(1);
        if t.rows.len() > fits {
            let gone = t.rows.len() - fits;
            t.rows.truncate(fits);
            done.push(format!("its last {gone} rows were left out"));
        }
        let slots = t.rows.len().saturating_mul(width);
        if !done.is_empty() {
            let done = done.join("; ");
            self.note(WarningKind::Dropped, "table-slots", "table", || {
                format!("a table asked for a grid of {asked} slots for {cells} cells: {done}")
            });
        }
        self.table_slots = self.table_slots.saturating_add(slots);
        Ok(width)
    }

    /// [`grid_width`], or the error for a grid wider than [`MAX_TABLE_COLUMNS`].
    fn checked_width(&self, t: &Table) -> Result<usize> {
        grid_width(t).ok_or_else(|| Error::TooLarge {
            what: "table columns",
            detail: format!(
                "{}: a table needs more than {MAX_TABLE_COLUMNS} grid columns",
                self.part
            ),
        })
    }
}

/// The table's grid width as [`crate::ast::grid_positions`] lays it out, or `None` as soon as it
/// passes [`MAX_TABLE_COLUMNS`] (so hostile spans cost no more than that per row).
fn grid_width(t: &Table) -> Option<usize> {
    let mut busy: Vec<u32> = Vec::new();
    let mut width = 0;
    for row in &t.rows {
        let mut col = 0usize;
        for cell in &row.cells {
            while busy.get(col).is_some_and(|&n| n > 0) {
                col += 1;
            }
            let end = col + cell.colspan.max(1) as usize;
            if end > MAX_TABLE_COLUMNS {
                return None;
            }
            if busy.len() < end {
                busy.resize(end, 0);
            }
            for b in busy.iter_mut().take(end).skip(col) {
                *b = (*b).max(cell.rowspan.max(1));
            }
            col = end;
        }
        width = width.max(col);
        for b in &mut busy {
            *b = b.saturating_sub(1);
        }
    }
    Some(width)
}

/// Leaves out the rows without cells, shortening each row span by the rows it loses, so the
/// other rows keep their grid positions. Returns how many rows went.
fn drop_empty_rows(t: &mut Table) -> usize {
    // `kept_before[i]`: rows with cells among the first `i`.
    let mut kept_before = Vec::with_capacity(t.rows.len() + 1);
    let mut kept = 0usize;
    kept_before.push(0);
    for row in &t.rows {
        kept += usize::from(!row.cells.is_empty());
        kept_before.push(kept);
    }
    let count = |i: usize| kept_before.get(i).copied().unwrap_or(kept);
    for (i, row) in t.rows.iter_mut().enumerate() {
        for cell in &mut row.cells {
            let end = i.saturating_add(cell.rowspan.max(1) as usize);
            let span = count(end).saturating_sub(count(i)).max(1);
            cell.rowspan = u32::try_from(span).unwrap_or(u32::MAX);
        }
    }
    let before = t.rows.len();
    t.rows.retain(|r| !r.cells.is_empty());
    before - t.rows.len()
}

/// Sets every column span (`colspan`) or row span to 1. Returns how many were larger.
fn set_spans(t: &mut Table, colspan: bool) -> usize {
    let mut n = 0;
    for cell in t.rows.iter_mut().flat_map(|r| &mut r.cells) {
        let span = if colspan {
            &mut cell.colspan
        } else {
            &mut cell.rowspan
        };
        if *span > 1 {
            *span = 1;
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Cell, Row, grid_positions};

    fn row(spans: &[u32]) -> Row {
        Row {
            cells: spans
                .iter()
                .map(|&rowspan| Cell {
                    rowspan,
                    ..Cell::default()
                })
                .collect(),
            ..Row::default()
        }
    }

    #[test]
    fn rows_without_cells_go_and_the_others_keep_their_places() {
        let mut t = Table {
            rows: vec![row(&[4, 1]), row(&[]), row(&[1]), row(&[]), row(&[1, 1])],
            ..Table::default()
        };
        let before = grid_positions(&t);
        assert_eq!(drop_empty_rows(&mut t), 2);
        assert_eq!(t.rows.len(), 3);
        // The span lost the one empty row it crossed (rows 0-3 of 5 → rows 0-1 of 3).
        assert_eq!(t.rows[0].cells[0].rowspan, 2);
        let kept: Vec<_> = before.into_iter().filter(|r| !r.is_empty()).collect();
        assert_eq!(grid_positions(&t), kept);
    }
}
