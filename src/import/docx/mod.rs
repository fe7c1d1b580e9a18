//! The Word (.docx/.docm) reader: our own, on quick-xml and zip.
//!
//! Two stages, as in mammoth and pandoc's `Docx/Parse`:
//! 1. **Parts → plain structs**, one module per part: `package` (content types, package
//!    relationships, main part), `rels`, `styles`, `numbering`, `body` (with `tbl` and
//!    `drawing`) for the main part, `notes`, `comments`, `core_props`. The main part is
//!    streamed, never loaded as a DOM.
//! 2. **Structs → tree**: `convert` (paragraphs, runs, fields, notes, comments, images),
//!    [`mapping`] (the text type of each paragraph: the API's `styleMapping`, built-in styles,
//!    outline levels, numbering; the seam for magic style sets), `lists` (Word's list
//!    counters), `grid` (tables), `captions`, `media`, `meta`.
//!
//! What is converted (✔ fully, ◐ partly, ✘ not yet):
//! - ✔ package: `[Content_Types].xml`, `_rels/.rels`, any main part name, transitional and ISO
//!   Strict namespaces, any prefix, BOM, UTF-16 parts, `.docm`; foreign files → typed errors
//! - ✔ paragraphs, headings (built-in names, localised ids, outline levels), captions, lists
//!   (`numId`, levels, formats, starts, restarts, continuation), `styleMapping`
//! - ✔ runs: bold, italic, underline, strike/dstrike, super/subscript, small caps, code
//!   (monospace font or code-like character style), custom character styles as spans
//! - ✔ hyperlinks (relationship and anchor), bookmarks → ids, fields (`HYPERLINK`, `REF`,
//!   `PAGEREF`, `NOTEREF` → cross-references, `SEQ` → caption numbering, `TOC` → directories,
//!   others keep their result), line/page/column breaks, tabs, symbols, special hyphens
//! - ✔ footnotes, endnotes, comments (with ranges), tracked insertions/deletions/moves
//! - ✔ tables: spans, vertical merges, header rows, grid widths, gridBefore/After, nesting
//! - ✔ images: DrawingML inline/anchored, VML, linked (reference kept, warned), extent, alt text,
//!   width relative to the section's text width; caption paragraphs attached to neighbours
//! - ✔ metadata: core properties, default footer and page headers (default, first, even),
//!   under the caller's values
//! - ◐ text boxes, also inside groups and canvases (content after the anchoring paragraph, a
//!   group's boxes top to bottom), SmartArt (its text as a nested list after the anchoring
//!   paragraph, warned), code blocks (code styles, `Paragraph::code`), equations (plain text), OLE objects
//!   (preview picture), hidden text (kept as ordinary text), `caps` (ignored: a display
//!   transform)
//! - ✔ ruby (`Inline::Ruby`: base and reading), symbol fonts (Symbol, Wingdings, Webdings →
//!   Unicode), page headers, unknown block elements around runs (their text as a paragraph),
//!   several `w:body` elements
//! - ◐ charts: the cached data as a table (title as caption) with the chart's kind; its styling
//!   dropped (warned)
//! - ✘ shapes without text, `altChunk`, `subDoc` — each reported as a
//!   warning where met; revisions of paragraph marks and of formatting (`w:rPrChange`,
//!   `w:pPrChange`) are ignored: the current formatting is what the tree keeps

mod build;
mod parse;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use bytes::Bytes;

use crate::ast::{Block, Document, Inline, MediaItem, MediaKind, Meta, NoteKind};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::package::{Source, ZipReader};
use crate::report::{Converted, Location, Report, WarningKind};

pub use build::looks::{self, NumberLook, NumberLooks};
pub use build::mapping::{self, MappingEntry, StyleMapping};

use build::convert::{Converter, Sources};
use build::numbering as lists;
use build::meta;
use parse::body::{self, BodyParser, Facts};
use parse::package::Package;
use parse::rels::Relationships;
use parse::{charts as chart, comments, core_props, model, notes, numbering, smartart, styles};

