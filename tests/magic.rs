//! Magic import: each style set on typed and Word-automatic numbering, the letter/roman
//! ambiguity, gaps, combined keys, unknown keys and the catalog's shape.

mod docx_support;

use docx_support::*;
use sdconv::ast::inline::plain_text;
use sdconv::ast::{Block, Inline, NumberFormat, Paragraph, TextStyle, TextType};
use sdconv::{Document, Format, ImportOptions, Report, WarningKind, magic};

use TextType::{Heading, HeadingOl, ListOl, ListUl, Paragraph as Para, ParagraphOl};

fn typed(lines: &[&str]) -> Document {
    let mut doc = Document::new();
    for l in lines {
        doc.blocks.push(Block::Paragraph(Paragraph::new(
            Para,
            vec![Inline::text(*l)],
        )));
    }
    doc
}

fn shape(doc: &Document) -> Vec<(TextType, u8, String)> {
    doc.blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => Some((p.kind, p.level, plain_text(&p.content))),
            _ => None,
        })
        .collect()
}

fn run(key: &str, mut doc: Document) -> (Vec<(TextType, u8, String)>, Report) {
    let mut report = Report::new();
    magic::apply(&mut doc, key, &mut report).unwrap();
    doc.validate().unwrap();
    (shape(&doc), report)
}

fn row(kind: TextType, level: u8, text: &str) -> (TextType, u8, String) {
    (kind, level, text.to_string())
}

fn warnings(r: &Report) -> usize {
    r.warnings().len()
}

#[test]
fn contract_1_1_1_typed_variants() {
    let doc = typed(&[
        "1. Definitions",
        "1.1 Terms have the meaning below.",
        "1.1.1 A sub-clause.",
        "1.1.2. Another sub-clause.",
        "1.2 Second clause.",
        "2 Term",
        "§ 3 Termination",
        "Plain text stays.",
        // A bare number that does not continue the sequence is a sentence, not a clause.
        "7 days' notice is required.",
    ]);
    let (got, report) = run("contract_1-1-1", doc);
    assert_eq!(
        got,
        vec![
            row(HeadingOl, 0, "Definitions"),
            row(ParagraphOl, 1, "Terms have the meaning below."),
            row(ParagraphOl, 2, "A sub-clause."),
            row(ParagraphOl, 2, "Another sub-clause."),
            row(ParagraphOl, 1, "Second clause."),
            row(HeadingOl, 0, "Term"),
            row(HeadingOl, 0, "Termination"),
            row(Para, 0, "Plain text stays."),
            row(Para, 0, "7 days' notice is required."),
        ]
    );
    assert_eq!(warnings(&report), 0, "{:?}", report.warnings());
}

#[test]
fn contract_1_1_a_typed_variants() {
    let doc = typed(&[
        "1. Scope",
        "1.1 General.",
        "a) first",
        "(b) second",
        "c. third",
        "2. Fees",
    ]);
    let (got, report) = run("contract_1-1-a", doc);
    assert_eq!(
        got,
        vec![
            row(HeadingOl, 0, "Scope"),
            row(ParagraphOl, 1, "General."),
            row(ParagraphOl, 2, "first"),
            row(ParagraphOl, 2, "second"),
            row(ParagraphOl, 2, "third"),
            row(HeadingOl, 0, "Fees"),
        ]
    );
    assert_eq!(warnings(&report), 0, "{:?}", report.warnings());
}

#[test]
fn contract_1_a_i_roman_and_letters_by_context() {
    let doc = typed(&[
        "1. Duties",
        "a) alpha",
        "(i) roman one",
        "(ii) roman two",
        "b) bravo",
        "c) c",
        "d) d",
        "e) e",
        "f) f",
        "g) g",
        "h) hotel",
        // After h), i) is the letter i.
        "i) india",
        "j) juliet",
        // A roman sequence under j).
        "i) first",
        "ii) second",
        "iii) third",
        "iv) fourth",
        "v) fifth",
    ]);
    let (got, report) = run("contract_1-a-i", doc);
    let kinds: Vec<(TextType, u8)> = got.iter().map(|(k, l, _)| (*k, *l)).collect();
    let mut want = vec![
        (HeadingOl, 0),
        (ParagraphOl, 1),
        (ParagraphOl, 2),
        (ParagraphOl, 2),
    ];
    want.extend([(ParagraphOl, 1); 8]); // b..i
    want.push((ParagraphOl, 1)); // j
    want.extend([(ParagraphOl, 2); 5]);
    assert_eq!(kinds, want, "{got:?}");
    assert_eq!(got[11].2, "india");
    assert_eq!(got[17].2, "fifth");
    assert_eq!(warnings(&report), 0, "{:?}", report.warnings());
}

