//! PNG pictures whose compressed rows the PDF writer passes through under a PNG predictor
//! (`src/export/pdf/png.rs`): grey of 1 to 8 bits, RGB, and palettes of 1 to 8 bits as an
//! `/Indexed` colour space. Each picture is built here by hand with every PNG row filter, put
//! in a PDF, and checked three ways: the image object holds the PNG's own zlib data (nothing
//! decoded or deflated again), its colour space and depth are what the PNG says, and poppler's
//! `pdfimages`, an independent reader, takes out exactly the pixels the `image` crate decodes
//! from the PNG. Transparency that only hides pixels (a `tRNS` colour key, or a palette's fully
//! transparent entries in one run) passes through as a colour key mask, checked on a page
//! rendered by poppler's `pdftoppm`. CI installs poppler-utils (`.ci/run`); a missing tool
//! fails the test.

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

/// What poppler's `tool` (run with `args`, the PDF's path and an output prefix `out` in a
/// temporary folder) writes as `written` there, as RGB.
fn poppler(pdf: &[u8], tool: &str, args: &[&str], written: &str) -> image::RgbImage {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("p.pdf");
    std::fs::write(&path, pdf).expect("write");
    let out = Command::new(tool)
        .args(args)
        .arg(&path)
        .arg(dir.path().join("out"))
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run {tool} ({e}): apt-get install -y poppler-utils (CI does)")
        });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let png = std::fs::read(dir.path().join(written))
        .unwrap_or_else(|e| panic!("{tool} wrote no {written}: {e}"));
    image::load_from_memory(&png)
        .expect("poppler's PNG")
        .to_rgb8()
}

