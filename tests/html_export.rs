//! HTML export: golden pages for single-feature trees (`tests/golden/html/`, regenerate with
//! `UPDATE_GOLDEN=1`), and targeted checks of safety, images, determinism and structure.

mod common;
mod html_fixtures;

use std::path::PathBuf;

use base64::Engine;
use html_fixtures::*;
use proptest::prelude::*;
use sdconv::ast::{Block, Image, TextType};
use sdconv::export::files::{ImageMode, export_files};
use sdconv::export::html::{HtmlOptions, write_all_in_one, write_files, write_zip};
use sdconv::internal::archive::ZipReader;
use sdconv::lang::Language;
use sdconv::{Document, ExportOptions, Format, Limits, WarningKind};

fn page(doc: &Document, opts: &HtmlOptions) -> String {
    let files = write_files(doc, opts).value;
    let (name, bytes) = &files[0];
    assert_eq!(name, "index.html");
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn check_golden(name: &str) {
    let (_, doc, opts) = goldens().into_iter().find(|(n, _, _)| *n == name).unwrap();
    let actual = page(&doc, &opts);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/html")
        .join(format!("{name}.html"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    if actual != expected {
        let line = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(actual.lines().count().min(expected.lines().count()));
        panic!(
            "{name}: output differs from {} at line {}:\n  got:      {:?}\n  expected: {:?}",
            path.display(),
            line + 1,
            actual.lines().nth(line),
            expected.lines().nth(line)
        );
    }
    assert_balanced(&actual);
}

macro_rules! golden {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            check_golden(stringify!($name));
        }
    )*};
}

mod golden {
    use super::check_golden;
    golden!(
        headings,
        lists,
        figure_de,
        figure_ru,
        table,
        notes,
        cross_refs,
        tracked,
        comments,
        page_break,
        directories,
    );
    #[test]
    fn unsafe_links() {
        check_golden("unsafe");
    }
}

/// Every golden fixture is listed above (a new fixture without a test would go unchecked).
#[test]
fn every_fixture_has_a_golden_test() {
    let names: Vec<_> = goldens().into_iter().map(|(n, _, _)| n).collect();
    assert_eq!(names.len(), 12, "{names:?}");
}

/// Elements that never have an end tag.
const VOID: [&str; 6] = ["meta", "link", "img", "br", "col", "hr"];

/// Checks that start and end tags nest properly (attribute values are escaped, so `<` and `>`
/// only ever delimit tags) and returns the element names in document order.
fn assert_balanced(html: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let end = rest.find('>').expect("unclosed tag");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(open, name, "</{name}> closes <{open}>");
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        seen.push(name.clone());
        if name == "style" {
            let close = rest.find("</style>").expect("unclosed style");
            rest = &rest[close + "</style>".len()..];
            continue;
        }
        if !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "left open: {stack:?}");
    seen
}

#[test]
fn script_text_and_hostile_attributes_are_escaped() {
    let doc = unsafe_content();
    let out = write_all_in_one(&doc, &HtmlOptions::default());
    let html = &out.value;
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; \"quotes\""));
    assert!(html.contains("<title>&lt;script&gt;alert(\"title\")&lt;/script&gt;</title>"));
    assert!(html.contains(
        "<meta name=\"description\" content=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\">"
    ));
    assert!(html.contains("data-style=\"x&quot; onmouseover=&quot;alert(1)\""));
    // The control character became U+FFFD, and that is reported.
    assert!(html.contains("\u{FFFD}") && !html.contains('\u{1}'));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Repaired && w.message.contains("U+FFFD"))
    );
}

#[test]
fn unsafe_links_are_dropped_with_their_text_kept_and_warned() {
    let doc = unsafe_content();
    let out = write_files(&doc, &HtmlOptions::default());
    let html = String::from_utf8(out.value[0].1.to_vec()).unwrap();
    let lower = html.to_ascii_lowercase();
    for bad in ["javascript:", "vbscript:", "data:text"] {
        assert!(!lower.contains(bad), "{bad} in {html}");
    }
    for text in ["js", "mixed case", "tab inside", "control", "data", "vb"] {
        assert!(html.contains(&format!(" {text} ")) || html.contains(&format!("{text} ")));
    }
    let dropped: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Dropped && w.message.contains("unsafe link"))
        .collect();
    assert_eq!(dropped.len(), 6, "{:#?}", out.warnings);
    assert_eq!(dropped[0].location.block, Some(0));
    assert!(html.contains("<a href=\"https://example.org/?a=1&amp;b=%222%22\">safe</a>"));
    assert!(html.contains("<a href=\"mailto:someone@example.org\">mail</a>"));
    assert!(html.contains("<a href=\"docs/page.html\">relative</a>"));
}

