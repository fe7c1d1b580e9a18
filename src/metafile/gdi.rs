//! The GDI device context that the WMF and EMF players share: objects (pens, brushes,
//! fonts), the mapping from logical to device coordinates (window/viewport origin and extent,
//! mapping modes, EMF's world transform), saved states, clipping, path brackets, and the
//! drawing operations, which all land on the [`Canvas`] in device coordinates.

use std::f64::consts::TAU;

use super::geom::{Affine, PathData, Pt, Rect, text_frame};
use super::svg::{Canvas, Clip, Paint, Stroke, Style, TextRun};
use super::text::{family_list, is_symbol_face, symbol_to_unicode};
use super::{Budget, MAX_CLIP_DEPTH, MAX_OBJECTS, MAX_SAVED_STATES, MAX_TEXT_CHARS, MetafileError};

/// A logical pen (MS-WMF 2.2.1.3 LogPen, MS-EMF 2.2.20 LogPenEx).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pen {
    /// PenStyle bits (MS-WMF 2.1.1.23): dash style, end cap, join, geometric.
    pub style: u32,
    /// Width in logical units; 0 is one device pixel.
    pub width: f64,
    /// COLORREF.
    pub color: u32,
}

/// A logical brush (MS-WMF 2.2.2.10 LogBrush).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Brush {
    /// `false` for BS_NULL (nothing filled).
    pub visible: bool,
    /// COLORREF: the solid or hatch colour, or a pattern's mean colour.
    pub color: u32,
}

/// A logical font (MS-WMF 2.2.1.2 Font, MS-EMF 2.2.13 LogFont).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Font {
    /// lfHeight: negative for the em height, positive for the cell height, 0 for the default.
    pub height: f64,
    /// lfEscapement: the baseline's angle, tenths of a degree counterclockwise.
    pub escapement: f64,
    pub weight: u32,
    pub italic: bool,
    pub underline: bool,
    pub strike: bool,
    pub charset: u8,
    pub pitch_family: u8,
    pub face: String,
}

impl Default for Font {
    fn default() -> Self {
        Font {
            height: 0.0,
            escapement: 0.0,
            weight: 400,
            italic: false,
            underline: false,
            strike: false,
            charset: 0,
            pitch_family: 0,
            face: String::new(),
        }
    }
}

/// An entry of the object table.
#[derive(Debug, Clone)]
pub(crate) enum Object {
    Pen(Pen),
    Brush(Brush),
    Font(Font),
    /// Palettes, regions, colour spaces: held so indexes stay right; not drawn.
    Other,
}

/// The device context state that SaveDC saves.
#[derive(Debug, Clone)]
pub(crate) struct Dc {
    pub pen: Pen,
    pub brush: Brush,
    pub font: Font,
    pub text_color: u32,
    pub bk_color: u32,
    /// TextAlignmentMode flags (MS-WMF 2.1.2.3).
    pub text_align: u32,
    /// ALTERNATE (even-odd) rather than WINDING polygon filling.
    pub evenodd: bool,
    /// MapMode (MS-WMF 2.1.1.16).
    pub map_mode: u32,
    pub win_org: Pt,
    pub win_ext: Pt,
    pub vp_org: Pt,
    pub vp_ext: Pt,
    /// EMF world transform (MS-EMF 2.2.28 XForm): world to page space.
    pub world: Affine,
    /// The current position, logical.
    pub cur: Pt,
    /// AD_CLOCKWISE arcs.
    pub arc_clockwise: bool,
    pub clip: Clip,
}

impl Default for Dc {
    fn default() -> Self {
        Dc {
            pen: Pen {
                style: 0,
                width: 0.0,
                color: 0,
            },
            brush: Brush {
                visible: true,
                color: 0xff_ffff,
            },
            font: Font::default(),
            text_color: 0,
            bk_color: 0xff_ffff,
            text_align: 0,
            evenodd: true,
            map_mode: 1,
            win_org: Pt::default(),
            win_ext: Pt::new(1.0, 1.0),
            vp_org: Pt::default(),
            vp_ext: Pt::new(1.0, 1.0),
            world: Affine::IDENTITY,
            cur: Pt::default(),
            arc_clockwise: false,
            clip: None,
        }
    }
}

