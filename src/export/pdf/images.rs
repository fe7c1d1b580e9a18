//! Pictures as krilla images: JPEG bytes passed through (krilla writes them as `DCTDecode`
//! unchanged), grey, RGB and palette PNGs' compressed rows passed through under a PNG predictor
//! (`png.rs`, with the patched krilla in `vendor/krilla`; a colour that is wholly transparent
//! becomes a colour key mask, so what lies under the picture, such as a cell's shading, shows
//! through as in Word and a browser), every other picture the `image` crate reads decoded here
//! to grey or RGB (all its transparency drawn over white paper: no soft masks, which PDF/A-1
//! and some printers refuse) and handed to krilla as raw pixels, which it deflates on its
//! worker threads.
//! Decoding here rather than in krilla keeps a broken picture an error string the writer turns
//! into a warning and a placeholder box; krilla would only find it when the document is
//! finished, failing the whole file. Pictures past the pixel limit are not decoded; very large
//! decoded ones are scaled down to 2048 px on the long side (a page is never printed sharper
//! than that).

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use krilla::image::{BitsPerComponent, CustomImage, Image, ImageColorspace};

use crate::ast::{MediaItem, MediaKind};

/// Longest side of a decoded picture after scaling.
const MAX_SIDE: u32 = 2048;

/// The image for `item`, or why it cannot be drawn.
pub(crate) fn image(item: &MediaItem, max_pixels: u64) -> Result<Image, String> {
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
        && let Some((w, h)) = jpeg_size(&bytes)
        && u64::from(w) * u64::from(h) <= max_pixels
    {
        // No copy: krilla keeps the shared bytes and writes them as they are.
        let data: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(bytes.clone());
        if let Ok(img) = Image::from_jpeg(data.into(), false) {
            return Ok(img);
        }
    }
    if item.kind == MediaKind::Png
        && let Some(rows) = super::png::filtered_rows(&bytes, max_pixels)
    {
        // A palette's colours are RGB.
        let space = if rows.colors == 1 && rows.palette.is_none() {
            ImageColorspace::Luma
        } else {
            ImageColorspace::Rgb
        };
        // One IDAT chunk is shared with the picture's bytes, not copied.
        let data: Arc<dyn AsRef<[u8]> + Send + Sync> = match rows.zlib {
            super::png::Zlib::Within(range) => Arc::new(bytes.slice(range)),
            super::png::Zlib::Joined(joined) => Arc::new(joined),
        };
        if let Ok(img) = Image::from_png_filtered_zlib(
            data.into(),
            rows.size,
            space,
            rows.bits,
            rows.palette,
            rows.color_key,
            false,
        ) {
            return Ok(img);
        }
    }
    let format = match item.kind {
        MediaKind::Png => image::ImageFormat::Png,
        MediaKind::Gif => image::ImageFormat::Gif,
        MediaKind::Bmp => image::ImageFormat::Bmp,
        MediaKind::Jpeg => image::ImageFormat::Jpeg,
        other => return Err(format!("{} pictures cannot be drawn", other.extension())),
    };
    let img = crate::pixels::decode(&bytes, Some(format), crate::pixels::within(max_pixels))
        .map_err(|e| format!("it cannot be decoded ({e})"))?;
    let img = if img.width().max(img.height()) > MAX_SIDE {
        img.resize(MAX_SIDE, MAX_SIDE, image::imageops::FilterType::Triangle)
    } else {
        img
    };
    let (w, h) = (img.width(), img.height());
    if w == 0 || h == 0 {
        return Err("it has no pixels".into());
    }
    // Grey stays grey (a third of the data to deflate); opaque colour is taken as it is; only
    // pictures with transparency are composed over white paper.
    let (data, space) = match img.color() {
        image::ColorType::L8 | image::ColorType::L16 => {
            (img.into_luma8().into_raw(), ImageColorspace::Luma)
        }
        image::ColorType::Rgb8 | image::ColorType::Rgb16 | image::ColorType::Rgb32F => {
            (img.into_rgb8().into_raw(), ImageColorspace::Rgb)
        }
        _ => (over_white(&img.into_rgba8()), ImageColorspace::Rgb),
    };
    Image::from_custom(
        Pixels {
            data: Arc::new(data),
            w,
            h,
            space,
            // The picture's name and size identify it in its document (krilla hashes an image
            // to find it drawn again; hashing megabytes of pixels was a twentieth of the time).
            id: (item.name.clone(), bytes.len()),
        },
        false,
    )
}

/// RGBA pixels as RGB over white paper.
fn over_white(rgba: &image::RgbaImage) -> Vec<u8> {
    let mut rgb = Vec::with_capacity(rgba.len() / 4 * 3);
    for p in rgba.pixels() {
        let [r, g, b, a] = p.0;
        let a = u16::from(a);
        for c in [r, g, b] {
            rgb.push(((u16::from(c) * a + 255 * (255 - a)) / 255) as u8);
        }
    }
    rgb
}

/// Decoded 8-bit pixels, shared (krilla clones its images freely).
#[derive(Clone)]
struct Pixels {
    data: Arc<Vec<u8>>,
    w: u32,
    h: u32,
    space: ImageColorspace,
    /// Media name and encoded size.
    id: (String, usize),
}

impl Hash for Pixels {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
        self.w.hash(state);
        self.h.hash(state);
        self.space.hash(state);
    }
}

impl CustomImage for Pixels {
    fn color_channel(&self) -> &[u8] {
        &self.data
    }

    fn alpha_channel(&self) -> Option<&[u8]> {
        None
    }

    fn bits_per_component(&self) -> BitsPerComponent {
        BitsPerComponent::Eight
    }

    fn size(&self) -> (u32, u32) {
        (self.w, self.h)
    }

    fn icc_profile(&self) -> Option<&[u8]> {
        None
    }

    fn color_space(&self) -> ImageColorspace {
        self.space
    }
}

/// Width and height from a JPEG's frame header, if it has one with 1, 3 or 4 components
/// (what PDF's `DCTDecode` reads).
fn jpeg_size(b: &[u8]) -> Option<(u32, u32)> {
    let f = crate::picture::jpeg_frame(b)?;
    (f.width > 0 && f.height > 0 && matches!(f.components, Some(1 | 3 | 4)))
        .then_some((f.width, f.height))
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
        assert_eq!(jpeg_size(&b), Some((3, 2)));
        assert_eq!(jpeg_size(&[0xFF, 0xD8, 0x00]), None);
    }

    #[test]
    fn broken_pictures_are_errors_not_panics() {
        let item = MediaItem::new("x.png", b"\x89PNG\r\n\x1a\nbroken".to_vec());
        assert!(image(&item, 1_000_000).is_err());
        let item = MediaItem::new("x.jpg", b"\xFF\xD8\xFF\xC0\x00\x11\x08broken".to_vec());
        assert!(image(&item, 1_000_000).is_err());
    }
}
