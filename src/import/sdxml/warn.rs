//! Warnings that repeat (one per legacy footnote, per unknown attribute, …) are aggregated: one
//! warning per kind and key per document, with a count, so a report stays readable.

use std::collections::HashMap;

use crate::report::{Location, Warning, WarningKind};

struct Entry {
    kind: WarningKind,
    message: String,
    location: Location,
    count: usize,
}

/// Collects warnings keyed by `(kind, key)`; the first occurrence gives message and location.
#[derive(Default)]
pub(super) struct Warnings {
    entries: Vec<Entry>,
    index: HashMap<(WarningKind, String), usize>,
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
        self.index
            .insert((kind, key.to_string()), self.entries.len());
        self.entries.push(Entry {
            kind,
            message: message(),
            location: location(),
            count: 1,
        });
    }

    /// Records a warning that is never aggregated.
    pub(super) fn once(&mut self, kind: WarningKind, message: String, location: Location) {
        self.entries.push(Entry {
            kind,
            message,
            location,
            count: 1,
        });
    }

    /// The warnings in first-occurrence order; repeated ones say how often they occurred.
    pub(super) fn finish(self) -> Vec<Warning> {
        self.entries
            .into_iter()
            .map(|e| {
                let message = if e.count > 1 {
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
}
