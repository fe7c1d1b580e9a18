//! # sdconv
//!
//! A document conversion engine: Word (.docx), the service's sd.xml zip and Markdown in;
//! sd.xml, parsX, HTML, single-file HTML, Word, PDF and Markdown out — through one shared
//! document tree ([`ast::Document`]).
//!
//! ```text
//! bytes ──► import ──► ast::Document ──► cleanup ──► export ──► bytes
//! ```
//!
//! The library never touches the file system: readers take bytes, writers return bytes, and both
//! report what they could not carry over as warnings in a [`Converted`] value. Every reader takes
//! arbitrary bytes and answers with a typed [`Error`] or a tree, never a panic.
//!
//! ```
//! use sdconv::{ExportOptions, Format, ImportOptions};
//!
//! let json = br#"{"format_version":1,"meta":{"title":"Hi"},"blocks":[]}"#;
//! let doc = sdconv::import(Format::Json, json, &ImportOptions::default())?.value;
//! assert_eq!(doc.meta.title.as_deref(), Some("Hi"));
//! let out = sdconv::export(&doc, Format::Json, &ExportOptions::default())?;
//! assert!(out.value.starts_with(b"{"));
//! # Ok::<(), sdconv::Error>(())
//! ```

#![deny(missing_docs)]

pub mod ast;
pub mod cleanup;
pub mod export;
pub mod fonts;
pub mod import;
pub mod lang;
pub mod lang_tag;
pub mod magic;

mod archive;
mod byte_scan;
mod deflate;
mod error;
mod format;
mod limits;
mod math_tex;
mod metafile;
mod number_format;
mod ooxml;
mod picture;
mod pixels;
mod report;
mod room;
mod sample;
mod sdxml_ext;
mod sniff;
mod xml;

#[doc(hidden)]
pub mod internal;

pub use ast::Document;
pub use ast::changes::TrackChanges;
pub use error::{Error, ErrorKind, Result};
pub use format::Format;
pub use limits::Limits;
pub use report::{Converted, Location, Report, Warning, WarningKind};
pub use sniff::{Undetected, Unreadable};

/// Options for [`import()`], shared by every reader.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ImportOptions {
    /// Input limits.
    pub limits: Limits,
    /// Word reader options (style mapping, caller metadata).
    pub docx: import::docx::DocxImportOptions,
    /// The API's `styleSetKey` for a magic import (`isMagicImport`): one key of
    /// [`magic::catalog_json`], or several joined by `|`. Word input only; a `styleMapping` is
    /// then ignored with a warning.
    pub magic: Option<String>,
    /// The API's `routines`: cleanup routine keys of [`cleanup::catalog_json`], applied in this
    /// order after reading, for any input.
    pub routines: Vec<String>,
}

/// Options for [`export()`], shared by every writer.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ExportOptions {
    /// What every writer shows of tracked changes: marked (the default), accepted or rejected.
    pub track_changes: TrackChanges,
    /// Whether comments (and the marks of their ranges) are written; `true` by default.
    pub comments: bool,
    /// Whether pictures are written; `true` by default. `false` takes every picture out of the
    /// tree before any writer sees it (image blocks, in table cells too, and pictures in text,
    /// notes and comments), in every format: text for a search index or a language model.
    pub images: bool,
    /// Options of the sd.xml writer.
    pub sdxml: export::sdxml::SdxmlExportOptions,
    /// Options of the `html` and `html_all_in_one` writers.
    pub html: export::html::HtmlOptions,
    /// Options of the Word writer (template, the API's settings).
    pub word: export::word::WordOptions,
    /// Options of the Markdown writer (tables, comments, page furniture, page-break marker).
    pub markdown: export::markdown::MarkdownOptions,
    /// Options of the parsX writer: the language of `xml:lang` and of the figure and table
    /// words in cross-reference texts (the document's own when not set).
    pub parsx: export::parsx::ParsxOptions,
    /// Options of the PDF writer (the Word settings apply to it too).
    #[cfg(feature = "pdf")]
    pub pdf: export::pdf::PdfOptions,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            track_changes: TrackChanges::All,
            comments: true,
            images: true,
            sdxml: Default::default(),
            html: Default::default(),
            word: Default::default(),
            markdown: Default::default(),
            parsx: Default::default(),
            #[cfg(feature = "pdf")]
            pdf: Default::default(),
        }
    }
}

