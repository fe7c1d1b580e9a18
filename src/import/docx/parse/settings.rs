//! Stage one: the settings part (`word/settings.xml`, ECMA-376 §17.15.1) as far as the tree
//! needs it: even pages' headers, automatic hyphenation, and the theme's font languages (the
//! languages text takes when no style or run names one).

use quick_xml::events::Event;

use super::props::LangSlots;
use super::xmlutil::on_off;
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::{LocalName, XmlReader};

/// What the settings part says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Settings {
    /// `w:evenAndOddHeaders`: even pages have their own headers and footers.
    pub even_and_odd: bool,
    /// `w:autoHyphenation`.
    pub auto_hyphenation: bool,
    /// `w:themeFontLang`: the languages of the theme's fonts, below the document defaults.
    pub theme_lang: LangSlots,
}

impl Settings {
    /// Parses the part's text. A broken part says what it said before the break (its other
    /// settings are not read); only an exceeded limit is an error.
    pub fn parse(text: &str, part: &str, limits: &Limits) -> Result<Settings> {
        let mut s = Settings::default();
        let mut r = XmlReader::new(text, part, limits);
        loop {
            match r.next_event() {
                Ok(Event::Start(e) | Event::Empty(e)) => match e.local() {
                    "evenAndOddHeaders" => s.even_and_odd = on_off(&e),
                    "autoHyphenation" => s.auto_hyphenation = on_off(&e),
                    "themeFontLang" => s.theme_lang = LangSlots::from_element(&e),
                    _ => {}
                },
                Ok(Event::Eof) => return Ok(s),
                Ok(_) => {}
                Err(e @ crate::Error::TooLarge { .. }) => return Err(e),
                Err(_) => return Ok(s),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_hyphenation_languages_and_even_pages() {
        let xml = r#"<w:settings xmlns:w="w"><w:autoHyphenation/><w:evenAndOddHeaders w:val="0"/><w:themeFontLang w:val="de-DE" w:eastAsia="ja-JP" w:bidi="ar-SA"/></w:settings>"#;
        let s = Settings::parse(xml, "word/settings.xml", &Limits::default()).unwrap();
        assert!(s.auto_hyphenation && !s.even_and_odd);
        assert_eq!(s.theme_lang.val.as_deref(), Some("de-DE"));
        assert_eq!(s.theme_lang.east_asia.as_deref(), Some("ja-JP"));
        assert_eq!(s.theme_lang.bidi.as_deref(), Some("ar-SA"));
        // Broken after the first setting: what came before stands.
        let s = Settings::parse(
            "<w:settings><w:autoHyphenation/><a></b>",
            "s",
            &Limits::default(),
        )
        .unwrap();
        assert!(s.auto_hyphenation);
    }
}