#[test]
fn every_image_of_the_single_file_is_a_data_uri_of_its_bytes() {
    let doc = everything();
    let html = write_all_in_one(&doc, &HtmlOptions::default()).value;
    assert!(html.contains("<style>") && !html.contains("<link rel=\"stylesheet\""));
    assert!(!html.contains("images/"));
    let mut found = 0;
    for part in html.split("<img ").skip(1) {
        let src = part
            .split("src=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap();
        let b64 = src
            .strip_prefix("data:image/png;base64,")
            .unwrap_or_else(|| panic!("not a data URI: {}", &src[..src.len().min(40)]));
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        assert!(
            doc.media.iter().any(|m| m.bytes().unwrap() == bytes),
            "image {found} is none of the media"
        );
        found += 1;
    }
    assert_eq!(found, counts(&doc).2);
}

#[test]
fn files_are_ordered_share_image_bytes_and_have_safe_names() {
    let mut doc = everything();
    doc.media.add("unused.png", dot_png());
    let out = write_files(&doc, &HtmlOptions::default());
    let names: Vec<_> = out.value.iter().map(|(n, _)| n.as_str()).collect();
    // Store order is name order: "../dot image.png" < "checker.png" < "gradient.png".
    assert_eq!(
        names,
        [
            "index.html",
            "style.css",
            "images/_._dot_image.png",
            "images/checker.png",
            "images/gradient.png"
        ]
    );
    for (name, bytes) in &out.value[2..] {
        let media = name.strip_prefix("images/").unwrap();
        let item = doc
            .media
            .iter()
            .find(|m| m.bytes().unwrap() == *bytes)
            .unwrap_or_else(|| panic!("{media}"));
        // The same allocation: image bytes are shared, never copied.
        assert_eq!(item.bytes().unwrap().as_ptr(), bytes.as_ptr(), "{media}");
        sdconv::internal::archive::check_entry_name(name).unwrap();
    }
    let html = String::from_utf8(out.value[0].1.to_vec()).unwrap();
    assert!(html.contains("src=\"images/_._dot_image.png\""));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Repaired
                && w.message.contains("images/_._dot_image.png"))
    );
    assert_eq!(
        &out.value[1].1[..],
        sdconv::export::html::STYLESHEET.as_bytes()
    );
}

#[test]
fn output_is_deterministic() {
    let doc = everything();
    let opts = HtmlOptions::default();
    assert_eq!(
        write_all_in_one(&doc, &opts).value,
        write_all_in_one(&doc, &opts).value
    );
    assert_eq!(
        write_files(&doc, &opts).value,
        write_files(&doc, &opts).value
    );
    let a = write_zip(&doc, &opts).unwrap().value;
    let b = write_zip(&doc.clone(), &opts).unwrap().value;
    assert_eq!(a, b);
}

#[test]
fn facade_zips_the_folder_form_and_returns_the_single_file() {
    let doc = everything();
    assert!(Format::Html.can_write() && Format::HtmlAllInOne.can_write());
    let zip = sdconv::export(&doc, Format::Html, &ExportOptions::default()).unwrap();
    let mut reader = ZipReader::new(&zip.value, &Limits::default()).unwrap();
    let names = reader.names().to_vec();
    assert_eq!(names[0], "index.html");
    assert_eq!(names[1], "style.css");
    assert_eq!(names.len(), 5);
    let files = write_files(&doc, &HtmlOptions::default()).value;
    assert_eq!(reader.read("index.html").unwrap(), files[0].1);
    assert_eq!(reader.read("images/gradient.png").unwrap(), gradient_png());
    let single = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    assert_eq!(
        single.value,
        write_all_in_one(&doc, &HtmlOptions::default())
            .value
            .into_bytes()
    );
    // The folder form also reports the renamed image file; otherwise the same warnings.
    let mut zip_warnings = zip.warnings.clone();
    zip_warnings.retain(|w| !w.message.contains("is written as images/"));
    assert_eq!(single.warnings, zip_warnings);
    assert_eq!(zip.warnings.len(), single.warnings.len() + 1);
}

