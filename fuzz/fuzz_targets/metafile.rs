//! Fuzzes the Windows metafile player (WMF, EMF, EMF+) and the SVG rasteriser.
//!
//! Arbitrary bytes are sniffed as the media store does (an EMF header or a WMF header, placeable
//! or not; seeds in `fuzz/seeds/metafile` start the fuzzer on real files). An error is a fine
//! answer; a drawing must be well-formed XML, and it is rasterised within a few thousand
//! pixels so resvg sees every SVG the player can write.

#![no_main]

use libfuzzer_sys::fuzz_target;
use quick_xml::Reader;
use quick_xml::events::Event;

fuzz_target!(|data: &[u8]| {
    let Ok((svg, _png, _texts, _skipped)) = sdconv::internal::metafile_check(data, Some(4096))
    else {
        return;
    };
    let mut reader = Reader::from_str(&svg);
    let mut depth = 0usize;
    loop {
        match reader.read_event() {
            Ok(Event::Start(_)) => depth += 1,
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("the SVG does not parse: {e}\n{svg}"),
        }
    }
    assert_eq!(depth, 0, "unclosed SVG elements");
});
