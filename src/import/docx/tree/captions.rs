//! Stage two: captions: a caption paragraph directly after a picture or before a table (or the
//! other way round, when that neighbour is free) becomes that block's caption and is no longer kept
//! as a paragraph. The `SEQ` number was already dropped with its label (`Figure 3: `); a typed
//! number (`Table 2 – `) is stripped here. A label naming tables prefers a neighbouring table, any
//! other label a picture. The caption paragraph's bookmark id moves to the block, so
//! cross-references to the caption still find it. Without a label, a caption kept with the next
//! paragraph (`w:keepNext`) looks below it first. A caption paragraph holding a comment's anchor
//! stays a paragraph: a block's caption is plain text.

use super::converter::{CaptionInfo, Out};
use crate::ast::{self, Block, Inline};
use crate::import::docx::caption_labels::{is_caption_label, is_table_label};
use crate::report::{Location, Report, WarningKind};

/// Splits a typed caption number off: `Figure 3: A cat` → (`Figure`, `A cat`).
pub fn strip_typed_number(text: &str) -> Option<(String, String)> {
    let text = text.trim_start();
    let word_end = text
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(text.len());
    let label = &text[..word_end];
    if !is_caption_label(label) {
        return None;
    }
    let rest = text[word_end..].trim_start_matches('.').trim_start();
    let num_end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '–')))
        .unwrap_or(rest.len());
    let number = &rest[..num_end];
    if !number.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let after = rest[num_end..].trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, ':' | '.' | '-' | '–' | '—' | '|')
    });
    Some((label.to_string(), after.trim_end().to_string()))
}

/// A test whether a neighbour can take the caption.
type Fits = fn(&Block) -> bool;

fn free_image(b: &Block) -> bool {
    matches!(b, Block::Image(img) if img.caption.is_none())
}

fn free_table(b: &Block) -> bool {
    matches!(b, Block::Table(t) if t.caption.is_none())
}

/// A caption paragraph ready to attach: its text without the number, and the neighbours it
/// may name, best first.
struct Prepared {
    /// Index of the caption paragraph.
    at: usize,
    text: String,
    numbered: bool,
    /// The paragraph's id, which moves to the block.
    id: Option<String>,
    /// Notes, links or references the plain-text caption loses.
    lossy: bool,
    order: Vec<(usize, Fits)>,
}

/// One way a caption may attach: caption `caption` (of the prepared ones) to block `block`.
struct Candidate {
    /// Surest first: numbered captions, then by the neighbour's rank in the caption's
    /// preferences, then in document order.
    sureness: (bool, usize, usize),
    caption: usize,
    block: usize,
    fits: Fits,
}

/// Attaches caption paragraphs to their neighbours; returns the final block list.
///
/// Captions are matched greedily by how sure the match is, not in document order: captions a
/// `SEQ` field numbers first (they surely belong to a neighbour), then by the rank of the
/// neighbour in the caption's preferences. So a plain caption-styled paragraph above a
/// picture cannot take the place of the caption below it, whichever comes first.
/// `marks` are indexes into the blocks (where sections start) moved with them as caption
/// paragraphs leave.
pub fn attach(out: Out, report: &mut Report, part: &str, marks: &mut [usize]) -> Vec<Block> {
    let Out {
        mut blocks,
        captions,
    } = out;
    if captions.is_empty() {
        return blocks;
    }
    let prepared: Vec<Prepared> = captions
        .into_iter()
        .filter_map(|(i, info)| prepare(&blocks, i, &info))
        .collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    for (k, c) in prepared.iter().enumerate() {
        for (rank, (j, fits)) in c.order.iter().enumerate() {
            candidates.push(Candidate {
                sureness: (!c.numbered, rank, c.at),
                caption: k,
                block: *j,
                fits: *fits,
            });
        }
    }
    candidates.sort_by_key(|c| c.sureness);
    let mut removed = vec![false; blocks.len()];
    let mut placed = vec![false; prepared.len()];
    for Candidate {
        caption: k,
        block: j,
        fits,
        ..
    } in candidates
    {
        let (Some(c), Some(false)) = (prepared.get(k), placed.get(k).copied()) else {
            continue;
        };
        if !blocks.get(j).is_some_and(fits) {
            continue;
        }
        let id = &c.id;
        // A block has one id: a caption with an id of its own (not one of Word's hidden
        // `_Toc`/`_Ref` bookmarks) beside a block with another stays a paragraph, so
        // references to either still find their target.
        let visible = |i: &&String| !i.starts_with('_');
        let block_id = match blocks.get(j) {
            Some(Block::Image(img)) => img.id.as_ref(),
            Some(Block::Table(t)) => t.id.as_ref(),
            _ => None,
        }
        .filter(visible);
        let own = id.as_ref().filter(visible);
        if own.is_some() && block_id.is_some() && block_id != own {
            continue;
        }
        // The caption's own id wins over a hidden one of the block; a hidden one fills a gap.
        let give = |slot: &mut Option<String>| {
            if own.is_some() || slot.is_none() {
                slot.clone_from(id);
            }
        };
        // Label and number alone ("Table 1") is still a caption: the block stays numbered and
        // references to it show the number.
        let caption = Some(c.text.clone());
        match blocks.get_mut(j) {
            Some(Block::Image(img)) => {
                img.caption = caption;
                img.numbered = c.numbered;
                give(&mut img.id);
            }
            Some(Block::Table(t)) => {
                t.caption = caption;
                t.numbered = c.numbered;
                give(&mut t.id);
            }
            _ => {}
        }
        if c.lossy {
            report.warn(
                WarningKind::Lossy,
                "a caption's notes, links or cross-references are kept as plain text",
                Location::part(part).element("w:p"),
            );
        }
        if let Some(r) = removed.get_mut(c.at) {
            *r = true;
        }
        if let Some(p) = placed.get_mut(k) {
            *p = true;
        }
    }
    crate::ast::pages::move_past_removed(marks, &removed);
    let mut index = 0;
    blocks.retain(|_| {
        let keep = !removed.get(index).copied().unwrap_or(false);
        index += 1;
        keep
    });
    blocks
}

