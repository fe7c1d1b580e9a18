//! `word/document.xml`: the body in its frame, and the part's end deflated ahead.
//!
//! A long document's tables of contents wait for the page layout, which runs beside the body
//! writer and takes longer than it. Everything after the last table of contents is final once
//! the body is written and its cross-references resolved, so it is deflated while the layout
//! runs (on the body writer's core, and on the layout's once that is done), and only the start,
//! up to the tables' page numbers, is deflated once they are known: most of the part's deflating
//! leaves the path that waits for the layout.

use super::writer::{MARK, Writer};
use crate::archive::{self, ZipWriter};
use crate::deflate::{Deflated, WINDOW};
use crate::error::Result;
use crate::ooxml::{R, W, XML_DECL};

/// The part's name in the package.
pub(crate) const NAME: &str = "word/document.xml";

/// What closes the part after the last section's properties.
const END: &str = "</w:body></w:document>";

/// The main part between the body writer and the package.
pub(crate) enum MainPart {
    /// The body as written, its markers not yet resolved.
    Body(String),
    /// The body, its cross-references resolved, with the part's end appended: from `at` on it
    /// is `tail`, deflated ahead; before `toc_end` lie the tables of contents' markers.
    Ahead {
        text: String,
        toc_end: usize,
        at: usize,
        tail: Deflated,
    },
}

/// The part made whole, ready for the package.
pub(crate) struct Finished {
    /// The whole part, or its start when the rest is `tail`.
    head: String,
    tail: Option<Deflated>,
    /// The part's length in bytes.
    pub(crate) len: usize,
}

/// The part's start: the XML declaration and the opening tags up to the body's content.
fn open() -> String {
    format!(
        r#"{XML_DECL}<w:document xmlns:w="{W}" xmlns:r="{R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>"#
    )
}

impl MainPart {
    /// On the body writer's thread while the layout runs: when the part is large enough to be
    /// deflated in pieces and holds a table of contents, resolves its cross-references and
    /// deflates all that lies more than [`WINDOW`] bytes past the last table of contents (that
    /// much before the tail is the tail's dictionary, so it must be final too).
    pub(crate) fn ahead(w: &mut Writer<'_>, body: String, last_section: &str) -> Result<MainPart> {
        let frame = open().len() + last_section.len() + END.len();
        let len = body.len().saturating_add(frame);
        // A part near zip32's 4 GiB (the tables of contents still to grow it) takes the path
        // that can fall back to zip64.
        if !archive::deflated_in_pieces(len) || len > (u32::MAX / 2) as usize {
            return Ok(MainPart::Body(body));
        }
        let mut text = w.resolve_refs(body);
        // Only the tables of contents' markers are left.
        let Some(mark) = text.rfind(MARK) else {
            return Ok(MainPart::Body(text));
        };
        let toc_end = mark + MARK.len_utf8();
        text.push_str(last_section);
        text.push_str(END);
        // The head is text: the tail starts on a character.
        let mut at = toc_end + WINDOW;
        while at < text.len() && !text.is_char_boundary(at) {
            at += 1;
        }
        if at >= text.len() {
            // Nothing after the last table's window: the end goes back out.
            text.truncate(text.len() - last_section.len() - END.len());
            return Ok(MainPart::Body(text));
        }
        let bytes = text.as_bytes();
        let tail = archive::deflate_tail(NAME, &bytes[toc_end..at], &bytes[at..])?;
        Ok(MainPart::Ahead {
            text,
            toc_end,
            at,
            tail,
        })
    }

    /// Once the pages are known ([`Writer::pages`]): the part with every marker resolved.
    pub(crate) fn finish(self, w: &mut Writer<'_>, last_section: &str) -> Finished {
        let mut head = open();
        match self {
            MainPart::Body(body) => {
                head.reserve(body.len() + last_section.len() + END.len());
                head.push_str(&w.resolve_markers(body));
                head.push_str(last_section);
                head.push_str(END);
                let len = head.len();
                Finished {
                    head,
                    tail: None,
                    len,
                }
            }
            MainPart::Ahead {
                text,
                toc_end,
                at,
                tail,
            } => {
                head.push_str(&w.resolve_markers(text[..toc_end].to_string()));
                head.push_str(&text[toc_end..at]);
                let len = head.len() + (text.len() - at);
                Finished {
                    head,
                    tail: Some(tail),
                    len,
                }
            }
        }
    }
}

