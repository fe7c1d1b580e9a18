//! Inline content is built flat: every piece of text or atom becomes a [`Run`] carrying the marks
//! open at that point, and [`from_runs`] nests the runs into canonical inline content at the end.
//! That way any nesting the source uses (`<i><b>x</b></i>` or `<b><i>x</i></b>`) gives the same
//! tree, and marks opened by `<?sdconv {"open":…}?>` need not nest with the elements around them.
//! Runs are nested [`FLUSH_RUNS`] at a time and joined to what came before ([`append`] gives the
//! same canonical content as nesting them all at once), so a long paragraph holds its marks once
//! per piece of text only for a while.

use crate::ast::inline::{Leaf, Run, append, from_runs, to_runs};
use crate::ast::{Inline, Mark};

/// Most different marks one run may carry: marks nested as deep as the XML allows
/// (`Limits::max_xml_depth`) would cost that depth for every piece of text, a 2 KB zip asking
/// for gigabytes.
pub(super) use crate::limits::MAX_RUN_MARKS;

/// How many runs are kept before they are nested. Each run holds a copy of its marks (one
/// `Mark` is 40 bytes): a paragraph of many short pieces under several marks would otherwise
/// hold all those copies until its end, several times what its nested content takes.
const FLUSH_RUNS: usize = 1024;

/// An open element's or PI's mark and whether it is one of the marks that apply.
#[derive(Debug)]
enum Held {
    /// Counted in the builder's `open` marks (it may repeat a mark already open).
    Counted(Mark),
    /// Left out: [`MAX_RUN_MARKS`] different marks were open already.
    Dropped,
}

/// Builds the inline content of one paragraph, note or comment.
#[derive(Debug)]
pub(super) struct Builder {
    runs: Vec<Run>,
    /// The runs nested so far, in canonical form.
    done: Vec<Inline>,
    /// Runs have been nested into `done` (which may still be empty).
    flushed: bool,
    /// [`FLUSH_RUNS`], smaller in tests.
    flush_at: usize,
    /// One entry per open formatting element; `None` for elements that add no mark (a link
    /// without a target, a validity wrapper, an unknown element).
    elem: Vec<Option<Held>>,
    /// Marks opened by processing instructions, closed latest first.
    pi: Vec<Held>,
    /// The different marks that apply now, each with how many open elements and PIs hold it:
    /// a mark repeated inside itself is held twice but applies once.
    open: Vec<(Mark, u32)>,
    /// The marks that apply now (`open` without the counts), recomputed when `dirty`.
    cur: Vec<Mark>,
    dirty: bool,
    /// The last run is text carrying `cur`: more text can be appended to it.
    text_open: bool,
    /// Note contents, in order, held aside while [`from_runs`] nests the runs: their notes go
    /// through it empty and get their (already canonical) content back afterwards, which spares
    /// `from_runs` normalising every note a second time.
    notes: Vec<Vec<Inline>>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            runs: Vec::new(),
            done: Vec::new(),
            flushed: false,
            flush_at: FLUSH_RUNS,
            elem: Vec::new(),
            pi: Vec::new(),
            open: Vec::new(),
            cur: Vec::new(),
            dirty: false,
            text_open: false,
            notes: Vec::new(),
        }
    }
}

impl Builder {
    fn changed(&mut self) {
        self.dirty = true;
        self.text_open = false;
    }

    fn marks(&mut self) -> Vec<Mark> {
        if self.dirty {
            self.cur.clear();
            self.cur.extend(self.open.iter().map(|(m, _)| m.clone()));
            self.dirty = false;
        }
        self.cur.clone()
    }

    /// Starts holding `mark`: counted again if it is open already, added if fewer than
    /// [`MAX_RUN_MARKS`] different marks are, else dropped.
    fn hold(&mut self, mark: Mark) -> Held {
        if let Some((_, n)) = self.open.iter_mut().find(|(m, _)| *m == mark) {
            // The marks that apply stay the same: text may go on in the same run.
            *n += 1;
            return Held::Counted(mark);
        }
        if self.open.len() >= MAX_RUN_MARKS {
            return Held::Dropped;
        }
        self.open.push((mark.clone(), 1));
        self.changed();
        Held::Counted(mark)
    }

    /// Stops holding a mark; it stops applying when nothing else holds it.
    fn release(&mut self, held: Held) {
        let Held::Counted(mark) = held else {
            return;
        };
        if let Some(i) = self.open.iter().position(|(m, _)| *m == mark) {
            let gone = match self.open.get_mut(i) {
                Some((_, n)) => {
                    *n = n.saturating_sub(1);
                    *n == 0
                }
                None => false,
            };
            if gone {
                self.open.remove(i);
                self.changed();
            }
        }
    }