/// Options of the Word reader.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct DocxImportOptions {
    /// Input limits (zip sizes, XML depth).
    pub limits: Limits,
    /// The API's `styleMapping`: Word style name → `{textType, level}`. Parsed from the API's
    /// JSON object with [`StyleMapping::from_json`].
    pub style_mapping: StyleMapping,
    /// The API's creation payload fields (title, description, subtitle, filename, footer,
    /// supplemental, tags, language…) that override what the document says. Length limits are
    /// enforced (HTTP 412): title 200, description 400, subtitle 300, filename 200,
    /// supplemental 400 characters.
    pub meta: Meta,
    /// The API's `styleSetKey` for a magic import (see [`crate::magic`]): applied while
    /// reading, where Word's list definitions (each level's `w:lvlText`) are at hand and before
    /// the tree drops list ids Word only implied. The style mapping should then be empty (the
    /// API ignores a `styleMapping` with magic import; [`crate::import`] does that, with a
    /// warning).
    pub magic: Option<String>,
    /// Parse a large main part on the calling thread only, not in two halves at once on the
    /// rayon pool ([`body::parse_main`]): for a caller that keeps the other cores busy itself
    /// (the CLI inflating a Word file's pictures while it reads). Off by default.
    pub parse_on_one_core: bool,
}

impl DocxImportOptions {
    /// Sets the magic style set key (one key or several joined by `|`).
    pub fn with_magic(mut self, key: impl Into<String>) -> Self {
        self.magic = Some(key.into());
        self
    }

    /// Sets the limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets the style mapping.
    pub fn with_style_mapping(mut self, mapping: StyleMapping) -> Self {
        self.style_mapping = mapping;
        self
    }

    /// Sets the caller's metadata.
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = meta;
        self
    }

    /// Sets [`DocxImportOptions::parse_on_one_core`].
    pub fn with_parse_on_one_core(mut self, on: bool) -> Self {
        self.parse_on_one_core = on;
        self
    }
}

/// Reads a .docx (or .docm) file into a tree.
///
/// Errors: not a Word file ([`Error::WrongFormat`] naming what it is), a broken zip
/// ([`Error::NotZip`]), a malformed main part ([`Error::Xml`]), limits ([`Error::TooLarge`]),
/// caller metadata over the API's limits ([`Error::Parameter`]). Everything else that cannot be
/// converted exactly is a warning.
///
/// ```
/// use sdconv::import::docx::{read, DocxImportOptions};
/// let err = read(b"%PDF-1.7", &DocxImportOptions::default()).unwrap_err();
/// assert_eq!(err.to_string(), "not a docx file: a PDF");
/// ```
pub fn read(bytes: &[u8], options: &DocxImportOptions) -> Result<Converted<Document>> {
    read_source(Source::Borrowed(bytes), options)
}

