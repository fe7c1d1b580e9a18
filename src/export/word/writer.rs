//! The state of one Word export: [`Writer`], what every part writer shares (the tree, template
//! and settings, warnings, numbering, ids for bookmarks and drawings, relationships, media and
//! charts, collected TOC entries and cross-reference targets, the language context), with the
//! helpers every step uses (warnings, ids, relationships, bookmarks, plain runs, fields) and
//! the small values the steps hand each other ([`Part`], [`TocEntry`], [`Target`],
//! [`PendingRef`], [`CellFormat`], [`LangContext`]).
//!
//! The part writers (`document`, `runs`, `tables`, `captions`, `toc`, `chart`, `langdir`) add
//! their methods to [`Writer`] in their own files, `assemble` drives them, and all import it
//! from here; this file imports none of them, so the imports run one way (the state here used
//! to live in `document`, which imported `runs`, `captions` and `langdir` while they imported
//! it).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::fmt::Write;

use crate::room::Room;

use crate::ast::{Align, Block, Document, TextType};
use crate::ooxml::INDENT_STEP_TWIPS;
use crate::report::{Location, Report, WarningKind};
use crate::xml::{escape_attr, escape_text};

use super::PagedSettings;
use super::lang_defaults::{default_langs, doc_defaults, doc_lang};
use super::numbering::Numbering;
use super::template::WordTemplate;

/// Word's limit on bookmark name length.
const MAX_BOOKMARK: usize = 40;

/// Marker delimiter in body text: XML text never holds NUL (the escaper drops it).
pub(crate) const MARK: char = '\u{0}';

/// Which zip part inline content is written to (each has its own relationships).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Part {
    Document,
    Footnotes,
    Endnotes,
    Comments,
}

impl Part {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Part::Document => "document.xml",
            Part::Footnotes => "footnotes.xml",
            Part::Endnotes => "endnotes.xml",
            Part::Comments => "comments.xml",
        }
    }
}

/// One relationship of a part.
#[derive(Debug, Clone)]
pub(crate) enum Rel {
    /// An external hyperlink.
    Link(String),
    /// An image, by index into [`Writer::media_order`].
    Image(usize),
    /// A chart part, by index into [`Writer::charts`] (`charts/chart<index + 1>.xml`).
    Chart(usize),
}

/// Relationships of one part, in creation order, deduplicated.
#[derive(Debug, Default)]
pub(crate) struct Rels {
    pub items: Vec<(String, Rel)>,
    links: HashMap<String, String>,
    images: HashMap<usize, String>,
}

impl Rels {
    fn link(&mut self, href: &str) -> String {
        if let Some(id) = self.links.get(href) {
            return id.clone();
        }
        let id = format!("rIdL{}", self.links.len() + 1);
        self.links.insert(href.to_string(), id.clone());
        self.items.push((id.clone(), Rel::Link(href.to_string())));
        id
    }

    fn image(&mut self, index: usize) -> String {
        if let Some(id) = self.images.get(&index) {
            return id.clone();
        }
        let id = format!("rIdImg{}", index + 1);
        self.images.insert(index, id.clone());
        self.items.push((id.clone(), Rel::Image(index)));
        id
    }
}

/// A TOC entry.
#[derive(Debug, Clone)]
pub(crate) struct TocEntry {
    /// 0-based outline level (headings) or 0.
    pub level: usize,
    /// The text shown.
    pub text: String,
    /// The bookmark it links to.
    pub bookmark: String,
    /// The top-level block it stands for (its page number comes from the PDF layout).
    pub block: Option<usize>,
}

/// What a cross-reference to a block id shows.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub bookmark: String,
    /// Number label (`1.2`) or caption label (`Figure 3`).
    pub number: Option<String>,
    /// The block's text (or caption text).
    pub text: String,
    /// A caption target: its bookmark holds label and number.
    pub caption: bool,
}

