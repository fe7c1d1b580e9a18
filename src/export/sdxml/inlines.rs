//! Inline content, written by a recursive walk that knows, for every element it is inside, which
//! child elements the DTD allows there (the content models below, copied from
//! `sdxml_import.dtd`). A mark the context has no element for becomes an `open`/`close` PI pair,
//! an inline the context cannot hold an `inline` PI, a `br` where `br` is not allowed is wrapped
//! in a `<b>` marked as a wrapper. In canonical trees (marks nested in `Mark` order, atoms
//! carrying no marks but tracked changes) the PIs are needed only for tracked changes, comment
//! anchors, and what notes cannot hold; for any other tree the output is still DTD-valid.

use std::borrow::Cow;

use crate::ast::{Inline, Mark, NoteKind, TextStyle};
use crate::sdxml_ext::Ext;

use super::markup::{plain_text, xml_safe};
use super::readback::{self, Attrs};
use super::{Loss, Writer};
use crate::xml::xml_clean;

/// An inline element the writer emits; its bit in a content mask.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Tag {
    B,
    I,
    U,
    S,
    Sub,
    Sup,
    Kbd,
    SdSc,
    A,
    Span,
    Footnote,
    Sidenote,
    Img,
    Xref,
    Index,
    Br,
}

const fn bit(t: Tag) -> u32 {
    1 << t as u8
}

const B: u32 = bit(Tag::B);
const I: u32 = bit(Tag::I);
const U: u32 = bit(Tag::U);
const S: u32 = bit(Tag::S);
const SUB: u32 = bit(Tag::Sub);
const SUP: u32 = bit(Tag::Sup);
const KBD: u32 = bit(Tag::Kbd);
const SDSC: u32 = bit(Tag::SdSc);
const A: u32 = bit(Tag::A);
const SPAN: u32 = bit(Tag::Span);
const FOOTNOTE: u32 = bit(Tag::Footnote);
const SIDENOTE: u32 = bit(Tag::Sidenote);
const IMG: u32 = bit(Tag::Img);
const XREF: u32 = bit(Tag::Xref);
const INDEX: u32 = bit(Tag::Index);
const BR: u32 = bit(Tag::Br);

/// All eight formatting elements.
const FORMAT: u32 = B | I | U | S | SUB | SUP | KBD | SDSC;

/// `heading`, `paragraph`, `ol-li`, `ul-li` (`%heading_content;`, `%mixed_content;`): no `br`.
pub(super) const BLOCK: u32 = FORMAT | A | SPAN | FOOTNOTE | IMG | SIDENOTE | XREF | INDEX;
/// Cell `p`: no `br`, `sidenote`, `index`.
pub(super) const CELL_P: u32 = FORMAT | A | SPAN | FOOTNOTE | IMG | XREF;
/// `footnote` (`%footnote_content;`).
const IN_FOOTNOTE: u32 = FORMAT | A | BR;
/// `sidenote` (`%sidenote_content;`).
const IN_SIDENOTE: u32 = FORMAT | A | BR | XREF;

impl Tag {
    fn name(self) -> &'static str {
        match self {
            Tag::B => "b",
            Tag::I => "i",
            Tag::U => "u",
            Tag::S => "s",
            Tag::Sub => "sub",
            Tag::Sup => "sup",
            Tag::Kbd => "kbd",
            Tag::SdSc => "sd-sc",
            Tag::A => "a",
            Tag::Span => "inline",
            Tag::Footnote => "footnote",
            Tag::Sidenote => "sidenote",
            Tag::Img => "img",
            Tag::Xref => "xref",
            Tag::Index => "index",
            Tag::Br => "br",
        }
    }

    /// What the element's content model allows, per the DTD.
    fn content(self) -> u32 {
        match self {
            Tag::B => (FORMAT & !B) | A | SPAN | BR,
            Tag::I => (FORMAT & !I) | A | SPAN | BR,
            Tag::U => (FORMAT & !U) | A | SPAN | BR,
            Tag::S => (FORMAT & !S) | A | SPAN | BR,
            // `sub`/`sup` hold neither `a` nor each other.
            Tag::Sub | Tag::Sup => B | I | U | S | KBD | SDSC | SPAN | BR,
            // `kbd` holds no `inline`.
            Tag::Kbd => (FORMAT & !KBD) | A | BR,
            Tag::SdSc => (FORMAT & !SDSC) | A | SPAN | BR,
            Tag::A => FORMAT | SPAN | BR,
            Tag::Span => FORMAT | A | BR,
            Tag::Footnote => IN_FOOTNOTE,
            Tag::Sidenote => IN_SIDENOTE,
            // Never written with inline content.
            Tag::Img | Tag::Xref | Tag::Index | Tag::Br => 0,
        }
    }
}

