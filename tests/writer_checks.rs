//! The writer fuzz targets' properties (`fuzz/fuzz_targets/writers.rs`, included as it is) on
//! proptest's trees, so `cargo test` checks them on every run and the fuzzers search further.

mod common;

#[path = "../fuzz/fuzz_targets/writers.rs"]
mod writers;

use proptest::prelude::*;

proptest! {
    #![proptest_config(common::config(64))]

    #[test]
    fn sdxml_writer(doc in common::arb::document()) {
        writers::check_sdxml(&doc);
    }

    #[test]
    fn parsx_writer(doc in common::arb::document()) {
        writers::check_parsx(&doc);
    }

    #[test]
    fn html_writers(doc in common::arb::document()) {
        writers::check_html(&doc);
    }

    #[test]
    fn word_writer(doc in common::arb::document()) {
        writers::check_word(&doc);
    }

    #[test]
    fn markdown_writer(doc in common::arb::document()) {
        writers::check_markdown(&doc);
    }

    #[test]
    fn json_writer(doc in common::arb::document()) {
        writers::check_json(&doc);
    }

    #[test]
    fn sdxml_writer_with_page_headers(doc in common::arb::document_with_pages()) {
        writers::check_sdxml(&doc);
    }

    #[test]
    fn word_writer_with_page_headers(doc in common::arb::document_with_pages()) {
        writers::check_word(&doc);
    }

    #[cfg(feature = "pdf")]
    #[test]
    fn pdf_writer(doc in common::arb::document_with_pages()) {
        writers::check_pdf(&doc);
    }
}

#[test]
fn well_formedness_check_can_fail() {
    writers::assert_well_formed("<a><b/></a>", "good");
    for bad in ["<a><b></a>", "<a>", "<a/><b/>", "<a></b>"] {
        let caught = std::panic::catch_unwind(|| writers::assert_well_formed(bad, "bad"));
        assert!(caught.is_err(), "{bad} passed as well-formed");
    }
}
