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

use std::collections::{BTreeMap, HashMap, HashSet};

use super::marks::{self, Loss, MarkPolicy};
use crate::ast::inline::{Leaf, Run, accepted_text, from_runs, to_runs};
use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{
    Align, Block, Cell, Document, Image, Inline, MediaItem, MediaKind, NoteKind, Paragraph, Table,
    TextStyle, TextType,
};
use crate::error::Result;
use crate::lang::Language;
use crate::package::{Compression, ZipWriter, finish_converted};
use crate::report::{Converted, Location, Report, WarningKind};
use crate::xml::{escape_attr, escape_text};

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

/// [`write`] straight into `sink` (the output file): the same bytes, never held in memory.
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
    let language = opts
        .language
        .or_else(|| doc.meta.language.as_deref().and_then(Language::parse));
    let mut w = Writer {
        doc,
        language,
        out: String::with_capacity(4096),
        depth: 0,
        report: Report::new(),
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

/// What a cross-reference to an id shows and where it points.
#[derive(Clone)]
struct Target {
    /// The sanitised id written on the target.
    id: String,
    /// The number the target shows (`1.2`, `Figure 3`).
    label: Option<String>,
    /// The target's text (heading text, caption).
    text: String,
}

/// One open list of a list group: its level, whether ordered, whether an `eintrag` is open.
struct OpenList {
    level: u8,
    ordered: bool,
    item_open: bool,
    /// The open `eintrag` only marks a skipped level: it may hold nothing but the deeper list.
    item_skip: bool,
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

fn align_value(align: Align) -> Option<&'static str> {
    match align {
        Align::Left => None,
        Align::Center => Some("zentriert"),
        Align::Right => Some("rechts"),
        Align::Justify => Some("blocksatz"),
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "ja" } else { "nein" }
}

fn style_element(style: TextStyle) -> &'static str {
    match style {
        TextStyle::Code => "code",
        TextStyle::SmallCaps => "kapitaelchen",
        TextStyle::Bold => "fett",
        TextStyle::Italic => "kursiv",
        TextStyle::Underline => "unterstr",
        TextStyle::Strike => "durchgestr",
        TextStyle::Subscript => "tief",
        TextStyle::Superscript => "hoch",
    }
}

/// Turns any string into an XML NCName: ASCII letters, digits, `-`, `_`, `.`; the first
/// character a letter or `_`.
pub fn ncname(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match s.chars().next() {
        None => s.push_str("id"),
        Some(c) if !(c.is_ascii_alphabetic() || c == '_') => s.insert_str(0, "id-"),
        Some(_) => {}
    }
    s
}

/// A file name that is safe as the last part of a zip entry name.
fn safe_file_name(raw: &str) -> String {
    let s: String = raw
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        "image".into()
    } else {
        s
    }
}

