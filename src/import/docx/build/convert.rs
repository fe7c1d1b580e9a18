//! Stage two: the model of stage one → the document tree.
//!
//! Paragraph by paragraph: resolve the style chain, numbering and outline level, walk the items
//! (runs with their resolved formatting, hyperlinks, tracked changes, fields, notes, comments,
//! bookmarks, images), decide the text type through [`super::mapping`], then emit blocks:
//! a page break inside a paragraph splits it, a TOC field becomes a directory block, a paragraph
//! holding only pictures becomes image blocks, text boxes follow their anchoring paragraph.
//!
//! Fields keep one stack across paragraphs (a TOC's cached entries span many). A part whose
//! `w:fldChar`s do not balance is read with complex fields switched off (results shown as text),
//! so one broken field cannot hide the rest of the document.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::import::docx::parse::body::Facts;
use crate::import::docx::parse::fields::{self, FieldKind};
use super::numbering::{ListCounters, ListNumber};
use super::looks::{NumberLook, NumberLooks};
use super::mapping::{self, Basis, NumberingFacts, ParagraphFacts, StyleInfo, StyleMapping};
use super::media::MediaNames;
use crate::import::docx::parse::model::{self, BreakKind, ImageTarget, Item, RunItem};
use crate::import::docx::parse::notes::NoteMap;
use crate::import::docx::parse::numbering::{Numbering, ResolvedLevel};
use crate::import::docx::parse::props::{NumPr, ParaProps, RunProps};
use crate::import::docx::parse::styles::Styles;
use crate::ast::inline::{ChangeKey, Leaf, Mark, Run as IRun, from_runs};
use crate::ast::{
    self, Align, Change, Comment, Inline, NoteKind, NumberFormat, Paragraph, TextStyle, TextType,
};
use crate::report::{Location, Report, WarningKind};

/// Default text width when no section says: 6 inches in EMU.
pub const DEFAULT_TEXT_WIDTH: u64 = 6 * 914_400;

/// Deepest field nesting tracked; deeper fields are read as plain results.
const MAX_FIELD_DEPTH: usize = 64;

/// Everything stage two reads besides the body.
pub struct Sources<'a> {
    pub styles: &'a Styles,
    pub numbering: &'a Numbering,
    pub mapping: &'a StyleMapping,
    pub footnotes: &'a NoteMap,
    pub endnotes: &'a NoteMap,
    pub comment_ids: &'a HashSet<String>,
    pub facts: &'a Facts,
    /// Lower-cased zip entry names, to know whether a picture's part exists.
    pub parts: &'a HashSet<String>,
    /// The main part's name, for warning locations.
    pub main_part: &'a str,
    /// SmartArt data parts read: part name → items in reading order.
    pub diagrams: &'a std::collections::HashMap<String, Vec<crate::import::docx::parse::smartart::DiagramItem>>,
    /// Chart parts' data tables, by part name.
    pub charts: &'a HashMap<String, ast::Table>,
}

/// A block list being built, with what the caption pass needs to know: which blocks are
/// caption paragraphs.
#[derive(Default)]
pub struct Out {
    pub blocks: Vec<ast::Block>,
    /// (index in `blocks`, numbering facts) of each caption paragraph.
    pub captions: Vec<(usize, CaptionInfo)>,
}

impl Out {
    fn push(&mut self, block: ast::Block) {
        self.blocks.push(block);
    }

    fn push_caption(&mut self, block: ast::Block, info: CaptionInfo) {
        self.captions.push((self.blocks.len(), info));
        self.blocks.push(block);
    }
}

/// What a caption paragraph's numbering said.
#[derive(Debug, Clone, Default)]
pub struct CaptionInfo {
    /// The `SEQ` identifier (`Figure`, `Table`).
    pub label: Option<String>,
    /// A `SEQ` field numbered it.
    pub numbered: bool,
    /// Kept with the next paragraph (`w:keepNext`): a caption above the block it names.
    pub keep_next: bool,
}

#[derive(Debug, Default)]
struct Frame {
    instr: String,
    result: bool,
    drop: bool,
    link: Option<String>,
}

#[derive(Debug, Default)]
struct FieldState {
    frames: Vec<Frame>,
    overflow: usize,
    disabled: bool,
}

enum Segment {
    Inline(Vec<IRun>),
    Block(ast::Block),
}

struct SeqMark {
    label: String,
    segment: usize,
    run: usize,
}

#[derive(Default)]
struct ParaState {
    segments: Vec<Segment>,
    runs: Vec<IRun>,
    links: Vec<String>,
    changes: Vec<Change>,
    bookmarks: Vec<String>,
    seq: Option<SeqMark>,
    extents: Vec<Option<(u64, u64)>>,
    visible_any: bool,
    suppressed_any: bool,
}

impl ParaState {
    fn split(&mut self, block: ast::Block) {
        let runs = std::mem::take(&mut self.runs);
        self.segments.push(Segment::Inline(runs));
        self.segments.push(Segment::Block(block));
    }

    fn finish(&mut self) {
        let runs = std::mem::take(&mut self.runs);
        self.segments.push(Segment::Inline(runs));
    }

    fn plain_text(&self) -> String {
        let mut s = String::new();
        for seg in &self.segments {
            if let Segment::Inline(runs) = seg {
                for r in runs {
                    match &r.leaf {
                        Leaf::Text(t) => s.push_str(t),
                        Leaf::LineBreak => s.push('\n'),
                        Leaf::Atom(_) => {}
                    }
                }
            }
        }
        s
    }
}

/// A paragraph's resolved properties.
struct ParaInfo<'s> {
    /// The paragraph style's run properties (chain merged).
    prpr: Option<&'s RunProps>,
    /// The explicit `w:pStyle`.
    explicit: Option<String>,
    chain: Rc<[StyleInfo<'s>]>,
    num: Option<(String, ResolvedLevel)>,
    outline: Option<u8>,
    align: Option<Align>,
    page_break_before: bool,
    /// `w:keepNext`, direct or from the style.
    keep_next: bool,
}

