//! The GDI device context that the WMF and EMF players share: the object table, the mapping
//! from logical to device coordinates (window/viewport origin and extent, mapping modes, EMF's
//! world transform), saved states, styles, clipping and path brackets. The drawing operations
//! (`draw`) all land on the [`Canvas`] in device coordinates.
//!
//! - `objects` — pens, brushes, fonts and the stock objects.
//! - `draw` — lines, shapes, arcs, text and images.

mod draw;
mod objects;

pub(crate) use self::objects::{ArcKind, Brush, Font, Object, Pen, hatch_tint, stock_object};

use super::geom::{Affine, PathData, Pt, Rect};
use super::svg::{Canvas, Clip, Paint, Stroke, Style};
use super::{Budget, MAX_CLIP_DEPTH, MAX_OBJECTS, MAX_SAVED_STATES, MetafileError};

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

/// A shape being stroked line by line (MOVETO/LINETO runs), drawn as one path when something
/// else is drawn or the style changes.
pub(crate) struct Pending {
    path: PathData,
    style: Style,
    clip: Clip,
}

/// The device context, its object table and the canvas.
pub(crate) struct Gdi {
    pub dc: Dc,
    saved: Vec<Dc>,
    pub objects: Vec<Option<Object>>,
    /// Empty slots below `objects.len()`, lowest first (WMF fills the lowest).
    free: std::collections::BTreeSet<usize>,
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
            free: std::collections::BTreeSet::new(),
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
            self.free.extend(self.objects.len()..i);
            self.objects.resize(i + 1, None);
        }
        self.free.remove(&i);
        self.objects[i] = Some(obj);
        Ok(())
    }

    /// Stores an object in the lowest free slot (WMF, MS-WMF 3.1.4.1).
    pub(crate) fn add_object(&mut self, obj: Object) -> Result<(), MetafileError> {
        // A set, not a scan: a file creating thousands of objects stays linear.
        let i = self.free.first().copied().unwrap_or(self.objects.len());
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
            self.free.insert(index as usize);
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
