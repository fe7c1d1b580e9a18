//! Stage two for fields (ECMA-376 §17.16): complex fields (`w:fldChar` begin, instruction,
//! separate, end) and simple ones (`w:fldSimple`) keep one stack across paragraphs (a TOC's
//! cached entries span many); what each field the tree models does: hyperlinks,
//! cross-references, `SEQ` caption numbers, TOC directories, page numbers in footers. A part
//! whose `w:fldChar`s do not balance is read with complex fields switched off (results shown as
//! text), so one broken field cannot hide the rest of the document. The instructions are read by
//! [`crate::import::docx::parse::fields`].

use super::converter::{Converter, FieldState, Frame};
use super::paragraphs::{ParaState, SeqMark};
use crate::ast::inline::Leaf;
use crate::ast::{self, Inline};
use crate::import::docx::parse::fields::{self, FieldKind};
use crate::import::docx::parse::model::{self, Item, RunItem};
use crate::report::WarningKind;

/// Deepest field nesting tracked; deeper fields are read as plain results.
const MAX_FIELD_DEPTH: usize = 64;

impl<'a> Converter<'a> {
    pub(super) fn visible(&self) -> bool {
        self.fields.frames.iter().all(|f| f.result && !f.drop)
    }

    pub(super) fn field_begin(&mut self) {
        if self.fields.frames.len() >= MAX_FIELD_DEPTH || self.fields.overflow > 0 {
            self.fields.overflow += 1;
        } else {
            self.fields.frames.push(Frame::default());
        }
    }

    pub(super) fn field_instr(&mut self, text: &str) {
        if self.fields.overflow > 0 {
            return;
        }
        if let Some(f) = self.fields.frames.last_mut() {
            if !f.result {
                f.instr.push_str(text);
            }
        }
    }

    pub(super) fn field_separate(&mut self, st: &mut ParaState) {
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
        f.link = link.map(Into::into);
        self.fields.frames.push(f);
    }

    pub(super) fn field_end(&mut self, st: &mut ParaState) {
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
    pub(super) fn field_effect(
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
                    // One around the whole caption shows label, number and text.
                    let facts = self.src.facts;
                    let (number, text) = if text && !number {
                        if facts.number_bookmarks.contains(&target) {
                            (true, false)
                        } else if facts.caption_bookmarks.contains(&target) {
                            (true, true)
                        } else {
                            (number, text)
                        }
                    } else {
                        (number, text)
                    };
                    self.leaf(
                        st,
                        Vec::new(),
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
            FieldKind::Page(piece) => {
                if self.footer_mode {
                    // Kept as the field: a mark the page text turns back into it; the result
                    // (one page's number) goes.
                    self.leaf(
                        st,
                        Vec::new(),
                        Leaf::Text(super::pages::field_mark(&piece).to_string()),
                    );
                }
                (self.footer_mode, None)
            }
            FieldKind::Other => (false, None),
        }
    }
}

impl FieldState {
    /// A fresh state; complex fields are switched off when the markers in `blocks` do not
    /// balance.
    pub(super) fn for_blocks(blocks: &[model::Block]) -> Self {
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