/// Reads a Word file like [`read`], from borrowed or shared bytes: from [`Source::Shared`]
/// bytes the pictures, kept deflated until something needs them ([`MediaItem::deflated`]),
/// point into those bytes; borrowed bytes cost each picture a copy of its deflated bytes.
pub fn read_source(source: Source<'_>, options: &DocxImportOptions) -> Result<Converted<Document>> {
    let bytes: &[u8] = source.as_ref();
    meta::check_given(&options.meta)?;
    let limits = &options.limits;
    let mut report = Report::new();
    let mut pkg = Package::open(bytes, limits, &mut report)?;
    let main = pkg.main_part.clone();
    let main_rels = pkg.rels_of(&main, &mut report)?;
    let images = main_pictures(&pkg, &main_rels);

    // Pictures are most of a document's bytes and stay deflated (only a header prefix is
    // inflated, to sniff type and size): a second thread reads the main part's pictures while
    // this one reads and converts the text, then this one helps with what is left. Both take
    // pictures from one queue and count their declared sizes against what is left of the
    // budget; the sum of all reads is checked at the end.
    let job = MediaJob::new(
        &source,
        limits
            .clone()
            .with_max_total_size(limits.max_total_size.saturating_sub(pkg.inflated)),
        &images,
    );
    std::thread::scope(|scope| {
        let worker = if images.is_empty() {
            None
        } else {
            std::thread::Builder::new()
                .name("docx-media".into())
                .spawn_scoped(scope, || job.work())
                .ok()
        };
        let side = match text_side(&mut pkg, &main, &main_rels, options, report) {
            Ok(side) => side,
            Err(e) => {
                // Stop the picture thread early; the scope joins it.
                job.cancel();
                return Err(e);
            }
        };
        let TextSide {
            mut doc,
            wanted,
            mut report,
            core,
            mut more_images,
            wide,
        } = side;
        let mine = job.work();
        let theirs = match worker {
            Some(handle) => handle.join().unwrap_or_else(|_| {
                Err(Error::invalid(
                    "media",
                    "reading the pictures failed unexpectedly",
                ))
            }),
            None => Ok(Vec::new()),
        };
        let mut loaded: HashMap<String, std::result::Result<MediaItem, String>> = HashMap::new();
        for (i, item) in mine?.into_iter().chain(theirs?) {
            if let Some(part) = images.get(i) {
                loaded.insert(part.clone(), item);
            }
        }
        // Pictures of notes and comments that the main part does not share.
        more_images.retain(|p| pkg.contains(p) && images.binary_search(p).is_err());
        more_images.sort_unstable();
        more_images.dedup();
        let used = pkg
            .inflated
            .saturating_add(job.inflated.load(Ordering::Relaxed));
        let more = MediaJob::new(
            &source,
            limits
                .clone()
                .with_max_total_size(limits.max_total_size.saturating_sub(used)),
            &more_images,
        );
        for (i, item) in more.work()? {
            if let Some(part) = more_images.get(i) {
                loaded.insert(part.clone(), item);
            }
        }
        let media_inflated = job
            .inflated
            .load(Ordering::Relaxed)
            .saturating_add(more.inflated.load(Ordering::Relaxed));
        if pkg.inflated.saturating_add(media_inflated) > limits.max_total_size {
            return Err(Error::TooLarge {
                what: "total uncompressed size",
                detail: format!("the parts pass {} bytes together", limits.max_total_size),
            });
        }
        let mut missing = HashSet::new();
        // Checked again after reads of pictures outside the media list.
        let check_total = |pkg: &Package<'_>| {
            if pkg.inflated.saturating_add(media_inflated) > limits.max_total_size {
                Err(Error::TooLarge {
                    what: "total uncompressed size",
                    detail: format!("the parts pass {} bytes together", limits.max_total_size),
                })
            } else {
                Ok(())
            }
        };
        // Pictures the tree no longer shows (an inline picture in a caption, which keeps only
        // its text, warned there) stay out of its media.
        let shown = doc.referenced_media();
        for (part, name) in wanted {
            if !shown.contains(&name) {
                continue;
            }
            let found = match loaded.remove(&part) {
                Some(r) => Some(r),
                // Not among the parts named by image relationships: read it here.
                None => pkg
                    .read_bytes(&part)?
                    .map(|data| Ok(MediaItem::new(name.clone(), Bytes::from(data)))),
            };
            match found {
                Some(Ok(mut item)) => {
                    item.name = name.clone();
                    match item.kind {
                        MediaKind::Emf | MediaKind::Wmf => report.warn(
                            WarningKind::Lossy,
                            format!("picture {name} is a Windows metafile; kept as it is (no converter for it)"),
                            Location::part(part.clone()),
                        ),
                        MediaKind::Unknown => report.warn(
                            WarningKind::InvalidValue,
                            format!("picture {name} is not an image format we recognise; kept as it is"),
                            Location::part(part.clone()),
                        ),
                        _ => {}
                    }
                    doc.media.insert(item);
                }
                Some(Err(e)) => {
                    report.warn(
                        WarningKind::MissingMedia,
                        format!("picture {part} cannot be read ({e}); dropped"),
                        Location::part(part.clone()),
                    );
                    missing.insert(name);
                }
                None => {
                    report.warn(
                        WarningKind::MissingMedia,
                        format!("picture {part} is missing from the package; dropped"),
                        Location::part(part.clone()),
                    );
                    missing.insert(name);
                }
            }
        }
        check_total(&pkg)?;
        if !missing.is_empty() {
            drop_images(&mut doc, &missing);
        }
        drop_implied_extents(&mut doc, &wide);
        let read = std::mem::take(&mut doc.meta);
        doc.meta = meta::merge(core, read.footer, &options.meta, &mut report);
        // Page headers: the caller's values first, as for the footer.
        for (slot, value) in [
            (&mut doc.meta.header, read.header),
            (&mut doc.meta.header_first, read.header_first),
            (&mut doc.meta.header_even, read.header_even),
        ] {
            if slot.is_none() {
                *slot = value;
            }
        }
        meta::take_title_blocks(&mut doc.meta, &mut doc.blocks);
        Ok(report.finish(doc))
    })
}

/// What the text side hands back: the tree without media bytes, the pictures it refers to,
/// the report, the core properties, and picture parts of notes and comments.
struct TextSide {
    doc: Document,
    wanted: Vec<(String, String)>,
    report: Report,
    core: core_props::CoreProps,
    more_images: Vec<String>,
    wide: HashSet<(String, u64, u64)>,
}