#[test]
fn contract_1_a_i_h_then_i_ii_is_roman_by_lookahead() {
    let doc = typed(&[
        "1. X", "a) a", "b) b", "c) c", "d) d", "e) e", "f) f", "g) g", "h) h", "i) one", "ii) two",
    ]);
    let (got, _) = run("contract_1-a-i", doc);
    assert_eq!(got[9], row(ParagraphOl, 2, "one"));
    assert_eq!(got[10], row(ParagraphOl, 2, "two"));
}

#[test]
fn contract_1_a_a() {
    let doc = typed(&[
        "1. Parties",
        "a) buyer",
        "aa) name",
        "(bb) address",
        "ii) not roman here",
        "b) seller",
        "i) letter i",
    ]);
    let (got, report) = run("contract_1-a-a", doc);
    assert_eq!(
        got,
        vec![
            row(HeadingOl, 0, "Parties"),
            row(ParagraphOl, 1, "buyer"),
            row(ParagraphOl, 2, "name"),
            row(ParagraphOl, 2, "address"),
            row(ParagraphOl, 2, "not roman here"),
            row(ParagraphOl, 1, "seller"),
            row(ParagraphOl, 1, "letter i"),
        ]
    );
    // ii) after bb) skips cc)…hh), and i) after b) skips c)…h): two warnings.
    assert_eq!(warnings(&report), 2, "{:?}", report.warnings());
}

#[test]
fn gaps_and_restarts_map_with_warnings() {
    let doc = typed(&["1. One", "3. Three", "1.1 sub", "1.3 sub gap", "1. restart"]);
    let (got, report) = run("contract_1-1-1", doc);
    assert!(got.iter().all(|(k, _, _)| *k != Para), "{got:?}");
    let w = report.warnings();
    assert_eq!(w.len(), 3, "{w:?}");
    assert!(w.iter().all(|w| w.kind == WarningKind::Repaired));
    assert!(
        w[0].message.contains("skips") && w[0].location.block == Some(1),
        "{w:?}"
    );
    assert!(w[2].message.contains("restarts"), "{w:?}");
}

#[test]
fn formatting_after_the_number_is_kept() {
    let mut doc = Document::new();
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        Para,
        vec![
            Inline::text("1.\t"),
            Inline::styled(TextStyle::Bold, vec![Inline::text("Scope")]),
        ],
    )));
    let mut report = Report::new();
    magic::apply(&mut doc, "contract_1-1-1", &mut report).unwrap();
    let Some(Block::Paragraph(p)) = doc.blocks.first() else {
        panic!()
    };
    assert_eq!(p.kind, HeadingOl);
    assert_eq!(
        p.content,
        vec![Inline::styled(TextStyle::Bold, vec![Inline::text("Scope")])]
    );
}

fn heading(kind: TextType, level: u8, text: &str) -> Block {
    let mut p = Paragraph::new(kind, vec![Inline::text(text)]);
    p.level = level;
    Block::Paragraph(p)
}

#[test]
fn numbered_headers() {
    let mut doc = Document::new();
    doc.blocks = vec![
        heading(Heading, 0, "1 Introduction"),
        heading(Heading, 1, "1.1 Background"),
        heading(Heading, 2, "1.1.1 Details"),
        heading(Heading, 4, "1.1.1.1.1 Deep"),
        heading(Para, 0, "1. Body text stays numbered text"),
        heading(Heading, 0, "Appendix"),
    ];
    let (got, report) = run("numbered-headers", doc);
    assert_eq!(
        got,
        vec![
            row(HeadingOl, 0, "Introduction"),
            row(HeadingOl, 1, "Background"),
            row(HeadingOl, 2, "Details"),
            row(HeadingOl, 4, "Deep"),
            row(Para, 0, "1. Body text stays numbered text"),
            row(Heading, 0, "Appendix"),
        ]
    );
    assert_eq!(warnings(&report), 0, "{:?}", report.warnings());
}

