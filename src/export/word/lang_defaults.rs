//! The document's language and direction in the styles part's `w:docDefaults`: the language in
//! the `w:lang` slot of its script (and of every script its text is written in), the direction
//! as `w:pPrDefault/w:bidi`. [`super::writer::Writer::new`] reads the styles written here for
//! what a run inherits; `langdir` says on paragraphs and runs only what differs from them.
//!
//! Kept apart from `langdir` because the writer's state is built from these defaults, while
//! `langdir`'s steps are methods of that writer: one file holding both made the writer and
//! the language steps import each other.

use crate::ast::{Direction, Document, Inline};
use crate::lang_tag::{Slot, SlotCounts, is_rtl_char, normalize, same_language, slot_of_language};

/// The document's direction.
pub(crate) fn doc_dir(doc: &Document) -> Direction {
    doc.meta.direction.unwrap_or(Direction::Ltr)
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
/// right-to-left run, else the slot of most of a run's letters. See
/// [`super::writer::Writer::push_run_lang`].
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
