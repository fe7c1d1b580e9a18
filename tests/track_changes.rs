//! `ExportOptions::track_changes` and `comments` (and the CLI's `--track-changes`): every writer
//! shows tracked changes marked, accepted or rejected, and comments kept or left out, alike.

use std::process::Command;

use sdconv::ast::changes::{drop_comments, resolve_changes};
use sdconv::ast::{Block, Change, ChangeKind, Comment, Inline, Paragraph, TextType};
use sdconv::{Document, ExportOptions, Format, TrackChanges};

mod common;

fn tracked(kind: ChangeKind, text: &str) -> Inline {
    Inline::Tracked {
        change: Change {
            kind,
            author: Some("Ann".into()),
            date: Some("2026-01-02T03:04:05Z".into()),
        },
        children: vec![Inline::text(text)],
    }
}

/// A paragraph with an insertion, a deletion and a commented range.
fn doc() -> Document {
    let mut doc = Document::default();
    doc.meta.title = Some("Changes".into());
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![
            Inline::text("Kept words "),
            tracked(ChangeKind::Insert, "Insertedword "),
            tracked(ChangeKind::Delete, "Deletedword "),
            Inline::CommentStart { id: "c1".into() },
            Inline::text("commented range"),
            Inline::CommentEnd { id: "c1".into() },
        ],
    )));
    doc.comments.push(Comment {
        id: "c1".into(),
        author: Some("Ann".into()),
        content: vec![Inline::text("Commenttext")],
        ..Comment::default()
    });
    doc
}

fn options(mode: TrackChanges, comments: bool) -> ExportOptions {
    let mut o = ExportOptions::default();
    o.track_changes = mode;
    o.comments = comments;
    o
}

fn writable() -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|f| sdconv::export(&Document::default(), *f, &ExportOptions::default()).is_ok())
        .collect()
}

/// Every writer, in every mode, writes exactly what it writes for the tree with the changes
/// resolved beforehand: the option reaches all of them.
#[test]
fn every_writer_writes_the_resolved_tree() {
    let formats = writable();
    assert!(formats.len() >= 7, "{formats:?}");
    for format in formats {
        for (mode, comments) in [
            (TrackChanges::Accept, false),
            (TrackChanges::Reject, true),
            (TrackChanges::All, false),
        ] {
            let mut resolved = doc();
            resolve_changes(&mut resolved, mode);
            if !comments {
                drop_comments(&mut resolved);
            }
            let expected = sdconv::export(&resolved, format, &ExportOptions::default())
                .unwrap()
                .value;
            let got = sdconv::export(&doc(), format, &options(mode, comments))
                .unwrap()
                .value;
            assert!(got == expected, "{format} {mode:?} comments={comments}");
            let streamed = sdconv::export_to(
                &doc(),
                format,
                &options(mode, comments),
                std::io::Cursor::new(Vec::new()),
            )
            .unwrap()
            .value
            .into_inner();
            assert!(streamed == expected, "{format} {mode:?} (export_to)");
        }
    }
}

/// What a reader sees in the text formats.
#[test]
fn text_outputs_show_what_the_mode_asks() {
    for format in [Format::HtmlAllInOne, Format::Markdown, Format::Json] {
        let text = |mode, comments| {
            let out = sdconv::export(&doc(), format, &options(mode, comments)).unwrap();
            String::from_utf8(out.value).unwrap()
        };
        let all = text(TrackChanges::All, true);
        // Markdown has no mark for a deletion or a comment: its writer shows changes accepted
        // and leaves comments out (and warns).
        let marks = format != Format::Markdown;
        assert!(all.contains("Insertedword"), "{format}");
        assert_eq!(all.contains("Deletedword"), marks, "{format}");
        assert_eq!(all.contains("Commenttext"), marks, "{format}: {all}");
        let accepted = text(TrackChanges::Accept, false);
        assert!(accepted.contains("Insertedword"), "{format}");
        assert!(!accepted.contains("Deletedword"), "{format}: {accepted}");
        assert!(!accepted.contains("Commenttext"), "{format}: {accepted}");
        assert!(accepted.contains("commented range"), "{format}");
        let rejected = text(TrackChanges::Reject, true);
        assert!(rejected.contains("Deletedword"), "{format}");
        assert!(!rejected.contains("Insertedword"), "{format}: {rejected}");
    }
    // Marked changes in HTML are <ins>/<del>; accepted ones are plain text.
    let html = |mode| {
        let out = sdconv::export(&doc(), Format::HtmlAllInOne, &options(mode, true)).unwrap();
        String::from_utf8(out.value).unwrap()
    };
    assert!(html(TrackChanges::All).contains("<del"));
    assert!(!html(TrackChanges::Accept).contains("<del"));
    assert!(!html(TrackChanges::Accept).contains("<ins"));
}

