//! Metadata, blocks, tables and the index tree.
//!
//! Each element is written in three steps: its attributes (what the DTD can say), the node the
//! reader will build from them ([`readback`]), and a `fields` PI with the difference. The
//! `*_shell` functions copy a node without its content, destructuring it completely so that a
//! field added to the tree later cannot be forgotten here: it fails to compile.

use std::borrow::Cow;

use crate::ast::{
    Align, Block, Cell, Image, IndexNode, Meta, Paragraph, Row, Table, TextType, WordExportPresets,
};
use crate::report::WarningKind;
use crate::sdxml_ext::Ext;

use super::Writer;
use super::inlines::{BLOCK, CELL_P};
use super::markup::xml_safe;
use super::readback::{self, Attrs, MetaOut};

/// `meta/language@value` values the DTD allows.
const META_LANGUAGES: [&str; 3] = ["de_DE", "en_EN", "ru_RU"];
/// `word-export-presets@language` values the DTD allows.
const PRESET_LANGUAGES: [&str; 3] = ["de_DE", "en_EN", "en_US"];

/// Decimal strings for small numbers (levels, indents): no allocation per attribute.
const SMALL: [&str; 16] = [
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
];

/// `n` as an attribute value, at most `max` (the DTD's enumerations end there; a larger value
/// travels in the `fields` PI because the reader will see `max`).
fn small(n: u8, max: u8) -> Cow<'static, str> {
    Cow::Borrowed(SMALL[usize::from(n.min(max).min(15))])
}

fn bit(b: bool) -> Cow<'static, str> {
    Cow::Borrowed(if b { "1" } else { "0" })
}

/// Pushes an optional text attribute, never an empty one (the reader reads empty as `None`; an
/// empty value travels in the PI).
fn push_opt<'a>(attrs: &mut Attrs<'a>, name: &'static str, value: Option<&'a str>) {
    if let Some(v) = value.map(xml_safe).filter(|v| !v.is_empty()) {
        attrs.push((name, v));
    }
}

fn push_align(attrs: &mut Attrs<'_>, name: &'static str, align: Align) {
    if align != Align::Left {
        attrs.push((name, Cow::Borrowed(align.as_str())));
    }
}

/// `"{w}%"`: `{}` prints the shortest decimal that parses back to the same `f32` (20 → `20%`,
/// 33.5 → `33.5%`), never an exponent.
fn percent(w: f32) -> String {
    format!("{w}%")
}

/// `#rrggbb`, the only colour form the DTD's comments allow; anything else goes in the PI.
fn is_hex_color(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 7 && b[0] == b'#' && b[1..].iter().all(u8::is_ascii_hexdigit)
}

fn non_empty(s: &Option<String>) -> Option<Cow<'_, str>> {
    s.as_deref()
        .map(xml_safe)
        .filter(|v: &Cow<'_, str>| !v.is_empty())
}

