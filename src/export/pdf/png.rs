//! PNG pictures whose compressed rows a PDF can hold as they are. PDF's Flate filter with a PNG
//! predictor (`/Predictor 15`) reads exactly what a PNG's IDAT chunks hold, so a grey, RGB or
//! palette picture, not interlaced and without an alpha channel, is embedded without being
//! decoded or deflated again: that decode and deflate were most of the PDF writer's time on a
//! document with pictures, and all of its peak memory above the tree. A palette becomes an
//! `/Indexed` colour space, so a screenshot's one byte (or less) per pixel stays that size
//! instead of growing to three.
//!
//! Transparency that only hides pixels passes through too: a `tRNS` chunk naming one grey
//! value or RGB colour, or a palette's fully transparent entries when they are one run of
//! indices (the rest opaque), becomes a colour key mask (`/Mask [min max …]`, ISO 32000-1
//! §8.9.6.4), which PDF compares with the samples as the PNG decoder does. Partly transparent
//! entries need a soft mask, that is the pixels: such pictures, like every other PNG (alpha,
//! 16-bit samples, interlacing), take the decoding path in `images.rs`.
//!
//! What is passed through is checked first as a decoder would: the chunk structure and every
//! chunk's CRC, and the zlib stream inflated (into a small buffer, never kept) to exactly one
//! filter byte of 0–4 and the row's samples per row, with its Adler-32 checksum. A picture that
//! fails goes to the decoding path, which reports it as it always did.

use std::ops::Range;

use flate2::{Decompress, FlushDecompress, Status};

/// The PNG signature.
const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A grey, RGB or palette PNG's rows, still deflated, ready for a PNG predictor.
#[derive(Debug, PartialEq)]
pub(crate) struct FilteredRows {
    /// The zlib stream.
    pub(crate) zlib: Zlib,
    /// Width and height in pixels.
    pub(crate) size: (u32, u32),
    /// Samples per pixel: 1 (grey, palette index) or 3 (RGB).
    pub(crate) colors: u8,
    /// Bits per sample: 1, 2, 4 or 8 (RGB: 8).
    pub(crate) bits: u8,
    /// The palette's RGB triples, 2^`bits` of them: entries the file does not give are black,
    /// as decoders show an index past the palette, so every sample names a colour.
    pub(crate) palette: Option<Vec<u8>>,
    /// The colour key mask from `tRNS`: a least and a greatest sample (a palette index for a
    /// palette picture) per sample of a pixel; pixels within them are not drawn.
    pub(crate) color_key: Option<Vec<u8>>,
}

/// Where a PNG's zlib stream is: one IDAT chunk's data, a range of the file (no copy), or
/// several chunks' data joined.
#[derive(Debug, PartialEq)]
pub(crate) enum Zlib {
    /// Byte range of the PNG file.
    Within(Range<usize>),
    /// The chunks' data, joined.
    Joined(Vec<u8>),
}

