//! PNG pictures whose compressed rows the PDF writer passes through under a PNG predictor
//! (`src/export/pdf/png.rs`): grey of 1 to 8 bits, RGB, and palettes of 1 to 8 bits as an
//! `/Indexed` colour space. Each picture is built here by hand with every PNG row filter, put
//! in a PDF, and checked three ways: the image object holds the PNG's own zlib data (nothing
//! decoded or deflated again), its colour space and depth are what the PNG says, and poppler's
//! `pdfimages`, an independent reader, takes out exactly the pixels the `image` crate decodes
//! from the PNG. CI installs poppler-utils (`.ci/run`); a missing tool fails the test.

mod html_fixtures;

use std::io::Write;
use std::process::Command;

use html_fixtures as fx;
use lopdf::{Object, Stream};
use sdconv::ast::{Block, Image};
use sdconv::export::pdf::{PdfOptions, write};
use sdconv::export::word::PagedSettings;

/// Chunks of a PNG: type and data.
type Chunks<'a> = Vec<(&'a [u8; 4], Vec<u8>)>;

/// A PNG of colour type `color` and `depth` bits from its rows of packed samples, each row
/// filtered with the next of PNG's five filters, IDAT in two chunks; `extra` chunks go before
/// IDAT (PLTE, tRNS).
fn png(w: u32, color: u8, depth: u8, rows: &[Vec<u8>], extra: &Chunks) -> Vec<u8> {
    let samples = if color == 2 { 3 } else { 1 };
    let bpp = (samples * usize::from(depth)).div_ceil(8);
    let mut filtered = Vec::new();
    let mut prior = vec![0u8; rows[0].len()];
    for (i, row) in rows.iter().enumerate() {
        let kind = (i % 5) as u8;
        filtered.push(kind);
        for (x, &byte) in row.iter().enumerate() {
            let a = if x >= bpp { row[x - bpp] } else { 0 };
            let b = prior[x];
            let c = if x >= bpp { prior[x - bpp] } else { 0 };
            let predicted = match kind {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                _ => paeth(a, b, c),
            };
            filtered.push(byte.wrapping_sub(predicted));
        }
        prior.clone_from(row);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&filtered).unwrap();
    let z = z.finish().unwrap();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&(rows.len() as u32).to_be_bytes());
    ihdr.extend_from_slice(&[depth, color, 0, 0, 0]);
    let (first, second) = z.split_at(z.len() / 2);
    let mut chunks: Vec<(&[u8; 4], &[u8])> = vec![(b"IHDR", &ihdr)];
    chunks.extend(extra.iter().map(|(kind, data)| (*kind, data.as_slice())));
    chunks.extend([(b"IDAT", first), (b"IDAT", second), (b"IEND", &[][..])]);
    sdconv::internal::sample::png_chunks(&chunks)
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// `h` rows of `w` samples of `depth` bits packed as PNG packs them, sample (x, y) being
/// `value(x, y)` (below 2^depth).
fn packed(w: u32, h: u32, depth: u8, value: impl Fn(u32, u32) -> u8) -> Vec<Vec<u8>> {
    (0..h)
        .map(|y| {
            let mut row = vec![0u8; (w as usize * usize::from(depth)).div_ceil(8)];
            for x in 0..w {
                let bit = x as usize * usize::from(depth);
                let shift = 8 - usize::from(depth) - bit % 8;
                row[bit / 8] |= value(x, y) << shift;
            }
            row
        })
        .collect()
}

/// `n` distinct RGB triples.
fn palette(n: usize) -> Vec<u8> {
    (0..n)
        .flat_map(|i| {
            [
                (i * 37 % 256) as u8,
                (255 - i * 11 % 256) as u8,
                (i * 91 % 256) as u8,
            ]
        })
        .collect()
}

/// The PDF of one page holding `png`, and its one image object.
fn pdf_of(png: &[u8]) -> (Vec<u8>, Stream) {
    let mut doc = fx::doc("Picture", vec![]);
    doc.media.add("p.png", png.to_vec());
    doc.blocks.push(Block::Image(Image {
        width_percent: Some(50.0),
        ..fx::image("p.png", None)
    }));
    let out = write(&doc, &PdfOptions::new(PagedSettings::default())).expect("PDF export");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let parsed = lopdf::Document::load_mem(&out.value).expect("the PDF loads");
    let images: Vec<Stream> = parsed
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter(|s| {
            s.dict
                .get(b"Subtype")
                .and_then(Object::as_name)
                .is_ok_and(|n| n == b"Image")
        })
        .cloned()
        .collect();
    assert_eq!(images.len(), 1, "one image object");
    (out.value, images.into_iter().next().unwrap())
}