/// Reads the text parts (main, styles, numbering, notes, comments, core properties) and
/// converts them.
fn text_side(
    pkg: &mut Package<'_>,
    main: &str,
    main_rels: &Relationships,
    options: &DocxImportOptions,
    mut report: Report,
) -> Result<TextSide> {
    let limits = &options.limits;
    let text = pkg
        .read_text(main, &mut report)?
        .ok_or_else(|| Error::MissingPart {
            part: main.to_string(),
        })?;
    let mut more_images = Vec::new();
    let styles = optional(
        pkg,
        main_rels,
        "styles",
        &mut report,
        &mut more_images,
        |t, p, _, _| styles::Styles::parse(t, p, limits),
    )?
    .unwrap_or_default();
    let numbering = optional(
        pkg,
        main_rels,
        "numbering",
        &mut report,
        &mut more_images,
        |t, p, _, _| numbering::Numbering::parse(t, p, limits),
    )?
    .unwrap_or_default();
    let footnotes = optional(
        pkg,
        main_rels,
        "footnotes",
        &mut report,
        &mut more_images,
        |t, p, rels, r| notes::parse(t, p, rels, limits, r, NoteKind::Footnote),
    )?
    .unwrap_or_default();
    let endnotes = optional(
        pkg,
        main_rels,
        "endnotes",
        &mut report,
        &mut more_images,
        |t, p, rels, r| notes::parse(t, p, rels, limits, r, NoteKind::Endnote),
    )?
    .unwrap_or_default();
    let raw_comments = optional(
        pkg,
        main_rels,
        "comments",
        &mut report,
        &mut more_images,
        |t, p, rels, r| comments::parse(t, p, rels, limits, r),
    )?
    .unwrap_or_default();
    let core = read_core(pkg, &mut report)?;
    let (doc, wanted, report, wide) = convert_text(
        pkg,
        Texts {
            text,
            main,
            main_rels,
            styles: &styles,
            numbering: &numbering,
            footnotes: &footnotes,
            endnotes: &endnotes,
            raw_comments,
        },
        options,
        report,
    )?;
    Ok(TextSide {
        doc,
        wanted,
        report,
        core,
        more_images,
        wide,
    })
}

/// The parsed parts stage two works from.
struct Texts<'t> {
    text: String,
    main: &'t str,
    main_rels: &'t Relationships,
    styles: &'t styles::Styles,
    numbering: &'t numbering::Numbering,
    footnotes: &'t notes::NoteMap,
    endnotes: &'t notes::NoteMap,
    raw_comments: Vec<comments::RawComment>,
}

/// The tree without media, the (part, media name) pairs it refers to, and the report. The
/// footer's text travels in `meta.footer` until the metadata are merged.
/// Also the image blocks wider than their text (see `drop_implied_extents`).
type TextResult = Result<(
    Document,
    Vec<(String, String)>,
    Report,
    HashSet<(String, u64, u64)>,
)>;

/// The parts (SmartArt data, charts: `which`) anchored in `blocks`, tables and text boxes
/// included, in order.
fn collect_parts(
    blocks: &[model::Block],
    which: &dyn Fn(&model::Para) -> &Vec<String>,
    out: &mut Vec<String>,
) {
    for b in blocks {
        match b {
            model::Block::Para(p) => {
                out.extend(which(p).iter().cloned());
                for tb in &p.textboxes {
                    collect_parts(tb, which, out);
                }
            }
            model::Block::Table(t) => {
                for cell in t.rows.iter().flat_map(|r| &r.cells) {
                    collect_parts(&cell.blocks, which, out);
                }
            }
            model::Block::Loose(_) => {}
        }
    }
}

