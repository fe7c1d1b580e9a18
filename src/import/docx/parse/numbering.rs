//! Stage one: `word/numbering.xml` (ECMA-376 §17.9): abstract definitions with their nine levels,
//! concrete `w:num` instances with `w:lvlOverride` (`w:startOverride`, replacement `w:lvl`), and
//! `w:numStyleLink` indirection through numbering styles.

use std::collections::HashMap;

use foldhash::fast::RandomState as FastHash;

use quick_xml::events::{BytesStart, Event};

use super::props::NumPr;
use super::styles::Styles;
use super::xmlutil::{attr_string, val};
use crate::ast::NumberFormat;
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::{LocalName, XmlReader};

/// One level of a list definition (`w:lvl`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Level {
    /// `w:start` (ECMA: 0 when omitted).
    pub start: Option<u32>,
    /// `w:numFmt` as written (`decimal`, `bullet`, `lowerRoman`…).
    pub format: Option<String>,
    /// `w:lvlText` (`%1.%2.`).
    pub text: Option<String>,
    /// `w:lvlRestart`: restart after this (1-based) level; 0 = never restart.
    pub restart: Option<u32>,
    /// `w:pStyle`: the paragraph style tied to this level.
    pub pstyle: Option<String>,
}

impl Level {
    /// Lays `other` over `self`.
    fn overlay(&mut self, other: &Level) {
        if other.start.is_some() {
            self.start = other.start;
        }
        if other.format.is_some() {
            self.format.clone_from(&other.format);
        }
        if other.text.is_some() {
            self.text.clone_from(&other.text);
        }
        if other.restart.is_some() {
            self.restart = other.restart;
        }
        if other.pstyle.is_some() {
            self.pstyle.clone_from(&other.pstyle);
        }
    }

    /// The tree's number format for this level.
    pub fn number_format(&self) -> NumberFormat {
        match self.format.as_deref() {
            Some("bullet") => NumberFormat::Bullet,
            Some("none") => NumberFormat::None,
            Some("lowerLetter") => NumberFormat::LowerLetter,
            Some("upperLetter") => NumberFormat::UpperLetter,
            Some("lowerRoman") => NumberFormat::LowerRoman,
            Some("upperRoman") => NumberFormat::UpperRoman,
            // Every other scheme (decimalZero, ordinal, chineseCounting…) counts in numbers.
            _ => NumberFormat::Decimal,
        }
    }

    /// Whether the level text shows more than one level's number (`%1.%2`): legal-style
    /// numbering of headings and paragraphs rather than a simple list.
    pub fn is_compound(&self) -> bool {
        self.text
            .as_deref()
            .is_some_and(|t| t.matches('%').count() > 1)
    }
}

/// `w:abstractNum`.
#[derive(Debug, Clone, Default)]
pub struct AbstractNum {
    /// Levels 0..=8.
    pub levels: HashMap<u8, Level>,
    /// `w:numStyleLink`: the real definition is the one of this numbering style.
    pub num_style_link: Option<String>,
    /// `w:name`.
    pub name: Option<String>,
}

impl AbstractNum {
    /// Whether this definition numbers the outline (headings and the paragraphs numbered in
    /// their sequence): a level is tied to a heading style (how Word links heading numbering,
    /// ECMA-376 §17.9.23), or it is named `sdconv outline` (our writer's outline, whose headings
    /// carry their numbering directly).
    pub fn is_outline(&self) -> bool {
        self.name.as_deref() == Some("sdconv outline")
            || self.levels.values().any(|l| {
                l.pstyle
                    .as_deref()
                    .is_some_and(|s| super::styles::heading_number_from_id(s).is_some())
            })
    }
}

/// `w:lvlOverride`.
#[derive(Debug, Clone, Default)]
pub struct LevelOverride {
    /// `w:startOverride`.
    pub start: Option<u32>,
    /// A replacement `w:lvl`.
    pub level: Option<Level>,
}

