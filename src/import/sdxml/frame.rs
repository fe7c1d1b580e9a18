//! The reader's explicit element stack: one [`Frame`] per open element (plus implicit paragraphs
//! around loose text). Keeping the stack as data, instead of recursing per element, means input
//! depth can never exhaust the call stack; the XML reader bounds it by `Limits::max_xml_depth`.

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::ast::{Cell, Image, IndexNode, NoteKind, Paragraph, Row, Table};

/// An element name: static for the grammar's own, owned for unknown ones.
pub(super) type Name = Cow<'static, str>;

/// Elements whose text becomes a string somewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextTarget {
    Title,
    Filename,
    Subtitle,
    Description,
    Footer,
    Creator,
    Tag,
    PresetTag,
    GridItem,
    GridIndentation,
    SpellcheckLang,
    ColumnItem,
}

impl TextTarget {
    pub(super) fn name(self) -> &'static str {
        match self {
            TextTarget::Title => "title",
            TextTarget::Filename => "filename",
            TextTarget::Subtitle => "subtitle",
            TextTarget::Description => "description",
            TextTarget::Footer => "footer",
            TextTarget::Creator => "creator",
            TextTarget::Tag | TextTarget::PresetTag => "tag",
            TextTarget::GridItem | TextTarget::ColumnItem => "item",
            TextTarget::GridIndentation => "grid-indentation-enabled",
            TextTarget::SpellcheckLang => "spellcheck-lang",
        }
    }
}

/// A paragraph being read (`heading`, `paragraph`, `ol-li`, `ul-li`, cell `p`, legacy `li` and
/// `font`, or an implicit one around loose text). Its inline content is on the builder stack.
#[derive(Debug)]
pub(super) struct ParaFrame {
    /// The element, `""` for an implicit paragraph.
    pub(super) name: &'static str,
    pub(super) para: Paragraph,
    pub(super) fields: Option<Map<String, Value>>,
    /// For a legacy `li`: its list depth (a list nested inside it goes one deeper).
    pub(super) li_depth: Option<u32>,
    /// A legacy `li` split by a nested list: what follows the list continues as a new item.
    pub(super) continued: bool,
}

impl ParaFrame {
    pub(super) fn implicit(&self) -> bool {
        self.name.is_empty()
    }
}

/// A table being read.
#[derive(Debug, Default)]
pub(super) struct TableFrame {
    pub(super) table: Table,
    pub(super) fields: Option<Map<String, Value>>,
    /// Per row: whether a `fields` PI set `header` explicitly.
    pub(super) explicit_header: Vec<bool>,
    /// Per row: whether every cell is a `th` (and there is at least one).
    pub(super) all_th: Vec<bool>,
}

/// A table row being read.
#[derive(Debug, Default)]
pub(super) struct RowFrame {
    pub(super) row: Row,
    pub(super) fields: Option<Map<String, Value>>,
    pub(super) all_th: bool,
}

/// A table cell being read; its blocks collect here.
#[derive(Debug)]
pub(super) struct CellFrame {
    pub(super) name: &'static str,
    pub(super) cell: Cell,
    pub(super) fields: Option<Map<String, Value>>,
}

/// An image block being read; its text is the media name.
#[derive(Debug)]
pub(super) struct ImageFrame {
    pub(super) image: Image,
    pub(super) fields: Option<Map<String, Value>>,
    pub(super) name: String,
    pub(super) nested: u32,
}

/// One open element.
#[derive(Debug)]
pub(super) enum Frame {
    Smashdoc,
    Meta {
        fields: Option<Map<String, Value>>,
    },
    Tags,
    Presets,
    Grid,
    /// Text-only element; `nested` counts child elements absorbed into it.
    Text {
        target: TextTarget,
        buf: String,
        nested: u32,
    },
    /// The body: blocks go to the document.
    Document,
    /// 2.2x footnote paragraphs: blocks go aside until the end.
    Attached,
    /// A container that passes blocks through to the one below (`ordered-sections`, unknown
    /// wrappers, block elements that should have been empty).
    Transparent {
        name: Name,
        /// Already reported as unknown: loose text inside needs no second warning.
        unknown: bool,
    },
    /// Legacy `ul`/`ol`; `depth` is the level of its items.
    List {
        ordered: bool,
        depth: u32,
    },
    Para(Box<ParaFrame>),
    Image(Box<ImageFrame>),
    Table(Box<TableFrame>),
    ColumnWidth {
        items: Vec<Option<f32>>,
        bad: Option<String>,
    },
    Row(Box<RowFrame>),
    Cell(Box<CellFrame>),
    /// An inline element inside a paragraph or note: formatting, link, style, or one whose mark is
    /// nothing (unknown, or an empty element that had content). Always one builder `elem` entry.
    Inline {
        name: Name,
    },
    /// `footnote`/`sidenote`: its content is the top builder.
    Note {
        kind: NoteKind,
    },
    /// Inline `img`; its content, if any, is caption text.
    Img {
        media: Option<String>,
        caption: Option<String>,
        /// Fields from an `<?sdconv {"fields":…}?>` inside it (alt text, exact caption).
        fields: Option<Map<String, Value>>,
        buf: String,
        nested: u32,
    },
    /// An element left out with its content; `chars` counts the text it held.
    Skip {
        name: Name,
        nested: u32,
        chars: usize,
        /// Already reported (unknown element): no second warning for its text.
        reported: bool,
    },
    Indexes,
    IndexNode(Box<IndexNode>),
}

