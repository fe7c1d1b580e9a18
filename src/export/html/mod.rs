//! HTML export: `html` (a page, `style.css` and `images/`; zipped for the API's download form) and
//! `html_all_in_one` (one self-contained file: CSS inline, images as `data:` URIs).
//!
//! What each node becomes:
//! - headings (`heading`, `heading-ol`) → `h1`–`h6` by level, numbered ones with their computed
//!   number (`1.2`) from [`crate::ast::numbering`]; `paragraph-ol` → `p.numbered` with its number;
//!   `caption` → `p.caption`; every block gets its source id (sanitised, unique) as `id`; code
//!   blocks → `pre.code > code.language-…`, whitespace exact. Done.
//! - `list-ol`/`list-ul` items → nested `ol`/`ul` (a jump of several levels opens intermediate
//!   lists), `start`/`value` from the shared numbering, `type` from the number format. Done.
//! - images → `figure`/`img` (width %, alt, pixel size)/`figcaption` (`Figure 3: …` in the
//!   document's language); inline images → `img.inline`. Done; EMF/WMF/TIFF are written but
//!   browsers cannot show them (warned).
//! - tables → `table` with `caption`, `colgroup` widths, `thead` for leading header rows,
//!   `th`/`td` with spans, alignment, colours and borders, cell blocks, inside a scrolling
//!   `div.table-wrap` region a keyboard reaches, named by the caption. Done.
//! - footnotes and endnotes → numbered references linking both ways to `section.footnotes` /
//!   `section.endnotes` (footnotes at a `footnotes` directory when there is one); sidenotes →
//!   `aside` after their block. Notes inside notes are written inline in brackets (warned).
//! - cross-references → internal links showing the target's number and/or text; a target with
//!   neither, or an unknown id, shows a neutral "↗" (warned), never the raw id. Done.
//! - page headers and footers (`meta.pages`) → the first section's header as
//!   `header.page-header` above the text and its footer as `footer.doc-footer` below it (else
//!   the one-line `meta.footer`); other sections', first and even pages' texts and page-number
//!   fields are left out, warned.
//! - tracked changes → `ins`/`del` with author/date in `title` and a valid `datetime`. Done.
//! - comments → each text run in a comment's range is a `mark.comment` (so ranges may cross any
//!   formatting and paragraph boundaries and the HTML stays valid), an empty anchor where the
//!   range starts, a reference where it ends, and the comments listed in `aside.comments`. Done.
//! - page breaks → `div.page-break` (`break-after: page` when printed); directories → generated
//!   navigation (contents, figures, tables, web links, index, sidenotes) with localised titles.
//! - index marks → empty `span.index-mark` anchors, targets of the index directory.
//! - languages and directions → `<html lang dir>` (the options' language, else the document's
//!   tag; `dir="rtl"` for a right-to-left document), `lang`/`dir` on paragraphs, headings, list
//!   items, lists whose items share a direction, tables and cells where they differ from what
//!   they inherit, `span[lang][dir]` for a run in another language (module `langdir`). Done.
//!
//! Accessibility (module `landmarks`; axe-core finds no WCAG 2.1 A/AA or best-practice
//! violation, `tests/browser/axe.mjs`): the page header is the one banner; the title is the `h1`
//! inside `main` (else a visually hidden one); heading levels are outline ranks without gaps;
//! comments are a complementary landmark beside `main`; links are underlined.
//!
//! Safety: all text and attribute values are escaped, forbidden code points replaced; links keep
//! only `http`, `https`, `mailto`, relative and `#` targets (module `url`), anything else is dropped
//! with its text kept and a warning; CSS values from the tree (colours, lengths) are checked
//! before they reach a `style` attribute; image file names are sanitised (module `ids`).
//!
//! Speed: one pass writes into a single pre-sized `String`; the only second pass is a splice when
//! directories exist (their entries are known only at the end). Images are `Bytes` clones; base64
//! is encoded straight into the page.

mod blocks;
mod chart;
mod directory;
mod escape;
mod ids;
mod inline;
mod landmarks;
mod langdir;
pub mod mammoth;
mod mathml;
mod notes;
mod page;
mod streamed;
mod url;

pub use streamed::write_all_in_one_to;

use std::collections::{HashMap, HashSet};