/// The stage-two converter of one document.
pub struct Converter<'a> {
    src: Sources<'a>,
    /// Warnings so far.
    pub report: Report,
    /// Media names handed out.
    pub media: MediaNames,
    /// (media, width, height) of image blocks wider than their text: their width is not what
    /// `width_percent` (at most 100) says, so they keep their extent.
    pub wide_images: HashSet<(String, u64, u64)>,
    /// SmartArt diagrams converted so far (each gets its own list id).
    diagram_count: usize,
    lists: ListCounters,
    ids: HashSet<String>,
    /// Bookmark names that point at another block's id.
    pub alias: HashMap<String, String>,
    carry: Vec<String>,
    chains: HashMap<&'a str, Rc<[StyleInfo<'a>]>>,
    warned: HashSet<String>,
    /// Paragraph styles `warn_unmapped` has looked at: whether it has nothing more to say of
    /// them (warned already, or the default paragraph style), else only paragraphs with
    /// numbering or an outline level can still draw the warning.
    unmapped_styles: HashMap<String, bool>,
    fields: FieldState,
    pub text_width: u64,
    note_depth: u32,
    footer_mode: bool,
    block_no: usize,
    /// How Word draws the numbers of the numbered paragraphs made so far.
    pub looks: NumberLooks,
}

impl<'a> Converter<'a> {
    pub fn new(src: Sources<'a>, report: Report) -> Self {
        Converter {
            src,
            report,
            media: MediaNames::default(),
            wide_images: HashSet::new(),
            diagram_count: 0,
            lists: ListCounters::default(),
            ids: HashSet::new(),
            alias: HashMap::new(),
            carry: Vec::new(),
            chains: HashMap::new(),
            warned: HashSet::new(),
            unmapped_styles: HashMap::new(),
            fields: FieldState::default(),
            text_width: DEFAULT_TEXT_WIDTH,
            note_depth: 0,
            footer_mode: false,
            block_no: 0,
            looks: NumberLooks::default(),
        }
    }

    fn loc(&self) -> Location {
        Location::part(self.src.main_part).block(self.block_no)
    }

