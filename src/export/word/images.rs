//! Images: display size, the `w:drawing` markup, and `compressedImages` (downscale to 150 dpi at
//! the printed width, re-encode, in parallel with rayon).

use image::{DynamicImage, GenericImageView, ImageFormat};
use rayon::prelude::*;

// EMU per pixel at 96 dpi: the size Word gives an image without other information.
use crate::ast::length::{EMU_PER_INCH, EMU_PER_PX};
use crate::ast::{Extent, MediaItem, MediaKind};
use crate::report::{Location, Warning, WarningKind};
use crate::xml::escape_attr;

/// Target resolution of `compressedImages`.
pub const COMPRESSED_DPI: u64 = 150;
/// JPEG quality of `compressedImages`.
pub const JPEG_QUALITY: u8 = 80;

/// Whether Word shows this kind of image as it is.
pub(crate) fn word_can_show(kind: MediaKind) -> bool {
    matches!(
        kind,
        MediaKind::Png
            | MediaKind::Jpeg
            | MediaKind::Gif
            | MediaKind::Bmp
            | MediaKind::Tiff
            | MediaKind::Emf
            | MediaKind::Wmf
    )
}

/// The displayed size in EMU of an image `avail` EMU wide at most. Width: `width_percent` of
/// `avail`, else the source's extent, else the pixel width at 96 dpi; never wider than `avail`.
/// Height keeps the aspect ratio of the pixels (or the extent). The flag is `false` when no
/// ratio was known and 4:3 was assumed.
pub(crate) fn display_size(
    width_percent: Option<f32>,
    extent: Option<Extent>,
    pixels: Option<(u32, u32)>,
    avail: u64,
) -> (u64, u64, bool) {
    let ratio = pixels
        .filter(|&(w, h)| w > 0 && h > 0)
        .map(|(w, h)| f64::from(h) / f64::from(w))
        .or_else(|| {
            extent
                .filter(|e| e.width > 0 && e.height > 0)
                .map(|e| e.height as f64 / e.width as f64)
        });
    let width = match (width_percent, extent, pixels) {
        (Some(p), _, _) if p.is_finite() && p > 0.0 => {
            (avail as f64 * f64::from(p.min(100.0)) / 100.0) as u64
        }
        (_, Some(e), _) if e.width > 0 => e.width,
        (_, _, Some((w, _))) if w > 0 => u64::from(w) * EMU_PER_PX,
        _ => avail,
    }
    .clamp(EMU_PER_PX, avail.max(EMU_PER_PX));
    // ST_PositiveCoordinate's maximum bounds hostile aspect ratios.
    let height = (width as f64 * ratio.unwrap_or(0.75))
        .round()
        .clamp(1.0, 27_273_042_316_900.0) as u64;
    (width, height, ratio.is_some())
}

/// Writes an inline picture run.
pub(crate) fn drawing(
    out: &mut String,
    rel_id: &str,
    doc_pr_id: u32,
    (cx, cy): (u64, u64),
    descr: &str,
    title: &str,
) {
    use std::fmt::Write;
    let _ = write!(
        out,
        r#"<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="{cx}" cy="{cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="{doc_pr_id}" name="Picture {doc_pr_id}""#
    );
    if !descr.is_empty() {
        out.push_str(" descr=\"");
        escape_attr(descr, out);
        out.push('"');
    }
    if !title.is_empty() {
        out.push_str(" title=\"");
        escape_attr(title, out);
        out.push('"');
    }
    let _ = write!(
        out,
        r#"/><wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="{doc_pr_id}" name="Picture {doc_pr_id}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="{rel_id}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>"#
    );
}

/// What `compressedImages` did, returned with the document ([`super::WordOutput::stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImageStats {
    /// Images written.
    pub images: usize,
    /// Images that were downscaled or re-encoded.
    pub recompressed: usize,
    /// Bytes of the written images before compression.
    pub bytes_before: u64,
    /// Bytes of the written images after compression.
    pub bytes_after: u64,
    /// Images left as they were because they have more pixels than the limit allows decoding.
    pub too_large: usize,
}

impl ImageStats {
    /// Bytes saved.
    pub fn saved(&self) -> u64 {
        self.bytes_before.saturating_sub(self.bytes_after)
    }
}

/// Compresses `items` (each with the widest width it is printed at, in EMU) in parallel. Output
/// order is input order, so the result does not depend on scheduling. An image left as it was
/// is a clone of its item, so one still deflated is copied into the package as it is.
pub(crate) fn compress_all(
    items: &[(&MediaItem, u64)],
    max_pixels: u64,
) -> (Vec<MediaItem>, ImageStats, Vec<Warning>) {
    let results: Vec<(MediaItem, bool, Option<Warning>)> = items
        .par_iter()
        .map(|&(item, width)| compress_one(item, width, max_pixels))
        .collect();
    let mut stats = ImageStats::default();
    let mut warnings = Vec::new();
    let mut out = Vec::with_capacity(results.len());
    for ((item, _), (prepared, changed, warning)) in items.iter().zip(results) {
        stats.images += 1;
        stats.bytes_before += item.size as u64;
        stats.bytes_after += prepared.size as u64;
        stats.recompressed += usize::from(changed);
        if let Some(w) = warning {
            if w.kind == WarningKind::Lossy && w.message.contains("pixels") {
                stats.too_large += 1;
            }
            warnings.push(w);
        }
        out.push(prepared);
    }
    (out, stats, warnings)
}

