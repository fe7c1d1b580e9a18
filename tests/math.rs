//! Equations: OMML read with its structure, written as MathML (HTML), TeX (Markdown, read back),
//! OMML (Word, read back), an sd.xml extension with a plain-text fallback, linear text (parsX).

mod docx_support;

use docx_support::*;
use sdconv::ast::math::linear_text;
use sdconv::ast::{Block, Inline, MathNode, Paragraph, TextType};
use sdconv::export::markdown::MarkdownOptions;
use sdconv::export::parsx::ParsxOptions;
use sdconv::export::sdxml::SdxmlExportOptions;
use sdconv::import::markdown::MarkdownImportOptions;
use sdconv::import::sdxml::SdxmlImportOptions;
use sdconv::{Document, ExportOptions, Format, ImportOptions, WarningKind};

/// `<m:r><m:t>s</m:t></m:r>`.
fn r(s: &str) -> String {
    format!("<m:r><m:t>{s}</m:t></m:r>")
}

/// Every OMML structure the reader knows, inline in text and displayed, plus one unknown
/// element whose text must survive.
fn fixture() -> String {
    let inline = format!(
        "<m:oMath><m:f><m:num>{}{}{}</m:num><m:den>{}</m:den></m:f>{}\
         <m:sSubSup><m:e>{}</m:e><m:sub>{}</m:sub><m:sup>{}</m:sup></m:sSubSup>{}\
         <m:rad><m:deg>{}</m:deg><m:e>{}</m:e></m:rad>\
         <m:rad><m:radPr><m:degHide m:val=\"1\"/></m:radPr><m:deg/><m:e>{}</m:e></m:rad></m:oMath>",
        r("a"),
        r("+"),
        r("b"),
        r("2"),
        r("+"),
        r("x"),
        r("i"),
        r("2"),
        r("−"),
        r("3"),
        r("y"),
        r("z"),
    );
    let display = format!(
        "<m:oMathPara><m:oMath>\
         <m:nary><m:naryPr><m:chr m:val=\"∑\"/><m:limLoc m:val=\"undOvr\"/></m:naryPr><m:sub>{}</m:sub><m:sup>{}</m:sup><m:e>{}</m:e></m:nary>{}\
         <m:d><m:dPr><m:begChr m:val=\"[\"/><m:endChr m:val=\"]\"/></m:dPr><m:e><m:m><m:mr><m:e>{}</m:e><m:e>{}</m:e></m:mr><m:mr><m:e>{}</m:e><m:e>{}</m:e></m:mr></m:m></m:e></m:d>\
         <m:acc><m:e>{}</m:e></m:acc><m:bar><m:barPr><m:pos m:val=\"top\"/></m:barPr><m:e>{}</m:e></m:bar>\
         <m:func><m:fName><m:limLow><m:e><m:r><m:rPr><m:sty m:val=\"p\"/></m:rPr><m:t>lim</m:t></m:r></m:e><m:lim>{}{}</m:lim></m:limLow></m:fName><m:e><m:sSub><m:e>{}</m:e><m:sub>{}</m:sub></m:sSub></m:e></m:func>\
         <m:func><m:fName>{}</m:fName><m:e>{}</m:e></m:func>\
         <m:r><m:rPr><m:nor/></m:rPr><m:t xml:space=\"preserve\"> if </m:t></m:r>{}\
         <m:foo><m:r><m:t>zz</m:t></m:r></m:foo></m:oMath></m:oMathPara>",
        r("i=1"),
        r("n"),
        r("i"),
        r("="),
        r("1"),
        r("0"),
        r("0"),
        r("1"),
        r("x"),
        r("y"),
        r("n→"),
        r("∞"),
        r("a"),
        r("n"),
        r("sin"),
        r("θ"),
        r("k"),
    );
    format!(
        "<w:p><w:r><w:t xml:space=\"preserve\">Inline </w:t></w:r>{inline}<w:r><w:t xml:space=\"preserve\"> end.</w:t></w:r></w:p>\
         <w:p>{display}</w:p>\
         <m:oMathPara><m:oMath>{}{}{}</m:oMath></m:oMathPara>",
        r("E=m"),
        r("c"),
        r("²"),
    )
}