    /// The document's styles.
    pub fn src_styles(&self) -> &'a Styles {
        self.src.styles
    }

    /// A style's display name.
    pub fn style_name(&self, id: &str) -> String {
        self.src.styles.name_of(id).to_string()
    }

    pub fn warn(&mut self, kind: WarningKind, message: impl Into<String>, element: &str) {
        let loc = self.loc().element(element);
        self.report.warn(kind, message, loc);
    }

    /// Warns once per `key`.
    fn warn_once(
        &mut self,
        key: String,
        kind: WarningKind,
        message: impl Into<String>,
        element: &str,
    ) {
        if self.warned.insert(key) {
            self.warn(kind, message, element);
        }
    }

    // ---- entry points ------------------------------------------------------------------

    /// Converts the main body.
    pub fn document(&mut self, body: model::Body) -> Vec<ast::Block> {
        let widths = section_widths(&body);
        // Balance was counted while parsing the main part.
        let facts = self.src.facts;
        self.fields = FieldState {
            disabled: facts.field_underflow || facts.field_depth != 0,
            ..FieldState::default()
        };
        if self.fields.disabled {
            self.warn(
                WarningKind::Repaired,
                "the document's field markers do not balance; fields are shown as their results",
                "w:fldChar",
            );
        }
        let blocks = self.block_list(body.blocks, Some(&widths));
        if !self.carry.is_empty() {
            self.carry.clear();
        }
        blocks
    }

    /// Converts comment bodies (ids deduplicated, first wins).
    pub fn comments(&mut self, raws: Vec<crate::import::docx::parse::comments::RawComment>) -> Vec<Comment> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for raw in raws {
            if !seen.insert(raw.id.clone()) {
                continue;
            }
            let content = self.inline_of_blocks(raw.blocks, false);
            out.push(Comment {
                id: raw.id,
                author: raw.author,
                initials: raw.initials,
                date: raw.date,
                content,
            });
        }
        out
    }

    /// The plain text of a footer (page-number fields dropped, whitespace collapsed).
    pub fn footer_text(&mut self, blocks: Vec<model::Block>) -> Option<String> {
        self.footer_mode = true;
        let inlines = self.inline_of_blocks(blocks, false);
        self.footer_mode = false;
        let text = ast::inline::plain_text(&inlines);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        Some(text).filter(|t| !t.is_empty())
    }

    // ---- blocks ------------------------------------------------------------------------

    /// Converts a block list (the body, a cell, a text box); `widths` per block at top level.
    pub fn block_list(
        &mut self,
        blocks: Vec<model::Block>,
        widths: Option<&[u64]>,
    ) -> Vec<ast::Block> {
        let mut out = Out::default();
        let mut pending: Vec<Item> = Vec::new();
        for (i, b) in blocks.into_iter().enumerate() {
            if let Some(w) = widths {
                self.text_width = w.get(i).copied().unwrap_or(DEFAULT_TEXT_WIDTH);
                self.block_no = out.blocks.len();
            }
            match b {
                model::Block::Loose(item) => pending.push(item),
                model::Block::Para(p) => {
                    let items = std::mem::take(&mut pending);
                    self.paragraph(p, items, &mut out);
                }
                model::Block::Table(t) => {
                    pending.retain(|item| match item {
                        Item::Bookmark(name) => {
                            self.carry.push(name.clone());
                            false
                        }
                        _ => true,
                    });
                    self.table(t, &mut out);
                }
            }
        }
        // Anchors after the last paragraph: bookmarks wait for the next block; comment anchors
        // with nothing to attach to are dropped (their comment stays in the list).
        for item in pending {
            if let Item::Bookmark(name) = item {
                self.carry.push(name);
            }
        }
        super::captions::attach(out, &mut self.report, self.src.main_part)
    }

    fn assign_id(&mut self, bookmarks: &mut Vec<String>) -> Option<String> {
        // A name not starting with `_` is the tree's id (the writer's contract); Word's own
        // `_Toc…`/`_Ref…` bookmarks on the same block become aliases of it, so references to
        // them resolve to that id.
        if let Some(i) = bookmarks
            .iter()
            .position(|b| !b.starts_with('_') && !self.ids.contains(b))
        {
            let named = bookmarks.remove(i);
            bookmarks.insert(0, named);
        }
        let mut id: Option<String> = None;
        for b in bookmarks.drain(..) {
            if self.ids.contains(&b) {
                continue;
            }
            match &id {
                None => {
                    self.ids.insert(b.clone());
                    id = Some(b);
                }
                Some(first) => {
                    self.alias.insert(b, first.clone());
                }
            }
        }
        id
    }

    /// "Unrecognised paragraph style", once per style, and only for a style with a structural
    /// cue the mapping did not act on (numbering, an outline level, a heading- or list-like
    /// name), naming the cue. Body-text styles of every writer ("Body Text", "First
    /// Paragraph", "Compact", "Text Body", "Standard", "Normal (Web)", a quote…) are what a
    /// plain paragraph is: warning about each of them only hid the warnings that matter.
    fn warn_unmapped(&mut self, info: &ParaInfo<'_>) {
        let Some(id) = info.explicit.as_deref() else {
            return;
        };
        // The verdict on a style's name is the same for each of its paragraphs: worked out once.
        match self.unmapped_styles.get(id) {
            Some(true) => return,
            Some(false) if info.num.is_none() && info.outline.is_none() => return,
            _ => {}
        }
        if self.src.styles.is_default_paragraph(id) {
            self.unmapped_styles.insert(id.to_string(), true);
            return;
        }
        let name = self.src.styles.name_of(id).to_string();
        let cue = structural_cue(&name, info);
        self.unmapped_styles.insert(id.to_string(), cue.is_some());
        let Some(cue) = cue else {
            return;
        };
        self.warn_once(
            format!("style:{id}"),
            WarningKind::UnmappedStyle,
            format!(
                "Unrecognised paragraph style: {name} (Style ID: {id}); {cue}, but it is kept as a plain paragraph"
            ),
            "w:pStyle",
        );
    }

    /// Takes the bookmarks waiting for a block (before a table) as its id.
    pub fn take_carried_id(&mut self) -> Option<String> {
        let mut carried = std::mem::take(&mut self.carry);
        self.assign_id(&mut carried)
    }

    fn para_info(&mut self, props: &ParaProps) -> ParaInfo<'a> {
        let styles: &'a Styles = self.src.styles;
        let explicit = props.style.clone();
        let effective: Option<&'a str> = match explicit.as_deref() {
            Some(id) => styles.get(id).map(|s| s.id.as_str()),
            None => styles.default_paragraph.as_deref(),
        };
        // The chain is the same for every paragraph of a style: built once.
        let chain: Rc<[StyleInfo<'a>]> = match effective {
            Some(id) => self
                .chains
                .entry(id)
                .or_insert_with(|| {
                    styles
                        .chain(id)
                        .into_iter()
                        .map(|s| StyleInfo::new(s.id.as_str(), s.name.as_deref()))
                        .collect()
                })
                .clone(),
            None => Rc::from(Vec::new()),
        };
        let resolved = effective.and_then(|id| styles.resolved(id));
        let style_num = resolved.and_then(|r| r.ppr.num.clone());
        let num = match (&props.num, style_num) {
            (Some(direct), style) => {
                let num_id = direct
                    .num_id
                    .clone()
                    .or_else(|| style.as_ref().and_then(|s| s.num_id.clone()));
                let ilvl = direct.ilvl.or_else(|| style.as_ref().and_then(|s| s.ilvl));
                Some(NumPr { num_id, ilvl })
            }
            (None, style) => style,
        };
        let num = num.and_then(|np| {
            let id = np.num_id.clone()?;
            let lvl = self.src.numbering.resolve(&np, effective, styles)?;
            Some((id, lvl))
        });
        let outline = props
            .outline
            .or_else(|| resolved.and_then(|r| r.ppr.outline))
            .filter(|l| *l <= 8);
        let align = props.align.or_else(|| resolved.and_then(|r| r.ppr.align));
        ParaInfo {
            // The look of a built-in heading or caption style (Word's Caption is italic, older
            // headings bold) is how that kind of paragraph is drawn, not the author's emphasis:
            // the text type says it, so its run properties are no marks.
            prpr: resolved
                .filter(|_| {
                    chain
                        .first()
                        .is_none_or(|s| mapping::builtin_kind(s).is_none())
                })
                .map(|r| &r.rpr),
            explicit,
            chain,
            num,
            outline,
            align,
            page_break_before: props.page_break_before.unwrap_or(false),
            keep_next: props
                .keep_next
                .or_else(|| resolved.and_then(|r| r.ppr.keep_next))
                .unwrap_or(false),
        }
    }

    fn paragraph(&mut self, p: model::Para, pending: Vec<Item>, out: &mut Out) {
        let model::Para {
            props,
            items,
            textboxes,
            code_language,
            diagrams,
        } = p;
        let info = self.para_info(&props);
        let mut st = ParaState::default();
        st.bookmarks.append(&mut self.carry);
        self.items(pending, &info, &mut st);
        self.items(items, &info, &mut st);
        st.finish();

        let text = st.plain_text();
        let numbering_facts = info.num.as_ref().map(|(id, lvl)| NumberingFacts {
            num_id: id.clone(),
            ilvl: lvl.ilvl,
            format: lvl.level.number_format(),
            compound: lvl.level.is_compound(),
            outline: lvl.outline,
        });
        let undefined;
        let chain: &[StyleInfo<'_>] = if info.chain.is_empty() {
            match info.explicit.as_deref() {
                Some(id) => {
                    undefined = [StyleInfo::new(id, None)];
                    &undefined
                }
                None => &[],
            }
        } else {
            &info.chain
        };
        let facts = ParagraphFacts {
            styles: chain,
            numbering: numbering_facts.as_ref(),
            outline_level: info.outline,
            text: &text,
        };
        let mapped = mapping::map_paragraph(self.src.mapping, &facts);
        let mut kind = mapped.kind;
        let level = mapped.level;
        if st.seq.is_some() && mapped.basis == Basis::Default {
            // A SEQ field numbers captions: a paragraph carrying one is a caption.
            kind = TextType::Caption;
        }
        let dropped = st.suppressed_any && !st.visible_any;
        // Warned below, once a paragraph (not just pictures) came of it.
        let unmapped = mapped.basis == Basis::Default && kind != TextType::Caption && !dropped;
        let list = match &info.num {
            // A level without numbers counts only for the list items mapping made of it.
            Some((id, lvl))
                if lvl.level.number_format() != NumberFormat::None || kind.is_list() =>
            {
                let n = self
                    .lists
                    .next(id, lvl, self.src.numbering, self.src.styles);
                Some(n)
            }
            _ => None,
        }
        .filter(|_| {
            matches!(
                kind,
                TextType::ListOl | TextType::ListUl | TextType::HeadingOl | TextType::ParagraphOl
            )
        });
        if let (Some(l), Some((_, lvl))) = (&list, &info.num) {
            self.looks.record(
                &l.list_id,
                level,
                NumberLook {
                    format: l.format,
                    text: lvl.level.text.clone(),
                },
            );
        }
        let caption = (kind == TextType::Caption).then(|| CaptionInfo {
            label: st.seq.as_ref().map(|s| s.label.clone()),
            numbered: st.seq.is_some(),
            keep_next: info.keep_next,
        });
        if kind == TextType::Caption {
            strip_caption_label(&mut st);
        }
        // A paragraph in a code style ("Source Code", "HTML Preformatted", "Plain Text") or
        // tagged with a code language is a code block: wholly code, whitespace kept.
        let code = (kind == TextType::Paragraph)
            .then(|| {
                let styled = info
                    .explicit
                    .as_deref()
                    .is_some_and(|id| self.src.styles.is_code(id));
                code_language.clone().or_else(|| styled.then(String::new))
            })
            .flatten();
        let style_name = info
            .explicit
            .as_deref()
            .filter(|_| !mapping::style_is_implied(&facts, &mapped) && code.is_none())
            .map(|id| self.src.styles.name_of(id).to_string());

        if info.page_break_before {
            out.push(ast::Block::PageBreak);
        }
        if dropped {
            // Entirely inside a replaced field result (a TOC's cached entries).
            self.carry.append(&mut st.bookmarks);
        } else {
            let mut bookmarks = std::mem::take(&mut st.bookmarks);
            let several = st.segments.len() > 1;
            // A paragraph holding nothing but one block (a chart) gives it its bookmark: the
            // chart's id, as our writer puts it.
            let only_block = st
                .segments
                .iter()
                .filter(|s| !matches!(s, Segment::Inline(runs) if runs.is_empty()))
                .count()
                == 1;
            let mut first = true;
            let mut extents = st.extents.clone().into_iter();
            for seg in std::mem::take(&mut st.segments) {
                match seg {
                    Segment::Block(ast::Block::Table(mut t)) if only_block && t.id.is_none() => {
                        t.id = self.assign_id(&mut bookmarks);
                        first = false;
                        out.push(ast::Block::Table(t));
                    }
                    Segment::Block(b) => out.push(b),
                    Segment::Inline(runs) => {
                        if runs.is_empty() && several {
                            continue;
                        }
                        // A numbered paragraph holding a picture keeps its number: it stays
                        // a paragraph with the picture inline.
                        let numbered = kind.is_list()
                            || matches!(kind, TextType::HeadingOl | TextType::ParagraphOl);
                        if let Some(images) = image_only(&runs).filter(|_| !numbered) {
                            for (media, alt) in images {
                                let extent = extents.next().flatten();
                                let id = if first {
                                    self.assign_id(&mut bookmarks)
                                } else {
                                    None
                                };
                                first = false;
                                let image = self.image_block(
                                    media,
                                    alt,
                                    extent,
                                    info.align.unwrap_or_default(),
                                    id,
                                );
                                out.push(ast::Block::Image(image));
                            }
                            continue;
                        }
                        for r in &runs {
                            if matches!(&r.leaf, Leaf::Atom(Inline::Image { .. })) {
                                extents.next();
                            }
                        }
                        let id = if first {
                            self.assign_id(&mut bookmarks)
                        } else {
                            None
                        };
                        let piece_kind = if !first && kind.is_list() {
                            TextType::Paragraph
                        } else {
                            kind
                        };
                        let mut runs = runs;
                        if code.is_some() {
                            for r in &mut runs {
                                if !matches!(r.leaf, Leaf::Atom(_)) {
                                    r.marks.push(Mark::Style(TextStyle::Code));
                                }
                            }
                        }
                        let mut para = Paragraph {
                            kind: piece_kind,
                            code: code.clone(),
                            level,
                            indent: if piece_kind.is_list() {
                                0
                            } else {
                                indent_steps(props.indent_left)
                            },
                            align: info.align.unwrap_or_default(),
                            style: style_name.clone(),
                            id,
                            content: from_runs(runs),
                            ..Paragraph::default()
                        };
                        if first {
                            if let Some(l) = &list {
                                apply_list(&mut para, l);
                            }
                        }
                        first = false;
                        match &caption {
                            Some(c) => out.push_caption(ast::Block::Paragraph(para), c.clone()),
                            None => out.push(ast::Block::Paragraph(para)),
                        }
                        if unmapped {
                            self.warn_unmapped(&info);
                        }
                    }
                }
            }
            if !bookmarks.is_empty() {
                // Nothing took an id here (only a directory): the next block gets them.
                self.carry.append(&mut bookmarks);
            }
        }
        for tb in textboxes {
            self.warn(
                WarningKind::Lossy,
                "text box content is placed after the paragraph that anchors it",
                "w:txbxContent",
            );
            let blocks = self.block_list(tb, None);
            out.blocks.extend(blocks);
        }
        for part in diagrams {
            let items = self.src.diagrams.get(&part).cloned().unwrap_or_default();
            self.warn(
                WarningKind::Lossy,
                "a SmartArt diagram is kept as its text, a nested list after the paragraph that anchors it; the drawing itself is not kept",
                "dgm:relIds",
            );
            self.diagram_count += 1;
            let list_id = format!("smartart-{}", self.diagram_count);
            for (depth, text) in items {
                out.push(ast::Block::Paragraph(Paragraph {
                    level: depth.min(ast::MAX_LEVEL),
                    list_id: Some(list_id.clone()),
                    ..Paragraph::new(TextType::ListUl, vec![Inline::text(text)])
                }));
            }
        }
    }

    fn image_block(
        &mut self,
        media: String,
        alt: Option<String>,
        extent: Option<(u64, u64)>,
        align: Align,
        id: Option<String>,
    ) -> ast::Image {
        let width_percent = extent.and_then(|(cx, _)| {
            let pct = cx as f64 / self.text_width.max(1) as f64 * 100.0;
            (pct.is_finite() && pct > 0.0).then(|| (pct.min(100.0) * 100.0).round() as f32 / 100.0)
        });
        if let Some((cx, cy)) = extent.filter(|(cx, _)| *cx > self.text_width) {
            self.wide_images.insert((media.clone(), cx, cy));
        }
        ast::Image {
            media,
            alt,
            width_percent: width_percent.filter(|w| *w > 0.0),
            extent: extent.map(|(width, height)| ast::Extent { width, height }),
            // A picture cannot be justified; Word treats it as left-aligned.
            align: if align == Align::Justify {
                Align::Left
            } else {
                align
            },
            id,
            ..ast::Image::default()
        }
    }

    // ---- inline content ----------------------------------------------------------------

    fn items(&mut self, items: Vec<Item>, info: &ParaInfo<'_>, st: &mut ParaState) {
        for item in items {
            match item {
                Item::Run(run) => self.run(run, info, st),
                Item::LinkStart(h) => st.links.push(h),
                Item::LinkEnd => {
                    st.links.pop();
                }
                Item::Bookmark(name) => {
                    if self.note_depth == 0 && self.visible() {
                        st.bookmarks.push(name);
                    }
                }
                Item::CommentStart(id) => self.comment_anchor(st, Inline::CommentStart { id }),
                Item::CommentEnd(id) => self.comment_anchor(st, Inline::CommentEnd { id }),
                Item::ChangeStart(c) => st.changes.push(c),
                Item::ChangeEnd => {
                    st.changes.pop();
                }
                Item::SimpleFieldStart(instr) => {
                    if !self.fields.disabled {
                        self.field_begin();
                        self.field_instr(&instr);
                        self.field_separate(st);
                    }
                }
                Item::SimpleFieldEnd => {
                    if !self.fields.disabled {
                        self.field_end(st);
                    }
                }
            }
        }
    }

    fn comment_anchor(&mut self, st: &mut ParaState, anchor: Inline) {
        let (Inline::CommentStart { id } | Inline::CommentEnd { id }) = &anchor else {
            return;
        };
        if !self.src.comment_ids.contains(id) {
            let id = id.clone();
            self.warn_once(
                format!("comment:{id}"),
                WarningKind::Dropped,
                format!(
                    "comment anchor for comment {id}, which comments.xml does not hold, dropped"
                ),
                "w:commentRangeStart",
            );
            return;
        }
        self.leaf(st, &[], Leaf::Atom(anchor));
    }

    fn run(&mut self, run: model::Run, info: &ParaInfo<'_>, st: &mut ParaState) {
        let marks = self.run_marks(info.prpr, &run.props);
        for c in run.content {
            match c {
                RunItem::Text(t) => self.leaf(st, &marks, Leaf::Text(t)),
                RunItem::Break(BreakKind::Page) => {
                    if self.visible() && self.note_depth == 0 {
                        st.visible_any = true;
                        st.split(ast::Block::PageBreak);
                    }
                }
                RunItem::Break(_) => self.leaf(st, &marks, Leaf::LineBreak),
                RunItem::FieldBegin => {
                    if !self.fields.disabled {
                        self.field_begin()
                    }
                }
                RunItem::Instr(t) => {
                    if !self.fields.disabled {
                        self.field_instr(&t)
                    }
                }
                RunItem::FieldSeparate => {
                    if !self.fields.disabled {
                        self.field_separate(st)
                    }
                }
                RunItem::FieldEnd => {
                    if !self.fields.disabled {
                        self.field_end(st)
                    }
                }
                RunItem::NoteRef(kind, id) => {
                    if self.visible() {
                        if let Some(content) = self.note(kind, &id) {
                            self.leaf(st, &[], Leaf::Atom(Inline::Note { kind, content }));
                        }
                    }
                }
                RunItem::CommentRef(id) => {
                    // A comment with no range: anchors around nothing at its reference.
                    if !self.src.facts.comment_ranges.contains(&id) && self.note_depth == 0 {
                        self.comment_anchor(st, Inline::CommentStart { id: id.clone() });
                        self.comment_anchor(st, Inline::CommentEnd { id: id.clone() });
                    }
                }
                RunItem::Ruby(base, reading) => {
                    let inline = if self.footer_mode {
                        // Metadata text has no ruby.
                        Leaf::Text(Inline::ruby_text(&base, &reading))
                    } else {
                        Leaf::Atom(Inline::Ruby { base, reading })
                    };
                    self.leaf(st, &marks, inline);
                }
                RunItem::Chart(part) => {
                    if self.footer_mode || !self.visible() {
                        continue;
                    }
                    match self.src.charts.get(&part) {
                        Some(table) => {
                            self.warn(
                                WarningKind::Lossy,
                                "a chart is kept as its data table and kind (title as caption); its styling is not",
                                "c:chart",
                            );
                            st.visible_any = true;
                            st.split(ast::Block::Table(table.clone()));
                        }
                        None => self.warn(
                            WarningKind::Dropped,
                            format!("a chart whose part {part} holds no data is not imported"),
                            "c:chart",
                        ),
                    }
                }
                RunItem::Math { display, math } => {
                    self.leaf(st, &[], Leaf::Atom(Inline::Math { display, math }));
                }
                RunItem::Image(img) => {
                    if self.footer_mode {
                        // The footer is kept as text only.
                        continue;
                    }
                    if self.visible() {
                        if let Some((inline, extent)) = self.image(*img) {
                            st.extents.push(extent);
                            self.leaf(st, &[], Leaf::Atom(inline));
                        }
                    }
                }
            }
        }
    }

    fn current_link(&self, st: &ParaState) -> Option<String> {
        self.fields
            .frames
            .iter()
            .rev()
            .find_map(|f| f.link.clone())
            .or_else(|| st.links.last().cloned())
    }

    fn leaf(&mut self, st: &mut ParaState, marks: &[Mark], leaf: Leaf) {
        if !self.visible() {
            st.suppressed_any = true;
            return;
        }
        st.visible_any = true;
        let mut m = marks.to_vec();
        if let Some(l) = self.current_link(st) {
            m.push(Mark::Link(l));
        }
        for c in &st.changes {
            m.push(Mark::Tracked(ChangeKey::from(c)));
        }
        st.runs.push(IRun { marks: m, leaf });
    }

    fn image(&mut self, img: model::ImageRef) -> Option<(Inline, Option<(u64, u64)>)> {
        let media = match img.target {
            ImageTarget::Part(part) => {
                if !self.src.parts.contains(&part.to_ascii_lowercase()) {
                    self.warn(
                        WarningKind::MissingMedia,
                        format!("picture {part} is missing from the package; dropped"),
                        "a:blip",
                    );
                    return None;
                }
                self.media.name_for(&part)
            }
            ImageTarget::External(url) => {
                self.warn(
                    WarningKind::MissingMedia,
                    format!("linked picture {url} is not embedded in the file; kept as a reference to it"),
                    "a:blip",
                );
                url
            }
        };
        Some((
            Inline::Image {
                media,
                caption: img.title,
                alt: img.alt,
            },
            img.extent,
        ))
    }

    /// The formatting marks of a run (ECMA-376 §17.7.2 hierarchy; toggles per §17.7.3).
    fn run_marks(&self, p: Option<&RunProps>, rp: &RunProps) -> Vec<Mark> {
        let styles = self.src.styles;
        let d = &styles.doc_rpr;
        let char_style = rp.style.as_deref().and_then(|s| styles.get(s));
        let c = char_style
            .and_then(|s| styles.resolved(&s.id))
            .map(|r| &r.rpr);
        let toggle = |f: fn(&RunProps) -> Option<bool>| -> bool {
            if let Some(v) = f(rp) {
                return v;
            }
            let pv = p.and_then(f);
            let cv = c.and_then(f);
            if pv.is_some() || cv.is_some() {
                pv.unwrap_or(false) ^ cv.unwrap_or(false)
            } else {
                f(d).unwrap_or(false)
            }
        };
        let mut marks = Vec::new();
        if toggle(|r| r.bold) {
            marks.push(Mark::Style(TextStyle::Bold));
        }
        if toggle(|r| r.italic) {
            marks.push(Mark::Style(TextStyle::Italic));
        }
        // The `Hyperlink` character style's underline is how Word shows a link, not an
        // underline of the text (our writer styles every link run so).
        let hyperlink_style = char_style.is_some_and(|s| {
            s.id.eq_ignore_ascii_case("Hyperlink")
                || s.name
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case("Hyperlink"))
        });
        let underline = rp
            .underline
            .or_else(|| c.filter(|_| !hyperlink_style).and_then(|r| r.underline))
            .or_else(|| p.and_then(|r| r.underline))
            .or(d.underline)
            .unwrap_or(false);
        if underline {
            marks.push(Mark::Style(TextStyle::Underline));
        }
        if toggle(|r| r.strike) || toggle(|r| r.dstrike) {
            marks.push(Mark::Style(TextStyle::Strike));
        }
        if toggle(|r| r.small_caps) {
            marks.push(Mark::Style(TextStyle::SmallCaps));
        }
        let va = rp
            .vert_align
            .or_else(|| c.and_then(|r| r.vert_align))
            .or_else(|| p.and_then(|r| r.vert_align))
            .or(d.vert_align);
        match va {
            Some(crate::import::docx::parse::props::VertAlign::Super) => marks.push(Mark::Style(TextStyle::Superscript)),
            Some(crate::import::docx::parse::props::VertAlign::Sub) => marks.push(Mark::Style(TextStyle::Subscript)),
            _ => {}
        }
        let font = rp
            .font
            .as_deref()
            .or_else(|| c.and_then(|r| r.font.as_deref()))
            .or_else(|| p.and_then(|r| r.font.as_deref()))
            .or(d.font.as_deref());
        let code_style = char_style.is_some_and(|s| styles.is_code(&s.id));
        if code_style || font.is_some_and(is_monospace) {
            marks.push(Mark::Style(TextStyle::Code));
        }
        if let Some(s) = char_style {
            let name = s.name.as_deref().unwrap_or(&s.id);
            if s.custom && !s.linked && !code_style {
                marks.push(Mark::Span(name.to_string()));
            }
        }
        marks
    }

    // ---- fields ------------------------------------------------------------------------

    fn visible(&self) -> bool {
        self.fields.frames.iter().all(|f| f.result && !f.drop)
    }

    fn field_begin(&mut self) {
        if self.fields.frames.len() >= MAX_FIELD_DEPTH || self.fields.overflow > 0 {
            self.fields.overflow += 1;
        } else {
            self.fields.frames.push(Frame::default());
        }
    }

    fn field_instr(&mut self, text: &str) {
        if self.fields.overflow > 0 {
            return;
        }
        if let Some(f) = self.fields.frames.last_mut() {
            if !f.result {
                f.instr.push_str(text);
            }
        }
    }

    fn field_separate(&mut self, st: &mut ParaState) {
        if self.fields.overflow > 0 {
            return;
        }
        let Some(mut f) = self.fields.frames.pop() else {
            return;
        };
        if f.result {
            self.fields.frames.push(f);
            return;
        }
        let kind = fields::parse(&f.instr);
        let (drop, link) = self.field_effect(kind, st, true);
        f.result = true;
        f.drop = drop;
        f.link = link;
        self.fields.frames.push(f);
    }

    fn field_end(&mut self, st: &mut ParaState) {
        if self.fields.overflow > 0 {
            self.fields.overflow -= 1;
            return;
        }
        let Some(f) = self.fields.frames.pop() else {
            return;
        };
        if f.drop {
            // The marker closing a replaced result belongs to it: a paragraph holding only this
            // marker goes with the result.
            st.suppressed_any = true;
        }
        if !f.result {
            let kind = fields::parse(&f.instr);
            self.field_effect(kind, st, false);
        }
    }

    /// Applies a field whose code is complete (the frame itself is off the stack, so
    /// `visible()` says whether the field's surroundings show). Returns whether the result is
    /// dropped and the link its result carries.
    fn field_effect(
        &mut self,
        kind: FieldKind,
        st: &mut ParaState,
        has_result: bool,
    ) -> (bool, Option<String>) {
        match kind {
            FieldKind::Hyperlink(href) => (false, has_result.then_some(href)),
            FieldKind::Ref {
                target,
                number,
                text,
            } => {
                if self.src.facts.bookmarks.contains(&target) {
                    // A plain REF shows what its bookmark holds: a caption's label and number
                    // is the target's number, not its text.
                    let (number, text) =
                        if text && !number && self.src.facts.number_bookmarks.contains(&target) {
                            (true, false)
                        } else {
                            (number, text)
                        };
                    self.leaf(
                        st,
                        &[],
                        Leaf::Atom(Inline::CrossRef {
                            target,
                            number,
                            text,
                        }),
                    );
                    (true, None)
                } else if !self.visible() {
                    (false, None)
                } else {
                    self.warn_once(
                        format!("ref:{target}"),
                        WarningKind::Repaired,
                        format!("a cross-reference to bookmark {target:?}, which the document does not have, is kept as its displayed text"),
                        "w:instrText",
                    );
                    (false, None)
                }
            }
            FieldKind::Seq(label) => {
                if self.visible() {
                    st.seq = Some(SeqMark {
                        label,
                        segment: st.segments.len(),
                        run: st.runs.len(),
                    });
                }
                (true, None)
            }
            FieldKind::Toc(kind) => {
                if self.visible() && self.note_depth == 0 {
                    st.visible_any = true;
                    st.split(ast::Block::Directory { kind });
                }
                (true, None)
            }
            FieldKind::Page => (self.footer_mode, None),
            FieldKind::Other => (false, None),
        }
    }

    // ---- notes and comments ------------------------------------------------------------

    fn note(&mut self, kind: NoteKind, id: &str) -> Option<Vec<Inline>> {
        if self.note_depth > 0 {
            self.warn(
                WarningKind::Dropped,
                "a note reference inside a note or comment is dropped",
                "w:footnoteReference",
            );
            return None;
        }
        let map = match kind {
            NoteKind::Endnote => self.src.endnotes,
            _ => self.src.footnotes,
        };
        let Some(blocks) = map.get(id) else {
            let what = if kind == NoteKind::Endnote {
                "endnote"
            } else {
                "footnote"
            };
            self.warn(
                WarningKind::MissingMedia,
                format!("{what} {id} is referenced but not in the notes part; dropped"),
                "w:footnoteReference",
            );
            return None;
        };
        // A note may be referenced twice; each reference converts its own copy.
        let blocks = blocks.clone();
        Some(self.inline_of_blocks(blocks, true))
    }

    /// Converts note or comment blocks to inline content: paragraphs joined by line breaks,
    /// tables flattened (with a warning).
    fn inline_of_blocks(&mut self, blocks: Vec<model::Block>, note: bool) -> Vec<Inline> {
        let saved_fields = std::mem::replace(&mut self.fields, FieldState::for_blocks(&blocks));
        let saved_carry = std::mem::take(&mut self.carry);
        self.note_depth += 1;
        let mut runs = Vec::new();
        let mut first = true;
        self.flatten_blocks(blocks, &mut runs, &mut first);
        self.note_depth -= 1;
        self.fields = saved_fields;
        self.carry = saved_carry;
        trim_runs(&mut runs, note);
        from_runs(runs)
    }

    fn flatten_blocks(
        &mut self,
        blocks: Vec<model::Block>,
        runs: &mut Vec<IRun>,
        first: &mut bool,
    ) {
        for b in blocks {
            match b {
                model::Block::Para(p) => {
                    let info = self.para_info(&p.props);
                    let mut st = ParaState::default();
                    self.items(p.items, &info, &mut st);
                    st.finish();
                    if !st.suppressed_any || st.visible_any {
                        if !*first {
                            runs.push(IRun {
                                marks: Vec::new(),
                                leaf: Leaf::LineBreak,
                            });
                        }
                        *first = false;
                        for seg in st.segments {
                            if let Segment::Inline(r) = seg {
                                runs.extend(r);
                            }
                        }
                    }
                    for tb in p.textboxes {
                        self.flatten_blocks(tb, runs, first);
                    }
                }
                model::Block::Table(t) => {
                    self.warn_once(
                        "note-table".into(),
                        WarningKind::Lossy,
                        "a table inside a note or comment is flattened to its text",
                        "w:tbl",
                    );
                    for row in t.rows {
                        for cell in row.cells {
                            self.flatten_blocks(cell.blocks, runs, first);
                        }
                    }
                }
                model::Block::Loose(_) => {}
            }
        }
    }
}

