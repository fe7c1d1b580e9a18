//! Reads the service's sd.xml upload: a zip holding `sd.xml` and an `images/` folder.
//!
//! `sd.xml` is found case-insensitively at the root of the zip or inside a single top-level
//! folder; images are looked up in the `images/` folder beside it (case-insensitively too). Every
//! image the XML references is read once into the [`MediaStore`](crate::ast::MediaStore) under
//! the name the XML uses; a referenced image that is missing is a
//! [`WarningKind::MissingMedia`](crate::WarningKind::MissingMedia) warning and the block keeps its
//! name (so [`Document::validate`](crate::Document::validate) then reports it). Files in
//! `images/` that nothing references are not stored and not reported: they are harmless and
//! exports often carry them.
//!
//! The XML is streamed (quick-xml) onto an explicit element stack, never a recursion per
//! element, and its depth is bounded by [`Limits::max_xml_depth`](crate::Limits); the zip is read
//! through [`crate::archive::ZipReader`] (size, ratio and name checks).
//!
//! What is read (the grammar is the service's `sdxml_import.dtd` of 2018-09-28):
//!
//! | source | tree | status |
//! |---|---|---|
//! | `smashdoc@id`, `@version` | `meta.id`, `meta.generator` | done |
//! | `meta` children (language, title, filename, subtitle, description, footer, creator, tags, word-export-presets, grid, grid-indentation-enabled, spellcheck-lang) | [`Meta`](crate::ast::Meta); empty strings are `None` | done |
//! | `heading@level` / `@enumeration` | `heading` / `heading-ol` at that level | done |
//! | `paragraph` (`@enumeration`, `@indent`) | `paragraph` / `paragraph-ol` | done |
//! | `ol-li` / `ul-li` (`@indent` = depth, `list-id`) | `list-ol` / `list-ul`; depth > 5 is put at 5 (warning) | done |
//! | `alignment`, `stylename`, `id`, `origin_ids`, `restartNumbering` | paragraph fields | done |
//! | `image` (text = file name, `width`, `caption`, `num-enabled`, …) | [`Image`](crate::ast::Image) | done |
//! | `table` / `column_width` / `tr` / `th`,`td` (spans, borders, alignment, colours, …) | [`Table`](crate::ast::Table); leading all-`th` rows are header rows | done |
//! | `pagebreak`, `directory@type` | page break, directory | done |
//! | inline `b i u s sub sup kbd sd-sc a inline` | marks (canonical order) | done |
//! | `xref`, `footnote`, `sidenote`, `img`, `index`, `br` | cross-reference, notes, inline image, index mark, line break | done |
//! | `indexes/index-node` | [`Document::indexes`](crate::Document) | done |
//! | `<?sdconv …?>` (`sdxml_ext`): fields, open/close, inline, wrapper, block, comments | as the extension's table says | done |
//! | 2.2x `document/ordered-sections` | read as the body | done |
//! | 2.2x `document/attached-sections` (footnote paragraphs) | put into the body's empty footnotes in order when the counts match, else appended to the body (warning) | partial: the anchor format of 2.2x is not in the DTD |
//! | 2.2x top-level `comments`, `section-tags`, `bibliographies`; `inline-files/` | left out with an `UnknownElement` warning | not yet |
//! | legacy nested `ul`/`ol`/`li` | flat list items (`LegacyForm` warning) | done |
//! | legacy `<footnote data-content>` | footnote (`LegacyForm`) | done |
//! | legacy `<font size>` in cells | cell paragraph + `cell.font_size` (`LegacyForm`) | done |
//! | Word field codes in `a@href` (` HYPERLINK \l "x" `) | `#x` (`Repaired`) | done |
//!
//! Unknown elements keep their text where the context can hold text (`UnknownElement`), unknown
//! attributes are reported (`UnknownAttribute`), bad values fall back to the default
//! (`InvalidValue`). Repeating warnings come once per kind and element with a count. Repeated
//! block ids get a suffix (`Repaired`) so cross-reference targets stay unique.

mod attrs;
mod blocks;
mod ext;
mod finish;
mod frame;
mod inline;
mod meta;
mod parser;
mod runs;
mod warn;

use bytes::Bytes;

