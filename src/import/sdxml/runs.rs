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

    /// Appends an atom (note, cross-reference, image, index mark, comment anchor).
    pub(super) fn atom(&mut self, atom: Inline) {
        let marks = self.marks();
        self.runs.push(Run {
            marks,
            leaf: Leaf::Atom(atom),
        });
        self.text_open = false;
    }

    /// Appends arbitrary inline content (from a processing instruction) under the open marks.
    pub(super) fn inline(&mut self, inline: &Inline) {
        let outer = self.marks();
        for mut run in to_runs(std::slice::from_ref(inline)) {
            run.marks.extend(outer.iter().cloned());
            self.runs.push(run);
        }
        self.text_open = false;
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
    pub(super) fn finish(self) -> (Vec<Inline>, usize) {
        let unclosed = self.pi.len();
        (from_runs(self.runs), unclosed)
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
        assert_eq!(a, b);
        assert!(is_normalized(&a));
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