impl ExportOptions {
    /// The tree as these options show it, and the options that write that tree as it is.
    ///
    /// [`export()`] does this itself; a caller that hands a tree to a writer directly (the
    /// Markdown and HTML writers, for their pictures as separate files; a page rendered for a
    /// browser) calls it to show the document exactly as [`export()`] would. The tree is `doc`
    /// itself when these options change nothing, else a copy with the tracked changes accepted
    /// or rejected ([`ExportOptions::track_changes`]), then the comments
    /// ([`ExportOptions::comments`]) and the pictures ([`ExportOptions::images`]) left out. The
    /// options returned are these with `track_changes` [`TrackChanges::All`], `comments` and
    /// `images` `true` (every writer's own options kept): passed to [`export()`] with the
    /// prepared tree they write it unchanged, so no step is done twice.
    ///
    /// ```
    /// use sdconv::{ExportOptions, Format, TrackChanges};
    ///
    /// let json = br#"{"format_version":1,"meta":{},"blocks":[]}"#;
    /// let doc = sdconv::import(Format::Json, json, &Default::default())?.value;
    /// let mut options = ExportOptions::default();
    /// options.track_changes = TrackChanges::Accept;
    /// options.images = false;
    /// let (tree, plain) = options.prepare(&doc);
    /// let page = sdconv::export::html::write_all_in_one(&tree, &plain.html);
    /// assert_eq!(plain.track_changes, TrackChanges::All);
    /// # let _ = page;
    /// # Ok::<(), sdconv::Error>(())
    /// ```
    pub fn prepare<'d>(
        &self,
        doc: &'d Document,
    ) -> (std::borrow::Cow<'d, Document>, ExportOptions) {
        (self.prepared(doc), self.settled())
    }

    /// [`ExportOptions::prepare`] for a tree the caller owns and no longer needs as it was:
    /// settled in place, without the copy.
    pub fn prepare_owned(&self, mut doc: Document) -> (Document, ExportOptions) {
        self.settle(&mut doc);
        (doc, self.settled())
    }

    /// The tree the writers see ([`ExportOptions::prepare`]'s first half).
    fn prepared<'d>(&self, doc: &'d Document) -> std::borrow::Cow<'d, Document> {
        if self.track_changes == TrackChanges::All && self.comments && self.images {
            return std::borrow::Cow::Borrowed(doc);
        }
        let mut doc = doc.clone();
        self.settle(&mut doc);
        std::borrow::Cow::Owned(doc)
    }

    /// Applies these options' tracked changes, comments and pictures to `doc`.
    fn settle(&self, doc: &mut Document) {
        ast::changes::resolve_changes(doc, self.track_changes);
        if !self.comments {
            ast::changes::drop_comments(doc);
        }
        if !self.images {
            doc.remove_images(|_| true);
        }
    }

    /// These options for a tree they were applied to already: the writers' own options kept.
    fn settled(&self) -> ExportOptions {
        ExportOptions {
            track_changes: TrackChanges::All,
            comments: true,
            images: true,
            ..self.clone()
        }
    }
}

/// Reads `bytes` in `format` into a tree.
pub fn import(
    format: Format,
    bytes: &[u8],
    options: &ImportOptions,
) -> Result<Converted<Document>> {
    import_source(
        format,
        archive::Source::Borrowed(bytes),
        options,
        &mut |_| None,
    )
}

