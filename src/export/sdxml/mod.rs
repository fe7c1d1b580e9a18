//! The sd.xml writer: the service's zip of `sd.xml` + `images/`, valid against the service's DTD
//! (`xmllint --noout --dtdvalid sdxml_import.dtd sd.xml`), and carrying everything the DTD cannot
//! hold in `<?sdconv JSON?>` processing instructions ([`crate::sdxml_ext`]) so that our reader
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
//! | `Meta.language` | `meta/language@value` when `de_DE`/`en_EN`/`ru_RU`, else the meta `fields` PI |
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
mod media;
mod readback;

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ast::Document;
use crate::package::{Compression, ZipWriter, finish_converted};
use crate::report::{Converted, Location, Report, WarningKind};
use crate::sdxml_ext::{self, Ext};
use crate::xml::{escape_attr, escape_text};
use crate::xml::{xml_char, xml_clean};

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

/// [`write`] straight into `sink` (the output file): the same bytes, never held in memory.
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
    let (xml, plan) = build(doc, options);
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

fn build(doc: &Document, options: &SdxmlExportOptions) -> (Converted<String>, media::Plan) {
    let mut report = Report::new();
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
    (w.finish(), plan)
}

/// What kind of data a PI would carry; strict mode counts what it leaves out per kind, and the
/// normal mode counts what only our reader will see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Loss {
    /// Tree fields sd.xml has no attribute for.
    Fields,
    /// Tracked changes.
    Tracked,
    /// Marks the context has no element for (a character style inside a footnote).
    Marks,
    /// Inline content the context cannot hold (a note in a note, text XML cannot hold).
    Atoms,
    /// `<b>` added around a `br`.
    Wrappers,
    /// Characters XML 1.0 cannot hold.
    Chars,
}

/// How often one [`Loss`] happened, where first, and what (field names, inline kinds).
#[derive(Debug, Default)]
struct Tally {
    count: usize,
    first_block: Option<usize>,
    what: BTreeMap<String, usize>,
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

    fn tally(&mut self, loss: Loss, what: &str) {
        let block = self.block;
        let t = self.tallies.entry(loss).or_default();
        t.count += 1;
        if t.first_block.is_none() {
            t.first_block = block;
        }
        *t.what.entry(what.to_string()).or_default() += 1;
    }

    /// `<name a="v" …>`.
    fn start(&mut self, name: &str, attrs: &[(&'static str, Cow<'_, str>)]) {
        self.open_tag(name, attrs);
        self.out.push('>');
    }

    /// `<name a="v" …/>`.
    fn empty(&mut self, name: &str, attrs: &[(&'static str, Cow<'_, str>)]) {
        self.open_tag(name, attrs);
        self.out.push_str("/>");
    }

    fn open_tag(&mut self, name: &str, attrs: &[(&'static str, Cow<'_, str>)]) {
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push(' ');
            self.out.push_str(k);
            self.out.push_str("=\"");
            // As in `text`: copy whole what needs no escaping (tabs and newlines do here).
            let special = |b: u8| matches!(b, b'<' | b'>' | b'&' | b'"' | 0xEF) || b < 0x20;
            if v.bytes().any(special) {
                escape_attr(v, &mut self.out);
            } else {
                self.out.push_str(v);
            }
            self.out.push('"');
        }
    }

    /// `</name>`.
    fn end(&mut self, name: &str) {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    /// Escaped text; callers pass text that [`xml_clean`] accepts or accept the loss.
    fn text(&mut self, s: &str) {
        // Most text has nothing to escape: copy it whole instead of char by char. One byte scan
        // finds markup characters, controls and the lead byte of U+FFFE/U+FFFF.
        let special = |b: u8| {
            matches!(b, b'<' | b'>' | b'&' | b'\r' | 0xEF) || (b < 0x20 && b != b'\t' && b != b'\n')
        };
        if !s.bytes().any(special) {
            self.out.push_str(s);
        } else {
            escape_text(s, &mut self.out);
        }
    }

    /// `<name>text</name>`.
    fn text_element(&mut self, name: &str, s: &str) {
        self.start(name, &[]);
        self.text(s);
        self.end(name);
    }

    /// An extension PI. Only called outside strict mode.
    fn pi(&mut self, ext: &Ext) {
        let json = ext.encode();
        self.out.push_str("<?");
        self.out.push_str(sdxml_ext::TARGET);
        self.out.push(' ');
        // JSON leaves U+FFFE/U+FFFF raw, and XML cannot hold them; inside a JSON string (the
        // only place they can be) the escape reads back the same.
        if json.contains(['\u{FFFE}', '\u{FFFF}']) {
            self.out.push_str(
                &json
                    .replace('\u{FFFE}', "\\ufffe")
                    .replace('\u{FFFF}', "\\uffff"),
            );
        } else {
            self.out.push_str(&json);
        }
        self.out.push_str("?>");
    }

    /// The `fields` PI for `value`, which the reader will first build as `back`: nothing when they
    /// agree (the common case, decided without serialising anything).
    fn fields<T>(&mut self, value: &T, back: &T)
    where
        T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        if value == back {
            return;
        }
        let diff = sdxml_ext::field_diff(value, back);
        if cfg!(debug_assertions) {
            check_diff(value, back, &diff);
        }
        if diff.is_empty() {
            return;
        }
        if self.strict {
            for name in diff.keys() {
                self.tally(Loss::Fields, name);
            }
        } else {
            self.pi(&Ext::Fields(diff));
        }
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
            for (loss, t) in piece.tallies {
                let mine = self.tallies.entry(loss).or_default();
                mine.count += t.count;
                if mine.first_block.is_none() {
                    mine.first_block = t.first_block;
                }
                for (what, n) in t.what {
                    *mine.what.entry(what).or_default() += n;
                }
            }
        }
    }

    /// The collected warnings, aggregated ones last in a fixed order, and the text.
    fn finish(mut self) -> Converted<String> {
        let tallies = std::mem::take(&mut self.tallies);
        for (loss, t) in tallies {
            if let Some((kind, message)) = loss_message(loss, self.strict, &t) {
                let mut loc = Location::part(PART);
                if let Some(b) = t.first_block {
                    loc = loc.block(b);
                }
                self.report.warn(kind, message, loc);
            }
        }
        self.report.finish(self.out)
    }
}

