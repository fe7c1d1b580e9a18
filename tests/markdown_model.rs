//! Markdown for readers and language models: the metadata in front matter and as the first
//! heading, no noise (`&#32;`, quotes the source did not have), tables that keep merged cells,
//! and the options for comments, page furniture and page-break markers.

use sdconv::Converted;
use sdconv::ast::*;
use sdconv::export::markdown::{MarkdownOptions, Tables, write};
use sdconv::import::markdown::{MarkdownImportOptions, read};

fn t(s: &str) -> Inline {
    Inline::text(s)
}

fn para(content: Vec<Inline>) -> Block {
    Block::Paragraph(Paragraph::new(TextType::Paragraph, content))
}

fn doc(blocks: Vec<Block>) -> Document {
    Document {
        blocks,
        ..Document::new()
    }
}

fn md(doc: &Document) -> Converted<String> {
    md_with(doc, &MarkdownOptions::default())
}

fn md_with(doc: &Document, opts: &MarkdownOptions) -> Converted<String> {
    write(doc, opts).map(|o| o.text)
}

fn import(text: &str) -> Converted<Document> {
    read(
        text.as_bytes(),
        &MarkdownImportOptions::default(),
        &mut |_| None,
    )
    .unwrap()
}

// ----- metadata ------------------------------------------------------------------------------

fn titled() -> Document {
    let mut d = doc(vec![para(vec![t("Body.")])]);
    d.meta.title = Some("Annual \"Report\": 2024".into());
    d.meta.subtitle = Some("Draft #2".into());
    d.meta.creator = Some("Ann O'Brien".into());
    d.meta.language = Some("de_DE".into());
    d.meta.description = Some("Line one\nline two".into());
    d.meta.tags = vec!["a, b".into(), "c".into()];
    d
}

#[test]
fn metadata_is_front_matter_and_the_title_is_the_first_heading() {
    let out = md(&titled());
    assert_eq!(
        out.value,
        "---\ntitle: \"Annual \\\"Report\\\": 2024\"\nsubtitle: \"Draft #2\"\n\
         author: \"Ann O'Brien\"\nlang: \"de-DE\"\ndescription: \"Line one\\nline two\"\n\
         keywords: [\"a, b\", \"c\"]\n---\n\n# Annual \"Report\": 2024\n\nDraft #2\n\nBody.\n"
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
}

#[test]
fn front_matter_reads_back_into_the_metadata_and_settles() {
    let first = md(&titled()).value;
    let back = import(&first);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    let m = &back.value.meta;
    assert_eq!(m.title.as_deref(), Some("Annual \"Report\": 2024"));
    assert_eq!(m.subtitle.as_deref(), Some("Draft #2"));
    assert_eq!(m.creator.as_deref(), Some("Ann O'Brien"));
    assert_eq!(m.language.as_deref(), Some("de-DE"));
    assert_eq!(m.description.as_deref(), Some("Line one\nline two"));
    assert_eq!(m.tags, ["a, b", "c"]);
    // The title heading and subtitle paragraph are the metadata, not body text.
    assert_eq!(back.value.blocks, titled().blocks);
    assert_eq!(md(&back.value).value, first);
}

#[test]
fn hand_written_front_matter_is_read_and_unknown_keys_ignored() {
    let d = import("---\ntitle: My notes\ndate: 2024-01-01\ntags:\n  - x\n  - y\n---\n\n# Other\n")
        .value;
    assert_eq!(d.meta.title.as_deref(), Some("My notes"));
    assert_eq!(d.meta.tags, ["x", "y"]);
    // A first heading that is not the title stays a heading.
    assert!(matches!(&d.blocks[..], [Block::Paragraph(p)] if p.kind == TextType::Heading));
}

#[test]
fn malformed_front_matter_warns_and_stays_text() {
    let r = import("---\ntitle: \"unclosed\n---\n\nText\n");
    assert_eq!(r.value.meta.title, None);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.message.contains("front matter"))
    );
    assert!(r.value.blocks.len() >= 2, "{:?}", r.value.blocks);
}