/// What `smashdoc` and `meta` will hold.
pub(super) fn meta_out(m: &Meta) -> MetaOut<'_> {
    let mut root = Attrs::new();
    push_opt(&mut root, "version", m.generator.as_deref());
    push_opt(&mut root, "id", m.id.as_deref());
    pub(super) fn text(s: &Option<String>) -> Cow<'_, str> {
        xml_safe(s.as_deref().unwrap_or_default())
    }
    fn list(v: &[String]) -> Vec<Cow<'_, str>> {
        v.iter()
            .map(|s| xml_safe(s))
            .filter(|s| !s.is_empty())
            .collect()
    }
    let presets = m
        .word_export_presets
        .as_ref()
        .filter(|p| PRESET_LANGUAGES.contains(&p.language.as_str()))
        .map(|p: &WordExportPresets| {
            let attrs: Attrs<'_> = smallvec::smallvec![
                ("template_id", xml_safe(&p.template_id)),
                ("language", Cow::Borrowed(p.language.as_str())),
                ("toc_text", bit(p.toc_text)),
                ("toc_image", bit(p.toc_image)),
                ("toc_table", bit(p.toc_table)),
                ("caption_image", bit(p.caption_image)),
                ("caption_table", bit(p.caption_table)),
            ];
            (attrs, list(&p.tags))
        });
    MetaOut {
        root,
        // A tag of one of the DTD's languages (`en-US`, as the Word reader gives) as its code,
        // so the service knows it; the exact tag travels in the meta PI.
        language: m
            .language
            .as_deref()
            .and_then(|l| {
                if META_LANGUAGES.contains(&l) {
                    Some(l)
                } else {
                    crate::lang::Language::parse(l)
                        .map(crate::lang::Language::code)
                        .filter(|c| META_LANGUAGES.contains(c))
                }
            })
            .map(Cow::Borrowed),
        title: text(&m.title),
        filename: non_empty(&m.filename),
        subtitle: text(&m.subtitle),
        description: text(&m.description),
        footer: text(&m.footer),
        creator: text(&m.creator),
        tags: list(&m.tags),
        presets,
        grid: list(&m.grid),
        grid_indentation_enabled: non_empty(&m.grid_indentation_enabled),
        spellcheck_lang: non_empty(&m.spellcheck_lang),
    }
}

