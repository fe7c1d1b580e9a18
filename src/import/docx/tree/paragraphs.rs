//! Stage two for one Word paragraph: its resolved properties ([`ParaInfo`]: style chain,
//! numbering, outline level), its items walked into runs ([`super::inlines`]), its text type
//! decided through [`super::mapping`], then its blocks emitted: a page break inside a paragraph
//! splits it, a TOC field becomes a directory block, a paragraph holding only pictures becomes
//! image blocks, text boxes and SmartArt follow their anchoring paragraph.

use std::rc::Rc;
use std::sync::Arc;

use compact_str::CompactString;

use super::converter::{CaptionInfo, Converter, Out};
use super::copies::Copied;
use super::looks::NumberLook;
use super::mapping::{self, Basis, NumberingFacts, ParagraphFacts, StyleInfo};
use super::numbering::{Count, ListNumber};
use crate::ast::inline::{ChangeKey, Leaf, Mark, Run as IRun, from_runs};
use crate::ast::{self, Align, Inline, NumberFormat, Paragraph, TextStyle, TextType};
use crate::import::docx::parse::model::{self, Item};
use crate::import::docx::parse::numbering::ResolvedLevel;
use crate::import::docx::parse::props::{NumPr, ParaProps, RunProps};
use crate::import::docx::parse::styles::Styles;
use crate::report::WarningKind;

pub(super) enum Segment {
    Inline(Vec<IRun>),
    /// Boxed: a block is ten times a run list's size, and most segments are runs.
    Block(Box<ast::Block>),
}

pub(super) struct SeqMark {
    pub(super) label: String,
    pub(super) segment: usize,
    pub(super) run: usize,
}

#[derive(Default)]
pub(super) struct ParaState {
    /// The runs and blocks in order; most paragraphs are one run list, held inline.
    pub(super) segments: smallvec::SmallVec<[Segment; 1]>,
    pub(super) runs: Vec<IRun>,
    /// The hyperlinks open, innermost last: their targets, which every run inside shares
    /// (`None`: a link past the budget of link copies, whose text is kept without it).
    pub(super) links: Vec<Option<Arc<str>>>,
    /// The tracked changes open, innermost last, as the marks every run inside shares.
    pub(super) changes: Vec<ChangeKey>,
    pub(super) bookmarks: Vec<String>,
    pub(super) seq: Option<SeqMark>,
    pub(super) extents: Vec<Option<(u64, u64)>>,
    pub(super) visible_any: bool,
    pub(super) suppressed_any: bool,
}

impl ParaState {
    pub(super) fn split(&mut self, block: ast::Block) {
        let runs = std::mem::take(&mut self.runs);
        self.segments.push(Segment::Inline(runs));
        self.segments.push(Segment::Block(Box::new(block)));
    }

    pub(super) fn finish(&mut self) {
        let runs = std::mem::take(&mut self.runs);
        self.segments.push(Segment::Inline(runs));
    }

    /// Appends the paragraph's plain text (line breaks as `\n`) to `s`.
    pub(super) fn plain_text_into(&self, s: &mut String) {
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
    }
}

/// What a paragraph is, decided once its runs are known ([`Converter::decide`]); borrows
/// the style name from the style table or the paragraph's [`ParaInfo`].
struct Decided<'s> {
    /// Its text type.
    kind: TextType,
    /// Its level.
    level: u8,
    /// Its list number, for a numbered or bulleted kind.
    list: Option<ListNumber>,
    /// What its numbering said, for a caption.
    caption: Option<CaptionInfo>,
    /// The code language of a code block (empty when unknown).
    code: Option<String>,
    /// The style name the tree keeps (not one the text type already says).
    style_name: Option<&'s str>,
    /// Nothing but the default mapping spoke for it: a style with a structural cue is warned
    /// about.
    unmapped: bool,
    /// Entirely inside a replaced field result: no blocks come of it.
    dropped: bool,
}

