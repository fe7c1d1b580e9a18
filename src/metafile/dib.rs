//! Bitmaps in metafiles: device-independent bitmaps (MS-WMF 2.2.2.9: a BITMAPINFOHEADER or
//! BITMAPCOREHEADER, a colour table and the bits) and GDI+ pixel bitmaps, decoded within a
//! pixel budget and re-encoded as PNG, the one picture type every reader of the SVG can show.

use std::io::Cursor;

use image::{ImageFormat, ImageReader, RgbaImage};

use super::{Budget, MAX_BITMAP_PIXELS, MetafileError};

/// Source rectangle of a blit in bitmap pixels: x, y, width, height.
pub(crate) type SrcRect = (i64, i64, i64, i64);

fn bad(reason: String) -> MetafileError {
    MetafileError::Bitmap(reason)
}

/// Claims `w × h` pixels of the budget, refusing a bitmap larger than one may be.
fn claim(budget: &mut Budget, w: u64, h: u64) -> Result<(), MetafileError> {
    let px = w.saturating_mul(h);
    if w == 0 || h == 0 {
        return Err(bad("empty bitmap".into()));
    }
    if px > MAX_BITMAP_PIXELS {
        return Err(MetafileError::Limit {
            what: "bitmap pixels",
            limit: MAX_BITMAP_PIXELS,
        });
    }
    if px > budget.pixels {
        return Err(MetafileError::Limit {
            what: "bitmap pixels in one metafile",
            limit: super::MAX_TOTAL_PIXELS,
        });
    }
    budget.pixels -= px;
    Ok(())
}

fn limits() -> image::Limits {
    let mut l = image::Limits::default();
    l.max_image_width = Some(65_535);
    l.max_image_height = Some(65_535);
    l.max_alloc = Some(MAX_BITMAP_PIXELS * 8);
    l
}

/// Decodes an encoded picture (PNG, JPEG, GIF, BMP) within the budget.
pub(crate) fn decode_file(bytes: &[u8], budget: &mut Budget) -> Result<RgbaImage, MetafileError> {
    let reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| bad(e.to_string()))?;
    let (w, h) = reader
        .into_dimensions()
        .map_err(|e| bad(format!("picture header: {e}")))?;
    claim(budget, w as u64, h as u64)?;
    let img = crate::pixels::decode(bytes, None, limits()).map_err(bad)?;
    Ok(img.to_rgba8())
}

/// The header fields of a DIB that decide how it decodes.
struct DibHeader {
    width: i64,
    height: i64,
    bit_count: u16,
    compression: u32,
}

