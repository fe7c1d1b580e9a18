//! Stage one: the Open Packaging Conventions layer: recognise what the bytes are, open the zip
//! under the limits, read `[Content_Types].xml` and `_rels/.rels`, and find the main document part
//! by following the `officeDocument` relationship (never assuming `word/document.xml`: the corpus
//! has `word/document2.xml`). Parts are decoded as UTF-8 or UTF-16 (with a byte-order mark).

use std::collections::HashMap;

use quick_xml::events::Event;

use super::rels::{Relationships, part_dir, rels_part_of};
use super::xmlutil::attr_string;
use crate::archive::{PendingRead, ZipReader, looks_like_zip};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Location, Report, WarningKind};
use crate::xml::{LocalName, XmlReader};

const EXPECTED: &str = "docx";

/// Content types of the main part Word accepts: document, template, macro-enabled variants.
const MAIN_TYPES: [&str; 4] = [
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml",
    "application/vnd.ms-word.document.macroenabled.main+xml",
    "application/vnd.ms-word.template.macroenabledtemplate.main+xml",
];

/// `[Content_Types].xml`: defaults by extension and overrides by part name (both lower-cased:
/// OPC names compare case-insensitively).
#[derive(Debug, Default)]
pub struct ContentTypes {
    defaults: HashMap<String, String>,
    overrides: HashMap<String, String>,
}

impl ContentTypes {
    fn parse(text: &str, limits: &Limits) -> Result<Self> {
        let mut r = XmlReader::new(text, "[Content_Types].xml", limits);
        let mut ct = ContentTypes::default();
        loop {
            match r.next_event()? {
                Event::Start(e) | Event::Empty(e) => {
                    let local = e.local();
                    let ty = attr_string(&e, "ContentType").map(|t| t.to_ascii_lowercase());
                    match (local, ty) {
                        ("Default", Some(ty)) => {
                            if let Some(ext) = attr_string(&e, "Extension") {
                                ct.defaults.insert(ext.to_ascii_lowercase(), ty);
                            }
                        }
                        ("Override", Some(ty)) => {
                            if let Some(name) = attr_string(&e, "PartName") {
                                let name = name.trim_start_matches('/').to_ascii_lowercase();
                                ct.overrides.insert(name, ty);
                            }
                        }
                        _ => {}
                    }
                }
                Event::Eof => return Ok(ct),
                _ => {}
            }
        }
    }

    /// The content type of `part` (override first, then the extension's default).
    pub fn of(&self, part: &str) -> Option<&str> {
        let lower = part.to_ascii_lowercase();
        if let Some(t) = self.overrides.get(&lower) {
            return Some(t);
        }
        let ext = lower.rsplit_once('.').map(|(_, e)| e)?;
        self.defaults.get(ext).map(String::as_str)
    }

    fn main_part(&self) -> Option<&str> {
        let mut found: Vec<&str> = self
            .overrides
            .iter()
            .filter(|(_, t)| MAIN_TYPES.contains(&t.as_str()))
            .map(|(n, _)| n.as_str())
            .collect();
        // Deterministic choice if a broken file declares several.
        found.sort_unstable();
        found.first().copied()
    }
}

/// An opened Word package.
pub struct Package<'a> {
    zip: ZipReader<'a>,
    /// Content types (empty when the part is missing or unreadable).
    pub content_types: ContentTypes,
    /// The main document part's name (`word/document.xml`).
    pub main_part: String,
    /// Package-level relationships (`_rels/.rels`).
    pub package_rels: Relationships,
    limits: Limits,
    /// Bytes inflated so far (parts and media), for splitting the total budget.
    pub inflated: u64,
}

impl std::fmt::Debug for Package<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("main_part", &self.main_part)
            .finish()
    }
}