/// A stock object (MS-EMF 2.1.31 StockObject), selected by an index with the top bit set.
pub(crate) fn stock_object(index: u32) -> Option<Object> {
    let brush = |color| {
        Object::Brush(Brush {
            visible: true,
            color,
        })
    };
    let pen = |color, style| {
        Object::Pen(Pen {
            style,
            width: 0.0,
            color,
        })
    };
    Some(match index & 0x7fff_ffff {
        0 => brush(0xff_ffff),
        1 => brush(0xc0_c0c0),
        2 => brush(0x80_8080),
        3 => brush(0x40_4040),
        4 => brush(0),
        5 => Object::Brush(Brush {
            visible: false,
            color: 0,
        }),
        6 => pen(0xff_ffff, 0),
        7 => pen(0, 0),
        8 => pen(0, 5),
        10 | 11 | 16 => Object::Font(Font {
            face: "Courier New".into(),
            pitch_family: 0x31,
            ..Font::default()
        }),
        12..=14 | 17 => Object::Font(Font::default()),
        18 => brush(0xff_ffff),
        19 => pen(0, 0),
        _ => return None,
    })
}

/// The kind of elliptic arc record (MS-EMF 2.3.5.2 Arc, .4 Chord, .18 Pie, .3 ArcTo).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum ArcKind {
    Arc,
    ArcTo,
    Chord,
    Pie,
}

/// A shape being stroked line by line (MOVETO/LINETO runs), drawn as one path when something
/// else is drawn or the style changes.
struct Pending {
    path: PathData,
    style: Style,
    clip: Clip,
}

/// The device context, its object table and the canvas.
pub(crate) struct Gdi {
    pub dc: Dc,
    saved: Vec<Dc>,
    pub objects: Vec<Option<Object>>,
    pub canvas: Canvas,
    /// The path of an open or closed path bracket (MS-EMF 2.3.10), device coordinates.
    pub path: Option<PathData>,
    /// Whether the bracket is open (drawing goes into `path`).
    pub path_open: bool,
    pending: Option<Pending>,
    /// WMF: logical window mapped onto this device rectangle, whatever the mapping mode.
    pub wmf_frame: Option<Rect>,
    /// Device pixels per millimetre (EMF's reference device), for the metric mapping modes.
    pub px_per_mm: Pt,
    /// The device length of one output pixel: the thinnest line drawn.
    pub hairline: f64,
    pub skipped: usize,
    pub budget: Budget,
}

impl Gdi {
    pub(crate) fn new(budget: Budget, max_svg: usize) -> Gdi {
        Gdi {
            dc: Dc::default(),
            saved: Vec::new(),
            objects: Vec::new(),
            canvas: Canvas::new(max_svg),
            path: None,
            path_open: false,
            pending: None,
            wmf_frame: None,
            px_per_mm: Pt::new(96.0 / 25.4, 96.0 / 25.4),
            hairline: 1.0,
            skipped: 0,
            budget,
        }
    }

    // ----- object table -------------------------------------------------------------------

    /// Stores an object at `index` (EMF: the record names the slot).
    pub(crate) fn put_object(&mut self, index: u32, obj: Object) -> Result<(), MetafileError> {
        let i = index as usize;
        if i >= MAX_OBJECTS {
            return Err(MetafileError::Limit {
                what: "object table entries",
                limit: MAX_OBJECTS as u64,
            });
        }
        if self.objects.len() <= i {
            self.objects.resize(i + 1, None);
        }
        self.objects[i] = Some(obj);
        Ok(())
    }

    /// Stores an object in the lowest free slot (WMF, MS-WMF 3.1.4.1).
    pub(crate) fn add_object(&mut self, obj: Object) -> Result<(), MetafileError> {
        let free = self.objects.iter().position(Option::is_none);
        let i = free.unwrap_or(self.objects.len());
        self.put_object(i as u32, obj)
    }

    /// Selects the object at `index` (or a stock object) into the context; an empty or
    /// unknown index counts as skipped.
    pub(crate) fn select(&mut self, index: u32) {
        let obj = if index & 0x8000_0000 != 0 {
            stock_object(index)
        } else {
            self.objects.get(index as usize).cloned().flatten()
        };
        match obj {
            Some(Object::Pen(p)) => self.dc.pen = p,
            Some(Object::Brush(b)) => self.dc.brush = b,
            Some(Object::Font(f)) => self.dc.font = f,
            Some(Object::Other) => {}
            None => self.skipped += 1,
        }
    }

