//! The drawing operations of the device context: MOVETO/LINETO runs joined into one path,
//! polylines and polygons, Béziers, rectangles, ellipses, arcs, pies and chords, fills, images
//! and text (MS-EMF 2.3.5, MS-WMF 2.3.3).

use std::f64::consts::TAU;

use super::{ArcKind, Gdi, Pending};
use crate::metafile::geom::{Affine, PathData, Pt, Rect, text_frame};
use crate::metafile::svg::{Paint, Style, TextRun};
use crate::metafile::text::{family_list, is_symbol_face, symbol_to_unicode};
use crate::metafile::{MAX_TEXT_CHARS, MetafileError};

impl Gdi {
    // ----- drawing ------------------------------------------------------------------------

    /// Draws the pending MOVETO/LINETO run.
    pub(crate) fn flush(&mut self) -> Result<(), MetafileError> {
        if let Some(p) = self.pending.take() {
            self.canvas.path(&p.path, &p.style, &p.clip)?;
        }
        Ok(())
    }

    /// Draws `d` (device coordinates), or adds it to the open path bracket.
    pub(crate) fn draw(&mut self, d: PathData, style: Style) -> Result<(), MetafileError> {
        if self.path_open {
            if let Some(path) = &mut self.path {
                path.append(&d);
            }
            return Ok(());
        }
        self.flush()?;
        let clip = self.dc.clip.clone();
        self.canvas.path(&d, &style, &clip)
    }

    /// Draws `d` with the current brush and pen.
    pub(crate) fn shape(
        &mut self,
        d: PathData,
        fill: bool,
        stroke: bool,
    ) -> Result<(), MetafileError> {
        let style = self.style(fill, stroke);
        self.draw(d, style)
    }

    pub(crate) fn move_to(&mut self, p: Pt) {
        self.dc.cur = p;
        if self.path_open {
            let m = self.matrix();
            if let Some(path) = &mut self.path {
                path.move_to(m.apply(p));
            }
        }
    }

    /// LINETO: a line from the current position, joined to the previous line when the style
    /// and clip are the same (so a chart's thousand lines are one path).
    pub(crate) fn line_to(&mut self, p: Pt) -> Result<(), MetafileError> {
        let m = self.matrix();
        let from = m.apply(self.dc.cur);
        let to = m.apply(p);
        self.dc.cur = p;
        if self.path_open {
            if let Some(path) = &mut self.path {
                if path.current.is_none() {
                    path.move_to(from);
                }
                path.line_to(to);
            }
            return Ok(());
        }
        let style = self.style(false, true);
        let same = self.pending.as_ref().is_some_and(|pend| {
            pend.style == style
                && match (&pend.clip, &self.dc.clip) {
                    (None, None) => true,
                    (Some(a), Some(b)) => std::rc::Rc::ptr_eq(a, b),
                    _ => false,
                }
        });
        if !same {
            self.flush()?;
            self.pending = Some(Pending {
                path: PathData::default(),
                style,
                clip: self.dc.clip.clone(),
            });
        }
        if let Some(pend) = &mut self.pending {
            if pend.path.current != Some(from) {
                pend.path.move_to(from);
            }
            pend.path.line_to(to);
            if pend.path.d.len() > 1 << 20 {
                self.flush()?;
            }
        }
        Ok(())
    }

    /// A polyline (`closed`: a polygon, filled).
    pub(crate) fn poly(&mut self, pts: &[Pt], closed: bool) -> Result<(), MetafileError> {
        let mut d = PathData::default();
        d.poly(pts, &self.matrix(), closed);
        self.shape(d, closed, true)
    }

    /// POLYPOLYGON / POLYPOLYLINE.
    pub(crate) fn poly_poly(
        &mut self,
        polys: &[Vec<Pt>],
        closed: bool,
    ) -> Result<(), MetafileError> {
        let m = self.matrix();
        let mut d = PathData::default();
        for p in polys {
            d.poly(p, &m, closed);
        }
        self.shape(d, closed, true)
    }

    /// POLYLINETO: lines from the current position.
    pub(crate) fn poly_to(&mut self, pts: &[Pt]) -> Result<(), MetafileError> {
        for &p in pts {
            self.line_to(p)?;
        }
        Ok(())
    }