fn style_tag(style: TextStyle) -> Tag {
    match style {
        TextStyle::Code => Tag::Kbd,
        TextStyle::SmallCaps => Tag::SdSc,
        TextStyle::Bold => Tag::B,
        TextStyle::Italic => Tag::I,
        TextStyle::Underline => Tag::U,
        TextStyle::Strike => Tag::S,
        TextStyle::Subscript => Tag::Sub,
        TextStyle::Superscript => Tag::Sup,
    }
}

/// A short name of an inline kind, for warnings.
fn kind_name(inline: &Inline) -> &'static str {
    match inline {
        Inline::Text { .. } => "text",
        Inline::Styled { .. } => "format",
        Inline::Link { .. } => "link",
        Inline::Span { .. } => "character style",
        Inline::Lang { .. } => "language",
        Inline::Tracked { .. } => "tracked change",
        Inline::Note { .. } => "note",
        Inline::CrossRef { .. } => "cross-reference",
        Inline::LineBreak => "line break",
        Inline::Image { .. } => "image",
        Inline::IndexMark { .. } => "index mark",
        Inline::CommentStart { .. } | Inline::CommentEnd { .. } => "comment anchor",
        Inline::Ruby { .. } => "ruby",
        Inline::Math { .. } => "formula",
    }
}

