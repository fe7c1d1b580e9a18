//! SVG to PNG with resvg, for the formats that need a bitmap (sd.xml, parsX, PDF). Text is
//! shaped with the bundled DejaVu fonts ([`crate::fonts::bundled_database`]); no system font
//! is looked up, so the picture is the same on every machine. The pixel size is capped.

use resvg::{tiny_skia, usvg};

use super::MetafileError;

/// Bytes of SVG text accepted, at most.
const MAX_SVG_INPUT: usize = 128 << 20;

/// Rasterises `svg` to PNG at `scale` pixels per CSS pixel of its own size, scaled down
/// (keeping its aspect) so that it has at most `max_pixels` pixels; a picture under one pixel
/// wide or high gets one.
pub(crate) fn svg_to_png(svg: &str, scale: f64, max_pixels: u64) -> Result<Vec<u8>, MetafileError> {
    if svg.len() > MAX_SVG_INPUT {
        return Err(MetafileError::Limit {
            what: "SVG bytes to rasterise",
            limit: MAX_SVG_INPUT as u64,
        });
    }
    let options = usvg::Options {
        fontdb: crate::fonts::bundled_database(),
        font_family: "DejaVu Serif".to_string(),
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_str(svg, &options).map_err(|e| MetafileError::Raster(e.to_string()))?;
    let size = tree.size();
    let (w, h) = (size.width() as f64, size.height() as f64);
    let max = max_pixels.max(1) as f64;
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let scale = if w * h * scale * scale > max {
        (max / (w * h)).sqrt()
    } else {
        scale
    };
    let pw = ((w * scale).floor() as u32).max(1);
    let ph = ((h * scale).floor() as u32).max(1);
    if pw as u64 * ph as u64 > max_pixels.max(1) {
        return Err(MetafileError::Limit {
            what: "pixels",
            limit: max_pixels,
        });
    }
    let mut pixmap = tiny_skia::Pixmap::new(pw, ph)
        .ok_or_else(|| MetafileError::Raster(format!("no {pw} × {ph} pixmap")))?;
    let transform = tiny_skia::Transform::from_scale(pw as f32 / w as f32, ph as f32 / h as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| MetafileError::Raster(e.to_string()))
}
