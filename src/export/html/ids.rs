//! Element ids and image file names: sanitised, unique, deterministic.
//!
//! Ids the writer generates all start with `sd-` (`sd-h-3`, `sd-fn-1`); source ids are reduced to
//! letters, digits, `-` and `_`, and never start with `sd-` (they get an `x-` prefix), so the two
//! can never collide. Repeated source ids get `-2`, `-3`, … in document order.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::archive::check_entry_name;
use crate::limits::cut_file_name;

/// Hands out unique ids for source ids.
#[derive(Debug, Default)]
pub struct IdSet {
    used: HashSet<String>,
}

impl IdSet {
    /// A unique, valid HTML id derived from the source id `raw`.
    pub fn claim(&mut self, raw: &str) -> String {
        let mut base: String = raw
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.is_empty() {
            base.push_str("id");
        }
        if base.starts_with("sd-") {
            base.insert_str(0, "x-");
        }
        unique(&mut self.used, base, |base, n| format!("{base}-{n}"))
    }
}

/// A file name for `images/` derived from the media name `name`: ASCII letters, digits, `.`, `-`
/// and `_` only (so it needs no escaping in a URL either), no leading dot, unique in `used`.
/// Returns the name and whether it differs from `name`.
pub fn image_file_name(name: &str, used: &mut HashSet<String>) -> (String, bool) {
    let mut base: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if base.starts_with('.') {
        base.replace_range(..1, "_");
    }
    if let Cow::Owned(cut) = cut_file_name(&base) {
        base = cut;
    }
    if base.is_empty() || check_entry_name(&format!("images/{base}")).is_err() {
        base = "image".to_string();
    }
    let out = unique(used, base, |base, n| match base.rfind('.') {
        Some(dot) if dot > 0 => format!("{}-{n}{}", &base[..dot], &base[dot..]),
        _ => format!("{base}-{n}"),
    });
    let changed = out != name;
    (out, changed)
}

fn unique(
    used: &mut HashSet<String>,
    base: String,
    numbered: impl Fn(&str, usize) -> String,
) -> String {
    if used.insert(base.clone()) {
        return base;
    }
    let mut n = 2;
    loop {
        let candidate = numbered(&base, n);
        if used.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_valid_unique_and_apart_from_generated_ones() {
        let mut ids = IdSet::default();
        assert_eq!(ids.claim("Intro"), "Intro");
        assert_eq!(ids.claim("Intro"), "Intro-2");
        assert_eq!(ids.claim("Intro-2"), "Intro-2-2");
        assert_eq!(ids.claim("a b\"<c>"), "a_b__c_");
        assert_eq!(ids.claim("sd-fn-1"), "x-sd-fn-1");
        assert_eq!(ids.claim(""), "id");
        assert_eq!(ids.claim("Überblick"), "Überblick");
    }

    #[test]
    fn image_names_are_safe() {
        let mut used = HashSet::new();
        assert_eq!(
            image_file_name("a.png", &mut used),
            ("a.png".to_string(), false)
        );
        assert_eq!(
            image_file_name("a.png", &mut used),
            ("a-2.png".to_string(), true)
        );
        for bad in [
            "../../etc/passwd",
            "/abs.png",
            "C:\\x.png",
            ".hidden",
            "ä ö.png",
            "",
        ] {
            let (name, changed) = image_file_name(bad, &mut used);
            assert!(changed, "{bad}");
            assert!(
                check_entry_name(&format!("images/{name}")).is_ok(),
                "{name}"
            );
            assert!(!name.contains('/') && !name.starts_with('.'), "{name}");
        }
        let long = format!("{}.jpeg", "x".repeat(300));
        let (name, _) = image_file_name(&long, &mut used);
        assert!(name.len() <= 125 && name.ends_with(".jpeg"), "{name}");
    }
}