/// The writer's own consistency check (debug builds, so every test runs it): the PI must turn
/// the node the reader builds back into `value`. Values that JSON itself cannot carry (a NaN
/// width, which `validate()` rejects anyway) are skipped.
fn check_diff<T>(value: &T, back: &T, diff: &serde_json::Map<String, serde_json::Value>)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let survives_json = serde_json::to_value(value)
        .ok()
        .and_then(|j| serde_json::from_value::<T>(j).ok())
        .is_some_and(|v| v == *value);
    if survives_json {
        debug_assert_eq!(
            sdxml_ext::apply_fields(back, diff).as_ref(),
            Some(value),
            "a fields PI must restore the node"
        );
    }
}

/// The aggregated warning for one kind of loss, or `None` when nothing is lost for the service
/// or for our reader.
fn loss_message(loss: Loss, strict: bool, t: &Tally) -> Option<(WarningKind, String)> {
    let n = t.count;
    let what = t
        .what
        .iter()
        .map(|(k, v)| format!("{k} ×{v}"))
        .collect::<Vec<_>>()
        .join(", ");
    let m = match (loss, strict) {
        (Loss::Fields, true) => (
            WarningKind::Dropped,
            format!(
                "strict DTD mode: {n} tree field value(s) not written, sd.xml has no attribute \
                 for them or cannot hold their characters ({what})"
            ),
        ),
        (Loss::Tracked, true) => (
            WarningKind::Lossy,
            format!(
                "strict DTD mode: {n} tracked change(s) written as plain text, their kind, \
                 author and date left out"
            ),
        ),
        (Loss::Tracked, false) => (
            WarningKind::Lossy,
            format!(
                "{n} tracked change(s) kept only in sdconv PIs: the service shows their text \
                 as plain text"
            ),
        ),
        (Loss::Marks, true) => (
            WarningKind::Lossy,
            format!(
                "strict DTD mode: {n} format(s) left out where the DTD has no element for them \
                 ({what})"
            ),
        ),
        (Loss::Atoms, true) => (
            WarningKind::Dropped,
            format!(
                "strict DTD mode: left out {n} inline item(s) the DTD does not allow where they \
                 are ({what})"
            ),
        ),
        (Loss::Atoms, false) => (
            WarningKind::Lossy,
            format!(
                "{n} inline item(s) the DTD does not allow where they are kept only in sdconv \
                 PIs: the service will not show them ({what})"
            ),
        ),
        (Loss::Wrappers, true) => (
            WarningKind::Lossy,
            format!(
                "strict DTD mode: {n} line break(s) wrapped in <b>, as their parent does not \
                 allow <br>"
            ),
        ),
        (Loss::Chars, true) => (
            WarningKind::Dropped,
            format!("strict DTD mode: left out characters XML 1.0 cannot hold in {n} place(s)"),
        ),
        // Outside strict mode these travel in PIs and the service loses nothing it could show.
        (Loss::Fields | Loss::Marks | Loss::Wrappers | Loss::Chars, false) => return None,
    };
    Some(m)
}

/// `s` without the characters XML cannot hold (borrowed when there are none).
fn xml_safe(s: &str) -> Cow<'_, str> {
    if xml_clean(s) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().filter(|&c| xml_char(c)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_clean_finds_forbidden_characters() {
        assert!(xml_clean("a\tb\nc\r äß € 😀 ｶ"));
        assert!(!xml_clean("a\u{1}b"));
        assert!(!xml_clean("a\u{FFFE}"));
        assert_eq!(xml_safe("a\u{0}b\u{FFFF}c"), "abc");
        assert!(matches!(xml_safe("abc"), Cow::Borrowed(_)));
    }

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

    #[test]
    fn pi_escapes_non_characters() {
        let doc = Document::new();
        let mut w = Writer::new(&doc, false, Report::new());
        w.pi(&Ext::Inline(crate::ast::Inline::text("x\u{FFFE}")));
        assert!(xml_clean(&w.out), "{}", w.out);
        assert!(w.out.contains("\\ufffe"));
    }
}