    /// An element opened, adding `mark` (or nothing). Returns `false` when the mark was left
    /// out because [`MAX_RUN_MARKS`] different marks are open already (the caller reports it).
    pub(super) fn push_elem(&mut self, mark: Option<Mark>) -> bool {
        let held = mark.map(|m| self.hold(m));
        let kept = !matches!(held, Some(Held::Dropped));
        self.elem.push(held);
        kept
    }

    /// The latest element closed.
    pub(super) fn pop_elem(&mut self) {
        if let Some(Some(held)) = self.elem.pop() {
            self.release(held);
        }
    }

    /// The latest element turns out to be a validity wrapper: its mark is dropped. Returns whether
    /// there was an element to unmark.
    pub(super) fn unmark_elem(&mut self) -> bool {
        let held = match self.elem.last_mut() {
            Some(slot) => slot.take(),
            None => return false,
        };
        if let Some(held) = held {
            self.release(held);
        }
        true
    }

    /// `<?sdconv {"open":MARK}?>`. Returns `false` when the mark was left out, as
    /// [`Builder::push_elem`] does.
    pub(super) fn open(&mut self, mark: Mark) -> bool {
        let held = self.hold(mark);
        let kept = !matches!(held, Held::Dropped);
        self.pi.push(held);
        kept
    }

    /// `<?sdconv {"close":null}?>`; `false` when nothing was open.
    pub(super) fn close(&mut self) -> bool {
        match self.pi.pop() {
            Some(held) => {
                self.release(held);
                true
            }
            None => false,
        }
    }

    /// Appends text (kept exactly, whitespace included).
    pub(super) fn text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if self.text_open {
            if let Some(Run {
                leaf: Leaf::Text(t),
                ..
            }) = self.runs.last_mut()
            {
                t.push_str(s);
                return;
            }
        }
        self.make_room();
        let marks = self.marks();
        self.runs.push(Run {
            marks,
            leaf: Leaf::Text(s.to_owned()),
        });
        self.text_open = true;
    }

    /// Appends a line break.
    pub(super) fn line_break(&mut self) {
        self.make_room();
        let marks = self.marks();
        self.runs.push(Run {
            marks,
            leaf: Leaf::LineBreak,
        });
        self.text_open = false;
    }

    /// Appends an atom (note, cross-reference, image, index mark, comment anchor). A note's
    /// content must be canonical.
    pub(super) fn atom(&mut self, atom: Inline) {
        let marks = self.marks();
        self.push_run(marks, Leaf::Atom(atom));
    }

    fn push_run(&mut self, marks: Vec<Mark>, mut leaf: Leaf) {
        if let Leaf::Atom(Inline::Note { content, .. }) = &mut leaf {
            self.notes.push(std::mem::take(content));
        }
        self.make_room();
        self.runs.push(Run { marks, leaf });
        self.text_open = false;
    }

    /// Appends arbitrary inline content (from a processing instruction) under the open marks.
    pub(super) fn inline(&mut self, inline: &Inline) {
        let outer = self.marks();
        for mut run in to_runs(std::slice::from_ref(inline)) {
            run.marks.extend(outer.iter().cloned());
            self.push_run(run.marks, run.leaf);
        }
    }

    /// How many marks are open (elements and PI marks).
    pub(super) fn depth(&self) -> usize {
        self.elem.len() + self.pi.len()
    }

    /// Nests the runs into `done` when [`FLUSH_RUNS`] are waiting (before a new run is added, so
    /// the last one is never text still growing).
    fn make_room(&mut self) {
        if self.runs.len() < self.flush_at {
            return;
        }
        let content = self.nest();
        append(&mut self.done, content);
        self.flushed = true;
    }

    /// The runs waiting, nested (the builder keeps its buffer).
    fn nest(&mut self) -> Vec<Inline> {
        if self.runs.iter().all(|r| r.marks.is_empty()) {
            unmarked(self.runs.drain(..))
        } else {
            from_runs(self.runs.drain(..))
        }
    }

    /// Whether nothing has been added.
    pub(super) fn is_empty(&self) -> bool {
        self.runs.is_empty() && !self.flushed
    }

    /// The canonical inline content, and how many processing-instruction marks were left open.
    /// The builder is left empty with its buffers kept, ready for the next paragraph (readers
    /// build one per paragraph: reusing them saves several allocations each).
    pub(super) fn finish(&mut self) -> (Vec<Inline>, usize) {
        let unclosed = self.pi.len();
        let last = self.nest();
        let mut content = std::mem::take(&mut self.done);
        if content.is_empty() {
            content = last;
        } else {
            append(&mut content, last);
        }
        if !self.notes.is_empty() {
            let mut notes = self.notes.drain(..);
            refill_notes(&mut content, &mut notes);
        }
        self.flushed = false;
        self.elem.clear();
        self.pi.clear();
        self.open.clear();
        self.cur.clear();
        self.dirty = false;
        self.text_open = false;
        (content, unclosed)
    }
}