#[test]
fn numbered_headers_2_keeps_the_top_level_unnumbered() {
    let mut doc = Document::new();
    doc.blocks = vec![
        heading(Heading, 0, "Annual report"),
        heading(Heading, 1, "1 Introduction"),
        heading(Heading, 2, "1.1 Background"),
        heading(HeadingOl, 0, "Word-numbered top"),
    ];
    let (got, report) = run("numbered-headers-2", doc);
    assert_eq!(
        got,
        vec![
            row(Heading, 0, "Annual report"),
            row(HeadingOl, 1, "Introduction"),
            row(HeadingOl, 2, "Background"),
            row(Heading, 0, "Word-numbered top"),
        ]
    );
    // The number Word drew on the top heading is gone: reported.
    assert_eq!(warnings(&report), 1, "{:?}", report.warnings());
}

fn word_item(kind: TextType, level: u8, format: NumberFormat, text: &str) -> Block {
    let mut p = Paragraph::new(kind, vec![Inline::text(text)]);
    p.level = level;
    p.number_format = Some(format);
    p.list_id = Some("1".into());
    Block::Paragraph(p)
}

#[test]
fn automatic_numbering_maps_by_word_level() {
    use NumberFormat::*;
    let mut doc = Document::new();
    doc.blocks = vec![
        word_item(ListOl, 0, Decimal, "Scope"),
        word_item(ListOl, 1, LowerLetter, "letter"),
        word_item(ParagraphOl, 2, LowerRoman, "roman"),
        word_item(ListUl, 0, Bullet, "bullet stays"),
        // Format does not fit level 1 of 1-a-i: left as Word made it.
        word_item(ListOl, 1, Decimal, "decimal at letter level"),
    ];
    let (got, _) = run("contract_1-a-i", doc);
    assert_eq!(
        got,
        vec![
            row(HeadingOl, 0, "Scope"),
            row(ParagraphOl, 1, "letter"),
            row(ParagraphOl, 2, "roman"),
            row(ListUl, 0, "bullet stays"),
            row(ListOl, 1, "decimal at letter level"),
        ]
    );
}

#[test]
fn combined_key_first_set_wins() {
    // Both sets match `1. Scope` in a heading: the first listed decides the level.
    let mk = || {
        let mut doc = Document::new();
        doc.blocks = vec![
            heading(Heading, 2, "1. Scope"),
            heading(Heading, 1, "2.1 Sub"),
            heading(Para, 0, "a) body letter"),
        ];
        doc
    };
    let (got, _) = run("contract_1-1-a|numbered-headers", mk());
    assert_eq!(got[0], row(HeadingOl, 0, "Scope"));
    assert_eq!(got[1], row(ParagraphOl, 1, "Sub"));
    // `a)` is level 2 of 1-1-a; no set maps it otherwise.
    assert_eq!(got[2], row(ParagraphOl, 2, "body letter"));
    let (got, _) = run("numbered-headers|contract_1-1-a", mk());
    assert_eq!(got[0], row(HeadingOl, 0, "Scope"));
    assert_eq!(got[1], row(HeadingOl, 1, "Sub"));
}

#[test]
fn unknown_key_is_a_parameter_error() {
    let mut doc = typed(&["1. x"]);
    let err = magic::apply(&mut doc, "contract_1-1-1|contract_9", &mut Report::new()).unwrap_err();
    assert_eq!(err.kind(), sdconv::ErrorKind::Parameter);
    assert!(err.to_string().contains("contract_9"), "{err}");
    // Nothing was applied.
    assert_eq!(shape(&doc)[0].2, "1. x");
}

#[test]
fn catalog_matches_the_spec() {
    let json: serde_json::Value = serde_json::from_str(&magic::catalog_json()).unwrap();
    let items = json.as_array().unwrap();
    let keys: Vec<&str> = items.iter().map(|i| i["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "contract_1-1-1",
            "contract_1-1-a",
            "contract_1-a-i",
            "contract_1-a-a",
            "numbered-headers",
            "numbered-headers-2"
        ]
    );
    for item in items {
        let obj = item.as_object().unwrap();
        assert_eq!(obj.len(), 2, "only key and name: {item}");
        let name = obj["name"].as_object().unwrap();
        assert_eq!(name.len(), 8, "{item}");
        for locale in magic::LOCALES {
            assert!(
                !name[locale].as_str().unwrap().is_empty(),
                "{locale} in {item}"
            );
        }
    }
}