#[test]
fn the_cli_takes_track_changes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.json");
    std::fs::write(&input, doc().to_json()).unwrap();
    let run = |mode: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_sdconv"))
            .args([
                "convert",
                input.to_str().unwrap(),
                "--to",
                "html_all_in_one",
            ])
            .args(["--track-changes", mode])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let accepted = run("accept");
    assert!(accepted.contains("Insertedword") && !accepted.contains("Deletedword"));
    let rejected = run("reject");
    assert!(!rejected.contains("Insertedword") && rejected.contains("Deletedword"));
    let all = run("all");
    assert!(all.contains("Insertedword") && all.contains("Deletedword"));
    let bad = Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args(["convert", input.to_str().unwrap(), "--to", "markdown"])
        .args(["--track-changes", "maybe"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// A Word body: "Merged" whose paragraph mark was deleted (it joins "away" when accepted),
/// then "Split" whose mark was inserted (it was split off "off" by the author).
fn mark_body() -> Vec<u8> {
    let mark = |tag: &str| {
        format!(
            r#"<w:pPr><w:rPr><w:{tag} w:id="9" w:author="Ann" w:date="2026-01-02T03:04:05Z"/></w:rPr></w:pPr>"#
        )
    };
    let para = |ppr: &str, text: &str| format!(r#"<w:p>{ppr}<w:r><w:t>{text}</w:t></w:r></w:p>"#);
    let body = [
        para(&mark("del"), "Merged "),
        para("", "away"),
        para(&mark("ins"), "Split"),
        para("", "off"),
    ]
    .concat();
    let ns = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships""#;
    let document = format!(r#"<w:document {ns}><w:body>{body}</w:body></w:document>"#);
    let mut zip = sdconv::internal::archive::ZipWriter::new();
    let files = [
        ("[Content_Types].xml", r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#.to_string()),
        ("_rels/.rels", r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#.to_string()),
        ("word/document.xml", document),
    ];
    for (name, text) in files {
        zip.add(
            name,
            text.as_bytes(),
            sdconv::internal::archive::Compression::Deflate,
        )
        .unwrap();
    }
    zip.finish().unwrap()
}

fn paragraph_texts(doc: &Document) -> Vec<String> {
    doc.blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => sdconv::ast::inline::plain_text(&p.content),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn paragraph_marks_are_changes_too() {
    let read = sdconv::import(Format::Word, &mark_body(), &Default::default()).unwrap();
    assert!(read.warnings.is_empty(), "{:?}", read.warnings);
    let doc = read.value;
    let marks: Vec<Option<ChangeKind>> = doc
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => p.mark.as_ref().map(|m| m.kind),
            _ => None,
        })
        .collect();
    assert_eq!(
        marks,
        [
            Some(ChangeKind::Delete),
            None,
            Some(ChangeKind::Insert),
            None
        ]
    );
    // Accepted: the deleted break joins, the inserted one stays; rejected: the other way.
    let mut accepted = doc.clone();
    resolve_changes(&mut accepted, TrackChanges::Accept);
    assert_eq!(paragraph_texts(&accepted), ["Merged away", "Split", "off"]);
    let mut rejected = doc.clone();
    resolve_changes(&mut rejected, TrackChanges::Reject);
    assert_eq!(paragraph_texts(&rejected), ["Merged ", "away", "Splitoff"]);
    for settled in [&accepted, &rejected] {
        assert!(
            settled
                .blocks
                .iter()
                .all(|b| !matches!(b, Block::Paragraph(p) if p.mark.is_some()))
        );
    }
    // Shown: a pilcrow deleted and one inserted, as Word shows them.
    let html = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let html = String::from_utf8(html.value).unwrap();
    assert!(
        html.contains("Merged <del title=\"Ann, 2026-01-02T03:04:05Z\""),
        "{html}"
    );
    assert!(
        html.contains(">\u{B6}</del></p>") && html.contains(">\u{B6}</ins></p>"),
        "{html}"
    );
    // The writers that cannot show them say so.
    for format in [Format::Markdown, Format::Parsx, Format::Pdf] {
        let out = sdconv::export(&doc, format, &ExportOptions::default()).unwrap();
        assert!(
            out.warnings
                .iter()
                .any(|w| w.message.contains("2 tracked paragraph mark")),
            "{format:?}: {:?}",
            out.warnings
        );
    }
    // Word writes them back; sd.xml carries them for sdconv.
    for format in [Format::Word, Format::Sdxml] {
        let out = sdconv::export(&doc, format, &ExportOptions::default()).unwrap();
        let back = sdconv::import(format, &out.value, &Default::default())
            .unwrap()
            .value;
        assert_eq!(back.blocks, doc.blocks, "{format:?}");
    }
}

proptest::proptest! {
    #![proptest_config(common::config(64))]

    /// Accepting or rejecting the changes, and leaving the comments out, keep any valid tree
    /// valid: the text of an unwrapped change joins its neighbours in canonical form, which the
    /// writers rely on.
    #[test]
    fn resolved_trees_stay_valid(doc in common::arb::document_with_pages()) {
        for mode in [TrackChanges::Accept, TrackChanges::Reject] {
            let mut resolved = doc.clone();
            resolve_changes(&mut resolved, mode);
            proptest::prop_assert!(resolved.validate().is_ok(), "{mode:?}: {:?}", resolved.validate());
            drop_comments(&mut resolved);
            proptest::prop_assert!(resolved.validate().is_ok(), "{mode:?}, no comments: {:?}", resolved.validate());
        }
    }
}

/// A document with everything the options settle: tracked changes, a comment, pictures (as
/// blocks, in table cells and in text, as the sample generator spreads them).
fn full_doc() -> Document {
    let mut full = sdconv::internal::sample::large_document(8, 1, 3, 5);
    let changes = doc();
    full.blocks.extend(changes.blocks);
    full.comments.extend(changes.comments);
    full
}

fn picture_count(doc: &Document) -> usize {
    let mut count = 0;
    doc.walk_blocks(&mut |_, block| count += usize::from(matches!(block, Block::Image(_))));
    doc.walk_inlines(&mut |inline| count += usize::from(matches!(inline, Inline::Image { .. })));
    count
}

/// `ExportOptions::prepare`, which the bindings call before handing a tree to a writer
/// themselves: its tree written with its options is what `export` writes from the original,
/// in every format; `prepare_owned` gives the same tree; nothing is copied when nothing changes.
#[test]
fn prepare_gives_the_tree_and_the_options_export_writes_with() {
    let full = full_doc();
    assert!(picture_count(&full) > 0);
    let (same, _) = ExportOptions::default().prepare(&full);
    assert!(matches!(same, std::borrow::Cow::Borrowed(_)));
    for (mode, comments, images) in [
        (TrackChanges::Accept, false, false),
        (TrackChanges::Reject, true, true),
        (TrackChanges::All, true, false),
    ] {
        let mut opts = options(mode, comments);
        opts.images = images;
        let (tree, plain) = opts.prepare(&full);
        assert_eq!(plain.track_changes, TrackChanges::All);
        assert!(plain.comments && plain.images);
        assert_eq!(picture_count(&tree) > 0, images, "{mode:?}");
        assert_eq!(tree.comments.is_empty(), !comments, "{mode:?}");
        assert!(opts.prepare_owned(full.clone()).0 == *tree, "{mode:?}");
        for format in writable() {
            let expected = sdconv::export(&full, format, &opts).unwrap().value;
            let got = sdconv::export(&tree, format, &plain).unwrap().value;
            assert!(got == expected, "{format} {mode:?} images={images}");
        }
    }
}

/// `ExportOptions::images` false leaves every picture out of every format, as Python's and
/// JavaScript's `images: omit` asks.
#[test]
fn images_false_writes_no_picture() {
    let mut opts = ExportOptions::default();
    opts.images = false;
    let full = full_doc();
    let markdown = sdconv::export(&full, Format::Markdown, &opts)
        .unwrap()
        .value;
    let markdown = String::from_utf8(markdown).unwrap();
    assert!(!markdown.contains("images/"), "{markdown}");
    let html = sdconv::export(&full, Format::HtmlAllInOne, &opts)
        .unwrap()
        .value;
    assert!(!String::from_utf8(html).unwrap().contains("<img"));
    let word = sdconv::export(&full, Format::Word, &opts).unwrap().value;
    let zip = sdconv::internal::archive::ZipReader::new(&word, &Default::default()).unwrap();
    assert!(!zip.names().iter().any(|n| n.starts_with("word/media/")));
    // The words stay.
    assert!(markdown.contains("Kept words"));
}