/// What [`from_runs`] returns for runs without marks, built directly: the leaves in order,
/// adjacent text merged, empty text dropped. Most paragraphs and cells of real documents carry no
/// formatting at all, and this spares them `from_runs`' nesting machinery. Note content is not
/// normalised here: the builder's notes are placeholders at this point (see `notes`), and
/// notes from PIs were normalised by `to_runs`.
fn unmarked(runs: impl Iterator<Item = Run>) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::with_capacity(runs.size_hint().0);
    for run in runs {
        match run.leaf {
            Leaf::Text(t) => {
                if t.is_empty() {
                    continue;
                }
                if let Some(Inline::Text { text }) = out.last_mut() {
                    text.push_str(&t);
                } else {
                    out.push(Inline::Text { text: t });
                }
            }
            Leaf::LineBreak => out.push(Inline::LineBreak),
            Leaf::Atom(atom) => out.push(atom),
        }
    }
    out
}

/// Gives each note in `content` (in order) its content back. Notes sit at the top level or
/// inside tracked changes, the only wrapper atoms keep; the walk is bounded by mark nesting.
fn refill_notes(content: &mut [Inline], notes: &mut impl Iterator<Item = Vec<Inline>>) {
    for inline in content {
        match inline {
            Inline::Note { content, .. } => {
                if let Some(c) = notes.next() {
                    *content = c;
                }
            }
            other => {
                if let Some(children) = other.children_mut() {
                    refill_notes(children, notes);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::TextStyle;
    use crate::ast::inline::is_normalized;

    #[test]
    fn nesting_order_does_not_matter() {
        let mut a = Builder::default();
        a.push_elem(Some(Mark::Style(TextStyle::Italic)));
        a.push_elem(Some(Mark::Style(TextStyle::Bold)));
        a.text("x");
        a.pop_elem();
        a.pop_elem();
        let mut b = Builder::default();
        b.push_elem(Some(Mark::Style(TextStyle::Bold)));
        b.push_elem(Some(Mark::Style(TextStyle::Italic)));
        b.text("x");
        let (a, _) = a.finish();
        let (b, _) = b.finish();
        assert!(a.len() == 1);
        assert_eq!(a, b);
        assert!(is_normalized(&a));
    }

    #[test]
    fn notes_come_back_in_order_inside_tracked_changes() {
        use crate::ast::NoteKind;
        use crate::ast::inline::{ChangeKey, normalize};
        let note = |s: &str| Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![Inline::text(s)],
        };
        let mut b = Builder::default();
        b.text("a");
        b.atom(note("one"));
        b.open(Mark::Tracked(ChangeKey {
            insert: true,
            author: None,
            date: None,
        }));
        b.push_elem(Some(Mark::Style(TextStyle::Bold)));
        b.atom(note("two"));
        b.text("b");
        let (content, _) = b.finish();
        assert!(is_normalized(&content));
        let mut texts = Vec::new();
        let mut stack: Vec<&Inline> = content.iter().collect();
        while let Some(i) = stack.pop() {
            if let Inline::Note { content, .. } = i {
                texts.push(content.clone());
            }
            stack.extend(i.children().unwrap_or_default());
        }
        texts.sort_by_key(|c| format!("{c:?}"));
        assert_eq!(
            texts,
            vec![vec![Inline::text("one")], vec![Inline::text("two")]]
        );
        assert_eq!(normalize(&content), content);
    }

    #[test]
    fn the_unmarked_shortcut_equals_from_runs() {
        use crate::ast::NoteKind;
        let run = |leaf| Run {
            marks: Vec::new(),
            leaf,
        };
        let cases = vec![
            vec![],
            vec![run(Leaf::Text("a".into()))],
            vec![run(Leaf::Text(String::new()))],
            vec![
                run(Leaf::Text("a".into())),
                run(Leaf::Text(String::new())),
                run(Leaf::Text("b".into())),
                run(Leaf::LineBreak),
                run(Leaf::Text("c".into())),
                run(Leaf::Atom(Inline::Note {
                    kind: NoteKind::Footnote,
                    content: vec![Inline::text("n")],
                })),
                run(Leaf::Text("d".into())),
                run(Leaf::Text("e".into())),
                run(Leaf::Atom(Inline::IndexMark { id: "i".into() })),
            ],
        ];
        for case in cases {
            assert_eq!(unmarked(case.clone().into_iter()), from_runs(case));
        }
    }

    #[test]
    fn pi_marks_and_wrappers() {
        let mut b = Builder::default();
        b.text("a ");
        b.open(Mark::Span("Quote".into()));
        b.push_elem(Some(Mark::Style(TextStyle::Bold)));
        assert!(b.unmark_elem());
        b.text("q");
        b.pop_elem();
        assert!(b.close());
        assert!(!b.close());
        b.text(" z");
        let (content, unclosed) = b.finish();
        assert_eq!(unclosed, 0);
        assert_eq!(
            content,
            vec![
                Inline::text("a "),
                Inline::Span {
                    style: "Quote".into(),
                    children: vec![Inline::text("q")]
                },
                Inline::text(" z")
            ]
        );
    }

    #[test]
    fn a_repeated_mark_applies_once_while_anything_holds_it() {
        let bold = || Mark::Style(TextStyle::Bold);
        let mut b = Builder::default();
        assert!(b.push_elem(Some(bold())));
        assert!(b.open(bold()));
        b.pop_elem();
        // The PI still holds bold after the element closed.
        b.text("x");
        assert!(b.close());
        b.text("y");
        let (content, _) = b.finish();
        assert_eq!(
            content,
            vec![
                Inline::styled(TextStyle::Bold, vec![Inline::text("x")]),
                Inline::text("y")
            ]
        );
    }

    #[test]
    fn different_marks_past_the_bound_are_dropped() {
        let mut b = Builder::default();
        for k in 0..MAX_RUN_MARKS {
            assert!(b.push_elem(Some(Mark::Span(format!("s{k}").into()))));
        }
        assert!(!b.push_elem(Some(Mark::Span("over".into()))));
        assert!(!b.open(Mark::Style(TextStyle::Bold)));
        // A mark open already is not a new one.
        assert!(b.push_elem(Some(Mark::Span("s0".into()))));
        b.text("x");
        assert_eq!(b.runs.first().map(|r| r.marks.len()), Some(MAX_RUN_MARKS));
        assert!(b.close());
        b.pop_elem();
        b.pop_elem();
        b.pop_elem();
        b.text("y");
        assert_eq!(
            b.runs.last().map(|r| r.marks.len()),
            Some(MAX_RUN_MARKS - 1)
        );
    }

    #[test]
    fn nesting_in_pieces_equals_nesting_at_once() {
        use crate::ast::NoteKind;
        use crate::ast::inline::{ChangeKey, normalize};
        // A fixed pseudo-random walk over every builder operation.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let styles = [TextStyle::Bold, TextStyle::Italic, TextStyle::Subscript];
        for round in 0..40 {
            let ops: Vec<(u64, u64)> = (0..300).map(|_| (next(11), next(3))).collect();
            let build = |flush_at: usize| {
                let mut b = Builder {
                    flush_at,
                    ..Builder::default()
                };
                for &(op, k) in &ops {
                    let k = k as usize;
                    match op {
                        0 => {
                            b.push_elem(Some(Mark::Style(styles[k])));
                        }
                        1 => {
                            b.push_elem((k > 0).then(|| Mark::Link(format!("#l{k}").into())));
                        }
                        2 => b.pop_elem(),
                        3 => {
                            b.open(Mark::Tracked(ChangeKey {
                                insert: k == 0,
                                author: None,
                                date: None,
                            }));
                        }
                        4 => {
                            b.close();
                        }
                        5 | 6 => b.text(["a", "b ", ""][k]),
                        7 => b.line_break(),
                        8 => b.atom(Inline::Note {
                            kind: NoteKind::Footnote,
                            content: vec![Inline::text(format!("n{round}"))],
                        }),
                        9 => b.inline(&Inline::styled(styles[k], vec![Inline::text("p")])),
                        _ => {
                            b.unmark_elem();
                        }
                    }
                }
                b.finish().0
            };
            let whole = build(usize::MAX);
            assert!(is_normalized(&whole));
            assert_eq!(normalize(&whole), whole);
            for flush_at in [1, 2, 3, 7] {
                assert_eq!(
                    build(flush_at),
                    whole,
                    "round {round}, pieces of {flush_at}"
                );
            }
        }
    }
}
