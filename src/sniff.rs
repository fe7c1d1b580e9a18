//! Telling an input's format from its bytes (and its name): the one rule the command line, the
//! Python package, the server and the JavaScript package share ([`Format::sniff`],
//! [`Format::detect`]).
//!
//! The rules, in order:
//! - **A zip** (a local or end header at the start, or an end record in the last 64 KiB as
//!   self-extracting archives have it): its entry names decide. `sd.xml` at the root or one
//!   folder down (where the sd.xml reader looks) is sd.xml, unless the zip also holds
//!   `word/document.xml`; `[Content_Types].xml`, `_rels/.rels` or `word/document.xml` is Word
//!   (whose reader then says precisely what is wrong with an Excel or PowerPoint package). When
//!   the zip's directory cannot be read (a truncated download), the first local headers are
//!   read instead, so the reader of the right format reports the damage.
//! - **Known binary formats** sdconv does not read (PDF, an old `.doc`, RTF, pictures) and
//!   empty input: named, not guessed.
//! - **Text** (UTF-8 without NUL bytes in its first 64 KiB): `{` first is the tree's JSON dump;
//!   an XML declaration, an HTML page or a Word XML document is markup sdconv does not read;
//!   anything else is Markdown, which every plain text is (a README starting with an HTML tag
//!   included).
//! - Anything else is binary data of no known format.
//!
//! The work is bounded whatever the input: the zip's directory under the default [`Limits`],
//! at most [`LOCAL_HEADERS`] local headers, and the first 64 KiB for the text checks.

use std::path::Path;

use crate::archive::{ZipReader, looks_like_zip};
use crate::format::Format;
use crate::limits::Limits;

/// How much of the input the text checks read, and how far from the end an end-of-directory
/// record is looked for (64 KiB of zip comment plus the 22-byte record).
const HEAD: usize = 64 * 1024;

/// How many local headers are read from a zip whose directory cannot be read.
const LOCAL_HEADERS: usize = 64;

/// Why [`Format::sniff`] or [`Format::detect`] could not name an input's format. Every case is
/// the input's fault (an [`ErrorKind::Input`](crate::ErrorKind::Input) once made an
/// [`Error`](crate::Error)); callers add how to name the format themselves (`--from`, `from_=`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Undetected {
    /// A readable zip holding neither an sd.xml nor a Word document; says what it holds (an
    /// OpenDocument file, an Excel workbook, or its first entries).
    #[error("the zip holds neither sd.xml nor [Content_Types].xml: {0}")]
    ForeignZip(String),
    /// Bytes that should be a zip (by their start or their `.zip` name) from which no zip can
    /// be read, nor any format told.
    #[error("not a valid zip archive: {0}")]
    BrokenZip(String),
    /// A format sdconv does not read, or no format at all: says what the bytes look like (`a
    /// PDF`, `an empty file`, `an XML document`, `binary data`).
    #[error("{0}, not a format sdconv reads")]
    Foreign(String),
}

/// Why an input cannot be read ([`Format::for_reading`]): its format cannot be told, or it is
/// one sdconv writes but does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// Neither the caller, the name nor the bytes say a format.
    #[error(transparent)]
    Undetected(#[from] Undetected),
    /// A format sdconv writes only (HTML, parsX, PDF), named by the caller or the file name.
    #[error("sdconv cannot read {0}")]
    WriteOnly(Format),
}

