//! Word export: settings, catalogs, body structures, package validity, determinism, images, and
//! a LibreOffice rendering check (skipped with a reason when `soffice` is not installed).

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use common::all_on;
use quick_xml::Reader;
use quick_xml::events::Event;
use sdconv::ast::{
    Align, Block, Cell, Change, ChangeKind, Comment, DirectoryKind, Image, IndexNode, Inline,
    NoteKind, Paragraph, Row, Table, TextStyle, TextType,
};
use sdconv::export::word::{
    self, ImageStats, PagedSettings, WordOptions, WordTemplates, sdox_catalog_json, sdox_sample,
};
use sdconv::internal::archive::ZipReader;
use sdconv::lang::Language;
use sdconv::{Document, Error, ExportOptions, Format, Limits};

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn para(kind: TextType, level: u8, content: Vec<Inline>) -> Block {
    Block::Paragraph(Paragraph {
        level,
        ..Paragraph::new(kind, content)
    })
}

fn png(w: u32, h: u32, alpha: bool) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    if alpha {
        let img = image::RgbaImage::from_fn(w, h, |x, y| {
            image::Rgba([
                (x % 256) as u8,
                (y % 256) as u8,
                ((x * y) % 256) as u8,
                if x < w / 2 { 255 } else { 90 },
            ])
        });
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    } else {
        // A photo-like image: smooth gradients plus noise (PNG compresses it badly).
        let mut seed = 12345u32;
        let img = image::RgbImage::from_fn(w, h, |x, y| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let n = (seed >> 16) as u8 % 24;
            image::Rgb([
                ((x * 255 / w) as u8).wrapping_add(n),
                ((y * 255 / h) as u8).wrapping_add(n),
                (((x + y) * 128 / (w + h)) as u8).wrapping_add(n),
            ])
        });
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    }
    out.into_inner()
}

/// A document with every kind of node.
fn fixture() -> Document {
    let mut doc = Document::new();
    doc.meta.title = Some("Annual Report & Outlook".into());
    doc.meta.subtitle = Some("Second edition".into());
    doc.meta.footer = Some("ACME Corp. – confidential".into());
    doc.meta.creator = Some("Ada".into());
    doc.meta.tags = vec!["report".into(), "2024".into()];
    doc.media.add("photo.png", png(800, 600, false));
    doc.media.add("logo.png", png(120, 60, true));
    doc.media.add(
        "vector.svg",
        b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
    );
    doc.comments.push(Comment {
        id: "c1".into(),
        author: Some("Bob".into()),
        initials: Some("B".into()),
        date: Some("2024-05-01T10:00:00Z".into()),
        content: vec![t("Please check this.")],
    });
    doc.indexes.push(IndexNode {
        id: "ix1".into(),
        title: "Revenue".into(),
        ..IndexNode::default()
    });
    let mut intro = Paragraph::new(TextType::HeadingOl, vec![t("Introduction")]);
    intro.id = Some("sec-intro".into());
    let mut restarted = Paragraph::new(TextType::ListOl, vec![t("Restarted item")]);
    restarted.restart = true;
    restarted.start = Some(5);
    let cells_row = Row {
        cells: vec![
            Cell {
                rowspan: 2,
                blocks: vec![para(TextType::Paragraph, 0, vec![t("Spans two rows")])],
                ..Cell::default()
            },
            Cell {
                colspan: 2,
                background: Some("#FFEEAA".into()),
                blocks: vec![para(TextType::ListUl, 0, vec![t("Cell bullet")])],
                ..Cell::default()
            },
        ],
        ..Row::default()
    };
    let table = Table {
        columns: vec![40.0, 30.0, 30.0],
        caption: Some("Quarterly revenue".into()),
        id: Some("tab-rev".into()),
        rows: vec![
            Row {
                header: true,
                cells: ["Region", "Q1", "Q2"]
                    .iter()
                    .map(|h| Cell {
                        header: true,
                        blocks: vec![para(TextType::Paragraph, 0, vec![t(h)])],
                        ..Cell::default()
                    })
                    .collect(),
                ..Row::default()
            },
            cells_row,
            Row {
                cells: vec![
                    Cell {
                        blocks: vec![para(TextType::Paragraph, 0, vec![t("10")])],
                        ..Cell::default()
                    },
                    Cell {
                        blocks: vec![para(TextType::Paragraph, 0, vec![t("12")])],
                        ..Cell::default()
                    },
                ],
                ..Row::default()
            },
        ],
        ..Table::default()
    };
    doc.blocks = vec![
        Block::Directory {
            kind: DirectoryKind::Content,
        },
        Block::Paragraph(intro),
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![
                t("Plain, "),
                Inline::styled(TextStyle::Bold, vec![t("bold")]),
                t(", "),
                Inline::styled(TextStyle::Italic, vec![t("italic")]),
                t(", "),
                Inline::styled(TextStyle::Code, vec![t("code()")]),
                t(", H"),
                Inline::styled(TextStyle::Subscript, vec![t("2")]),
                t("O, a "),
                Inline::Link {
                    href: "https://example.org/?a=1&b=2".into(),
                    children: vec![t("link")],
                },
                t(", an "),
                Inline::Link {
                    href: "#sec-intro".into(),
                    children: vec![t("internal link")],
                },
                t(", a "),
                Inline::Span {
                    style: "Fancy Term".into(),
                    children: vec![t("named style")],
                },
                t(" and a note"),
                Inline::Note {
                    kind: NoteKind::Footnote,
                    content: vec![t("The footnote text.")],
                },
                t(" and an endnote"),
                Inline::Note {
                    kind: NoteKind::Endnote,
                    content: vec![t("The endnote text.")],
                },
                t(". "),
                Inline::IndexMark { id: "ix1".into() },
            ],
        )),
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![
                t("See "),
                Inline::CrossRef {
                    target: "fig-photo".into(),
                    number: true,
                    text: false,
                },
                t(" and section "),
                Inline::CrossRef {
                    target: "sec-intro".into(),
                    number: true,
                    text: true,
                },
                t(". "),
                Inline::CommentStart { id: "c1".into() },
                Inline::Tracked {
                    change: Change {
                        kind: ChangeKind::Insert,
                        author: Some("Ada".into()),
                        date: Some("2024-05-02T09:00:00Z".into()),
                    },
                    children: vec![t("Inserted text. ")],
                },
                Inline::Tracked {
                    change: Change {
                        kind: ChangeKind::Delete,
                        author: Some("Ada".into()),
                        date: None,
                    },
                    children: vec![t("Deleted text.")],
                },
                Inline::CommentEnd { id: "c1".into() },
                Inline::LineBreak,
                t("Logo inline: "),
                Inline::Image {
                    media: "logo.png".into(),
                    caption: None,
                    alt: Some("Logo".into()),
                },
            ],
        )),
        para(TextType::ParagraphOl, 1, vec![t("Numbered paragraph")]),
        para(TextType::HeadingOl, 1, vec![t("Scope")]),
        para(TextType::Heading, 0, vec![t("Lists")]),
        para(TextType::ListOl, 0, vec![t("First")]),
        para(TextType::ListOl, 1, vec![t("Nested")]),
        para(TextType::ListOl, 0, vec![t("Second")]),
        Block::Paragraph(restarted),
        para(TextType::ListUl, 0, vec![t("Bullet")]),
        para(TextType::ListUl, 1, vec![t("Sub-bullet")]),
        Block::Image(Image {
            media: "photo.png".into(),
            caption: Some("A gradient photo".into()),
            alt: Some("Gradient".into()),
            width_percent: Some(50.0),
            id: Some("fig-photo".into()),
            align: Align::Center,
            ..Image::default()
        }),
        Block::Image(Image {
            media: "vector.svg".into(),
            caption: Some("A vector".into()),
            ..Image::default()
        }),
        Block::Table(table),
        Block::PageBreak,
        Block::Paragraph(Paragraph {
            align: Align::Justify,
            indent: 2,
            ..Paragraph::new(
                TextType::Paragraph,
                vec![t("Last page, indented and justified.")],
            )
        }),
    ];
    doc
}