    /// POLYBEZIER (`to`: POLYBEZIERTO, from the current position, which it moves).
    pub(crate) fn bezier(&mut self, pts: &[Pt], to: bool) -> Result<(), MetafileError> {
        let m = self.matrix();
        let (start, rest) = if to {
            (self.dc.cur, pts)
        } else {
            match pts.split_first() {
                Some((&s, rest)) => (s, rest),
                None => return Ok(()),
            }
        };
        let mut fresh = PathData::default();
        let in_bracket = self.path_open && self.path.is_some();
        let d = match &mut self.path {
            Some(path) if in_bracket => path,
            _ => &mut fresh,
        };
        if !to || d.current.is_none() {
            d.move_to(m.apply(start));
        }
        for c in rest.chunks_exact(3) {
            d.cubic_to(m.apply(c[0]), m.apply(c[1]), m.apply(c[2]));
        }
        if to {
            if let Some(last) = rest.chunks_exact(3).last() {
                self.dc.cur = last[2];
            }
        }
        if in_bracket {
            return Ok(());
        }
        self.shape(fresh, false, true)
    }

    pub(crate) fn rectangle(&mut self, r: Rect) -> Result<(), MetafileError> {
        let mut d = PathData::default();
        d.rect(r, &self.matrix());
        self.shape(d, true, true)
    }

    /// ROUNDRECT: corners are quarter ellipses `w` × `h`.
    pub(crate) fn round_rect(&mut self, r: Rect, w: f64, h: f64) -> Result<(), MetafileError> {
        let m = self.matrix();
        let (x0, x1) = (r.x0.min(r.x1), r.x0.max(r.x1));
        let (y0, y1) = (r.y0.min(r.y1), r.y0.max(r.y1));
        let rx = (w.abs() / 2.0).min((x1 - x0) / 2.0);
        let ry = (h.abs() / 2.0).min((y1 - y0) / 2.0);
        let q = std::f64::consts::FRAC_PI_2;
        let mut d = PathData::default();
        d.arc(Pt::new(x1 - rx, y0 + ry), Pt::new(rx, ry), -q, q, &m, false);
        d.arc(Pt::new(x1 - rx, y1 - ry), Pt::new(rx, ry), 0.0, q, &m, true);
        d.arc(Pt::new(x0 + rx, y1 - ry), Pt::new(rx, ry), q, q, &m, true);
        d.arc(
            Pt::new(x0 + rx, y0 + ry),
            Pt::new(rx, ry),
            2.0 * q,
            q,
            &m,
            true,
        );
        d.close();
        self.shape(d, true, true)
    }

    pub(crate) fn ellipse(&mut self, r: Rect) -> Result<(), MetafileError> {
        let mut d = PathData::default();
        d.ellipse(r, &self.matrix());
        self.shape(d, true, true)
    }