fn formulas(doc: &Document) -> Vec<(bool, Vec<MathNode>)> {
    let mut out = Vec::new();
    for b in &doc.blocks {
        if let Block::Paragraph(p) = b {
            for i in &p.content {
                if let Inline::Math { display, math } = i {
                    out.push((*display, math.clone()));
                }
            }
        }
    }
    out
}

fn imported() -> Document {
    let c = docx(&fixture()).read();
    valid(&c);
    c.value
}

#[test]
fn omml_is_read_with_its_structure() {
    let c = docx(&fixture()).read();
    valid(&c);
    golden("math", &c);
    // The one unknown element is named, and its text is in the tree.
    assert_eq!(
        messages(&c),
        ["equation element m:foo is not known: its text is kept as text"]
    );
    assert_eq!(c.warnings[0].kind, WarningKind::Lossy);
    let f = formulas(&c.value);
    assert_eq!(f.len(), 3);
    assert_eq!(
        f.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
        [false, true, true]
    );
    assert_eq!(linear_text(&f[0].1), "(a+b)/(2)+x_(i)^(2)−(3)√(y)√(z)");
    assert!(
        linear_text(&f[1].1).ends_with(" if kzz"),
        "{}",
        linear_text(&f[1].1)
    );
}

#[test]
fn deep_and_broken_omml_never_panics() {
    let deep = format!(
        "<w:p><m:oMath>{}{}{}</m:oMath></w:p>",
        "<m:f><m:num>".repeat(60),
        r("x"),
        "</m:num></m:f>".repeat(60)
    );
    let c = docx(&deep).read();
    valid(&c);
    let f = formulas(&c.value);
    assert_eq!(linear_text(&f[0].1).matches('x').count(), 1);
    // Elements missing their arguments.
    let c =
        docx("<w:p><m:oMath><m:f/><m:sSup/><m:nary/><m:d/><m:m/><m:func/></m:oMath></w:p>").read();
    valid(&c);
    assert_eq!(formulas(&c.value)[0].1.len(), 6);
}

#[test]
fn word_round_trip_keeps_formulas() {
    let doc = imported();
    let bytes = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let back = sdconv::import(Format::Word, &bytes, &ImportOptions::default()).unwrap();
    assert_eq!(formulas(&back.value), formulas(&doc));
    assert_eq!(back.value.blocks, doc.blocks);
}

#[test]
fn html_writes_mathml() {
    let doc = imported();
    let out = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let html = String::from_utf8(out.value).unwrap();
    assert!(html.contains("<math><mrow><mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mrow><mn>2</mn></mrow></mfrac>"));
    assert!(html.contains("<math display=\"block\"><mrow><munderover><mo>∑</mo>"));
    // Fences stretch; `lim`'s limit goes below it; a bar is a spacing macron over its base.
    assert!(html.contains("<mo fence=\"true\" stretchy=\"true\">[</mo><mtable>"));
    assert!(html.contains(
        "<munder><mrow><mi>lim</mi></mrow><mrow><mi>n</mi><mo>→</mo><mo>∞</mo></mrow></munder>"
    ));
    assert!(html.contains("<mover accent=\"true\"><mrow><mi>y</mi></mrow><mo>\u{af}</mo></mover>"));
    for tag in [
        "<msubsup>",
        "<mroot>",
        "<msqrt>",
        "<mtable>",
        "<mover accent=\"true\">",
        "<mtext>\u{a0}if\u{a0}</mtext>",
        "<mi>sin</mi>",
    ] {
        assert!(html.contains(tag), "{tag} missing");
    }
}

fn markdown_round_trip(doc: &Document) -> (String, Document) {
    let md = sdconv::export::markdown::write(doc, &MarkdownOptions::default())
        .value
        .text;
    let back = sdconv::import::markdown::read(
        md.as_bytes(),
        &MarkdownImportOptions::default(),
        &mut |_| None,
    )
    .unwrap();
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    (md, back.value)
}

#[test]
fn markdown_writes_tex_and_reads_it_back() {
    let doc = imported();
    let (md, back) = markdown_round_trip(&doc);
    assert!(
        md.contains("$\\frac{a+b}{2}+x_{i}^{2}−\\sqrt[3]{y}\\sqrt{z}$"),
        "{md}"
    );
    assert!(md.contains("$$\\sum_{i=1}^{n}{i}"), "{md}");
    assert_eq!(formulas(&back), formulas(&doc));
}

