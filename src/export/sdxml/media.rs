//! Which media go into `images/`, under which names.
//!
//! Every media name the tree refers to (image blocks and inline images, in cells, notes and
//! comments too) becomes `images/<name>`. A name that is not safe there — it would fail
//! [`check_entry_name`], holds a `/`, has surrounding whitespace (a reader may trim element text)
//! or characters XML cannot hold — is renamed deterministically: unsafe characters become `_`,
//! and `-2`, `-3`, … is added before the extension until the name is free. Every reference is
//! rewritten and each rename is a warning.

use std::collections::{BTreeMap, BTreeSet};

use crate::archive::check_entry_name;
use crate::ast::Document;
use crate::report::{Location, Report, WarningKind};

use crate::xml::{xml_char, xml_clean};

/// One `images/` entry.
#[derive(Debug)]
pub(super) struct Entry {
    /// The name the tree uses (the media store's key).
    pub original: String,
    /// The name written to `images/` and into sd.xml.
    pub written: String,
}

/// The media the export writes.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// Referenced names, in name order.
    pub entries: Vec<Entry>,
    /// Original name → safe name, for the names that had to change.
    pub renames: BTreeMap<String, String>,
}

impl Plan {
    /// Whether the tree refers to `name`.
    pub fn referenced(&self, name: &str) -> bool {
        self.entries
            .binary_search_by(|e| e.original.as_str().cmp(name))
            .is_ok()
    }

    /// A copy of `doc` with every reference renamed.
    pub fn apply(&self, doc: &Document) -> Document {
        let mut doc = doc.clone();
        doc.rename_media(|name| self.renames.get(name).cloned());
        doc
    }
}

/// Whether `name` can be used as is.
fn is_safe(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && !name.contains('/')
        && name.trim() == name
        && xml_clean(name)
        && check_entry_name(&format!("images/{name}")).is_ok()
}

/// `name` with its unsafe characters replaced.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | '\0' | '\t' | '\n' | '\r') || !xml_char(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    let s = s.trim();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        "image".to_string()
    } else {
        s.to_string()
    }
}

/// `stem-N.ext` for the first N ≥ 2 not in `taken`.
fn unique(name: String, taken: &BTreeSet<String>) -> String {
    crate::ast::media::unused_name(name, |n| taken.contains(n))
}

/// Collects the referenced media and plans renames; warns about renames and missing media.
pub(super) fn plan(doc: &Document, report: &mut Report) -> Plan {
    let referenced = doc.referenced_media();
    // Names already in use, so that a renamed item never takes another's name.
    let mut taken: BTreeSet<String> = referenced
        .iter()
        .chain(doc.media.iter().map(|m| &m.name))
        .filter(|n| is_safe(n))
        .cloned()
        .collect();
    let mut plan = Plan::default();
    for name in referenced {
        if !doc.media.contains(&name) {
            report.warn(
                WarningKind::MissingMedia,
                format!("image {name:?} is referenced but not in the media store"),
                Location::part("images/"),
            );
        }
        let written = if is_safe(&name) {
            name.clone()
        } else {
            let new = unique(sanitize(&name), &taken);
            taken.insert(new.clone());
            report.warn(
                WarningKind::Repaired,
                format!("image {name:?} is not a safe file name in images/: written as {new:?}"),
                Location::part("images/"),
            );
            plan.renames.insert(name.clone(), new.clone());
            new
        };
        plan.entries.push(Entry {
            original: name,
            written,
        });
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsafe_names_are_sanitised_uniquely() {
        assert!(is_safe("a b.png"));
        for bad in ["", ".", "..", "a/b.png", " a.png", "a\u{1}.png", "a\\b"] {
            assert!(!is_safe(bad), "{bad:?}");
        }
        assert_eq!(sanitize("a/b.png"), "a_b.png");
        assert_eq!(sanitize(".."), "image");
        assert_eq!(sanitize("  "), "image");
        let taken: BTreeSet<String> = ["a_b.png".to_string(), "a_b-2.png".to_string()].into();
        assert_eq!(unique("a_b.png".into(), &taken), "a_b-3.png");
        assert_eq!(unique("image".into(), &taken), "image");
    }
}