fn header(bmi: &[u8]) -> Result<DibHeader, MetafileError> {
    let u16_at = |o: usize| bmi.get(o..o + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |o: usize| {
        bmi.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let size = u32_at(0).ok_or_else(|| bad("bitmap header truncated".into()))?;
    if size == 12 {
        // BITMAPCOREHEADER (MS-WMF 2.2.2.2).
        let (Some(w), Some(h), Some(bits)) = (u16_at(4), u16_at(6), u16_at(10)) else {
            return Err(bad("bitmap core header truncated".into()));
        };
        return Ok(DibHeader {
            width: w as i64,
            height: h as i64,
            bit_count: bits,
            compression: 0,
        });
    }
    if size < 40 {
        return Err(bad(format!("bitmap header size {size}")));
    }
    // BITMAPINFOHEADER (MS-WMF 2.2.2.3) and its V4/V5 extensions.
    let (Some(w), Some(h), Some(bits), Some(comp)) = (u32_at(4), u32_at(8), u16_at(14), u32_at(16))
    else {
        return Err(bad("bitmap info header truncated".into()));
    };
    Ok(DibHeader {
        width: w as i32 as i64,
        height: h as i32 as i64,
        bit_count: bits,
        compression: comp,
    })
}

/// Decodes a DIB given as its BITMAPINFO (`bmi`) and its bits, within the budget.
pub(crate) fn decode_dib(
    bmi: &[u8],
    bits: &[u8],
    budget: &mut Budget,
) -> Result<RgbaImage, MetafileError> {
    let h = header(bmi)?;
    // BI_JPEG and BI_PNG (MS-WMF 2.1.1.7): the bits are a whole picture file.
    if h.compression == 4 || h.compression == 5 {
        return decode_file(bits, budget);
    }
    if h.width <= 0 || h.height == 0 || h.width > 65_535 || h.height.abs() > 65_535 {
        return Err(bad(format!("bitmap size {} × {}", h.width, h.height)));
    }
    claim(budget, h.width as u64, h.height.unsigned_abs())?;
    // The BMP decoder reads a file: a 14-byte BITMAPFILEHEADER, then the info and the bits.
    let total = 14 + bmi.len() + bits.len();
    let mut file = Vec::with_capacity(total);
    file.extend_from_slice(b"BM");
    file.extend_from_slice(&(total as u32).to_le_bytes());
    file.extend_from_slice(&[0; 4]);
    file.extend_from_slice(&((14 + bmi.len()) as u32).to_le_bytes());
    file.extend_from_slice(bmi);
    file.extend_from_slice(bits);
    // A colour table shorter than the bit depth allows, with biClrUsed 0 ("all"): writers
    // give only the colours used. Say how many there are, or the decoder reads on into the
    // bits.
    let hsize = u32::from_le_bytes([bmi[0], bmi[1], bmi[2], bmi[3]]) as usize;
    if hsize >= 40 && h.bit_count <= 8 && bmi.len() > hsize {
        let present = ((bmi.len() - hsize) / 4) as u32;
        let at = 14 + 32;
        let used = u32::from_le_bytes([file[at], file[at + 1], file[at + 2], file[at + 3]]);
        if present > 0 && (used == 0 || used > present) && present < (1 << h.bit_count) {
            file[at..at + 4].copy_from_slice(&present.to_le_bytes());
        }
    }
    let mut img = crate::pixels::decode(&file, Some(ImageFormat::Bmp), limits())
        .map_err(|e| bad(format!("bitmap: {e}")))?
        .to_rgba8();
    // A 32-bit BI_RGB bitmap's fourth byte is unused and mostly 0: opaque, not invisible.
    if h.bit_count == 32 && img.pixels().all(|p| p.0[3] == 0) {
        for p in img.pixels_mut() {
            p.0[3] = 255;
        }
    }
    Ok(img)
}

/// Splits a packed DIB (MS-WMF 2.2.2.9: header, colour table and bits in one piece, as
/// WMF records carry it) into its BITMAPINFO and its bits.
pub(crate) fn split_packed(dib: &[u8]) -> Result<(&[u8], &[u8]), MetafileError> {
    let h = header(dib)?;
    let size = u32::from_le_bytes([dib[0], dib[1], dib[2], dib[3]]) as usize;
    let (entry, used) = if size == 12 {
        (3, 0)
    } else {
        let used = dib
            .get(32..36)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
        (4, used)
    };
    let colors = if used > 0 {
        used
    } else if h.bit_count <= 8 {
        1 << h.bit_count
    } else {
        0
    };
    // BI_BITFIELDS (3) and BI_ALPHABITFIELDS (6) masks follow a BITMAPINFOHEADER.
    let masks = match (size, h.compression) {
        (40, 3) => 12,
        (40, 6) => 16,
        _ => 0,
    };
    let len = colors
        .checked_mul(entry)
        .and_then(|c| c.checked_add(size + masks))
        .filter(|&l| l <= dib.len())
        .ok_or_else(|| bad(format!("bitmap colour table of {colors} entries")))?;
    Ok(dib.split_at(len))
}

/// Crops `img` to `src` when that is a proper part of it; `bottom_up` when the source
/// rectangle counts rows from the bottom (StretchDIBits on a bottom-up DIB).
pub(crate) fn crop(img: RgbaImage, src: SrcRect, bottom_up: bool) -> RgbaImage {
    let (iw, ih) = (img.width() as i64, img.height() as i64);
    let (x, mut y, w, h) = src;
    if bottom_up {
        y = ih - (y + h);
    }
    let whole = x <= 0 && y <= 0 && x + w >= iw && y + h >= ih;
    if whole || w <= 0 || h <= 0 || x < 0 || y < 0 || x + w > iw || y + h > ih {
        return img;
    }
    image::imageops::crop_imm(&img, x as u32, y as u32, w as u32, h as u32).to_image()
}

/// Encodes as PNG.
pub(crate) fn png(img: &RgbaImage) -> Result<Vec<u8>, MetafileError> {
    use image::ImageEncoder as _;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Default, FilterType::Adaptive)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| bad(format!("PNG: {e}")))?;
    Ok(out)
}

