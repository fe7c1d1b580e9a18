//! Word (.docx) writer.
//!
//! A template ([`WordTemplates`]) supplies styles, the numbering look, page setup, header and
//! footer; the API's settings ([`PagedSettings`]) choose caption language, captions, tables of
//! contents and image compression. The body is written in the template's styles (`Heading 1`-`6`,
//! `List Paragraph`, `Caption`, `Normal`, the table style) so a reader maps it straight back.
//!
//! Why our own XML and not docx-rs: the template parts are hand-written XML used as they are
//! (docx-rs builds styles, numbering and settings from its own structs); several required
//! constructs (pre-filled TOC results, SEQ fields inside bookmarks, `REF` results, numbering
//! overrides chosen per item) would need raw XML anyway; docx-rs takes bookmark ids from a
//! process-wide counter, which breaks byte-for-byte determinism when a server exports in parallel;
//! and writing strings straight into the parts is several times faster than building its element
//! tree. The part writers here are small and each says which ECMA-376 rule it follows.
//!
//! Done: every block and inline node of the tree (see `document`, `runs`; the state they share
//! is `writer`'s), captions with `SEQ` fields (`captions`), pre-filled TOCs (`toc`), footnotes
//! and endnotes, comments, revisions, header/footer with page numbers, core properties,
//! compressed images (`paged::pictures`).
//! How a reader gets the tree back (the contract with `import::docx`):
//!
//! | Word | tree |
//! |---|---|
//! | `Title` / `Subtitle` paragraphs before the body (and `dc:title`/`dc:subject`) | `meta.title` / `meta.subtitle` |
//! | `Heading N`, with `w:numPr` on the definition named `sdconv outline` | `heading` / `heading-ol`, level N-1 |
//! | `Normal` with `w:numPr` on `sdconv outline` | `paragraph-ol` |
//! | `List Paragraph` with `w:numPr` (`sdconv bullets` / `sdconv ordered`, or `numFmt`) | `list-ul` / `list-ol`; a `w:num` with `startOverride` is a restart with that start; one `w:num` per list |
//! | `Caption` after an image paragraph / before a table (kept with it, `w:keepNext`) | its caption; `<label> SEQ …` + `": "` is the number (`numbered`), not text; an empty one, or one holding a comment's anchor, stays a paragraph |
//! | a chart paragraph (`c:chart`), a bookmark in it; an unnumbered `Caption` above it | a chart table (`chart`), its id; its caption (`numbered` off); a chart's title is a numbered caption |
//! | `w:numPr` on the outline definition, several `w:num`s in one block list | one outline sequence: `restart`/`start` where Word's number differs, no list ids |
//! | a list none of whose items draws a number (bullets, `none`), or an id the numbers do not need | no list id |
//! | bookmarks whose name does not start with `_` | block ids (the id is the name); a `_Toc…`/`_Ref…` bookmark is an id only when something refers to it |
//! | `REF id \r`, one space, `REF id` | one cross-reference showing number and text; `REF id \r` the number, `REF id` the text |
//! | `REF id` to a bookmark ending right after a `SEQ` field (a caption's label and number) | a cross-reference showing the number; a caption's text has no bookmark, so one showing it comes back showing the number |
//! | `word/media/<name>` | the media name (the tree's, made safe for a part name and unique) |
//! | `wp:extent` of a picture on its own line | `width_percent` of the text width; the extent itself only when the pixels' aspect ratio does not give it; neither when it is exactly the picture's natural size (1 px = 1/96 in, what a tree with no size is shown at) |
//! | `wp:docPr@descr` / `@title` of a picture in the text | its `alt` / `caption` |
//! | `w:tblGrid` twips | `columns`, each the shortest decimal within a twip |
//! | `TOC` fields | `directory` blocks (the settings' lists are placed by directory blocks or on top) |
//! | `w:ind/@w:left` ÷ 360 twips (`INDENT_STEP_TWIPS`) | `indent` |
//! | `w:tblW` of type `pct` (fiftieths of a percent); `auto` when the tree gives none | table `width_percent` |
//! | `w:tblBorders`, every side drawn in one colour (case kept) | table `border_color` |
//! | `w:trHeight` (twips, `atLeast`) | row `min_height`, read in points |
//! | `w:jc` all of a cell's paragraphs share (written even for left) | cell `align` |
//! | `w:sz` of all of a cell's paragraph marks (pictures', captions' and charts' too), every text run the same (field results too) | cell `font_size`, read in points |
//! | the empty paragraph ending a cell after a nested table (ECMA-376 §17.4.66) | nothing |
//! | `w:tcBorders` sides, `nil` for none | cell `borders` |
//! | `w:shd@w:fill` | cell `background` |
//! | `w:lang` in `w:docDefaults` (the slot of the language's script, and of its text's), `dc:language` | `meta.language` (the most common language of the body text) |
//! | `w:pPrDefault/w:bidi`; `w:bidi` on right-to-left paragraphs (`w:val="0"` on left-to-right ones in a right-to-left document) | `meta.direction`; paragraph `dir` where it differs |
//! | `w:lang` on a paragraph's runs and mark | paragraph `lang` where it differs from the document's |
//! | `w:rtl` (on runs of right-to-left letters in right-to-left paragraphs), `w:lang` on runs | `Inline::Lang` where a run differs from its paragraph (`langdir`) |
//! | `w:bidiVisual` | table `dir` |
//! | `w:autoHyphenation` in the settings | `meta.hyphenate` |
//!
//! Lengths come back rounded to Word's units (twips, half-points); `th` cells outside header
//! rows have no Word form (Word marks header rows only), nor does a cell alignment that none of
//! its paragraphs takes (see `tests/word_roundtrip_tree.rs`).
//!
//! Partly: sidenotes become footnotes; index marks become `XE` fields (the index tree is not
//! written) — each reported as a warning.

