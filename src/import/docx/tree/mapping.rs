//! Stage two's decision for each paragraph: which [`TextType`] and level it gets.
//!
//! The seam is one function, [`map_paragraph`]: from what a paragraph is in Word
//! ([`ParagraphFacts`]: its style and `basedOn` ancestors, resolved numbering, outline level,
//! text) to a [`Mapped`] text type and level. The order follows the API:
//! 1. the caller's `styleMapping` (exact style name, then case-insensitive, then style id);
//!    a mapping to `paragraph` still lets numbering make the paragraph a list item;
//! 2. built-in styles by their English name, whatever the UI language: `heading 1`-`heading 6`
//!    → `heading` level N-1 (also recognised by localised style ids), `caption` → `caption`;
//! 3. an outline level → `heading`;
//! 4. numbering: numbered headings → `heading-ol`, bullets → `list-ul`, legal-style compound
//!    numbers (`1.2.`) → `paragraph-ol`, other numbers → `list-ol`;
//! 5. otherwise `paragraph`.
//!
//! Magic style sets (a later issue) plug in as another mapper consulted before step 1 with the
//! same facts; nothing else in the reader needs to change.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::ast::{MAX_LEVEL, NumberFormat, TextType};
use crate::error::{Error, Result};
use crate::import::docx::parse::styles::{
    heading_number_from_id, heading_number_from_name, is_caption,
};

/// One entry of the API's `styleMapping`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MappingEntry {
    /// The `textType`.
    pub text_type: TextType,
    /// The `level`, 0..=5.
    pub level: u8,
}

/// The API's `styleMapping`: Word paragraph style name → `{textType, level}`. Always valid:
/// every way to build one checks its entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StyleMapping {
    entries: BTreeMap<String, MappingEntry>,
}

fn entry_name(style: &str) -> String {
    format!("styleMapping[{style:?}]")
}

impl StyleMapping {
    /// An empty mapping.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses the API's JSON object, e.g.
    /// `{"Title": {"textType": "heading", "level": 0}, "Quote": {"textType": "paragraph"}}`.
    /// A missing `level` is 0. Errors are [`Error::Parameter`] naming the entry.
    pub fn from_json(json: &str) -> Result<Self> {
        let value: Value = serde_json::from_str(json)
            .map_err(|e| Error::parameter("styleMapping", format!("is not valid JSON: {e}")))?;
        Self::from_value(&value)
    }

    /// Builds a mapping from an already parsed JSON value (see [`StyleMapping::from_json`]).
    pub fn from_value(value: &Value) -> Result<Self> {
        let Value::Object(map) = value else {
            return Err(Error::parameter(
                "styleMapping",
                "must be a JSON object mapping Word style names to {textType, level}",
            ));
        };
        let mut out = StyleMapping::new();
        for (style, entry) in map {
            let Value::Object(fields) = entry else {
                return Err(Error::parameter(
                    entry_name(style),
                    "must be an object {\"textType\": …, \"level\": …}",
                ));
            };
            let text_type = match fields.get("textType") {
                Some(Value::String(t)) => TextType::parse(t).ok_or_else(|| {
                    Error::parameter(
                        format!("{}.textType", entry_name(style)),
                        format!("unknown textType {t:?}; expected one of {}", all_types()),
                    )
                })?,
                Some(other) => {
                    return Err(Error::parameter(
                        format!("{}.textType", entry_name(style)),
                        format!("must be a string, not {other}"),
                    ));
                }
                None => {
                    return Err(Error::parameter(
                        format!("{}.textType", entry_name(style)),
                        format!("is missing; expected one of {}", all_types()),
                    ));
                }
            };
            let level = match fields.get("level") {
                None | Some(Value::Null) => 0,
                Some(Value::Number(n)) => match n.as_i64() {
                    Some(l) if (0..=i64::from(MAX_LEVEL)).contains(&l) => l as u8,
                    _ => {
                        return Err(Error::parameter(
                            format!("{}.level", entry_name(style)),
                            format!("{n} is out of range: an integer 0 to {MAX_LEVEL}"),
                        ));
                    }
                },
                Some(other) => {
                    return Err(Error::parameter(
                        format!("{}.level", entry_name(style)),
                        format!("must be an integer 0 to {MAX_LEVEL}, not {other}"),
                    ));
                }
            };
            out.insert(style.clone(), text_type, level)?;
        }
        Ok(out)
    }

