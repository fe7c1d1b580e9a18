//! Parts the tree copies at every place that names them (notes, charts, SmartArt diagrams,
//! embedded documents) stay within a budget: a few kilobytes of zipped XML that name a 1.5 MiB
//! part hundreds of times read into a tree of tens of megabytes, not hundreds, with one warning
//! for the references left out; the first ones are kept. The body's two halves
//! (`src/import/docx/tree/seam.rs`) leave out the same references as one converter.
//!
//! Links copy their targets as well (every wrapper of a link's text and every linked picture
//! holds one), and their copies count against the same budget: a long target named from
//! hundreds of places, a link cut into a wrapper per run or carried across paragraphs, keeps
//! its text everywhere and its link as far as the budget goes, with one warning.

mod docx_support;

use docx_support::*;
use sdconv::ast::{Block, Inline, inline::plain_text};
use sdconv::import::docx::DocxImportOptions;
use sdconv::internal::read_docx_split_from;
use sdconv::{Converted, Document, WarningKind};

/// The size of a link target named again and again, and two thirds of a part's.
const BIG: usize = 1 << 20;
/// How often it is named: 200 MiB of copies without a budget.
const NAMED: usize = 200;

const DGM: &str = "http://schemas.openxmlformats.org/drawingml/2006/diagram";

/// A part's text, of 1.5 MiB: the budget (the part once, the main part and the relationships'
/// targets, and 16 MiB) holds 11 copies, far from a twelfth.
fn big_text() -> String {
    "copied ".repeat(3 * BIG / 14)
}

/// A paragraph per reference, so a long body splits into halves.
fn paragraphs(each: &str) -> String {
    paragraphs_naming(each, |_| true)
}

/// [`NAMED`] paragraphs; those `at` says name the part.
fn paragraphs_naming(each: &str, at: impl Fn(usize) -> bool) -> String {
    (0..NAMED)
        .map(|i| {
            let each = if at(i) { each } else { "" };
            format!(r#"<w:p><w:r><w:t>P{i} </w:t></w:r>{each}</w:p>"#)
        })
        .collect()
}

const NOTE_REF: &str = r#"<w:r><w:footnoteReference w:id="1"/></w:r>"#;

fn note_doc_naming(at: impl Fn(usize) -> bool) -> Docx {
    let notes = format!(
        r#"<w:footnote w:id="1"><w:p><w:r><w:t>{}</w:t></w:r></w:p></w:footnote>"#,
        big_text()
    );
    docx(&paragraphs_naming(NOTE_REF, at)).footnotes(&notes)
}

fn note_doc() -> Docx {
    note_doc_naming(|_| true)
}

fn chart_doc() -> Docx {
    let chart = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart><c:plotArea><c:barChart><c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>S</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>{}</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>1</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser></c:barChart></c:plotArea></c:chart></c:chartSpace>"#,
        big_text()
    );
    let run = r#"<w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="2" name="Chart 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId9"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#;
    docx(&paragraphs(run))
        .rel("rId9", "chart", "charts/chart1.xml", false)
        .part("word/charts/chart1.xml", chart.as_bytes())
}

fn diagram_doc() -> Docx {
    let data = format!(
        r#"<dgm:dataModel xmlns:dgm="{DGM}" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst><dgm:pt modelId="{{0}}" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt><dgm:pt modelId="{{A}}"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>{}</a:t></a:r></a:p></dgm:t></dgm:pt></dgm:ptLst><dgm:cxnLst><dgm:cxn modelId="1" srcId="{{0}}" destId="{{A}}" srcOrd="0" destOrd="0"/></dgm:cxnLst></dgm:dataModel>"#,
        big_text()
    );
    let run = format!(
        r#"<w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Diagram 1"/><a:graphic><a:graphicData uri="{DGM}"><dgm:relIds xmlns:dgm="{DGM}" r:dm="rIdDm" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#
    );
    docx(&paragraphs(&run))
        .rel("rIdDm", "diagramData", "diagrams/data1.xml", false)
        .part("word/diagrams/data1.xml", data.as_bytes())
}