    pub(crate) fn delete(&mut self, index: u32) {
        if let Some(slot) = self.objects.get_mut(index as usize) {
            *slot = None;
        }
    }

    // ----- state --------------------------------------------------------------------------

    pub(crate) fn save(&mut self) {
        if self.saved.len() < MAX_SAVED_STATES {
            self.saved.push(self.dc.clone());
        } else {
            self.skipped += 1;
        }
    }

    /// RestoreDC: `n` < 0 counts back from the newest save; `n` > 0 names a save from the
    /// oldest (MS-EMF 2.3.11.6).
    pub(crate) fn restore(&mut self, n: i32) {
        let len = self.saved.len() as i64;
        let keep = if n < 0 { len + n as i64 } else { n as i64 - 1 };
        if keep < 0 || keep >= len {
            self.skipped += 1;
            return;
        }
        self.saved.truncate(keep as usize + 1);
        if let Some(dc) = self.saved.pop() {
            self.dc = dc;
        }
    }

    /// Page space to device space (MS-EMF 2.1.21 MapMode; WMF: the window onto the frame).
    pub(crate) fn page_to_device(&self) -> Affine {
        let dc = &self.dc;
        let ratio = |v: f64, w: f64| if w == 0.0 { 1.0 } else { v / w };
        if let Some(f) = self.wmf_frame {
            let sx = ratio(f.width(), dc.win_ext.x);
            let sy = ratio(f.height(), dc.win_ext.y);
            return Affine::translate(-dc.win_org.x, -dc.win_org.y)
                .then(&Affine::scale(sx, sy))
                .then(&Affine::translate(f.x0, f.y0));
        }
        let (sx, sy) = match dc.map_mode {
            // MM_LOMETRIC, MM_HIMETRIC, MM_LOENGLISH, MM_HIENGLISH, MM_TWIPS: fixed units
            // with y growing upwards.
            2..=6 => {
                let mm = match dc.map_mode {
                    2 => 0.1,
                    3 => 0.01,
                    4 => 0.254,
                    5 => 0.0254,
                    _ => 25.4 / 1440.0,
                };
                (mm * self.px_per_mm.x, -mm * self.px_per_mm.y)
            }
            // MM_ISOTROPIC: one scale, the smaller, with each axis' sign.
            7 => {
                let sx = ratio(dc.vp_ext.x, dc.win_ext.x);
                let sy = ratio(dc.vp_ext.y, dc.win_ext.y);
                let s = sx.abs().min(sy.abs());
                (s.copysign(sx), s.copysign(sy))
            }
            8 => (
                ratio(dc.vp_ext.x, dc.win_ext.x),
                ratio(dc.vp_ext.y, dc.win_ext.y),
            ),
            _ => (1.0, 1.0),
        };
        Affine::translate(-dc.win_org.x, -dc.win_org.y)
            .then(&Affine::scale(sx, sy))
            .then(&Affine::translate(dc.vp_org.x, dc.vp_org.y))
    }

    /// Logical (world) coordinates to device coordinates.
    pub(crate) fn matrix(&self) -> Affine {
        self.dc.world.then(&self.page_to_device())
    }

    // ----- styles -------------------------------------------------------------------------

    fn fill_paint(&self) -> Option<Paint> {
        self.dc
            .brush
            .visible
            .then(|| Paint::colorref(self.dc.brush.color))
    }

    fn stroke(&self) -> Option<Stroke> {
        let pen = &self.dc.pen;
        let dash_style = pen.style & 0x0f;
        // PS_NULL.
        if dash_style == 5 {
            return None;
        }
        let geometric = pen.style & 0x0001_0000 != 0;
        let scaled = pen.width * self.matrix().mean_scale();
        let width = scaled.max(self.hairline);
        let unit = width.max(self.hairline);
        let dash = match dash_style {
            1 => vec![6.0 * unit, 2.0 * unit],
            2 => vec![unit, unit],
            3 => vec![6.0 * unit, 2.0 * unit, unit, 2.0 * unit],
            4 => vec![6.0 * unit, 2.0 * unit, unit, 2.0 * unit, unit, 2.0 * unit],
            _ => Vec::new(),
        };
        // PS_ENDCAP_* and PS_JOIN_* (MS-WMF 2.1.1.23); round is the default.
        let (cap, join) = if geometric || pen.style & 0xff00 != 0 {
            let cap = match pen.style & 0x0f00 {
                0x100 => "square",
                0x200 => "butt",
                _ => "round",
            };
            let join = match pen.style & 0xf000 {
                0x1000 => "bevel",
                0x2000 => "miter",
                _ => "round",
            };
            (cap, join)
        } else {
            ("round", "round")
        };
        Some(Stroke {
            paint: Paint::colorref(pen.color),
            width,
            dash,
            cap,
            join,
        })
    }