mod assemble;
mod captions;
mod chart;
mod document;
mod images;
mod lang_defaults;
mod langdir;
mod main_part;
mod numbering;
mod omml;
mod page_parts;
mod runs;
mod sdox;
mod tables;
mod template;
mod toc;
mod writer;

use std::sync::Arc;

pub use crate::export::paged::PagedSettings;
pub use crate::export::paged::pictures::ImageStats;
pub use sdox::{SdoxTemplate, sdox_catalog_json, sdox_sample, sdox_templates};
pub use template::{TemplateFiles, WordTemplate, WordTemplates};

use crate::archive::ZipWriter;
use crate::ast::Document;
use crate::error::Result;
use crate::limits::Limits;
use crate::report::Converted;

/// The template used when none is named.
pub const DEFAULT_TEMPLATE: &str = "report";

/// Options of the Word writer.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct WordOptions {
    /// Template id (`templateId`).
    pub template_id: String,
    /// The API's settings.
    pub settings: PagedSettings,
    /// Templates to choose from; `None` = [`WordTemplates::builtin`].
    pub templates: Option<Arc<WordTemplates>>,
    /// Limits (only `max_image_pixels` matters here: larger images are not decoded).
    pub limits: Limits,
}

impl Default for WordOptions {
    fn default() -> Self {
        WordOptions {
            template_id: DEFAULT_TEMPLATE.to_string(),
            settings: PagedSettings::default(),
            templates: None,
            limits: Limits::default(),
        }
    }
}

impl WordOptions {
    /// Options for template `template_id` with `settings`.
    pub fn new(template_id: impl Into<String>, settings: PagedSettings) -> Self {
        WordOptions {
            template_id: template_id.into(),
            settings,
            ..WordOptions::default()
        }
    }

    /// Uses `templates` (built-ins plus custom ones) instead of the built-ins.
    pub fn with_templates(mut self, templates: Arc<WordTemplates>) -> Self {
        self.templates = Some(templates);
        self
    }

    /// Sets the limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// A written document and what was done to its images.
#[derive(Debug, Clone)]
pub struct WordOutput {
    /// The .docx bytes.
    pub bytes: Vec<u8>,
    /// Image statistics (bytes saved by `compressedImages`).
    pub stats: ImageStats,
}

/// Writes `doc` as .docx. Errors: an unknown template or forbidden settings
/// ([`crate::Error::Parameter`]); everything else that cannot be carried over is a
/// warning.
pub fn write(doc: &Document, options: &WordOptions) -> Result<Converted<Vec<u8>>> {
    Ok(write_with_stats(doc, options)?.map(|o| o.bytes))
}

/// [`write()`], also returning the image statistics.
pub fn write_with_stats(doc: &Document, options: &WordOptions) -> Result<Converted<WordOutput>> {
    let written = write_into(doc, options, |document| {
        ZipWriter::with_room_for(doc.media.iter(), document)
    })?;
    Ok(written.map(|(sink, stats)| WordOutput {
        bytes: sink.into_inner(),
        stats,
    }))
}

/// [`write()`] straight into `sink` (the output file): the same bytes, never held in memory.
pub fn write_to<S: std::io::Write + std::io::Seek>(
    doc: &Document,
    options: &WordOptions,
    sink: S,
) -> Result<Converted<S>> {
    Ok(write_into(doc, options, |_| ZipWriter::on(sink))?.map(|(sink, _)| sink))
}

fn write_into<S: std::io::Write + std::io::Seek>(
    doc: &Document,
    options: &WordOptions,
    open: impl FnOnce(usize) -> ZipWriter<S>,
) -> Result<Converted<(S, ImageStats)>> {
    options.settings.validate()?;
    let templates: &WordTemplates = match &options.templates {
        Some(t) => t,
        None => WordTemplates::builtin(),
    };
    let template = templates.resolve(&options.template_id)?;
    assemble::write_package(doc, template, &options.settings, &options.limits, open)
}
