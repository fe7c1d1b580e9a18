//! Windows metafiles drawn as SVG, and SVG rasterised to PNG.
//!
//! Word documents embed pictures as WMF (MS-WMF), EMF (MS-EMF) and EMF+ (MS-EMFPLUS: GDI+
//! records inside EMF comments; Office writes the "dual" form, with EMF records as a fallback).
//! No browser shows these, so the writers draw them: [`to_svg`] plays the records into an SVG
//! (text stays text), [`svg_to_png`] rasterises an SVG for formats that want a bitmap.
//!
//! - `wmf` — the 16-bit player (placeable header, META_* records).
//! - `emf` — the 32-bit player (EMR_* records), which hands EMF+ comments to `emfplus`.
//! - `emfplus` — the GDI+ player (objects, drawing, transforms, clipping).
//! - `gdi` — the device context the WMF and EMF players share: mapping modes, world
//!   transform, the object table, and the drawing operations.
//! - `records` — the record loop's bookkeeping both players share: the record cap, the size
//!   check, and how a record that fails to play is skipped.
//! - `geom`, `svg`, `text`, `dib`, `reader` — geometry, the SVG canvas, character sets,
//!   bitmaps and the bounded byte reader.
//! - `raster` — SVG to PNG with resvg and the bundled fonts.
//!
//! Every reader takes arbitrary bytes: counts, sizes and offsets are checked against what is
//! there, and records, objects, saved states, clip depth, nesting, bitmap pixels and output
//! size are capped, so bad input gives a [`MetafileError`], never a panic or a hang. A record
//! the players do not draw is counted in [`Svg::skipped`].

mod dib;
mod emf;
mod emfplus;
mod gdi;
mod geom;
mod raster;
mod reader;
mod records;
mod svg;
mod text;
mod wmf;

use crate::ast::media::MediaKind;

pub(crate) use raster::svg_to_png;

/// Records played in one metafile, at most (real files have well under a million).
pub(crate) const MAX_RECORDS: usize = 4_000_000;
/// Entries of an object table, at most.
pub(crate) const MAX_OBJECTS: usize = 65_536;
/// Bytes of SVG text, at most.
pub(crate) const MAX_SVG_BYTES: usize = 64 << 20;
/// Saved device contexts (SaveDC, GDI+ Save and containers) held at once, at most.
pub(crate) const MAX_SAVED_STATES: usize = 1024;
/// Clip regions intersected at once, at most (deeper intersections replace the clip).
pub(crate) const MAX_CLIP_DEPTH: usize = 32;
/// Metafiles inside metafiles (EMF+ images), at most this deep.
pub(crate) const MAX_NESTING: usize = 2;
/// Pixels of one bitmap, at most (4096 × 4096).
pub(crate) const MAX_BITMAP_PIXELS: u64 = 1 << 24;
/// Pixels of all bitmaps of one metafile, at most.
pub(crate) const MAX_TOTAL_PIXELS: u64 = 1 << 25;
/// Characters of one text record, at most (longer runs are cut).
pub(crate) const MAX_TEXT_CHARS: usize = 16_384;

/// A metafile drawn as SVG.
#[derive(Debug, Clone)]
pub(crate) struct Svg {
    /// The SVG document.
    pub text: String,
    /// Its width in CSS pixels (96 per inch), from the metafile's frame.
    pub width: f64,
    /// Its height in CSS pixels.
    pub height: f64,
    /// Records that were not drawn: record types the players do not know or do not draw, and
    /// malformed records skipped. 0 means every record was understood.
    pub skipped: usize,
    /// `<text>` elements drawn.
    pub texts: usize,
}

impl Svg {
    /// Whether nothing is drawn: the root element alone.
    pub(crate) fn is_empty(&self) -> bool {
        self.text
            .find('>')
            .is_some_and(|end| self.text[end + 1..].trim() == "</svg>")
    }
}

