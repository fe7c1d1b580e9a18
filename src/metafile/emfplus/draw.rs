//! EMF+ drawing records (MS-EMFPLUS 2.3.4): fills and outlines with the object table's
//! brushes and pens, images, and text.

use std::f64::consts::TAU;

use super::geometry::{bad, matrix, points, rect_f, rects};
use super::objects::{PFont, PObj};
use super::{EmfPlus, unit_factor};
use crate::metafile::dib;
use crate::metafile::gdi::Gdi;
use crate::metafile::geom::{Affine, PathData, Pt, Rect, text_frame};
use crate::metafile::reader::{Reader, utf16};
use crate::metafile::svg::{Paint, Stroke, Style, TextRun};
use crate::metafile::text::family_list;
use crate::metafile::{MAX_TEXT_CHARS, MetafileError};

impl EmfPlus {
    pub(super) fn brush(&self, id: u32) -> Option<Paint> {
        match self.objects.get(id as usize) {
            Some(Some(PObj::Brush(p))) => Some(*p),
            _ => None,
        }
    }

    pub(super) fn fill(
        &mut self,
        gdi: &mut Gdi,
        d: PathData,
        paint: Option<Paint>,
        evenodd: bool,
    ) -> Result<(), MetafileError> {
        let Some(fill) = paint else {
            self.unsupported += 1;
            return Ok(());
        };
        gdi.flush()?;
        let style = Style {
            fill: Some(fill),
            evenodd,
            stroke: None,
        };
        gdi.canvas.path(&d, &style, &self.state.clip)
    }

    /// Strokes with the pen whose id is the low byte of `flags`.
    pub(super) fn stroke(
        &mut self,
        gdi: &mut Gdi,
        d: PathData,
        flags: u16,
    ) -> Result<(), MetafileError> {
        let pen = match self.objects.get((flags & 0xff) as usize) {
            Some(Some(PObj::Pen(p))) => p.clone(),
            _ => {
                self.unsupported += 1;
                return Ok(());
            }
        };
        gdi.flush()?;
        let width = if pen.unit == 0 || pen.unit == 1 {
            pen.width * self.matrix().mean_scale()
        } else {
            pen.width * unit_factor(pen.unit, self.dpi.x)
        }
        .max(gdi.hairline);
        let style = Style {
            fill: None,
            evenodd: false,
            stroke: Some(Stroke {
                paint: pen.paint,
                width,
                dash: pen.dash.iter().map(|v| v * width).collect(),
                cap: pen.cap,
                join: pen.join,
            }),
        };
        gdi.canvas.path(&d, &style, &self.state.clip)
    }

    /// A pie (`closed`) or arc of the ellipse in `rc`, angles in degrees clockwise.
    pub(super) fn pie(&self, rc: Rect, start: f64, sweep: f64, closed: bool) -> PathData {
        let m = self.matrix();
        let c = Pt::new(rc.x0 + rc.width() / 2.0, rc.y0 + rc.height() / 2.0);
        let (rx, ry) = (rc.width().abs() / 2.0, rc.height().abs() / 2.0);
        // GDI+ angles are true angles; the arc wants the ellipse's parameter.
        let param = |deg: f64| {
            let a = deg.to_radians();
            (rx * a.sin()).atan2(ry * a.cos())
        };
        let t0 = param(start);
        let t = if sweep.abs() >= 360.0 {
            TAU.copysign(sweep)
        } else {
            let raw = param(start + sweep) - t0;
            if sweep >= 0.0 {
                raw.rem_euclid(TAU)
            } else {
                -(-raw).rem_euclid(TAU)
            }
        };
        let mut d = PathData::default();
        if closed {
            d.move_to(m.apply(c));
            d.arc(c, Pt::new(rx, ry), t0, t, &m, true);
            d.close();
        } else {
            d.arc(c, Pt::new(rx, ry), t0, t, &m, false);
        }
        d
    }

    pub(super) fn draw_image(
        &mut self,
        gdi: &mut Gdi,
        kind: u16,
        flags: u16,
        mut r: Reader,
    ) -> Result<(), MetafileError> {
        let obj = self.objects.get((flags & 0xff) as usize).cloned().flatten();
        r.skip(4, "image attributes")?;
        let _src_unit = r.u32("source unit")?;
        let src = rect_f(&mut r)?;
        // The destination: a rectangle (DrawImage) or three corners (DrawImagePoints).
        let corners = if kind == 0x401A {
            let rc = rects(&mut r, 1, flags)?;
            let Some(rc) = rc.first() else { return Ok(()) };
            [
                Pt::new(rc.x0, rc.y0),
                Pt::new(rc.x1, rc.y0),
                Pt::new(rc.x0, rc.y1),
            ]
        } else {
            let n = r.u32("count")?;
            let p = points(&mut r, n, flags)?;
            if p.len() != 3 {
                return Err(bad("image points", "not 3 points"));
            }
            [p[0], p[1], p[2]]
        };
        let m = self.matrix();
        let [p0, px, py] = corners.map(|p| m.apply(p));
        let unit = Affine::new(
            px.x - p0.x,
            px.y - p0.y,
            py.x - p0.x,
            py.y - p0.y,
            p0.x,
            p0.y,
        );
        gdi.flush()?;
        match obj {
            Some(PObj::Bitmap(img)) => {
                let crop = (
                    src.x0.round() as i64,
                    src.y0.round() as i64,
                    src.width().round() as i64,
                    src.height().round() as i64,
                );
                let png = dib::png(&dib::crop(img, crop, false))?;
                gdi.canvas.image("image/png", &png, &unit, &self.state.clip)
            }
            Some(PObj::Metafile(svg)) => {
                gdi.canvas
                    .image("image/svg+xml", svg.as_bytes(), &unit, &self.state.clip)
            }
            _ => {
                self.unsupported += 1;
                Ok(())
            }
        }
    }