/// Reads `bytes` in `format` into a tree like [`import()`], keeping a share of them: the pictures
/// of a Word or sd.xml zip then stay deflated inside these bytes, with no copy, until something
/// needs them (a writer producing a zip copies them as they are).
pub fn import_shared(
    format: Format,
    bytes: bytes::Bytes,
    options: &ImportOptions,
) -> Result<Converted<Document>> {
    import_source(format, archive::Source::Shared(bytes), options, &mut |_| {
        None
    })
}

/// [`import_shared`] for a caller that can fetch the pictures a text format names by reference
/// (Markdown's `![](a.png)`): `images` gets each reference and returns its bytes, or `None` for
/// a picture that cannot be had (a warning then). The library itself never touches the file
/// system, so [`import()`] fetches none; the CLI reads them from beside its input.
pub fn import_with(
    format: Format,
    bytes: bytes::Bytes,
    options: &ImportOptions,
    images: &mut dyn FnMut(&str) -> Option<bytes::Bytes>,
) -> Result<Converted<Document>> {
    import_source(format, archive::Source::Shared(bytes), options, images)
}

/// The import pipeline: the reader, the style sets (Word), unsafe links dropped, the routines.
fn import_source(
    format: Format,
    bytes: archive::Source<'_>,
    options: &ImportOptions,
    images: &mut dyn FnMut(&str) -> Option<bytes::Bytes>,
) -> Result<Converted<Document>> {
    // Bad keys are the caller's error (`Error::Parameter`) before any work is done.
    if let Some(key) = &options.magic {
        magic::resolve(key)?;
    }
    cleanup::resolve(&options.routines)?;
    let mut report = Report::new();
    // Style sets recognise Word numbering; other formats carry their structure already.
    let magic = options.magic.as_ref().filter(|_| format == Format::Word);
    if let (Some(key), None) = (&options.magic, magic) {
        report.warn(
            WarningKind::InvalidValue,
            format!("magic import ({key:?}) applies to Word input only; ignored for {format}"),
            Location::default(),
        );
    }
    let mut doc = if let Some(key) = magic {
        if !options.docx.style_mapping.is_empty() {
            report.warn(
                WarningKind::InvalidValue,
                format!("styleMapping ignored: magic import with style set {key:?}"),
                Location::default(),
            );
        }
        let docx = options
            .docx
            .clone()
            .with_style_mapping(import::docx::StyleMapping::new());
        // The sets read Word's own numbering: the list ids, starts and restarts Word gives,
        // and how it draws each level. The lists take the tree's canonical form after them.
        let mut read = take(
            import::docx::read_with_looks(bytes, &docx, &options.limits)?,
            &mut report,
        );
        magic::apply_with_looks(&mut read.doc, key, &read.looks, &mut report)?;
        read.into_document()
    } else {
        take(read(format, bytes, options, images)?, &mut report)
    };
    ast::links::drop_unsafe_links(&mut doc, &mut report);
    // The Word reader bounds its links' copies itself.
    ast::repeats::bound_repeats(&mut doc, format != Format::Word, &mut report);
    if !options.routines.is_empty() {
        cleanup::apply(&mut doc, &options.routines, &options.limits, &mut report)?;
    }
    Ok(report.finish(doc))
}

/// The value of a stage's result; its warnings go to `report`.
fn take<T>(converted: Converted<T>, report: &mut Report) -> T {
    for w in converted.warnings {
        report.push(w);
    }
    converted.value
}

fn read(
    format: Format,
    source: archive::Source<'_>,
    options: &ImportOptions,
    images: &mut dyn FnMut(&str) -> Option<bytes::Bytes>,
) -> Result<Converted<Document>> {
    let bytes: &[u8] = source.as_ref();
    match format {
        Format::Json => import::json::read(bytes),
        Format::Markdown => import::markdown::read(
            bytes,
            &import::markdown::MarkdownImportOptions::default().with_limits(options.limits.clone()),
            images,
        ),
        Format::Sdxml => import::sdxml::read_source(
            source.clone(),
            &import::sdxml::SdxmlImportOptions {
                limits: options.limits.clone(),
            },
        ),
        Format::Word => import::docx::read_source(source.clone(), &options.docx, &options.limits),
        other => Err(Error::Unavailable(format!("{other} (import)"))),
    }
}