fn chunk_doc() -> Docx {
    let body: String = (0..NAMED)
        .map(|i| format!(r#"<w:p><w:r><w:t>P{i}</w:t></w:r></w:p><w:altChunk r:id="rIdC"/>"#))
        .collect();
    docx(&body)
        .rel("rIdC", "aFChunk", "chunk.txt", false)
        .part("word/chunk.txt", big_text().as_bytes())
}

/// Reads `doc` in two halves (any body of two blocks or more) and by one converter, asserts
/// both alike, and hands back the one converter's.
fn read_alike(doc: &Docx) -> Converted<Document> {
    let bytes = doc.build();
    assert!(
        bytes.len() < 64 << 10,
        "the file is small: {} bytes",
        bytes.len()
    );
    let options = DocxImportOptions::default();
    let halves = read_docx_split_from(&bytes, &options, 2).expect("reads in halves");
    let one = read_docx_split_from(&bytes, &options, usize::MAX).expect("reads");
    assert!(halves.value == one.value, "the trees differ");
    assert_eq!(halves.warnings, one.warnings);
    one
}

/// How many copies of the big text the tree holds, and in which paragraphs (`P{i}`) the
/// copies stand or follow.
fn copies(doc: &Document) -> (usize, Vec<usize>) {
    let mut count = 0;
    let mut after = Vec::new();
    let mut last = None;
    doc.walk_blocks(&mut |_, block| match block {
        Block::Paragraph(p) => {
            let text = plain_text(&p.content);
            if let Some(n) = text.strip_prefix('P') {
                last = n.split(' ').next().and_then(|n| n.parse::<usize>().ok());
            }
            let notes = p
                .content
                .iter()
                .filter(|i| matches!(i, Inline::Note { content, .. } if plain_text(content).len() > BIG / 2))
                .count();
            let inside = usize::from(text.len() > BIG / 2);
            for _ in 0..notes + inside {
                count += 1;
                after.extend(last);
            }
        }
        Block::Table(_) | Block::Image(_) | Block::PageBreak | Block::Directory { .. } => {}
    });
    (count, after)
}

fn check(name: &str, doc: &Docx) {
    let c = read_alike(doc);
    valid(&c);
    let (count, after) = copies(&c.value);
    // The budget: the part once, the main part's few kilobytes and 16 MiB: 11 copies.
    assert_eq!(count, 11, "{name}: copies of the {NAMED} references");
    // The first references are the ones kept.
    assert_eq!(after, (0..count).collect::<Vec<_>>(), "{name}");
    let refused: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.message.contains("named many times"))
        .collect();
    assert_eq!(refused.len(), 1, "{name}: {:?}", c.warnings);
    assert_eq!(refused[0].kind, WarningKind::Dropped, "{name}");
}

#[test]
fn a_note_named_hundreds_of_times_is_copied_within_the_budget() {
    check("note", &note_doc());
}

#[test]
fn a_chart_named_hundreds_of_times_is_copied_within_the_budget() {
    check("chart", &chart_doc());
}

#[test]
fn a_diagram_named_hundreds_of_times_is_copied_within_the_budget() {
    check("diagram", &diagram_doc());
}

#[test]
fn an_embedded_document_named_hundreds_of_times_is_copied_within_the_budget() {
    check("chunk", &chunk_doc());
}

/// The first half names the note 11 times (all that fit), the second half 4 times: each half
/// alone fits, together they do not, so the second half is converted again behind the first
/// and keeps none, as one converter does.
#[test]
fn halves_that_fit_alone_but_not_together_join_as_one_converter() {
    let doc = note_doc_naming(|i| (100..111).contains(&i) || (130..134).contains(&i));
    let c = read_alike(&doc);
    let (count, after) = copies(&c.value);
    assert_eq!(count, 11);
    assert_eq!(after, (100..111).collect::<Vec<_>>());
}

/// An embedded Word document has no budget of its own beyond its parts once: the outer
/// document's budget counts its blocks, so nesting cannot multiply the room.
#[test]
fn an_embedded_word_document_copies_its_parts_once() {
    let inner = note_doc().build();
    let outer = docx(&[p("Before"), r#"<w:altChunk r:id="rIdW"/>"#.to_string()].concat())
        .rel("rIdW", "aFChunk", "inner.docx", false)
        .part("word/inner.docx", &inner);
    let c = read_alike(&outer);
    let (count, _) = copies(&c.value);
    assert_eq!(count, 1, "the inner document keeps its note once");
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("in the embedded Word chunk")
                && w.message.contains("named many times")),
        "{:?}",
        c.warnings
    );
}

#[test]
fn a_note_named_twice_is_copied_twice_without_a_warning() {
    let notes = r#"<w:footnote w:id="1"><w:p><w:r><w:t>Shared note</w:t></w:r></w:p></w:footnote>"#;
    let body = [
        r#"<w:p><w:r><w:t>One</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>"#,
        r#"<w:p><w:r><w:t>Two</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>"#,
    ]
    .concat();
    let c = read_alike(&docx(&body).footnotes(notes));
    let mut notes = 0;
    c.value.walk_inlines(&mut |i| {
        if matches!(i, Inline::Note { content, .. } if plain_text(content) == "Shared note") {
            notes += 1;
        }
    });
    assert_eq!(notes, 2);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

/// A link target of a little more than 1 MiB.
fn big_target() -> String {
    format!("https://example.org/{}", "a".repeat(BIG))
}

/// The links (wrappers whose target is [`big_target`]) and linked pictures the tree holds.
fn big_links(doc: &Document) -> (usize, usize) {
    let (mut links, mut pictures) = (0, 0);
    doc.walk_inlines(&mut |i| match i {
        Inline::Link { href, .. } if href.len() > BIG => links += 1,
        Inline::Image { media, .. } if media.len() > BIG => pictures += 1,
        _ => {}
    });
    doc.walk_blocks(&mut |_, b| {
        if matches!(b, Block::Image(i) if i.media.len() > BIG) {
            pictures += 1;
        }
    });
    (links, pictures)
}

/// The text of every paragraph, in order.
fn texts(doc: &Document) -> Vec<String> {
    let mut out = Vec::new();
    doc.walk_blocks(&mut |_, b| {
        if let Block::Paragraph(p) = b {
            out.push(plain_text(&p.content));
        }
    });
    out
}

/// Reads `doc` (in halves and by one converter alike), asserts that `kept` of the links are
/// kept and that the budget's one warning was given, and hands back the tree.
fn check_links(name: &str, doc: &Docx, kept: usize) -> Document {
    let c = read_alike(doc);
    valid(&c);
    let (links, _) = big_links(&c.value);
    assert_eq!(links, kept, "{name}: links kept");
    let refused: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.message.contains("links and linked pictures would copy"))
        .collect();
    assert_eq!(refused.len(), 1, "{name}: {:?}", c.warnings);
    assert_eq!(refused[0].kind, WarningKind::Dropped, "{name}");
    c.value
}

/// [`NAMED`] paragraphs `P{i} ` followed by a one-word link (`each`: the hyperlink's start tag).
fn linked_paragraphs(each: impl Fn(usize) -> String) -> String {
    (0..NAMED)
        .map(|i| {
            format!(
                r#"<w:p><w:r><w:t xml:space="preserve">P{i} </w:t></w:r>{}<w:r><w:t>link</w:t></w:r></w:hyperlink></w:p>"#,
                each(i)
            )
        })
        .collect()
}

fn expected_linked_texts() -> Vec<String> {
    (0..NAMED).map(|i| format!("P{i} link")).collect()
}

/// The budget is 16 MiB, the target once (its relationship) and the main part: 17 copies of a
/// target of a little more than 1 MiB.
#[test]
fn a_long_target_named_from_hundreds_of_links_is_copied_within_the_budget() {
    let body = linked_paragraphs(|_| r#"<w:hyperlink r:id="rIdL">"#.into());
    let doc = docx(&body).rel("rIdL", "hyperlink", &big_target(), true);
    let tree = check_links("relationship", &doc, 17);
    // Every link's text is kept, with or without its link.
    assert_eq!(texts(&tree), expected_linked_texts());
}

/// A hyperlink with an anchor joins the two into a new href, a copy of the target: each link
/// then costs two copies (the joined href, and its wrapper), so half as many fit.
#[test]
fn links_with_anchors_count_the_joined_target_too() {
    let body = linked_paragraphs(|i| format!(r#"<w:hyperlink r:id="rIdL" w:anchor="b{i}">"#));
    let doc = docx(&body).rel("rIdL", "hyperlink", &big_target(), true);
    let tree = check_links("anchors", &doc, 8);
    assert_eq!(texts(&tree), expected_linked_texts());
}

/// Runs in and out of a tracked insertion cut one hyperlink into a wrapper per run (a change
/// nests outside a link): each wrapper is a copy.
#[test]
fn a_link_cut_by_a_tracked_change_at_every_run_is_copied_within_the_budget() {
    let runs: String = (0..NAMED)
        .map(|i| {
            format!(
                r#"<w:ins w:id="{i}" w:author="A"><w:r><w:t xml:space="preserve">i{i} </w:t></w:r></w:ins><w:r><w:t xml:space="preserve">o{i} </w:t></w:r>"#
            )
        })
        .collect();
    let body = format!(r#"<w:p><w:hyperlink r:id="rIdL">{runs}</w:hyperlink></w:p>"#);
    let doc = docx(&body).rel("rIdL", "hyperlink", &big_target(), true);
    let tree = check_links("tracked", &doc, 17);
    let want: String = (0..NAMED).map(|i| format!("i{i} o{i} ")).collect();
    assert_eq!(texts(&tree), vec![want]);
}

/// A `HYPERLINK` field's result across paragraphs is a link in each: each is a copy. The
/// target is written in the main part, which the budget holds once: 17 copies.
#[test]
fn a_field_link_across_hundreds_of_paragraphs_is_copied_within_the_budget() {
    let first = format!(
        r#"<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "{}" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>P0</w:t></w:r></w:p>"#,
        big_target()
    );
    let rest: String = (1..NAMED)
        .map(|i| format!(r#"<w:p><w:r><w:t>P{i}</w:t></w:r></w:p>"#))
        .collect();
    let end = r#"<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>"#;
    let tree = check_links("field", &docx(&[first, rest, end.into()].concat()), 17);
    let texts = texts(&tree);
    let want: Vec<String> = (0..NAMED).map(|i| format!("P{i}")).collect();
    assert_eq!(texts[..NAMED], want[..]);
}

/// Every linked picture holds its address: past the budget a picture is left out.
#[test]
fn a_long_picture_address_named_hundreds_of_times_is_copied_within_the_budget() {
    let run = r#"<w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="p"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:link="rIdI"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#;
    let doc = docx(&paragraphs(run)).rel("rIdI", "image", &big_target(), true);
    // (A linked picture is not in the media store, so the tree is not checked as valid.)
    let c = read_alike(&doc);
    let (_, pictures) = big_links(&c.value);
    assert_eq!(pictures, 17);
    assert!(
        c.warnings.iter().any(|w| w.kind == WarningKind::Dropped
            && w.message.contains("links and linked pictures would copy")),
        "{:?}",
        c.warnings
    );
}

/// Ordinary files never meet the budget: hundreds of links to one address, with and without
/// anchors, cut by changes, all kept, without a warning.
#[test]
fn hundreds_of_ordinary_links_are_all_kept() {
    let body = linked_paragraphs(|i| {
        if i % 2 == 0 {
            r#"<w:hyperlink r:id="rIdL">"#.into()
        } else {
            format!(r#"<w:hyperlink r:id="rIdL" w:anchor="b{i}">"#)
        }
    });
    let doc = docx(&body).rel("rIdL", "hyperlink", "https://example.org/page", true);
    let c = read_alike(&doc);
    let mut links = 0;
    c.value.walk_inlines(&mut |i| {
        if matches!(i, Inline::Link { href, .. } if href.starts_with("https://example.org/page")) {
            links += 1;
        }
    });
    assert_eq!(links, NAMED);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

/// One link over 200 runs that change formatting: the runs go on in one wrapper, which is one
/// copy of its 1 MiB target, so nothing is left out.
#[test]
fn a_link_over_runs_of_changing_formatting_is_one_copy() {
    let runs: String = (0..NAMED)
        .map(|i| {
            let bold = if i % 2 == 0 {
                "<w:rPr><w:b/></w:rPr>"
            } else {
                ""
            };
            format!(r#"<w:r>{bold}<w:t xml:space="preserve">r{i} </w:t></w:r>"#)
        })
        .collect();
    let body = format!(r#"<w:p><w:hyperlink r:id="rIdL">{runs}</w:hyperlink></w:p>"#);
    let doc = docx(&body).rel("rIdL", "hyperlink", &big_target(), true);
    let c = read_alike(&doc);
    assert_eq!(big_links(&c.value).0, 1);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

/// A note holds its links' targets shared, not copied: a note that names the long target 200
/// times, cited nowhere, does not raise the budget the body's links are charged against.
#[test]
fn a_note_naming_a_long_target_does_not_raise_the_budget() {
    let links: String = (0..NAMED)
        .map(|_| r#"<w:hyperlink r:id="rIdL"><w:r><w:t>x</w:t></w:r></w:hyperlink>"#)
        .collect();
    let notes = format!(r#"<w:footnote w:id="1"><w:p>{links}</w:p></w:footnote>"#);
    let body = linked_paragraphs(|_| r#"<w:hyperlink r:id="rIdL">"#.into());
    let doc = docx(&body)
        .footnotes(&notes)
        .rel("rIdL", "hyperlink", &big_target(), true);
    let tree = check_links("note", &doc, 17);
    assert_eq!(texts(&tree), expected_linked_texts());
}

/// An embedded Word document's ordinary links (one relationship named by several hyperlinks)
/// are all kept: a nested document has room for links that repeat.
#[test]
fn an_embedded_word_document_keeps_links_that_share_a_target() {
    let target = format!("https://example.org/{}", "t".repeat(500));
    let body: String = (0..10)
        .map(|i| format!(r#"<w:p><w:hyperlink r:id="rIdL"><w:r><w:t>link {i}</w:t></w:r></w:hyperlink></w:p>"#))
        .collect();
    let inner = docx(&body).rel("rIdL", "hyperlink", &target, true).build();
    let outer = docx(&[p("Before"), r#"<w:altChunk r:id="rIdW"/>"#.to_string()].concat())
        .rel("rIdW", "aFChunk", "inner.docx", false)
        .part("word/inner.docx", &inner);
    let c = read_alike(&outer);
    let mut links = 0;
    c.value.walk_inlines(&mut |i| {
        if matches!(i, Inline::Link { href, .. } if **href == *target) {
            links += 1;
        }
    });
    assert_eq!(links, 10);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}
