//! The numbers a writer draws: outline numbers of numbered headings and paragraphs (`1.2.1`),
//! list item numbers (`3`, `c`, `iv`), and figure and table caption numbers. Computed from the
//! flat tree so every writer numbers the same way.
//!
//! Rules:
//! - `heading-ol` and `paragraph-ol` share one outline counter per level (the service's contract
//!   layouts number `1.` headings and `1.1` paragraphs in one sequence). An item at level L counts
//!   up at L and resets the deeper levels; its label joins the counters from the shallowest level
//!   that has numbered anything (so numbering that starts at level 1 reads `1`, `1.1`, not `0.1`).
//!   `restart` sets the counter to `start` (default 1).
//! - `list-ol` items count per list: items with the same `list_id` form one list even across
//!   interruptions (Word's continuation); items without one form a list that ends at the next
//!   non-list block. The label is drawn in the item's `number_format`, else by level: decimal,
//!   lower letter, lower roman, repeating.
//! - Images and tables whose caption is numbered get the next figure or table number, also when
//!   the caption's text is empty (Word's "Table 1" caption with no words after the number).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Block, NumberFormat, TextType};

/// What one block shows as its number(s).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockNumber {
    /// The counter value of a numbered heading, paragraph or list item.
    pub value: Option<u32>,
    /// The drawn label without punctuation: `1.2`, `c`, `iv`.
    pub label: Option<String>,
    /// The figure (image) or table number of a numbered caption.
    pub caption: Option<u32>,
}

/// Numbers every block of `blocks` (top level only; call again for a cell's blocks).
pub fn number_blocks(blocks: &[Block]) -> Vec<BlockNumber> {
    let mut out = Vec::with_capacity(blocks.len());
    count(blocks, &mut |_, _| {}, Some(&mut out));
    out
}

/// [`number_blocks`] for a slice that often numbers nothing (a table cell): empty when no block
/// shows a number ([`numbers_any`]), each block's number then being the default. Read it with
/// [`number_at`].
pub fn number_blocks_if_any(blocks: &[Block]) -> Vec<BlockNumber> {
    if numbers_any(blocks) {
        number_blocks(blocks)
    } else {
        Vec::new()
    }
}

/// Block `i`'s number in what [`number_blocks`] or [`number_blocks_if_any`] gave: the default
/// (no number) past its end.
pub fn number_at(numbers: &[BlockNumber], i: usize) -> &BlockNumber {
    static NONE: BlockNumber = BlockNumber {
        value: None,
        label: None,
        caption: None,
    };
    numbers.get(i).unwrap_or(&NONE)
}

/// Whether any block of `blocks` shows a number ([`number_blocks`] gives every other block the
/// default): a numbered heading or paragraph, an ordered list item, or a picture or table with
/// a numbered caption.
pub fn numbers_any(blocks: &[Block]) -> bool {
    blocks.iter().any(|b| match b {
        Block::Paragraph(p) => matches!(
            p.kind,
            TextType::HeadingOl | TextType::ParagraphOl | TextType::ListOl
        ),
        Block::Image(img) => img.numbered && img.caption.is_some(),
        Block::Table(t) => t.numbered && t.caption.is_some(),
        _ => false,
    })
}

/// The indexes of the items in `blocks` whose `restart` changes no number: nothing at their
/// level has counted yet in their list (or the outline), so they take their start anyway.
/// A reader drops these to say each numbering one way.
pub fn idle_restarts(blocks: &[Block]) -> Vec<usize> {
    let mut idle = Vec::new();
    count(
        blocks,
        &mut |i, counter| {
            if counter == 0 {
                idle.push(i);
            }
        },
        None,
    );
    idle
}

