//! EMF+ geometry in record form: matrices, rectangles and points (absolute, 16-bit or
//! relative), cardinal splines, and paths built into device space.

use super::objects::PPath;
use crate::metafile::MetafileError;
use crate::metafile::geom::{Affine, PathData, Pt, Rect};
use crate::metafile::reader::Reader;

pub(super) fn bad(what: &'static str, reason: &str) -> MetafileError {
    MetafileError::Malformed {
        what,
        offset: 0,
        reason: reason.to_string(),
    }
}

pub(super) fn matrix(r: &mut Reader) -> Result<Affine, MetafileError> {
    Ok(Affine::new(
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
    ))
}

pub(super) fn rect_f(r: &mut Reader) -> Result<Rect, MetafileError> {
    let (x, y, w, h) = (
        r.f32("rect")?,
        r.f32("rect")?,
        r.f32("rect")?,
        r.f32("rect")?,
    );
    Ok(Rect {
        x0: x,
        y0: y,
        x1: x + w,
        y1: y + h,
    })
}

/// Rectangles, 16-bit integers with flag C (0x4000), else floats.
pub(super) fn rects(r: &mut Reader, n: u32, flags: u16) -> Result<Vec<Rect>, MetafileError> {
    if flags & 0x4000 != 0 {
        let n = r.count(n, 8, "rectangles")?;
        (0..n)
            .map(|_| {
                let (x, y) = (r.i16("rect")? as f64, r.i16("rect")? as f64);
                let (w, h) = (r.i16("rect")? as f64, r.i16("rect")? as f64);
                Ok(Rect {
                    x0: x,
                    y0: y,
                    x1: x + w,
                    y1: y + h,
                })
            })
            .collect()
    } else {
        let n = r.count(n, 16, "rectangles")?;
        (0..n).map(|_| rect_f(r)).collect()
    }
}

/// An EmfPlusInteger7 or EmfPlusInteger15 (2.2.2.21-22).
pub(super) fn int_r(r: &mut Reader) -> Result<f64, MetafileError> {
    let b = r.u8("relative point")?;
    if b & 0x80 == 0 {
        Ok((((b << 1) as i8) >> 1) as f64)
    } else {
        let lo = r.u8("relative point")?;
        let v = (((b & 0x7f) as u16) << 8) | lo as u16;
        Ok((((v << 1) as i16) >> 1) as f64)
    }
}

/// Points: relative (flag P, 0x0800), 16-bit (flag C, 0x4000), or floats.
pub(super) fn points(r: &mut Reader, n: u32, flags: u16) -> Result<Vec<Pt>, MetafileError> {
    if flags & 0x0800 != 0 {
        let n = r.count(n, 2, "points")?;
        let mut out = Vec::with_capacity(n);
        let mut cur = Pt::default();
        for _ in 0..n {
            cur = Pt::new(cur.x + int_r(r)?, cur.y + int_r(r)?);
            out.push(cur);
        }
        Ok(out)
    } else if flags & 0x4000 != 0 {
        let n = r.count(n, 4, "points")?;
        (0..n)
            .map(|_| Ok(Pt::new(r.i16("point")? as f64, r.i16("point")? as f64)))
            .collect()
    } else {
        let n = r.count(n, 8, "points")?;
        (0..n)
            .map(|_| Ok(Pt::new(r.f32("point")?, r.f32("point")?)))
            .collect()
    }
}

/// A cardinal spline through `pts` (DrawCurve and the closed curves), as Béziers.
pub(super) fn curve(
    pts: &[Pt],
    tension: f64,
    closed: bool,
    offset: usize,
    segments: Option<usize>,
    m: &Affine,
) -> PathData {
    let mut d = PathData::default();
    let n = pts.len();
    if n < 2 {
        return d;
    }
    let t = tension / 3.0;
    let at = |i: isize| -> Pt {
        if closed {
            pts[i.rem_euclid(n as isize) as usize]
        } else {
            pts[i.clamp(0, n as isize - 1) as usize]
        }
    };
    let total = if closed { n } else { n - 1 };
    let first = offset.min(total);
    let count = segments.unwrap_or(total).min(total - first);
    d.move_to(m.apply(at(first as isize)));
    for i in first..first + count {
        let i = i as isize;
        let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
        let c1 = Pt::new(p1.x + (p2.x - p0.x) * t, p1.y + (p2.y - p0.y) * t);
        let c2 = Pt::new(p2.x - (p3.x - p1.x) * t, p2.y - (p3.y - p1.y) * t);
        d.cubic_to(m.apply(c1), m.apply(c2), m.apply(p2));
    }
    if closed {
        d.close();
    }
    d
}

impl PPath {
    /// The path in device space: PathPointType (2.1.1.23) 0 start, 1 line, 3 Bézier;
    /// flag 0x80 closes the figure.
    pub(super) fn build(&self, m: &Affine) -> PathData {
        let mut d = PathData::default();
        let mut i = 0;
        while i < self.pts.len() {
            let t = self.types.get(i).copied().unwrap_or(1);
            let p = m.apply(self.pts[i]);
            match t & 0x07 {
                0 => d.move_to(p),
                3 if i + 2 < self.pts.len() => {
                    let (p2, p3) = (m.apply(self.pts[i + 1]), m.apply(self.pts[i + 2]));
                    d.cubic_to(p, p2, p3);
                    i += 2;
                }
                _ => d.line_to(p),
            }
            let last = self.types.get(i).copied().unwrap_or(0);
            if last & 0x80 != 0 {
                d.close();
            }
            i += 1;
        }
        d
    }
}
