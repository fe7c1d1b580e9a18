//! The EMF+ player (MS-EMFPLUS): GDI+ records carried in EMF comments. It keeps its own
//! object table (64 slots, objects possibly split over several records), world and page
//! transforms, saved states and clip, and draws on the EMF player's canvas. EMF+ device
//! coordinates are the reference device's pixels, the EMF's device space.

use std::f64::consts::TAU;

use image::RgbaImage;

use super::dib;
use super::gdi::Gdi;
use super::geom::{Affine, PathData, Pt, Rect, text_frame};
use super::reader::{Reader, utf16};
use super::svg::{Clip, Paint, Stroke, Style, TextRun};
use super::text::family_list;
use super::{MAX_CLIP_DEPTH, MAX_SAVED_STATES, MAX_TEXT_CHARS, MediaKind, MetafileError};

/// Bytes one object may gather over continuation records, at most.
const MAX_OBJECT_BYTES: usize = 64 << 20;
/// Nodes of one region, at most (regions are trees).
const MAX_REGION_NODES: usize = 1024;
/// Depth of a region tree, at most.
const MAX_REGION_DEPTH: usize = 32;

/// A GDI+ pen (MS-EMFPLUS 2.2.1.7).
#[derive(Debug, Clone)]
struct PPen {
    width: f64,
    /// GraphicsUnit of the width (0: world units).
    unit: u32,
    paint: Paint,
    /// Dash lengths in pen widths.
    dash: Vec<f64>,
    cap: &'static str,
    join: &'static str,
}

/// A GDI+ path (MS-EMFPLUS 2.2.1.6): points in world units and their PathPointType bytes.
#[derive(Debug, Clone, Default)]
struct PPath {
    pts: Vec<Pt>,
    types: Vec<u8>,
}

/// A region (MS-EMFPLUS 2.2.1.8), reduced to what a clip path can be.
#[derive(Debug, Clone)]
enum Region {
    Infinite,
    Empty,
    /// Figures in world units (paths, rectangles); unions and intersections approximated.
    Shapes(Vec<PPath>),
}

/// A GDI+ font (MS-EMFPLUS 2.2.1.3).
#[derive(Debug, Clone)]
struct PFont {
    em: f64,
    unit: u32,
    style: u32,
    family: String,
}

#[derive(Debug, Clone)]
enum PObj {
    Brush(Paint),
    Pen(PPen),
    Path(PPath),
    Region(Region),
    Bitmap(RgbaImage),
    /// A metafile drawn as SVG.
    Metafile(String),
    Font(PFont),
    /// StringAlignment and line alignment (MS-EMFPLUS 2.2.1.9).
    Format(u32, u32),
    Other,
}

/// The graphics state that Save and BeginContainer keep.
#[derive(Debug, Clone)]
struct State {
    world: Affine,
    page_unit: u32,
    page_scale: f64,
    clip: Clip,
}

/// The EMF+ playback state.
pub(crate) struct EmfPlus {
    objects: Vec<Option<PObj>>,
    /// An object gathered over continuation records: slot, type, bytes, total size.
    partial: Option<(usize, u32, Vec<u8>, usize)>,
    state: State,
    saved: Vec<(u32, State)>,
    dpi: Pt,
    header_seen: bool,
    get_dc: bool,
    /// Drawing records that could not be drawn.
    pub unsupported: usize,
}

fn unit_factor(unit: u32, dpi: f64) -> f64 {
    // GraphicsUnit (MS-EMFPLUS 2.1.1.12): device pixels per unit.
    match unit {
        3 => dpi / 72.0,
        4 => dpi,
        5 => dpi / 300.0,
        6 => dpi / 25.4,
        _ => 1.0,
    }
}

impl EmfPlus {
    pub(crate) fn new() -> EmfPlus {
        EmfPlus {
            objects: vec![None; 64],
            partial: None,
            state: State {
                world: Affine::IDENTITY,
                page_unit: 2,
                page_scale: 1.0,
                clip: None,
            },
            saved: Vec::new(),
            dpi: Pt::new(96.0, 96.0),
            header_seen: false,
            get_dc: false,
            unsupported: 0,
        }
    }

