//! The sd.xml writer: the service's zip of `sd.xml` + `images/`, valid against the service's DTD
//! (`xmllint --noout --dtdvalid sdxml_import.dtd sd.xml`), and carrying everything the DTD cannot
//! hold in `<?sdconv JSON?>` processing instructions (`sdxml_ext`) so that our reader
//! gets back exactly the tree that was written: `import(export(doc)) == doc`.
//! [`SdxmlExportOptions::strict_dtd`] leaves the PIs out (one warning per kind of data lost).
//!
//! Handled: every block kind and every inline kind, metadata, comments, the index tree, media.
//! Not exact, by design (and warned): media names that are unsafe as zip entries are renamed;
//! strict mode loses what only PIs carry.
//!
//! # Mapping
//!
//! | tree | sd.xml |
//! |---|---|
//! | `Meta.id`, `.generator` | `smashdoc@id`, `smashdoc@version` |
//! | `Meta.language` | `meta/language@value` when `de_DE`/`en_EN`/`ru_RU` or a tag of one of them (`en-US` as `en_EN`, the tag itself in the PI), else the meta `fields` PI |
//! | `Meta.title` … `.creator` | `meta/title`, `filename`, `subtitle`, `description`, `footer`, `creator` (empty element = `None`) |
//! | `Meta.tags`, `.grid` | `meta/tags/tag`, `meta/grid/item` (empty strings only in the PI) |
//! | `Meta.word_export_presets` | `word-export-presets` when its language is `de_DE`/`en_EN`/`en_US`, else the PI |
//! | `Meta.supplemental` | meta `fields` PI |
//! | `Document.comments` | `{"comments":[…]}`, first child of `document` |
//! | `Document.indexes` | `indexes/index-node` (`id`, `target-reference-id`, `title`, `description`, `sorting-key`) |
//! | Paragraph / Caption | `paragraph@indent` (+ `{"kind":"caption"}`) |
//! | ParagraphOl | `paragraph@enumeration` = level |
//! | Heading / HeadingOl | `heading@level` / `heading@enumeration` = level |
//! | ListOl / ListUl | `ol-li` / `ul-li`, `@indent` = level, `@list-id` |
//! | paragraph in a cell | `p` (no attributes: everything in the PI); list items stay `ol-li`/`ul-li` |
//! | `Block::Image` | `image` (text = media name, `width` = `"{w}%"`, `caption`, `num-enabled`, …) |
//! | `Block::Table` | `table` + `column_width/item` (`"{w}%"`) + `tr` (`row-id`, `min-height`) + `th`/`td` |
//! | `Block::PageBreak`, `Directory` | `pagebreak`, `directory@type` |
//! | Bold … Superscript, Code, SmallCaps | `b i u s sub sup kbd sd-sc` |
//! | Link, Span | `a@href`, `inline@stylename` |
//! | Tracked | always `{"open":{"tracked":…}}` … `{"close":null}` |
//! | `Meta.direction`, `.hyphenate`, `Paragraph.lang`/`.dir`, `Table.dir` | the element's `fields` PI: the DTD has no language or direction but the meta's four API codes |
//! | Lang | always `{"open":{"lang":…}}` … `{"close":null}` |
//! | Note Footnote / Endnote / Sidenote | `footnote` / `footnote` + `{"fields":{"kind":"endnote"}}` / `sidenote` |
//! | CrossRef | `xref@href` (target as-is), `data-num-enabled`, `data-content-enabled` |
//! | Inline Image | `img@filename@caption` (empty caption = `None`; `alt` in a PI inside) |
//! | IndexMark | `index@data-id` |
//! | LineBreak | `br`; where the parent has no `br`: `<b><?sdconv {"wrapper":null}?><br/></b>` |
//! | comment anchors | always `{"inline":…}` |
//! | empty table (no rows, no widths) | `{"block":…}` (the DTD needs one `tr` or `column_width`) |
//! | image, table, page break, directory in a cell | `{"block":…}` in the cell |
//!
//! # What the reader must do
//!
//! - **Elements** become nodes exactly as the private module `readback` builds them from the
//!   attributes (it is the writer's model of the reader: every field it does not fill travels in
//!   a PI; its header lists the conventions). Elements are written with a start and an end tag
//!   even when empty, except the DTD's `EMPTY` ones and an `img` without a PI.
//! - **Whitespace**: the writer puts none between elements; every text node inside mixed content
//!   is text, whitespace-only ones included, kept exactly.
//! - **`{"fields":…}`**, first child of `meta`, `paragraph`, `heading`, `ol-li`, `ul-li`, `p`,
//!   `image`, `table`, `tr`, `th`/`td`, `index-node`, `footnote`/`sidenote` and `img`: overlay
//!   the map on the node built from the attributes ([`crate::sdxml_ext::apply_fields`]). It never
//!   holds the content fields (`content`, `rows`, `cells`, `blocks`, `children`), so it may be
//!   applied before or after the children are read. For `tr`, `header` is first derived for the
//!   whole table (a row is a header row when it and all rows above it have only `th` cells) and
//!   the PI applied after that; whenever a row without cells could change that derivation, the
//!   writer states `header` explicitly, so the reader may count such rows either way. A `null`
//!   value means the field's default (`apply_fields` removes the key before deserialising).
//! - **`{"open":MARK}` … `{"close":null}`**: the mark applies to everything between them; opens,
//!   closes and elements nest properly (a close always ends the latest open still open inside the
//!   current element).
//! - **`{"inline":INLINE}`**: insert that inline (any kind: an atom, a `text` holding characters
//!   XML cannot, a line break) at this point, under the marks open here.
//! - **`{"wrapper":null}`**, first child of a formatting element: the element applies no mark.
//! - **`{"block":BLOCK}`** in `document` or a `th`/`td`: insert the block at this point.
//! - **`{"comments":[…]}`**, first child of `document`: `Document.comments`.
//! - The reader normalises inline content (`ast::inline::normalize`), as every reader does.