/// Word lists the tests number paragraphs with (`numbered(numId, ilvl, text)`):
/// 1 = 1-1-1 (`%1.`, `%1.%2`, `%1.%2.%3`); 2 = 1-1-a (`(%3)`); 3 = 1-a-i (`%2)`, `(%3)` roman);
/// 4 = 1-a-a (`(%2)`, `%3%3)`); 5 = numbered headings (`%1`, `%1.%2`, tied to Heading 1/2);
/// 6 = 1-1-1 one Word level down (`Part %1` unused, `%2.`, `%2.%3`, `%2.%3.%4`);
/// 7 = a single letter `%3)` at level 2; 8 = level 0 starting at 3.
const NUMBERING: &str = r#"
<w:abstractNum w:abstractNumId="1">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2.%3"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="2">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%3)"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="3">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/><w:lvlText w:val="(%3)"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="4">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%2)"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%3%3)"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="5">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1"/><w:pStyle w:val="Heading1"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1.%2"/><w:pStyle w:val="Heading2"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="6">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="Part %1"/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%2."/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%2.%3"/></w:lvl>
  <w:lvl w:ilvl="3"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%2.%3.%4"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="7">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
  <w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
  <w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%3)"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="8">
  <w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="3"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="4"/></w:num>
<w:num w:numId="5"><w:abstractNumId w:val="5"/></w:num>
<w:num w:numId="6"><w:abstractNumId w:val="6"/></w:num>
<w:num w:numId="7"><w:abstractNumId w:val="7"/></w:num>
<w:num w:numId="8"><w:abstractNumId w:val="8"/></w:num>
"#;

#[test]
fn word_import_end_to_end_with_style_mapping_ignored() {
    let body = [
        numbered(2, 0, "Scope"),
        numbered(2, 1, "General"),
        numbered(2, 2, "detail"),
        p("2. Typed heading"),
    ]
    .concat();
    let bytes = docx(&body).numbering(NUMBERING).build();
    let mut options = ImportOptions::default();
    options.magic = Some("contract_1-1-a".into());
    options.docx.style_mapping =
        sdconv::import::docx::StyleMapping::from_json(r#"{"Normal": {"textType": "heading"}}"#)
            .unwrap();
    let c = sdconv::import(Format::Word, &bytes, &options).unwrap();
    c.value.validate().unwrap();
    assert_eq!(
        shape(&c.value),
        vec![
            row(HeadingOl, 0, "Scope"),
            row(ParagraphOl, 1, "General"),
            row(ParagraphOl, 2, "detail"),
            row(HeadingOl, 0, "Typed heading"),
        ]
    );
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("styleMapping ignored")),
        "{:?}",
        c.warnings
    );
    // Magic is for Word only: other inputs ignore it; a bad key fails before reading.
    options.magic = Some("nope".into());
    let err = sdconv::import(Format::Word, &bytes, &options).unwrap_err();
    assert_eq!(err.kind(), sdconv::ErrorKind::Parameter);
}