/// The rows of `png` when a PDF can take them unchanged, `None` when the picture needs
/// decoding (alpha, 16-bit samples, interlacing, transparency that is not a colour key, more
/// than `max_pixels` pixels, a palette picture without a palette or with more colours than its
/// samples can name) or is damaged in any way a decoder would notice.
pub(crate) fn filtered_rows(png: &[u8], max_pixels: u64) -> Option<FilteredRows> {
    let body = png.strip_prefix(SIGNATURE)?;
    // A decoder refuses a file that does not start with its header.
    let (kind, data, mut rest) = chunk(body)?;
    if kind != b"IHDR" {
        return None;
    }
    let header = Header::read(data)?;
    let mut palette = None;
    let mut trns = None;
    let mut idat: Vec<Range<usize>> = Vec::new();
    // The image data is one run of IDAT chunks: a decoder refuses one after another chunk.
    let mut idat_ended = false;
    loop {
        // Chunk data starts after the length and the type.
        let data_at = png.len() - rest.len() + 8;
        let (kind, data, after) = chunk(rest)?;
        rest = after;
        idat_ended |= kind != b"IDAT" && !idat.is_empty();
        match kind {
            // A decoder refuses a second header, and a second palette or one after the image
            // data.
            b"IHDR" => return None,
            b"PLTE" if palette.is_some() || !idat.is_empty() => return None,
            b"PLTE" => palette = Some(data),
            // A decoder skips a second colour key, one after the image data and a palette's
            // before the palette: the decoder decides how such a picture looks.
            b"tRNS" if trns.is_some() || !idat.is_empty() => return None,
            b"tRNS" if header.indexed && palette.is_none() => return None,
            b"tRNS" => trns = Some(data),
            b"IDAT" if idat_ended => return None,
            b"IDAT" => idat.push(data_at..data_at + data.len()),
            b"IEND" => break,
            // A chunk a decoder must understand (bit 5 of its first letter clear: upper case)
            // that it does not know: it refuses the file.
            _ if kind[0] & 0x20 == 0 => return None,
            _ => {}
        }
    }
    let color_key = match trns {
        Some(trns) => color_key(&header, trns, palette.map_or(0, |p| p.len() / 3))?,
        None => None,
    };
    let palette = match (header.indexed, palette) {
        (false, _) => None,
        (true, Some(p)) => Some(full_palette(p, header.bits)?),
        (true, None) => return None,
    };
    let (w, h) = header.size;
    if u64::from(w) * u64::from(h) > max_pixels {
        return None;
    }
    let zlib = match idat.as_slice() {
        [] => return None,
        [one] => Zlib::Within(one.clone()),
        many => {
            let mut joined = Vec::with_capacity(many.iter().map(|r| r.len()).sum());
            for r in many {
                joined.extend_from_slice(png.get(r.clone()).unwrap_or_default());
            }
            Zlib::Joined(joined)
        }
    };
    let stream = match &zlib {
        Zlib::Within(r) => png.get(r.clone()).unwrap_or_default(),
        Zlib::Joined(v) => v.as_slice(),
    };
    // Whole bytes per row: samples of less than 8 bits share bytes, the last one padded.
    let stride = (u64::from(w) * u64::from(header.colors) * u64::from(header.bits)).div_ceil(8) + 1;
    rows_are_whole(stream, stride, u64::from(h)).then_some(FilteredRows {
        zlib,
        size: header.size,
        colors: header.colors,
        bits: header.bits,
        palette,
        color_key,
    })
}

/// The colour key mask `trns` stands for: `Some(None)` when it hides nothing (every palette
/// entry opaque), `None` when it is not a colour key (partly transparent entries, transparent
/// entries apart, a value the samples cannot hold, a length PNG does not allow for the colour
/// type).
fn color_key(header: &Header, trns: &[u8], palette_entries: usize) -> Option<Option<Vec<u8>>> {
    if header.indexed {
        // Alphas of the first entries; the rest are opaque.
        if trns.len() > palette_entries || trns.iter().any(|&a| a != 0 && a != 255) {
            return None;
        }
        let first = trns.iter().position(|&a| a == 0);
        let last = trns.iter().rposition(|&a| a == 0);
        return match first.zip(last) {
            Some((first, last)) if trns[first..=last].iter().all(|&a| a == 0) => Some(Some(vec![
                u8::try_from(first).ok()?,
                u8::try_from(last).ok()?,
            ])),
            Some(_) => None,
            None => Some(None),
        };
    }
    let most = (1u16 << header.bits) - 1;
    // One 16-bit value per sample (ISO 15948 §11.3.2.1).
    if trns.len() != 2 * usize::from(header.colors) {
        return None;
    }
    let mut key = Vec::with_capacity(trns.len());
    for pair in trns.chunks_exact(2) {
        let value = u16::from_be_bytes([pair[0], pair[1]]);
        if value > most {
            return None;
        }
        let value = u8::try_from(value).ok()?;
        key.extend([value, value]);
    }
    Some(Some(key))
}

/// The palette's triples padded with black to the 2^`bits` colours samples can name, or `None`
/// when the chunk is not whole triples or holds more than that (PNG allows neither).
fn full_palette(plte: &[u8], bits: u8) -> Option<Vec<u8>> {
    let full = 3usize << bits;
    if plte.is_empty() || plte.len() % 3 != 0 || plte.len() > full {
        return None;
    }
    let mut out = plte.to_vec();
    out.resize(full, 0);
    Some(out)
}

