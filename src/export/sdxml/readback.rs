//! The writer's model of the sd.xml reader: the tree node the reader builds from an element's
//! name and attributes, *before* it reads the element's children and before it applies the
//! element's `fields` PI.
//!
//! The writer puts into attributes what the DTD has attributes for, asks this model what the
//! reader will make of them, and carries the difference in a `fields` PI
//! ([`crate::sdxml_ext::field_diff`]). So no list of "fields that need a PI" is kept by hand: a
//! field the model does not fill travels in the PI automatically. The sd.xml reader must build
//! exactly these nodes; the round-trip tests hold both sides to it.
//!
//! Conventions the reader must share:
//! - an optional attribute that is absent **or empty** gives `None` (the writer never writes an
//!   empty optional attribute: an empty value travels in the PI);
//! - required attributes (`index-node@id`/`@title`, `img@filename`, `a@href`, `xref@href`,
//!   `inline@stylename`, `index@data-id`, `word-export-presets@template_id`) are taken exactly,
//!   even when empty; `img@caption` is the exception: required by the DTD, empty means no caption;
//! - numbers that do not parse give the default; `0|1` flags are `"1"` → true, `"0"` → false;
//! - percentages (`width`, `column_width/item`) are an `f32` with an optional trailing `%`.

use std::borrow::Cow;
use std::str::FromStr;

use crate::ast::{
    Align, Borders, Cell, Image, IndexNode, Inline, Meta, NoteKind, Paragraph, Row, Table,
    TextType, VAlign, WordExportPresets,
};

/// An element's attributes as written, in writing order.
/// Held inline up to six, as many as a block element has: one list per block written.
pub(super) type Attrs<'a> = smallvec::SmallVec<[(&'static str, Cow<'a, str>); 6]>;

/// The value of attribute `name`.
pub(super) fn get<'a>(attrs: &'a [(&'static str, Cow<'_, str>)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.as_ref())
}

