//! Block content: paragraphs, images, tables, page breaks and generated directories.

use serde::{Deserialize, Serialize};

use super::inline::Inline;

/// The API's `textType`: what a paragraph is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum TextType {
    /// Normal text (`paragraph`).
    #[default]
    #[serde(rename = "paragraph")]
    Paragraph,
    /// Numbered paragraph (`paragraph-ol`); `level` is its numbering level.
    #[serde(rename = "paragraph-ol")]
    ParagraphOl,
    /// Unnumbered heading (`heading`); `level` 0 is the top level.
    #[serde(rename = "heading")]
    Heading,
    /// Numbered heading (`heading-ol`).
    #[serde(rename = "heading-ol")]
    HeadingOl,
    /// A caption standing on its own (`caption`).
    #[serde(rename = "caption")]
    Caption,
    /// Numbered list item (`list-ol`); `level` is the nesting depth.
    #[serde(rename = "list-ol")]
    ListOl,
    /// Bulleted list item (`list-ul`); `level` is the nesting depth.
    #[serde(rename = "list-ul")]
    ListUl,
}

impl TextType {
    /// All seven, in the API's order.
    pub const ALL: [TextType; 7] = [
        TextType::Paragraph,
        TextType::ParagraphOl,
        TextType::Heading,
        TextType::HeadingOl,
        TextType::Caption,
        TextType::ListOl,
        TextType::ListUl,
    ];

    /// The API's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            TextType::Paragraph => "paragraph",
            TextType::ParagraphOl => "paragraph-ol",
            TextType::Heading => "heading",
            TextType::HeadingOl => "heading-ol",
            TextType::Caption => "caption",
            TextType::ListOl => "list-ol",
            TextType::ListUl => "list-ul",
        }
    }

    /// Parses the API's spelling.
    pub fn parse(s: &str) -> Option<TextType> {
        TextType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Whether this is a list item.
    pub fn is_list(self) -> bool {
        matches!(self, TextType::ListOl | TextType::ListUl)
    }

    /// Whether this is a heading, numbered or not.
    pub fn is_heading(self) -> bool {
        matches!(self, TextType::Heading | TextType::HeadingOl)
    }
}

/// Horizontal alignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Align {
    /// Left (the default).
    #[default]
    Left,
    /// Centred.
    Center,
    /// Right.
    Right,
    /// Justified.
    Justify,
}

impl Align {
    /// The sd.xml / CSS spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Align::Left => "left",
            Align::Center => "center",
            Align::Right => "right",
            Align::Justify => "justify",
        }
    }

    /// Parses the sd.xml / CSS spelling.
    pub fn parse(s: &str) -> Option<Align> {
        match s {
            "left" => Some(Align::Left),
            "center" => Some(Align::Center),
            "right" => Some(Align::Right),
            "justify" => Some(Align::Justify),
            _ => None,
        }
    }
}

/// Writing direction of a document, paragraph, table or run (Word `w:bidi`/`w:rtl`/
/// `w:bidiVisual`, HTML `dir`). Text inside still follows the Unicode bidirectional algorithm;
/// the direction is the base it starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

impl Direction {
    /// The HTML `dir` / front matter spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Ltr => "ltr",
            Direction::Rtl => "rtl",
        }
    }

    /// Parses the HTML `dir` spelling (any case).
    pub fn parse(s: &str) -> Option<Direction> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ltr" => Some(Direction::Ltr),
            "rtl" => Some(Direction::Rtl),
            _ => None,
        }
    }
}

/// Vertical alignment in a table cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VAlign {
    /// Top.
    Top,
    /// Middle.
    Middle,
    /// Bottom.
    Bottom,
}

impl VAlign {
    /// The sd.xml / CSS spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            VAlign::Top => "top",
            VAlign::Middle => "middle",
            VAlign::Bottom => "bottom",
        }
    }

    /// Parses the sd.xml / CSS spelling.
    pub fn parse(s: &str) -> Option<VAlign> {
        match s {
            "top" => Some(VAlign::Top),
            "middle" => Some(VAlign::Middle),
            "bottom" => Some(VAlign::Bottom),
            _ => None,
        }
    }
}

/// How list or paragraph numbers are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NumberFormat {
    /// 1, 2, 3
    Decimal,
    /// a, b, c
    LowerLetter,
    /// A, B, C
    UpperLetter,
    /// i, ii, iii
    LowerRoman,
    /// I, II, III
    UpperRoman,
    /// •
    Bullet,
    /// No visible number.
    None,
}

/// Which generated list a [`Block::Directory`] stands for (sd.xml `directory@type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DirectoryKind {
    /// Table of contents.
    Content,
    /// List of figures.
    Images,
    /// List of tables.
    Tables,
    /// List of footnotes.
    Footnotes,
    /// List of web links.
    Weblinks,
    /// The index.
    Indexes,
    /// List of sidenotes.
    Sidenotes,
}