/// Counts `blocks` as [`number_blocks`] does, telling `on_restart` the index of each counted
/// item with `restart` and the counter its level stood at before it, and pushing each block's
/// number to `out` when given. Without `out` no label is drawn: the Word reader asks for the
/// restarts of every table cell, and labels it would throw away cost an allocation each.
fn count(
    blocks: &[Block],
    on_restart: &mut dyn FnMut(usize, u32),
    mut out: Option<&mut Vec<BlockNumber>>,
) {
    let labels = out.is_some();
    let mut outline = [0u32; 6];
    // By list id; a map, as a hostile input may give every item its own.
    let mut lists: HashMap<&str, [u32; 6]> = HashMap::new();
    let mut anonymous: Option<[u32; 6]> = None;
    let (mut figures, mut tables) = (0u32, 0u32);
    for (i, block) in blocks.iter().enumerate() {
        let mut n = BlockNumber::default();
        match block {
            Block::Paragraph(p) => {
                let level = usize::from(p.level.min(5));
                match p.kind {
                    TextType::HeadingOl | TextType::ParagraphOl => {
                        if p.restart {
                            on_restart(i, outline[level]);
                        }
                        let v = step(&mut outline, level, p.restart, p.start);
                        n.value = Some(v);
                        if labels {
                            let first = outline.iter().position(|&c| c > 0).unwrap_or(level);
                            n.label = Some(outline_label(&outline[first.min(level)..=level]));
                        }
                    }
                    TextType::ListOl | TextType::ListUl => {
                        let counters = match &p.list_id {
                            Some(id) => lists.entry(id.as_str()).or_insert([0; 6]),
                            None => anonymous.get_or_insert([0; 6]),
                        };
                        if p.kind == TextType::ListOl {
                            if p.restart {
                                on_restart(i, counters[level]);
                            }
                            let v = step(counters, level, p.restart, p.start);
                            let format = p.number_format.unwrap_or(list_format(level));
                            n.value = Some(v);
                            if labels {
                                n.label = Some(format_number(v, format));
                            }
                        } else {
                            for c in &mut counters[level + 1..] {
                                *c = 0;
                            }
                        }
                    }
                    _ => {}
                }
                if !p.kind.is_list() {
                    anonymous = None;
                }
            }
            Block::Image(img) => {
                anonymous = None;
                if img.numbered && img.caption.is_some() {
                    figures += 1;
                    n.caption = Some(figures);
                }
            }
            Block::Table(t) => {
                anonymous = None;
                if t.numbered && t.caption.is_some() {
                    tables += 1;
                    n.caption = Some(tables);
                }
            }
            Block::PageBreak | Block::Directory { .. } => anonymous = None,
        }
        if let Some(out) = out.as_deref_mut() {
            out.push(n);
        }
    }
}

/// The counters joined with dots: `1.2.1`.
fn outline_label(counters: &[u32]) -> String {
    let mut label = String::with_capacity(counters.len() * 2);
    for (i, c) in counters.iter().enumerate() {
        if i > 0 {
            label.push('.');
        }
        // Writing into a String cannot fail.
        let _ = write!(label, "{c}");
    }
    label
}

/// The format an ordered list item without one is drawn in, by its level: decimal, lower
/// letter, lower roman, repeating. Every writer and the Word reader's canonical form use it.
pub fn list_format(level: usize) -> NumberFormat {
    match level % 3 {
        0 => NumberFormat::Decimal,
        1 => NumberFormat::LowerLetter,
        _ => NumberFormat::LowerRoman,
    }
}

fn step(counters: &mut [u32; 6], level: usize, restart: bool, start: Option<u32>) -> u32 {
    let first = start.unwrap_or(1);
    let v = if restart || counters[level] == 0 {
        first
    } else {
        counters[level].saturating_add(1)
    };
    counters[level] = v;
    for c in &mut counters[level + 1..] {
        *c = 0;
    }
    v
}

/// Draws `n` in `format`: `3`, `c`, `C`, `iii`, `III`, `•`, or nothing.
pub fn format_number(n: u32, format: NumberFormat) -> String {
    match format {
        NumberFormat::Decimal => n.to_string(),
        NumberFormat::LowerLetter => letters(n),
        NumberFormat::UpperLetter => letters(n).to_uppercase(),
        NumberFormat::LowerRoman => roman(n),
        NumberFormat::UpperRoman => roman(n).to_uppercase(),
        NumberFormat::Bullet => "•".into(),
        NumberFormat::None => String::new(),
    }
}

/// Word's letter numbering: a … z, aa … zz, aaa …
fn letters(n: u32) -> String {
    if n == 0 {
        return "0".into();
    }
    let letter = char::from(b'a' + ((n - 1) % 26) as u8);
    let times = ((n - 1) / 26 + 1).min(100) as usize;
    std::iter::repeat_n(letter, times).collect()
}

