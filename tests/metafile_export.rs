//! Windows metafiles through every writer: drawn as SVG for pages (a folder or one file) and
//! Markdown, as PNG for sd.xml, parsX and PDF, and kept as they are for Word. A metafile that
//! cannot be drawn stays as it is with exactly one warning; a drawn one gives none. The
//! fixtures are LibreOffice's WMF and EMF of one drawing (`tests/fixtures/metafile`), and the
//! same pictures inside a Word file read by the Word reader.

mod docx_support;

use std::io::{Cursor, Read};

use docx_support::docx;
use sdconv::ast::{Block, Document, Extent, Image, Inline, MediaKind, Paragraph, TextType};
use sdconv::export::markdown::{self, MarkdownOptions};
use sdconv::{ExportOptions, Format, Warning};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/metafile/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// An EMF header and nothing else: sniffed as EMF, but no player can draw it.
fn broken_emf() -> Vec<u8> {
    let mut emf = vec![1, 0, 0, 0];
    emf.resize(40, 0);
    emf.extend_from_slice(b" EMF");
    emf
}

/// A chart as an EMF block picture two inches wide, an equation as an inline WMF, and a
/// metafile that cannot be drawn.
fn document() -> Document {
    let mut doc = Document::default();
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![Inline::text("Before the chart.")],
    )));
    doc.blocks.push(Block::Image(Image {
        media: "chart.emf".into(),
        caption: Some("Sales".into()),
        extent: Some(Extent {
            width: 1_828_800,
            height: 1_097_280,
        }),
        ..Image::default()
    }));
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![
            Inline::text("So "),
            Inline::Image {
                media: "equation.wmf".into(),
                caption: None,
                alt: Some("equation".into()),
            },
            Inline::text(" holds."),
        ],
    )));
    doc.blocks.push(Block::Image(Image {
        media: "broken.emf".into(),
        ..Image::default()
    }));
    doc.media.add("chart.emf", fixture("lo-shapes.emf"));
    doc.media.add("equation.wmf", fixture("lo-shapes.wmf"));
    doc.media.add("broken.emf", broken_emf());
    doc
}

fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut data = Vec::new();
            f.read_to_end(&mut data).unwrap();
            (f.name().unwrap().to_string(), data)
        })
        .collect()
}

fn entry<'a>(files: &'a [(String, Vec<u8>)], name: &str) -> &'a [u8] {
    &files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name} not in {:?}", names(files)))
        .1
}

fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|(n, _)| n.as_str()).collect()
}

/// Exactly one warning, about the metafile that could not be drawn, saying what was kept.
fn one_warning_for_the_broken_one(warnings: &[Warning], kept: &str) {
    let about: Vec<&Warning> = warnings
        .iter()
        .filter(|w| w.message.contains("metafile") || w.message.contains(".emf"))
        .collect();
    assert_eq!(about.len(), 1, "{warnings:#?}");
    assert!(
        about[0].message.contains("\"broken.emf\""),
        "{:?}",
        about[0]
    );
    assert!(
        about[0].message.contains("could not be drawn"),
        "{:?}",
        about[0]
    );
    assert!(about[0].message.contains(kept), "{:?}", about[0]);
}

/// An SVG drawn from the fixture: parses as XML and keeps the drawing's words as text.
fn is_drawing_svg(svg: &[u8]) {
    let text = std::str::from_utf8(svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..text.len().min(80)]);
    let mut reader = quick_xml::Reader::from_str(text);
    let mut words = String::new();
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Text(t) => {
                words.push_str(&t.xml10_content());
                words.push(' ');
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    for w in ["Quarterly", "sales", "North", "South"] {
        assert!(words.contains(w), "{w} not in {words:?}");
    }
}

fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let be = |o: usize| u32::from_be_bytes([png[o], png[o + 1], png[o + 2], png[o + 3]]);
    (be(16), be(20))
}