impl Writer<'_> {
    /// `meta`, in the DTD's order: `language?, title, filename?, subtitle, description, footer,
    /// creator, tags?, word-export-presets?, grid?, grid-indentation-enabled?, spellcheck-lang?`.
    pub(super) fn meta(&mut self, m: &MetaOut<'_>) {
        self.start("meta", &[]);
        let back = readback::meta(m);
        let doc = self.doc;
        self.fields(&doc.meta, &back);
        if let Some(lang) = &m.language {
            self.empty("language", &[("value", lang.clone())]);
        }
        self.text_element("title", &m.title);
        if let Some(f) = &m.filename {
            self.text_element("filename", f);
        }
        self.text_element("subtitle", &m.subtitle);
        self.text_element("description", &m.description);
        self.text_element("footer", &m.footer);
        self.text_element("creator", &m.creator);
        if !m.tags.is_empty() {
            self.start("tags", &[]);
            for t in &m.tags {
                self.text_element("tag", t);
            }
            self.end("tags");
        }
        if let Some((attrs, tags)) = &m.presets {
            self.start("word-export-presets", attrs);
            for t in tags {
                self.text_element("tag", t);
            }
            self.end("word-export-presets");
        }
        if !m.grid.is_empty() {
            self.start("grid", &[]);
            for item in &m.grid {
                self.text_element("item", item);
            }
            self.end("grid");
        }
        if let Some(v) = &m.grid_indentation_enabled {
            self.text_element("grid-indentation-enabled", v);
        }
        if let Some(v) = &m.spellcheck_lang {
            self.text_element("spellcheck-lang", v);
        }
        self.end("meta");
    }

    /// A top-level block.
    pub(super) fn block(&mut self, block: &Block) {
        match block {
            Block::Paragraph(p) => self.paragraph(p, false),
            Block::Image(img) => self.image(img),
            Block::Table(t) if t.rows.is_empty() && t.columns.is_empty() => self.empty_table(t),
            Block::Table(t) => self.table(t),
            Block::PageBreak => self.empty("pagebreak", &[]),
            Block::Directory { kind } => {
                self.empty("directory", &[("type", Cow::Borrowed(kind.as_str()))]);
            }
        }
    }

    /// Any paragraph; `in_cell` selects the cell forms (`p`, or `ol-li`/`ul-li`).
    pub(super) fn paragraph(&mut self, p: &Paragraph, in_cell: bool) {
        let (name, attrs, allowed) = paragraph_form(p, in_cell);
        let back = readback::paragraph(name, &attrs);
        self.start(name, &attrs);
        // Most paragraphs need no PI, and most of the rest the PI of the paragraph before:
        // decide both without copying the paragraph. The last value `fields` kept for a
        // paragraph is a shell (no content), so comparing all but the content with it is
        // comparing the shell this paragraph would give.
        if !same_but_content(p, &back)
            && !self.repeat_fields(|last: &Paragraph| same_but_content(p, last), &back)
        {
            self.fields(&paragraph_shell(p), &back);
        }
        self.inlines(&p.content, allowed);
        self.end(name);
    }

    fn image(&mut self, img: &Image) {
        let attrs = image_attrs(img);
        let back = readback::image(&img.media, &attrs);
        self.start("image", &attrs);
        self.fields(img, &back);
        // Media names are made XML- and zip-safe before writing (see `media`).
        self.text(&img.media);
        self.end("image");
    }

    /// A table with neither rows nor column widths: the DTD's `(column_width | tr)+` cannot hold
    /// it, so it travels whole in a `block` PI (exact for our reader); strict mode writes one empty
    /// `tr` instead, so that the service at least sees the caption.
    fn empty_table(&mut self, t: &Table) {
        if self.strict {
            let attrs = table_attrs(t);
            let back = readback::table(&attrs, &[]);
            self.start("table", &attrs);
            self.fields(&table_shell(t), &back);
            self.start("tr", &[]);
            self.end("tr");
            self.end("table");
            self.warn(
                WarningKind::Lossy,
                "table",
                "strict DTD mode: a table without rows or column widths written with one empty row",
            );
        } else {
            self.pi(&Ext::Block(Block::Table(t.clone())));
            self.warn(
                WarningKind::Lossy,
                "table",
                "a table without rows or column widths kept only in an sdconv PI (the DTD needs \
                 one): the service will not show it",
            );
        }
    }

    fn table(&mut self, t: &Table) {
        let attrs = table_attrs(t);
        let items: Vec<String> = t.columns.iter().map(|&w| percent(w)).collect();
        let back = readback::table(&attrs, &items);
        self.start("table", &attrs);
        self.fields(&table_shell(t), &back);
        if !items.is_empty() {
            self.start("column_width", &[]);
            for item in &items {
                self.text_element("item", item);
            }
            self.end("column_width");
        }
        // The reader derives `Row.header` as it goes: a row is a header row when every row above
        // it ended up one (by derivation or by its PI) and its own cells are all `th` (at least
        // one). Predict exactly that, so a PI is written only where the derivation is wrong.
        let mut chain = true;
        for row in &t.rows {
            let all_th = !row.cells.is_empty() && row.cells.iter().all(|c| c.header);
            self.row(row, chain && all_th);
            chain &= row.header;
        }
        self.end("table");
    }

    fn row(&mut self, row: &Row, derived_header: bool) {
        let mut attrs = Attrs::new();
        push_opt(&mut attrs, "row-id", row.id.as_deref());
        push_opt(&mut attrs, "min-height", row.min_height.as_deref());
        let back = readback::row(&attrs, derived_header);
        self.start("tr", &attrs);
        self.fields(&row_shell(row), &back);
        for cell in &row.cells {
            self.cell(cell);
        }
        self.end("tr");
    }

    fn cell(&mut self, cell: &Cell) {
        let name = if cell.header { "th" } else { "td" };
        let attrs = cell_attrs(cell);
        let back = readback::cell(name, &attrs);
        self.start(name, &attrs);
        self.fields(&cell_shell(cell), &back);
        for block in &cell.blocks {
            match block {
                Block::Paragraph(p) => self.paragraph(p, true),
                other => self.block_in_cell(other),
            }
        }
        self.end(name);
    }

    /// A block a cell's `(p | ol-li | ul-li)*` cannot hold.
    fn block_in_cell(&mut self, block: &Block) {
        let what = match block {
            Block::Image(_) => "image",
            Block::Table(_) => "table",
            Block::PageBreak => "page break",
            Block::Directory { .. } => "directory",
            Block::Paragraph(_) => "paragraph",
        };
        if !self.strict {
            self.pi(&Ext::Block(block.clone()));
            self.warn(
                WarningKind::Lossy,
                "td",
                format!(
                    "a {what} inside a table cell kept only in an sdconv PI (the DTD allows only \
                     p, ol-li and ul-li there): the service will not show it"
                ),
            );
            return;
        }
        if let Block::Image(img) = block {
            // The closest the DTD allows: the picture as an inline image in its own `p`.
            self.start("p", &[]);
            self.empty(
                "img",
                &[
                    ("filename", xml_safe(&img.media)),
                    (
                        "caption",
                        xml_safe(img.caption.as_deref().unwrap_or_default()),
                    ),
                ],
            );
            self.end("p");
            self.warn(
                WarningKind::Lossy,
                "td",
                "strict DTD mode: an image block inside a table cell written as an inline image",
            );
        } else {
            self.warn(
                WarningKind::Dropped,
                "td",
                format!(
                    "strict DTD mode: left out a {what} inside a table cell (the DTD allows only \
                     p, ol-li and ul-li there)"
                ),
            );
        }
    }

    /// `index-node`, recursively.
    pub(super) fn index_node(&mut self, node: &IndexNode) {
        let mut attrs: Attrs<'_> = smallvec::smallvec![("id", xml_safe(&node.id))];
        push_opt(&mut attrs, "target-reference-id", node.target.as_deref());
        attrs.push(("title", xml_safe(&node.title)));
        push_opt(&mut attrs, "description", node.description.as_deref());
        push_opt(&mut attrs, "sorting-key", node.sorting_key.as_deref());
        let back = readback::index_node(&attrs);
        self.start("index-node", &attrs);
        self.fields(&index_shell(node), &back);
        for child in &node.children {
            self.index_node(child);
        }
        self.end("index-node");
    }
}

