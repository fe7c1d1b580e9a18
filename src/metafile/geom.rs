//! Geometry shared by the players: points, affine transforms, and SVG path data built in
//! device coordinates (ellipses and arcs as cubic Béziers, which an affine transform maps
//! exactly, so a rotated or sheared ellipse is still right).

use std::fmt::Write;

/// A point.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Pt {
    pub x: f64,
    pub y: f64,
}

impl Pt {
    pub(crate) fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }
}

/// An affine transform as SVG writes it: `x' = a x + c y + e`, `y' = b x + d y + f` (EMF's
/// XFORM `eM11 eM12 eM21 eM22 eDx eDy` and GDI+'s matrix in the same order).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Affine {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub e: f64,
    pub f: f64,
}

impl Affine {
    pub(crate) const IDENTITY: Affine = Affine {
        a: 1.0,
        b: 0.0,
        c: 0.0,
        d: 1.0,
        e: 0.0,
        f: 0.0,
    };

    pub(crate) fn new(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> Affine {
        let m = Affine { a, b, c, d, e, f };
        if m.is_finite() { m } else { Affine::IDENTITY }
    }

    pub(crate) fn translate(x: f64, y: f64) -> Affine {
        Affine::new(1.0, 0.0, 0.0, 1.0, x, y)
    }

    pub(crate) fn scale(sx: f64, sy: f64) -> Affine {
        Affine::new(sx, 0.0, 0.0, sy, 0.0, 0.0)
    }

    /// A rotation by `deg` degrees (clockwise on a y-down screen, as GDI+ rotates).
    pub(crate) fn rotate(deg: f64) -> Affine {
        let (s, c) = deg.to_radians().sin_cos();
        Affine::new(c, s, -s, c, 0.0, 0.0)
    }

    fn is_finite(&self) -> bool {
        [self.a, self.b, self.c, self.d, self.e, self.f]
            .iter()
            .all(|v| v.is_finite() && v.abs() < 1e12)
    }

    /// `self` first, then `next`.
    pub(crate) fn then(&self, next: &Affine) -> Affine {
        let s = self;
        let n = next;
        Affine::new(
            s.a * n.a + s.b * n.c,
            s.a * n.b + s.b * n.d,
            s.c * n.a + s.d * n.c,
            s.c * n.b + s.d * n.d,
            s.e * n.a + s.f * n.c + n.e,
            s.e * n.b + s.f * n.d + n.f,
        )
    }

    pub(crate) fn apply(&self, p: Pt) -> Pt {
        Pt::new(
            self.a * p.x + self.c * p.y + self.e,
            self.b * p.x + self.d * p.y + self.f,
        )
    }

    /// The linear part applied to a vector.
    pub(crate) fn apply_vec(&self, v: Pt) -> Pt {
        Pt::new(self.a * v.x + self.c * v.y, self.b * v.x + self.d * v.y)
    }

    pub(crate) fn det(&self) -> f64 {
        self.a * self.d - self.b * self.c
    }

    /// The mean scale factor (for pen widths).
    pub(crate) fn mean_scale(&self) -> f64 {
        self.det().abs().sqrt()
    }

    /// The inverse, when the transform is not degenerate.
    pub(crate) fn invert(&self) -> Option<Affine> {
        let det = self.det();
        if det.abs() < 1e-12 {
            return None;
        }
        let a = self.d / det;
        let b = -self.b / det;
        let c = -self.c / det;
        let d = self.a / det;
        Some(Affine::new(
            a,
            b,
            c,
            d,
            -(a * self.e + c * self.f),
            -(b * self.e + d * self.f),
        ))
    }
}

/// The frame of a run of text drawn at logical `origin` through `m`: text space has logical
/// units, its baseline at y = `baseline` below the origin and turned by the mapping's own
/// rotation plus `rotate` degrees (clockwise on the device), and is never mirrored, so text
/// reads left to right even where the mapping flips an axis. `None` for a degenerate mapping.
pub(crate) fn text_frame(m: &Affine, origin: Pt, baseline: f64, rotate: f64) -> Option<Affine> {
    let ux = m.apply_vec(Pt::new(1.0, 0.0));
    let uy = m.apply_vec(Pt::new(0.0, 1.0));
    let (sx, sy) = (ux.x.hypot(ux.y), uy.x.hypot(uy.y));
    if sx < 1e-12 || sy < 1e-12 {
        return None;
    }
    let theta = ux.y.atan2(ux.x).to_degrees() + rotate;
    let p = m.apply(origin);
    Some(
        Affine::translate(0.0, baseline)
            .then(&Affine::scale(sx, sy))
            .then(&Affine::rotate(theta))
            .then(&Affine::translate(p.x, p.y)),
    )
}

/// An axis-aligned rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub(crate) fn width(&self) -> f64 {
        self.x1 - self.x0
    }
    pub(crate) fn height(&self) -> f64 {
        self.y1 - self.y0
    }
    pub(crate) fn include(&mut self, p: Pt) {
        self.x0 = self.x0.min(p.x);
        self.y0 = self.y0.min(p.y);
        self.x1 = self.x1.max(p.x);
        self.y1 = self.y1.max(p.y);
    }
}