/// An optional text attribute: absent or empty is `None`.
fn opt(attrs: &[(&'static str, Cow<'_, str>)], name: &str) -> Option<String> {
    get(attrs, name)
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

fn num<T: FromStr>(attrs: &[(&'static str, Cow<'_, str>)], name: &str) -> Option<T> {
    get(attrs, name).and_then(|v| v.trim().parse().ok())
}

fn flag(attrs: &[(&'static str, Cow<'_, str>)], name: &str) -> Option<bool> {
    match get(attrs, name) {
        Some("1") => Some(true),
        Some("0") => Some(false),
        _ => None,
    }
}

/// `"33.5%"` → 33.5.
pub(super) fn percent(s: &str) -> Option<f32> {
    let s = s.trim();
    s.strip_suffix('%').unwrap_or(s).trim().parse().ok()
}

/// `heading`, `paragraph`, `ol-li`, `ul-li` (top level or in a cell) and cell `p`.
pub(super) fn paragraph(element: &str, attrs: &[(&'static str, Cow<'_, str>)]) -> Paragraph {
    let mut p = Paragraph::default();
    let enumeration = num::<u8>(attrs, "enumeration");
    match element {
        "heading" => {
            p.kind = if enumeration.is_some() {
                TextType::HeadingOl
            } else {
                TextType::Heading
            };
            p.level = enumeration.or_else(|| num(attrs, "level")).unwrap_or(0);
        }
        "paragraph" => {
            if let Some(level) = enumeration {
                p.kind = TextType::ParagraphOl;
                p.level = level;
            }
        }
        // A list item's depth is its `@indent`; it has no separate indentation.
        "ol-li" | "ul-li" => {
            p.kind = if element == "ol-li" {
                TextType::ListOl
            } else {
                TextType::ListUl
            };
            p.level = num(attrs, "indent").unwrap_or(0);
        }
        _ => {}
    }
    if !p.kind.is_list() {
        p.indent = num(attrs, "indent").unwrap_or(0);
    }
    p.align = get(attrs, "alignment")
        .and_then(Align::parse)
        .unwrap_or_default();
    p.style = opt(attrs, "stylename");
    p.restart = flag(attrs, "restartNumbering") == Some(true);
    p.list_id = opt(attrs, "list-id");
    p.origin_ids = opt(attrs, "origin_ids");
    p.id = opt(attrs, "id");
    p
}

/// `image`; `media` is the element's text.
pub(super) fn image(media: &str, attrs: &[(&'static str, Cow<'_, str>)]) -> Image {
    Image {
        media: media.to_string(),
        caption: opt(attrs, "caption"),
        alt: None,
        width_percent: get(attrs, "width").and_then(percent),
        extent: None,
        align: get(attrs, "alignment")
            .and_then(Align::parse)
            .unwrap_or_default(),
        indent: num(attrs, "indent").unwrap_or(0),
        numbered: flag(attrs, "num-enabled") != Some(false),
        id: opt(attrs, "id"),
        style: opt(attrs, "stylename"),
        origin_ids: opt(attrs, "origin_ids"),
    }
}

/// `table` with its `column_width/item` texts, rows not yet read.
pub(super) fn table(attrs: &[(&'static str, Cow<'_, str>)], items: &[String]) -> Table {
    Table {
        columns: items.iter().filter_map(|s| percent(s)).collect(),
        rows: Vec::new(),
        caption: opt(attrs, "caption"),
        numbered: flag(attrs, "num-enabled") != Some(false),
        width_percent: get(attrs, "width").and_then(percent),
        align: get(attrs, "alignment")
            .and_then(Align::parse)
            .unwrap_or_default(),
        indent: num(attrs, "indent").unwrap_or(0),
        border_color: opt(attrs, "border-color"),
        id: opt(attrs, "id"),
        style: opt(attrs, "stylename"),
        origin_ids: opt(attrs, "origin_ids"),
        // No attribute: a chart's kind travels in the fields PI.
        chart: None,
        // No attribute: the DTD has no direction; it travels in the fields PI.
        dir: None,
    }
}

/// `tr`; `header` is the reader's derivation: the row is one of the table's leading rows whose
/// cells are all `th`.
pub(super) fn row(attrs: &[(&'static str, Cow<'_, str>)], header: bool) -> Row {
    Row {
        header,
        id: opt(attrs, "row-id"),
        min_height: opt(attrs, "min-height"),
        cells: Vec::new(),
    }
}

/// `th` / `td`, content not yet read.
pub(super) fn cell(element: &str, attrs: &[(&'static str, Cow<'_, str>)]) -> Cell {
    Cell {
        colspan: num(attrs, "colspan").filter(|&n| n >= 1).unwrap_or(1),
        rowspan: num(attrs, "rowspan").filter(|&n| n >= 1).unwrap_or(1),
        header: element == "th",
        align: get(attrs, "text-align").and_then(Align::parse),
        valign: get(attrs, "vertical-align").and_then(VAlign::parse),
        borders: Borders {
            top: flag(attrs, "border-top"),
            right: flag(attrs, "border-right"),
            bottom: flag(attrs, "border-bottom"),
            left: flag(attrs, "border-left"),
        },
        font_size: opt(attrs, "font-size"),
        background: opt(attrs, "background-color"),
        background_intensity: opt(attrs, "background-intensity"),
        col_ids: opt(attrs, "col-ids"),
        blocks: Vec::new(),
    }
}

/// `index-node`, children not yet read.
pub(super) fn index_node(attrs: &[(&'static str, Cow<'_, str>)]) -> IndexNode {
    IndexNode {
        id: get(attrs, "id").unwrap_or_default().to_string(),
        title: get(attrs, "title").unwrap_or_default().to_string(),
        target: opt(attrs, "target-reference-id"),
        description: opt(attrs, "description"),
        sorting_key: opt(attrs, "sorting-key"),
        children: Vec::new(),
    }
}

/// `footnote` / `sidenote`, content not yet read.
pub(super) fn note(element: &str) -> Inline {
    Inline::Note {
        kind: if element == "sidenote" {
            NoteKind::Sidenote
        } else {
            NoteKind::Footnote
        },
        content: Vec::new(),
    }
}

/// `img` (an inline image).
pub(super) fn img(attrs: &[(&'static str, Cow<'_, str>)]) -> Inline {
    Inline::Image {
        media: get(attrs, "filename").unwrap_or_default().to_string(),
        caption: opt(attrs, "caption"),
        alt: None,
    }
}

/// What the writer puts into `smashdoc` and `meta`, element by element.
#[derive(Debug, Default)]
pub(super) struct MetaOut<'a> {
    /// `smashdoc@version`, `smashdoc@id`.
    pub root: Attrs<'a>,
    /// `language@value` (only the DTD's three values).
    pub language: Option<Cow<'a, str>>,
    pub title: Cow<'a, str>,
    pub filename: Option<Cow<'a, str>>,
    pub subtitle: Cow<'a, str>,
    pub description: Cow<'a, str>,
    pub footer: Cow<'a, str>,
    pub creator: Cow<'a, str>,
    /// `tags/tag`, never empty strings.
    pub tags: Vec<Cow<'a, str>>,
    /// `word-export-presets` attributes and its `tag`s.
    pub presets: Option<(Attrs<'a>, Vec<Cow<'a, str>>)>,
    /// `grid/item`, never empty strings.
    pub grid: Vec<Cow<'a, str>>,
    pub grid_indentation_enabled: Option<Cow<'a, str>>,
    pub spellcheck_lang: Option<Cow<'a, str>>,
}

/// `smashdoc` + `meta`: element texts are taken exactly, an empty one is `None`.
pub(super) fn meta(m: &MetaOut<'_>) -> Meta {
    let text = |s: &Cow<'_, str>| (!s.is_empty()).then(|| s.to_string());
    let list = |v: &[Cow<'_, str>]| v.iter().map(|s| s.to_string()).collect();
    Meta {
        id: opt(&m.root, "id"),
        generator: opt(&m.root, "version"),
        title: text(&m.title),
        subtitle: text(&m.subtitle),
        description: text(&m.description),
        filename: m.filename.as_ref().and_then(text),
        footer: text(&m.footer),
        // The DTD has no page headers: they travel in the `fields` extension.
        pages: Default::default(),
        tags: list(&m.tags),
        supplemental: None,
        language: m.language.as_ref().and_then(text),
        // The DTD has no direction or hyphenation: they travel in the `fields` extension.
        direction: None,
        hyphenate: false,
        creator: text(&m.creator),
        word_export_presets: m.presets.as_ref().map(|(a, tags)| WordExportPresets {
            template_id: get(a, "template_id").unwrap_or_default().to_string(),
            language: get(a, "language").unwrap_or_default().to_string(),
            toc_text: flag(a, "toc_text") == Some(true),
            toc_image: flag(a, "toc_image") == Some(true),
            toc_table: flag(a, "toc_table") == Some(true),
            caption_image: flag(a, "caption_image") == Some(true),
            caption_table: flag(a, "caption_table") == Some(true),
            tags: list(tags),
        }),
        grid: list(&m.grid),
        grid_indentation_enabled: m.grid_indentation_enabled.as_ref().and_then(text),
        spellcheck_lang: m.spellcheck_lang.as_ref().and_then(text),
        // Word's style and note names are the Word reader's, for one conversion.
        word: None,
    }
}