use bytes::Bytes;

use crate::archive::{Compression, ZipWriter, finish_converted};
use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{Block, DirectoryKind, Document, Inline, MediaItem, TextType, inline::plain_text};
use crate::export::metafiles::{self, Shown};
use crate::lang::Language;
use crate::report::{Converted, Location, Report, WarningKind};

/// The stylesheet of both forms: `style.css` beside the page, or inline in the single file.
pub const STYLESHEET: &str = include_str!("style.css");

/// Options of the HTML writers.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct HtmlOptions {
    /// Language of the page (`lang`) and of generated words (caption labels, directory titles).
    /// Default: the document's own language for `lang` (any BCP 47 tag), and for the words
    /// `doc.meta.language` when it names one of the four, else English.
    pub language: Option<Language>,
    /// Write the clean fragment mammoth writes instead of a page ([`mammoth`]): both forms
    /// then hold only that fragment, images inline, no stylesheet.
    pub mammoth: Option<mammoth::MammothOptions>,
}

impl HtmlOptions {
    /// Options that write mammoth's fragment.
    pub fn with_mammoth(mut self, options: mammoth::MammothOptions) -> Self {
        self.mammoth = Some(options);
        self
    }

    /// Options with the page language set.
    pub fn with_language(mut self, language: Language) -> Self {
        self.language = Some(language);
        self
    }
}

/// Files of the `html` export: `("index.html", …)`, `("style.css", …)`, then
/// `("images/<name>", …)` for every image the page shows, in media-store order — the CLI writes
/// them to a folder, the facade zips them ([`write_zip`]). The pictures must be real files, so
/// those still deflated are inflated here, in parallel; the bytes are shared with the tree's
/// media, not copied. A picture that does not inflate is left out, with a warning.
pub fn write_files(doc: &Document, opts: &HtmlOptions) -> Converted<Vec<(String, Bytes)>> {
    let Converted {
        value: HtmlParts { html, images },
        warnings,
    } = write_parts(doc, opts);
    let mut report = Report::new();
    for w in warnings {
        report.push(w);
    }
    let crate::ast::media::ReadFiles {
        files: pictures,
        broken,
    } = crate::ast::media::read_files(images);
    let mut files = Vec::with_capacity(2 + pictures.len());
    files.push(("index.html".to_string(), Bytes::from(html)));
    if opts.mammoth.is_none() {
        files.push((
            "style.css".to_string(),
            Bytes::from_static(STYLESHEET.as_bytes()),
        ));
    }
    files.extend(pictures);
    for (name, e) in broken {
        report.warn(
            WarningKind::MissingMedia,
            format!("{e}; {name} is not written"),
            Location::default().element("img@src"),
        );
    }
    report.finish(files)
}

/// The `html` export as a zip (the API's download form): `index.html`, `style.css` and
/// `images/`, deterministic bytes. Pictures still deflated as their source stored them are
/// copied as they are, never inflated.
pub fn write_zip(doc: &Document, opts: &HtmlOptions) -> crate::Result<Converted<Vec<u8>>> {
    let parts = write_parts(doc, opts);
    let zip = ZipWriter::with_room_for(
        parts.value.images.iter().map(|(_, i)| i),
        parts.value.html.len(),
    );
    let css = opts.mammoth.is_none();
    Ok(finish_converted(fill_zip(parts, zip, css)?)?.map(std::io::Cursor::into_inner))
}

/// [`write_zip`] straight into `sink` (the output file): the same bytes, never held in memory.
pub fn write_zip_to<S: std::io::Write + std::io::Seek>(
    doc: &Document,
    opts: &HtmlOptions,
    sink: S,
) -> crate::Result<Converted<S>> {
    let css = opts.mammoth.is_none();
    finish_converted(fill_zip(write_parts(doc, opts), ZipWriter::on(sink), css)?)
}

fn fill_zip<S: std::io::Write + std::io::Seek>(
    parts: Converted<HtmlParts>,
    mut zip: ZipWriter<S>,
    css: bool,
) -> crate::Result<Converted<ZipWriter<S>>> {
    let Converted {
        value: HtmlParts { html, images },
        warnings,
    } = parts;
    zip.add("index.html", html.as_bytes(), Compression::Deflate)?;
    if css {
        zip.add("style.css", STYLESHEET.as_bytes(), Compression::Deflate)?;
    }
    for (name, item) in &images {
        zip.add_media(name, item)?;
    }
    Ok(Converted {
        value: zip,
        warnings,
    })
}