/// Formats a coordinate: at most three decimals, no trailing zeros, never NaN.
pub(crate) fn num(v: f64) -> String {
    let mut s = String::new();
    push_num(&mut s, v);
    s
}

pub(crate) fn push_num(out: &mut String, v: f64) {
    let v = if v.is_finite() {
        v.clamp(-1e9, 1e9)
    } else {
        0.0
    };
    let r = (v * 1000.0).round() / 1000.0;
    if r == r.trunc() {
        let _ = write!(out, "{}", r as i64);
    } else {
        let s = format!("{r:.3}");
        out.push_str(s.trim_end_matches('0'));
    }
}

/// SVG path data in device coordinates, with its bounding box.
#[derive(Debug, Clone, Default)]
pub(crate) struct PathData {
    pub d: String,
    /// Drawing commands so far.
    pub segments: usize,
    pub bbox: Option<Rect>,
    /// The current point and the start of the open figure (device coordinates).
    pub current: Option<Pt>,
    start: Option<Pt>,
}

impl PathData {
    pub(crate) fn is_empty(&self) -> bool {
        self.segments == 0
    }

    fn point(&mut self, p: Pt) {
        self.d.push(' ');
        push_num(&mut self.d, p.x);
        self.d.push(' ');
        push_num(&mut self.d, p.y);
        match &mut self.bbox {
            Some(b) => b.include(p),
            None => {
                self.bbox = Some(Rect {
                    x0: p.x,
                    y0: p.y,
                    x1: p.x,
                    y1: p.y,
                })
            }
        }
    }

    pub(crate) fn move_to(&mut self, p: Pt) {
        self.d.push('M');
        self.point(p);
        self.current = Some(p);
        self.start = Some(p);
    }

    /// A line to `p`, starting a figure at `p` when there is no current point.
    pub(crate) fn line_to(&mut self, p: Pt) {
        if self.current.is_none() {
            self.move_to(p);
            return;
        }
        self.d.push('L');
        self.point(p);
        self.current = Some(p);
        self.segments += 1;
    }

    pub(crate) fn cubic_to(&mut self, c1: Pt, c2: Pt, p: Pt) {
        if self.current.is_none() {
            self.move_to(c1);
        }
        self.d.push('C');
        self.point(c1);
        self.point(c2);
        self.point(p);
        self.current = Some(p);
        self.segments += 1;
    }

    pub(crate) fn close(&mut self) {
        if self.current.is_some() {
            self.d.push('Z');
            self.current = self.start;
        }
    }

    /// Appends another path's figures.
    pub(crate) fn append(&mut self, other: &PathData) {
        if other.is_empty() {
            return;
        }
        self.d.push_str(&other.d);
        self.segments += other.segments;
        if let Some(b) = other.bbox {
            let mut mine = self.bbox.unwrap_or(b);
            mine.include(Pt::new(b.x0, b.y0));
            mine.include(Pt::new(b.x1, b.y1));
            self.bbox = Some(mine);
        }
        self.current = other.current;
        self.start = other.start;
    }

