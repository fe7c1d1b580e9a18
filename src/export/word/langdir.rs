//! Languages and directions in Word: the document's language in the styles' `w:docDefaults`
//! (and `dc:language`), its direction there as `w:pPrDefault/w:bidi`; `w:bidi` on right-to-left
//! paragraphs, `w:bidiVisual` on right-to-left tables, `w:rtl` and `w:lang` on runs; and
//! `w:autoHyphenation` in the settings.
//!
//! A language goes in the `w:lang` attribute Word will read it from for the run's text
//! ([`crate::lang_tag::Slot`]): the complex-script one for a right-to-left run, else the one of
//! the script of most of its letters, else the language's own. Our reader picks the same way,
//! so what is written comes back. A run with letters says its language wherever the styles'
//! default for that slot is another one: the document's language is not in every slot.

use std::fmt::Write;

use crate::ast::inline::Mark;
use crate::ast::{Direction, Document, Inline, Paragraph, Table};
use crate::lang_tag::{
    Slot, SlotCounts, is_rtl_char, normalize, same_language, slot_of_char, slot_of_language,
};

use super::document::Writer;

/// The language and direction the runs being written inherit from their paragraph.
#[derive(Debug, Clone, Default)]
pub(crate) struct LangContext {
    /// The paragraph's language where it differs from the document's.
    pub lang: Option<String>,
    /// The paragraph is right to left.
    pub rtl: bool,
    /// Some run of the paragraph is in another language: its runs without letters (digits,
    /// spaces, breaks) say their language, which no script tells the reader.
    pub mixed: bool,
}

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

