//! Stage one's output: the body of a Word part as plain Rust values, before any mapping to the
//! tree. Relationship ids are already resolved (links carry their target and anchor, images
//! their part name), so stage two never needs to know which part content came from.

use std::sync::Arc;

use crate::ast::{Change, NoteKind, VAlign};

use super::props::{ParaProps, RunProps, Section};

/// Where a hyperlink points, as the file says it: its relationship's target, shared with every
/// hyperlink that names it, and a bookmark in it. The two are joined into one href only in the
/// tree, within the budget of what links copy there (a file can name one long target from
/// thousands of hyperlinks, each with an anchor of its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkTarget {
    /// The relationship's target (`https://…`).
    pub target: Option<Arc<str>>,
    /// `w:anchor`: a bookmark name, in the target or, without one, in this document.
    pub anchor: Option<String>,
}

/// A block-level element.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `w:p`.
    Para(Para),
    /// `w:tbl`.
    Table(Table),
    /// An anchor met between paragraphs (`w:bookmarkStart` as a child of `w:body`); it belongs to
    /// the next paragraph.
    Loose(Item),
}

/// A paragraph.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Para {
    /// Direct paragraph properties.
    pub props: ParaProps,
    /// The content in document order.
    pub items: Vec<Item>,
    /// Text boxes anchored in this paragraph, in reading order.
    pub textboxes: Vec<Vec<Block>>,
    /// A code block's language, from the tag of a content control around the paragraph (how
    /// our writer keeps it).
    pub code_language: Option<String>,
    /// SmartArt data parts (`dgm:relIds@r:dm`) anchored in this paragraph, by part name
    /// (shared with the relationship, as every name taken from one is).
    pub diagrams: Vec<Arc<str>>,
    /// Embedded chunks (`w:altChunk`) this block stands for, by part name: a paragraph made
    /// for them, with nothing else.
    pub chunks: Vec<Arc<str>>,
}

/// Paragraph-level content.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// `w:r`.
    Run(Run),
    /// A hyperlink starts (`w:hyperlink`).
    LinkStart(LinkTarget),
    /// The innermost open hyperlink ends.
    LinkEnd,
    /// `w:bookmarkStart@w:name`.
    Bookmark(String),
    /// `w:commentRangeStart`.
    CommentStart(String),
    /// `w:commentRangeEnd`.
    CommentEnd(String),
    /// `w:ins`/`w:del`/`w:moveTo`/`w:moveFrom` starts.
    ChangeStart(Change),
    /// The innermost open change ends.
    ChangeEnd,
    /// `w:fldSimple@w:instr` starts; its content is the field's result.
    SimpleFieldStart(String),
    /// The innermost simple field ends.
    SimpleFieldEnd,
}

/// A run: formatting and content.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Run {
    /// Direct run properties.
    pub props: RunProps,
    /// What the run holds.
    pub content: RunContent,
}

/// A run's content: most runs hold one item, which then needs no allocation of its own.
pub type RunContent = smallvec::SmallVec<[RunItem; 1]>;

/// Run-level content.
#[derive(Debug, Clone, PartialEq)]
pub enum RunItem {
    /// Text (`w:t`, `w:delText`, tabs as `\t`, symbols, special hyphens).
    Text(String),
    /// `w:br`/`w:cr`.
    Break(BreakKind),
    /// `w:fldChar w:fldCharType="begin"`.
    FieldBegin,
    /// `w:fldChar w:fldCharType="separate"`.
    FieldSeparate,
    /// `w:fldChar w:fldCharType="end"`.
    FieldEnd,
    /// `w:instrText`.
    Instr(String),
    /// `w:footnoteReference`/`w:endnoteReference`.
    NoteRef(NoteKind, String),
    /// `w:commentReference`.
    CommentRef(String),
    /// A picture (DrawingML or VML).
    Image(Box<ImageRef>),
    /// `w:ruby`: the base text and its reading.
    Ruby(String, String),
    /// A chart (`c:chart`), by the name of its chart part.
    Chart(Arc<str>),
    /// An equation (`m:oMath`; `display` for one in `m:oMathPara`).
    Math {
        /// Displayed on its own line.
        display: bool,
        /// The formula.
        math: Vec<crate::ast::MathNode>,
    },
}