impl FieldState {
    /// A fresh state; complex fields are switched off when the markers in `blocks` do not
    /// balance.
    fn for_blocks(blocks: &[model::Block]) -> Self {
        let mut depth: i64 = 0;
        let mut ok = true;
        balance(blocks, &mut depth, &mut ok);
        FieldState {
            disabled: !ok || depth != 0,
            ..FieldState::default()
        }
    }
}

fn balance(blocks: &[model::Block], depth: &mut i64, ok: &mut bool) {
    for b in blocks {
        match b {
            model::Block::Para(p) => {
                for item in &p.items {
                    if let Item::Run(r) = item {
                        for c in &r.content {
                            match c {
                                RunItem::FieldBegin => *depth += 1,
                                RunItem::FieldEnd => {
                                    *depth -= 1;
                                    if *depth < 0 {
                                        *ok = false;
                                        *depth = 0;
                                    }
                                }
                                _ => {}
                            }
                        }
                    }
                }
            }
            model::Block::Table(t) => {
                for row in &t.rows {
                    for cell in &row.cells {
                        balance(&cell.blocks, depth, ok);
                    }
                }
            }
            model::Block::Loose(_) => {}
        }
    }
}

/// The text width of each top-level block's section: a section ends at a paragraph whose
/// `w:pPr` holds a `w:sectPr`; the body's own `w:sectPr` is the last section.
fn section_widths(body: &model::Body) -> Vec<u64> {
    let last = body
        .final_section
        .as_ref()
        .and_then(|s| s.text_width)
        .unwrap_or(DEFAULT_TEXT_WIDTH);
    let mut out = vec![last; body.blocks.len()];
    let mut current = last;
    for (i, b) in body.blocks.iter().enumerate().rev() {
        if let model::Block::Para(p) = b {
            if let Some(s) = &p.props.section {
                current = s.text_width.unwrap_or(DEFAULT_TEXT_WIDTH);
            }
        }
        if let Some(slot) = out.get_mut(i) {
            *slot = current;
        }
    }
    out
}

