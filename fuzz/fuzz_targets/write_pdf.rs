//! Fuzzes the PDF writer: an arbitrary valid tree (see `tree.rs`) — page sections with their
//! headers, footers and page-number fields too, languages and directions — must be written
//! without a panic, as a tagged PDF its readers take, with no standard and with each of
//! PDF/UA-1, PDF/A-2b, -2u, -3b and PDF/A-2b + PDF/UA-1 (or the typed error naming why the
//! tree cannot meet it; see `writers.rs`).
//!
//! Text in every script: the tree's letters are first mapped, as the input says, into Arabic,
//! Hebrew, Devanagari (with a virama and vowel signs), Thai (with a mark), Hangul, kana, Han
//! and right-to-left controls, so the layout's shaping, font fallback, bidi reordering and
//! breaks between ideographs run on every input.

#![no_main]

mod tree;
mod writers;

use libfuzzer_sys::fuzz_target;
use sdconv::ast::Inline;

/// What each of the tree's common letters becomes, in one of two mappings.
const SCRIPTS: [(char, char); 14] = [
    ('a', 'ب'),
    ('b', 'ل'),
    ('c', 'ש'),
    ('d', 'क'),
    ('e', '\u{94D}'),
    ('x', 'ि'),
    ('y', 'ก'),
    ('z', '\u{E31}'),
    ('A', '한'),
    ('B', 'か'),
    ('Z', '漢'),
    ('0', '\u{200F}'),
    ('1', '١'),
    ('9', '。'),
];

fuzz_target!(|data: &[u8]| {
    let mut doc = tree::tree(data);
    // The first byte chooses: Latin as generated, or letters mapped into other scripts.
    if data.first().is_some_and(|b| b % 2 == 1) {
        doc.walk_inline_lists_mut(&mut |list| {
            for inline in list.iter_mut() {
                if let Inline::Text { text } = inline {
                    *text = text
                        .chars()
                        .map(|c| {
                            SCRIPTS
                                .iter()
                                .find(|(from, _)| *from == c)
                                .map_or(c, |(_, to)| *to)
                        })
                        .collect();
                }
            }
        });
    }
    writers::check_pdf(&doc);
});
