//! Stage two's top level in two halves at once: a long body's second half is converted on the
//! rayon pool while the calling thread converts the first, then joined behind it as if one
//! converter had read on.
//!
//! The second half's converter starts without what the first half leaves: list counters, ids
//! taken, media names, warnings given once, styles looked at, the open field stack, bookmarks
//! waiting for a block. Of what carries on it keeps a log or the state itself, and the join does
//! its part again behind the first half's state and checks that nothing came out otherwise:
//! - each numbered paragraph is counted again behind the first half's counters; a paragraph
//!   whose number comes out otherwise (where several list ids share one definition's counters,
//!   as LibreOffice writes lists) takes the new start and restart, found among the paragraphs
//!   of its list by the order they were made;
//! - where a bookmark is named in both halves, its blocks' bookmarks are given out as ids
//!   again behind the first half's, and the block whose id comes out otherwise takes the new
//!   one (aliases follow);
//! - its media names, handed out again behind the first half's, must come out the same;
//! - at the seam no field may be open and no bookmark waiting, and at most one half may hold
//!   SmartArt (their list ids count up);
//! - the copies of parts named at several places (`super::copies`) must fit the budget
//!   together (a copy the second half left out, one converter leaves out too);
//! - a warning given once that the first half gave already is dropped; warning locations move
//!   by the first half's block count.
//!
//! Where a check fails the second half is converted again on the calling thread, so the tree
//! and the warnings are always one converter's. The pool's converter consumed the second
//! half's blocks, so they come from the body parsed again ([`Sources::again`]): a failed join
//! costs a parse of the main part, where copies of the blocks kept for it cost the pool a fifth
//! of its work on every long body (28,000 allocations in large.docx). Of the files of
//! `../shared` long enough to split (large.docx, large-lo.docx, medium.docx) all join.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use super::converter::{self, Converter, FieldState, Out, SeamLog, Sources};
use super::looks::NumberLooks;
use super::media::MediaNames;
use super::numbering::ListNumber;
use crate::ast;
use crate::import::docx::parse::model::{self, Item};
use crate::import::docx::parse::props::{LangSlots, Section};
use crate::report::{Report, WarningKind};

/// Bodies of this many top-level blocks or more are converted in two halves at once: the
/// 6,000 blocks of a 564-page file took about 25 ms on one core, so a few hundred take more
/// than a millisecond, of which a spawn costs a few microseconds.
pub const SPLIT_FROM: usize = 400;

/// At most this many of the second half's ids are moved onto other bookmarks at the join
/// ([`again_behind`]); past it the second half is converted again.
const MAX_IDS_MOVED: usize = 256;

/// What the second half's converter leaves, for the join.
struct Half {
    out: Out,
    pending: Vec<Item>,
    report: Report,
    log: SeamLog,
    media: MediaNames,
    wide_images: HashSet<(String, u64, u64)>,
    diagram_count: usize,
    copied: usize,
    ids: HashSet<String>,
    alias: HashMap<String, String>,
    carry: Vec<String>,
    unmapped_styles: HashMap<String, bool, foldhash::fast::RandomState>,
    fields: FieldState,
    note_ids: Vec<String>,
    outside_bookmarks: Vec<String>,
    section_ends: Vec<(usize, Section)>,
    looks: NumberLooks,
    text_width: u64,
    block_no: usize,
}

