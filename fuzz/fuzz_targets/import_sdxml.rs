//! Fuzzes the sd.xml reader with arbitrary bytes.
//!
//! Input starting with the zip signature `PK` goes to the reader as it is: that exercises the
//! zip layer. Anything else is first wrapped as the `sd.xml` entry of a zip built in memory, so
//! mutations reach the XML parser instead of dying at "not a zip" (and a plain sd.xml text is a
//! good seed).

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use sdconv::Format;
use sdconv::internal::archive::{Compression, ZipWriter};

fuzz_target!(|data: &[u8]| {
    if data.starts_with(b"PK") {
        common::check_import(Format::Sdxml, data);
        return;
    }
    let mut zip = ZipWriter::new();
    // Stored, not deflated: the fuzzer's time goes to the reader, not to compression.
    if zip.add("sd.xml", data, Compression::Store).is_err() {
        return;
    }
    if let Ok(bytes) = zip.finish() {
        common::check_import(Format::Sdxml, &bytes);
    }
});
