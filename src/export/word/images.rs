//! Images: display size and the `w:drawing` markup (`compressedImages` is
//! [`crate::export::paged::pictures`], shared with the PDF writer).

// EMU per pixel at 96 dpi: the size Word gives an image without other information.
use crate::ast::length::EMU_PER_PX;
use crate::ast::{Extent, MediaKind};
use crate::xml::escape_attr;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::length::EMU_PER_INCH;

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