/// The `html` export before any picture is read: the page and the pictures it shows.
#[derive(Debug)]
pub struct HtmlParts {
    /// `index.html` (it links `style.css`, [`STYLESHEET`]).
    pub html: String,
    /// The pictures the page shows, each with its file name (`images/<name>`), in media-store
    /// order: the tree's own (sharing their bytes), and its Windows metafiles drawn as SVG.
    pub images: Vec<(String, MediaItem)>,
}

/// The `html` export with its pictures left as they are, for a caller that writes them itself:
/// the CLI streams pictures still deflated straight into their files
/// ([`MediaItem::write_to`]), in parallel. [`write_files`] and [`write_zip`] are built on it.
pub fn write_parts(doc: &Document, opts: &HtmlOptions) -> Converted<HtmlParts> {
    if let Some(m) = &opts.mammoth {
        return mammoth::write(doc, m).map(|html| HtmlParts {
            html,
            images: Vec::new(),
        });
    }
    let (doc, drawn) = metafiles::drawn(doc, Shown::Svg, METAFILE_LOST);
    let doc = &*doc;
    let mut w = Writer::new(doc, opts, ImageMode::Files);
    for warning in drawn {
        w.report.push(warning);
    }
    let html = w.run();
    let mut images = Vec::with_capacity(w.media.used.len());
    for item in doc.media.iter() {
        if !w.media.used.contains(item.name.as_str()) {
            continue;
        }
        if let Some(file) = w.media.files.get(item.name.as_str()) {
            if *file != item.name {
                w.report.warn(
                    WarningKind::Repaired,
                    format!("image {:?} is written as images/{file}", item.name),
                    Location::default().element("img@src"),
                );
            }
            images.push((format!("images/{file}"), item.clone()));
        }
    }
    w.report.finish(HtmlParts { html, images })
}

/// One self-contained page: the stylesheet inline, images as `data:` URIs (base64).
pub fn write_all_in_one(doc: &Document, opts: &HtmlOptions) -> Converted<String> {
    if let Some(m) = &opts.mammoth {
        return mammoth::write(doc, m);
    }
    all_in_one(doc, opts, ImageMode::Inline, |page, w| {
        w.report.finish(page)
    })
}

/// Writes the single-file page in `mode` ([`ImageMode::Inline`] or [`ImageMode::Streamed`]) and
/// hands it, with its writer, to `finish`.
fn all_in_one<R>(
    doc: &Document,
    opts: &HtmlOptions,
    mode: ImageMode,
    finish: impl FnOnce(String, Writer<'_>) -> R,
) -> R {
    let (doc, drawn) = metafiles::drawn(doc, Shown::Svg, METAFILE_LOST);
    let doc = &*doc;
    let mut w = Writer::new(doc, opts, mode);
    for warning in drawn {
        w.report.push(warning);
    }
    // A data URI needs its picture inflated, which took the writer longer than the text: the
    // pictures are inflated on a thread of their own while the text is written (last first, so
    // the writer, going forward, seldom waits on one being inflated; `bytes` caches each once).
    // Where no thread can be started (WebAssembly), the writer inflates them as it goes.
    let page = std::thread::scope(|s| {
        let _ahead = std::thread::Builder::new().spawn_scoped(s, || inflate_ahead(doc));
        w.run()
    });
    finish(page, w)
}

/// Inflates the pictures `doc` shows (not every item of its store: a package may carry
/// pictures nothing refers to), last name first; errors are left for the writer, which reports
/// the pictures it uses.
fn inflate_ahead(doc: &Document) {
    for name in doc.referenced_media().iter().rev() {
        if let Some(item) = doc.media.get(name)
            && item.has_bytes()
        {
            let _ = item.bytes();
        }
    }
}

/// [`write_all_in_one`] as the API's download form: a zip holding the one page as
/// `index.html` (the download is always a zip "with an html page").
pub fn write_all_in_one_zip(
    doc: &Document,
    opts: &HtmlOptions,
) -> crate::Result<Converted<Vec<u8>>> {
    let Converted { value, warnings } = write_all_in_one(doc, opts);
    let mut zip = ZipWriter::new();
    zip.add("index.html", value.as_bytes(), Compression::Deflate)?;
    Ok(Converted {
        value: zip.finish()?,
        warnings,
    })
}

/// What a page loses with a Windows metafile that could not be drawn.
const METAFILE_LOST: &str = "kept as it is, which browsers do not display";

/// How images reach the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ImageMode {
    /// `images/<name>` files beside the page.
    Files,
    /// `data:` URIs.
    Inline,
    /// `data:` URIs whose base64 goes straight into the output file ([`streamed`]): the page
    /// holds a marker per picture instead.
    Streamed,
}