#[test]
fn language_comes_from_options_then_document_then_english() {
    let mut doc = figure("de_DE");
    let de = page(&doc, &HtmlOptions::default());
    assert!(de.contains("<html lang=\"de-DE\">") && de.contains("Abbildung 1:"));
    let ru = page(&doc, &HtmlOptions::default().with_language(Language::Ru));
    assert!(ru.contains("<html lang=\"ru-RU\">") && ru.contains("Рисунок 2:"));
    let fr = page(&doc, &HtmlOptions::default().with_language(Language::FrCa));
    assert!(fr.contains("<html lang=\"fr-CA\">") && fr.contains("Figure 1:"));
    // A language outside the four: the page says it (as BCP 47), the words are English.
    doc.meta.language = Some("ar_SA".into());
    let ar = page(&doc, &HtmlOptions::default());
    assert!(ar.contains("<html lang=\"ar-SA\">") && ar.contains("Figure 1:"));
    // No language tag at all: English.
    doc.meta.language = Some("not a tag".into());
    let en = page(&doc, &HtmlOptions::default());
    assert!(en.contains("<html lang=\"en\">") && en.contains("Figure 1:"));
    let mut table_doc = table();
    table_doc.meta.language = Some("fr_CA".into());
    assert!(page(&table_doc, &HtmlOptions::default()).contains("Tableau 1:"));
}

#[test]
fn missing_and_undisplayable_images_are_reported() {
    let mut doc = doc(
        "Missing",
        vec![
            Block::Image(Image {
                alt: Some("gone".into()),
                ..image("nowhere.png", Some("Lost"))
            }),
            Block::Image(image("vector.emf", None)),
        ],
    );
    let mut emf = vec![1, 0, 0, 0];
    emf.resize(40, 0);
    emf.extend_from_slice(b" EMF");
    doc.media.add("vector.emf", emf);
    let out = write_all_in_one(&doc, &HtmlOptions::default());
    assert!(out.value.contains("<p class=\"missing-image\">[gone]</p>"));
    assert!(out.value.contains("src=\"data:image/emf;base64,"));
    // The metafile (a bare header) cannot be drawn: one warning, given before the page.
    let kinds: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(kinds, [WarningKind::Lossy, WarningKind::MissingMedia]);
    assert!(out.warnings[0].message.contains("could not be drawn"));
}

#[test]
fn numbered_headings_and_paragraphs_show_shared_numbers() {
    let html = page(&headings(), &HtmlOptions::default());
    for expected in [
        "<h1 id=\"sd-h-1\">Preface</h1>",
        "<h1 id=\"sd-h-2\"><span class=\"num\">1</span> Scope</h1>",
        "<h2 id=\"sd-h-3\"><span class=\"num\">1.1</span> Terms</h2>",
        "<p class=\"numbered\"><span class=\"num\">1.1.2</span> Another one.</p>",
        "<h2 id=\"sd-h-5\"><span class=\"num\">1.5</span> Restarted at five</h2>",
        "<h3 id=\"sd-h-6\"><span class=\"num\">1.5.1</span> Below the restart</h3>",
        // An HTML heading's level is its rank in the outline: a Word level-five heading right
        // under a chapter is its first subheading.
        "<h2 id=\"sd-h-8\">Level five, ranked under the chapter</h2>",
    ] {
        assert!(html.contains(expected), "{expected}\n{html}");
    }
}

#[test]
fn notes_link_both_ways_and_count_separately() {
    let out = write_files(&notes(), &HtmlOptions::default());
    let html = String::from_utf8(out.value[0].1.to_vec()).unwrap();
    for n in 1..=2 {
        assert!(html.contains(&format!("href=\"#sd-fn-{n}\" id=\"sd-fnref-{n}\"")));
        assert!(html.contains(&format!("<li id=\"sd-fn-{n}\">")));
        assert!(html.contains(&format!("href=\"#sd-fnref-{n}\"")));
        assert!(html.contains(&format!("href=\"#sd-en-{n}\" id=\"sd-enref-{n}\"")));
    }
    assert!(html.contains("role=\"doc-noteref\">ii</a>"));
    // A note beside the text, not a complementary landmark inside `main`.
    assert!(html.contains("<aside class=\"sidenote\" id=\"sd-sn-1\" role=\"note\">"));
    // The nested footnote is written inline and reported.
    assert!(html.contains("<em>style</em> (nested)"));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Lossy && w.message.contains("note inside a note"))
    );
}

