//! The Word round trip: `import(export_word(tree))` against `tree`, on the parts of the
//! writer's contract (`src/export/word/mod.rs`) that the reader now honours, for
//! `sample::small_document()`, small hand-built trees and the three real sd.xml samples of
//! `../shared/corpus/sdxml` (skipped with a printed reason when absent).
//!
//! Compared exactly: the metadata (see `comparable_meta` for the three fields a .docx cannot
//! hold; title, subtitle, description, footer, tags, creator,
//! language as the API's code), the front matter (leading `Title`/`Subtitle` paragraphs become
//! `meta.title`/`meta.subtitle`, a `TOC Heading` with the writer's title before a TOC field is
//! dropped so only the `directory` block remains), and block ids (a heading's tree id, not the
//! writer's `_Toc…` bookmark; cross-references keep their tree target), and link content (the
//! `Hyperlink` style's underline is not an underline mark; an author's underline is kept).
//!
//! The whole tree is compared in `tests/word_roundtrip_tree.rs`; these tests keep the older
//! part-by-part checks and the caller-metadata cases.

mod common;

use sdconv::ast::{Block, Inline};
use sdconv::import::sdxml::{SdxmlImportOptions, read};
use sdconv::{Document, ExportOptions, Format, ImportOptions};

fn round_trip(doc: &Document) -> Document {
    let bytes = sdconv::export(doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    sdconv::import(Format::Word, &bytes, &ImportOptions::default())
        .unwrap()
        .value
}

fn heading_ids(doc: &Document) -> Vec<(String, Option<String>)> {
    doc.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) if p.kind.is_heading() => {
                Some((sdconv::ast::inline::plain_text(&p.content), p.id.clone()))
            }
            _ => None,
        })
        .collect()
}

fn cross_ref_targets(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    for b in &doc.blocks {
        if let Block::Paragraph(p) = b {
            for i in &p.content {
                if let Inline::CrossRef { target, .. } = i {
                    out.push(target.clone());
                }
            }
        }
    }
    out
}

/// The metadata a .docx can carry: everything but
/// - `filename`: no standard docx property holds the API's file name;
/// - `id`, `generator`: the service's provenance of an sd.xml export, which Word has no place for.
///
/// Language: the writer writes the BCP 47 tag of one of the API's four languages and the reader
/// maps it back to the API's code, so an API code comes back exactly.
fn comparable_meta(meta: &sdconv::ast::Meta) -> sdconv::ast::Meta {
    let mut m = meta.clone();
    m.filename = None;
    m.id = None;
    m.generator = None;
    m
}

#[test]
fn metadata_travels_exactly_but_the_filename() {
    let doc = sdconv::internal::sample::small_document();
    let back = round_trip(&doc);
    assert_eq!(back.meta, comparable_meta(&doc.meta));
    assert_eq!(back.meta.language.as_deref(), Some("en_EN"));
}

#[test]
fn front_matter_is_meta_and_the_toc_is_one_directory_block() {
    let doc = sdconv::internal::sample::small_document();
    let back = round_trip(&doc);
    assert_eq!(doc.blocks.first(), back.blocks.first());
    assert!(matches!(back.blocks.first(), Some(Block::Directory { .. })));
    let styles: Vec<_> = back
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => p.style.clone(),
            _ => None,
        })
        .collect();
    for s in ["Title", "Subtitle", "TOC Heading"] {
        assert!(
            !styles.iter().any(|x| x == s),
            "{s} paragraph kept: {styles:?}"
        );
    }
}

#[test]
fn heading_ids_are_the_tree_ids_and_cross_refs_keep_their_target() {
    let doc = sdconv::internal::sample::small_document();
    let back = round_trip(&doc);
    let before = heading_ids(&doc);
    let after = heading_ids(&back);
    assert_eq!(before.len(), after.len(), "{after:?}");
    for ((text, id), (text2, id2)) in before.iter().zip(&after) {
        assert_eq!(text, text2);
        if id.is_some() {
            assert_eq!(id, id2, "{text}");
        }
    }
    assert!(after.iter().any(|(_, id)| id.as_deref() == Some("intro")));
    let targets = cross_ref_targets(&back);
    assert!(!targets.is_empty());
    assert!(targets.iter().all(|t| t == "scope"), "{targets:?}");
}

#[test]
fn a_document_title_that_differs_from_the_callers_stays_a_paragraph() {
    // The caller's title wins; a different Title paragraph is the document's text, not lost.
    let doc = sdconv::internal::sample::small_document();
    let bytes = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let mut options = ImportOptions::default();
    options.docx.meta.title = Some("Caller".into());
    let back = sdconv::import(Format::Word, &bytes, &options)
        .unwrap()
        .value;
    assert_eq!(back.meta.title.as_deref(), Some("Caller"));
    assert!(
        matches!(back.blocks.first(), Some(Block::Paragraph(p)) if p.style.as_deref() == Some("Title"))
    );
}

fn first_paragraph_content(doc: &Document) -> Vec<Inline> {
    doc.blocks
        .iter()
        .find_map(|b| match b {
            Block::Paragraph(p) => Some(p.content.clone()),
            _ => None,
        })
        .unwrap()
}

#[test]
fn links_come_back_without_the_hyperlink_styles_underline() {
    // A plain link and a link whose text the author underlined: only the second is underlined.
    let doc = Document::from_json(
        r#"{"format_version":1,"meta":{},"blocks":[{"type":"paragraph","kind":"paragraph","content":[
            {"type":"text","text":"See "},
            {"type":"link","href":"https://example.org/","children":[{"type":"text","text":"plain"}]},
            {"type":"text","text":" and "},
            {"type":"link","href":"https://example.com/","children":[{"type":"styled","style":"underline","children":[{"type":"text","text":"underlined"}]}]}
        ]}]}"#,
    )
    .unwrap();
    let back = round_trip(&doc);
    assert_eq!(
        first_paragraph_content(&back),
        first_paragraph_content(&doc)
    );
}

#[test]
fn real_sd_xml_samples_keep_meta_and_heading_ids() {
    let Some(samples) = common::real_sdxml_samples() else {
        return;
    };
    for (name, zip) in samples {
        let doc = read(&zip, &SdxmlImportOptions::default()).unwrap().value;
        let back = round_trip(&doc);
        let expected = comparable_meta(&doc.meta);
        let before = heading_ids(&doc);
        let after = heading_ids(&back);
        assert_eq!(back.meta, expected, "{name}");
        assert_eq!(before.len(), after.len(), "{name}: {after:?}");
        for ((text, id), (text2, id2)) in before.iter().zip(&after) {
            assert_eq!(text, text2, "{name}");
            if id.is_some() {
                assert_eq!(id, id2, "{name}: {text}");
            }
        }
    }
}

#[test]
fn comments_come_back_modulo_their_ids() {
    // Word's comment ids are numbers (`w:id`, ECMA-376 §17.13.4.2), the tree's are any
    // string, so only the id is renamed; author, initials, date and text travel exactly.
    let doc = sdconv::internal::sample::small_document();
    let back = round_trip(&doc);
    assert_eq!(doc.comments.len(), back.comments.len());
    for (a, b) in doc.comments.iter().zip(&back.comments) {
        let mut renamed = a.clone();
        renamed.id = b.id.clone();
        assert_eq!(&renamed, b);
    }
}