/// What a cross-reference to a block shows and where it points.
#[derive(Debug)]
struct Target {
    /// The element id in the page.
    html_id: String,
    /// The block's number as shown (`1.2`, `c`, `Figure 3`).
    label: Option<String>,
    /// The block's text (paragraph text or caption).
    text: String,
}

/// Ids and cross-reference targets of the blocks that carry a source id, found before writing so
/// forward references work.
#[derive(Debug, Default)]
struct Targets<'a> {
    /// Block address → index into `list` (addresses are stable: the tree is borrowed).
    by_block: HashMap<*const Block, usize>,
    /// Source id → index into `list` (first block with that id).
    by_source: HashMap<&'a str, usize>,
    list: Vec<Target>,
}

/// Image bookkeeping.
#[derive(Debug, Default)]
struct Media<'a> {
    /// Media name → file name under `images/`.
    files: HashMap<&'a str, String>,
    /// The pictures of [`ImageMode::Streamed`] markers, by marker number.
    streamed: Vec<&'a MediaItem>,
    /// Media names the page shows.
    used: HashSet<&'a str>,
    /// Media names already warned about (missing, or not shown by browsers).
    warned: HashSet<&'a str>,
}

/// Comment bookkeeping.
#[derive(Debug, Default)]
struct Comments<'a> {
    /// Comment id → index in `doc.comments`.
    index: HashMap<&'a str, usize>,
    /// Display number per comment (1-based, in order of their first anchor); 0 = not yet.
    number: Vec<u32>,
    /// Comment indexes in display order.
    order: Vec<usize>,
    /// The comments whose range we are inside, in the order they started.
    active: Vec<usize>,
    /// `author: text`, the hover text of each comment's marks.
    titles: Vec<String>,
}

/// An entry of a generated list (contents, figures, tables).
#[derive(Debug)]
struct Entry {
    level: u8,
    id: String,
    label: Option<String>,
    /// The entry's text as HTML (formatting kept, no links or notes).
    html: String,
}

/// Which generated lists the document asks for (entries are only collected when wanted).
#[derive(Debug, Default, Clone, Copy)]
struct Wants {
    toc: bool,
    figures: bool,
    tables: bool,
    weblinks: bool,
    index: bool,
}

/// The writer's state for one document.
struct Writer<'a> {
    doc: &'a Document,
    lang: Language,
    /// The language and direction the element being written inherits.
    inherited: langdir::Inherited,
    /// The direction every item of the list about to open shares, when it differs from what
    /// the list inherits: written on the outermost `ol`/`ul`.
    list_run_dir: Option<crate::ast::Direction>,
    mode: ImageMode,
    out: String,
    report: Report,
    /// Forbidden code points replaced so far (reported once).
    replaced: usize,
    /// The top-level block being written (for warning locations).
    block: usize,
    top_numbers: Vec<BlockNumber>,
    targets: Targets<'a>,
    media: Media<'a>,
    comments: Comments<'a>,
    wants: Wants,
    footnotes: Vec<&'a [Inline]>,
    endnotes: Vec<&'a [Inline]>,
    sidenotes: Vec<&'a [Inline]>,
    /// Sidenotes met in the current block, written as `aside`s after it.
    pending_asides: Vec<usize>,
    /// Writing a generated list entry: formatting only.
    plain: bool,
    /// Writing a code block's `pre`: code marks are implied, breaks are newlines.
    in_pre: bool,
    in_link: bool,
    in_note: bool,
    in_comment: bool,
    headings: u32,
    toc: Vec<Entry>,
    figures: Vec<Entry>,
    tables: Vec<Entry>,
    weblinks: Vec<String>,
    weblinks_seen: HashSet<String>,
    index_marks: u32,
    /// Index node id → number of its first mark (`sd-ix-N`).
    index_targets: HashMap<&'a str, u32>,
    /// Where directories go: byte offset in `out` and kind.
    placeholders: Vec<(usize, DirectoryKind)>,
    /// Heading ranks, the page's `h1`, table regions.
    landmarks: landmarks::Landmarks,
}

