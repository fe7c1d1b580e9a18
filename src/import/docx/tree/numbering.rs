//! Stage two: list numbering as Word counts it (ECMA-376 §17.9), turned into what the tree keeps:
//! the list id (`numId`), the number format, and `start`/`restart` wherever Word's number differs
//! from what a writer counting items per list and level (deeper levels restarting under a shallower
//! item) would draw. So a writer that honours those fields renders Word's numbers: `w:start`,
//! `w:startOverride`, `w:lvlRestart`, lists continuing across interruptions, and several `numId`s
//! sharing one abstract definition's counters.

use std::collections::{HashMap, HashSet};

use crate::ast::numbering::{idle_restarts, list_format, number_blocks};
use crate::ast::{Block, Document, NumberFormat, Paragraph, TextType};
use crate::import::docx::parse::numbering::{Numbering, ResolvedLevel};
use crate::import::docx::parse::styles::Styles;

const LEVELS: usize = 9;

/// What a numbered paragraph carries in the tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListNumber {
    /// `numId`.
    pub list_id: String,
    /// The level's format.
    pub format: NumberFormat,
    /// Word's number here, when a naive count would differ.
    pub start: Option<u32>,
    /// Numbering restarts here.
    pub restart: bool,
}

/// Counters for one document part.
#[derive(Debug, Default, Clone)]
pub struct ListCounters {
    /// Word's counters: by abstract definition, or by `numId` when the num overrides levels.
    word: HashMap<String, [Option<u32>; LEVELS]>,
    /// The naive writer's counters, by `numId`.
    naive: HashMap<String, [u32; LEVELS]>,
}

/// What counting one numbered paragraph needs of its level: kept by a half of the body
/// converted apart (`super::seam`), to count it again behind the first half's counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// `numId`.
    num_id: String,
    /// The counters it moves: `a:` and the abstract definition's id, or `n:` and the `numId`
    /// when the num overrides levels.
    key: String,
    /// The level, 0..LEVELS.
    level: usize,
    /// Where the level starts (`w:startOverride`, else `w:start`, else 0).
    start_value: u32,
    /// The level's format.
    format: NumberFormat,
}

impl Count {
    /// The count of one paragraph at `lvl` of list `num_id`.
    pub fn of(num_id: &str, lvl: &ResolvedLevel) -> Self {
        Count {
            num_id: num_id.to_string(),
            key: if lvl.overridden {
                format!("n:{num_id}")
            } else {
                format!("a:{}", lvl.abstract_id)
            },
            level: usize::from(lvl.ilvl).min(LEVELS - 1),
            start_value: lvl.start_override.or(lvl.level.start).unwrap_or(0),
            format: lvl.level.number_format(),
        }
    }
}

impl ListCounters {
    /// Counts one numbered paragraph (taken whole: its names become the counters' keys and
    /// the number's list id without copies).
    pub fn count(&mut self, c: Count, numbering: &Numbering, styles: &Styles) -> ListNumber {
        let l = c.level;
        let num_id = c.num_id.as_str();
        let format = c.format;
        // Word: restart deeper levels unless their lvlRestart says otherwise.
        let restart_of = |m: usize| numbering.restart_of(num_id, m as u8, styles);
        let word = self.word.entry(c.key).or_insert([None; LEVELS]);
        let value = match word[l] {
            Some(v) => v.saturating_add(1),
            None => c.start_value,
        };
        word[l] = Some(value);
        for (m, slot) in word.iter_mut().enumerate().skip(l + 1) {
            if slot.is_none() {
                continue;
            }
            let reset = match restart_of(m) {
                Some(0) => false,
                // lvlRestart n: restart after a level-n (1-based) item, i.e. ilvl < n.
                Some(n) => (l as u32) < n,
                None => true,
            };
            if reset {
                *slot = None;
            }
        }
        let naive = self.naive.entry(num_id.to_string()).or_insert([0; LEVELS]);
        let seen_before = naive[l] > 0;
        let naive_value = naive[l] + 1;
        for slot in naive.iter_mut().skip(l + 1) {
            *slot = 0;
        }
        // A level that draws no number (bullets, `none`) has no number to keep.
        let drawn = !matches!(format, NumberFormat::Bullet | NumberFormat::None);
        let (start, restart) = if !drawn || value == naive_value {
            (None, false)
        } else {
            (Some(value).filter(|v| *v != 1), seen_before)
        };
        naive[l] = if !drawn { naive_value } else { value.max(1) };
        ListNumber {
            list_id: c.num_id,
            format,
            start,
            restart,
        }
    }
}