use crate::archive::{Source, ZipReader};
use crate::ast::{Document, MediaItem};
use crate::error::{Error, Result};
use crate::report::Converted;

/// The name of the XML part in the zip.
const PART: &str = "sd.xml";

/// Options for the sd.xml reader.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SdxmlImportOptions {
    /// Input limits (zip sizes, XML depth).
    pub limits: crate::Limits,
}

/// Reads an sd.xml zip (`sd.xml` + `images/`).
///
/// Errors: not a zip → [`Error::NotZip`]; no `sd.xml` → [`Error::MissingPart`]; malformed XML or
/// text that is not UTF-8 → [`Error::Xml`]; a root other than `smashdoc` → [`Error::Invalid`];
/// an unsafe entry name → [`Error::UnsafeName`]; a limit passed → [`Error::TooLarge`].
pub fn read(bytes: &[u8], options: &SdxmlImportOptions) -> Result<Converted<Document>> {
    read_source(Source::Borrowed(bytes), options)
}

/// Reads an sd.xml zip like [`read`], from borrowed or shared bytes. The images stay deflated as
/// stored until something needs their bytes ([`MediaItem::deflated`]); from [`Source::Shared`]
/// bytes they point into those bytes instead of being copied.
pub fn read_source(
    source: Source<'_>,
    options: &SdxmlImportOptions,
) -> Result<Converted<Document>> {
    let mut zip = ZipReader::from_source(source, &options.limits)?;
    let (stored, prefix) = find_part(zip.names()).ok_or_else(|| Error::MissingPart {
        part: PART.to_string(),
    })?;
    let xml = zip.read(&stored)?;
    let mut resolve = |name: &str| -> Result<Option<MediaItem>> {
        if name.is_empty() || name.ends_with('/') {
            return Ok(None);
        }
        let candidates = [format!("{prefix}images/{name}"), format!("{prefix}{name}")];
        for candidate in candidates {
            if let Some(found) = zip.find(&candidate).map(str::to_string) {
                if found.ends_with('/') {
                    continue;
                }
                return zip
                    .read_raw(&found)
                    .map(|raw| Some(MediaItem::deflated(name, raw)));
            }
        }
        Ok(None)
    };
    read_part(&xml, &stored, &mut resolve, options)
}

/// Reads a bare sd.xml text (no zip), images resolved by `images` (name -> bytes) — used by tests
/// and the zip path.
pub fn read_xml(
    xml: &[u8],
    images: &mut dyn FnMut(&str) -> Option<Bytes>,
    options: &SdxmlImportOptions,
) -> Result<Converted<Document>> {
    read_part(
        xml,
        PART,
        &mut |name| Ok(images(name).map(|bytes| MediaItem::new(name, bytes))),
        options,
    )
}

fn read_part(
    xml: &[u8],
    part: &str,
    resolve: &mut dyn FnMut(&str) -> Result<Option<MediaItem>>,
    options: &SdxmlImportOptions,
) -> Result<Converted<Document>> {
    let text = crate::xml::decode(xml, part)?;
    let parser = parser::parse(text, part, &options.limits)?;
    finish::finish(parser, resolve)
}

/// The stored name of `sd.xml` and the folder prefix it sits in (`""` or `"name/"`): at the root,
/// or else one folder down (the first such entry, macOS resource forks skipped).
pub(crate) fn find_part(names: &[String]) -> Option<(String, String)> {
    if let Some(n) = names.iter().find(|n| n.eq_ignore_ascii_case(PART)) {
        return Some((n.clone(), String::new()));
    }
    names.iter().find_map(|n| {
        let (dir, file) = n.split_once('/')?;
        let ok = !dir.is_empty() && dir != "__MACOSX" && file.eq_ignore_ascii_case(PART);
        ok.then(|| (n.clone(), format!("{dir}/")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_part_at_the_root_or_one_folder_down() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            find_part(&names(&["images/a.png", "SD.XML"])),
            Some(("SD.XML".into(), String::new()))
        );
        assert_eq!(
            find_part(&names(&["__MACOSX/sd.xml", "export/", "export/Sd.xml"])),
            Some(("export/Sd.xml".into(), "export/".into()))
        );
        assert_eq!(find_part(&names(&["a/b/sd.xml", "sd.xml.bak"])), None);
    }
}
