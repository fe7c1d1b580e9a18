//! The single-file page written into its output as it is made.
//!
//! A page with its pictures as `data:` URIs is mostly base64: large.docx's is 25 MB, of which
//! 1.5 MB is text. [`super::write_all_in_one`] builds it in one string, which the caller then
//! writes out. Here the writer leaves a marker where each picture's base64 goes, and the page
//! is written into the sink piece by piece: the text between markers as it is, each picture
//! encoded straight from its bytes in small pieces. The bytes are the same.
//!
//! A marker is `NUL`, the picture's number in decimal, `NUL`. The writer never writes a NUL
//! itself: text and attribute values have it replaced (it is a control character HTML forbids,
//! [`super::escape`]), and links have it percent-encoded. So every NUL of the page is a marker,
//! wherever the page's later steps (directories spliced in, notes written apart) moved it.

use std::fmt::Write as _;
use std::io::Write;

use base64::Engine;

use super::{HtmlOptions, ImageMode};
use crate::ast::{Document, MediaItem};
use crate::error::{Error, Result};
use crate::report::Converted;

/// How many picture bytes are encoded at a time: a multiple of 3, so that the pieces' base64
/// joins into the whole picture's (padding comes only after the last). Small enough for its
/// base64 to be written on from the cache: pieces that encode to 1 MiB, which the CLI's 1 MiB
/// buffered writer would pass on uncopied, were no faster, and encoding each piece on both
/// cores was slower (`sdconv convert` large.docx, paired runs).
const PIECE: usize = 3 * 16 * 1024;

/// Appends the marker of picture `n` to the page.
pub(super) fn marker(n: usize, out: &mut String) {
    // Writing into a String cannot fail.
    let _ = write!(out, "\0{n}\0");
}

/// [`super::write_all_in_one`] written into `sink`: the same bytes, without holding the whole
/// page in memory (see the module header).
pub fn write_all_in_one_to<W: Write>(
    doc: &Document,
    opts: &HtmlOptions,
    mut sink: W,
) -> Result<Converted<W>> {
    if let Some(m) = &opts.mammoth {
        let page = super::mammoth::write(doc, m);
        sink.write_all(page.value.as_bytes())
            .map_err(Error::file_write)?;
        return Ok(page.map(|_| sink));
    }
    super::all_in_one(doc, opts, ImageMode::Streamed, |page, w| {
        write_page(&page, &w.media.streamed, &mut sink).map_err(Error::file_write)?;
        Ok(w.report.finish(sink))
    })
}