    /// A polyline or polygon of logical points mapped by `m`.
    pub(crate) fn poly(&mut self, pts: &[Pt], m: &Affine, closed: bool) {
        let mut it = pts.iter();
        let Some(&first) = it.next() else { return };
        self.move_to(m.apply(first));
        for &p in it {
            self.d.push('L');
            self.point(m.apply(p));
            self.segments += 1;
        }
        if closed {
            self.close();
        }
        if pts.len() == 1 {
            // A lone point still marks a figure, so a polygon of one point is not "empty".
            self.segments += 1;
        }
    }

    /// A rectangle of logical coordinates mapped by `m`.
    pub(crate) fn rect(&mut self, r: Rect, m: &Affine) {
        let pts = [
            Pt::new(r.x0, r.y0),
            Pt::new(r.x1, r.y0),
            Pt::new(r.x1, r.y1),
            Pt::new(r.x0, r.y1),
        ];
        self.poly(&pts, m, true);
    }

    /// An elliptic arc of the ellipse centred at `c` with radii `radii` (logical), from
    /// parameter angle `t0` sweeping `sweep` radians (positive: clockwise on a y-down screen),
    /// as cubic Béziers of at most 90° each, mapped by `m`. Joins the current figure with a
    /// line when `connect`, else starts a new one.
    pub(crate) fn arc(&mut self, c: Pt, radii: Pt, t0: f64, sweep: f64, m: &Affine, connect: bool) {
        let (rx, ry) = (radii.x, radii.y);
        let at = |t: f64| Pt::new(c.x + rx * t.cos(), c.y + ry * t.sin());
        let start = m.apply(at(t0));
        if connect && self.current.is_some() {
            self.line_to(start);
        } else {
            self.move_to(start);
        }
        let sweep = sweep.clamp(-std::f64::consts::TAU, std::f64::consts::TAU);
        let n = ((sweep.abs() / std::f64::consts::FRAC_PI_2).ceil() as usize).clamp(1, 4);
        let delta = sweep / n as f64;
        let k = 4.0 / 3.0 * (delta / 4.0).tan();
        let mut t = t0;
        for _ in 0..n {
            let t1 = t + delta;
            let p0 = at(t);
            let p3 = at(t1);
            let c1 = Pt::new(p0.x - k * rx * t.sin(), p0.y + k * ry * t.cos());
            let c2 = Pt::new(p3.x + k * rx * t1.sin(), p3.y - k * ry * t1.cos());
            self.cubic_to(m.apply(c1), m.apply(c2), m.apply(p3));
            t = t1;
        }
    }

    /// A whole ellipse inscribed in `r` (logical), mapped by `m`.
    pub(crate) fn ellipse(&mut self, r: Rect, m: &Affine) {
        let c = Pt::new((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
        self.arc(
            c,
            Pt::new(r.width().abs() / 2.0, r.height().abs() / 2.0),
            0.0,
            std::f64::consts::TAU,
            m,
            false,
        );
        self.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_compose_and_invert() {
        let m = Affine::translate(10.0, 5.0).then(&Affine::scale(2.0, -1.0));
        assert_eq!(m.apply(Pt::new(1.0, 1.0)), Pt::new(22.0, -6.0));
        let inv = m.invert().unwrap();
        let p = inv.apply(Pt::new(22.0, -6.0));
        assert!((p.x - 1.0).abs() < 1e-9 && (p.y - 1.0).abs() < 1e-9);
        let r = Affine::rotate(90.0).apply(Pt::new(1.0, 0.0));
        assert!(r.x.abs() < 1e-9 && (r.y - 1.0).abs() < 1e-9);
    }

    #[test]
    fn numbers_are_short_and_finite() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-2.5), "-2.5");
        assert_eq!(num(1.23456), "1.235");
        assert_eq!(num(f64::NAN), "0");
    }

    #[test]
    fn ellipse_is_four_curves_in_its_box() {
        let mut p = PathData::default();
        p.ellipse(
            Rect {
                x0: 0.0,
                y0: 0.0,
                x1: 20.0,
                y1: 10.0,
            },
            &Affine::IDENTITY,
        );
        assert_eq!(p.d.matches('C').count(), 4);
        let b = p.bbox.unwrap();
        assert!(b.x0 >= -0.01 && b.x1 <= 20.01 && b.y0 >= -0.5 && b.y1 <= 10.5);
    }
}
