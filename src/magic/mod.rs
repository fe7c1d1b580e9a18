//! Magic import: style sets that recognise a document's structure from its numbering.
//!
//! A style set (`styles/<key>.json`, embedded at build time) lists numbering levels: which
//! marker each level uses (`decimal` of some depth, `letter`, `double-letter`, `roman`) and the
//! text type and level a paragraph numbered that way becomes. [`apply`] runs after the Word
//! reader as a pass over the top-level blocks:
//! - a paragraph Word numbered itself (a `list-ol`, `paragraph-ol` or `heading-ol` the reader
//!   made) takes the rule its drawn number fits, read from the level's `w:lvlText` and
//!   `w:numFmt` (`shape`: `%1.%2` is a two-part decimal, `(%2)` a letter, `%3%3)` a doubled
//!   letter), the rule of its own Word level first — so a document typed and the same document
//!   numbered by Word give the same tree; without a level text, the rule of its Word level when
//!   the number format fits;
//! - a paragraph whose text starts with a typed number (`1.`, `1.1`, `§ 2`, `a)`, `(iv)`, …)
//!   takes the rule the marker matches, and loses the typed number (the service numbers
//!   itself). `i)`, `v)`, `x)` are read as letters when they continue a letter sequence at the
//!   previous paragraph's level (`h)` then `i)`), unless the next paragraph continues them as
//!   roman numbers (`i)` then `ii)`);
//! - numbers that skip or restart unexpectedly still map, with a warning.
//!
//! Sets with `"scope": "headings"` only touch headings and leave body text alone. A key may
//! combine sets with `|`; the first set that matches a paragraph wins.

pub(crate) mod marker;
mod shape;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::ast::{Block, Document, NumberFormat, Paragraph, TextType};
use crate::error::{Error, Result};
use crate::import::docx::NumberLooks;
use crate::report::{Location, Report, WarningKind};
use marker::{Form, Marker};

/// The embedded style sets, in the order the catalog lists them.
const SETS: [(&str, &str); 6] = [
    (
        "contract_1-1-1",
        include_str!("../../styles/contract_1-1-1.json"),
    ),
    (
        "contract_1-1-a",
        include_str!("../../styles/contract_1-1-a.json"),
    ),
    (
        "contract_1-a-i",
        include_str!("../../styles/contract_1-a-i.json"),
    ),
    (
        "contract_1-a-a",
        include_str!("../../styles/contract_1-a-a.json"),
    ),
    (
        "numbered-headers",
        include_str!("../../styles/numbered-headers.json"),
    ),
    (
        "numbered-headers-2",
        include_str!("../../styles/numbered-headers-2.json"),
    ),
];

/// The locales every `name` object carries.
pub const LOCALES: [&str; 8] = [
    "de_DE", "en_EN", "es_ES", "fr_BE", "fr_CA", "fr_FR", "nl_BE", "ru_RU",
];

/// Which marker a level uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkerKind {
    /// `1.`, `1.1`, `1.1.1` (the depth says how many parts).
    Decimal,
    /// `a)`, `(a)`, `a.`
    Letter,
    /// `aa)`, `(aa)`
    DoubleLetter,
    /// `i)`, `(i)`
    Roman,
}

/// Which paragraphs a set looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Every paragraph except bullets and captions.
    Body,
    /// Headings only.
    Headings,
}

/// One numbering level of a set.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRule {
    /// The marker.
    pub marker: MarkerKind,
    /// For decimals, the number of parts (`1.1` = 2).
    #[serde(default = "one")]
    pub depth: usize,
    /// What the paragraph becomes (API spelling).
    #[serde(rename = "textType")]
    pub text_type: String,
    /// Its level.
    pub level: u8,
}

fn one() -> usize {
    1
}

/// A style set as stored in `styles/<key>.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StyleSet {
    /// The `styleSetKey`.
    pub key: String,
    /// Display name per locale.
    pub name: serde_json::Map<String, Value>,
    /// Which paragraphs it looks at.
    pub scope: Scope,
    /// `"unnumbered"`: top-level headings become plain `heading` level 0.
    #[serde(default, rename = "topHeading")]
    pub top_heading: Option<String>,
    /// The levels, Word's level 0 first.
    pub levels: Vec<LevelRule>,
}