/// Which break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakKind {
    /// A line break.
    Line,
    /// A page break.
    Page,
    /// A column break.
    Column,
}

/// Where a picture's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImageTarget {
    /// A part of the package (`word/media/image1.png`).
    Part(Arc<str>),
    /// Linked, not embedded: a URL or file path.
    External(Arc<str>),
}

/// A picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRef {
    /// Its bytes.
    pub target: ImageTarget,
    /// Displayed size in EMU.
    pub extent: Option<(u64, u64)>,
    /// `wp:docPr@descr` (VML: `o:title`).
    pub alt: Option<String>,
    /// `wp:docPr@title`: Word's alt-text title, the caption of a picture in the text (an image
    /// block's caption is a caption paragraph; there it stands in for a missing description).
    pub title: Option<String>,
    /// Floating (`wp:anchor`) rather than inline.
    pub anchored: bool,
}

/// A table.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// `w:tblStyle`.
    pub style: Option<String>,
    /// `w:tblGrid/w:gridCol@w:w` in twips.
    pub grid: Vec<u64>,
    /// `w:tblPr/w:jc`.
    pub align: Option<crate::ast::Align>,
    /// `w:tblW` as written: (`w:type`, `w:w`).
    pub width: Option<(Option<String>, String)>,
    /// `w:tblBorders`: the sides as written.
    pub borders: Vec<BorderSide>,
    /// `w:bidiVisual`: the first column on the right.
    pub bidi_visual: bool,
    /// Rows.
    pub rows: Vec<Row>,
}

/// One side of `w:tblBorders` / `w:tcBorders` (ECMA-376 §17.4.38, §17.4.66) as written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BorderSide {
    /// The element's local name: `top`, `left`/`start`, `bottom`, `right`/`end`, `insideH`,
    /// `insideV`, diagonals.
    pub side: String,
    /// `w:val`: the line style; `nil`/`none` draw nothing.
    pub val: Option<String>,
    /// `w:color`.
    pub color: Option<String>,
}

impl BorderSide {
    /// Whether the side draws a line.
    pub fn drawn(&self) -> bool {
        !matches!(self.val.as_deref(), Some("nil" | "none") | None)
    }
}

/// A table row.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    /// `w:tblHeader`.
    pub header: bool,
    /// `w:gridBefore`.
    pub grid_before: u32,
    /// `w:gridAfter`.
    pub grid_after: u32,
    /// `w:trHeight` as written: (`w:val`, `w:hRule`).
    pub height: Option<(String, Option<String>)>,
    /// Cells.
    pub cells: Vec<Cell>,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// `w:gridSpan`, at least 1.
    pub span: u32,
    /// `w:vMerge`.
    pub vmerge: Option<Merge>,
    /// Legacy `w:hMerge`.
    pub hmerge: Option<Merge>,
    /// `w:vAlign`.
    pub valign: Option<VAlign>,
    /// `w:tcBorders`: the sides as written.
    pub borders: Vec<BorderSide>,
    /// `w:shd@w:fill` as written.
    pub fill: Option<String>,
    /// Content.
    pub blocks: Vec<Block>,
}

impl Default for Cell {
    fn default() -> Self {
        Cell {
            span: 1,
            vmerge: None,
            hmerge: None,
            valign: None,
            borders: Vec::new(),
            fill: None,
            blocks: Vec::new(),
        }
    }
}

/// A merge marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Merge {
    /// The first cell of a merged range.
    Restart,
    /// Covered by the cell before (above, for `w:vMerge`).
    Continue,
}

/// A parsed part body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Body {
    /// Blocks in order.
    pub blocks: Vec<Block>,
    /// The body's last `w:sectPr` (the final section).
    pub final_section: Option<Section>,
}