/// The element, its attributes, and the inline elements its content allows.
fn paragraph_form(p: &Paragraph, in_cell: bool) -> (&'static str, Attrs<'_>, u32) {
    let mut a = Attrs::with_capacity(6);
    let (name, allowed) = match p.kind {
        TextType::ListOl | TextType::ListUl => {
            // `alignment` is #FIXED "left" on list items and they have no `stylename` or
            // `restartNumbering`: all of that travels in the PI.
            a.push(("indent", small(p.level, 15)));
            push_opt(&mut a, "list-id", p.list_id.as_deref());
            let name = if p.kind == TextType::ListOl {
                "ol-li"
            } else {
                "ul-li"
            };
            (name, BLOCK)
        }
        // Cell paragraphs of every other kind are `p`, which has no attributes at all.
        _ if in_cell => return ("p", a, CELL_P),
        TextType::Heading | TextType::HeadingOl => {
            let level = if p.kind == TextType::Heading {
                "level"
            } else {
                "enumeration"
            };
            a.push((level, small(p.level, 5)));
            if p.indent != 0 {
                a.push(("indent", small(p.indent, 15)));
            }
            push_align(&mut a, "alignment", p.align);
            ("heading", BLOCK)
        }
        TextType::Paragraph | TextType::ParagraphOl | TextType::Caption => {
            if p.kind == TextType::ParagraphOl {
                a.push(("enumeration", small(p.level, 5)));
            }
            push_opt(&mut a, "stylename", p.style.as_deref());
            a.push(("indent", small(p.indent, 15)));
            push_align(&mut a, "alignment", p.align);
            ("paragraph", BLOCK)
        }
    };
    if p.restart && !p.kind.is_list() {
        a.push(("restartNumbering", Cow::Borrowed("1")));
    }
    push_opt(&mut a, "origin_ids", p.origin_ids.as_deref());
    push_opt(&mut a, "id", p.id.as_deref());
    (name, a, allowed)
}

