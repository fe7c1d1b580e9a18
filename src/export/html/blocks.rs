//! Blocks: paragraphs and headings, nested lists, figures, tables, page breaks, directories.

use std::fmt::Write;

use super::{Entry, Writer, push_number};
use crate::ast::numbering::{BlockNumber, list_format, number_at, number_blocks_if_any};
use crate::ast::{
    Align, Block, Cell, Direction, Image, Inline, NumberFormat, Paragraph, Row, Table, TextType,
    VAlign, grid_positions,
};
use crate::report::WarningKind;

/// `indent-N` classes (the stylesheet defines 1..=15).
const INDENT: [&str; 16] = [
    "",
    "indent-1",
    "indent-2",
    "indent-3",
    "indent-4",
    "indent-5",
    "indent-6",
    "indent-7",
    "indent-8",
    "indent-9",
    "indent-10",
    "indent-11",
    "indent-12",
    "indent-13",
    "indent-14",
    "indent-15",
];

fn align_class(a: Align) -> &'static str {
    match a {
        Align::Left => "",
        Align::Center => "align-center",
        Align::Right => "align-right",
        Align::Justify => "align-justify",
    }
}

fn indent_class(indent: u8) -> &'static str {
    INDENT[usize::from(indent.min(15))]
}

/// An open `ol`/`ul` while list items are written; it always has an open `li`.
struct OpenList<'a> {
    ordered: bool,
    level: u8,
    list_id: Option<&'a str>,
    /// The value the browser gives the next `li` by itself.
    next: u32,
    /// What was inherited before the list's own `dir`, put back when it closes.
    list_before: Option<super::langdir::Inherited>,
    /// What was inherited before the open `li`'s `lang`/`dir`, put back when it closes.
    li_before: Option<super::langdir::Inherited>,
}

