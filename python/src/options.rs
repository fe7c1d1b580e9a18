//! The options of a conversion, checked once when made (by the engine's own parsers, so a
//! Python caller gets the same messages as the CLI and the server) and then shared by any
//! number of conversions on any number of threads.

use pyo3::prelude::*;
use sdconv::export::files::ImageMode;
use sdconv::export::markdown::{MarkdownOptions, Tables};
use sdconv::export::pdf::{Paper, PdfOptions, PdfStandard};
use sdconv::export::word::{PagedSettings, WordTemplates};
use sdconv::import::docx::StyleMapping;
use sdconv::lang::Language;
use sdconv::{ExportOptions, Format, ImportOptions, TrackChanges};

use crate::{Failure, InvalidOption, UnsupportedFormat};

/// A format by name or alias (`docx`, `md`), or `UnsupportedFormat`.
fn format(name: &str) -> PyResult<Format> {
    Format::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        UnsupportedFormat::new_err(format!(
            "unknown format {name:?}; known: {}",
            known.join(", ")
        ))
    })
}

fn invalid(name: &str, message: impl std::fmt::Display) -> PyErr {
    InvalidOption::new_err(format!("invalid {name}: {message}"))
}

/// How a document is read.
#[pyclass(frozen, module = "sdconv._sdconv")]
pub struct ImportSpec {
    /// The input format; `None`: from the file name or the bytes.
    pub from: Option<Format>,
    /// The engine's options.
    pub options: ImportOptions,
}

#[pymethods]
impl ImportSpec {
    /// `style_mapping` is the API's styleMapping object as JSON text; `magic` one style set key
    /// or several joined by `|`; `routines` cleanup routine keys in order; `max_size` the most
    /// bytes a zip input may inflate to.
    #[new]
    #[pyo3(signature = (from_=None, style_mapping=None, magic=None, routines=None, max_size=None))]
    fn new(
        from_: Option<&str>,
        style_mapping: Option<&str>,
        magic: Option<String>,
        routines: Option<Vec<String>>,
        max_size: Option<u64>,
    ) -> PyResult<Self> {
        let mut options = ImportOptions::default();
        if let Some(json) = style_mapping {
            let mapping = StyleMapping::from_json(json).map_err(Failure::Engine)?;
            options.docx = options.docx.clone().with_style_mapping(mapping);
        }
        options.magic = magic;
        options.routines = routines.unwrap_or_default();
        if let Some(bytes) = max_size {
            options.limits = options.limits.clone().with_max_size(bytes);
        }
        Ok(ImportSpec {
            from: from_.map(format).transpose()?,
            options,
        })
    }
}

/// How a document is written.
#[pyclass(frozen, module = "sdconv._sdconv")]
pub struct ExportSpec {
    /// The output format.
    pub to: Format,
    /// What becomes of pictures in Markdown and HTML.
    pub images: ImageMode,
    /// The language of generated words (captions, directory titles).
    pub language: Option<Language>,
    /// The engine's options: tracked changes, comments and pictures kept or not, and every
    /// writer's own (Word, PDF, HTML, Markdown, parsX).
    pub export: ExportOptions,
}

#[pymethods]
impl ExportSpec {
    /// `settings` is the API's Word export settings object as JSON text (also for PDF);
    /// without it, image and table captions are shown, as the command line does. `comments`
    /// `None` is each format's default: kept, except in Markdown, which leaves them out unless
    /// asked. `tables`, `headers_footers` and `page_breaks` are the Markdown writer's;
    /// `paper`, `pdf_standard` (the CLI's `--pdf-standard` names) and `hyphenate` the PDF
    /// writer's.
    #[new]
    #[pyo3(signature = (to, images="files", language=None, settings=None, template=None,
                        track_changes="all", comments=None, paper="a4", tables="auto",
                        headers_footers=false, page_breaks=None, pdf_standard=None,
                        hyphenate=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        to: &str,
        images: &str,
        language: Option<&str>,
        settings: Option<&str>,
        template: Option<&str>,
        track_changes: &str,
        comments: Option<bool>,
        paper: &str,
        tables: &str,
        headers_footers: bool,
        page_breaks: Option<String>,
        pdf_standard: Option<&str>,
        hyphenate: bool,
    ) -> PyResult<Self> {
        let to = format(to)?;
        let images = ImageMode::parse(images).ok_or_else(|| {
            invalid(
                "images",
                format!("{images:?}; expected files, inline or omit"),
            )
        })?;
        let language = language
            .map(|code| {
                Language::parse(code).ok_or_else(|| {
                    invalid(
                        "language",
                        format!("{code:?}; expected de_DE, en_EN, ru_RU or fr_CA"),
                    )
                })
            })
            .transpose()?;
        let track_changes = TrackChanges::parse(track_changes).ok_or_else(|| {
            invalid(
                "track_changes",
                format!("{track_changes:?}; expected all, accept or reject"),
            )
        })?;
        let paper = match paper.to_ascii_lowercase().as_str() {
            "a4" => Paper::A4,
            "letter" => Paper::Letter,
            _ => {
                return Err(invalid(
                    "paper",
                    format!("{paper:?}; expected a4 or letter"),
                ));
            }
        };
        // The engine's parser: the CLI's names (`ua1`, `a2b+ua1`, …) and its message, which
        // lists them.
        let pdf_standard = pdf_standard
            .map(|name| {
                name.parse::<PdfStandard>()
                    .map_err(|message| invalid("pdf_standard", message))
            })
            .transpose()?
            .unwrap_or_default();
        let word_settings = match settings {
            Some(json) => {
                let mut s = PagedSettings::from_json(json).map_err(Failure::Engine)?;
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
        word_settings.validate().map_err(Failure::Engine)?;
        let mut export = ExportOptions::default();
        if let Some(id) = template {
            WordTemplates::builtin()
                .resolve(id)
                .map_err(Failure::Engine)?;
            export.word.template_id = id.to_string();
        }
        export.word.settings = word_settings;
        export.pdf = PdfOptions::new(word_settings)
            .with_paper(paper)
            .with_standard(pdf_standard)
            .with_hyphenation(hyphenate);
        export.html.language = language;
        export.parsx.language = language;
        let tables = Tables::parse(tables)
            .ok_or_else(|| invalid("tables", format!("{tables:?}; expected auto, html or gfm")))?;
        let mut markdown = MarkdownOptions::default()
            .with_tables(tables)
            .with_comments(comments.unwrap_or(false))
            .with_headers_footers(headers_footers);
        markdown.language = language;
        if let Some(line) = page_breaks {
            // One line: a marker with a line break in it would not be found again as one.
            if line.trim().is_empty() || line.contains(['\n', '\r']) {
                return Err(invalid("page_breaks", "expected one non-empty line"));
            }
            markdown = markdown.with_page_breaks(line);
        }
        export.markdown = markdown;
        export.track_changes = track_changes;
        export.comments = comments.unwrap_or(true);
        export.images = images != ImageMode::Omit;
        Ok(ExportSpec {
            to,
            images,
            language,
            export,
        })
    }

    /// The output format's name.
    #[getter]
    fn to(&self) -> &'static str {
        self.to.name()
    }
}
