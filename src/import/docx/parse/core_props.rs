//! Stage one: `docProps/core.xml` (OPC core properties, ECMA-376 Part 2 §11): Dublin Core title,
//! subject, description, creator, language, and `cp:keywords`.

use quick_xml::events::Event;

use super::xmlutil::element_text;
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::{LocalName, XmlReader};

/// The core properties the tree keeps; empty values are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CoreProps {
    /// `dc:title`.
    pub title: Option<String>,
    /// `dc:subject`.
    pub subject: Option<String>,
    /// `dc:description`.
    pub description: Option<String>,
    /// `dc:creator`.
    pub creator: Option<String>,
    /// `cp:keywords`, split on `,` and `;`.
    pub keywords: Vec<String>,
    /// `dc:language`.
    pub language: Option<String>,
}

/// Parses a core properties part.
pub fn parse(text: &str, part: &str, limits: &Limits) -> Result<CoreProps> {
    let mut r = XmlReader::new(text, part, limits);
    let mut p = CoreProps::default();
    loop {
        match r.next_event()? {
            Event::Start(e) if r.depth() == 2 => {
                let name = e.local().to_string();
                let text = element_text(&mut r)?;
                // Kept as written (our writer's values come back exactly); blank means absent.
                let value = Some(text.clone()).filter(|t| !t.trim().is_empty());
                match name.as_str() {
                    "title" => p.title = value,
                    "subject" => p.subject = value,
                    "description" => p.description = value,
                    "creator" => p.creator = value,
                    "language" => p.language = value,
                    "keywords" => {
                        p.keywords = text
                            .split([',', ';'])
                            .map(str::trim)
                            .filter(|k| !k.is_empty())
                            .map(str::to_string)
                            .collect();
                    }
                    _ => {}
                }
            }
            Event::Eof => return Ok(p),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_dublin_core() {
        let xml = r#"<cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:title> T </dc:title><dc:subject/><dc:creator>  </dc:creator><cp:keywords>a, b;c</cp:keywords><dc:language>de-DE</dc:language></cp:coreProperties>"#;
        let p = parse(xml, "docProps/core.xml", &Limits::default()).unwrap();
        // Kept as written, like the sd.xml reader does (a round trip gives the same value).
        assert_eq!(p.title.as_deref(), Some(" T "));
        assert_eq!(p.subject, None);
        assert_eq!(p.creator, None, "blank is absent");
        assert_eq!(p.keywords, ["a", "b", "c"]);
        assert_eq!(p.language.as_deref(), Some("de-DE"));
    }
}