impl Converter<'_> {
    /// Converts the body's top-level blocks (`widths`: each one's text width) into one block
    /// list: in two halves at once when the body is long and the pool has a second thread.
    pub(super) fn top_level(
        &mut self,
        mut blocks: Vec<model::Block>,
        widths: &[u64],
    ) -> Vec<ast::Block> {
        let at = self
            .src
            .split
            .splits(blocks.len())
            .then(|| seam(&blocks))
            .flatten();
        let Some(at) = at else {
            return self.block_list(blocks, Some(widths));
        };
        let (first_widths, second_widths) = widths.split_at(at.min(widths.len()));
        // Room for one block each, as `block_list` makes.
        let mut out = Out {
            blocks: Vec::with_capacity(blocks.len()),
            ..Out::default()
        };
        let total = blocks.len();
        let second = Mutex::new(Some(blocks.split_off(at)));
        let src = self.src;
        let theme_lang = self.theme_lang.clone();
        let fields_disabled = self.fields.disabled;
        let mut pending: Vec<Item> = Vec::new();
        let mut half: Option<Box<Half>> = None;
        rayon::in_place_scope(|scope| {
            let half = &mut half;
            let second = &second;
            scope.spawn(move |_| {
                if let Some(blocks) = take(second) {
                    *half = Some(convert_half(
                        src,
                        theme_lang,
                        fields_disabled,
                        blocks,
                        second_widths,
                    ));
                }
            });
            self.blocks_into(blocks, Some(first_widths), &mut out, &mut pending);
            // The pool had not started on the second half: this thread reads on alone.
            if !src.split.always {
                if let Some(rest) = take(second) {
                    self.blocks_into(rest, Some(second_widths), &mut out, &mut pending);
                }
            }
        });
        if let Some(half) = half {
            if let Err(half) = self.join(&mut out, &mut pending, half) {
                // Dropped where it was made, beside this thread's work.
                rayon::spawn(move || drop(half));
                self.second_again(at..total, second_widths, &mut out, &mut pending);
            }
        }
        self.finish_list(out, pending, true)
    }

    /// Converts the second half (the body's blocks `half`) again on this thread behind the
    /// first, from the body parsed again.
    fn second_again(
        &mut self,
        half: std::ops::Range<usize>,
        widths: &[u64],
        out: &mut Out,
        pending: &mut Vec<Item>,
    ) {
        // The parse is the same as the first (the same text, limits and reading), so it
        // fails or comes out otherwise only if that stopped being so.
        match (self.src.again)() {
            Some(blocks) if blocks.len() == half.end => {
                let rest = blocks.into_iter().skip(half.start);
                self.blocks_into(rest, Some(widths), out, pending);
            }
            _ => {
                // The warning points at the first block left out.
                self.block_no = out.blocks.len();
                self.warn(
                    WarningKind::Lossy,
                    format!(
                        "the body from its block {} on could not be read again; it is left out",
                        half.start + 1
                    ),
                    "w:body",
                );
            }
        }
    }

    /// Joins the second half behind the first (`out`, `pending` and this converter's state),
    /// or hands it back untouched when it would not have come out the same behind it.
    fn join(
        &mut self,
        out: &mut Out,
        pending: &mut Vec<Item>,
        half: Box<Half>,
    ) -> Result<(), Box<Half>> {
        let at_rest = self.carry.is_empty()
            && pending.is_empty()
            && self.fields.frames.is_empty()
            && self.fields.overflow == 0
            && (self.diagram_count == 0 || half.diagram_count == 0)
            // One converter counts the copies on from the first half's: it would have left
            // out what the second half kept only when both together pass the budget (and what
            // the second half left out, it would leave out too).
            && self.copied.saturating_add(half.copied) <= self.src.copies.budget;
        if !at_rest {
            return Err(half);
        }
        let mut media = self.media.clone();
        let same_names = half
            .media
            .wanted
            .iter()
            .all(|(part, name)| media.name_for(part) == *name);
        if !same_names {
            return Err(half);
        }
        // Every paragraph counts again; a number kept that comes out otherwise goes onto the
        // paragraph that took it.
        let mut lists = self.lists.clone();
        let mut renumbered: HashMap<usize, ListNumber> = HashMap::new();
        for (i, (count, kept)) in half.log.lists.iter().enumerate() {
            let number = lists.count(count.clone(), self.src.numbering, self.src.styles);
            if kept.as_ref().is_some_and(|kept| *kept != number) {
                renumbered.insert(i, number);
            }
        }
        let mut half = *half;
        if !renumbered.is_empty() && !renumber(&half.log, &renumbered, &mut half.out.blocks) {
            return Err(Box::new(half));
        }
        let ids = if half
            .ids
            .iter()
            .chain(half.alias.keys())
            .any(|b| self.ids.contains(b))
        {
            // A bookmark named in both halves: its ids given out again behind the first
            // half's, onto the blocks that took them.
            match again_behind(&self.ids, &self.alias, &half.log, &mut half.out.blocks) {
                Some(ids) => ids,
                None => return Err(Box::new(half)),
            }
        } else {
            let mut ids = std::mem::take(&mut self.ids);
            ids.extend(std::mem::take(&mut half.ids));
            let mut alias = std::mem::take(&mut self.alias);
            alias.extend(std::mem::take(&mut half.alias));
            (ids, alias)
        };
        (self.ids, self.alias) = ids;
        self.lists = lists;
        self.media = media;
        let mut dropped: Vec<usize> = Vec::new();
        for (key, at) in half.log.warned {
            if !self.warned.insert(key) {
                dropped.push(at);
            }
        }
        let offset = out.blocks.len();
        for (i, mut warning) in half.report.into_warnings().into_iter().enumerate() {
            if dropped.binary_search(&i).is_ok() {
                continue;
            }
            if let Some(block) = &mut warning.location.block {
                *block += offset;
            }
            self.report.push(warning);
        }
        for (style, done) in half.unmapped_styles {
            // A style the first half has nothing more to say of stays so.
            if self.unmapped_styles.get(&style) != Some(&true) {
                self.unmapped_styles.insert(style, done);
            }
        }
        self.looks.extend(half.looks);
        self.wide_images.extend(half.wide_images);
        self.diagram_count += half.diagram_count;
        self.copied += half.copied;
        self.note_ids.extend(half.note_ids);
        self.outside_bookmarks.extend(half.outside_bookmarks);
        self.section_ends.extend(
            half.section_ends
                .into_iter()
                .map(|(at, section)| (at + offset, section)),
        );
        out.captions.extend(
            half.out
                .captions
                .into_iter()
                .map(|(at, info)| (at + offset, info)),
        );
        out.blocks.extend(half.out.blocks);
        *pending = half.pending;
        self.carry = half.carry;
        self.fields = half.fields;
        self.text_width = half.text_width;
        self.block_no = offset + half.block_no;
        Ok(())
    }
}