#[test]
fn cross_references_resolve_to_sanitised_ids() {
    let out = write_files(&cross_refs(), &HtmlOptions::default());
    let html = String::from_utf8(out.value[0].1.to_vec()).unwrap();
    assert!(html.contains("<h1 id=\"sec_intro\">"));
    assert!(html.contains("<a class=\"xref\" href=\"#sec_intro\">1</a>"));
    assert!(html.contains("<a class=\"xref\" href=\"#sec_intro\">1 Target heading</a>"));
    assert!(html.contains("<a class=\"xref\" href=\"#fig1\">Figure 1</a>"));
    assert!(html.contains("<a class=\"xref\" href=\"#tab1\">Small table</a>"));
    assert!(html.contains("<a href=\"#fig1\">a link to the figure</a>"));
    // An unknown id is never shown: a neutral mark stands for the reference.
    assert!(
        html.contains("<span class=\"xref-missing\">\u{2197}</span>")
            && !html.contains(">missing<")
    );
    assert!(html.contains(", a dead link."));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Lossy && w.message.contains("\"nowhere\""))
    );
    assert!(html.contains("<p id=\"dup\">") && html.contains("<p id=\"dup-2\">"));
    assert!(
        out.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Lossy && w.message.contains("\"missing\""))
    );
}

#[test]
fn comment_marks_stay_inside_their_elements() {
    let html = page(&comments(), &HtmlOptions::default());
    assert_balanced(&html);
    assert_eq!(html.matches("<mark class=\"comment\"").count(), 6);
    // The second range starts inside the bold run: its mark opens there and reopens after it.
    assert!(html.contains("<span class=\"comment-start\" id=\"sd-cref-2\"></span><mark class=\"comment\" data-comment=\"c1 c2\""));
    assert!(html.contains(
        "Bob: Overlaps.\">both</mark></strong><mark class=\"comment\" data-comment=\"c1 c2\""
    ));
    assert!(
        html.contains(
            "title=\"Ann: Spans two paragraphs &amp; &lt;formatting&gt;.\nBob: Overlaps.\""
        )
    );
    // The unanchored comment is listed too, without a link back.
    assert!(html.contains("<li id=\"sd-comment-3\"><p class=\"comment-meta\"><strong>Cy</strong></p><p>Not anchored anywhere.</p></li>"));
}

proptest! {
    /// Any sequence of list items and paragraphs at any levels gives properly nested lists with one
    /// `li` per item (plus marker-less gap items) and the numbers the shared numbering computes.
    #[test]
    fn lists_nest_for_any_level_sequence(items in prop::collection::vec((0u8..4, 0u8..6), 0..40)) {
        let blocks: Vec<Block> = items
            .iter()
            .map(|&(kind, level)| {
                let kind = match kind {
                    0 | 1 => TextType::ListOl,
                    2 => TextType::ListUl,
                    _ => TextType::Paragraph,
                };
                p(kind, level, vec![t("x")])
            })
            .collect();
        let list_items = blocks
            .iter()
            .filter(|b| matches!(b, Block::Paragraph(p) if p.kind.is_list()))
            .count();
        let html = page(&doc("Lists", blocks), &HtmlOptions::default());
        let tags = assert_balanced(&html);
        let lis = tags.iter().filter(|t| *t == "li").count();
        let gaps = html.matches("<li class=\"list-gap\">").count();
        prop_assert_eq!(lis - gaps, list_items);
        // Lists only ever hold items directly.
        prop_assert!(!html.contains("<ol>\n<p") && !html.contains("<ul>\n<p"));
    }
}

#[test]
fn css_values_from_the_tree_are_checked_before_they_reach_style() {
    let out = write_files(&table(), &HtmlOptions::default());
    let html = String::from_utf8(out.value[0].1.to_vec()).unwrap();
    assert!(!html.contains("url(") && !html.contains("red;"));
    assert!(html.contains("background-color:#ffeecc"));
    let invalid: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::InvalidValue)
        .collect();
    assert_eq!(invalid.len(), 1, "{:#?}", out.warnings);
    assert_eq!(
        invalid[0].location.element.as_deref(),
        Some("td@background")
    );
}