/// Every style set and every routine on every corpus docx: no error, a valid tree, and no
/// paragraph numbered by a set keeps its typed number.
#[test]
fn corpus_docx_with_every_set_and_routine() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/docx");
    if !root.is_dir() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap().flatten() {
        if let Ok(entries) = std::fs::read_dir(dir.path()) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "docx")),
            );
        }
    }
    files.sort();
    assert!(!files.is_empty());
    let routines: Vec<String> = sdconv::cleanup::Catalog::embedded()
        .unwrap()
        .routines
        .into_iter()
        .map(|r| r.key)
        .collect();
    let mut read = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        // Files the reader refuses (hostile or foreign fixtures) are the reader's tests' business.
        let Ok(plain) = sdconv::import(Format::Word, &bytes, &ImportOptions::default()) else {
            continue;
        };
        // What the reader's tree already breaks (a linked picture) is not ours to fix.
        let messages = |d: &Document| -> Vec<String> {
            d.validate()
                .err()
                .unwrap_or_default()
                .into_iter()
                .map(|v| v.message)
                .collect()
        };
        let baseline = messages(&plain.value);
        read += 1;
        for key in [
            "contract_1-1-1|numbered-headers",
            "contract_1-a-i",
            "contract_1-a-a|contract_1-1-a",
            "numbered-headers-2",
        ] {
            let mut options = ImportOptions::default();
            options.magic = Some(key.into());
            options.routines = routines.clone();
            let c = sdconv::import(Format::Word, &bytes, &options)
                .unwrap_or_else(|e| panic!("{}: {key}: {e}", path.display()));
            let new: Vec<String> = messages(&c.value)
                .into_iter()
                .filter(|m| !baseline.contains(m))
                .collect();
            assert!(new.is_empty(), "{}: {key}: {new:?}", path.display());
        }
    }
    assert!(read > 10, "only {read} corpus files read");
}

/// Word's own numbering, read by the docx reader, for each set.
mod automatic {
    use super::*;

    fn styles() -> String {
        [
            NORMAL.to_string(),
            pstyle(
                "Heading1",
                "heading 1",
                r#"<w:pPr><w:numPr><w:numId w:val="5"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr>"#,
            ),
            pstyle(
                "Heading2",
                "heading 2",
                r#"<w:pPr><w:numPr><w:ilvl w:val="1"/><w:numId w:val="5"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr>"#,
            ),
            pstyle("Heading3", "heading 3", r#"<w:pPr><w:outlineLvl w:val="2"/></w:pPr>"#),
        ]
        .concat()
    }

    fn item(num: u8, ilvl: u8, text: &str) -> String {
        numbered(u32::from(num), ilvl, text)
    }

    fn import(body: &str, key: &str) -> Vec<(TextType, u8, String)> {
        let bytes = docx(body).styles(&styles()).numbering(NUMBERING).build();
        let mut options = ImportOptions::default();
        options.magic = Some(key.into());
        let c = sdconv::import(Format::Word, &bytes, &options).unwrap();
        c.value.validate().unwrap();
        shape(&c.value)
    }

    #[test]
    fn contract_1_1_1() {
        let body = [
            item(1, 0, "Scope"),
            item(1, 1, "General"),
            item(1, 2, "Detail"),
            item(1, 0, "Fees"),
        ]
        .concat();
        assert_eq!(
            import(&body, "contract_1-1-1"),
            vec![
                row(HeadingOl, 0, "Scope"),
                row(ParagraphOl, 1, "General"),
                row(ParagraphOl, 2, "Detail"),
                row(HeadingOl, 0, "Fees"),
            ]
        );
    }

    #[test]
    fn contract_1_a_a_and_a_decimal_list_that_does_not_fit() {
        let body = [
            item(4, 0, "Parties"),
            item(4, 1, "buyer"),
            item(4, 2, "name"),
            item(1, 1, "decimal 1.1"),
        ]
        .concat();
        assert_eq!(
            import(&body, "contract_1-a-a"),
            vec![
                row(HeadingOl, 0, "Parties"),
                row(ParagraphOl, 1, "buyer"),
                row(ParagraphOl, 2, "name"),
                // Level 1 of 1-a-a is a letter: Word's decimal 1.1 stays what the reader made.
                row(ParagraphOl, 1, "decimal 1.1"),
            ]
        );
    }

    #[test]
    fn numbered_headers_word_and_typed() {
        let body = [
            ps("Heading1", "Intro"),
            ps("Heading2", "Background"),
            ps("Heading3", "2.1.1 Typed third level"),
            p("1. body text"),
        ]
        .concat();
        assert_eq!(
            import(&body, "numbered-headers"),
            vec![
                row(HeadingOl, 0, "Intro"),
                row(HeadingOl, 1, "Background"),
                row(HeadingOl, 2, "Typed third level"),
                row(Para, 0, "1. body text"),
            ]
        );
        let got = import(&body, "numbered-headers-2");
        assert_eq!(got[0], row(Heading, 0, "Intro"));
        assert_eq!(got[1], row(HeadingOl, 1, "Background"));
        assert_eq!(got[2], row(HeadingOl, 3, "Typed third level"));
    }
}

/// Word's level texts (`w:lvlText`) decide, as typed markers do: the same document typed and
/// numbered by Word gives the same tree.
mod level_text {
    use super::*;