/// The format a writer draws when a paragraph names none (see [`crate::ast::numbering`]): the
/// outline's decimal, bullets, and decimal / lower letter / lower roman by list level.
fn default_format(kind: TextType, level: u8) -> Option<NumberFormat> {
    match kind {
        TextType::HeadingOl | TextType::ParagraphOl => Some(NumberFormat::Decimal),
        TextType::ListUl => Some(NumberFormat::Bullet),
        TextType::ListOl => Some(list_format(usize::from(level))),
        _ => None,
    }
}

/// [`canonicalise`] on the body and on the blocks of every table cell: the tree's one form of
/// the numbering Word's list ids say.
pub fn canonical_form(doc: &mut Document) {
    canonicalise(&mut doc.blocks);
    doc.par_walk_blocks_mut(|block| {
        if let Block::Table(t) = block {
            for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                canonicalise(&mut cell.blocks);
            }
        }
    });
}

/// Says Word's numbering in the fewest fields, for one block list (the body or one cell), so
/// that a document meaning the same numbers reads back as the same tree:
/// - a number format equal to what every writer draws without one becomes `None`;
/// - numbered headings and paragraphs all on one `numId` lose it: the tree has one outline
///   sequence per block list, which is what that id said;
/// - a run of adjacent list items loses the `numId`s it alone uses when the numbers
///   [`number_blocks`] draws stay the same without them (items without a list id form one
///   list until the next block that is not a list item), `restart`/`start` saying where a
///   second list begins (Word's way of restarting a list is often a new `numId` with a start
///   override). Lists that are interrupted and resumed keep their ids, unless their numbers
///   need none (bullets, `none`, or the same numbers without);
/// - `start`/`restart` on items that draw no number go when no drawn number needs them;
/// - a `restart` on an item that takes its start anyway (nothing counted at its level yet)
///   goes.
pub fn canonicalise(blocks: &mut [Block]) {
    // A set: a hostile file may give every paragraph its own numId.
    let mut outline_ids: HashSet<Option<String>> = HashSet::new();
    for b in blocks.iter_mut() {
        if let Block::Paragraph(p) = b {
            if p.number_format.is_some() && p.number_format == default_format(p.kind, p.level) {
                p.number_format = None;
            }
            if matches!(p.kind, TextType::HeadingOl | TextType::ParagraphOl)
                && !outline_ids.contains(&p.list_id)
            {
                outline_ids.insert(p.list_id.clone());
            }
        }
    }
    if outline_ids.len() == 1 {
        for b in blocks.iter_mut() {
            if let Block::Paragraph(p) = b {
                if matches!(p.kind, TextType::HeadingOl | TextType::ParagraphOl) {
                    p.list_id = None;
                }
            }
        }
    } else if outline_ids.len() > 1 {
        one_outline(blocks);
    }
    // A list none of whose items draws a number (bullets, format `none`) numbers nothing:
    // its id says nothing either, and goes (Word may split such a list into several `numId`s
    // where one level's look changes, so keeping ids would not settle).
    let draws = |p: &Paragraph| match p.kind {
        TextType::ListOl => p.number_format != Some(NumberFormat::None),
        TextType::ListUl => !matches!(
            p.number_format,
            None | Some(NumberFormat::Bullet | NumberFormat::None)
        ),
        _ => false,
    };
    let mut drawn: HashSet<String> = HashSet::new();
    for b in blocks.iter() {
        if let Block::Paragraph(p) = b {
            if let (true, Some(id)) = (p.kind.is_list() && draws(p), &p.list_id) {
                drawn.insert(id.clone());
            }
        }
    }
    for b in blocks.iter_mut() {
        if let Block::Paragraph(p) = b {
            if p.kind.is_list() && p.list_id.as_ref().is_some_and(|id| !drawn.contains(id)) {
                p.list_id = None;
                p.restart = false;
                p.start = None;
            }
        }
    }
    let is_item = |b: &Block| matches!(b, Block::Paragraph(p) if p.kind.is_list());
    // How many list items use each id in this block list.
    let mut uses: HashMap<String, usize> = HashMap::new();
    for b in blocks.iter() {
        if let Block::Paragraph(p) = b {
            if let (true, Some(id)) = (p.kind.is_list(), &p.list_id) {
                *uses.entry(id.clone()).or_default() += 1;
            }
        }
    }
    let mut start = 0;
    while start < blocks.len() {
        if !is_item(&blocks[start]) {
            start += 1;
            continue;
        }
        let end = blocks[start..]
            .iter()
            .position(|b| !is_item(b))
            .map_or(blocks.len(), |n| start + n);
        let run = &mut blocks[start..end];
        let mut in_run: HashMap<&str, usize> = HashMap::new();
        for b in run.iter() {
            if let Block::Paragraph(Paragraph {
                list_id: Some(id), ..
            }) = b
            {
                *in_run.entry(id.as_str()).or_default() += 1;
            }
        }
        // Ids used only in this run: the run can say their numbers without them. (All of
        // a run's ids or only some: the form must not depend on which items Word happened to
        // give one `numId`.)
        let local: HashSet<&str> = in_run
            .iter()
            .filter(|(id, n)| uses.get(**id).copied().unwrap_or(0) == **n)
            .map(|(id, _)| *id)
            .collect();
        if !local.is_empty() {
            let truth = number_blocks(&numbering_skeleton(run, true));
            // Their items join the run's one anonymous list: where its count would differ from
            // Word's number (a new `numId` starting again), the item says so with
            // `restart`/`start`. Items of other lists count on their own.
            let mut trial = numbering_skeleton(run, true);
            let mut counters = [0u32; 6];
            for (b, n) in trial.iter_mut().zip(&truth) {
                let Block::Paragraph(p) = b else { continue };
                if p.list_id.as_deref().is_some_and(|id| local.contains(id)) {
                    p.list_id = None;
                }
                if p.list_id.is_some() {
                    continue;
                }
                let level = usize::from(p.level.min(5));
                if p.kind == TextType::ListOl {
                    let want = n.value.unwrap_or(1);
                    (p.restart, p.start) = difference(counters[level], want);
                    counters[level] = want;
                }
                for c in &mut counters[level + 1..] {
                    *c = 0;
                }
            }
            if number_blocks(&trial) == truth {
                for (b, a) in run.iter_mut().zip(trial) {
                    if let (Block::Paragraph(p), Block::Paragraph(a)) = (b, a) {
                        if a.list_id.is_none() {
                            p.list_id = None;
                            p.restart = a.restart;
                            p.start = a.start;
                        }
                    }
                }
            }
        }
        start = end;
    }
    drop_silent_ids(blocks);
    drop_hidden_starts(blocks);
    // Last, once the ids are settled: which restarts are idle depends on which list an item
    // counts in.
    for i in idle_restarts(blocks) {
        if let Some(Block::Paragraph(p)) = blocks.get_mut(i) {
            p.restart = false;
        }
    }
}