/// Parses the main part and converts everything but the pictures' bytes.
fn convert_text(
    pkg: &mut Package<'_>,
    t: Texts<'_>,
    options: &DocxImportOptions,
    mut report: Report,
) -> TextResult {
    let limits = &options.limits;
    let mut facts = Facts::default();
    let body = body::parse_main(
        &t.text,
        t.main,
        t.main_rels,
        limits,
        &mut report,
        &mut facts,
        !options.parse_on_one_core,
    )?;
    drop(t.text);

    let footer_part = body
        .final_section
        .as_ref()
        .and_then(|s| s.default_footer.as_deref())
        .and_then(|id| t.main_rels.get(id))
        .filter(|r| !r.external)
        .map(|r| r.target.clone());
    let footer_blocks = match footer_part {
        Some(part) => optional_part(
            pkg,
            &part,
            &mut report,
            &mut Vec::new(),
            &mut |text, p, rels, r| {
                let mut f = Facts::default();
                BodyParser::new(text, p, rels, limits, r, &mut f).parse_root_blocks()
            },
        )?
        .unwrap_or_default(),
        None => Vec::new(),
    };

    // Page headers by type; a header our writer took from its template (the title line) is
    // the template's, not the document's, and is left out so round trips hold.
    let mut header_blocks: Vec<(String, Vec<model::Block>)> = Vec::new();
    let header_refs = body
        .final_section
        .as_ref()
        .map(|s| s.headers.clone())
        .unwrap_or_default();
    for (ty, id) in header_refs {
        let Some(part) = t
            .main_rels
            .get(&id)
            .filter(|r| !r.external)
            .map(|r| r.target.clone())
        else {
            continue;
        };
        let blocks = optional_part(
            pkg,
            &part,
            &mut report,
            &mut Vec::new(),
            &mut |text, p, rels, r| {
                if text.contains(crate::ooxml::TEMPLATE_HEADER_TAG) {
                    return Ok(Vec::new());
                }
                let mut f = Facts::default();
                BodyParser::new(text, p, rels, limits, r, &mut f).parse_root_blocks()
            },
        )?
        .unwrap_or_default();
        header_blocks.push((ty, blocks));
    }

    // SmartArt data parts anchored anywhere in the body.
    let mut diagram_parts = Vec::new();
    collect_parts(&body.blocks, &|p| &p.diagrams, &mut diagram_parts);
    let mut diagrams = HashMap::new();
    for part in diagram_parts {
        if diagrams.contains_key(&part) {
            continue;
        }
        let items = optional_part(
            pkg,
            &part,
            &mut report,
            &mut Vec::new(),
            &mut |text, p, _rels, _r| smartart::read(text, p, limits),
        )?
        .unwrap_or_default();
        diagrams.insert(part, items);
    }

    let parts: HashSet<String> = pkg.names().iter().map(|n| n.to_ascii_lowercase()).collect();
    let charts = read_charts(pkg, t.main_rels, limits, &mut report)?;
    let comment_ids: HashSet<String> = t.raw_comments.iter().map(|c| c.id.clone()).collect();
    let src = Sources {
        styles: t.styles,
        numbering: t.numbering,
        mapping: &options.style_mapping,
        footnotes: t.footnotes,
        endnotes: t.endnotes,
        comment_ids: &comment_ids,
        facts: &facts,
        parts: &parts,
        main_part: t.main,
        diagrams: &diagrams,
        charts: &charts,
    };
    let mut conv = Converter::new(src, report);
    let blocks = conv.document(body);
    let comments = conv.comments(t.raw_comments);
    let footer = conv.footer_text(footer_blocks);
    let mut headers = Meta::default();
    for (ty, blocks) in header_blocks {
        let text = conv.footer_text(blocks);
        let slot = match ty.as_str() {
            "first" => &mut headers.header_first,
            "even" => &mut headers.header_even,
            _ => &mut headers.header,
        };
        if slot.is_none() {
            *slot = text;
        }
    }
    let alias = std::mem::take(&mut conv.alias);
    let wide = std::mem::take(&mut conv.wide_images);
    let wanted = std::mem::take(&mut conv.media.wanted);
    let looks = std::mem::take(&mut conv.looks);
    let mut report = conv.report;
    let mut doc = Document::new();
    doc.blocks = blocks;
    doc.comments = comments;
    doc.meta.footer = footer;
    doc.meta.header = headers.header;
    doc.meta.header_first = headers.header_first;
    doc.meta.header_even = headers.header_even;
    if !alias.is_empty() {
        rewrite_targets(&mut doc, &alias);
    }
    doc.walk_inline_lists_mut(&mut join_number_and_text_refs);
    if let Some(key) = &options.magic {
        // Before the list ids go: they lead to how Word draws each number.
        crate::magic::apply_with_looks(&mut doc, key, &looks, &mut report)?;
    }
    lists::canonicalise(&mut doc.blocks);
    doc.walk_blocks_mut(&mut |_, block| {
        if let Block::Table(t) = block {
            for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                lists::canonicalise(&mut cell.blocks);
            }
        }
    });
    drop_unreferenced_hidden_ids(&mut doc);
    Ok((doc, wanted, report, wide))
}