    /// The style of a shape: filled with the brush and/or outlined with the pen.
    pub(crate) fn style(&self, fill: bool, stroke: bool) -> Style {
        Style {
            fill: if fill { self.fill_paint() } else { None },
            evenodd: self.dc.evenodd,
            stroke: if stroke { self.stroke() } else { None },
        }
    }

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

    // ----- clipping and paths -------------------------------------------------------------

    /// Intersects the clip with a device-space path.
    pub(crate) fn intersect_clip(&mut self, d: &PathData, evenodd: bool) {
        let parent = match &self.dc.clip {
            Some(c) if c.depth() >= MAX_CLIP_DEPTH => {
                self.skipped += 1;
                None
            }
            other => other.clone(),
        };
        self.dc.clip = self.canvas.clip(d, evenodd, &parent);
    }

    /// INTERSECTCLIPRECT (logical rectangle).
    pub(crate) fn intersect_clip_rect(&mut self, r: Rect) {
        let mut d = PathData::default();
        d.rect(r, &self.matrix());
        self.intersect_clip(&d, false);
    }

    /// EXCLUDECLIPRECT: everything but the rectangle, as an even-odd clip around it.
    pub(crate) fn exclude_clip_rect(&mut self, r: Rect) {
        let big = 1e7;
        let mut d = PathData::default();
        d.rect(
            Rect {
                x0: -big,
                y0: -big,
                x1: big,
                y1: big,
            },
            &Affine::IDENTITY,
        );
        d.rect(r, &self.matrix());
        self.intersect_clip(&d, true);
    }

    /// Sets the clip from a region of device rectangles with a RegionMode (MS-EMF 2.1.29):
    /// RGN_AND intersects, RGN_COPY replaces (no rectangles: no clip); others are skipped.
    pub(crate) fn set_clip_region(&mut self, rects: &[Rect], mode: u32) {
        let mut d = PathData::default();
        for r in rects {
            d.rect(*r, &Affine::IDENTITY);
        }
        match mode {
            5 if rects.is_empty() => self.dc.clip = None,
            5 => self.dc.clip = self.canvas.clip(&d, false, &None),
            1 if !rects.is_empty() => self.intersect_clip(&d, false),
            // RGN_OR onto no clip (everything) stays everything.
            2 if self.dc.clip.is_none() => {}
            _ => self.skipped += 1,
        }
    }

    pub(crate) fn begin_path(&mut self) -> Result<(), MetafileError> {
        self.flush()?;
        self.path = Some(PathData::default());
        self.path_open = true;
        Ok(())
    }

    pub(crate) fn end_path(&mut self) {
        self.path_open = false;
    }

    pub(crate) fn abort_path(&mut self) {
        self.path = None;
        self.path_open = false;
    }

    pub(crate) fn close_figure(&mut self) {
        if let Some(p) = &mut self.path {
            p.close();
        }
    }

    /// FILLPATH, STROKEPATH, STROKEANDFILLPATH: draws the bracket's path and drops it.
    pub(crate) fn paint_path(&mut self, fill: bool, stroke: bool) -> Result<(), MetafileError> {
        self.path_open = false;
        if let Some(d) = self.path.take() {
            let style = self.style(fill, stroke);
            self.draw(d, style)?;
        }
        Ok(())
    }

    /// SELECTCLIPPATH: the bracket's path becomes (or limits) the clip.
    pub(crate) fn clip_path(&mut self, mode: u32) {
        self.path_open = false;
        if let Some(d) = self.path.take() {
            let evenodd = self.dc.evenodd;
            match mode {
                5 => self.dc.clip = self.canvas.clip(&d, evenodd, &None),
                1 => self.intersect_clip(&d, evenodd),
                _ => self.skipped += 1,
            }
        }
    }
}
