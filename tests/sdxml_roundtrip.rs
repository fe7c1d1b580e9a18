//! The sd.xml round trip: `import(export(tree)) == tree`, for every real sample of
//! `../shared/corpus/sdxml` and for generated trees; every export is valid against the DTD, in
//! the default mode and in DTD-strict mode.

mod common;

use proptest::prelude::*;
use sdconv::Document;
use sdconv::export::sdxml::{self, SdxmlExportOptions};
use sdconv::import::sdxml::{SdxmlImportOptions, read};
use sdconv::internal::archive::ZipReader;

fn import(zip: &[u8]) -> Document {
    read(zip, &SdxmlImportOptions::default())
        .unwrap_or_else(|e| panic!("re-import failed: {e}"))
        .value
}

/// The export's `sd.xml` text, read back out of its zip.
fn sd_xml_of(zip: &[u8]) -> String {
    let mut r = ZipReader::new(zip, &sdconv::Limits::default()).unwrap();
    String::from_utf8(r.read("sd.xml").unwrap()).unwrap()
}

fn check_round_trip(name: &str, original: &Document) {
    let out = sdxml::write(original, &SdxmlExportOptions::default()).unwrap();
    let xml = sd_xml_of(&out.value);
    common::assert_dtd_valid(&xml);
    let back = import(&out.value);
    assert!(
        back == *original,
        "{name}: the tree changed on the round trip\n--- before ---\n{}\n--- after ---\n{}",
        original.to_json(),
        back.to_json()
    );
    // Same tree, same bytes: the second export equals the first.
    let again = sdxml::write(&back, &SdxmlExportOptions::default()).unwrap();
    assert_eq!(
        again.value, out.value,
        "{name}: export is not deterministic"
    );
    // The DTD-strict form is valid too and carries no extension.
    let strict = sdxml::write(original, &SdxmlExportOptions::strict()).unwrap();
    let strict_xml = sd_xml_of(&strict.value);
    common::assert_dtd_valid(&strict_xml);
    assert!(
        !strict_xml.contains("<?sdconv"),
        "{name}: strict output has PIs"
    );
}

#[test]
fn real_samples_round_trip_exactly() {
    let Some(samples) = common::real_sdxml_samples() else {
        return;
    };
    for (name, zip) in samples {
        let original = import(&zip);
        assert_eq!(original.validate(), Ok(()), "{name}");
        check_round_trip(name, &original);
    }
}

#[test]
fn real_samples_need_no_extensions() {
    // What the service wrote, the DTD can hold: exporting a real sample again needs no PI, so
    // the service gets back its own grammar.
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let dir = shared.join("corpus/sdxml");
    for name in ["export-2018-minimal.zip", "export-2017-table-image.zip"] {
        let doc = import(&std::fs::read(dir.join(name)).unwrap());
        let out = sdxml::write(&doc, &SdxmlExportOptions::default()).unwrap();
        let xml = sd_xml_of(&out.value);
        assert!(
            common::pis(&xml).is_empty(),
            "{name}: {:?}",
            common::pis(&xml)
        );
        assert!(out.warnings.is_empty(), "{name}: {:?}", out.warnings);
    }
}

#[test]
fn the_bundled_sample_round_trips() {
    let zip = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/sample.sdxml.zip"
    ))
    .unwrap();
    let doc = import(&zip);
    assert_eq!(doc.validate(), Ok(()));
    check_round_trip("samples/sample.sdxml.zip", &doc);
}

#[test]
fn sample_documents_round_trip() {
    check_round_trip(
        "small_document",
        &sdconv::internal::sample::small_document(),
    );
    check_round_trip(
        "large_document",
        &sdconv::internal::sample::large_document(600, 12, 4, 7),
    );
}

proptest! {
    #![proptest_config(common::config(96))]

    #[test]
    fn generated_trees_round_trip(doc in common::arb::document()) {
        prop_assert_eq!(doc.validate(), Ok(()));
        let out = sdxml::write(&doc, &SdxmlExportOptions::default()).unwrap();
        let back = import(&out.value);
        prop_assert!(back == doc, "before:\n{}\nafter:\n{}", doc.to_json(), back.to_json());
    }
}

#[test]
fn the_bundled_sample_is_what_the_generator_writes() {
    // `cargo run --example make_samples` rewrites it; this catches a stale committed copy.
    let zip = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/sample.sdxml.zip"
    ))
    .unwrap();
    let fresh = sdxml::write(
        &sdconv::internal::sample::small_document(),
        &SdxmlExportOptions::default(),
    )
    .unwrap()
    .value;
    assert!(
        zip == fresh,
        "samples/sample.sdxml.zip is stale: run `cargo run --example make_samples`"
    );
}

/// A ruby whose "base (reading)" XML cannot hold is written without that text: the text after
/// it is the document's own and comes back whole (a leading `<` was taken for the ruby's).
#[test]
fn text_after_a_ruby_without_shown_text_comes_back_whole() {
    let doc = Document::from_json(
        r#"{"format_version":1,"meta":{"language":"en_EN"},"blocks":[
        {"type":"paragraph","kind":"paragraph","content":[
          {"type":"note","kind":"footnote","content":[
            {"type":"ruby","base":"<","reading":"\u000b"},{"type":"text","text":"<"}]},
          {"type":"ruby","base":"a","reading":"\u0001"},{"type":"text","text":"a (b"}]}]}"#,
    )
    .unwrap();
    check_round_trip("ruby without shown text", &doc);
}