impl<'a> Package<'a> {
    /// Recognises and opens `bytes`; finds the main part.
    pub fn open(bytes: &'a [u8], limits: &Limits, report: &mut Report) -> Result<Self> {
        if !looks_like_zip(bytes) {
            if let Some(found) = not_a_zip(bytes) {
                return Err(Error::WrongFormat {
                    expected: EXPECTED,
                    found,
                });
            }
        }
        let zip = ZipReader::new(bytes, limits)?;
        let mut pkg = Package {
            zip,
            content_types: ContentTypes::default(),
            main_part: String::new(),
            package_rels: Relationships::default(),
            limits: limits.clone(),
            inflated: 0,
        };
        let has_ct = pkg.zip.contains("[Content_Types].xml");
        let has_rels = pkg.zip.contains("_rels/.rels");
        if !has_ct && !has_rels {
            return Err(Error::WrongFormat {
                expected: EXPECTED,
                found: pkg.describe_foreign_zip(),
            });
        }
        if has_ct {
            if let Some(text) = pkg.read_text("[Content_Types].xml", report)? {
                match ContentTypes::parse(&text, limits) {
                    Ok(ct) => pkg.content_types = ct,
                    Err(e) => report.warn(
                        WarningKind::InvalidValue,
                        format!("[Content_Types].xml is unreadable, ignored: {e}"),
                        Location::part("[Content_Types].xml"),
                    ),
                }
            }
        }
        if has_rels {
            if let Some(text) = pkg.read_text("_rels/.rels", report)? {
                match Relationships::parse(&text, "_rels/.rels", "", limits) {
                    Ok(r) => pkg.package_rels = r,
                    Err(e) => report.warn(
                        WarningKind::InvalidValue,
                        format!("_rels/.rels is unreadable, ignored: {e}"),
                        Location::part("_rels/.rels"),
                    ),
                }
            }
        }
        pkg.main_part = pkg.find_main_part()?;
        Ok(pkg)
    }

    fn find_main_part(&self) -> Result<String> {
        let by_rel = self
            .package_rels
            .iter()
            .find(|r| r.is("officeDocument") && !r.external)
            .map(|r| r.target.to_string());
        let candidate = by_rel
            .clone()
            .filter(|t| self.zip.contains(t))
            .or_else(|| {
                self.content_types
                    .main_part()
                    .and_then(|p| self.zip.find(p))
                    .map(str::to_string)
            })
            .or_else(|| self.zip.find("word/document.xml").map(str::to_string));
        let Some(main) = candidate else {
            if let Some(target) = by_rel {
                return Err(Error::MissingPart { part: target });
            }
            return Err(Error::WrongFormat {
                expected: EXPECTED,
                found: self.describe_foreign_zip(),
            });
        };
        let main = self.zip.find(&main).unwrap_or(&main).to_string();
        if let Some(ty) = self.content_types.of(&main) {
            if let Some(found) = foreign_main_type(ty) {
                return Err(Error::WrongFormat {
                    expected: EXPECTED,
                    found,
                });
            }
        }
        Ok(main)
    }

    /// What a zip without a Word document is.
    fn describe_foreign_zip(&self) -> String {
        if let Some(kind) = crate::sniff::foreign_zip(&self.zip) {
            return kind.into();
        }
        if let Some(main) = self
            .content_types
            .overrides
            .values()
            .find_map(|t| foreign_main_type(t))
        {
            return main;
        }
        "a zip archive that holds no Word document".into()
    }

    /// The zip entry names.
    pub fn names(&self) -> &[String] {
        self.zip.names()
    }

    /// Whether the package has part `name` (case-insensitive).
    pub fn contains(&self, name: &str) -> bool {
        self.zip.contains(name)
    }

    /// The limits this package was opened with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Inflates part `name`; `None` when the part is absent.
    pub fn read_bytes(&mut self, name: &str) -> Result<Option<Vec<u8>>> {
        let Some(pending) = self.pending(name)? else {
            return Ok(None);
        };
        let inflated = pending.inflate();
        self.settle(&pending, inflated).map(Some)
    }

    /// Part `name` checked against the limits and counted at its declared size, to be inflated
    /// on another thread while this package reads other parts ([`ZipReader::pending`]);
    /// `None` when it is absent.
    pub fn pending(&mut self, name: &str) -> Result<Option<PendingRead<'a>>> {
        if !self.zip.contains(name) {
            return Ok(None);
        }
        let pending = self.zip.pending(name)?;
        self.inflated += pending.declared();
        Ok(Some(pending))
    }

    /// What a [`Package::pending`] part inflated to, counted at its true size.
    pub fn settle(
        &mut self,
        pending: &PendingRead<'_>,
        inflated: Result<Vec<u8>>,
    ) -> Result<Vec<u8>> {
        self.inflated = self.inflated.saturating_sub(pending.declared());
        let bytes = self.zip.settle(pending, inflated)?;
        self.inflated += bytes.len() as u64;
        Ok(bytes)
    }

    /// Reads part `name` as text (see [`decode_part`]); `None` when it is absent.
    pub fn read_text(&mut self, name: &str, report: &mut Report) -> Result<Option<String>> {
        Ok(self
            .read_bytes(name)?
            .map(|bytes| decode_part(bytes, name, report)))
    }

    /// The relationships of `part` (empty when it has none or they are unreadable, with a
    /// warning for the latter).
    pub fn rels_of(&mut self, part: &str, report: &mut Report) -> Result<Relationships> {
        let rels_part = rels_part_of(part);
        let Some(text) = self.read_text(&rels_part, report)? else {
            return Ok(Relationships::default());
        };
        match Relationships::parse(&text, &rels_part, part_dir(part), &self.limits) {
            Ok(r) => Ok(r),
            Err(e @ Error::TooLarge { .. }) => Err(e),
            Err(e) => {
                report.warn(
                    WarningKind::InvalidValue,
                    format!("{rels_part} is unreadable, its links and images are lost: {e}"),
                    Location::part(&rels_part),
                );
                Ok(Relationships::default())
            }
        }
    }
}

