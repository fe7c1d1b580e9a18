//! What the DTD cannot hold: each loss counted per kind while writing, and turned into one
//! warning per kind at the end.

use std::collections::BTreeMap;

use super::{PART, Writer};
use crate::report::{Converted, Location, WarningKind};

/// What kind of data a PI would carry; strict mode counts what it leaves out per kind, and the
/// normal mode counts what only our reader will see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Loss {
    /// Tree fields sd.xml has no attribute for.
    Fields,
    /// Tracked changes.
    Tracked,
    /// Marks the context has no element for (a character style inside a footnote).
    Marks,
    /// Inline content the context cannot hold (a note in a note, text XML cannot hold).
    Atoms,
    /// `<b>` added around a `br`.
    Wrappers,
    /// Characters XML 1.0 cannot hold.
    Chars,
}

/// How often one [`Loss`] happened, where first, and what (field names, inline kinds).
#[derive(Debug, Default)]
pub(super) struct Tally {
    count: usize,
    first_block: Option<usize>,
    what: BTreeMap<String, usize>,
}

impl Writer<'_> {
    /// Counts one `loss` of `what` (a field name, an inline kind) at the block being written.
    pub(super) fn tally(&mut self, loss: Loss, what: &str) {
        let block = self.block;
        let t = self.tallies.entry(loss).or_default();
        t.count += 1;
        if t.first_block.is_none() {
            t.first_block = block;
        }
        *t.what.entry(what.to_string()).or_default() += 1;
    }

    /// Adds the tallies of blocks written apart ([`Writer::blocks_in_pieces`]), in block order:
    /// counts add up, and a tally's first block stays the earliest piece's that has one.
    pub(super) fn merge_tallies(&mut self, tallies: BTreeMap<Loss, Tally>) {
        for (loss, t) in tallies {
            let mine = self.tallies.entry(loss).or_default();
            mine.count += t.count;
            if mine.first_block.is_none() {
                mine.first_block = t.first_block;
            }
            for (what, n) in t.what {
                *mine.what.entry(what).or_default() += n;
            }
        }
    }

    /// The collected warnings, aggregated ones last in a fixed order, and the text.
    pub(super) fn finish(mut self) -> Converted<String> {
        let tallies = std::mem::take(&mut self.tallies);
        for (loss, t) in tallies {
            if let Some((kind, message)) = loss_message(loss, self.strict, &t) {
                let mut loc = Location::part(PART);
                if let Some(b) = t.first_block {
                    loc = loc.block(b);
                }
                self.report.warn(kind, message, loc);
            }
        }
        self.report.finish(self.out)
    }
}

/// The aggregated warning for one kind of loss, or `None` when nothing is lost for the service
/// or for our reader.
fn loss_message(loss: Loss, strict: bool, t: &Tally) -> Option<(WarningKind, String)> {
    let n = t.count;
    let what = t
        .what
        .iter()
        .map(|(k, v)| format!("{k} ×{v}"))
        .collect::<Vec<_>>()
        .join(", ");
    let m = match (loss, strict) {
        (Loss::Fields, true) => (
            WarningKind::Dropped,
            format!(
                "strict DTD mode: {n} tree field value(s) not written, sd.xml has no attribute \
                 for them or cannot hold their characters ({what})"
            ),
        ),
        (Loss::Tracked, true) => (
            WarningKind::Lossy,
            format!(
                "strict DTD mode: {n} tracked change(s) written as plain text, their kind, \
                 author and date left out"
            ),
        ),
        (Loss::Tracked, false) => (
            WarningKind::Lossy,
            format!(
                "{n} tracked change(s) kept only in sdconv PIs: the service shows their text \
                 as plain text"
            ),
        ),
        (Loss::Marks, true) => (
            WarningKind::Lossy,
            format!(
                "strict DTD mode: {n} format(s) left out where the DTD has no element for them \
                 ({what})"
            ),
        ),
        (Loss::Atoms, true) => (
            WarningKind::Dropped,
            format!(
                "strict DTD mode: left out {n} inline item(s) the DTD does not allow where they \
                 are ({what})"
            ),
        ),
        (Loss::Atoms, false) => (
            WarningKind::Lossy,
            format!(
                "{n} inline item(s) the DTD does not allow where they are kept only in sdconv \
                 PIs: the service will not show them ({what})"
            ),
        ),
        (Loss::Wrappers, true) => (
            WarningKind::Lossy,
            format!(
                "strict DTD mode: {n} line break(s) wrapped in <b>, as their parent does not \
                 allow <br>"
            ),
        ),
        (Loss::Chars, true) => (
            WarningKind::Dropped,
            format!("strict DTD mode: left out characters XML 1.0 cannot hold in {n} place(s)"),
        ),
        // Outside strict mode these travel in PIs and the service loses nothing it could show.
        (Loss::Fields | Loss::Marks | Loss::Wrappers | Loss::Chars, false) => return None,
    };
    Some(m)
}
