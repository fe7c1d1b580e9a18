//! Cleanup routines: each routine before/after, idempotence (property test), catalog shape,
//! load errors and unknown keys.

use proptest::prelude::*;
use sdconv::ast::inline::plain_text;
use sdconv::ast::{Block, Cell, Extent, Image, Inline, Paragraph, Row, Table, TextStyle, TextType};
use sdconv::cleanup::{self, Catalog};
use sdconv::{Document, Format, ImportOptions, Limits, Report, WarningKind};

fn para(content: Vec<Inline>) -> Block {
    Block::Paragraph(Paragraph::new(TextType::Paragraph, content))
}

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn bold(s: &str) -> Inline {
    Inline::styled(TextStyle::Bold, vec![t(s)])
}

fn doc(blocks: Vec<Block>) -> Document {
    let mut d = Document::new();
    d.blocks = blocks;
    d
}

/// Runs the rotating routine once within `limits`; its report.
fn rotate(d: &mut Document, limits: &Limits) -> Report {
    let mut r = Report::new();
    cleanup::apply(d, &["rotate-landscape-images".to_string()], limits, &mut r).unwrap();
    r
}

/// Runs one routine; checks validity and that a second run changes nothing.
fn apply(key: &str, mut d: Document) -> (Document, Report) {
    let mut report = Report::new();
    cleanup::apply(&mut d, &[key.to_string()], &Limits::default(), &mut report).unwrap();
    d.validate().unwrap();
    let mut again = d.clone();
    let mut second = Report::new();
    cleanup::apply(
        &mut again,
        &[key.to_string()],
        &Limits::default(),
        &mut second,
    )
    .unwrap();
    assert_eq!(again, d, "{key} is not idempotent");
    assert!(
        second.warnings().is_empty(),
        "{key}: {:?}",
        second.warnings()
    );
    (d, report)
}

fn texts(d: &Document) -> Vec<String> {
    d.blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => plain_text(&p.content),
            Block::PageBreak => "<pb>".into(),
            Block::Image(_) => "<img>".into(),
            Block::Table(_) => "<table>".into(),
            Block::Directory { .. } => "<dir>".into(),
        })
        .collect()
}

fn count(r: &Report) -> String {
    assert_eq!(r.warnings().len(), 1, "{:?}", r.warnings());
    assert_eq!(r.warnings()[0].kind, WarningKind::Repaired);
    r.warnings()[0].message.clone()
}

#[test]
fn remove_empty_paragraphs_also_in_tables() {
    let cell = Cell {
        blocks: vec![para(vec![t("  ")]), para(vec![t("kept")])],
        ..Cell::default()
    };
    let table = Block::Table(Table {
        rows: vec![Row {
            cells: vec![cell],
            ..Row::default()
        }],
        ..Table::default()
    });
    let d = doc(vec![
        para(vec![]),
        para(vec![t("a")]),
        para(vec![Inline::LineBreak]),
        table,
    ]);
    let (d, r) = apply("remove-empty-paragraphs", d);
    assert_eq!(texts(&d), ["a", "<table>"]);
    let Block::Table(table) = &d.blocks[1] else {
        panic!()
    };
    assert_eq!(table.rows[0].cells[0].blocks.len(), 1);
    assert_eq!(count(&r), "routine remove-empty-paragraphs: 3 change(s)");
}

#[test]
fn collapse_whitespace() {
    let d = doc(vec![para(vec![t("  two   spaces "), bold("  and bold  ")])]);
    let (d, _) = apply("collapse-whitespace", d);
    let Block::Paragraph(p) = &d.blocks[0] else {
        panic!()
    };
    assert_eq!(p.content, vec![t("two spaces "), bold("and bold")]);
}

#[test]
fn strip_typed_numbering() {
    let d = doc(vec![
        para(vec![t("1. 1.1 Scope")]),
        para(vec![t("(a) item")]),
        para(vec![t("No number")]),
    ]);
    let (d, r) = apply("strip-typed-numbering", d);
    assert_eq!(texts(&d), ["Scope", "item", "No number"]);
    assert!(count(&r).ends_with("2 change(s)"));
}

