//! A large main part is parsed in two halves at once (`src/import/docx/parse/halves.rs`), and a
//! long body is converted into the tree in two halves at once (`src/import/docx/tree/seam.rs`).
//! Either way a Word file must read exactly as one parser and one converter read it: the same
//! tree, the same warnings. The parse is checked on the benchmark's real files (main parts of
//! 3.6 and 7.6 MB); the conversion on every Word file of the corpus and the benchmark, split
//! after two blocks with the second half always on the pool, and on documents made so that
//! what carries across the seam differs between the halves (list counters, media names,
//! bookmark ids, warnings given once, an open field, section ends, captions).

mod common;
mod docx_support;

use docx_support::*;
use sdconv::ast::{Block, TextType};
use sdconv::import::docx::{DocxImportOptions, read};
use sdconv::internal::read_docx_split_from;
use sdconv::{Converted, Document, WarningKind};

#[test]
fn large_files_read_alike_in_halves_and_by_one_parser() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    for name in ["large.docx", "large-lo.docx"] {
        let path = shared.join("bench").join(name);
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("skipped: {} is absent", path.display());
            continue;
        };
        let halves = read(&bytes, &DocxImportOptions::default()).expect("reads");
        let one = read(
            &bytes,
            &DocxImportOptions::default().with_parse_on_one_core(true),
        )
        .expect("reads");
        assert!(!halves.value.blocks.is_empty(), "{name}");
        assert!(halves.value == one.value, "{name}: the trees differ");
        assert_eq!(halves.warnings, one.warnings, "{name}");
    }
}

/// Reads `bytes` converted in two halves (any body of two blocks or more) and by one converter,
/// asserts that both give the same tree and warnings, and hands back the one converter's.
fn alike(bytes: &[u8], options: &DocxImportOptions, name: &str) -> Option<Converted<Document>> {
    let halves = read_docx_split_from(bytes, options, 2);
    let one = read_docx_split_from(bytes, options, usize::MAX);
    match (halves, one) {
        (Ok(halves), Ok(one)) => {
            assert!(halves.value == one.value, "{name}: the trees differ");
            assert_eq!(halves.warnings, one.warnings, "{name}");
            Some(one)
        }
        (Err(a), Err(b)) => {
            assert_eq!(a.to_string(), b.to_string(), "{name}");
            None
        }
        (a, b) => panic!("{name}: {:?} against {:?}", a.err(), b.err()),
    }
}

#[test]
fn every_word_file_converts_alike_in_two_halves() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut files = common::files_with(&shared.join("corpus/docx"), "docx");
    files.extend(common::files_with(&shared.join("bench"), "docx"));
    assert!(files.len() > 100, "{} Word files", files.len());
    let mammoth = DocxImportOptions::default().with_word_refs(true);
    for path in &files {
        let bytes = std::fs::read(path).expect("reads the file");
        let name = path.display().to_string();
        alike(&bytes, &DocxImportOptions::default(), &name);
        alike(&bytes, &mammoth, &format!("{name} (as mammoth reads)"));
    }
}

/// Ten paragraphs of text around `first` (blocks 0–5) and `second` (6–9): the seam falls at
/// block 6, three fifths in.
fn around_seam(first: &[String], second: &[String]) -> String {
    let fill = |blocks: &[String], from: usize, to: usize| -> Vec<String> {
        let mut out = blocks.to_vec();
        out.extend((from + blocks.len()..to).map(|i| p(&format!("Filler {i}"))));
        out
    };
    assert!(first.len() <= 6 && second.len() <= 4);
    [fill(first, 0, 6), fill(second, 6, 10)].concat().concat()
}

const LISTS: &str = r#"
<w:abstractNum w:abstractNumId="10">
  <w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl>
</w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="10"/></w:num>
"#;

#[test]
fn a_list_counted_on_across_the_seam_numbers_as_one_converter_numbers_it() {
    // numIds 1 and 4 share one abstract definition: Word counts 4's items on from 1's, where
    // a converter starting at the seam would count them from one.
    let first: Vec<String> = (1..=5)
        .map(|i| numbered(1, 0, &format!("one {i}")))
        .collect();
    let second: Vec<String> = (6..=8)
        .map(|i| numbered(4, 0, &format!("four {i}")))
        .collect();
    let bytes = docx(&around_seam(&first, &second))
        .styles(NORMAL)
        .numbering(LISTS)
        .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "lists").expect("reads");
    let starts: Vec<Option<u32>> = c
        .value
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) if p.kind == TextType::ListOl => Some(p.start),
            _ => None,
        })
        .collect();
    assert_eq!(starts.len(), 8, "{starts:?}");
    // The items of numId 4 go on at 6 whatever list ids the tree keeps.
    assert!(
        starts.iter().skip(5).all(|s| s.is_none()) || starts.get(5) == Some(&Some(6)),
        "{starts:?}"
    );
}