fn apply_list(para: &mut Paragraph, l: &ListNumber) {
    para.list_id = Some(l.list_id.clone());
    para.number_format = Some(l.format);
    para.start = l.start;
    para.restart = l.restart;
}

/// If `runs` hold only pictures (plus whitespace), their media and alt.
fn image_only(runs: &[IRun]) -> Option<Vec<(String, Option<String>)>> {
    let mut images = Vec::new();
    for r in runs {
        match &r.leaf {
            // A picture on its own line takes its caption from a caption paragraph; its
            // alt-text title stands in for a missing description.
            Leaf::Atom(Inline::Image {
                media,
                alt,
                caption,
                ..
            }) => images.push((media.clone(), alt.clone().or_else(|| caption.clone()))),
            // A comment anchored here (a reviewer's note on the picture) stays anchored: the
            // picture stays in its paragraph, since an image block has no place for anchors.
            Leaf::Text(t) if t.trim().is_empty() => {}
            _ => return None,
        }
    }
    (!images.is_empty()).then_some(images)
}

/// Drops a caption's label (the text before its `SEQ` field: `Figure `) and the separator after
/// the dropped number (`: `).
fn strip_caption_label(st: &mut ParaState) {
    let Some(seq) = &st.seq else {
        return;
    };
    let Some(Segment::Inline(runs)) = st.segments.get_mut(seq.segment) else {
        return;
    };
    let cut = seq.run.min(runs.len());
    let mut kept: Vec<IRun> = runs
        .drain(..cut)
        .filter(|r| matches!(r.leaf, Leaf::Atom(_)))
        .collect();
    let mut rest = std::mem::take(runs);
    // One separator, with white space around it: a caption's own text may start with such a
    // character too ("Table 1: – to be done").
    let mut separator = false;
    for r in rest.iter_mut() {
        match &mut r.leaf {
            Leaf::Text(t) => {
                let start = t.char_indices().find_map(|(i, c)| {
                    if c.is_whitespace() {
                        None
                    } else if !separator && matches!(c, ':' | '.' | '-' | '–' | '—' | '|') {
                        separator = true;
                        None
                    } else {
                        Some(i)
                    }
                });
                match start {
                    Some(i) => {
                        *t = t.split_off(i);
                        break;
                    }
                    None => {
                        t.clear();
                        continue;
                    }
                }
            }
            Leaf::LineBreak => continue,
            Leaf::Atom(_) => break,
        }
    }
    kept.append(&mut rest);
    *runs = kept;
}