/// Reads `bytes` in `from` and writes the tree in `to`: [`import()`] then [`export()`], the
/// warnings of both in order.
pub fn convert(
    bytes: &[u8],
    from: Format,
    to: Format,
    import_options: &ImportOptions,
    export_options: &ExportOptions,
) -> Result<Converted<Vec<u8>>> {
    // The single-file page needs every picture's bytes: the Word reader inflates them on its
    // picture thread while it builds the tree, instead of the writer after it (other readers
    // do not look at the option).
    let read = if to.inlines_pictures() {
        let mut options = import_options.clone();
        options.docx = options.docx.with_inflate_pictures(true);
        import(from, bytes, &options)?
    } else {
        import(from, bytes, import_options)?
    };
    let written = export(&read.value, to, export_options)?;
    let mut warnings = read.warnings;
    warnings.extend(written.warnings);
    Ok(Converted {
        value: written.value,
        warnings,
    })
}

/// Writes `doc` in `format`.
pub fn export(
    doc: &Document,
    format: Format,
    options: &ExportOptions,
) -> Result<Converted<Vec<u8>>> {
    let doc = &*options.prepared(doc);
    match format {
        Format::Json => Ok(Converted::clean(doc.to_json().into_bytes())),
        Format::Sdxml => export::sdxml::write(doc, &options.sdxml),
        // The API's download form: a zip of the page, its stylesheet and images/.
        Format::Html => export::html::write_zip(doc, &options.html),
        Format::HtmlAllInOne => {
            Ok(export::html::write_all_in_one(doc, &options.html).map(String::into_bytes))
        }
        Format::Parsx => export::parsx::write(doc, &options.parsx),
        // Only the text: image files need a caller that can write next to it.
        Format::Markdown => {
            Ok(export::markdown::write(doc, &options.markdown).map(|o| o.text.into_bytes()))
        }
        Format::Word => export::word::write(doc, &options.word),
        #[cfg(feature = "pdf")]
        Format::Pdf => export::pdf::write(doc, &options.pdf),
        #[cfg_attr(feature = "pdf", allow(unreachable_patterns))]
        other => Err(Error::Unavailable(format!("{other} (export)"))),
    }
}

/// [`export()`] straight into `sink` (an output file): the same bytes. The zip formats (sd.xml,
/// parsX, Word, the HTML download) write each entry as it is ready, so the archive is never
/// held in memory and a picture kept deflated goes from its source into the sink in one copy;
/// the single-file page writes its pictures' base64 into the sink, not into the page first;
/// the others write their bytes once made.
pub fn export_to<W: std::io::Write + std::io::Seek>(
    doc: &Document,
    format: Format,
    options: &ExportOptions,
    mut sink: W,
) -> Result<Converted<W>> {
    let (prepared, plain) = options.prepare(doc);
    let doc = &*prepared;
    match format {
        Format::Sdxml => export::sdxml::write_to(doc, &options.sdxml, sink),
        Format::Html => export::html::write_zip_to(doc, &options.html, sink),
        Format::HtmlAllInOne => export::html::write_all_in_one_to(doc, &options.html, sink),
        Format::Parsx => export::parsx::write_to(doc, &options.parsx, sink),
        Format::Word => export::word::write_to(doc, &options.word, sink),
        _ => {
            // The tree is prepared already: the plain options write it as it is.
            let out = export(doc, format, &plain)?;
            sink.write_all(&out.value).map_err(Error::file_write)?;
            Ok(out.map(|_| sink))
        }
    }
}
