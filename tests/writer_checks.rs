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

/// proptest's minimal tree for a second trip that changed languages: a right-to-left run in
/// the document's language (German) inside an English paragraph was written without `w:lang`
/// as if it inherited German, but Word reads a right-to-left run in the complex-script slot,
/// whose default is the template's Arabic. Read back, the run was Arabic, and the count of
/// letters then made English the document's language.
#[test]
fn word_writer_rtl_run_in_the_document_language() {
    use sdconv::ast::{Block, Direction, Inline, Paragraph, TextStyle, TextType};
    let lang = |lang: &str, dir: Option<Direction>, children: Vec<Inline>| Inline::Lang {
        lang: Some(lang.to_string()),
        dir,
        children,
    };
    let code = |text: &str| Inline::Styled {
        style: TextStyle::Code,
        children: vec![Inline::text(text)],
    };
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![lang(
                "de-DE",
                None,
                vec![Inline::text("A]]> ?> --> <!-- &amp; \"q\"")],
            )],
        )),
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![
                lang("de-DE", Some(Direction::Rtl), vec![code("Aöaßaaa")]),
                code("]]> ?> --> <!-- &amp; \"q\""),
                Inline::text(" €Yä'US"),
            ],
        )),
    ];
    writers::check_word(&doc);
}

/// proptest's minimal tree for a second trip that changed a note's language: a body without
/// letters whose only language is an empty Japanese paragraph's. Read back once, Japanese is the
/// document's language and the English note text a span; written again, the empty paragraph
/// says nothing, the body has no letters to count, and the reader compared the note with the
/// defaults' `w:val` (English) while the tree's language came from `dc:language` (Japanese).
#[test]
fn word_writer_note_in_a_body_without_letters() {
    use sdconv::ast::{Block, Inline, NoteKind, Paragraph, TextType};
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![Inline::Note {
                kind: NoteKind::Footnote,
                content: vec![Inline::text("ü")],
            }],
        )),
        Block::Paragraph(Paragraph {
            lang: Some("ja-JP".to_string()),
            ..Paragraph::new(TextType::Paragraph, vec![])
        }),
    ];
    writers::check_word(&doc);
}

/// proptest's minimal tree for a second trip that changed the document's language: a Hebrew
/// paragraph whose only letters are a ruby's and an empty Arabic one. The reader counts no
/// ruby letters, so the first paragraph counts by its mark's language; read back once it is in
/// the document's language (Hebrew), and the writer left its mark bare because the ruby looked
/// like letters, so the second trip counted Arabic alone.
#[test]
fn word_writer_ruby_paragraph_counts_by_its_mark() {
    use sdconv::ast::{Block, Inline, Paragraph, TextType};
    let mut doc = sdconv::Document::new();
    doc.blocks = vec![
        Block::Paragraph(Paragraph {
            lang: Some("he-IL".to_string()),
            ..Paragraph::new(
                TextType::Paragraph,
                vec![Inline::Ruby {
                    base: "a".to_string(),
                    reading: "\t".to_string(),
                }],
            )
        }),
        Block::Paragraph(Paragraph {
            lang: Some("ar-SA".to_string()),
            ..Paragraph::new(TextType::Paragraph, vec![])
        }),
    ];
    writers::check_word(&doc);
}
