//! The document tree every reader builds and every writer consumes.
//!
//! It mirrors the service's own model: a **flat** list of [`Block`]s (no section nesting; a
//! heading is a paragraph whose [`TextType`] says so), [`Inline`] content in canonical form (see
//! [`inline`]), document [`Meta`]data, and a [`MediaStore`] holding every image once.
//!
//! The tree serialises to JSON (`serde`) with a [`FORMAT_VERSION`]; that dump is the golden format
//! of the reader tests and the CLI's `--to json`. [`Document::validate`] checks the invariants a
//! writer relies on.

pub mod block;
pub mod changes;
pub mod chart;
pub mod footprint;
pub mod inline;
pub mod length;
pub mod links;
pub mod math;
pub mod media;
pub mod numbering;
pub mod pages;
pub mod repeats;
mod validate;
mod walk;

/// Formulas in TeX notation, as the Markdown reader and writer use them: [`math_tex::write`]
/// and [`math_tex::parse`]. The code lives beside its users, outside the tree; this path stays
/// for the library's callers.
pub mod math_tex {
    pub use crate::math_tex::{TexError, parse, write};
}

/// Excel number format codes as charts show their values: [`number_format::format`] and the
/// way back, [`number_format::parse`]. The code lives beside the charts' readers and writers,
/// outside the tree; this path stays for the library's callers.
pub mod number_format {
    pub use crate::number_format::{Shown, format, general, parse};
}

use serde::{Deserialize, Serialize};

pub use block::{
    Align, Block, Borders, Cell, Direction, DirectoryKind, Extent, Image, NumberFormat, Paragraph,
    Row, Table, TextType, VAlign, grid_positions,
};
pub use inline::{Change, ChangeKind, Inline, LangKey, Mark, NoteKind, TextStyle};
pub use math::MathNode;
pub use media::{MediaError, MediaItem, MediaKind, MediaStore};
pub use pages::{OnePage, PagePiece, PageSection, PageText, Pages, Slots};
pub use validate::{Violation, is_code_language};
pub use walk::BlockPath;
pub(crate) use walk::{paragraphs_in, union};

/// Version of the JSON form; bumped when a field changes meaning or disappears.
pub const FORMAT_VERSION: u32 = 1;

/// Highest paragraph `level` (the API's 0..=5).
pub const MAX_LEVEL: u8 = 5;
/// Highest `indent` (sd.xml's 0..=15).
pub const MAX_INDENT: u8 = 15;

/// A whole document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// [`FORMAT_VERSION`] of the JSON this came from or goes to.
    pub format_version: u32,
    /// Title, language, footer, …
    pub meta: Meta,
    /// The body, top to bottom.
    pub blocks: Vec<Block>,
    /// Comment texts; their ranges are marked by [`Inline::CommentStart`]/[`Inline::CommentEnd`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<Comment>,
    /// The index tree (sd.xml `indexes`), referred to by [`Inline::IndexMark`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<IndexNode>,
    /// Every image, by name.
    #[serde(default)]
    pub media: MediaStore,
}

impl Default for Document {
    fn default() -> Self {
        Document {
            format_version: FORMAT_VERSION,
            meta: Meta::default(),
            blocks: Vec::new(),
            comments: Vec::new(),
            indexes: Vec::new(),
            media: MediaStore::new(),
        }
    }
}

impl Document {
    /// An empty document.
    pub fn new() -> Self {
        Self::default()
    }

    /// The JSON dump, pretty-printed (the golden-file format).
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Whether any paragraph (cells included) says a language of its own.
    pub fn has_paragraph_lang(&self) -> bool {
        let mut any = false;
        self.walk_blocks(&mut |_, b| {
            any |= matches!(b, Block::Paragraph(p) if p.lang.is_some());
        });
        any
    }

    /// Whether any paragraph or table (cells included) says a language or direction of its own:
    /// what a writer without such attributes reports once.
    pub fn has_block_lang_dir(&self) -> bool {
        let mut any = false;
        self.walk_blocks(&mut |_, b| {
            any |= match b {
                Block::Paragraph(p) => p.lang.is_some() || p.dir.is_some(),
                Block::Table(t) => t.dir.is_some(),
                _ => false,
            }
        });
        any
    }