/// The pixels poppler takes out of the PDF's one image, as RGB.
fn poppler_pixels(pdf: &[u8]) -> image::RgbImage {
    poppler(pdf, "pdfimages", &["-png"], "out-000.png")
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

/// The page of `pdf` rendered by poppler at 72 dpi, as RGB.
fn rendered(pdf: &[u8]) -> image::RgbImage {
    poppler(
        pdf,
        "pdftoppm",
        &["-png", "-r", "72", "-singlefile"],
        "out.png",
    )
}

/// Whether a rendered pixel is near `want` (edges are smoothed).
fn near(got: &image::Rgb<u8>, want: [u8; 3]) -> bool {
    got.0.iter().zip(want).all(|(&a, b)| a.abs_diff(b) < 40)
}

/// A picture with a colour key, what its `/Mask` must say, and how it looks on the page.
struct KeyCase {
    name: &'static str,
    png: Vec<u8>,
    mask: Vec<i64>,
    /// The colour of the band over the picture's whole width.
    band: [u8; 3],
    /// The colour of the half the key does not hide.
    shown: [u8; 3],
}

#[test]
fn colour_keys_pass_through_as_masks_and_hide_their_pixels() {
    // 40×40: a blue top band over the whole width (where the picture is on the page), below
    // it the left half in the colour the key hides and the right half red.
    let (w, h) = (40u32, 40u32);
    let hidden = |x: u32, y: u32| y >= 8 && x < w / 2;
    let blue = [0u8, 0, 255];
    let red = [255u8, 0, 0];
    // 0: the band, 1: the shown half, 2: the hidden half.
    let region = |x: u32, y: u32| -> u8 {
        if y < 8 {
            0
        } else if hidden(x, y) {
            2
        } else {
            1
        }
    };
    let mut cases: Vec<KeyCase> = Vec::new();
    // A palette whose entries 0 and 1 are fully transparent (the alphas of the rest not
    // given: opaque); index 1 is drawn where the key hides.
    let mut plte = vec![9, 9, 9, 0, 200, 0];
    plte.extend(blue);
    plte.extend(red);
    let index = |x, y| match region(x, y) {
        0 => 2,
        1 => 3,
        _ => 1,
    };
    cases.push(KeyCase {
        name: "palette, 2 bits",
        png: png(
            w,
            3,
            2,
            &packed(w, h, 2, index),
            &vec![(b"PLTE", plte.clone()), (b"tRNS", vec![0, 0])],
        ),
        mask: vec![0, 1],
        band: blue,
        shown: red,
    });
    cases.push(KeyCase {
        name: "palette, 8 bits",
        png: png(
            w,
            3,
            8,
            &packed(w, h, 8, index),
            &vec![(b"PLTE", plte), (b"tRNS", vec![0, 0, 255])],
        ),
        mask: vec![0, 1],
        band: blue,
        shown: red,
    });
    // Grey of 4 bits: the key is 5 (of 15); the band and the shown half black.
    let grey = |x, y| if region(x, y) == 2 { 5 } else { 0 };
    cases.push(KeyCase {
        name: "grey, 4 bits",
        png: png(
            w,
            0,
            4,
            &packed(w, h, 4, grey),
            &vec![(b"tRNS", vec![0, 5])],
        ),
        mask: vec![5, 5],
        band: [0, 0, 0],
        shown: [0, 0, 0],
    });
    // RGB: the key is green.
    let rgb_rows: Vec<Vec<u8>> = (0..h)
        .map(|y| {
            (0..w)
                .flat_map(|x| match region(x, y) {
                    0 => blue,
                    1 => red,
                    _ => [0, 200, 0],
                })
                .collect()
        })
        .collect();
    cases.push(KeyCase {
        name: "RGB",
        png: png(
            w,
            2,
            8,
            &rgb_rows,
            &vec![(b"tRNS", vec![0, 0, 0, 200, 0, 0])],
        ),
        mask: vec![0, 0, 200, 200, 0, 0],
        band: blue,
        shown: red,
    });
    for KeyCase {
        name,
        png: file,
        mask,
        band: band_colour,
        shown,
    } in cases
    {
        let (pdf, image) = pdf_of(&file);
        assert_eq!(
            image.content,
            idat(&file),
            "{name}: the PNG's own zlib data"
        );
        let got: Vec<i64> = image
            .dict
            .get(b"Mask")
            .and_then(Object::as_array)
            .unwrap_or_else(|_| panic!("{name}: a /Mask array"))
            .iter()
            .map(|o| o.as_i64().expect("an integer"))
            .collect();
        assert_eq!(got, mask, "{name}");
        // On the page: the band gives the picture's columns; below it the left half shows the
        // white page through, the right half its colour. The picture is at the page's top,
        // the footer (grey text and a rule) at its bottom.
        let page = rendered(&pdf);
        let band: Vec<(u32, u32)> = page
            .enumerate_pixels()
            .filter(|(_, y, p)| *y < page.height() / 2 && near(p, band_colour))
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(!band.is_empty(), "{name}: the band is drawn");
        let left = band.iter().map(|p| p.0).min().unwrap();
        let right = band.iter().map(|p| p.0).max().unwrap();
        let top = band.iter().map(|p| p.1).min().unwrap();
        let side = right - left + 1;
        // Well inside the lower part, away from every edge (the band is a fifth of the side;
        // for grey, black, the shown half continues it).
        let y = top + side * 3 / 5;
        let hidden_px = page.get_pixel(left + side / 4, y);
        let shown_px = page.get_pixel(left + side * 3 / 4, y);
        assert!(
            near(hidden_px, [255, 255, 255]),
            "{name}: hidden shows {hidden_px:?}"
        );
        assert!(near(shown_px, shown), "{name}: shown is {shown_px:?}");
    }
}

#[test]
fn what_lies_under_a_colour_keyed_picture_shows_through() {
    // A picture in a yellow cell: its keyed pixels show the cell, as in Word and a browser.
    let w = 40;
    let index = |x: u32, _| if x < w / 2 { 0 } else { 1 };
    let file = png(
        w,
        3,
        8,
        &packed(w, w, 8, index),
        &vec![(b"PLTE", vec![0, 200, 0, 255, 0, 0]), (b"tRNS", vec![0])],
    );
    let mut doc = fx::doc("Picture", vec![]);
    doc.media.add("p.png", file);
    let picture = Block::Image(Image {
        width_percent: Some(50.0),
        ..fx::image("p.png", None)
    });
    let cell = sdconv::ast::Cell {
        background: Some("#ffff00".into()),
        ..fx::cell(vec![picture])
    };
    doc.blocks.push(Block::Table(sdconv::ast::Table {
        rows: vec![fx::row(vec![cell])],
        ..sdconv::ast::Table::default()
    }));
    let out = write(&doc, &PdfOptions::new(PagedSettings::default())).expect("PDF export");
    let page = rendered(&out.value);
    // The red half gives the picture's place; left of it, the same width again is the keyed
    // half, which shows the cell's yellow, not white and not the key's green.
    let red: Vec<(u32, u32)> = page
        .enumerate_pixels()
        .filter(|(_, _, p)| near(p, [255, 0, 0]))
        .map(|(x, y, _)| (x, y))
        .collect();
    assert!(!red.is_empty(), "the shown half is drawn");
    let left = red.iter().map(|p| p.0).min().unwrap();
    let right = red.iter().map(|p| p.0).max().unwrap();
    let mid_y =
        (red.iter().map(|p| p.1).min().unwrap() + red.iter().map(|p| p.1).max().unwrap()) / 2;
    let keyed = page.get_pixel(left - (right - left) / 2, mid_y);
    assert!(near(keyed, [255, 255, 0]), "the keyed half shows {keyed:?}");
}

#[test]
fn pictures_differing_only_by_their_colour_key_stay_two_images() {
    // krilla draws a picture met again from the one image object: the key must tell them apart.
    let rows = packed(13, 9, 4, |x, y| ((x + y) % 16) as u8);
    let keyed = |alpha: Vec<u8>| {
        png(
            13,
            3,
            4,
            &rows,
            &vec![(b"PLTE", palette(16)), (b"tRNS", alpha)],
        )
    };
    let mut doc = fx::doc("Pictures", vec![]);
    doc.media.add("a.png", keyed(vec![0]));
    doc.media.add("b.png", keyed(vec![255, 0]));
    for name in ["a.png", "b.png"] {
        doc.blocks.push(Block::Image(fx::image(name, None)));
    }
    let out = write(&doc, &PdfOptions::new(PagedSettings::default())).expect("PDF export");
    let parsed = lopdf::Document::load_mem(&out.value).expect("the PDF loads");
    let mut masks: Vec<Vec<i64>> = parsed
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter_map(|s| s.dict.get(b"Mask").and_then(Object::as_array).ok())
        .map(|a| a.iter().map(|o| o.as_i64().expect("an integer")).collect())
        .collect();
    masks.sort();
    assert_eq!(masks, [vec![0, 0], vec![1, 1]]);
}

#[test]
fn transparent_or_broken_palettes_are_decoded_instead() {
    // (what, bits per sample, chunks before IDAT)
    let cases: [(&str, u8, Chunks); 3] = [
        (
            "a partly transparent colour",
            8,
            vec![(b"PLTE", palette(4)), (b"tRNS", vec![128])],
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
