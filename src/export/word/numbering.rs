//! `word/numbering.xml`: the template's numbering look plus the `w:num` instances the body uses.
//!
//! Numbers themselves come from [`crate::ast::numbering::number_blocks`]; this module makes Word
//! show the same ones. It simulates Word's counters for each `w:num` (a level never used in an
//! instance shows its start value; a level counts up; deeper levels restart) and, whenever the
//! simulation would show something other than the wanted number, starts a new `w:num` on the same
//! definition with `w:lvlOverride/w:startOverride` (ECMA-376 17.9.8) for the levels the number
//! shows. An ordinary document gets one `w:num` for its outline and one per list.
//!
//! - `heading-ol` and `paragraph-ol` share the outline definition (abstractNum 0).
//! - `list-ul` uses the bullets (1), `list-ol` the ordered definition (2). A list item whose
//!   number format differs from the definition's gets a derived definition (ids from 3). A
//!   list with an id opens on a definition giving every level its items use its format, so
//!   one tree list is one `w:num` however its levels look (a reader reads `w:num`s as lists).
//! - numIds start at 2: numId 1 is left free for templates whose styles link to a list.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::ast::numbering::{BlockNumber, format_number, list_format};
use crate::ast::{Block, NumberFormat, Paragraph, TextType};
use crate::xml::escape_attr;

use super::template::{LevelDef, NumberingLook};

const LEVELS: usize = 6;
const FIRST_NUM_ID: u32 = 2;

/// Which template definition a list starts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Base {
    Outline,
    Bullet,
    Ordered,
}

/// A definition written to numbering.xml: a base plus per-level format overrides.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct AbstractKey {
    base: Base,
    formats: [Option<NumberFormat>; LEVELS],
}

#[derive(Debug)]
struct NumInst {
    abs: usize,
    overrides: Vec<(usize, u32)>,
}

/// Where a numbered paragraph points, and what Word shows for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Assigned {
    /// `w:numId`.
    pub num_id: u32,
    /// `w:ilvl`.
    pub ilvl: usize,
    /// The label Word shows (`1.2`, `b.`), for TOC entries and cross-reference results.
    pub label: String,
}

/// One running list (or the outline) in one scope.
#[derive(Debug, Clone)]
struct Track {
    num: usize,
    /// Word's counters in the current `w:num`; `None` = level not used yet.
    word: [Option<u32>; LEVELS],
    /// The wanted counters (what `number_blocks` counts).
    want: [u32; LEVELS],
    /// The definition a list with an id opens with: its first item's base and the format of
    /// every level its items use (the first use of a level wins). So a list whose levels
    /// differ in look (bullets under numbers) is one `w:num`, as a reader sees one list; split
    /// at the first item of another look, its ids would read back as two lists.
    opens_on: Option<AbstractKey>,
}

impl Track {
    fn new(opens_on: Option<AbstractKey>) -> Self {
        Track {
            num: usize::MAX,
            word: [None; LEVELS],
            want: [0; LEVELS],
            opens_on,
        }
    }
}

/// Numbering state of one block list (the body, or one table cell), mirroring the scopes of
/// `number_blocks`.
#[derive(Debug, Default)]
pub(crate) struct Scope {
    outline: Option<Track>,
    /// By list id (a map: a hostile file may give every item its own).
    lists: HashMap<String, Track>,
    anonymous: Option<Track>,
}

impl Scope {
    /// A list that ends at a non-list block ends here (numbering rule of `number_blocks`).
    pub fn end_anonymous(&mut self) {
        self.anonymous = None;
    }
}

/// All definitions and instances of one document.
#[derive(Debug)]
pub(crate) struct Numbering<'t> {
    look: &'t NumberingLook,
    /// Outline levels hidden from the labels (numbering starting below the top level).
    outline_shift: usize,
    abstracts: Vec<AbstractKey>,
    by_key: HashMap<AbstractKey, usize>,
    nums: Vec<NumInst>,
}

impl<'t> Numbering<'t> {
    /// Numbering over the template's `look`; `outline_shift` is the shallowest outline level the
    /// document uses, so a document whose numbered headings start at level 1 reads `1`, not `1.1`.
    pub fn new(look: &'t NumberingLook, outline_shift: usize) -> Self {
        let mut n = Numbering {
            look,
            outline_shift: outline_shift.min(LEVELS - 1),
            abstracts: Vec::new(),
            by_key: HashMap::new(),
            nums: Vec::new(),
        };
        for base in [Base::Outline, Base::Bullet, Base::Ordered] {
            n.abstract_for(AbstractKey {
                base,
                formats: [None; LEVELS],
            });
        }
        n
    }