/// A paragraph's resolved properties.
pub(super) struct ParaInfo<'s> {
    /// The paragraph style's run properties (chain merged).
    pub(super) prpr: Option<&'s RunProps>,
    /// The explicit `w:pStyle`.
    pub(super) explicit: Option<CompactString>,
    pub(super) chain: Rc<[StyleInfo<'s>]>,
    pub(super) num: Option<(String, ResolvedLevel)>,
    pub(super) outline: Option<u8>,
    pub(super) align: Option<Align>,
    pub(super) page_break_before: bool,
    /// `w:keepNext`, direct or from the style.
    pub(super) keep_next: bool,
    /// The paragraph style's run properties whatever the style (languages and `w:rtl` are no
    /// look of a heading: they apply to every paragraph).
    pub(super) lang_rpr: Option<&'s RunProps>,
    /// `w:bidi`, direct, from the style or the document defaults.
    pub(super) bidi: bool,
    /// The paragraph mark's language, for a paragraph without text.
    pub(super) mark_lang: Option<String>,
}

impl<'a> Converter<'a> {
    /// "Unrecognised paragraph style", once per style, and only for a style with a structural
    /// cue the mapping did not act on (numbering, an outline level, a heading- or list-like
    /// name), naming the cue. Body-text styles of every writer ("Body Text", "First
    /// Paragraph", "Compact", "Text Body", "Standard", "Normal (Web)", a quote…) are what a
    /// plain paragraph is: warning about each of them only hid the warnings that matter.
    pub(super) fn warn_unmapped(&mut self, info: &ParaInfo<'_>) {
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
        // Leading Title and Subtitle paragraphs become the document's title and subtitle
        // (`meta::take_title_blocks`); one left elsewhere is warned about once the tree is
        // settled, when it is known not to be the title.
        if matches!(name.as_str(), "Title" | "Subtitle")
            && info.num.is_none()
            && info.outline.is_none()
        {
            return;
        }
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

    /// Takes the style id out of `props` (the only place it is read from after this), so that
    /// every paragraph's id is not copied.
    pub(super) fn para_info(&mut self, props: &mut ParaProps) -> ParaInfo<'a> {
        let styles: &'a Styles = self.src.styles;
        let explicit = props.style.take();
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
            lang_rpr: resolved.map(|r| &r.rpr),
            bidi: props
                .bidi
                .or_else(|| resolved.and_then(|r| r.ppr.bidi))
                .or(styles.doc_ppr.bidi)
                .unwrap_or(false),
            mark_lang: props.mark_lang.any().map(str::to_string),
        }
    }

    /// Converts one Word paragraph into `out`, in named steps: its items into runs
    /// ([`Converter::walk`]), what it is ([`Converter::decide`]), its blocks
    /// ([`Converter::emit`]), then what it anchors ([`Converter::anchored`]).
    pub(super) fn paragraph(&mut self, mut p: model::Para, pending: Vec<Item>, out: &mut Out) {
        let mark = p.props.mark_change.take();
        let before = out.blocks.len();
        self.paragraph_blocks(p, pending, out);
        let Some(mark) = mark else { return };
        // The mark ends the last paragraph the Word paragraph gave.
        let from = before.min(out.blocks.len());
        let last = out.blocks[from..].iter_mut().rev().find_map(|b| match b {
            ast::Block::Paragraph(p) => Some(p),
            _ => None,
        });
        match last {
            Some(p) => p.mark = Some(*mark),
            None => self.warn(
                WarningKind::Lossy,
                "a tracked paragraph mark on a paragraph that became a picture or a table is not kept",
                "w:pPr/w:rPr",
            ),
        }
    }

    fn paragraph_blocks(&mut self, p: model::Para, pending: Vec<Item>, out: &mut Out) {
        let model::Para {
            mut props,
            items,
            textboxes,
            code_language,
            diagrams,
            chunks,
        } = p;
        if !chunks.is_empty() {
            // Block lists put chunks in place; here (a note, a header) there is no place.
            self.warn(
                WarningKind::Dropped,
                "an embedded chunk (w:altChunk) inside a note, comment or header is not imported",
                "w:altChunk",
            );
        }
        let info = self.para_info(&mut props);
        let mut st = self.walk(&info, pending, items);
        let decided = self.decide(&info, &st, code_language);
        if decided.kind == TextType::Caption {
            strip_caption_label(&mut st);
        }
        if info.page_break_before {
            out.push(ast::Block::PageBreak);
        }
        if decided.dropped {
            // Entirely inside a replaced field result (a TOC's cached entries).
            self.carry.append(&mut st.bookmarks);
        } else {
            self.emit(&info, props.indent_left, &decided, st, out);
        }
        self.anchored(textboxes, diagrams, out);
    }

    /// The paragraph's items (the anchors waiting before it first) as runs and segments, with the
    /// bookmarks carried to it.
    fn walk(&mut self, info: &ParaInfo<'_>, pending: Vec<Item>, items: Vec<Item>) -> ParaState {
        // About one run an item: sized once instead of grown by doubling.
        let mut st = ParaState {
            runs: Vec::with_capacity(pending.len() + items.len()),
            ..ParaState::default()
        };
        st.bookmarks.append(&mut self.carry);
        self.items(pending, info, &mut st);
        self.items(items, info, &mut st);
        st.finish();
        st
    }

    /// What the paragraph is: its text type and level through the mapping (a `SEQ` field makes
    /// a caption), its list number (counted here, its look recorded), and whether it is code or
    /// keeps its style name.
    fn decide<'i>(
        &mut self,
        info: &'i ParaInfo<'_>,
        st: &ParaState,
        code_language: Option<String>,
    ) -> Decided<'i>
    where
        'a: 'i,
    {
        // Every paragraph's text is read for the mapping: built in room kept from the last one.
        let mut text = self.para_text.take();
        st.plain_text_into(&mut text);
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
        // Warned in `emit`, once a paragraph (not just pictures) came of it.
        let unmapped = mapped.basis == Basis::Default && kind != TextType::Caption && !dropped;
        let list = self.list_number(info, kind, level);
        let caption = (kind == TextType::Caption).then(|| CaptionInfo {
            label: st.seq.as_ref().map(|s| s.label.clone()),
            numbered: st.seq.is_some(),
            keep_next: info.keep_next,
        });
        // A paragraph in a code style ("Source Code", "HTML Preformatted", "Plain Text") or
        // tagged with a code language is a code block: wholly code, whitespace kept.
        let code = (kind == TextType::Paragraph)
            .then(|| {
                let styled = info
                    .explicit
                    .as_deref()
                    .is_some_and(|id| self.src.styles.is_code(id));
                code_language.or_else(|| styled.then(String::new))
            })
            .flatten();
        // Read as mammoth reads, every paragraph keeps its style: a style map matches it.
        let keep_style =
            self.src.word_refs || (!mapping::style_is_implied(&facts, &mapped) && code.is_none());
        let styles: &'a Styles = self.src.styles;
        let style_name = info
            .explicit
            .as_deref()
            .filter(|_| keep_style)
            .map(|id| styles.name_of(id));
        self.para_text.give_back(text);
        Decided {
            kind,
            level,
            list,
            caption,
            code,
            style_name,
            unmapped,
            dropped,
        }
    }

    /// The list number of a paragraph mapped to a numbered or bulleted kind, counted by Word's
    /// rules, with how Word draws it recorded in the looks.
    fn list_number(
        &mut self,
        info: &ParaInfo<'_>,
        kind: TextType,
        level: u8,
    ) -> Option<ListNumber> {
        let kept = matches!(
            kind,
            TextType::ListOl | TextType::ListUl | TextType::HeadingOl | TextType::ParagraphOl
        );
        let list = match &info.num {
            // A level without numbers counts only for the list items mapping made of it.
            Some((id, lvl))
                if lvl.level.number_format() != NumberFormat::None || kind.is_list() =>
            {
                self.count_list(Count::of(id, lvl), kept)
            }
            _ => None,
        };
        if let (Some(l), Some((_, lvl))) = (&list, &info.num) {
            self.looks.record(&l.list_id, level, || NumberLook {
                format: l.format,
                text: lvl.level.text.clone(),
            });
        }
        list
    }

    /// The paragraph's blocks: one paragraph per stretch of runs between blocks its content
    /// holds (page breaks, directories, charts), image blocks for a stretch of nothing but
    /// pictures. The first block takes the paragraph's bookmarks as its id and its list number.
    fn emit(
        &mut self,
        info: &ParaInfo<'_>,
        indent_left: Option<i64>,
        d: &Decided<'_>,
        mut st: ParaState,
        out: &mut Out,
    ) {
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
        // Whether a paragraph or picture came of it (else only breaks and directories).
        let mut text = false;
        let mut extents = st.extents.clone().into_iter();
        for seg in std::mem::take(&mut st.segments) {
            match seg {
                Segment::Block(b) => match *b {
                    ast::Block::Table(mut t) if only_block && t.id.is_none() => {
                        t.id = self.assign_id(&mut bookmarks);
                        first = false;
                        out.push(ast::Block::Table(t));
                    }
                    b => out.push(b),
                },
                Segment::Inline(runs) => {
                    if runs.is_empty() && several {
                        continue;
                    }
                    text = true;
                    // A numbered paragraph holding a picture keeps its number: it stays
                    // a paragraph with the picture inline.
                    let numbered = d.kind.is_list()
                        || matches!(d.kind, TextType::HeadingOl | TextType::ParagraphOl);
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
                    if first && d.list.is_some() {
                        // The number counted last (in `decide`) is this paragraph's.
                        if let Some(log) = &mut self.log {
                            log.numbered.push(log.lists.len().saturating_sub(1));
                        }
                    }
                    let para = text_paragraph(info, indent_left, d, runs, id, first);
                    first = false;
                    match &d.caption {
                        // Read as mammoth reads, a caption is the paragraph it is, typed
                        // number and all, not part of its picture or table.
                        Some(c) if !self.src.word_refs => {
                            out.push_caption(ast::Block::Paragraph(para), c.clone())
                        }
                        _ => out.push(ast::Block::Paragraph(para)),
                    }
                    // Read as mammoth reads, its style map decides and warns, not ours.
                    if d.unmapped && !self.src.word_refs {
                        self.warn_unmapped(info);
                    }
                }
            }
        }
        if self.src.word_refs && !text {
            // Read as mammoth reads, a paragraph holding only a page break is still a
            // paragraph (an empty one): its raw text counts it.
            out.push(ast::Block::Paragraph(text_paragraph(
                info,
                indent_left,
                d,
                Vec::new(),
                None,
                false,
            )));
        }
        if !bookmarks.is_empty() {
            // Nothing took an id here (only a directory): the next block gets them.
            self.carry.append(&mut bookmarks);
        }
    }

    /// What a paragraph anchors, after it: its text boxes' blocks and its SmartArt diagrams'
    /// text as nested lists.
    fn anchored(
        &mut self,
        textboxes: Vec<Vec<model::Block>>,
        diagrams: Vec<Arc<str>>,
        out: &mut Out,
    ) {
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
            if !self.copy_fits(Copied::Diagram, &part, "dgm:relIds") {
                continue;
            }
            let items = self.src.diagrams.get(&*part).cloned().unwrap_or_default();
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

    pub(super) fn image_block(
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
}

fn apply_list(para: &mut Paragraph, l: &ListNumber) {
    para.list_id = Some(l.list_id.clone());
    para.number_format = Some(l.format);
    para.start = l.start;
    para.restart = l.restart;
}

/// One stretch of a paragraph's runs as a tree paragraph. Only the first stretch of a list
/// item is the item and takes its number; later stretches are plain paragraphs after it.
fn text_paragraph(
    info: &ParaInfo<'_>,
    indent_left: Option<i64>,
    d: &Decided<'_>,
    mut runs: Vec<IRun>,
    id: Option<String>,
    first: bool,
) -> Paragraph {
    let kind = if !first && d.kind.is_list() {
        TextType::Paragraph
    } else {
        d.kind
    };
    if d.code.is_some() {
        for r in &mut runs {
            if !matches!(r.leaf, Leaf::Atom(_)) {
                r.marks.push(Mark::Style(TextStyle::Code));
            }
        }
    }
    let mut para = Paragraph {
        kind,
        code: d.code.clone(),
        level: d.level,
        indent: if kind.is_list() {
            0
        } else {
            indent_steps(indent_left)
        },
        align: info.align.unwrap_or_default(),
        style: d.style_name.map(str::to_string),
        id,
        content: from_runs(runs),
        // Provisional until the whole body is known (`super::language::settle`).
        dir: info.bidi.then_some(ast::Direction::Rtl),
        lang: info.mark_lang.clone(),
        ..Paragraph::default()
    };
    if first {
        if let Some(l) = &d.list {
            apply_list(&mut para, l);
        }
    }
    para
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

/// A paragraph's own left indentation in the tree's steps (the writer's contract:
/// `w:ind/@w:left` ÷ `INDENT_STEP_TWIPS`, 0..=15).
fn indent_steps(left: Option<i64>) -> u8 {
    let step = i64::from(crate::ooxml::INDENT_STEP_TWIPS);
    let steps = (left.unwrap_or(0).max(0) + step / 2) / step;
    steps.min(i64::from(ast::MAX_INDENT)) as u8
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