    /// Adds an entry. The style name must not be empty and `level` must be 0..=5.
    pub fn insert(
        &mut self,
        style: impl Into<String>,
        text_type: TextType,
        level: u8,
    ) -> Result<()> {
        let style = style.into();
        if style.trim().is_empty() {
            return Err(Error::parameter(
                entry_name(&style),
                "the style name is empty",
            ));
        }
        if level > MAX_LEVEL {
            return Err(Error::parameter(
                format!("{}.level", entry_name(&style)),
                format!("{level} is out of range: an integer 0 to {MAX_LEVEL}"),
            ));
        }
        self.entries
            .insert(style, MappingEntry { text_type, level });
        Ok(())
    }

    /// The entry for `style`: exact name first, then ignoring case (Word shows `Heading 1` for
    /// the style stored as `heading 1`).
    pub fn get(&self, style: &str) -> Option<MappingEntry> {
        if let Some(e) = self.entries.get(style) {
            return Some(*e);
        }
        self.entries
            .iter()
            .find(|(k, _)| k.to_lowercase() == style.to_lowercase())
            .map(|(_, e)| *e)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, MappingEntry)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), *v))
    }
}

fn all_types() -> String {
    TextType::ALL
        .iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A style in a paragraph's chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StyleInfo<'a> {
    /// `w:styleId`.
    pub id: &'a str,
    /// `w:name`, when the style is defined.
    pub name: Option<&'a str>,
    /// What [`builtin_kind`] says of it, worked out once: the reader builds a style's chain
    /// once and asks this for every paragraph, several times (a tenth of the reader's time on
    /// large.docx when it compared the localised names each time).
    builtin: Option<(TextType, u8)>,
}

impl<'a> StyleInfo<'a> {
    /// A style by id and, when defined, name.
    pub fn new(id: &'a str, name: Option<&'a str>) -> Self {
        StyleInfo {
            id,
            name,
            builtin: builtin_kind_of(id, name),
        }
    }
}

/// A paragraph's numbering, resolved through `numbering.xml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberingFacts {
    /// `w:numId`.
    pub num_id: String,
    /// `w:ilvl`, 0..=8.
    pub ilvl: u8,
    /// The level's number format.
    pub format: NumberFormat,
    /// The level text shows several levels' numbers (`%1.%2.`).
    pub compound: bool,
    /// The definition numbers the outline (its levels are tied to heading styles).
    pub outline: bool,
}

/// What stage two knows about a paragraph when it decides its type.
#[derive(Debug, Clone, Copy)]
pub struct ParagraphFacts<'a> {
    /// The paragraph's style first, then its `basedOn` ancestors; empty without a style.
    pub styles: &'a [StyleInfo<'a>],
    /// Numbering, when the paragraph is numbered (not `numId` 0, a known definition).
    pub numbering: Option<&'a NumberingFacts>,
    /// `w:outlineLvl` from the paragraph or its styles, 0..=8.
    pub outline_level: Option<u8>,
    /// The paragraph's plain text (for mappers that look at typed numbers).
    pub text: &'a str,
}

/// Why a paragraph got its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The caller's `styleMapping`.
    Mapping,
    /// A built-in style (heading N, caption).
    BuiltIn,
    /// An outline level.
    OutlineLevel,
    /// Word numbering alone.
    Numbering,
    /// Nothing recognised it: a plain paragraph.
    Default,
}

/// A paragraph's type and level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapped {
    /// The text type.
    pub kind: TextType,
    /// The level, 0..=5.
    pub level: u8,
    /// What decided it.
    pub basis: Basis,
}

