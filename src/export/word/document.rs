//! `word/document.xml`: the body writer. One pass over the tree writes every block; what can only
//! be known at the end (tables of contents, cross-reference results to later targets) is left as
//! a marker and filled in by `Writer::resolve_markers`.
//!
//! | node | Word markup |
//! |---|---|
//! | `paragraph` / `caption` | `Normal` / `Caption` |
//! | `heading` level L | `Heading L+1`, a `_Toc` bookmark |
//! | `heading-ol`, `paragraph-ol` | the same plus `w:numPr` on the shared outline numbering |
//! | `list-ol`, `list-ul` | `List Paragraph` + `w:numPr` ([`super::numbering`]) |
//! | code block (`code`) | `HTML Preformatted`, in a `w:sdt` tagged with the language |
//! | image | inline `w:drawing`, caption below (Caption style, `SEQ`) |
//! | table | `w:tbl` with `tblGrid`, `gridSpan`, `vMerge`, `tblHeader` (nested: `cnfStyle`); caption above |
//! | page break | `w:br w:type="page"` |
//! | directory | a TOC field (contents, figures, tables); other kinds are reported |
//! | block ids | `w:bookmarkStart/End` named by the id ([`bookmark_name`]) |

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{Align, Block, DirectoryKind, Document, Image, Paragraph, TextType};
use crate::report::{Location, Report, WarningKind};
use crate::xml::{escape_attr, escape_text};

