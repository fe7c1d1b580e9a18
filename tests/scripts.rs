//! Languages and directions (issue 31) on the Word fixtures in eight scripts that LibreOffice
//! made (`tests/fixtures/scripts/`, see its `make.sh`): what the Word reader reads, what the
//! HTML writer writes of it, and what survives a trip through our Word writer.

use sdconv::ast::{Block, Direction, Inline, Paragraph, inline::plain_text};
use sdconv::{Document, ExportOptions, Format, ImportOptions};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/scripts/{name}.docx",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(bytes: &[u8]) -> Document {
    let doc = sdconv::import(Format::Word, bytes, &ImportOptions::default())
        .unwrap()
        .value;
    assert_eq!(doc.validate(), Ok(()), "{}", doc.to_json());
    doc
}

fn paragraphs(doc: &Document) -> Vec<Paragraph> {
    let mut out = Vec::new();
    doc.walk_blocks(&mut |_, b| {
        if let Block::Paragraph(p) = b {
            out.push(p.clone());
        }
    });
    out
}

/// Every `Inline::Lang` of the document: (language, direction, text).
fn lang_runs(doc: &Document) -> Vec<(Option<String>, Option<Direction>, String)> {
    let mut out = Vec::new();
    doc.walk_inlines(&mut |i| {
        if let Inline::Lang {
            lang,
            dir,
            children,
        } = i
        {
            out.push((lang.clone(), *dir, plain_text(children)));
        }
    });
    out
}

/// What a Word trip must keep of each paragraph: language, direction and text (style names
/// are another matter: `Normal` is no style our writer keeps).
fn lang_dir_text(doc: &Document) -> Vec<(Option<String>, Option<Direction>, String)> {
    paragraphs(doc)
        .into_iter()
        .map(|p| (p.lang, p.dir, plain_text(&p.content)))
        .collect()
}

fn html(doc: &Document) -> String {
    let bytes = sdconv::export(doc, Format::HtmlAllInOne, &ExportOptions::default())
        .unwrap()
        .value;
    String::from_utf8(bytes).unwrap()
}