/// Decides a paragraph's text type and level (see the module documentation for the order).
pub fn map_paragraph(mapping: &StyleMapping, facts: &ParagraphFacts<'_>) -> Mapped {
    let numbered = facts.numbering.filter(|n| n.format != NumberFormat::None);
    if let Some(own) = facts.styles.first() {
        let entry = own
            .name
            .and_then(|n| mapping.get(n))
            .or_else(|| mapping.get(own.id));
        if let Some(e) = entry {
            if e.text_type == TextType::Paragraph {
                if let Some(n) = numbered {
                    return Mapped {
                        basis: Basis::Mapping,
                        ..by_numbering(n)
                    };
                }
            }
            return Mapped {
                kind: e.text_type,
                level: e.level,
                basis: Basis::Mapping,
            };
        }
    }
    // Word bases "TOC Heading" on "heading 1", but it titles the generated contents and is
    // no heading of the text.
    if facts
        .styles
        .first()
        .and_then(|s| s.name)
        .is_some_and(|n| n.eq_ignore_ascii_case("toc heading"))
    {
        return Mapped {
            kind: TextType::Paragraph,
            level: 0,
            basis: Basis::BuiltIn,
        };
    }
    let builtin = facts.styles.iter().find_map(builtin_kind);
    let (kind, level, basis) = match builtin {
        Some((kind, level)) => (kind, level, Basis::BuiltIn),
        None => match facts.outline_level.filter(|l| *l <= 8) {
            Some(l) => (TextType::Heading, l.min(MAX_LEVEL), Basis::OutlineLevel),
            None => (TextType::Paragraph, 0, Basis::Default),
        },
    };
    match (kind, numbered) {
        (TextType::Heading, Some(n)) if n.format != NumberFormat::Bullet => Mapped {
            kind: TextType::HeadingOl,
            level,
            basis,
        },
        (TextType::Paragraph, Some(n)) => by_numbering(n),
        // A list item whose level shows no number (`numFmt none`) in Word's list style: still
        // an item of its list (`list-ol` with number format `none`), not a paragraph.
        (TextType::Paragraph, None)
            if facts.styles.first().is_some_and(is_list_paragraph)
                && facts
                    .numbering
                    .is_some_and(|n| n.format == NumberFormat::None) =>
        {
            facts
                .numbering
                .map(by_numbering)
                .unwrap_or(Mapped { kind, level, basis })
        }
        _ => Mapped { kind, level, basis },
    }
}

/// Word's `List Paragraph`, by name, or by id when the style is not defined.
fn is_list_paragraph(s: &StyleInfo<'_>) -> bool {
    s.name
        .is_some_and(|n| n.eq_ignore_ascii_case("list paragraph"))
        || (s.name.is_none() && s.id.eq_ignore_ascii_case("listparagraph"))
}

/// The text type and level a built-in style names by itself (`heading N`, `caption`, also
/// recognised by localised ids), if it is one.
pub fn builtin_kind(s: &StyleInfo<'_>) -> Option<(TextType, u8)> {
    s.builtin
}

fn builtin_kind_of(id: &str, name: Option<&str>) -> Option<(TextType, u8)> {
    if is_caption(id, name) {
        return Some((TextType::Caption, 0));
    }
    let n = name
        .and_then(heading_number_from_name)
        .or_else(|| heading_number_from_id(id))?;
    Some((TextType::Heading, (n - 1).min(MAX_LEVEL)))
}

/// Whether a paragraph's own style says nothing its text type does not already say, so the
/// tree need not record it: the built-in style the mapping read the type from (`heading 2` of a
/// heading, `caption` of a caption), or Word's `List Paragraph` on a list item (Word gives it
/// to every item it numbers). A custom style stays, even one based on a built-in.
pub fn style_is_implied(facts: &ParagraphFacts<'_>, mapped: &Mapped) -> bool {
    let Some(own) = facts.styles.first() else {
        return false;
    };
    match mapped.basis {
        Basis::BuiltIn => builtin_kind(own).is_some(),
        Basis::Numbering => mapped.kind.is_list() && is_list_paragraph(own),
        _ => false,
    }
}