impl Format {
    /// The format of `bytes`, from their content alone: [`Format::Sdxml`], [`Format::Word`],
    /// [`Format::Json`] or [`Format::Markdown`] (the formats sdconv reads), or why none fits.
    ///
    /// The rules, in order: a zip by its entry names (`sd.xml` at the root or one folder down
    /// is sd.xml unless `word/document.xml` is there too; `[Content_Types].xml`, `_rels/.rels`
    /// or `word/document.xml` is Word; a zip whose directory is damaged by the names of its
    /// first local headers); PDF, RTF, old `.doc`, pictures and empty input named as such;
    /// UTF-8 text starting with `{` as JSON, with an XML declaration, `<html` or a Word XML
    /// root as markup sdconv does not read, and any other text as Markdown; anything else as
    /// binary data. Never panics, and reads a bounded share of any input (the zip directory
    /// under the default [`Limits`](crate::Limits), at most 64 local headers, the first
    /// 64 KiB of text).
    ///
    /// ```
    /// use sdconv::{Format, Undetected};
    ///
    /// assert_eq!(Format::sniff(b"# Title\n\nText."), Ok(Format::Markdown));
    /// assert_eq!(Format::sniff(br#"{"format_version":1,"blocks":[]}"#), Ok(Format::Json));
    /// assert!(matches!(Format::sniff(b"%PDF-1.7"), Err(Undetected::Foreign(_))));
    /// ```
    pub fn sniff(bytes: &[u8]) -> Result<Format, Undetected> {
        if looks_like_zip(bytes) || has_end_record(bytes) {
            return sniff_zip(bytes);
        }
        if let Some(kind) = binary_kind(bytes) {
            return Err(Undetected::Foreign(kind.to_string()));
        }
        let Some(text) = text_head(bytes) else {
            return Err(Undetected::Foreign(
                if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
                    "UTF-16 text (sdconv reads Markdown and JSON as UTF-8)".to_string()
                } else {
                    "binary data".to_string()
                },
            ));
        };
        let text = text.trim_start();
        if text.starts_with('{') {
            return Ok(Format::Json);
        }
        match markup_kind(text) {
            Some(kind) => Err(Undetected::Foreign(kind.to_string())),
            None => Ok(Format::Markdown),
        }
    }

    /// The format of an input called `name` (a file name or path; `None` for unnamed bytes):
    /// the name's extension when it tells one ([`Format::from_path`]: `.docx`, `.md`, `.json`,
    /// …), else the content ([`Format::sniff`]). A name ending in `.zip` says only that the
    /// bytes are a zip (sd.xml, parsX and HTML downloads all are), so bytes that are not one
    /// are [`Undetected::BrokenZip`].
    ///
    /// The name wins over the content: `a.docx` is Word whatever its bytes, and Word's reader
    /// then says what they are instead. The format may be one this build cannot read (`a.pdf`):
    /// callers check [`Format::can_read`].
    ///
    /// ```
    /// use std::path::Path;
    /// use sdconv::{Format, Undetected};
    ///
    /// assert_eq!(Format::detect(b"", Some(Path::new("a.docx"))), Ok(Format::Word));
    /// assert_eq!(Format::detect(b"Text.", Some(Path::new("notes.txt"))), Ok(Format::Markdown));
    /// assert!(matches!(
    ///     Format::detect(b"Text.", Some(Path::new("export.zip"))),
    ///     Err(Undetected::BrokenZip(_))
    /// ));
    /// ```
    pub fn detect(bytes: &[u8], name: Option<&Path>) -> Result<Format, Undetected> {
        if let Some(format) = name.and_then(Format::from_path) {
            return Ok(format);
        }
        let zip_named = name
            .and_then(Path::extension)
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
        if zip_named && !looks_like_zip(bytes) && !has_end_record(bytes) {
            return Err(Undetected::BrokenZip(
                "the file does not start with a zip header".into(),
            ));
        }
        Format::sniff(bytes)
    }

    /// The format to read an input as: `given` (the caller's `from`), else [`Format::detect`]
    /// from `name` and `bytes`; an error when that format is one sdconv does not read. The
    /// rule the Python and JavaScript packages share.
    ///
    /// ```
    /// use std::path::Path;
    /// use sdconv::{Format, Unreadable};
    ///
    /// assert_eq!(Format::for_reading(None, b"# Title", None), Ok(Format::Markdown));
    /// assert_eq!(
    ///     Format::for_reading(Some(Format::Html), b"# Title", None),
    ///     Err(Unreadable::WriteOnly(Format::Html))
    /// );
    /// assert_eq!(
    ///     Format::for_reading(None, b"", Some(Path::new("a.pdf"))),
    ///     Err(Unreadable::WriteOnly(Format::Pdf))
    /// );
    /// assert!(matches!(
    ///     Format::for_reading(None, b"%PDF-1.7", None),
    ///     Err(Unreadable::Undetected(_))
    /// ));
    /// ```
    pub fn for_reading(
        given: Option<Format>,
        bytes: &[u8],
        name: Option<&Path>,
    ) -> Result<Format, Unreadable> {
        let format = match given {
            Some(format) => format,
            None => Format::detect(bytes, name)?,
        };
        if !format.can_read() {
            return Err(Unreadable::WriteOnly(format));
        }
        Ok(format)
    }
}

/// Whether an end-of-central-directory record sits where a zip reader looks for one: within
/// the last 64 KiB + 22 bytes (a zip with something before it, as a self-extracting archive).
fn has_end_record(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(HEAD + 22)..];
    memchr::memmem::find(tail, b"PK\x05\x06").is_some()
}

