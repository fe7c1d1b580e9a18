//! Pictures: inline and anchored DrawingML, VML, linked pictures, sizes relative to the text
//! width, alt text, captions, one media entry per part, metafiles.

mod docx_support;

use docx_support::*;
use sdconv::WarningKind;
use sdconv::ast::{Block, Inline, MediaKind, inline::plain_text};

#[test]
fn a_picture_alone_is_a_block_and_among_text_inline() {
    // Section text width: 12240 - 1440 - 1440 twips = 6.5 in = 5,943,600 EMU.
    let body = [
        format!("<w:p><w:pPr><w:jc w:val=\"center\"/></w:pPr>{}</w:p>", drawing("rIdImg", 2_971_800, 1_000_000, "A cat")),
        format!("<w:p><w:r><w:t>Icon </w:t></w:r>{}<w:r><w:t> inline</w:t></w:r></w:p>", drawing("rIdImg", 100_000, 100_000, "")),
        // Wider than the text: capped at 100 %.
        format!("<w:p>{}</w:p>", drawing("rIdWide", 9_000_000, 1_000_000, "")),
        r#"<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:left="1440" w:right="1440" w:top="1440" w:bottom="1440"/></w:sectPr>"#.into(),
    ]
    .concat();
    let c = docx(&body)
        .image("rIdImg", "image1.png", png(640, 480))
        .image("rIdWide", "wide.png", png(2000, 100))
        .read();
    valid(&c);
    let b = &c.value.blocks;
    let Block::Image(img) = &b[0] else {
        panic!("{:?}", b[0])
    };
    assert_eq!(img.media, "image1.png");
    assert_eq!(img.alt.as_deref(), Some("A cat"));
    assert_eq!(img.width_percent, Some(50.0));
    assert_eq!(
        img.extent.map(|e| (e.width, e.height)),
        Some((2_971_800, 1_000_000))
    );
    assert_eq!(img.align, sdconv::ast::Align::Center);
    let Block::Paragraph(p) = &b[1] else { panic!() };
    assert!(
        p.content
            .iter()
            .any(|i| matches!(i, Inline::Image { media, .. } if media == "image1.png"))
    );
    assert_eq!(plain_text(&p.content), "Icon  inline");
    let Block::Image(wide) = &b[2] else { panic!() };
    assert_eq!(wide.width_percent, Some(100.0));
    // One entry per part, sniffed.
    assert_eq!(c.value.media.len(), 2);
    let item = c.value.media.get("image1.png").unwrap();
    assert_eq!(
        (item.kind, item.width, item.height),
        (MediaKind::Png, Some(640), Some(480))
    );
    golden("images", &c);
}