/// What IHDR says, for a picture this path can take.
struct Header {
    size: (u32, u32),
    colors: u8,
    bits: u8,
    /// Samples are palette indices.
    indexed: bool,
}

impl Header {
    fn read(data: &[u8]) -> Option<Header> {
        let [
            w0,
            w1,
            w2,
            w3,
            h0,
            h1,
            h2,
            h3,
            depth,
            color,
            method,
            filter,
            interlace,
        ] = *<&[u8; 13]>::try_from(data).ok()?;
        let size = (
            u32::from_be_bytes([w0, w1, w2, w3]),
            u32::from_be_bytes([h0, h1, h2, h3]),
        );
        // PNG's depths per colour type (ISO 15948 §11.2.2); 16-bit samples are decoded, as
        // are grey with alpha and RGBA.
        let (colors, indexed) = match (color, depth) {
            (0 | 3, 1 | 2 | 4 | 8) => (1, color == 3),
            (2, 8) => (3, false),
            _ => return None,
        };
        // PNG caps a side at 2^31 - 1, which is also what the PDF's integers hold.
        let side = |s: u32| s > 0 && i32::try_from(s).is_ok();
        (side(size.0) && side(size.1) && method == 0 && filter == 0 && interlace == 0).then_some(
            Header {
                size,
                colors,
                bits: depth,
                indexed,
            },
        )
    }
}

/// The first chunk of `b`: its type, its data and what follows it, if its length fits and its
/// CRC is right.
fn chunk(b: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let len = usize::try_from(u32::from_be_bytes(b.get(..4)?.try_into().ok()?)).ok()?;
    let end = len.checked_add(8)?;
    let typed = b.get(4..end)?;
    let crc = u32::from_be_bytes(b.get(end..end.checked_add(4)?)?.try_into().ok()?);
    (crc32fast::hash(typed) == crc).then(|| (&typed[..4], &typed[4..], &b[end + 4..]))
}

