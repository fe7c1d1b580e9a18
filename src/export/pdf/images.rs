//! Pictures as PDF image XObjects: JPEG bytes passed through (`DCTDecode`), PNG pixel data passed
//! through with PNG predictors when PDF can read it as it is (`FlateDecode`), every other picture
//! the `image` crate reads decoded to RGB over white and stored with `FlateDecode`. Pictures past
//! the pixel limit are not decoded; very large decoded ones are scaled down to 2048 px on the long
//! side (a page is never printed sharper than that). What cannot be drawn is an error string the
//! writer turns into a warning and a placeholder box.

use std::collections::BTreeMap;

use printpdf::{DictItem, ExternalStream, ExternalXObject};

use crate::ast::{MediaItem, MediaKind};

/// Longest side of a decoded picture after scaling.
const MAX_SIDE: u32 = 2048;

/// The XObject for `item`, or why it cannot be drawn.
pub(crate) fn xobject(item: &MediaItem, max_pixels: u64) -> Result<ExternalXObject, String> {
    if !item.has_bytes() || item.size == 0 {
        return Err("its bytes are missing".into());
    }
    if let (Some(w), Some(h)) = (item.width, item.height)
        && u64::from(w) * u64::from(h) > max_pixels
    {
        return Err(format!("{w}×{h} pixels is over the limit of {max_pixels}"));
    }
    // The pixels are needed here: a picture still deflated is inflated (a corrupt one is the
    // error the writer reports).
    let bytes = item.bytes().map_err(|e| e.reason)?;
    if item.kind == MediaKind::Jpeg
        && let Some((w, h, comps)) = jpeg_info(&bytes)
    {
        return Ok(jpeg(&bytes, w, h, comps));
    }
    if item.kind == MediaKind::Png
        && let Some(x) = png_passthrough(&bytes)
    {
        return Ok(x);
    }
    let kind = match item.kind {
        MediaKind::Png | MediaKind::Jpeg | MediaKind::Gif | MediaKind::Bmp => item.kind,
        other => return Err(format!("{} pictures cannot be drawn", other.extension())),
    };
    let format = match kind {
        MediaKind::Png => image::ImageFormat::Png,
        MediaKind::Gif => image::ImageFormat::Gif,
        MediaKind::Bmp => image::ImageFormat::Bmp,
        _ => image::ImageFormat::Jpeg,
    };
    let mut reader = image::ImageReader::with_format(std::io::Cursor::new(&bytes[..]), format);
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(max_pixels.saturating_mul(4));
    reader.limits(limits);
    let img = reader
        .decode()
        .map_err(|e| format!("it cannot be decoded ({e})"))?;
    let img = if img.width().max(img.height()) > MAX_SIDE {
        img.resize(MAX_SIDE, MAX_SIDE, image::imageops::FilterType::Triangle)
    } else {
        img
    };
    let (w, h) = (img.width(), img.height());
    let rgba = img.into_rgba8();
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for p in rgba.pixels() {
        let [r, g, b, a] = p.0;
        // Transparent parts over white paper.
        let a = u16::from(a);
        for c in [r, g, b] {
            rgb.push(((u16::from(c) * a + 255 * (255 - a)) / 255) as u8);
        }
    }
    // Compressed here, fast: lopdf's pass would use the default (slow) level.
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, &rgb).map_err(|e| e.to_string())?;
    let packed = enc.finish().map_err(|e| e.to_string())?;
    let mut x = stream(w, h, "DeviceRGB", packed, None, false);
    x.stream
        .dict
        .insert("Filter".into(), DictItem::Name(b"FlateDecode".to_vec()));
    Ok(x)
}