/// Why a metafile could not be drawn or an SVG not rasterised.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MetafileError {
    /// The bytes are not a metafile of the kind given.
    #[error("not a {kind} metafile: {reason}")]
    NotMetafile {
        /// `WMF` or `EMF`.
        kind: &'static str,
        /// What was wrong with the header.
        reason: String,
    },
    /// A read ran past the end of the data.
    #[error("truncated {what} at byte {offset}")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where, from the start of the metafile.
        offset: usize,
    },
    /// A structure contradicts itself or the data around it.
    #[error("malformed {what} at byte {offset}: {reason}")]
    Malformed {
        /// What was being read.
        what: &'static str,
        /// Where, from the start of the metafile (or of the record).
        offset: usize,
        /// What was wrong.
        reason: String,
    },
    /// A cap on work or output was reached.
    #[error("too large: more than {limit} {what}")]
    Limit {
        /// What was counted.
        what: &'static str,
        /// The cap.
        limit: u64,
    },
    /// A bitmap could not be decoded.
    #[error("bitmap: {0}")]
    Bitmap(String),
    /// The metafile draws nothing and says nothing of its size.
    #[error("the metafile draws nothing")]
    Empty,
    /// Not a metafile kind at all.
    #[error("{0:?} is not a metafile type")]
    NotAMetafileKind(MediaKind),
    /// The SVG could not be rasterised.
    #[error("rasterising: {0}")]
    Raster(String),
}

/// Work left for one metafile and the metafiles inside it.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    /// Bitmap pixels left.
    pub pixels: u64,
    /// How deep in nested metafiles this one is.
    pub depth: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            pixels: MAX_TOTAL_PIXELS,
            depth: 0,
        }
    }
}

/// Draws a WMF or EMF (with or without EMF+ records) as SVG.
///
/// `kind` is what [`crate::ast::media`] sniffed; anything but [`MediaKind::Emf`] and
/// [`MediaKind::Wmf`] is an error. The SVG's view box is the metafile's frame; its `width` and
/// `height` are the frame's size in CSS pixels. Errors say what was wrong and where; the caller
/// keeps the original picture then.
pub(crate) fn to_svg(bytes: &[u8], kind: MediaKind) -> Result<Svg, MetafileError> {
    to_svg_within(bytes, kind, &mut Budget::default())
}

/// [`to_svg`] within a budget shared with the metafile that holds this one.
pub(crate) fn to_svg_within(
    bytes: &[u8],
    kind: MediaKind,
    budget: &mut Budget,
) -> Result<Svg, MetafileError> {
    if budget.depth > MAX_NESTING {
        return Err(MetafileError::Limit {
            what: "nested metafiles",
            limit: MAX_NESTING as u64,
        });
    }
    match kind {
        MediaKind::Emf => emf::play(bytes, budget),
        MediaKind::Wmf => wmf::play(bytes, budget),
        other => Err(MetafileError::NotAMetafileKind(other)),
    }
}

/// Draws `bytes` (sniffed) and, given `png_pixels`, rasterises the drawing: the fuzz
/// target's and the corpus test's way in (see `crate::metafile_check`).
#[allow(clippy::type_complexity)]
pub(crate) fn check(
    bytes: &[u8],
    png_pixels: Option<u64>,
) -> Result<(String, Option<Vec<u8>>, usize, usize), String> {
    let (kind, _) = crate::picture::sniff(bytes);
    let svg = to_svg(bytes, kind).map_err(|e| e.to_string())?;
    if !(svg.width >= 0.0 && svg.height >= 0.0) {
        return Err(format!("bad size {} × {}", svg.width, svg.height));
    }
    let png = match png_pixels {
        Some(max) => Some(svg_to_png(&svg.text, 1.0, max).map_err(|e| e.to_string())?),
        None => None,
    };
    Ok((svg.text, png, svg.texts, svg.skipped))
}

#[cfg(test)]
mod tests;
