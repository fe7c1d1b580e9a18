//! parsX 4 writer: a zip of `parsx.xml` (namespace `https://www.parsx.de/ns/4.0`) and `images/`.
//!
//! ```text
//! projekt ─ meta ─ global (titel, untertitel, kurztext) · ausgaben/ausgabe · dokumentation/verlag
//!         └ werk ─ hauptteil ─ kapitel (u1 … u6, abs, liste_*, tabelle, bild, kapitel …)
//! ```
//!
//! What maps to what (the checklist):
//! - **Headings** open a `kapitel` (its `id` is the heading's) holding `u{level+1}/titel` with
//!   `zaehler` (the shared outline number of a numbered heading, [`crate::ast::numbering`]) and
//!   `text`. Deeper headings nest their `kapitel` inside the open shallower one; a heading closes
//!   every open `kapitel` of its level or deeper.
//! - **Content before the first heading** goes into a leading `kapitel` without a `u*` title
//!   (the shape the parsX project's own HTML import produces), so `hauptteil` only ever holds
//!   `kapitel`. An empty document gets one `kapitel` holding an empty `abs`.
//! - **Paragraphs** → `abs` (`ausrichtung="zentriert|rechts|blocksatz"` when not left-aligned);
//!   numbered paragraphs carry their outline number as a text prefix (warned: parsX numbers only
//!   titles); stand-alone captions become plain `abs` (warned).
//! - **Line breaks**: parsX has no break element we can rely on, so a paragraph with breaks is
//!   written as consecutive `abs` elements (warned once); in titles a break becomes a space.
//! - **Lists** → `liste_geordnet`/`liste_ungeordnet` → `eintrag` → `abs`, nested inside the
//!   previous `eintrag` by level; a skipped level gets an `eintrag ebene-ueberspringen="ja"`
//!   holding only the deeper list. An ordered list that does not start at 1 is warned about.
//! - **Tables** → `tabelle` (`nummeriert`, `titel/text` caption) → `table` → `thead` (leading
//!   header rows) / `tbody` → `tr` → `th`/`td` (`colspan`/`rowspan` when > 1) holding blocks.
//! - **Images** → `bild nummeriert="ja|nein"` → `abbildung quelle="images/…" ersatztext="…"` +
//!   `legende/abs`; inline images → `abbildung` inside the text. Missing media: warned, the
//!   caption is kept as an `abs`.
//! - **Inline**: `fett`, `kursiv`, `unterstr`, `durchgestr`, `hoch`, `tief`, `kapitaelchen`,
//!   `code`; links → `verweis verweis-extern`, `#id` links and cross-references →
//!   `verweis verweis-intern` (the reference text is computed: number and/or target text);
//!   footnotes/endnotes → `fussnote`/`endnote` holding `abs`; sidenotes → `fussnote` (warned).
//! - **Dropped with one warning each**: deleted tracked text (inserted text is kept), comments,
//!   index marks, character styles, page breaks and directories (parsX renderers paginate and
//!   generate directories themselves), paragraph indents, image sizes, column widths, cell
//!   formatting, the meta fields parsX has no place for (footer, tags, supplemental).
//! - **Ids** are sanitised to XML NCNames and made unique (repairs are warned).
//! - **Language**: [`ParsxOptions::language`] (else the document's) is written as `xml:lang` on
//!   `projekt` and names figures and tables in cross-reference texts.

mod blocks;
mod document;
mod ids;
mod images;
mod inline;
mod lists;
mod markup;
mod tables;

use std::collections::{BTreeMap, HashMap, HashSet};

use super::marks::{Loss, MarkPolicy};
use super::metafiles::{self, Shown};
use crate::archive::{Compression, ZipWriter, finish_converted};
use crate::ast::{Document, MediaItem, MediaKind, TextStyle};
use crate::error::Result;
use crate::lang::Language;
use crate::report::{Converted, Location, Report, WarningKind};
use ids::Target;
pub use ids::ncname;

/// The parsX 4 namespace.
pub const NAMESPACE: &str = "https://www.parsx.de/ns/4.0";

/// Options for the parsX writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ParsxOptions {
    /// Language for `xml:lang` and the figure/table words in cross-reference texts; the
    /// document's own language when `None`.
    pub language: Option<Language>,
}

impl ParsxOptions {
    /// Sets [`ParsxOptions::language`].
    pub fn with_language(mut self, language: Language) -> Self {
        self.language = Some(language);
        self
    }
}

/// Writes the parsX zip: `parsx.xml`, then `images/` with every image the text refers to.
pub fn write(doc: &Document, opts: &ParsxOptions) -> Result<Converted<Vec<u8>>> {
    let built = build(doc, opts);
    let zip = ZipWriter::with_room_for(built.images.values(), built.xml.len());
    Ok(finish_converted(fill(built, zip)?)?.map(std::io::Cursor::into_inner))
}