/// The mean colour of a bitmap (a pattern brush drawn as a flat fill), as a COLORREF.
pub(crate) fn mean_colorref(img: &RgbaImage) -> u32 {
    let (mut r, mut g, mut b, mut n) = (0u64, 0u64, 0u64, 0u64);
    for p in img.pixels().take(1 << 16) {
        r += p.0[0] as u64;
        g += p.0[1] as u64;
        b += p.0[2] as u64;
        n += 1;
    }
    if n == 0 {
        return 0;
    }
    ((r / n) | ((g / n) << 8) | ((b / n) << 16)) as u32
}

/// A GDI+ pixel bitmap (MS-EMFPLUS 2.2.2.2): `width × height` pixels in `format`, rows
/// `stride` bytes apart, with the palette that indexed formats carry first.
pub(crate) fn decode_gdiplus_pixels(
    width: u32,
    height: u32,
    stride: i64,
    format: u32,
    data: &[u8],
    budget: &mut Budget,
) -> Result<RgbaImage, MetafileError> {
    claim(budget, width as u64, height as u64)?;
    let bpp = ((format >> 8) & 0xff) as usize;
    let indexed = format & 0x0001_0000 != 0;
    let mut palette: Vec<[u8; 4]> = Vec::new();
    let mut pixels = data;
    if indexed {
        // EmfPlusPalette (2.2.2.28): flags, count, ARGB entries.
        if data.len() < 8 {
            return Err(bad("bitmap palette truncated".into()));
        }
        let count = u32::from_le_bytes([data[4], data[5], data[6], data[7]]) as usize;
        let end = count
            .checked_mul(4)
            .and_then(|n| n.checked_add(8))
            .filter(|&e| e <= data.len() && count <= 256)
            .ok_or_else(|| bad("bitmap palette too long".into()))?;
        for c in data[8..end].chunks_exact(4) {
            palette.push([c[2], c[1], c[0], c[3]]);
        }
        pixels = &data[end..];
    }
    let row_bytes = (width as usize * bpp).div_ceil(8);
    let stride = if stride <= 0 {
        row_bytes
    } else {
        stride as usize
    };
    if stride < row_bytes
        || stride
            .checked_mul(height as usize)
            .is_none_or(|n| n > pixels.len())
    {
        return Err(bad(format!(
            "bitmap data: {} bytes for {width} × {height} at stride {stride}",
            pixels.len()
        )));
    }
    let mut img = RgbaImage::new(width, height);
    for (y, row) in pixels.chunks(stride).take(height as usize).enumerate() {
        for x in 0..width as usize {
            let px = match (bpp, indexed) {
                (1 | 4 | 8, true) => {
                    let bit = x * bpp;
                    let byte = row[bit / 8];
                    let shift = 8 - bpp - (bit % 8);
                    let idx = ((byte >> shift) as usize) & ((1 << bpp) - 1);
                    palette.get(idx).copied().unwrap_or([0, 0, 0, 255])
                }
                (24, _) => {
                    let p = &row[x * 3..x * 3 + 3];
                    [p[2], p[1], p[0], 255]
                }
                (32, _) => {
                    let p = &row[x * 4..x * 4 + 4];
                    // PixelFormat32bppRGB (0x00022009) has no alpha.
                    let a = if format == 0x0002_2009 { 255 } else { p[3] };
                    [p[2], p[1], p[0], a]
                }
                _ => return Err(bad(format!("pixel format {format:#x}"))),
            };
            img.put_pixel(x as u32, y as u32, image::Rgba(px));
        }
    }
    // PixelFormat32bppPARGB (0x000E200B): premultiplied; undo so PNG holds straight alpha.
    if format == 0x000E_200B {
        for p in img.pixels_mut() {
            let a = p.0[3] as u32;
            if a > 0 && a < 255 {
                for c in &mut p.0[..3] {
                    *c = ((*c as u32 * 255 / a).min(255)) as u8;
                }
            }
        }
    }
    Ok(img)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget() -> Budget {
        Budget::default()
    }

    /// A 2 × 2 24-bit bottom-up DIB: blue, green / red, white (bottom row first in the bits).
    fn dib_2x2() -> (Vec<u8>, Vec<u8>) {
        let mut bmi = Vec::new();
        for v in [40u32, 2, 2] {
            bmi.extend_from_slice(&v.to_le_bytes());
        }
        bmi.extend_from_slice(&1u16.to_le_bytes());
        bmi.extend_from_slice(&24u16.to_le_bytes());
        bmi.extend_from_slice(&[0; 24]);
        // Rows padded to 4 bytes: bottom row red, white; top row blue, green (BGR order).
        let bits = vec![
            0, 0, 255, 255, 255, 255, 0, 0, //
            255, 0, 0, 0, 255, 0, 0, 0,
        ];
        (bmi, bits)
    }

    #[test]
    fn decodes_a_dib_and_crops() {
        let (bmi, bits) = dib_2x2();
        let img = decode_dib(&bmi, &bits, &mut budget()).unwrap();
        assert_eq!(img.get_pixel(0, 0).0, [0, 0, 255, 255]);
        assert_eq!(img.get_pixel(0, 1).0, [255, 0, 0, 255]);
        let c = crop(img, (0, 0, 1, 1), true);
        assert_eq!((c.width(), c.height()), (1, 1));
        assert_eq!(c.get_pixel(0, 0).0, [255, 0, 0, 255]);
        assert!(!png(&c).unwrap().is_empty());
    }

    #[test]
    fn refuses_huge_and_false_headers() {
        let (mut bmi, bits) = dib_2x2();
        bmi[4..8].copy_from_slice(&60_000u32.to_le_bytes());
        bmi[8..12].copy_from_slice(&60_000u32.to_le_bytes());
        assert!(matches!(
            decode_dib(&bmi, &bits, &mut budget()),
            Err(MetafileError::Limit { .. })
        ));
        assert!(decode_dib(&[1, 2], &bits, &mut budget()).is_err());
        assert!(decode_gdiplus_pixels(4, 4, 16, 0x0026_200A, &[0; 10], &mut budget()).is_err());
    }

    #[test]
    fn a_png_whose_palette_is_not_whole_colours_is_an_error_not_a_panic() {
        // The png crate panics on it (see `crate::pixels`).
        let rows = [0u8, 0, 1, 0, 1, 0, 1, 0, 1, 0];
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut z, &rows).unwrap();
        let file = crate::sample::png_chunks(&[
            (b"IHDR", &[0, 0, 0, 4, 0, 0, 0, 2, 8, 3, 0, 0, 0]),
            (b"PLTE", &[1, 2, 3, 4]),
            (b"IDAT", &z.finish().unwrap()),
            (b"IEND", &[]),
        ]);
        let err = decode_file(&file, &mut budget()).unwrap_err();
        assert!(err.to_string().contains("palette"), "{err}");
    }
}