/// The document's direction.
fn doc_dir(doc: &Document) -> Direction {
    doc.meta.direction.unwrap_or(Direction::Ltr)
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

/// The language each slot of `w:rPrDefault`'s `w:lang` in `styles` names, indexed by [`Slot`],
/// normalized as the reader normalizes it.
pub(crate) fn default_langs(styles: &str) -> [Option<String>; 3] {
    let element = section(styles, "<w:rPrDefault>", "</w:rPrDefault>").and_then(|r| {
        let defaults = &styles[r];
        let element = &defaults[defaults.find("<w:lang ")?..];
        Some(&element[..element.find("/>")?])
    });
    let get = |slot: Slot| {
        let element = element?;
        let needle = format!("{}=\"", slot.attribute());
        let value = &element[element.find(&needle)? + needle.len()..];
        normalize(&value[..value.find('"')?])
    };
    [get(Slot::Latin), get(Slot::EastAsian), get(Slot::Complex)]
}

/// The styles part with the document's language and direction in its `w:docDefaults`: the
/// template's `w:lang` gets the language in its slot (kept where the template already names the
/// same language, `en-US` for `en`), and `w:pPrDefault` says `w:bidi` for a right-to-left
/// document (off explicitly for a left-to-right one holding right-to-left paragraphs, so the
/// reader takes the document's direction from it, not from a count of paragraphs).
pub(crate) fn doc_defaults(styles: &str, doc: &Document) -> String {
    let mut out = styles.to_string();
    if let Some(lang) = doc_lang(styles, doc) {
        let own = slot_of_language(&lang);
        set_default_lang(&mut out, &lang, own);
        // Text in the document's language written in another script (Latin letters in an
        // Arabic document) is read in that script's slot: the language goes there too.
        for slot in doc_text_slots(doc).into_iter().filter(|s| *s != own) {
            set_default_lang(&mut out, &lang, slot);
        }
    }
    let any_rtl = || {
        let mut any = false;
        doc.walk_blocks(&mut |_, b| {
            any |= matches!(b, crate::ast::Block::Paragraph(p) if p.dir == Some(Direction::Rtl))
        });
        any
    };
    let bidi = match doc_dir(doc) {
        Direction::Rtl => Some("<w:bidi/>"),
        Direction::Ltr if any_rtl() => Some(r#"<w:bidi w:val="0"/>"#),
        Direction::Ltr => None,
    };
    if let Some(bidi) = bidi {
        set_default_bidi(&mut out, bidi);
    }
    out
}

/// The document's language as the styles will spell it: the template's own spelling when it
/// names the same language in that slot (`en-US` for `en`), so every slot and run says it
/// alike.
pub(crate) fn doc_lang(styles: &str, doc: &Document) -> Option<String> {
    let lang = doc.meta.lang_tag()?;
    let mut template = default_langs(styles);
    let template = template[slot_of_language(&lang) as usize].take();
    Some(template.filter(|t| same_language(t, &lang)).unwrap_or(lang))
}

/// The slots the reader will read text in the document's language from (paragraphs and runs
/// with no language of their own): the complex-script slot for what is written as a
/// right-to-left run, else the slot of most of a run's letters. See [`Writer::push_run_lang`].
fn doc_text_slots(doc: &Document) -> Vec<Slot> {
    fn add(content: &[Inline], para_rtl: bool, dir: Option<Direction>, slots: &mut Vec<Slot>) {
        for inline in content {
            match inline {
                Inline::Text { text } => {
                    let rtl = if para_rtl {
                        dir != Some(Direction::Ltr) && text.chars().any(is_rtl_char)
                    } else {
                        dir == Some(Direction::Rtl)
                    };
                    let slot = if rtl {
                        Some(Slot::Complex)
                    } else {
                        SlotCounts::of(text)
                    };
                    if let Some(slot) = slot.filter(|s| !slots.contains(s)) {
                        slots.push(slot);
                    }
                }
                Inline::Lang { lang: Some(_), .. } => {}
                Inline::Lang {
                    dir: inner,
                    children,
                    ..
                } => add(children, para_rtl, inner.or(dir), slots),
                Inline::Note { content, .. } => add(content, para_rtl, dir, slots),
                other => add(other.children().unwrap_or_default(), para_rtl, dir, slots),
            }
        }
    }
    let mut slots = Vec::new();
    let doc_rtl = doc_dir(doc) == Direction::Rtl;
    // Text the writer makes paragraphs of without runs of its own: the title and subtitle,
    // captions, and the directories' titles (in the settings' language, Latin or Cyrillic).
    let plain = |text: &str, slots: &mut Vec<Slot>| {
        if let Some(slot) = SlotCounts::of(text).filter(|s| !slots.contains(s)) {
            slots.push(slot);
        }
    };
    for text in [&doc.meta.title, &doc.meta.subtitle].into_iter().flatten() {
        plain(text, &mut slots);
    }
    doc.walk_blocks(&mut |_, b| match b {
        crate::ast::Block::Paragraph(p) if p.lang.is_none() => {
            let rtl = p.dir.map_or(doc_rtl, |d| d == Direction::Rtl);
            add(&p.content, rtl, None, &mut slots);
        }
        crate::ast::Block::Image(i) => plain(i.caption.as_deref().unwrap_or_default(), &mut slots),
        crate::ast::Block::Table(t) => plain(t.caption.as_deref().unwrap_or_default(), &mut slots),
        // A directory's title is in the settings' language, whose script (Latin or Cyrillic)
        // is read in the Latin slot whichever of the four it is.
        crate::ast::Block::Directory { .. } if !slots.contains(&Slot::Latin) => {
            slots.push(Slot::Latin)
        }
        _ => {}
    });
    for c in &doc.comments {
        add(&c.content, doc_rtl, None, &mut slots);
    }
    slots
}

/// Sets `lang` in `slot` of the `w:lang` inside `w:rPrDefault`, adding one if there is none.
fn set_default_lang(styles: &mut String, lang: &str, slot: Slot) {
    let attribute = slot.attribute();
    let Some(defaults) = section(styles, "<w:rPrDefault>", "</w:rPrDefault>") else {
        return insert_defaults(
            styles,
            &format!(
                r#"<w:rPrDefault><w:rPr><w:lang {attribute}="{lang}"/></w:rPr></w:rPrDefault>"#
            ),
        );
    };
    let Some(at) = styles[defaults.clone()]
        .find("<w:lang ")
        .map(|i| i + defaults.start)
    else {
        if let Some(end) = styles[defaults.clone()]
            .find("</w:rPr>")
            .map(|i| i + defaults.start)
        {
            styles.insert_str(end, &format!(r#"<w:lang {attribute}="{lang}"/>"#));
        }
        return;
    };
    let Some(end) = styles[at..].find("/>").map(|i| i + at) else {
        return;
    };
    let element = &styles[at..end];
    let needle = format!("{attribute}=\"");
    match element.find(&needle) {
        Some(v) => {
            let value_at = at + v + needle.len();
            let Some(len) = styles[value_at..].find('"') else {
                return;
            };
            if !same_language(&styles[value_at..value_at + len], lang) {
                styles.replace_range(value_at..value_at + len, lang);
            }
        }
        None => styles.insert_str(end, &format!(r#" {attribute}="{lang}""#)),
    }
}

/// Puts `bidi` first in the `w:pPr` of `w:pPrDefault` (`w:bidi` comes before spacing and
/// indentation in CT_PPrBase; the template's defaults hold nothing before it).
fn set_default_bidi(styles: &mut String, bidi: &str) {
    match section(styles, "<w:pPrDefault>", "</w:pPrDefault>") {
        Some(defaults) => {
            if let Some(at) = styles[defaults.clone()]
                .find("<w:pPr>")
                .map(|i| i + defaults.start + "<w:pPr>".len())
            {
                styles.insert_str(at, bidi);
            } else if let Some(at) = styles[defaults.clone()]
                .find("<w:pPr/>")
                .map(|i| i + defaults.start)
            {
                styles.replace_range(at..at + "<w:pPr/>".len(), &format!("<w:pPr>{bidi}</w:pPr>"));
            }
        }
        None => {
            // CT_DocDefaults: rPrDefault, then pPrDefault.
            let xml = format!("<w:pPrDefault><w:pPr>{bidi}</w:pPr></w:pPrDefault>");
            match styles.find("</w:docDefaults>") {
                Some(at) => styles.insert_str(at, &xml),
                None => insert_defaults(styles, &xml),
            }
        }
    }
}

/// The byte range from `open` to the end of `close`, the first such.
fn section(s: &str, open: &str, close: &str) -> Option<std::ops::Range<usize>> {
    let start = s.find(open)?;
    let end = s[start..].find(close)? + start + close.len();
    Some(start..end)
}

/// Adds `w:docDefaults` holding `xml` as the first child of `w:styles`.
fn insert_defaults(styles: &mut String, xml: &str) {
    let Some(open) = styles.find("<w:styles") else {
        return;
    };
    let Some(end) = styles[open..].find('>').map(|i| i + open + 1) else {
        return;
    };
    styles.insert_str(end, &format!("<w:docDefaults>{xml}</w:docDefaults>"));
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = r#"<w:styles><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/><w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault></w:docDefaults></w:styles>"#;

    #[test]
    fn the_document_language_goes_in_its_slot() {
        let mut s = TEMPLATE.to_string();
        set_default_lang(&mut s, "en", Slot::Latin);
        assert_eq!(s, TEMPLATE, "the template already names English");
        set_default_lang(&mut s, "he-IL", Slot::Complex);
        assert!(s.contains(r#"<w:lang w:val="en-US" w:eastAsia="en-US" w:bidi="he-IL"/>"#));
        set_default_lang(&mut s, "ja-JP", Slot::EastAsian);
        assert!(s.contains(r#"w:eastAsia="ja-JP""#));
        let mut bare = "<w:styles></w:styles>".to_string();
        set_default_lang(&mut bare, "de-DE", Slot::Latin);
        assert_eq!(
            bare,
            r#"<w:styles><w:docDefaults><w:rPrDefault><w:rPr><w:lang w:val="de-DE"/></w:rPr></w:rPrDefault></w:docDefaults></w:styles>"#
        );
    }

    #[test]
    fn the_document_direction_goes_in_the_paragraph_defaults() {
        let mut s = TEMPLATE.to_string();
        set_default_bidi(&mut s, "<w:bidi/>");
        assert!(
            s.contains(r#"<w:pPrDefault><w:pPr><w:bidi/><w:spacing"#),
            "{s}"
        );
        let mut s =
            r#"<w:styles><w:docDefaults><w:rPrDefault/></w:docDefaults></w:styles>"#.to_string();
        set_default_bidi(&mut s, "<w:bidi/>");
        assert!(s.contains(r#"<w:rPrDefault/><w:pPrDefault><w:pPr><w:bidi/></w:pPr></w:pPrDefault></w:docDefaults>"#), "{s}");
    }
}
