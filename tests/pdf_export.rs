//! The PDF writer, checked by real consumers: poppler's `pdftotext` (word recall against the
//! tree, page by page for directories, footnotes and repeated table headers), `pdffonts` (every
//! font embedded), `pdfinfo` (page size), `qpdf --check` (structure) and `qpdf --json` (the
//! outline). CI installs poppler-utils and qpdf (`.ci/run`); a missing tool fails the test with
//! the install command instead of skipping.

mod common;
mod html_fixtures;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::all_on;
use html_fixtures as fx;
use sdconv::ast::{Block, Cell, Image, Inline, MediaItem, NoteKind, Row, Table, TextType};
use sdconv::export::pdf::{Paper, PdfOptions, write, write_with_info};
use sdconv::export::word::PagedSettings;
use sdconv::lang::Language;
use sdconv::{Document, Format, ImportOptions, Warning};

// ---- helpers ----------------------------------------------------------------------------

fn pdf(doc: &Document, settings: PagedSettings) -> (Vec<u8>, Vec<Warning>) {
    let out = write(doc, &PdfOptions::new(settings)).expect("PDF export");
    (out.value, out.warnings)
}

fn tool(name: &str, args: &[&str]) -> std::process::Output {
    match Command::new(name).args(args).output() {
        Ok(o) => o,
        Err(e) => panic!(
            "cannot run {name} ({e}): install it with `apt-get install -y poppler-utils qpdf` \
             (CI installs it)"
        ),
    }
}

struct Saved {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

fn save(bytes: &[u8]) -> Saved {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, bytes).expect("write pdf");
    Saved { _dir: dir, path }
}

fn p(s: &Saved) -> &str {
    s.path.to_str().expect("utf-8 temp path")
}

