//! Fields of EMF records: points (32- and 16-bit), rectangles, XFORM, LogFont, RegionData.

use crate::metafile::MetafileError;
use crate::metafile::gdi::Font;
use crate::metafile::geom::{Affine, Pt, Rect};
use crate::metafile::reader::{Reader, utf16};

pub(super) fn point32(r: &mut Reader) -> Result<Pt, MetafileError> {
    Ok(Pt::new(r.i32("point")? as f64, r.i32("point")? as f64))
}

pub(super) fn rectl(r: &mut Reader) -> Result<Rect, MetafileError> {
    let (x0, y0) = (r.i32("rectangle")? as f64, r.i32("rectangle")? as f64);
    let (x1, y1) = (r.i32("rectangle")? as f64, r.i32("rectangle")? as f64);
    Ok(Rect { x0, y0, x1, y1 })
}

pub(super) fn points(r: &mut Reader, n: usize, small: bool) -> Result<Vec<Pt>, MetafileError> {
    let n = r.count(n as u32, if small { 4 } else { 8 }, "points")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(if small {
            Pt::new(r.i16("point")? as f64, r.i16("point")? as f64)
        } else {
            point32(r)?
        });
    }
    Ok(out)
}

/// POLYPOLYLINE / POLYPOLYGON (MS-EMF 2.3.5.28-31): counts, then all points.
pub(super) fn poly_poly(r: &mut Reader, small: bool) -> Result<Vec<Vec<Pt>>, MetafileError> {
    r.skip(16, "bounds")?;
    let n_polys = r.u32("polygon count")?;
    let total = r.u32("point count")?;
    let n_polys = r.count(n_polys, 4, "polygon counts")?;
    let mut counts = Vec::with_capacity(n_polys);
    for _ in 0..n_polys {
        counts.push(r.u32("polygon point count")? as usize);
    }
    let mut all = points(r, total as usize, small)?.into_iter();
    let mut out = Vec::with_capacity(n_polys);
    for c in counts {
        out.push(all.by_ref().take(c).collect());
    }
    Ok(out)
}

pub(super) fn xform(r: &mut Reader) -> Result<Affine, MetafileError> {
    Ok(Affine::new(
        r.f32("transform")?,
        r.f32("transform")?,
        r.f32("transform")?,
        r.f32("transform")?,
        r.f32("transform")?,
        r.f32("transform")?,
    ))
}

/// A LogFont (MS-EMF 2.2.13).
pub(super) fn log_font(r: &mut Reader) -> Result<Font, MetafileError> {
    let height = r.i32("font height")? as f64;
    let _width = r.i32("font width")?;
    let escapement = r.i32("font escapement")? as f64;
    let _orientation = r.i32("font orientation")?;
    let weight = r.i32("font weight")?.clamp(0, 1000) as u32;
    let b = r.bytes(8, "font flags")?;
    let face = utf16(r.bytes(64.min(r.remaining()), "font face")?);
    Ok(Font {
        height,
        escapement,
        weight: if weight == 0 { 400 } else { weight },
        italic: b[0] != 0,
        underline: b[1] != 0,
        strike: b[2] != 0,
        charset: b[3],
        pitch_family: b[7],
        face,
    })
}

/// A region's rectangles (MS-EMF 2.2.24 RegionData), device units.
pub(super) fn region(r: &mut Reader, size: usize) -> Result<Vec<Rect>, MetafileError> {
    let mut rr = r.sub(size.min(r.remaining()), "region")?;
    // The header's dwSize is 32; some writers put other values there: not checked.
    rr.skip(8, "region header")?;
    let n = rr.u32("region rectangle count")?;
    rr.skip(20, "region header")?;
    let n = rr.count(n, 16, "region rectangles")?;
    (0..n).map(|_| rectl(&mut rr)).collect()
}