/// The format a zip's entry names tell, as the module documentation says.
fn from_names(names: &[String]) -> Option<Format> {
    let has = |wanted: &str| names.iter().any(|n| n.eq_ignore_ascii_case(wanted));
    let word_main = has("word/document.xml");
    if !word_main && crate::import::sdxml::find_part(names).is_some() {
        return Some(Format::Sdxml);
    }
    (word_main || has("[Content_Types].xml") || has("_rels/.rels")).then_some(Format::Word)
}

/// The format of bytes that look like a zip.
fn sniff_zip(bytes: &[u8]) -> Result<Format, Undetected> {
    match ZipReader::new(bytes, &Limits::default()) {
        Ok(zip) => from_names(zip.names()).ok_or_else(|| {
            Undetected::ForeignZip(match foreign_zip(&zip) {
                Some(kind) => kind.to_string(),
                None => first_entries(zip.names()),
            })
        }),
        Err(e) => {
            let names = local_names(bytes);
            from_names(&names).ok_or_else(|| {
                // The reader's message starts "not a valid zip archive:" itself.
                let message = e.to_string();
                let detail = message
                    .strip_prefix("not a valid zip archive: ")
                    .unwrap_or(&message);
                Undetected::BrokenZip(detail.to_string())
            })
        }
    }
}

/// The first entries of a zip, for a message (`3 entries: a.txt, b.txt, c.txt`).
fn first_entries(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut listed = names
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > SHOWN {
        listed.push_str(", …");
    }
    match names.len() {
        0 => "an empty zip".to_string(),
        1 => format!("1 entry, {listed}"),
        n => format!("{n} entries: {listed}"),
    }
}

/// The names of the first [`LOCAL_HEADERS`] local file headers from the start of `bytes`, for a
/// zip whose central directory is gone (APPNOTE.TXT 4.3.7: the local header is 30 bytes, then
/// the name and the extra field, then the entry's data). Stops at the first header that does
/// not parse or whose data size is not recorded in it (bit 3: sizes in a data descriptor).
fn local_names(bytes: &[u8]) -> Vec<String> {
    let u16_at = |at: usize| -> Option<usize> {
        let b = bytes.get(at..at.checked_add(2)?)?;
        Some(u16::from_le_bytes([b[0], b[1]]) as usize)
    };
    let u32_at = |at: usize| -> Option<usize> {
        let b = bytes.get(at..at.checked_add(4)?)?;
        usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
    };
    let mut names = Vec::new();
    let mut at = 0usize;
    while names.len() < LOCAL_HEADERS {
        if bytes.get(at..at.saturating_add(4)) != Some(b"PK\x03\x04") {
            break;
        }
        let header = || -> Option<(String, Option<usize>)> {
            let flags = u16_at(at + 6)?;
            let compressed = u32_at(at + 18)?;
            let name_len = u16_at(at + 26)?;
            let extra_len = u16_at(at + 28)?;
            let name_at = at.checked_add(30)?;
            let name = bytes.get(name_at..name_at.checked_add(name_len)?)?;
            let next = (flags & 0x08 == 0)
                .then(|| {
                    name_at
                        .checked_add(name_len + extra_len)?
                        .checked_add(compressed)
                })
                .flatten();
            Some((String::from_utf8_lossy(name).into_owned(), next))
        };
        let Some((name, next)) = header() else {
            break;
        };
        names.push(name);
        match next {
            Some(next) => at = next,
            None => break,
        }
    }
    names
}

/// What a Word document saved as one XML file is (Word's "XML Document" and Flat OPC forms).
pub(crate) const FLAT_WORD: &str = "a Word XML document (flat XML, not a .docx zip)";

