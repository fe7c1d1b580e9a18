//! Names a Word file repeats: a part's name can be as long as a zip entry's (64 KiB), and a
//! short file can name one part thousands of times. Media names and the part names in warnings
//! are cut to a bound, so each reference costs a few hundred bytes, not the whole name.

mod docx_support;

use docx_support::*;
use sdconv::ExportOptions;
use sdconv::Format;
use sdconv::ast::{Block, Inline};
use sdconv::{Document, WarningKind};

/// A part name's length: half of what a zip entry's name can hold.
const LONG: usize = 30_000;
/// How often it is named.
const NAMED: usize = 500;

/// Every picture's media name, in the order met.
fn media_names(doc: &Document) -> Vec<String> {
    let mut names = Vec::new();
    for block in &doc.blocks {
        if let Block::Paragraph(p) = block {
            for inline in &p.content {
                if let Inline::Image { media, .. } = inline {
                    names.push(media.clone());
                }
            }
        }
    }
    names
}

#[test]
fn a_long_media_name_named_hundreds_of_times_is_cut() {
    // `é` is two bytes: the cut must fall between characters.
    let file = format!("{}.png", "é".repeat(LONG / 2));
    let body: String = (0..NAMED)
        .map(|i| {
            format!(
                "<w:p><w:r><w:t>P{i}</w:t></w:r>{}</w:p>",
                drawing("rIdImg", 914400, 914400, "")
            )
        })
        .collect();
    let c = docx(&body).image("rIdImg", &file, png(4, 4)).read();
    let names = media_names(&c.value);
    assert_eq!(names.len(), NAMED, "every picture is kept");
    let name = &names[0];
    assert!(name.len() <= 120 && name.ends_with(".png"), "{name}");
    assert!(file.starts_with(name.trim_end_matches(".png")), "{name}");
    assert!(names.iter().all(|n| n == name));
    assert_eq!(c.value.media.len(), 1);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    // Each picture's reference in the Markdown is the short name; the pictures are one file.
    let md = sdconv::export(&c.value, Format::Markdown, &ExportOptions::default())
        .expect("markdown")
        .value;
    let text = String::from_utf8_lossy(&md);
    assert_eq!(
        text.matches(name.as_str()).count(),
        NAMED,
        "{}",
        &text[..400]
    );
    assert!(md.len() < NAMED * 400, "{} bytes of Markdown", md.len());
}

/// A cut ASCII name is short enough for the HTML writer's picture files: it keeps it, so the
/// download gives no warning of a renamed picture.
#[test]
fn a_cut_media_name_is_the_html_pictures_file_name() {
    let file = format!("{}.png", "x".repeat(LONG));
    let c = docx(&format!(
        "<w:p><w:r><w:t>P</w:t></w:r>{}</w:p>",
        drawing("rIdImg", 914400, 914400, "")
    ))
    .image("rIdImg", &file, png(4, 4))
    .read();
    let name = media_names(&c.value).remove(0);
    assert_eq!(name.len(), 120);
    let html = sdconv::export(&c.value, Format::Html, &ExportOptions::default()).expect("html");
    assert!(html.warnings.is_empty(), "{:?}", html.warnings);
    let zip = String::from_utf8_lossy(&html.value);
    assert!(
        zip.contains(&format!("images/{name}")),
        "no images/{name} in the zip"
    );
}

#[test]
fn a_long_main_part_name_is_cut_in_every_warning() {
    let main = format!("word/{}.xml", "d".repeat(LONG));
    let body: String = (0..NAMED)
        .map(|i| format!(r#"<w:p><w:r><w:t>P{i}</w:t></w:r><w:subDoc r:id="rIdS"/></w:p>"#))
        .collect();
    let c = docx(&body).main_part(&main).read();
    let dropped: Vec<_> = c
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Dropped && w.message.contains("w:subDoc"))
        .collect();
    assert_eq!(dropped.len(), NAMED, "{:?}", &c.warnings[..3]);
    for w in dropped {
        let part = w.location.part.as_deref().expect("a part");
        assert!(part.len() <= 120 + '…'.len_utf8(), "{} bytes", part.len());
        assert!(
            part.ends_with('…') && main.starts_with(part.trim_end_matches('…')),
            "{part}"
        );
    }
    // An ordinary name is given whole.
    let c = docx(&body).read();
    assert_eq!(
        c.warnings[0].location.part.as_deref(),
        Some("word/document.xml")
    );
}
