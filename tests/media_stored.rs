//! Pictures that stay compressed: a Word or sd.xml input's pictures are kept deflated as the zip
//! stored them, copied as they are by the writers producing a zip, and inflated only where the
//! bytes are needed (pixels, `data:` URIs, files on disk). A picture whose deflate stream is
//! corrupt is a warning (or, kept raw, passes through), never a panic.

use std::io::{Cursor, Read};

use sdconv::WarningKind;
use sdconv::ast::{Block, Document, Extent, Image, Inline, Paragraph, TextType};
use sdconv::export::html::{HtmlOptions, write_all_in_one, write_files};
use sdconv::internal::archive::{Compression, ZipReader, ZipWriter};
use sdconv::{ExportOptions, Format, ImportOptions, Limits};

/// A document with one picture (`w`×`h`, compressible: the sample PNG stores its rows) shown
/// by one block.
fn picture_doc(w: u32, h: u32) -> Document {
    let mut doc = Document::default();
    doc.blocks.push(Block::Paragraph(Paragraph::new(
        TextType::Paragraph,
        vec![Inline::text("Before the picture.")],
    )));
    doc.blocks.push(Block::Image(Image {
        media: "photo.png".into(),
        extent: Some(Extent {
            width: u64::from(w) * 9525,
            height: u64::from(h) * 9525,
        }),
        ..Image::default()
    }));
    doc.media
        .add("photo.png", sdconv::internal::sample::png(w, h, 7));
    doc
}

/// `zip` with every entry deflated (our writers store pictures; Word deflates them).
fn deflate_all(zip: &[u8]) -> Vec<u8> {
    let mut r = ZipReader::new(zip, &Limits::default()).unwrap();
    let mut w = ZipWriter::new();
    for name in r.names().to_vec() {
        if name.ends_with('/') {
            w.add_directory(&name).unwrap();
        } else {
            let bytes = r.read(&name).unwrap();
            w.add(&name, &bytes, Compression::Deflate).unwrap();
        }
    }
    w.finish().unwrap()
}