#[test]
fn anchored_vml_linked_and_metafile_pictures() {
    let anchored = r#"<w:p><w:r><w:drawing><wp:anchor><wp:extent cx="914400" cy="914400"/><wp:docPr id="3" name="P" title="Floating"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rIdA"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>"#;
    let vml = r#"<w:p><w:r><w:pict><v:shape style="width:72pt;height:36pt"><v:imagedata r:id="rIdV" o:title="Old style"/></v:shape></w:pict></w:r></w:p>"#;
    let linked = r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="100" cy="100"/><wp:docPr id="4" name="L"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:link="rIdL"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>"#;
    let body = [anchored, vml, linked].concat();
    let c = docx(&body)
        .image("rIdA", "a.png", png(10, 10))
        .image("rIdV", "v.emf", emf())
        .rel("rIdL", "image", "file:///C:/pics/linked.png", true)
        .read();
    let b = &c.value.blocks;
    let media: Vec<(&str, Option<&str>)> = b
        .iter()
        .map(|b| match b {
            Block::Image(i) => (i.media.as_str(), i.alt.as_deref()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        media,
        [
            ("a.png", Some("Floating")),
            ("v.emf", Some("Old style")),
            ("file:///C:/pics/linked.png", None)
        ]
    );
    let Block::Image(v) = &b[1] else { panic!() };
    assert_eq!(
        v.extent.map(|e| (e.width, e.height)),
        Some((914_400, 457_200))
    );
    // Only the linked picture is missing from the store.
    let violations = c.value.validate().unwrap_err();
    assert_eq!(violations.len(), 1);
    assert!(violations[0].message.contains("linked.png"));
    // The linked picture is lost; the metafile is kept whole (the writers that cannot carry
    // one draw it), so it is no warning here.
    let kinds: Vec<(WarningKind, bool)> = c
        .warnings
        .iter()
        .map(|w| (w.kind, w.message.contains("linked picture")))
        .collect();
    assert_eq!(kinds, [(WarningKind::MissingMedia, true)]);
    assert_eq!(
        c.value.media.get("v.emf").map(|m| m.kind),
        Some(MediaKind::Emf)
    );
}

#[test]
fn a_caption_after_a_picture_becomes_its_caption() {
    let styles = [NORMAL.to_string(), pstyle("Caption", "caption", "")].concat();
    let body = [
        format!("<w:p>{}</w:p>", drawing("rIdImg", 914_400, 914_400, "alt")),
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr><w:r><w:t xml:space="preserve">Figure </w:t></w:r>{}<w:r><w:t xml:space="preserve">: A </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>cat</w:t></w:r></w:p>"#,
            field(r"SEQ Figure \* ARABIC", "1")
        ),
        // A typed number, no field.
        format!("<w:p>{}</w:p>", drawing("rIdImg", 914_400, 914_400, "")),
        ps("Caption", "Figure 2: A dog"),
        // A caption with nothing to attach to stays a caption paragraph.
        ps("Caption", "Lonely"),
    ]
    .concat();
    let c = docx(&body)
        .styles(&styles)
        .image("rIdImg", "image1.png", png(1, 1))
        .read();
    valid(&c);
    let b = &c.value.blocks;
    assert_eq!(b.len(), 3, "{b:?}");
    let Block::Image(first) = &b[0] else { panic!() };
    assert_eq!(
        (first.caption.as_deref(), first.numbered),
        (Some("A cat"), true)
    );
    let Block::Image(second) = &b[1] else {
        panic!()
    };
    assert_eq!(
        (second.caption.as_deref(), second.numbered),
        (Some("A dog"), true)
    );
    assert!(matches!(&b[2], Block::Paragraph(p) if p.kind == sdconv::ast::TextType::Caption));
    assert_eq!(
        c.value.media.len(),
        1,
        "one media entry for the part used twice"
    );
    golden("image_captions", &c);
}

#[test]
fn a_missing_picture_part_is_dropped_with_a_warning() {
    let body = format!("<w:p>{}</w:p>", drawing("rIdGone", 10, 10, ""));
    let c = docx(&body)
        .rel("rIdGone", "image", "media/gone.png", false)
        .read();
    valid(&c);
    assert!(c.value.media.is_empty());
    assert!(
        c.warnings
            .iter()
            .any(|w| w.kind == WarningKind::MissingMedia && w.message.contains("gone.png"))
    );
}

#[test]
fn pictures_in_footnotes_use_the_notes_relationships() {
    let body = r#"<w:p><w:r><w:t>Text</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>"#;
    let note = format!(
        r#"<w:footnote w:id="1"><w:p><w:r><w:t>See </w:t></w:r>{}</w:p></w:footnote>"#,
        drawing("rIdN", 100, 100, "in a note")
    );
    let rels = r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdN" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/note.png"/></Relationships>"#;
    let c = docx(body)
        .footnotes(&note)
        .part("word/_rels/footnotes.xml.rels", rels.as_bytes())
        .part("word/media/note.png", &png(3, 4))
        .read();
    valid(&c);
    let item = c
        .value
        .media
        .get("note.png")
        .expect("the note's picture is stored");
    assert_eq!((item.width, item.height), (Some(3), Some(4)));
    let Block::Paragraph(p) = &c.value.blocks[0] else {
        panic!()
    };
    let Some(Inline::Note { content, .. }) = p.content.last() else {
        panic!("{:?}", p.content)
    };
    assert!(content.iter().any(|i| matches!(i, Inline::Image { media, alt, .. } if media == "note.png" && alt.as_deref() == Some("in a note"))));
}

/// The picture parts the main part relates, listed without reading the text: what
/// `sdconv convert` starts inflating while the reader works.
#[test]
fn picture_parts_lists_the_main_parts_pictures() {
    let word = docx("")
        .image("rIdB", "b.png", png(1, 1))
        .image("rIdA", "a.png", png(1, 1))
        // Related but not in the package: nothing to inflate.
        .rel("rIdC", "image", "media/gone.png", false)
        .build();
    let parts = sdconv::import::docx::picture_parts(&word, &sdconv::Limits::default()).unwrap();
    assert_eq!(parts, ["word/media/a.png", "word/media/b.png"]);
    assert!(sdconv::import::docx::picture_parts(b"%PDF-1.7", &sdconv::Limits::default()).is_err());
}