#[test]
fn a_document_starting_with_a_page_break_has_no_front_matter() {
    let d = doc(vec![
        Block::PageBreak,
        para(vec![t("a: b")]),
        Block::PageBreak,
    ]);
    let out = md(&d).value;
    assert_eq!(out, "---\n\na: b\n\n---\n");
    let back = import(&out);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(back.value.blocks, d.blocks);
}

#[test]
fn ids_warn_only_where_a_cross_reference_needed_one() {
    let d = doc(vec![Block::Paragraph(Paragraph {
        id: Some("p1".into()),
        ..Paragraph::new(TextType::Paragraph, vec![t("x")])
    })]);
    assert!(md(&d).warnings.is_empty(), "{:?}", md(&d).warnings);
}

// ----- no noise ------------------------------------------------------------------------------

#[test]
fn spaces_at_line_edges_are_left_out_not_written_as_references() {
    let d = doc(vec![para(vec![
        t("  # not a heading "),
        Inline::styled(TextStyle::Bold, vec![t(" bold ")]),
        t(" "),
        Inline::LineBreak,
        t("   next\t"),
    ])]);
    let out = md(&d).value;
    assert!(!out.contains("&#"), "{out}");
    assert_eq!(out, "\\# not a heading  **bold**\\\nnext\n");
}

#[test]
fn indentation_is_not_a_quote_but_a_quote_style_is() {
    let indented = |kind, style: Option<&str>| {
        Block::Paragraph(Paragraph {
            indent: 2,
            style: style.map(str::to_string),
            ..Paragraph::new(kind, vec![t("x")])
        })
    };
    let d = doc(vec![
        indented(TextType::Heading, None),
        indented(TextType::Paragraph, Some("Body Text Indent")),
        indented(TextType::Paragraph, Some("Intense Quote")),
        Block::Paragraph(Paragraph {
            style: Some("Quote".into()),
            ..Paragraph::new(TextType::Paragraph, vec![t("q")])
        }),
    ]);
    let out = md(&d);
    assert_eq!(out.value, "# x\n\nx\n\n> > x\n>\n> q\n");
    assert!(
        out.warnings
            .iter()
            .any(|w| w.message.contains("indentation"))
    );
}

#[test]
fn block_quotes_read_back_as_quotes() {
    let text = "> a\n>\n> > b\n>\n> - c\n";
    let back = import(text).value;
    assert!(back.blocks.iter().all(
        |b| matches!(b, Block::Paragraph(p) if p.style.as_deref() == Some("Quote") && p.indent > 0)
    ));
    assert_eq!(md(&back).value, text);
}

// ----- tables --------------------------------------------------------------------------------

fn cell(blocks: Vec<Block>) -> Cell {
    Cell {
        blocks,
        ..Cell::default()
    }
}

fn table(rows: Vec<Vec<Cell>>) -> Block {
    let cols = rows
        .first()
        .map_or(0, |r| r.iter().map(|c| c.colspan.max(1) as usize).sum());
    Block::Table(Table {
        columns: vec![1.0; cols],
        rows: rows
            .into_iter()
            .enumerate()
            .map(|(i, cells)| Row {
                header: i == 0,
                cells,
                ..Row::default()
            })
            .collect(),
        ..Table::default()
    })
}

fn merged() -> Document {
    let wide = Cell {
        colspan: 2,
        ..cell(vec![para(vec![Inline::styled(
            TextStyle::Bold,
            vec![t("a<b")],
        )])])
    };
    doc(vec![table(vec![
        vec![wide],
        vec![
            cell(vec![para(vec![t("1")])]),
            cell(vec![para(vec![t("2 & 3")])]),
        ],
    ])])
}

#[test]
fn merged_cells_make_an_html_table_with_spans() {
    let out = md(&merged());
    assert_eq!(
        out.value,
        "<table>\n<tr>\n<th colspan=\"2\"><strong>a&lt;b</strong></th>\n</tr>\n<tr>\n\
         <td>1</td>\n<td>2 &amp; 3</td>\n</tr>\n</table>\n"
    );
    assert!(
        !out.warnings.iter().any(|w| w.message.contains("merged")),
        "{:?}",
        out.warnings
    );
}