/// `w:num`.
#[derive(Debug, Clone, Default)]
pub struct Num {
    /// `w:abstractNumId`.
    pub abstract_id: Option<String>,
    /// Overrides by level.
    pub overrides: HashMap<u8, LevelOverride>,
}

/// A level as it applies to one paragraph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedLevel {
    /// The abstract definition's id (lists sharing it share counters unless overridden).
    pub abstract_id: String,
    /// Whether the `w:num` overrides anything (then it counts on its own).
    pub overridden: bool,
    /// The level (override applied).
    pub level: Level,
    /// `w:startOverride` for this level, if any.
    pub start_override: Option<u32>,
    /// The level number 0..=8.
    pub ilvl: u8,
    /// The definition numbers the outline ([`AbstractNum::is_outline`]).
    pub outline: bool,
}

/// All numbering definitions.
#[derive(Debug, Clone, Default)]
pub struct Numbering {
    /// Looked up for every numbered paragraph: hashed with foldhash.
    abstracts: HashMap<String, AbstractNum, FastHash>,
    nums: HashMap<String, Num, FastHash>,
    /// Definitions left out for an id longer than [`MAX_ID`].
    pub ignored: usize,
    /// Level texts, formats and styles cut to [`MAX_LEVEL_STRING`] characters.
    pub cut: usize,
}

/// The longest numbering id kept, in bytes: ids are decimal numbers (`ST_DecimalNumber`), so
/// a longer one is no id Word wrote. Every numbered paragraph's count holds its definition's
/// id, so a long one would be copied for each.
pub const MAX_ID: usize = 32;

/// The longest level text (`%1.%2.`), format or style name kept, in characters: a level is
/// resolved for every numbered paragraph, which copies them.
pub const MAX_LEVEL_STRING: usize = 255;

/// Cuts a level's strings to [`MAX_LEVEL_STRING`] characters; how many were cut.
fn bound_level(level: &mut Level) -> usize {
    [&mut level.text, &mut level.format, &mut level.pstyle]
        .into_iter()
        .flatten()
        .filter_map(|s| {
            let (cut, _) = s.char_indices().nth(MAX_LEVEL_STRING)?;
            s.truncate(cut);
            Some(())
        })
        .count()
}

