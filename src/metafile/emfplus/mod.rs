//! The EMF+ player (MS-EMFPLUS): GDI+ records carried in EMF comments. It keeps its own
//! object table (64 slots, objects possibly split over several records), world and page
//! transforms, saved states and clip, and draws on the EMF player's canvas. EMF+ device
//! coordinates are the reference device's pixels, the EMF's device space.
//!
//! - `objects` — brushes, pens, paths, regions, images, fonts, string formats.
//! - `geometry` — points, rectangles, curves and paths in record form.
//! - `draw` — the drawing records.

mod draw;
mod geometry;
mod objects;

use self::geometry::{bad, curve, matrix, points, rect_f, rects};
use self::objects::{PObj, Region};
use super::gdi::Gdi;
use super::geom::{Affine, PathData, Pt};
use super::reader::Reader;
use super::svg::{Clip, Paint};
use super::{MAX_CLIP_DEPTH, MAX_SAVED_STATES, MetafileError};

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
}