fn text_of(s: &Saved, pages: Option<(usize, usize)>) -> String {
    let mut args: Vec<String> = Vec::new();
    if let Some((f, l)) = pages {
        args.extend(["-f".into(), f.to_string(), "-l".into(), l.to_string()]);
    }
    args.extend(["-layout".into(), p(s).into(), "-".into()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = tool("pdftotext", &refs);
    assert!(
        out.status.success(),
        "pdftotext failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn page_count(s: &Saved) -> usize {
    let out = tool("pdfinfo", &[p(s)]);
    let info = String::from_utf8_lossy(&out.stdout);
    info.lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("pdfinfo prints the page count")
}

/// Words, lower-cased, split where letters and digits meet (a footnote mark sits right after
/// its word).
fn words(text: &str, out: &mut BTreeSet<String>) {
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        let mut cur = String::new();
        let mut digit = None;
        for c in w.chars() {
            let d = c.is_numeric();
            if digit.is_some_and(|x| x != d) && !cur.is_empty() {
                out.insert(std::mem::take(&mut cur).to_lowercase());
            }
            digit = Some(d);
            cur.push(c);
        }
        if !cur.is_empty() {
            out.insert(cur.to_lowercase());
        }
    }
}

fn inline_words(inlines: &[Inline], out: &mut BTreeSet<String>) {
    for i in inlines {
        match i {
            Inline::Text { text } => words(text, out),
            Inline::Note { content, .. } => inline_words(content, out),
            Inline::Image {
                caption: Some(c), ..
            } => words(c, out),
            other => {
                if let Some(children) = other.children() {
                    inline_words(children, out);
                }
            }
        }
    }
}

fn block_words(blocks: &[Block], captions: bool, out: &mut BTreeSet<String>) {
    for b in blocks {
        match b {
            Block::Paragraph(p) => inline_words(&p.content, out),
            Block::Image(img) => {
                if captions && let Some(c) = &img.caption {
                    words(c, out);
                }
            }
            Block::Table(t) => {
                if captions && let Some(c) = &t.caption {
                    words(c, out);
                }
                for row in &t.rows {
                    for cell in &row.cells {
                        block_words(&cell.blocks, captions, out);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Every word of the tree's text (with captions when they are drawn).
fn tree_words(doc: &Document, captions: bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for t in [&doc.meta.title, &doc.meta.subtitle, &doc.meta.description]
        .into_iter()
        .flatten()
    {
        words(t, &mut out);
    }
    block_words(&doc.blocks, captions, &mut out);
    for c in &doc.comments {
        inline_words(&c.content, &mut out);
    }
    out
}

/// Structure, fonts and word recall: the checks every rendered document passes.
fn check(name: &str, doc: &Document, bytes: &[u8], captions: bool) -> Saved {
    assert!(bytes.starts_with(b"%PDF-"), "{name}: not a PDF");
    let s = save(bytes);
    let q = tool("qpdf", &["--check", p(&s)]);
    let qout =
        String::from_utf8_lossy(&q.stdout).into_owned() + &String::from_utf8_lossy(&q.stderr);
    assert!(q.status.success(), "{name}: qpdf --check failed:\n{qout}");
    assert!(!qout.contains("WARNING"), "{name}: qpdf warns:\n{qout}");
    let f = tool("pdffonts", &[p(&s)]);
    let fonts = String::from_utf8_lossy(&f.stdout);
    for line in fonts.lines().skip(2) {
        // name type encoding emb sub uni object ID: "emb" is the 4th column from the right.
        let cols: Vec<&str> = line.split_whitespace().collect();
        assert!(cols.len() >= 7, "{name}: odd pdffonts line {line:?}");
        assert_eq!(
            cols[cols.len() - 5],
            "yes",
            "{name}: font not embedded: {line}"
        );
        assert_eq!(
            cols[cols.len() - 4],
            "yes",
            "{name}: font not a subset: {line}"
        );
    }
    let expected = tree_words(doc, captions);
    let mut found = BTreeSet::new();
    words(&text_of(&s, None), &mut found);
    let missing: Vec<&String> = expected.difference(&found).collect();
    let recall = 1.0 - missing.len() as f64 / expected.len().max(1) as f64;
    assert!(
        recall >= 0.99,
        "{name}: word recall {recall:.4}, missing {} of {}: {:?}",
        missing.len(),
        expected.len(),
        missing.iter().take(30).collect::<Vec<_>>()
    );
    s
}

/// The outline's entries, counted through `qpdf --json`.
fn outline_entries(s: &Saved) -> usize {
    let out = tool("qpdf", &["--json", "--json-key=outlines", p(s)]);
    assert!(out.status.success(), "qpdf --json failed");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("qpdf json");
    fn count(v: &serde_json::Value) -> usize {
        v.as_array()
            .map_or(0, |items| items.iter().map(|i| 1 + count(&i["kids"])).sum())
    }
    count(&json["outlines"])
}

fn headings(doc: &Document) -> usize {
    doc.blocks
        .iter()
        .filter(|b| matches!(b, Block::Paragraph(p) if p.kind.is_heading()))
        .count()
}

fn long_text(seed: usize, words_n: usize) -> String {
    const W: [&str; 12] = [
        "contract",
        "party",
        "shall",
        "deliver",
        "goods",
        "within",
        "reasonable",
        "period",
        "notice",
        "written",
        "agreement",
        "terms",
    ];
    (0..words_n)
        .map(|i| W[(i * 7 + seed) % W.len()])
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- every fixture, the samples, the real sd.xml files ------------------------------------

#[test]
fn every_fixture_renders_and_reads_back() {
    let mut docs: Vec<(String, Document)> = fx::goldens()
        .into_iter()
        .map(|(n, d, _)| (n.to_string(), d))
        .collect();
    docs.push(("everything".into(), fx::everything()));
    for seed in 0..4 {
        docs.push((format!("random-{seed}"), fx::random_tree(seed)));
    }
    for (name, doc) in docs {
        let out = write_with_info(&doc, &PdfOptions::new(all_on(Language::En)))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = check(&name, &doc, &out.value.bytes, true);
        assert_eq!(out.value.pages, page_count(&s), "{name}");
        assert_eq!(
            outline_entries(&s),
            headings(&doc),
            "{name}: outline != headings"
        );
        assert!(
            out.warnings
                .iter()
                .all(|w| !w.message.contains("no available font")),
            "{name}: {:?}",
            out.warnings
        );
    }
}

#[test]
fn samples_render() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let inputs = [
        (
            Format::Sdxml,
            std::fs::read(dir.join("sample.sdxml.zip")).unwrap(),
        ),
        (
            Format::Word,
            std::fs::read(dir.join("sample.docx")).unwrap(),
        ),
        (Format::Sdxml, common::zip_folder(&dir.join("sample"))),
    ];
    for (i, (format, bytes)) in inputs.into_iter().enumerate() {
        let doc = sdconv::import(format, &bytes, &ImportOptions::default())
            .unwrap()
            .value;
        let (out, _) = pdf(&doc, all_on(Language::En));
        let s = check(&format!("sample {i}"), &doc, &out, true);
        assert_eq!(outline_entries(&s), headings(&doc), "sample {i}");
    }
}

#[test]
fn the_three_real_sd_xml_samples_render() {
    let Some(inputs) = common::real_sdxml_samples() else {
        return;
    };
    for (name, bytes) in inputs {
        let doc = sdconv::import(Format::Sdxml, &bytes, &ImportOptions::default())
            .unwrap()
            .value;
        let (out, warnings) = pdf(&doc, all_on(Language::De));
        let s = check(name, &doc, &out, true);
        assert_eq!(outline_entries(&s), headings(&doc), "{name}");
        assert!(
            warnings
                .iter()
                .all(|w| !w.message.contains("no available font")),
            "{name}: {warnings:?}"
        );
    }
}

// ---- page features ----------------------------------------------------------------------

/// A long document: numbered headings with text between them, a contents directory.
fn long_doc(language: &str) -> Document {
    let mut blocks = vec![Block::Directory {
        kind: sdconv::ast::DirectoryKind::Content,
    }];
    for h in 0..12 {
        blocks.push(fx::p(
            TextType::HeadingOl,
            (h % 3 == 2) as u8,
            vec![fx::t(&format!("Section heading {h} zeta{h}"))],
        ));
        for k in 0..(3 + h % 4) {
            blocks.push(fx::text(&long_text(h * 10 + k, 90)));
        }
    }
    let mut doc = fx::doc("Long document", blocks);
    doc.meta.language = Some(language.into());
    doc.meta.footer = Some("Confidential footer".into());
    doc
}

#[test]
fn contents_page_numbers_are_the_pages_of_the_headings() {
    let doc = long_doc("en_EN");
    let (out, _) = pdf(&doc, PagedSettings::new(Language::En));
    let s = check("long", &doc, &out, true);
    assert!(page_count(&s) >= 4, "the test needs several pages");
    let contents = text_of(&s, Some((1, 1)));
    let mut checked = 0;
    for line in contents.lines() {
        // Directory entries are the lines with dot leaders (the heading itself may follow).
        let Some(start) = line.find("zeta").filter(|_| line.contains(". .")) else {
            continue;
        };
        let key: String = line[start..]
            .chars()
            .take_while(|c| c.is_alphanumeric())
            .collect();
        let number: usize = line
            .split_whitespace()
            .last()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no page number in contents line {line:?}"));
        let page = text_of(&s, Some((number, number)));
        assert!(
            page.lines()
                .any(|l| !l.contains(". .") && l.split_whitespace().any(|w| w == key)),
            "contents says {key} is on page {number}, pdftotext does not find it there"
        );
        checked += 1;
    }
    assert_eq!(checked, 12, "every heading is in the contents:\n{contents}");
    // The footer: meta.footer and "Page N of M" on every page.
    let n = page_count(&s);
    let last = text_of(&s, Some((n, n)));
    assert!(last.contains("Confidential footer"), "{last}");
    assert!(last.contains(&format!("Page {n} of {n}")), "{last}");
    assert_eq!(outline_entries(&s), 12);
}

#[test]
fn footnotes_sit_at_the_foot_of_the_citing_page_and_endnotes_at_the_end() {
    let mut blocks = Vec::new();
    for i in 0..40 {
        let mut content = vec![fx::t(&long_text(i, 40))];
        if i % 10 == 5 {
            content.push(fx::note(
                NoteKind::Footnote,
                vec![fx::t(&format!("footnotetext{i}"))],
            ));
        }
        if i == 7 {
            content.push(fx::note(NoteKind::Endnote, vec![fx::t("endnotetext")]));
        }
        blocks.push(fx::p(TextType::Paragraph, 0, content));
    }
    let doc = fx::doc("Notes", blocks);
    let (out, _) = pdf(&doc, PagedSettings::default());
    let s = check("notes", &doc, &out, true);
    let n = page_count(&s);
    assert!(n >= 3);
    let mut seen = 0;
    for page in 1..=n {
        let text = text_of(&s, Some((page, page)));
        for i in [5, 15, 25, 35] {
            let note = format!("footnotetext{i}");
            if let Some(at) = text.find(&note) {
                // The note is below every body line of its page.
                let rest = &text[at..];
                assert!(
                    !rest.contains("contract party"),
                    "page {page}: {note} is not at the foot"
                );
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 4);
    assert!(text_of(&s, Some((n, n))).contains("endnotetext"));
}

#[test]
fn table_header_rows_repeat_on_every_page_the_table_spans() {
    let mut rows = vec![Row {
        header: true,
        cells: vec![fx::tcell("HeadA"), fx::tcell("HeadB")],
        ..Row::default()
    }];
    for i in 0..150 {
        rows.push(fx::row(vec![
            fx::tcell(&format!("r{i}")),
            fx::tcell(&long_text(i, 6)),
        ]));
    }
    let t = Table {
        columns: vec![30.0, 70.0],
        rows,
        caption: Some("Long table".into()),
        ..Table::default()
    };
    let doc = fx::doc("Tables", vec![Block::Table(t)]);
    let (out, _) = pdf(&doc, all_on(Language::De));
    let s = check("table", &doc, &out, true);
    let n = page_count(&s);
    assert!(n >= 3);
    for page in 1..=n {
        let text = text_of(&s, Some((page, page)));
        if text.contains("r1") {
            assert!(text.contains("HeadA"), "page {page} lacks the header row");
        }
    }
    assert!(text_of(&s, Some((1, 1))).contains("Tabelle 1: Long table"));
}

#[test]
fn german_and_russian_documents_have_every_glyph_and_localised_captions() {
    for (lang, text, figure) in [
        (
            Language::De,
            "Größenänderung der Straße – „Zitat“ ÄÖÜ äöü ß €",
            "Abbildung 1",
        ),
        (
            Language::Ru,
            "Съешь же ещё этих мягких французских булок, да выпей чаю",
            "Рисунок 1",
        ),
    ] {
        let mut doc = fx::doc("Δοκιμή", vec![fx::text(text), fx::text("Ελληνικά κείμενα")]);
        doc.media.add("a.png", fx::gradient_png());
        doc.blocks.push(Block::Image(Image {
            caption: Some("Bild".into()),
            width_percent: Some(50.0),
            ..fx::image("a.png", None)
        }));
        let (out, warnings) = pdf(&doc, all_on(lang));
        assert!(
            warnings
                .iter()
                .all(|w| !w.message.contains("no available font")),
            "{lang:?}: {warnings:?}"
        );
        let s = check(&format!("{lang:?}"), &doc, &out, true);
        assert!(text_of(&s, None).contains(figure), "{lang:?}");
    }
}

#[test]
fn a_character_no_font_has_is_one_warning_naming_it() {
    // Private-use characters: no font is looked up for them, so none has them on any machine.
    let doc = fx::doc("x", vec![fx::text("a \u{E123} b \u{E123} \u{10FFFD}")]);
    let (_, warnings) = pdf(&doc, PagedSettings::default());
    let w: Vec<&Warning> = warnings
        .iter()
        .filter(|w| w.message.contains("no available font"))
        .collect();
    assert_eq!(w.len(), 1, "{warnings:?}");
    assert!(w[0].message.contains('\u{E123}') && w[0].message.contains("U+E123"));
    assert!(w[0].message.contains("U+10FFFD"), "{}", w[0].message);
}

#[test]
fn output_is_deterministic_and_letter_is_an_option() {
    let doc = fx::everything();
    let a = pdf(&doc, all_on(Language::En)).0;
    let b = pdf(&doc, all_on(Language::En)).0;
    assert!(a == b, "two runs differ");
    let letter = write(
        &doc,
        &PdfOptions::new(PagedSettings::default()).with_paper(Paper::Letter),
    )
    .unwrap()
    .value;
    let s = save(&letter);
    let info = String::from_utf8_lossy(&tool("pdfinfo", &[p(&s)]).stdout).into_owned();
    assert!(info.contains("612 x 792"), "{info}");
    let s = save(&a);
    let info = String::from_utf8_lossy(&tool("pdfinfo", &[p(&s)]).stdout).into_owned();
    assert!(info.contains("595.") && info.contains("841."), "{info}");
    assert!(
        info.contains("Title:") && info.contains("Everything"),
        "{info}"
    );
}

#[test]
fn forbidden_settings_fail_like_the_word_export() {
    let doc = fx::doc("x", vec![fx::text("y")]);
    let bad = PagedSettings::default().with_image_toc(true);
    assert!(write(&doc, &PdfOptions::new(bad)).is_err());
}

// ---- hostile trees ----------------------------------------------------------------------

#[test]
fn hostile_trees_render_without_panic() {
    // A 1,000-column table.
    let wide = Table {
        rows: (0..3)
            .map(|r| fx::row((0..1000).map(|c| fx::tcell(&format!("{r}x{c}"))).collect()))
            .collect(),
        ..Table::default()
    };
    // A 10,000-row table.
    let tall = Table {
        rows: (0..10_000)
            .map(|r| fx::row(vec![fx::tcell(&format!("row{r}")), fx::tcell("v")]))
            .collect(),
        ..Table::default()
    };
    // A word longer than the line, and a cell taller than a page.
    let word = "Donaudampfschifffahrtsgesellschaft".repeat(200);
    let tall_cell = Table {
        rows: vec![Row {
            cells: vec![Cell {
                blocks: (0..200).map(|i| fx::text(&long_text(i, 20))).collect(),
                ..Cell::default()
            }],
            ..Row::default()
        }],
        ..Table::default()
    };
    let mut doc = fx::doc(
        "Hostile",
        vec![
            Block::Table(wide),
            Block::Table(tall),
            fx::text(&word),
            Block::Table(tall_cell),
        ],
    );
    // A 50 MB picture whose header claims 20,000 × 20,000 pixels, and an undecodable one.
    let mut huge = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    huge.extend_from_slice(&20_000u32.to_be_bytes());
    huge.extend_from_slice(&20_000u32.to_be_bytes());
    huge.resize(50 << 20, 0x5a);
    doc.media.insert(MediaItem::new("huge.png", huge));
    doc.media
        .add("broken.png", b"\x89PNG\r\n\x1a\nnot really".to_vec());
    for m in ["huge.png", "broken.png"] {
        doc.blocks.push(Block::Image(fx::image(m, Some("pic"))));
    }
    let out = write_with_info(&doc, &PdfOptions::new(all_on(Language::En))).expect("renders");
    let warned: Vec<&Warning> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("empty box"))
        .collect();
    assert_eq!(warned.len(), 2, "{:?}", out.warnings);
    assert!(out.value.pages > 100);
    let s = save(&out.value.bytes);
    assert!(tool("qpdf", &["--check", p(&s)]).status.success());
    let text = text_of(&s, None);
    assert!(
        text.contains("row9999"),
        "the last row of the tall table is drawn"
    );
    assert!(text.contains("Donaudampf"), "the long word is drawn");
}

// ---- page numbers for the Word export ---------------------------------------------------

/// The cached result of each `PAGEREF` field in the Word export of `doc`, in order.
fn word_pagerefs(doc: &Document, settings: PagedSettings) -> Vec<usize> {
    use sdconv::export::word::{WordOptions, write as write_word};
    let docx = write_word(doc, &WordOptions::new("report", settings))
        .unwrap()
        .value;
    let mut z =
        sdconv::internal::archive::ZipReader::new(&docx, &sdconv::Limits::default()).unwrap();
    let xml = String::from_utf8(z.read("word/document.xml").unwrap()).unwrap();
    // Each PAGEREF field's cached result, up to the field's end.
    xml.split("PAGEREF ")
        .skip(1)
        .map(|rest| {
            let field = &rest[..rest.find(r#"fldCharType="end""#).expect("field end")];
            let t = field.rfind("<w:t").expect("a result run");
            let text = &field[t..];
            let value: String = text[text.find('>').unwrap() + 1..]
                .chars()
                .take_while(|c| *c != '<')
                .collect();
            value
                .parse()
                .unwrap_or_else(|_| panic!("result {value:?} is not a page"))
        })
        .collect()
}

#[test]
fn word_toc_page_numbers_are_the_pdf_layout_pages() {
    let doc = long_doc("en_EN");
    let settings = PagedSettings::new(Language::En);
    let word_pages = word_pagerefs(&doc, settings);
    assert_eq!(word_pages.len(), 12);
    // The same numbers the PDF's own contents page prints.
    let (out, _) = pdf(&doc, settings);
    let s = save(&out);
    let pdf_pages: Vec<usize> = text_of(&s, Some((1, 1)))
        .lines()
        .filter(|l| l.contains("zeta") && l.contains(". ."))
        .filter_map(|l| l.split_whitespace().last()?.parse().ok())
        .collect();
    assert_eq!(word_pages, pdf_pages);
    assert!(word_pages.windows(2).all(|w| w[0] <= w[1]) && word_pages[11] > 1);
}

/// A document long enough (over 500 top-level blocks) for the Word writer to lay it out on
/// another thread while it writes the body: the page numbers must be the same.
#[test]
fn word_toc_page_numbers_of_a_long_document_laid_out_alongside() {
    let mut blocks = vec![Block::Directory {
        kind: sdconv::ast::DirectoryKind::Content,
    }];
    let mut headings = Vec::new();
    for h in 0..20 {
        headings.push(blocks.len());
        blocks.push(fx::p(
            TextType::HeadingOl,
            0,
            vec![fx::t(&format!("Part {h}"))],
        ));
        for k in 0..30 {
            blocks.push(fx::text(&long_text(h * 100 + k, 12)));
        }
    }
    assert!(blocks.len() > 600);
    let doc = fx::doc("Many blocks", blocks);
    let settings = PagedSettings::new(Language::En);
    let word_pages = word_pagerefs(&doc, settings);
    // The pages the PDF draws each heading on (its contents lines carry dot leaders).
    let (out, _) = pdf(&doc, settings);
    let s = save(&out);
    let mut expected = vec![0; headings.len()];
    for page in 1..=page_count(&s) {
        for line in text_of(&s, Some((page, page))).lines() {
            let line = line.trim();
            if line.contains(". .") {
                continue;
            }
            for (h, at) in expected.iter_mut().enumerate() {
                if *at == 0 && line.ends_with(&format!("Part {h}")) {
                    *at = page;
                }
            }
        }
    }
    assert_eq!(word_pages, expected);
    assert!(expected[19] > 10, "the test needs many pages: {expected:?}");
}

#[test]
fn links_and_cross_references_are_clickable() {
    let doc = fx::everything();
    let (out, _) = pdf(&doc, all_on(Language::En));
    let s = save(&out);
    let text = qdf_text(&s);
    // External links keep their address; javascript: ones are not links.
    assert!(text.contains("/URI"), "no external link annotation");
    assert!(!text.to_ascii_lowercase().contains("javascript:"));
    // Cross-references, directory entries and note marks jump inside the document (krilla
    // writes a link's destination as `/Dest`, printpdf wrote a `/GoTo` action).
    let gotos = text.matches("/Dest ").count() + text.matches("/S /GoTo").count();
    assert!(gotos >= 10, "only {gotos} internal links");
    assert!(text.contains("/Lang (en)"), "document language");
}

/// The uncompressed form of a PDF (`qpdf --qdf`), as text.
fn qdf_text(s: &Saved) -> String {
    let qdf = s.path.with_extension("qdf.pdf");
    let q = tool(
        "qpdf",
        &[
            "--qdf",
            "--object-streams=disable",
            p(s),
            qdf.to_str().expect("utf-8 temp path"),
        ],
    );
    assert!(q.status.success());
    String::from_utf8_lossy(&std::fs::read(&qdf).expect("qdf written")).into_owned()
}

/// A link to a long address over hundreds of lines is one annotation per page, its lines as
/// `QuadPoints`, so the address is written twice per page (action and description), not twice
/// per line; a short address keeps an annotation per line.
#[test]
fn a_long_address_over_many_lines_is_written_per_page_not_per_line() {
    let long = format!("https://example.org/{}", "l".repeat(2_000));
    // Justified: each word is a piece of its own, yet a line is one area.
    let link = |href: &str, words_n| {
        let mut para = fx::para(
            TextType::Paragraph,
            0,
            vec![Inline::Link {
                href: href.into(),
                children: vec![fx::t(&long_text(3, words_n))],
            }],
        );
        para.align = sdconv::ast::Align::Justify;
        Block::Paragraph(para)
    };
    let mut doc = Document {
        blocks: vec![link(&long, 3_000), link("https://example.org/short", 60)],
        ..Document::default()
    };
    doc.meta.title = Some("Long links".into());
    doc.meta.language = Some("en".into());
    let standard = PdfOptions::new(PagedSettings::default())
        .with_standard(sdconv::export::pdf::PdfStandard::A2bUa1);
    let out = write(&doc, &standard).expect("PDF/UA export").value;
    let s = check("long address", &doc, &out, false);
    let pages = page_count(&s);
    assert!(pages >= 3, "the link runs over pages: {pages}");
    let text = qdf_text(&s);
    let written = text.matches(long.as_str()).count();
    assert_eq!(written, 2 * pages, "the long address, twice per page");
    let quads = text.matches("/QuadPoints").count();
    assert_eq!(quads, pages, "one annotation per page for the long address");
    // The short link's lines each have an annotation of their own (60 words: 4 or 5 lines,
    // twice the address each), not one per word.
    let short = text.matches("(https://example.org/short)").count();
    assert!(
        (2 * 3..=2 * 6).contains(&short),
        "the short link's lines: {short}"
    );
    assert!(out.len() < 200_000, "{} bytes", out.len());
    // Each link is one Link element over all its lines and pages, for a screen reader.
    let links = struct_tags(&s).iter().filter(|t| *t == "Link").count();
    assert_eq!(links, 2, "Link elements");
    if let Some(python) = page_validator() {
        for profile in ["ua1", "2b"] {
            let failures = validate(&python, &s, profile);
            assert!(failures.is_empty(), "{profile}: {failures:?}");
        }
    }
}

#[test]
fn compressed_images_shrink_a_big_picture_shown_small() {
    let mut doc = fx::doc("Pictures", vec![]);
    let big = fx::png(1600, 1200, |x, y| {
        [(x % 251) as u8, (y % 241) as u8, ((x ^ y) % 239) as u8]
    });
    doc.media.add("big.png", big);
    doc.blocks.push(Block::Image(Image {
        width_percent: Some(20.0),
        ..fx::image("big.png", None)
    }));
    let plain = pdf(&doc, PagedSettings::default()).0;
    let small = pdf(&doc, PagedSettings::default().with_compressed_images(true)).0;
    assert!(
        small.len() * 3 < plain.len(),
        "{} vs {} bytes",
        small.len(),
        plain.len()
    );
    check("compressed", &doc, &small, true);
}

// ---- tagged PDF and the standards -------------------------------------------------------

/// A tree with one of each structure: a contents list, headings, a paragraph with a link and a
/// footnote, a list, a table with a header row, a picture with alt text and caption.
fn structured() -> Document {
    let mut doc = fx::doc(
        "Tagged",
        vec![
            fx::p(TextType::Heading, 0, vec![fx::t("Introduction")]),
            fx::p(
                TextType::Paragraph,
                0,
                vec![
                    fx::t("See "),
                    fx::link("https://example.org", vec![fx::t("the site")]),
                    fx::t(" for more."),
                    fx::note(NoteKind::Footnote, vec![fx::t("The footnote text.")]),
                ],
            ),
            fx::p(TextType::ListUl, 0, vec![fx::t("First item")]),
            fx::p(TextType::ListUl, 0, vec![fx::t("Second item")]),
            Block::Table(Table {
                rows: vec![
                    Row {
                        header: true,
                        ..fx::row(vec![fx::tcell("Name"), fx::tcell("Value")])
                    },
                    fx::row(vec![fx::tcell("alpha"), fx::tcell("one")]),
                ],
                ..Table::default()
            }),
            Block::Image(Image {
                alt: Some("A small dot".into()),
                ..fx::image("dot.png", Some("The dot"))
            }),
            fx::p(TextType::Heading, 1, vec![fx::t("Details")]),
            fx::text("The end."),
        ],
    );
    doc.meta.language = Some("en".into());
    doc.media.add("dot.png", fx::dot_png());
    doc
}

/// `qpdf --check` passes without warnings.
fn qpdf_clean(name: &str, s: &Saved) {
    let q = tool("qpdf", &["--check", p(s)]);
    let out = String::from_utf8_lossy(&q.stdout).into_owned() + &String::from_utf8_lossy(&q.stderr);
    assert!(q.status.success(), "{name}: qpdf --check failed:\n{out}");
    assert!(!out.contains("WARNING"), "{name}: qpdf warns:\n{out}");
}

/// The structure elements `pdfinfo -struct-text` prints, in order (the first word of each line
/// that is a tag: `TH:` when attributes follow).
fn struct_tags(s: &Saved) -> Vec<String> {
    let out = tool("pdfinfo", &["-struct-text", p(s)]);
    assert!(out.status.success(), "pdfinfo -struct-text failed");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        // Quoted text, attributes (`/Scope /Column`) and annotation references are not tags.
        .filter(|l| !l.is_empty() && !l.starts_with('"') && !l.starts_with('/'))
        .filter(|l| !l.starts_with("Object "))
        .filter_map(|l| l.split_whitespace().next())
        .map(|t| t.trim_end_matches(':').to_string())
        .collect()
}

#[test]
fn the_tag_tree_holds_the_structure_in_reading_order() {
    let doc = structured();
    let settings = PagedSettings::new(Language::En)
        .with_text_toc(true)
        .with_image_caption(true);
    let (out, _) = pdf(&doc, settings);
    let s = check("structured", &doc, &out, true);
    let tags = struct_tags(&s);
    let expected = [
        "Document", "TOC", "TOCI", "Link", "H1", "P", "Link", "Note", "L", "LI", "Lbl", "LBody",
        "Table", "THead", "TR", "TH", "TBody", "TD", "Figure", "Caption", "H2", "P",
    ];
    // Each expected tag, in this order (others may come between).
    let mut at = 0;
    for want in expected {
        match tags[at..].iter().position(|t| t == want) {
            Some(i) => at += i + 1,
            None => panic!("no {want} after position {at} in {tags:?}"),
        }
    }
    let attrs = String::from_utf8_lossy(&tool("pdfinfo", &["-struct", p(&s)]).stdout).into_owned();
    assert!(
        attrs.contains("/Scope /Column"),
        "the header cells' scope: {attrs}"
    );
    assert!(attrs.contains("/BBox"), "the figure's box: {attrs}");
    // pdfinfo does not print `/Alt`: read it from the uncompressed file.
    let qdf = s.path.with_extension("qdf.pdf");
    let q = tool(
        "qpdf",
        &[
            "--qdf",
            "--object-streams=disable",
            p(&s),
            qdf.to_str().unwrap(),
        ],
    );
    assert!(q.status.success());
    let raw = String::from_utf8_lossy(&std::fs::read(&qdf).unwrap()).into_owned();
    assert!(raw.contains("/Alt (A small dot)"), "the figure's alt text");
}

#[test]
fn every_pdf_is_tagged_with_artifacts_outside_the_tree() {
    let doc = fx::everything();
    let (out, _) = pdf(&doc, all_on(Language::En));
    let s = save(&out);
    qpdf_clean("everything", &s);
    let info = String::from_utf8_lossy(&tool("pdfinfo", &[p(&s)]).stdout).into_owned();
    assert!(info.contains("Tagged:          yes"), "{info}");
    // The running footer is an artifact: its text is on the page but not in the tree.
    let tree =
        String::from_utf8_lossy(&tool("pdfinfo", &["-struct-text", p(&s)]).stdout).into_owned();
    assert!(text_of(&s, Some((1, 1))).contains("Page 1 of"));
    assert!(!tree.contains("Page 1 of"), "the footer is content: {tree}");
}

#[test]
fn standards_are_met_or_refused_naming_every_reason() {
    use sdconv::export::pdf::PdfStandard;
    let doc = structured();
    for standard in PdfStandard::ALL {
        let out = write(
            &doc,
            &PdfOptions::new(PagedSettings::default()).with_standard(standard),
        )
        .unwrap_or_else(|e| panic!("{standard}: {e}"));
        let s = save(&out.value);
        qpdf_clean(standard.as_str(), &s);
        let meta = String::from_utf8_lossy(&tool("pdfinfo", &["-meta", p(&s)]).stdout).into_owned();
        if standard.archival() {
            assert!(meta.contains("pdfaid:part"), "{standard}: {meta}");
        }
        if standard.accessible() {
            assert!(meta.contains("pdfuaid:part"), "{standard}: {meta}");
        }
    }
    // A picture with neither alt text nor caption cannot be described: PDF/UA names it.
    let mut bare = structured();
    bare.media.add("plain.png", fx::dot_png());
    bare.blocks.push(Block::Image(fx::image("plain.png", None)));
    bare.blocks.push(fx::text("a \u{10FFFD} b"));
    let err = write(
        &bare,
        &PdfOptions::new(PagedSettings::default()).with_standard(PdfStandard::A2bUa1),
    )
    .expect_err("cannot conform");
    let message = err.to_string();
    assert!(
        matches!(err, sdconv::Error::Nonconforming { .. }),
        "{message}"
    );
    assert!(
        message.contains("plain.png") && message.contains("U+10FFFD"),
        "{message}"
    );
    // Without a standard the same tree is written (the problems are warnings).
    assert!(write(&bare, &PdfOptions::new(PagedSettings::default())).is_ok());
}

/// The independent validator (`page`, PyPI `page-validation`): its Python, from
/// `SDCONV_PAGE_VALIDATION`, else a `python3` that imports `page`. CI installs it and sets the
/// variable; elsewhere the test is skipped with the reason printed.
fn page_validator() -> Option<String> {
    if let Ok(py) = std::env::var("SDCONV_PAGE_VALIDATION") {
        return Some(py);
    }
    let found = Command::new("python3")
        .args(["-c", "import page"])
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some("python3".into());
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must install page-validation and set SDCONV_PAGE_VALIDATION (.ci/run)"
    );
    None
}

/// Failed rules and their messages for `profile` (`ua1`, `2b`, …); empty when compliant.
fn validate(python: &str, s: &Saved, profile: &str) -> Vec<String> {
    let script = "import sys, page\n\
        r = page.validate_pdf(sys.argv[1], profile=sys.argv[2])\n\
        for f in r.failures: print(f.rule_id, f.message)\n\
        print('compliant' if r.is_compliant else 'not compliant')\n";
    let out = tool(python, &["-c", script, p(s), profile]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "page-validation failed: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if text.lines().last() == Some("compliant") {
        return Vec::new();
    }
    text.lines()
        .filter(|l| *l != "not compliant")
        .map(String::from)
        .collect()
}

#[test]
fn the_benchmark_document_meets_pdf_ua_1_and_pdf_a_2b_for_an_independent_validator() {
    use sdconv::export::pdf::PdfStandard;
    let Some(python) = page_validator() else {
        eprintln!("skipped: page-validation is not installed (pip install page-validation)");
        return;
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/medium.docx");
    let Ok(bytes) = std::fs::read(&path) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} is missing",
            path.display()
        );
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let doc = sdconv::import(Format::Word, &bytes, &ImportOptions::default())
        .expect("medium.docx reads")
        .value;
    for (standard, profiles) in [
        (PdfStandard::A2bUa1, &["ua1", "2b"][..]),
        (PdfStandard::Ua1, &["ua1"][..]),
        (PdfStandard::A2b, &["2b"][..]),
    ] {
        let out = write(
            &doc,
            &PdfOptions::new(PagedSettings::default()).with_standard(standard),
        )
        .unwrap_or_else(|e| panic!("{standard}: {e}"));
        let s = save(&out.value);
        qpdf_clean(standard.as_str(), &s);
        for profile in profiles {
            let failures = validate(&python, &s, profile);
            assert!(
                failures.is_empty(),
                "{standard} checked as {profile}: {} failure(s):\n{}",
                failures.len(),
                failures.join("\n")
            );
        }
    }
}

/// `page` reads the widths of a CID-keyed CFF font (Noto CJK's) wrongly where the font has
/// several font dictionaries, and reports a glyph whose program and /W agree as 0 wide in its
/// program. Such reports are dropped from `failures` only when fontTools, reading every glyph's
/// charstring width through the font's own FDSelect (`tests/pdf_support/cff_widths.py`), finds
/// no glyph of any such font whose widths differ.
fn cross_check_cff_widths(python: &str, name: &str, s: &Saved, failures: &mut Vec<String>) {
    let is_cff_width = |f: &String| f.contains("GLYPH-WIDTH") && f.contains("CIDFontType0C");
    if !failures.iter().any(is_cff_width) {
        return;
    }
    let qdf = s.path.with_extension("qdf.pdf");
    let q = tool(
        "qpdf",
        &[
            "--qdf",
            "--object-streams=disable",
            p(s),
            qdf.to_str().expect("utf-8 temp path"),
        ],
    );
    assert!(q.status.success(), "{name}: qpdf --qdf failed");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pdf_support/cff_widths.py");
    let out = tool(
        python,
        &[
            script.to_str().expect("utf-8 path"),
            qdf.to_str().expect("utf-8 temp path"),
        ],
    );
    let report =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{name}: the CFF fonts' widths differ from /W (fontTools):\n{report}"
    );
    eprintln!("{name}: page's CFF width report contradicted by fontTools: {report}");
    failures.retain(|f| !is_cff_width(f));
}

#[test]
fn every_script_fixture_and_the_tree_with_everything_meet_pdf_a_2b_and_ua_1() {
    use sdconv::export::pdf::PdfStandard;
    let Some(python) = page_validator() else {
        eprintln!("skipped: page-validation is not installed (pip install page-validation)");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scripts");
    let mut docs: Vec<(String, Document)> = std::fs::read_dir(&dir)
        .expect("script fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "docx"))
        .map(|p| {
            let bytes = std::fs::read(&p).expect("fixture");
            let doc = sdconv::import(Format::Word, &bytes, &ImportOptions::default())
                .expect("fixture reads")
                .value;
            (p.display().to_string(), doc)
        })
        .collect();
    assert!(docs.len() >= 8, "{} script fixtures", docs.len());
    // The tree with every kind of block, hyphenated (soft hyphens in the text layer).
    let mut everything = fx::everything();
    everything.meta.language = Some("en-US".into());
    everything.meta.hyphenate = true;
    docs.push(("the tree with everything".into(), everything));
    for (name, doc) in &docs {
        let out = write(
            doc,
            &PdfOptions::new(PagedSettings::default()).with_standard(PdfStandard::A2bUa1),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = save(&out.value);
        qpdf_clean(name, &s);
        for profile in ["ua1", "2b"] {
            let mut failures = validate(&python, &s, profile);
            cross_check_cff_widths(&python, name, &s, &mut failures);
            assert!(
                failures.is_empty(),
                "{name} checked as {profile}: {} failure(s):\n{}",
                failures.len(),
                failures.join("\n")
            );
        }
    }
}

#[test]
fn hyphenated_justified_text_keeps_every_word_for_a_text_extractor() {
    // A narrow page's worth of long words, justified, in a document that asks for automatic
    // hyphenation as Word's `w:autoHyphenation` does.
    let prose = "Hyphenation considerably improves the appearance of justified paragraphs, \
        particularly where extraordinarily long administrative and organisational vocabulary \
        would otherwise leave conspicuous gaps between the remaining words of a line. ";
    let mut para = fx::para(TextType::Paragraph, 0, vec![fx::t(&prose.repeat(12))]);
    para.align = sdconv::ast::Align::Justify;
    let mut doc = fx::doc("Hyphenation", vec![Block::Paragraph(para)]);
    doc.meta.language = Some("en-US".into());
    let count_hyphens = |doc: &Document| {
        let (bytes, _) = pdf(doc, PagedSettings::default());
        let s = save(&bytes);
        let layout = text_of(&s, None);
        // The hyphen drawn at a break is U+00AD in the text layer: it says the word goes on.
        let hyphens = layout
            .lines()
            .filter(|l| l.trim_end().ends_with('\u{AD}'))
            .count();
        let plain = tool("pdftotext", &[p(&s), "-"]);
        let plain = String::from_utf8_lossy(&plain.stdout).replace("\u{AD}\n", "");
        (hyphens, plain)
    };
    let (none, _) = count_hyphens(&doc);
    assert_eq!(none, 0, "no hyphens unless the document or the caller asks");
    doc.meta.hyphenate = true;
    let (hyphens, plain) = count_hyphens(&doc);
    assert!(hyphens >= 5, "only {hyphens} lines end in a hyphen");
    let mut got = BTreeSet::new();
    words(&plain, &mut got);
    let want = tree_words(&doc, false);
    let lost: Vec<&String> = want.difference(&got).collect();
    assert!(lost.is_empty(), "words lost to hyphenation: {lost:?}");
    // The caller can ask too, for a document that does not.
    doc.meta.hyphenate = false;
    let out = write(&doc, &PdfOptions::default().with_hyphenation(true)).expect("PDF export");
    let s = save(&out.value);
    assert!(text_of(&s, None).contains('\u{AD}'));
}