    fn abstract_for(&mut self, key: AbstractKey) -> usize {
        if let Some(&i) = self.by_key.get(&key) {
            return i;
        }
        self.abstracts.push(key.clone());
        self.by_key.insert(key, self.abstracts.len() - 1);
        self.abstracts.len() - 1
    }

    fn new_num(&mut self, abs: usize, overrides: Vec<(usize, u32)>) -> usize {
        self.nums.push(NumInst { abs, overrides });
        self.nums.len() - 1
    }

    /// The template's definition `abs` at `ilvl` starts from (before its own format), if the
    /// template has one.
    fn template_level(&self, abs: usize, ilvl: usize) -> Option<&LevelDef> {
        let key = &self.abstracts[abs];
        let base = match (key.base, key.formats[ilvl]) {
            (_, Some(NumberFormat::Bullet)) => Base::Bullet,
            (Base::Bullet, Some(_)) => Base::Ordered,
            (base, _) => base,
        };
        let i = match base {
            Base::Outline => 0,
            Base::Bullet => 1,
            Base::Ordered => 2,
        };
        self.look.defs[i].get(ilvl)
    }

    /// The level definition Word uses for `abs` at `ilvl`, for the numbering part; numbering
    /// a paragraph asks for the parts it needs ([`Numbering::level_start`],
    /// [`Numbering::level_format`], [`Numbering::level_text`]) without copying the rest.
    fn level(&self, abs: usize, ilvl: usize) -> LevelDef {
        let mut def = self.template_level(abs, ilvl).cloned().unwrap_or_default();
        if let Some(f) = self.abstracts[abs].formats[ilvl] {
            def.fmt = word_format(f).to_string();
        }
        def.text = self.level_text(abs, ilvl).into_owned();
        def
    }

    /// `w:start` of [`Numbering::level`].
    fn level_start(&self, abs: usize, ilvl: usize) -> u32 {
        self.template_level(abs, ilvl).map_or(0, |d| d.start)
    }

    /// The number format of [`Numbering::level`], as its `w:numFmt` reads.
    fn level_format(&self, abs: usize, ilvl: usize) -> NumberFormat {
        self.abstracts[abs].formats[ilvl]
            .or_else(|| {
                self.template_level(abs, ilvl)
                    .and_then(|d| parse_format(&d.fmt))
            })
            .unwrap_or(NumberFormat::Decimal)
    }