/// Only what numbering reads of `blocks`, without the text (other blocks as page breaks, which
/// end an anonymous list as they do); list ids only with `keep_ids`.
fn numbering_skeleton(blocks: &[Block], keep_ids: bool) -> Vec<Block> {
    blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => Block::Paragraph(Paragraph {
                kind: p.kind,
                level: p.level,
                restart: p.restart,
                start: p.start,
                list_id: if keep_ids { p.list_id.clone() } else { None },
                number_format: p.number_format,
                ..Paragraph::default()
            }),
            _ => Block::PageBreak,
        })
        .collect()
}

/// How many list ids of one block list [`drop_silent_ids`] tries, each costing a count of the
/// whole list: bounded so a hostile file of many lists stays linear.
const SILENT_ID_TRIES: usize = 16;

/// Drops each list id (of a list used across interruptions) whose items are numbered the same
/// without it: Word may split one list into several `numId`s where a level's look changes, and
/// an id that numbers nothing would not come back the same.
fn drop_silent_ids(blocks: &mut [Block]) {
    let mut ids: Vec<String> = Vec::new();
    for b in blocks.iter() {
        if let Block::Paragraph(Paragraph {
            list_id: Some(id),
            kind,
            ..
        }) = b
        {
            if kind.is_list() && !ids.contains(id) {
                if ids.len() == SILENT_ID_TRIES {
                    return;
                }
                ids.push(id.clone());
            }
        }
    }
    if ids.is_empty() {
        return;
    }
    let mut skeleton = numbering_skeleton(blocks, true);
    let truth = number_blocks(&skeleton);
    for id in ids {
        let mut trial = skeleton.clone();
        for b in &mut trial {
            if let Block::Paragraph(p) = b {
                if p.kind.is_list() && p.list_id.as_ref() == Some(&id) {
                    p.list_id = None;
                }
            }
        }
        if number_blocks(&trial) == truth {
            skeleton = trial;
        }
    }
    for (b, s) in blocks.iter_mut().zip(skeleton) {
        if let (Block::Paragraph(p), Block::Paragraph(s)) = (b, s) {
            if p.kind.is_list() {
                p.list_id = s.list_id;
            }
        }
    }
}