/// A Word file holding `picture_doc(w, h)`, its picture deflated, and the picture's part name.
fn word_input(w: u32, h: u32) -> (Vec<u8>, String) {
    let docx = sdconv::export(&picture_doc(w, h), Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let docx = deflate_all(&docx);
    let r = ZipReader::new(&docx, &Limits::default()).unwrap();
    let part = r
        .names()
        .iter()
        .find(|n| n.starts_with("word/media/"))
        .expect("a picture part")
        .clone();
    (docx, part)
}

/// `(deflated?, stored size, inflated size, inflated bytes)` of entry `name`.
fn entry(zip: &[u8], name: &str) -> (bool, u64, u64, Vec<u8>) {
    let mut a = zip::ZipArchive::new(Cursor::new(zip)).unwrap();
    let deflated = a.by_name(name).unwrap().compression() == zip::CompressionMethod::Deflated;
    let mut r = ZipReader::new(zip, &Limits::default()).unwrap();
    let raw = r.read_raw(name).unwrap();
    let bytes = r.read(name).unwrap();
    (deflated, raw.compressed_size, raw.size, bytes)
}

/// The stored (compressed) bytes of entry `name`, as they sit in the zip.
fn stored_bytes(zip: &[u8], name: &str) -> Vec<u8> {
    let mut a = zip::ZipArchive::new(Cursor::new(zip)).unwrap();
    let f = a.by_name(name).unwrap();
    let start = f.data_start().unwrap() as usize;
    zip[start..start + f.compressed_size() as usize].to_vec()
}

fn import(bytes: &[u8], format: Format, options: &ImportOptions) -> Document {
    sdconv::import_shared(format, bytes.to_vec().into(), options)
        .unwrap()
        .value
}

/// The one entry of `zip` whose name starts with `prefix` and is a file.
fn picture_entry(zip: &[u8], prefix: &str) -> String {
    let r = ZipReader::new(zip, &Limits::default()).unwrap();
    let found: Vec<_> = r
        .names()
        .iter()
        .filter(|n| n.starts_with(prefix) && !n.ends_with('/'))
        .cloned()
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found[0].clone()
}

#[test]
fn zip_writers_copy_word_pictures_as_stored() {
    let (docx, part) = word_input(120, 80);
    let (deflated, in_stored, in_size, in_bytes) = entry(&docx, &part);
    assert!(deflated, "the input picture is deflated");
    for shared in [true, false] {
        let doc = if shared {
            import(&docx, Format::Word, &ImportOptions::default())
        } else {
            sdconv::import(Format::Word, &docx, &ImportOptions::default())
                .unwrap()
                .value
        };
        let item = doc.media.iter().next().unwrap();
        // Type and size come from the header, inflated alone.
        assert_eq!((item.width, item.height), (Some(120), Some(80)));
        assert_eq!(item.size as u64, in_size);
        assert!(item.stored().is_some() && !item.is_inflated());

        for (format, prefix) in [
            (Format::Word, "word/media/"),
            (Format::Sdxml, "images/"),
            (Format::Parsx, "images/"),
            (Format::Html, "images/"),
        ] {
            let out = sdconv::export(&doc, format, &ExportOptions::default()).unwrap();
            let name = picture_entry(&out.value, prefix);
            let (deflated, stored, size, bytes) = entry(&out.value, &name);
            assert_eq!(
                (deflated, stored, size),
                (true, in_stored, in_size),
                "{format}"
            );
            assert_eq!(
                stored_bytes(&out.value, &name),
                stored_bytes(&docx, &part),
                "{format}: the deflated bytes are copied as they are"
            );
            assert_eq!(bytes, in_bytes, "{format}");
            assert!(
                !out.warnings
                    .iter()
                    .any(|w| w.kind == WarningKind::MissingMedia),
                "{format}: {:?}",
                out.warnings
            );
        }
        // Nothing above needed the bytes.
        assert!(!doc.media.iter().next().unwrap().is_inflated());

        // A data: URI needs them: inflated now, once, shared by every clone.
        let copy = doc.clone();
        let page = write_all_in_one(&doc, &HtmlOptions::default());
        assert!(page.value.contains("data:image/png;base64,"));
        assert!(copy.media.iter().next().unwrap().is_inflated());
        assert_eq!(
            doc.media.iter().next().unwrap().bytes().unwrap(),
            &in_bytes[..]
        );
    }
}

#[test]
fn sdxml_reader_keeps_pictures_deflated_too() {
    let doc = picture_doc(40, 30);
    let sdxml = sdconv::export(&doc, Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    let sdxml = deflate_all(&sdxml);
    let back = import(&sdxml, Format::Sdxml, &ImportOptions::default());
    let item = back.media.get("photo.png").unwrap();
    assert!(item.stored().is_some() && !item.is_inflated());
    assert_eq!((item.width, item.height), (Some(40), Some(30)));
    let again = sdconv::export(&back, Format::Sdxml, &ExportOptions::default())
        .unwrap()
        .value;
    assert_eq!(
        stored_bytes(&again, "images/photo.png"),
        stored_bytes(&sdxml, "images/photo.png")
    );
    assert!(!item.is_inflated());
    // Read back, the trees are equal: the picture compares by its bytes.
    assert_eq!(back.media, doc.media);
}

/// `docx` with the picture's deflate stream broken past its header (the first 1 KiB inflates,
/// so the type and size are still sniffed).
fn corrupt(docx: &[u8], part: &str) -> Vec<u8> {
    let mut a = zip::ZipArchive::new(Cursor::new(docx)).unwrap();
    let f = a.by_name(part).unwrap();
    let start = f.data_start().unwrap() as usize;
    let len = f.compressed_size() as usize;
    assert!(len > 2000, "{len}");
    let mut out = docx.to_vec();
    for b in &mut out[start + len - 200..start + len - 100] {
        *b ^= 0x5A;
    }
    // The zip itself still opens; only this entry's content is broken.
    let mut check = zip::ZipArchive::new(Cursor::new(&out[..])).unwrap();
    let mut sink = Vec::new();
    assert!(check.by_name(part).unwrap().read_to_end(&mut sink).is_err());
    out
}

fn has(warnings: &[sdconv::Warning], kind: WarningKind, text: &str) -> bool {
    warnings
        .iter()
        .any(|w| w.kind == kind && w.message.contains(text))
}

#[test]
fn a_corrupt_deflated_picture_is_a_warning_in_every_writer() {
    let (docx, part) = word_input(200, 150);
    let bad = corrupt(&docx, &part);
    let doc = import(&bad, Format::Word, &ImportOptions::default());
    let item = doc.media.iter().next().unwrap();
    assert_eq!((item.width, item.height), (Some(200), Some(150)));
    let err = item.bytes().unwrap_err();
    assert!(err.to_string().contains("cannot be read"), "{err}");

    // Writers that copy the entry as stored pass it through (nothing looked into it).
    for format in [Format::Word, Format::Sdxml, Format::Parsx, Format::Html] {
        let out = sdconv::export(&doc, format, &ExportOptions::default()).unwrap();
        assert!(!out.value.is_empty(), "{format}");
    }
    // Writers that need the bytes warn and go on.
    let page = write_all_in_one(&doc, &HtmlOptions::default());
    assert!(has(
        &page.warnings,
        WarningKind::MissingMedia,
        "cannot be read"
    ));
    assert!(!page.value.contains("data:image/png"));
    let files = write_files(&doc, &HtmlOptions::default());
    assert!(has(
        &files.warnings,
        WarningKind::MissingMedia,
        "not written"
    ));
    assert_eq!(files.value.len(), 2, "index.html and style.css only");
    let md = sdconv::export::markdown::write(&doc, &Default::default());
    assert!(has(
        &md.warnings,
        WarningKind::MissingMedia,
        "cannot be read"
    ));
    assert!(md.value.files.is_empty());
    let pdf = sdconv::export(&doc, Format::Pdf, &ExportOptions::default()).unwrap();
    assert!(has(&pdf.warnings, WarningKind::MissingMedia, "empty box"));
    let mut compressed = ExportOptions::default();
    compressed.word.settings = compressed.word.settings.with_compressed_images(true);
    let word = sdconv::export(&doc, Format::Word, &compressed).unwrap();
    assert!(has(&word.warnings, WarningKind::Lossy, "cannot be read"));
    // A routine that needs the pixels reports the picture and leaves it.
    let options = rotate();
    let rotated = sdconv::import_shared(Format::Word, bad.into(), &options).unwrap();
    let item = rotated.value.media.iter().next().unwrap();
    assert_eq!((item.width, item.height), (Some(200), Some(150)));
    assert!(
        rotated.warnings.iter().any(|w| w.kind == WarningKind::Lossy
            && w.message.contains("photo.png left as it was")
            && w.message.contains("declared")),
        "{:?}",
        rotated.warnings
    );
}

fn rotate() -> ImportOptions {
    let mut options = ImportOptions::default();
    options.routines = vec!["rotate-landscape-images".into()];
    options
}

#[test]
fn rotating_decodes_only_the_pictures_it_turns() {
    let (docx, _) = word_input(60, 20);
    let options = rotate();
    let doc = sdconv::import_shared(Format::Word, docx.clone().into(), &options)
        .unwrap()
        .value;
    let item = doc.media.iter().next().unwrap();
    assert_eq!((item.width, item.height), (Some(20), Some(60)));
    // The turned picture is new bytes, not the stored entry.
    assert!(item.stored().is_none());
    let decoded = image::load_from_memory(&item.bytes().unwrap()).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (20, 60));
    let out = sdconv::export(&doc, Format::Word, &ExportOptions::default()).unwrap();
    let back = import(&out.value, Format::Word, &ImportOptions::default());
    let item = back.media.iter().next().unwrap();
    assert_eq!((item.width, item.height), (Some(20), Some(60)));

    // A portrait picture is left alone, and so stays deflated.
    let (docx, _) = word_input(20, 60);
    let doc = sdconv::import_shared(Format::Word, docx.into(), &options)
        .unwrap()
        .value;
    let item = doc.media.iter().next().unwrap();
    assert!(item.stored().is_some() && !item.is_inflated());
}

#[test]
fn copied_pictures_give_the_same_bytes_every_time() {
    let (docx, _) = word_input(50, 50);
    let run = || {
        let doc = import(&docx, Format::Word, &ImportOptions::default());
        [Format::Word, Format::Sdxml, Format::Parsx, Format::Html].map(|f| {
            sdconv::export(&doc, f, &ExportOptions::default())
                .unwrap()
                .value
        })
    };
    assert_eq!(run(), run());
}

#[test]
fn the_cli_streams_pictures_into_the_html_folder() {
    let (docx, part) = word_input(200, 150);
    let (_, _, _, picture) = entry(&docx, &part);
    let dir = tempfile::tempdir().unwrap();
    let run = |input: &[u8], name: &str| {
        let path = dir.path().join(format!("{name}.docx"));
        std::fs::write(&path, input).unwrap();
        let out = dir.path().join(name).join("index.html");
        let done = std::process::Command::new(env!("CARGO_BIN_EXE_sdconv"))
            .arg("convert")
            .arg(&path)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(done.status.success(), "{done:?}");
        let images: Vec<_> = std::fs::read_dir(dir.path().join(name).join("images"))
            .map(|d| d.map(|e| e.unwrap().path()).collect())
            .unwrap_or_default();
        (String::from_utf8(done.stderr).unwrap(), images)
    };
    let (stderr, images) = run(&docx, "good");
    assert_eq!(images.len(), 1, "{stderr}");
    assert_eq!(std::fs::read(&images[0]).unwrap(), picture);
    // A broken picture is a warning, and leaves no half-written file behind.
    let (stderr, images) = run(&corrupt(&docx, &part), "bad");
    assert!(stderr.contains("not written"), "{stderr}");
    assert!(images.is_empty(), "{images:?}");
}

/// A 4×2 palette PNG whose `PLTE` chunk holds 4 bytes, not whole colours: the `image` crate's
/// PNG decoder (png 0.18.1) panics on it instead of failing (image-rs/image-png#694).
fn broken_palette_png() -> Vec<u8> {
    let mut rows = Vec::new();
    for _ in 0..2 {
        rows.extend_from_slice(&[0, 0, 1, 0, 1]);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut z, &rows).unwrap();
    sdconv::internal::sample::png_chunks(&[
        (b"IHDR", &[0, 0, 0, 4, 0, 0, 0, 2, 8, 3, 0, 0, 0]),
        (b"PLTE", &[1, 2, 3, 4]),
        (b"IDAT", &z.finish().unwrap()),
        (b"IEND", &[]),
    ])
}

#[test]
fn a_palette_of_broken_colours_is_a_warning_in_every_decoder_not_a_panic() {
    let mut doc = picture_doc(4, 2);
    doc.media.add("photo.png", broken_palette_png());
    let pdf = sdconv::export(&doc, Format::Pdf, &ExportOptions::default()).unwrap();
    assert!(
        has(
            &pdf.warnings,
            WarningKind::MissingMedia,
            "palette is not whole colours"
        ),
        "{:?}",
        pdf.warnings
    );
    let mut compressed = ExportOptions::default();
    compressed.word.settings = compressed.word.settings.with_compressed_images(true);
    let word = sdconv::export(&doc, Format::Word, &compressed).unwrap();
    assert!(
        has(
            &word.warnings,
            WarningKind::Lossy,
            "palette is not whole colours"
        ),
        "{:?}",
        word.warnings
    );
    // The rotating routine decodes landscape pictures: this one is reported and left.
    let docx = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .unwrap()
        .value;
    let rotated = sdconv::import(Format::Word, &docx, &rotate()).unwrap();
    assert!(
        has(
            &rotated.warnings,
            WarningKind::Lossy,
            "palette is not whole colours"
        ),
        "{:?}",
        rotated.warnings
    );
}