    /// `w:lvlText` of [`Numbering::level`].
    fn level_text(&self, abs: usize, ilvl: usize) -> Cow<'_, str> {
        let key = &self.abstracts[abs];
        let text = if key.formats[ilvl] == Some(NumberFormat::None) {
            ""
        } else {
            self.template_level(abs, ilvl)
                .map_or("", |d| d.text.as_str())
        };
        if key.base == Base::Outline && self.outline_shift > 0 {
            Cow::Owned(strip_levels(text, self.outline_shift))
        } else {
            Cow::Borrowed(text)
        }
    }

    /// The numbering state for the block list `blocks` (the body, or one cell), with the
    /// definition each of its list ids opens with (`Track::opens_on`).
    pub fn scope(&self, blocks: &[Block]) -> Scope {
        // Per list id: the definition, and the levels already given their format.
        let mut planned: HashMap<&str, (AbstractKey, [bool; LEVELS])> = HashMap::new();
        for b in blocks {
            let Block::Paragraph(p) = b else { continue };
            let (Some(id), Some((base, Some(format)))) = (&p.list_id, look_of(p)) else {
                continue;
            };
            let level = level_of(p);
            let (key, seen) = planned.entry(id.as_str()).or_insert((
                AbstractKey {
                    base,
                    formats: [None; LEVELS],
                },
                [false; LEVELS],
            ));
            // A level keeps the format of its first item (the one the first `w:num` shows);
            // a later item of another look at that level opens a derived definition.
            if !seen[level] {
                seen[level] = true;
                if format != self.default_format(key.base, level) {
                    key.formats[level] = Some(format);
                }
            }
        }
        Scope {
            lists: planned
                .into_iter()
                .map(|(id, (key, _))| (id.to_string(), Track::new(Some(key))))
                .collect(),
            ..Scope::default()
        }
    }

    /// Assigns `p` (with its number from `number_blocks`) to a `w:num` in `scope`. `None` for
    /// paragraphs that are not numbered.
    pub fn assign(
        &mut self,
        scope: &mut Scope,
        p: &Paragraph,
        number: &BlockNumber,
    ) -> Option<Assigned> {
        let level = level_of(p);
        let (base, format) = look_of(p)?;
        // The track this item continues (created on first use).
        let slot: &mut Option<Track> = match (base, &p.list_id) {
            (Base::Outline, _) => &mut scope.outline,
            (_, Some(id)) => {
                // Every list id of the block list has its track from `scope`; one this scope
                // did not see opens on its first item's look.
                let track = scope
                    .lists
                    .entry(id.clone())
                    .or_insert_with(|| Track::new(None));
                return self.assign_track(track, base, format, level, number, p.restart);
            }
            (_, None) => &mut scope.anonymous,
        };
        let track = slot.get_or_insert(Track::new(None));
        self.assign_track(track, base, format, level, number, p.restart)
    }

    fn assign_track(
        &mut self,
        track: &mut Track,
        base: Base,
        format: Option<NumberFormat>,
        level: usize,
        number: &BlockNumber,
        restart: bool,
    ) -> Option<Assigned> {
        // The wanted counters after this item.
        if let Some(v) = number.value {
            track.want[level] = v;
        }
        for w in &mut track.want[level + 1..] {
            *w = 0;
        }
        let counted = number.value.is_some();
        // The definition this item needs: the track's, with this level's format if it differs.
        let needed_abs = if let (usize::MAX, Some(key)) = (track.num, &track.opens_on) {
            self.abstract_for(key.clone())
        } else if track.num == usize::MAX {
            let mut formats = [None; LEVELS];
            if base != Base::Outline {
                formats[level] = format.filter(|&f| f != self.default_format(base, level));
            }
            self.abstract_for(AbstractKey { base, formats })
        } else {
            let current = self.nums[track.num].abs;
            let mut key = self.abstracts[current].clone();
            if let Some(f) = format {
                let have = key.formats[level].unwrap_or(self.default_format(key.base, level));
                if have != f {
                    key.formats[level] = Some(f);
                }
            }
            self.abstract_for(key)
        };
        let shown = referenced_levels(&self.level_text(needed_abs, level));
        // What Word would show in the current num.
        // A restart always opens a new instance, so a reader sees it even when the number
        // happens to continue.
        let fits =
            !restart && track.num != usize::MAX && self.nums[track.num].abs == needed_abs && {
                let inst = &self.nums[track.num];
                shown.iter().all(|&k| {
                    let start = self.start_of(inst, k);
                    let word = if k == level {
                        track.word[k].map_or(start, |c| c.saturating_add(1))
                    } else {
                        track.word[k].unwrap_or(start)
                    };
                    !counted && k == level || word == track.want[k]
                })
            };
        if !fits {
            let overrides: Vec<(usize, u32)> = shown
                .iter()
                .filter(|&&k| k <= level)
                .filter(|&&k| counted || k != level)
                .map(|&k| (k, track.want[k]))
                .collect();
            // Every shown level gets its start: Word continues the counters of `w:num`s that
            // share a definition unless an override restarts them.
            let num = self.new_num(needed_abs, overrides);
            track.num = num;
            track.word = [None; LEVELS];
        } else if counted && track.word[level].is_none() {
            // A level first counted in this `w:num` states its start too (the same value, as
            // the item fits): a `w:num` without any override shares its definition's counters
            // with every other such `w:num` (a list opening with bullets has none), and would
            // go on counting where another list of the same look stopped.
            let inst = &mut self.nums[track.num];
            if !inst.overrides.iter().any(|&(k, _)| k == level) {
                inst.overrides.push((level, track.want[level]));
            }
        }
        // Word's counters after this item.
        let inst = &self.nums[track.num];
        let start = self.start_of(inst, level);
        track.word[level] = Some(track.word[level].map_or(start, |c| c.saturating_add(1)));
        if counted {
            // Keep the simulation on the wanted value (they agree unless a level is hidden).
            track.word[level] = Some(track.want[level]);
        }
        for w in &mut track.word[level + 1..] {
            *w = None;
        }
        let label = self.render(&self.level_text(needed_abs, level), track, needed_abs);
        Some(Assigned {
            num_id: FIRST_NUM_ID + track.num as u32,
            ilvl: level,
            label,
        })
    }

    fn default_format(&self, base: Base, level: usize) -> NumberFormat {
        let i = match base {
            Base::Outline => 0,
            Base::Bullet => 1,
            Base::Ordered => 2,
        };
        self.look.defs[i]
            .get(level)
            .and_then(|d| parse_format(&d.fmt))
            .unwrap_or(NumberFormat::Decimal)
    }

    fn start_of(&self, inst: &NumInst, level: usize) -> u32 {
        inst.overrides
            .iter()
            .find(|(k, _)| *k == level)
            .map(|&(_, v)| v)
            .unwrap_or_else(|| self.level_start(inst.abs, level))
    }

    fn render(&self, text: &str, track: &Track, abs: usize) -> String {
        let mut out = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c == '%' {
                if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    chars.next();
                    let k = (d as usize).saturating_sub(1).min(LEVELS - 1);
                    let v = track.word[k].unwrap_or(track.want[k]);
                    let f = self.level_format(abs, k);
                    out.push_str(&format_number(v, f));
                    continue;
                }
            }
            out.push(c);
        }
        out
    }

    /// The numbering part.
    pub fn to_xml(&self) -> String {
        let mut x = String::with_capacity(4096 + self.nums.len() * 160);
        x.push_str(concat!(
            r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#,
            "\n",
            r#"<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">"#
        ));
        for (i, key) in self.abstracts.iter().enumerate() {
            let multi = if key.base == Base::Outline {
                "multilevel"
            } else {
                "hybridMultilevel"
            };
            // The names tell a reader which kind of list a definition is for.
            let name = match key.base {
                Base::Outline => "sdconv outline",
                Base::Bullet => "sdconv bullets",
                Base::Ordered => "sdconv ordered",
            };
            x.push_str(&format!(
                r#"<w:abstractNum w:abstractNumId="{i}"><w:multiLevelType w:val="{multi}"/><w:name w:val="{name}"/>"#
            ));
            for ilvl in 0..LEVELS {
                let d = self.level(i, ilvl);
                x.push_str(&format!(
                    r#"<w:lvl w:ilvl="{ilvl}"><w:start w:val="{}"/><w:numFmt w:val=""#,
                    d.start
                ));
                escape_attr(&d.fmt, &mut x);
                x.push_str(r#""/>"#);
                if let Some(s) = &d.suff {
                    x.push_str(r#"<w:suff w:val=""#);
                    escape_attr(s, &mut x);
                    x.push_str(r#""/>"#);
                }
                x.push_str(r#"<w:lvlText w:val=""#);
                escape_attr(&d.text, &mut x);
                x.push_str(r#""/><w:lvlJc w:val=""#);
                escape_attr(if d.jc.is_empty() { "left" } else { &d.jc }, &mut x);
                x.push_str(r#""/>"#);
                x.push_str(&d.ppr);
                x.push_str(&d.rpr);
                x.push_str("</w:lvl>");
            }
            x.push_str("</w:abstractNum>");
        }
        for (i, num) in self.nums.iter().enumerate() {
            x.push_str(&format!(
                r#"<w:num w:numId="{}"><w:abstractNumId w:val="{}"/>"#,
                FIRST_NUM_ID + i as u32,
                num.abs
            ));
            // By level (a level's override may come after a deeper one's).
            let mut overrides = num.overrides.clone();
            overrides.sort_unstable();
            for (ilvl, start) in &overrides {
                x.push_str(&format!(
                    r#"<w:lvlOverride w:ilvl="{ilvl}"><w:startOverride w:val="{start}"/></w:lvlOverride>"#
                ));
            }
            x.push_str("</w:num>");
        }
        x.push_str("</w:numbering>");
        x
    }
}

/// Word's `ST_NumberFormat` value.
/// `p`'s list level, clamped to the levels a definition has.
fn level_of(p: &Paragraph) -> usize {
    usize::from(p.level).min(LEVELS - 1)
}

/// The definition `p` is numbered from and the format its level shows (`None` for the
/// outline, whose look the template gives); `None` for paragraphs that are not numbered.
fn look_of(p: &Paragraph) -> Option<(Base, Option<NumberFormat>)> {
    Some(match p.kind {
        TextType::HeadingOl | TextType::ParagraphOl => (Base::Outline, None),
        TextType::ListOl => (
            Base::Ordered,
            Some(p.number_format.unwrap_or(list_format(level_of(p)))),
        ),
        TextType::ListUl => (
            Base::Bullet,
            Some(match p.number_format {
                Some(NumberFormat::None) => NumberFormat::None,
                _ => NumberFormat::Bullet,
            }),
        ),
        _ => return None,
    })
}

fn word_format(f: NumberFormat) -> &'static str {
    match f {
        NumberFormat::Decimal => "decimal",
        NumberFormat::LowerLetter => "lowerLetter",
        NumberFormat::UpperLetter => "upperLetter",
        NumberFormat::LowerRoman => "lowerRoman",
        NumberFormat::UpperRoman => "upperRoman",
        NumberFormat::Bullet => "bullet",
        NumberFormat::None => "none",
    }
}

fn parse_format(s: &str) -> Option<NumberFormat> {
    Some(match s {
        "decimal" => NumberFormat::Decimal,
        "lowerLetter" => NumberFormat::LowerLetter,
        "upperLetter" => NumberFormat::UpperLetter,
        "lowerRoman" => NumberFormat::LowerRoman,
        "upperRoman" => NumberFormat::UpperRoman,
        "bullet" => NumberFormat::Bullet,
        "none" => NumberFormat::None,
        _ => return None,
    })
}

/// The levels (0-based) a `w:lvlText` shows: `%1.%3` → [0, 2].
fn referenced_levels(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                chars.next();
                if (1..=LEVELS as u32).contains(&d) {
                    out.push(d as usize - 1);
                }
            }
        }
    }
    out
}

/// Drops `%1`…`%n` and the separator after each from a level text: `%1.%2.%3` with n = 1 →
/// `%2.%3`.
fn strip_levels(text: &str, n: usize) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                if d as usize <= n && d > 0 {
                    chars.next();
                    if chars.peek().is_some_and(|&s| s != '%') {
                        chars.next();
                    }
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::Inline;
    use crate::ast::numbering::number_blocks;
    use crate::export::word::WordTemplates;

    fn para(kind: TextType, level: u8) -> Paragraph {
        Paragraph {
            level,
            ..Paragraph::new(kind, vec![Inline::text("x")])
        }
    }

    /// An item of list `id`.
    fn listed(id: &str, kind: TextType, level: u8) -> Paragraph {
        Paragraph {
            list_id: Some(id.into()),
            ..para(kind, level)
        }
    }

    fn run(paras: Vec<Paragraph>, shift: usize) -> (Vec<Option<Assigned>>, String) {
        let look = &WordTemplates::builtin()
            .resolve("report")
            .unwrap()
            .numbering;
        let blocks: Vec<Block> = paras.iter().cloned().map(Block::Paragraph).collect();
        let numbers = number_blocks(&blocks);
        let mut n = Numbering::new(look, shift);
        let mut scope = n.scope(&blocks);
        let out = paras
            .iter()
            .zip(&numbers)
            .map(|(p, num)| {
                if !p.kind.is_list() {
                    scope.end_anonymous();
                }
                n.assign(&mut scope, p, num)
            })
            .collect();
        (out, n.to_xml())
    }

    fn labels(a: &[Option<Assigned>]) -> Vec<String> {
        a.iter()
            .map(|a| a.as_ref().map(|a| a.label.clone()).unwrap_or_default())
            .collect()
    }

    #[test]
    fn outline_uses_one_num_and_shows_number_blocks_labels() {
        use TextType::*;
        let (a, xml) = run(
            vec![
                para(HeadingOl, 0),
                para(ParagraphOl, 1),
                para(ParagraphOl, 1),
                para(HeadingOl, 0),
                para(ParagraphOl, 1),
            ],
            0,
        );
        assert_eq!(labels(&a), ["1", "1.1", "1.2", "2", "2.1"]);
        assert!(a.iter().all(|a| a.as_ref().unwrap().num_id == 2));
        assert_eq!(xml.matches("<w:num ").count(), 1);
    }

    #[test]
    fn restart_makes_a_new_num_with_start_override() {
        let mut first = para(TextType::ListOl, 0);
        first.start = Some(5);
        let mut restarted = para(TextType::ListOl, 0);
        restarted.restart = true;
        let (a, xml) = run(vec![first, para(TextType::ListOl, 0), restarted], 0);
        assert_eq!(labels(&a), ["5.", "6.", "1."]);
        let ids: Vec<u32> = a.iter().map(|a| a.as_ref().unwrap().num_id).collect();
        assert_eq!(ids[0], ids[1]);
        assert_ne!(ids[1], ids[2]);
        assert!(xml.contains(r#"<w:startOverride w:val="5"/>"#), "{xml}");
        assert!(xml.contains(r#"<w:startOverride w:val="1"/>"#), "{xml}");
    }

    #[test]
    fn nested_list_levels_and_custom_formats() {
        let mut upper = para(TextType::ListOl, 0);
        upper.number_format = Some(NumberFormat::UpperRoman);
        let (a, xml) = run(
            vec![
                para(TextType::ListOl, 0),
                para(TextType::ListOl, 1),
                para(TextType::ListOl, 1),
                para(TextType::ListOl, 0),
                para(TextType::Paragraph, 0),
                upper,
                para(TextType::ListUl, 0),
            ],
            0,
        );
        assert_eq!(labels(&a), ["1.", "a.", "b.", "2.", "", "I.", "•"]);
        // A derived definition for the upper-roman list.
        assert!(xml.contains(r#"w:abstractNumId="3""#), "{xml}");
        assert!(xml.contains(r#"<w:numFmt w:val="upperRoman"/>"#));
    }

    #[test]
    fn shifted_outline_reads_from_its_first_level() {
        use TextType::*;
        let (a, _) = run(
            vec![para(HeadingOl, 1), para(HeadingOl, 2), para(HeadingOl, 1)],
            1,
        );
        assert_eq!(labels(&a), ["1", "1.1", "2"]);
        assert_eq!(strip_levels("%1.%2.%3", 2), "%3");
        assert_eq!(strip_levels("(%4)", 2), "(%4)");
    }

    #[test]
    fn a_list_of_two_looks_is_one_num() {
        let item = |kind, level| listed("2", kind, level);
        let (a, xml) = run(
            vec![
                item(TextType::ListUl, 3),
                item(TextType::ListOl, 0),
                item(TextType::ListUl, 3),
                item(TextType::ListOl, 0),
            ],
            0,
        );
        assert_eq!(labels(&a), ["•", "1.", "•", "2."]);
        let ids: Vec<_> = a.iter().flatten().map(|a| a.num_id).collect();
        assert!(ids.iter().all(|&id| id == ids[0]), "{ids:?}");
        assert_eq!(xml.matches("<w:num ").count(), 1, "{xml}");
    }

    #[test]
    fn a_level_keeps_the_format_of_its_first_item() {
        let item = |format: Option<NumberFormat>| Paragraph {
            number_format: format,
            ..listed("2", TextType::ListOl, 0)
        };
        let (a, _) = run(vec![item(None), item(Some(NumberFormat::UpperRoman))], 0);
        assert_eq!(labels(&a), ["1.", "II."]);
    }

    #[test]
    fn two_lists_of_one_mixed_look_count_on_their_own() {
        // Each opens with a bullet (no number, so no start to state) on the same definition;
        // the numbered level must still restart in the second.
        let item = listed;
        let (a, xml) = run(
            vec![
                item("x", TextType::ListUl, 1),
                item("x", TextType::ListOl, 0),
                item("x", TextType::ListOl, 0),
                item("y", TextType::ListUl, 1),
                item("y", TextType::ListOl, 0),
            ],
            0,
        );
        assert_eq!(labels(&a), ["◦", "1.", "2.", "◦", "1."]);
        let ids: Vec<_> = a.iter().flatten().map(|a| a.num_id).collect();
        assert_ne!(ids[0], ids[3]);
        // Both nums state level 0's start, so Word counts each on its own.
        assert_eq!(
            xml.matches(r#"<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/>"#)
                .count(),
            2,
            "{xml}"
        );
    }

    #[test]
    fn lists_by_id_continue_across_interruptions() {
        let item = |id| listed(id, TextType::ListOl, 0);
        let (a, _) = run(
            vec![
                item("7"),
                para(TextType::Paragraph, 0),
                item("7"),
                item("8"),
            ],
            0,
        );
        assert_eq!(labels(&a), ["1.", "", "2.", "1."]);
        let ids: Vec<_> = a.iter().flatten().map(|a| a.num_id).collect();
        assert_eq!(ids[0], ids[1]);
        assert_ne!(ids[1], ids[2]);
    }
}