    /// Reads a JSON dump. Media come back without bytes (see [`MediaItem`]).
    pub fn from_json(json: &str) -> Result<Document, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// Document metadata: the API's creation payload fields plus what sd.xml's `meta` holds.
/// Empty strings are stored as `None`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Meta {
    /// The service's document id (`smashdoc@id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Version of the program that wrote the source (`smashdoc@version`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// Title (API: max 200 chars).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Subtitle (max 300).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtitle: Option<String>,
    /// Description (max 400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// File name (max 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// Footer text, shown at the bottom of exported pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footer: Option<String>,
    /// Page headers and footers per section, as Word has them (`footer` is the service's
    /// one-line footer).
    #[serde(default, skip_serializing_if = "Pages::is_empty")]
    pub pages: Pages,
    /// Tags.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Partner data, stored and returned, never evaluated (max 400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplemental: Option<String>,
    /// Language code as the source wrote it (`de_DE`, `en_EN`, `ru_RU`, `fr_CA`, `ar-SA`, …);
    /// [`Meta::lang_tag`] gives its BCP 47 form. Paragraphs and runs in another language say so
    /// themselves ([`Paragraph::lang`], [`Inline::Lang`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The document's base direction; `None` is left to right. Paragraphs and tables of the
    /// other direction say so themselves ([`Paragraph::dir`], [`Table::dir`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    /// Words may be hyphenated automatically (Word `w:autoHyphenation`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hyphenate: bool,
    /// Creator's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// Word export defaults stored with the document (sd.xml `word-export-presets`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub word_export_presets: Option<WordExportPresets>,
    /// sd.xml `grid/item` values, as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grid: Vec<String>,
    /// sd.xml `grid-indentation-enabled`, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid_indentation_enabled: Option<String>,
    /// sd.xml `spellcheck-lang`, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spellcheck_lang: Option<String>,
    /// Word's own names for things, kept only when the Word reader is asked to
    /// ([`crate::import::docx::DocxImportOptions::word_refs`]): what a mammoth style map
    /// matches paragraphs and runs by, and the ids mammoth's note links carry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub word: Option<WordRefs>,
}

/// Word's style ids and names, and its note ids, as a Word file has them. With them kept, every
/// paragraph's [`Paragraph::style`] holds its Word style's name and every run in a character
/// style is an [`Inline::Span`] of that style's name, so the ids can be looked up here.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WordRefs {
    /// The paragraph and character styles of `styles.xml`, ordered by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub styles: Vec<WordStyle>,
    /// The `w:id` of each footnote and endnote reference of the body, in reading order (the
    /// notes of the tree in the same order).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub note_ids: Vec<String>,
    /// Bookmarks that stand between two paragraphs rather than inside one (pandoc writes them
    /// so); the tree gives them to the next block as its id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside_bookmarks: Vec<String>,
}

impl WordRefs {
    /// The id of the style of `kind` named `name` (Word's names are unique per kind); `None`
    /// for a name `styles.xml` does not define.
    pub fn style_id(&self, name: &str, kind: WordStyleKind) -> Option<&str> {
        self.styles
            .iter()
            .find(|s| s.kind == kind && s.name == name)
            .map(|s| s.id.as_str())
    }
}

/// Which kind of Word style (`w:style@w:type`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum WordStyleKind {
    /// A paragraph style.
    #[default]
    Paragraph,
    /// A character (run) style.
    Character,
    /// A table style.
    Table,
}

/// One Word style: `w:style@w:styleId` and `w:name` (the id when it has none).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WordStyle {
    /// Paragraph, character or table style.
    #[serde(default)]
    pub kind: WordStyleKind,
    /// `w:styleId`.
    pub id: String,
    /// `w:name`.
    pub name: String,
}

impl Meta {
    /// The document's language as a BCP 47 tag (`de_DE` → `de-DE`, `ar-SA` stays, the API's
    /// `en_EN` → `en`), for HTML `lang`, Word `w:lang` and PDF `/Lang`. `None` when the document
    /// names no language or names it in a form that is no tag.
    pub fn lang_tag(&self) -> Option<String> {
        self.language
            .as_deref()
            .and_then(crate::lang_tag::normalize)
    }

    /// Whether the document reads right to left.
    pub fn is_rtl(&self) -> bool {
        self.direction == Some(Direction::Rtl)
    }
}

/// Word export settings stored in a document (sd.xml `word-export-presets`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WordExportPresets {
    /// Word template id.
    pub template_id: String,
    /// Caption language.
    pub language: String,
    /// Table of contents.
    pub toc_text: bool,
    /// List of figures.
    pub toc_image: bool,
    /// List of tables.
    pub toc_table: bool,
    /// Image captions.
    pub caption_image: bool,
    /// Table captions.
    pub caption_table: bool,
    /// Tags listed inside the presets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// A comment on a range of text.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Comment {
    /// Id used by the range anchors.
    pub id: String,
    /// Author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Author's initials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initials: Option<String>,
    /// Date as written by the source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The comment text; paragraphs joined by line breaks.
    #[serde(default)]
    pub content: Vec<Inline>,
}

/// A node of the index tree (sd.xml `index-node`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct IndexNode {
    /// Node id, referred to by [`Inline::IndexMark`].
    pub id: String,
    /// Entry title.
    pub title: String,
    /// Referenced block or node id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Sorting key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sorting_key: Option<String>,
    /// Sub-entries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<IndexNode>,
}