fn word_trip(doc: &Document) -> (Document, String) {
    let bytes = sdconv::export(doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let xml = part(&bytes, "word/document.xml");
    (read(&bytes), xml)
}

fn part(zip: &[u8], name: &str) -> String {
    use std::io::Read;
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
    let mut s = String::new();
    archive
        .by_name(name)
        .unwrap()
        .read_to_string(&mut s)
        .unwrap();
    s
}

#[test]
fn arabic_is_a_right_to_left_arabic_document() {
    let doc = read(&fixture("arabic"));
    assert_eq!(doc.meta.language.as_deref(), Some("ar-SA"));
    assert_eq!(doc.meta.direction, Some(Direction::Rtl));
    // Every paragraph is Arabic and right to left like the document: none says so again.
    for p in paragraphs(&doc) {
        assert_eq!((p.lang.as_deref(), p.dir), (None, None), "{p:?}");
    }
    // The table's columns run right to left, as the document does.
    let table = doc.blocks.iter().find_map(|b| match b {
        Block::Table(t) => Some(t),
        _ => None,
    });
    assert_eq!(table.map(|t| t.dir), Some(None));
    // Digits, Western and Arabic-Indic, are no other language.
    assert_eq!(lang_runs(&doc), vec![], "{}", doc.to_json());
    let text: String = paragraphs(&doc)
        .iter()
        .map(|p| plain_text(&p.content))
        .collect();
    assert!(text.contains("٤٠٠") && text.contains("1250000"));
}

#[test]
fn arabic_html_says_rtl_once_on_the_page() {
    let html = html(&read(&fixture("arabic")));
    assert!(html.contains("<html lang=\"ar-SA\" dir=\"rtl\">"), "{html}");
    // Inherited everywhere: no element repeats it.
    assert_eq!(html.matches("dir=").count(), 1, "{html}");
    assert_eq!(html.matches("lang=").count(), 1, "{html}");
}

#[test]
fn hebrew_chinese_japanese_korean_thai_hindi_languages() {
    for (name, lang, rtl) in [
        ("hebrew", "he-IL", true),
        ("chinese", "zh-CN", false),
        ("japanese", "ja-JP", false),
        ("korean", "ko-KR", false),
        ("thai", "th-TH", false),
        ("devanagari", "hi-IN", false),
    ] {
        let doc = read(&fixture(name));
        assert_eq!(doc.meta.language.as_deref(), Some(lang), "{name}");
        assert_eq!(doc.meta.is_rtl(), rtl, "{name}");
        for p in paragraphs(&doc) {
            assert_eq!((p.lang.as_deref(), p.dir), (None, None), "{name}: {p:?}");
        }
        assert_eq!(lang_runs(&doc), vec![], "{name}: {}", doc.to_json());
        let html = html(&doc);
        let open = if rtl {
            format!("<html lang=\"{lang}\" dir=\"rtl\">")
        } else {
            format!("<html lang=\"{lang}\">")
        };
        assert!(html.contains(&open), "{name}: {html}");
    }
}

#[test]
fn japanese_keeps_its_ruby() {
    let doc = read(&fixture("japanese"));
    let mut ruby = Vec::new();
    doc.walk_inlines(&mut |i| {
        if let Inline::Ruby { base, reading } = i {
            ruby.push((base.clone(), reading.clone()));
        }
    });
    assert_eq!(
        ruby,
        [
            ("東京", "とうきょう"),
            ("日本語", "にほんご"),
            ("漢字", "かんじ"),
            ("富士山", "ふじさん")
        ]
        .map(|(b, r)| (b.to_string(), r.to_string()))
    );
}

#[test]
fn mixed_marks_each_paragraph_and_phrase_that_differs() {
    let doc = read(&fixture("mixed"));
    // Most of the text is English, most paragraphs left to right.
    assert_eq!(doc.meta.language.as_deref(), Some("en-US"));
    assert_eq!(doc.meta.direction, None);
    let ps: Vec<_> = paragraphs(&doc)
        .into_iter()
        .map(|p| (p.lang.clone(), p.dir))
        .collect();
    let rtl = Some(Direction::Rtl);
    assert_eq!(
        ps,
        vec![
            (None, None),
            (None, None),
            (Some("ar-SA".to_string()), rtl),
            (None, None),
            (Some("he-IL".to_string()), rtl),
        ]
    );
    let runs = lang_runs(&doc);
    let has = |lang: &str, dir: Option<Direction>, text: &str| {
        runs.iter()
            .any(|(l, d, t)| l.as_deref() == Some(lang) && *d == dir && t.contains(text))
    };
    // Arabic inside English: its language and direction.
    assert!(has("ar-SA", rtl, "سلام عليكم"), "{runs:?}");
    assert!(has("ar-SA", rtl, "القاهرة"), "{runs:?}");
    // English inside Arabic and Hebrew: its language only (the paragraph's bidi orders it).
    assert!(has("en-US", None, "Python"), "{runs:?}");
    assert!(has("en-US", None, "Visual Studio Code"), "{runs:?}");
    assert!(has("en-US", None, "Hello"), "{runs:?}");
    // Numbers are no language of their own.
    assert!(
        !runs
            .iter()
            .any(|(_, _, t)| t.trim() == "2023" || t.trim() == "42"),
        "{runs:?}"
    );
}

#[test]
fn mixed_html_marks_only_what_differs() {
    let html = html(&read(&fixture("mixed")));
    assert!(html.contains("<html lang=\"en-US\">"), "{html}");
    assert!(
        html.contains("<p lang=\"ar-SA\" dir=\"rtl\">هذه الفقرة"),
        "{html}"
    );
    assert!(
        html.contains("<p lang=\"he-IL\" dir=\"rtl\">זוהי"),
        "{html}"
    );
    assert!(
        html.contains("<span lang=\"ar-SA\" dir=\"rtl\">سلام عليكم</span>"),
        "{html}"
    );
    assert!(html.contains("<span lang=\"en-US\">Python"), "{html}");
    // The English paragraphs and heading say nothing.
    assert!(html.contains("<p>Numbers such as"), "{html}");
    assert_eq!(html.matches("dir=\"ltr\"").count(), 0, "{html}");
}

#[test]
fn word_trip_keeps_arabic_direction_and_language() {
    let doc = read(&fixture("arabic"));
    let (back, xml) = word_trip(&doc);
    assert!(xml.contains("<w:bidi/>"), "{xml}");
    assert!(xml.contains("<w:rtl/>"), "{xml}");
    assert!(xml.contains("<w:bidiVisual/>"), "{xml}");
    assert_eq!(back.meta.language, doc.meta.language);
    assert_eq!(back.meta.direction, doc.meta.direction);
    assert_eq!(lang_dir_text(&back), lang_dir_text(&doc));
}

#[test]
fn word_trip_keeps_mixed_languages_and_directions() {
    let doc = read(&fixture("mixed"));
    let (back, xml) = word_trip(&doc);
    assert!(xml.contains(r#"<w:lang w:bidi="he-IL"/>"#), "{xml}");
    // English inside Arabic is in the document's language (the defaults' en-US): no w:lang.
    assert!(
        xml.contains(r#"<w:r><w:t xml:space="preserve">Python</w:t></w:r>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<w:pPr><w:bidi/><w:rPr><w:lang w:bidi="ar-SA"/></w:rPr></w:pPr>"#),
        "{xml}"
    );
    assert_eq!(back.meta.language, doc.meta.language);
    assert_eq!(back.meta.direction, doc.meta.direction);
    assert_eq!(lang_dir_text(&back), lang_dir_text(&doc));
    assert_eq!(lang_runs(&back), lang_runs(&doc));
    // LibreOffice's settings say w:autoHyphenation; ours say it back.
    assert!(doc.meta.hyphenate && back.meta.hyphenate);
}

#[test]
fn sdxml_keeps_languages_and_directions_in_its_pis() {
    for name in ["arabic", "mixed"] {
        let doc = read(&fixture(name));
        let bytes = sdconv::export(&doc, Format::Sdxml, &ExportOptions::default())
            .unwrap()
            .value;
        let back = sdconv::import(Format::Sdxml, &bytes, &ImportOptions::default())
            .unwrap()
            .value;
        assert_eq!(back.meta.language, doc.meta.language, "{name}");
        if name == "mixed" {
            // The service reads the DTD's element: en-US is its en_EN.
            let xml = part(&bytes, "sd.xml");
            assert!(xml.contains(r#"<language value="en_EN"/>"#), "{xml}");
        }
        assert_eq!(back.meta.direction, doc.meta.direction, "{name}");
        assert_eq!(lang_dir_text(&back), lang_dir_text(&doc), "{name}");
        assert_eq!(lang_runs(&back), lang_runs(&doc), "{name}");
        let tables = |d: &Document| -> Vec<Option<Direction>> {
            d.blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Table(t) => Some(t.dir),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(tables(&back), tables(&doc), "{name}");
    }
    // The strict DTD form drops them, and says so in its two aggregated warnings: the fields
    // (paragraph lang and dir, the document's language) and the run marks.
    let mut options = ExportOptions::default();
    options.sdxml = sdconv::export::sdxml::SdxmlExportOptions::strict();
    let out = sdconv::export(&read(&fixture("mixed")), Format::Sdxml, &options).unwrap();
    let messages: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("dir ×2") && messages[0].contains("lang ×2"),
        "{messages:?}"
    );
    assert!(messages[1].contains("(language ×5)"), "{messages:?}");
}

#[test]
fn html_lists_tables_and_cells_say_a_direction_only_where_it_changes() {
    use sdconv::ast::{Cell, Row, Table, TextType};
    let rtl = Some(Direction::Rtl);
    let item = |text: &str| {
        Block::Paragraph(Paragraph {
            dir: rtl,
            lang: Some("ar-SA".into()),
            ..Paragraph::new(TextType::ListOl, vec![Inline::text(text)])
        })
    };
    let cell = |text: &str, dir| Cell {
        blocks: vec![Block::Paragraph(Paragraph {
            dir,
            ..Paragraph::new(TextType::Paragraph, vec![Inline::text(text)])
        })],
        ..Cell::default()
    };
    let mut doc = Document::new();
    doc.meta.language = Some("en-US".into());
    doc.blocks = vec![
        Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![Inline::text("Intro")],
        )),
        item("واحد"),
        item("اثنان"),
        Block::Table(Table {
            dir: rtl,
            columns: vec![50.0, 50.0],
            rows: vec![Row {
                cells: vec![cell("عربي", rtl), cell("English", None)],
                ..Row::default()
            }],
            ..Table::default()
        }),
    ];
    assert_eq!(doc.validate(), Ok(()));
    let html = html(&doc);
    assert!(html.contains("<p>Intro</p>"), "{html}");
    // The list carries the direction its items share; the items only their language.
    assert!(html.contains("<ol dir=\"rtl\">"), "{html}");
    assert!(html.contains("<li lang=\"ar-SA\">واحد"), "{html}");
    // The table is right to left, its first cell inherits that, the second is left to right.
    assert!(html.contains("dir=\"rtl\">\n"), "{html}");
    assert!(html.contains("<td><p>عربي</p></td>"), "{html}");
    assert!(
        html.contains("<td dir=\"ltr\"><p>English</p></td>"),
        "{html}"
    );
}
