//! Inline content is built flat: every piece of text or atom becomes a [`Run`] carrying the marks
//! open at that point, and [`from_runs`] nests the runs into canonical inline content at the end.
//! That way any nesting the source uses (`<i><b>x</b></i>` or `<b><i>x</i></b>`) gives the same
//! tree, and marks opened by `<?sdconv {"open":…}?>` need not nest with the elements around them.

use crate::ast::inline::{Leaf, Run, from_runs, to_runs};
use crate::ast::{Inline, Mark};

/// Builds the inline content of one paragraph, note or comment.
#[derive(Debug, Default)]
pub(super) struct Builder {
    runs: Vec<Run>,
    /// One entry per open formatting element; `None` for elements that add no mark (a link
    /// without a target, a validity wrapper, an unknown element).
    elem: Vec<Option<Mark>>,
    /// Marks opened by processing instructions, closed latest first.
    pi: Vec<Mark>,
    /// The marks that apply now, recomputed when `dirty`.
    cur: Vec<Mark>,
    dirty: bool,
    /// The last run is text carrying `cur`: more text can be appended to it.
    text_open: bool,
    /// Note contents, in order, held aside while [`from_runs`] nests the runs: their notes go
    /// through it empty and get their (already canonical) content back afterwards, which spares
    /// `from_runs` normalising every note a second time.
    notes: Vec<Vec<Inline>>,
}

impl Builder {
    fn changed(&mut self) {
        self.dirty = true;
        self.text_open = false;
    }

    fn marks(&mut self) -> Vec<Mark> {
        if self.dirty {
            self.cur.clear();
            self.cur.extend(self.elem.iter().flatten().cloned());
            self.cur.extend(self.pi.iter().cloned());
            self.dirty = false;
        }
        self.cur.clone()
    }

    /// An element opened, adding `mark` (or nothing).
    pub(super) fn push_elem(&mut self, mark: Option<Mark>) {
        if mark.is_some() {
            self.changed();
        }
        self.elem.push(mark);
    }

    /// The latest element closed.
    pub(super) fn pop_elem(&mut self) {
        if let Some(Some(_)) = self.elem.pop() {
            self.changed();
        }
    }

    /// The latest element turns out to be a validity wrapper: its mark is dropped. Returns whether
    /// there was an element to unmark.
    pub(super) fn unmark_elem(&mut self) -> bool {
        match self.elem.last_mut() {
            Some(slot) => {
                if slot.take().is_some() {
                    self.changed();
                }
                true
            }
            None => false,
        }
    }

    /// `<?sdconv {"open":MARK}?>`.
    pub(super) fn open(&mut self, mark: Mark) {
        self.changed();
        self.pi.push(mark);
    }

    /// `<?sdconv {"close":null}?>`; `false` when nothing was open.
    pub(super) fn close(&mut self) -> bool {
        if self.pi.pop().is_some() {
            self.changed();
            true
        } else {
            false
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
        let marks = self.marks();
        self.runs.push(Run {
            marks,
            leaf: Leaf::Text(s.to_owned()),
        });
        self.text_open = true;
    }

    /// Appends a line break.
    pub(super) fn line_break(&mut self) {
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

    /// Whether nothing has been added.
    pub(super) fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The canonical inline content, and how many processing-instruction marks were left open.
    /// The builder is left empty with its buffers kept, ready for the next paragraph (readers
    /// build one per paragraph: reusing them saves several allocations each).
    pub(super) fn finish(&mut self) -> (Vec<Inline>, usize) {
        let unclosed = self.pi.len();
        let mut content = if self.runs.iter().all(|r| r.marks.is_empty()) {
            unmarked(self.runs.drain(..))
        } else {
            from_runs(self.runs.drain(..))
        };
        if !self.notes.is_empty() {
            let mut notes = self.notes.drain(..);
            refill_notes(&mut content, &mut notes);
        }
        self.elem.clear();
        self.pi.clear();
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
}
