//! Stage one: relationship parts (`_rels/*.rels`, ECMA-376 Part 2 §9.3): which part or URL an
//! `r:id` names. Targets of internal relationships are resolved to zip part names (no leading `/`)
//! relative to the source part, with `.`/`..` segments and `%xx` escapes undone.

use std::collections::HashMap;
use std::sync::Arc;

use quick_xml::events::Event;

use super::xmlutil::attr_string;
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::{LocalName, XmlReader};

/// One relationship.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relationship {
    /// `Id` (`rId7`).
    pub id: String,
    /// The relationship type URI (transitional `http://schemas.openxmlformats.org/…` or Strict
    /// `http://purl.oclc.org/ooxml/…`).
    pub rel_type: String,
    /// For internal targets the resolved part name (`word/media/image1.png`); for external ones
    /// the target as written (a URL or a file path). Shared: every element that names the
    /// relationship holds it, and a file can name one long target many times.
    pub target: Arc<str>,
    /// `TargetMode="External"`.
    pub external: bool,
}

impl Relationship {
    /// Whether the type's last segment is `short` (`image`, `hyperlink`, `officeDocument`…), so
    /// transitional and Strict URIs match alike.
    pub fn is(&self, short: &str) -> bool {
        type_is(&self.rel_type, short)
    }
}

/// Whether relationship type URI `rel_type` ends in the segment `short`.
pub fn type_is(rel_type: &str, short: &str) -> bool {
    rel_type.rsplit('/').next() == Some(short)
}

/// The relationships of one part.
#[derive(Debug, Clone, Default)]
pub struct Relationships {
    list: Vec<Relationship>,
    by_id: HashMap<String, usize>,
}

impl Relationships {
    /// Parses a `.rels` part whose source part lives in folder `source_dir` (`word`, or `` for the
    /// package root).
    pub fn parse(text: &str, rels_part: &str, source_dir: &str, limits: &Limits) -> Result<Self> {
        let mut r = XmlReader::new(text, rels_part, limits);
        let mut rels = Relationships::default();
        loop {
            match r.next_event()? {
                Event::Start(e) | Event::Empty(e) if e.local() == "Relationship" => {
                    let (Some(id), Some(target)) =
                        (attr_string(&e, "Id"), attr_string(&e, "Target"))
                    else {
                        continue;
                    };
                    let rel_type = attr_string(&e, "Type").unwrap_or_default();
                    let external = attr_string(&e, "TargetMode")
                        .is_some_and(|m| m.eq_ignore_ascii_case("external"));
                    let target = if external {
                        target.into()
                    } else {
                        resolve_target(source_dir, &target).into()
                    };
                    rels.push(Relationship {
                        id,
                        rel_type,
                        target,
                        external,
                    });
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(rels)
    }

    fn push(&mut self, rel: Relationship) {
        // The first of duplicate ids wins, as in Word.
        if !self.by_id.contains_key(&rel.id) {
            self.by_id.insert(rel.id.clone(), self.list.len());
        }
        self.list.push(rel);
    }

    /// The relationship called `id`.
    pub fn get(&self, id: &str) -> Option<&Relationship> {
        self.by_id.get(id).and_then(|&i| self.list.get(i))
    }

    /// The first relationship of type `short` (see [`Relationship::is`]).
    pub fn first_of_type(&self, short: &str) -> Option<&Relationship> {
        self.list.iter().find(|r| r.is(short))
    }

    /// Every relationship, in document order.
    pub fn iter(&self) -> impl Iterator<Item = &Relationship> {
        self.list.iter()
    }
}

/// The folder of a part name (`word/document.xml` → `word`).
pub fn part_dir(part: &str) -> &str {
    part.rfind('/').map_or("", |i| &part[..i])
}

/// The relationships part of `part` (`word/document.xml` → `word/_rels/document.xml.rels`).
pub fn rels_part_of(part: &str) -> String {
    match part.rfind('/') {
        Some(i) => format!("{}/_rels/{}.rels", &part[..i], &part[i + 1..]),
        None => format!("_rels/{part}.rels"),
    }
}

/// Resolves an internal target against the source part's folder: `/x` is package-absolute, `..`
/// climbs (never above the root), `%20` and friends are decoded.
pub fn resolve_target(source_dir: &str, target: &str) -> String {
    let target = percent_decode(target);
    let mut segments: Vec<&str> = Vec::new();
    let joined;
    let path = if let Some(abs) = target.strip_prefix('/') {
        abs
    } else {
        joined = format!("{source_dir}/{target}");
        &joined
    };
    for seg in path.split(['/', '\\']) {
        match seg {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            s => segments.push(s),
        }
    }
    segments.join("/")
}

fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(b) = hex {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_absolute_and_escaped_targets() {
        assert_eq!(
            resolve_target("word", "media/image1.png"),
            "word/media/image1.png"
        );
        assert_eq!(
            resolve_target("word", "/word/document2.xml"),
            "word/document2.xml"
        );
        assert_eq!(
            resolve_target("word", "../customXml/item1.xml"),
            "customXml/item1.xml"
        );
        assert_eq!(resolve_target("", "word/document.xml"), "word/document.xml");
        assert_eq!(resolve_target("word", "../../../../x"), "x");
        assert_eq!(
            resolve_target("word", "media/a%20b.png"),
            "word/media/a b.png"
        );
        assert_eq!(
            rels_part_of("word/document.xml"),
            "word/_rels/document.xml.rels"
        );
        assert_eq!(part_dir("word/document.xml"), "word");
    }

    #[test]
    fn parses_relationships() {
        let xml = r#"<Relationships xmlns="x"><Relationship Id="rId1" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/image" Target="media/i.png"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://e.org/?a=1&amp;b=2" TargetMode="External"/></Relationships>"#;
        let rels = Relationships::parse(
            xml,
            "word/_rels/document.xml.rels",
            "word",
            &Limits::default(),
        )
        .unwrap();
        let img = rels.get("rId1").unwrap();
        assert!(img.is("image") && !img.external);
        assert_eq!(&*img.target, "word/media/i.png");
        let link = rels.get("rId2").unwrap();
        assert!(link.external && link.is("hyperlink"));
        assert_eq!(&*link.target, "https://e.org/?a=1&b=2");
    }
}