fn roman(mut n: u32) -> String {
    if n == 0 || n >= 4000 {
        return n.to_string();
    }
    const TABLE: [(u32, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut s = String::new();
    for (v, r) in TABLE {
        while n >= v {
            s.push_str(r);
            n -= v;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Image, Inline, Paragraph};

    fn p(kind: TextType, level: u8) -> Block {
        Block::Paragraph(Paragraph {
            level,
            ..Paragraph::new(kind, vec![Inline::text("x")])
        })
    }

    fn img(caption: Option<&str>, numbered: bool) -> Block {
        Block::Image(Image {
            media: "a".into(),
            caption: caption.map(String::from),
            numbered,
            ..Image::default()
        })
    }

    fn labels(blocks: &[Block]) -> Vec<Option<String>> {
        number_blocks(blocks).into_iter().map(|n| n.label).collect()
    }

    #[test]
    fn outline_numbers_share_levels_and_reset_deeper() {
        use TextType::*;
        let blocks = [
            p(HeadingOl, 0),
            p(ParagraphOl, 1),
            p(ParagraphOl, 1),
            p(ParagraphOl, 2),
            p(Paragraph, 0),
            p(HeadingOl, 0),
            p(ParagraphOl, 1),
        ];
        let l = labels(&blocks);
        let want = ["1", "1.1", "1.2", "1.2.1", "", "2", "2.1"];
        for (got, want) in l.iter().zip(want) {
            assert_eq!(got.as_deref().unwrap_or(""), want);
        }
    }

    #[test]
    fn numbering_starting_below_the_top_has_no_zero() {
        use TextType::*;
        let l = labels(&[
            p(Heading, 0),
            p(HeadingOl, 1),
            p(HeadingOl, 2),
            p(HeadingOl, 1),
        ]);
        assert_eq!(
            l,
            [None, Some("1".into()), Some("1.1".into()), Some("2".into())]
        );
    }

    #[test]
    fn restart_and_start_values() {
        let mut b = p(TextType::ListOl, 0);
        let mut restarted = p(TextType::ListOl, 0);
        if let Block::Paragraph(p) = &mut b {
            p.start = Some(5);
        }
        if let Block::Paragraph(p) = &mut restarted {
            p.restart = true;
        }
        let l = labels(&[b, p(TextType::ListOl, 0), restarted]);
        assert_eq!(l, [Some("5".into()), Some("6".into()), Some("1".into())]);
    }

    #[test]
    fn idle_restarts_are_those_taking_their_start_anyway() {
        let restarted = |kind: TextType, level: u8| {
            let mut b = p(kind, level);
            if let Block::Paragraph(p) = &mut b {
                p.restart = true;
            }
            b
        };
        let blocks = [
            restarted(TextType::ListOl, 0),    // idle: the list's first item
            restarted(TextType::ListOl, 0),    // counts again at 1
            restarted(TextType::ListOl, 1),    // idle: first at its level
            p(TextType::ListOl, 0),            // ends level 1
            restarted(TextType::ListOl, 1),    // idle again
            restarted(TextType::HeadingOl, 0), // idle: the outline's first
            restarted(TextType::HeadingOl, 0),
        ];
        assert_eq!(idle_restarts(&blocks), [0, 2, 4, 5]);
    }

    #[test]
    fn lists_by_id_continue_and_anonymous_lists_end() {
        let item = |id: Option<&str>, level| {
            Block::Paragraph(Paragraph {
                level,
                list_id: id.map(String::from),
                ..Paragraph::new(TextType::ListOl, vec![])
            })
        };
        let blocks = [
            item(Some("7"), 0),
            item(Some("7"), 1),
            item(Some("7"), 1),
            p(TextType::Paragraph, 0),
            item(Some("7"), 0),
            item(None, 0),
            p(TextType::Paragraph, 0),
            item(None, 0),
        ];
        let l = labels(&blocks);
        let want = ["1", "a", "b", "", "2", "1", "", "1"];
        for (got, want) in l.iter().zip(want) {
            assert_eq!(got.as_deref().unwrap_or(""), want);
        }
    }

    #[test]
    fn captions_count_only_numbered_captioned() {
        let n = number_blocks(&[
            img(Some("A"), true),
            img(None, true),
            img(Some("B"), false),
            img(Some("C"), true),
            img(Some(""), true),
        ]);
        let c: Vec<_> = n.iter().map(|n| n.caption).collect();
        assert_eq!(c, [Some(1), None, None, Some(2), Some(3)]);
    }

    #[test]
    fn numbers_any_is_whether_some_number_is_not_the_default() {
        let kinds = [
            TextType::Paragraph,
            TextType::Heading,
            TextType::HeadingOl,
            TextType::ParagraphOl,
            TextType::ListOl,
            TextType::ListUl,
            TextType::Caption,
        ];
        let mut cases: Vec<Vec<Block>> = kinds.iter().map(|&k| vec![p(k, 1)]).collect();
        cases.push(vec![img(Some("A"), true)]);
        cases.push(vec![img(Some("A"), false), img(None, true)]);
        cases.push(vec![
            p(TextType::ListUl, 0),
            p(TextType::ListUl, 1),
            Block::PageBreak,
        ]);
        cases.push(Vec::new());
        let mut some = 0;
        for blocks in &cases {
            let all = number_blocks(blocks);
            let shown = all.iter().any(|n| *n != BlockNumber::default());
            assert_eq!(numbers_any(blocks), shown, "{blocks:?}");
            some += usize::from(shown);
            // Read through `number_at`, the short form gives every block its full number.
            let short = number_blocks_if_any(blocks);
            assert_eq!(short.is_empty(), !shown);
            for (i, n) in all.iter().enumerate() {
                assert_eq!(number_at(&short, i), n, "{blocks:?} #{i}");
            }
        }
        // Both answers occur: the cases tell them apart.
        assert_eq!(some, 4);
    }

    #[test]
    fn formats() {
        assert_eq!(format_number(28, NumberFormat::LowerLetter), "bb");
        assert_eq!(format_number(1994, NumberFormat::UpperRoman), "MCMXCIV");
        assert_eq!(format_number(4, NumberFormat::LowerRoman), "iv");
        assert_eq!(format_number(0, NumberFormat::LowerRoman), "0");
    }
}