    fn item(num: u8, ilvl: u8, text: &str) -> String {
        numbered(u32::from(num), ilvl, text)
    }

    fn import(body: &str, key: &str) -> (Document, Vec<sdconv::Warning>) {
        let bytes = docx(body).numbering(NUMBERING).build();
        let mut options = ImportOptions::default();
        options.magic = Some(key.into());
        let c = sdconv::import(Format::Word, &bytes, &options).unwrap();
        c.value.validate().unwrap();
        (c.value, c.warnings)
    }

    /// The same paragraphs typed and numbered by Word (list `num`), through the whole import.
    fn both(key: &str, num: u8, items: &[Item]) -> (Document, Document) {
        let typed: String = items
            .iter()
            .map(|(_, number, text)| p(&format!("{number} {text}")))
            .collect();
        let word: String = items
            .iter()
            .map(|(ilvl, _, text)| item(num, *ilvl, text))
            .collect();
        (import(&typed, key).0, import(&word, key).0)
    }

    /// (Word level, typed number, text) of one paragraph.
    type Item<'a> = (u8, &'a str, &'a str);

    #[test]
    fn typed_and_automatic_give_the_same_tree() {
        let cases: [(&str, u8, Vec<Item>); 3] = [
            (
                "contract_1-a-i",
                3,
                vec![
                    (0, "1.", "Parties"),
                    (1, "(a)", "the buyer"),
                    (2, "(i)", "its name"),
                    (2, "(ii)", "its seat"),
                    (1, "(b)", "the seller"),
                    (0, "2.", "Price"),
                ],
            ),
            (
                "contract_1-a-a",
                4,
                vec![
                    (0, "1.", "Parties"),
                    (1, "a)", "the buyer"),
                    (2, "aa)", "its name"),
                    (2, "bb)", "its seat"),
                ],
            ),
            (
                "contract_1-1-1",
                6,
                vec![
                    (1, "1.", "Scope"),
                    (2, "1.1", "General"),
                    (3, "1.1.1", "Detail"),
                    (1, "2.", "Fees"),
                ],
            ),
        ];
        for (key, num, items) in cases {
            let (typed, word) = both(key, num, &items);
            assert_eq!(typed, word, "{key}");
            // And both are what the set says, not just equal.
            let kinds: Vec<(TextType, u8)> = typed
                .blocks
                .iter()
                .map(|b| match b {
                    Block::Paragraph(p) => (p.kind, p.level),
                    other => panic!("{other:?}"),
                })
                .collect();
            let expected: Vec<(TextType, u8)> = items
                .iter()
                .map(
                    |(_, number, _)| match number.chars().filter(|c| *c == '.').count() {
                        _ if !number.starts_with(|c: char| c.is_ascii_digit()) => {
                            let level = if matches!(*number, "(i)" | "(ii)" | "aa)" | "bb)") {
                                2
                            } else {
                                1
                            };
                            (ParagraphOl, level)
                        }
                        1 if number.ends_with('.') => (HeadingOl, 0),
                        dots => (ParagraphOl, dots as u8),
                    },
                )
                .collect();
            assert_eq!(kinds, expected, "{key}");
        }
    }

    #[test]
    fn a_word_level_maps_by_what_it_draws_not_by_its_depth() {
        // Level 2 of list 7 draws a single letter `a)`: under 1-a-a that is the letter level
        // (as a typed `a)` would be), not the doubled-letter level 2.
        let body = [item(7, 0, "Parties"), item(7, 2, "the buyer")].concat();
        let (doc, _) = import(&body, "contract_1-a-a");
        assert_eq!(
            shape(&doc),
            vec![
                row(HeadingOl, 0, "Parties"),
                row(ParagraphOl, 1, "the buyer")
            ]
        );
        // Without a level text only the format is known: the Word level decides.
        let mut tree = Document::new();
        for (level, format, text) in [
            (0, NumberFormat::Decimal, "Parties"),
            (2, NumberFormat::LowerLetter, "the buyer"),
        ] {
            let mut para = Paragraph::new(ParagraphOl, vec![Inline::text(text)]);
            para.level = level;
            para.number_format = Some(format);
            para.list_id = Some("4".into());
            tree.blocks.push(Block::Paragraph(para));
        }
        let (got, _) = run("contract_1-a-a", tree);
        assert_eq!(got[1], row(ParagraphOl, 2, "the buyer"));
    }