/// A PNG whose pixel data PDF can read as it is (8-bit grey, RGB or palette, not interlaced,
/// no transparency): its zlib stream goes in unchanged with PNG predictors (PDF 32000-1,
/// 7.4.4.4), no decoding at all.
fn png_passthrough(b: &[u8]) -> Option<ExternalXObject> {
    let mut i = 8;
    let mut header = None;
    let mut palette: Option<&[u8]> = None;
    let mut data = Vec::new();
    while i + 8 <= b.len() {
        let len = u32::from_be_bytes(b[i..i + 4].try_into().ok()?) as usize;
        let kind = &b[i + 4..i + 8];
        let body = b.get(i + 8..i + 8 + len)?;
        match kind {
            b"IHDR" if len >= 13 => {
                let w = u32::from_be_bytes(body[0..4].try_into().ok()?);
                let h = u32::from_be_bytes(body[4..8].try_into().ok()?);
                header = Some((w, h, body[8], body[9], body[12]));
            }
            b"PLTE" => palette = Some(body),
            b"tRNS" => return None,
            b"IDAT" => data.extend_from_slice(body),
            b"IEND" => break,
            _ => {}
        }
        i += 12 + len;
    }
    let (w, h, depth, color, interlace) = header?;
    if depth != 8 || interlace != 0 || w == 0 || h == 0 || data.is_empty() {
        return None;
    }
    let (space, colors): (DictItem, i64) = match color {
        0 => (DictItem::Name(b"DeviceGray".to_vec()), 1),
        2 => (DictItem::Name(b"DeviceRGB".to_vec()), 3),
        3 => {
            let p = palette?;
            if p.is_empty() || p.len() % 3 != 0 || p.len() > 768 {
                return None;
            }
            let indexed = DictItem::Array(vec![
                DictItem::Name(b"Indexed".to_vec()),
                DictItem::Name(b"DeviceRGB".to_vec()),
                DictItem::Int((p.len() / 3) as i64 - 1),
                DictItem::String {
                    data: p.to_vec(),
                    literal: false,
                },
            ]);
            (indexed, 1)
        }
        _ => return None,
    };
    let mut x = stream(w, h, "DeviceRGB", data, None, false);
    let dict = &mut x.stream.dict;
    dict.insert("ColorSpace".into(), space);
    dict.insert("Filter".into(), DictItem::Name(b"FlateDecode".to_vec()));
    let mut parms = BTreeMap::new();
    parms.insert("Predictor".to_string(), DictItem::Int(15));
    parms.insert("Colors".to_string(), DictItem::Int(colors));
    parms.insert("BitsPerComponent".to_string(), DictItem::Int(8));
    parms.insert("Columns".to_string(), DictItem::Int(i64::from(w)));
    dict.insert("DecodeParms".into(), DictItem::Dict { map: parms });
    Some(x)
}

fn jpeg(bytes: &[u8], w: u32, h: u32, comps: u8) -> ExternalXObject {
    let (space, decode) = match comps {
        1 => ("DeviceGray", None),
        // Adobe's CMYK JPEGs store inverted values.
        4 => (
            "DeviceCMYK",
            Some(vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]),
        ),
        _ => ("DeviceRGB", None),
    };
    let mut x = stream(w, h, space, bytes.to_vec(), decode, false);
    x.stream
        .dict
        .insert("Filter".into(), DictItem::Name(b"DCTDecode".to_vec()));
    x
}

fn stream(
    w: u32,
    h: u32,
    space: &str,
    content: Vec<u8>,
    decode: Option<Vec<f32>>,
    compress: bool,
) -> ExternalXObject {
    let mut dict = BTreeMap::new();
    dict.insert("Type".into(), DictItem::Name(b"XObject".to_vec()));
    dict.insert("Subtype".into(), DictItem::Name(b"Image".to_vec()));
    dict.insert("Width".into(), DictItem::Int(i64::from(w)));
    dict.insert("Height".into(), DictItem::Int(i64::from(h)));
    dict.insert(
        "ColorSpace".into(),
        DictItem::Name(space.as_bytes().to_vec()),
    );
    dict.insert("BitsPerComponent".into(), DictItem::Int(8));
    if let Some(d) = decode {
        dict.insert(
            "Decode".into(),
            DictItem::Array(d.into_iter().map(DictItem::Real).collect()),
        );
    }
    ExternalXObject {
        stream: ExternalStream {
            dict,
            content,
            compress,
        },
        width: None,
        height: None,
        dpi: None,
    }
}

/// Width, height and component count from a JPEG's frame header (SOFn), if it has one.
fn jpeg_info(b: &[u8]) -> Option<(u32, u32, u8)> {
    let mut i = 2;
    while i + 4 <= b.len() {
        if b[i] != 0xFF {
            return None;
        }
        let marker = b[i + 1];
        if marker == 0xFF {
            i += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([b[i + 2], b[i + 3]]));
        let is_sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if is_sof {
            let s = b.get(i + 4..i + 10)?;
            let h = u32::from(u16::from_be_bytes([s[1], s[2]]));
            let w = u32::from(u16::from_be_bytes([s[3], s[4]]));
            let comps = s[5];
            return (w > 0 && h > 0 && matches!(comps, 1 | 3 | 4)).then_some((w, h, comps));
        }
        if marker == 0xDA || len < 2 {
            return None;
        }
        i += 2 + len;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jpeg_frame_header_is_read() {
        // SOI, APP0 (len 4), SOF0: 8 bit, 2×3, 3 components.
        let b = [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00,
            0x02, 0x00, 0x03, 0x03,
        ];
        assert_eq!(jpeg_info(&b), Some((3, 2, 3)));
        assert_eq!(jpeg_info(&[0xFF, 0xD8, 0x00]), None);
    }

    #[test]
    fn broken_pictures_are_errors_not_panics() {
        let item = MediaItem::new("x.png", b"\x89PNG\r\n\x1a\nbroken".to_vec());
        assert!(xobject(&item, 1_000_000).is_err());
    }
}