/// The ids and aliases one converter would have given the second half's blocks behind the
/// first half's `ids` and `alias`: each block's bookmarks (`log.ids`) assigned again, and the
/// block of `blocks` whose id comes out otherwise given the new one. `None` where that would
/// not make the same tree:
/// - a caption was attached inside a cell or text box (the choice depends on ids);
/// - blocks came, went or moved that the log does not follow (the block found by its id may
///   not be the one that took it);
/// - no block or several hold the id;
/// - an empty paragraph would lose its id (a section break paragraph without one is dropped);
/// - more than [`MAX_IDS_MOVED`] ids would move.
fn again_behind(
    ids: &HashSet<String>,
    alias: &HashMap<String, String>,
    log: &SeamLog,
    blocks: &mut [ast::Block],
) -> Option<(HashSet<String>, HashMap<String, String>)> {
    if log.nested_captions || log.order_lost {
        return None;
    }
    let (mut ids, mut alias) = (ids.clone(), alias.clone());
    let mut moved = 0;
    for (bookmarks, took) in &log.ids {
        let now = converter::assign(&mut ids, &mut alias, &mut bookmarks.clone());
        if now.as_ref() == Some(took) {
            continue;
        }
        // Each move walks the half's blocks: a file naming every bookmark twice is converted
        // again instead.
        moved += 1;
        if moved > MAX_IDS_MOVED {
            return None;
        }
        let mut found = Vec::new();
        holders(blocks, took, &mut found);
        match found.as_mut_slice() {
            [(_, true)] if now.is_none() => return None,
            [(id, _)] => **id = now,
            _ => return None,
        }
    }
    Some((ids, alias))
}

/// The id fields of the blocks of `blocks` and of their tables' cells that hold `id`, each
/// with whether its block is a paragraph without content.
fn holders<'b>(
    blocks: &'b mut [ast::Block],
    id: &str,
    out: &mut Vec<(&'b mut Option<String>, bool)>,
) {
    for block in blocks {
        let (slot, empty) = match block {
            ast::Block::Paragraph(p) => (&mut p.id, p.content.is_empty()),
            ast::Block::Image(i) => (&mut i.id, false),
            ast::Block::Table(t) => {
                let cells = t.rows.iter_mut().flat_map(|r| r.cells.iter_mut());
                for cell in cells {
                    holders(&mut cell.blocks, id, out);
                }
                (&mut t.id, false)
            }
            _ => continue,
        };
        if slot.as_deref() == Some(id) {
            out.push((slot, empty));
        }
    }
}

