//! Inline content: the buffer events add runs to, text and formulas, marks and atoms.

use super::{InlineBuf, Para, Reader, State, Verbatim};
use crate::ast::inline::{Leaf, Run};
use crate::ast::{Inline, Mark};
use crate::limits::MAX_RUN_MARKS;
use crate::report::WarningKind;

impl Reader<'_, '_, '_> {
    /// The inline buffer events go to: the open paragraph (or cell), else a new paragraph (text
    /// directly inside a tight list item has no paragraph event).
    pub(super) fn inline_buf<'s>(&mut self, st: &'s mut State) -> &'s mut InlineBuf {
        if st.para.is_none() {
            self.begin_para(st, Verbatim::No);
        }
        let indent = st.block_indent();
        &mut st.para.get_or_insert_with(|| Para::plain(indent)).buf
    }

    pub(super) fn current_buf<'s>(&self, st: &'s mut State) -> Option<&'s mut InlineBuf> {
        st.para.as_mut().map(|p| &mut p.buf)
    }

    /// A TeX formula (`$…$`, `$$…$$`); one the TeX reader cannot take is kept as its source text.
    pub(super) fn math(&mut self, st: &mut State, tex: &str, display: bool) {
        let leaf = match crate::math_tex::parse(tex) {
            Ok((math, unknown)) => {
                if !unknown.is_empty() {
                    self.warn(
                        WarningKind::Lossy,
                        format!(
                            "TeX commands {} in a formula are not known: kept as text",
                            unknown.join(", ")
                        ),
                    );
                }
                Leaf::Atom(Inline::Math { display, math })
            }
            Err(e) => {
                self.warn(
                    WarningKind::Lossy,
                    format!("a formula could not be read ({e}): its TeX source is kept as text"),
                );
                let fence = if display { "$$" } else { "$" };
                Leaf::Text(format!("{fence}{tex}{fence}"))
            }
        };
        let buf = self.inline_buf(st);
        let marks = buf.marks.clone();
        buf.runs.push(Run { marks, leaf });
    }

    pub(super) fn text(&mut self, st: &mut State, text: String) {
        let buf = self.inline_buf(st);
        let marks = buf.marks.clone();
        buf.runs.push(Run {
            marks,
            leaf: Leaf::Text(text),
        });
    }

    /// Opens a mark. One already open adds nothing (the canonical form would drop the copy);
    /// one beyond [`MAX_RUN_MARKS`] distinct marks is dropped, warned, its text kept (Markdown
    /// has five styles and links nest two deep, so only hostile nesting gets there).
    pub(super) fn push_mark(&mut self, st: &mut State, mark: Mark) {
        let buf = self.inline_buf(st);
        let open = buf.marks.contains(&mark);
        let added = !open && buf.marks.len() < MAX_RUN_MARKS;
        if added {
            buf.marks.push(mark);
        }
        buf.opened.push(added);
        if !open && !added {
            self.warn_once(
                "mark-depth",
                WarningKind::Lossy,
                &format!(
                    "formatting or links inside more than {MAX_RUN_MARKS} different ones are \
                     dropped; their text is kept"
                ),
            );
        }
    }

    /// Closes the innermost open mark: takes its mark off if its start added one.
    pub(super) fn pop_mark(&mut self, st: &mut State) {
        let buf = self.inline_buf(st);
        if buf.opened.pop() == Some(true) {
            buf.marks.pop();
        }
    }

    pub(super) fn push_atom(&mut self, st: &mut State, atom: Inline) {
        let buf = self.inline_buf(st);
        let linked = buf.marks.iter().any(|m| matches!(m, Mark::Link(_)));
        let marks = buf.marks.clone();
        buf.runs.push(Run {
            marks,
            leaf: Leaf::Atom(atom),
        });
        if linked {
            self.warn_once(
                "linked-atom",
                WarningKind::Lossy,
                "a link around an image or footnote is dropped (the tree cannot link them)",
            );
        }
    }
}