impl StyleSet {
    fn check(&self, file: &str) -> Result<()> {
        let bad = |m: String| Error::invalid(format!("styles/{file}.json"), m);
        if self.key != file {
            return Err(bad(format!(
                "key {:?} differs from the file name",
                self.key
            )));
        }
        for locale in LOCALES {
            if !self.name.get(locale).is_some_and(Value::is_string) {
                return Err(bad(format!("name.{locale} is missing")));
            }
        }
        for (i, rule) in self.levels.iter().enumerate() {
            if TextType::parse(&rule.text_type).is_none() {
                return Err(bad(format!("levels[{i}].textType {:?}", rule.text_type)));
            }
            if rule.level > crate::ast::MAX_LEVEL || rule.depth == 0 {
                return Err(bad(format!("levels[{i}] level or depth out of range")));
            }
        }
        match self.top_heading.as_deref() {
            None | Some("unnumbered") => Ok(()),
            Some(other) => Err(bad(format!("topHeading {other:?}"))),
        }
    }
}

/// Loads every embedded set. The data is part of the build, so an error here is a bug the
/// tests catch; it is still reported as an error rather than a panic.
pub fn sets() -> Result<Vec<StyleSet>> {
    SETS.iter()
        .map(|(file, text)| {
            let set: StyleSet = serde_json::from_str(text)
                .map_err(|e| Error::invalid(format!("styles/{file}.json"), e.to_string()))?;
            set.check(file)?;
            Ok(set)
        })
        .collect()
}

/// Exactly what `GET /partner/imports/word/mapping` returns: `[{"key", "name": {locale: …}}]`.
pub fn catalog_json() -> String {
    let entries: Vec<Value> = sets()
        .unwrap_or_default()
        .into_iter()
        .map(|s| json!({"key": s.key, "name": s.name}))
        .collect();
    Value::Array(entries).to_string()
}

/// Resolves a `styleSetKey` (one key, or several joined by `|`) to its sets, in order.
/// An unknown key is an [`Error::Parameter`] naming it.
pub fn resolve(key: &str) -> Result<Vec<StyleSet>> {
    let all = sets()?;
    key.split('|')
        .map(str::trim)
        .map(|k| {
            all.iter().find(|s| s.key == k).cloned().ok_or_else(|| {
                let known: Vec<&str> = all.iter().map(|s| s.key.as_str()).collect();
                Error::parameter(
                    "styleSetKey",
                    format!("unknown style set {k:?}; known: {}", known.join(", ")),
                )
            })
        })
        .collect()
}

/// Applies the style set(s) named by `key` to `doc` (see the module documentation). Numbers
/// that skip or restart are [`WarningKind::Repaired`] warnings, a Word number dropped from an
/// unnumbered top heading a [`WarningKind::Lossy`] one. An unknown key is
/// an [`Error::Parameter`] and leaves `doc` untouched.
pub fn apply(doc: &mut Document, key: &str, report: &mut Report) -> Result<()> {
    apply_with_looks(doc, key, &NumberLooks::default(), report)
}

/// [`apply`] knowing how Word draws each list level ([`crate::import::docx::read_with_looks`]):
/// a Word-numbered paragraph then takes the rule its drawn number fits (`%1.%2` two decimal
/// parts, `(%2)` a letter, `%3%3)` a doubled letter) as a typed number would, rather than the
/// rule of its Word level, so typed and automatic numbering give the same tree.
pub fn apply_with_looks(
    doc: &mut Document,
    key: &str,
    looks: &NumberLooks,
    report: &mut Report,
) -> Result<()> {
    let sets = resolve(key)?;
    let mut states: Vec<State> = sets.iter().map(|s| State::new(s.levels.len())).collect();
    // Markers are parsed once, up front, so a paragraph can look at the next one's.
    let markers: Vec<Option<Marker>> = doc
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => marker::parse(&marker::leading_text(&p.content)),
            _ => None,
        })
        .collect();
    for (i, block) in doc.blocks.iter_mut().enumerate() {
        let Block::Paragraph(p) = block else { continue };
        let next = markers.get(i + 1).and_then(Option::as_ref);
        for (set, state) in sets.iter().zip(&mut states) {
            let at = markers.get(i).and_then(Option::as_ref);
            let ctx = Ctx {
                typed: at,
                next,
                looks,
                index: i,
            };
            if apply_one(set, state, p, &ctx, report) {
                break;
            }
        }
    }
    Ok(())
}

/// What a set has seen so far: the last value at each level, and the last level matched.
struct State {
    last: Vec<Option<u32>>,
    last_level: Option<usize>,
}

impl State {
    fn new(levels: usize) -> Self {
        State {
            last: vec![None; levels],
            last_level: None,
        }
    }

    fn expected(&self, level: usize) -> u32 {
        self.last.get(level).copied().flatten().map_or(1, |v| v + 1)
    }

