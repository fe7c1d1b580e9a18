//! Language and direction: `lang`/`dir` on `<html>`, and on the elements whose language or
//! direction differs from what they inherit (paragraphs, headings, list items and lists, tables,
//! cells, `span`s for [`crate::ast::Inline::Lang`]). An attribute that repeats the inherited
//! value is never written, so a Latin document without differences looks as it always did.

use std::rc::Rc;

use super::Writer;
use crate::ast::{Direction, Paragraph};

/// What an element inherits from its ancestors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Inherited {
    /// The language in force (BCP 47), as the nearest `lang` says. Shared: every paragraph and
    /// cell keeps what it inherited, and the language rarely changes.
    pub(super) lang: Rc<str>,
    /// The direction in force.
    pub(super) dir: Direction,
}

impl Inherited {
    /// What the `<html>` element says: the options' language when they name one (as before
    /// issue 31: a caller asking for a Russian page gets `lang="ru-RU"`), else the document's own
    /// (`ar-SA`, not only the four the options know), else English; and the document's
    /// direction.
    pub(super) fn page(
        doc: &crate::ast::Document,
        asked: Option<crate::lang::Language>,
        fallback: crate::lang::Language,
    ) -> Self {
        Inherited {
            lang: asked
                .map(|l| l.bcp47().to_string())
                .or_else(|| doc.meta.lang_tag())
                .unwrap_or_else(|| fallback.bcp47().to_string())
                .into(),
            dir: doc.meta.direction.unwrap_or(Direction::Ltr),
        }
    }
}

impl<'a> Writer<'a> {
    /// The document's direction (left to right unless it says otherwise).
    fn doc_dir(&self) -> Direction {
        self.doc.meta.direction.unwrap_or(Direction::Ltr)
    }

    /// A paragraph's own direction: its `dir`, else the document's.
    pub(super) fn paragraph_dir(&self, p: &Paragraph) -> Direction {
        p.dir.unwrap_or_else(|| self.doc_dir())
    }

    /// A table's own direction: its `dir`, else the document's.
    pub(super) fn table_dir(&self, dir: Option<Direction>) -> Direction {
        dir.unwrap_or_else(|| self.doc_dir())
    }

    /// The `lang`/`dir` attributes `<html>` opens with (` lang="ar-SA" dir="rtl"`).
    pub(super) fn html_attrs(&self) -> String {
        let mut s = String::new();
        s.push_str(" lang=\"");
        super::escape::attr(&self.inherited.lang, &mut s);
        s.push('"');
        if self.inherited.dir == Direction::Rtl {
            s.push_str(" dir=\"rtl\"");
        }
        s
    }

    /// Replaces the `lang` attribute `head` gave `<html>` with [`Self::html_attrs`]. The page
    /// module writes the head with the generated words' language; the document's own language
    /// and direction are decided here, next to every other `lang`/`dir`.
    pub(super) fn fix_html_element(&mut self) {
        const OPEN: &str = "<html lang=\"";
        let Some(start) = self.out.find(OPEN) else {
            return;
        };
        let value = start + OPEN.len();
        let Some(len) = self.out[value..].find('"') else {
            return;
        };
        let attrs = self.html_attrs();
        // ` lang="…"` spans from the space before `lang` to the closing quote.
        let from = start + "<html".len();
        let to = value + len + 1;
        self.out.replace_range(from..to, &attrs);
        // `head` has already marked where `main` begins (the hidden `h1` goes there): it moved
        // with the attributes' new length.
        if self.landmarks.main_at >= to {
            self.landmarks.main_at = self.landmarks.main_at - (to - from) + attrs.len();
        }
    }

    /// Writes ` lang="…"`/` dir="…"` for an element whose own values are `lang`/`dir`, where they
    /// differ from what it inherits, and returns what its content then inherits (to be put back
    /// with [`Self::restore`] when the element closes).
    pub(super) fn lang_dir(&mut self, lang: Option<&str>, dir: Direction) -> Inherited {
        let before = self.inherited.clone();
        if let Some(lang) = lang.filter(|l| *l != &*self.inherited.lang) {
            self.out.push_str(" lang=\"");
            self.attr(lang);
            self.out.push('"');
            self.inherited.lang = lang.into();
        }
        if dir != self.inherited.dir {
            self.out.push_str(" dir=\"");
            self.out.push_str(dir.as_str());
            self.out.push('"');
            self.inherited.dir = dir;
        }
        before
    }

    /// Writes a paragraph's ` lang`/` dir` where they differ from the page's (a paragraph
    /// without a language of its own is in the page's).
    pub(super) fn paragraph_lang_dir(&mut self, p: &Paragraph) -> Inherited {
        let dir = self.paragraph_dir(p);
        self.lang_dir(p.lang.as_deref(), dir)
    }

    /// Puts back what was inherited before an element opened.
    pub(super) fn restore(&mut self, before: Inherited) {
        self.inherited = before;
    }

    /// `<span lang dir>` around a run in another language or direction; children only when it
    /// repeats what is inherited.
    pub(super) fn lang_span(
        &mut self,
        lang: Option<&str>,
        dir: Option<Direction>,
        children: &'a [crate::ast::Inline],
    ) {
        let differs = lang.is_some_and(|l| l != &*self.inherited.lang)
            || dir.is_some_and(|d| d != self.inherited.dir);
        if !differs {
            return self.inlines(children);
        }
        self.out.push_str("<span");
        let dir = dir.unwrap_or(self.inherited.dir);
        let before = self.lang_dir(lang, dir);
        self.out.push('>');
        self.inlines(children);
        self.out.push_str("</span>");
        self.restore(before);
    }
}