/// `name`, or `name-2`, `name-3`, … (before the extension) until `taken` does not hold it,
/// compared ignoring ASCII case.
fn unique_name(name: &str, taken: &mut HashSet<String>, before_ext: bool) -> String {
    let (stem, ext) = match name.rfind('.') {
        Some(i) if before_ext && i > 0 => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    let mut candidate = name.to_string();
    let mut n = 2u32;
    while !taken.insert(candidate.to_ascii_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
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

impl<'d> Writer<'d> {
    // ----- bookkeeping -------------------------------------------------------------------

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

    /// Assigns every block id its NCName (unique) and records what cross-references show.
    fn collect_ids(&mut self) {
        let mut taken = HashSet::new();
        let mut path = Vec::new();
        let doc = self.doc;
        self.collect_in(&doc.blocks, &mut path, &mut taken);
    }

    fn collect_in(&mut self, blocks: &[Block], path: &mut Vec<usize>, taken: &mut HashSet<String>) {
        let numbers = number_blocks(blocks);
        for (i, block) in blocks.iter().enumerate() {
            path.push(i);
            if path.len() == 1 {
                self.block = i;
            }
            let n = numbers.get(i).cloned().unwrap_or_default();
            let (id, label, text) = match block {
                Block::Paragraph(p) => {
                    (p.id.as_deref(), n.label.clone(), accepted_text(&p.content))
                }
                Block::Image(img) => (
                    img.id.as_deref(),
                    n.caption.map(|c| format!("{} {c}", self.lang().figure())),
                    img.caption.clone().unwrap_or_default(),
                ),
                Block::Table(t) => (
                    t.id.as_deref(),
                    n.caption.map(|c| format!("{} {c}", self.lang().table())),
                    t.caption.clone().unwrap_or_default(),
                ),
                Block::PageBreak | Block::Directory { .. } => (None, None, String::new()),
            };
            if let Some(id) = id {
                let clean = ncname(id);
                let unique = unique_name(&clean, taken, false);
                if unique != id {
                    self.warn(
                        WarningKind::Repaired,
                        format!("id {id:?} written as {unique:?} (ids must be unique XML names)"),
                    );
                }
                self.block_ids.insert(path.clone(), unique.clone());
                self.targets.entry(id.to_string()).or_insert(Target {
                    id: unique,
                    label,
                    text: text.replace('\n', " "),
                });
            }
            if let Block::Table(t) = block {
                for (r, row) in t.rows.iter().enumerate() {
                    for (c, cell) in row.cells.iter().enumerate() {
                        path.push(r);
                        path.push(c);
                        self.collect_in(&cell.blocks, path, taken);
                        path.pop();
                        path.pop();
                    }
                }
            }
            path.pop();
        }
    }

    fn lang(&self) -> Language {
        self.language.unwrap_or_default()
    }

    // ----- output helpers ----------------------------------------------------------------

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// Writes `<name a="v" …>` on a new line and indents what follows.
    fn open(&mut self, name: &str, attrs: &[(&str, &str)]) {
        self.newline();
        self.start_tag(name, attrs, false);
        self.depth += 1;
    }

    fn close(&mut self, name: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.newline();
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    fn start_tag(&mut self, name: &str, attrs: &[(&str, &str)], empty: bool) {
        self.out.push('<');
        self.out.push_str(name);
        for (k, v) in attrs {
            self.out.push(' ');
            self.out.push_str(k);
            self.out.push_str("=\"");
            escape_attr(v, &mut self.out);
            self.out.push('"');
        }
        self.out.push_str(if empty { "/>" } else { ">" });
    }

    /// Writes `<name>text</name>` on a new line.
    fn text_element(&mut self, name: &str, text: &str) {
        self.newline();
        self.start_tag(name, &[], false);
        escape_text(text, &mut self.out);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    // ----- document ----------------------------------------------------------------------

    fn document(&mut self) {
        self.out
            .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let mut attrs = vec![("xmlns", NAMESPACE)];
        if let Some(l) = self.language {
            attrs.push(("xml:lang", l.bcp47()));
        }
        self.start_tag("projekt", &attrs, false);
        self.depth = 1;
        self.meta();
        self.open("werk", &[]);
        self.open("hauptteil", &[]);
        self.body();
        self.close("hauptteil");
        self.close("werk");
        self.close("projekt");
        self.out.push('\n');
        if !self.doc.comments.is_empty() {
            self.warn_once(
                "comments",
                WarningKind::Dropped,
                "comments are not written to parsX",
            );
        }
    }

    fn meta(&mut self) {
        let meta = &self.doc.meta;
        let title = meta.title.as_deref().filter(|s| !s.is_empty());
        let subtitle = meta.subtitle.as_deref().filter(|s| !s.is_empty());
        let description = meta.description.as_deref().filter(|s| !s.is_empty());
        let creator = meta.creator.as_deref().filter(|s| !s.is_empty());
        let mut dropped = Vec::new();
        if meta.footer.as_deref().is_some_and(|s| !s.is_empty()) {
            dropped.push("footer");
        }
        if !meta.tags.is_empty() {
            dropped.push("tags");
        }
        if meta.supplemental.as_deref().is_some_and(|s| !s.is_empty()) {
            dropped.push("supplemental");
        }
        if !dropped.is_empty() {
            self.report.warn(
                WarningKind::Dropped,
                format!(
                    "parsX meta has no place for: {} (not written)",
                    dropped.join(", ")
                ),
                Location::part("parsx.xml").element("meta"),
            );
        }
        // parsX forbids an empty `meta`, `ausgabe` or `verlag`: write only what has content.
        if title.is_none() && subtitle.is_none() && description.is_none() && creator.is_none() {
            return;
        }
        self.open("meta", &[]);
        if title.is_some() || subtitle.is_some() || description.is_some() {
            self.open("global", &[]);
            if let Some(t) = title {
                self.text_element("titel", t);
            }
            if let Some(s) = subtitle {
                self.text_element("untertitel", s);
            }
            if let Some(d) = description {
                self.open("kurztext", &[]);
                self.text_element("abs", d);
                self.close("kurztext");
            }
            self.close("global");
        }
        if let Some(t) = title {
            self.open("ausgaben", &[]);
            self.open("ausgabe", &[("id", "ausgabe-1")]);
            self.text_element("titel", t);
            self.close("ausgabe");
            self.close("ausgaben");
        }
        if let Some(c) = creator {
            self.open("dokumentation", &[]);
            self.newline();
            self.start_tag("verlag", &[("name", c)], true);
            self.close("dokumentation");
        }
        self.close("meta");
    }

    fn body(&mut self) {
        let doc = self.doc;
        let blocks = &doc.blocks;
        let numbers = number_blocks(blocks);
        // Open `kapitel`s: the heading level each was opened for; `None` is the leading one.
        let mut chapters: Vec<Option<u8>> = Vec::new();
        let mut wrote_chapter = false;
        let mut lists: Vec<OpenList> = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            self.block = i;
            self.path = vec![i];
            let n = numbers.get(i).cloned().unwrap_or_default();
            match block {
                Block::Paragraph(p) if p.kind.is_heading() => {
                    self.close_lists(&mut lists);
                    let level = p.level.min(crate::ast::MAX_LEVEL);
                    while let Some(&top) = chapters.last() {
                        if top.is_none_or(|l| l >= level) {
                            self.close("kapitel");
                            chapters.pop();
                        } else {
                            break;
                        }
                    }
                    let id = self.block_ids.get(&self.path).cloned();
                    let attrs: Vec<(&str, &str)> =
                        id.as_deref().map(|id| ("id", id)).into_iter().collect();
                    self.open("kapitel", &attrs);
                    chapters.push(Some(level));
                    wrote_chapter = true;
                    self.heading(p, &n);
                }
                other => {
                    if chapters.is_empty() && self.emits(other) {
                        self.open("kapitel", &[]);
                        chapters.push(None);
                        wrote_chapter = true;
                    }
                    self.flow_block(other, &n, &mut lists, None);
                }
            }
        }
        self.close_lists(&mut lists);
        while chapters.pop().is_some() {
            self.close("kapitel");
        }
        if !wrote_chapter {
            // `hauptteil` must hold a `kapitel`, and a `kapitel` must hold content.
            self.open("kapitel", &[]);
            self.newline();
            self.start_tag("abs", &[], true);
            self.close("kapitel");
        }
    }

    /// Whether writing `block` outside a list produces an element (page breaks, directories and
    /// images without media or caption only warn).
    fn emits(&self, block: &Block) -> bool {
        match block {
            Block::PageBreak | Block::Directory { .. } => false,
            Block::Image(img) => {
                self.doc.media.contains(&img.media)
                    || img.caption.as_deref().is_some_and(|c| !c.is_empty())
            }
            _ => true,
        }
    }

    fn heading(&mut self, p: &Paragraph, n: &BlockNumber) {
        self.in_item = false;
        let name = format!("u{}", p.level.min(crate::ast::MAX_LEVEL) + 1);
        self.warn_indent(p.indent);
        if p.align != Align::Left {
            self.warn_once(
                "heading-align",
                WarningKind::Lossy,
                "heading alignment is not written (parsX titles have none)",
            );
        }
        self.open(&name, &[]);
        self.open("titel", &[]);
        if p.kind == TextType::HeadingOl {
            if let Some(label) = &n.label {
                self.text_element("zaehler", label);
            }
        }
        self.newline();
        self.out.push_str("<text>");
        let lines = self.prepare(&p.content);
        for (k, line) in lines.iter().enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            self.inlines(line, false);
        }
        self.out.push_str("</text>");
        self.close("titel");
        self.close(&name);
    }

    fn warn_indent(&mut self, indent: u8) {
        if indent > 0 && !self.in_item {
            self.warn_once(
                "indent",
                WarningKind::Lossy,
                "paragraph indentation is not written to parsX",
            );
        }
    }

    // ----- flow content (chapters and table cells) ----------------------------------------

    /// Writes one non-heading block (or a heading inside a cell, as `abs`). `lists` is the list
    /// group open in this flow; `cell_align` is the alignment of the enclosing cell.
    fn flow_block(
        &mut self,
        block: &Block,
        n: &BlockNumber,
        lists: &mut Vec<OpenList>,
        cell_align: Option<Align>,
    ) {
        // A block indented one step deeper than an open list item continues that item (what the
        // Markdown reader makes of an item's second paragraph): it goes inside its `eintrag`.
        self.in_item = false;
        let indent = match block {
            Block::Paragraph(p) if !p.kind.is_list() => Some(p.indent),
            Block::Image(img) => Some(img.indent),
            Block::Table(t) => Some(t.indent),
            _ => None,
        };
        if let Some(indent) = indent {
            self.in_item = self.continue_item(lists, indent);
        }
        match block {
            Block::Paragraph(p) if p.kind.is_list() => self.list_item(p, n, lists, cell_align),
            Block::Paragraph(p) => self.paragraph(p, n, cell_align),
            Block::Image(img) => self.image(img, n),
            Block::Table(t) => self.table(t, n),
            Block::PageBreak => {
                self.close_lists(lists);
                self.warn(
                    WarningKind::Dropped,
                    "page break not written (parsX renderers paginate themselves)",
                );
            }
            Block::Directory { kind } => {
                self.close_lists(lists);
                self.warn(
                    WarningKind::Dropped,
                    format!(
                        "{} directory not written (parsX renderers generate directories)",
                        kind.as_str()
                    ),
                );
            }
        }
    }

    fn paragraph(&mut self, p: &Paragraph, n: &BlockNumber, cell_align: Option<Align>) {
        match p.kind {
            TextType::Heading | TextType::HeadingOl => self.warn_once(
                "nested-heading",
                WarningKind::Lossy,
                "a heading inside a table cell is written as a paragraph",
            ),
            TextType::Caption => self.warn_once(
                "caption",
                WarningKind::Lossy,
                "a stand-alone caption is written as a paragraph",
            ),
            TextType::ParagraphOl => self.warn_once(
                "paragraph-ol",
                WarningKind::Lossy,
                "numbered paragraphs carry their number as text (parsX numbers only titles)",
            ),
            _ => {}
        }
        self.warn_indent(p.indent);
        let mut content = Vec::with_capacity(p.content.len() + 1);
        if p.kind == TextType::ParagraphOl || p.kind == TextType::HeadingOl {
            if let Some(label) = &n.label {
                content.push(Inline::text(format!("{label} ")));
            }
        }
        content.extend(p.content.iter().cloned());
        let align = if p.align == Align::Left {
            cell_align.unwrap_or(Align::Left)
        } else {
            p.align
        };
        let id = self.block_ids.get(&self.path).cloned();
        self.abs_lines(&content, align, id.as_deref());
    }

    /// Writes content as one `abs` per line (line breaks split paragraphs).
    fn abs_lines(&mut self, content: &[Inline], align: Align, id: Option<&str>) {
        let lines = self.prepare(content);
        for (k, line) in lines.iter().enumerate() {
            let mut attrs: Vec<(&str, &str)> = Vec::new();
            if k == 0 {
                if let Some(id) = id {
                    attrs.push(("id", id));
                }
            }
            if let Some(a) = align_value(align) {
                attrs.push(("ausrichtung", a));
            }
            self.newline();
            if line.is_empty() {
                self.start_tag("abs", &attrs, true);
                continue;
            }
            self.start_tag("abs", &attrs, false);
            self.inlines(line, false);
            self.out.push_str("</abs>");
        }
    }

    fn list_item(
        &mut self,
        p: &Paragraph,
        n: &BlockNumber,
        lists: &mut Vec<OpenList>,
        cell_align: Option<Align>,
    ) {
        let level = p.level.min(crate::ast::MAX_LEVEL);
        let ordered = p.kind == TextType::ListOl;
        // Close deeper lists and a same-level list of the other kind; end the previous item.
        while let Some(top) = lists.last_mut() {
            if top.level > level || (top.level == level && top.ordered != ordered) {
                if top.item_open {
                    self.close("eintrag");
                }
                let name = list_element(top.ordered);
                self.close(name);
                lists.pop();
            } else {
                if top.level == level && top.item_open {
                    self.close("eintrag");
                    top.item_open = false;
                }
                break;
            }
        }
        let current = lists.last().map(|l| i32::from(l.level)).unwrap_or(-1);
        let mut opened_here = false;
        for lvl in (current + 1)..=i32::from(level) {
            let lvl = lvl as u8;
            self.open(list_element(ordered), &[]);
            opened_here = lvl == level;
            if lvl < level {
                // parsX's way to say "this level is skipped": an entry with only the deeper list.
                self.open("eintrag", &[("ebene-ueberspringen", "ja")]);
            }
            lists.push(OpenList {
                level: lvl,
                ordered,
                item_open: lvl < level,
                item_skip: lvl < level,
            });
        }
        if opened_here && ordered && n.value.is_some_and(|v| v != 1) {
            self.warn(
                WarningKind::Lossy,
                format!(
                    "ordered list starting at {} is written without its start number",
                    n.value.unwrap_or(1)
                ),
            );
        }
        if p.number_format.is_some_and(|f| {
            !matches!(
                f,
                crate::ast::NumberFormat::Decimal | crate::ast::NumberFormat::Bullet
            )
        }) {
            self.warn_once(
                "number-format",
                WarningKind::Lossy,
                "list number formats are left to the parsX renderer",
            );
        }
        self.warn_indent(p.indent);
        let id = self.block_ids.get(&self.path).cloned();
        let attrs: Vec<(&str, &str)> = id.as_deref().map(|id| ("id", id)).into_iter().collect();
        self.open("eintrag", &attrs);
        if let Some(top) = lists.last_mut() {
            top.item_open = true;
            top.item_skip = false;
        }
        let align = if p.align == Align::Left {
            cell_align.unwrap_or(Align::Left)
        } else {
            p.align
        };
        self.abs_lines(&p.content, align, None);
    }

    /// Whether a block of `indent` belongs inside the open list item of level `indent - 1`;
    /// closes the lists it does not belong to.
    fn continue_item(&mut self, lists: &mut Vec<OpenList>, indent: u8) -> bool {
        let Some(target) = indent.checked_sub(1) else {
            self.close_lists(lists);
            return false;
        };
        while let Some(top) = lists.last() {
            if top.level <= target {
                break;
            }
            if top.item_open {
                self.close("eintrag");
            }
            let name = list_element(top.ordered);
            self.close(name);
            lists.pop();
        }
        if lists
            .last()
            .is_some_and(|top| top.level == target && top.item_open && !top.item_skip)
        {
            return true;
        }
        self.close_lists(lists);
        false
    }

    fn close_lists(&mut self, lists: &mut Vec<OpenList>) {
        while let Some(top) = lists.pop() {
            if top.item_open {
                self.close("eintrag");
            }
            self.close(list_element(top.ordered));
        }
    }

    fn image(&mut self, img: &Image, n: &BlockNumber) {
        let caption = img.caption.as_deref().filter(|c| !c.is_empty());
        if img.width_percent.is_some() || img.extent.is_some() || img.align != Align::Left {
            self.warn_once(
                "image-size",
                WarningKind::Lossy,
                "image width, size and alignment are not written to parsX",
            );
        }
        self.warn_indent(img.indent);
        let Some(path) = self.image_path(&img.media) else {
            self.warn(
                WarningKind::MissingMedia,
                format!(
                    "image {:?} is not in the media store; only its caption is written",
                    img.media
                ),
            );
            if let Some(c) = caption {
                self.text_element("abs", c);
            }
            return;
        };
        let id = self.block_ids.get(&self.path).cloned();
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if let Some(id) = id.as_deref() {
            attrs.push(("id", id));
        }
        attrs.push(("nummeriert", yes_no(n.caption.is_some())));
        self.open("bild", &attrs);
        let mut a: Vec<(&str, &str)> = vec![("quelle", &path)];
        if let Some(alt) = img.alt.as_deref() {
            a.push(("ersatztext", alt));
        }
        self.newline();
        self.start_tag("abbildung", &a, true);
        if let Some(c) = caption {
            self.open("legende", &[]);
            self.text_element("abs", c);
            self.close("legende");
        }
        self.close("bild");
    }

    /// The `quelle` of media `name` (`images/…`), registering its bytes; `None` when missing.
    fn image_path(&mut self, media: &str) -> Option<String> {
        if let Some(name) = self.image_names.get(media) {
            return Some(format!("images/{name}"));
        }
        let item = self.doc.media.get(media)?;
        let name = unique_name(&safe_file_name(media), &mut self.taken_image_names, true);
        if name != media {
            self.warn(
                WarningKind::Repaired,
                format!("image {media:?} is stored as images/{name}"),
            );
        }
        self.images.insert(name.clone(), item.clone());
        self.image_names.insert(media.to_string(), name.clone());
        Some(format!("images/{name}"))
    }

    fn table(&mut self, t: &Table, n: &BlockNumber) {
        if t.rows.is_empty() {
            self.warn(WarningKind::Dropped, "table without rows not written");
            return;
        }
        self.warn_indent(t.indent);
        if t.columns.windows(2).any(|w| (w[0] - w[1]).abs() > 0.01)
            || t.width_percent.is_some()
            || t.align != Align::Left
        {
            self.warn_once(
                "table-widths",
                WarningKind::Lossy,
                "table and column widths and table alignment are not written to parsX",
            );
        }
        let id = self.block_ids.get(&self.path).cloned();
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if let Some(id) = id.as_deref() {
            attrs.push(("id", id));
        }
        attrs.push(("nummeriert", yes_no(n.caption.is_some())));
        self.open("tabelle", &attrs);
        if let Some(c) = t.caption.as_deref().filter(|c| !c.is_empty()) {
            self.open("titel", &[]);
            self.text_element("text", c);
            self.close("titel");
        }
        self.open("table", &[]);
        let head = t.rows.iter().take_while(|r| r.header).count();
        let saved_block = self.block;
        for (r, row) in t.rows.iter().enumerate() {
            if r == 0 && head > 0 {
                self.open("thead", &[]);
            }
            if r == head {
                self.open("tbody", &[]);
            }
            self.open("tr", &[]);
            for (c, cell) in row.cells.iter().enumerate() {
                self.path.push(r);
                self.path.push(c);
                self.cell(cell, row.header);
                self.path.pop();
                self.path.pop();
            }
            self.close("tr");
            if r + 1 == head {
                self.close("thead");
            }
        }
        if head < t.rows.len() {
            self.close("tbody");
        }
        self.block = saved_block;
        self.close("table");
        self.close("tabelle");
    }

    fn cell(&mut self, cell: &Cell, header_row: bool) {
        let name = if cell.header || header_row {
            "th"
        } else {
            "td"
        };
        if cell.valign.is_some()
            || cell.background.is_some()
            || cell.font_size.is_some()
            || cell.borders != crate::ast::Borders::default()
        {
            self.warn_once(
                "cell-format",
                WarningKind::Lossy,
                "cell borders, shading, font size and vertical alignment are not written to parsX",
            );
        }
        let colspan = cell.colspan.max(1).to_string();
        let rowspan = cell.rowspan.max(1).to_string();
        let mut attrs: Vec<(&str, &str)> = Vec::new();
        if cell.colspan > 1 {
            attrs.push(("colspan", &colspan));
        }
        if cell.rowspan > 1 {
            attrs.push(("rowspan", &rowspan));
        }
        if cell.blocks.is_empty() {
            self.newline();
            self.start_tag(name, &attrs, true);
            return;
        }
        self.open(name, &attrs);
        let numbers = number_blocks(&cell.blocks);
        let mut lists = Vec::new();
        for (i, block) in cell.blocks.iter().enumerate() {
            self.path.push(i);
            let n = numbers.get(i).cloned().unwrap_or_default();
            self.flow_block(block, &n, &mut lists, cell.align);
            self.path.pop();
        }
        self.close_lists(&mut lists);
        self.close(name);
    }

    // ----- inline content ----------------------------------------------------------------

    /// Filters inline content down to what parsX holds and splits it at line breaks: deleted
    /// text, comment anchors, index marks, character styles and unresolvable internal links go
    /// (each warned once), the rest is re-nested canonically per line.
    fn prepare(&mut self, content: &[Inline]) -> Vec<Vec<Inline>> {
        let mut lines: Vec<Vec<Run>> = vec![Vec::new()];
        for run in to_runs(content) {
            let Some(marks) = marks::reduce(run.marks, self) else {
                continue;
            };
            let leaf = match run.leaf {
                Leaf::LineBreak => {
                    lines.push(Vec::new());
                    continue;
                }
                Leaf::Atom(Inline::CommentStart { .. } | Inline::CommentEnd { .. }) => {
                    self.warn_once(
                        "comments",
                        WarningKind::Dropped,
                        "comments are not written to parsX",
                    );
                    continue;
                }
                Leaf::Atom(Inline::IndexMark { .. }) => {
                    self.warn_once(
                        "index",
                        WarningKind::Dropped,
                        "index entries are not written to parsX",
                    );
                    continue;
                }
                Leaf::Atom(Inline::Ruby { base, reading }) => {
                    self.warn_once(
                        "ruby",
                        WarningKind::Lossy,
                        "ruby is written as \"base (reading)\"",
                    );
                    Leaf::Text(Inline::ruby_text(&base, &reading))
                }
                math @ Leaf::Atom(Inline::Math { .. }) => {
                    self.warn_once(
                        "math",
                        WarningKind::Lossy,
                        "equations are written to parsX as their linear text",
                    );
                    math
                }
                other => other,
            };
            if let Some(line) = lines.last_mut() {
                line.push(Run { marks, leaf });
            }
        }
        if lines.len() > 1 {
            self.warn_once(
                "line-break",
                WarningKind::Lossy,
                "line breaks are written as paragraph boundaries",
            );
            // Breaks at the very start or end leave empty lines that mean nothing in parsX.
            while lines.len() > 1 && lines.last().is_some_and(Vec::is_empty) {
                lines.pop();
            }
            while lines.len() > 1 && lines.first().is_some_and(Vec::is_empty) {
                lines.remove(0);
            }
        }
        lines.into_iter().map(from_runs).collect()
    }

    fn warn_target(&mut self, target: &str, what: &str) {
        if self.warned_targets.insert(target.to_string()) {
            self.warn(
                WarningKind::Dropped,
                format!("{what} to unknown id {target:?} written without its target"),
            );
        }
    }

    /// Writes prepared inline content (see [`Writer::prepare`]) in the current element.
    fn inlines(&mut self, content: &[Inline], in_note: bool) {
        for inline in content {
            self.inline(inline, in_note);
        }
    }

    fn inline(&mut self, inline: &Inline, in_note: bool) {
        match inline {
            Inline::Text { text } => escape_text(text, &mut self.out),
            // parsX has no math: the formula's linear text (warned about in `prepare`).
            Inline::Math { math, .. } => {
                escape_text(&crate::ast::math::linear_text(math), &mut self.out)
            }
            Inline::Styled { style, children } => {
                let name = style_element(*style);
                self.start_tag(name, &[], false);
                self.inlines(children, in_note);
                self.out.push_str("</");
                self.out.push_str(name);
                self.out.push('>');
            }
            Inline::Link { href, children } => {
                let attr = match href.strip_prefix('#') {
                    Some(target) => (
                        "verweis-intern",
                        self.targets
                            .get(target)
                            .map(|t| t.id.clone())
                            .unwrap_or_else(|| ncname(target)),
                    ),
                    None => ("verweis-extern", href.clone()),
                };
                self.start_tag("verweis", &[(attr.0, &attr.1)], false);
                self.inlines(children, in_note);
                self.out.push_str("</verweis>");
            }
            Inline::Note { kind, content } => self.note(*kind, content, in_note),
            Inline::CrossRef {
                target,
                number,
                text,
            } => self.cross_ref(target, *number, *text),
            Inline::Image {
                media,
                caption,
                alt,
            } => {
                if caption.as_deref().is_some_and(|c| !c.is_empty()) {
                    self.warn_once(
                        "inline-caption",
                        WarningKind::Lossy,
                        "captions of images inside text are not written to parsX",
                    );
                }
                match self.image_path(media) {
                    Some(path) => {
                        let mut a: Vec<(&str, &str)> = vec![("quelle", &path)];
                        if let Some(alt) = alt.as_deref() {
                            a.push(("ersatztext", alt));
                        }
                        self.start_tag("abbildung", &a, true);
                    }
                    None => self.warn(
                        WarningKind::MissingMedia,
                        format!("inline image {media:?} is not in the media store; not written"),
                    ),
                }
            }
            Inline::LineBreak => self.out.push(' '),
            // Filtered out by `prepare`; kept total for content that bypassed it.
            Inline::Span { children, .. } | Inline::Tracked { children, .. } => {
                self.inlines(children, in_note)
            }
            Inline::Ruby { base, reading } => {
                escape_text(&Inline::ruby_text(base, reading), &mut self.out)
            }
            Inline::IndexMark { .. } | Inline::CommentStart { .. } | Inline::CommentEnd { .. } => {}
        }
    }

    fn note(&mut self, kind: NoteKind, content: &[Inline], in_note: bool) {
        let lines = self.prepare(content);
        if in_note {
            // parsX forbids notes inside notes: the inner note's text goes in brackets.
            self.warn_once(
                "nested-note",
                WarningKind::Lossy,
                "a note inside a note is written as bracketed text",
            );
            self.out.push_str(" (");
            for (k, line) in lines.iter().enumerate() {
                if k > 0 {
                    self.out.push(' ');
                }
                self.inlines(line, true);
            }
            self.out.push(')');
            return;
        }
        let name = match kind {
            NoteKind::Footnote => "fussnote",
            NoteKind::Endnote => "endnote",
            NoteKind::Sidenote => {
                self.warn_once(
                    "sidenote",
                    WarningKind::Lossy,
                    "sidenotes are written as footnotes",
                );
                "fussnote"
            }
        };
        self.start_tag(name, &[], false);
        for line in &lines {
            if line.is_empty() {
                self.start_tag("abs", &[], true);
                continue;
            }
            self.start_tag("abs", &[], false);
            self.inlines(line, true);
            self.out.push_str("</abs>");
        }
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    fn cross_ref(&mut self, target: &str, number: bool, text: bool) {
        let Some(t) = self.targets.get(target).cloned() else {
            self.warn_target(target, "cross-reference");
            return;
        };
        let shown = match (number, text, &t.label) {
            (true, true, Some(label)) if !t.text.is_empty() => format!("{label} {}", t.text),
            (true, _, Some(label)) => label.clone(),
            (false, false, Some(label)) => label.clone(),
            _ if !t.text.is_empty() => t.text.clone(),
            _ => match t.label.clone() {
                Some(label) => label,
                None => {
                    self.warn(
                        WarningKind::Lossy,
                        format!(
                            "cross-reference to {target:?}, which has no number or text, written as \"{}\"",
                            crate::export::XREF_MARK
                        ),
                    );
                    crate::export::XREF_MARK.to_string()
                }
            },
        };
        let id = t.id.clone();
        self.start_tag("verweis", &[("verweis-intern", &id)], false);
        escape_text(&shown, &mut self.out);
        self.out.push_str("</verweis>");
    }
}

fn list_element(ordered: bool) -> &'static str {
    if ordered {
        "liste_geordnet"
    } else {
        "liste_ungeordnet"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ncnames_are_valid_and_unique_names_count_up() {
        assert_eq!(ncname("3 Intro"), "id-3_Intro");
        assert_eq!(ncname(""), "id");
        assert_eq!(ncname("_ok.1-a"), "_ok.1-a");
        assert_eq!(ncname("Ü"), "_");
        let mut taken = HashSet::new();
        assert_eq!(unique_name("a.png", &mut taken, true), "a.png");
        assert_eq!(unique_name("A.png", &mut taken, true), "A-2.png");
        assert_eq!(unique_name("x", &mut taken, false), "x");
        assert_eq!(unique_name("x", &mut taken, false), "x-2");
        assert_eq!(safe_file_name("../a b.png"), ".._a_b.png");
        assert_eq!(safe_file_name(".."), "image");
    }
}