/// What a readable zip that is neither sd.xml nor Word is, when its names say so.
pub(crate) fn foreign_zip(zip: &ZipReader<'_>) -> Option<&'static str> {
    if zip.contains("mimetype") || zip.contains("META-INF/manifest.xml") {
        return Some("an OpenDocument or EPUB file (a zip with a `mimetype` entry)");
    }
    if zip.contains("xl/workbook.xml") {
        return Some("an Excel workbook (.xlsx)");
    }
    if zip.contains("ppt/presentation.xml") {
        return Some("a PowerPoint presentation (.pptx)");
    }
    None
}

/// The binary formats (and the empty input) known by their first bytes; `None` for others.
pub(crate) fn binary_kind(bytes: &[u8]) -> Option<&'static str> {
    // [MS-CFB] 2.2: the compound file signature of .doc, .xls and encrypted OOXML.
    const OLE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
    if bytes.is_empty() {
        Some("an empty file")
    } else if bytes.starts_with(&OLE) {
        Some("an OLE compound file (.doc or encrypted .docx)")
    } else if bytes.starts_with(b"%PDF") {
        Some("a PDF")
    } else if bytes.starts_with(b"{\\rtf") {
        Some("an RTF document")
    } else if bytes.starts_with(b"\x89PNG")
        || bytes.starts_with(&[0xFF, 0xD8, 0xFF])
        || bytes.starts_with(b"GIF8")
    {
        Some("an image")
    } else {
        None
    }
}

/// The first [`HEAD`] bytes as text without a byte-order mark, when they are UTF-8 (a character
/// cut at the end of the share allowed) with no NUL byte; `None` for binary data.
fn text_head(bytes: &[u8]) -> Option<&str> {
    let head = &bytes[..bytes.len().min(HEAD)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    if head.contains(&0) {
        return None;
    }
    match std::str::from_utf8(head) {
        Ok(text) => Some(text),
        // A character cut by the share's end: the text up to it. A bad byte before it is not.
        Err(e) if e.error_len().is_none() && head.len() < bytes.len() => {
            std::str::from_utf8(head.get(..e.valid_up_to())?).ok()
        }
        Err(_) => None,
    }
}

/// What a text that is markup sdconv does not read is; `None` for Markdown. Only the unmistakable
/// starts count: Markdown may itself open with an HTML block (`<p align="center">`, a comment).
fn markup_kind(text: &str) -> Option<&'static str> {
    let start: String = text
        .chars()
        .take(512)
        .collect::<String>()
        .to_ascii_lowercase();
    if start.starts_with("<?xml")
        || start.starts_with("<pkg:package")
        || start.starts_with("<w:document")
        || start.starts_with("<smashdoc")
    {
        // The Word reader's words for a flat Word document.
        if [
            "<pkg:package",
            "word.document",
            "worddocument",
            "<w:document",
        ]
        .iter()
        .any(|m| start.contains(m))
        {
            return Some(FLAT_WORD);
        }
        if start.contains("<smashdoc") {
            return Some(
                "an sd.xml text outside its zip (sdconv reads the zip of sd.xml + images/)",
            );
        }
        return Some("an XML document");
    }
    if start.starts_with("<!doctype html") || start.starts_with("<html") {
        return Some("an HTML page");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_headers_of_a_cut_zip_are_read_without_its_directory() {
        let mut w = crate::archive::ZipWriter::new();
        w.add(
            "[Content_Types].xml",
            b"<Types/>",
            crate::archive::Compression::Deflate,
        )
        .unwrap();
        w.add(
            "word/document.xml",
            b"<w:document/>",
            crate::archive::Compression::Store,
        )
        .unwrap();
        let zip = w.finish().unwrap();
        let names = local_names(&zip);
        assert_eq!(names, ["[Content_Types].xml", "word/document.xml"]);
        // Every cut: a prefix of the names, never a panic.
        for cut in 0..zip.len() {
            let names = local_names(&zip[..cut]);
            assert!(names.len() <= 2);
        }
    }

    #[test]
    fn a_lying_local_header_stops_the_walk() {
        // A header whose compressed size points far past the end.
        let mut header = b"PK\x03\x04".to_vec();
        header.extend_from_slice(&[0; 14]);
        header.extend_from_slice(&u32::MAX.to_le_bytes());
        header.extend_from_slice(&[0; 4]);
        header.extend_from_slice(&6u16.to_le_bytes());
        header.extend_from_slice(&0u16.to_le_bytes());
        header.extend_from_slice(b"sd.xml");
        assert_eq!(local_names(&header), ["sd.xml"]);
    }

    #[test]
    fn text_heads_allow_a_character_cut_at_the_share_only() {
        let mut long = "a".repeat(HEAD - 1).into_bytes();
        long.extend_from_slice("é and more".as_bytes());
        assert_eq!(text_head(&long).map(str::len), Some(HEAD - 1));
        assert_eq!(text_head(b"ab\xC3"), None);
        assert_eq!(text_head(b"\xEF\xBB\xBFhi"), Some("hi"));
        assert_eq!(text_head(b"a\0b"), None);
    }
}