fn export(
    doc: &Document,
    template: &str,
    settings: PagedSettings,
) -> (Vec<u8>, Vec<sdconv::Warning>, ImageStats) {
    let out = word::write_with_stats(doc, &WordOptions::new(template, settings)).unwrap();
    (out.value.bytes, out.warnings, out.value.stats)
}

fn part(docx: &[u8], name: &str) -> String {
    let mut z = ZipReader::new(docx, &Limits::default()).unwrap();
    String::from_utf8(z.read(name).unwrap()).unwrap()
}

/// Parses an XML part; returns element names and attribute values seen.
fn parse(xml: &str) -> (Vec<String>, Vec<(String, String)>) {
    let mut r = Reader::from_str(xml);
    let (mut names, mut attrs) = (Vec::new(), Vec::new());
    loop {
        match r
            .read_event()
            .unwrap_or_else(|e| panic!("XML error {e} at {}", r.error_position()))
        {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.name().as_ref().to_string();
                for (k, v) in sdconv::internal::xml::attrs(&e) {
                    attrs.push((format!("{name}@{k}"), v));
                }
                names.push(name);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (names, attrs)
}

fn count(names: &[String], n: &str) -> usize {
    names.iter().filter(|x| *x == n).count()
}

fn values<'a>(attrs: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    attrs
        .iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect()
}

#[test]
fn document_has_every_structure() {
    let (docx, warnings, _) = export(&fixture(), "report", all_on(Language::En));
    let xml = part(&docx, "word/document.xml");
    let (names, attrs) = parse(&xml);
    // Title and subtitle in their styles, headings, lists, caption, TOC styles.
    let styles = values(&attrs, "w:pStyle@val");
    for s in [
        "Title",
        "Subtitle",
        "Heading1",
        "Heading2",
        "ListParagraph",
        "Caption",
        "TOCHeading",
        "TOC1",
        "TOC2",
        "TableofFigures",
    ] {
        assert!(styles.contains(&s), "no paragraph in {s}");
    }
    // Numbering on headings, numbered paragraphs and list items.
    assert!(
        count(&names, "w:numPr") >= 10,
        "{}",
        count(&names, "w:numPr")
    );
    // Table: grid, spans, merges, header row.
    assert_eq!(count(&names, "w:tbl"), 1);
    assert_eq!(count(&names, "w:gridCol"), 3);
    assert_eq!(values(&attrs, "w:gridSpan@val"), ["2"]);
    assert_eq!(values(&attrs, "w:vMerge@val"), ["restart"]);
    assert_eq!(count(&names, "w:vMerge"), 2, "restart + continuation");
    assert_eq!(count(&names, "w:tblHeader"), 1);
    assert_eq!(values(&attrs, "w:shd@fill"), ["FFEEAA"]);
    // Images: one block image with alt text, one inline; the SVG is reported.
    assert_eq!(count(&names, "w:drawing"), 2);
    assert!(values(&attrs, "wp:docPr@descr").contains(&"Gradient"));
    assert!(warnings.iter().any(|w| w.message.contains("vector.svg")));
    // Fields: SEQ captions, TOCs, REF, PAGEREF, XE.
    assert!(xml.contains(" SEQ Figure \\* ARABIC "), "SEQ Figure");
    assert!(xml.contains(" SEQ Table \\* ARABIC "), "SEQ Table");
    assert!(xml.contains(r#" TOC \o "1-3" \h \z \u "#));
    assert!(xml.contains(r#" TOC \h \z \c "Figure" "#));
    assert!(xml.contains(r#" TOC \h \z \c "Table" "#));
    assert!(xml.contains(" REF fig-photo \\h "), "REF to the figure");
    assert!(
        xml.contains(" REF sec-intro \\r \\h "),
        "REF number of the heading"
    );
    assert!(xml.contains(" XE \"Revenue\" "));
    // The pre-filled TOC: entries link to _Toc bookmarks that exist.
    let anchors = values(&attrs, "w:hyperlink@anchor");
    let bookmarks = values(&attrs, "w:bookmarkStart@name");
    assert!(anchors.iter().filter(|a| a.starts_with("_Toc")).count() >= 5);
    for a in &anchors {
        assert!(bookmarks.contains(a), "anchor {a} has no bookmark");
    }
    assert!(bookmarks.contains(&"fig-photo") && bookmarks.contains(&"tab-rev"));
    assert!(xml.contains("1 Introduction"), "TOC entry with its number");
    assert!(
        xml.contains("Figure 1: A gradient photo"),
        "figure list entry"
    );
    assert!(
        xml.contains("Table 1: Quarterly revenue"),
        "table list entry"
    );
    // Bookmark ids unique; every start has its end.
    let starts = values(&attrs, "w:bookmarkStart@id");
    let unique: BTreeSet<_> = starts.iter().collect();
    assert_eq!(unique.len(), starts.len());
    assert_eq!(count(&names, "w:bookmarkEnd"), starts.len());
    // Notes, comments, revisions, links, breaks.
    assert_eq!(count(&names, "w:footnoteReference"), 1);
    assert_eq!(count(&names, "w:endnoteReference"), 1);
    assert_eq!(count(&names, "w:commentRangeStart"), 1);
    assert_eq!(count(&names, "w:commentReference"), 1);
    assert_eq!(count(&names, "w:ins"), 1);
    assert_eq!(count(&names, "w:del"), 1);
    assert_eq!(count(&names, "w:delText"), 1);
    assert_eq!(values(&attrs, "w:br@type"), ["page"]);
    assert!(values(&attrs, "w:hyperlink@id").len() == 1);
    assert!(anchors.contains(&"sec-intro"));
    assert!(values(&attrs, "w:jc@val").contains(&"both"));
    assert!(values(&attrs, "w:ind@left").contains(&"720"));
    // The footer part carries the footer text and a PAGE field; the core properties the title.
    let footer = part(&docx, "word/footer1.xml");
    assert!(footer.contains("ACME Corp. – confidential") && footer.contains(" PAGE "));
    let core = part(&docx, "docProps/core.xml");
    assert!(core.contains("<dc:title>Annual Report &amp; Outlook</dc:title>"));
    assert!(core.contains("<dc:subject>Second edition</dc:subject>"));
    let notes = part(&docx, "word/footnotes.xml");
    assert!(notes.contains(r#"w:id="-1""#) && notes.contains("The footnote text."));
    assert!(part(&docx, "word/endnotes.xml").contains("The endnote text."));
    assert!(part(&docx, "word/comments.xml").contains("Please check this."));
    assert!(part(&docx, "word/settings.xml").contains(r#"<w:updateFields w:val="true"/>"#));
}

#[test]
fn package_is_consistent() {
    let (docx, _, _) = export(&fixture(), "contract", all_on(Language::De));
    let mut z = ZipReader::new(&docx, &Limits::default()).unwrap();
    let names: Vec<String> = z.names().to_vec();
    let types = String::from_utf8(z.read("[Content_Types].xml").unwrap()).unwrap();
    // Every part has a content type: an override or a default for its extension.
    for n in &names {
        let ext = n.rsplit('.').next().unwrap();
        assert!(
            types.contains(&format!("PartName=\"/{n}\""))
                || types.contains(&format!("Extension=\"{ext}\"")),
            "{n} has no content type"
        );
    }
    for n in names
        .iter()
        .filter(|n| n.ends_with(".xml") || n.ends_with(".rels"))
    {
        let text = String::from_utf8(z.read(n).unwrap()).unwrap();
        parse(&text);
    }
    // Every relationship target exists.
    for rels in names.iter().filter(|n| n.starts_with("word/_rels/")) {
        let text = String::from_utf8(z.read(rels).unwrap()).unwrap();
        let (_, attrs) = parse(&text);
        let external: Vec<_> = values(&attrs, "Relationship@TargetMode");
        for target in values(&attrs, "Relationship@Target") {
            if target.starts_with("http") {
                continue;
            }
            assert!(
                names.contains(&format!("word/{target}")),
                "{rels}: {target} missing"
            );
        }
        assert!(external.iter().all(|m| *m == "External"));
    }
    // Every style the body uses exists in styles.xml.
    let styles = String::from_utf8(z.read("word/styles.xml").unwrap()).unwrap();
    let (_, style_attrs) = parse(&styles);
    let defined: BTreeSet<&str> = values(&style_attrs, "w:style@styleId")
        .into_iter()
        .collect();
    for p in [
        "word/document.xml",
        "word/footnotes.xml",
        "word/comments.xml",
        "word/footer1.xml",
    ] {
        let text = String::from_utf8(z.read(p).unwrap()).unwrap();
        let (_, attrs) = parse(&text);
        for key in ["w:pStyle@val", "w:rStyle@val", "w:tblStyle@val"] {
            for s in values(&attrs, key) {
                assert!(defined.contains(s), "{p}: style {s} is not defined");
            }
        }
    }
    // The named span got a character style of its own.
    assert!(styles.contains(r#"<w:name w:val="Fancy Term"/>"#));
    // Numbering: every numId used is defined.
    let numbering = String::from_utf8(z.read("word/numbering.xml").unwrap()).unwrap();
    let (_, nattrs) = parse(&numbering);
    let defined_nums: BTreeSet<&str> = values(&nattrs, "w:num@numId").into_iter().collect();
    let doc = String::from_utf8(z.read("word/document.xml").unwrap()).unwrap();
    let (_, dattrs) = parse(&doc);
    for id in values(&dattrs, "w:numId@val") {
        assert!(defined_nums.contains(id), "numId {id} undefined");
    }
    assert!(
        values(&nattrs, "w:startOverride@val").contains(&"5"),
        "restart at 5"
    );
    // German labels.
    assert!(doc.contains(" SEQ Abbildung \\* ARABIC "));
    assert!(doc.contains(r#" TOC \h \z \c "Tabelle" "#));
    assert!(doc.contains("Inhaltsverzeichnis"));
}

#[test]
fn output_is_deterministic() {
    let doc = fixture();
    let a = export(
        &doc,
        "report",
        all_on(Language::Ru).with_compressed_images(true),
    )
    .0;
    let b = export(
        &doc,
        "report",
        all_on(Language::Ru).with_compressed_images(true),
    )
    .0;
    assert_eq!(a, b);
    let c = word::write(
        &doc,
        &WordOptions::new("report", all_on(Language::Ru).with_compressed_images(true)),
    )
    .unwrap()
    .value;
    assert_eq!(a, c);
}

#[test]
fn every_setting_has_its_effect() {
    let doc = fixture();
    let doc_xml = |s: PagedSettings| part(&export(&doc, "report", s).0, "word/document.xml");
    let none = doc_xml(PagedSettings::new(Language::En));
    let (_, warnings, _) = export(&doc, "report", PagedSettings::new(Language::En));
    let says = |m: &str| warnings.iter().any(|w| w.message == m);
    assert!(
        says("2 image caption(s) not written (imageCaption is off)"),
        "{warnings:?}"
    );
    assert!(
        says("1 table caption(s) not written (tableCaption is off)"),
        "{warnings:?}"
    );
    assert!(!none.contains(" SEQ ") && !none.contains(r#"\c "Figure""#));
    // The directory block in the tree still makes its TOC; textToc adds none on top.
    assert_eq!(none.matches(" TOC \\o").count(), 1);
    assert_eq!(
        doc_xml(PagedSettings::new(Language::En).with_text_toc(true))
            .matches(" TOC \\o")
            .count(),
        1
    );
    let img = doc_xml(PagedSettings::new(Language::En).with_image_caption(true));
    assert!(img.contains(" SEQ Figure ") && !img.contains(" SEQ Table "));
    let tab = doc_xml(PagedSettings::new(Language::En).with_table_caption(true));
    assert!(tab.contains(" SEQ Table ") && !tab.contains(" SEQ Figure "));
    let itoc = doc_xml(
        PagedSettings::new(Language::En)
            .with_image_caption(true)
            .with_image_toc(true),
    );
    assert!(itoc.contains(r#"TOC \h \z \c "Figure""#) && itoc.contains("List of Figures"));
    let ttoc = doc_xml(
        PagedSettings::new(Language::FrCa)
            .with_table_caption(true)
            .with_table_toc(true),
    );
    assert!(ttoc.contains(r#"TOC \h \z \c "Tableau""#) && ttoc.contains("Liste des tableaux"));
    for (lang, label) in [
        (Language::De, "Abbildung"),
        (Language::En, "Figure"),
        (Language::Ru, "Рисунок"),
        (Language::FrCa, "Figure"),
    ] {
        let x = doc_xml(PagedSettings::new(lang).with_image_caption(true));
        assert!(x.contains(&format!(" SEQ {label} \\* ARABIC ")), "{lang}");
        assert!(
            x.contains(&format!("{label} </w:t>")),
            "{lang}: visible label"
        );
    }
    // compressedImages: smaller images, stats say so.
    let (plain, _, s0) = export(&doc, "report", PagedSettings::new(Language::En));
    let (small, _, s1) = export(
        &doc,
        "report",
        PagedSettings::new(Language::En).with_compressed_images(true),
    );
    assert_eq!(s0.saved(), 0);
    assert!(s1.saved() > 0 && s1.recompressed >= 1, "{s1:?}");
    assert!(small.len() < plain.len());
}

#[test]
fn bad_settings_and_templates_are_parameter_errors() {
    for json in [
        r#"{"imageToc":true}"#,
        r#"{"tableToc":true}"#,
        r#"{"language":"es_ES"}"#,
    ] {
        let err = PagedSettings::from_json(json).unwrap_err();
        assert_eq!(err.kind(), sdconv::ErrorKind::Parameter, "{json}");
        assert!(matches!(err, Error::Parameter { .. }));
    }
    let bad = PagedSettings::new(Language::En).with_image_toc(true);
    let err = word::write(&fixture(), &WordOptions::new("report", bad)).unwrap_err();
    assert!(err.to_string().contains("imageToc"), "{err}");
    let err = word::write(
        &fixture(),
        &WordOptions::new("letterhead", PagedSettings::default()),
    )
    .unwrap_err();
    assert_eq!(err.kind(), sdconv::ErrorKind::Parameter);
    assert!(err.to_string().contains("letterhead"), "{err}");
}

#[test]
fn catalogs() {
    let word: serde_json::Value =
        serde_json::from_str(&WordTemplates::builtin().catalog_json()).unwrap();
    let ids: Vec<&str> = word
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["contract", "report"]);
    for t in word.as_array().unwrap() {
        assert_eq!(
            t.as_object().unwrap().len(),
            3,
            "only id, name, description"
        );
        assert!(!t["name"].as_str().unwrap().is_empty());
        assert!(!t["description"].as_str().unwrap().is_empty());
    }
    let sdox: serde_json::Value = serde_json::from_str(&sdox_catalog_json()).unwrap();
    let first = &sdox[0];
    for field in [
        "id",
        "name",
        "filename",
        "description",
        "pdSettings",
        "inlineStyleSubset",
        "exportSubset",
    ] {
        assert!(first.get(field).is_some(), "{field}");
    }
    assert!(sdox_sample("blank").unwrap().contains("<document>"));
}

#[test]
fn custom_template_directory_loads() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/word/report");
    let custom = dir.path().join("memo");
    std::fs::create_dir(&custom).unwrap();
    for f in ["styles.xml", "numbering.xml", "section.xml", "footer.xml"] {
        std::fs::copy(root.join(f), custom.join(f)).unwrap();
    }
    std::fs::write(
        custom.join("template.json"),
        r#"{"id":"memo","name":"Memo","description":"A memo"}"#,
    )
    .unwrap();
    let mut set = WordTemplates::builtin().clone();
    assert_eq!(set.load_dir(dir.path()).unwrap(), ["memo"]);
    assert!(set.catalog_json().contains(r#""id":"memo""#));
    let options =
        WordOptions::new("memo", PagedSettings::default()).with_templates(std::sync::Arc::new(set));
    let out = word::write(&fixture(), &options).unwrap().value;
    // No header in this template: no header part.
    let z = ZipReader::new(&out, &Limits::default()).unwrap();
    assert!(!z.contains("word/header1.xml") && z.contains("word/footer1.xml"));
}

#[test]
fn huge_images_are_kept_with_a_warning() {
    let doc = fixture();
    let settings = PagedSettings::new(Language::En).with_compressed_images(true);
    let mut limits = Limits::default();
    limits.max_image_pixels = 1000;
    let out = word::write_with_stats(
        &doc,
        &WordOptions::new("report", settings).with_limits(limits),
    )
    .unwrap();
    assert_eq!(out.value.stats.too_large, 2, "{:?}", out.value.stats);
    assert_eq!(out.value.stats.saved(), 0);
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message.contains("more than the 1000"))
    );
}

#[test]
fn facade_routes_word() {
    assert!(Format::Word.can_write());
    let mut options = ExportOptions::default();
    options.word = WordOptions::new("contract", all_on(Language::En));
    let out = sdconv::export(&fixture(), Format::Word, &options).unwrap();
    assert!(out.value.starts_with(b"PK"));
}

#[test]
fn empty_document_is_valid() {
    let (docx, warnings, _) = export(&Document::new(), "report", all_on(Language::En));
    assert!(warnings.is_empty(), "{warnings:?}");
    let (names, _) = parse(&part(&docx, "word/document.xml"));
    assert_eq!(count(&names, "w:sectPr"), 1);
}

/// Renders each language and template with LibreOffice and checks the PDF text.
#[test]
fn libreoffice_renders_captions_and_tocs() {
    if Command::new("soffice").arg("--version").output().is_err() {
        eprintln!("skipping: soffice (LibreOffice) is not installed");
        return;
    }
    if Command::new("pdftotext").arg("-v").output().is_err() {
        eprintln!("skipping: pdftotext (poppler-utils) is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    // WORD_EXPORT_OUT keeps the files for a person to look at.
    let keep = std::env::var_os("WORD_EXPORT_OUT").map(std::path::PathBuf::from);
    let dir = keep.as_deref().unwrap_or(tmp.path());
    let doc = fixture();
    let mut inputs = Vec::new();
    for (lang, template) in [
        (Language::De, "report"),
        (Language::En, "contract"),
        (Language::Ru, "report"),
        (Language::FrCa, "contract"),
    ] {
        let (docx, _, _) = export(&doc, template, all_on(lang).with_compressed_images(true));
        let path = dir.join(format!("{}-{template}.docx", lang.code()));
        std::fs::write(&path, docx).unwrap();
        inputs.push((lang, path));
    }
    let paths: Vec<&std::path::Path> = inputs.iter().map(|(_, p)| p.as_path()).collect();
    let status = common::soffice_to_pdf(dir, &tmp.path().join("profile"), &paths);
    for (lang, path) in &inputs {
        let pdf = path.with_extension("pdf");
        assert!(
            pdf.exists(),
            "{} was not converted: {}",
            path.display(),
            String::from_utf8_lossy(&status.stderr)
        );
        let text = Command::new("pdftotext")
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&text.stdout);
        let figure = lang.figure();
        let table = lang.table();
        for want in [
            format!("{figure} 1: A gradient photo"),
            format!("{table} 1: Quarterly revenue"),
            lang.contents().to_string(),
            lang.list_of_figures().to_string(),
            // A TOC entry: the heading text followed by the dot leader.
            "Introduction....".to_string(),
            "Annual Report & Outlook".to_string(),
            "ACME Corp. – confidential".to_string(),
        ] {
            // Templates may set headings in capitals.
            let found = text.to_lowercase().contains(&want.to_lowercase());
            assert!(
                found,
                "{}: {want:?} not in the PDF text:\n{text}",
                lang.code()
            );
        }
        // Entries of the TOC and the list of figures: each text twice (list + body).
        assert!(
            text.matches(&format!("{figure} 1: A gradient photo"))
                .count()
                >= 2,
            "{}",
            lang.code()
        );
        assert!(text.matches("Introduction").count() >= 2, "{}", lang.code());
    }
}

#[test]
fn odd_input_is_reported_not_dropped() {
    let long_id = "x".repeat(60);
    let mut doc = Document::new();
    doc.comments.push(Comment {
        id: "open".into(),
        content: vec![t("never closed")],
        ..Comment::default()
    });
    doc.comments.push(Comment {
        id: "in-note".into(),
        content: vec![t("ends in a note")],
        ..Comment::default()
    });
    doc.blocks = vec![
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![
                Inline::CommentStart {
                    id: "in-note".into(),
                },
                Inline::Note {
                    kind: NoteKind::Footnote,
                    content: vec![Inline::CommentEnd {
                        id: "in-note".into(),
                    }],
                },
            ],
        )),
        Block::Paragraph(Paragraph {
            id: Some(long_id.clone()),
            style: Some("Body Text".into()),
            ..Paragraph::new(
                TextType::Paragraph,
                vec![
                    Inline::Link {
                        href: "javascript:alert(1)".into(),
                        children: vec![t("bad link")],
                    },
                    Inline::CrossRef {
                        target: "nowhere".into(),
                        number: false,
                        text: true,
                    },
                    Inline::CommentStart { id: "open".into() },
                    Inline::CommentEnd { id: "ghost".into() },
                    Inline::Note {
                        kind: NoteKind::Sidenote,
                        content: vec![t("side")],
                    },
                    Inline::Tracked {
                        change: Change {
                            kind: ChangeKind::Insert,
                            author: None,
                            date: Some("yesterday".into()),
                        },
                        children: vec![t("x")],
                    },
                ],
            )
        }),
        Block::Image(Image {
            media: "missing.png".into(),
            ..Image::default()
        }),
        Block::Directory {
            kind: DirectoryKind::Weblinks,
        },
    ];
    let out = word::write(&doc, &WordOptions::new("report", PagedSettings::default())).unwrap();
    let messages: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    for want in [
        "longer than Word's 40-character",
        "unsafe scheme",
        "unknown id \"nowhere\"",
        "comment anchor \"ghost\"",
        "comment \"open\" has no end anchor",
        "comment \"in-note\" has no end anchor",
        "comment anchor \"in-note\" inside a note",
        "sidenote(s) written as footnotes",
        "\"yesterday\" is not an ISO 8601",
        "missing.png is not in the media store",
        "weblinks has no Word field",
        "source style (e.g. \"Body Text\")",
    ] {
        assert!(
            messages.iter().any(|m| m.contains(want)),
            "no warning with {want:?}: {messages:#?}"
        );
    }
    let xml = part(&out.value, "word/document.xml");
    assert!(xml.contains("bad link") && !xml.contains("javascript"));
    assert!(!xml.contains(&long_id));
    // Neither comment could be written: no range start is left dangling.
    assert!(!xml.contains("commentRange"));
    parse(&xml);
}

/// The deterministic generator of hostile trees the Word export tests share.
struct Rng(u64);
impl Rng {
    fn n(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}
fn inlines(r: &mut Rng, depth: u32) -> Vec<Inline> {
    let styles = [
        TextStyle::Bold,
        TextStyle::Italic,
        TextStyle::Code,
        TextStyle::Superscript,
        TextStyle::Subscript,
        TextStyle::SmallCaps,
    ];
    (0..r.n(5))
        .map(|_| match r.n(if depth > 2 { 3 } else { 11 }) {
            0 => t("a\tb<&>\"'\u{1}"),
            1 => Inline::LineBreak,
            2 => t(""),
            3 => Inline::styled(styles[r.n(6) as usize], inlines(r, depth + 1)),
            4 => Inline::Link {
                href: ["#b1", "http://x.y", "javascript:x", "#"][r.n(4) as usize].into(),
                children: inlines(r, depth + 1),
            },
            5 => Inline::Note {
                kind: [NoteKind::Footnote, NoteKind::Endnote, NoteKind::Sidenote][r.n(3) as usize],
                content: inlines(r, depth + 1),
            },
            6 => Inline::CrossRef {
                target: format!("b{}", r.n(6)),
                number: r.n(2) == 0,
                text: r.n(2) == 0,
            },
            7 => Inline::Tracked {
                change: Change {
                    kind: if r.n(2) == 0 {
                        ChangeKind::Insert
                    } else {
                        ChangeKind::Delete
                    },
                    author: None,
                    date: None,
                },
                children: inlines(r, depth + 1),
            },
            8 => Inline::Image {
                media: "p.png".into(),
                caption: None,
                alt: None,
            },
            9 => Inline::Span {
                style: ["", "Ω", "Normal"][r.n(3) as usize].into(),
                children: inlines(r, depth + 1),
            },
            _ => [
                Inline::CommentStart { id: "c".into() },
                Inline::CommentEnd { id: "c".into() },
            ][r.n(2) as usize]
                .clone(),
        })
        .collect()
}
fn blocks(r: &mut Rng, depth: u32) -> Vec<Block> {
    (0..r.n(12))
        .map(|i| match r.n(if depth > 1 { 2 } else { 6 }) {
            0 | 1 => Block::Paragraph(Paragraph {
                level: r.n(8) as u8,
                indent: r.n(20) as u8,
                restart: r.n(4) == 0,
                start: (r.n(3) == 0).then(|| r.n(5) as u32),
                list_id: (r.n(2) == 0).then(|| format!("{}", r.n(3))),
                id: (r.n(3) == 0).then(|| format!("b{i}")),
                ..Paragraph::new(TextType::ALL[r.n(7) as usize], inlines(r, 0))
            }),
            2 => Block::Image(Image {
                media: ["p.png", "none.png"][r.n(2) as usize].into(),
                caption: (r.n(2) == 0).then(|| "cap".to_string()),
                width_percent: [None, Some(f32::NAN), Some(-5.0), Some(500.0), Some(30.0)]
                    [r.n(5) as usize],
                id: (r.n(2) == 0).then(|| format!("b{i}")),
                ..Image::default()
            }),
            3 => Block::Table(Table {
                columns: (0..r.n(4)).map(|_| r.n(100) as f32 - 10.0).collect(),
                caption: (r.n(2) == 0).then(|| "tab".to_string()),
                rows: (0..r.n(5))
                    .map(|_| Row {
                        header: r.n(3) == 0,
                        min_height: (r.n(3) == 0)
                            .then(|| ["1cm", "zz", "-4pt"][r.n(3) as usize].to_string()),
                        cells: (0..r.n(4))
                            .map(|_| Cell {
                                colspan: r.n(4) as u32,
                                rowspan: r.n(4) as u32,
                                blocks: blocks(r, depth + 1),
                                ..Cell::default()
                            })
                            .collect(),
                        ..Row::default()
                    })
                    .collect(),
                ..Table::default()
            }),
            4 => Block::PageBreak,
            _ => Block::Directory {
                kind: DirectoryKind::ALL[r.n(7) as usize],
            },
        })
        .collect()
}

/// 150 hostile trees, each written with its round's language, template and settings.
fn random_packages() -> Vec<Vec<u8>> {
    let mut r = Rng(7);
    let mut out = Vec::new();
    for round in 0..150 {
        let mut doc = Document::new();
        doc.media.add("p.png", png(8, 4, round % 2 == 0));
        if r.n(2) == 0 {
            doc.comments.push(Comment {
                id: "c".into(),
                ..Comment::default()
            });
        }
        doc.blocks = blocks(&mut r, 0);
        let lang = Language::ALL[round % 4];
        let settings = if round % 3 == 0 {
            all_on(lang).with_compressed_images(true)
        } else {
            PagedSettings::new(lang)
        };
        let template = if round % 2 == 0 { "report" } else { "contract" };
        out.push(
            word::write(&doc, &WordOptions::new(template, settings))
                .unwrap()
                .value,
        );
    }
    out
}

/// A small deterministic generator of hostile trees: every output must parse and keep its
/// invariants (unique bookmark ids, defined numIds), and nothing may panic.
#[test]
fn random_trees_give_valid_packages() {
    for (round, out) in random_packages().into_iter().enumerate() {
        // WORD_EXPORT_OUT keeps some for a manual LibreOffice run.
        if let Some(dir) = std::env::var_os("WORD_EXPORT_OUT").filter(|_| round < 12) {
            let path = std::path::Path::new(&dir).join(format!("random-{round}.docx"));
            std::fs::write(path, &out).unwrap();
        }
        let mut z = ZipReader::new(&out, &Limits::default()).unwrap();
        let names = z.names().to_vec();
        let mut bookmark_ids = BTreeSet::new();
        for n in names.iter().filter(|n| n.ends_with(".xml")) {
            let text = String::from_utf8(z.read(n).unwrap()).unwrap();
            let (_, attrs) = parse(&text);
            for id in values(&attrs, "w:bookmarkStart@id") {
                assert!(
                    bookmark_ids.insert(id.to_string()),
                    "round {round}: bookmark id {id} twice"
                );
            }
        }
        let numbering = String::from_utf8(z.read("word/numbering.xml").unwrap()).unwrap();
        let document = String::from_utf8(z.read("word/document.xml").unwrap()).unwrap();
        let (_, nattrs) = parse(&numbering);
        let (names_d, dattrs) = parse(&document);
        let nums: BTreeSet<&str> = values(&nattrs, "w:num@numId").into_iter().collect();
        for id in values(&dattrs, "w:numId@val") {
            assert!(nums.contains(id), "round {round}: numId {id}");
        }
        // Every table cell ends with a paragraph.
        assert_eq!(
            count(&names_d, "w:tc"),
            document.matches("</w:p></w:tc>").count() + document.matches("<w:p/></w:tc>").count(),
            "round {round}"
        );
    }
}

/// A nested table whose header row holds a footnote reference: with `w:tblHeader` on that row
/// LibreOffice 7.4 loops on load. Word does not repeat a nested table's header rows anyway.
fn nested_header_with_note() -> Document {
    let header_cell = |text: &str| Cell {
        blocks: vec![para(
            TextType::Paragraph,
            0,
            vec![
                t(text),
                Inline::Note {
                    kind: NoteKind::Footnote,
                    content: vec![t("a note in a repeated header")],
                },
            ],
        )],
        ..Cell::default()
    };
    let plain_cell = |text: &str| Cell {
        blocks: vec![para(TextType::Paragraph, 0, vec![t(text)])],
        ..Cell::default()
    };
    let inner = Table {
        columns: vec![1.0, 1.0],
        rows: vec![
            Row {
                header: true,
                cells: vec![header_cell("inner head"), header_cell("second head")],
                ..Row::default()
            },
            Row {
                cells: vec![plain_cell("inner body"), plain_cell("more")],
                ..Row::default()
            },
        ],
        ..Table::default()
    };
    let outer = Table {
        columns: vec![1.0],
        rows: vec![
            Row {
                header: true,
                cells: vec![plain_cell("outer head")],
                ..Row::default()
            },
            Row {
                cells: vec![Cell {
                    blocks: vec![Block::Table(inner)],
                    ..Cell::default()
                }],
                ..Row::default()
            },
        ],
        ..Table::default()
    };
    let mut doc = Document::new();
    doc.blocks = vec![Block::Table(outer)];
    doc
}

#[test]
fn nested_header_rows_are_marked_without_tbl_header_and_read_back() {
    let doc = nested_header_with_note();
    let (docx, _, _) = export(&doc, "report", PagedSettings::new(Language::En));
    let xml = part(&docx, "word/document.xml");
    // The outer table repeats its header; the nested one carries the flag as cnfStyle only.
    assert_eq!(xml.matches("<w:tblHeader/>").count(), 1, "{xml}");
    assert_eq!(xml.matches("<w:cnfStyle ").count(), 1, "{xml}");
    let back = sdconv::import::docx::read(&docx, &Default::default())
        .unwrap()
        .value;
    let Block::Table(outer) = &back.blocks[0] else {
        panic!("{:?}", back.blocks[0]);
    };
    let Block::Table(inner) = &outer.rows[1].cells[0].blocks[0] else {
        panic!("{:?}", outer.rows[1].cells[0]);
    };
    let headers = |t: &Table| t.rows.iter().map(|r| r.header).collect::<Vec<_>>();
    assert_eq!(headers(outer), [true, false]);
    assert_eq!(headers(inner), [true, false]);
}

/// Every hostile tree of [`random_packages`], and the nested-header case LibreOffice 7.4 used
/// to hang on, opens in LibreOffice within the time limit.
#[test]
fn libreoffice_opens_every_random_tree() {
    if Command::new("soffice").arg("--version").output().is_err() {
        eprintln!("skipping: soffice (LibreOffice) is not installed");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    let outdir = tmp.path().join("out");
    std::fs::create_dir_all(&dir).unwrap();
    let mut inputs = Vec::new();
    let (nested, _, _) = export(&nested_header_with_note(), "report", all_on(Language::En));
    let mut packages = vec![nested];
    packages.extend(random_packages());
    for (i, docx) in packages.iter().enumerate() {
        let path = dir.join(format!("tree-{i:03}.docx"));
        std::fs::write(&path, docx).unwrap();
        inputs.push(path);
    }
    let profile = tmp.path().join("profile");
    let mut child = Command::new("soffice")
        .arg(format!(
            "-env:UserInstallation=file://{}",
            profile.display()
        ))
        .args([
            "--headless",
            "--convert-to",
            "txt:Text (encoded):UTF8",
            "--outdir",
        ])
        .arg(&outdir)
        .args(&inputs)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // A hang is the failure this guards against: LibreOffice gets a generous limit (the
    // machine may be busy), then it is stopped and the files it did not finish are named.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(900);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    let missing: Vec<String> = inputs
        .iter()
        .filter(|p| {
            let name = p.with_extension("txt");
            let name = name.file_name().unwrap();
            !outdir.join(name).exists()
        })
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(missing.is_empty(), "LibreOffice did not open: {missing:?}");
    let nested_text = std::fs::read_to_string(outdir.join("tree-000.txt")).unwrap();
    assert!(nested_text.contains("inner head"), "{nested_text}");
}