    /// Whether EMF drawing records are to be played now: before the EMF+ header, and after
    /// an EmfPlusGetDC until the next EMF+ record.
    pub(crate) fn gdi_draws(&self) -> bool {
        !self.header_seen || self.get_dc
    }

    /// World to device.
    fn matrix(&self) -> Affine {
        let s = &self.state;
        let f = unit_factor(s.page_unit, self.dpi.x) * s.page_scale;
        s.world.then(&Affine::scale(f, f))
    }

    /// Plays the EMF+ records of one comment.
    pub(crate) fn comment(&mut self, gdi: &mut Gdi, mut r: Reader) -> Result<(), MetafileError> {
        while r.remaining() >= 12 {
            let start = r.offset();
            let kind = r.u16("EMF+ record type")?;
            let flags = r.u16("EMF+ record flags")?;
            let size = r.u32("EMF+ record size")? as usize;
            let data_size = r.u32("EMF+ data size")? as usize;
            if size < 12 || size - 12 > r.remaining() || data_size > size - 12 {
                return Err(MetafileError::Malformed {
                    what: "EMF+ record",
                    offset: start,
                    reason: format!("type {kind:#x} claims {size} bytes"),
                });
            }
            let mut rec = r.sub(size - 12, "EMF+ record")?;
            let data = rec.sub(data_size, "EMF+ record data")?;
            if kind != 0x4004 {
                self.get_dc = false;
            }
            match self.record(gdi, kind, flags, data) {
                Ok(()) => {}
                Err(e @ MetafileError::Limit { .. }) => return Err(e),
                Err(_) => self.unsupported += 1,
            }
        }
        Ok(())
    }