/// The size of a fixture drawn at one pixel per CSS pixel of its frame.
fn frame_pixels(name: &str) -> (u32, u32) {
    let (_, png, _, _) = sdconv::internal::metafile_check(&fixture(name), Some(1 << 22)).unwrap();
    png_size(&png.unwrap())
}

#[test]
fn html_folder_shows_svg_files() {
    let doc = document();
    let out = sdconv::export(&doc, Format::Html, &ExportOptions::default()).unwrap();
    let files = unzip(&out.value);
    let page = String::from_utf8(entry(&files, "index.html").to_vec()).unwrap();
    assert!(page.contains("src=\"images/chart.svg\""), "{page}");
    assert!(page.contains("src=\"images/equation.svg\""), "{page}");
    is_drawing_svg(entry(&files, "images/chart.svg"));
    is_drawing_svg(entry(&files, "images/equation.svg"));
    // The one that could not be drawn is kept; the drawn ones' originals are not written.
    assert_eq!(entry(&files, "images/broken.emf"), broken_emf());
    assert!(!names(&files).iter().any(|n| n.ends_with("chart.emf")));
    one_warning_for_the_broken_one(&out.warnings, "browsers do not display");
    // The tree the caller holds is untouched.
    assert_eq!(
        doc.media.get("chart.emf").map(|m| m.kind),
        Some(MediaKind::Emf)
    );
}

#[test]
fn one_page_holds_svg_data_uris() {
    let out = sdconv::export(&document(), Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let page = String::from_utf8(out.value).unwrap();
    assert_eq!(page.matches("src=\"data:image/svg+xml;base64,").count(), 2);
    assert_eq!(page.matches("src=\"data:image/emf;base64,").count(), 1);
    one_warning_for_the_broken_one(&out.warnings, "browsers do not display");
}

#[test]
fn markdown_refers_to_svg_files() {
    let out = markdown::write(&document(), &MarkdownOptions::default());
    let text = &out.value.text;
    assert!(
        text.contains("](images/chart.svg)\n*Figure 1: Sales*"),
        "{text}"
    );
    assert!(text.contains("![equation](images/equation.svg)"), "{text}");
    let svg = out
        .value
        .files
        .iter()
        .find(|(n, _)| n == "images/chart.svg")
        .expect("chart.svg written");
    is_drawing_svg(&svg.1);
    one_warning_for_the_broken_one(&out.warnings, "Markdown viewers do not display");
}

#[test]
fn sdxml_and_parsx_carry_png() {
    for format in [Format::Sdxml, Format::Parsx] {
        let out = sdconv::export(&document(), format, &ExportOptions::default()).unwrap();
        let files = unzip(&out.value);
        let xml_name = if format == Format::Sdxml {
            "sd.xml"
        } else {
            "parsx.xml"
        };
        let xml = String::from_utf8(entry(&files, xml_name).to_vec()).unwrap();
        assert!(
            xml.contains("chart.png") && !xml.contains("chart.emf"),
            "{xml}"
        );
        assert!(xml.contains("equation.png"), "{xml}");
        // The block picture is drawn at 192 dpi, twice its frame's CSS pixels; the inline one
        // at its own size, which is all it has for a size.
        let (w, h) = png_size(entry(&files, "images/chart.png"));
        let (w1, h1) = frame_pixels("lo-shapes.emf");
        assert!(
            w.abs_diff(2 * w1) <= 1 && h.abs_diff(2 * h1) <= 1,
            "{w} × {h}, frame {w1} × {h1}"
        );
        assert_eq!(
            png_size(entry(&files, "images/equation.png")),
            frame_pixels("lo-shapes.wmf")
        );
        assert_eq!(entry(&files, "images/broken.emf"), broken_emf());
        one_warning_for_the_broken_one(&out.warnings, "the service does not display");
    }
}

#[test]
fn a_drawn_picture_without_a_size_of_its_own_keeps_its_frame_size() {
    let mut doc = document();
    if let Block::Image(img) = &mut doc.blocks[1] {
        img.extent = None;
    }
    let page = sdconv::export(&doc, Format::HtmlAllInOne, &ExportOptions::default()).unwrap();
    let page = String::from_utf8(page.value).unwrap();
    // The frame is fractional CSS pixels: the PNG floors it, the page rounds it.
    let (w, h) = frame_pixels("lo-shapes.emf");
    let img = page
        .split("<img ")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap();
    let attr = |name: &str| -> u32 {
        let at = img
            .find(&format!(" {name}=\""))
            .unwrap_or_else(|| panic!("no {name}"));
        let rest = &img[at + name.len() + 3..];
        rest[..rest.find('"').unwrap()].parse().unwrap()
    };
    assert!(
        attr("width").abs_diff(w) <= 1,
        "width {} for {w}",
        attr("width")
    );
    assert!(
        attr("height").abs_diff(h) <= 1,
        "height {} for {h}",
        attr("height")
    );
}

#[cfg(feature = "pdf")]
#[test]
fn pdf_draws_them_as_pictures() {
    use sdconv::export::pdf::{PdfOptions, write};
    let out = write(&document(), &PdfOptions::default()).unwrap();
    let pdf = &out.value;
    // Two pictures drawn; the broken one is an empty box, warned once (not again as a box).
    let images = pdf.windows(14).filter(|w| *w == b"/Subtype/Image").count()
        + pdf.windows(15).filter(|w| *w == b"/Subtype /Image").count();
    assert_eq!(images, 2, "{} image XObjects", images);
    one_warning_for_the_broken_one(&out.warnings, "an empty box");
}

#[test]
fn word_keeps_the_originals() {
    let out = sdconv::export(&document(), Format::Word, &ExportOptions::default()).unwrap();
    let files = unzip(&out.value);
    let media: Vec<&str> = names(&files)
        .into_iter()
        .filter(|n| n.starts_with("word/media/"))
        .collect();
    assert_eq!(
        media.iter().filter(|n| n.ends_with(".emf")).count(),
        2,
        "{media:?}"
    );
    assert_eq!(
        media.iter().filter(|n| n.ends_with(".wmf")).count(),
        1,
        "{media:?}"
    );
    assert!(
        !out.warnings.iter().any(|w| w.message.contains("metafile")),
        "{:#?}",
        out.warnings
    );
    // The drawable ones have their frame as their size (the inline one has no extent of its
    // own); only the bare header has none.
    let sizeless: Vec<&str> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("no known size"))
        .map(|w| w.message.as_str())
        .collect();
    assert!(
        sizeless.iter().all(|m| m.contains("broken.emf")),
        "{sizeless:?}"
    );
}

