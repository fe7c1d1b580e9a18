//! Fuzzes the PDF writer: an arbitrary valid tree (see `tree.rs`) — page sections with their
//! headers, footers and page-number fields too — must be written without a panic, as a PDF its
//! readers take (see `writers.rs`).

#![no_main]

mod tree;
mod writers;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let doc = tree::tree(data);
    writers::check_pdf(&doc);
});