    /// ARC, ARCTO, CHORD, PIE: part of the ellipse in `r`, from the radial through `start`
    /// to the radial through `end`, counterclockwise unless SETARCDIRECTION said otherwise.
    pub(crate) fn arc(
        &mut self,
        kind: ArcKind,
        r: Rect,
        start: Pt,
        end: Pt,
    ) -> Result<(), MetafileError> {
        let m = self.matrix();
        let c = Pt::new((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
        let rx = r.width().abs() / 2.0;
        let ry = r.height().abs() / 2.0;
        if rx == 0.0 || ry == 0.0 {
            return Ok(());
        }
        let angle = |p: Pt| ((p.y - c.y) / ry).atan2((p.x - c.x) / rx);
        let (t0, t1) = (angle(start), angle(end));
        // Counterclockwise as seen on the device: decreasing angle on a y-down device; the
        // mapping may flip y, which flips what counterclockwise means in logical space.
        let clockwise = self.dc.arc_clockwise != (m.det() < 0.0);
        let mut sweep = if clockwise {
            (t1 - t0).rem_euclid(TAU)
        } else {
            -(t0 - t1).rem_euclid(TAU)
        };
        if sweep == 0.0 {
            sweep = if clockwise { TAU } else { -TAU };
        }
        let mut d = PathData::default();
        match kind {
            ArcKind::Pie => {
                d.move_to(m.apply(c));
                d.arc(c, Pt::new(rx, ry), t0, sweep, &m, true);
                d.close();
            }
            ArcKind::ArcTo => {
                d.move_to(m.apply(self.dc.cur));
                d.arc(c, Pt::new(rx, ry), t0, sweep, &m, true);
            }
            ArcKind::Arc => d.arc(c, Pt::new(rx, ry), t0, sweep, &m, false),
            ArcKind::Chord => {
                d.arc(c, Pt::new(rx, ry), t0, sweep, &m, false);
                d.close();
            }
        }
        if kind == ArcKind::ArcTo {
            let t = t0 + sweep;
            self.dc.cur = Pt::new(c.x + rx * t.cos(), c.y + ry * t.sin());
        }
        let closed = matches!(kind, ArcKind::Pie | ArcKind::Chord);
        self.shape(d, closed, true)
    }

    /// Fills a logical rectangle with a colour, no outline (PATBLT, ETO_OPAQUE).
    pub(crate) fn fill_rect(&mut self, r: Rect, color: u32) -> Result<(), MetafileError> {
        let mut d = PathData::default();
        d.rect(r, &self.matrix());
        let style = Style {
            fill: Some(Paint::colorref(color)),
            ..Style::default()
        };
        self.draw(d, style)
    }

    /// Draws a PNG onto the logical rectangle at `dest` of size `size` (either may be
    /// negative: the picture is mirrored).
    pub(crate) fn image(&mut self, png: &[u8], dest: Pt, size: Pt) -> Result<(), MetafileError> {
        self.flush()?;
        let m = self.matrix();
        let p0 = m.apply(dest);
        let px = m.apply(Pt::new(dest.x + size.x, dest.y));
        let py = m.apply(Pt::new(dest.x, dest.y + size.y));
        let unit = Affine::new(
            px.x - p0.x,
            px.y - p0.y,
            py.x - p0.x,
            py.y - p0.y,
            p0.x,
            p0.y,
        );
        let clip = self.dc.clip.clone();
        self.canvas.image("image/png", png, &unit, &clip)
    }

    /// Draws text at the logical point `at` with the current font, colour and alignment.
    /// `dx` are the logical advances of the characters, when the record gives them.
    pub(crate) fn text(
        &mut self,
        at: Pt,
        text: &str,
        dx: Option<&[f64]>,
    ) -> Result<(), MetafileError> {
        self.flush()?;
        let font = self.dc.font.clone();
        let mut text: String = text.chars().take(MAX_TEXT_CHARS).collect();
        if is_symbol_face(&font.face) {
            text = symbol_to_unicode(&text);
        } else if text.chars().any(|c| ('\u{f020}'..='\u{f0ff}').contains(&c)) {
            // Private-use codes of a symbol font: their byte is the best guess.
            text = text
                .chars()
                .map(|c| match c as u32 {
                    0xF020..=0xF0FF => char::from_u32(c as u32 - 0xF000).unwrap_or(c),
                    _ => c,
                })
                .collect();
        }
        let m = self.matrix();
        // TA_UPDATECP: text starts at the current position.
        let update_cp = self.dc.text_align & 1 != 0;
        let origin = if update_cp { self.dc.cur } else { at };
        let uy = m.apply_vec(Pt::new(0.0, 1.0));
        let sy = uy.x.hypot(uy.y);
        if sy < 1e-9 {
            return Ok(());
        }
        let em = if font.height < 0.0 {
            -font.height
        } else if font.height > 0.0 {
            // A cell height holds the internal leading too.
            font.height * 0.85
        } else {
            12.0 * self.hairline / sy
        };
        // Baseline offset by TA_TOP / TA_BOTTOM / TA_BASELINE (MS-WMF 2.1.2.3).
        let baseline = match self.dc.text_align & 0x18 {
            0x08 => -0.22 * em,
            0x18 => 0.0,
            _ => 0.92 * em,
        };
        let n = text.chars().count();
        let (mut x, mut anchor) = (Vec::new(), "start");
        let halign = self.dc.text_align & 0x06;
        let mut advance = None;
        match dx {
            Some(dx) if dx.len() >= n && n > 0 => {
                let total: f64 = dx[..n].iter().sum();
                let shift = match halign {
                    6 => -total / 2.0,
                    2 => -total,
                    _ => 0.0,
                };
                let mut pos = shift;
                for d in &dx[..n] {
                    x.push(pos);
                    pos += d;
                }
                advance = Some(total);
            }
            _ => {
                anchor = match halign {
                    6 => "middle",
                    2 => "end",
                    _ => "start",
                };
            }
        }
        // The escapement turns the baseline counterclockwise in logical space: on the device
        // too, unless the mapping flips an axis.
        let turn = if m.det() < 0.0 { 1.0 } else { -1.0 } * font.escapement / 10.0;
        let Some(matrix) = text_frame(&m, origin, baseline, turn) else {
            return Ok(());
        };
        if update_cp {
            if let Some(w) = advance {
                self.dc.cur.x += if halign == 2 { -w } else { w };
            }
        }
        let run = TextRun {
            text,
            matrix,
            x,
            size: em,
            family: family_list(&font.face, font.pitch_family),
            weight: font.weight,
            italic: font.italic,
            underline: font.underline,
            strike: font.strike,
            fill: Paint::colorref(self.dc.text_color),
            anchor,
        };
        let clip = self.dc.clip.clone();
        self.canvas.text(&run, &clip)
    }
}