/// Picture parts to read (kept deflated, sniffed from their first bytes), shared by the threads
/// that work on them.
struct MediaJob<'b> {
    source: &'b Source<'b>,
    limits: Limits,
    parts: &'b [String],
    next: AtomicUsize,
    inflated: AtomicU64,
}

/// Loaded pictures by index into the job's parts: sniffed (never decoded), or why one could not
/// be read.
type Loaded = Vec<(usize, std::result::Result<MediaItem, String>)>;

impl<'b> MediaJob<'b> {
    fn new(source: &'b Source<'b>, limits: Limits, parts: &'b [String]) -> Self {
        MediaJob {
            source,
            limits,
            parts,
            next: AtomicUsize::new(0),
            inflated: AtomicU64::new(0),
        }
    }

    /// Empties the queue: workers stop after the picture in hand.
    fn cancel(&self) {
        self.next.store(usize::MAX / 2, Ordering::Relaxed);
    }

    /// Takes pictures from the queue until it is empty. Limits stop the whole import: each
    /// thread's reader enforces the per-entry limits, the shared count the total.
    fn work(&self) -> Result<Loaded> {
        let mut out = Vec::new();
        let mut zip: Option<ZipReader<'b>> = None;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(part) = self.parts.get(i) else {
                return Ok(out);
            };
            let reader = match &mut zip {
                Some(z) => z,
                None => zip.insert(ZipReader::from_source(self.source.clone(), &self.limits)?),
            };
            match reader.read_raw(part) {
                Ok(raw) => {
                    let size = raw.size;
                    let total = self
                        .inflated
                        .fetch_add(size, Ordering::Relaxed)
                        .saturating_add(size);
                    if total > self.limits.max_total_size {
                        return Err(Error::TooLarge {
                            what: "total uncompressed size",
                            detail: format!(
                                "the pictures pass the {} bytes left for them",
                                self.limits.max_total_size
                            ),
                        });
                    }
                    let name = part.rsplit('/').next().unwrap_or(part).to_string();
                    out.push((i, Ok(MediaItem::deflated(name, raw))));
                }
                Err(e @ Error::TooLarge { .. }) => return Err(e),
                Err(e) => out.push((i, Err(e.to_string()))),
            }
        }
    }
}

/// The data tables of the chart parts the main part's relationships name, by part name. A chart
/// part that is missing or not XML is left out (the chart is then reported dropped).
fn read_charts(
    pkg: &mut Package<'_>,
    rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
) -> Result<HashMap<String, crate::ast::Table>> {
    let mut out = HashMap::new();
    for rel in rels.iter().filter(|r| r.is("chart") && !r.external) {
        if out.contains_key(&rel.target) {
            continue;
        }
        let Some(text) = pkg.read_text(&rel.target, report)? else {
            continue;
        };
        match chart::read(&text, &rel.target, limits) {
            Ok(data) => {
                if let Some(table) = data.to_table() {
                    out.insert(rel.target.clone(), table);
                }
            }
            Err(e) => report.warn(
                WarningKind::InvalidValue,
                format!("chart part {} could not be read: {e}", rel.target),
                Location::part(rel.target.clone()),
            ),
        }
    }
    Ok(out)
}

/// The picture parts the main part refers to that the package holds, sorted, once each.
fn main_pictures(pkg: &Package<'_>, main_rels: &Relationships) -> Vec<String> {
    let mut images = image_parts(main_rels);
    images.retain(|p| pkg.contains(p));
    images.sort_unstable();
    images.dedup();
    images
}

/// The zip entries of the pictures the main document part of the Word file `bytes` shows,
/// sorted: the pictures [`read`] loads first (kept deflated). For a caller that starts on them
/// while the reader works on the text (the CLI inflates them into files then). Reads only the
/// package's relationships; errors as [`read`] for what is no Word file.
pub fn picture_parts(bytes: &[u8], limits: &Limits) -> Result<Vec<String>> {
    let mut report = Report::new();
    let mut pkg = Package::open(bytes, limits, &mut report)?;
    let main = pkg.main_part.clone();
    let main_rels = pkg.rels_of(&main, &mut report)?;
    Ok(main_pictures(&pkg, &main_rels))
}

/// The image parts a part's relationships name (embedded ones only).
fn image_parts(rels: &Relationships) -> Vec<String> {
    rels.iter()
        .filter(|r| r.is("image") && !r.external)
        .map(|r| r.target.clone())
        .collect()
}