/// A cross-reference waiting for its target.
#[derive(Debug, Clone)]
pub(crate) struct PendingRef {
    pub target: String,
    pub number: bool,
    pub text: bool,
    pub deleted: bool,
    pub block: Option<usize>,
    /// The font size of the text around it (a cell's) in half-points: the field's result
    /// runs carry it too.
    pub size: Option<u32>,
}

/// Cell formatting passed down to a cell's paragraphs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CellFormat {
    pub align: Option<Align>,
    /// Font size in half-points.
    pub size: Option<u32>,
}

impl CellFormat {
    /// The `w:pPr` children saying this format for a paragraph of its own alignment: `w:jc`
    /// (explicit, `left` included) and the paragraph mark's size, so even an empty cell
    /// carries both.
    pub fn push_paragraph_props(&self, ppr: &mut String) {
        if let Some(a) = self.align {
            push_explicit_jc(ppr, a);
        }
        self.push_mark_size(ppr);
    }

    /// The `w:rPr` children giving a run this format's size (empty without one).
    pub fn run_props(&self) -> String {
        self.size
            .map(|size| format!(r#"<w:sz w:val="{size}"/><w:szCs w:val="{size}"/>"#))
            .unwrap_or_default()
    }

    /// The paragraph mark's `w:rPr` with the size (the last child of `w:pPr`).
    pub fn push_mark_size(&self, ppr: &mut String) {
        if let Some(size) = self.size {
            let _ = write!(
                ppr,
                r#"<w:rPr><w:sz w:val="{size}"/><w:szCs w:val="{size}"/></w:rPr>"#
            );
        }
    }

    /// An empty paragraph in this format (an empty cell's, or the one a cell must end with).
    pub fn empty_paragraph(&self) -> String {
        let mut ppr = String::new();
        self.push_paragraph_props(&mut ppr);
        if ppr.is_empty() {
            "<w:p/>".to_string()
        } else {
            format!("<w:p><w:pPr>{ppr}</w:pPr></w:p>")
        }
    }
}

/// The language and direction the runs being written inherit from their paragraph.
#[derive(Debug, Clone, Default)]
pub(crate) struct LangContext {
    /// The paragraph's language where it differs from the document's.
    pub lang: Option<String>,
    /// The paragraph is right to left.
    pub rtl: bool,
    /// Some run of the paragraph is in another language: its runs without letters (digits,
    /// spaces, breaks) say their language, which no script tells the reader.
    pub mixed: bool,
}

/// The state of one export.
pub(crate) struct Writer<'a> {
    pub doc: &'a Document,
    pub tpl: &'a WordTemplate,
    pub settings: &'a PagedSettings,
    pub report: Report,
    pub numbering: Numbering<'a>,
    /// Next id for bookmarks and revisions (comments take 0..n first).
    pub next_annotation: u32,
    pub next_doc_pr: u32,
    next_toc: u32,
    /// The top-level block being written (for warning locations).
    pub block: Option<usize>,
    /// Media names in order of first use, with the widest printed width (EMU).
    pub media_order: Vec<(String, u64)>,
    media_index: HashMap<String, usize>,
    /// Chart parts written, in order (`word/charts/chart1.xml`, …).
    pub charts: Vec<String>,
    pub rels: BTreeMap<Part, Rels>,
    /// Finished `w:footnote` / `w:endnote` elements.
    pub footnotes: Vec<String>,
    pub endnotes: Vec<String>,
    /// Comment ids → numeric ids; which were anchored.
    pub comment_ids: HashMap<String, u32>,
    /// Comments whose end anchor is in the body text (not in a note): only these can be written
    /// (Word and LibreOffice need a comment's range and reference in one story).
    pub comments_in_body: std::collections::HashSet<String>,
    pub comment_ended: Vec<bool>,
    pub targets: HashMap<String, Target>,
    pub refs: Vec<PendingRef>,
    /// Tables being written, outermost first: more than one means a nested table.
    pub table_depth: u32,
    pub headings: Vec<TocEntry>,
    pub figures: Vec<TocEntry>,
    pub tables: Vec<TocEntry>,
    pub figure_count: u32,
    pub table_count: u32,
    /// Character styles added for named spans the template lacks: (id, name).
    pub extra_char_styles: Vec<(String, String)>,
    pub char_style_ids: BTreeMap<String, String>,
    /// Counters for aggregated warnings.
    pub source_styles: (usize, Option<String>),
    pub sidenotes: usize,
    /// Captions not written because the settings switch them off: (images, tables).
    pub hidden_captions: (usize, usize),
    /// The format of the cell being written (`None` in the body): caption paragraphs carry
    /// its font size like the cell's other paragraphs.
    pub cell: Option<CellFormat>,
    /// Whether any TOC field was written (then Word is told to update fields on open).
    pub wrote_toc: bool,
    /// The language and direction the runs being written inherit.
    pub(crate) lang_context: LangContext,
    /// The document's language as the styles spell it (`super::lang_defaults::doc_lang`).
    pub(crate) doc_lang: Option<String>,
    /// Some paragraph is in another language than the document's.
    pub(crate) paragraph_langs: bool,
    /// The styles part with the document's language and direction in its defaults
    /// (`super::lang_defaults::doc_defaults`).
    pub(crate) styles: String,
    /// What a run without a language of its own is read in, per slot (indexed by
    /// [`crate::lang_tag::Slot`]): the styles' defaults, else the settings' theme language for
    /// `w:val` (the only one `w:themeFontLang` says). Runs say their language against these.
    pub(crate) default_langs: [Option<String>; 3],
    /// Page of each top-level block in the PDF writer's layout, for the TOC entries' `PAGEREF`
    /// results (empty without the `pdf` feature or when no list is written).
    pub pages: Vec<Option<u32>>,
    /// (first top-level block of a section, the `w:sectPr` of the section before it), for
    /// every section after the first, in order; taken from the front as the body is written
    /// (a queue: a file may have a section per paragraph).
    pub section_ends: VecDeque<(usize, String)>,
    /// Room for a paragraph's properties while they are built, kept from one paragraph to the
    /// next (every paragraph has some; up to 4 KiB).
    pub(crate) ppr_room: Room<String, 4096>,
    /// Room for a run's properties while they are built, kept from one run to the next.
    pub(crate) rpr_room: Room<String, 4096>,
}

impl<'a> Writer<'a> {
    pub fn new(doc: &'a Document, tpl: &'a WordTemplate, settings: &'a PagedSettings) -> Self {
        // One numbering definition serves the body and every cell, so the shallowest outline
        // level anywhere: a cell's shallower item would otherwise show no number at all.
        let mut outline_shift: Option<usize> = None;
        doc.walk_blocks(&mut |_, b| {
            if let Block::Paragraph(p) = b {
                if matches!(p.kind, TextType::HeadingOl | TextType::ParagraphOl) {
                    let level = usize::from(p.level);
                    outline_shift = Some(outline_shift.map_or(level, |s| s.min(level)));
                }
            }
        });
        let outline_shift = outline_shift.unwrap_or(0);
        let styles = doc_defaults(&tpl.styles, doc);
        let mut default_langs = default_langs(&styles);
        default_langs[0].get_or_insert_with(|| settings.language.bcp47().to_string());
        let comment_ids: HashMap<String, u32> = doc
            .comments
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i as u32))
            .collect();
        Writer {
            doc,
            tpl,
            settings,
            report: Report::new(),
            numbering: Numbering::new(&tpl.numbering, outline_shift),
            next_annotation: doc.comments.len() as u32,
            next_doc_pr: 1,
            next_toc: 1,
            block: None,
            media_order: Vec::new(),
            media_index: HashMap::new(),
            charts: Vec::new(),
            rels: BTreeMap::new(),
            footnotes: Vec::new(),
            endnotes: Vec::new(),
            comment_ended: vec![false; doc.comments.len()],
            comments_in_body: comment_ends_in_body(doc),
            comment_ids,
            targets: HashMap::new(),
            refs: Vec::new(),
            table_depth: 0,
            headings: Vec::new(),
            figures: Vec::new(),
            tables: Vec::new(),
            figure_count: 0,
            table_count: 0,
            extra_char_styles: Vec::new(),
            char_style_ids: tpl.char_styles.clone(),
            source_styles: (0, None),
            sidenotes: 0,
            hidden_captions: (0, 0),
            cell: None,
            wrote_toc: false,
            pages: Vec::new(),
            section_ends: VecDeque::new(),
            ppr_room: Room::default(),
            rpr_room: Room::default(),
            lang_context: LangContext::default(),
            doc_lang: doc_lang(&tpl.styles, doc),
            paragraph_langs: doc.has_paragraph_lang(),
            styles,
            default_langs,
        }
    }

    pub fn loc(&self, element: &str) -> Location {
        let mut l = Location::part("word/document.xml").element(element);
        l.block = self.block;
        l
    }

    pub fn warn(&mut self, kind: WarningKind, element: &str, message: impl Into<String>) {
        let loc = self.loc(element);
        self.report.warn(kind, message, loc);
    }

    pub fn annotation_id(&mut self) -> u32 {
        let id = self.next_annotation;
        self.next_annotation += 1;
        id
    }

    pub fn toc_bookmark(&mut self) -> String {
        let n = self.next_toc;
        self.next_toc += 1;
        format!("_Toc{n:09}")
    }

    /// The relationship id of media `name` in `part`, recording the printed width.
    pub fn media_rel(&mut self, part: Part, name: &str, width_emu: u64) -> String {
        let index = match self.media_index.get(name) {
            Some(&i) => {
                if let Some(m) = self.media_order.get_mut(i) {
                    m.1 = m.1.max(width_emu);
                }
                i
            }
            None => {
                self.media_order.push((name.to_string(), width_emu));
                self.media_index
                    .insert(name.to_string(), self.media_order.len() - 1);
                self.media_order.len() - 1
            }
        };
        self.rels.entry(part).or_default().image(index)
    }

    /// Adds chart part `xml` and returns the main part's relationship to it (charts stand in
    /// body tables only).
    pub fn chart_rel(&mut self, xml: String) -> String {
        self.charts.push(xml);
        let index = self.charts.len() - 1;
        let id = format!("rIdChart{}", index + 1);
        self.rels
            .entry(Part::Document)
            .or_default()
            .items
            .push((id.clone(), Rel::Chart(index)));
        id
    }

    pub fn link_rel(&mut self, part: Part, href: &str) -> String {
        self.rels.entry(part).or_default().link(href)
    }

    /// The left indentation of `steps` in twips, at most half of `avail` so text keeps room (a
    /// narrow table cell cannot take the 5,400 twips of indent 15; LibreOffice loops laying out
    /// paragraphs whose indentation exceeds their cell).
    pub fn indent(&mut self, steps: u8, avail: u32) -> u32 {
        let want = u32::from(steps) * INDENT_STEP_TWIPS;
        let max = avail / 2;
        if want > max {
            self.warn(
                WarningKind::Lossy,
                "w:ind",
                format!("indent {steps} ({want} twips) reduced to {max} twips to fit the width"),
            );
            return max;
        }
        want
    }

    /// Writes `<w:bookmarkStart>`; returns the id for the end.
    pub fn bookmark_start(&mut self, out: &mut String, name: &str) -> u32 {
        let id = self.annotation_id();
        let _ = write!(out, r#"<w:bookmarkStart w:id="{id}" w:name=""#);
        escape_attr(name, out);
        out.push_str(r#""/>"#);
        id
    }

    /// Opens the bookmark of a block without a caption (id `id`) and makes it the target of
    /// cross-references to `id`, which show `text`; the caller ends it (`w:bookmarkEnd`).
    pub fn block_bookmark(&mut self, out: &mut String, id: &str, text: String) -> u32 {
        let name = self.bookmark_for_id(id);
        let bid = self.bookmark_start(out, &name);
        self.targets.insert(
            id.to_string(),
            Target {
                bookmark: name,
                number: None,
                text,
                caption: false,
            },
        );
        bid
    }

    /// The bookmark name of block id `id`, warning when Word cannot hold it.
    pub fn bookmark_for_id(&mut self, id: &str) -> String {
        let name = bookmark_name(id);
        if name != id {
            self.warn(
                WarningKind::Lossy,
                "w:bookmarkStart",
                format!(
                    "id {id:?} is longer than Word's 40-character bookmark names; written as {name}"
                ),
            );
        }
        name
    }
}

/// Ids of comments whose end anchor is in paragraph text outside notes.
fn comment_ends_in_body(doc: &Document) -> std::collections::HashSet<String> {
    fn visit(inlines: &[crate::ast::Inline], out: &mut std::collections::HashSet<String>) {
        for i in inlines {
            match i {
                crate::ast::Inline::CommentEnd { id } => {
                    out.insert(id.clone());
                }
                crate::ast::Inline::Note { .. } => {}
                other => {
                    if let Some(children) = other.children() {
                        visit(children, out);
                    }
                }
            }
        }
    }
    let mut out = std::collections::HashSet::new();
    doc.walk_blocks(&mut |_, block| {
        if let Block::Paragraph(p) = block {
            visit(&p.content, &mut out);
        }
    });
    out
}

/// Bookmark name for a block id: the id itself (so a reader gets the id back), unless it is longer
/// than Word's 40 characters; then `_Ref` + a hash of it.
pub fn bookmark_name(id: &str) -> String {
    if id.chars().count() <= MAX_BOOKMARK && !id.is_empty() {
        return id.to_string();
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("_Ref{h:016x}")
}

pub(crate) fn push_jc(ppr: &mut String, align: Align) {
    if align != Align::Left {
        push_explicit_jc(ppr, align);
    }
}

/// `w:jc` for `align`, written even for left (the default).
fn push_explicit_jc(ppr: &mut String, align: Align) {
    let v = match align {
        Align::Left => "left",
        Align::Center => "center",
        Align::Right => "right",
        Align::Justify => "both",
    };
    let _ = write!(ppr, r#"<w:jc w:val="{v}"/>"#);
}

/// A plain run of `text` with run properties `rpr` (tabs and line breaks as elements).
pub(crate) fn text_run(out: &mut String, text: &str, rpr: &str, deleted: bool) {
    out.push_str("<w:r>");
    if !rpr.is_empty() {
        out.push_str("<w:rPr>");
        out.push_str(rpr);
        out.push_str("</w:rPr>");
    }
    // Written for every run of the document: plain appends, not the formatting machinery.
    let (open, close) = if deleted {
        (r#"<w:delText xml:space="preserve">"#, "</w:delText>")
    } else {
        (r#"<w:t xml:space="preserve">"#, "</w:t>")
    };
    let mut first = true;
    for line in text.split('\n') {
        if !first {
            out.push_str("<w:br/>");
        }
        first = false;
        let mut first_tab = true;
        for piece in line.split('\t') {
            if !first_tab {
                out.push_str("<w:tab/>");
            }
            first_tab = false;
            if !piece.is_empty() {
                out.push_str(open);
                escape_text(piece, out);
                out.push_str(close);
            }
        }
    }
    out.push_str("</w:r>");
}

/// A complete field: `instr` with `result` (already-written runs) as its cached result.
pub(crate) fn field(out: &mut String, instr: &str, result: &str, deleted: bool) {
    let tag = if deleted {
        "w:delInstrText"
    } else {
        "w:instrText"
    };
    out.push_str(r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r>"#);
    let _ = write!(out, r#"<w:r><{tag} xml:space="preserve"> "#);
    escape_text(instr, out);
    let _ = write!(
        out,
        r#" </{tag}></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#
    );
    out.push_str(result);
    out.push_str(r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#);
}
