//! Footnotes, endnotes, comments, tracked changes, text boxes and document metadata.

mod docx_support;

use docx_support::*;
use sdconv::ast::{Block, ChangeKind, Inline, Meta, NoteKind, inline::plain_text};
use sdconv::import::docx::{DocxImportOptions, read};
use sdconv::{Error, WarningKind};

fn first_para(c: &sdconv::Converted<sdconv::Document>) -> &[Inline] {
    match &c.value.blocks[0] {
        Block::Paragraph(p) => &p.content,
        other => panic!("{other:?}"),
    }
}

const SEPARATORS: &str = r#"<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>"#;

#[test]
fn footnotes_and_endnotes_stay_apart() {
    let body = r#"<w:p><w:r><w:t>Claim</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r><w:r><w:t> and more</w:t></w:r><w:r><w:endnoteReference w:id="2"/></w:r><w:r><w:footnoteReference w:id="7"/></w:r></w:p>"#;
    let footnotes = format!(
        r#"{SEPARATORS}<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> First </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>line</w:t></w:r></w:p><w:p><w:r><w:t>second paragraph</w:t></w:r></w:p></w:footnote>"#
    );
    let endnotes = r#"<w:endnote w:type="separator" w:id="0"><w:p><w:r><w:separator/></w:r></w:p></w:endnote><w:endnote w:id="2"><w:p><w:r><w:endnoteRef/></w:r><w:r><w:t> At the end.</w:t></w:r></w:p></w:endnote>"#;
    let c = docx(body).footnotes(&footnotes).endnotes(endnotes).read();
    valid(&c);
    let notes: Vec<(NoteKind, String)> = first_para(&c)
        .iter()
        .filter_map(|i| match i {
            Inline::Note { kind, content } => Some((*kind, plain_text(content))),
            _ => None,
        })
        .collect();
    assert_eq!(
        notes,
        [
            (
                NoteKind::Footnote,
                "First line\nsecond paragraph".to_string()
            ),
            (NoteKind::Endnote, "At the end.".to_string())
        ]
    );
    assert!(
        messages(&c)
            .iter()
            .any(|m| m.contains("footnote 7 is referenced but not"))
    );
    golden("notes", &c);
}

#[test]
fn comments_with_and_without_ranges() {
    let body = r#"<w:p><w:commentRangeStart w:id="1"/><w:r><w:t>commented</w:t></w:r><w:commentRangeEnd w:id="1"/><w:r><w:commentReference w:id="1"/></w:r><w:r><w:t> point</w:t></w:r><w:r><w:commentReference w:id="2"/></w:r><w:commentRangeStart w:id="99"/></w:p>"#;
    let comments = r#"<w:comment w:id="1" w:author="Ann" w:date="2024-05-01T10:00:00Z" w:initials="A"><w:p><w:r><w:annotationRef/></w:r><w:r><w:t>Why?</w:t></w:r></w:p></w:comment><w:comment w:id="2" w:author="Bob"><w:p><w:r><w:t>Point comment</w:t></w:r></w:p><w:p><w:r><w:t>two lines</w:t></w:r></w:p></w:comment>"#;
    let c = docx(body).comments(comments).read();
    valid(&c);
    let anchors: Vec<String> = first_para(&c)
        .iter()
        .map(|i| match i {
            Inline::CommentStart { id } => format!("[{id}"),
            Inline::CommentEnd { id } => format!("{id}]"),
            Inline::Text { text } => text.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(anchors, ["[1", "commented", "1]", " point", "[2", "2]"]);
    let cs = &c.value.comments;
    assert_eq!(cs.len(), 2);
    assert_eq!(
        (
            cs[0].author.as_deref(),
            cs[0].initials.as_deref(),
            cs[0].date.as_deref()
        ),
        (Some("Ann"), Some("A"), Some("2024-05-01T10:00:00Z"))
    );
    assert_eq!(plain_text(&cs[0].content), "Why?");
    assert_eq!(plain_text(&cs[1].content), "Point comment\ntwo lines");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Dropped && w.message.contains("comment 99"))
    );
    golden("comments", &c);
}