    /// A text run in `font` and `paint`, its text and placement to be filled in.
    pub(super) fn text_style(font: &PFont, paint: Paint) -> TextRun {
        TextRun {
            text: String::new(),
            matrix: Affine::IDENTITY,
            x: Vec::new(),
            size: 0.0,
            family: family_list(&font.family, 0),
            weight: if font.style & 1 != 0 { 700 } else { 400 },
            italic: font.style & 2 != 0,
            underline: font.style & 4 != 0,
            strike: font.style & 8 != 0,
            fill: paint,
            anchor: "start",
        }
    }

    /// The font's em in world units.
    pub(super) fn em_world(&self, font: &PFont) -> f64 {
        if font.unit == 0 {
            return font.em;
        }
        let scale = self.matrix().mean_scale();
        if scale < 1e-12 {
            return font.em;
        }
        font.em * unit_factor(font.unit, self.dpi.x) / scale
    }

    /// DrawString (2.3.4.14): text in a layout rectangle, lines split at line breaks.
    pub(super) fn draw_string(
        &mut self,
        gdi: &mut Gdi,
        flags: u16,
        mut r: Reader,
    ) -> Result<(), MetafileError> {
        let Some(Some(PObj::Font(font))) = self.objects.get((flags & 0xff) as usize).cloned()
        else {
            self.unsupported += 1;
            return Ok(());
        };
        let b = r.u32("brush")?;
        let paint = if flags & 0x8000 != 0 {
            Some(Paint::argb(b))
        } else {
            self.brush(b)
        };
        let format = r.u32("string format")?;
        let n = r.u32("length")? as usize;
        let rc = rect_f(&mut r)?;
        let text = utf16(r.bytes((n * 2).min(r.remaining()), "string")?);
        let (align, line_align) = match self.objects.get(format as usize) {
            Some(Some(PObj::Format(a, l))) => (*a, *l),
            _ => (0, 0),
        };
        let Some(paint) = paint else {
            self.unsupported += 1;
            return Ok(());
        };
        gdi.flush()?;
        let em = self.em_world(&font);
        let lines: Vec<&str> = text.lines().collect();
        let leading = em * 1.15;
        let block = leading * lines.len() as f64;
        let top = match line_align {
            1 => rc.y0 + (rc.height() - block) / 2.0,
            2 => rc.y1 - block,
            _ => rc.y0,
        };
        let (x, anchor) = match align {
            1 if rc.width() > 0.0 => (rc.x0 + rc.width() / 2.0, "middle"),
            2 if rc.width() > 0.0 => (rc.x1, "end"),
            _ => (rc.x0, "start"),
        };
        let m = self.matrix();
        for (i, line) in lines.into_iter().enumerate() {
            let base = top + leading * i as f64 + em * 0.92;
            let Some(frame) = text_frame(&m, Pt::new(x, base), 0.0, 0.0) else {
                continue;
            };
            let line: String = line.chars().take(MAX_TEXT_CHARS).collect();
            let run = TextRun {
                text: line,
                matrix: frame,
                size: em,
                anchor,
                ..Self::text_style(&font, paint)
            };
            gdi.canvas.text(&run, &self.state.clip)?;
        }
        Ok(())
    }

    /// DrawDriverString (2.3.4.6): characters (with the CmapLookup option) at given positions.
    pub(super) fn draw_driver_string(
        &mut self,
        gdi: &mut Gdi,
        flags: u16,
        mut r: Reader,
    ) -> Result<(), MetafileError> {
        let Some(Some(PObj::Font(font))) = self.objects.get((flags & 0xff) as usize).cloned()
        else {
            self.unsupported += 1;
            return Ok(());
        };
        let b = r.u32("brush")?;
        let paint = if flags & 0x8000 != 0 {
            Some(Paint::argb(b))
        } else {
            self.brush(b)
        };
        let options = r.u32("driver string options")?;
        let has_matrix = r.u32("matrix present")? != 0;
        let n = r.u32("glyph count")?;
        let n = r.count(n, 10, "glyphs")?;
        let text = utf16(r.bytes(n * 2, "glyphs")?);
        let mut pos = Vec::with_capacity(n);
        for _ in 0..n {
            pos.push(Pt::new(r.f32("position")?, r.f32("position")?));
        }
        let extra = if has_matrix {
            matrix(&mut r)?
        } else {
            Affine::IDENTITY
        };
        let (Some(paint), true, Some(&first)) = (paint, options & 1 != 0, pos.first()) else {
            // Glyph indices of a font we do not have.
            self.unsupported += 1;
            return Ok(());
        };
        gdi.flush()?;
        let m = extra.then(&self.matrix());
        let em = self.em_world(&font);
        let same_line = pos.iter().all(|p| (p.y - first.y).abs() < 1e-6);
        let x = if options & 4 == 0 && same_line && pos.len() == text.chars().count() {
            pos.iter().map(|p| p.x - first.x).collect()
        } else {
            Vec::new()
        };
        let Some(frame) = text_frame(&m, first, 0.0, 0.0) else {
            return Ok(());
        };
        let text: String = text.chars().take(MAX_TEXT_CHARS).collect();
        let run = TextRun {
            text,
            matrix: frame,
            x,
            size: em,
            ..Self::text_style(&font, paint)
        };
        gdi.canvas.text(&run, &self.state.clip)
    }
}
