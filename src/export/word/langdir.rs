//! Languages and directions in Word: `w:bidi` on right-to-left paragraphs, `w:bidiVisual` on
//! right-to-left tables, `w:rtl` and `w:lang` on runs; the document's language (and
//! `dc:language`) and direction in the styles' `w:docDefaults` are [`super::lang_defaults`]'s,
//! `w:autoHyphenation` in the settings `assemble`'s.
//!
//! A language goes in the `w:lang` attribute Word will read it from for the run's text
//! ([`crate::lang_tag::Slot`]): the complex-script one for a right-to-left run, else the one of
//! the script of most of its letters, else the language's own. Our reader picks the same way,
//! so what is written comes back. A run with letters says its language wherever the styles'
//! default for that slot is another one: the document's language is not in every slot.

use std::fmt::Write;

use crate::ast::inline::Mark;
use crate::ast::{Direction, Inline, Paragraph, Table};
use crate::lang_tag::{Slot, SlotCounts, is_rtl_char, slot_of_char, slot_of_language};

use super::lang_defaults::doc_dir;
use super::writer::{LangContext, Writer};

/// Whether `content` holds a run in a language of its own.
fn has_lang_runs(content: &[Inline]) -> bool {
    content.iter().any(|i| match i {
        Inline::Lang { lang: Some(_), .. } => true,
        Inline::Note { content, .. } => has_lang_runs(content),
        other => other.children().is_some_and(has_lang_runs),
    })
}

/// Whether `content` has letters the reader counts for a paragraph's language (its
/// `count_chars`): those of text, not of notes, ruby or formulas. A paragraph without such
/// letters is counted by its mark's language instead, so the mark must say it even when the
/// paragraph shows letters of those other kinds.
fn has_counted_letters(content: &[Inline]) -> bool {
    content.iter().any(|i| match i {
        Inline::Text { text } => text.chars().any(|c| slot_of_char(c).is_some()),
        Inline::Note { .. } => false,
        other => other.children().is_some_and(has_counted_letters),
    })
}

impl Writer<'_> {
    /// The context of a paragraph's runs; also the context its notes are written in.
    pub(crate) fn paragraph_lang_context(&self, p: &Paragraph) -> LangContext {
        LangContext {
            lang: p.lang.clone(),
            rtl: p.dir.unwrap_or_else(|| doc_dir(self.doc)) == Direction::Rtl,
            mixed: has_lang_runs(&p.content),
        }
    }

    /// The context of text outside paragraphs (comments): the document's.
    pub(crate) fn document_lang_context(&self) -> LangContext {
        LangContext {
            lang: None,
            rtl: doc_dir(self.doc) == Direction::Rtl,
            mixed: false,
        }
    }

    /// `w:bidi` for a paragraph's `w:pPr`: on when it is right to left, off explicitly when it
    /// is left to right in a right-to-left document (whose defaults say `w:bidi`).
    pub(crate) fn push_paragraph_bidi(&self, ppr: &mut String, p: &Paragraph) {
        match (
            p.dir.unwrap_or_else(|| doc_dir(self.doc)),
            doc_dir(self.doc),
        ) {
            (Direction::Rtl, _) => ppr.push_str("<w:bidi/>"),
            (Direction::Ltr, Direction::Rtl) => ppr.push_str(r#"<w:bidi w:val="0"/>"#),
            (Direction::Ltr, Direction::Ltr) => {}
        }
    }

    /// The paragraph mark's `w:lang`, so a paragraph without text keeps its language; in a
    /// document whose paragraphs differ in language, a paragraph without letters in the
    /// document's says so too (the reader counts what marks say where there are no letters).
    pub(crate) fn paragraph_mark_lang(&self, p: &Paragraph) -> Option<String> {
        let lang = match p.lang.as_deref() {
            Some(l) => l,
            None if self.paragraph_langs && !has_counted_letters(&p.content) => {
                self.doc_lang.as_deref()?
            }
            None => return None,
        };
        Some(format!(
            r#"<w:lang {}="{lang}"/>"#,
            slot_of_language(lang).attribute()
        ))
    }

    /// `w:bidiVisual` for a table's `w:tblPr` (after `w:tblStyle`).
    pub(crate) fn table_bidi(&self, t: &Table) -> &'static str {
        match (
            t.dir.unwrap_or_else(|| doc_dir(self.doc)),
            doc_dir(self.doc),
        ) {
            (Direction::Rtl, _) => "<w:bidiVisual/>",
            (Direction::Ltr, Direction::Rtl) => r#"<w:bidiVisual w:val="0"/>"#,
            (Direction::Ltr, Direction::Ltr) => "",
        }
    }

    /// `w:rtl` and `w:lang` for a run of `text` under `marks`, in `w:rPr` order (they end it).
    pub(crate) fn push_run_lang(&self, rpr: &mut String, marks: &[Mark], text: &str) {
        let key = marks.iter().find_map(|m| match m {
            Mark::Lang(k) => Some(k),
            _ => None,
        });
        let dir = key.and_then(|k| k.dir);
        let ctx = &self.lang_context;
        // In a right-to-left paragraph its right-to-left letters are right-to-left runs (as
        // Word writes them); elsewhere only a run the tree says is.
        let rtl = if ctx.rtl {
            match dir {
                Some(Direction::Ltr) => {
                    rpr.push_str(r#"<w:rtl w:val="0"/>"#);
                    false
                }
                _ => text.chars().any(is_rtl_char),
            }
        } else {
            dir == Some(Direction::Rtl)
        };
        if rtl {
            rpr.push_str("<w:rtl/>");
        }
        let letters = SlotCounts::of(text);
        let lang = key.and_then(|k| k.lang.as_deref()).or(ctx.lang.as_deref());
        // A run with letters is read in the slot of its direction or script, where it inherits
        // the styles' default for that slot: its language is said wherever that default is not
        // it. The document's language is not in every slot (a right-to-left run in it is read
        // in the complex-script slot, the template's Arabic unless `doc_defaults` put it
        // there), so comparing with the document's language alone would lose such runs.
        let read_in = if rtl { Some(Slot::Complex) } else { letters };
        if let Some(slot) = read_in {
            let Some(lang) = lang.or(self.doc_lang.as_deref()) else {
                return;
            };
            if self.default_langs[slot as usize].as_deref() != Some(lang) {
                let _ = write!(rpr, r#"<w:lang {}="{lang}"/>"#, slot.attribute());
            }
            return;
        }
        let lang = match lang {
            Some(l) if self.doc_lang.as_deref() != Some(l) => l,
            // In the document's language: said only by a run without letters among runs of
            // other languages.
            _ => match self.doc_lang.as_deref() {
                Some(l) if ctx.mixed && letters.is_none() => l,
                _ => return,
            },
        };
        // Without letters the reader takes whichever language the run names (`w:val` first),
        // so the language's own slot serves.
        let slot = if rtl {
            Slot::Complex
        } else {
            slot_of_language(lang)
        };
        let _ = write!(rpr, r#"<w:lang {}="{lang}"/>"#, slot.attribute());
    }
}