/// Gives the paragraphs of `blocks` that took the numbers `renumbered` names (by index in
/// `log.lists`) their new start and restart. The numbered paragraphs of each list are matched
/// to the numbers in the order they were made: false where that cannot be done surely (blocks
/// came, went or moved that the log does not follow, a list's paragraphs do not match its
/// numbers one to one, or one does not carry the number it took).
fn renumber(
    log: &SeamLog,
    renumbered: &HashMap<usize, ListNumber>,
    blocks: &mut [ast::Block],
) -> bool {
    if log.order_lost {
        return false;
    }
    // The index in `log.lists` of each list's numbered paragraphs, in the order made.
    let mut made: HashMap<&str, Vec<usize>> = HashMap::new();
    for &i in &log.numbered {
        match log.lists.get(i) {
            Some((_, Some(number))) => made.entry(number.list_id.as_str()).or_default().push(i),
            _ => return false,
        }
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for p in ast::paragraphs_in(blocks) {
        // A list this half numbered none of (SmartArt's) is none of this pass's business.
        let Some((id, order)) = p.list_id.as_deref().and_then(|id| made.get_key_value(id)) else {
            continue;
        };
        let nth = seen.entry(id).or_insert(0);
        let Some(&i) = order.get(*nth) else {
            return false;
        };
        *nth += 1;
        let Some((_, Some(took))) = log.lists.get(i) else {
            return false;
        };
        if p.start != took.start || p.restart != took.restart {
            return false;
        }
        if let Some(number) = renumbered.get(&i) {
            p.start = number.start;
            p.restart = number.restart;
        }
    }
    made.iter()
        .all(|(id, order)| seen.get(id) == Some(&order.len()))
}

/// Converts the second half from nothing carried over.
fn convert_half(
    src: Sources<'_>,
    theme_lang: LangSlots,
    fields_disabled: bool,
    blocks: Vec<model::Block>,
    widths: &[u64],
) -> Box<Half> {
    let mut conv = Converter::new(src, Report::new());
    conv.theme_lang = theme_lang;
    conv.fields = FieldState {
        disabled: fields_disabled,
        ..FieldState::default()
    };
    conv.log = Some(Box::default());
    let mut out = Out {
        blocks: Vec::with_capacity(blocks.len()),
        ..Out::default()
    };
    let mut pending = Vec::new();
    conv.blocks_into(blocks, Some(widths), &mut out, &mut pending);
    // Every field named: a field added to the converter must be decided on here (and in the
    // join), or this stops compiling.
    let Converter {
        src: _,
        report,
        media,
        wide_images,
        diagram_count,
        copied,
        lists: _,
        ids,
        alias,
        carry,
        chains: _,
        warned: _,
        picture_parts: _,
        unmapped_styles,
        fields,
        text_width,
        note_depth: _,
        note_ids,
        outside_bookmarks,
        footer_mode: _,
        block_no,
        section_ends,
        looks,
        theme_lang: _,
        para_text: _,
        log,
    } = conv;
    // `lists` and `warned` are done again from the log; the note depth and footer mode are
    // back at none after each block; the chains, the text room and the missing parts are
    // caches.
    Box::new(Half {
        out,
        pending,
        report,
        log: log.map(|log| *log).unwrap_or_default(),
        media,
        wide_images,
        diagram_count,
        copied,
        ids,
        alias,
        carry,
        unmapped_styles,
        fields,
        note_ids,
        outside_bookmarks,
        section_ends,
        looks,
        text_width,
        block_no,
    })
}

/// Takes the second half's blocks, for whichever thread gets there first.
fn take(second: &Mutex<Option<Vec<model::Block>>>) -> Option<Vec<model::Block>> {
    match second.lock() {
        Ok(mut slot) => slot.take(),
        Err(poisoned) => poisoned.into_inner().take(),
    }
}

/// Where the second half starts: the first block past three fifths of the body that no loose
/// anchor stands before (anchors wait for the next paragraph, which would then be the other
/// half's). Three fifths, not half: a block cost the pool's converter about one and a half
/// times the calling thread's time when it copied its blocks first; without the copies, 55 %
/// and a half measured within the noise of three fifths (`benches/README.md`). A seam at half
/// the body's weight (a block's items, a table's cells' content) brought the halves' ends
/// together in large.docx (by count the pool's ended 5.8 ms first, by weight 1.1 ms after it;
/// medians of 40 runs), yet the stage took as long within the noise, so the seam stays this
/// simple.
fn seam(blocks: &[model::Block]) -> Option<usize> {
    (blocks.len() / 5 * 3..blocks.len())
        .find(|&at| at > 0 && !matches!(blocks.get(at - 1), Some(model::Block::Loose(_)) | None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seam_falls_three_fifths_in_and_never_behind_a_loose_anchor() {
        let para = || model::Block::Para(model::Para::default());
        let loose = || model::Block::Loose(Item::Bookmark("b".into()));
        let plain: Vec<model::Block> = (0..10).map(|_| para()).collect();
        assert_eq!(seam(&plain), Some(6));
        let mut anchored = plain.clone();
        anchored[5] = loose();
        anchored[6] = loose();
        assert_eq!(seam(&anchored), Some(8));
        let mut ends_loose = plain;
        ends_loose[9] = loose();
        for b in ends_loose.iter_mut().skip(5) {
            *b = loose();
        }
        assert_eq!(seam(&ends_loose), None);
        assert_eq!(seam(&[]), None);
    }
}
