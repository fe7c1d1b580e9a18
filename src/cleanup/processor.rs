//! Processors: what an action does to the blocks its filters select. Each is idempotent.

use serde::Deserialize;
use serde_json::Value;

use std::collections::BTreeSet;

use super::Action;
use super::filter::{Boldness, Filter};
use super::images::{self, ImageOp};
use crate::ast::inline::{Leaf, Run, append, from_runs, normalize, normalize_owned, to_runs};
use crate::ast::{
    Align, Block, Document, Inline, Mark, MediaStore, Paragraph, TextStyle, TextType,
};
use crate::magic::marker;

/// One processor, as the catalog spells it: `{"type": "make-heading", "level": 1}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Processor {
    /// Removes the block.
    Remove,
    /// Collapses runs of spaces to one and trims the paragraph's ends.
    CollapseWhitespace,
    /// Removes typed numbers (`1.`, `a)`, `§ 2`) from the start of the text.
    StripNumbering,
    /// Makes the paragraph an unnumbered heading at `level`, without bold (a heading's look is
    /// the service's business).
    MakeHeading {
        /// The heading level, 0..=5.
        #[serde(default)]
        level: u8,
    },
    /// Straight double quotes to the document language's quotation marks (`„…“` de, `“…”` en,
    /// `« … »` fr, `«…»` ru/es), apostrophes inside words to `’`.
    TypographicQuotes,
    /// Drops decorative formatting: underline, small caps, character styles.
    ClearFormatting,
    /// Turns line breaks inside a sentence (before a lower-case letter, after a letter, digit or
    /// comma) into spaces.
    JoinLineBreaks,
    /// Merges the paragraph with the next when that one is a plain paragraph that continues the
    /// sentence (starts with a lower-case letter).
    MergeWithNext,
    /// Sets an image to the full text width.
    FullWidth,
    /// Centres an image.
    Center,
    /// Turns the picture clockwise by `degrees` (90, 180 or 270); its displayed size turns too.
    Rotate {
        /// 90, 180 or 270.
        degrees: u16,
    },
    /// Shrinks pictures whose longer side exceeds `maxPixels` (default 2000); the displayed
    /// size stays.
    Downscale {
        /// The longest side allowed, in pixels.
        #[serde(default = "two_thousand", rename = "maxPixels")]
        max_pixels: u32,
    },
}

fn two_thousand() -> u32 {
    2000
}

impl Processor {
    /// Reads one processor from the catalog; the error is serde's (it names the unknown type).
    pub fn deserialize_value(v: &Value) -> Result<Processor, String> {
        let p = Processor::deserialize(v).map_err(|e| e.to_string())?;
        match p {
            Processor::MakeHeading { level } if level > crate::ast::MAX_LEVEL => {
                Err(format!("level {level} is above {}", crate::ast::MAX_LEVEL))
            }
            Processor::Rotate { degrees } if ![90, 180, 270].contains(&degrees) => {
                Err(format!("degrees {degrees}: 90, 180 or 270"))
            }
            Processor::Downscale { max_pixels: 0 } => Err("maxPixels must be above 0".into()),
            p => Ok(p),
        }
    }
}

struct Ctx<'a> {
    media: &'a MediaStore,
    quotes: Quotes,
}

/// Runs one action over the whole tree (table cells included); returns the number of changes.
/// Pictures that could not be processed (or hold more than `max_pixels` pixels) are added to
/// `failed` as `(name, reason)`.
pub fn run_action(
    doc: &mut Document,
    action: &Action,
    max_pixels: u64,
    failed: &mut Vec<(String, String)>,
) -> usize {
    let op = match action.processor {
        Processor::Rotate { degrees } => Some(ImageOp::Rotate(degrees)),
        Processor::Downscale { max_pixels } => Some(ImageOp::Downscale(max_pixels)),
        _ => None,
    };
    if let Some(op) = op {
        return run_image_action(doc, action, op, max_pixels, failed);
    }
    let Document {
        blocks,
        media,
        meta,
        ..
    } = doc;
    let ctx = Ctx {
        media,
        quotes: Quotes::for_language(meta.language.as_deref().unwrap_or("")),
    };
    // Page sections start at top-level block indices: they move with the blocks that go.
    let mut removed = vec![false; blocks.len()];
    let changes = run_list(blocks, action, &ctx, Some(&mut removed));
    if removed.contains(&true) {
        meta.pages.blocks_removed(&removed);
    }
    changes
}