/// [`write()`] straight into `sink` (the output file): the same bytes, never held in memory.
pub fn write_to<S: std::io::Write + std::io::Seek>(
    doc: &Document,
    opts: &ParsxOptions,
    sink: S,
) -> Result<Converted<S>> {
    finish_converted(fill(build(doc, opts), ZipWriter::on(sink))?)
}

fn fill<S: std::io::Write + std::io::Seek>(
    built: Built,
    mut zip: ZipWriter<S>,
) -> Result<Converted<ZipWriter<S>>> {
    zip.add("parsx.xml", built.xml.as_bytes(), Compression::Deflate)?;
    zip.add_directory("images/")?;
    for (name, item) in &built.images {
        let path = format!("images/{name}");
        // Already-compressed formats are stored: deflating them again only costs time. A
        // picture still deflated as its source stored it is copied as it is.
        let compression = match item.kind {
            MediaKind::Png | MediaKind::Jpeg | MediaKind::Gif | MediaKind::Webp => {
                Compression::Store
            }
            _ => Compression::Deflate,
        };
        match item.stored() {
            Some(raw) => zip.add_raw(&path, raw)?,
            None => zip.add(&path, &item.bytes()?, compression)?,
        }
    }
    Ok(built.report.finish(zip))
}

/// Writes only `parsx.xml` (image references point into `images/` as in the zip).
pub fn write_xml(doc: &Document, opts: &ParsxOptions) -> Converted<String> {
    let built = build(doc, opts);
    built.report.finish(built.xml)
}

struct Built {
    xml: String,
    images: BTreeMap<String, MediaItem>,
    report: Report,
}

fn build(doc: &Document, opts: &ParsxOptions) -> Built {
    // The service shows JPEG, PNG and GIF: Windows metafiles are drawn as PNG.
    let (doc, drawn) = metafiles::drawn(
        doc,
        Shown::Png,
        "kept as it is, which the service does not display",
    );
    let doc = &*doc;
    let mut report = Report::new();
    if let Some(message) = crate::ast::changes::unshown_marks(doc) {
        report.warn(WarningKind::Lossy, message, Location::part("parsx.xml"));
    }
    for warning in drawn {
        report.push(warning);
    }
    let language = opts
        .language
        .or_else(|| doc.meta.language.as_deref().and_then(Language::parse));
    let mut w = Writer {
        doc,
        language,
        out: String::with_capacity(4096),
        depth: 0,
        report,
        warned: HashSet::new(),
        block_ids: HashMap::new(),
        targets: HashMap::new(),
        images: BTreeMap::new(),
        image_names: HashMap::new(),
        taken_image_names: HashSet::new(),
        path: Vec::new(),
        block: 0,
        warned_targets: HashSet::new(),
        in_item: false,
    };
    w.collect_ids();
    w.document();
    Built {
        xml: w.out,
        images: w.images,
        report: w.report,
    }
}

struct Writer<'d> {
    doc: &'d Document,
    language: Option<Language>,
    out: String,
    depth: usize,
    report: Report,
    warned: HashSet<String>,
    /// The id written for a block, by its path (top index, then row/cell/block triples).
    block_ids: HashMap<Vec<usize>, String>,
    /// Cross-reference targets by the tree's id.
    targets: HashMap<String, Target>,
    /// Zip name → every image written (clones share the bytes).
    images: BTreeMap<String, MediaItem>,
    /// Media name → zip name.
    image_names: HashMap<String, String>,
    taken_image_names: HashSet<String>,
    /// Path of the block being written.
    path: Vec<usize>,
    /// Index of the top-level block being written (for warning locations).
    block: usize,
    warned_targets: HashSet<String>,
    /// The block being written continues an open list item (its indent says so).
    in_item: bool,
}

/// parsX writes every text style; internal links only to targets it has.
impl MarkPolicy for Writer<'_> {
    fn keeps_style(&self, _style: TextStyle) -> bool {
        true
    }

    fn keeps_link(&mut self, href: &str) -> bool {
        match href.strip_prefix('#') {
            Some(target) if self.targets.contains_key(target) => true,
            Some(target) => {
                self.warn_target(target, "link");
                false
            }
            None => !href.is_empty(),
        }
    }

    fn lost(&mut self, loss: Loss) {
        let (key, kind, message) = loss.warning("parsX");
        self.warn_once(&key, kind, &message);
    }
}

impl Writer<'_> {
    fn loc(&self) -> Location {
        Location::part("parsx.xml").block(self.block)
    }

    fn warn(&mut self, kind: WarningKind, message: impl Into<String>) {
        let loc = self.loc();
        self.report.warn(kind, message, loc);
    }

    /// Warns once per `key` for the whole document.
    fn warn_once(&mut self, key: &str, kind: WarningKind, message: &str) {
        if self.warned.insert(key.to_string()) {
            self.warn(kind, message);
        }
    }

    fn lang(&self) -> Language {
        self.language.unwrap_or_default()
    }

    fn warn_target(&mut self, target: &str, what: &str) {
        if self.warned_targets.insert(target.to_string()) {
            self.warn(
                WarningKind::Dropped,
                format!("{what} to unknown id {target:?} written without its target"),
            );
        }
    }
}
