//! Stage two: images: one media store entry per package part, named after the part's file name
//! (`image1.png`; a second `image1.png` from another folder becomes `image1-2.png`). Bytes are
//! inflated once and shared ([`bytes::Bytes`]); type and pixel size are sniffed, never decoded.

use std::collections::{HashMap, HashSet};

/// Media names handed out while converting, and the parts they come from.
#[derive(Debug, Default, Clone)]
pub struct MediaNames {
    by_part: HashMap<String, String>,
    taken: HashSet<String>,
    /// Next suffix to try per file name, so clashes cost no search.
    next: HashMap<String, usize>,
    /// (part name, media name) in first-use order.
    pub wanted: Vec<(String, String)>,
}

impl MediaNames {
    /// The media name for package part `part`, assigning one on first use.
    pub fn name_for(&mut self, part: &str) -> String {
        let key = part.to_ascii_lowercase();
        if let Some(name) = self.by_part.get(&key) {
            return name.clone();
        }
        let file = part.rsplit('/').next().unwrap_or(part);
        let file = if file.is_empty() { "image" } else { file };
        let mut name = file.to_string();
        let n = self.next.entry(file.to_ascii_lowercase()).or_insert(2);
        while self.taken.contains(&name.to_ascii_lowercase()) {
            name = match file.rsplit_once('.') {
                Some((stem, ext)) => format!("{stem}-{n}.{ext}"),
                None => format!("{file}-{n}"),
            };
            *n += 1;
        }
        self.taken.insert(name.to_ascii_lowercase());
        self.by_part.insert(key, name.clone());
        self.wanted.push((part.to_string(), name.clone()));
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_name_per_part_and_no_clashes() {
        let mut m = MediaNames::default();
        assert_eq!(m.name_for("word/media/image1.png"), "image1.png");
        assert_eq!(m.name_for("word/media/image1.png"), "image1.png");
        assert_eq!(m.name_for("word/media/sub/image1.png"), "image1-2.png");
        assert_eq!(m.wanted.len(), 2);
    }
}