impl<'a> Writer<'a> {
    fn new(doc: &'a Document, opts: &HtmlOptions, mode: ImageMode) -> Self {
        let lang = opts
            .language
            .or_else(|| doc.meta.language.as_deref().and_then(Language::parse))
            .unwrap_or_default();
        let mut wants = Wants::default();
        doc.walk_blocks(&mut |_, b| {
            if let Block::Directory { kind } = b {
                match kind {
                    DirectoryKind::Content => wants.toc = true,
                    DirectoryKind::Images => wants.figures = true,
                    DirectoryKind::Tables => wants.tables = true,
                    DirectoryKind::Weblinks => wants.weblinks = true,
                    DirectoryKind::Indexes => wants.index = true,
                    // Footnotes and sidenotes are collected anyway (their own lists need them).
                    DirectoryKind::Footnotes | DirectoryKind::Sidenotes => {}
                }
            }
        });
        let top_numbers = number_blocks(&doc.blocks);
        let mut w = Writer {
            doc,
            lang,
            inherited: langdir::Inherited::page(doc, opts.language, lang),
            list_run_dir: None,
            mode,
            out: String::new(),
            report: Report::new(),
            replaced: 0,
            block: 0,
            top_numbers,
            targets: Targets::default(),
            media: Media::default(),
            comments: Comments::default(),
            wants,
            footnotes: Vec::new(),
            endnotes: Vec::new(),
            sidenotes: Vec::new(),
            pending_asides: Vec::new(),
            plain: false,
            in_pre: false,
            in_link: false,
            in_note: false,
            in_comment: false,
            headings: 0,
            toc: Vec::new(),
            figures: Vec::new(),
            tables: Vec::new(),
            weblinks: Vec::new(),
            weblinks_seen: HashSet::new(),
            index_marks: 0,
            index_targets: HashMap::new(),
            placeholders: Vec::new(),
            landmarks: landmarks::Landmarks::default(),
        };
        w.prepare();
        w
    }

    /// Pre-pass: ids and cross-reference targets, image file names, comment titles, and the size
    /// of the output (so the page is written into one allocation).
    fn prepare(&mut self) {
        let doc = self.doc;
        let mut ids = ids::IdSet::default();
        let mut text_bytes = 0usize;
        let numbers = std::mem::take(&mut self.top_numbers);
        self.collect_targets(&doc.blocks, &numbers, true, &mut ids, &mut text_bytes);
        self.top_numbers = numbers;

        if self.mode == ImageMode::Files {
            let mut used = HashSet::new();
            for item in doc.media.iter() {
                let (file, _) = ids::image_file_name(&item.name, &mut used);
                self.media.files.insert(item.name.as_str(), file);
            }
        }

        self.comments.number = vec![0; doc.comments.len()];
        for (i, c) in doc.comments.iter().enumerate() {
            self.comments.index.entry(c.id.as_str()).or_insert(i);
            let text = plain_text(&c.content);
            let title = match c.author.as_deref() {
                Some(a) if !a.is_empty() => format!("{a}: {text}"),
                _ => text,
            };
            self.comments.titles.push(title);
        }

        let mut capacity = 4096 + text_bytes + text_bytes / 4 + doc.blocks.len() * 48;
        if self.mode == ImageMode::Inline {
            capacity += doc.media.iter().map(|m| m.size / 3 * 4 + 64).sum::<usize>();
        }
        self.out.reserve(capacity);
    }