impl<'a> Writer<'a> {
    /// Writes a sequence of blocks (the body, or a cell); `numbers` come from
    /// [`number_blocks`](crate::ast::numbering::number_blocks) or [`number_blocks_if_any`] on
    /// the same slice.
    pub(super) fn blocks(&mut self, blocks: &'a [Block], numbers: &[BlockNumber], top: bool) {
        let mut lists: Vec<OpenList<'a>> = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            if top {
                self.block = i;
            }
            let number = number_at(numbers, i);
            if let Block::Paragraph(p) = block {
                if p.kind.is_list() {
                    if lists.is_empty() {
                        self.list_run_dir = self.shared_dir(&blocks[i..]);
                    }
                    self.list_item(&mut lists, block, p, number);
                    continue;
                }
            }
            self.close_lists(&mut lists);
            match block {
                Block::Paragraph(p) => self.paragraph(block, p, number, top),
                Block::Image(img) => self.figure(block, img, number, top),
                Block::Table(t) => self.table(block, t, number, top),
                Block::PageBreak => self.out.push_str("<div class=\"page-break\"></div>\n"),
                Block::Directory { kind } => self.directory_placeholder(*kind),
            }
        }
        self.close_lists(&mut lists);
    }

    /// Writes ` id="…" class="…"` for an opening tag.
    fn id_and_classes(&mut self, id: Option<&str>, classes: &[&str]) {
        if let Some(id) = id {
            self.out.push_str(" id=\"");
            self.out.push_str(id);
            self.out.push('"');
        }
        let mut first = true;
        for class in classes.iter().filter(|c| !c.is_empty()) {
            self.out.push_str(if first { " class=\"" } else { " " });
            self.out.push_str(class);
            first = false;
        }
        if !first {
            self.out.push('"');
        }
    }

    fn paragraph(&mut self, block: &'a Block, p: &'a Paragraph, number: &BlockNumber, top: bool) {
        // An unnumbered heading with nothing to read (Word documents use empty ones as spacers)
        // is not a heading to a reader or an outline: it is written as an empty paragraph.
        let numbered = matches!(p.kind, TextType::HeadingOl) && number.label.is_some();
        let heading = p.kind.is_heading() && (numbered || !is_blank(&p.content));
        let tag = if heading {
            self.landmarks.heading_tag(p.level)
        } else {
            "p"
        };
        let kind_class = match p.kind {
            TextType::ParagraphOl => "numbered",
            TextType::Caption => "caption",
            TextType::Heading | TextType::HeadingOl if !heading => "empty-heading",
            _ => "",
        };
        let source_id = self.block_id(block).map(str::to_owned);
        let id = match (&source_id, heading && top) {
            (Some(id), _) => Some(id.clone()),
            // Top-level headings always get an id: the table of contents links to them.
            (None, true) => {
                self.headings += 1;
                Some(format!("sd-h-{}", self.headings))
            }
            (None, false) => None,
        };
        let label = match p.kind {
            TextType::HeadingOl | TextType::ParagraphOl => number.label.as_deref(),
            _ => None,
        };
        if let Some(language) = p.code.as_deref().filter(|_| !heading) {
            // A code block: `pre` keeps every space and line, `code` names the language the
            // way highlighters read it (`language-rust`). Long lines scroll, so a keyboard must
            // reach the block (`tabindex`, WCAG 2.1.1).
            self.out.push_str("<pre");
            self.id_and_classes(
                id.as_deref(),
                &["code", align_class(p.align), indent_class(p.indent)],
            );
            self.out.push_str(" tabindex=\"0\"><code");
            if !language.is_empty() && crate::ast::is_code_language(language) {
                self.out.push_str(" class=\"language-");
                self.attr(language);
                self.out.push('"');
            }
            self.out.push('>');
            let was = std::mem::replace(&mut self.in_pre, true);
            self.inlines(&p.content);
            self.in_pre = was;
            self.out.push_str("</code></pre>\n");
            self.flush_asides();
            return;
        }
        self.out.push('<');
        self.out.push_str(tag);
        self.id_and_classes(
            id.as_deref(),
            &[kind_class, align_class(p.align), indent_class(p.indent)],
        );
        let before = self.paragraph_lang_dir(p);
        self.out.push('>');
        if let Some(label) = label {
            self.out.push_str("<span class=\"num\">");
            self.text(label);
            self.out.push_str("</span> ");
        }
        self.inlines(&p.content);
        self.paragraph_mark(p.mark.as_ref());
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push_str(">\n");
        self.restore(before);
        self.flush_asides();
        if heading && top && self.wants.toc {
            let html = self.plain_html(&p.content);
            self.toc.push(Entry {
                level: p.level.min(5),
                id: id.unwrap_or_default(),
                label: label.map(str::to_owned),
                html,
            });
        }
    }

    /// Writes the sidenotes met in the block just written.
    fn flush_asides(&mut self) {
        if self.pending_asides.is_empty() {
            return;
        }
        let pending = std::mem::take(&mut self.pending_asides);
        for &n in &pending {
            let Some(content) = self.sidenotes.get(n - 1).copied() else {
                continue;
            };
            let _ = write!(
                self.out,
                "<aside class=\"sidenote\" id=\"sd-sn-{n}\" role=\"note\"><a class=\"backref\" href=\"#sd-snref-{n}\">{n}</a> "
            );
            let was = std::mem::replace(&mut self.in_note, true);
            self.inlines(content);
            self.in_note = was;
            self.out.push_str("</aside>\n");
        }
        self.pending_asides = pending;
        self.pending_asides.clear();
    }

    fn list_item(
        &mut self,
        lists: &mut Vec<OpenList<'a>>,
        block: &'a Block,
        p: &'a Paragraph,
        number: &BlockNumber,
    ) {
        let level = p.level.min(5);
        let ordered = p.kind == TextType::ListOl;
        let list_id = p.list_id.as_deref();
        while lists.last().is_some_and(|l| l.level > level) {
            self.close_list(lists);
        }
        if let Some(top) = lists.last() {
            if top.level == level {
                if top.ordered != ordered || top.list_id != list_id {
                    self.close_list(lists);
                } else {
                    self.out.push_str("</li>\n");
                    if let Some(before) = lists.last_mut().and_then(|l| l.li_before.take()) {
                        self.restore(before);
                    }
                }
            }
        }
        let format = p.number_format.unwrap_or(list_format(usize::from(level)));
        let value = number.value.unwrap_or(1);
        if lists.last().is_none_or(|l| l.level < level) {
            // The outermost list carries the direction all its items share.
            let mut run_dir = if lists.is_empty() {
                self.list_run_dir.take()
            } else {
                None
            };
            let from = lists.last().map_or(0, |l| l.level + 1);
            // A jump of several levels: intermediate lists, each with one marker-less item.
            for gap in from..level {
                let gap_format = list_format(usize::from(gap));
                let list_before = self.open_list(ordered, gap_format, 1, run_dir.take());
                self.out.push_str("<li class=\"list-gap\">");
                lists.push(OpenList {
                    ordered,
                    level: gap,
                    list_id,
                    next: 2,
                    list_before,
                    li_before: None,
                });
            }
            let start = if ordered { value } else { 1 };
            let list_before = self.open_list(ordered, format, start, run_dir);
            lists.push(OpenList {
                ordered,
                level,
                list_id,
                next: start,
                list_before,
                li_before: None,
            });
        }
        let source_id = self.block_id(block).map(str::to_owned);
        self.out.push_str("<li");
        if let Some(open) = lists.last_mut() {
            if ordered && value != open.next {
                let _ = write!(self.out, " value=\"{value}\"");
            }
            open.next = value.saturating_add(1);
        }
        self.id_and_classes(
            source_id.as_deref(),
            &[align_class(p.align), indent_class(p.indent)],
        );
        let li_before = self.paragraph_lang_dir(p);
        if let Some(open) = lists.last_mut() {
            open.li_before = Some(li_before);
        }
        self.out.push('>');
        self.inlines(&p.content);
        self.paragraph_mark(p.mark.as_ref());
        self.flush_asides();
    }

    /// Opens `ol`/`ul`, with `dir` when its items share one that differs from what it inherits;
    /// returns what to put back when it closes in that case.
    fn open_list(
        &mut self,
        ordered: bool,
        format: NumberFormat,
        start: u32,
        dir: Option<Direction>,
    ) -> Option<super::langdir::Inherited> {
        if !self.out.ends_with('\n') {
            self.out.push('\n');
        }
        if !ordered {
            self.out.push_str("<ul");
            if format == NumberFormat::None {
                self.out.push_str(" class=\"no-marker\"");
            }
            let before = dir.map(|d| self.lang_dir(None, d));
            self.out.push_str(">\n");
            return before;
        }
        self.out.push_str("<ol");
        match format {
            NumberFormat::Decimal => {}
            NumberFormat::LowerLetter => self.out.push_str(" type=\"a\""),
            NumberFormat::UpperLetter => self.out.push_str(" type=\"A\""),
            NumberFormat::LowerRoman => self.out.push_str(" type=\"i\""),
            NumberFormat::UpperRoman => self.out.push_str(" type=\"I\""),
            NumberFormat::Bullet => self.out.push_str(" class=\"bullets\""),
            NumberFormat::None => self.out.push_str(" class=\"no-marker\""),
        }
        if start != 1 {
            let _ = write!(self.out, " start=\"{start}\"");
        }
        let before = dir.map(|d| self.lang_dir(None, d));
        self.out.push_str(">\n");
        before
    }

    fn close_list(&mut self, lists: &mut Vec<OpenList<'a>>) {
        if let Some(l) = lists.pop() {
            self.out.push_str(if l.ordered {
                "</li>\n</ol>\n"
            } else {
                "</li>\n</ul>\n"
            });
            // The `li` closes first, then the list.
            for before in [l.li_before, l.list_before].into_iter().flatten() {
                self.restore(before);
            }
        }
    }

    /// The direction every list item from the start of `blocks` shares (the run of list items
    /// there), when it differs from what the list would inherit.
    fn shared_dir(&self, blocks: &[Block]) -> Option<Direction> {
        let mut items = blocks.iter().map_while(|b| match b {
            Block::Paragraph(p) if p.kind.is_list() => Some(self.paragraph_dir(p)),
            _ => None,
        });
        let first = items.next()?;
        (first != self.inherited.dir && items.all(|d| d == first)).then_some(first)
    }

    /// The direction all of a cell's paragraphs share, when it differs from the row's.
    fn cell_dir(&self, blocks: &[Block]) -> Option<Direction> {
        let mut dirs = blocks.iter().map(|b| match b {
            Block::Paragraph(p) => Some(self.paragraph_dir(p)),
            _ => None,
        });
        let first = dirs.next()??;
        (first != self.inherited.dir && dirs.all(|d| d == Some(first))).then_some(first)
    }

    fn close_lists(&mut self, lists: &mut Vec<OpenList<'a>>) {
        while !lists.is_empty() {
            self.close_list(lists);
        }
    }

    fn figure(&mut self, block: &'a Block, img: &'a Image, number: &BlockNumber, top: bool) {
        // An empty caption counts when it is numbered: "Figure 3" alone.
        let caption = img
            .caption
            .as_deref()
            .filter(|c| !c.is_empty() || number.caption.is_some());
        let figure_number = number.caption.filter(|_| top && caption.is_some());
        let id = match (self.block_id(block), figure_number) {
            (Some(id), _) => Some(id.to_owned()),
            (None, Some(n)) => Some(format!("sd-fig-{n}")),
            (None, None) if caption.is_some() && top && self.wants.figures => {
                Some(format!("sd-fig-u{}", self.figures.len() + 1))
            }
            _ => None,
        };
        self.out.push_str("<figure");
        self.id_and_classes(
            id.as_deref(),
            &[align_class(img.align), indent_class(img.indent)],
        );
        self.out.push_str(">\n");
        if self.image_available(&img.media) {
            self.out.push_str("<img src=\"");
            self.image_src(&img.media);
            self.out.push_str("\" alt=\"");
            self.attr(img.alt.as_deref().unwrap_or(""));
            self.out.push('"');
            // The displayed size when the source gives one (Word: EMU, 9525 per CSS pixel),
            // else the pixel size; the stylesheet keeps either inside the text width.
            let doc = self.doc;
            let displayed = img
                .extent
                .map(|e| ((e.width + 4762) / 9525, (e.height + 4762) / 9525))
                .filter(|&(w, h)| w > 0 && h > 0 && w <= 100_000 && h <= 100_000);
            let pixels = doc.media.get(&img.media).and_then(|m| {
                m.width
                    .zip(m.height)
                    .map(|(w, h)| (u64::from(w), u64::from(h)))
            });
            if let Some((w, h)) = displayed.or(pixels) {
                let _ = write!(self.out, " width=\"{w}\" height=\"{h}\"");
            }
            if let Some(w) = img.width_percent.filter(|w| w.is_finite() && *w > 0.0) {
                self.out.push_str(" style=\"width:");
                push_number(&mut self.out, w.min(100.0));
                self.out.push_str("%\"");
            }
            self.out.push_str(">\n");
        } else {
            self.out.push_str("<p class=\"missing-image\">[");
            self.text(img.alt.as_deref().unwrap_or(&img.media));
            self.out.push_str("]</p>\n");
        }
        if let Some(caption) = caption {
            self.out.push_str("<figcaption>");
            let label = figure_number.map(|n| format!("{} {n}", self.lang.figure()));
            self.caption_label(label.as_deref(), caption.is_empty());
            self.text(caption);
            self.out.push_str("</figcaption>\n");
            if top && self.wants.figures {
                self.figures.push(Entry {
                    level: 0,
                    id: id.clone().unwrap_or_default(),
                    label,
                    html: super::escape_to_string(caption),
                });
            }
        }
        self.out.push_str("</figure>\n");
    }

    /// `Table 2: ` before a caption's text; without the colon when no text follows.
    fn caption_label(&mut self, label: Option<&str>, alone: bool) {
        if let Some(label) = label {
            self.out.push_str("<span class=\"caption-label\">");
            self.text(label);
            self.out
                .push_str(if alone { "</span>" } else { ":</span> " });
        }
    }

    fn table(&mut self, block: &'a Block, t: &'a Table, number: &BlockNumber, top: bool) {
        let caption = t
            .caption
            .as_deref()
            .filter(|c| !c.is_empty() || number.caption.is_some());
        let table_number = number.caption.filter(|_| top && caption.is_some());
        let id = match (self.block_id(block), table_number) {
            (Some(id), _) => Some(id.to_owned()),
            (None, Some(n)) => Some(format!("sd-tab-{n}")),
            (None, None) if caption.is_some() && top && self.wants.tables => {
                Some(format!("sd-tab-u{}", self.tables.len() + 1))
            }
            _ => None,
        };
        if let Some(kind) = t.chart {
            // The drawing first; the table after it is its accessible form.
            super::chart::write(
                t,
                kind,
                t.caption.as_deref().unwrap_or_default(),
                &mut self.out,
            );
        }
        self.open_table_region(caption, table_number);
        self.out.push_str("<table");
        self.id_and_classes(
            id.as_deref(),
            &[align_class(t.align), indent_class(t.indent)],
        );
        let dir = self.table_dir(t.dir);
        let table_before = self.lang_dir(None, dir);
        let width = t.width_percent.filter(|w| w.is_finite() && *w > 0.0);
        let border = t
            .border_color
            .as_deref()
            .and_then(|c| self.css_color(c, "table@border-color"));
        if width.is_some() || border.is_some() {
            self.out.push_str(" style=\"");
            if let Some(w) = width {
                self.out.push_str("width:");
                push_number(&mut self.out, w.min(100.0));
                self.out.push('%');
                if border.is_some() {
                    self.out.push(';');
                }
            }
            if let Some(c) = border {
                self.out.push_str("--sd-border:");
                self.out.push_str(c);
            }
            self.out.push('"');
        }
        self.out.push_str(">\n");
        if let Some(caption) = caption {
            self.out.push_str("<caption>");
            let label = table_number.map(|n| format!("{} {n}", self.lang.table()));
            self.caption_label(label.as_deref(), caption.is_empty());
            self.text(caption);
            self.out.push_str("</caption>\n");
            if top && self.wants.tables {
                self.tables.push(Entry {
                    level: 0,
                    id: id.clone().unwrap_or_default(),
                    label,
                    html: super::escape_to_string(caption),
                });
            }
        }
        // HTML wants a cell to begin in every row and every column ("no cells beginning in
        // it"). Rows without cells are left out and grid columns no cell begins in are merged into
        // their left neighbour, with the spans through them shortened: the same grid is drawn.
        let positions = grid_positions(t);
        let width = if t.columns.is_empty() {
            positions
                .iter()
                .flat_map(|row| row.iter().map(|&(col, span)| col + span))
                .max()
                .unwrap_or(0)
        } else {
            t.columns.len()
        };
        let mut dead = vec![true; width];
        for &(col, _) in positions.iter().flatten() {
            if let Some(d) = dead.get_mut(col) {
                *d = false;
            }
        }
        self.colgroup(&t.columns, &dead);
        let empty: Vec<bool> = t.rows.iter().map(|r| r.cells.is_empty()).collect();
        if empty.contains(&true) {
            self.warn_uncovered_empty_rows(t, &empty);
        }
        let head = header_rows(t);
        let groups = [("thead", 0..head), ("tbody", head..t.rows.len())];
        for (group, range) in groups {
            if range.clone().all(|r| empty.get(r) != Some(&false)) {
                continue;
            }
            let _ = writeln!(self.out, "<{group}>");
            for r in range {
                if let (Some(row), Some(false)) = (t.rows.get(r), empty.get(r)) {
                    let at = positions.get(r).map_or(&[][..], Vec::as_slice);
                    self.row(row, r, at, (&empty, &dead), group == "thead");
                }
            }
            let _ = writeln!(self.out, "</{group}>");
        }
        self.out.push_str("</table>\n</div>\n");
        self.restore(table_before);
    }

    /// `<colgroup>` from the relative widths, dead columns' widths added to their left
    /// neighbour (or, at the start, to the first live column).
    fn colgroup(&mut self, columns: &[f32], dead: &[bool]) {
        let width = |w: &f32| if w.is_finite() && *w > 0.0 { *w } else { 0.0 };
        let sum: f32 = columns.iter().map(width).sum();
        // Only finite, non-negative widths are summed, so `sum` is never NaN.
        if columns.is_empty() || sum <= 0.0 {
            return;
        }
        let mut merged: Vec<f32> = Vec::with_capacity(columns.len());
        let mut leading = 0.0;
        for (i, w) in columns.iter().enumerate() {
            if dead.get(i) == Some(&true) {
                match merged.last_mut() {
                    Some(last) => *last += width(w),
                    None => leading += width(w),
                }
            } else {
                merged.push(width(w) + std::mem::take(&mut leading));
            }
        }
        self.out.push_str("<colgroup>");
        for w in merged {
            if w > 0.0 {
                self.out.push_str("<col style=\"width:");
                push_number(&mut self.out, w / sum * 100.0);
                self.out.push_str("%\">");
            } else {
                self.out.push_str("<col>");
            }
        }
        self.out.push_str("</colgroup>\n");
    }

    fn warn_uncovered_empty_rows(&mut self, t: &Table, empty: &[bool]) {
        // `reach` = the first row no span from above covers.
        let mut reach = 0usize;
        let mut lost = 0;
        for (r, row) in t.rows.iter().enumerate() {
            if empty.get(r) == Some(&true) && reach <= r {
                lost += 1;
            }
            for c in &row.cells {
                reach = reach.max(r.saturating_add(c.rowspan.max(1) as usize));
            }
        }
        if lost > 0 {
            self.warn(
                WarningKind::Dropped,
                format!("{lost} empty table row(s) without cells left out"),
                "tr",
            );
        }
    }

    /// Writes row `r`; `at` holds its cells' grid positions, `skip` the rows and columns left out.
    fn row(
        &mut self,
        row: &'a Row,
        r: usize,
        at: &[(usize, usize)],
        (empty, dead): (&[bool], &[bool]),
        in_head: bool,
    ) {
        self.out.push_str("<tr");
        if let Some(h) = row.min_height.as_deref() {
            if let Some(h) = self.css_length(h, "tr@min-height") {
                self.out.push_str(" style=\"height:");
                self.out.push_str(h);
                self.out.push('"');
            }
        }
        self.out.push('>');
        for (i, cell) in row.cells.iter().enumerate() {
            let shorten = |skip: &[bool], from: usize, span: usize| {
                let gone = skip.iter().skip(from + 1).take(span - 1).filter(|&&e| e);
                span - gone.count()
            };
            let rowspan = shorten(empty, r, cell.rowspan.max(1) as usize);
            let colspan = match at.get(i) {
                Some(&(col, span)) => shorten(dead, col, span),
                None => cell.colspan.max(1) as usize,
            };
            self.cell(cell, in_head || row.header, colspan, rowspan);
        }
        self.out.push_str("</tr>\n");
    }

    fn cell(&mut self, cell: &'a Cell, header_row: bool, colspan: usize, rowspan: usize) {
        // A header cell with nothing in it (the corner of a grid) heads nothing: a `td`, since
        // an empty `th` is announced as a header without a name.
        let header = (cell.header || header_row) && !cell.blocks.iter().all(is_blank_block);
        let tag = if header { "th" } else { "td" };
        self.out.push('<');
        self.out.push_str(tag);
        if header {
            // What the header cell heads: its column in a header row, else its row.
            self.out.push_str(if header_row {
                " scope=\"col\""
            } else {
                " scope=\"row\""
            });
        }
        // HTML caps colspan at 1000 and rowspan at 65534.
        if colspan > 1 {
            let _ = write!(self.out, " colspan=\"{}\"", colspan.min(1000));
        }
        if rowspan > 1 {
            let _ = write!(self.out, " rowspan=\"{}\"", rowspan.min(65534));
        }
        // Written in place (every cell asks): taken back when no declaration came.
        let before_style = self.out.len();
        self.out.push_str(" style=\"");
        let declarations = self.out.len();
        if let Some(a) = cell.align {
            let _ = write!(self.out, "text-align:{};", a.as_str());
        }
        if let Some(v) = cell.valign {
            let v = match v {
                VAlign::Top => "top",
                VAlign::Middle => "middle",
                VAlign::Bottom => "bottom",
            };
            let _ = write!(self.out, "vertical-align:{v};");
        }
        if let Some(c) = cell.background.as_deref() {
            if let Some(c) = self.css_color(c, "td@background") {
                let _ = write!(self.out, "background-color:{c};");
            }
        }
        if let Some(f) = cell.font_size.as_deref() {
            if let Some(f) = self.css_length(f, "td@font-size") {
                let _ = write!(self.out, "font-size:{f};");
            }
        }
        let b = cell.borders;
        for (side, on) in [
            ("top", b.top),
            ("right", b.right),
            ("bottom", b.bottom),
            ("left", b.left),
        ] {
            if on == Some(false) {
                let _ = write!(self.out, "border-{side}-style:hidden;");
            }
        }
        if self.out.len() == declarations {
            self.out.truncate(before_style);
        } else {
            // The last declaration's `;`.
            self.out.pop();
            self.out.push('"');
        }
        let cell_before = self.cell_dir(&cell.blocks).map(|d| self.lang_dir(None, d));
        self.out.push('>');
        if !cell.blocks.is_empty() {
            // Most cells number nothing: their blocks take the default without a list.
            let numbers = number_blocks_if_any(&cell.blocks);
            self.blocks(&cell.blocks, &numbers, false);
            // Blocks end their line; inside a cell that line break is noise.
            if self.out.ends_with('\n') {
                self.out.pop();
            }
        }
        if let Some(before) = cell_before {
            self.restore(before);
        }
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
    }

    /// `value` if it is a CSS hex colour (`#abc`, `#aabbcc`), else a warning and `None`.
    fn css_color<'s>(&mut self, value: &'s str, element: &str) -> Option<&'s str> {
        let hex = value.strip_prefix('#').unwrap_or("");
        if matches!(hex.len(), 3 | 6) && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Some(value);
        }
        self.warn(
            WarningKind::InvalidValue,
            format!(
                "colour {:?} is not #rrggbb; left out",
                super::excerpt(value)
            ),
            element,
        );
        None
    }

    /// `value` if it is a plain CSS length (`9.75pt`, `6.3mm`), else a warning and `None`.
    fn css_length<'s>(&mut self, value: &'s str, element: &str) -> Option<&'s str> {
        let unit_at = value
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(value.len());
        let (num, unit) = value.split_at(unit_at);
        let num_ok = !num.is_empty() && num.matches('.').count() <= 1 && num != ".";
        if num_ok && matches!(unit, "pt" | "px" | "mm" | "cm" | "in" | "em" | "rem" | "%") {
            return Some(value);
        }
        self.warn(
            WarningKind::InvalidValue,
            format!(
                "length {:?} is not a CSS length; left out",
                super::excerpt(value)
            ),
            element,
        );
        None
    }
}

/// Whether inline content shows nothing: no text but whitespace, no image.
fn is_blank(inlines: &[Inline]) -> bool {
    inlines.iter().all(|i| match i {
        Inline::Text { text } => text.trim().is_empty(),
        Inline::Image { .. } => false,
        other => other.children().is_none_or(is_blank),
    })
}

/// Whether a block shows nothing: a paragraph without text or image.
fn is_blank_block(block: &Block) -> bool {
    matches!(block, Block::Paragraph(p) if is_blank(&p.content))
}

/// How many leading rows go into `thead`: the leading header rows, unless a cell there spans into
/// the body (a row span may not cross a row group).
fn header_rows(t: &Table) -> usize {
    let head = t.rows.iter().take_while(|r| r.header).count();
    let crosses = t.rows[..head].iter().enumerate().any(|(r, row)| {
        row.cells
            .iter()
            .any(|c| r + (c.rowspan.max(1) as usize) > head)
    });
    if crosses { 0 } else { head }
}