#[test]
fn tracked_changes_keep_both_sides() {
    let body = r#"<w:p><w:r><w:t>The </w:t></w:r><w:del w:id="1" w:author="Ann" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>old</w:delText></w:r></w:del><w:ins w:id="2" w:author="Ann" w:date="2024-01-01T00:00:00Z"><w:r><w:t>new</w:t></w:r></w:ins><w:r><w:t> text</w:t></w:r><w:moveFrom w:id="3" w:author="Bob"><w:r><w:t>moved</w:t></w:r></w:moveFrom><w:moveTo w:id="4" w:author="Bob"><w:r><w:t>moved</w:t></w:r></w:moveTo></w:p>"#;
    let c = docx(body).read();
    valid(&c);
    let changes: Vec<(ChangeKind, Option<String>, String)> = first_para(&c)
        .iter()
        .filter_map(|i| match i {
            Inline::Tracked { change, children } => {
                Some((change.kind, change.author.clone(), plain_text(children)))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        changes,
        [
            (ChangeKind::Delete, Some("Ann".into()), "old".into()),
            (ChangeKind::Insert, Some("Ann".into()), "new".into()),
            (ChangeKind::Delete, Some("Bob".into()), "moved".into()),
            (ChangeKind::Insert, Some("Bob".into()), "moved".into()),
        ]
    );
    golden("changes", &c);
}

#[test]
fn text_boxes_follow_their_paragraph() {
    let body = r#"<w:p><w:r><w:t>Anchor</w:t></w:r><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor><wp:extent cx="100" cy="100"/><wp:docPr id="2" name="Text Box 2"/><a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>In the box</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p><w:p><w:r><w:t>Next</w:t></w:r></w:p>"#;
    let c = docx(body).read();
    valid(&c);
    let texts: Vec<String> = c
        .value
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => plain_text(&p.content),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(texts, ["Anchor", "In the box", "Next"], "one branch only");
    assert_eq!(
        c.warnings
            .iter()
            .filter(|w| w.message.contains("text box"))
            .count(),
        1
    );
}

#[test]
fn metadata_from_core_properties_and_footer_under_the_callers() {
    let body = format!(
        r#"{}<w:sectPr><w:footerReference w:type="default" r:id="rIdFooter"/></w:sectPr>"#,
        p("x")
    );
    let footer = format!(
        r#"<w:p><w:r><w:t>ACME Corp.</w:t></w:r><w:r><w:tab/><w:t>Page </w:t></w:r>{}</w:p>"#,
        field("PAGE", "3")
    );
    let core = "<dc:title>Doc title</dc:title><dc:subject>The subject</dc:subject><dc:creator>Ann</dc:creator><dc:description>About</dc:description><cp:keywords>alpha, beta</cp:keywords><dc:language>de-DE</dc:language>";
    let d = docx(&body).footer(&footer).core(core);
    let c = d.read();
    valid(&c);
    let m = &c.value.meta;
    assert_eq!(m.title.as_deref(), Some("Doc title"));
    assert_eq!(m.subtitle.as_deref(), Some("The subject"));
    assert_eq!(m.description.as_deref(), Some("About"));
    assert_eq!(m.creator.as_deref(), Some("Ann"));
    assert_eq!(m.language.as_deref(), Some("de_DE"));
    assert_eq!(m.tags, ["alpha", "beta"]);
    assert_eq!(m.footer.as_deref(), Some("ACME Corp. Page"));

    let mut options = DocxImportOptions::default();
    options.meta = Meta {
        title: Some("Caller title".into()),
        filename: Some("report.docx".into()),
        tags: vec!["mine".into()],
        ..Meta::default()
    };
    let c = read(&d.build(), &options).unwrap();
    let m = &c.value.meta;
    assert_eq!(m.title.as_deref(), Some("Caller title"));
    assert_eq!(m.filename.as_deref(), Some("report.docx"));
    assert_eq!(m.tags, ["mine"]);
    assert_eq!(m.subtitle.as_deref(), Some("The subject"));

    options.meta.supplemental = Some("s".repeat(401));
    let err = read(&d.build(), &options).unwrap_err();
    assert_eq!(err.kind(), sdconv::ErrorKind::Parameter);
    assert!(
        matches!(err, Error::Parameter { ref name, .. } if name == "supplemental"),
        "{err}"
    );
}
