//! One conversion, in plain Rust: bytes and options in, the output's files and warnings out.
//! [`crate`]'s bindings only move values between this and JavaScript, so everything here is
//! tested natively too.

use std::path::Path;

use bytes::Bytes;
use sdconv::export::{html, markdown};
use sdconv::{Document, ErrorKind, Format, Warning};

use crate::images::{self, ImageMode};
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
    #[error("cannot tell the input's format from its name or content; pass options.from")]
    Undetected,
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
            Failure::Undetected => "invalid_input",
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

/// Whether the format's main file is text.
pub fn is_text(format: Format) -> bool {
    matches!(
        format,
        Format::Markdown | Format::Html | Format::HtmlAllInOne | Format::Json
    )
}

/// The format of unnamed bytes. A zip is the service's sd.xml zip when it names an `sd.xml`
/// entry, else taken for Word (whose reader then says precisely what is wrong); JSON is the
/// tree's dump; other UTF-8 text is Markdown.
// The Python binding's rules (python/src/lib.rs), to be replaced by the engine's public
// sniffing once it has one (issue 32, item 5).
fn sniff(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"PK") {
        // Entry names are stored uncompressed in the local headers and the central directory.
        let has = |name: &[u8]| memchr::memmem::find(bytes, name).is_some();
        let sd_xml = has(b"sd.xml") && !has(b"word/document.xml");
        return Some(if sd_xml { Format::Sdxml } else { Format::Word });
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let json = text.trim_start().starts_with('{') && text.contains("\"format_version\"");
    Some(if json { Format::Json } else { Format::Markdown })
}

/// The input format: the caller's, else the file name's, else what the bytes look like.
pub fn input_format(
    from: Option<Format>,
    name: Option<&str>,
    bytes: &[u8],
) -> Result<Format, Failure> {
    let format = match from.or_else(|| name.and_then(|n| Format::from_path(Path::new(n)))) {
        Some(format) => format,
        None => sniff(bytes).ok_or(Failure::Undetected)?,
    };
    if !format.can_read() {
        return Err(Failure::Direction(format, "read"));
    }
    Ok(format)
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

/// Writes `doc` as `spec` asks. Tracked changes and comments are settled on the tree here (as
/// [`sdconv::export`] does inside) because the Markdown and HTML writers are called directly,
/// to get their pictures as files; the bytes are the command line's for the same options.
pub fn export(doc: &Document, spec: &ExportSpec) -> Result<Output, Failure> {
    let to = spec.to;
    if !to.can_write() {
        return Err(Failure::Direction(to, "write"));
    }
    let mut prepared = std::borrow::Cow::Borrowed(doc);
    if spec.track_changes != sdconv::TrackChanges::All {
        sdconv::ast::changes::resolve_changes(prepared.to_mut(), spec.track_changes);
    }
    if !spec.comments {
        sdconv::ast::changes::drop_comments(prepared.to_mut());
    }
    if spec.images == ImageMode::Omit {
        prepared.to_mut().remove_images(|_| true);
    }
    let doc = &*prepared;
    let title = doc.meta.title.clone();
    let (main, files, warnings) = match to {
        Format::Markdown => {
            let out = markdown::write(doc, &spec.export.markdown);
            let markdown::MarkdownOutput { mut text, files } = out.value;
            let files = if spec.images == ImageMode::Inline {
                text = images::inline(&text, Format::Markdown, &files);
                Vec::new()
            } else {
                files
            };
            (Main::Text(text), files, out.warnings)
        }
        Format::Html if spec.images == ImageMode::Inline => {
            let out = html::write_all_in_one(doc, &spec.export.html);
            (Main::Text(out.value), Vec::new(), out.warnings)
        }
        Format::Html => {
            let out = html::write_files(doc, &spec.export.html);
            let mut files = out.value.into_iter();
            // The page comes first (`index.html`); the stylesheet and pictures follow it.
            let page = files
                .next()
                .map(|(_, page)| String::from_utf8_lossy(&page).into_owned())
                .unwrap_or_default();
            (Main::Text(page), files.collect(), out.warnings)
        }
        _ => {
            // Settled on the tree above already.
            let mut opts = spec.export.clone();
            opts.track_changes = sdconv::TrackChanges::All;
            opts.comments = true;
            let out = sdconv::export(doc, to, &opts)?;
            // JSON and the single-file page are text; every other writer here makes bytes.
            let main = if is_text(to) {
                Main::Text(String::from_utf8_lossy(&out.value).into_owned())
            } else {
                Main::Data(out.value)
            };
            (main, Vec::new(), out.warnings)
        }
    };
    Ok(Output {
        format: to,
        main,
        files,
        warnings,
        title,
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
    fn sniffing() {
        assert_eq!(sniff(b"{\"format_version\":1}"), Some(Format::Json));
        assert_eq!(sniff(b"# hi"), Some(Format::Markdown));
        assert_eq!(sniff(b"PK\x03\x04sd.xml"), Some(Format::Sdxml));
        assert_eq!(sniff(b"PK\x03\x04word/document.xml"), Some(Format::Word));
        assert_eq!(sniff(b"\xff\xfe"), None);
    }
}