/// Decodes a part: UTF-8 (a byte-order mark skipped) or UTF-16 with a byte-order mark. Invalid
/// UTF-8 is replaced with U+FFFD and reported rather than refused: one bad byte should not cost
/// the whole document.
pub fn decode_part(bytes: Vec<u8>, name: &str, report: &mut Report) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return utf16(rest, u16::from_le_bytes);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return utf16(rest, u16::from_be_bytes);
    }
    let mut text = match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            report.warn(
                WarningKind::InvalidValue,
                format!("{name} is not valid UTF-8 (first bad byte at {at}); bad bytes replaced"),
                Location::part(name),
            );
            String::from_utf8_lossy(e.as_bytes()).into_owned()
        }
    };
    if text.starts_with('\u{FEFF}') {
        text.drain(..3);
    }
    text
}

fn utf16(bytes: &[u8], f: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| f([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

/// What a main part content type says the file is, when it is not Word.
fn foreign_main_type(ty: &str) -> Option<String> {
    let ty = ty.to_ascii_lowercase();
    if ty.contains("spreadsheetml") || ty.contains("ms-excel") {
        Some("an Excel workbook (.xlsx)".into())
    } else if ty.contains("presentationml") || ty.contains("ms-powerpoint") {
        Some("a PowerPoint presentation (.pptx)".into())
    } else {
        None
    }
}

/// Names what non-zip bytes are; `None` lets the zip reader try (a zip may carry a prefix).
fn not_a_zip(bytes: &[u8]) -> Option<String> {
    if let Some(kind) = crate::sniff::binary_kind(bytes) {
        return Some(kind.into());
    }
    let head = &bytes[..bytes.len().min(1024)];
    let text = String::from_utf8_lossy(head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head));
    let trimmed = text.trim_start();
    if trimmed.starts_with('<') {
        if text.contains("Word.Document")
            || text.contains("wordDocument")
            || text.contains("pkg:package")
        {
            return Some(crate::sniff::FLAT_WORD.into());
        }
        return Some("an XML or HTML file".into());
    }
    // The zip's end record can sit anywhere for self-extracting archives; let the zip reader
    // decide when the bytes contain one.
    if bytes.windows(4).any(|w| w == b"PK\x05\x06") {
        return None;
    }
    if std::str::from_utf8(head).is_ok() {
        return Some("a text file".into());
    }
    Some("unrecognised binary data".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(bytes: &[u8]) -> String {
        let mut report = Report::new();
        match Package::open(bytes, &Limits::default(), &mut report) {
            Err(Error::WrongFormat { found, .. }) => found,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn names_foreign_inputs() {
        assert_eq!(found(b""), "an empty file");
        assert!(found(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0]).contains("OLE"));
        assert_eq!(found(b"%PDF-1.7\n"), "a PDF");
        assert_eq!(found(b"hello world"), "a text file");
        assert_eq!(found(&[0x00, 0xFF, 0xFE, 0x80]), "unrecognised binary data");
        assert!(found(b"<html></html>").contains("HTML"));
    }

    #[test]
    fn decodes_utf16_and_bom() {
        let mut report = Report::new();
        let mut le = vec![0xFF, 0xFE];
        for u in "<a>é</a>".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(decode_part(le, "p", &mut report), "<a>é</a>");
        assert_eq!(
            decode_part(b"\xEF\xBB\xBF<a/>".to_vec(), "p", &mut report),
            "<a/>"
        );
        assert!(report.warnings().is_empty());
        assert_eq!(
            decode_part(b"<a>\xE9</a>".to_vec(), "p", &mut report),
            "<a>\u{FFFD}</a>"
        );
        assert_eq!(report.warnings().len(), 1);
    }
}