/// Downscales to [`COMPRESSED_DPI`] at `width_emu` (never up), re-encodes opaque images as JPEG
/// and transparent ones as PNG, and keeps the original when that is not smaller. The bytes are
/// inflated only when the picture is decoded (or its header must be read).
fn compress_one(
    item: &MediaItem,
    width_emu: u64,
    max_pixels: u64,
) -> (MediaItem, bool, Option<Warning>) {
    let keep = || item.clone();
    let format = match item.kind {
        MediaKind::Png => ImageFormat::Png,
        MediaKind::Jpeg => ImageFormat::Jpeg,
        // GIFs may be animated, and the rest have no codec here: kept as they are.
        _ => return (keep(), false, None),
    };
    let unreadable = |e: crate::ast::MediaError| {
        let msg = format!("{e}; kept as it is");
        (keep(), false, Some(lossy(msg)))
    };
    let dims = match (item.width, item.height) {
        (Some(w), Some(h)) => Some((w, h)),
        _ => match item.bytes() {
            Ok(bytes) => image::ImageReader::with_format(std::io::Cursor::new(&bytes[..]), format)
                .into_dimensions()
                .ok(),
            Err(e) => return unreadable(e),
        },
    };
    let Some((w, h)) = dims else {
        let msg = format!(
            "image {} has an unreadable header; kept uncompressed",
            item.name
        );
        return (keep(), false, Some(lossy(msg)));
    };
    if u64::from(w) * u64::from(h) > max_pixels {
        let msg = format!(
            "image {} has {w}x{h} pixels, more than the {max_pixels} the limit allows decoding; kept uncompressed",
            item.name
        );
        return (keep(), false, Some(lossy(msg)));
    }
    let target_w = (width_emu * COMPRESSED_DPI).div_ceil(EMU_PER_INCH).max(1);
    let downscale = u64::from(w) > target_w;
    if !downscale && item.kind == MediaKind::Jpeg {
        return (keep(), false, None);
    }
    let bytes = match item.bytes() {
        Ok(bytes) => bytes,
        Err(e) => return unreadable(e),
    };
    let img = match image::load_from_memory_with_format(&bytes, format) {
        Ok(img) => img,
        Err(e) => {
            let msg = format!(
                "image {} could not be decoded ({e}); kept uncompressed",
                item.name
            );
            return (keep(), false, Some(lossy(msg)));
        }
    };
    let img = if downscale {
        let target_w = target_w as u32;
        let target_h = ((u64::from(h) * u64::from(target_w)) / u64::from(w)).max(1) as u32;
        // Area averaging: fast, and right for shrinking (no aliasing).
        img.thumbnail_exact(target_w, target_h)
    } else {
        img
    };
    let encoded = if has_transparency(&img) {
        encode_png(&img)
    } else {
        encode_jpeg(&img)
    };
    match encoded {
        Some(new) if new.len() < bytes.len() => {
            (MediaItem::new(item.name.clone(), new), true, None)
        }
        _ => (keep(), false, None),
    }
}

fn lossy(message: String) -> Warning {
    Warning::new(WarningKind::Lossy, message, Location::part("word/media"))
}

fn has_transparency(img: &DynamicImage) -> bool {
    if !img.color().has_alpha() {
        return false;
    }
    img.pixels().any(|(_, _, p)| p.0[3] < 255)
}

fn encode_png(img: &DynamicImage) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new_with_quality(
        &mut out,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Adaptive,
    );
    img.write_with_encoder(encoder).ok()?;
    Some(out)
}

fn encode_jpeg(img: &DynamicImage) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let rgb = img.to_rgb8();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
    rgb.write_with_encoder(encoder).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_keep_aspect_and_fit() {
        let avail = 6 * EMU_PER_INCH;
        let (w, h, known) = display_size(Some(50.0), None, Some((400, 200)), avail);
        assert_eq!(w, 3 * EMU_PER_INCH);
        assert_eq!(h, w / 2);
        assert!(known);
        // Pixels at 96 dpi, clamped to the text width.
        let (w, _, _) = display_size(None, None, Some((96, 96)), avail);
        assert_eq!(w, EMU_PER_INCH);
        let (w, h, _) = display_size(None, None, Some((9600, 4800)), avail);
        assert_eq!((w, h), (avail, avail / 2));
        // Extent wins over pixels when no percentage is given.
        let e = Extent {
            width: EMU_PER_INCH,
            height: 2 * EMU_PER_INCH,
        };
        assert_eq!(display_size(None, Some(e), None, avail).1, 2 * EMU_PER_INCH);
        assert!(!display_size(None, None, None, avail).2);
    }
}