#[test]
fn bold_lines_to_headings() {
    let d = doc(vec![
        para(vec![bold("Introduction")]),
        para(vec![bold("A bold sentence ends with a full stop.")]),
        para(vec![t("Not bold")]),
    ]);
    let (d, _) = apply("bold-lines-to-headings", d);
    let kinds: Vec<_> = d
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph(p) => (p.kind, p.level, p.content.clone()),
            _ => panic!(),
        })
        .collect();
    assert_eq!(kinds[0], (TextType::Heading, 1, vec![t("Introduction")]));
    assert_eq!(kinds[1].0, TextType::Paragraph);
    assert_eq!(kinds[2].0, TextType::Paragraph);
}

fn quoted(lang: Option<&str>) -> String {
    let mut d = doc(vec![para(vec![t(r#"He said "yes" and it's done"#)])]);
    d.meta.language = lang.map(String::from);
    let (d, _) = apply("typographic-quotes", d);
    texts(&d)[0].clone()
}

#[test]
fn typographic_quotes_follow_the_language() {
    assert_eq!(quoted(Some("de_DE")), "He said „yes“ and it’s done");
    assert_eq!(quoted(Some("en_EN")), "He said “yes” and it’s done");
    assert_eq!(quoted(None), "He said “yes” and it’s done");
    assert_eq!(
        quoted(Some("fr_CA")),
        "He said «\u{a0}yes\u{a0}» and it’s done"
    );
    assert_eq!(quoted(Some("ru_RU")), "He said «yes» and it’s done");
}

#[test]
fn clear_decorative_formatting() {
    let d = doc(vec![para(vec![
        Inline::styled(TextStyle::Underline, vec![t("under")]),
        t(" "),
        Inline::Span {
            style: "Fancy".into(),
            children: vec![bold("kept bold")],
        },
    ])]);
    let (d, _) = apply("clear-decorative-formatting", d);
    let Block::Paragraph(p) = &d.blocks[0] else {
        panic!()
    };
    assert_eq!(p.content, vec![t("under "), bold("kept bold")]);
}

#[test]
fn remove_page_breaks() {
    let d = doc(vec![
        para(vec![t("a")]),
        Block::PageBreak,
        para(vec![t("b")]),
        Block::PageBreak,
    ]);
    let (d, r) = apply("remove-page-breaks", d);
    assert_eq!(texts(&d), ["a", "b"]);
    assert!(count(&r).ends_with("2 change(s)"));
}

#[test]
fn merge_broken_lines() {
    let d = doc(vec![
        para(vec![t("This sentence was")]),
        para(vec![t("broken in")]),
        para(vec![t("three. Next starts")]),
        para(vec![t("New sentence.")]),
        para(vec![
            t("line one,"),
            Inline::LineBreak,
            t("goes on"),
            Inline::LineBreak,
            t("Capital stays"),
        ]),
    ]);
    let (d, _) = apply("merge-broken-lines", d);
    assert_eq!(
        texts(&d),
        [
            "This sentence was broken in three. Next starts",
            "New sentence.",
            "line one, goes on\nCapital stays"
        ]
    );
}

/// Page sections start at top-level blocks: removing or merging blocks moves them along, so
/// each section keeps its own text and no section points past the end.
#[test]
fn page_sections_move_with_the_blocks_that_go() {
    use sdconv::ast::pages::PageSection;
    let section = |start| PageSection {
        start,
        ..PageSection::default()
    };
    let mut d = doc(vec![
        para(vec![t("One")]),
        para(vec![]),
        para(vec![t("Two was")]),
        para(vec![t("broken.")]),
        para(vec![]),
        para(vec![t("Three")]),
        para(vec![]),
    ]);
    d.meta.pages.sections = vec![section(0), section(2), section(5), section(6)];
    let (d, _) = apply("remove-empty-paragraphs", d);
    assert_eq!(texts(&d), ["One", "Two was", "broken.", "Three"]);
    let starts =
        |d: &Document| -> Vec<usize> { d.meta.pages.sections.iter().map(|s| s.start).collect() };
    // The last section's only block went: it starts where the next block would be.
    assert_eq!(starts(&d), [0, 1, 3, 4]);
    let (d, _) = apply("merge-broken-lines", d);
    assert_eq!(texts(&d), ["One", "Two was broken.", "Three"]);
    assert_eq!(starts(&d), [0, 1, 2, 3]);
}

fn image(w: u64, h: u64) -> Block {
    Block::Image(Image {
        media: "a.png".into(),
        extent: Some(Extent {
            width: w,
            height: h,
        }),
        ..Image::default()
    })
}

fn image_doc() -> Document {
    let mut d = doc(vec![image(200, 100), image(100, 200)]);
    d.media.add("a.png", vec![0u8; 4]);
    d
}

#[test]
fn image_orientation_routines() {
    let (d, _) = apply("landscape-images-full-width", image_doc());
    let widths: Vec<_> = d
        .blocks
        .iter()
        .map(|b| match b {
            Block::Image(i) => i.width_percent,
            _ => panic!(),
        })
        .collect();
    assert_eq!(widths, [Some(100.0), None]);
    let (d, _) = apply("center-portrait-images", image_doc());
    let aligns: Vec<_> = d
        .blocks
        .iter()
        .map(|b| match b {
            Block::Image(i) => i.align,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        aligns,
        [sdconv::ast::Align::Left, sdconv::ast::Align::Center]
    );
}

#[test]
fn routines_run_in_the_order_given() {
    // Strip numbers first, then the now-empty paragraph goes.
    let d = doc(vec![para(vec![t("1. x")]), para(vec![t("  ")])]);
    let mut d1 = d.clone();
    let keys: Vec<String> = ["strip-typed-numbering", "remove-empty-paragraphs"]
        .map(String::from)
        .to_vec();
    let mut r = Report::new();
    cleanup::apply(&mut d1, &keys, &Limits::default(), &mut r).unwrap();
    assert_eq!(texts(&d1), ["x"]);
    assert_eq!(r.warnings().len(), 2);
}

#[test]
fn unknown_routine_is_a_parameter_error() {
    let err = cleanup::apply(
        &mut Document::new(),
        &["nope".to_string()],
        &Limits::default(),
        &mut Report::new(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), sdconv::ErrorKind::Parameter);
    assert!(err.to_string().contains("nope"), "{err}");
    let mut options = ImportOptions::default();
    options.routines = vec!["nope".into()];
    let json = br#"{"format_version":1,"meta":{},"blocks":[]}"#;
    assert!(sdconv::import(Format::Json, json, &options).is_err());
    options.routines = vec!["remove-page-breaks".into()];
    let json = br#"{"format_version":1,"meta":{},"blocks":[{"type":"page_break"}]}"#;
    let c = sdconv::import(Format::Json, json, &options).unwrap();
    assert!(c.value.blocks.is_empty());
}

const NAMES: &str = r#"{"de_DE":"x","en_EN":"x","es_ES":"x","fr_BE":"x","fr_CA":"x","fr_FR":"x","nl_BE":"x","ru_RU":"x"}"#;

#[test]
fn load_errors_name_the_routine_and_field() {
    let bad_filter = format!(
        r#"[{{"key":"r1","type":"routine","name":{NAMES},"actions":[{{"filters":[{{"type":"paragraph"}},{{"type":"colour"}}],"processor":{{"type":"remove"}}}}]}}]"#
    );
    let err = Catalog::from_json(&bad_filter).unwrap_err().to_string();
    assert!(
        err.contains("\"r1\"") && err.contains("actions[0].filters[1]") && err.contains("colour"),
        "{err}"
    );
    let bad_proc = format!(
        r#"[{{"key":"r2","type":"routine","name":{NAMES},"actions":[{{"filters":[],"processor":{{"type":"explode"}}}}]}}]"#
    );
    let err = Catalog::from_json(&bad_proc).unwrap_err().to_string();
    assert!(
        err.contains("\"r2\"") && err.contains("actions[0].processor") && err.contains("explode"),
        "{err}"
    );
    let no_locale = r#"[{"key":"r3","type":"routine","name":{"de_DE":"x"},"actions":[]}]"#;
    let err = Catalog::from_json(no_locale).unwrap_err().to_string();
    assert!(err.contains("name.en_EN"), "{err}");
}

#[test]
fn catalog_matches_the_spec() {
    let json: serde_json::Value = serde_json::from_str(&cleanup::catalog_json()).unwrap();
    let items = json.as_array().unwrap();
    assert!(items.len() >= 8, "{}", items.len());
    for item in items {
        assert!(item["key"].is_string(), "{item}");
        assert_eq!(item["type"], "routine");
        let name = item["name"].as_object().unwrap();
        assert_eq!(name.len(), 8);
        for l in sdconv::magic::LOCALES {
            assert!(!name[l].as_str().unwrap().is_empty(), "{l} {item}");
        }
        for action in item["actions"].as_array().unwrap() {
            for f in action["filters"].as_array().unwrap() {
                assert!(f["type"].is_string(), "{f}");
                if f["type"] == "orientation" {
                    assert!(
                        ["landscape", "portrait"].contains(&f["orientation"].as_str().unwrap())
                    );
                }
            }
            assert!(action["processor"]["type"].is_string());
        }
    }
    // The embedded catalog loads, and every key resolves.
    let catalog = Catalog::embedded().unwrap();
    let keys: Vec<String> = catalog.routines.iter().map(|r| r.key.clone()).collect();
    assert_eq!(cleanup::resolve(&keys).unwrap().len(), items.len());
}

// A small tree generator of our own: paragraphs of the shapes the routines look at.
fn arb_inline() -> impl Strategy<Value = Inline> {
    let text = prop::sample::select(vec![
        "1. ", "a) ", "(ii) ", "  ", "word", "Word", " end.", "\"", "'s", "x,", "§ 2 ", "ok",
    ]);
    prop_oneof![
        4 => text.clone().prop_map(Inline::text),
        2 => text.clone().prop_map(|s| Inline::styled(TextStyle::Bold, vec![Inline::text(s)])),
        1 => text.clone().prop_map(|s| Inline::styled(TextStyle::Underline, vec![Inline::text(s)])),
        1 => Just(Inline::LineBreak),
    ]
}

fn arb_block() -> impl Strategy<Value = Block> {
    prop_oneof![
        6 => (prop::collection::vec(arb_inline(), 0..6), prop::sample::select(vec![TextType::Paragraph, TextType::Heading, TextType::ListOl]))
            .prop_map(|(c, kind)| Block::Paragraph(Paragraph::new(kind, sdconv::ast::inline::normalize(&c)))),
        1 => Just(Block::PageBreak),
        1 => (1u64..300, 1u64..300).prop_map(|(w, h)| image(w, h)),
    ]
}

fn arb_doc() -> impl Strategy<Value = Document> {
    (
        prop::collection::vec(arb_block(), 0..10),
        prop::sample::select(vec!["de_DE", "en_EN", "fr_CA", "ru_RU"]),
    )
        .prop_map(|(blocks, lang)| {
            let mut d = doc(blocks);
            d.meta.language = Some(lang.into());
            d.media.add("a.png", vec![0u8; 4]);
            d
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn every_routine_is_idempotent_and_keeps_the_tree_valid(d in arb_doc()) {
        for routine in Catalog::embedded().unwrap().routines {
            let mut once = d.clone();
            cleanup::run(&mut once, &routine, &Limits::default(), &mut Report::new()).unwrap();
            let mut twice = once.clone();
            let n = cleanup::run(&mut twice, &routine, &Limits::default(), &mut Report::new()).unwrap();
            prop_assert_eq!(n, 0, "{} changed again", routine.key);
            prop_assert_eq!(&twice, &once, "{}", routine.key);
        }
    }
}

fn encoded(w: u32, h: u32, format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 7])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), format)
        .unwrap();
    out
}

fn picture_doc(w: u32, h: u32, format: image::ImageFormat, blocks: usize) -> Document {
    let mut d = doc((0..blocks)
        .map(|_| {
            Block::Image(Image {
                media: "p".into(),
                extent: Some(Extent {
                    width: u64::from(w) * 100,
                    height: u64::from(h) * 100,
                }),
                ..Image::default()
            })
        })
        .collect());
    d.media.add("p", encoded(w, h, format));
    d
}

#[test]
fn rotate_landscape_pictures_once_even_when_shown_twice() {
    let (d, r) = apply(
        "rotate-landscape-images",
        picture_doc(40, 20, image::ImageFormat::Png, 2),
    );
    let item = d.media.get("p").unwrap();
    assert_eq!((item.width, item.height), (Some(20), Some(40)));
    for b in &d.blocks {
        let Block::Image(i) = b else { panic!() };
        assert_eq!(
            i.extent,
            Some(Extent {
                width: 2000,
                height: 4000
            })
        );
    }
    assert_eq!(count(&r), "routine rotate-landscape-images: 1 change(s)");
    // A portrait picture is left alone.
    let (d, r) = apply(
        "rotate-landscape-images",
        picture_doc(20, 40, image::ImageFormat::Png, 1),
    );
    assert_eq!(d.media.get("p").unwrap().width, Some(20));
    assert!(r.warnings().is_empty());
}

#[test]
fn downscale_large_pictures_of_every_processed_format() {
    for format in [
        image::ImageFormat::Png,
        image::ImageFormat::Jpeg,
        image::ImageFormat::Gif,
        image::ImageFormat::Bmp,
    ] {
        let (d, _) = apply("downscale-large-images", picture_doc(3000, 30, format, 1));
        let item = d.media.get("p").unwrap();
        assert_eq!(item.width, Some(2000), "{format:?}");
        assert!(
            item.height.is_some_and(|h| (19..=21).contains(&h)),
            "{format:?} {:?}",
            item.height
        );
        // The displayed size is the page's business: unchanged.
        let Block::Image(i) = &d.blocks[0] else {
            panic!()
        };
        assert_eq!(
            i.extent,
            Some(Extent {
                width: 300_000,
                height: 3000
            })
        );
    }
    let (d, r) = apply(
        "downscale-large-images",
        picture_doc(100, 30, image::ImageFormat::Png, 1),
    );
    assert_eq!(d.media.get("p").unwrap().width, Some(100));
    assert!(r.warnings().is_empty());
}

#[test]
fn still_gif_and_bmp_pictures_rotate_and_keep_their_format() {
    for (format, kind) in [
        (image::ImageFormat::Gif, sdconv::ast::MediaKind::Gif),
        (image::ImageFormat::Bmp, sdconv::ast::MediaKind::Bmp),
    ] {
        let (d, r) = apply("rotate-landscape-images", picture_doc(40, 20, format, 1));
        let item = d.media.get("p").unwrap();
        assert_eq!(
            (item.kind, item.width, item.height),
            (kind, Some(20), Some(40)),
            "{format:?}"
        );
        assert_eq!(count(&r), "routine rotate-landscape-images: 1 change(s)");
    }
}

#[test]
fn animated_gifs_are_kept_with_a_warning() {
    use image::codecs::gif::GifEncoder;
    let mut bytes = Vec::new();
    {
        let mut enc = GifEncoder::new(&mut bytes);
        for shade in [10u8, 200] {
            let frame = image::RgbaImage::from_pixel(40, 20, image::Rgba([shade, 0, 0, 255]));
            enc.encode_frame(image::Frame::new(frame)).unwrap();
        }
    }
    let mut d = picture_doc(40, 20, image::ImageFormat::Png, 1);
    d.media.add("p", bytes.clone());
    let r = rotate(&mut d, &Limits::default());
    assert_eq!(&d.media.get("p").unwrap().bytes().unwrap()[..], &bytes[..]);
    let w = r.warnings();
    assert!(
        w.iter().any(|w| w.message.contains("animated GIF")),
        "{w:?}"
    );
}

#[test]
fn pictures_that_cannot_be_processed_are_warned_about() {
    let mut d = image_doc();
    let r = rotate(&mut d, &Limits::default());
    let w = r.warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!(w[0].kind, WarningKind::Lossy);
    assert!(w[0].message.contains("a.png"), "{w:?}");
}

#[test]
fn picture_routines_decode_nothing_past_the_callers_pixel_limit() {
    let mut limits = Limits::default();
    limits.max_image_pixels = 10_000;
    // 200×100 is past it, 100×50 within it.
    for (w, h, turned) in [(200, 100, false), (100, 50, true)] {
        let mut d = picture_doc(w, h, image::ImageFormat::Png, 1);
        let before = d.media.get("p").unwrap().bytes().unwrap();
        let r = rotate(&mut d, &limits);
        let after = d.media.get("p").unwrap();
        assert_eq!(after.bytes().unwrap() != before, turned, "{w}×{h}");
        let over = r
            .warnings()
            .iter()
            .any(|w| w.message.contains("over the limit of 10000"));
        assert_eq!(over, !turned, "{w}×{h}: {:?}", r.warnings());
    }
}