/// Whether `zlib` inflates, with a right checksum, to exactly `rows` rows of `stride` bytes,
/// each starting with a PNG filter type (0–4). Inflates into a reused buffer: the pixels are
/// never held.
fn rows_are_whole(zlib: &[u8], stride: u64, rows: u64) -> bool {
    let Some(total) = stride.checked_mul(rows) else {
        return false;
    };
    let mut inflater = Decompress::new(true);
    let mut buf = vec![0u8; 64 * 1024];
    // Where the next filter byte sits, counted from the start of the inflated data.
    let mut next_row = 0u64;
    loop {
        let before_in = inflater.total_in();
        let before_out = inflater.total_out();
        let Ok(consumed) = usize::try_from(before_in) else {
            return false;
        };
        let Some(input) = zlib.get(consumed..) else {
            return false;
        };
        let status = match inflater.decompress(input, &mut buf, FlushDecompress::None) {
            Ok(status) => status,
            Err(_) => return false,
        };
        let out = inflater.total_out();
        if out > total {
            return false;
        }
        while next_row < out {
            // In range: next_row lies in [before_out, out), which this call wrote.
            let at = (next_row - before_out) as usize;
            if buf.get(at).is_none_or(|&f| f > 4) {
                return false;
            }
            next_row += stride;
        }
        match status {
            Status::StreamEnd => return out == total,
            // No progress with input left means the stream is cut short.
            _ if inflater.total_in() == before_in && out == before_out => return false,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// A PNG of `rows` (each with its filter byte) at colour type `color`, 8-bit samples,
    /// IDAT split in two.
    fn png(w: u32, h: u32, color: u8, rows: &[u8], extra: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
        png_in(w, h, color, rows, extra, true)
    }

    /// The same, its IDAT split in two or not.
    fn png_in(
        w: u32,
        h: u32,
        color: u8,
        rows: &[u8],
        extra: &[(&[u8; 4], &[u8])],
        split: bool,
    ) -> Vec<u8> {
        png_of(w, h, (color, 8), rows, extra, split)
    }

    /// A PNG of colour type and depth `kind`.
    fn zlib(rows: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(rows).unwrap();
        e.finish().unwrap()
    }

    fn png_of(
        w: u32,
        h: u32,
        (color, depth): (u8, u8),
        rows: &[u8],
        extra: &[(&[u8; 4], &[u8])],
        split: bool,
    ) -> Vec<u8> {
        let z = zlib(rows);
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[depth, color, 0, 0, 0]);
        let mut chunks: Vec<(&[u8; 4], &[u8])> = vec![(b"IHDR", &ihdr)];
        chunks.extend_from_slice(extra);
        if split {
            let (a, b) = z.split_at(z.len() / 2);
            chunks.extend([(b"IDAT", a), (b"IDAT", b)]);
        } else {
            chunks.push((b"IDAT", &z));
        }
        chunks.push((b"IEND", &[]));
        crate::sample::png_chunks(&chunks)
    }

    #[test]
    fn grey_and_rgb_rows_pass_through_joined() {
        // 2×2 RGB, rows filtered None and Up.
        let rows = [0, 1, 2, 3, 4, 5, 6, 2, 1, 1, 1, 1, 1, 1];
        let file = png(2, 2, 2, &rows, &[]);
        let got = filtered_rows(&file, 100).expect("passes through");
        assert_eq!((got.size, got.colors), ((2, 2), 3));
        // Two IDAT chunks: joined.
        let Zlib::Joined(zlib) = &got.zlib else {
            panic!("{:?}", got.zlib)
        };
        let mut inflated = Vec::new();
        flate2::read::ZlibDecoder::new(&zlib[..])
            .read_to_end(&mut inflated)
            .unwrap();
        assert_eq!(inflated, rows);
        // One IDAT chunk: its range of the file, not a copy.
        let one = png_in(2, 2, 2, &rows, &[], false);
        let got = filtered_rows(&one, 100).expect("passes through");
        let Zlib::Within(range) = &got.zlib else {
            panic!("{:?}", got.zlib)
        };
        let mut inflated = Vec::new();
        flate2::read::ZlibDecoder::new(&one[range.clone()])
            .read_to_end(&mut inflated)
            .unwrap();
        assert_eq!(inflated, rows);
        let grey = png(3, 1, 0, &[0, 9, 9, 9], &[]);
        assert_eq!(filtered_rows(&grey, 100).map(|r| r.colors), Some(1));
    }

    #[test]
    fn what_a_pdf_cannot_take_unchanged_is_left_to_the_decoder() {
        let rgb = [0, 1, 2, 3];
        // RGBA, over the pixel limit, a colour key past 8-bit samples or of the wrong length.
        assert!(filtered_rows(&png(1, 1, 6, &[0, 1, 2, 3, 4], &[]), 9).is_none());
        assert!(filtered_rows(&png(1, 1, 2, &rgb, &[]), 0).is_none());
        let key_of = |k: &[u8]| filtered_rows(&png(1, 1, 2, &rgb, &[(b"tRNS", k)]), 9);
        assert!(key_of(&[0, 0, 1, 0, 0, 0]).is_none());
        assert!(key_of(&[0, 0, 0, 0]).is_none());
        // Two colour keys, or one after the image data (which a decoder skips).
        let key: (&[u8; 4], &[u8]) = (b"tRNS", &[0, 1, 0, 2, 0, 3]);
        assert!(filtered_rows(&png(1, 1, 2, &rgb, &[key, key]), 9).is_none());
        let ihdr = [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0];
        let z = zlib(&rgb);
        let after = [(b"IHDR", &ihdr[..]), (b"IDAT", &z), key, (b"IEND", &[])];
        assert!(filtered_rows(&crate::sample::png_chunks(&after), 9).is_none());
        // Any chunk before the header, or a second header (a decoder refuses both).
        let good = [(b"IHDR", &ihdr[..]), (b"IDAT", &z), (b"IEND", &[])];
        assert!(filtered_rows(&crate::sample::png_chunks(&good), 9).is_some());
        for first in [key, (b"tEXt", &b"a\0b"[..]), (b"IHDR", &ihdr[..])] {
            let mut chunks = vec![first];
            chunks.extend(good);
            assert!(
                filtered_rows(&crate::sample::png_chunks(&chunks), 9).is_none(),
                "{first:?}"
            );
        }
        // Image data broken by another chunk, and a critical chunk a decoder does not know
        // (both refused); an ancillary one it does not know is skipped.
        let (a, b) = z.split_at(z.len() / 2);
        let broken = [
            (b"IHDR", &ihdr[..]),
            (b"IDAT", a),
            (b"tEXt", &b"a\0b"[..]),
            (b"IDAT", b),
            (b"IEND", &[][..]),
        ];
        assert!(filtered_rows(&crate::sample::png_chunks(&broken), 9).is_none());
        let whole = [
            (b"IHDR", &ihdr[..]),
            (b"IDAT", a),
            (b"IDAT", b),
            (b"IEND", &[][..]),
        ];
        assert!(filtered_rows(&crate::sample::png_chunks(&whole), 9).is_some());
        for kind in [b"ABCD", b"aBCD"] {
            let chunks = [
                (b"IHDR", &ihdr[..]),
                (kind, &[][..]),
                (b"IDAT", &z),
                (b"IEND", &[]),
            ];
            let passed = filtered_rows(&crate::sample::png_chunks(&chunks), 9).is_some();
            assert_eq!(passed, kind == b"aBCD", "{kind:?}");
        }
    }

    #[test]
    fn a_colour_key_passes_through_as_a_mask() {
        // RGB and grey: one value per sample, each both ends of its range.
        let rgb = png(1, 1, 2, &[0, 1, 2, 3], &[(b"tRNS", &[0, 1, 0, 2, 0, 3])]);
        let got = filtered_rows(&rgb, 9).expect("passes through");
        assert_eq!(got.color_key, Some(vec![1, 1, 2, 2, 3, 3]));
        let rows = [0, 0b0001_1011, 0b0100_0000, 2, 0, 0];
        let grey = png_of(5, 2, (0, 2), &rows, &[(b"tRNS", &[0, 3])], false);
        assert_eq!(
            filtered_rows(&grey, 100).and_then(|r| r.color_key),
            Some(vec![3, 3])
        );
        // A grey value the samples cannot hold.
        let past = png_of(5, 2, (0, 2), &rows, &[(b"tRNS", &[0, 4])], false);
        assert!(filtered_rows(&past, 100).is_none());
        // A palette: its fully transparent entries, one run of indices, the rest opaque
        // (entries past the chunk's alphas too).
        let four = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        let indexed = |alphas: &[u8]| {
            let chunks = [(b"PLTE", &four[..]), (b"tRNS", alphas)];
            filtered_rows(&png_of(5, 2, (3, 2), &rows, &chunks, true), 100)
        };
        assert_eq!(
            indexed(&[255, 0, 0]).and_then(|r| r.color_key),
            Some(vec![1, 2])
        );
        assert_eq!(indexed(&[0]).and_then(|r| r.color_key), Some(vec![0, 0]));
        // All opaque: no mask at all.
        let opaque = indexed(&[255, 255]).expect("passes through");
        assert_eq!(opaque.color_key, None);
        // Partly transparent, transparent entries apart, more alphas than colours: decoded.
        assert!(indexed(&[255, 128]).is_none());
        assert!(indexed(&[0, 255, 0]).is_none());
        assert!(indexed(&[0, 0, 0, 0, 0]).is_none());
        // A colour key before the palette (which a decoder skips).
        let early = [(b"tRNS", &[0u8][..]), (b"PLTE", &four[..])];
        assert!(filtered_rows(&png_of(5, 2, (3, 2), &rows, &early, true), 100).is_none());
    }

    #[test]
    fn palettes_and_small_samples_pass_through_whole_bytes_per_row() {
        // 5 pixels of 2 bits: two bytes per row after the filter byte.
        let rows = [0, 0b0001_1011, 0b0100_0000, 2, 0, 0];
        let three = [1, 2, 3, 4, 5, 6, 7, 8, 9];
        let file = png_of(5, 2, (3, 2), &rows, &[(b"PLTE", &three)], true);
        let got = filtered_rows(&file, 100).expect("passes through");
        assert_eq!((got.size, got.colors, got.bits), ((5, 2), 1, 2));
        // Padded to the four colours 2 bits name.
        let mut padded = three.to_vec();
        padded.extend([0, 0, 0]);
        assert_eq!(got.palette, Some(padded));
        let grey = png_of(5, 2, (0, 2), &rows, &[], false);
        let got = filtered_rows(&grey, 100).expect("passes through");
        assert_eq!((got.bits, got.palette), (2, None));
        // A row's bytes counted at 8 bits per sample would not fit.
        assert!(filtered_rows(&png_of(5, 2, (0, 8), &rows, &[], false), 100).is_none());
        // No palette, one of a colour and a third, five colours for 2-bit samples, 16-bit
        // grey: decoded.
        assert!(filtered_rows(&png_of(5, 2, (3, 2), &rows, &[], true), 100).is_none());
        let odd = [1, 2, 3, 4];
        assert!(
            filtered_rows(&png_of(5, 2, (3, 2), &rows, &[(b"PLTE", &odd)], true), 100).is_none()
        );
        let five = [7; 15];
        assert!(
            filtered_rows(&png_of(5, 2, (3, 2), &rows, &[(b"PLTE", &five)], true), 100).is_none()
        );
        assert!(filtered_rows(&png_of(1, 1, (0, 16), &[0, 0, 0], &[], true), 100).is_none());
        // Two palettes: decoded (a decoder refuses the file).
        let two = [(b"PLTE", &three[..]), (b"PLTE", &three[..])];
        assert!(filtered_rows(&png_of(5, 2, (3, 2), &rows, &two, true), 100).is_none());
        // A side past 2^31 - 1 (PNG's own cap, and what the PDF's integers hold).
        let ihdr = |w: u32| [&w.to_be_bytes()[..], &[0, 0, 0, 1, 1, 0, 0, 0, 0]].concat();
        assert!(Header::read(&ihdr(i32::MAX as u32)).is_some());
        assert!(Header::read(&ihdr(1 << 31)).is_none());
    }

    #[test]
    fn a_palette_after_the_image_data_is_left_to_the_decoder() {
        let rows = [0, 0b0001_1011, 0b0100_0000, 2, 0, 0];
        // The same picture with its palette before and after the image data.
        let ihdr = [0, 0, 0, 5, 0, 0, 0, 2, 2, 3, 0, 0, 0];
        let z = zlib(&rows);
        let plte: (&[u8; 4], &[u8]) = (b"PLTE", &[1, 2, 3]);
        let before = [(b"IHDR", &ihdr[..]), plte, (b"IDAT", &z), (b"IEND", &[])];
        assert!(filtered_rows(&crate::sample::png_chunks(&before), 100).is_some());
        let after = [(b"IHDR", &ihdr[..]), (b"IDAT", &z), plte, (b"IEND", &[])];
        assert!(filtered_rows(&crate::sample::png_chunks(&after), 100).is_none());
    }

    #[test]
    fn damaged_pictures_are_not_passed_through() {
        let rows = [0, 1, 2, 3, 0, 4, 5, 6];
        let good = png(1, 2, 2, &rows, &[]);
        assert!(filtered_rows(&good, 9).is_some());
        // A row with an unknown filter type, rows too short, one row too many.
        assert!(filtered_rows(&png(1, 2, 2, &[0, 1, 2, 3, 7, 4, 5, 6], &[]), 9).is_none());
        assert!(filtered_rows(&png(1, 2, 2, &rows[..7], &[]), 9).is_none());
        assert!(filtered_rows(&png(1, 1, 2, &rows, &[]), 9).is_none());
        // A flipped bit anywhere: the chunk's CRC or the zlib checksum catches it.
        for i in SIGNATURE.len()..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            assert!(filtered_rows(&bad, 9).is_none(), "byte {i}");
        }
        // Cut anywhere.
        for n in 0..good.len() {
            assert!(filtered_rows(&good[..n], 9).is_none(), "cut at {n}");
        }
    }
}