    #[test]
    fn word_numbers_that_do_not_start_at_one_map_with_a_warning() {
        let body = [item(8, 0, "Third"), item(8, 0, "Fourth")].concat();
        let (doc, warnings) = import(&body, "contract_1-1-1");
        assert_eq!(
            shape(&doc),
            vec![row(HeadingOl, 0, "Third"), row(HeadingOl, 0, "Fourth")]
        );
        let skips: Vec<&str> = warnings
            .iter()
            .map(|w| w.message.as_str())
            .filter(|m| m.contains("skips"))
            .collect();
        assert_eq!(skips.len(), 1, "{warnings:?}");
        assert!(skips[0].contains("found 3, expected 1"), "{skips:?}");
        for b in &doc.blocks {
            let Block::Paragraph(p) = b else { continue };
            assert_eq!(
                (p.list_id.as_deref(), p.start, p.restart),
                (None, None, false)
            );
        }
    }
}

/// One Word fixture per style set, typed numbers (every variant, the roman/letter ambiguity, a
/// gap) next to the same structure numbered by Word, read through the whole import; the trees
/// and warnings are reviewed goldens in `tests/golden/magic/`.
mod goldens {
    use super::*;

    fn styles() -> String {
        [
            NORMAL.to_string(),
            pstyle(
                "Heading1",
                "heading 1",
                r#"<w:pPr><w:outlineLvl w:val="0"/></w:pPr>"#,
            ),
            pstyle(
                "Heading2",
                "heading 2",
                r#"<w:pPr><w:outlineLvl w:val="1"/></w:pPr>"#,
            ),
            pstyle(
                "Heading3",
                "heading 3",
                r#"<w:pPr><w:outlineLvl w:val="2"/></w:pPr>"#,
            ),
        ]
        .concat()
    }

    /// A heading numbered by Word through list 5.
    fn word_heading(ilvl: u8, text: &str) -> String {
        format!(
            r#"<w:p><w:pPr><w:pStyle w:val="Heading{}"/><w:numPr><w:ilvl w:val="{ilvl}"/><w:numId w:val="5"/></w:numPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#,
            ilvl + 1
        )
    }

    fn check(key: &str, typed: &[&str], word: &[(u32, u8, &str)]) {
        let mut body: String = typed.iter().map(|t| p(t)).collect();
        body.extend(word.iter().map(|(num, ilvl, t)| numbered(*num, *ilvl, t)));
        let bytes = docx(&body).styles(&styles()).numbering(NUMBERING).build();
        let mut options = ImportOptions::default();
        options.magic = Some(key.into());
        let c = sdconv::import(Format::Word, &bytes, &options).unwrap();
        valid(&c);
        golden_in("magic", key, &c);
    }

    #[test]
    fn contract_1_1_1() {
        check(
            "contract_1-1-1",
            &[
                "1. Definitions",
                "1.1 Terms have the meaning below.",
                "1.1.1 A sub-clause.",
                "1.1.2. Another sub-clause.",
                "1.2 Second clause.",
                "§ 2 Term",
                "4. Gap: the third clause is missing.",
                "Plain text stays.",
                "7 days' notice is required.",
            ],
            &[
                (1, 0, "Word clause"),
                (1, 1, "Word sub-clause"),
                (1, 2, "Word detail"),
            ],
        );
    }

    #[test]
    fn contract_1_1_a() {
        check(
            "contract_1-1-a",
            &[
                "1. Scope",
                "1.1 General.",
                "a) first",
                "(b) second",
                "c. third",
                "e) gap",
            ],
            &[
                (2, 0, "Word clause"),
                (2, 1, "Word sub-clause"),
                (2, 2, "Word letter"),
            ],
        );
    }