    fn record(
        &mut self,
        gdi: &mut Gdi,
        kind: u16,
        flags: u16,
        mut r: Reader,
    ) -> Result<(), MetafileError> {
        let brush_or_color =
            |this: &Self, r: &mut Reader| -> Result<Option<Paint>, MetafileError> {
                let v = r.u32("brush")?;
                Ok(if flags & 0x8000 != 0 {
                    Some(Paint::argb(v))
                } else {
                    this.brush(v)
                })
            };
        match kind {
            0x4001 => {
                // EmfPlusHeader (2.3.3.3): version, flags, logical DPI.
                r.skip(8, "EMF+ header")?;
                let (x, y) = (r.u32("dpi")? as f64, r.u32("dpi")? as f64);
                if (10.0..=10_000.0).contains(&x) && (10.0..=10_000.0).contains(&y) {
                    self.dpi = Pt::new(x, y);
                }
                self.header_seen = true;
            }
            0x4002 => {}
            0x4004 => self.get_dc = true,
            0x4008 => self.object(gdi, flags, r)?,
            // Property records that do not change geometry.
            0x4003 | 0x4005..=0x4007 | 0x4009 | 0x401D..=0x4024 | 0x4039 | 0x403A => {}
            0x400A => {
                let paint = brush_or_color(self, &mut r)?;
                let n = r.u32("count")?;
                let rects = rects(&mut r, n, flags)?;
                let mut d = PathData::default();
                for rc in rects {
                    d.rect(rc, &self.matrix());
                }
                self.fill(gdi, d, paint, false)?
            }
            0x400B => {
                let n = r.u32("count")?;
                let rects = rects(&mut r, n, flags)?;
                let mut d = PathData::default();
                for rc in rects {
                    d.rect(rc, &self.matrix());
                }
                self.stroke(gdi, d, flags)?
            }
            0x400C => {
                let paint = brush_or_color(self, &mut r)?;
                let n = r.u32("count")?;
                let pts = points(&mut r, n, flags)?;
                let mut d = PathData::default();
                d.poly(&pts, &self.matrix(), true);
                self.fill(gdi, d, paint, true)?
            }
            0x400D => {
                let n = r.u32("count")?;
                let pts = points(&mut r, n, flags)?;
                let mut d = PathData::default();
                d.poly(&pts, &self.matrix(), flags & 0x2000 != 0);
                self.stroke(gdi, d, flags)?
            }
            0x400E | 0x400F => {
                let paint = if kind == 0x400E {
                    brush_or_color(self, &mut r)?
                } else {
                    None
                };
                let rc = rects(&mut r, 1, flags)?;
                let mut d = PathData::default();
                if let Some(&rc) = rc.first() {
                    d.ellipse(rc, &self.matrix());
                }
                if kind == 0x400E {
                    self.fill(gdi, d, paint, false)?
                } else {
                    self.stroke(gdi, d, flags)?
                }
            }
            0x4010..=0x4012 => {
                let paint = if kind == 0x4010 {
                    brush_or_color(self, &mut r)?
                } else {
                    None
                };
                let (start, sweep) = (r.f32("start angle")?, r.f32("sweep angle")?);
                let rc = rects(&mut r, 1, flags)?;
                let Some(&rc) = rc.first() else { return Ok(()) };
                let d = self.pie(rc, start, sweep, kind != 0x4012);
                match kind {
                    0x4010 => self.fill(gdi, d, paint, false)?,
                    _ => self.stroke(gdi, d, flags)?,
                }
            }
            0x4013 => {
                let paint = brush_or_color(self, &mut r)?;
                match self.objects.get((flags & 0xff) as usize) {
                    Some(Some(PObj::Region(Region::Shapes(shapes)))) => {
                        let m = self.matrix();
                        let mut d = PathData::default();
                        for s in shapes.clone() {
                            d.append(&s.build(&m));
                        }
                        self.fill(gdi, d, paint, false)?
                    }
                    Some(Some(PObj::Region(_))) => {}
                    _ => self.unsupported += 1,
                }
            }
            0x4014 | 0x4015 => {
                let path = match self.objects.get((flags & 0xff) as usize) {
                    Some(Some(PObj::Path(p))) => p.clone(),
                    _ => {
                        self.unsupported += 1;
                        return Ok(());
                    }
                };
                let d = path.build(&self.matrix());
                if kind == 0x4014 {
                    let paint = brush_or_color(self, &mut r)?;
                    self.fill(gdi, d, paint, false)?
                } else {
                    let pen = r.u32("pen")?;
                    self.stroke(gdi, d, pen as u16)?
                }
            }
            0x4016..=0x4018 => {
                let paint = if kind == 0x4016 {
                    brush_or_color(self, &mut r)?
                } else {
                    None
                };
                let tension = r.f32("tension")?;
                let (offset, segments) = if kind == 0x4018 {
                    (r.u32("offset")? as usize, Some(r.u32("segments")? as usize))
                } else {
                    (0, None)
                };
                let n = r.u32("count")?;
                let pts = points(&mut r, n, flags)?;
                let d = curve(
                    &pts,
                    tension,
                    kind != 0x4018,
                    offset,
                    segments,
                    &self.matrix(),
                );
                if kind == 0x4016 {
                    self.fill(gdi, d, paint, flags & 0x2000 == 0)?
                } else {
                    self.stroke(gdi, d, flags)?
                }
            }
            0x4019 => {
                let n = r.u32("count")?;
                let pts = points(&mut r, n, flags)?;
                let m = self.matrix();
                let mut d = PathData::default();
                if let Some((&first, rest)) = pts.split_first() {
                    d.move_to(m.apply(first));
                    for c in rest.chunks_exact(3) {
                        d.cubic_to(m.apply(c[0]), m.apply(c[1]), m.apply(c[2]));
                    }
                }
                self.stroke(gdi, d, flags)?
            }
            0x401A | 0x401B => self.draw_image(gdi, kind, flags, r)?,
            0x401C => self.draw_string(gdi, flags, r)?,
            0x4036 => self.draw_driver_string(gdi, flags, r)?,
            // Graphics state (2.3.7) and transforms (2.3.9).
            0x4025 | 0x4028 => {
                let i = r.u32("stack index")?;
                self.push(i, gdi);
            }
            0x4027 => {
                let dest = rect_f(&mut r)?;
                let src = rect_f(&mut r)?;
                let i = r.u32("stack index")?;
                self.push(i, gdi);
                if src.width() != 0.0 && src.height() != 0.0 {
                    let f = unit_factor((flags >> 8) as u32 & 0xff, self.dpi.x);
                    let t = Affine::translate(-src.x0, -src.y0)
                        .then(&Affine::scale(
                            dest.width() / src.width(),
                            dest.height() / src.height(),
                        ))
                        .then(&Affine::scale(f, f))
                        .then(&Affine::translate(dest.x0, dest.y0));
                    self.state.world = t.then(&self.state.world);
                }
            }
            0x4026 | 0x4029 => {
                let i = r.u32("stack index")?;
                if let Some(pos) = self.saved.iter().rposition(|(k, _)| *k == i) {
                    self.state = self.saved[pos].1.clone();
                    self.saved.truncate(pos);
                }
            }
            0x402A => self.state.world = matrix(&mut r)?,
            0x402B => self.state.world = Affine::IDENTITY,
            0x402C => {
                let m = matrix(&mut r)?;
                self.transform(m, flags);
            }
            0x402D => {
                let t = Affine::translate(r.f32("dx")?, r.f32("dy")?);
                self.transform(t, flags);
            }
            0x402E => {
                let t = Affine::scale(r.f32("sx")?, r.f32("sy")?);
                self.transform(t, flags);
            }
            0x402F => {
                let t = Affine::rotate(r.f32("angle")?);
                self.transform(t, flags);
            }
            0x4030 => {
                self.state.page_unit = (flags & 0xff) as u32;
                let s = r.f32("page scale")?;
                self.state.page_scale = if s > 0.0 { s } else { 1.0 };
            }
            // Clipping (2.3.1).
            0x4031 => self.state.clip = None,
            0x4032 => {
                let rc = rect_f(&mut r)?;
                let mut d = PathData::default();
                d.rect(rc, &self.matrix());
                self.set_clip(gdi, Some(d), flags);
            }
            0x4033 => {
                let d = match self.objects.get((flags & 0xff) as usize) {
                    Some(Some(PObj::Path(p))) => Some(p.build(&self.matrix())),
                    _ => return Err(bad("clip path", "no such path")),
                };
                self.set_clip(gdi, d, flags);
            }
            0x4034 => {
                let d = match self.objects.get((flags & 0xff) as usize) {
                    Some(Some(PObj::Region(Region::Infinite))) => None,
                    Some(Some(PObj::Region(Region::Empty))) => Some(PathData::default()),
                    Some(Some(PObj::Region(Region::Shapes(s)))) => {
                        let m = self.matrix();
                        let mut d = PathData::default();
                        for p in s {
                            d.append(&p.build(&m));
                        }
                        Some(d)
                    }
                    _ => return Err(bad("clip region", "no such region")),
                };
                self.set_clip(gdi, d, flags);
            }
            0x4035 => {}
            _ => self.unsupported += 1,
        }
        Ok(())
    }