#[test]
fn pictures_of_one_file_name_in_both_halves_are_named_as_one_converter_names_them() {
    let pic = |rid: &str| format!("<w:p>{}</w:p>", drawing(rid, 914_400, 914_400, "alt"));
    let bytes = docx(&around_seam(
        &[pic("rIdA"), pic("rIdShared")],
        &[pic("rIdB"), pic("rIdShared")],
    ))
    .styles(NORMAL)
    .image("rIdA", "a/image1.png", png(4, 4))
    .image("rIdB", "b/image1.png", png(6, 6))
    .image("rIdShared", "image9.png", png(8, 8))
    .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "pictures").expect("reads");
    let mut names: Vec<&str> = c.value.media.iter().map(|m| m.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["image1-2.png", "image1.png", "image9.png"]);
}

fn marked(names: &[&str], text: &str) -> String {
    let starts: String = names
        .iter()
        .enumerate()
        .map(|(i, n)| format!(r#"<w:bookmarkStart w:id="{i}" w:name="{n}"/>"#))
        .collect();
    let ends: String = (0..names.len())
        .map(|i| format!(r#"<w:bookmarkEnd w:id="{i}"/>"#))
        .collect();
    format!(r#"<w:p>{starts}<w:r><w:t>{text}</w:t></w:r>{ends}</w:p>"#)
}

fn ids(c: &Converted<Document>) -> Vec<&str> {
    c.value
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph(p) => p.id.as_deref(),
            _ => None,
        })
        .collect()
}

#[test]
fn a_bookmark_named_in_both_halves_is_the_first_blocks_id() {
    let link = r##"<w:p><w:hyperlink w:anchor="_Toc9"><w:r><w:t>see there</w:t></w:r></w:hyperlink></w:p>"##;
    let bytes = docx(&around_seam(
        &[marked(&["twice"], "first")],
        &[
            marked(&["twice"], "second"),
            marked(&["twice", "other", "_Toc9"], "third"),
            link.to_string(),
        ],
    ))
    .styles(NORMAL)
    .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "bookmarks").expect("reads");
    assert_eq!(ids(&c), ["twice", "other"]);
    // Word's own bookmark on that block points where the block's id does.
    let json = serde_json::to_string(&c.value.blocks[8]).expect("serialises");
    assert!(json.contains("#other"), "{json}");
}

#[test]
fn a_bookmark_named_in_both_halves_is_given_again_in_a_cell_too() {
    let table = format!(
        "<w:tbl><w:tr><w:tc>{}</w:tc><w:tc>{}</w:tc></w:tr></w:tbl>",
        marked(&["twice", "inner"], "in a cell"),
        p("beside")
    );
    let bytes = docx(&around_seam(&[marked(&["twice"], "first")], &[table]))
        .styles(NORMAL)
        .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "cell").expect("reads");
    let json = serde_json::to_string(&c.value.blocks[6]).expect("serialises");
    assert!(json.contains(r#""id":"inner""#), "{json}");
}

#[test]
fn a_list_renumbered_across_the_seam_with_a_numbered_section_break_dropped() {
    // The dropped paragraph took a number the tree no longer shows: the numbers cannot be
    // matched to the paragraphs by their order, so the second half is converted again.
    let numbered_break = r#"<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="4"/></w:numPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr></w:p>"#;
    let first: Vec<String> = (1..=5)
        .map(|i| numbered(1, 0, &format!("one {i}")))
        .collect();
    let second = vec![
        numbered(4, 0, "four"),
        numbered_break.to_string(),
        numbered(4, 0, "five"),
    ];
    let bytes = docx(&around_seam(&first, &second))
        .styles(NORMAL)
        .numbering(LISTS)
        .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "numbered break").expect("reads");
    assert_eq!(c.value.blocks.len(), 9, "{:?}", c.value.blocks);
}

#[test]
fn every_bookmark_named_in_both_halves_reads_as_one_converter_reads_it() {
    // 300 ids to move at the join, more than it moves (each move walks the half): the second
    // half is converted again, with the same result.
    let first: String = (0..450)
        .map(|i| marked(&[&format!("mark{i}")], &format!("first {i}")))
        .collect();
    let second: String = (0..300)
        .map(|i| marked(&[&format!("mark{i}")], &format!("second {i}")))
        .collect();
    let bytes = docx(&(first + &second)).styles(NORMAL).build();
    let c = alike(&bytes, &DocxImportOptions::default(), "many").expect("reads");
    assert_eq!(ids(&c).len(), 450);
}

#[test]
fn a_list_renumbered_across_the_seam_in_merged_cells_reads_as_one_converter_reads_it() {
    // A vertically merged cell's text joins the cell it continues, in an earlier row, so the
    // tree's order of the list's paragraphs is not the order they were made in.
    let cell = |merge: &str, body: &str| format!("<w:tc><w:tcPr>{merge}</w:tcPr>{body}</w:tc>");
    let table = format!(
        "<w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>",
        cell(r#"<w:vMerge w:val="restart"/>"#, &numbered(7, 0, "x")),
        cell("", &numbered(4, 0, "b")),
        cell("<w:vMerge/>", &numbered(4, 0, "c")),
        cell("", &p("y")),
    );
    let first: Vec<String> = (1..=5)
        .map(|i| numbered(1, 0, &format!("one {i}")))
        .collect();
    let numbering = format!(
        r#"{LISTS}<w:abstractNum w:abstractNumId="70"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="70"/></w:num>"#
    );
    let doc = docx(&around_seam(&first, &[table]))
        .styles(NORMAL)
        .numbering(&numbering);
    table_after_seam(&doc, "merged cells");
}

/// Reads `doc` both ways ([`alike`]) and checks that its block 6, the second half's first, is
/// the table it starts with.
fn table_after_seam(doc: &Docx, name: &str) {
    let c = alike(&doc.build(), &DocxImportOptions::default(), name).expect("reads");
    assert!(
        matches!(c.value.blocks.get(6), Some(Block::Table(_))),
        "{name}: {:?}",
        c.value.blocks.get(6)
    );
}

#[test]
fn a_caption_in_a_cell_whose_bookmark_the_first_half_took_reads_as_one_converter_reads_it() {
    // Whether a caption goes onto its picture depends on the ids both hold.
    let styles = [NORMAL.to_string(), pstyle("Caption", "caption", "")].concat();
    let picture = format!(
        r#"<w:p><w:bookmarkStart w:id="1" w:name="Pic"/>{}<w:bookmarkEnd w:id="1"/></w:p>"#,
        drawing("rIdImg", 914_400, 914_400, "alt")
    );
    let caption = format!(
        r#"<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr><w:bookmarkStart w:id="2" w:name="Fig"/><w:bookmarkStart w:id="3" w:name="_Ref9"/><w:r><w:t xml:space="preserve">Figure </w:t></w:r>{}<w:r><w:t xml:space="preserve">: a cat</w:t></w:r><w:bookmarkEnd w:id="2"/><w:bookmarkEnd w:id="3"/></w:p>"#,
        field(r"SEQ Figure \* ARABIC", "1")
    );
    let table = format!("<w:tbl><w:tr><w:tc>{picture}{caption}</w:tc></w:tr></w:tbl>");
    let doc = docx(&around_seam(&[marked(&["Fig"], "first")], &[table]))
        .styles(&styles)
        .image("rIdImg", "image1.png", png(4, 4));
    table_after_seam(&doc, "cell caption");
}

#[test]
fn an_empty_section_break_paragraph_losing_its_id_to_the_first_half_is_dropped() {
    let empty_break = r#"<w:p><w:pPr><w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:pPr><w:bookmarkStart w:id="1" w:name="twice"/><w:bookmarkEnd w:id="1"/></w:p>"#;
    let bytes = docx(&around_seam(
        &[marked(&["twice"], "first")],
        &[empty_break.to_string()],
    ))
    .styles(NORMAL)
    .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "section break").expect("reads");
    assert_eq!(ids(&c), ["twice"]);
    assert_eq!(c.value.blocks.len(), 9, "{:?}", c.value.blocks);
}

#[test]
fn a_warning_given_once_is_given_once_across_the_seam() {
    let styles = [NORMAL.to_string(), pstyle("Banner", "Chapter Banner", "")].concat();
    let bytes = docx(&around_seam(
        &[ps("Banner", "early")],
        &[
            ps("Banner", "late"),
            format!("<w:p>{}</w:p>", drawing("rIdGone", 914_400, 914_400, "")),
        ],
    ))
    .styles(&styles)
    .rel("rIdGone", "image", "media/gone.png", false)
    .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "warnings").expect("reads");
    let unmapped = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::UnmappedStyle)
        .count();
    assert_eq!(unmapped, 1, "{:?}", c.warnings);
    // The second half's warning points at its block in the whole body.
    let missing = c
        .warnings
        .iter()
        .find(|w| w.kind == WarningKind::MissingMedia)
        .expect("the missing picture is warned about");
    assert_eq!(missing.location.block, Some(7), "{missing:?}");
}