impl Numbering {
    /// Parses `numbering.xml`.
    pub fn parse(text: &str, part: &str, limits: &Limits) -> Result<Self> {
        let mut r = XmlReader::new(text, part, limits);
        let mut n = Numbering::default();
        loop {
            match r.next_event()? {
                Event::Start(e) => match e.local() {
                    "numbering" => {}
                    "abstractNum" => {
                        let id = attr_string(&e, "abstractNumId").unwrap_or_default();
                        let mut a = parse_abstract(&mut r)?;
                        if id.len() > MAX_ID {
                            n.ignored += 1;
                            continue;
                        }
                        n.cut += a.levels.values_mut().map(bound_level).sum::<usize>();
                        n.abstracts.entry(id).or_insert(a);
                    }
                    "num" => {
                        let id = attr_string(&e, "numId").unwrap_or_default();
                        let mut num = parse_num(&mut r)?;
                        if id.len() > MAX_ID
                            || num.abstract_id.as_ref().is_some_and(|a| a.len() > MAX_ID)
                        {
                            n.ignored += 1;
                            continue;
                        }
                        n.cut += num
                            .overrides
                            .values_mut()
                            .filter_map(|o| o.level.as_mut())
                            .map(bound_level)
                            .sum::<usize>();
                        n.nums.entry(id).or_insert(num);
                    }
                    _ => r.skip_element()?,
                },
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(n)
    }

    /// The level a paragraph with `num` (numbering from its properties or style) and paragraph
    /// style `pstyle` is at; `None` for no numbering (`numId` 0, unknown ids).
    pub fn resolve(
        &self,
        num: &NumPr,
        pstyle: Option<&str>,
        styles: &Styles,
    ) -> Option<ResolvedLevel> {
        let num_id = num.num_id.as_deref()?;
        if num_id == "0" {
            return None;
        }
        let n = self.nums.get(num_id)?;
        let abstract_id = self.follow_style_link(n.abstract_id.as_deref()?, styles)?;
        let abs = self.abstracts.get(&abstract_id)?;
        // A style-linked numbering often omits ilvl: the level is the one tied to the style.
        let ilvl = num.ilvl.or_else(|| {
            let ps = pstyle?;
            abs.levels
                .iter()
                .filter(|(_, l)| l.pstyle.as_deref() == Some(ps))
                .map(|(i, _)| *i)
                .min()
        });
        let ilvl = ilvl.unwrap_or(0).min(8);
        let mut level = abs.levels.get(&ilvl).cloned().unwrap_or_default();
        let ov = n.overrides.get(&ilvl);
        if let Some(l) = ov.and_then(|o| o.level.as_ref()) {
            level.overlay(l);
        }
        Some(ResolvedLevel {
            abstract_id,
            overridden: !n.overrides.is_empty(),
            level,
            start_override: ov.and_then(|o| o.start),
            ilvl,
            outline: abs.is_outline(),
        })
    }

    /// `w:lvlRestart` of level `ilvl` of num `num_id` (override first), without building the
    /// whole level.
    pub fn restart_of(&self, num_id: &str, ilvl: u8, styles: &Styles) -> Option<u32> {
        let n = self.nums.get(num_id)?;
        if let Some(r) = n
            .overrides
            .get(&ilvl)
            .and_then(|o| o.level.as_ref())
            .and_then(|l| l.restart)
        {
            return Some(r);
        }
        let abstract_id = self.follow_style_link(n.abstract_id.as_deref()?, styles)?;
        self.abstracts.get(&abstract_id)?.levels.get(&ilvl)?.restart
    }

    /// Follows `w:numStyleLink` → numbering style → its `numId` → that num's abstract, a few
    /// steps at most (cycles end the chase).
    fn follow_style_link(&self, abstract_id: &str, styles: &Styles) -> Option<String> {
        let mut id = abstract_id.to_string();
        for _ in 0..8 {
            let abs = self.abstracts.get(&id)?;
            let Some(link) = &abs.num_style_link else {
                return Some(id);
            };
            let linked_num = styles
                .resolved(link)
                .and_then(|r| r.ppr.num.as_ref())
                .and_then(|n| n.num_id.as_deref())
                .and_then(|n| self.nums.get(n))
                .and_then(|n| n.abstract_id.clone());
            match linked_num {
                Some(next) if next != id => id = next,
                _ => return Some(id),
            }
        }
        Some(id)
    }
}

fn parse_u32(e: &BytesStart<'_>) -> Option<u32> {
    val(e)
        .and_then(|v| v.trim().parse::<i64>().ok())
        .map(|v| v.clamp(0, u32::MAX as i64) as u32)
}

fn parse_abstract(r: &mut XmlReader<'_>) -> Result<AbstractNum> {
    let mut a = AbstractNum::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) => match e.local() {
                "lvl" => {
                    let ilvl = attr_string(&e, "ilvl").and_then(|v| v.trim().parse::<u8>().ok());
                    let lvl = parse_level(r)?;
                    if let Some(i) = ilvl.filter(|i| *i <= 8) {
                        a.levels.entry(i).or_insert(lvl);
                    }
                }
                _ => r.skip_element()?,
            },
            Event::Empty(e) if e.local() == "numStyleLink" => {
                a.num_style_link = val(&e);
            }
            Event::Empty(e) if e.local() == "name" => {
                a.name = val(&e);
            }
            Event::Eof => return Err(r.invalid("the part ends inside w:abstractNum")),
            _ => {}
        }
    }
    Ok(a)
}