fn image_attrs(img: &Image) -> Attrs<'_> {
    let mut a = Attrs::with_capacity(4);
    if img.indent != 0 {
        a.push(("indent", small(img.indent, 15)));
    }
    push_opt(&mut a, "caption", img.caption.as_deref());
    if let Some(w) = img.width_percent.filter(|w| w.is_finite()) {
        a.push(("width", Cow::Owned(percent(w))));
    }
    push_align(&mut a, "alignment", img.align);
    if !img.numbered {
        a.push(("num-enabled", Cow::Borrowed("0")));
    }
    push_opt(&mut a, "origin_ids", img.origin_ids.as_deref());
    push_opt(&mut a, "stylename", img.style.as_deref());
    push_opt(&mut a, "id", img.id.as_deref());
    a
}

fn table_attrs(t: &Table) -> Attrs<'_> {
    let mut a = Attrs::with_capacity(4);
    if t.indent != 0 {
        a.push(("indent", small(t.indent, 15)));
    }
    push_opt(&mut a, "caption", t.caption.as_deref());
    if let Some(w) = t.width_percent.filter(|w| w.is_finite()) {
        a.push(("width", Cow::Owned(percent(w))));
    }
    push_align(&mut a, "alignment", t.align);
    if !t.numbered {
        a.push(("num-enabled", Cow::Borrowed("0")));
    }
    push_opt(
        &mut a,
        "border-color",
        t.border_color.as_deref().filter(|c| is_hex_color(c)),
    );
    push_opt(&mut a, "origin_ids", t.origin_ids.as_deref());
    push_opt(&mut a, "stylename", t.style.as_deref());
    push_opt(&mut a, "id", t.id.as_deref());
    a
}

fn cell_attrs(c: &Cell) -> Attrs<'_> {
    let mut a = Attrs::with_capacity(4);
    push_opt(&mut a, "col-ids", c.col_ids.as_deref());
    if c.colspan > 1 {
        a.push(("colspan", Cow::Owned(c.colspan.to_string())));
    }
    if c.rowspan > 1 {
        a.push(("rowspan", Cow::Owned(c.rowspan.to_string())));
    }
    let borders = [
        ("border-top", c.borders.top),
        ("border-right", c.borders.right),
        ("border-bottom", c.borders.bottom),
        ("border-left", c.borders.left),
    ];
    for (name, b) in borders {
        if let Some(b) = b {
            a.push((name, bit(b)));
        }
    }
    push_opt(&mut a, "font-size", c.font_size.as_deref());
    if let Some(align) = c.align {
        a.push(("text-align", Cow::Borrowed(align.as_str())));
    }
    if let Some(v) = c.valign {
        a.push(("vertical-align", Cow::Borrowed(v.as_str())));
    }
    push_opt(
        &mut a,
        "background-color",
        c.background.as_deref().filter(|c| is_hex_color(c)),
    );
    push_opt(
        &mut a,
        "background-intensity",
        c.background_intensity.as_deref(),
    );
    a
}

fn paragraph_shell(p: &Paragraph) -> Paragraph {
    let Paragraph {
        kind,
        level,
        indent,
        align,
        style,
        id,
        origin_ids,
        restart,
        start,
        list_id,
        number_format,
        code,
        mark,
        lang,
        dir,
        content: _,
    } = p;
    Paragraph {
        kind: *kind,
        level: *level,
        indent: *indent,
        align: *align,
        style: style.clone(),
        id: id.clone(),
        origin_ids: origin_ids.clone(),
        restart: *restart,
        start: *start,
        list_id: list_id.clone(),
        number_format: *number_format,
        code: code.clone(),
        mark: mark.clone(),
        lang: lang.clone(),
        dir: *dir,
        content: Vec::new(),
    }
}