impl DirectoryKind {
    /// All kinds.
    pub const ALL: [DirectoryKind; 7] = [
        DirectoryKind::Content,
        DirectoryKind::Images,
        DirectoryKind::Tables,
        DirectoryKind::Footnotes,
        DirectoryKind::Weblinks,
        DirectoryKind::Indexes,
        DirectoryKind::Sidenotes,
    ];

    /// The sd.xml spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            DirectoryKind::Content => "content",
            DirectoryKind::Images => "images",
            DirectoryKind::Tables => "tables",
            DirectoryKind::Footnotes => "footnotes",
            DirectoryKind::Weblinks => "weblinks",
            DirectoryKind::Indexes => "indexes",
            DirectoryKind::Sidenotes => "sidenotes",
        }
    }

    /// Parses the sd.xml spelling.
    pub fn parse(s: &str) -> Option<DirectoryKind> {
        DirectoryKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// One block of the flat document body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Text: normal, heading, list item, numbered paragraph or caption.
    Paragraph(Paragraph),
    /// A picture on its own line.
    Image(Image),
    /// A table.
    Table(Table),
    /// A forced page break.
    PageBreak,
    /// A generated list (table of contents, list of figures, …) placed here.
    Directory {
        /// Which list.
        kind: DirectoryKind,
    },
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}
fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}
fn is_true(b: &bool) -> bool {
    *b
}
fn yes() -> bool {
    true
}
fn one() -> u32 {
    1
}
fn is_one(n: &u32) -> bool {
    *n == 1
}

/// A paragraph of any [`TextType`].
///
/// Example: a second-level numbered heading `1.2 Scope` is
/// `Paragraph { kind: HeadingOl, level: 1, content: [Text("Scope")], .. }` (the number is drawn
/// by the writer, never stored in the text).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Paragraph {
    /// What the paragraph is.
    pub kind: TextType,
    /// Outline, numbering or list level, 0..=5.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub level: u8,
    /// Indentation steps, 0..=15.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub indent: u8,
    /// Horizontal alignment.
    #[serde(default, skip_serializing_if = "is_default")]
    pub align: Align,
    /// The source's paragraph style name (Word style, sd.xml `stylename`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// A stable id (sd.xml `id`, Word bookmark), target of cross-references.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The service's `origin_ids` bookkeeping, kept for round trips.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_ids: Option<String>,
    /// Numbering starts again at this item (sd.xml `restartNumbering`, Word restarts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
    /// The number this item carries when numbering (re)starts here, if not 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// Items with the same list id belong to one list (sd.xml `list-id`, Word `numId`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_id: Option<String>,
    /// How the number is drawn, when the source says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number_format: Option<NumberFormat>,
    /// Set when the paragraph is a code block: wholly code, its whitespace and line breaks
    /// exact (Markdown fenced or indented code, Word's "Source Code"/"HTML Preformatted"
    /// styles). The value is the code's language (`rust`), empty when unknown. The content
    /// stays code-formatted text, which is what a format without code blocks shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// A tracked change of the paragraph's end (its mark): an insertion means the paragraph
    /// break was inserted (the paragraph added, or split off the next), a deletion that it was
    /// deleted (the paragraph merges with the next when the change is accepted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<super::Change>,
    /// The paragraph's language (BCP 47), only where it differs from the document's
    /// ([`super::Meta::language`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The paragraph's direction, only where it differs from the document's
    /// ([`super::Meta::direction`]): `Rtl` for Word's `w:bidi`, `Ltr` for a left-to-right
    /// paragraph in a right-to-left document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<Direction>,
    /// The text.
    #[serde(default)]
    pub content: Vec<Inline>,
}

impl Paragraph {
    /// A paragraph of `kind` holding `content`, everything else default.
    pub fn new(kind: TextType, content: Vec<Inline>) -> Self {
        Paragraph {
            kind,
            content,
            ..Paragraph::default()
        }
    }
}

/// Displayed size in EMU (English Metric Units, 914,400 per inch), as Word stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Extent {
    /// Width in EMU.
    pub width: u64,
    /// Height in EMU.
    pub height: u64,
}

/// An image block: `<image width="50%" caption="A cat">cat.png</image>`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Image {
    /// Name in the [`crate::ast::MediaStore`]; kept even when the media is missing (with a warning).
    pub media: String,
    /// Caption text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    /// Alternative text for readers that cannot see the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt: Option<String>,
    /// Width as a percentage of the text width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width_percent: Option<f32>,
    /// Displayed size, when the source gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extent: Option<Extent>,
    /// Horizontal alignment.
    #[serde(default, skip_serializing_if = "is_default")]
    pub align: Align,
    /// Indentation steps, 0..=15.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub indent: u8,
    /// Whether the caption is numbered (`Figure 3: …`); sd.xml `num-enabled`.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub numbered: bool,
    /// Stable id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Source style name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// The service's `origin_ids`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_ids: Option<String>,
}

