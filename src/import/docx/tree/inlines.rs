//! Stage two inside a paragraph: runs with their resolved formatting (ECMA-376 §17.7.2),
//! hyperlinks, tracked changes, notes, comment anchors, charts, formulas and pictures, as the
//! tree's inline runs; note and comment bodies flattened to inline content.

use std::sync::Arc;

use super::converter::{Converter, FieldState};
use super::copies::Copied;
use super::paragraphs::{ParaInfo, ParaState, Segment};
use crate::ast::inline::{ChangeKey, Leaf, Mark, Run as IRun, from_runs};
use crate::ast::{self, Inline, NoteKind, TextStyle};
use crate::import::docx::parse::model::{self, BreakKind, ImageTarget, Item, LinkTarget, RunItem};
use crate::import::docx::parse::props::{RunProps, VertAlign};
use crate::report::WarningKind;

impl<'a> Converter<'a> {
    pub(super) fn items(&mut self, items: Vec<Item>, info: &ParaInfo<'_>, st: &mut ParaState) {
        for item in items {
            match item {
                Item::Run(run) => self.run(run, info, st),
                Item::LinkStart(target) => {
                    let href = self.link_href(target);
                    st.links.push(href);
                }
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
                Item::ChangeStart(c) => st.changes.push(ChangeKey::from(&c)),
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

    pub(super) fn comment_anchor(&mut self, st: &mut ParaState, anchor: Inline) {
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
        self.leaf(st, Vec::new(), Leaf::Atom(anchor));
    }

    pub(super) fn run(&mut self, run: model::Run, info: &ParaInfo<'_>, st: &mut ParaState) {
        let mut marks = self.run_marks(info.prpr, &run.props);
        if let Some(lang) = self.run_lang(info, &run.props, &run.content) {
            marks.push(lang);
        }
        // Most runs hold one text: the last item takes the marks, the ones before a copy.
        let last = run.content.len().saturating_sub(1);
        for (i, c) in run.content.into_iter().enumerate() {
            let marks_for = |marks: &mut Vec<Mark>| {
                if i == last {
                    std::mem::take(marks)
                } else {
                    marks.clone()
                }
            };
            match c {
                RunItem::Text(t) => self.leaf(st, marks_for(&mut marks), Leaf::Text(t)),
                RunItem::Break(BreakKind::Page) => {
                    if self.visible() && self.note_depth == 0 {
                        st.visible_any = true;
                        st.split(ast::Block::PageBreak);
                    }
                }
                RunItem::Break(_) => self.leaf(st, marks_for(&mut marks), Leaf::LineBreak),
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
                            self.leaf(st, Vec::new(), Leaf::Atom(Inline::Note { kind, content }));
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
                    self.leaf(st, marks_for(&mut marks), inline);
                }
                RunItem::Chart(part) => {
                    if self.footer_mode || !self.visible() {
                        continue;
                    }
                    match self.src.charts.get(&*part) {
                        Some(_) if !self.copy_fits(Copied::Chart, &part, "c:chart") => {}
                        Some(table) => {
                            self.warn(
                                WarningKind::Lossy,
                                "a chart is kept as its data table and kind (title as caption); its styling is not",
                                "c:chart",
                            );
                            st.visible_any = true;
                            st.split(ast::Block::Table(table.clone()));
                        }
                        // Once per part: a message per reference would copy its name each time.
                        None => self.warn_once(
                            format!("chart-data:{part}"),
                            WarningKind::Dropped,
                            format!("a chart whose part {part} holds no data is not imported (wherever it is named)"),
                            "c:chart",
                        ),
                    }
                }
                RunItem::Math { display, math } => {
                    self.leaf(st, Vec::new(), Leaf::Atom(Inline::Math { display, math }));
                }
                RunItem::Image(img) => {
                    if self.footer_mode {
                        // The footer is kept as text only.
                        continue;
                    }
                    if self.visible() {
                        if let Some((inline, extent)) = self.image(*img) {
                            st.extents.push(extent);
                            self.leaf(st, Vec::new(), Leaf::Atom(inline));
                        }
                    }
                }
            }
        }
    }

    pub(super) fn current_link(&self, st: &ParaState) -> Option<Arc<str>> {
        self.fields
            .frames
            .iter()
            .rev()
            .find_map(|f| f.link.clone())
            .or_else(|| st.links.last().cloned().flatten())
    }

    /// A `w:hyperlink`'s href: its relationship's target, shared, or `#` and its anchor, or the
    /// two joined, which copies the target and so counts against the budget of link copies.
    fn link_href(&mut self, link: LinkTarget) -> Option<Arc<str>> {
        match link {
            LinkTarget {
                target: Some(target),
                anchor: None,
            } => Some(target),
            LinkTarget {
                target: None,
                anchor: Some(anchor),
            } => Some(format!("#{anchor}").into()),
            LinkTarget {
                target: Some(target),
                anchor: Some(anchor),
            } => self
                .link_fits(target.len(), "w:hyperlink")
                .then(|| format!("{target}#{anchor}").into()),
            LinkTarget {
                target: None,
                anchor: None,
            } => None,
        }
    }

    /// Whether a leaf under link `href` goes on in the wrapper of the leaf before it (the same
    /// link under the same changes, around text) rather than starting one of its own: every
    /// wrapper holds a copy of the target, so each new one counts against the budget of copies.
    fn link_goes_on(st: &ParaState, href: &Arc<str>) -> bool {
        let Some(prev) = st.runs.last() else {
            return false;
        };
        if matches!(prev.leaf, Leaf::Atom(_)) {
            return false;
        }
        let mut linked = false;
        let mut changes = st.changes.iter();
        for mark in &prev.marks {
            match mark {
                Mark::Link(l) => linked |= Arc::ptr_eq(l, href),
                Mark::Tracked(c) if changes.next() != Some(c) => return false,
                _ => {}
            }
        }
        linked && changes.next().is_none()
    }

    pub(super) fn leaf(&mut self, st: &mut ParaState, marks: Vec<Mark>, leaf: Leaf) {
        if !self.visible() {
            st.suppressed_any = true;
            return;
        }
        st.visible_any = true;
        let mut m = marks;
        if let Some(l) = self.current_link(st) {
            // An atom under a link takes no link mark (`Mark::applies_to_atoms`), nor a wrapper.
            let wraps = !matches!(leaf, Leaf::Atom(_));
            if !wraps || Self::link_goes_on(st, &l) || self.link_fits(l.len(), "w:hyperlink") {
                m.push(Mark::Link(l));
            }
        }
        for c in &st.changes {
            m.push(Mark::Tracked(c.clone()));
        }
        st.runs.push(IRun { marks: m, leaf });
    }

    pub(super) fn image(&mut self, img: model::ImageRef) -> Option<(Inline, Option<(u64, u64)>)> {
        let media = match img.target {
            ImageTarget::Part(part) => {
                let shared = Arc::as_ptr(&part).cast::<u8>() as usize;
                if let Some((_, known)) = self.picture_parts.get(&shared) {
                    known.clone()?
                } else {
                    let known = if self.src.parts.contains(&part.to_ascii_lowercase()) {
                        Some(self.media.name_for(&part))
                    } else {
                        // Once per part: a message per picture would copy its name each time.
                        self.warn_once(
                            format!("missing-picture:{part}"),
                            WarningKind::MissingMedia,
                            format!("picture {part} is missing from the package; dropped (wherever it is named)"),
                            "a:blip",
                        );
                        None
                    };
                    self.picture_parts
                        .insert(shared, (Arc::clone(&part), known.clone()));
                    known?
                }
            }
            ImageTarget::External(url) => {
                // Each picture holds its address: a file can name one long one many times.
                if !self.link_fits(url.len(), "a:blip") {
                    return None;
                }
                self.warn_once(
                    format!("linked-picture:{url}"),
                    WarningKind::MissingMedia,
                    format!("linked picture {url} is not embedded in the file; kept as a reference to it (wherever it is named)"),
                    "a:blip",
                );
                url.to_string()
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
    pub(super) fn run_marks(&self, p: Option<&RunProps>, rp: &RunProps) -> Vec<Mark> {
        let styles = self.src.styles;
        let char_style = rp.style.as_deref().and_then(|s| styles.get(s));
        // Read as mammoth reads, a run's formatting is its own: what its styles add is the
        // styles' to say, through the style map.
        let none = RunProps::default();
        let (p, d, c) = if self.src.word_refs {
            (None, &none, None)
        } else {
            let c = char_style
                .and_then(|s| styles.resolved(&s.id))
                .map(|r| &r.rpr);
            (p, &styles.doc_rpr, c)
        };
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
            Some(VertAlign::Super) => marks.push(Mark::Style(TextStyle::Superscript)),
            Some(VertAlign::Sub) => marks.push(Mark::Style(TextStyle::Subscript)),
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
            if self.src.word_refs || (s.custom && !s.linked && !code_style) {
                marks.push(Mark::Span(Arc::clone(&s.shown)));
            }
        }
        marks
    }

    pub(super) fn note(&mut self, kind: NoteKind, id: &str) -> Option<Vec<Inline>> {
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
        // A note may be referenced twice; each reference converts its own copy, within the
        // budget of copies.
        let copied = match kind {
            NoteKind::Endnote => Copied::Endnote,
            _ => Copied::Footnote,
        };
        if !self.copy_fits(copied, id, "w:footnoteReference") {
            return None;
        }
        let blocks = blocks.clone();
        if self.src.word_refs {
            self.note_ids.push(id.to_string());
        }
        // Read as mammoth reads, the space after the note's number stays (mammoth writes it).
        let trim_space = !self.src.word_refs;
        Some(self.inline_of_blocks(blocks, trim_space))
    }

    /// Converts note or comment blocks to inline content: paragraphs joined by line breaks,
    /// tables flattened (with a warning).
    pub(super) fn inline_of_blocks(
        &mut self,
        blocks: Vec<model::Block>,
        note: bool,
    ) -> Vec<Inline> {
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

    pub(super) fn flatten_blocks(
        &mut self,
        blocks: Vec<model::Block>,
        runs: &mut Vec<IRun>,
        first: &mut bool,
    ) {
        for b in blocks {
            match b {
                model::Block::Para(mut p) => {
                    let info = self.para_info(&mut p.props);
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

/// Trims note and comment content: empty lines at the start and end, and the one space Word
/// puts between the note number and the text. Other whitespace is the author's text.
pub(super) fn trim_runs(runs: &mut Vec<IRun>, note: bool) {
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

/// Whether a font is monospaced (by family name).
fn is_monospace(font: &str) -> bool {
    const KEYS: [&str; 12] = [
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
    ];
    // Asked for nearly every run (the document's default font counts), so compared in place,
    // ignoring ASCII case, without a lowercased copy. That finds what lowercasing the whole name
    // would: the keys are ASCII, and the only other letters that lowercase to ASCII (`İ` to
    // `i` and a combining dot, the Kelvin sign to `k`) cannot complete a key (none holds a `k`
    // or ends in `i`).
    let name = font.as_bytes();
    KEYS.iter().any(|k| {
        name.windows(k.len())
            .any(|w| w.eq_ignore_ascii_case(k.as_bytes()))
    })
}

#[cfg(test)]
mod tests {
    use super::is_monospace;

    #[test]
    fn monospace_fonts_are_found_in_any_case_and_script() {
        for font in [
            "Courier New",
            "CONSOLAS",
            "DejaVu Sans Mono",
            "Lucida Console",
            "OCR A Extended",
            // A name that is not ASCII is lowercased as Unicode, as before.
            "Noto Sans Mono CJK 日本語",
            "ÉCOLE COURIER",
        ] {
            assert!(is_monospace(font), "{font}");
        }
        for font in [
            "Calibri",
            "Times New Roman",
            "Mon",
            "Lucida Sans",
            "宋体",
            "",
        ] {
            assert!(!is_monospace(font), "{font}");
        }
        // In place it answers as lowercasing the whole name would, letters that lowercase to
        // ASCII included.
        for font in [
            "FİRA CODE",
            "COURİER",
            "Mono\u{212A}",
            "LUCİDA CONSOLE",
            "ÆNDALE",
        ] {
            let lowered = font.to_lowercase();
            let by_copy = ["courier", "fira code", "mono", "lucida console", "andale"]
                .iter()
                .any(|k| lowered.contains(k));
            assert_eq!(is_monospace(font), by_copy, "{font}");
        }
    }
}