#[test]
fn a_field_open_across_the_seam_reads_as_one_converter_reads_it() {
    let begin = r#"<w:p><w:r><w:t>Before</w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "https://example.org" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>linked</w:t></w:r></w:p>"#;
    let end = r#"<w:p><w:r><w:t>still linked</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t> after</w:t></w:r></w:p>"#;
    let bytes = docx(&around_seam(
        &[p("a"), p("b"), p("c"), p("d"), p("e"), begin.to_string()],
        &[end.to_string()],
    ))
    .styles(NORMAL)
    .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "field").expect("reads");
    let json = serde_json::to_string(&c.value.blocks[6]).expect("serialises");
    assert!(json.contains("https://example.org"), "{json}");
}

#[test]
fn sections_and_captions_in_both_halves_land_where_one_converter_puts_them() {
    let styles = [NORMAL.to_string(), pstyle("Caption", "caption", "")].concat();
    let section = |text: &str, width: u32| {
        format!(
            r#"<w:p><w:pPr><w:sectPr><w:pgSz w:w="{width}" w:h="16838"/><w:pgMar w:left="1000" w:right="1000" w:top="1000" w:bottom="1000"/></w:sectPr></w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"#
        )
    };
    let figure = |n: &str| {
        [
            format!("<w:p>{}</w:p>", drawing("rIdImg", 914_400, 914_400, "alt")),
            format!(
                r#"<w:p><w:pPr><w:pStyle w:val="Caption"/></w:pPr><w:r><w:t xml:space="preserve">Figure </w:t></w:r>{}<w:r><w:t xml:space="preserve">: picture {n}</w:t></w:r></w:p>"#,
                field(r"SEQ Figure \* ARABIC", n)
            ),
        ]
    };
    let first = [figure("1").to_vec(), vec![section("end of one", 11906)]].concat();
    let second = [figure("2").to_vec(), vec![section("end of two", 16838)]].concat();
    let bytes = docx(&around_seam(&first, &second))
        .styles(&styles)
        .image("rIdImg", "image1.png", png(4, 4))
        .build();
    let c = alike(&bytes, &DocxImportOptions::default(), "sections").expect("reads");
    let captions = c
        .value
        .blocks
        .iter()
        .filter(|b| matches!(b, Block::Image(i) if i.caption.is_some()))
        .count();
    assert_eq!(captions, 2, "{:?}", c.value.blocks);
    // Each section break paragraph is the break: two pictures, two filler paragraphs left of
    // the ten blocks.
    assert_eq!(c.value.blocks.len(), 8, "{:?}", c.value.blocks);
}