/// Writes `page` into `sink` with each marker replaced by its picture's base64.
fn write_page(page: &str, pictures: &[&MediaItem], sink: &mut impl Write) -> std::io::Result<()> {
    let page = page.as_bytes();
    let mut encoded = vec![0; PIECE / 3 * 4];
    let mut at = 0;
    while let Some(found) = memchr::memchr(0, page.get(at..).unwrap_or_default()) {
        let start = at + found;
        sink.write_all(page.get(at..start).unwrap_or_default())?;
        let rest = page.get(start + 1..).unwrap_or_default();
        let picture = memchr::memchr(0, rest).and_then(|len| {
            let number = std::str::from_utf8(rest.get(..len)?)
                .ok()?
                .parse::<usize>()
                .ok()?;
            Some((len, pictures.get(number)?))
        });
        let Some((len, item)) = picture else {
            // Not a marker (see the module header: cannot happen): the byte stays.
            sink.write_all(b"\0")?;
            at = start + 1;
            continue;
        };
        // The writer wrote the marker only for a picture whose bytes it could have; a failure
        // here leaves the URI empty, as the one-string page does.
        if let Ok(bytes) = item.bytes() {
            for piece in bytes.chunks(PIECE) {
                // Encoded where it is written from (`encode_string` would encode into a small
                // buffer of its own and copy that on); the buffer holds a whole piece's base64.
                let written = base64::engine::general_purpose::STANDARD
                    .encode_slice(piece, &mut encoded)
                    .map_err(std::io::Error::other)?;
                sink.write_all(encoded.get(..written).unwrap_or_default())?;
            }
        }
        at = start + 1 + len + 1;
    }
    sink.write_all(page.get(at..).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Block, DirectoryKind, Inline, Paragraph};
    use crate::sample;

    /// The streamed page is byte for byte the one-string page.
    fn same_page(doc: &Document) {
        let opts = HtmlOptions::default();
        let whole = super::super::write_all_in_one(doc, &opts);
        let streamed = write_all_in_one_to(doc, &opts, Vec::new()).expect("a Vec takes any write");
        assert_eq!(
            String::from_utf8(streamed.value).expect("the page is UTF-8"),
            whole.value
        );
        assert_eq!(streamed.warnings, whole.warnings);
    }

    #[test]
    fn the_streamed_page_is_the_whole_page() {
        // Pictures in the text and in a footnote; directories spliced in ahead of them.
        let mut doc = sample::large_document(60, 6, 4, 1);
        assert!(!doc.media.is_empty(), "the sample has pictures");
        for kind in [DirectoryKind::Content, DirectoryKind::Images] {
            doc.blocks.insert(0, Block::Directory { kind });
        }
        let first = doc.media.iter().next().map(|m| m.name.clone());
        if let Some(name) = first {
            doc.blocks.push(Block::Paragraph(Paragraph {
                content: vec![
                    Inline::text("A note with a picture"),
                    Inline::Note {
                        kind: crate::ast::NoteKind::Footnote,
                        content: vec![Inline::Image {
                            media: name,
                            caption: None,
                            alt: Some("in a note".into()),
                        }],
                    },
                ],
                ..Paragraph::default()
            }));
        }
        same_page(&doc);
    }

    #[test]
    fn a_page_without_pictures_and_text_with_nul_are_written_as_they_are() {
        let doc = Document {
            blocks: vec![Block::Paragraph(Paragraph {
                content: vec![Inline::text("a\0b")],
                ..Paragraph::default()
            })],
            ..Document::default()
        };
        same_page(&doc);
    }

    #[test]
    fn pictures_of_several_pieces_and_of_different_sizes_are_written_whole() {
        // Past one piece, then smaller: the encoding buffer holds a whole piece, so what is left
        // in it from the larger picture must not be written.
        let big: Vec<u8> = (0..PIECE * 2 + 5).map(|i| (i * 13 % 256) as u8).collect();
        let small = b"small picture".to_vec();
        let pictures = [
            MediaItem::new("big.png", big.clone()),
            MediaItem::new("small.png", small.clone()),
        ];
        let refs: Vec<&MediaItem> = pictures.iter().collect();
        let mut page = String::from("<p>a<img src=\"data:image/png;base64,");
        marker(0, &mut page);
        page.push_str("\"><img src=\"data:image/png;base64,");
        marker(1, &mut page);
        page.push_str("\">b</p>");
        let mut out = Vec::new();
        write_page(&page, &refs, &mut out).expect("a Vec takes any write");
        let b64 = &base64::engine::general_purpose::STANDARD;
        let want = format!(
            "<p>a<img src=\"data:image/png;base64,{}\"><img src=\"data:image/png;base64,{}\">b</p>",
            b64.encode(&big),
            b64.encode(&small)
        );
        assert!(String::from_utf8(out).expect("the page is UTF-8") == want);
    }

    #[test]
    fn pieces_join_into_the_whole_base64() {
        let bytes: Vec<u8> = (0..PIECE * 2 + 7).map(|i| (i * 7 % 251) as u8).collect();
        let whole = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let mut joined = String::new();
        for piece in bytes.chunks(PIECE) {
            base64::engine::general_purpose::STANDARD.encode_string(piece, &mut joined);
        }
        assert_eq!(joined, whole);
    }
}