/// Whether `p` and `back` agree on every field but the content.
fn same_but_content(p: &Paragraph, back: &Paragraph) -> bool {
    let Paragraph {
        kind,
        level,
        indent,
        align,
        style,
        id,
        origin_ids,
        restart,
        start,
        list_id,
        number_format,
        code,
        mark,
        lang,
        dir,
        content: _,
    } = p;
    *kind == back.kind
        && *level == back.level
        && *indent == back.indent
        && *align == back.align
        && *style == back.style
        && *id == back.id
        && *origin_ids == back.origin_ids
        && *restart == back.restart
        && *start == back.start
        && *list_id == back.list_id
        && *number_format == back.number_format
        && *code == back.code
        && *mark == back.mark
        && *lang == back.lang
        && *dir == back.dir
}

fn table_shell(t: &Table) -> Table {
    let Table {
        columns,
        rows: _,
        caption,
        numbered,
        width_percent,
        align,
        indent,
        border_color,
        id,
        style,
        origin_ids,
        chart,
        dir,
    } = t;
    Table {
        columns: columns.clone(),
        rows: Vec::new(),
        caption: caption.clone(),
        numbered: *numbered,
        width_percent: *width_percent,
        align: *align,
        indent: *indent,
        border_color: border_color.clone(),
        id: id.clone(),
        style: style.clone(),
        origin_ids: origin_ids.clone(),
        chart: *chart,
        dir: *dir,
    }
}

fn row_shell(r: &Row) -> Row {
    let Row {
        header,
        id,
        min_height,
        cells: _,
    } = r;
    Row {
        header: *header,
        id: id.clone(),
        min_height: min_height.clone(),
        cells: Vec::new(),
    }
}

fn cell_shell(c: &Cell) -> Cell {
    let Cell {
        colspan,
        rowspan,
        header,
        align,
        valign,
        borders,
        font_size,
        background,
        background_intensity,
        col_ids,
        blocks: _,
    } = c;
    Cell {
        colspan: *colspan,
        rowspan: *rowspan,
        header: *header,
        align: *align,
        valign: *valign,
        borders: *borders,
        font_size: font_size.clone(),
        background: background.clone(),
        background_intensity: background_intensity.clone(),
        col_ids: col_ids.clone(),
        blocks: Vec::new(),
    }
}

fn index_shell(n: &IndexNode) -> IndexNode {
    let IndexNode {
        id,
        title,
        target,
        description,
        sorting_key,
        children: _,
    } = n;
    IndexNode {
        id: id.clone(),
        title: title.clone(),
        target: target.clone(),
        description: description.clone(),
        sorting_key: sorting_key.clone(),
        children: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_print_minimally_and_parse_back() {
        for w in [20.0f32, 33.5, 0.1, 100.0, 12.345_678, 1e-7] {
            let s = percent(w);
            assert!(!s.contains('e'), "{s}");
            assert_eq!(readback::percent(&s), Some(w), "{s}");
        }
        assert_eq!(percent(20.0), "20%");
        assert_eq!(percent(33.5), "33.5%");
    }

    #[test]
    fn list_items_carry_level_as_indent() {
        let p = Paragraph {
            level: 3,
            indent: 2,
            list_id: Some("L".into()),
            ..Paragraph::new(TextType::ListUl, vec![])
        };
        let (name, attrs, _) = paragraph_form(&p, false);
        assert_eq!(name, "ul-li");
        assert_eq!(readback::get(&attrs, "indent"), Some("3"));
        let back = readback::paragraph(name, &attrs);
        assert_eq!((back.level, back.indent), (3, 0));
        assert_eq!(back.list_id.as_deref(), Some("L"));
    }

    #[test]
    fn hex_colours() {
        assert!(is_hex_color("#00ffAA"));
        assert!(!is_hex_color("#00ffA"));
        assert!(!is_hex_color("red"));
        assert!(!is_hex_color("#00ffAG"));
    }
}
