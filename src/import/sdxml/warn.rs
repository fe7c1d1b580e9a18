//! Warnings that repeat (one per legacy footnote, per unknown attribute, …) are aggregated: one
//! warning per kind and key per document, with a count, so a report stays readable. Keys name
//! what the input names (an unknown element, an attribute), so a hostile file can make as many
//! keys as it has bytes: past [`MAX_KEYS_PER_KIND`] warnings of one kind, further ones are
//! counted in one summary warning of that kind instead.

use std::collections::HashMap;

use crate::report::{Location, Warning, WarningKind};

/// Most separate warnings of one kind; what comes after goes into one summary warning. Real
/// documents draw a handful per kind.
pub(super) const MAX_KEYS_PER_KIND: usize = 256;

struct Entry {
    kind: WarningKind,
    message: String,
    location: Location,
    count: usize,
    /// The summary of the warnings of this kind past [`MAX_KEYS_PER_KIND`]: `count` of them.
    summary: bool,
}

/// Collects warnings keyed by `(kind, key)`; the first occurrence gives message and location.
#[derive(Default)]
pub(super) struct Warnings {
    entries: Vec<Entry>,
    index: HashMap<(WarningKind, String), usize>,
    /// Per kind: how many separate warnings it has, and the index of its summary warning.
    per_kind: HashMap<WarningKind, (usize, Option<usize>)>,
}

impl Warnings {
    /// Records one occurrence. `message` and `location` are only built the first time the key is
    /// seen, so repeated warnings cost a lookup.
    pub(super) fn note(
        &mut self,
        kind: WarningKind,
        key: &str,
        message: impl FnOnce() -> String,
        location: impl FnOnce() -> Location,
    ) {
        if let Some(&i) = self.index.get(&(kind, key.to_string())) {
            if let Some(e) = self.entries.get_mut(i) {
                e.count += 1;
            }
            return;
        }
        if self.full(kind) {
            self.summarize(kind, location);
            return;
        }
        self.index
            .insert((kind, key.to_string()), self.entries.len());
        self.entries.push(Entry {
            kind,
            message: message(),
            location: location(),
            count: 1,
            summary: false,
        });
    }

    /// Records a warning that is never aggregated (but is summarized past the limit).
    pub(super) fn once(&mut self, kind: WarningKind, message: String, location: Location) {
        if self.full(kind) {
            self.summarize(kind, || location);
            return;
        }
        self.entries.push(Entry {
            kind,
            message,
            location,
            count: 1,
            summary: false,
        });
    }

    /// Counts a new warning of `kind`; `true` when the kind has [`MAX_KEYS_PER_KIND`] already
    /// (the warning then goes into [`Warnings::summarize`]).
    fn full(&mut self, kind: WarningKind) -> bool {
        let (n, _) = self.per_kind.entry(kind).or_insert((0, None));
        if *n < MAX_KEYS_PER_KIND {
            *n += 1;
            return false;
        }
        true
    }

    /// Counts a warning in its kind's summary, made the first time at `location`.
    fn summarize(&mut self, kind: WarningKind, location: impl FnOnce() -> Location) {
        let (_, summary) = self.per_kind.entry(kind).or_insert((0, None));
        match summary {
            Some(i) => {
                if let Some(e) = self.entries.get_mut(*i) {
                    e.count += 1;
                }
            }
            None => {
                *summary = Some(self.entries.len());
                self.entries.push(Entry {
                    kind,
                    message: String::new(),
                    location: location(),
                    count: 1,
                    summary: true,
                });
            }
        }
    }

    /// The warnings in first-occurrence order; repeated ones say how often they occurred.
    pub(super) fn finish(self) -> Vec<Warning> {
        self.entries
            .into_iter()
            .map(|e| {
                let message = if e.summary {
                    format!(
                        "{} more warnings of this kind (times met, about other names or values \
                         than the {MAX_KEYS_PER_KIND} above) were not listed one by one",
                        e.count
                    )
                } else if e.count > 1 {
                    format!("{} ({} times)", e.message, e.count)
                } else {
                    e.message
                };
                Warning::new(e.kind, message, e.location)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_by_kind_and_key() {
        let mut w = Warnings::default();
        for _ in 0..3 {
            w.note(
                WarningKind::LegacyForm,
                "footnote",
                || "legacy footnote".into(),
                Location::default,
            );
        }
        w.note(
            WarningKind::UnknownElement,
            "footnote",
            || "other kind".into(),
            Location::default,
        );
        let out = w.finish();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].message, "legacy footnote (3 times)");
        assert_eq!(out[1].message, "other kind");
    }

    #[test]
    fn past_the_limit_a_kind_gets_one_summary() {
        let mut w = Warnings::default();
        for i in 0..MAX_KEYS_PER_KIND + 10 {
            w.note(
                WarningKind::UnknownElement,
                &format!("e{i}"),
                || format!("unknown e{i}"),
                Location::default,
            );
        }
        // A key listed already still counts on its own warning.
        w.note(
            WarningKind::UnknownElement,
            "e0",
            || "unknown e0".into(),
            Location::default,
        );
        w.once(
            WarningKind::Dropped,
            "other kind".into(),
            Location::default(),
        );
        let out = w.finish();
        assert_eq!(out.len(), MAX_KEYS_PER_KIND + 2);
        assert_eq!(out[0].message, "unknown e0 (2 times)");
        assert!(
            out[MAX_KEYS_PER_KIND]
                .message
                .starts_with("10 more warnings")
        );
        assert_eq!(out[MAX_KEYS_PER_KIND + 1].message, "other kind");
    }
}