    fn record(&mut self, level: usize, value: u32) {
        if let Some(slot) = self.last.get_mut(level) {
            *slot = Some(value);
        }
        for deeper in self.last.iter_mut().skip(level + 1) {
            *deeper = None;
        }
        self.last_level = Some(level);
    }
}

fn format_fits(kind: MarkerKind, format: Option<NumberFormat>) -> bool {
    match format {
        None => true,
        Some(f) => match kind {
            MarkerKind::Decimal => f == NumberFormat::Decimal,
            MarkerKind::Letter | MarkerKind::DoubleLetter => {
                matches!(f, NumberFormat::LowerLetter | NumberFormat::UpperLetter)
            }
            MarkerKind::Roman => {
                matches!(f, NumberFormat::LowerRoman | NumberFormat::UpperRoman)
            }
        },
    }
}

fn number_format(kind: MarkerKind) -> NumberFormat {
    match kind {
        MarkerKind::Decimal => NumberFormat::Decimal,
        MarkerKind::Letter | MarkerKind::DoubleLetter => NumberFormat::LowerLetter,
        MarkerKind::Roman => NumberFormat::LowerRoman,
    }
}

fn form_fits(rule: &LevelRule, form: &Form) -> bool {
    match (rule.marker, form) {
        (MarkerKind::Decimal, Form::Decimal(parts)) => parts.len() == rule.depth,
        (MarkerKind::Letter, Form::Letter(_))
        | (MarkerKind::DoubleLetter, Form::DoubleLetter(_))
        | (MarkerKind::Roman, Form::Roman(_)) => true,
        _ => false,
    }
}

/// The level (index into the set's rules) and value a typed marker stands for, if any.
fn choose(
    set: &StyleSet,
    state: &State,
    m: &Marker,
    next: Option<&Marker>,
) -> Option<(usize, u32)> {
    let candidates: Vec<(usize, u32)> = m
        .forms
        .iter()
        .flat_map(|f| {
            set.levels
                .iter()
                .enumerate()
                .filter(move |(_, r)| form_fits(r, f))
                .map(move |(i, _)| (i, f.value()))
        })
        .collect();
    let letter = candidates.iter().find(|(i, _)| {
        set.levels
            .get(*i)
            .is_some_and(|r| r.marker == MarkerKind::Letter)
    });
    let roman = candidates.iter().find(|(i, _)| {
        set.levels
            .get(*i)
            .is_some_and(|r| r.marker == MarkerKind::Roman)
    });
    if let (Some(&(li, lv)), Some(&(ri, rv))) = (letter, roman) {
        let letter_continues = state.expected(li) == lv && state.last_level == Some(li);
        // `i)` followed by `ii)`: the roman reading, whatever came before.
        let next_is_roman_sequel = next.is_some_and(|n| {
            n.forms.contains(&Form::Roman(rv + 1)) && !n.forms.contains(&Form::Letter(lv + 1))
        });
        return Some(if letter_continues && !next_is_roman_sequel {
            (li, lv)
        } else {
            (ri, rv)
        });
    }
    candidates
        .first()
        .copied()
        .filter(|&(level, value)| !m.bare || value == state.expected(level))
}

fn is_top_heading(p: &Paragraph) -> bool {
    p.kind.is_heading() && p.level == 0
}

/// What a set looks at besides the paragraph itself.
struct Ctx<'a> {
    /// The paragraph's typed marker.
    typed: Option<&'a Marker>,
    /// The next paragraph's typed marker.
    next: Option<&'a Marker>,
    looks: &'a NumberLooks,
    /// The paragraph's block index.
    index: usize,
}

