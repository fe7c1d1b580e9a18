//! Names: block ids as unique XML NCNames with what cross-references to them show, and image
//! file names safe in the zip.

use std::collections::HashSet;

use super::Writer;
use crate::ast::Block;
use crate::ast::inline::accepted_text;
use crate::ast::numbering::number_blocks;
use crate::report::WarningKind;

/// What a cross-reference to an id shows and where it points.
#[derive(Clone)]
pub(super) struct Target {
    /// The sanitised id written on the target.
    pub(super) id: String,
    /// The number the target shows (`1.2`, `Figure 3`).
    pub(super) label: Option<String>,
    /// The target's text (heading text, caption).
    pub(super) text: String,
}

/// Turns any string into an XML NCName: ASCII letters, digits, `-`, `_`, `.`; the first
/// character a letter or `_`.
pub fn ncname(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match s.chars().next() {
        None => s.push_str("id"),
        Some(c) if !(c.is_ascii_alphabetic() || c == '_') => s.insert_str(0, "id-"),
        Some(_) => {}
    }
    s
}

/// A file name that is safe as the last part of a zip entry name.
pub(super) fn safe_file_name(raw: &str) -> String {
    let s: String = raw
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.chars().all(|c| c == '.') {
        "image".into()
    } else {
        s
    }
}

/// `name`, or `name-2`, `name-3`, … (before the extension) until `taken` does not hold it,
/// compared ignoring ASCII case.
pub(super) fn unique_name(name: &str, taken: &mut HashSet<String>, before_ext: bool) -> String {
    let (stem, ext) = match name.rfind('.') {
        Some(i) if before_ext && i > 0 => (&name[..i], &name[i..]),
        _ => (name, ""),
    };
    let mut candidate = name.to_string();
    let mut n = 2u32;
    while !taken.insert(candidate.to_ascii_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}

impl Writer<'_> {
    /// Assigns every block id its NCName (unique) and records what cross-references show.
    pub(super) fn collect_ids(&mut self) {
        let mut taken = HashSet::new();
        let mut path = Vec::new();
        let doc = self.doc;
        self.collect_in(&doc.blocks, &mut path, &mut taken);
    }

    fn collect_in(&mut self, blocks: &[Block], path: &mut Vec<usize>, taken: &mut HashSet<String>) {
        let numbers = number_blocks(blocks);
        for (i, block) in blocks.iter().enumerate() {
            path.push(i);
            if path.len() == 1 {
                self.block = i;
            }
            let n = numbers.get(i).cloned().unwrap_or_default();
            let (id, label, text) = match block {
                Block::Paragraph(p) => {
                    (p.id.as_deref(), n.label.clone(), accepted_text(&p.content))
                }
                Block::Image(img) => (
                    img.id.as_deref(),
                    n.caption.map(|c| format!("{} {c}", self.lang().figure())),
                    img.caption.clone().unwrap_or_default(),
                ),
                Block::Table(t) => (
                    t.id.as_deref(),
                    n.caption.map(|c| format!("{} {c}", self.lang().table())),
                    t.caption.clone().unwrap_or_default(),
                ),
                Block::PageBreak | Block::Directory { .. } => (None, None, String::new()),
            };
            if let Some(id) = id {
                let clean = ncname(id);
                let unique = unique_name(&clean, taken, false);
                if unique != id {
                    self.warn(
                        WarningKind::Repaired,
                        format!("id {id:?} written as {unique:?} (ids must be unique XML names)"),
                    );
                }
                self.block_ids.insert(path.clone(), unique.clone());
                self.targets.entry(id.to_string()).or_insert(Target {
                    id: unique,
                    label,
                    text: text.replace('\n', " "),
                });
            }
            if let Block::Table(t) = block {
                for (r, row) in t.rows.iter().enumerate() {
                    for (c, cell) in row.cells.iter().enumerate() {
                        path.push(r);
                        path.push(c);
                        self.collect_in(&cell.blocks, path, taken);
                        path.pop();
                        path.pop();
                    }
                }
            }
            path.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ncnames_are_valid_and_unique_names_count_up() {
        assert_eq!(ncname("3 Intro"), "id-3_Intro");
        assert_eq!(ncname(""), "id");
        assert_eq!(ncname("_ok.1-a"), "_ok.1-a");
        assert_eq!(ncname("Ü"), "_");
        let mut taken = HashSet::new();
        assert_eq!(unique_name("a.png", &mut taken, true), "a.png");
        assert_eq!(unique_name("A.png", &mut taken, true), "A-2.png");
        assert_eq!(unique_name("x", &mut taken, false), "x");
        assert_eq!(unique_name("x", &mut taken, false), "x-2");
        assert_eq!(safe_file_name("../a b.png"), ".._a_b.png");
        assert_eq!(safe_file_name(".."), "image");
    }
}
