//! Fuzzes the markdown writer: an arbitrary valid tree (see `tree.rs`) must be written without a
//! panic, in a form its consumers take (see `writers.rs`).

#![no_main]

mod tree;
mod writers;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let doc = tree::tree(data);
    writers::check_markdown_for_fuzzing(&doc);
});
