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
//! use sdconv::{Format, ImportOptions, ExportOptions};
//!
//! let json = br#"{"format_version":1,"meta":{"title":"Hi"},"blocks":[]}"#;
//! let doc = sdconv::import(Format::Json, json, &ImportOptions::default())?.value;
//! assert_eq!(doc.meta.title.as_deref(), Some("Hi"));
//! let out = sdconv::export(&doc, Format::Json, &ExportOptions::default())?;
//! assert!(out.value.starts_with(b"{"));
//! # Ok::<(), sdconv::Error>(())
//! ```

#![warn(missing_docs)]

pub mod ast;
pub mod error;
pub mod export;
pub mod format;
pub mod import;
pub mod lang;
pub mod limits;
pub mod package;
pub mod report;
pub mod sdxml_ext;
pub mod xml;

pub use ast::Document;
pub use error::{Error, Result};
pub use format::Format;
pub use limits::Limits;
pub use report::{Converted, Location, Report, Warning, WarningKind};

/// Options for [`import`], shared by every reader.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ImportOptions {
    /// Input limits.
    pub limits: Limits,
}

/// Options for [`export`], shared by every writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Options of the Word writer (template, the API's settings).
    pub word: export::word::WordOptions,
}

/// Reads `bytes` in `format` into a tree.
pub fn import(
    format: Format,
    bytes: &[u8],
    options: &ImportOptions,
) -> Result<Converted<Document>> {
    let _ = options;
    match format {
        Format::Json => import::json::read(bytes),
        other => Err(Error::Unavailable(format!("{other} (import)"))),
    }
}

/// Writes `doc` in `format`.
pub fn export(
    doc: &Document,
    format: Format,
    options: &ExportOptions,
) -> Result<Converted<Vec<u8>>> {
    match format {
        Format::Json => Ok(Converted::clean(doc.to_json().into_bytes())),
        Format::Word => export::word::write(doc, &options.word),
        other => Err(Error::Unavailable(format!("{other} (export)"))),
    }
}