fn run_image_action(
    doc: &mut Document,
    action: &Action,
    op: ImageOp,
    max_pixels: u64,
    failed: &mut Vec<(String, String)>,
) -> usize {
    let mut names = BTreeSet::new();
    let media = &doc.media;
    doc.walk_blocks(&mut |_, block| {
        if let Block::Image(img) = block {
            if action.filters.iter().all(|f| f.matches(block, media)) {
                names.insert(img.media.clone());
            }
        }
    });
    let (changed, mut errors) = images::process(&mut doc.media, &names, op, max_pixels);
    failed.append(&mut errors);
    if matches!(op, ImageOp::Rotate(90 | 270)) {
        doc.walk_blocks_mut(&mut |_, block| {
            if let Block::Image(img) = block {
                if changed.contains(&img.media) {
                    if let Some(e) = &mut img.extent {
                        std::mem::swap(&mut e.width, &mut e.height);
                    }
                }
            }
        });
    }
    changed.len()
}

fn passes(action: &Action, block: &Block, ctx: &Ctx) -> bool {
    passes_as(action, block, ctx, None)
}

/// [`passes`], with [`Filter::AllBold`] answered from `bold` when it is known.
fn passes_as(action: &Action, block: &Block, ctx: &Ctx, bold: Option<Boldness>) -> bool {
    action.filters.iter().all(|f| match (f, bold) {
        (Filter::AllBold, Some(b)) => b.all_bold(),
        _ => f.matches(block, ctx.media),
    })
}

/// Runs `action` over `blocks` and the blocks of their table cells. `removed`, when given, has
/// one entry per block of `blocks` as they were and is set for each block that went.
fn run_list(
    blocks: &mut Vec<Block>,
    action: &Action,
    ctx: &Ctx,
    mut removed: Option<&mut Vec<bool>>,
) -> usize {
    let mut changes = 0;
    match &action.processor {
        Processor::Remove => {
            let before = blocks.len();
            let mut index = 0;
            blocks.retain(|b| {
                let goes = passes(action, b, ctx);
                if goes && let Some(slot) = removed.as_mut().and_then(|r| r.get_mut(index)) {
                    *slot = true;
                }
                index += 1;
                !goes
            });
            changes += before - blocks.len();
        }
        Processor::MergeWithNext => {
            // One pass into a new list: a paragraph that takes in the next grows where it is
            // (the next one's content appended, already in canonical form), so a chain of any
            // length costs its size, where removing each block and normalizing the whole
            // paragraph again after every merge cost its square. (The filters that look at a
            // paragraph's text read its end only, `short` stops passing once the paragraph is
            // long, and `all-bold` is answered from what the paragraph took in.)
            let mut kept: Vec<Block> = Vec::with_capacity(blocks.len());
            // Whether the last kept block has taken in a paragraph already (its content is
            // canonical by then).
            let mut grown = false;
            // The grown paragraph's boldness, when a filter asks for it.
            let reads_bold = action.filters.contains(&Filter::AllBold);
            let mut bold: Option<Boldness> = None;
            for (index, block) in std::mem::take(blocks).into_iter().enumerate() {
                // Only a paragraph takes the next one's text: a custom catalog's filter could
                // pass any block, and the text must not go with it. The filter is asked again
                // of a paragraph that has taken one in: it may go on into the next.
                let takes = matches!(&block, Block::Paragraph(next) if continues(next))
                    && matches!(kept.last(), Some(b @ Block::Paragraph(_)) if passes_as(action, b, ctx, bold));
                if !takes {
                    kept.push(block);
                    grown = false;
                    bold = None;
                    continue;
                }
                if let (Some(Block::Paragraph(p)), Block::Paragraph(next)) =
                    (kept.last_mut(), block)
                {
                    if !grown {
                        p.content = normalize_owned(std::mem::take(&mut p.content));
                        bold = reads_bold.then(|| Boldness::of(&p.content));
                    }
                    let next = normalize_owned(next.content);
                    // The space between is white space, which boldness does not read.
                    bold = bold.map(|b| b.then(Boldness::of(&next)));
                    append(&mut p.content, vec![Inline::text(" ")]);
                    append(&mut p.content, next);
                    grown = true;
                    changes += 1;
                }
                if let Some(slot) = removed.as_mut().and_then(|r| r.get_mut(index)) {
                    *slot = true;
                }
            }
            *blocks = kept;
        }
        processor => {
            for block in blocks.iter_mut() {
                if passes(action, block, ctx) && apply_block(processor, block, ctx) {
                    changes += 1;
                }
            }
        }
    }
    for block in blocks.iter_mut() {
        if let Block::Table(t) = block {
            for row in &mut t.rows {
                for cell in &mut row.cells {
                    changes += run_list(&mut cell.blocks, action, ctx, None);
                }
            }
        }
    }
    changes
}