    fn push(&mut self, index: u32, gdi: &mut Gdi) {
        if self.saved.len() < MAX_SAVED_STATES {
            self.saved.push((index, self.state.clone()));
        } else {
            gdi.skipped += 1;
        }
    }

    /// Multiplies the world transform: after it with flag A (0x2000, append), else before.
    fn transform(&mut self, m: Affine, flags: u16) {
        let w = self.state.world;
        self.state.world = if flags & 0x2000 != 0 {
            w.then(&m)
        } else {
            m.then(&w)
        };
    }

    /// Applies a CombineMode (2.1.1.4) with `shape` (`None`: everything).
    fn set_clip(&mut self, gdi: &mut Gdi, shape: Option<PathData>, flags: u16) {
        let mode = (flags >> 8) & 0x0f;
        match (mode, shape) {
            (0, None) => self.state.clip = None,
            (0, Some(d)) => self.state.clip = gdi.canvas.clip(&d, false, &None),
            (1, None) => {}
            (1, Some(d)) => {
                let parent = match &self.state.clip {
                    Some(c) if c.depth() >= MAX_CLIP_DEPTH => None,
                    other => other.clone(),
                };
                self.state.clip = gdi.canvas.clip(&d, false, &parent);
            }
            (2, _) if self.state.clip.is_none() => {}
            _ => gdi.skipped += 1,
        }
    }

