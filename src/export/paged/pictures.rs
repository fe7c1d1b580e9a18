//! `compressedImages`, as the Word and PDF writers both apply it: each picture downscaled to
//! 150 dpi at the widest width it is printed at, and re-encoded, in parallel with rayon.

use image::{DynamicImage, GenericImageView, ImageFormat};
use rayon::prelude::*;

use crate::ast::length::EMU_PER_INCH;
use crate::ast::{MediaItem, MediaKind};
use crate::report::{Location, Warning, WarningKind};

/// Target resolution of `compressedImages`.
pub const COMPRESSED_DPI: u64 = 150;
/// JPEG quality of `compressedImages`.
pub const JPEG_QUALITY: u8 = 80;

/// What `compressedImages` did, returned with the document ([`crate::export::word::WordOutput::stats`]).
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
    let decoded = crate::pixels::decode(&bytes, Some(format), crate::pixels::within(max_pixels));
    let img = match decoded {
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