    #[test]
    fn contract_1_a_i() {
        check(
            "contract_1-a-i",
            &[
                "1. Duties",
                "a) alpha",
                "(i) roman one",
                "(ii) roman two",
                "b) b",
                "c) c",
                "d) d",
                "e) e",
                "f) f",
                "g) g",
                "h) hotel",
                "i) india, a letter after h)",
                "j) juliet",
                "i) roman again under j)",
                "ii) second",
            ],
            &[
                (3, 0, "Word clause"),
                (3, 1, "Word letter"),
                (3, 2, "Word roman"),
            ],
        );
    }

    #[test]
    fn contract_1_a_a() {
        check(
            "contract_1-a-a",
            &[
                "1. Parties",
                "a) buyer",
                "aa) name",
                "(bb) address",
                "b) seller",
            ],
            &[
                (4, 0, "Word clause"),
                (4, 1, "Word letter"),
                (4, 2, "Word double letter"),
            ],
        );
    }

    fn headings(key: &str, body: &[String]) {
        let bytes = docx(&body.concat())
            .styles(&styles())
            .numbering(NUMBERING)
            .build();
        let mut options = ImportOptions::default();
        options.magic = Some(key.into());
        let c = sdconv::import(Format::Word, &bytes, &options).unwrap();
        valid(&c);
        golden_in("magic", key, &c);
    }

    #[test]
    fn numbered_headers() {
        headings(
            "numbered-headers",
            &[
                ps("Heading1", "1 Introduction"),
                ps("Heading2", "1.1 Background"),
                ps("Heading3", "1.1.1 Details"),
                p("1. Body text stays numbered text"),
                word_heading(0, "Word-numbered chapter"),
                word_heading(1, "Word-numbered section"),
                ps("Heading2", "2.3 Gap"),
            ],
        );
    }

    /// Chapters on top, numbers from the level below: `1` under a chapter is level 1.
    #[test]
    fn numbered_headers_2() {
        headings(
            "numbered-headers-2",
            &[
                ps("Heading1", "Annual report"),
                ps("Heading2", "1 Introduction"),
                ps("Heading3", "1.1 Background"),
                p("1. Body text stays numbered text"),
                word_heading(0, "Word-numbered chapter"),
                word_heading(1, "Word-numbered section"),
                // Heading numbers run on across unnumbered chapters (the service counts only
                // numbered headings): 3 follows the Word-numbered 2, no gap.
                ps("Heading2", "3 Continues"),
            ],
        );
    }
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    fn arb_paragraph() -> impl Strategy<Value = Block> {
        let prefix = prop::sample::select(vec![
            "",
            "1. ",
            "1 ",
            "2.1 ",
            "1.1.1 ",
            "§ 3 ",
            "a) ",
            "(b) ",
            "c. ",
            "i) ",
            "(ii) ",
            "v) ",
            "x) ",
            "aa) ",
            "(bb) ",
            "h) ",
            "999 ",
            "1.",
            "(",
            "iv.",
            "\u{a0}1.\u{a0}",
        ]);
        let kind =
            prop::sample::select(vec![Para, Heading, HeadingOl, ParagraphOl, ListOl, ListUl]);
        let format = prop::option::of(prop::sample::select(vec![
            NumberFormat::Decimal,
            NumberFormat::LowerLetter,
            NumberFormat::LowerRoman,
            NumberFormat::Bullet,
        ]));
        (prefix, "[a-zé ]{0,6}", kind, 0u8..=5, format).prop_map(
            |(pre, rest, kind, level, format)| {
                let mut p = Paragraph::new(
                    kind,
                    sdconv::ast::inline::normalize(&[Inline::text(format!("{pre}{rest}"))]),
                );
                p.level = level;
                p.number_format = format;
                Block::Paragraph(p)
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Any mix of numbered, typed and plain paragraphs: every set applies without error and
        /// leaves a valid tree.
        #[test]
        fn every_set_leaves_a_valid_tree(blocks in prop::collection::vec(arb_paragraph(), 0..12)) {
            for key in ["contract_1-1-1", "contract_1-1-a", "contract_1-a-i", "contract_1-a-a",
                        "numbered-headers", "numbered-headers-2", "contract_1-a-i|numbered-headers-2"] {
                let mut doc = Document::new();
                doc.blocks = blocks.clone();
                magic::apply(&mut doc, key, &mut Report::new()).unwrap();
                prop_assert!(doc.validate().is_ok(), "{key}: {:?}", doc.validate());
            }
        }
    }
}
