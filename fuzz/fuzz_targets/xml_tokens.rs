//! Fuzzes the readers' XML tokenizer against quick-xml's reader: for any text, the same events
//! at the same positions, or the same error at the same offset (`src/xml/tokens.rs`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use sdconv::internal::xml_tokens_check;

fuzz_target!(|data: &[u8]| {
    // The readers hand the tokenizer text: a part that is not UTF-8 is refused before.
    if let Ok(text) = std::str::from_utf8(data)
        && let Err(e) = xml_tokens_check(text)
    {
        panic!("{text:?}: {e}");
    }
});