/// Trims note and comment content: empty lines at the start and end, and the one space Word
/// puts between the note number and the text. Other whitespace is the author's text.
fn trim_runs(runs: &mut Vec<IRun>, note: bool) {
    let empty = |r: &IRun| match &r.leaf {
        Leaf::Text(t) => t.is_empty(),
        Leaf::LineBreak => true,
        Leaf::Atom(_) => false,
    };
    let lead = runs.iter().take_while(|r| empty(r)).count();
    runs.drain(..lead);
    // The space Word (and our writer) puts after a note's number is not the note's text; a
    // comment has no such space, so its text keeps its own.
    if let (
        true,
        Some(IRun {
            leaf: Leaf::Text(t),
            ..
        }),
    ) = (note, runs.first_mut())
    {
        if t.starts_with(' ') {
            t.remove(0);
        }
    }
    let keep = runs.len() - runs.iter().rev().take_while(|r| empty(r)).count();
    runs.truncate(keep);
}

/// A paragraph's own left indentation in the tree's steps (the writer's contract:
/// `w:ind/@w:left` ÷ `INDENT_STEP_TWIPS`, 0..=15).
fn indent_steps(left: Option<i64>) -> u8 {
    let step = i64::from(crate::ooxml::INDENT_STEP_TWIPS);
    let steps = (left.unwrap_or(0).max(0) + step / 2) / step;
    steps.min(i64::from(ast::MAX_INDENT)) as u8
}

/// Whether a font is monospaced (by family name).
fn is_monospace(font: &str) -> bool {
    let f = font.to_lowercase();
    [
        "courier",
        "consolas",
        "mono",
        "menlo",
        "monaco",
        "lucida console",
        "source code",
        "fira code",
        "inconsolata",
        "andale",
        "fixedsys",
        "ocr a",
    ]
    .iter()
    .any(|k| f.contains(k))
}

/// What about a paragraph style suggests structure the mapping did not give it.
fn structural_cue(name: &str, info: &ParaInfo<'_>) -> Option<String> {
    if let Some((num_id, _)) = &info.num {
        return Some(format!(
            "it has numbering (numId {num_id}) without a number"
        ));
    }
    if let Some(level) = info.outline {
        return Some(format!("it has outline level {}", u32::from(level) + 1));
    }
    let lower = name.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if has(&[
        "heading",
        "title",
        "chapter",
        "section",
        "überschrift",
        "titel",
        "kapitel",
        "titre",
        "título",
        "titolo",
        "заголовок",
    ]) {
        return Some("its name looks like a heading".into());
    }
    if has(&["list", "bullet", "liste", "aufzählung", "список"]) {
        return Some("its name looks like a list".into());
    }
    None
}