impl Writer<'_> {
    /// Writes `list` inside an element whose content allows the elements in `allowed`.
    pub(super) fn inlines(&mut self, list: &[Inline], allowed: u32) {
        for inline in list {
            self.inline(inline, allowed);
        }
    }

    fn inline(&mut self, inline: &Inline, allowed: u32) {
        match inline {
            Inline::Text { text } => self.inline_text(text),
            Inline::LineBreak => self.line_break(allowed),
            Inline::Styled { style, children } => {
                self.mark(inline, style_tag(*style), Attrs::new(), children, allowed);
            }
            Inline::Link { href, children } => {
                self.mark_with(inline, Tag::A, "href", href, children, allowed);
            }
            Inline::Span { style, children } => {
                self.mark_with(inline, Tag::Span, "stylename", style, children, allowed);
            }
            // The DTD has no language or direction on inline content: the mark travels in PIs.
            Inline::Lang { children, .. } => {
                self.mark_pi(inline, children, allowed, Loss::Marks);
            }
            // The DTD knows no tracked changes.
            Inline::Tracked { children, .. } => {
                self.mark_pi(inline, children, allowed, Loss::Tracked);
            }
            Inline::Note { kind, content } => self.note(inline, *kind, content, allowed),
            Inline::CrossRef {
                target,
                number,
                text,
            } => {
                // The reader drops an `xref` without a target: an empty one travels in the PI.
                if allowed & XREF == 0 || target.is_empty() || !xml_clean(target) {
                    return self.atom_pi(inline);
                }
                let attrs = [
                    ("href", Cow::Borrowed(target.as_str())),
                    ("data-num-enabled", Cow::Borrowed(flag(*number))),
                    ("data-content-enabled", Cow::Borrowed(flag(*text))),
                ];
                self.empty("xref", &attrs);
            }
            Inline::Image { media, caption, .. } => {
                if allowed & IMG == 0 {
                    return self.atom_pi(inline);
                }
                // Media names are already XML- and zip-safe (see `media`).
                let attrs: Attrs<'_> = smallvec::smallvec![
                    ("filename", Cow::Borrowed(media.as_str())),
                    ("caption", xml_safe(caption.as_deref().unwrap_or_default())),
                ];
                let back = readback::img(&attrs);
                if back == *inline || self.strict {
                    self.empty("img", &attrs);
                    self.fields(inline, &back);
                } else {
                    self.start("img", &attrs);
                    self.fields(inline, &back);
                    self.end("img");
                }
            }
            Inline::IndexMark { id } => {
                if allowed & INDEX == 0 || !xml_clean(id) {
                    return self.atom_pi(inline);
                }
                self.empty("index", &[("data-id", Cow::Borrowed(id.as_str()))]);
            }
            // The DTD has no ruby: the service shows "base (reading)"; our reader gets the ruby
            // back from the PI around that text.
            Inline::Ruby { base, reading } => {
                if self.strict {
                    self.tally(Loss::Atoms, "ruby");
                    self.inline_text(&Inline::ruby_text(base, reading));
                } else {
                    self.pi(&Ext::Inline(inline.clone()));
                    let shown = Inline::ruby_text(base, reading);
                    // Only text XML holds as it is: our reader skips exactly this after the PI.
                    if xml_clean(&shown) {
                        self.text(&shown);
                    }
                }
            }
            // The DTD has no comments at all.
            Inline::CommentStart { .. } | Inline::CommentEnd { .. } => {
                if !self.strict {
                    self.pi(&Ext::Inline(inline.clone()));
                }
                // Strict mode: the comments warning covers the anchors.
            }
            Inline::Math { math, .. } => self.math(inline, math),
        }
    }

    /// A formula: the DTD has no math, so the service gets its linear text, and our reader the
    /// formula from the PI before that text (the text up to the closing PI is only the fallback).
    fn math(&mut self, inline: &Inline, math: &[crate::ast::MathNode]) {
        self.tally(Loss::Atoms, kind_name(inline));
        if !self.strict {
            self.pi(&Ext::Math(inline.clone()));
        }
        let fallback = crate::ast::math::linear_text(math);
        if xml_clean(&fallback) {
            self.text(&fallback);
        }
        if !self.strict {
            self.pi(&Ext::MathEnd(None));
        }
    }

    fn inline_text(&mut self, text: &str) {
        if plain_text(text) {
            // Most text: one scan, then copied whole.
            self.out.push_str(text);
        } else if xml_clean(text) {
            self.text(text);
        } else if self.strict {
            self.tally(Loss::Chars, "text");
            self.text(text);
        } else {
            // Exact for our reader; the service sees nothing of this piece of text.
            self.tally(Loss::Atoms, "text XML cannot hold");
            self.pi(&Ext::Inline(Inline::text(text)));
        }
    }

    fn line_break(&mut self, allowed: u32) {
        if allowed & BR != 0 {
            self.out.push_str("<br/>");
        } else if allowed & B != 0 {
            // Every element that lacks `br` allows `b`, and `b` allows `br`.
            self.out.push_str("<b>");
            if self.strict {
                self.tally(Loss::Wrappers, "br");
            } else {
                self.pi(&Ext::Wrapper(None));
            }
            self.out.push_str("<br/></b>");
        } else {
            self.atom_pi(&Inline::LineBreak);
        }
    }

    /// A mark whose element needs an identifying attribute (`a@href`, `inline@stylename`): a value
    /// XML cannot hold exactly goes in a PI instead.
    fn mark_with(
        &mut self,
        inline: &Inline,
        tag: Tag,
        attr: &'static str,
        value: &str,
        children: &[Inline],
        allowed: u32,
    ) {
        if xml_clean(value) || self.strict {
            if !xml_clean(value) {
                self.tally(Loss::Chars, attr);
            }
            let attrs: Attrs<'_> = smallvec::smallvec![(attr, xml_safe(value))];
            self.mark(inline, tag, attrs, children, allowed);
        } else {
            self.mark_pi(inline, children, allowed, Loss::Marks);
        }
    }

    /// A mark as its element where the context allows it, else as PIs.
    fn mark(
        &mut self,
        inline: &Inline,
        tag: Tag,
        attrs: Attrs<'_>,
        children: &[Inline],
        allowed: u32,
    ) {
        if allowed & bit(tag) == 0 {
            return self.mark_pi(inline, children, allowed, Loss::Marks);
        }
        self.start(tag.name(), &attrs);
        self.inlines(children, tag.content());
        self.end(tag.name());
    }

    /// A mark as an `open`/`close` PI pair around its children (strict mode: the children alone).
    fn mark_pi(&mut self, inline: &Inline, children: &[Inline], allowed: u32, loss: Loss) {
        let Some(mark) = Mark::of(inline) else {
            return self.inlines(children, allowed);
        };
        self.tally(loss, kind_name(inline));
        if self.strict {
            return self.inlines(children, allowed);
        }
        self.pi(&Ext::Open(mark));
        self.inlines(children, allowed);
        self.pi(&Ext::Close(None));
    }

    /// An inline the context cannot hold, as an `inline` PI (strict mode: left out).
    fn atom_pi(&mut self, inline: &Inline) {
        self.tally(Loss::Atoms, kind_name(inline));
        if !self.strict {
            self.pi(&Ext::Inline(inline.clone()));
        }
    }

    fn note(&mut self, inline: &Inline, kind: NoteKind, content: &[Inline], allowed: u32) {
        let tag = match kind {
            NoteKind::Sidenote => Tag::Sidenote,
            NoteKind::Footnote | NoteKind::Endnote => Tag::Footnote,
        };
        if allowed & bit(tag) == 0 {
            return self.atom_pi(inline);
        }
        self.start(tag.name(), &[]);
        // An endnote is a `footnote` with `{"kind":"endnote"}`.
        let back = readback::note(tag.name());
        let shell = Inline::Note {
            kind,
            content: Vec::new(),
        };
        self.fields(&shell, &back);
        self.inlines(content, tag.content());
        self.end(tag.name());
    }
}

