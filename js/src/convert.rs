//! One conversion, in plain Rust: bytes and options in, the output's files and warnings out.
//! [`crate`]'s bindings only move values between this and JavaScript, so everything here is
//! tested natively too.

use std::path::Path;

use bytes::Bytes;
use sdconv::export::files::{ExportedFiles, export_files};
use sdconv::{Document, ErrorKind, Format, Warning};

use crate::options::{ExportSpec, ImportSpec};

/// Why a conversion failed. [`Failure::kind`] is the `kind` of the JavaScript `SdconvError`.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The engine's own error.
    #[error("{0}")]
    Engine(#[from] sdconv::Error),
    /// An option the caller passed is wrong.
    #[error("{0}")]
    Option(String),
    /// A format name sdconv does not know.
    #[error("{0}")]
    UnknownFormat(String),
    /// The input's format cannot be told from its name or bytes.
    #[error("cannot tell the input's format from its name or content ({0}); pass options.from")]
    Undetected(sdconv::Undetected),
    /// A format the engine knows but cannot read or write.
    #[error("sdconv cannot {1} {0}")]
    Direction(Format, &'static str),
}

impl Failure {
    /// What went wrong, in the words the Python package uses for its exception classes.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Engine(sdconv::Error::Unavailable(_)) => "unsupported_format",
            Failure::Engine(e) => match e.kind() {
                ErrorKind::Input => "invalid_input",
                ErrorKind::Parameter => "invalid_option",
                ErrorKind::TooLarge => "limit_exceeded",
                _ => "conversion_failed",
            },
            Failure::Option(_) => "invalid_option",
            Failure::UnknownFormat(_) | Failure::Direction(..) => "unsupported_format",
            Failure::Undetected(_) => "invalid_input",
        }
    }
}

/// What a writer produced.
#[derive(Debug)]
pub struct Output {
    /// The output format.
    pub format: Format,
    /// The main file.
    pub main: Main,
    /// Files beside the main one (`style.css`, `images/…`), by relative name.
    pub files: Vec<(String, Bytes)>,
    /// The reader's warnings, then the writer's.
    pub warnings: Vec<Warning>,
    /// The document's title, if it has one.
    pub title: Option<String>,
}

/// The main file of an output.
#[derive(Debug)]
pub enum Main {
    /// The text of a text format (HTML, Markdown, JSON), as the writer made it.
    Text(String),
    /// The bytes of the others.
    Data(Vec<u8>),
}

/// The input format by the engine's [`Format::for_reading`]: the caller's, else detected from
/// the file name and the bytes, and one sdconv reads.
pub fn input_format(
    from: Option<Format>,
    name: Option<&str>,
    bytes: &[u8],
) -> Result<Format, Failure> {
    Format::for_reading(from, bytes, name.map(Path::new)).map_err(|e| match e {
        sdconv::Unreadable::Undetected(why) => Failure::Undetected(why),
        sdconv::Unreadable::WriteOnly(format) => Failure::Direction(format, "read"),
    })
}

/// Reads `bytes` (named `name`, when it came from a file) as `spec` says. `read_image` fetches
/// the pictures a Markdown input names by reference (`None`: the picture cannot be had).
pub fn import(
    bytes: Bytes,
    name: Option<&str>,
    spec: &ImportSpec,
    read_image: &mut dyn FnMut(&str) -> Option<Bytes>,
) -> Result<sdconv::Converted<Document>, Failure> {
    let format = input_format(spec.from, name, &bytes)?;
    Ok(sdconv::import_with(
        format,
        bytes,
        &spec.options,
        read_image,
    )?)
}

/// Writes `doc` as `spec` asks: the engine's [`export_files`], which prepares the tree as
/// [`sdconv::export()`] does and gives Markdown's and HTML's pictures as files, inside the text or
/// not at all ([`ExportSpec::images`]). The bytes are the command line's for the same options.
pub fn export(doc: &Document, spec: &ExportSpec) -> Result<Output, Failure> {
    let to = spec.to;
    if !to.can_write() {
        return Err(Failure::Direction(to, "write"));
    }
    let out = export_files(doc, to, &spec.export, spec.images)?;
    let ExportedFiles { main, files } = out.value;
    let main = if to.is_text() {
        // The writers make UTF-8: no copy, and never a replacement in practice.
        Main::Text(
            String::from_utf8(main)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        )
    } else {
        Main::Data(main)
    };
    Ok(Output {
        format: to,
        main,
        files,
        warnings: out.warnings,
        title: doc.meta.title.clone(),
    })
}

/// Reads and writes in one go; the reader's warnings come first.
pub fn convert(
    bytes: Bytes,
    name: Option<&str>,
    import_spec: &ImportSpec,
    export_spec: &ExportSpec,
    read_image: &mut dyn FnMut(&str) -> Option<Bytes>,
) -> Result<Output, Failure> {
    let read = import(bytes, name, import_spec, read_image)?;
    let mut out = export(&read.value, export_spec)?;
    let mut warnings = read.warnings;
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::RawOptions;

    fn run(input: &[u8], name: Option<&str>, to: &str, options: &str) -> Result<Output, Failure> {
        let raw = RawOptions::parse(options)?;
        convert(
            Bytes::copy_from_slice(input),
            name,
            &raw.import_spec()?,
            &raw.export_spec(to)?,
            &mut |_| None,
        )
    }

    #[test]
    fn markdown_to_html_and_back() {
        let out = run(b"# Title\n\nSome *text*.\n", None, "html", "").unwrap();
        let Main::Text(page) = out.main else {
            panic!("HTML is text")
        };
        assert!(page.contains("<em>text</em>"), "{page}");
        assert_eq!(out.files[0].0, "style.css");
        let out = run(page.as_bytes(), Some("a.md"), "json", "").unwrap();
        assert!(matches!(out.main, Main::Text(json) if json.starts_with('{')));
    }

    #[test]
    fn failures_have_kinds() {
        let kind = |r: Result<Output, Failure>| r.err().map(|e| e.kind());
        assert_eq!(
            kind(run(b"PK\x03\x04garbage", None, "html", "")),
            Some("invalid_input")
        );
        assert_eq!(
            kind(run(b"x", None, "pdfx", "")),
            Some("unsupported_format")
        );
        assert_eq!(
            kind(run(b"x", Some("a.pdf"), "html", "")),
            Some("unsupported_format")
        );
        assert_eq!(
            kind(run(b"x", None, "html", r#"{"magic":"no-such-set"}"#)),
            Some("invalid_option")
        );
    }

    #[test]
    fn the_format_from_the_name_else_the_bytes() {
        let json = br#"{"format_version":1,"blocks":[]}"#;
        assert_eq!(input_format(None, None, json).unwrap(), Format::Json);
        assert_eq!(
            input_format(None, Some("a.md"), json).unwrap(),
            Format::Markdown
        );
        assert_eq!(
            input_format(Some(Format::Json), Some("a.md"), json).unwrap(),
            Format::Json
        );
        assert!(matches!(
            input_format(None, None, b"%PDF-1.7"),
            Err(Failure::Undetected(_))
        ));
    }
}