#[test]
fn image_size_is_the_displayed_extent_else_the_pixel_size() {
    let mut d = figure("en_EN");
    if let Block::Image(img) = &mut d.blocks[2] {
        // 6 cm × 4 cm as Word stores it.
        img.extent = Some(sdconv::ast::Extent {
            width: 2_160_000,
            height: 1_440_000,
        });
    }
    let html = page(&d, &HtmlOptions::default());
    assert!(html.contains("<img src=\"images/dot.png\" alt=\"\" width=\"227\" height=\"151\">"));
    assert!(html.contains("<img src=\"images/dot.png\" alt=\"\" width=\"8\" height=\"8\">"));
}

#[test]
fn empty_unnumbered_headings_become_empty_paragraphs() {
    let d = doc(
        "Empty",
        vec![
            Block::Directory {
                kind: sdconv::ast::DirectoryKind::Content,
            },
            p(TextType::Heading, 0, vec![]),
            p(TextType::Heading, 0, vec![t("Real")]),
        ],
    );
    let html = page(&d, &HtmlOptions::default());
    // Not a heading (validators call an empty one a mistake), nor a contents entry.
    assert!(html.contains("<p class=\"empty-heading\"></p>\n<h1 id=\"sd-h-1\">Real</h1>"));
    assert!(html.contains("<ol>\n<li><a href=\"#sd-h-1\">Real</a></li>\n</ol>"));
    // A numbered one shows its number, so it stays a heading.
    let numbered = doc("N", vec![p(TextType::HeadingOl, 0, vec![])]);
    assert!(
        page(&numbered, &HtmlOptions::default())
            .contains("<h1 id=\"sd-h-1\"><span class=\"num\">1</span> </h1>")
    );
}

#[test]
fn rows_without_cells_are_left_out_and_spans_shortened() {
    use sdconv::ast::{Cell, Row, Table};
    let d = doc(
        "Rows",
        vec![Block::Table(Table {
            rows: vec![
                row(vec![
                    Cell {
                        rowspan: 3,
                        ..tcell("tall")
                    },
                    tcell("a"),
                ]),
                // Covered by the span: nothing of it is lost.
                Row::default(),
                row(vec![tcell("b")]),
                // Covered by nothing: reported.
                Row::default(),
            ],
            ..Table::default()
        })],
    );
    let out = write_files(&d, &HtmlOptions::default());
    let html = String::from_utf8(out.value[0].1.to_vec()).unwrap();
    assert!(
        html.contains("<td rowspan=\"2\"><p>tall</p></td>"),
        "{html}"
    );
    assert_eq!(html.matches("<tr").count(), 2);
    let dropped: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Dropped)
        .collect();
    assert_eq!(dropped.len(), 1);
    assert!(dropped[0].message.starts_with("1 empty table row"));
}

mod arbitrary_trees {
    //! Any tree — canonical or not, valid or not — gives a page without panicking, with
    //! properly nested tags, unique ids, internal links that resolve, no script and no unsafe
    //! link.

    use super::*;
    use sdconv::ast::{
        Cell, Change, ChangeKind, DirectoryKind, Inline, NoteKind, Paragraph, Row, Table, TextStyle,
    };

    fn text_strategy() -> impl Strategy<Value = String> {
        "[a-z <>&\"'\t\u{1}\u{85}Ü]{0,12}"
    }

