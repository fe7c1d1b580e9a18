//! Inline content: formatting elements become marks on the innermost builder, `a`/`inline`
//! marks with targets, `footnote`/`sidenote` open a builder of their own, and the atoms
//! (`xref`, `index`, `img`, `br`) go in where they stand. Word field codes in `a@href` are
//! repaired here; a list nested inside a legacy `li` splits the item.

use quick_xml::events::BytesStart;

use super::attrs;
use super::frame::{Frame, ParaFrame, is_xml_space};
use super::parser::{Parser, name_of, shown};
use super::runs::{Builder, MAX_RUN_MARKS};
use crate::ast::{Inline, NoteKind};
use crate::error::Result;
use crate::report::WarningKind;

fn style_of(name: &str) -> Option<crate::ast::TextStyle> {
    use crate::ast::TextStyle::*;
    Some(match name {
        "b" => Bold,
        "i" => Italic,
        "u" => Underline,
        "s" => Strike,
        "sub" => Subscript,
        "sup" => Superscript,
        "kbd" => Code,
        "sd-sc" => SmallCaps,
        _ => return None,
    })
}

impl Parser<'_> {
    pub(super) fn builder(&mut self) -> Option<&mut Builder> {
        self.builders.last_mut()
    }

    /// Starts inline content for a paragraph or note.
    pub(super) fn push_builder(&mut self) {
        let b = self.spare.pop().unwrap_or_default();
        self.builders.push(b);
    }

    /// Ends the innermost inline content: its canonical form, the count of unclosed PI marks, and
    /// whether nothing at all was added.
    pub(super) fn pop_builder(&mut self) -> (Vec<Inline>, usize, bool) {
        if self.math_fallback.is_some_and(|d| d >= self.builders.len()) {
            // A formula's fallback never closed: stop skipping text where its paragraph ends.
            self.math_fallback = None;
            self.note(WarningKind::InvalidValue, "pi-math-open", "", || {
                "an <?sdconv {\"math\":…}?> without its {\"math_end\":null} ended with its \
                 paragraph"
                    .to_string()
            });
        }
        match self.builders.pop() {
            Some(mut b) => {
                let empty = b.is_empty();
                let (content, unclosed) = b.finish();
                self.spare.push(b);
                (content, unclosed, empty)
            }
            None => (Vec::new(), 0, true),
        }
    }

    pub(super) fn inline_start(&mut self, e: &BytesStart<'_>, name: &str) -> Result<()> {
        if let Some(style) = style_of(name) {
            self.no_attrs(e, name);
            let mark = crate::ast::Mark::Style(style);
            self.push_inline(name, Some(mark));
            return Ok(());
        }
        match name {
            "a" => {
                let mut href = None;
                self.each_attr(e, "a", |_, k, v| {
                    (k == "href").then(|| href = Some(v.into_owned())).is_some()
                });
                let mark = match href {
                    Some(h) if !h.is_empty() => {
                        Some(crate::ast::Mark::Link(self.repair_href(h).into()))
                    }
                    other => {
                        self.bad_value("a", "href", other.as_deref().unwrap_or(""), "no link");
                        None
                    }
                };
                self.push_inline(name, mark);
            }
            "inline" => {
                let mut style = None;
                self.each_attr(e, "inline", |_, k, v| {
                    (k == "stylename")
                        .then(|| style = Some(v.into_owned()))
                        .is_some()
                });
                let mark = match style {
                    Some(s) if !s.is_empty() => Some(crate::ast::Mark::Span(s.into())),
                    other => {
                        self.bad_value(
                            "inline",
                            "stylename",
                            other.as_deref().unwrap_or(""),
                            "no character style",
                        );
                        None
                    }
                };
                self.push_inline(name, mark);
            }
            "footnote" | "sidenote" => self.note_start(e, name),
            "img" => self.img_start(e),
            "br" => {
                self.no_attrs(e, "br");
                if let Some(b) = self.builder() {
                    b.line_break();
                }
                self.push_inline(name, None);
            }
            "xref" => {
                let atom = self.xref(e);
                if let (Some(atom), Some(b)) = (atom, self.builders.last_mut()) {
                    b.atom(atom);
                }
                self.push_inline(name, None);
            }
            "index" => {
                let mut id = None;
                self.each_attr(e, "index", |_, k, v| {
                    (k == "data-id")
                        .then(|| id = Some(v.into_owned()))
                        .is_some()
                });
                match id.filter(|s| !s.is_empty()) {
                    Some(id) => {
                        if let Some(b) = self.builder() {
                            b.atom(Inline::IndexMark { id });
                        }
                    }
                    None => self.bad_value("index", "data-id", "", "no index mark"),
                }
                self.push_inline(name, None);
            }
            "ul" | "ol" if self.top_is_li() => {
                self.split_li()?;
                self.list_start(e, name == "ol");
            }
            _ => {
                let parent = self.frames.last().map(|f| shown(f.name()).into_owned());
                let parent = parent.unwrap_or_default();
                let shown_name = shown(name);
                let key = format!("{parent}>{shown_name}");
                self.note(WarningKind::UnknownElement, &key, &shown_name, || {
                    format!(
                        "unknown or misplaced element <{shown_name}> inside <{parent}>: its text was \
                         kept"
                    )
                });
                self.push_inline(name, None);
            }
        }
        Ok(())
    }

    fn push_inline(&mut self, name: &str, mark: Option<crate::ast::Mark>) {
        let kept = self.builder().is_none_or(|b| b.push_elem(mark));
        if !kept {
            self.too_many_marks(name);
        }
        self.frames.push(Frame::Inline {
            name: name_of(name),
        });
    }

    /// A mark left out because [`MAX_RUN_MARKS`] different ones were open (once per document).
    pub(super) fn too_many_marks(&mut self, what: &str) {
        self.note(WarningKind::Dropped, "marks-cap", what, || {
            format!(
                "text had more than {MAX_RUN_MARKS} different marks (formatting, links, character \
                 styles) open at once; the innermost were left out"
            )
        });
    }

    /// Repairs a Word field code in a link target (counted once per document).
    fn repair_href(&mut self, href: String) -> String {
        match attrs::repair_field_href(&href) {
            Some(fixed) => {
                let (from, to) = (href.clone(), fixed.clone());
                self.note(WarningKind::Repaired, "hyperlink-field", "a@href", || {
                    format!(
                        "link targets holding a Word HYPERLINK field code were repaired \
                         (first: {from:?} → {to:?})"
                    )
                });
                fixed
            }
            None => href,
        }
    }

    fn xref(&mut self, e: &BytesStart<'_>) -> Option<Inline> {
        let mut href = None;
        let mut number = false;
        let mut text = false;
        self.each_attr(e, "xref", |p, k, v| {
            match k {
                "href" => href = Some(v.into_owned()),
                "data-num-enabled" | "data-content-enabled" => {
                    let flag = attrs::flag(&v).unwrap_or_else(|| {
                        p.bad_value("xref", k, &v, "0");
                        false
                    });
                    if k == "data-num-enabled" {
                        number = flag;
                    } else {
                        text = flag;
                    }
                }
                _ => return false,
            }
            true
        });
        let target = href.map(|h| h.strip_prefix('#').map(str::to_string).unwrap_or(h));
        match target.filter(|t| !t.is_empty()) {
            Some(target) => Some(Inline::CrossRef {
                target,
                number,
                text,
            }),
            None => {
                self.bad_value("xref", "href", "", "no cross-reference");
                None
            }
        }
    }

    fn note_start(&mut self, e: &BytesStart<'_>, name: &str) {
        let kind = if name == "sidenote" {
            NoteKind::Sidenote
        } else {
            NoteKind::Footnote
        };
        let mut legacy_text = None;
        self.each_attr(e, name, |_, k, v| {
            (k == "data-content" && kind == NoteKind::Footnote)
                .then(|| legacy_text = Some(v.into_owned()))
                .is_some()
        });
        self.push_builder();
        if let Some(t) = legacy_text {
            self.note(
                WarningKind::LegacyForm,
                "footnote-data-content",
                name,
                || {
                    "footnotes with their text in @data-content (the 2016-2017 form) were turned \
                 into footnotes"
                        .to_string()
                },
            );
            if let Some(b) = self.builder() {
                b.text(&t);
            }
        }
        self.frames.push(Frame::Note { kind });
    }

    fn img_start(&mut self, e: &BytesStart<'_>) {
        let mut media = None;
        let mut caption = None;
        self.each_attr(e, "img", |_, k, v| {
            match k {
                "filename" => media = attrs::non_empty(v),
                "caption" => caption = attrs::non_empty(v),
                _ => return false,
            }
            true
        });
        self.frames.push(Frame::Img {
            media,
            caption,
            fields: None,
            buf: String::new(),
            nested: 0,
        });
    }

    fn top_is_li(&self) -> bool {
        matches!(self.frames.last(), Some(Frame::Para(p)) if p.li_depth.is_some())
    }

    /// A list nested inside a legacy `li`: the item so far becomes a block, and what follows the
    /// nested list continues as another item of the same list.
    fn split_li(&mut self) -> Result<()> {
        let Some(Frame::Para(f)) = self.frames.pop() else {
            return Ok(());
        };
        let mut rest = ParaFrame {
            name: f.name,
            para: crate::ast::Paragraph {
                content: Vec::new(),
                id: None,
                origin_ids: None,
                restart: false,
                ..f.para.clone()
            },
            fields: None,
            li_depth: f.li_depth,
            continued: true,
        };
        rest.para.start = None;
        self.close_para(*f)?;
        self.frames.push(Frame::Para(Box::new(rest)));
        self.push_builder();
        Ok(())
    }

    pub(super) fn close_img(
        &mut self,
        media: Option<String>,
        caption: Option<String>,
        fields: Option<serde_json::Map<String, serde_json::Value>>,
        buf: String,
    ) {
        let Some(media) = media else {
            self.bad_value("img", "filename", "", "no image");
            if !is_xml_space(&buf) {
                if let Some(b) = self.builder() {
                    b.text(&buf);
                }
            }
            return;
        };
        let caption = match caption {
            Some(c) => {
                if !is_xml_space(&buf) && buf != c {
                    self.note(WarningKind::Lossy, "img-content", "img", || {
                        "inline image content differing from its @caption was left out".to_string()
                    });
                }
                Some(c)
            }
            None => (!buf.is_empty()).then_some(buf),
        };
        let mut image = Inline::Image {
            media,
            caption,
            alt: None,
        };
        if let Some(fields) = fields {
            image = self.apply(image, &fields, "img");
        }
        if let Inline::Image { media, .. } = &image {
            let media = media.clone();
            self.media_ref(&media);
        }
        if let Some(b) = self.builder() {
            b.atom(image);
        }
    }
}
