//! Fuzzes the PDF writer: an arbitrary valid tree (see `tree.rs`) — page sections with their
//! headers, footers and page-number fields too — must be written without a panic, as a tagged
//! PDF its readers take, with no standard and with each of PDF/UA-1, PDF/A-2b, -2u, -3b and
//! PDF/A-2b + PDF/UA-1 (or the typed error naming why the tree cannot meet it; see
//! `writers.rs`).

#![no_main]

mod tree;
mod writers;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let doc = tree::tree(data);
    writers::check_pdf(&doc);
});