mod blocks;
mod inlines;
mod losses;
mod markup;
mod media;
mod readback;

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::metafiles::{self, Shown};
use crate::archive::{Compression, ZipWriter, finish_converted};
use crate::ast::Document;
use crate::report::{Converted, Location, Report, WarningKind};
use crate::sdxml_ext::Ext;
use losses::{Loss, Tally};

/// Options for the sd.xml writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct SdxmlExportOptions {
    /// Leave out the `<?sdconv …?>` extension PIs: output for consumers that must see only the
    /// DTD. Each omission is a warning.
    pub strict_dtd: bool,
}

impl SdxmlExportOptions {
    /// Options with [`SdxmlExportOptions::strict_dtd`] on.
    pub fn strict() -> Self {
        SdxmlExportOptions { strict_dtd: true }
    }
}

/// The zip: `sd.xml` + `images/` (every media item the tree references, stored, not deflated).
pub fn write(
    doc: &crate::ast::Document,
    options: &SdxmlExportOptions,
) -> crate::Result<crate::Converted<Vec<u8>>> {
    let zip = fill(doc, options, |xml| {
        ZipWriter::with_room_for(doc.media.iter(), xml)
    })?;
    Ok(finish_converted(zip)?.map(std::io::Cursor::into_inner))
}

/// [`write()`] straight into `sink` (the output file): the same bytes, never held in memory.
pub fn write_to<W: std::io::Write + std::io::Seek>(
    doc: &crate::ast::Document,
    options: &SdxmlExportOptions,
    sink: W,
) -> crate::Result<crate::Converted<W>> {
    finish_converted(fill(doc, options, |_| ZipWriter::on(sink))?)
}

