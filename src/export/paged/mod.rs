//! The paged layer: what the Word and PDF writers share, so that neither depends on the other
//! (typst's shape: layout produces pages, each output format consumes them).
//!
//! - [`settings`]: the API's Word export settings (language, captions, directories,
//!   `compressedImages`), which the PDF writer honours the same way.
//! - [`text`] (inlines → tokens), [`lines`] (line breaking), [`page`] (paper, pagination,
//!   footnote areas), [`layout`] (the document walk, directories, notes, comments) and
//!   [`tables`]: the layout itself. The PDF writer draws its pages; the Word writer takes only
//!   the page each block starts on ([`block_pages`]) for its pre-filled tables of contents.
//! - [`pictures`]: `compressedImages`, the downscaling both writers apply.
//! - [`structure`]: the logical structure the layout records as it places content (headings,
//!   lists, tables, figures, notes, links), from which the PDF writer makes its tag tree.
//!
//! Because the layout is compiled with or without the `pdf` feature, the Word writer's page
//! numbers are the same in every build.

pub(crate) mod bidi;
pub(crate) mod fit;
pub(crate) mod hyphen;
pub(crate) mod layout;
pub(crate) mod lines;
pub(crate) mod page;
pub(crate) mod pictures;
pub(crate) mod settings;
pub(crate) mod structure;
pub(crate) mod tables;
pub(crate) mod text;

pub use page::Paper;
pub use settings::WordSettings;

use crate::ast::{Block, DirectoryKind, Document};

/// Reads the bundled fonts' advance widths now, once per process (4.5 ms), instead of in the
/// first layout: a caller that will write Word with page numbers or PDF can run it on another
/// thread while the document is read (the CLI does).
pub fn warm_up() {
    for face in crate::fonts::metrics::Face::ALL {
        let _ = crate::fonts::metrics::metrics(face);
    }
}

/// The directories the settings ask for that no directory block of the tree places: they go on
/// top of the body, in this order (contents, figures, tables).
pub(crate) fn directories_on_top(doc: &Document, settings: &WordSettings) -> Vec<DirectoryKind> {
    let placed = |kind: DirectoryKind| {
        doc.blocks
            .iter()
            .any(|b| matches!(b, Block::Directory { kind: k } if *k == kind))
    };
    [
        (settings.text_toc, DirectoryKind::Content),
        (settings.image_toc, DirectoryKind::Images),
        (settings.table_toc, DirectoryKind::Tables),
    ]
    .into_iter()
    .filter(|&(on, kind)| on && !placed(kind))
    .map(|(_, kind)| kind)
    .collect()
}

/// One message per kind of caption left out because its setting is off, from the counts of
/// image and table captions not written.
pub(crate) fn hidden_caption_messages((images, tables): (usize, usize)) -> Vec<String> {
    [
        (images, "image", "imageCaption"),
        (tables, "table", "tableCaption"),
    ]
    .into_iter()
    .filter(|&(n, _, _)| n > 0)
    .map(|(n, what, setting)| format!("{n} {what} caption(s) not written ({setting} is off)"))
    .collect()
}

/// The page (1-based) on which each top-level block starts, `None` for blocks that leave no
/// mark (page breaks), when a list with page numbers will be written (the settings ask for one
/// or the tree places one); empty otherwise. The Word writer fills its TOC page numbers from it,
/// so every reader shows numbers at once (Word still updates them on open).
pub(crate) fn listed_block_pages(doc: &Document, settings: &WordSettings) -> Vec<Option<u32>> {
    let listed = settings.text_toc
        || settings.image_toc
        || settings.table_toc
        || doc.blocks.iter().any(|b| {
            matches!(
                b,
                Block::Directory {
                    kind: DirectoryKind::Content | DirectoryKind::Images | DirectoryKind::Tables
                }
            )
        });
    if listed {
        block_pages(doc, *settings, Paper::A4)
    } else {
        Vec::new()
    }
}

/// The page (1-based) on which each top-level block starts in the layout, `None` for blocks
/// that leave no mark (page breaks).
pub(crate) fn block_pages(
    doc: &Document,
    settings: WordSettings,
    paper: Paper,
) -> Vec<Option<u32>> {
    // Only the anchors are wanted: the pages need not keep their drawing.
    let (_, anchors) = anchors_of(doc, settings, paper, false);
    (0..doc.blocks.len())
        .map(|i| {
            anchors
                .get(&text::Anchor::Block(i))
                .map(|(p, _)| u32::try_from(p + 1).unwrap_or(u32::MAX))
        })
        .collect()
}

/// The number of pages and where each anchor lies, from a layout whose pages keep what is
/// drawn on them or not (`keep_items`): both give the same.
fn anchors_of(
    doc: &Document,
    settings: WordSettings,
    paper: Paper,
    keep_items: bool,
) -> (usize, page::Anchors) {
    let mut lay = layout::Layout::new(doc, settings, page::Geometry::new(paper));
    lay.flow.keep_items = keep_items;
    lay.run();
    let (pages, anchors, _) = lay.flow.finish();
    (pages.len(), anchors)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document that spans pages: headings, justified paragraphs citing footnotes, a word
    /// longer than the line, a table whose header row repeats on the next page, captions.
    fn long_document() -> Document {
        let mut md = String::from("# Report\n\n");
        for i in 0..40 {
            md.push_str(&format!("## Part {i}\n\n"));
            md.push_str(&"Several words of **bold** and *italic* text run on. ".repeat(i % 7 + 3));
            md.push_str(&format!(
                "A note here.[^n{i}]\n\n[^n{i}]: The note of part {i}.\n\n"
            ));
            if i % 9 == 4 {
                md.push_str(&format!("{}\n\n", "x".repeat(300)));
                md.push_str("| Name | Value |\n|---|---|\n");
                for r in 0..60 {
                    md.push_str(&format!(
                        "| row {r} | {} |\n",
                        "cell text ".repeat(r % 4 + 1)
                    ));
                }
                md.push('\n');
            }
        }
        let read = crate::import::markdown::read(
            md.as_bytes(),
            &crate::import::markdown::MarkdownImportOptions::default(),
            &mut |_| None,
        );
        match read {
            Ok(read) => read.value,
            Err(e) => panic!("the Markdown sample did not read: {e}"),
        }
    }

    #[test]
    fn measuring_alone_places_everything_as_drawing_does() {
        // The lists of contents, figures and tables on, as when the Word writer asks for page
        // numbers; the generated document adds pictures, lists and tables with spans.
        let lists = WordSettings::default()
            .with_image_caption(true)
            .with_table_caption(true)
            .with_text_toc(true)
            .with_image_toc(true)
            .with_table_toc(true);
        for (doc, settings) in [
            (long_document(), WordSettings::default()),
            (long_document(), lists),
            (crate::sample::large_document(400, 12, 8, 7), lists),
        ] {
            let (pages, drawn) = anchors_of(&doc, settings, Paper::A4, true);
            let (measured_pages, measured) = anchors_of(&doc, settings, Paper::A4, false);
            assert!(pages > 5, "the sample should span pages, got {pages}");
            assert_eq!(measured_pages, pages);
            assert_eq!(measured.len(), drawn.len());
            for (anchor, at) in &drawn {
                assert_eq!(measured.get(anchor), Some(at), "{anchor:?}");
            }
            let numbers = block_pages(&doc, settings, Paper::A4);
            assert_eq!(numbers.len(), doc.blocks.len());
            assert!(
                numbers
                    .iter()
                    .flatten()
                    .all(|&n| n >= 1 && n as usize <= pages)
            );
        }
    }
}
