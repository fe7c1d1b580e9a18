//! The sd.xml reader: the real samples of `../shared/corpus/sdxml` against golden tree dumps,
//! hand-built fixtures for each element, attribute and extension PI, and hostile input.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use sdconv::ast::{
    Align, Block, Cell, DirectoryKind, Inline, Mark, NoteKind, Paragraph, Table, TextStyle,
    TextType, VAlign,
};
use sdconv::import::sdxml::{SdxmlImportOptions, read, read_xml};
use sdconv::internal::archive::{Compression, ZipWriter};
use sdconv::internal::sdxml_ext::Ext;
use sdconv::{Document, Error, Warning, WarningKind};

// ----- helpers ------------------------------------------------------------------------------

fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/sdxml");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: {} is absent", dir.display());
        None
    }
}

fn opts() -> SdxmlImportOptions {
    SdxmlImportOptions::default()
}

/// Reads bare XML with the given images available.
fn xml_with(xml: &str, images: &[(&str, &[u8])]) -> sdconv::Result<sdconv::Converted<Document>> {
    let map: HashMap<String, Bytes> = images
        .iter()
        .map(|(n, b)| (n.to_string(), Bytes::copy_from_slice(b)))
        .collect();
    read_xml(xml.as_bytes(), &mut |n| map.get(n).cloned(), &opts())
}

/// Wraps body XML in a minimal document and reads it; the tree must validate.
fn body(inner: &str) -> (Document, Vec<Warning>) {
    let xml = format!("<smashdoc><document>{inner}</document></smashdoc>");
    let out = xml_with(&xml, &[]).unwrap();
    assert_eq!(out.value.validate(), Ok(()), "{xml}");
    (out.value, out.warnings)
}

fn kinds(w: &[Warning]) -> Vec<WarningKind> {
    w.iter().map(|w| w.kind).collect()
}

fn has(w: &[Warning], kind: WarningKind, text: &str) -> bool {
    w.iter().any(|w| w.kind == kind && w.message.contains(text))
}

fn para(b: &Block) -> &Paragraph {
    match b {
        Block::Paragraph(p) => p,
        other => panic!("not a paragraph: {other:?}"),
    }
}

fn table(b: &Block) -> &Table {
    match b {
        Block::Table(t) => t,
        other => panic!("not a table: {other:?}"),
    }
}

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn styled(style: TextStyle, children: Vec<Inline>) -> Inline {
    Inline::styled(style, children)
}

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = ZipWriter::new();
    for (name, bytes) in entries {
        w.add(name, bytes, Compression::Deflate).unwrap();
    }
    w.finish().unwrap()
}

/// Compares `doc`'s JSON dump with `tests/golden/sdxml/<name>.json`; `UPDATE_GOLDEN=1` rewrites it.
fn golden(name: &str, doc: &Document) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/sdxml")
        .join(format!("{name}.json"));
    let json = doc.to_json() + "\n";
    if std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &json).unwrap();
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_GOLDEN=1)", path.display()));
    assert!(want == json, "{name}: tree differs from {}", path.display());
}

fn notes(doc: &Document) -> Vec<(NoteKind, String)> {
    let mut out = Vec::new();
    doc.walk_inlines(&mut |i| {
        if let Inline::Note { kind, content } = i {
            out.push((*kind, sdconv::ast::inline::plain_text(content)));
        }
    });
    out
}

fn links(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    doc.walk_inlines(&mut |i| {
        if let Inline::Link { href, .. } = i {
            out.push(href.to_string());
        }
    });
    out
}

// ----- the real samples ---------------------------------------------------------------------