/// Drops `start` and `restart` of the list items that draw no number (bullets, format `none`)
/// when every drawn number stays the same without them: what they say is seen nowhere, and
/// whether Word's count even reaches them depends on how the lists were split into `numId`s.
/// All at once, so it stays linear: if any drawn number needs one of them, all stay.
fn drop_hidden_starts(blocks: &mut [Block]) {
    let hidden = |p: &Paragraph| {
        (p.restart || p.start.is_some())
            && (p.kind == TextType::ListUl
                || p.kind == TextType::ListOl && p.number_format == Some(NumberFormat::None))
    };
    if !blocks
        .iter()
        .any(|b| matches!(b, Block::Paragraph(p) if hidden(p)))
    {
        return;
    }
    let mut trial = numbering_skeleton(blocks, true);
    let truth = number_blocks(&trial);
    for b in &mut trial {
        if let Block::Paragraph(p) = b {
            if hidden(p) {
                p.restart = false;
                p.start = None;
            }
        }
    }
    let drawn = |b: &Block| {
        matches!(b, Block::Paragraph(p) if p.kind == TextType::ListOl
            && p.number_format != Some(NumberFormat::None))
    };
    let same = blocks
        .iter()
        .zip(truth.iter().zip(number_blocks(&trial)))
        .all(|(b, (t, g))| !drawn(b) || t.value == g.value);
    if same {
        for b in blocks.iter_mut() {
            if let Block::Paragraph(p) = b {
                if hidden(p) {
                    p.restart = false;
                    p.start = None;
                }
            }
        }
    }
}

