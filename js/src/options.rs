//! The options of a conversion as JavaScript passes them (one object, sent as JSON text), checked
//! by the engine's own parsers so that a JavaScript caller gets the messages the CLI, the server
//! and the Python package give. Names are the Python package's, in camelCase.

use sdconv::export::files::ImageMode;
use sdconv::export::html::mammoth::MammothOptions;
use sdconv::export::markdown::{MarkdownOptions, Tables};
use sdconv::export::pdf::{Paper, PdfOptions};
use sdconv::export::word::{PagedSettings, WordTemplates};
use sdconv::import::docx::StyleMapping;
use sdconv::lang::Language;
use sdconv::{ExportOptions, Format, ImportOptions, TrackChanges};
use serde::Deserialize;

use crate::convert::Failure;

/// The options object of `convert()` as JSON (the JavaScript side drops what JSON cannot carry:
/// the image callback, the input itself). An unknown key is an error, so that a misspelt option
/// fails instead of being silently ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RawOptions {
    /// The input format; default: from the file name, else the bytes.
    from: Option<String>,
    /// The API's styleMapping object (Word input).
    style_mapping: Option<serde_json::Value>,
    /// Style set key(s), `|`-joined (Word input).
    magic: Option<String>,
    /// Cleanup routine keys, in order: a list, or one comma-separated string.
    routines: Option<Routines>,
    /// The most bytes a zip input may inflate to.
    max_size: Option<u64>,
    /// `files`, `inline` or `omit` (the callback form is `files` here: the JavaScript side calls
    /// the callback and then [`crate::images::rewrite`]).
    images: Option<String>,
    /// `de_DE`, `en_EN`, `ru_RU` or `fr_CA`.
    language: Option<String>,
    /// The API's Word export settings object (Word and PDF output).
    settings: Option<serde_json::Value>,
    /// Alias of `settings` (the Python package takes both names).
    word_settings: Option<serde_json::Value>,
    /// A Word template id.
    template: Option<String>,
    /// `all`, `accept` or `reject`.
    track_changes: Option<String>,
    /// Whether comments are kept (Markdown: written as footnotes); default per format.
    comments: Option<bool>,
    /// `a4` or `letter` (PDF).
    paper: Option<String>,
    /// `auto`, `html` or `gfm` (Markdown).
    tables: Option<String>,
    /// The page header before the text and the footer after it (Markdown).
    headers_footers: Option<bool>,
    /// The line written for a page break (Markdown).
    page_breaks: Option<String>,
    /// HTML: mammoth's fragment instead of a page (sdconv/mammoth, js/mammoth.js).
    mammoth: Option<RawMammoth>,
}

/// The options of the engine's mammoth flavor, as js/mammoth.js sends them.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawMammoth {
    /// mammoth's style map, one rule a line.
    #[serde(default)]
    style_map: Vec<String>,
    include_default_style_map: Option<bool>,
    ignore_empty_paragraphs: Option<bool>,
    id_prefix: Option<String>,
    headers_footers: Option<bool>,
    /// `extractRawText`'s text instead of the fragment.
    raw_text: Option<bool>,
}

impl RawMammoth {
    /// The engine's options: each unset one the engine's default (mammoth's).
    fn options(&self) -> MammothOptions {
        let defaults = MammothOptions::default();
        let mut options = MammothOptions::default()
            .with_default_style_map(
                self.include_default_style_map
                    .unwrap_or(defaults.include_default_style_map),
            )
            .with_ignore_empty_paragraphs(
                self.ignore_empty_paragraphs
                    .unwrap_or(defaults.ignore_empty_paragraphs),
            )
            .with_id_prefix(self.id_prefix.clone().unwrap_or_default())
            .with_headers_footers(self.headers_footers.unwrap_or(defaults.headers_footers))
            .with_raw_text(self.raw_text.unwrap_or(defaults.raw_text));
        options.style_map = self.style_map.clone();
        options
    }
}

/// Routines as a list or as the CLI's comma-separated string.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Routines {
    List(Vec<String>),
    Joined(String),
}

/// How a document is read.
#[derive(Debug)]
pub struct ImportSpec {
    /// The input format; `None`: from the file name or the bytes.
    pub from: Option<Format>,
    /// The engine's options.
    pub options: ImportOptions,
}

/// How a document is written.
#[derive(Debug)]
pub struct ExportSpec {
    /// The output format.
    pub to: Format,
    /// What becomes of pictures in Markdown and HTML.
    pub images: ImageMode,
    /// The engine's options (Word, PDF, HTML, Markdown; tracked changes, comments, pictures
    /// left out).
    pub export: ExportOptions,
}

fn invalid(name: &str, message: impl std::fmt::Display) -> Failure {
    Failure::Option(format!("invalid {name}: {message}"))
}

/// The value of a named choice (`images`, `trackChanges`, …): `default` when unset, else what
/// `parse` makes of it, else an error listing the `expected` values.
fn choice<T>(
    value: Option<&str>,
    name: &str,
    parse: impl Fn(&str) -> Option<T>,
    default: T,
    expected: &str,
) -> Result<T, Failure> {
    match value {
        None => Ok(default),
        Some(text) => {
            parse(text).ok_or_else(|| invalid(name, format!("{text:?}; expected {expected}")))
        }
    }
}

/// A format by name or alias (`docx`, `md`).
pub fn format(name: &str) -> Result<Format, Failure> {
    Format::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        Failure::UnknownFormat(format!(
            "unknown format {name:?}; known: {}",
            known.join(", ")
        ))
    })
}

impl RawOptions {
    /// Parses the options object's JSON text; empty text is no options.
    pub fn parse(json: &str) -> Result<RawOptions, Failure> {
        if json.trim().is_empty() {
            return Ok(RawOptions::default());
        }
        serde_json::from_str(json).map_err(|e| Failure::Option(format!("options: {e}")))
    }

