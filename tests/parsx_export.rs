//! parsX writer: golden `parsx.xml` for single-feature trees (`UPDATE_GOLDEN=1` rewrites them),
//! the zip layout, and the structural rules of parsX checked on hand-built and generated trees
//! (the output is parsed with quick-xml, so it is well-formed too).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use proptest::prelude::*;
use quick_xml::Reader;
use quick_xml::events::Event;
use sdconv::ast::inline::normalize;
use sdconv::ast::*;
use sdconv::export::parsx::{NAMESPACE, ParsxOptions, write, write_xml};
use sdconv::internal::archive::ZipReader;
use sdconv::lang::Language;
use sdconv::{Converted, Format, Limits, WarningKind};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x02\0\0\0\x03";

// ----- a small DOM over quick-xml ------------------------------------------------------------

#[derive(Debug)]
struct Node {
    name: String,
    attrs: HashMap<String, String>,
    children: Vec<Node>,
    text: String,
}

fn parse(xml: &str) -> Node {
    let mut reader = Reader::from_str(xml);
    let mut stack = vec![Node {
        name: "#document".into(),
        attrs: HashMap::new(),
        children: Vec::new(),
        text: String::new(),
    }];
    let node = |e: &quick_xml::events::BytesStart<'_>| Node {
        name: e.name().as_ref().to_string(),
        attrs: e
            .attributes()
            .map(|a| {
                let a = a.unwrap();
                (
                    a.key.as_ref().to_string(),
                    a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .unwrap()
                        .into_owned(),
                )
            })
            .collect(),
        children: Vec::new(),
        text: String::new(),
    };
    loop {
        match reader
            .read_event()
            .unwrap_or_else(|e| panic!("not well-formed: {e}\n{xml}"))
        {
            Event::Start(e) => stack.push(node(&e)),
            Event::Empty(e) => {
                let n = node(&e);
                stack.last_mut().unwrap().children.push(n);
            }
            Event::End(_) => {
                let n = stack.pop().unwrap();
                stack.last_mut().unwrap().children.push(n);
            }
            Event::Text(t) => stack.last_mut().unwrap().text.push_str(&t.xml10_content()),
            Event::GeneralRef(r) => {
                sdconv::internal::xml::push_ref(&r, &mut stack.last_mut().unwrap().text)
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(stack.len(), 1, "unclosed elements");
    let mut doc = stack.pop().unwrap();
    assert_eq!(doc.children.len(), 1, "one root element");
    doc.children.pop().unwrap()
}

const INLINE: [&str; 9] = [
    "code",
    "durchgestr",
    "fett",
    "hoch",
    "kapitaelchen",
    "kursiv",
    "tief",
    "unterstr",
    "verweis",
];
/// Elements that nest in themselves by design: chapters, lists through entries, paragraphs
/// through notes, tables through cells.
const NESTING: [&str; 11] = [
    "kapitel",
    "liste_geordnet",
    "liste_ungeordnet",
    "eintrag",
    "abs",
    "tabelle",
    "table",
    "tbody",
    "tr",
    "td",
    "th",
];

fn is_ncname(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Checks the parsX rules the writer promises; returns the violations.
fn violations(root: &Node, images: &HashSet<String>) -> Vec<String> {
    let mut v = Vec::new();
    if root.name != "projekt" || root.attrs.get("xmlns").map(String::as_str) != Some(NAMESPACE) {
        v.push(format!("root is {} {:?}", root.name, root.attrs));
    }
    let mut ids = HashSet::new();
    let mut refs = Vec::new();
    let mut path: Vec<&str> = Vec::new();
    walk(root, &mut path, &mut v, &mut ids, &mut refs, images);
    for r in refs {
        if !ids.contains(&r) {
            v.push(format!("verweis-intern {r:?} names no id"));
        }
    }
    v
}

fn walk<'n>(
    n: &'n Node,
    path: &mut Vec<&'n str>,
    v: &mut Vec<String>,
    ids: &mut HashSet<String>,
    refs: &mut Vec<String>,
    images: &HashSet<String>,
) {
    let name = n.name.as_str();
    let child = |c: &str| n.children.iter().any(|k| k.name == c);
    let at = || format!("{}/{name}", path.join("/"));
    // Self-nesting: inline elements within one text flow (a note starts a new one), notes
    // never, everything else but the nesting containers never.
    if INLINE.contains(&name) {
        let flow = path
            .iter()
            .rev()
            .take_while(|p| !matches!(**p, "fussnote" | "endnote"));
        if flow.clone().any(|p| *p == name) {
            v.push(format!("{} nested in itself", at()));
        }
    } else if matches!(name, "fussnote" | "endnote") {
        if path.iter().any(|p| matches!(*p, "fussnote" | "endnote")) {
            v.push(format!("{} inside a note", at()));
        }
    } else if !NESTING.contains(&name) && path.contains(&name) {
        v.push(format!("{} nested in itself", at()));
    }
    match name {
        "hauptteil" if n.children.is_empty() || n.children.iter().any(|c| c.name != "kapitel") => {
            v.push(format!("{} must hold only kapitel", at()));
        }
        "kapitel"
            if !n
                .children
                .iter()
                .any(|c| c.name != "kapitel" && c.name != "meta") =>
        {
            v.push(format!("{} has no content of its own", at()));
        }
        "titel" if !matches!(path.last(), Some(&"global" | &"ausgabe")) && !child("text") => {
            v.push(format!("{} has no text", at()));
        }
        "eintrag" => {
            let own = n.children.iter().any(|c| !c.name.starts_with("liste_"));
            let skip = n.attrs.get("ebene-ueberspringen").map(String::as_str) == Some("ja");
            if own == skip {
                v.push(format!("{} own content {own}, skip {skip}", at()));
            }
        }
        "tabelle" if !child("table") => v.push(format!("{} without table", at())),
        "legende" | "meta" | "ausgabe" | "fussnote" | "endnote" if n.children.is_empty() => {
            v.push(format!("{} is empty", at()))
        }
        "abbildung" => match n.attrs.get("quelle") {
            Some(q) if images.contains(q) => {}
            other => v.push(format!("{} quelle {other:?} not in images/", at())),
        },
        _ => {}
    }
    if let Some(id) = n.attrs.get("id") {
        if !is_ncname(id) {
            v.push(format!("{} id {id:?} is not an NCName", at()));
        }
        if !ids.insert(id.clone()) {
            v.push(format!("{} id {id:?} used twice", at()));
        }
    }
    if let Some(r) = n.attrs.get("verweis-intern") {
        refs.push(r.clone());
    }
    for b in ["nummeriert", "ebene-ueberspringen"] {
        if let Some(val) = n.attrs.get(b) {
            if val != "ja" && val != "nein" {
                v.push(format!("{} {b}={val:?}", at()));
            }
        }
    }
    path.push(name);
    for c in &n.children {
        walk(c, path, v, ids, refs, images);
    }
    path.pop();
}

/// Writes the zip, reads it back, checks its layout and every rule; returns the XML.
fn checked(doc: &Document) -> Converted<String> {
    let zip = write(doc, &ParsxOptions::default()).unwrap();
    let mut r = ZipReader::new(&zip.value, &Limits::default()).unwrap();
    let names = r.names().to_vec();
    assert_eq!(names.first().map(String::as_str), Some("parsx.xml"));
    assert_eq!(names.get(1).map(String::as_str), Some("images/"));
    let images: HashSet<String> = names
        .iter()
        .filter(|n| n.starts_with("images/") && n.len() > 7)
        .cloned()
        .collect();
    for name in &images {
        assert!(!r.read(name).unwrap().is_empty(), "{name} is empty");
    }
    let xml = String::from_utf8(r.read("parsx.xml").unwrap()).unwrap();
    let root = parse(&xml);
    let v = violations(&root, &images);
    assert!(v.is_empty(), "{v:#?}\n{xml}");
    // The zip and write_xml agree.
    assert_eq!(write_xml(doc, &ParsxOptions::default()).value, xml);
    Converted {
        value: xml,
        warnings: zip.warnings,
    }
}

fn golden(name: &str, doc: &Document) -> Converted<String> {
    let out = checked(doc);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/parsx");
    let warnings: String = out
        .warnings
        .iter()
        .map(|w| format!("<!-- {:?}: {w} -->\n", w.kind))
        .collect();
    let actual = format!("{}{warnings}", out.value);
    let path = dir.join(format!("{name}.xml"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, &actual).unwrap();
    } else {
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1)", path.display()));
        assert_eq!(actual, expected, "golden {name}");
    }
    out
}

// ----- tree builders -------------------------------------------------------------------------

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn p(kind: TextType, level: u8, content: Vec<Inline>) -> Block {
    Block::Paragraph(Paragraph {
        level,
        ..Paragraph::new(kind, content)
    })
}

fn with_id(mut b: Block, id: &str) -> Block {
    match &mut b {
        Block::Paragraph(p) => p.id = Some(id.into()),
        Block::Image(i) => i.id = Some(id.into()),
        Block::Table(t) => t.id = Some(id.into()),
        _ => {}
    }
    b
}

fn doc(blocks: Vec<Block>) -> Document {
    let mut d = Document::new();
    d.media.add("cat.png", PNG.to_vec());
    d.blocks = blocks;
    d
}

fn kinds(c: &Converted<String>) -> Vec<WarningKind> {
    c.warnings.iter().map(|w| w.kind).collect()
}

// ----- single features -------------------------------------------------------------------------

#[test]
fn meta_fields_go_to_global_ausgabe_and_dokumentation() {
    let mut d = doc(vec![p(TextType::Paragraph, 0, vec![t("Body")])]);
    d.meta.title = Some("Der Titel".into());
    d.meta.subtitle = Some("Untertitel & mehr".into());
    d.meta.description = Some("Kurz".into());
    d.meta.creator = Some("Verlag X".into());
    d.meta.language = Some("de_DE".into());
    d.meta.footer = Some("Fuß".into());
    d.meta.tags = vec!["a".into()];
    let out = golden("meta", &d);
    assert!(out.value.contains("xml:lang=\"de-DE\""));
    assert!(
        out.value
            .contains("<untertitel>Untertitel &amp; mehr</untertitel>")
    );
    assert_eq!(kinds(&out), [WarningKind::Dropped]);
    assert!(out.warnings[0].message.contains("footer, tags"));
}

#[test]
fn headings_open_nested_chapters_and_leading_content_gets_its_own() {
    let d = doc(vec![
        p(TextType::Paragraph, 0, vec![t("Before any heading")]),
        with_id(p(TextType::HeadingOl, 0, vec![t("One")]), "h1"),
        p(TextType::Paragraph, 0, vec![t("Text")]),
        p(TextType::HeadingOl, 1, vec![t("One.one")]),
        p(TextType::Heading, 2, vec![t("Unnumbered deep")]),
        p(TextType::HeadingOl, 1, vec![t("One.two")]),
        with_id(p(TextType::Heading, 0, vec![]), "9 bad id"),
        p(TextType::HeadingOl, 0, vec![t("Two")]),
    ]);
    let out = golden("headings", &d);
    let root = parse(&out.value);
    let hauptteil = &root.children.last().unwrap().children[0];
    assert_eq!(hauptteil.children.len(), 4, "leading, One, empty, Two");
    assert!(
        hauptteil.children[0]
            .children
            .iter()
            .all(|c| c.name == "abs")
    );
    assert!(out.value.contains("<zaehler>1.2</zaehler>"));
    assert!(out.value.contains("id=\"id-9_bad_id\""));
    assert_eq!(kinds(&out), [WarningKind::Repaired]);
}

#[test]
fn lists_nest_by_level_and_skipped_levels_are_marked() {
    let d = doc(vec![
        p(TextType::ListOl, 0, vec![t("one")]),
        p(TextType::ListOl, 2, vec![t("skips a level")]),
        p(TextType::ListUl, 1, vec![t("bullet")]),
        Block::Paragraph(Paragraph {
            indent: 2,
            ..Paragraph::new(TextType::Paragraph, vec![t("inside the bullet")])
        }),
        p(TextType::ListOl, 0, vec![t("two")]),
        p(TextType::Paragraph, 0, vec![t("between")]),
        Block::Paragraph(Paragraph {
            start: Some(5),
            restart: true,
            ..Paragraph::new(TextType::ListOl, vec![t("five")])
        }),
    ]);
    let out = golden("lists", &d);
    assert!(out.value.contains("<eintrag ebene-ueberspringen=\"ja\">"));
    assert_eq!(kinds(&out), [WarningKind::Lossy], "{:?}", out.warnings);
    assert!(out.warnings[0].message.contains("starting at 5"));
}

#[test]
fn tables_have_head_body_spans_and_captions() {
    let cell = |s: &str, colspan, rowspan| Cell {
        colspan,
        rowspan,
        header: false,
        blocks: vec![p(TextType::Paragraph, 0, vec![t(s)])],
        ..Cell::default()
    };
    let header = |s: &str| Cell {
        header: true,
        ..cell(s, 1, 1)
    };
    let d = doc(vec![with_id(
        Block::Table(Table {
            columns: vec![1.0, 1.0, 1.0],
            caption: Some("Zahlen".into()),
            rows: vec![
                Row {
                    header: true,
                    cells: vec![header("A"), header("B"), header("C")],
                    ..Row::default()
                },
                Row {
                    cells: vec![cell("wide", 2, 1), cell("tall", 1, 2)],
                    ..Row::default()
                },
                Row {
                    cells: vec![
                        Cell {
                            align: Some(Align::Right),
                            ..cell("right", 1, 1)
                        },
                        Cell {
                            blocks: vec![
                                p(TextType::ListUl, 0, vec![t("x")]),
                                p(TextType::ListUl, 0, vec![t("y")]),
                            ],
                            ..Cell::default()
                        },
                    ],
                    ..Row::default()
                },
                Row {
                    cells: vec![Cell::default(), cell("last", 2, 1)],
                    ..Row::default()
                },
            ],
            ..Table::default()
        }),
        "tab",
    )]);
    let out = golden("table", &d);
    assert!(out.value.contains("<tabelle id=\"tab\" nummeriert=\"ja\">"));
    assert!(out.value.contains("<td colspan=\"2\">"));
    assert!(out.value.contains("<td rowspan=\"2\">"));
    assert!(
        out.value
            .contains("<abs ausrichtung=\"rechts\">right</abs>")
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn images_carry_source_alt_caption_and_numbering() {
    let d = doc(vec![
        with_id(
            Block::Image(Image {
                media: "cat.png".into(),
                alt: Some("Eine Katze".into()),
                caption: Some("Die Katze".into()),
                ..Image::default()
            }),
            "fig",
        ),
        Block::Image(Image {
            media: "cat.png".into(),
            numbered: false,
            caption: Some("Unnumbered".into()),
            ..Image::default()
        }),
        Block::Image(Image {
            media: "gone.png".into(),
            caption: Some("Caption of a missing image".into()),
            ..Image::default()
        }),
        p(
            TextType::Paragraph,
            0,
            vec![
                t("Inline "),
                Inline::Image {
                    media: "cat.png".into(),
                    caption: None,
                    alt: Some("cat".into()),
                },
                t(" and "),
                Inline::CrossRef {
                    target: "fig".into(),
                    number: true,
                    text: false,
                },
            ],
        ),
    ]);
    let out = golden("image", &d);
    assert_eq!(out.value.matches("quelle=\"images/cat.png\"").count(), 3);
    assert!(
        out.value
            .contains("<verweis verweis-intern=\"fig\">Figure 1</verweis>")
    );
    assert_eq!(kinds(&out), [WarningKind::MissingMedia]);
    // The language names the figure.
    let de = write_xml(&d, &ParsxOptions::default().with_language(Language::De)).value;
    assert!(de.contains(">Abbildung 1</verweis>"));
}

#[test]
fn inline_formatting_links_and_notes() {
    let s = |style, x: &str| Inline::styled(style, vec![t(x)]);
    let d = doc(vec![
        with_id(p(TextType::HeadingOl, 0, vec![t("Target")]), "target"),
        Block::Paragraph(Paragraph {
            align: Align::Center,
            ..Paragraph::new(
                TextType::Paragraph,
                normalize(&[
                    s(TextStyle::Bold, "fett "),
                    Inline::styled(TextStyle::Bold, vec![s(TextStyle::Italic, "beides")]),
                    s(TextStyle::Underline, " u"),
                    s(TextStyle::Strike, " s"),
                    s(TextStyle::Superscript, " hoch"),
                    s(TextStyle::Subscript, " tief"),
                    s(TextStyle::SmallCaps, " kap"),
                    s(TextStyle::Code, " <code>"),
                    Inline::Link {
                        href: "https://example.org/?a=1&b=2".into(),
                        children: vec![t(" extern")],
                    },
                    Inline::Link {
                        href: "#target".into(),
                        children: vec![t(" intern")],
                    },
                    Inline::Link {
                        href: "#nowhere".into(),
                        children: vec![t(" dangling")],
                    },
                    Inline::CrossRef {
                        target: "target".into(),
                        number: true,
                        text: true,
                    },
                    Inline::Note {
                        kind: NoteKind::Footnote,
                        content: vec![
                            t("Fuß"),
                            Inline::LineBreak,
                            t("zweiter Absatz"),
                            Inline::Note {
                                kind: NoteKind::Footnote,
                                content: vec![t("innen")],
                            },
                        ],
                    },
                    Inline::Note {
                        kind: NoteKind::Endnote,
                        content: vec![s(TextStyle::Bold, "End")],
                    },
                    Inline::Note {
                        kind: NoteKind::Sidenote,
                        content: vec![t("Rand")],
                    },
                    t(" Zeile"),
                    Inline::LineBreak,
                    t("neue Zeile"),
                ]),
            )
        }),
    ]);
    let out = golden("inline", &d);
    for needle in [
        "<fett>fett <kursiv>beides</kursiv></fett>",
        "<unterstr> u</unterstr>",
        "<code> &lt;code&gt;</code>",
        "verweis-extern=\"https://example.org/?a=1&amp;b=2\"",
        "<verweis verweis-intern=\"target\"> intern</verweis>",
        "<verweis verweis-intern=\"target\">1 Target</verweis>",
        "<fussnote><abs>Fuß</abs><abs>zweiter Absatz (innen)</abs></fussnote>",
        "<endnote><abs><fett>End</fett></abs></endnote>",
        "ausrichtung=\"zentriert\"",
    ] {
        assert!(out.value.contains(needle), "{needle}\n{}", out.value);
    }
    let k = kinds(&out);
    assert!(k.contains(&WarningKind::Dropped), "dangling link: {k:?}");
    assert_eq!(
        k.iter().filter(|k| **k == WarningKind::Lossy).count(),
        3,
        "nested note, sidenote, line break: {:?}",
        out.warnings
    );
}

#[test]
fn changes_comments_breaks_and_directories_warn_once_each() {
    let change = |kind| Change {
        kind,
        author: Some("A".into()),
        date: None,
    };
    let mut d = doc(vec![
        p(
            TextType::Paragraph,
            0,
            vec![
                t("kept "),
                Inline::Tracked {
                    change: change(ChangeKind::Insert),
                    children: vec![t("inserted")],
                },
                Inline::Tracked {
                    change: change(ChangeKind::Delete),
                    children: vec![t("deleted")],
                },
                Inline::CommentStart { id: "c1".into() },
                Inline::Span {
                    style: "Zitat".into(),
                    children: vec![t(" styled")],
                },
                Inline::CommentEnd { id: "c1".into() },
                Inline::IndexMark { id: "i".into() },
            ],
        ),
        Block::PageBreak,
        Block::Directory {
            kind: DirectoryKind::Content,
        },
        p(
            TextType::Paragraph,
            0,
            vec![Inline::Tracked {
                change: change(ChangeKind::Delete),
                children: vec![t("more deleted")],
            }],
        ),
    ]);
    d.comments.push(Comment {
        id: "c1".into(),
        content: vec![t("a comment")],
        ..Comment::default()
    });
    let out = golden("changes", &d);
    assert!(out.value.contains("<abs>kept inserted styled</abs>"));
    assert!(!out.value.contains("deleted"));
    let mut k = kinds(&out);
    k.sort_by_key(|k| format!("{k:?}"));
    assert_eq!(
        k,
        [
            WarningKind::Dropped,
            WarningKind::Dropped,
            WarningKind::Dropped,
            WarningKind::Dropped,
            WarningKind::Lossy,
            WarningKind::Lossy
        ],
        "{:?}",
        out.warnings
    );
}

#[test]
fn an_empty_document_is_still_valid() {
    let out = golden("empty", &Document::new());
    assert!(
        out.value
            .contains("<kapitel>\n        <abs/>\n      </kapitel>")
    );
}

#[test]
fn zip_is_deterministic_and_the_facade_writes_it() {
    let d = doc(vec![Block::Image(Image {
        media: "cat.png".into(),
        ..Image::default()
    })]);
    let a = write(&d, &ParsxOptions::default()).unwrap().value;
    let b = sdconv::export(&d, Format::Parsx, &Default::default())
        .unwrap()
        .value;
    assert_eq!(a, b);
    assert!(Format::Parsx.can_write());
    let mut r = ZipReader::new(&a, &Limits::default()).unwrap();
    assert_eq!(r.names(), ["parsx.xml", "images/", "images/cat.png"]);
    assert_eq!(r.read("images/cat.png").unwrap(), PNG);
}

/// The parsX options are a field of `ExportOptions`: a caller that only has `export` (a
/// binding) sets the language there, and `export_to` takes the same.
#[test]
fn export_options_carry_the_parsx_options() {
    let d = doc(vec![p(TextType::Paragraph, 0, vec![t("Text")])]);
    let german = ParsxOptions::default().with_language(Language::De);
    let direct = write(&d, &german).unwrap().value;
    let mut options = sdconv::ExportOptions::default();
    options.parsx = german;
    let via_export = sdconv::export(&d, Format::Parsx, &options).unwrap().value;
    assert_eq!(via_export, direct);
    let streamed = sdconv::export_to(&d, Format::Parsx, &options, std::io::Cursor::new(vec![]))
        .unwrap()
        .value
        .into_inner();
    assert_eq!(streamed, direct);
    let xml = ZipReader::new(&via_export, &Limits::default())
        .unwrap()
        .read("parsx.xml")
        .unwrap();
    assert!(String::from_utf8(xml).unwrap().contains("xml:lang=\"de"));
}

#[test]
fn unsafe_media_names_are_renamed_inside_images() {
    let mut d = Document::new();
    d.media.add("../../etc/x.png", PNG.to_vec());
    d.media.add("a b.png", PNG.to_vec());
    d.blocks = vec![
        Block::Image(Image {
            media: "../../etc/x.png".into(),
            ..Image::default()
        }),
        Block::Image(Image {
            media: "a b.png".into(),
            ..Image::default()
        }),
    ];
    let out = checked(&d);
    assert!(out.value.contains("quelle=\"images/.._.._etc_x.png\""));
    assert!(out.value.contains("quelle=\"images/a_b.png\""));
    assert_eq!(kinds(&out), [WarningKind::Repaired, WarningKind::Repaired]);
}

// ----- generated trees -------------------------------------------------------------------------

fn word() -> impl Strategy<Value = String> {
    "[a-zäö <>&\"]{1,6}"
}

fn inline_leaf() -> impl Strategy<Value = Inline> {
    let style = prop::sample::select(vec![
        TextStyle::Code,
        TextStyle::SmallCaps,
        TextStyle::Bold,
        TextStyle::Italic,
        TextStyle::Underline,
        TextStyle::Strike,
        TextStyle::Subscript,
        TextStyle::Superscript,
    ]);
    let leaf = prop_oneof![
        4 => word().prop_map(Inline::text),
        1 => Just(Inline::LineBreak),
        1 => prop::sample::select(vec!["a", "b", "x y", "missing"]).prop_map(|id| Inline::CrossRef {
            target: id.into(),
            number: true,
            text: false
        }),
        1 => prop::sample::select(vec!["cat.png", "gone.png"]).prop_map(|m| Inline::Image {
            media: m.into(),
            caption: None,
            alt: None
        }),
    ];
    leaf.prop_recursive(3, 12, 3, move |inner| {
        prop_oneof![
            (style.clone(), prop::collection::vec(inner.clone(), 1..3))
                .prop_map(|(s, c)| Inline::styled(s, c)),
            (
                prop::sample::select(vec!["https://a.b", "#a", "#missing"]),
                prop::collection::vec(inner.clone(), 1..3)
            )
                .prop_map(|(h, c)| Inline::Link {
                    href: h.into(),
                    children: c
                }),
            (
                prop::sample::select(vec![NoteKind::Footnote, NoteKind::Endnote]),
                prop::collection::vec(inner, 1..3)
            )
                .prop_map(|(k, c)| Inline::Note {
                    kind: k,
                    content: c
                }),
        ]
    })
}

fn inline_content() -> impl Strategy<Value = Vec<Inline>> {
    prop::collection::vec(inline_leaf(), 0..4).prop_map(|v| normalize(&v))
}

fn gen_block() -> impl Strategy<Value = Block> {
    let id = prop::option::weighted(0.3, prop::sample::select(vec!["a", "b", "x y", "1"]));
    let kind = prop::sample::select(TextType::ALL.to_vec());
    let paragraph = (kind, 0u8..6, 0u8..3, id, inline_content()).prop_map(
        |(kind, level, indent, id, content)| {
            Block::Paragraph(Paragraph {
                level,
                indent,
                id: id.map(String::from),
                ..Paragraph::new(kind, content)
            })
        },
    );
    let image = (
        prop::sample::select(vec!["cat.png", "gone.png"]),
        prop::option::of(word()),
        any::<bool>(),
    )
        .prop_map(|(m, caption, numbered)| {
            Block::Image(Image {
                media: m.into(),
                caption,
                numbered,
                ..Image::default()
            })
        });
    // Tables: a grid of 1..4 columns; each row is a random partition into colspans.
    let table = (
        1usize..4,
        prop::collection::vec(prop::collection::vec(1u32..3, 1..4), 1..4),
        any::<bool>(),
        prop::option::of(word()),
        inline_content(),
    )
        .prop_map(|(width, rows, header, caption, content)| {
            let rows = rows
                .into_iter()
                .enumerate()
                .map(|(r, spans)| {
                    let mut cells = Vec::new();
                    let mut used = 0usize;
                    for s in spans {
                        let s = (s as usize).min(width - used);
                        if s == 0 {
                            break;
                        }
                        used += s;
                        cells.push(Cell {
                            colspan: s as u32,
                            blocks: vec![Block::Paragraph(Paragraph::new(
                                if cells.len() % 2 == 0 {
                                    TextType::Paragraph
                                } else {
                                    TextType::ListUl
                                },
                                content.clone(),
                            ))],
                            ..Cell::default()
                        });
                    }
                    Row {
                        header: header && r == 0,
                        cells,
                        ..Row::default()
                    }
                })
                .collect();
            Block::Table(Table {
                columns: vec![1.0; width],
                rows,
                caption,
                ..Table::default()
            })
        });
    prop_oneof![
        6 => paragraph,
        1 => image,
        1 => table,
        1 => Just(Block::PageBreak),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Whatever the tree, the output is well-formed and keeps every structural rule.
    #[test]
    fn generated_trees_keep_the_rules(blocks in prop::collection::vec(gen_block(), 0..12)) {
        let d = doc(blocks);
        checked(&d);
    }
}

/// Breaks at the start and end of a paragraph leave no empty lines, however many there are
/// (they were taken off the front one at a time, which took time growing with their square).
#[test]
fn many_leading_and_trailing_breaks_leave_one_line() {
    let mut content = vec![Inline::LineBreak; 50_000];
    content.push(t("Zeile"));
    content.extend(vec![Inline::LineBreak; 3]);
    let out = checked(&doc(vec![p(TextType::Paragraph, 0, content)]));
    assert_eq!(out.value.matches("Zeile").count(), 1, "{}", out.value);
    assert!(!out.value.contains("<abs/>"), "{}", out.value);
    assert!(!out.value.contains("<abs></abs>"), "{}", out.value);
    // Breaks alone: one empty paragraph is what is left.
    let out = checked(&doc(vec![p(
        TextType::Paragraph,
        0,
        vec![Inline::LineBreak; 40_000],
    )]));
    assert_eq!(out.value.matches("<abs").count(), 1, "{}", out.value);
}