#[test]
fn from_a_word_file_each_picture_is_drawn_once_without_warnings() {
    let body = r#"<w:p><w:r><w:drawing><wp:inline><wp:extent cx="1828800" cy="1097280"/><wp:docPr id="1" name="Chart"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="rIdE"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p><w:p><w:r><w:t>Text</w:t></w:r></w:p><w:p><w:r><w:pict><v:shape style="width:144pt;height:86pt"><v:imagedata r:id="rIdW" o:title="Equation"/></v:shape></w:pict></w:r></w:p>"#;
    let word = docx(body)
        .image("rIdE", "image1.emf", fixture("lo-shapes.emf"))
        .image("rIdW", "image2.wmf", fixture("lo-shapes.wmf"))
        .build();
    let read = sdconv::import(Format::Word, &word, &Default::default()).unwrap();
    assert!(read.warnings.is_empty(), "{:#?}", read.warnings);
    let out = sdconv::export(&read.value, Format::Html, &ExportOptions::default()).unwrap();
    assert!(out.warnings.is_empty(), "{:#?}", out.warnings);
    let files = unzip(&out.value);
    let svgs: Vec<&str> = names(&files)
        .into_iter()
        .filter(|n| n.ends_with(".svg"))
        .collect();
    assert_eq!(svgs.len(), 2, "{:?}", names(&files));
    for svg in svgs {
        is_drawing_svg(entry(&files, svg));
    }
}