    fn brush(&self, id: u32) -> Option<Paint> {
        match self.objects.get(id as usize) {
            Some(Some(PObj::Brush(p))) => Some(*p),
            _ => None,
        }
    }

    fn fill(
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
    fn stroke(&mut self, gdi: &mut Gdi, d: PathData, flags: u16) -> Result<(), MetafileError> {
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
    fn pie(&self, rc: Rect, start: f64, sweep: f64, closed: bool) -> PathData {
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

    fn object(&mut self, gdi: &mut Gdi, flags: u16, mut r: Reader) -> Result<(), MetafileError> {
        let id = (flags & 0xff) as usize;
        let kind = ((flags >> 8) & 0x7f) as u32;
        if id >= 64 {
            return Err(bad("object", "index past 63"));
        }
        let data: Vec<u8>;
        let bytes: &[u8] = if flags & 0x8000 != 0 {
            // Continued object (2.3.5.1): TotalObjectSize, then this part.
            let total = r.u32("object total size")? as usize;
            let part = r.bytes(r.remaining(), "object part")?;
            let mut buf = match self.partial.take() {
                Some((i, k, buf, _)) if i == id && k == kind => buf,
                _ => Vec::new(),
            };
            if total > MAX_OBJECT_BYTES || buf.len() + part.len() > MAX_OBJECT_BYTES {
                return Err(MetafileError::Limit {
                    what: "EMF+ object bytes",
                    limit: MAX_OBJECT_BYTES as u64,
                });
            }
            buf.extend_from_slice(part);
            if buf.len() < total {
                self.partial = Some((id, kind, buf, total));
                return Ok(());
            }
            data = buf;
            &data
        } else {
            self.partial = None;
            r.data()
        };
        let mut r = Reader::new(bytes, 0);
        let obj = match kind {
            1 => PObj::Brush(read_brush(&mut r)?),
            2 => PObj::Pen(read_pen(&mut r)?),
            3 => PObj::Path(read_path(&mut r)?),
            4 => {
                r.skip(4, "region version")?;
                let n = r.u32("region node count")? as usize;
                let mut budget = n.min(MAX_REGION_NODES) + 1;
                PObj::Region(read_region(&mut r, 0, &mut budget)?)
            }
            5 => read_image(&mut r, gdi)?,
            6 => {
                r.skip(4, "font version")?;
                let em = r.f32("font size")?;
                let unit = r.u32("font unit")?;
                let style = r.u32("font style")?;
                r.skip(4, "reserved")?;
                let n = r.u32("family length")? as usize;
                let family = utf16(r.bytes((n * 2).min(r.remaining()), "family")?);
                PObj::Font(PFont {
                    em,
                    unit,
                    style,
                    family,
                })
            }
            7 => {
                r.skip(12, "string format")?;
                PObj::Format(r.u32("string alignment")?, r.u32("line alignment")?)
            }
            _ => PObj::Other,
        };
        self.objects[id] = Some(obj);
        Ok(())
    }

    fn draw_image(
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
    fn text_style(font: &PFont, paint: Paint) -> TextRun {
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
    fn em_world(&self, font: &PFont) -> f64 {
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
    fn draw_string(
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
    fn draw_driver_string(
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

fn bad(what: &'static str, reason: &str) -> MetafileError {
    MetafileError::Malformed {
        what,
        offset: 0,
        reason: reason.to_string(),
    }
}

fn matrix(r: &mut Reader) -> Result<Affine, MetafileError> {
    Ok(Affine::new(
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
        r.f32("matrix")?,
    ))
}

fn rect_f(r: &mut Reader) -> Result<Rect, MetafileError> {
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
fn rects(r: &mut Reader, n: u32, flags: u16) -> Result<Vec<Rect>, MetafileError> {
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
fn int_r(r: &mut Reader) -> Result<f64, MetafileError> {
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
fn points(r: &mut Reader, n: u32, flags: u16) -> Result<Vec<Pt>, MetafileError> {
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
fn curve(
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
    fn build(&self, m: &Affine) -> PathData {
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

fn read_argb(r: &mut Reader) -> Result<Paint, MetafileError> {
    Ok(Paint::argb(r.u32("colour")?))
}

/// EmfPlusBrush (2.2.1.1): solid and hatch colours; gradients by their mean colour.
fn read_brush(r: &mut Reader) -> Result<Paint, MetafileError> {
    r.skip(4, "brush version")?;
    Ok(match r.u32("brush type")? {
        0 => read_argb(r)?,
        1 => {
            r.skip(4, "hatch style")?;
            read_argb(r)?
        }
        3 => {
            r.skip(8, "gradient flags")?;
            read_argb(r)?
        }
        4 => {
            r.skip(8 + 16, "gradient flags and rectangle")?;
            let (a, b) = (r.u32("colour")?, r.u32("colour")?);
            let mix = |s: u32| (((a >> s) & 0xff) + ((b >> s) & 0xff)) / 2;
            Paint::argb((mix(24) << 24) | (mix(16) << 16) | (mix(8) << 8) | mix(0))
        }
        _ => Paint {
            rgb: 0x80_8080,
            opacity: 1.0,
        },
    })
}

/// EmfPlusPen (2.2.1.7) with its optional data (2.2.2.25) and brush.
fn read_pen(r: &mut Reader) -> Result<PPen, MetafileError> {
    r.skip(8, "pen version and type")?;
    let flags = r.u32("pen flags")?;
    let unit = r.u32("pen unit")?;
    let width = r.f32("pen width")?.abs();
    let mut cap = "butt";
    let mut join = "miter";
    let mut style = 0;
    let mut custom = Vec::new();
    if flags & 0x01 != 0 {
        r.skip(24, "pen transform")?;
    }
    if flags & 0x02 != 0 {
        cap = match r.i32("start cap")? {
            1 => "square",
            2 => "round",
            _ => "butt",
        };
    }
    if flags & 0x04 != 0 {
        r.skip(4, "end cap")?;
    }
    if flags & 0x08 != 0 {
        join = match r.u32("line join")? {
            1 => "bevel",
            2 => "round",
            _ => "miter",
        };
    }
    if flags & 0x10 != 0 {
        r.skip(4, "miter limit")?;
    }
    if flags & 0x20 != 0 {
        style = r.i32("line style")?;
    }
    if flags & 0x40 != 0 {
        r.skip(4, "dash cap")?;
    }
    if flags & 0x80 != 0 {
        r.skip(4, "dash offset")?;
    }
    if flags & 0x100 != 0 {
        let n = r.u32("dash count")?;
        let n = r.count(n, 4, "dashes")?;
        for _ in 0..n {
            custom.push(r.f32("dash")?.abs());
        }
    }
    if flags & 0x200 != 0 {
        r.skip(4, "alignment")?;
    }
    if flags & 0x400 != 0 {
        let n = r.u32("compound count")?;
        let n = r.count(n, 4, "compound line")?;
        r.skip(n * 4, "compound line")?;
    }
    for bit in [0x800, 0x1000] {
        if flags & bit != 0 {
            let n = r.u32("custom cap size")? as usize;
            r.skip(n, "custom cap")?;
        }
    }
    let paint = read_brush(r)?;
    let dash = match style {
        1 => vec![3.0, 1.0],
        2 => vec![1.0, 1.0],
        3 => vec![3.0, 1.0, 1.0, 1.0],
        4 => vec![3.0, 1.0, 1.0, 1.0, 1.0, 1.0],
        5 if custom.iter().any(|&v| v > 0.0) => custom,
        _ => Vec::new(),
    };
    Ok(PPen {
        width,
        unit,
        paint,
        dash,
        cap,
        join,
    })
}

/// EmfPlusPath (2.2.1.6).
fn read_path(r: &mut Reader) -> Result<PPath, MetafileError> {
    r.skip(4, "path version")?;
    let n = r.u32("path point count")?;
    let flags = r.u32("path flags")?;
    let pts = points(r, n, (flags & 0xffff) as u16)?;
    let mut types = Vec::with_capacity(pts.len());
    if flags & 0x1000 != 0 {
        // Run-length encoded types (2.2.2.32): a count byte (low 6 bits), then the type.
        while types.len() < pts.len() && r.remaining() >= 2 {
            let run = (r.u8("type run")? & 0x3f) as usize;
            let t = r.u8("point type")?;
            types.extend(std::iter::repeat_n(t, run.min(pts.len() - types.len())));
        }
    } else {
        let b = r.bytes(pts.len().min(r.remaining()), "point types")?;
        types.extend_from_slice(b);
    }
    Ok(PPath { pts, types })
}

/// A region node (2.2.2.40), recursively, within a node budget and depth.
fn read_region(r: &mut Reader, depth: usize, budget: &mut usize) -> Result<Region, MetafileError> {
    if depth > MAX_REGION_DEPTH || *budget == 0 {
        return Err(MetafileError::Limit {
            what: "region nodes",
            limit: MAX_REGION_NODES as u64,
        });
    }
    *budget -= 1;
    Ok(match r.u32("region node type")? {
        0x1000_0000 => {
            let rc = rect_f(r)?;
            let pts = vec![
                Pt::new(rc.x0, rc.y0),
                Pt::new(rc.x1, rc.y0),
                Pt::new(rc.x1, rc.y1),
                Pt::new(rc.x0, rc.y1),
            ];
            Region::Shapes(vec![PPath {
                pts,
                types: vec![0, 1, 1, 0x81],
            }])
        }
        0x1000_0001 => {
            let n = r.u32("region path size")? as usize;
            let mut sub = r.sub(n.min(r.remaining()), "region path")?;
            Region::Shapes(vec![read_path(&mut sub)?])
        }
        0x1000_0002 => Region::Empty,
        0x1000_0003 => Region::Infinite,
        kind @ 1..=5 => {
            let left = read_region(r, depth + 1, budget)?;
            let right = read_region(r, depth + 1, budget)?;
            match (kind, left, right) {
                // Intersect (1) with everything, union (2) with nothing: the other side.
                (1, Region::Infinite, x) | (1, x, Region::Infinite) => x,
                (2, Region::Empty, x) | (2, x, Region::Empty) => x,
                (2, Region::Shapes(mut a), Region::Shapes(b)) => {
                    a.extend(b);
                    Region::Shapes(a)
                }
                // Exclusions and intersections of shapes: the first shape, approximately.
                (_, x, _) => x,
            }
        }
        0 => {
            let left = read_region(r, depth + 1, budget)?;
            let _ = read_region(r, depth + 1, budget)?;
            left
        }
        other => return Err(bad("region node", &format!("type {other:#x}"))),
    })
}

/// EmfPlusImage (2.2.1.4): a bitmap (pixels or an encoded file) or a metafile.
fn read_image(r: &mut Reader, gdi: &mut Gdi) -> Result<PObj, MetafileError> {
    r.skip(4, "image version")?;
    match r.u32("image type")? {
        1 => {
            let (w, h) = (r.i32("width")?, r.i32("height")?);
            let stride = r.i32("stride")? as i64;
            let format = r.u32("pixel format")?;
            let compressed = r.u32("bitmap type")? == 1;
            let data = r.bytes(r.remaining(), "bitmap data")?;
            let img = if compressed {
                dib::decode_file(data, &mut gdi.budget)?
            } else {
                if w <= 0 || h <= 0 {
                    return Err(bad("bitmap", "empty"));
                }
                dib::decode_gdiplus_pixels(
                    w as u32,
                    h as u32,
                    stride,
                    format,
                    data,
                    &mut gdi.budget,
                )?
            };
            Ok(PObj::Bitmap(img))
        }
        2 => {
            let kind = r.u32("metafile type")?;
            let n = r.u32("metafile size")? as usize;
            let data = r.bytes(n.min(r.remaining()), "metafile")?;
            let media = if kind <= 2 {
                MediaKind::Wmf
            } else {
                MediaKind::Emf
            };
            let mut budget = gdi.budget.clone();
            budget.depth += 1;
            let svg = super::to_svg_within(data, media, &mut budget)?;
            gdi.budget.pixels = budget.pixels;
            Ok(PObj::Metafile(svg.text))
        }
        _ => Ok(PObj::Other),
    }
}