#[test]
fn notes_and_bookmarks_between_paragraphs_as_mammoth_reads_them_stay_in_order() {
    let note = |id: u32| {
        format!(
            r#"<w:p><w:r><w:t>Claim {id}</w:t></w:r><w:r><w:footnoteReference w:id="{id}"/></w:r></w:p>"#
        )
    };
    let notes = (1..=2)
        .map(|id| {
            format!(
                r#"<w:footnote w:id="{id}"><w:p><w:r><w:t>Note {id}</w:t></w:r></w:p></w:footnote>"#
            )
        })
        .collect::<String>();
    let loose = r#"<w:bookmarkStart w:id="5" w:name="between"/><w:bookmarkEnd w:id="5"/>"#;
    let bytes = docx(&format!(
        "{}{loose}{}",
        around_seam(&[note(1)], &[]).replace(
            "<w:p><w:r><w:t xml:space=\"preserve\">Filler 9</w:t></w:r></w:p>",
            ""
        ),
        note(2)
    ))
    .styles(NORMAL)
    .footnotes(&notes)
    .build();
    let mammoth = DocxImportOptions::default().with_word_refs(true);
    let c = alike(&bytes, &mammoth, "mammoth").expect("reads");
    let word = c.value.meta.word.as_ref().expect("read as mammoth reads");
    assert_eq!(word.note_ids, ["1", "2"]);
    assert_eq!(word.outside_bookmarks, ["between"]);
}