/// A plain paragraph that goes on with a sentence begun before it.
fn continues(p: &Paragraph) -> bool {
    p.kind == TextType::Paragraph
        && marker::leading_text(&p.content)
            .trim_start()
            .chars()
            .next()
            .is_some_and(char::is_lowercase)
}

/// Applies a per-block processor; `true` when the block changed.
fn apply_block(processor: &Processor, block: &mut Block, ctx: &Ctx) -> bool {
    match (processor, block) {
        (Processor::FullWidth, Block::Image(img)) => {
            let changed = img.width_percent != Some(100.0);
            img.width_percent = Some(100.0);
            changed
        }
        (Processor::Center, Block::Image(img)) => {
            let changed = img.align != Align::Center;
            img.align = Align::Center;
            changed
        }
        (Processor::MakeHeading { level }, Block::Paragraph(p)) => {
            let before = p.clone();
            p.kind = TextType::Heading;
            p.level = *level;
            p.number_format = None;
            p.list_id = None;
            p.content = map_runs(&p.content, |runs| {
                for r in runs.iter_mut() {
                    r.marks.retain(|m| *m != Mark::Style(TextStyle::Bold));
                }
            });
            *p != before
        }
        (processor, Block::Paragraph(p)) => {
            let new = match processor {
                Processor::CollapseWhitespace => map_runs(&p.content, collapse_whitespace),
                Processor::StripNumbering => strip_numbering(&p.content),
                Processor::TypographicQuotes => map_runs(&p.content, |runs| ctx.quotes.apply(runs)),
                Processor::ClearFormatting => map_runs(&p.content, |runs| {
                    for r in runs.iter_mut() {
                        r.marks.retain(|m| {
                            !matches!(
                                m,
                                Mark::Style(TextStyle::Underline | TextStyle::SmallCaps)
                                    | Mark::Span(_)
                            )
                        });
                    }
                }),
                Processor::JoinLineBreaks => map_runs(&p.content, join_line_breaks),
                _ => return false,
            };
            let changed = new != p.content;
            p.content = new;
            changed
        }
        _ => false,
    }
}

fn map_runs(content: &[Inline], f: impl FnOnce(&mut [Run])) -> Vec<Inline> {
    let mut runs = to_runs(content);
    f(&mut runs);
    from_runs(runs)
}