/// Several outline `numId`s in one block list (Word restarts numbered headings with a new
/// `numId`): the tree has one outline sequence per block list, which ignores list ids, so each
/// item keeps Word's number as `restart`/`start` where the one sequence would count otherwise,
/// and the ids go. (Kept, the ids would say nothing, and the number of an item opening a new
/// `numId` would be drawn continuing the previous one.)
fn one_outline(blocks: &mut [Block]) {
    const DEPTH: usize = 6;
    // Word's numbers: each `numId` counted on its own, as `ListCounters` left them.
    let mut per_id: HashMap<Option<String>, [u32; DEPTH]> = HashMap::new();
    // The one sequence the tree draws.
    let mut shared = [0u32; DEPTH];
    for b in blocks.iter_mut() {
        let Block::Paragraph(p) = b else { continue };
        if !matches!(p.kind, TextType::HeadingOl | TextType::ParagraphOl) {
            continue;
        }
        let level = usize::from(p.level).min(DEPTH - 1);
        // The id is copied once per list, not per item.
        if !per_id.contains_key(&p.list_id) {
            per_id.insert(p.list_id.clone(), [0; DEPTH]);
        }
        let Some(counters) = per_id.get_mut(&p.list_id) else {
            continue;
        };
        let want = step(counters, level, p.restart, p.start);
        // What the one sequence counts here unprompted; the fields say only a difference.
        (p.restart, p.start) = difference(shared[level], want);
        shared[level] = want;
        for c in &mut shared[level + 1..] {
            *c = 0;
        }
        p.list_id = None;
    }
}

/// `restart` and `start` of an item numbered `want` where the count stood at `counter` (0:
/// nothing counted at the level yet), in the one form `ListCounters` gives too: nothing when the
/// count gives `want`; a first item at a level gives its start; a later one restarts, with a
/// start unless it is 1.
fn difference(counter: u32, want: u32) -> (bool, Option<u32>) {
    let seen = counter > 0;
    if counter.saturating_add(1) == want {
        (false, None)
    } else if !seen {
        (false, Some(want))
    } else {
        (true, Some(want).filter(|v| *v != 1))
    }
}

/// One counter step as [`number_blocks`] counts: `restart` (or a first item) takes `start`
/// (default 1), else the level counts up; deeper levels start again.
fn step(counters: &mut [u32], level: usize, restart: bool, start: Option<u32>) -> u32 {
    let Some(current) = counters.get(level).copied() else {
        return start.unwrap_or(1);
    };
    let v = if restart || current == 0 {
        start.unwrap_or(1)
    } else {
        current.saturating_add(1)
    };
    for (k, c) in counters.iter_mut().enumerate().skip(level) {
        *c = if k == level { v } else { 0 };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::docx::parse::props::NumPr;
    use crate::limits::Limits;

    const XML: &str = r#"<w:numbering xmlns:w="w">
      <w:abstractNum w:abstractNumId="1">
        <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
        <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
      </w:abstractNum>
      <w:abstractNum w:abstractNumId="2">
        <w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="upperRoman"/></w:lvl>
      </w:abstractNum>
      <w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>
      <w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
      <w:num w:numId="3"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>
      <w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>
    </w:numbering>"#;

    fn count(items: &[(&str, u8)]) -> Vec<(Option<u32>, bool)> {
        let n = Numbering::parse(XML, "n", &Limits::default()).unwrap();
        let styles = Styles::default();
        let mut c = ListCounters::default();
        items
            .iter()
            .map(|(id, ilvl)| {
                let np = NumPr {
                    num_id: Some(id.to_string()),
                    ilvl: Some(*ilvl),
                };
                let lvl = n.resolve(&np, None, &styles).unwrap();
                let out = c.count(Count::of(id, &lvl), &n, &styles);
                (out.start, out.restart)
            })
            .collect()
    }

    #[test]
    fn shared_abstract_continues_and_override_restarts() {
        // 1, 2, a), b), 3 — then numId 2 shares the counters: 4 — numId 3 restarts: 1.
        let got = count(&[
            ("1", 0),
            ("1", 0),
            ("1", 1),
            ("1", 1),
            ("1", 0),
            ("2", 0),
            ("3", 0),
        ]);
        assert_eq!(
            got,
            vec![
                (None, false),
                (None, false),
                (None, false),
                (None, false),
                (None, false),
                (Some(4), false),
                (None, false)
            ]
        );
    }

    #[test]
    fn start_values_show() {
        assert_eq!(
            count(&[("4", 0), ("4", 0)]),
            vec![(Some(3), false), (None, false)]
        );
    }
}