impl Finished {
    /// Adds the part to the package.
    pub(crate) fn add_to<S: std::io::Write + std::io::Seek>(
        &self,
        zip: &mut ZipWriter<S>,
    ) -> Result<()> {
        match &self.tail {
            None => zip.add(NAME, self.head.as_bytes(), archive::Compression::Deflate),
            Some(tail) => zip.add_joined(NAME, self.head.as_bytes(), tail),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::template::WordTemplates;
    use super::*;
    use crate::ast::{Block, DirectoryKind, Document, Inline, Paragraph, TextType};
    use crate::export::paged::PagedSettings;

    const LAST: &str = r#"<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr>"#;

    fn para(kind: TextType, content: Vec<Inline>) -> Block {
        let mut p = Paragraph::new(kind, content);
        if kind == TextType::Heading {
            p.id = Some("intro".into());
        }
        Block::Paragraph(p)
    }

    fn cross_ref(target: &str) -> Inline {
        Inline::CrossRef {
            target: target.into(),
            number: false,
            text: true,
        }
    }

    /// A part of more than 1 MiB: a heading, cross-references (one to no block, which warns)
    /// before and after a table of contents in the body, then `shift` letters and 40 KB of
    /// four-byte characters, where the deflated-ahead tail may start inside a character.
    fn document(shift: usize) -> Document {
        let mut doc = Document::new();
        doc.blocks = vec![
            para(TextType::Heading, vec![Inline::text("Intro")]),
            para(
                TextType::Paragraph,
                vec![
                    Inline::text("See "),
                    cross_ref("intro"),
                    cross_ref("nowhere"),
                ],
            ),
            Block::Directory {
                kind: DirectoryKind::Content,
            },
            para(
                TextType::Paragraph,
                vec![Inline::text(format!(
                    "{}{}",
                    "a".repeat(shift),
                    "😀".repeat(10_000)
                ))],
            ),
            para(
                TextType::Paragraph,
                vec![
                    Inline::text("lorem ipsum dolor sit amet ".repeat(40_000)),
                    cross_ref("intro"),
                    cross_ref("missing"),
                ],
            ),
        ];
        doc
    }

    /// The part `ahead` or in one piece, inflated, and the warnings of writing it.
    fn written(doc: &Document, ahead: bool) -> (Vec<u8>, Vec<crate::report::Warning>, bool) {
        let settings = PagedSettings::default();
        // The default template (`DEFAULT_TEMPLATE`, beside the writer's entry points).
        let tpl = WordTemplates::builtin()
            .resolve("report")
            .expect("the built-in template");
        let mut w = Writer::new(doc, tpl, &settings);
        let body = w.write_body();
        let part = if ahead {
            MainPart::ahead(&mut w, body, LAST).expect("deflated ahead")
        } else {
            MainPart::Body(body)
        };
        let mut split = false;
        if let MainPart::Ahead { toc_end, at, .. } = &part {
            split = *at != toc_end + WINDOW;
        }
        w.pages = crate::export::paged::listed_block_pages(doc, &settings);
        let finished = part.finish(&mut w, LAST);
        let mut zip = ZipWriter::new();
        finished.add_to(&mut zip).expect("added");
        let bytes = zip.finish().expect("zipped");
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
        let mut entry = archive.by_name(NAME).expect("the part");
        let mut text = Vec::new();
        // Reading to the end checks the CRC.
        std::io::Read::read_to_end(&mut entry, &mut text).expect("inflated");
        assert_eq!(text.len(), finished.len);
        (text, w.report.warnings().to_vec(), split)
    }

    #[test]
    fn the_end_deflated_ahead_joins_into_the_part_written_in_one_piece() {
        let mut split_inside = 0;
        for shift in 0..4 {
            let doc = document(shift);
            let (whole, warned, _) = written(&doc, false);
            let (joined, warned_ahead, split) = written(&doc, true);
            assert!(whole.len() > 1 << 20, "{} bytes", whole.len());
            assert!(joined == whole, "shift {shift}: the parts differ");
            assert_eq!(warned_ahead, warned, "shift {shift}");
            assert_eq!(warned.len(), 2, "{warned:?}");
            split_inside += usize::from(split);
        }
        // The tail's start moved forward off a character's middle in some of them.
        assert!(split_inside > 0);
    }
}