fn strip_numbering(content: &[Inline]) -> Vec<Inline> {
    let mut out = normalize(content);
    // `1. 1.1 Scope`: strip until no number is left, so a second run finds nothing.
    for _ in 0..8 {
        match marker::parse(&marker::leading_text(&out)) {
            Some(m) => out = marker::strip_leading(&out, m.len),
            None => break,
        }
    }
    out
}

fn collapse_whitespace(runs: &mut [Run]) {
    // `true` at the start: leading spaces go.
    let mut after_space = true;
    for run in runs.iter_mut() {
        match &mut run.leaf {
            Leaf::Text(t) => {
                let mut s = String::with_capacity(t.len());
                for c in t.chars() {
                    if c == ' ' {
                        if !after_space {
                            s.push(c);
                        }
                        after_space = true;
                    } else {
                        s.push(c);
                        after_space = false;
                    }
                }
                *t = s;
            }
            Leaf::LineBreak => after_space = true,
            Leaf::Atom(_) => after_space = false,
        }
    }
    // Trailing spaces go too, across runs.
    for run in runs.iter_mut().rev() {
        match &mut run.leaf {
            Leaf::Text(t) => {
                let kept = t.trim_end_matches(' ').len();
                t.truncate(kept);
                if !t.is_empty() {
                    break;
                }
            }
            _ => break,
        }
    }
}

fn join_line_breaks(runs: &mut [Run]) {
    for i in 0..runs.len() {
        if !matches!(runs.get(i).map(|r| &r.leaf), Some(Leaf::LineBreak)) {
            continue;
        }
        let before = match i.checked_sub(1).and_then(|j| runs.get(j)) {
            Some(Run {
                leaf: Leaf::Text(t),
                ..
            }) => t.clone(),
            _ => continue,
        };
        let after = match runs.get(i + 1) {
            Some(Run {
                leaf: Leaf::Text(t),
                ..
            }) => t.clone(),
            _ => continue,
        };
        let mid_sentence = before
            .trim_end()
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == ',')
            && after
                .trim_start()
                .chars()
                .next()
                .is_some_and(char::is_lowercase);
        if mid_sentence {
            if let Some(run) = runs.get_mut(i) {
                let space = !before.ends_with(char::is_whitespace)
                    && !after.starts_with(char::is_whitespace);
                run.leaf = Leaf::Text(if space { " ".into() } else { String::new() });
            }
        }
    }
}

/// The quotation marks of a language.
struct Quotes {
    open: &'static str,
    close: &'static str,
    /// French puts a no-break space inside the guillemets.
    spaced: bool,
}

impl Quotes {
    fn for_language(lang: &str) -> Quotes {
        let lang = lang.to_ascii_lowercase();
        let (open, close, spaced) = match lang.get(..2).unwrap_or("") {
            "de" => ("„", "“", false),
            "fr" => ("«", "»", true),
            "ru" | "es" => ("«", "»", false),
            _ => ("“", "”", false),
        };
        Quotes {
            open,
            close,
            spaced,
        }
    }