#[test]
fn markdown_reader_keeps_unreadable_tex_as_text() {
    let md = "a $\\left( x$ b and $\\foo y$ and \\$5\n";
    let c = sdconv::import::markdown::read(
        md.as_bytes(),
        &MarkdownImportOptions::default(),
        &mut |_| None,
    )
    .unwrap();
    let Block::Paragraph(p) = &c.value.blocks[0] else {
        panic!("not a paragraph");
    };
    let text = sdconv::ast::inline::plain_text(&p.content);
    assert!(text.starts_with("a $\\left( x$ b"), "{text}");
    assert!(text.ends_with("and $5"), "{text}");
    let kinds: Vec<_> = c.warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [WarningKind::Lossy, WarningKind::Lossy],
        "{:?}",
        c.warnings
    );
}

#[test]
fn sdxml_carries_formulas_in_the_extension_with_a_text_fallback() {
    let doc = imported();
    let xml = sdconv::export::sdxml::write_xml(&doc, &SdxmlExportOptions::default()).value;
    assert!(xml.contains("{\"math\":"), "{xml}");
    assert!(xml.contains("(a+b)/(2)+x_(i)^(2)−(3)√(y)√(z)<?sdconv {\"math_end\":null}?>"));
    let back = sdconv::import::sdxml::read_xml(
        xml.as_bytes(),
        &mut |_| None,
        &SdxmlImportOptions::default(),
    )
    .unwrap();
    assert_eq!(formulas(&back.value), formulas(&doc));
    assert_eq!(back.value.blocks, doc.blocks);

    // DTD-strict: only the fallback text, and a warning saying so.
    let strict = sdconv::export::sdxml::write_xml(&doc, &SdxmlExportOptions::strict());
    assert!(!strict.value.contains("<?sdconv"));
    assert!(strict.value.contains("Inline (a+b)/(2)"));
    assert!(
        strict
            .warnings
            .iter()
            .any(|w| w.message.contains("formula")),
        "{:?}",
        strict.warnings
    );
}

#[test]
fn parsx_and_json_keep_formulas() {
    let doc = imported();
    let px = sdconv::export::parsx::write_xml(&doc, &ParsxOptions::default());
    assert!(px.value.contains("Inline (a+b)/(2)+x_(i)^(2)"));
    assert!(
        px.warnings
            .iter()
            .any(|w| w.message.contains("linear text"))
    );
    let back = Document::from_json(&doc.to_json()).unwrap();
    assert_eq!(back, doc);
}

#[test]
fn a_typed_tree_round_trips_through_every_format_with_math() {
    let math = vec![MathNode::Fraction {
        num: vec![MathNode::ident("π")],
        den: vec![MathNode::number("4")],
    }];
    let mut doc = Document::new();
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![
            Inline::text("area "),
            Inline::Math {
                display: false,
                math,
            },
        ],
    )));
    assert_eq!(markdown_round_trip(&doc).1.blocks, doc.blocks);
    let bytes = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let back = sdconv::import(Format::Word, &bytes, &ImportOptions::default()).unwrap();
    assert_eq!(back.value.blocks, doc.blocks);
}

#[test]
fn sdxml_reader_stops_skipping_fallback_text_at_the_paragraph_end() {
    let doc = imported();
    let xml = sdconv::export::sdxml::write_xml(&doc, &SdxmlExportOptions::default()).value;
    // A hand edit dropped the first formula's closing PI: the formula's own paragraph loses
    // its fallback text and the rest of that paragraph, the next paragraph keeps its text.
    let broken = xml.replacen("<?sdconv {\"math_end\":null}?>", "", 1);
    let back = sdconv::import::sdxml::read_xml(
        broken.as_bytes(),
        &mut |_| None,
        &SdxmlImportOptions::default(),
    )
    .unwrap();
    assert_eq!(formulas(&back.value), formulas(&doc));
    assert!(
        back.warnings
            .iter()
            .any(|w| w.message.contains("without its {\"math_end\":null}")),
        "{:?}",
        back.warnings
    );
}