#[test]
fn real_export_2018_minimal() {
    let Some(dir) = shared() else { return };
    let bytes = std::fs::read(dir.join("export-2018-minimal.zip")).unwrap();
    let out = read(&bytes, &opts()).unwrap();
    let doc = &out.value;
    assert_eq!(doc.validate(), Ok(()));
    golden("export-2018-minimal", doc);
    assert_eq!(doc.meta.generator.as_deref(), Some("2.6.1.1"));
    assert_eq!(
        doc.meta.id.as_deref(),
        Some("39ca2c35-a814-4a27-a249-4d4a07ed1be4")
    );
    assert_eq!(doc.meta.title.as_deref(), Some("My document"));
    assert_eq!(doc.meta.filename.as_deref(), Some("My document"));
    assert_eq!(doc.meta.language.as_deref(), Some("de_DE"));
    assert_eq!(doc.meta.creator.as_deref(), Some("Henry Miller"));
    // `<subtitle></subtitle>` and `<footer></footer>` are empty: None.
    assert_eq!(doc.meta.subtitle, None);
    assert_eq!(doc.meta.footer, None);
    assert!(doc.meta.tags.is_empty());
    assert_eq!(doc.blocks.len(), 1);
    let p = para(&doc.blocks[0]);
    assert_eq!(p.content, vec![t("test")]);
    assert_eq!(p.origin_ids, p.id);
    assert!(doc.indexes.is_empty());
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn real_export_2017_table_image() {
    let Some(dir) = shared() else { return };
    let bytes = std::fs::read(dir.join("export-2017-table-image.zip")).unwrap();
    let out = read(&bytes, &opts()).unwrap();
    let doc = &out.value;
    assert_eq!(doc.validate(), Ok(()));
    golden("export-2017-table-image", doc);
    for w in &out.warnings {
        eprintln!("{:?}: {w}", w.kind);
    }
    // Three paragraphs with indents 0, 1, 2.
    let indents: Vec<u8> = doc.blocks[..3].iter().map(|b| para(b).indent).collect();
    assert_eq!(indents, [0, 1, 2]);
    // The nested legacy ul/li list: six items at depths 0 1 2 1 1 0.
    let items: Vec<(TextType, u8)> = doc.blocks[3..9]
        .iter()
        .map(|b| (para(b).kind, para(b).level))
        .collect();
    assert_eq!(
        items,
        [0, 1, 2, 1, 1, 0].map(|l| (TextType::ListUl, l)).to_vec()
    );
    // The 5×5 table: th header row, th first column, <font size> cells.
    let tab = table(&doc.blocks[9]);
    assert_eq!(tab.columns, vec![20.0; 5]);
    assert_eq!(tab.width_percent, Some(92.0));
    assert_eq!(tab.align, Align::Center);
    assert_eq!(tab.caption, None);
    assert_eq!(tab.border_color.as_deref(), Some("#000000"));
    assert_eq!(tab.rows.len(), 5);
    assert!(tab.rows[0].header && !tab.rows[1].header);
    assert!(tab.rows[0].cells.iter().all(|c| c.header));
    assert!(tab.rows[1].cells[0].header && !tab.rows[1].cells[1].header);
    let c = &tab.rows[1].cells[1];
    assert_eq!(c.font_size.as_deref(), Some("9.750243756093903pt"));
    assert_eq!(c.borders.top, Some(true));
    assert_eq!(c.valign, Some(VAlign::Top));
    assert_eq!(para(&c.blocks[0]).content, vec![t("2")]);
    assert_eq!(
        tab.rows[0].min_height.as_deref(),
        Some("6.348758718967975mm")
    );
    // The image: 46 %, centred, its PNG in the media store.
    let Block::Image(img) = &doc.blocks[10] else {
        panic!("no image")
    };
    assert_eq!(img.width_percent, Some(46.0));
    assert_eq!(img.align, Align::Center);
    assert!(img.numbered);
    let item = doc.media.get(&img.media).unwrap();
    assert_eq!(item.size, 2_435_390);
    assert_eq!(item.kind, sdconv::ast::MediaKind::Png);
    assert_eq!(doc.blocks.len(), 14);
    assert_eq!(
        kinds(&out.warnings),
        [WarningKind::LegacyForm, WarningKind::LegacyForm]
    );
    assert!(has(&out.warnings, WarningKind::LegacyForm, "(6 times)"));
    assert!(has(&out.warnings, WarningKind::LegacyForm, "(25 times)"));
}

#[test]
fn real_export_2017_footnotes() {
    let Some(dir) = shared() else { return };
    let dir = dir.join("export-2017-footnotes");
    let xml = std::fs::read(dir.join("sd.xml")).unwrap();
    let png = std::fs::read(dir.join("images/3b15c5786848d9ab3447d26e83984df0.png")).unwrap();
    let zip = zip_of(&[
        ("sd.xml", &xml),
        ("images/3b15c5786848d9ab3447d26e83984df0.png", &png),
    ]);
    let out = read(&zip, &opts()).unwrap();
    let doc = &out.value;
    assert_eq!(doc.validate(), Ok(()));
    golden("export-2017-footnotes", doc);
    for w in &out.warnings {
        eprintln!("{:?}: {w}", w.kind);
    }
    let notes = notes(doc);
    assert_eq!(notes.len(), 38);
    assert!(notes.iter().all(|(k, _)| *k == NoteKind::Footnote));
    // The data-content text is kept exactly, leading space included.
    assert!(
        notes[0].1.starts_with(" Valeria Rosati (Hg.)"),
        "{:?}",
        notes[0]
    );
    let headings: Vec<&Paragraph> = doc
        .blocks
        .iter()
        .map(para)
        .filter(|p| p.kind.is_heading())
        .collect();
    assert_eq!(headings.len(), 5);
    assert!(
        headings
            .iter()
            .all(|h| h.kind == TextType::Heading && h.level == 1)
    );
    let links = links(doc);
    assert_eq!(links.len(), 23);
    assert!(links.contains(&"#absatz1".to_string()));
    assert!(links.iter().all(|l| l.starts_with("#absatz")), "{links:?}");
    // The unreferenced image in images/ is not stored.
    assert!(doc.media.is_empty());
    assert_eq!(
        kinds(&out.warnings),
        [WarningKind::Repaired, WarningKind::LegacyForm]
    );
    assert!(has(&out.warnings, WarningKind::LegacyForm, "(38 times)"));
    assert!(has(&out.warnings, WarningKind::Repaired, "(23 times)"));
}

// ----- meta and document attributes ---------------------------------------------------------

#[test]
fn meta_fields_all_read() {
    let xml = r#"<smashdoc version="2.26" id="doc-1"><meta>
        <language value="en_EN"/><title>T</title><filename>f.docx</filename>
        <subtitle>S</subtitle><description>D</description><footer>F</footer>
        <creator>C</creator><tags><tag>a</tag><tag></tag><tag>b</tag></tags>
        <word-export-presets template_id="tpl" language="en_US" toc_text="1" toc_image="0"
          toc_table="1" caption_image="1" caption_table="0"><tag>w</tag></word-export-presets>
        <grid><item>10</item><item>20</item></grid>
        <grid-indentation-enabled>1</grid-indentation-enabled>
        <spellcheck-lang>de</spellcheck-lang>
      </meta><document/></smashdoc>"#;
    let out = xml_with(xml, &[]).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let m = &out.value.meta;
    assert_eq!(m.id.as_deref(), Some("doc-1"));
    assert_eq!(m.generator.as_deref(), Some("2.26"));
    assert_eq!(m.language.as_deref(), Some("en_EN"));
    assert_eq!(m.title.as_deref(), Some("T"));
    assert_eq!(m.filename.as_deref(), Some("f.docx"));
    assert_eq!(m.subtitle.as_deref(), Some("S"));
    assert_eq!(m.description.as_deref(), Some("D"));
    assert_eq!(m.footer.as_deref(), Some("F"));
    assert_eq!(m.creator.as_deref(), Some("C"));
    assert_eq!(m.tags, ["a", "b"]);
    let p = m.word_export_presets.as_ref().unwrap();
    assert_eq!(p.template_id, "tpl");
    assert_eq!(p.language, "en_US");
    assert!(p.toc_text && !p.toc_image && p.toc_table && p.caption_image && !p.caption_table);
    assert_eq!(p.tags, ["w"]);
    assert_eq!(m.grid, ["10", "20"]);
    assert_eq!(m.grid_indentation_enabled.as_deref(), Some("1"));
    assert_eq!(m.spellcheck_lang.as_deref(), Some("de"));
}

#[test]
fn empty_meta_strings_are_none_and_bad_flags_warn() {
    let xml = r#"<smashdoc id=""><meta><title></title><subtitle/><description/><footer/>
        <creator/><word-export-presets template_id="" language="de_DE" toc_text="yes"
        toc_image="0" toc_table="0" caption_image="0" caption_table="0"/></meta>
        <document/></smashdoc>"#;
    let out = xml_with(xml, &[]).unwrap();
    let m = &out.value.meta;
    assert_eq!(
        (m.id.as_ref(), m.title.as_ref(), m.creator.as_ref()),
        (None, None, None)
    );
    assert!(!m.word_export_presets.as_ref().unwrap().toc_text);
    assert_eq!(kinds(&out.warnings), [WarningKind::InvalidValue]);
    assert!(out.warnings[0].message.contains("toc_text"));
}

// ----- paragraphs, headings, lists ----------------------------------------------------------

#[test]
fn headings_and_paragraph_attributes() {
    let (doc, w) = body(
        r#"<heading level="2" indent="1" alignment="right" id="h1" origin_ids="o1"
              stylename="quick_heading_1">A</heading>
           <heading enumeration="3" restartNumbering="1">B</heading>
           <paragraph indent="4" alignment="justify" stylename="Quote" id="p1">C</paragraph>
           <paragraph indent="0" enumeration="1">D</paragraph>
           <heading level="9">E</heading>
           <paragraph indent="0" alignment="middle">F</paragraph>"#,
    );
    let p: Vec<&Paragraph> = doc.blocks.iter().map(para).collect();
    assert_eq!(
        (p[0].kind, p[0].level, p[0].indent),
        (TextType::Heading, 2, 1)
    );
    assert_eq!(p[0].align, Align::Right);
    assert_eq!(p[0].id.as_deref(), Some("h1"));
    assert_eq!(p[0].origin_ids.as_deref(), Some("o1"));
    assert_eq!(p[0].style.as_deref(), Some("quick_heading_1"));
    assert_eq!(
        (p[1].kind, p[1].level, p[1].restart),
        (TextType::HeadingOl, 3, true)
    );
    assert_eq!(
        (p[2].kind, p[2].indent, p[2].align),
        (TextType::Paragraph, 4, Align::Justify)
    );
    assert_eq!(p[2].style.as_deref(), Some("Quote"));
    assert_eq!((p[3].kind, p[3].level), (TextType::ParagraphOl, 1));
    // Bad values: defaults and a warning each.
    assert_eq!((p[4].kind, p[4].level), (TextType::Heading, 0));
    assert_eq!(p[5].align, Align::Left);
    assert_eq!(
        kinds(&w),
        [WarningKind::InvalidValue, WarningKind::InvalidValue]
    );
    assert!(w[0].message.contains("\"9\"") && w[0].message.contains("level"));
    assert!(w[1].message.contains("\"middle\""));
    assert_eq!(
        w[1].location.element.as_deref(),
        Some("smashdoc/document/paragraph@alignment")
    );
    assert_eq!(w[1].location.block, Some(5));
}

#[test]
fn list_items_take_their_depth_from_indent() {
    let (doc, w) = body(
        r#"<ol-li indent="0" list-id="L1">a</ol-li>
           <ol-li indent="2" list-id="L1" id="x">b</ol-li>
           <ul-li indent="5">c</ul-li>
           <ul-li indent="7">d</ul-li>
           <ul-li indent="9">e</ul-li>
           <ol-li restartNumbering="1" alignment="left">f</ol-li>"#,
    );
    let p: Vec<(TextType, u8)> = doc
        .blocks
        .iter()
        .map(|b| (para(b).kind, para(b).level))
        .collect();
    assert_eq!(
        p,
        [
            (TextType::ListOl, 0),
            (TextType::ListOl, 2),
            (TextType::ListUl, 5),
            (TextType::ListUl, 5),
            (TextType::ListUl, 5),
            (TextType::ListOl, 0)
        ]
    );
    assert_eq!(para(&doc.blocks[0]).list_id.as_deref(), Some("L1"));
    assert_eq!(para(&doc.blocks[1]).indent, 0);
    assert!(para(&doc.blocks[5]).restart);
    // Two items deeper than 5: one aggregated warning with a count.
    assert_eq!(kinds(&w), [WarningKind::Lossy]);
    assert!(w[0].message.contains("(2 times)"), "{}", w[0].message);
}

// ----- inline content -----------------------------------------------------------------------

#[test]
fn inline_marks_nest_canonically_and_keep_whitespace() {
    let (doc, w) = body(
        r#"<paragraph indent="0">  a <i><b>bi</b></i><b><i>bi</i></b> <u>u</u><s>s</s><sub>2</sub><sup>3</sup><kbd>k</kbd><sd-sc>sc</sd-sc>
</paragraph>"#,
    );
    assert!(w.is_empty(), "{w:?}");
    use TextStyle::*;
    assert_eq!(
        para(&doc.blocks[0]).content,
        vec![
            t("  a "),
            styled(Bold, vec![styled(Italic, vec![t("bibi")])]),
            t(" "),
            styled(Underline, vec![t("u")]),
            styled(Strike, vec![t("s")]),
            styled(Subscript, vec![t("2")]),
            styled(Superscript, vec![t("3")]),
            styled(Code, vec![t("k")]),
            styled(SmallCaps, vec![t("sc")]),
            t("\n"),
        ]
    );
}

#[test]
fn inline_atoms_links_and_styles() {
    let xml = r##"<smashdoc><document><paragraph indent="0" id="p1">see <a href="https://x.org/?a=1&amp;b=2"><b>site</b></a>
        <xref href="#p1" data-num-enabled="1" data-content-enabled="0"/>
        <footnote>fn <i>text</i><br/>two</footnote><sidenote>side</sidenote>
        <img filename="pic.png" caption="Cap"/><inline stylename="Emph">styled</inline>
        <index data-id="ix1"/>x<br/>y</paragraph></document>
        <indexes><index-node id="ix1" title="Alpha" target-reference-id="p1" description="d" sorting-key="a">
          <index-node id="ix2" title="Beta"/></index-node><index-node id="ix3" title="Gamma"/></indexes></smashdoc>"##;
    let out = xml_with(xml, &[("pic.png", b"\x89PNG\r\n\x1a\n")]).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    let c = &para(&doc.blocks[0]).content;
    assert_eq!(c[0], t("see "));
    assert_eq!(
        c[1],
        Inline::Link {
            href: "https://x.org/?a=1&b=2".into(),
            children: vec![styled(TextStyle::Bold, vec![t("site")])]
        }
    );
    assert!(c.contains(&Inline::CrossRef {
        target: "p1".into(),
        number: true,
        text: false
    }));
    assert!(c.contains(&Inline::Note {
        kind: NoteKind::Footnote,
        content: vec![
            t("fn "),
            styled(TextStyle::Italic, vec![t("text")]),
            Inline::LineBreak,
            t("two")
        ]
    }));
    assert!(c.contains(&Inline::Note {
        kind: NoteKind::Sidenote,
        content: vec![t("side")]
    }));
    assert!(c.contains(&Inline::Image {
        media: "pic.png".into(),
        caption: Some("Cap".into()),
        alt: None
    }));
    assert!(c.contains(&Inline::Span {
        style: "Emph".into(),
        children: vec![t("styled")]
    }));
    assert!(c.contains(&Inline::IndexMark { id: "ix1".into() }));
    assert_eq!(c[c.len() - 3..], [t("x"), Inline::LineBreak, t("y")]);
    assert!(doc.media.contains("pic.png"));
    assert_eq!(doc.indexes.len(), 2);
    let a = &doc.indexes[0];
    assert_eq!((a.id.as_str(), a.title.as_str()), ("ix1", "Alpha"));
    assert_eq!(a.target.as_deref(), Some("p1"));
    assert_eq!(a.description.as_deref(), Some("d"));
    assert_eq!(a.sorting_key.as_deref(), Some("a"));
    assert_eq!(a.children[0].id, "ix2");
    assert_eq!(doc.indexes[1].title, "Gamma");
}

#[test]
fn images_and_missing_media() {
    let xml = r#"<smashdoc><document>
        <image width="46.00%" indent="2" caption="A cat" num-enabled="0" alignment="right"
          stylename="Fig" id="i1" origin_ids="o">cat.png</image>
        <image>gone.png</image><image width="150%">cat.png</image>
        <paragraph indent="0"><img filename="gone.png" caption=""/></paragraph>
      </document></smashdoc>"#;
    let out = xml_with(xml, &[("cat.png", b"GIF89a\x10\x00\x20\x00")]).unwrap();
    let doc = &out.value;
    let Block::Image(img) = &doc.blocks[0] else {
        panic!()
    };
    assert_eq!(img.media, "cat.png");
    assert_eq!(img.width_percent, Some(46.0));
    assert_eq!(img.indent, 2);
    assert_eq!(img.caption.as_deref(), Some("A cat"));
    assert!(!img.numbered);
    assert_eq!(img.align, Align::Right);
    assert_eq!(img.style.as_deref(), Some("Fig"));
    assert_eq!(
        (img.id.as_deref(), img.origin_ids.as_deref()),
        (Some("i1"), Some("o"))
    );
    assert_eq!(doc.media.get("cat.png").unwrap().width, Some(16));
    let Block::Image(bad) = &doc.blocks[2] else {
        panic!()
    };
    assert_eq!(bad.width_percent, None);
    // The missing image: one warning per name (block and inline share it), name kept.
    let Block::Image(gone) = &doc.blocks[1] else {
        panic!()
    };
    assert_eq!(gone.media, "gone.png");
    assert_eq!(
        kinds(&out.warnings),
        [WarningKind::InvalidValue, WarningKind::MissingMedia]
    );
    assert!(out.warnings[1].message.contains("gone.png"));
    // Expected: validate() reports the missing media (and only that), twice: block and inline.
    let errs = doc.validate().unwrap_err();
    assert_eq!(errs.len(), 2, "{errs:?}");
    assert!(errs.iter().all(|e| e.message.contains("gone.png")));
}

// ----- tables -------------------------------------------------------------------------------

#[test]
fn tables_with_spans_borders_and_cell_content() {
    let (doc, w) = body(
        r##"<table caption="Tab" width="80%" alignment="center" num-enabled="0" border-color="#ff0000"
              indent="1" stylename="Grid" id="t1" origin_ids="o">
            <column_width><item>50%</item><item>25%</item><item>25%</item></column_width>
            <tr row-id="r0" min-height="5mm"><th colspan="2">h</th><th>h2</th></tr>
            <tr><td rowspan="2" col-ids="c1" border-top="1" border-right="0" border-bottom="1" border-left="0"
                  font-size="9pt" text-align="center" vertical-align="middle" background-color="#00ff00"
                  background-intensity="50">
                  <p>one</p><ol-li indent="1">item</ol-li><ul-li>bullet</ul-li></td>
                <td>a</td><td><p>b</p></td></tr>
            <tr><td colspan="2"><p>c</p></td></tr>
          </table>"##,
    );
    let tab = table(&doc.blocks[0]);
    assert_eq!(tab.columns, vec![50.0, 25.0, 25.0]);
    assert_eq!(tab.caption.as_deref(), Some("Tab"));
    assert_eq!(tab.width_percent, Some(80.0));
    assert_eq!(
        (tab.align, tab.numbered, tab.indent),
        (Align::Center, false, 1)
    );
    assert_eq!(tab.border_color.as_deref(), Some("#ff0000"));
    assert_eq!(tab.style.as_deref(), Some("Grid"));
    assert_eq!(
        (tab.id.as_deref(), tab.origin_ids.as_deref()),
        (Some("t1"), Some("o"))
    );
    assert!(tab.rows[0].header && !tab.rows[1].header);
    assert_eq!(tab.rows[0].id.as_deref(), Some("r0"));
    assert_eq!(tab.rows[0].min_height.as_deref(), Some("5mm"));
    assert_eq!(tab.rows[0].cells[0].colspan, 2);
    let c: &Cell = &tab.rows[1].cells[0];
    assert_eq!((c.rowspan, c.header), (2, false));
    assert_eq!(c.col_ids.as_deref(), Some("c1"));
    assert_eq!(
        (
            c.borders.top,
            c.borders.right,
            c.borders.bottom,
            c.borders.left
        ),
        (Some(true), Some(false), Some(true), Some(false))
    );
    assert_eq!(c.font_size.as_deref(), Some("9pt"));
    assert_eq!(
        (c.align, c.valign),
        (Some(Align::Center), Some(VAlign::Middle))
    );
    assert_eq!(c.background.as_deref(), Some("#00ff00"));
    assert_eq!(c.background_intensity.as_deref(), Some("50"));
    let kinds_in_cell: Vec<(TextType, u8)> = c
        .blocks
        .iter()
        .map(|b| (para(b).kind, para(b).level))
        .collect();
    assert_eq!(
        kinds_in_cell,
        [
            (TextType::Paragraph, 0),
            (TextType::ListOl, 1),
            (TextType::ListUl, 0)
        ]
    );
    // Bare text in a td: a cell paragraph, reported as the old form.
    assert_eq!(para(&tab.rows[1].cells[1].blocks[0]).content, vec![t("a")]);
    assert_eq!(kinds(&w), [WarningKind::LegacyForm]);
}

#[test]
fn bad_and_hostile_spans_are_repaired() {
    let (doc, w) = body(
        r#"<table><column_width><item>50%</item><item>50%</item></column_width>
            <tr><td colspan="0">a</td><td rowspan="x">b</td><td rowspan="99">c</td></tr>
            <tr><td colspan="99999999999">d</td></tr></table>"#,
    );
    let tab = table(&doc.blocks[0]);
    assert_eq!(tab.rows[0].cells[0].colspan, 1);
    assert_eq!(tab.rows[0].cells[1].rowspan, 1);
    // Cut at the table's end.
    assert_eq!(tab.rows[0].cells[2].rowspan, 2);
    // Clamped to the most columns a table may have; widths padded to the grid (the row span
    // from above covers column 2 of the second row, which starts at column 0 all the same).
    assert_eq!(tab.rows[1].cells[0].colspan, 1000);
    assert_eq!(tab.columns.len(), 1000);
    assert_eq!(tab.columns[999], 50.0);
    let k = kinds(&w);
    assert!(
        k.iter()
            .all(|k| *k == WarningKind::InvalidValue || *k == WarningKind::LegacyForm)
    );
    assert!(has(&w, WarningKind::InvalidValue, "colspan"));
    assert!(has(&w, WarningKind::InvalidValue, "rowspan"));
    assert!(has(
        &w,
        WarningKind::InvalidValue,
        "past the table's last row"
    ));
    assert!(has(&w, WarningKind::InvalidValue, "the rows need 1000"));
}

#[test]
fn table_grid_wider_than_the_limit_is_refused() {
    let cells = r#"<td colspan="1000">x</td>"#.repeat(2);
    let xml = format!("<smashdoc><document><table><tr>{cells}</tr></table></document></smashdoc>");
    let err = xml_with(&xml, &[]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                what: "table columns",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn page_breaks_and_directories() {
    let kinds_xml: String = DirectoryKind::ALL
        .iter()
        .map(|k| format!(r#"<directory type="{}"/>"#, k.as_str()))
        .collect();
    let (doc, w) = body(&format!(
        r#"<pagebreak/>{kinds_xml}<directory type="toc"/>"#
    ));
    assert_eq!(doc.blocks[0], Block::PageBreak);
    let dirs: Vec<DirectoryKind> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Directory { kind } => Some(*kind),
            _ => None,
        })
        .collect();
    assert_eq!(dirs, DirectoryKind::ALL);
    assert_eq!(doc.blocks.len(), 8);
    assert!(w.iter().all(|w| w.kind == WarningKind::InvalidValue));
    assert!(has(&w, WarningKind::InvalidValue, "\"toc\""));
}

// ----- 2.2x and legacy forms ----------------------------------------------------------------

#[test]
fn ordered_sections_with_attached_footnotes_in_order() {
    let (doc, w) = body(
        r#"<ordered-sections><heading level="0">H</heading>
             <paragraph indent="0" stylename="quick_heading_1_numbered">a<footnote/> b<footnote/></paragraph>
           </ordered-sections>
           <attached-sections><paragraph indent="0">first</paragraph><paragraph indent="0">second <b>two</b></paragraph></attached-sections>"#,
    );
    assert_eq!(doc.blocks.len(), 2);
    let n = notes(&doc);
    assert_eq!(
        n,
        [
            (NoteKind::Footnote, "first".into()),
            (NoteKind::Footnote, "second two".into())
        ]
    );
    assert_eq!(kinds(&w), [WarningKind::Repaired]);
}

#[test]
fn attached_sections_that_do_not_match_are_appended() {
    let (doc, w) = body(
        r#"<ordered-sections><paragraph indent="0">a<footnote/></paragraph></ordered-sections>
           <attached-sections><paragraph indent="0">x</paragraph><paragraph indent="0">y</paragraph></attached-sections>"#,
    );
    let texts: Vec<String> = doc
        .blocks
        .iter()
        .map(|b| sdconv::ast::inline::plain_text(&para(b).content))
        .collect();
    assert_eq!(texts, ["a", "x", "y"]);
    assert_eq!(kinds(&w), [WarningKind::Lossy]);
    assert!(w[0].message.contains("2 blocks"));
}

#[test]
fn legacy_lists_nested_both_ways() {
    // Sibling nesting (the 2017 exports) and HTML-style nesting inside an li.
    let (doc, w) = body(
        r#"<ol indent="0"><li id="a">one</li><ul><li>two</li></ul></ol>
           <ul><li id="b">x<ol><li>y</li></ol>z</li></ul>"#,
    );
    let p: Vec<(TextType, u8, String)> = doc
        .blocks
        .iter()
        .map(|b| {
            let p = para(b);
            (p.kind, p.level, sdconv::ast::inline::plain_text(&p.content))
        })
        .collect();
    assert_eq!(
        p,
        [
            (TextType::ListOl, 0, "one".into()),
            (TextType::ListUl, 1, "two".into()),
            (TextType::ListUl, 0, "x".into()),
            (TextType::ListOl, 1, "y".into()),
            (TextType::ListUl, 0, "z".into()),
        ]
    );
    // The continuation of a split item does not repeat its id.
    assert_eq!(para(&doc.blocks[2]).id.as_deref(), Some("b"));
    assert_eq!(para(&doc.blocks[4]).id, None);
    assert_eq!(kinds(&w), [WarningKind::LegacyForm]);
    assert!(w[0].message.contains("(4 times)"), "{}", w[0].message);
}

#[test]
fn legacy_footnotes_fonts_and_field_links() {
    let (doc, w) = body(
        r#"<paragraph indent="0">a<footnote data-content=" one"/>b<footnote data-content="two"/>
           <a href=' HYPERLINK  \l "absatz1" '>1</a><a href=' HYPERLINK "http://x" '>2</a></paragraph>
           <table><tr><td><font size="9pt">cell</font></td><td><font size="8pt"/></td></tr></table>"#,
    );
    assert_eq!(
        notes(&doc),
        [
            (NoteKind::Footnote, " one".into()),
            (NoteKind::Footnote, "two".into())
        ]
    );
    assert_eq!(links(&doc), ["#absatz1", "http://x"]);
    let tab = table(&doc.blocks[1]);
    let c0 = &tab.rows[0].cells[0];
    assert_eq!(c0.font_size.as_deref(), Some("9pt"));
    assert_eq!(para(&c0.blocks[0]).content, vec![t("cell")]);
    let c1 = &tab.rows[0].cells[1];
    assert_eq!(c1.font_size.as_deref(), Some("8pt"));
    assert_eq!(para(&c1.blocks[0]).content, vec![]);
    // One warning per kind, with counts.
    assert_eq!(
        kinds(&w),
        [
            WarningKind::LegacyForm,
            WarningKind::Repaired,
            WarningKind::LegacyForm
        ]
    );
    assert!(w[0].message.contains("(2 times)"));
    assert!(w[1].message.contains("(2 times)"));
    assert!(w[2].message.contains("(2 times)"));
}

// ----- unknown elements and attributes ------------------------------------------------------

#[test]
fn unknown_elements_keep_their_text() {
    let (doc, w) = body(
        r#"<section><paragraph indent="0" foo="1" bar="2">a <em>emph</em> <em>again</em></paragraph>loose</section>
           <paragraph indent="0" foo="3">b</paragraph>
           <table><caption>lost</caption><tr><td><p>c</p></td></tr></table>"#,
    );
    let texts: Vec<String> = doc
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some(sdconv::ast::inline::plain_text(&p.content)),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["a emph again", "loose", "b"]);
    let unknown: Vec<&Warning> = w
        .iter()
        .filter(|w| w.kind == WarningKind::UnknownElement)
        .collect();
    assert_eq!(unknown.len(), 3, "{w:?}");
    assert!(
        unknown
            .iter()
            .any(|w| w.message.contains("<em>") && w.message.contains("(2 times)"))
    );
    assert!(unknown.iter().any(|w| w.message.contains("<section>")));
    assert!(
        unknown
            .iter()
            .any(|w| w.message.contains("<caption>") && w.message.contains("left out"))
    );
    let attrs: Vec<&Warning> = w
        .iter()
        .filter(|w| w.kind == WarningKind::UnknownAttribute)
        .collect();
    assert_eq!(attrs.len(), 2);
    assert!(attrs[0].message.contains("foo") && attrs[0].message.contains("(2 times)"));
    assert!(attrs[1].message.contains("bar"));
}

#[test]
fn repeated_ids_are_made_unique() {
    let (doc, w) = body(
        r#"<paragraph indent="0" id="x">a</paragraph><paragraph indent="0" id="x">b</paragraph>
           <paragraph indent="0" id="x">c</paragraph>"#,
    );
    let ids: Vec<_> = doc
        .blocks
        .iter()
        .map(|b| para(b).id.clone().unwrap())
        .collect();
    assert_eq!(ids, ["x", "x-2", "x-3"]);
    assert_eq!(kinds(&w), [WarningKind::Repaired]);
}

// ----- the <?sdconv?> extension -------------------------------------------------------------

fn fields(v: serde_json::Value) -> String {
    Ext::Fields(v.as_object().unwrap().clone()).to_pi()
}

#[test]
fn pi_fields_apply_to_every_node_kind() {
    let xml = format!(
        r#"<smashdoc><meta>{meta}<title>T</title></meta><document>
            <paragraph indent="0">{para}Cap</paragraph>
            <image>{image}a.png</image>
            <table>{table}<tr>{row_on}<td>{cell}<p>{p}x</p></td></tr>
              <tr><td><p>y</p></td></tr></table>
            <table><tr>{row_off}<th><p>h</p></th></tr><tr><th><p>h2</p></th></tr></table>
           </document></smashdoc>"#,
        meta = fields(serde_json::json!({"supplemental": "partner data"})),
        para = fields(
            serde_json::json!({"kind": "caption", "number_format": "lower_roman", "start": 3})
        ),
        image = fields(serde_json::json!({"alt": "A cat", "extent": {"width": 10, "height": 20}})),
        table = fields(serde_json::json!({"style": "FromPI"})),
        row_on = fields(serde_json::json!({"header": true})),
        cell = fields(serde_json::json!({"background": "#123456"})),
        p = fields(serde_json::json!({"align": "center"})),
        row_off = fields(serde_json::json!({"header": false})),
    );
    let out = xml_with(&xml, &[("a.png", b"\x89PNG\r\n\x1a\n")]).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    assert_eq!(doc.meta.supplemental.as_deref(), Some("partner data"));
    assert_eq!(doc.meta.title.as_deref(), Some("T"));
    let p = para(&doc.blocks[0]);
    assert_eq!(p.kind, TextType::Caption);
    assert_eq!(p.number_format, Some(sdconv::ast::NumberFormat::LowerRoman));
    assert_eq!(p.start, Some(3));
    assert_eq!(p.content, vec![t("Cap")]);
    let Block::Image(img) = &doc.blocks[1] else {
        panic!()
    };
    assert_eq!(img.alt.as_deref(), Some("A cat"));
    assert_eq!(img.extent.map(|e| e.height), Some(20));
    let tab = table(&doc.blocks[2]);
    assert_eq!(tab.style.as_deref(), Some("FromPI"));
    assert!(tab.rows[0].header, "td row made a header by its PI");
    assert!(!tab.rows[1].header);
    let c = &tab.rows[0].cells[0];
    assert_eq!(c.background.as_deref(), Some("#123456"));
    assert_eq!(para(&c.blocks[0]).align, Align::Center);
    // A leading th row whose PI says "not a header" stays one, and ends the header rows.
    let tab2 = table(&doc.blocks[3]);
    assert!(!tab2.rows[0].header && !tab2.rows[1].header);
}

#[test]
fn pi_marks_atoms_wrappers_and_comments() {
    let open_span = Ext::Open(Mark::Span("Quote".into())).to_pi();
    let open_link = Ext::Open(Mark::Link("https://u".into())).to_pi();
    let close = Ext::Close(None).to_pi();
    let wrapper = Ext::Wrapper(None).to_pi();
    let start = Ext::Inline(Inline::CommentStart { id: "c1".into() }).to_pi();
    let end = Ext::Inline(Inline::CommentEnd { id: "c1".into() }).to_pi();
    let comments = Ext::Comments(vec![sdconv::ast::Comment {
        id: "c1".into(),
        author: Some("Ann".into()),
        content: vec![t("a"), t("b")],
        ..Default::default()
    }])
    .to_pi();
    let xml = format!(
        r#"<smashdoc><document>{comments}
            <paragraph indent="0">a {open_span}b{close} c</paragraph>
            <paragraph indent="0"><b>x{open_link}y</b>z{close}</paragraph>
            <paragraph indent="0"><sup>{wrapper}p<br/>q</sup></paragraph>
            <paragraph indent="0">{start}commented{end}</paragraph>
           </document></smashdoc>"#
    );
    let out = xml_with(&xml, &[]).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    assert_eq!(
        para(&doc.blocks[0]).content,
        vec![
            t("a "),
            Inline::Span {
                style: "Quote".into(),
                children: vec![t("b")]
            },
            t(" c")
        ]
    );
    assert_eq!(
        para(&doc.blocks[1]).content,
        vec![
            styled(TextStyle::Bold, vec![t("x")]),
            Inline::Link {
                href: "https://u".into(),
                children: vec![styled(TextStyle::Bold, vec![t("y")]), t("z")]
            }
        ]
    );
    assert_eq!(
        para(&doc.blocks[2]).content,
        vec![t("p"), Inline::LineBreak, t("q")]
    );
    assert_eq!(
        para(&doc.blocks[3]).content,
        vec![
            Inline::CommentStart { id: "c1".into() },
            t("commented"),
            Inline::CommentEnd { id: "c1".into() }
        ]
    );
    assert_eq!(doc.comments.len(), 1);
    assert_eq!(
        doc.comments[0].content,
        vec![t("ab")],
        "comment text made canonical"
    );
}

#[test]
fn pi_blocks_go_where_they_stand() {
    let inner = Block::Table(Table {
        rows: vec![sdconv::ast::Row {
            cells: vec![Cell {
                blocks: vec![
                    Block::Paragraph(Paragraph::new(TextType::Paragraph, vec![t("deep")])),
                    Block::Image(sdconv::ast::Image {
                        media: "in.png".into(),
                        ..Default::default()
                    }),
                ],
                ..Cell::default()
            }],
            ..Default::default()
        }],
        ..Table::default()
    });
    let nested = Ext::Block(inner.clone()).to_pi();
    let top = Ext::Block(Block::Paragraph(Paragraph {
        level: 9,
        ..Paragraph::new(TextType::Heading, vec![t("a"), t("b")])
    }))
    .to_pi();
    let xml = format!(
        r#"<smashdoc><document>{top}<table><tr><td><p>before</p>{nested}<p>after</p></td></tr></table></document></smashdoc>"#
    );
    let out = xml_with(&xml, &[("in.png", b"\x89PNG\r\n\x1a\n")]).unwrap();
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    // The document-level block: level clamped (warning), text made canonical.
    let h = para(&doc.blocks[0]);
    assert_eq!((h.kind, h.level), (TextType::Heading, 5));
    assert_eq!(h.content, vec![t("ab")]);
    assert_eq!(kinds(&out.warnings), [WarningKind::InvalidValue]);
    let cell = &table(&doc.blocks[1]).rows[0].cells[0];
    assert_eq!(cell.blocks.len(), 3);
    assert_eq!(cell.blocks[1], inner);
    assert!(
        doc.media.contains("in.png"),
        "media inside a PI block is read"
    );
}

#[test]
fn pi_fields_carrying_blocks_are_checked_too() {
    let blocks = serde_json::json!({"blocks": [
        {"type": "paragraph", "kind": "heading", "level": 9, "content": [
            {"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"type": "image", "media": "x.png"}
    ]});
    let xml = format!(
        r#"<smashdoc><document><table><tr><td>{}</td></tr></table></document></smashdoc>"#,
        fields(blocks)
    );
    let out = xml_with(&xml, &[("x.png", b"GIF89a")]).unwrap();
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    let cell = &table(&doc.blocks[0]).rows[0].cells[0];
    let h = para(&cell.blocks[0]);
    assert_eq!((h.level, h.content.clone()), (5, vec![t("ab")]));
    assert!(doc.media.contains("x.png"));
    assert_eq!(kinds(&out.warnings), [WarningKind::InvalidValue]);
}

#[test]
fn bad_pis_are_reported_and_ignored() {
    let xml = format!(
        r#"<smashdoc><document><?xml-stylesheet href="a.css"?>
            <paragraph indent="0"><?sdconv {{not json?>a<b>{f}b</b>{open}c</paragraph>
            <paragraph indent="0">{bad}d{close}</paragraph>
            <table>{wrapper}<tr><td/></tr></table>
           </document></smashdoc>"#,
        f = fields(serde_json::json!({"kind": "caption"})),
        open = Ext::Open(Mark::Span("S".into())).to_pi(),
        bad = fields(serde_json::json!({"level": "high"})),
        close = Ext::Close(None).to_pi(),
        wrapper = Ext::Wrapper(None).to_pi(),
    );
    let out = xml_with(&xml, &[]).unwrap();
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    let w = &out.warnings;
    assert!(
        has(w, WarningKind::UnknownElement, "xml-stylesheet"),
        "{w:?}"
    );
    assert!(has(
        w,
        WarningKind::InvalidValue,
        "JSON is not an extension payload"
    ));
    assert!(has(
        w,
        WarningKind::InvalidValue,
        "{\"fields\":…}?> instruction in a place"
    ));
    assert!(has(w, WarningKind::InvalidValue, "never closed"));
    assert!(has(
        w,
        WarningKind::InvalidValue,
        "does not fit <paragraph>"
    ));
    assert!(has(w, WarningKind::InvalidValue, "without an open mark"));
    assert!(has(
        w,
        WarningKind::InvalidValue,
        "{\"wrapper\":…}?> instruction in a place"
    ));
    assert_eq!(w.len(), 7, "{w:?}");
    // The misplaced fields did not turn the paragraph into a caption; the text is all there.
    let p = para(&doc.blocks[0]);
    assert_eq!(p.kind, TextType::Paragraph);
    assert_eq!(sdconv::ast::inline::plain_text(&p.content), "abc");
    assert_eq!(para(&doc.blocks[1]).level, 0);
}

// ----- packaging and hostile input ----------------------------------------------------------

#[test]
fn zip_layout_single_folder_and_case() {
    let xml = br#"<smashdoc><document><image>Pic.PNG</image><paragraph indent="0"><img filename="b.gif" caption="c"/></paragraph></document></smashdoc>"#;
    let zip = zip_of(&[
        ("export/SD.XML", xml),
        ("export/Images/pic.png", b"\x89PNG\r\n\x1a\n"),
        ("export/images/b.gif", b"GIF89a\x01\x00\x01\x00"),
        ("export/images/unused.png", b"x"),
    ]);
    let out = read(&zip, &opts()).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    // Stored under the name the XML uses; unreferenced files are not stored.
    let names: Vec<&str> = doc.media.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Pic.PNG", "b.gif"]);
    // Through the facade too.
    assert!(sdconv::Format::Sdxml.can_read());
    let via = sdconv::import(sdconv::Format::Sdxml, &zip, &Default::default()).unwrap();
    assert_eq!(via.value, doc);
}

#[test]
fn not_a_zip_and_missing_part() {
    assert!(matches!(read(b"hello", &opts()), Err(Error::NotZip(_))));
    assert!(matches!(read(b"", &opts()), Err(Error::NotZip(_))));
    let zip = zip_of(&[("images/a.png", b"x"), ("a/b/sd.xml", b"<smashdoc/>")]);
    match read(&zip, &opts()) {
        Err(Error::MissingPart { part }) => assert_eq!(part, "sd.xml"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn malformed_xml_and_bad_roots() {
    let err = read(
        &zip_of(&[(
            "sd.xml",
            b"<smashdoc><document><paragraph></document></smashdoc>",
        )]),
        &opts(),
    )
    .unwrap_err();
    match &err {
        Error::Xml { part, position, .. } => {
            assert_eq!(part, "sd.xml");
            assert!(*position > 20, "{err}");
        }
        other => panic!("{other}"),
    }
    let err = xml_with("<smashdoc><document><paragraph>", &[]).unwrap_err();
    assert!(
        matches!(&err, Error::Xml { message, .. } if message.contains("ends inside")),
        "{err}"
    );
    let err = xml_with("<html><body/></html>", &[]).unwrap_err();
    assert!(
        matches!(&err, Error::Invalid { message, .. } if message.contains("<html>")),
        "{err}"
    );
    assert!(matches!(xml_with("", &[]), Err(Error::Invalid { .. })));
    let err = read_xml(b"<smashdoc>\xE9</smashdoc>", &mut |_| None, &opts()).unwrap_err();
    assert!(matches!(&err, Error::Xml { position: 10, .. }), "{err}");
    let err = read(
        &zip_of(&[("sd.xml", b"<smashdoc>\xFF\xFE</smashdoc>")]),
        &opts(),
    )
    .unwrap_err();
    assert!(matches!(err, Error::Xml { .. }), "{err}");
}

#[test]
fn deep_nesting_is_refused_without_overflow() {
    let n = 100_000;
    let xml = format!(
        "<smashdoc><document><paragraph indent=\"0\">{}x{}</paragraph></document></smashdoc>",
        "<b>".repeat(n),
        "</b>".repeat(n)
    );
    let err = read(&zip_of(&[("sd.xml", xml.as_bytes())]), &opts()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                what: "XML nesting depth",
                ..
            }
        ),
        "{err}"
    );
    // Marks opened by PIs do not nest elements, and are bounded the same way.
    let open = Ext::Open(Mark::Span("s".into())).to_pi();
    let xml = format!(
        "<smashdoc><document><paragraph indent=\"0\">{}x</paragraph></document></smashdoc>",
        open.repeat(n)
    );
    let err = xml_with(&xml, &[]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                what: "inline nesting depth",
                ..
            }
        ),
        "{err}"
    );
    // Within the limit, deep formatting is read.
    let xml = format!(
        "<smashdoc><document><paragraph indent=\"0\">{}x{}</paragraph></document></smashdoc>",
        "<b><i>".repeat(100),
        "</i></b>".repeat(100)
    );
    let (doc, _) = (xml_with(&xml, &[]).unwrap().value, ());
    assert_eq!(
        para(&doc.blocks[0]).content,
        vec![styled(
            TextStyle::Bold,
            vec![styled(TextStyle::Italic, vec![t("x")])]
        )]
    );
}

/// Writes an entry's bytes into the zip writer (streaming, so 1 GiB never sits in memory).
type Content = Box<dyn Fn(&mut dyn std::io::Write)>;

/// A zip built with the `zip` crate directly (our writer refuses unsafe names).
fn raw_zip(entries: Vec<(&str, Content)>) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, write) in entries {
        let o = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file(name, o).unwrap();
        write(&mut w);
    }
    w.finish().unwrap().into_inner()
}

fn zeros(n: u64) -> Content {
    Box::new(move |w| {
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..n >> 20 {
            w.write_all(&chunk).unwrap();
        }
    })
}

fn bytes_of(b: &'static [u8]) -> Content {
    Box::new(move |w| w.write_all(b).unwrap())
}

#[test]
fn zip_bombs_are_refused() {
    // 1 GiB of zeros as sd.xml, and as a referenced image: refused from the size fields, before
    // anything is inflated (the zip is a few MiB; nothing near 1 GiB is allocated).
    let bomb = raw_zip(vec![("sd.xml", zeros(1 << 30))]);
    assert!(bomb.len() < 4 << 20, "{}", bomb.len());
    let err = read(&bomb, &opts()).unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err}");
    assert_eq!(err.kind(), sdconv::ErrorKind::TooLarge);
    let bomb = raw_zip(vec![
        (
            "sd.xml",
            bytes_of(b"<smashdoc><document><image>z.png</image></document></smashdoc>"),
        ),
        ("images/z.png", zeros(1 << 30)),
    ]);
    let err = read(&bomb, &opts()).unwrap_err();
    assert!(matches!(err, Error::TooLarge { .. }), "{err}");
}

#[test]
fn unsafe_entry_names_are_refused() {
    let zip = raw_zip(vec![
        ("sd.xml", bytes_of(b"<smashdoc><document/></smashdoc>")),
        ("../../etc/passwd", bytes_of(b"root:x:0:0")),
    ]);
    match read(&zip, &opts()) {
        Err(Error::UnsafeName { name, .. }) => assert_eq!(name, "../../etc/passwd"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_declared_two_gib_entry_is_refused() {
    let mut zip = zip_of(&[("sd.xml", b"<smashdoc><document/></smashdoc>")]);
    let two_gib = (2u32 << 30).to_le_bytes();
    // Local header: uncompressed size at offset 22; central directory header: at offset 24.
    assert_eq!(&zip[..4], b"PK\x03\x04");
    zip[22..26].copy_from_slice(&two_gib);
    let cd = zip.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    zip[cd + 24..cd + 28].copy_from_slice(&two_gib);
    let err = read(&zip, &opts()).unwrap_err();
    assert!(
        matches!(
            err,
            Error::TooLarge {
                what: "zip entry size",
                ..
            }
        ),
        "{err}"
    );
}

/// A document touching most of the grammar, the seed of the mutation test.
const RICH: &str = r##"<?xml version="1.0"?><smashdoc version="2" id="d"><meta><language value="de_DE"/>
<title>T</title><tags><tag>a</tag></tags><word-export-presets template_id="t" language="de_DE" toc_text="1"
toc_image="0" toc_table="0" caption_image="1" caption_table="1"><tag>x</tag></word-export-presets></meta>
<document><ordered-sections><heading level="1" id="h">H<footnote>f<b>b</b></footnote></heading>
<paragraph indent="1" enumeration="2">a<b>b<i>c</i></b><a href=" HYPERLINK \l &quot;x&quot; ">l</a>
<xref href="#h" data-num-enabled="1" data-content-enabled="1"/><img filename="i.png" caption="c"/>
<?sdconv {"open":{"span":"S"}}?>s<?sdconv {"close":null}?><sup><?sdconv {"wrapper":null}?>w<br/>v</sup></paragraph>
<ul><li>one</li><ol indent="1"><li>two<ul><li>three</li></ul>four</li></ol></ul>
<table width="50%"><column_width><item>50%</item><item>50%</item></column_width>
<tr><th colspan="2"><p>h</p></th></tr><tr><td rowspan="2"><font size="9pt">f</font></td><td>x<b>y</b></td></tr>
<tr><td><?sdconv {"block":{"type":"page_break"}}?><ul-li indent="2">li</ul-li></td></tr></table>
<image width="40%">i.png</image><pagebreak/><directory type="content"/></ordered-sections>
<attached-sections><paragraph indent="0">fn</paragraph></attached-sections></document>
<indexes><index-node id="n" title="t"><index-node id="m" title="u"/></index-node></indexes></smashdoc>"##;

#[test]
fn the_rich_seed_reads_cleanly() {
    let out = read_xml(
        RICH.as_bytes(),
        &mut |_| Some(Bytes::from_static(b"GIF89a")),
        &opts(),
    )
    .unwrap();
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    // One footnote; no empty anchor, so the attached text is appended as the last block.
    assert_eq!(notes(&doc).len(), 1);
    let last = para(doc.blocks.last().unwrap());
    assert_eq!(last.content, vec![t("fn")]);
    assert!(has(&out.warnings, WarningKind::Lossy, "attached-sections"));
    assert!(has(&out.warnings, WarningKind::LegacyForm, "ul/ol/li"));
    assert!(has(&out.warnings, WarningKind::Repaired, "HYPERLINK"));
}

#[test]
fn fuzzish_inputs_never_panic() {
    // Truncations and byte flips of a rich document: every outcome is a value or a typed error.
    let bytes = RICH.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        let _ = read_xml(&bytes[..cut], &mut |_| None, &opts());
    }
    for i in (0..bytes.len()).step_by(3) {
        let mut b = bytes.to_vec();
        b[i] = match b[i] {
            b'<' => b'>',
            b'"' => b'<',
            b'/' => b'a',
            _ => b'<',
        };
        if let Ok(out) = read_xml(
            &b,
            &mut |_| Some(Bytes::from_static(b"\x89PNG\r\n\x1a\n")),
            &opts(),
        ) {
            assert_eq!(out.value.validate(), Ok(()), "flip at {i}");
        }
    }
}

// ----- size ---------------------------------------------------------------------------------

/// A small deterministic generator (64-bit LCG), so the large document is the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "for",
    "system",
    "data",
    "model",
    "process",
    "value",
    "result",
    "analysis",
    "design",
    "document",
    "report",
    "table",
    "figure",
    "section",
    "review",
    "draft",
    "contract",
    "policy",
    "quality",
    "Müller",
    "Zürich",
    "café",
    "Straße",
    "network",
    "server",
    "client",
    "memory",
    "interface",
    "however",
    "therefore",
    "between",
];

/// One sentence as sd.xml inline content, formatted like `/work/shared/bench/gen.py` does:
/// 15 % bold, 15 % italic, 3 % bold italic, 2 % code, 2 % link.
fn sentence(rng: &mut Rng, out: &mut String) {
    let n = rng.range(5, 15) as usize;
    let words: Vec<&str> = (0..n)
        .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
        .collect();
    let i = rng.below(n as u64) as usize;
    let j = (i + rng.range(1, 4) as usize).min(n);
    let seg = words[i..j].join(" ");
    let r = rng.below(100);
    let fmt = match r {
        0..=14 => format!("<b>{seg}</b>"),
        15..=29 => format!("<i>{seg}</i>"),
        30..=32 => format!("<b><i>{seg}</i></b>"),
        33..=34 => format!("<kbd>{}</kbd>", seg.replace(' ', "_")),
        35..=36 => format!(
            r#"<a href="https://example.org/{}">{seg}</a>"#,
            seg.replace(' ', "-")
        ),
        _ => seg.clone(),
    };
    out.push_str(&words[..i].join(" "));
    if i > 0 {
        out.push(' ');
    }
    out.push_str(&fmt);
    if j < n {
        out.push(' ');
        out.push_str(&words[j..].join(" "));
    }
    out.push_str(". ");
}

/// The large benchmark document: 10,000 body paragraphs of 1-3 sentences (footnotes on 9 %),
/// headings on three levels, lists, 200 tables of 3-8 columns and 3-10 rows, 50 images; plus the
/// images themselves (20 kB each) in `images/`. `dense` puts bold, italic, underline, a link and
/// a footnote in every paragraph instead (a harder case than real documents).
fn large_zip(dense: bool) -> Vec<u8> {
    let mut rng = Rng(42);
    let mut xml = String::from(
        r#"<?xml version="1.0" encoding="utf-8"?><smashdoc version="2.6" id="big"><meta><title>Big</title></meta><document>"#,
    );
    let (mut tables, mut images) = (0, 0);
    for i in 0..10_000u64 {
        if i % 40 == 0 {
            xml.push_str(&format!(
                r#"<heading level="{}" id="h{i}">Heading {i}</heading>"#,
                (i / 40) % 3
            ));
        }
        xml.push_str(&format!(
            r#"<paragraph indent="0" alignment="left" id="p{i}">"#
        ));
        if dense {
            xml.push_str(&format!(
                r#"Paragraph {i} with <b>bold</b>, <i>italic <u>under</u></i>, a <a href="https://example.org/{i}">link</a> and a note<footnote>Note {i}</footnote>."#
            ));
        } else {
            for _ in 0..rng.range(1, 3) {
                sentence(&mut rng, &mut xml);
            }
            if rng.chance(9) {
                xml.push_str("<footnote>");
                sentence(&mut rng, &mut xml);
                xml.push_str("</footnote>");
            }
        }
        xml.push_str("</paragraph>");
        if i % 100 == 50 {
            let item = if rng.chance(50) { "ul-li" } else { "ol-li" };
            for k in 0..rng.range(3, 8) {
                let depth = u64::from(k % 4 == 3);
                xml.push_str(&format!(r#"<{item} indent="{depth}" list-id="l{i}">"#));
                sentence(&mut rng, &mut xml);
                xml.push_str(&format!("</{item}>"));
            }
        }
        if i % 50 == 25 {
            let (cols, rows) = (rng.range(3, 8), rng.range(3, 10));
            xml.push_str(&format!(r#"<table id="t{i}"><column_width>"#));
            for _ in 0..cols {
                xml.push_str(&format!("<item>{:.2}%</item>", 100.0 / cols as f64));
            }
            xml.push_str("</column_width>");
            for r in 0..rows {
                xml.push_str("<tr>");
                for c in 0..cols {
                    let tag = if r == 0 { "th" } else { "td" };
                    xml.push_str(&format!("<{tag}><p>Cell {r}.{c} "));
                    sentence(&mut rng, &mut xml);
                    xml.push_str(&format!("</p></{tag}>"));
                }
                xml.push_str("</tr>");
            }
            xml.push_str("</table>");
            tables += 1;
        }
        if i % 200 == 100 {
            xml.push_str(&format!(
                r#"<image width="50%" id="i{i}" caption="Figure {images}">img{images}.png</image>"#
            ));
            images += 1;
        }
    }
    xml.push_str("</document></smashdoc>");
    assert_eq!((tables, images), (200, 50));
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0".to_vec();
    png.resize(20_000, 7);
    let mut w = ZipWriter::new();
    w.add("sd.xml", xml.as_bytes(), Compression::Deflate)
        .unwrap();
    for i in 0..images {
        w.add(&format!("images/img{i}.png"), &png, Compression::Store)
            .unwrap();
    }
    w.finish().unwrap()
}

#[test]
fn a_large_document_reads_whole() {
    // Speed is measured by the sdxml_import bench, not here: tests are not timed.
    let zip = large_zip(false);
    let out = read(&zip, &opts()).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    let count = |f: &dyn Fn(&Block) -> bool| doc.blocks.iter().filter(|b| f(b)).count();
    assert_eq!(
        count(&|b| matches!(b, Block::Paragraph(p) if p.kind == TextType::Paragraph)),
        10_000
    );
    assert_eq!(
        count(&|b| matches!(b, Block::Paragraph(p) if p.kind.is_list())),
        538
    );
    assert_eq!(count(&|b| matches!(b, Block::Table(_))), 200);
    assert_eq!(count(&|b| matches!(b, Block::Image(_))), 50);
    assert_eq!(doc.media.len(), 50);
    let n = notes(&doc).len();
    assert!((800..1000).contains(&n), "{n} footnotes");
}

#[test]
fn a_dense_large_document_reads() {
    // Every paragraph formatted four ways and footnoted.
    let zip = large_zip(true);
    let out = read(&zip, &opts()).unwrap();
    let doc = out.value;
    assert_eq!(doc.validate(), Ok(()));
    assert_eq!(notes(&doc).len(), 10_000);
    // Each body paragraph: text, bold, text, italic (with underline inside), link, text, note.
    for b in &doc.blocks {
        if let Block::Paragraph(p) = b {
            if p.kind == TextType::Paragraph {
                let kinds: Vec<&str> = p
                    .content
                    .iter()
                    .map(|i| match i {
                        Inline::Text { .. } => "t",
                        Inline::Styled { .. } => "s",
                        Inline::Link { .. } => "a",
                        Inline::Note { .. } => "n",
                        _ => "?",
                    })
                    .collect();
                assert_eq!(kinds.concat(), "tststatnt");
            }
        }
    }
}