    fn apply(&self, runs: &mut [Run]) {
        let mut prev: Option<char> = None;
        // Inside a quotation opened earlier in the paragraph: the next mark closes it, even
        // after a space (`« oui »` typed as `" oui "`).
        let mut inside = false;
        for run in runs.iter_mut() {
            let t = match &mut run.leaf {
                Leaf::Text(t) => t,
                Leaf::LineBreak => {
                    prev = None;
                    continue;
                }
                Leaf::Atom(_) => {
                    prev = Some('x');
                    continue;
                }
            };
            if !t.contains(['"', '\'']) {
                prev = t.chars().last().or(prev);
                continue;
            }
            let mut s = String::with_capacity(t.len() + 8);
            let mut skip_spaces = false;
            for c in t.chars() {
                if skip_spaces && c == ' ' {
                    continue;
                }
                skip_spaces = false;
                match c {
                    '"' => {
                        let opening = !inside
                            && prev.is_none_or(|p| p.is_whitespace() || "([{—–-/".contains(p));
                        inside = opening;
                        if opening {
                            s.push_str(self.open);
                            if self.spaced {
                                s.push('\u{a0}');
                                skip_spaces = true;
                            }
                        } else {
                            if self.spaced {
                                let kept = s.trim_end_matches(' ').len();
                                s.truncate(kept);
                                s.push('\u{a0}');
                            }
                            s.push_str(self.close);
                        }
                    }
                    '\'' if prev.is_some_and(char::is_alphanumeric) => s.push('’'),
                    other => s.push(other),
                }
                prev = s.chars().last();
            }
            *t = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::inline::is_normalized;

    fn quote(lang: &str, text: &str) -> String {
        let mut runs = to_runs(&[Inline::text(text)]);
        Quotes::for_language(lang).apply(&mut runs);
        crate::ast::inline::plain_text(&from_runs(runs))
    }

    #[test]
    fn quotes_per_language() {
        assert_eq!(quote("de_DE", r#"Er sagte "ja"."#), "Er sagte „ja“.");
        assert_eq!(quote("en_EN", r#""Yes," it's"#), "“Yes,” it’s");
        assert_eq!(
            quote("fr_CA", r#"Il dit " oui "."#),
            "Il dit «\u{a0}oui\u{a0}»."
        );
        assert_eq!(quote("ru_RU", r#""Да""#), "«Да»");
    }

    #[test]
    fn collapse() {
        let mut runs = to_runs(&[
            Inline::text("  a  b "),
            Inline::styled(TextStyle::Bold, vec![Inline::text("  c  ")]),
        ]);
        collapse_whitespace(&mut runs);
        assert_eq!(
            from_runs(runs),
            vec![
                Inline::text("a b "),
                Inline::styled(TextStyle::Bold, vec![Inline::text("c")])
            ]
        );
    }

    /// The merge as it was first written, a block removed and the paragraph normalized whole
    /// at every step: the model the one-pass merge must agree with.
    fn merge_model(
        blocks: &mut Vec<Block>,
        action: &Action,
        ctx: &Ctx,
        removed: &mut [bool],
    ) -> usize {
        let mut origin: Vec<usize> = (0..blocks.len()).collect();
        let mut changes = 0;
        let mut i = 0;
        while i + 1 < blocks.len() {
            let merge = matches!(&blocks[i], b @ Block::Paragraph(_) if passes(action, b, ctx))
                && matches!(&blocks[i + 1], Block::Paragraph(next) if continues(next));
            if !merge {
                i += 1;
                continue;
            }
            let Block::Paragraph(next) = blocks.remove(i + 1) else {
                unreachable!("checked above")
            };
            removed[origin.remove(i + 1)] = true;
            if let Block::Paragraph(p) = &mut blocks[i] {
                let mut content = std::mem::take(&mut p.content);
                content.push(Inline::text(" "));
                content.extend(next.content);
                p.content = normalize(&content);
                changes += 1;
            }
        }
        changes
    }

    /// A paragraph's content of a few pieces: text that starts in lower or upper case and ends
    /// mid-sentence or not, bold, a break, a note, and two texts side by side (not canonical).
    fn arb_block() -> impl proptest::strategy::Strategy<Value = Block> {
        use crate::ast::NoteKind;
        use proptest::prelude::*;
        let piece = prop_oneof![
            Just(vec![Inline::text("was")]),
            Just(vec![Inline::text("Next.")]),
            Just(vec![Inline::text("and so,")]),
            Just(vec![Inline::text(" ")]),
            Just(vec![Inline::styled(
                TextStyle::Bold,
                vec![Inline::text("goes")]
            )]),
            Just(vec![Inline::styled(
                TextStyle::Bold,
                vec![Inline::text("On.")]
            )]),
            Just(vec![Inline::LineBreak]),
            Just(vec![Inline::Note {
                kind: NoteKind::Footnote,
                content: vec![Inline::text("n")],
            }]),
            Just(vec![Inline::text("on"), Inline::text("ly")]),
        ];
        let kind = prop_oneof![Just(TextType::Paragraph), Just(TextType::Heading)];
        prop_oneof![
            8 => (kind, proptest::collection::vec(piece, 0..4)).prop_map(|(kind, pieces)| {
                Block::Paragraph(Paragraph::new(kind, pieces.concat()))
            }),
            1 => Just(Block::PageBreak),
        ]
    }

    proptest::proptest! {
        /// The one-pass merge gives the blocks, changes and removed blocks the model gives,
        /// under the built-in routine's filters and under filters that look at the whole
        /// growing paragraph.
        #[test]
        fn merging_in_one_pass_is_merging_block_by_block(
            blocks in proptest::collection::vec(arb_block(), 0..12)
        ) {
            use super::super::Filter;
            let media = MediaStore::default();
            let ctx = Ctx { media: &media, quotes: Quotes::for_language("") };
            let filter_sets = [
                vec![Filter::TextType { text_type: TextType::Paragraph }, Filter::EndsMidSentence],
                vec![Filter::Paragraph],
                vec![Filter::Short { max_chars: 12 }],
                vec![Filter::NoFinalPunctuation, Filter::AllBold],
                vec![Filter::AllBold],
            ];
            for filters in filter_sets {
                let action = Action { filters, processor: Processor::MergeWithNext };
                let mut expected = blocks.clone();
                let mut expected_removed = vec![false; blocks.len()];
                let expected_changes =
                    merge_model(&mut expected, &action, &ctx, &mut expected_removed);
                let mut got = blocks.clone();
                let mut removed = vec![false; blocks.len()];
                let changes = run_list(&mut got, &action, &ctx, Some(&mut removed));
                proptest::prop_assert_eq!(&got, &expected, "{:?}", action.filters);
                proptest::prop_assert_eq!(changes, expected_changes);
                proptest::prop_assert_eq!(removed, expected_removed);
            }
        }
    }

    /// A chain of 20,000 paragraphs that each go on with the sentence becomes one paragraph
    /// (removing a block and normalizing the paragraph at every merge took this quadratic).
    #[test]
    fn a_long_chain_merges_into_one_paragraph() {
        use super::super::Filter;
        let media = MediaStore::default();
        let ctx = Ctx {
            media: &media,
            quotes: Quotes::for_language(""),
        };
        for filter in [
            Filter::EndsMidSentence,
            Filter::NoFinalPunctuation,
            Filter::AllBold,
        ] {
            merge_chain(&ctx, filter);
        }
    }

    fn merge_chain(ctx: &Ctx, filter: super::super::Filter) {
        let action = Action {
            filters: vec![filter],
            processor: Processor::MergeWithNext,
        };
        let mut blocks: Vec<Block> = (0..20_000)
            .map(|i| {
                let word = if i == 0 { "It" } else { "went" };
                Block::Paragraph(Paragraph::new(
                    TextType::Paragraph,
                    vec![Inline::styled(TextStyle::Bold, vec![Inline::text(word)])],
                ))
            })
            .collect();
        let mut removed = vec![false; blocks.len()];
        let changes = run_list(&mut blocks, &action, ctx, Some(&mut removed));
        assert_eq!(changes, 19_999);
        assert_eq!(removed.iter().filter(|r| **r).count(), 19_999);
        assert!(!removed[0]);
        let [Block::Paragraph(p)] = blocks.as_slice() else {
            panic!("{} blocks", blocks.len())
        };
        // Bold words with plain spaces between them: one wrapper per word, canonical.
        assert!(is_normalized(&p.content));
        assert_eq!(p.content.len(), 2 * 20_000 - 1);
        let text = crate::ast::inline::plain_text(&p.content);
        assert!(text.starts_with("It went went"));
        assert_eq!(text.len(), 2 + 19_999 * 5);
    }
}