fn read_core(pkg: &mut Package<'_>, report: &mut Report) -> Result<core_props::CoreProps> {
    let Some(part) = pkg
        .package_rels
        .first_of_type("core-properties")
        .map(|r| r.target.clone())
    else {
        return Ok(core_props::CoreProps::default());
    };
    let Some(text) = pkg.read_text(&part, report)? else {
        return Ok(core_props::CoreProps::default());
    };
    let limits = pkg.limits().clone();
    Ok(
        core_props::parse(&text, &part, &limits).unwrap_or_else(|e| {
            report.warn(
                WarningKind::InvalidValue,
                format!("{part} is unreadable; document properties ignored: {e}"),
                Location::part(part.clone()),
            );
            core_props::CoreProps::default()
        }),
    )
}

type PartParser<'p, T> = dyn FnMut(&str, &str, &Relationships, &mut Report) -> Result<T> + 'p;

/// Reads the part the main part's first relationship of type `rel_type` names, if any. A
/// malformed optional part is reported and skipped; limits still stop the import. The image
/// parts its own relationships name are added to `images`.
fn optional<T>(
    pkg: &mut Package<'_>,
    main_rels: &Relationships,
    rel_type: &str,
    report: &mut Report,
    images: &mut Vec<String>,
    mut parse: impl FnMut(&str, &str, &Relationships, &mut Report) -> Result<T>,
) -> Result<Option<T>> {
    let Some(part) = main_rels
        .first_of_type(rel_type)
        .filter(|r| !r.external)
        .map(|r| r.target.clone())
    else {
        return Ok(None);
    };
    optional_part(pkg, &part, report, images, &mut parse)
}

fn optional_part<T>(
    pkg: &mut Package<'_>,
    part: &str,
    report: &mut Report,
    images: &mut Vec<String>,
    parse: &mut PartParser<'_, T>,
) -> Result<Option<T>> {
    if !pkg.contains(part) {
        report.warn(
            WarningKind::MissingMedia,
            format!("{part} is named by a relationship but missing from the package"),
            Location::part(part),
        );
        return Ok(None);
    }
    let rels = pkg.rels_of(part, report)?;
    // Duplicates are removed once all parts are read.
    images.extend(image_parts(&rels));
    let Some(text) = pkg.read_text(part, report)? else {
        return Ok(None);
    };
    match parse(&text, part, &rels, report) {
        Ok(v) => Ok(Some(v)),
        Err(e @ Error::TooLarge { .. }) => Err(e),
        Err(e) => {
            report.warn(
                WarningKind::InvalidValue,
                format!("{part} is unreadable and ignored: {e}"),
                Location::part(part),
            );
            Ok(None)
        }
    }
}

/// Removes pictures whose bytes could not be read, block and inline.
fn drop_images(doc: &mut Document, missing: &HashSet<String>) {
    fn keep_block(b: &Block, missing: &HashSet<String>) -> bool {
        !matches!(b, Block::Image(img) if missing.contains(&img.media))
    }
    doc.blocks.retain(|b| keep_block(b, missing));
    doc.walk_blocks_mut(&mut |_, b| {
        if let Block::Table(t) = b {
            for row in &mut t.rows {
                for cell in &mut row.cells {
                    cell.blocks.retain(|b| keep_block(b, missing));
                }
            }
        }
    });
    doc.walk_inline_lists_mut(&mut |list| {
        list.retain(|i| !matches!(i, Inline::Image { media, .. } if missing.contains(media)));
    });
    // Removing atoms can leave neighbours mergeable: restore canonical form.
    doc.walk_blocks_mut(&mut |_, b| {
        if let Block::Paragraph(p) = b {
            p.content = crate::ast::inline::normalize(&p.content);
        }
    });
}

/// Joins `REF x \r`, one space, `REF x` into one cross-reference showing number and text.
/// Word has no field showing a heading's number and its text together; that pair is how Word
/// users (and our writer) write "see 2.1 Scope".
fn join_number_and_text_refs(list: &mut Vec<Inline>) {
    let mut i = 0;
    while i + 2 < list.len() {
        let joined = match (&list[i], &list[i + 1], &list[i + 2]) {
            (
                Inline::CrossRef {
                    target: a,
                    number: true,
                    text: false,
                },
                Inline::Text { text: space },
                Inline::CrossRef {
                    target: b,
                    number: false,
                    text: true,
                },
            ) if a == b && space == " " => Some(a.clone()),
            _ => None,
        };
        if let Some(target) = joined {
            list.splice(
                i..i + 3,
                [Inline::CrossRef {
                    target,
                    number: true,
                    text: true,
                }],
            );
        }
        i += 1;
    }
}

