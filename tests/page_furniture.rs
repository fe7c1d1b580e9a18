//! Page headers and footers of a Word file with three sections: a cover page with its own
//! header (`w:titlePg`), a section that changes the header, one that inherits it and adds an
//! even-page header (`w:evenAndOddHeaders`), and a footer with `PAGE`/`NUMPAGES` that every
//! section inherits. The tree keeps each section's; Word gets them back per section; the PDF
//! draws the right one on each page with the numbers filled in; HTML and Markdown show the
//! first section's and warn for the rest; sd.xml warns that only sdconv reads them back.

mod common;
mod docx_support;

use std::process::Command;

use docx_support::{NS, docx, field, p};
use sdconv::ast::{PagePiece, PageText, Pages};
use sdconv::export::markdown::{self, MarkdownOptions};
use sdconv::{ExportOptions, Format};

fn part(root: &str, inner: &str) -> Vec<u8> {
    format!(r#"<w:{root} {NS}>{inner}</w:{root}>"#).into_bytes()
}

fn header(text: &str) -> Vec<u8> {
    part("hdr", &format!("<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"))
}

/// The Word file: blocks A1, A2 | B1, an empty paragraph holding the second section break |
/// C1, a page break, C2, and the body's own section.
fn word_file() -> Vec<u8> {
    let sect = |refs: &str, extra: &str| format!("<w:sectPr>{refs}{extra}</w:sectPr>");
    let first_section = sect(
        r#"<w:headerReference w:type="default" r:id="rIdH1"/><w:headerReference w:type="first" r:id="rIdH2"/><w:footerReference w:type="default" r:id="rIdF1"/>"#,
        "<w:titlePg/>",
    );
    let second_section = sect(r#"<w:headerReference w:type="default" r:id="rIdH3"/>"#, "");
    let body = format!(
        r#"{}<w:p><w:pPr>{first_section}</w:pPr><w:r><w:t>A2</w:t></w:r></w:p>{}<w:p><w:pPr>{second_section}</w:pPr></w:p>{}<w:p><w:r><w:br w:type="page"/></w:r></w:p>{}{}"#,
        p("A1"),
        p("B1"),
        p("C1"),
        p("C2"),
        sect(r#"<w:headerReference w:type="even" r:id="rIdH4"/>"#, ""),
    );
    let footer = part(
        "ftr",
        &format!(
            "<w:p><w:r><w:t xml:space=\"preserve\">Page </w:t></w:r>{}<w:r><w:t xml:space=\"preserve\"> of </w:t></w:r>{}</w:p>",
            field("PAGE", "1"),
            field("NUMPAGES", "9")
        ),
    );
    docx(&body)
        .rel("rIdH1", "header", "header1.xml", false)
        .rel("rIdH2", "header", "header2.xml", false)
        .rel("rIdH3", "header", "header3.xml", false)
        .rel("rIdH4", "header", "header4.xml", false)
        .rel("rIdF1", "footer", "footer1.xml", false)
        .rel("rIdS", "settings", "settings.xml", false)
        .part("word/header1.xml", &header("Annual report"))
        .part("word/header2.xml", &header("Cover"))
        .part("word/header3.xml", &header("Part two"))
        .part("word/header4.xml", &header("Even pages"))
        .part("word/footer1.xml", &footer)
        .part(
            "word/settings.xml",
            &part("settings", "<w:evenAndOddHeaders/>"),
        )
        .build()
}

fn text(s: &str) -> Option<PageText> {
    Some(PageText {
        paragraphs: vec![vec![PagePiece::Text(s.into())]],
    })
}

fn read(bytes: &[u8]) -> sdconv::Converted<sdconv::Document> {
    sdconv::import(Format::Word, bytes, &Default::default()).unwrap()
}

fn paragraphs(doc: &sdconv::Document) -> Vec<String> {
    doc.blocks
        .iter()
        .map(|b| match b {
            sdconv::ast::Block::Paragraph(p) => sdconv::ast::inline::plain_text(&p.content),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn each_section_keeps_its_headers_and_inherits_the_rest() {
    let read = read(&word_file());
    assert!(read.warnings.is_empty(), "{:#?}", read.warnings);
    let doc = read.value;
    // The paragraph holding only the second break is the break, not an empty paragraph.
    assert_eq!(
        paragraphs(&doc),
        ["A1", "A2", "B1", "C1", "PageBreak", "C2"]
    );
    let pages: &Pages = &doc.meta.pages;
    assert!(pages.even_and_odd);
    let starts: Vec<usize> = pages.sections.iter().map(|s| s.start).collect();
    assert_eq!(starts, [0, 2, 3]);
    let footer = PageText {
        paragraphs: vec![vec![
            PagePiece::Text("Page ".into()),
            PagePiece::PageNumber,
            PagePiece::Text(" of ".into()),
            PagePiece::PageCount,
        ]],
    };
    let [one, two, three] = &pages.sections[..] else {
        panic!("{pages:?}")
    };
    assert!(one.title_page && !two.title_page && !three.title_page);
    assert_eq!(one.header.default, text("Annual report"));
    assert_eq!(one.header.first, text("Cover"));
    assert_eq!(two.header.default, text("Part two"));
    // Inherited where a section names none of a kind.
    assert_eq!(two.header.first, text("Cover"));
    assert_eq!(three.header.default, text("Part two"));
    assert_eq!(three.header.even, text("Even pages"));
    for s in [one, two, three] {
        assert_eq!(s.footer.default.as_ref(), Some(&footer));
    }
    // The service's one-line footer: the text without the numbers.
    assert_eq!(doc.meta.footer.as_deref(), Some("Page of"));
}

#[test]
fn word_writes_them_back_per_section() {
    let doc = read(&word_file()).value;
    let out = sdconv::export(&doc, Format::Word, &ExportOptions::default()).unwrap();
    let back = read(&out.value).value;
    assert_eq!(back.meta.pages, doc.meta.pages);
    assert_eq!(paragraphs(&back), paragraphs(&doc));
    // Each text is one part, however many sections show it.
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&out.value)).unwrap();
    let names: Vec<String> = (0..zip.len())
        .map(|i| zip.by_index(i).unwrap().name().unwrap().to_string())
        .collect();
    let count = |kind: &str| names.iter().filter(|n| n.starts_with(kind)).count();
    assert_eq!(count("word/header"), 4, "{names:?}");
    assert_eq!(count("word/footer"), 1, "{names:?}");
}

/// A section that shows no header or footer of a variant the section before it shows must
/// say so in Word, or Word (and our reader) gives it the previous one. Found by the write_word
/// fuzzer: a second section with only an even-page footer came back with the first's footer.
#[test]
fn a_section_without_the_previous_ones_header_keeps_none() {
    use sdconv::ast::pages::{PageSection, Slots};
    let mut doc = sdconv::Document::new();
    for t in ["One", "Two", "Three"] {
        doc.blocks
            .push(sdconv::ast::Block::Paragraph(sdconv::ast::Paragraph::new(
                sdconv::ast::TextType::Paragraph,
                vec![sdconv::ast::Inline::text(t)],
            )));
    }
    let section = |start, header: Slots, footer: Slots| PageSection {
        start,
        header,
        footer,
        ..PageSection::default()
    };
    doc.meta.pages = Pages {
        even_and_odd: true,
        sections: vec![
            section(
                0,
                Slots {
                    default: text("Head"),
                    ..Slots::default()
                },
                Slots {
                    default: text("Foot"),
                    even: text("Even foot"),
                    ..Slots::default()
                },
            ),
            section(
                1,
                Slots::default(),
                Slots {
                    even: text("Even foot"),
                    ..Slots::default()
                },
            ),
            section(
                2,
                Slots {
                    default: text("Head"),
                    ..Slots::default()
                },
                Slots::default(),
            ),
        ],
    };
    let out = sdconv::export(&doc, Format::Word, &ExportOptions::default()).unwrap();
    let back = read(&out.value).value;
    assert_eq!(back.meta.pages, doc.meta.pages);
}

/// A document with footers of its own and none of headers gets the template's title header:
/// on the cover page (`w:titlePg`) and even pages too, not only on the others.
#[test]
fn the_template_header_is_on_every_kind_of_page() {
    use sdconv::ast::pages::{PageSection, Slots};
    use std::io::Read;
    let mut doc = sdconv::Document::new();
    doc.meta.title = Some("Handbook".into());
    doc.blocks
        .push(sdconv::ast::Block::Paragraph(sdconv::ast::Paragraph::new(
            sdconv::ast::TextType::Paragraph,
            vec![sdconv::ast::Inline::text("Body")],
        )));
    doc.meta.pages = Pages {
        even_and_odd: true,
        sections: vec![PageSection {
            title_page: true,
            footer: Slots {
                default: text("Foot"),
                ..Slots::default()
            },
            ..PageSection::default()
        }],
    };
    let out = sdconv::export(&doc, Format::Word, &ExportOptions::default()).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&out.value)).unwrap();
    let mut xml = String::new();
    zip.by_name("word/document.xml")
        .unwrap()
        .read_to_string(&mut xml)
        .unwrap();
    for variant in ["default", "first", "even"] {
        assert!(
            xml.contains(&format!(r#"<w:headerReference w:type="{variant}""#)),
            "no {variant} header: {xml}"
        );
    }
    // The template's header is the template's, not the document's: it does not come back.
    let back = read(&out.value).value;
    assert_eq!(back.meta.pages, doc.meta.pages);
}

/// The text of page `n` (1-based) of `pdf`.
fn pdf_page(pdf: &std::path::Path, n: usize) -> String {
    let out = Command::new("pdftotext")
        .args(["-layout", "-f", &n.to_string(), "-l", &n.to_string()])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_pdf_shows_each_page_its_header_and_numbers() {
    let doc = read(&word_file()).value;
    let out = sdconv::export(&doc, Format::Pdf, &ExportOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.pdf");
    std::fs::write(&path, &out.value).unwrap();
    // Each section starts a page: A1 A2 | B1 | C1 | (page break) C2. What Word shows:
    let pages: Vec<String> = (1..=4).map(|n| pdf_page(&path, n)).collect();
    let lines = |page: &str| -> Vec<String> {
        page.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect()
    };
    // The cover page: its own header, and no footer (it has no first-page footer).
    assert_eq!(lines(&pages[0]), ["Cover", "A1", "A2"]);
    // An even page with even pages on and no even header or footer: neither.
    assert_eq!(lines(&pages[1]), ["B1"]);
    // An odd page of the third section: the header it inherits, the footer numbered.
    assert_eq!(lines(&pages[2]), ["Part two", "C1", "Page 3 of 4"]);
    // An even page of the third section: its even header.
    assert_eq!(lines(&pages[3]), ["Even pages", "C2"]);
}

#[test]
fn html_and_markdown_show_the_first_sections_and_warn_for_the_rest() {
    let doc = read(&word_file()).value;
    let out = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let html = String::from_utf8(out.value).unwrap();
    let header = html
        .find("<header class=\"page-header\">\n<p>Annual report</p>")
        .unwrap();
    let body = html.find("<main>").unwrap();
    let footer = html
        .find("<footer class=\"doc-footer\">\n<p>Page of</p>")
        .unwrap();
    assert!(header < body && body < footer, "{html}");
    let warned: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    // Cover, Part two, Even pages.
    assert!(
        warned.iter().any(|w| w.starts_with("3 other page header")),
        "{warned:?}"
    );
    assert!(
        warned.iter().any(|w| w.contains("page numbers")),
        "{warned:?}"
    );

    let md = markdown::write(&doc, &MarkdownOptions::default().with_headers_footers(true));
    let text = &md.value.text;
    let (h, a1, f) = (
        text.find("Annual report").unwrap(),
        text.find("A1").unwrap(),
        text.find("Page of").unwrap(),
    );
    assert!(h < a1 && a1 < f, "{text}");
    assert!(
        md.warnings
            .iter()
            .any(|w| w.message.contains("3 other page header"))
    );
    // Without the option, neither is written.
    let plain = markdown::write(&doc, &MarkdownOptions::default())
        .value
        .text;
    assert!(!plain.contains("Annual report"), "{plain}");
}

#[test]
fn sdxml_carries_them_for_sdconv_and_says_the_service_will_not_show_them() {
    let doc = read(&word_file()).value;
    let out = sdconv::export(&doc, Format::Sdxml, &ExportOptions::default()).unwrap();
    assert!(
        out.warnings.iter().any(|w| w.message.contains("pages")),
        "{:#?}",
        out.warnings
    );
    let back = sdconv::import(Format::Sdxml, &out.value, &Default::default())
        .unwrap()
        .value;
    assert_eq!(back.meta.pages, doc.meta.pages);
    assert_eq!(back.meta.footer.as_deref(), Some("Page of"));
}

#[test]
fn libreoffice_shows_the_written_sections_headers() {
    if Command::new("soffice").arg("--version").output().is_err() {
        eprintln!("skipping: soffice (LibreOffice) is not installed");
        return;
    }
    let doc = read(&word_file()).value;
    let docx = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("sections.docx");
    std::fs::write(&input, docx).unwrap();
    common::soffice_to_pdf(dir.path(), &dir.path().join("profile"), &[&input]);
    let pdf = input.with_extension("pdf");
    let first = pdf_page(&pdf, 1);
    assert!(first.contains("Cover") && first.contains("A1"), "{first}");
    assert!(!first.contains("Annual report"), "{first}");
    let all = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .unwrap();
    let all = String::from_utf8_lossy(&all.stdout);
    for want in ["Part two", "Even pages", "C2"] {
        assert!(all.contains(want), "{want} not in {all}");
    }
    // The footer's fields, filled in by LibreOffice.
    assert!(all.contains("Page 3 of"), "{all}");
}

/// A section per paragraph (a file may have thousands) is written whole: the Word writer took
/// each section's end off the front of a list, which moved every later one. Read back, the
/// headers past the reader's bound of 3,000 parts are left out, and it says so once.
#[test]
fn a_section_per_paragraph_is_written_and_read_to_the_bound() {
    use sdconv::ast::pages::{PageSection, Slots};
    let n = 5_000;
    let mut doc = sdconv::Document::new();
    for i in 0..n {
        doc.blocks
            .push(sdconv::ast::Block::Paragraph(sdconv::ast::Paragraph::new(
                sdconv::ast::TextType::Paragraph,
                vec![sdconv::ast::Inline::text(format!("Section {i}"))],
            )));
    }
    doc.meta.pages = Pages {
        sections: (0..n)
            .map(|start| PageSection {
                start,
                header: Slots {
                    default: text(&format!("Head {start}")),
                    ..Slots::default()
                },
                ..PageSection::default()
            })
            .collect(),
        ..Pages::default()
    };
    let out = sdconv::export(&doc, Format::Word, &ExportOptions::default()).unwrap();
    let mut zip =
        sdconv::internal::archive::ZipReader::new(&out.value, &sdconv::Limits::default()).unwrap();
    let main = String::from_utf8(zip.read("word/document.xml").unwrap()).unwrap();
    assert_eq!(main.matches("<w:sectPr").count(), n);
    let back = read(&out.value);
    let sections = &back.value.meta.pages.sections;
    assert_eq!(sections.len(), n);
    let kept = sections
        .iter()
        .filter(|s| s.header.default.is_some())
        .count();
    assert!((2_900..=3_000).contains(&kept), "{kept} headers kept");
    for (a, b) in sections.iter().zip(&doc.meta.pages.sections).take(kept) {
        assert_eq!(a, b);
    }
    let dropped: Vec<_> = back
        .warnings
        .iter()
        .filter(|w| w.kind == sdconv::WarningKind::Dropped)
        .collect();
    assert_eq!(dropped.len(), 1, "{:?}", back.warnings);
    assert!(
        dropped[0].message.contains("header and footer parts"),
        "{dropped:?}"
    );
}

/// One long header named by many sections: each section holds its own copy, so past 64 MiB of
/// page text held together the sections after show none, said once (a 3 MB header in 41
/// sections would be 123 MB; in 4,000 sections, from a file of a few kilobytes compressed,
/// 12 GB).
#[test]
fn a_long_header_in_many_sections_is_copied_within_a_bound() {
    let long = "header text ".repeat(250_000);
    let sect = r#"<w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/></w:sectPr>"#;
    let body: String = (0..40)
        .map(|i| format!("<w:p><w:pPr>{sect}</w:pPr><w:r><w:t>S{i}</w:t></w:r></w:p>"))
        .collect();
    let c = docx(&format!("{body}{sect}"))
        .rel("rIdH1", "header", "header1.xml", false)
        .part("word/header1.xml", &header(&long))
        .read();
    let sections = &c.value.meta.pages.sections;
    assert_eq!(sections.len(), 41);
    let shown = sections
        .iter()
        .take_while(|s| s.header.default.is_some())
        .count();
    let held = shown * long.len();
    assert!(
        (20..41).contains(&shown),
        "{shown} sections show the header"
    );
    assert!(held <= 64 << 20, "{held} bytes held");
    assert!(sections[shown..].iter().all(|s| s.header.default.is_none()));
    let dropped: Vec<&str> = c
        .warnings
        .iter()
        .filter(|w| w.kind == sdconv::WarningKind::Dropped)
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(dropped.len(), 1, "{:?}", c.warnings);
    assert!(dropped[0].contains("64 MiB"), "{dropped:?}");
}