/// A table: relative column widths and rows of cells that hold blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// Relative column widths in percent (may be empty when the source gives none).
    #[serde(default)]
    pub columns: Vec<f32>,
    /// The rows, top to bottom.
    pub rows: Vec<Row>,
    /// Caption text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
    /// Whether the caption is numbered (`Table 2: …`).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub numbered: bool,
    /// Width as a percentage of the text width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width_percent: Option<f32>,
    /// Horizontal alignment of the table.
    #[serde(default, skip_serializing_if = "is_default")]
    pub align: Align,
    /// Indentation steps, 0..=15.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub indent: u8,
    /// Border colour `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub border_color: Option<String>,
    /// Stable id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Source table style name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// The service's `origin_ids`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin_ids: Option<String>,
    /// This table is a chart's data, drawn this way (see [`crate::ast::chart`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<crate::ast::chart::ChartKind>,
    /// Column order: `Rtl` puts the first column on the right (Word `w:bidiVisual`); only where
    /// it differs from the document's direction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<Direction>,
}

/// A table row.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Row {
    /// A header row, repeated on each page (Word `tblHeader`; leading all-`th` rows in sd.xml).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub header: bool,
    /// The service's row id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Minimum height as the source wrote it (`6.3mm`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_height: Option<String>,
    /// The cells that start in this row, left to right. Cells covered by a span are not listed.
    pub cells: Vec<Cell>,
}

/// Which borders a cell draws; `None` means the source did not say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Borders {
    /// Top border.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top: Option<bool>,
    /// Right border.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<bool>,
    /// Bottom border.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bottom: Option<bool>,
    /// Left border.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<bool>,
}

/// A table cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// Columns covered, at least 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub colspan: u32,
    /// Rows covered, at least 1.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub rowspan: u32,
    /// A header cell (`th`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub header: bool,
    /// Text alignment, when the source says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub align: Option<Align>,
    /// Vertical alignment, when the source says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valign: Option<VAlign>,
    /// Borders.
    #[serde(default, skip_serializing_if = "is_default")]
    pub borders: Borders,
    /// Font size as the source wrote it (`9.75pt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_size: Option<String>,
    /// Background colour `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    /// Background intensity as the source wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_intensity: Option<String>,
    /// The service's column ids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col_ids: Option<String>,
    /// The content: paragraphs and list items (nested tables and images from Word too).
    #[serde(default)]
    pub blocks: Vec<Block>,
}

impl Default for Cell {
    fn default() -> Self {
        Cell {
            colspan: 1,
            rowspan: 1,
            header: false,
            align: None,
            valign: None,
            borders: Borders::default(),
            font_size: None,
            background: None,
            background_intensity: None,
            col_ids: None,
            blocks: Vec::new(),
        }
    }
}

impl Default for Image {
    fn default() -> Self {
        Image {
            media: String::new(),
            caption: None,
            alt: None,
            width_percent: None,
            extent: None,
            align: Align::Left,
            indent: 0,
            // Captions are numbered unless the source says otherwise (sd.xml's default).
            numbered: true,
            id: None,
            style: None,
            origin_ids: None,
        }
    }
}

impl Default for Table {
    fn default() -> Self {
        Table {
            columns: Vec::new(),
            rows: Vec::new(),
            caption: None,
            numbered: true,
            width_percent: None,
            align: Align::Left,
            indent: 0,
            border_color: None,
            id: None,
            style: None,
            origin_ids: None,
            chart: None,
            dir: None,
        }
    }
}

impl Table {
    /// The number of grid columns: the widths given, or the widest row's span sum.
    pub fn grid_width(&self) -> usize {
        if !self.columns.is_empty() {
            return self.columns.len();
        }
        grid_positions(self)
            .iter()
            .map(|row| row.iter().map(|&(col, span)| col + span).max().unwrap_or(0))
            .max()
            .unwrap_or(0)
    }
}

/// For each row, `(first grid column, colspan)` of each of its cells, with the columns taken by
/// row spans from above skipped: the layout every writer and `validate()` agree on.
pub fn grid_positions(table: &Table) -> Vec<Vec<(usize, usize)>> {
    // `busy[c]` = how many more rows column c is covered by a rowspan from above.
    let mut busy: Vec<u32> = Vec::new();
    let mut out = Vec::with_capacity(table.rows.len());
    for row in &table.rows {
        let mut positions = Vec::with_capacity(row.cells.len());
        let mut col = 0usize;
        for cell in &row.cells {
            while busy.get(col).is_some_and(|&n| n > 0) {
                col += 1;
            }
            let span = cell.colspan.max(1) as usize;
            // Guard hostile spans: the grid never grows past what validate() accepts.
            let span = span.min(crate::limits::MAX_TABLE_COLUMNS);
            if busy.len() < col + span {
                busy.resize(col + span, 0);
            }
            for b in &mut busy[col..col + span] {
                *b = (*b).max(cell.rowspan.max(1));
            }
            positions.push((col, span));
            col += span;
        }
        for b in &mut busy {
            *b = b.saturating_sub(1);
        }
        out.push(positions);
    }
    out
}