/// The zip's entries, in the archive `open` makes once the XML's length is known.
fn fill<W: std::io::Write + std::io::Seek>(
    doc: &crate::ast::Document,
    options: &SdxmlExportOptions,
    open: impl FnOnce(usize) -> ZipWriter<W>,
) -> crate::Result<crate::Converted<ZipWriter<W>>> {
    let (xml, plan, drawn) = build(doc, options);
    let doc = &*drawn;
    let mut report = Report::new();
    for w in xml.warnings {
        report.push(w);
    }
    let mut zip = open(xml.value.len());
    zip.add(PART, xml.value.as_bytes(), Compression::Deflate)?;
    zip.add_directory("images/")?;
    for entry in &plan.entries {
        match doc.media.get(&entry.original) {
            // A tree read back from JSON knows an image's size but not its bytes.
            Some(item) if !item.has_bytes() && item.size > 0 => report.warn(
                WarningKind::MissingMedia,
                format!(
                    "image {:?} has no bytes (a tree read from JSON?): left out of images/",
                    entry.original
                ),
                Location::part(format!("images/{}", entry.written)),
            ),
            // Copied as the source stored it when still deflated: never inflated here.
            Some(item) => zip.add_media(&format!("images/{}", entry.written), item)?,
            // Reported when the plan was made.
            None => {}
        }
    }
    let unused = doc
        .media
        .iter()
        .filter(|m| !plan.referenced(&m.name))
        .count();
    if unused > 0 {
        report.warn(
            WarningKind::Dropped,
            format!("{unused} media item(s) no block or inline refers to left out of images/"),
            Location::part("images/"),
        );
    }
    Ok(report.finish(zip))
}

/// Only the sd.xml text.
pub fn write_xml(
    doc: &crate::ast::Document,
    options: &SdxmlExportOptions,
) -> crate::Converted<String> {
    build(doc, options).0
}

/// The zip part the XML goes to.
const PART: &str = "sd.xml";

/// From how many top-level blocks they are written in pieces at once
/// ([`Writer::blocks_in_pieces`]): the 10,000 blocks of a 564-page file took 15 ms on one core.
const PARALLEL_BLOCKS: usize = 1000;

fn build<'d>(
    doc: &'d Document,
    options: &SdxmlExportOptions,
) -> (Converted<String>, media::Plan, Cow<'d, Document>) {
    // The service shows JPEG, PNG and GIF: Windows metafiles are drawn as PNG.
    let (drawn, warnings) = metafiles::drawn(
        doc,
        Shown::Png,
        "kept as it is, which the service does not display",
    );
    let mut report = Report::new();
    for warning in warnings {
        report.push(warning);
    }
    let doc = &*drawn;
    if !doc.meta.pages.is_empty() {
        // The DTD's `footer` is one line for every page; Word's headers and footers per
        // section travel in the meta PI, which only sdconv reads.
        let fate = if options.strict_dtd {
            "left out"
        } else {
            "kept in an sdconv PI only"
        };
        report.warn(
            WarningKind::Lossy,
            format!(
                "page headers and footers (meta.pages: per section, first and even pages) are \
                 {fate}: the service shows its one-line footer"
            ),
            Location::part(PART).element("meta"),
        );
    }
    let plan = media::plan(doc, &mut report);
    // Renaming rewrites the references everywhere, PIs included: write a renamed copy.
    let renamed;
    let doc = if plan.renames.is_empty() {
        doc
    } else {
        renamed = plan.apply(doc);
        &renamed
    };
    let mut w = Writer::new(doc, options.strict_dtd, report);
    w.document();
    let xml = w.finish();
    (xml, plan, drawn)
}

/// The writer's state: the output buffer, the report and the loss tallies.
struct Writer<'d> {
    doc: &'d Document,
    strict: bool,
    out: String,
    report: Report,
    /// The top-level block being written, for warning locations.
    block: Option<usize>,
    tallies: BTreeMap<Loss, Tally>,
    /// A long document's blocks may be written in pieces at once (off: one after the other).
    in_pieces: bool,
    /// The last `fields` PI worked out, to write again for the same pair.
    last_fields: Option<markup::FieldsMemo>,
}

impl<'d> Writer<'d> {
    fn new(doc: &'d Document, strict: bool, report: Report) -> Self {
        Self::sized(doc, strict, report, doc.blocks.len())
    }

    /// A writer with room for about `blocks` top-level blocks (roughly 160 bytes each; growing
    /// costs little anyway).
    fn sized(doc: &'d Document, strict: bool, report: Report, blocks: usize) -> Self {
        Writer {
            doc,
            strict,
            out: String::with_capacity(4096 + blocks * 160),
            report,
            block: None,
            tallies: BTreeMap::new(),
            in_pieces: true,
            last_fields: None,
        }
    }

    fn location(&self, element: &str) -> Location {
        let loc = Location::part(PART).element(element);
        match self.block {
            Some(b) => loc.block(b),
            None => loc,
        }
    }