/// The data of every `kind` chunk of the PNG, joined.
fn chunk_data(png: &[u8], kind: &[u8; 4]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = &png[8..];
    while rest.len() >= 12 {
        let len = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        if &rest[4..8] == kind {
            out.extend_from_slice(&rest[8..8 + len]);
        }
        rest = &rest[12 + len..];
    }
    out
}

/// The PNG's IDAT data, joined.
fn idat(png: &[u8]) -> Vec<u8> {
    chunk_data(png, b"IDAT")
}

/// The pixels poppler takes out of the PDF's one image, as RGB.
fn poppler_pixels(pdf: &[u8]) -> image::RgbImage {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("p.pdf");
    std::fs::write(&path, pdf).expect("write");
    let prefix = dir.path().join("img");
    let out = Command::new("pdfimages")
        .arg("-png")
        .arg(&path)
        .arg(&prefix)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run pdfimages ({e}): apt-get install -y poppler-utils (CI does)")
        });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(dir.path().join("img-000.png")).expect("pdfimages wrote one PNG");
    image::load_from_memory(&png)
        .expect("poppler's PNG")
        .to_rgb8()
}

/// The pixels the `image` crate decodes from `png`, as RGB.
fn decoded(png: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("the test PNG decodes")
        .to_rgb8()
}

/// The picture is passed through (its own zlib data under a PNG predictor) as `bits` per
/// sample, indexed or not, and poppler takes out exactly the pixels `want`.
fn check_passed_through(name: &str, png: &[u8], bits: i64, indexed: bool, want: image::RgbImage) {
    let (pdf, image) = pdf_of(png);
    assert_eq!(image.content, idat(png), "{name}: the PNG's own zlib data");
    let dict = &image.dict;
    assert_eq!(
        dict.get(b"Filter").and_then(Object::as_name).ok(),
        Some(&b"FlateDecode"[..])
    );
    let parms = dict
        .get(b"DecodeParms")
        .and_then(Object::as_dict)
        .expect("DecodeParms");
    assert_eq!(
        parms.get(b"Predictor").and_then(Object::as_i64).ok(),
        Some(15)
    );
    assert_eq!(
        parms.get(b"BitsPerComponent").and_then(Object::as_i64).ok(),
        Some(bits)
    );
    assert_eq!(
        dict.get(b"BitsPerComponent").and_then(Object::as_i64).ok(),
        Some(bits),
        "{name}"
    );
    let space = dict.get(b"ColorSpace").expect("ColorSpace");
    match space.as_array() {
        Ok(items) if indexed => {
            assert_eq!(items[0].as_name().ok(), Some(&b"Indexed"[..]), "{name}");
            // Every index the samples can hold names a colour.
            assert_eq!(
                items[2].as_i64().ok(),
                Some((1 << bits) - 1),
                "{name}: hival"
            );
            let lookup = items[3].as_str().expect("lookup string");
            assert_eq!(lookup.len(), 3 << bits, "{name}");
            let plte = chunk_data(png, b"PLTE");
            assert_eq!(
                &lookup[..plte.len()],
                &plte[..],
                "{name}: the PNG's palette"
            );
            assert!(
                lookup[plte.len()..].iter().all(|&b| b == 0),
                "{name}: padded black"
            );
        }
        other => assert!(!indexed, "{name}: not indexed: {other:?}"),
    }
    let got = poppler_pixels(&pdf);
    assert_eq!(got.dimensions(), want.dimensions(), "{name}");
    let wrong = got
        .pixels()
        .zip(want.pixels())
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(wrong, 0, "{name}: {wrong} pixels differ from the PNG's");
}

#[test]
fn palette_pictures_of_every_depth_pass_through_as_indexed_colour() {
    let (w, h) = (13, 9);
    for depth in [1u8, 2, 4, 8] {
        // Fewer colours than the depth allows when it can: the palette is padded.
        let colours = (1usize << depth).min(20) - usize::from(depth == 2);
        let index = |x: u32, y: u32| ((x * 3 + y * 5) as usize % colours) as u8;
        let file = png(
            w,
            3,
            depth,
            &packed(w, h, depth, index),
            &vec![(b"PLTE", palette(colours))],
        );
        let want = if depth == 1 {
            // pdfimages writes a 1-bit image as black and white samples, not its colours (they
            // are the lookup string, checked against the palette): index 0 white.
            image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(1 - index(x, y)) * 255; 3]))
        } else {
            decoded(&file)
        };
        let name = format!("palette, {depth} bits");
        check_passed_through(&name, &file, i64::from(depth), true, want);
    }
}

