//! Plumbing that the project's own command line, tests, benches and fuzz targets reach into:
//! the zip layer, the sample documents, the XML helpers and the sd.xml extension markers. Not
//! part of the public face: it may change with any release.

/// The zip layer (reading and writing archives, raw entries).
pub mod archive {
    pub use crate::archive::*;
}

/// Generated sample documents and pictures.
pub mod sample {
    pub use crate::sample::*;
}

/// The streaming XML reader and escaping helpers.
pub mod xml {
    pub use crate::xml::*;
}

/// Reads `text` with the tokenizer under [`xml::XmlReader`] and with quick-xml's reader, which
/// must give the same events at the same positions (and the same value for every attribute
/// lookup of a start tag), or the same error at the same offset; for the corpus test and the
/// fuzz target. Returns the number of events, or where they differ.
pub fn xml_tokens_check(text: &str) -> std::result::Result<usize, String> {
    crate::xml::compare_with_quick_xml(text)
}

/// The sd.xml extension processing instructions.
pub mod sdxml_ext {
    pub use crate::sdxml_ext::*;
}

/// The metafile player, for the fuzz target and the corpus test: draws `bytes` (sniffed as EMF
/// or WMF) as SVG and, given `png_pixels`, rasterises that SVG within so many pixels. Returns
/// the SVG, the PNG, the SVG's count of `<text>` elements and of records skipped, or the
/// error's message.
#[allow(clippy::type_complexity)]
pub fn metafile_check(
    bytes: &[u8],
    png_pixels: Option<u64>,
) -> std::result::Result<(String, Option<Vec<u8>>, usize, usize), String> {
    crate::metafile::check(bytes, png_pixels)
}

/// Reads a Word file as [`crate::import::docx::read`] does, converting a body of `split_from`
/// top-level blocks or more in two halves at once, the second always on the rayon pool (the
/// reader's own threshold is several hundred blocks, and it converts the second half itself
/// when the pool has not started on it): for the test that compares both ways on every Word
/// file of the corpus. `usize::MAX` converts on the calling thread alone.
pub fn read_docx_split_from(
    bytes: &[u8],
    options: &crate::import::docx::DocxImportOptions,
    split_from: usize,
) -> crate::Result<crate::report::Converted<crate::Document>> {
    crate::import::docx::read_split_from(bytes, options, split_from)
}