/// The caption paragraph at `i` ready to attach, or `None` when it stays a paragraph.
fn prepare(blocks: &[Block], i: usize, info: &CaptionInfo) -> Option<Prepared> {
    let Some(Block::Paragraph(p)) = blocks.get(i) else {
        return None;
    };
    // A block's caption is plain text: a comment anchored in the caption paragraph would
    // lose its place, so such a paragraph stays one (caption kind) beside its block.
    if holds_comment_anchor(&p.content) {
        return None;
    }
    let raw = ast::inline::plain_text(&p.content);
    let mut text = raw.trim().to_string();
    let mut numbered = info.numbered;
    let mut label = info.label.clone();
    if !numbered {
        if let Some((l, rest)) = strip_typed_number(&text) {
            text = rest;
            numbered = true;
            label = Some(l);
        }
    }
    // An empty caption-styled paragraph without a number names nothing: it stays.
    if text.is_empty() && !numbered {
        return None;
    }
    let prev = i.checked_sub(1);
    let next = Some(i + 1);
    // Figures carry their caption below (the picture comes before it), tables above.
    let order: Vec<(Option<usize>, Fits)> = match label.as_deref().map(is_table_label) {
        Some(true) => vec![(next, free_table), (prev, free_table)],
        Some(false) => vec![(prev, free_image), (next, free_image)],
        // Without a label, "keep with next" says the caption belongs to what follows (our
        // writer keeps table captions, above their table, with it).
        None if info.keep_next => vec![
            (next, free_table),
            (next, free_image),
            (prev, free_image),
            (prev, free_table),
        ],
        None => vec![
            (prev, free_image),
            (next, free_table),
            (next, free_image),
            (prev, free_table),
        ],
    };
    Some(Prepared {
        at: i,
        text,
        numbered,
        id: p.id.clone(),
        lossy: has_atoms(&p.content),
        order: order
            .into_iter()
            .filter_map(|(j, fits)| Some((j?, fits)))
            .collect(),
    })
}

fn holds_comment_anchor(content: &[Inline]) -> bool {
    content.iter().any(|i| match i {
        Inline::CommentStart { .. } | Inline::CommentEnd { .. } => true,
        other => other.children().is_some_and(holds_comment_anchor),
    })
}

fn has_atoms(content: &[Inline]) -> bool {
    content.iter().any(|i| match i {
        Inline::Text { .. } | Inline::LineBreak => false,
        Inline::Styled { children, .. }
        | Inline::Span { children, .. }
        | Inline::Lang { children, .. }
        | Inline::Tracked { children, .. } => has_atoms(children),
        Inline::CommentStart { .. } | Inline::CommentEnd { .. } => false,
        _ => true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers() {
        assert_eq!(
            strip_typed_number("Figure 3: A cat"),
            Some(("Figure".into(), "A cat".into()))
        );
        assert_eq!(
            strip_typed_number("Tabelle 2.1 – Werte"),
            Some(("Tabelle".into(), "Werte".into()))
        );
        assert_eq!(
            strip_typed_number("Abb. 4 Hund"),
            Some(("Abb".into(), "Hund".into()))
        );
        assert_eq!(strip_typed_number("Figures are nice"), None);
        assert_eq!(strip_typed_number("Figure: x"), None);
    }
}