use super::PagedSettings;
use super::images::{display_size, word_can_show};
use super::numbering::{Numbering, Scope};
use super::template::WordTemplate;
use crate::ast::length::EMU_PER_TWIP;
use crate::export::paged;
use crate::ooxml::{CODE_LANGUAGE_TAG, INDENT_STEP_TWIPS};

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
    pub(crate) lang_context: super::langdir::LangContext,
    /// The document's language as the styles spell it (`super::langdir::doc_lang`).
    pub(crate) doc_lang: Option<String>,
    /// Some paragraph is in another language than the document's.
    pub(crate) paragraph_langs: bool,
    /// The styles part with the document's language and direction in its defaults
    /// (`super::langdir::doc_defaults`).
    pub(crate) styles: String,
    /// What a run without a language of its own is read in, per slot (indexed by
    /// [`crate::lang_tag::Slot`]): the styles' defaults, else the settings' theme language for
    /// `w:val` (the only one `w:themeFontLang` says). Runs say their language against these.
    pub(crate) default_langs: [Option<String>; 3],
    /// Page of each top-level block in the PDF writer's layout, for the TOC entries' `PAGEREF`
    /// results (empty without the `pdf` feature or when no list is written).
    pub pages: Vec<Option<u32>>,
    /// (first top-level block of a section, the `w:sectPr` of the section before it), for
    /// every section after the first, in order.
    pub section_ends: Vec<(usize, String)>,
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
        let styles = super::langdir::doc_defaults(&tpl.styles, doc);
        let mut default_langs = super::langdir::default_langs(&styles);
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
            section_ends: Vec::new(),
            lang_context: super::langdir::LangContext::default(),
            doc_lang: super::langdir::doc_lang(&tpl.styles, doc),
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

    /// The whole body: title, tables of contents, blocks, section properties.
    pub fn write_body(&mut self) -> String {
        let mut out = String::with_capacity(self.doc.blocks.len() * 400 + 4096);
        let meta = &self.doc.meta;
        for (text, style) in [(&meta.title, "Title"), (&meta.subtitle, "Subtitle")] {
            if let Some(t) = text.as_deref().filter(|t| crate::xml::has_xml_text(t)) {
                let _ = write!(out, r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#);
                text_run(&mut out, t, "", false);
                out.push_str("</w:p>");
            }
        }
        // Settings ask for TOCs; a directory block of the same kind in the tree places it,
        // otherwise it goes on top.
        for kind in paged::directories_on_top(self.doc, self.settings) {
            toc_marker(&mut out, kind);
        }
        let avail = self.tpl.page.text_width;
        let blocks = &self.doc.blocks;
        self.write_blocks(&mut out, blocks, avail, None, true);
        // Sections that start after the last block (the body ended with a section break).
        for (_, sect_pr) in std::mem::take(&mut self.section_ends) {
            super::page_parts::end_section(&mut out, &sect_pr);
        }
        self.block = None;
        for message in paged::hidden_caption_messages(self.hidden_captions) {
            self.report.warn(
                WarningKind::Lossy,
                message,
                Location::part("word/document.xml"),
            );
        }
        if self.source_styles.0 > 0 {
            let (n, example) = (self.source_styles.0, self.source_styles.1.take());
            self.report.warn(
                WarningKind::UnmappedStyle,
                format!(
                    "{n} paragraph(s) name a source style (e.g. {:?}); written in the template's styles",
                    example.unwrap_or_default()
                ),
                Location::part("word/document.xml"),
            );
        }
        out
    }

    /// Writes a list of blocks (the body or a cell) `avail` twips wide.
    pub fn write_blocks(
        &mut self,
        out: &mut String,
        blocks: &[Block],
        avail: u32,
        cell: Option<CellFormat>,
        top: bool,
    ) {
        let numbers = number_blocks(blocks);
        let mut scope = self.numbering.scope(blocks);
        let outer_cell = std::mem::replace(&mut self.cell, cell);
        for (i, (block, number)) in blocks.iter().zip(&numbers).enumerate() {
            if top {
                self.block = Some(i);
                // The sections that end before this block.
                while self
                    .section_ends
                    .first()
                    .is_some_and(|(start, _)| *start <= i)
                {
                    let (_, sect_pr) = self.section_ends.remove(0);
                    super::page_parts::end_section(out, &sect_pr);
                }
            }
            if !matches!(block, Block::Paragraph(p) if p.kind.is_list()) {
                scope.end_anonymous();
            }
            match block {
                Block::Paragraph(p) => {
                    self.write_paragraph(out, p, number, &mut scope, cell, avail)
                }
                Block::Image(img) => self.write_image(out, img, number, avail),
                Block::Table(t) => self.write_table(out, t, number, avail),
                Block::PageBreak => out.push_str(r#"<w:p><w:r><w:br w:type="page"/></w:r></w:p>"#),
                Block::Directory { kind } => match kind {
                    DirectoryKind::Content | DirectoryKind::Images | DirectoryKind::Tables => {
                        if *kind == DirectoryKind::Images && !self.settings.image_caption {
                            self.warn(WarningKind::Lossy, "directory", "a list of figures without image captions (imageCaption) has no entries");
                        }
                        if *kind == DirectoryKind::Tables && !self.settings.table_caption {
                            self.warn(WarningKind::Lossy, "directory", "a list of tables without table captions (tableCaption) has no entries");
                        }
                        toc_marker(out, *kind)
                    }
                    other => self.warn(
                        WarningKind::Dropped,
                        "directory",
                        format!(
                            "a generated list of {} has no Word field; left out",
                            other.as_str()
                        ),
                    ),
                },
            }
        }
        self.cell = outer_cell;
    }

    fn write_paragraph(
        &mut self,
        out: &mut String,
        p: &Paragraph,
        number: &BlockNumber,
        scope: &mut Scope,
        cell: Option<CellFormat>,
        avail: u32,
    ) {
        if let Some(style) = &p.style {
            self.source_styles.0 += 1;
            self.source_styles.1.get_or_insert_with(|| style.clone());
        }
        let assigned = self.numbering.assign(scope, p, number);
        let level = usize::from(p.level.min(5));
        let code = p.code.as_deref().filter(|_| p.kind == TextType::Paragraph);
        // A code block's language has no place in a paragraph: a content control tagged with
        // it wraps the paragraph (Word shows nothing of it; our reader reads it back).
        let language = code.filter(|l| !l.is_empty() && crate::ast::is_code_language(l));
        if let Some(language) = language {
            let _ = write!(
                out,
                r#"<w:sdt><w:sdtPr><w:tag w:val="{CODE_LANGUAGE_TAG}{language}"/></w:sdtPr><w:sdtContent>"#
            );
        }
        out.push_str("<w:p>");
        let mut ppr = String::new();
        match p.kind {
            TextType::Heading | TextType::HeadingOl => {
                let _ = write!(ppr, r#"<w:pStyle w:val="Heading{}"/>"#, level + 1);
            }
            TextType::ListOl | TextType::ListUl => {
                ppr.push_str(r#"<w:pStyle w:val="ListParagraph"/>"#)
            }
            TextType::Caption => ppr.push_str(r#"<w:pStyle w:val="Caption"/>"#),
            // Code blocks: Word's monospace "HTML Preformatted" style; runs keep their spaces
            // (`xml:space="preserve"` on every text).
            TextType::Paragraph if code.is_some() => {
                ppr.push_str(r#"<w:pStyle w:val="HTMLPreformatted"/>"#)
            }
            TextType::Paragraph | TextType::ParagraphOl => {}
        }
        if let Some(a) = &assigned {
            let _ = write!(
                ppr,
                r#"<w:numPr><w:ilvl w:val="{}"/><w:numId w:val="{}"/></w:numPr>"#,
                a.ilvl, a.num_id
            );
        }
        self.push_paragraph_bidi(&mut ppr, p);
        if p.indent > 0 && !p.kind.is_list() {
            let ind = self.indent(p.indent, avail);
            let _ = write!(ppr, r#"<w:ind w:left="{ind}"/>"#);
        }
        match (p.align, cell) {
            // The cell's alignment and size go on each of its paragraphs, the alignment
            // explicit even when left: Word has no cell-level `w:jc`, and a reader takes the
            // alignment and mark size all of a cell's paragraphs share for the cell's.
            (Align::Left, Some(format)) => format.push_paragraph_props(&mut ppr),
            (a, Some(format)) => {
                push_jc(&mut ppr, a);
                format.push_mark_size(&mut ppr);
            }
            (a, None) => push_jc(&mut ppr, a),
        }
        if let Some(mark) = &p.mark {
            // The paragraph mark's change comes first in the mark's properties (CT_ParaRPr).
            let change = self.mark_change(&mark.into());
            match ppr.find("<w:rPr>") {
                Some(at) => ppr.insert_str(at + "<w:rPr>".len(), &change),
                None => {
                    let _ = write!(ppr, "<w:rPr>{change}</w:rPr>");
                }
            }
        }
        if let Some(lang) = self.paragraph_mark_lang(p) {
            // The mark's language ends its properties (CT_ParaRPr).
            match ppr.find("</w:rPr>") {
                Some(at) => ppr.insert_str(at, &lang),
                None => {
                    let _ = write!(ppr, "<w:rPr>{lang}</w:rPr>");
                }
            }
        }
        if !ppr.is_empty() {
            let _ = write!(out, "<w:pPr>{ppr}</w:pPr>");
        }
        let toc = if p.kind.is_heading() {
            let name = self.toc_bookmark();
            let id = self.bookmark_start(out, &name);
            Some((name, id))
        } else {
            None
        };
        // A paragraph holding cross-references gets an empty bookmark: wrapped, a REF to it
        // would contain REFs, and a cycle of them makes LibreOffice loop while loading.
        let holds_refs = contains_cross_ref(&p.content);
        let id_bookmark = p.id.as_deref().map(|id| {
            let name = self.bookmark_for_id(id);
            let bid = self.bookmark_start(out, &name);
            if holds_refs {
                let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
            }
            (name, bid)
        });
        let ctx = super::runs::RunContext {
            size: cell.and_then(|c| c.size),
            avail_emu: u64::from(avail) * EMU_PER_TWIP,
        };
        self.lang_context = self.paragraph_lang_context(p);
        self.write_inlines(out, Part::Document, &p.content, &ctx);
        if let Some((_, bid)) = id_bookmark.as_ref().filter(|_| !holds_refs) {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
        }
        if let Some((_, tid)) = &toc {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{tid}"/>"#);
        }
        out.push_str("</w:p>");
        if language.is_some() {
            out.push_str("</w:sdtContent></w:sdt>");
        }
        let text = crate::ast::inline::plain_text(&p.content).replace('\n', " ");
        let label = assigned
            .as_ref()
            .map(|a| a.label.clone())
            .filter(|l| !l.is_empty());
        if let Some((name, _)) = toc {
            if !text.trim().is_empty() {
                let shown = match &label {
                    Some(l) if p.kind == TextType::HeadingOl => format!("{l} {text}"),
                    _ => text.clone(),
                };
                self.headings.push(TocEntry {
                    level,
                    text: shown,
                    bookmark: name,
                    block: self.block,
                });
            }
        }
        if let (Some(id), Some((name, _))) = (&p.id, id_bookmark) {
            self.targets.insert(
                id.clone(),
                Target {
                    bookmark: name,
                    number: label,
                    text,
                    caption: false,
                },
            );
        }
    }

    fn write_image(&mut self, out: &mut String, img: &Image, number: &BlockNumber, avail: u32) {
        let caption = img
            .caption
            .as_deref()
            .filter(|c| (!c.is_empty() || number.caption.is_some()) && self.settings.image_caption);
        out.push_str("<w:p>");
        let mut ppr = String::new();
        if caption.is_some() {
            ppr.push_str("<w:keepNext/>");
        }
        if img.indent > 0 {
            let ind = self.indent(img.indent, avail);
            let _ = write!(ppr, r#"<w:ind w:left="{ind}"/>"#);
        }
        push_jc(&mut ppr, img.align);
        // A cell's font size is its paragraph marks' (a picture's paragraph too): a reader
        // takes the size of a cell only when every paragraph in it has that mark.
        if let Some(cell) = self.cell {
            cell.push_mark_size(&mut ppr);
        }
        if !ppr.is_empty() {
            let _ = write!(out, "<w:pPr>{ppr}</w:pPr>");
        }
        // Without a caption, the block's bookmark wraps the picture.
        let id_bookmark = match (caption, &img.id) {
            (None, Some(id)) => {
                Some(self.block_bookmark(out, id, img.alt.clone().unwrap_or_default()))
            }
            _ => None,
        };
        let avail_emu = u64::from(avail) * EMU_PER_TWIP;
        self.picture(
            out,
            Part::Document,
            &img.media,
            img.alt.as_deref(),
            None,
            img.width_percent,
            img.extent,
            avail_emu,
            "image",
        );
        if let Some(bid) = id_bookmark {
            let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
        }
        out.push_str("</w:p>");
        if img.caption.as_deref().is_some_and(|c| !c.is_empty()) && caption.is_none() {
            self.hidden_captions.0 += 1;
        }
        if let Some(text) = caption {
            let numbered = number.caption.is_some();
            self.write_caption(
                out,
                super::captions::CaptionKind::Figure,
                numbered,
                text,
                img.id.as_deref(),
                false,
            );
        }
    }

    /// Writes an inline picture of media `name`, or reports why it cannot.
    #[allow(clippy::too_many_arguments)]
    pub fn picture(
        &mut self,
        out: &mut String,
        part: Part,
        name: &str,
        alt: Option<&str>,
        title: Option<&str>,
        width_percent: Option<f32>,
        extent: Option<crate::ast::Extent>,
        avail_emu: u64,
        element: &str,
    ) {
        let Some(item) = self.doc.media.get(name) else {
            self.warn(
                WarningKind::MissingMedia,
                element,
                format!("image {name} is not in the media store; left out"),
            );
            return;
        };
        if !word_can_show(item.kind) {
            self.warn(
                WarningKind::Dropped,
                element,
                format!(
                    "image {name} is {}, which Word cannot show; left out",
                    item.kind.mime()
                ),
            );
            return;
        }
        let pixels = item.width.zip(item.height);
        let (cx, cy, known) = display_size(width_percent, extent, pixels, avail_emu);
        if !known {
            self.warn(
                WarningKind::InvalidValue,
                element,
                format!("image {name} has no known size; shown at 4:3"),
            );
        }
        let rel = self.media_rel(part, name, cx);
        let id = self.next_doc_pr;
        self.next_doc_pr += 1;
        super::images::drawing(
            out,
            &rel,
            id,
            (cx, cy),
            alt.unwrap_or(""),
            title.unwrap_or(""),
        );
    }

    /// Replaces markers left in `text` with tables of contents and cross-reference fields.
    pub fn resolve_markers(&mut self, text: String) -> String {
        if !text.contains(MARK) {
            return text;
        }
        let mut out = String::with_capacity(text.len() + 4096);
        for (i, piece) in text.split(MARK).enumerate() {
            if i % 2 == 0 {
                out.push_str(piece);
                continue;
            }
            match piece.split_at_checked(1) {
                Some(("T", kind)) => {
                    let kind = DirectoryKind::parse(kind).unwrap_or(DirectoryKind::Content);
                    self.render_toc(&mut out, kind);
                }
                Some(("R", n)) => {
                    if let Some(r) = n
                        .parse::<usize>()
                        .ok()
                        .and_then(|n| self.refs.get(n).cloned())
                    {
                        self.render_ref(&mut out, &r);
                    }
                }
                _ => {}
            }
        }
        out
    }
}

/// Whether inline content holds a cross-reference (outside notes, which are other stories).
fn contains_cross_ref(inlines: &[crate::ast::Inline]) -> bool {
    inlines.iter().any(|i| match i {
        crate::ast::Inline::CrossRef { .. } => true,
        other => other.children().is_some_and(contains_cross_ref),
    })
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

fn toc_marker(out: &mut String, kind: DirectoryKind) {
    out.push(MARK);
    out.push('T');
    out.push_str(kind.as_str());
    out.push(MARK);
}

/// A plain run of `text` with run properties `rpr` (tabs and line breaks as elements).
pub(crate) fn text_run(out: &mut String, text: &str, rpr: &str, deleted: bool) {
    out.push_str("<w:r>");
    if !rpr.is_empty() {
        let _ = write!(out, "<w:rPr>{rpr}</w:rPr>");
    }
    let tag = if deleted { "w:delText" } else { "w:t" };
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
                let _ = write!(out, r#"<{tag} xml:space="preserve">"#);
                escape_text(piece, out);
                let _ = write!(out, "</{tag}>");
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