fn parse_level(r: &mut XmlReader<'_>) -> Result<Level> {
    let mut l = Level::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            // Properties of the number itself, not of the level's meaning.
            Event::Start(e) if matches!(e.local(), "pPr" | "rPr") => r.skip_element()?,
            // Other containers (mc:AlternateContent) are read through.
            Event::Start(e) | Event::Empty(e) => {
                let name = e.local();
                match name {
                    "start" => l.start = parse_u32(&e),
                    // Inside mc:AlternateContent the Choice may say `custom` and the Fallback
                    // a plain format; the last one read (the Fallback) wins.
                    "numFmt" => {
                        if let Some(v) = val(&e).filter(|v| v != "custom") {
                            l.format = Some(v);
                        }
                    }
                    "lvlText" => l.text = val(&e),
                    "lvlRestart" => l.restart = parse_u32(&e),
                    "pStyle" => l.pstyle = val(&e),
                    _ => {}
                }
            }
            Event::Eof => return Err(r.invalid("the part ends inside w:lvl")),
            _ => {}
        }
    }
    Ok(l)
}

fn parse_num(r: &mut XmlReader<'_>) -> Result<Num> {
    let mut n = Num::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) => match e.local() {
                "lvlOverride" => {
                    let ilvl = attr_string(&e, "ilvl").and_then(|v| v.trim().parse::<u8>().ok());
                    let ov = parse_override(r)?;
                    if let Some(i) = ilvl.filter(|i| *i <= 8) {
                        n.overrides.insert(i, ov);
                    }
                }
                "abstractNumId" => {
                    n.abstract_id = val(&e);
                    r.skip_element()?;
                }
                _ => r.skip_element()?,
            },
            Event::Empty(e) => match e.local() {
                "abstractNumId" => n.abstract_id = val(&e),
                "lvlOverride" => {}
                _ => {}
            },
            Event::Eof => return Err(r.invalid("the part ends inside w:num")),
            _ => {}
        }
    }
    Ok(n)
}

fn parse_override(r: &mut XmlReader<'_>) -> Result<LevelOverride> {
    let mut o = LevelOverride::default();
    let target = r.depth().saturating_sub(1);
    while r.depth() > target {
        match r.next_event()? {
            Event::Start(e) => match e.local() {
                "lvl" => o.level = Some(parse_level(r)?),
                "startOverride" => {
                    o.start = parse_u32(&e);
                    r.skip_element()?;
                }
                _ => r.skip_element()?,
            },
            Event::Empty(e) if e.local() == "startOverride" => {
                o.start = parse_u32(&e);
            }
            Event::Eof => return Err(r.invalid("the part ends inside w:lvlOverride")),
            _ => {}
        }
    }
    Ok(o)
}

#[cfg(test)]
mod tests {
    use super::*;

    const XML: &str = r#"<w:numbering xmlns:w="w">
      <w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
        <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/><w:pStyle w:val="ListBullet2"/></w:lvl></w:abstractNum>
      <w:num w:numId="3"><w:abstractNumId w:val="1"/></w:num>
      <w:num w:numId="4"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="5"/></w:lvlOverride></w:num>
    </w:numbering>"#;

    #[test]
    fn resolves_levels_overrides_and_style_levels() {
        let n = Numbering::parse(XML, "n", &Limits::default()).unwrap();
        let styles = Styles::default();
        let np = |id: &str, ilvl: Option<u8>| NumPr {
            num_id: Some(id.into()),
            ilvl,
        };
        let l = n.resolve(&np("3", Some(0)), None, &styles).unwrap();
        assert_eq!(l.level.number_format(), NumberFormat::Decimal);
        assert!(!l.overridden);
        let o = n.resolve(&np("4", Some(0)), None, &styles).unwrap();
        assert_eq!(o.start_override, Some(5));
        let s = n
            .resolve(&np("3", None), Some("ListBullet2"), &styles)
            .unwrap();
        assert_eq!((s.ilvl, s.level.number_format()), (1, NumberFormat::Bullet));
        assert!(n.resolve(&np("0", Some(0)), None, &styles).is_none());
        assert!(n.resolve(&np("99", Some(0)), None, &styles).is_none());
    }
}
