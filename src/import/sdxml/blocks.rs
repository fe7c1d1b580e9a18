//! Block elements: paragraphs of every kind (current and legacy forms), images, tables, page
//! breaks, directories; their attributes and how each becomes a tree node.

use quick_xml::events::BytesStart;

use super::attrs::{self, Span};
use super::frame::{CellFrame, Frame, ImageFrame, ParaFrame, RowFrame, TableFrame};
use super::parser::{Parser, is_inline_name, shown};
use crate::ast::{
    Align, Block, Cell, DirectoryKind, Image, MAX_LEVEL, Paragraph, Row, Table, TextType, VAlign,
};
use crate::error::Result;
use crate::report::WarningKind;

/// Attribute values shared by the paragraph-like elements, before they are interpreted.
#[derive(Default)]
struct ParaAttrs {
    enumeration: Option<u8>,
    level: Option<u8>,
    /// `@indent` of a list item: its depth, which may exceed the tree's levels.
    depth: Option<u32>,
}

impl Parser<'_> {
    pub(super) fn block_start(&mut self, e: &BytesStart<'_>, name: &str) -> Result<()> {
        match name {
            "heading" => self.para_start(e, "heading"),
            "paragraph" => self.para_start(e, "paragraph"),
            "ol-li" => self.para_start(e, "ol-li"),
            "ul-li" => self.para_start(e, "ul-li"),
            "p" => self.para_start(e, "p"),
            "li" => self.para_start(e, "li"),
            "font" if matches!(self.frames.last(), Some(Frame::Cell(_))) => self.font_start(e),
            "ul" | "ol" => self.list_start(e, name == "ol"),
            "image" => self.image_start(e),
            "table" => self.table_start(e),
            "pagebreak" => {
                self.no_attrs(e, "pagebreak");
                self.emit(Block::PageBreak);
                self.push_transparent("pagebreak", false);
            }
            "directory" => {
                let mut kind = None;
                self.each_attr(e, "directory", |p, k, v| {
                    if k != "type" {
                        return false;
                    }
                    kind = DirectoryKind::parse(v.trim());
                    if kind.is_none() {
                        p.bad_value("directory", "type", &v, "no directory (left out)");
                    }
                    true
                });
                match kind {
                    Some(kind) => self.emit(Block::Directory { kind }),
                    None => {
                        self.note(
                            WarningKind::InvalidValue,
                            "directory@type",
                            "directory@type",
                            || "a <directory> without a known @type was left out".to_string(),
                        );
                    }
                }
                self.push_transparent("directory", false);
            }
            "ordered-sections" => {
                self.no_attrs(e, "ordered-sections");
                self.push_transparent("ordered-sections", false);
            }
            "attached-sections" => {
                self.no_attrs(e, "attached-sections");
                self.frames.push(Frame::Attached);
            }
            n if is_inline_name(n) => {
                self.open_implicit();
                return self.inline_start(e, n);
            }
            _ => {
                let parent = self.frames.last().map(|f| shown(f.name()).into_owned());
                let parent = parent.unwrap_or_default();
                let shown_name = shown(name);
                let key = format!("{parent}>{shown_name}");
                self.note(WarningKind::UnknownElement, &key, &shown_name, || {
                    format!(
                        "unknown element <{shown_name}> inside <{parent}>: its content was kept"
                    )
                });
                self.frames.push(Frame::Transparent {
                    name: std::borrow::Cow::Owned(name.to_string()),
                    unknown: true,
                });
            }
        }
        Ok(())
    }

    fn push_transparent(&mut self, name: &'static str, unknown: bool) {
        self.frames.push(Frame::Transparent {
            name: std::borrow::Cow::Borrowed(name),
            unknown,
        });
    }

    /// `heading`, `paragraph`, `ol-li`, `ul-li`, cell `p`, legacy `li`.
    fn para_start(&mut self, e: &BytesStart<'_>, name: &'static str) {
        let mut para = Paragraph::default();
        let mut a = ParaAttrs::default();
        let list = matches!(name, "ol-li" | "ul-li" | "li");
        self.each_attr(e, name, |p, k, v| {
            match k {
                "enumeration" => {
                    a.enumeration = attrs::level(&v);
                    if a.enumeration.is_none() {
                        p.bad_value(name, k, &v, "no numbering");
                    }
                }
                "level" if name == "heading" => {
                    a.level = attrs::level(&v);
                    if a.level.is_none() {
                        p.bad_value(name, k, &v, "0");
                    }
                }
                "indent" if list => {
                    a.depth = attrs::depth(&v).filter(|&d| d <= u32::from(crate::ast::MAX_INDENT));
                    if a.depth.is_none() {
                        p.bad_value(name, k, &v, "0");
                    }
                }
                "indent" => {
                    para.indent = attrs::indent(&v).unwrap_or_else(|| {
                        p.bad_value(name, k, &v, "0");
                        0
                    });
                }
                "alignment" => {
                    para.align = Align::parse(v.trim()).unwrap_or_else(|| {
                        p.bad_value(name, k, &v, "left");
                        Align::Left
                    });
                }
                "restartNumbering" => {
                    para.restart = attrs::flag(&v).unwrap_or_else(|| {
                        p.bad_value(name, k, &v, "0");
                        false
                    });
                }
                "origin_ids" => para.origin_ids = attrs::non_empty(v),
                "id" => para.id = attrs::non_empty(v),
                "stylename" => para.style = attrs::non_empty(v),
                "list-id" if list => para.list_id = attrs::non_empty(v),
                _ => return false,
            }
            true
        });
        let mut li_depth = None;
        match name {
            "heading" => {
                if let Some(n) = a.enumeration {
                    para.kind = TextType::HeadingOl;
                    para.level = n;
                } else {
                    para.kind = TextType::Heading;
                    para.level = a.level.unwrap_or(0);
                }
            }
            "paragraph" | "p" => {
                if let Some(n) = a.enumeration {
                    para.kind = TextType::ParagraphOl;
                    para.level = n;
                }
            }
            "ol-li" | "ul-li" => {
                para.kind = if name == "ol-li" {
                    TextType::ListOl
                } else {
                    TextType::ListUl
                };
                let depth = a.depth.or(a.enumeration.map(u32::from)).unwrap_or(0);
                para.level = self.list_level(depth, name);
            }
            _ => {
                // Legacy `li`: kind and depth come from the enclosing `ul`/`ol`.
                let (ordered, depth) = match self.frames.last() {
                    Some(Frame::List { ordered, depth }) => (*ordered, *depth),
                    _ => {
                        self.note(WarningKind::LegacyForm, "li-stray", "li", || {
                            "<li> outside <ul>/<ol> was read as a bulleted list item".to_string()
                        });
                        (false, 0)
                    }
                };
                self.note(WarningKind::LegacyForm, "legacy-list", "li", || {
                    "list items in the 2016-2017 nested ul/ol/li form were turned into flat \
                     list items"
                        .to_string()
                });
                let depth = a.depth.unwrap_or(depth);
                para.kind = if ordered {
                    TextType::ListOl
                } else {
                    TextType::ListUl
                };
                para.level = self.list_level(depth, "li");
                li_depth = Some(depth);
            }
        }
        self.push_para(ParaFrame {
            name,
            para,
            fields: None,
            li_depth,
            continued: false,
        });
    }

    /// A list depth as a tree level: deeper than 5 is put at 5, with a warning.
    fn list_level(&mut self, depth: u32, name: &str) -> u8 {
        if depth > u32::from(MAX_LEVEL) {
            self.note(WarningKind::Lossy, "list-depth", name, || {
                format!(
                    "list items nested deeper than level {MAX_LEVEL} were put at level {MAX_LEVEL}"
                )
            });
            return MAX_LEVEL;
        }
        u8::try_from(depth).unwrap_or(MAX_LEVEL)
    }

    fn push_para(&mut self, f: ParaFrame) {
        self.frames.push(Frame::Para(Box::new(f)));
        self.push_builder();
    }

    /// Legacy `<font size>` directly in a cell: a cell paragraph, the size on the cell.
    fn font_start(&mut self, e: &BytesStart<'_>) {
        let mut size = None;
        self.each_attr(e, "font", |_, k, v| {
            (k == "size").then(|| size = attrs::non_empty(v)).is_some()
        });
        self.note(WarningKind::LegacyForm, "cell-font", "font", || {
            "table cells holding <font size> instead of <p> (the 2016-2017 form) were turned into \
             cell paragraphs"
                .to_string()
        });
        if let Some(Frame::Cell(c)) = self.frames.last_mut() {
            if c.cell.font_size.is_none() {
                c.cell.font_size = size;
            }
        }
        self.push_para(ParaFrame {
            name: "font",
            para: Paragraph::default(),
            fields: None,
            li_depth: None,
            continued: false,
        });
    }

    /// Legacy `ul`/`ol`: its items are one level deeper than the enclosing list's.
    pub(super) fn list_start(&mut self, e: &BytesStart<'_>, ordered: bool) {
        let elem = if ordered { "ol" } else { "ul" };
        let mut depth = match self.frames.last() {
            Some(Frame::List { depth, .. }) => depth.saturating_add(1),
            Some(Frame::Para(p)) => p.li_depth.map_or(0, |d| d.saturating_add(1)),
            _ => 0,
        };
        self.each_attr(e, elem, |p, k, v| {
            if k != "indent" {
                return false;
            }
            match attrs::depth(&v) {
                Some(d) => depth = d,
                None => p.bad_value(elem, k, &v, "its nesting depth"),
            }
            true
        });
        self.frames.push(Frame::List { ordered, depth });
    }

    /// Closes a paragraph whose builder is the innermost one.
    pub(super) fn close_para(&mut self, f: ParaFrame) -> Result<()> {
        let (content, unclosed, empty_builder) = self.pop_builder();
        self.unclosed_marks(unclosed);
        if f.implicit() && content.is_empty() {
            return Ok(());
        }
        if f.continued && (empty_builder || is_blank(&content)) {
            return Ok(());
        }
        let mut para = f.para;
        para.content = content;
        if let Some(fields) = f.fields {
            para = self.apply(para, &fields, f.name);
            if fields.contains_key("content") {
                self.adopt_inlines(&mut para.content);
            }
        }
        self.fix_paragraph(&mut para);
        self.emit(Block::Paragraph(para));
        Ok(())
    }

    // ----- images ---------------------------------------------------------------------------

    fn image_start(&mut self, e: &BytesStart<'_>) {
        let mut image = Image::default();
        self.each_attr(e, "image", |p, k, v| {
            image_attr(
                p,
                "image",
                k,
                &v,
                &mut image.indent,
                &mut image.align,
                &mut image.numbered,
            ) || match k {
                "caption" => {
                    image.caption = attrs::non_empty(v);
                    true
                }
                "width" => {
                    image.width_percent = attrs::percent(&v);
                    if image.width_percent.is_none() {
                        p.bad_value("image", k, &v, "no width");
                    }
                    true
                }
                "origin_ids" => {
                    image.origin_ids = attrs::non_empty(v);
                    true
                }
                "stylename" => {
                    image.style = attrs::non_empty(v);
                    true
                }
                "id" => {
                    image.id = attrs::non_empty(v);
                    true
                }
                _ => false,
            }
        });
        self.frames.push(Frame::Image(Box::new(ImageFrame {
            image,
            fields: None,
            name: String::new(),
            nested: 0,
        })));
    }

    pub(super) fn close_image(&mut self, f: ImageFrame) {
        let mut image = f.image;
        image.media = f.name.trim().to_string();
        if let Some(fields) = f.fields {
            image = self.apply(image, &fields, "image");
        }
        if image.media.is_empty() {
            self.note(WarningKind::Dropped, "image-no-name", "image", || {
                "an <image> without a file name was left out".to_string()
            });
            return;
        }
        self.fix_image(&mut image);
        self.media_ref(&image.media.clone());
        self.emit(Block::Image(image));
    }

    // ----- tables ---------------------------------------------------------------------------

    fn table_start(&mut self, e: &BytesStart<'_>) {
        let mut table = Table::default();
        self.each_attr(e, "table", |p, k, v| {
            image_attr(
                p,
                "table",
                k,
                &v,
                &mut table.indent,
                &mut table.align,
                &mut table.numbered,
            ) || {
                match k {
                    "caption" => table.caption = attrs::non_empty(v),
                    "width" => {
                        table.width_percent = attrs::percent(&v);
                        if table.width_percent.is_none() {
                            p.bad_value("table", k, &v, "no width");
                        }
                    }
                    "border-color" => {
                        table.border_color = attrs::color(&v);
                        if table.border_color.is_none() {
                            p.bad_value("table", k, &v, "no border colour");
                        }
                    }
                    "origin_ids" => table.origin_ids = attrs::non_empty(v),
                    "stylename" => table.style = attrs::non_empty(v),
                    "id" => table.id = attrs::non_empty(v),
                    _ => return false,
                }
                true
            }
        });
        self.frames.push(Frame::Table(Box::new(TableFrame {
            table,
            ..TableFrame::default()
        })));
    }

    pub(super) fn row_start(&mut self, e: &BytesStart<'_>) {
        let mut row = Row::default();
        self.each_attr(e, "tr", |_, k, v| {
            match k {
                "row-id" => row.id = attrs::non_empty(v),
                "min-height" => row.min_height = attrs::non_empty(v),
                _ => return false,
            }
            true
        });
        self.frames.push(Frame::Row(Box::new(RowFrame {
            row,
            fields: None,
            all_th: true,
        })));
    }

    pub(super) fn cell_start(&mut self, e: &BytesStart<'_>, th: bool) {
        let name = if th { "th" } else { "td" };
        let mut cell = Cell {
            header: th,
            ..Cell::default()
        };
        self.each_attr(e, name, |p, k, v| {
            match k {
                "colspan" | "rowspan" => {
                    let n = match attrs::span(&v) {
                        Span::Ok(n) => n,
                        Span::Clamped(n) => {
                            p.bad_value(name, k, &v, &n.to_string());
                            n
                        }
                        Span::Bad => {
                            p.bad_value(name, k, &v, "1");
                            1
                        }
                    };
                    if k == "colspan" {
                        cell.colspan = n;
                    } else {
                        cell.rowspan = n;
                    }
                }
                "border-top" | "border-right" | "border-bottom" | "border-left" => {
                    let flag = attrs::flag(&v);
                    if flag.is_none() {
                        p.bad_value(name, k, &v, "no border setting");
                    }
                    let b = &mut cell.borders;
                    match k {
                        "border-top" => b.top = flag,
                        "border-right" => b.right = flag,
                        "border-bottom" => b.bottom = flag,
                        _ => b.left = flag,
                    }
                }
                "text-align" => {
                    cell.align = Align::parse(v.trim());
                    if cell.align.is_none() {
                        p.bad_value(name, k, &v, "no alignment");
                    }
                }
                "vertical-align" => {
                    cell.valign = VAlign::parse(v.trim());
                    if cell.valign.is_none() {
                        p.bad_value(name, k, &v, "no alignment");
                    }
                }
                "background-color" => {
                    cell.background = attrs::color(&v);
                    if cell.background.is_none() && !v.is_empty() {
                        p.bad_value(name, k, &v, "no background");
                    }
                }
                "font-size" => cell.font_size = attrs::non_empty(v),
                "background-intensity" => cell.background_intensity = attrs::non_empty(v),
                "col-ids" => cell.col_ids = attrs::non_empty(v),
                _ => return false,
            }
            true
        });
        self.frames.push(Frame::Cell(Box::new(CellFrame {
            name,
            cell,
            fields: None,
        })));
    }

    pub(super) fn close_cell(&mut self, f: CellFrame) -> Result<()> {
        let mut cell = f.cell;
        if let Some(fields) = f.fields {
            cell = self.apply(cell, &fields, f.name);
            if fields.contains_key("blocks") {
                // Blocks from the payload get the checks parsed ones had.
                for b in &mut cell.blocks {
                    self.fix_pi_block(b)?;
                }
            }
        }
        if let Some(Frame::Row(r)) = self.frames.last_mut() {
            r.all_th &= f.name == "th";
            r.row.cells.push(cell);
        }
        Ok(())
    }

    pub(super) fn close_row(&mut self, f: RowFrame) -> Result<()> {
        let mut row = f.row;
        let mut explicit = false;
        if let Some(fields) = f.fields {
            explicit = fields.contains_key("header");
            row = self.apply(row, &fields, "tr");
            if fields.contains_key("cells") {
                for b in row.cells.iter_mut().flat_map(|c| &mut c.blocks) {
                    self.fix_pi_block(b)?;
                }
            }
        }
        if let Some(Frame::Table(t)) = self.frames.last_mut() {
            t.all_th.push(f.all_th && !row.cells.is_empty());
            t.explicit_header.push(explicit);
            t.table.rows.push(row);
        }
        Ok(())
    }

    pub(super) fn close_table(&mut self, f: TableFrame) -> Result<()> {
        let TableFrame {
            mut table,
            fields,
            explicit_header,
            all_th,
        } = f;
        // Leading rows of `th` cells are header rows (sd.xml has no other way to say so); a row
        // whose `fields` PI says otherwise keeps what it says.
        for (i, row) in table.rows.iter_mut().enumerate() {
            let explicit = explicit_header.get(i).copied().unwrap_or(false);
            let header = if explicit {
                row.header
            } else {
                all_th.get(i).copied().unwrap_or(false)
            };
            if !header {
                break;
            }
            row.header = true;
        }
        let mut from_pi = false;
        if let Some(fields) = fields {
            table = self.apply(table, &fields, "table");
            from_pi = fields.contains_key("rows");
        }
        // Rows from a payload get every check, their cells' blocks included.
        self.fix_table(&mut table, from_pi)?;
        self.emit(Block::Table(table));
        Ok(())
    }
}

/// `indent`, `alignment` and `num-enabled`, shared by `image` and `table`.
fn image_attr(
    p: &mut Parser<'_>,
    elem: &str,
    k: &str,
    v: &str,
    indent: &mut u8,
    align: &mut Align,
    numbered: &mut bool,
) -> bool {
    match k {
        "indent" => {
            *indent = attrs::indent(v).unwrap_or_else(|| {
                p.bad_value(elem, k, v, "0");
                0
            })
        }
        "alignment" => {
            *align = Align::parse(v.trim()).unwrap_or_else(|| {
                p.bad_value(elem, k, v, "left");
                Align::Left
            })
        }
        "num-enabled" => {
            *numbered = attrs::flag(v).unwrap_or_else(|| {
                p.bad_value(elem, k, v, "1");
                true
            })
        }
        _ => return false,
    }
    true
}

/// Whether inline content holds nothing but XML whitespace.
fn is_blank(content: &[crate::ast::Inline]) -> bool {
    content.iter().all(|i| match i {
        crate::ast::Inline::Text { text } => super::frame::is_xml_space(text),
        _ => false,
    })
}