/// Applies one set to one paragraph; `true` when the set took it.
fn apply_one(
    set: &StyleSet,
    state: &mut State,
    p: &mut Paragraph,
    ctx: &Ctx<'_>,
    report: &mut Report,
) -> bool {
    let in_scope = match set.scope {
        Scope::Body => !matches!(p.kind, TextType::ListUl | TextType::Caption),
        Scope::Headings => p.kind.is_heading(),
    };
    if !in_scope {
        return false;
    }
    let at = Location::default().block(ctx.index);
    if set.top_heading.is_some() && is_top_heading(p) {
        // The top level stays an unnumbered heading; a number Word drew is dropped with it.
        if p.kind == TextType::HeadingOl {
            report.warn(
                WarningKind::Lossy,
                format!("style set {}: top-level heading left unnumbered", set.key),
                at,
            );
        }
        p.kind = TextType::Heading;
        p.number_format = None;
        p.list_id = None;
        state.last_level = None;
        return true;
    }
    let word_numbered = matches!(
        p.kind,
        TextType::ListOl | TextType::ParagraphOl | TextType::HeadingOl
    ) && !matches!(
        p.number_format,
        Some(NumberFormat::Bullet | NumberFormat::None)
    );
    if word_numbered && ctx.typed.is_none() {
        if set.scope == Scope::Headings {
            // Word already numbers this heading, at the heading's own level: the service
            // numbers it again from the tree, so only Word's list identity goes. It still
            // counts, so typed numbers after it are checked against it.
            if let Some(index) = set.levels.iter().position(|r| r.level == p.level) {
                let value = state.expected(index);
                state.record(index, value);
            }
            p.list_id = None;
            return true;
        }
        let Some(index) = word_rule(set, p, ctx.looks) else {
            return false;
        };
        let Some(rule) = set.levels.get(index) else {
            return false;
        };
        let expected = state.expected(index);
        // Word's own number where it differs from a plain count (start values, restarts).
        let value = match (p.restart, p.start) {
            (_, Some(v)) => v,
            (true, None) => 1,
            (false, None) => expected,
        };
        warn_unexpected(set, rule, value, expected, at, report);
        state.record(index, value);
        set_kind(p, rule);
        clear_list(p);
        return true;
    }
    let Some(m) = ctx.typed else { return false };
    let Some((level, value)) = choose(set, state, m, ctx.next) else {
        return false;
    };
    let Some(rule) = set.levels.get(level) else {
        return false;
    };
    let expected = state.expected(level);
    warn_unexpected(set, rule, value, expected, at, report);
    state.record(level, value);
    p.content = marker::strip_leading(&p.content, m.len);
    set_kind(p, rule);
    clear_list(p);
    true
}

/// The rule (index into the set's levels) a Word-numbered paragraph takes: the one its drawn
/// number fits, the rule of its own Word level first; without a level text, the rule of its
/// Word level when the number format fits.
fn word_rule(set: &StyleSet, p: &Paragraph, looks: &NumberLooks) -> Option<usize> {
    let level = usize::from(p.level);
    let drawn = p
        .list_id
        .as_deref()
        .and_then(|id| looks.get(id, p.level))
        .and_then(shape::of);
    match drawn {
        Some(shape) => {
            let fits = |i: &usize| set.levels.get(*i).is_some_and(|r| shape_fits(r, &shape));
            Some(level)
                .filter(fits)
                .or_else(|| (0..set.levels.len()).find(fits))
        }
        None => set
            .levels
            .get(level)
            .filter(|rule| format_fits(rule.marker, p.number_format))
            .map(|_| level),
    }
}

/// Whether a drawn number is one `rule` takes, by the same measure as a typed one.
fn shape_fits(rule: &LevelRule, shape: &shape::Shape) -> bool {
    let letters = matches!(
        shape.format,
        NumberFormat::LowerLetter | NumberFormat::UpperLetter
    );
    match rule.marker {
        MarkerKind::Decimal => {
            shape.format == NumberFormat::Decimal && !shape.doubled && shape.parts == rule.depth
        }
        MarkerKind::Letter => letters && !shape.doubled && shape.parts == 1,
        MarkerKind::DoubleLetter => letters && shape.doubled && shape.parts == 1,
        MarkerKind::Roman => {
            matches!(
                shape.format,
                NumberFormat::LowerRoman | NumberFormat::UpperRoman
            ) && !shape.doubled
                && shape.parts == 1
        }
    }
}

/// Numbers that skip or restart still map; the service renumbers, so the caller hears of it.
fn warn_unexpected(
    set: &StyleSet,
    rule: &LevelRule,
    value: u32,
    expected: u32,
    at: Location,
    report: &mut Report,
) {
    if value == expected {
        return;
    }
    let what = if value == 1 { "restarts" } else { "skips" };
    report.warn(
        WarningKind::Repaired,
        format!(
            "style set {}: numbering {what} at level {} (found {value}, expected {expected}); mapped anyway",
            set.key, rule.level
        ),
        at,
    );
}

/// A mapped paragraph is numbered by the service from the tree: Word's list identity and
/// number overrides no longer apply (typed and automatic numbers end up alike).
fn clear_list(p: &mut Paragraph) {
    p.list_id = None;
    p.start = None;
    p.restart = false;
}

fn set_kind(p: &mut Paragraph, rule: &LevelRule) {
    // Checked when the set was loaded.
    p.kind = TextType::parse(&rule.text_type).unwrap_or(TextType::Paragraph);
    p.level = rule.level;
    p.number_format = Some(number_format(rule.marker));
}
