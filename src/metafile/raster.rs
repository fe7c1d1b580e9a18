//! SVG to PNG with resvg, for the formats that need a bitmap (sd.xml, parsX, PDF). Text is
//! shaped with the project's bundled DejaVu fonts (the PDF writer's), loaded once; no system
//! font is looked up, so the picture is the same on every machine. The pixel size is capped.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::MetafileError;
use crate::export::paged::metrics::Face;

/// Bytes of SVG text accepted, at most.
const MAX_SVG_INPUT: usize = 128 << 20;

/// The bundled faces in a font database, with the generic families pointing at them.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        for face in [
            Face::Regular,
            Face::Bold,
            Face::Italic,
            Face::BoldItalic,
            Face::Mono,
        ] {
            db.load_font_data(face.bytes().to_vec());
        }
        // Every generic family (and any face not bundled: Arial, Times New Roman, Symbol…)
        // falls back to the serif face, which has Latin, Greek, Cyrillic and math symbols.
        db.set_serif_family("DejaVu Serif");
        db.set_sans_serif_family("DejaVu Serif");
        db.set_cursive_family("DejaVu Serif");
        db.set_fantasy_family("DejaVu Serif");
        db.set_monospace_family("DejaVu Sans Mono");
        Arc::new(db)
    })
    .clone()
}

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
        fontdb: fonts(),
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