    /// The reading half.
    pub fn import_spec(&self) -> Result<ImportSpec, Failure> {
        let mut options = ImportOptions::default();
        if let Some(mapping) = &self.style_mapping {
            let mapping = StyleMapping::from_json(&mapping.to_string())?;
            options.docx = options.docx.clone().with_style_mapping(mapping);
        }
        if self.mammoth.is_some() {
            // The mammoth flavor matches Word's own style names and ids, which the reader
            // keeps only when asked (as the command line does for its mammoth flavor).
            options.docx = options.docx.clone().with_word_refs(true);
        }
        options.magic = self.magic.clone();
        options.routines = match &self.routines {
            None => Vec::new(),
            Some(Routines::List(list)) => list.clone(),
            Some(Routines::Joined(text)) => text
                .split(',')
                .filter(|r| !r.is_empty())
                .map(str::to_owned)
                .collect(),
        };
        if let Some(bytes) = self.max_size {
            options.limits = options.limits.clone().with_max_size(bytes);
        }
        Ok(ImportSpec {
            from: self.from.as_deref().map(format).transpose()?,
            options,
        })
    }

    /// The writing half, for output format `to`. Without `settings`, image and table captions
    /// are shown, as the command line does; `comments` unset keeps them, except in Markdown.
    pub fn export_spec(&self, to: &str) -> Result<ExportSpec, Failure> {
        let to = format(to)?;
        let images = choice(
            self.images.as_deref(),
            "images",
            ImageMode::parse,
            ImageMode::Files,
            "files, inline, omit or a function",
        )?;
        let language = choice(
            self.language.as_deref(),
            "language",
            |code| Language::parse(code).map(Some),
            None,
            "de_DE, en_EN, ru_RU or fr_CA",
        )?;
        let track_changes = choice(
            self.track_changes.as_deref(),
            "trackChanges",
            TrackChanges::parse,
            TrackChanges::All,
            "all, accept or reject",
        )?;
        let paper = choice(
            self.paper.as_deref(),
            "paper",
            |p| match p.to_ascii_lowercase().as_str() {
                "a4" => Some(Paper::A4),
                "letter" => Some(Paper::Letter),
                _ => None,
            },
            Paper::A4,
            "a4 or letter",
        )?;
        if self.settings.is_some() && self.word_settings.is_some() {
            return Err(Failure::Option(
                "pass settings or wordSettings, not both".to_string(),
            ));
        }
        let word_settings = match self.settings.as_ref().or(self.word_settings.as_ref()) {
            Some(json) => {
                let mut s = PagedSettings::from_json(&json.to_string())?;
                if let Some(language) = language {
                    s.language = language;
                }
                s
            }
            // As the CLI without settings: the document keeps its captions.
            None => PagedSettings::new(language.unwrap_or_default())
                .with_image_caption(true)
                .with_table_caption(true),
        };
        word_settings.validate()?;
        let mut export = ExportOptions::default();
        if let Some(id) = &self.template {
            WordTemplates::builtin().resolve(id)?;
            export.word.template_id = id.clone();
        }
        export.word.settings = word_settings;
        export.pdf = PdfOptions::new(word_settings).with_paper(paper);
        export.html.language = language;
        export.html.mammoth = self.mammoth.as_ref().map(RawMammoth::options);
        let tables = choice(
            self.tables.as_deref(),
            "tables",
            Tables::parse,
            Tables::default(),
            "auto, html or gfm",
        )?;
        let mut markdown = MarkdownOptions::default()
            .with_tables(tables)
            .with_comments(self.comments.unwrap_or(false))
            .with_headers_footers(self.headers_footers.unwrap_or(false));
        markdown.language = language;
        if let Some(line) = &self.page_breaks {
            // One line: a marker with a line break in it would not be found again as one.
            if line.trim().is_empty() || line.contains(['\n', '\r']) {
                return Err(invalid("pageBreaks", "expected one non-empty line"));
            }
            markdown = markdown.with_page_breaks(line.clone());
        }
        export.markdown = markdown;
        export.track_changes = track_changes;
        export.comments = self.comments.unwrap_or(true);
        export.images = images != ImageMode::Omit;
        Ok(ExportSpec { to, images, export })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_values_are_option_errors() {
        assert!(matches!(
            RawOptions::parse(r#"{"imgaes":"inline"}"#),
            Err(Failure::Option(m)) if m.contains("imgaes")
        ));
        let opts = RawOptions::parse(r#"{"trackChanges":"maybe"}"#).unwrap();
        assert!(matches!(opts.export_spec("html"), Err(Failure::Option(_))));
        let opts = RawOptions::parse(r#"{"routines":"no-such-routine"}"#).unwrap();
        // Routine keys are checked by the engine when it reads.
        assert_eq!(
            opts.import_spec().unwrap().options.routines,
            ["no-such-routine"]
        );
        assert!(matches!(
            RawOptions::default().export_spec("docs"),
            Err(Failure::UnknownFormat(_))
        ));
    }

    #[test]
    fn markdown_leaves_comments_out_unless_asked() {
        let spec = RawOptions::default().export_spec("md").unwrap();
        assert!(!spec.export.markdown.comments);
        assert!(spec.export.comments);
        let spec = RawOptions::parse(r#"{"comments":true,"pageBreaks":"<!-- pb -->"}"#)
            .unwrap()
            .export_spec("markdown")
            .unwrap();
        assert!(spec.export.markdown.comments);
        assert_eq!(
            spec.export.markdown.page_breaks.as_deref(),
            Some("<!-- pb -->")
        );
    }
}