    fn warn(&mut self, kind: WarningKind, element: &str, message: impl Into<String>) {
        let loc = self.location(element);
        self.report.warn(kind, message, loc);
    }

    /// The whole document.
    fn document(&mut self) {
        self.out
            .push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
        let doc = self.doc;
        let meta = blocks::meta_out(&doc.meta);
        self.start("smashdoc", &meta.root);
        self.meta(&meta);
        self.start("document", &[]);
        if !doc.comments.is_empty() {
            let n = doc.comments.len();
            if self.strict {
                self.warn(
                    WarningKind::Dropped,
                    "document",
                    format!("strict DTD mode: left out {n} comment(s) and their anchors"),
                );
            } else {
                self.pi(&Ext::Comments(doc.comments.clone()));
                self.warn(
                    WarningKind::Lossy,
                    "document",
                    format!(
                        "{n} comment(s) kept only in an sdconv PI: the service will not show them"
                    ),
                );
            }
        }
        if self.in_pieces && doc.blocks.len() >= PARALLEL_BLOCKS {
            self.blocks_in_pieces();
        } else {
            for (i, block) in doc.blocks.iter().enumerate() {
                self.block = Some(i);
                self.block(block);
            }
        }
        self.block = None;
        self.end("document");
        if !doc.indexes.is_empty() {
            self.start("indexes", &[]);
            for node in &doc.indexes {
                self.index_node(node);
            }
            self.end("indexes");
        }
        self.end("smashdoc");
    }

    /// The top-level blocks written in pieces on the rayon pool, then joined in order: a block's
    /// XML depends on nothing written before it, only the warnings and loss tallies gather
    /// across blocks, and those join in order too (a tally's first block is the first piece's
    /// that has one).
    fn blocks_in_pieces(&mut self) {
        use rayon::prelude::*;
        let doc = self.doc;
        let size = doc
            .blocks
            .len()
            .div_ceil(rayon::current_num_threads().max(1) * 4)
            .max(1);
        let pieces: Vec<Writer<'d>> = doc
            .blocks
            .par_chunks(size)
            .enumerate()
            .map(|(k, chunk)| {
                let mut w = Writer::sized(doc, self.strict, Report::new(), chunk.len());
                w.in_pieces = false;
                for (j, block) in chunk.iter().enumerate() {
                    w.block = Some(k * size + j);
                    w.block(block);
                }
                w
            })
            .collect();
        for piece in pieces {
            self.out.push_str(&piece.out);
            for w in piece.report.finish(()).warnings {
                self.report.push(w);
            }
            self.merge_tallies(piece.tallies);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_written_in_pieces_read_as_written_in_order() {
        use crate::ast::{Block, Inline, Paragraph, TextType};
        let mut doc = crate::sample::large_document(1500, 20, 0, 5);
        // Losses and warnings in several pieces: characters XML cannot hold (a tally), tables
        // without rows (a warning each, located at its block).
        let n = doc.blocks.len();
        for at in [n, n * 3 / 4, n / 2, n / 4, 3] {
            let odd = Paragraph::new(TextType::Paragraph, vec![Inline::text("a\u{b}b")]);
            doc.blocks.insert(at, Block::Paragraph(odd));
            let mut empty = match doc.blocks.iter().find(|b| matches!(b, Block::Table(_))) {
                Some(Block::Table(t)) => t.clone(),
                _ => panic!("the sample has tables"),
            };
            empty.rows.clear();
            empty.columns.clear();
            doc.blocks.insert(at, Block::Table(empty));
        }
        assert!(doc.blocks.len() >= PARALLEL_BLOCKS);
        for strict in [false, true] {
            let write = |in_pieces: bool| {
                let mut w = Writer::new(&doc, strict, Report::new());
                w.in_pieces = in_pieces;
                w.document();
                w.finish()
            };
            let (pieces, one) = (write(true), write(false));
            assert!(
                pieces.value == one.value,
                "strict {strict}: the XML differs"
            );
            assert_eq!(pieces.warnings, one.warnings, "strict {strict}");
            let tables = one
                .warnings
                .iter()
                .filter(|w| w.location.element.as_deref() == Some("table"));
            assert_eq!(tables.count(), 5, "{:?}", one.warnings);
        }
    }
}