#[test]
fn grey_pictures_of_every_depth_and_rgb_pass_through() {
    let (w, h) = (13, 9);
    for depth in [1u8, 2, 4, 8] {
        let max = (1u32 << depth) - 1;
        let rows = packed(w, h, depth, |x, y| ((x * 7 + y * 3) % (max + 1)) as u8);
        let file = png(w, 0, depth, &rows, &vec![]);
        let name = format!("grey, {depth} bits");
        check_passed_through(&name, &file, i64::from(depth), false, decoded(&file));
    }
    let rows: Vec<Vec<u8>> = (0..h)
        .map(|y| (0..w * 3).map(|i| (i * 17 + y * 29) as u8).collect())
        .collect();
    let file = png(w, 2, 8, &rows, &vec![]);
    check_passed_through("RGB", &file, 8, false, decoded(&file));
}

#[test]
fn under_pdf_a_the_palette_indexes_the_icc_based_rgb() {
    use sdconv::export::pdf::PdfStandard;
    let rows = packed(13, 9, 4, |x, y| ((x + y) % 16) as u8);
    let file = png(13, 3, 4, &rows, &vec![(b"PLTE", palette(16))]);
    let mut doc = fx::doc("Picture", vec![]);
    doc.media.add("p.png", file.clone());
    doc.blocks.push(Block::Image(fx::image("p.png", None)));
    let options = PdfOptions::new(PagedSettings::default()).with_standard(PdfStandard::A2b);
    let out = write(&doc, &options).expect("PDF/A export");
    let parsed = lopdf::Document::load_mem(&out.value).expect("the PDF loads");
    let image = parsed
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .find(|s| s.content == idat(&file))
        .expect("the picture passed through");
    let space = image
        .dict
        .get(b"ColorSpace")
        .and_then(Object::as_array)
        .unwrap();
    assert_eq!(space[0].as_name().ok(), Some(&b"Indexed"[..]));
    // The base is the ICC-based RGB space krilla writes for PDF/A, not DeviceRGB.
    let base = parsed
        .dereference(&space[1])
        .expect("the base resolves")
        .1
        .as_array()
        .expect("[/ICCBased stream]");
    assert_eq!(base[0].as_name().ok(), Some(&b"ICCBased"[..]));
}

#[test]
fn an_index_past_the_palette_is_black_in_the_pdf() {
    // Three colours named by 2-bit samples; the fourth index has no colour in the file.
    let rows = packed(4, 1, 2, |x, _| x as u8);
    let file = png(4, 3, 2, &rows, &vec![(b"PLTE", palette(3))]);
    let (_, image) = pdf_of(&file);
    let space = image
        .dict
        .get(b"ColorSpace")
        .and_then(Object::as_array)
        .unwrap();
    let lookup = space[3].as_str().unwrap();
    assert_eq!(&lookup[..9], &palette(3)[..]);
    assert_eq!(&lookup[9..], &[0, 0, 0]);
}

#[test]
fn transparent_or_broken_palettes_are_decoded_instead() {
    // (what, bits per sample, chunks before IDAT)
    let cases: [(&str, u8, Chunks); 3] = [
        (
            "a transparent colour",
            8,
            vec![(b"PLTE", palette(4)), (b"tRNS", vec![0])],
        ),
        // The `image` crate's PNG decoder panics on this one unless it is kept from it.
        (
            "a palette of a colour and a third",
            8,
            vec![(b"PLTE", vec![1, 2, 3, 4])],
        ),
        (
            "more colours than 2-bit samples name",
            2,
            vec![(b"PLTE", palette(5))],
        ),
    ];
    for (name, depth, extra) in cases {
        let rows = packed(13, 9, depth, |x, y| ((x + y) % 4) as u8);
        let file = png(13, 3, depth, &rows, &extra);
        let mut doc = fx::doc("Picture", vec![]);
        doc.media.add("p.png", file.clone());
        doc.blocks.push(Block::Image(fx::image("p.png", None)));
        let out = write(&doc, &PdfOptions::new(PagedSettings::default())).expect("PDF export");
        let parsed = lopdf::Document::load_mem(&out.value).expect("the PDF loads");
        let passed = parsed
            .objects
            .values()
            .filter_map(|o| o.as_stream().ok())
            .any(|s| {
                s.content == idat(&file)
                    || s.dict
                        .get(b"ColorSpace")
                        .and_then(Object::as_array)
                        .is_ok_and(|a| a.first().and_then(|n| n.as_name().ok()) == Some(b"Indexed"))
            });
        assert!(!passed, "{name}: passed through");
    }
}