fn flag(b: bool) -> &'static str {
    if b { "1" } else { "0" }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The canonical nesting order (`Mark`'s) is allowed at every step, in every context that
    /// allows the outer element: links, spans, code, small caps, then the styles.
    #[test]
    fn canonical_order_is_always_allowed() {
        let order = [
            Tag::A,
            Tag::Span,
            Tag::Kbd,
            Tag::SdSc,
            Tag::B,
            Tag::I,
            Tag::U,
            Tag::S,
            Tag::Sub,
            Tag::Sup,
        ];
        for (i, outer) in order.iter().enumerate() {
            for inner in &order[i + 1..] {
                // sub and sup never nest (canonical form keeps one); kbd cannot hold inline
                // but inline comes before kbd.
                if matches!((outer, inner), (Tag::Sub, Tag::Sup)) {
                    continue;
                }
                assert!(
                    outer.content() & bit(*inner) != 0,
                    "{} cannot hold {}",
                    outer.name(),
                    inner.name()
                );
            }
            assert!(outer.content() & BR != 0, "{} cannot hold br", outer.name());
        }
    }

    #[test]
    fn contexts_follow_the_dtd() {
        assert_eq!(BLOCK & BR, 0);
        assert_eq!(CELL_P & (BR | SIDENOTE | INDEX), 0);
        assert_eq!(IN_FOOTNOTE & (FOOTNOTE | IMG | XREF | SPAN), 0);
        assert_ne!(IN_SIDENOTE & XREF, 0);
        assert_eq!(Tag::Sup.content() & (A | SUB), 0);
        assert_eq!(Tag::Kbd.content() & SPAN, 0);
        assert_eq!(Tag::Span.content() & SPAN, 0);
    }
}
