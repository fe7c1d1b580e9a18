//! Image processors: rotate and downscale picture bytes (PNG, JPEG, still GIF, BMP), one picture
//! per thread.
//!
//! A picture is stored once however many blocks show it, so these work on media names: the
//! names of the images the filters select are collected first, each picture is processed once,
//! and every block showing a rotated picture gets its displayed size turned too.

use std::collections::BTreeSet;
use std::io::Cursor;

use image::{DynamicImage, ImageFormat, imageops::FilterType};
use rayon::prelude::*;

use crate::ast::{MediaItem, MediaKind, MediaStore};

/// What to do to a picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageOp {
    /// Turn clockwise by 90, 180 or 270 degrees.
    Rotate(u16),
    /// Shrink so the longer side is at most this many pixels; smaller pictures stay as they are.
    Downscale(u32),
}

/// Largest side decoded: a guard against pictures whose header promises gigapixels.
const MAX_SIDE: u32 = 20_000;

/// Processes the pictures named in `names`, in parallel, decoding none of more than
/// `max_pixels` pixels (the caller's [`crate::Limits::max_image_pixels`], as the writers
/// bound theirs). Returns the names changed and, for pictures that could not be processed,
/// `(name, reason)`.
pub fn process(
    media: &mut MediaStore,
    names: &BTreeSet<String>,
    op: ImageOp,
    max_pixels: u64,
) -> (Vec<String>, Vec<(String, String)>) {
    let items: Vec<MediaItem> = names.iter().filter_map(|n| media.get(n).cloned()).collect();
    let results: Vec<(String, Result<Option<MediaItem>, String>)> = items
        .par_iter()
        .map(|item| (item.name.clone(), process_one(item, op, max_pixels)))
        .collect();
    let mut changed = Vec::new();
    let mut failed = Vec::new();
    for (name, result) in results {
        match result {
            Ok(Some(item)) => {
                media.insert(item);
                changed.push(name);
            }
            Ok(None) => {}
            Err(reason) => failed.push((name, reason)),
        }
    }
    (changed, failed)
}

fn process_one(
    item: &MediaItem,
    op: ImageOp,
    max_pixels: u64,
) -> Result<Option<MediaItem>, String> {
    let format = match item.kind {
        MediaKind::Png => ImageFormat::Png,
        MediaKind::Jpeg => ImageFormat::Jpeg,
        MediaKind::Gif => ImageFormat::Gif,
        MediaKind::Bmp => ImageFormat::Bmp,
        other => {
            return Err(format!(
                "{other:?} pictures are not processed (PNG, JPEG, GIF and BMP are)"
            ));
        }
    };
    if let ImageOp::Downscale(max) = op {
        // The header's size decides without decoding (or inflating) anything.
        if let (Some(w), Some(h)) = (item.width, item.height) {
            if w.max(h) <= max {
                return Ok(None);
            }
        }
    }
    // A header of a few bytes can promise what would take gigabytes to decode.
    if let (Some(w), Some(h)) = (item.width, item.height)
        && u64::from(w) * u64::from(h) > max_pixels
    {
        return Err(format!("{w}×{h} pixels is over the limit of {max_pixels}"));
    }
    // The pixels are needed: a picture still deflated is inflated here, and only here.
    let bytes = item.bytes().map_err(|e| e.reason)?;
    if format == ImageFormat::Gif && crate::picture::gif_is_animated(&bytes) {
        // Only the first frame would survive a decode and encode.
        return Err("animated GIF pictures are kept as they are".into());
    }
    let mut limits = crate::pixels::within(max_pixels);
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    let img = crate::pixels::decode(&bytes, Some(format), limits)?;
    let out = match op {
        ImageOp::Rotate(90) => img.rotate90(),
        ImageOp::Rotate(180) => img.rotate180(),
        ImageOp::Rotate(270) => img.rotate270(),
        ImageOp::Rotate(other) => return Err(format!("cannot rotate by {other} degrees")),
        ImageOp::Downscale(max) => {
            if img.width().max(img.height()) <= max {
                return Ok(None);
            }
            img.resize(max, max, FilterType::Triangle)
        }
    };
    let out = match format {
        // JPEG holds no alpha channel.
        ImageFormat::Jpeg => DynamicImage::ImageRgb8(out.to_rgb8()),
        // The GIF encoder takes 8-bit RGBA only (and quantises it back to a palette).
        ImageFormat::Gif => DynamicImage::ImageRgba8(out.to_rgba8()),
        _ => out,
    };
    let mut bytes = Vec::new();
    out.write_to(&mut Cursor::new(&mut bytes), format)
        .map_err(|e| e.to_string())?;
    Ok(Some(MediaItem::new(item.name.clone(), bytes)))
}
