//! Fuzzes the Markdown reader with arbitrary bytes.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    common::check_import(sdconv::Format::Markdown, data);
});