#[test]
fn nested_tables_and_lists_in_cells_keep_their_content() {
    let inner = table(vec![vec![cell(vec![para(vec![t("deep")])])]]);
    let item = |s| Block::Paragraph(Paragraph::new(TextType::ListUl, vec![t(s)]));
    let d = doc(vec![table(vec![vec![
        cell(vec![inner]),
        cell(vec![item("i"), item("j"), para(vec![t("after")])]),
    ]])]);
    let out = md(&d).value;
    assert!(out.contains("<th>\n<table>"), "{out}");
    assert!(out.contains(">deep</th>"), "{out}");
    assert!(
        out.contains("<ul><li>i</li><li>j</li></ul><p>after</p>"),
        "{out}"
    );
    assert!(!out.contains("\n\n"), "one HTML block: {out}");
}

#[test]
fn table_option_forces_pipe_or_html_tables() {
    let gfm = md_with(
        &merged(),
        &MarkdownOptions::default().with_tables(Tables::Gfm),
    );
    assert_eq!(gfm.value, "| **a\\<b** | |\n| --- | --- |\n| 1 | 2 & 3 |\n");
    assert!(gfm.warnings.iter().any(|w| w.message.contains("merged")));
    let plain = doc(vec![table(vec![vec![cell(vec![para(vec![t("x")])])]])]);
    assert_eq!(md(&plain).value, "| x |\n| --- |\n");
    let html = md_with(
        &plain,
        &MarkdownOptions::default().with_tables(Tables::Html),
    )
    .value;
    assert_eq!(html, "<table>\n<tr>\n<th>x</th>\n</tr>\n</table>\n");
}

// ----- options -------------------------------------------------------------------------------

#[test]
fn comments_are_footnotes_when_asked() {
    let mut d = doc(vec![para(vec![
        Inline::CommentStart { id: "c1".into() },
        t("text"),
        Inline::CommentEnd { id: "c1".into() },
        t("."),
    ])]);
    d.comments.push(Comment {
        id: "c1".into(),
        author: Some("Ann".into()),
        content: vec![t("Check this")],
        ..Comment::default()
    });
    let off = md(&d);
    assert_eq!(off.value, "text.\n");
    assert!(off.warnings.iter().any(|w| w.message.contains("comments")));
    let on = md_with(&d, &MarkdownOptions::default().with_comments(true));
    assert_eq!(on.value, "text[^1].\n\n[^1]: Comment (Ann): Check this\n");
    assert!(on.warnings.is_empty(), "{:?}", on.warnings);
}

#[test]
fn headers_footers_and_page_break_markers_per_option() {
    let mut d = doc(vec![
        para(vec![t("a")]),
        Block::PageBreak,
        para(vec![t("b")]),
    ]);
    d.meta.pages.sections.push(sdconv::ast::PageSection {
        header: sdconv::ast::Slots {
            default: Some(sdconv::ast::PageText {
                paragraphs: vec![vec![sdconv::ast::PagePiece::Text("Head".into())]],
            }),
            ..Default::default()
        },
        ..Default::default()
    });
    d.meta.footer = Some("Page\nfoot".into());
    assert_eq!(md(&d).value, "a\n\n---\n\nb\n");
    let opts = MarkdownOptions::default()
        .with_headers_footers(true)
        .with_page_breaks("<!-- pagebreak -->");
    assert_eq!(
        md_with(&d, &opts).value,
        "Head\n\na\n\n<!-- pagebreak -->\n\nb\n\nPage\\\nfoot\n"
    );
}

#[test]
fn equations_are_tex() {
    let d = import("Energy $E=mc^2$ and\n\n$$\\frac{a}{b}$$\n").value;
    let out = md(&d).value;
    assert_eq!(out, "Energy $E=mc^{2}$ and\n\n$$\\frac{a}{b}$$\n");
}

#[test]
fn export_options_carry_the_markdown_options() {
    let mut opts = sdconv::ExportOptions::default();
    opts.markdown = MarkdownOptions::default().with_page_breaks("<!-- pagebreak -->");
    let d = doc(vec![
        para(vec![t("a")]),
        Block::PageBreak,
        para(vec![t("b")]),
    ]);
    let out = sdconv::export(&d, sdconv::Format::Markdown, &opts).unwrap();
    assert_eq!(
        String::from_utf8(out.value).unwrap(),
        "a\n\n<!-- pagebreak -->\n\nb\n"
    );
}