/// What an open element's content can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    Root,
    Smashdoc,
    Meta,
    Tags,
    Grid,
    /// Text-only: child elements are absorbed.
    Absorb,
    /// Blocks (document, cell, …).
    Blocks,
    /// Inline content of a paragraph or note.
    Inline,
    Table,
    ColumnWidth,
    Row,
    Indexes,
}

impl Frame {
    pub(super) fn name(&self) -> &str {
        match self {
            Frame::Smashdoc => "smashdoc",
            Frame::Meta { .. } => "meta",
            Frame::Tags => "tags",
            Frame::Presets => "word-export-presets",
            Frame::Grid => "grid",
            Frame::Text { target, .. } => target.name(),
            Frame::Document => "document",
            Frame::Attached => "attached-sections",
            Frame::Transparent { name, .. } | Frame::Inline { name } | Frame::Skip { name, .. } => {
                name
            }
            Frame::List { ordered: true, .. } => "ol",
            Frame::List { ordered: false, .. } => "ul",
            Frame::Para(p) => p.name,
            Frame::Image(_) => "image",
            Frame::Table(_) => "table",
            Frame::ColumnWidth { .. } => "column_width",
            Frame::Row(_) => "tr",
            Frame::Cell(c) => c.name,
            Frame::Note {
                kind: NoteKind::Sidenote,
                ..
            } => "sidenote",
            Frame::Note { .. } => "footnote",
            Frame::Img { .. } => "img",
            Frame::Indexes => "indexes",
            Frame::IndexNode(_) => "index-node",
        }
    }

    pub(super) fn ctx(&self) -> Ctx {
        match self {
            Frame::Smashdoc => Ctx::Smashdoc,
            Frame::Meta { .. } => Ctx::Meta,
            Frame::Tags | Frame::Presets => Ctx::Tags,
            Frame::Grid => Ctx::Grid,
            Frame::Text { .. } | Frame::Image(_) | Frame::Img { .. } | Frame::Skip { .. } => {
                Ctx::Absorb
            }
            Frame::Document
            | Frame::Attached
            | Frame::Transparent { .. }
            | Frame::List { .. }
            | Frame::Cell(_) => Ctx::Blocks,
            Frame::Para(_) | Frame::Inline { .. } | Frame::Note { .. } => Ctx::Inline,
            Frame::Table(_) => Ctx::Table,
            Frame::ColumnWidth { .. } => Ctx::ColumnWidth,
            Frame::Row(_) => Ctx::Row,
            Frame::Indexes | Frame::IndexNode(_) => Ctx::Indexes,
        }
    }

    /// For text-only frames: the count of absorbed child elements still open.
    pub(super) fn nested_mut(&mut self) -> Option<&mut u32> {
        match self {
            Frame::Text { nested, .. } | Frame::Img { nested, .. } | Frame::Skip { nested, .. } => {
                Some(nested)
            }
            Frame::Image(f) => Some(&mut f.nested),
            _ => None,
        }
    }

    /// The slot a `fields` PI fills, for frames whose node has one.
    pub(super) fn fields_mut(&mut self) -> Option<&mut Option<Map<String, Value>>> {
        match self {
            Frame::Meta { fields } => Some(fields),
            Frame::Para(p) => Some(&mut p.fields),
            Frame::Image(f) => Some(&mut f.fields),
            Frame::Table(f) => Some(&mut f.fields),
            Frame::Row(f) => Some(&mut f.fields),
            Frame::Cell(f) => Some(&mut f.fields),
            _ => None,
        }
    }
}

/// Whether `c` is XML whitespace (text made only of it between blocks is layout, not content).
pub(super) fn is_xml_space(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}