fn by_numbering(n: &NumberingFacts) -> Mapped {
    let kind = if n.format == NumberFormat::Bullet {
        TextType::ListUl
    } else if n.compound || n.outline {
        TextType::ParagraphOl
    } else {
        TextType::ListOl
    };
    Mapped {
        kind,
        level: n.ilvl.min(MAX_LEVEL),
        basis: Basis::Numbering,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(
        styles: &'a [StyleInfo<'a>],
        numbering: Option<&'a NumberingFacts>,
    ) -> ParagraphFacts<'a> {
        ParagraphFacts {
            styles,
            numbering,
            outline_level: None,
            text: "",
        }
    }

    #[test]
    fn json_errors_name_the_entry() {
        let err =
            StyleMapping::from_json(r#"{"Title": {"textType": "title", "level": 0}}"#).unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::Parameter);
        assert!(
            err.to_string()
                .contains(r#"styleMapping["Title"].textType"#),
            "{err}"
        );
        let err = StyleMapping::from_json(r#"{"Quote": {"textType": "heading", "level": 6}}"#)
            .unwrap_err();
        assert!(
            err.to_string().contains(r#"styleMapping["Quote"].level"#),
            "{err}"
        );
        assert!(StyleMapping::from_json("[]").is_err());
        assert!(StyleMapping::from_json("{").is_err());
        let ok = StyleMapping::from_json(
            r#"{"Quote": {"textType": "heading-ol", "level": 2}, "X": {"textType": "caption"}}"#,
        )
        .unwrap();
        assert_eq!(
            ok.get("quote").map(|e| (e.text_type, e.level)),
            Some((TextType::HeadingOl, 2))
        );
        assert_eq!(ok.get("X").map(|e| e.level), Some(0));
    }

    #[test]
    fn mapping_then_builtins_then_numbering() {
        let mut m = StyleMapping::new();
        m.insert("My Title", TextType::Heading, 0).unwrap();
        m.insert("Body List", TextType::Paragraph, 0).unwrap();
        let own = [StyleInfo::new("MyTitle", Some("My Title"))];
        assert_eq!(
            map_paragraph(&m, &facts(&own, None)).kind,
            TextType::Heading
        );
        let h = [StyleInfo::new("berschrift2", Some("heading 2"))];
        let r = map_paragraph(&m, &facts(&h, None));
        assert_eq!(
            (r.kind, r.level, r.basis),
            (TextType::Heading, 1, Basis::BuiltIn)
        );
        let localised = [StyleInfo::new("Titre3", Some("Titre 3"))];
        assert_eq!(map_paragraph(&m, &facts(&localised, None)).level, 2);
        let num = NumberingFacts {
            num_id: "1".into(),
            ilvl: 1,
            format: NumberFormat::Decimal,
            compound: false,
            outline: false,
        };
        assert_eq!(
            map_paragraph(&m, &facts(&h, Some(&num))).kind,
            TextType::HeadingOl
        );
        let body = [StyleInfo::new("BodyList", Some("Body List"))];
        let r = map_paragraph(&m, &facts(&body, Some(&num)));
        assert_eq!((r.kind, r.level), (TextType::ListOl, 1));
        let bullet = NumberingFacts {
            format: NumberFormat::Bullet,
            ..num.clone()
        };
        assert_eq!(
            map_paragraph(&m, &facts(&[], Some(&bullet))).kind,
            TextType::ListUl
        );
        let legal = NumberingFacts {
            compound: true,
            ..num
        };
        assert_eq!(
            map_paragraph(&m, &facts(&[], Some(&legal))).kind,
            TextType::ParagraphOl
        );
        let mut f = facts(&[], None);
        f.outline_level = Some(7);
        let r = map_paragraph(&m, &f);
        assert_eq!((r.kind, r.level), (TextType::Heading, 5));
        assert_eq!(map_paragraph(&m, &facts(&[], None)).basis, Basis::Default);
    }
}
