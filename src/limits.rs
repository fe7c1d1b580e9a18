//! Input limits. Every reader takes arbitrary bytes; these bound the memory and time one input
//! can cost (zip bombs, deep XML, huge images).

use std::borrow::Cow;

/// Most grid columns a table may have; also caps hostile `colspan` values.
pub const MAX_TABLE_COLUMNS: usize = 1_000;

/// Limits applied while reading. The defaults suit a server that takes uploads from partners.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Most entries in one zip.
    pub max_entries: usize,
    /// Most bytes one entry may inflate to.
    pub max_entry_size: u64,
    /// Most bytes all entries read from one zip may inflate to, together.
    pub max_total_size: u64,
    /// Highest inflated/compressed ratio of an entry bigger than [`Limits::ratio_floor`].
    pub max_ratio: u64,
    /// Entries smaller than this (inflated) are not ratio-checked: tiny XML parts compress
    /// extremely well and are harmless.
    pub ratio_floor: u64,
    /// Deepest XML element nesting.
    pub max_xml_depth: usize,
    /// Most pixels (width × height) of an image the engine will decode.
    pub max_image_pixels: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 20_000,
            max_entry_size: 256 << 20,
            max_total_size: 1 << 30,
            max_ratio: 500,
            ratio_floor: 4 << 20,
            max_xml_depth: 256,
            max_image_pixels: 100_000_000,
        }
    }
}

impl Limits {
    /// Sets [`Limits::max_total_size`].
    pub fn with_max_total_size(mut self, bytes: u64) -> Self {
        self.max_total_size = bytes;
        self
    }

    /// Sets both [`Limits::max_total_size`] and [`Limits::max_entry_size`]: the one size limit
    /// the bindings offer (`max_size` in Python, `maxSize` in JavaScript).
    pub fn with_max_size(self, bytes: u64) -> Self {
        self.with_max_total_size(bytes).with_max_entry_size(bytes)
    }

    /// Sets [`Limits::max_entry_size`].
    pub fn with_max_entry_size(mut self, bytes: u64) -> Self {
        self.max_entry_size = bytes;
        self
    }

    /// Sets [`Limits::max_xml_depth`].
    pub fn with_max_xml_depth(mut self, depth: usize) -> Self {
        self.max_xml_depth = depth;
        self
    }
}

/// Most different marks (styles, a link, a character style, a language) one run of text may
/// carry in a reader. Every run holds its own copy of the marks over it, so marks nested as
/// deep as the input allows would cost that depth for every piece of text. A mark opened again
/// inside itself adds nothing (the canonical form keeps one of each), so only different marks
/// count, and real text carries a handful.
pub(crate) const MAX_RUN_MARKS: usize = 16;

/// Longest name, in bytes, the engine repeats wherever something is named: a media file name
/// given to every picture of a part, a part name in every warning's location. A zip entry's name
/// can be 64 KiB, so a short file that names one part thousands of times would otherwise write
/// hundreds of megabytes of one name. (The HTML writer cuts its picture files' names to the
/// same length, so a media name cut here is written under its own name.)
pub const MAX_REPEATED_NAME: usize = 120;

/// `name` as a report shows it: cut to [`MAX_REPEATED_NAME`] bytes, ending in `…` when cut
/// (a warning's key, message and location each hold a copy of the names they mention).
pub(crate) fn shown_name(name: &str) -> Cow<'_, str> {
    if name.len() <= MAX_REPEATED_NAME {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("{}…", char_prefix(name, MAX_REPEATED_NAME)))
    }
}

/// The file name `name` cut to [`MAX_REPEATED_NAME`] bytes. An extension of up to 16 bytes is
/// kept, so the name still says what the file is (a browser opening it on its own goes by it);
/// the caller settles a clash between two names cut alike.
pub(crate) fn cut_file_name(name: &str) -> Cow<'_, str> {
    if name.len() <= MAX_REPEATED_NAME {
        return Cow::Borrowed(name);
    }
    match name.rsplit_once('.') {
        Some((stem, ext)) if ext.len() <= 16 && !stem.is_empty() => {
            let stem = char_prefix(stem, MAX_REPEATED_NAME - ext.len() - 1);
            Cow::Owned(format!("{stem}.{ext}"))
        }
        _ => Cow::Borrowed(char_prefix(name, MAX_REPEATED_NAME)),
    }
}

/// The longest start of `s` that is at most `max` bytes and ends at a character boundary.
pub(crate) fn char_prefix(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_prefix_never_splits_a_character() {
        assert_eq!(char_prefix("abc", 5), "abc");
        assert_eq!(char_prefix("abcdef", 3), "abc");
        // "é" is two bytes: a cut through it falls back before it.
        assert_eq!(char_prefix("aé", 2), "a");
        assert_eq!(char_prefix("aé", 3), "aé");
        assert_eq!(char_prefix("日本", 4), "日");
        assert_eq!(char_prefix("日本", 0), "");
    }

    #[test]
    fn long_names_are_shown_cut() {
        assert_eq!(shown_name("word/document.xml"), "word/document.xml");
        let long = "é".repeat(100);
        assert_eq!(shown_name(&long), format!("{}…", "é".repeat(60)));
        assert_eq!(cut_file_name("a.png"), "a.png");
        let file = format!("{}.png", "x".repeat(200));
        assert_eq!(cut_file_name(&file), format!("{}.png", "x".repeat(116)));
        let odd = format!("a.{}", "y".repeat(200));
        assert_eq!(cut_file_name(&odd).len(), MAX_REPEATED_NAME);
    }
}