    fn collect_targets(
        &mut self,
        blocks: &'a [Block],
        numbers: &[BlockNumber],
        top: bool,
        ids: &mut ids::IdSet,
        text_bytes: &mut usize,
    ) {
        for (i, block) in blocks.iter().enumerate() {
            let number = numbers.get(i);
            match block {
                Block::Paragraph(p) => {
                    *text_bytes += p.content.len() * 24;
                    for inline in &p.content {
                        if let Inline::Text { text } = inline {
                            *text_bytes += text.len();
                        }
                    }
                    if let Some(id) = p.id.as_deref() {
                        let numbered = matches!(
                            p.kind,
                            TextType::HeadingOl | TextType::ParagraphOl | TextType::ListOl
                        );
                        let label = number.and_then(|n| n.label.clone()).filter(|_| numbered);
                        self.add_target(block, id, label, plain_text(&p.content), ids);
                    }
                }
                Block::Image(img) => {
                    if let Some(id) = img.id.as_deref() {
                        let label = number
                            .and_then(|n| n.caption)
                            .filter(|_| top)
                            .map(|n| format!("{} {n}", self.lang.figure()));
                        let text = img.caption.clone().unwrap_or_default();
                        self.add_target(block, id, label, text, ids);
                    }
                }
                Block::Table(t) => {
                    if let Some(id) = t.id.as_deref() {
                        let label = number
                            .and_then(|n| n.caption)
                            .filter(|_| top)
                            .map(|n| format!("{} {n}", self.lang.table()));
                        let text = t.caption.clone().unwrap_or_default();
                        self.add_target(block, id, label, text, ids);
                    }
                    for row in &t.rows {
                        for cell in &row.cells {
                            // Numbers only matter for blocks with ids (cross-reference labels).
                            let cell_numbers = if cell.blocks.iter().any(has_id) {
                                number_blocks(&cell.blocks)
                            } else {
                                Vec::new()
                            };
                            self.collect_targets(
                                &cell.blocks,
                                &cell_numbers,
                                false,
                                ids,
                                text_bytes,
                            );
                        }
                    }
                }
                Block::PageBreak | Block::Directory { .. } => {}
            }
        }
    }

    fn add_target(
        &mut self,
        block: &'a Block,
        id: &'a str,
        label: Option<String>,
        text: String,
        ids: &mut ids::IdSet,
    ) {
        let index = self.targets.list.len();
        self.targets.list.push(Target {
            html_id: ids.claim(id),
            label,
            text,
        });
        self.targets.by_block.insert(block as *const Block, index);
        self.targets.by_source.entry(id).or_insert(index);
    }

    /// The page id of a block that has a source id.
    fn block_id(&self, block: &Block) -> Option<&str> {
        self.targets
            .by_block
            .get(&(block as *const Block))
            .and_then(|&i| self.targets.list.get(i))
            .map(|t| t.html_id.as_str())
    }

    /// Writes the whole page and returns it.
    fn run(&mut self) -> String {
        self.head();
        self.fix_html_element();
        let doc = self.doc;
        let numbers = std::mem::take(&mut self.top_numbers);
        self.blocks(&doc.blocks, &numbers, true);
        self.top_numbers = numbers;
        self.finish_page()
    }

    /// Appends `s` escaped as text.
    fn text(&mut self, s: &str) {
        self.replaced += escape::text(s, &mut self.out);
    }

    /// Appends `s` escaped as an attribute value.
    fn attr(&mut self, s: &str) {
        self.replaced += escape::attr(s, &mut self.out);
    }

    fn warn(&mut self, kind: WarningKind, message: String, element: &str) {
        let location = Location::default().element(element).block(self.block);
        self.report.warn(kind, message, location);
    }
}

fn has_id(block: &Block) -> bool {
    match block {
        Block::Paragraph(p) => p.id.is_some(),
        Block::Image(i) => i.id.is_some(),
        Block::Table(t) => t.id.is_some(),
        Block::PageBreak | Block::Directory { .. } => false,
    }
}

/// A short, single-line excerpt of `s` for warning messages.
fn excerpt(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(60)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// Writes a percentage or length without float noise: `50`, `33.33`.
fn push_number(out: &mut String, v: f32) {
    use std::fmt::Write;
    let rounded = (f64::from(v) * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        let _ = write!(out, "{}", rounded as i64);
    } else {
        let s = format!("{rounded:.2}");
        out.push_str(s.trim_end_matches('0'));
    }
}

/// `s` escaped as text, in a new string (for list entries built from captions).
fn escape_to_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    escape::text(s, &mut out);
    out
}