/// Drops an image block's extent when its `width_percent` and the picture's pixels already
/// say it: the picture is no wider than the text (so `width_percent` is its width) and shown
/// undistorted (the height follows from the pixels' aspect ratio, within rounding). Kept: the
/// extent of a picture wider than its text (`wide`), a distorted one, or one whose pixel size
/// is unknown (a metafile).
///
/// A picture shown at exactly its natural size (one pixel per 1/96 inch, how Word inserts a
/// picture and how every writer shows one with no size) loses both: no size means that size.
fn drop_implied_extents(doc: &mut Document, wide: &HashSet<(String, u64, u64)>) {
    use crate::ast::length::EMU_PER_PX;
    let media = &doc.media;
    let mut implied = |img: &mut crate::ast::Image| {
        let Some(e) = img.extent else { return };
        let Some((w, h)) = media
            .get(&img.media)
            .and_then(|m| m.width.zip(m.height))
            .filter(|(w, h)| *w > 0 && *h > 0)
        else {
            return;
        };
        let natural = (
            u64::from(w).saturating_mul(EMU_PER_PX),
            u64::from(h).saturating_mul(EMU_PER_PX),
        );
        if (e.width, e.height) == natural && !wide.contains(&(img.media.clone(), e.width, e.height))
        {
            img.extent = None;
            img.width_percent = None;
            return;
        }
        if img.width_percent.is_none() || wide.contains(&(img.media.clone(), e.width, e.height)) {
            return;
        }
        let want = e.width as f64 * f64::from(h) / f64::from(w);
        if (e.height as f64 - want).abs() <= (want * 0.002).max(1.0) {
            img.extent = None;
        }
    };
    let mut blocks = std::mem::take(&mut doc.blocks);
    for b in &mut blocks {
        visit_images(b, &mut implied);
    }
    doc.blocks = blocks;
}

fn visit_images(block: &mut Block, f: &mut impl FnMut(&mut crate::ast::Image)) {
    match block {
        Block::Image(img) => f(img),
        Block::Table(t) => {
            for b in t
                .rows
                .iter_mut()
                .flat_map(|r| r.cells.iter_mut())
                .flat_map(|c| c.blocks.iter_mut())
            {
                visit_images(b, f);
            }
        }
        _ => {}
    }
}

/// Takes away block ids that are hidden bookmarks (`_Toc…`, `_Ref…`, `_GoBack`: Word makes
/// them for its own tables of contents and references, ECMA-376 §17.13.6.2) unless a
/// cross-reference or internal link of the document points at them. A TOC's entries are
/// replaced by a directory block, so its `_Toc` bookmarks are no one's target; an id nobody can
/// name is not part of what the document says.
fn drop_unreferenced_hidden_ids(doc: &mut Document) {
    let mut referenced: HashSet<String> = HashSet::new();
    doc.walk_inlines(&mut |inline| match inline {
        Inline::CrossRef { target, .. } => {
            referenced.insert(target.clone());
        }
        Inline::Link { href, .. } => {
            if let Some(anchor) = href.strip_prefix('#') {
                referenced.insert(anchor.to_string());
            }
        }
        _ => {}
    });
    let hidden = |id: &mut Option<String>| {
        if id
            .as_deref()
            .is_some_and(|i| i.starts_with('_') && !referenced.contains(i))
        {
            *id = None;
        }
    };
    doc.walk_blocks_mut(&mut |_, block| match block {
        Block::Paragraph(p) => hidden(&mut p.id),
        Block::Image(img) => hidden(&mut img.id),
        Block::Table(t) => hidden(&mut t.id),
        Block::PageBreak | Block::Directory { .. } => {}
    });
}

/// Points cross-references and internal links at the id a bookmark's block received.
fn rewrite_targets(doc: &mut Document, alias: &std::collections::HashMap<String, String>) {
    doc.walk_inline_lists_mut(&mut |list| {
        for inline in list.iter_mut() {
            match inline {
                Inline::CrossRef { target, .. } => {
                    if let Some(id) = alias.get(target.as_str()) {
                        *target = id.clone();
                    }
                }
                Inline::Link { href, .. } => {
                    if let Some(id) = href.strip_prefix('#').and_then(|a| alias.get(a)) {
                        *href = format!("#{id}");
                    }
                }
                _ => {}
            }
        }
    });
}