    fn inline_strategy() -> impl Strategy<Value = Inline> {
        let leaf = prop_oneof![
            4 => text_strategy().prop_map(Inline::text),
            1 => Just(Inline::LineBreak),
            1 => (prop::sample::select(vec!["a", "b", "nowhere", "sd-h-1"]), any::<bool>(), any::<bool>())
                .prop_map(|(t, n, x)| Inline::CrossRef { target: t.into(), number: n, text: x }),
            1 => (prop::sample::select(vec![NoteKind::Footnote, NoteKind::Endnote, NoteKind::Sidenote]), text_strategy())
                .prop_map(|(kind, s)| Inline::Note { kind, content: vec![Inline::text(s)] }),
            1 => prop::sample::select(vec!["c1", "c2", "zz"]).prop_map(|id| Inline::CommentStart { id: id.into() }),
            1 => prop::sample::select(vec!["c1", "c2", "zz"]).prop_map(|id| Inline::CommentEnd { id: id.into() }),
            1 => Just(Inline::IndexMark { id: "ix".into() }),
            1 => prop::sample::select(vec!["a.png", "missing.png"]).prop_map(|m| Inline::Image {
                media: m.into(), caption: Some("c".into()), alt: None }),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            let children = prop::collection::vec(inner, 0..4);
            prop_oneof![
                (
                    prop::sample::select(vec![
                        TextStyle::Bold,
                        TextStyle::Code,
                        TextStyle::Superscript,
                        TextStyle::SmallCaps
                    ]),
                    children.clone()
                )
                    .prop_map(|(style, children)| Inline::Styled { style, children }),
                (
                    prop::sample::select(vec![
                        "https://x.org/a b",
                        "javascript:x",
                        " JAVA\tSCRIPT:x",
                        "#a",
                        "rel/p",
                        "data:x",
                        "mailto:a@b"
                    ]),
                    children.clone()
                )
                    .prop_map(|(href, children)| Inline::Link {
                        href: href.into(),
                        children
                    }),
                children.clone().prop_map(|children| Inline::Span {
                    style: "s\"<".into(),
                    children
                }),
                (any::<bool>(), children.clone()).prop_map(|(ins, children)| Inline::Tracked {
                    change: Change {
                        kind: if ins {
                            ChangeKind::Insert
                        } else {
                            ChangeKind::Delete
                        },
                        author: Some("A".into()),
                        date: Some("2024-02-30".into())
                    },
                    children
                }),
                (
                    prop::sample::select(vec![NoteKind::Footnote, NoteKind::Sidenote]),
                    children
                )
                    .prop_map(|(kind, content)| Inline::Note { kind, content }),
            ]
        })
    }

    fn paragraph_strategy() -> impl Strategy<Value = Block> {
        (
            prop::sample::select(TextType::ALL.to_vec()),
            0u8..8,
            prop::option::of(prop::sample::select(vec!["a", "b", "a b", "sd-h-1"])),
            prop::collection::vec(inline_strategy(), 0..5),
        )
            .prop_map(|(kind, level, id, content)| {
                Block::Paragraph(Paragraph {
                    level,
                    id: id.map(String::from),
                    ..Paragraph::new(kind, content)
                })
            })
    }

    fn block_strategy() -> impl Strategy<Value = Block> {
        let cell = (
            1u32..3,
            1u32..4,
            prop::collection::vec(paragraph_strategy(), 0..3),
        )
            .prop_map(|(colspan, rowspan, blocks)| Cell {
                colspan,
                rowspan,
                blocks,
                ..Cell::default()
            });
        let table = (
            prop::collection::vec(prop::collection::vec(cell, 0..3), 0..4),
            prop::option::of(text_strategy()),
            any::<bool>(),
        )
            .prop_map(|(rows, caption, header)| {
                Block::Table(Table {
                    rows: rows
                        .into_iter()
                        .enumerate()
                        .map(|(i, cells)| Row {
                            header: header && i == 0,
                            cells,
                            ..Row::default()
                        })
                        .collect(),
                    caption,
                    columns: vec![1.0, 0.0, f32::NAN],
                    ..Table::default()
                })
            });
        prop_oneof![
            6 => paragraph_strategy(),
            1 => table,
            1 => prop::sample::select(vec!["a.png", "missing.png"]).prop_map(|m| Block::Image(image(m, Some("cap")))),
            1 => Just(Block::PageBreak),
            1 => prop::sample::select(DirectoryKind::ALL.to_vec()).prop_map(|kind| Block::Directory { kind }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn any_tree_gives_a_balanced_safe_page(blocks in prop::collection::vec(block_strategy(), 0..12)) {
            let mut d = doc("T", blocks);
            d.media.add("a.png", dot_png());
            d.comments = vec![sdconv::ast::Comment { id: "c1".into(), ..Default::default() }];
            for single in [false, true] {
                let html = if single {
                    write_all_in_one(&d, &HtmlOptions::default()).value
                } else {
                    page(&d, &HtmlOptions::default())
                };
                assert_balanced(&html);
                let lower = html.to_ascii_lowercase();
                prop_assert!(!lower.contains("<script") && !lower.contains("javascript:"));
                let forbidden = html.contains(['\u{1}', '\u{85}']);
                prop_assert!(!forbidden, "forbidden code point in the page");
                // Ids are unique.
                let mut ids: Vec<&str> = html.split(" id=\"").skip(1).filter_map(|s| s.split('"').next()).collect();
                let n = ids.len();
                ids.sort_unstable();
                ids.dedup();
                prop_assert_eq!(ids.len(), n, "duplicate ids");
                // Every internal link has its target.
                for target in html.split("href=\"#").skip(1).filter_map(|s| s.split('"').next()) {
                    prop_assert!(target.is_empty() || ids.binary_search(&target).is_ok(), "no id {}", target);
                }
            }
        }
    }
}

#[test]
fn grid_columns_no_cell_begins_in_are_merged() {
    use sdconv::ast::{Cell, Table};
    // Column 1 is always covered by a span from column 0: HTML would call it an error.
    let d = doc(
        "Columns",
        vec![Block::Table(Table {
            columns: vec![20.0, 30.0, 50.0],
            rows: vec![
                row(vec![
                    Cell {
                        colspan: 2,
                        ..tcell("wide")
                    },
                    tcell("a"),
                ]),
                row(vec![
                    Cell {
                        colspan: 2,
                        ..tcell("wide too")
                    },
                    tcell("b"),
                ]),
            ],
            ..Table::default()
        })],
    );
    let html = page(&d, &HtmlOptions::default());
    assert!(
        html.contains("<colgroup><col style=\"width:50%\"><col style=\"width:50%\"></colgroup>")
    );
    assert!(
        html.contains("<tr><td><p>wide</p></td><td><p>a</p></td></tr>"),
        "{html}"
    );
}

/// `convert` to the single-file page has the Word reader inflate the pictures while it builds
/// the tree (`DocxImportOptions::inflate_pictures`): the page and its warnings are the same as
/// reading without it and writing after, for every Word file of `../shared/corpus/docx` and
/// the benchmark's `medium.docx`; so are the Markdown and HTML files the Python package has
/// written with it (`export_files`).
#[test]
fn inflating_a_word_files_pictures_while_reading_changes_no_byte_of_the_page() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut paths = common::files_with(&shared.join("corpus/docx"), "docx");
    paths.push(shared.join("bench/medium.docx"));
    let mut with_pictures = 0;
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let (import, export) = (sdconv::ImportOptions::default(), ExportOptions::default());
        let read = sdconv::import(Format::Word, &bytes, &import).unwrap();
        assert!(
            read.value
                .media
                .iter()
                .all(|m| !m.is_inflated() || !m.has_bytes()),
            "{}: reading alone inflates no picture",
            path.display()
        );
        with_pictures += usize::from(!read.value.media.is_empty());
        let after = sdconv::export(&read.value, Format::HtmlAllInOne, &export).unwrap();
        let mut warnings = read.warnings.clone();
        warnings.extend(after.warnings);
        let converted =
            sdconv::convert(&bytes, Format::Word, Format::HtmlAllInOne, &import, &export).unwrap();
        assert!(
            converted.value == after.value,
            "{}: the page differs",
            path.display()
        );
        assert_eq!(converted.warnings, warnings, "{}", path.display());
        // The Python package's conversions to Markdown and HTML (pictures as files or inside).
        let mut inflating = import.clone();
        inflating.docx = inflating.docx.with_inflate_pictures(true);
        let read_inflating = sdconv::import(Format::Word, &bytes, &inflating).unwrap();
        assert_eq!(read_inflating.warnings, read.warnings, "{}", path.display());
        for (format, images) in [
            (Format::Html, ImageMode::Files),
            (Format::Markdown, ImageMode::Files),
            (Format::Markdown, ImageMode::Inline),
        ] {
            let files = |doc| export_files(doc, format, &export, images).unwrap();
            let (before, now) = (files(&read.value), files(&read_inflating.value));
            assert!(
                before == now,
                "{} as {format:?}, {images:?}: the files differ",
                path.display()
            );
        }
    }
    assert!(with_pictures > 0, "the corpus has Word files with pictures");
}
