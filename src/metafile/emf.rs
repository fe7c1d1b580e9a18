//! The EMF player (MS-EMF): the header, then EMR_* records played on the shared device
//! context. EMF+ records ride in EMR_COMMENT (MS-EMFPLUS 2.3); when a file has them they are
//! played and the EMF drawing records, GDI+'s fallback, are skipped, except after an
//! EmfPlusGetDC, which hands drawing back to EMF. When the EMF+ records cannot all be drawn
//! and the file is "dual" (its EMF records draw the whole picture too), the EMF records are
//! played instead.

use super::dib::{self, SrcRect};
use super::emfplus::EmfPlus;
use super::gdi::{ArcKind, Brush, Font, Gdi, Object, Pen};
use super::geom::{Affine, Pt, Rect};
use super::reader::{Reader, utf16};
use super::text::ansi;
use super::{Budget, MAX_RECORDS, MAX_SVG_BYTES, MetafileError, Svg};

/// Malformed records tolerated (skipped) before the whole file is refused.
const MAX_MALFORMED: usize = 8;

/// The parts of the header (MS-EMF 2.2.9) that place the picture.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Header {
    /// Where the records start.
    pub size: usize,
    /// The frame in device units: the view box.
    pub view: Option<Rect>,
    /// The frame's size in CSS pixels.
    pub width: f64,
    pub height: f64,
    pub px_per_mm: Pt,
}

fn header(bytes: &[u8]) -> Result<Header, MetafileError> {
    let not = |reason: &str| MetafileError::NotMetafile {
        kind: "EMF",
        reason: reason.to_string(),
    };
    let mut r = Reader::new(bytes, 0);
    if r.u32("EMF header type").map_err(|_| not("too short"))? != 1 {
        return Err(not("the first record is not EMR_HEADER"));
    }
    let size = r.u32("EMF header size")? as usize;
    if size < 88 || size > bytes.len() {
        return Err(not("header size out of range"));
    }
    let rect = |r: &mut Reader| -> Result<[i32; 4], MetafileError> {
        Ok([
            r.i32("rectangle")?,
            r.i32("rectangle")?,
            r.i32("rectangle")?,
            r.i32("rectangle")?,
        ])
    };
    let bounds = rect(&mut r)?;
    let frame = rect(&mut r)?;
    if r.u32("EMF signature")? != 0x464D_4520 {
        return Err(not("no \" EMF\" signature"));
    }
    r.seek(72, "EMF header")?;
    let dev = (r.i32("device size")? as f64, r.i32("device size")? as f64);
    let mm = (
        r.i32("device millimetres")? as f64,
        r.i32("device millimetres")? as f64,
    );
    let ppmm = |d: f64, m: f64| {
        if d > 0.0 && m > 0.0 && (0.5..=1000.0).contains(&(d / m)) {
            d / m
        } else {
            96.0 / 25.4
        }
    };
    let px_per_mm = Pt::new(ppmm(dev.0, mm.0), ppmm(dev.1, mm.1));
    // The frame (inclusive, .01 mm) in device units; the bounds (inclusive, device units)
    // when the frame is empty.
    let f = frame.map(|v| v as f64 / 100.0);
    let (fw, fh) = (f[2] - f[0], f[3] - f[1]);
    let css = 96.0 / 25.4;
    let b = bounds.map(|v| v as f64);
    let (bw, bh) = (b[2] - b[0] + 1.0, b[3] - b[1] + 1.0);
    let by_bounds = (bw > 1.0 && bh > 1.0).then(|| {
        let v = Rect {
            x0: b[0],
            y0: b[1],
            x1: b[2] + 1.0,
            y1: b[3] + 1.0,
        };
        (Some(v), bw / px_per_mm.x * css, bh / px_per_mm.y * css)
    });
    let by_frame = (fw > 0.0 && fh > 0.0).then(|| {
        let v = Rect {
            x0: f[0] * px_per_mm.x,
            y0: f[1] * px_per_mm.y,
            x1: f[2] * px_per_mm.x,
            y1: f[3] * px_per_mm.y,
        };
        (Some(v), fw * css, fh * css)
    });
    // The frame places the picture, but some writers put it where nothing is drawn (the
    // bounds, where everything is, lie mostly outside it): the bounds are right then.
    let frame_misses = match (&by_frame, &by_bounds) {
        (Some((Some(fr), ..)), Some((Some(bd), ..))) => {
            let ix = (fr.x1.min(bd.x1) - fr.x0.max(bd.x0)).max(0.0);
            let iy = (fr.y1.min(bd.y1) - fr.y0.max(bd.y0)).max(0.0);
            ix * iy < 0.5 * bd.width() * bd.height()
        }
        _ => false,
    };
    let (view, width, height) = match (by_frame, by_bounds) {
        (Some(_), Some(bd)) if frame_misses => bd,
        (Some(fr), _) => fr,
        (None, Some(bd)) => bd,
        (None, None) => (None, 0.0, 0.0),
    };
    Ok(Header {
        size,
        view,
        width,
        height,
        px_per_mm,
    })
}

/// Whether the file has an EMF+ header comment among its first records, and whether that
/// header says "dual" (MS-EMFPLUS 2.3.3.3: flag 0x0001 of the record).
fn emf_plus_header(bytes: &[u8], start: usize) -> Option<bool> {
    let mut off = start;
    for _ in 0..4 {
        let rec = bytes.get(off..off + 8)?;
        let kind = u32::from_le_bytes([rec[0], rec[1], rec[2], rec[3]]);
        let size = u32::from_le_bytes([rec[4], rec[5], rec[6], rec[7]]) as usize;
        if kind == 70 && bytes.get(off + 12..off + 16) == Some(b"EMF+") {
            let t = bytes.get(off + 16..off + 20)?;
            if u16::from_le_bytes([t[0], t[1]]) == 0x4001 {
                return Some(t[2] & 1 != 0);
            }
        }
        if size < 8 {
            return None;
        }
        off = off.checked_add(size)?;
    }
    None
}

/// Plays an EMF into SVG.
pub(crate) fn play(bytes: &[u8], budget: &mut Budget) -> Result<Svg, MetafileError> {
    let head = header(bytes)?;
    if let Some(dual) = emf_plus_header(bytes, head.size) {
        let mut b = budget.clone();
        match play_records(bytes, &head, true, &mut b) {
            Ok((svg, unsupported)) if unsupported == 0 || !dual => {
                *budget = b;
                return Ok(svg);
            }
            Err(e) if !dual => return Err(e),
            // Dual: the EMF records draw it all; better them than a part.
            _ => {}
        }
    }
    play_records(bytes, &head, false, budget).map(|(svg, _)| svg)
}

/// Plays the records; with `plus`, EMF+ comments too. Returns the SVG and how many EMF+
/// drawing records could not be drawn.
fn play_records(
    bytes: &[u8],
    head: &Header,
    plus: bool,
    budget: &mut Budget,
) -> Result<(Svg, usize), MetafileError> {
    let mut gdi = Gdi::new(budget.clone(), MAX_SVG_BYTES);
    gdi.px_per_mm = head.px_per_mm;
    if let Some(v) = head.view {
        if head.width > 0.0 {
            gdi.hairline = (v.width() / head.width).abs().max(1e-6);
        }
    }
    let mut emfplus = plus.then(EmfPlus::new);
    let mut off = head.size;
    let mut records = 0usize;
    let mut malformed = 0usize;
    let mut first_error = None;
    while off + 8 <= bytes.len() {
        records += 1;
        if records > MAX_RECORDS {
            return Err(MetafileError::Limit {
                what: "records",
                limit: MAX_RECORDS as u64,
            });
        }
        let mut r = Reader::new(&bytes[off..], off);
        let kind = r.u32("record type")?;
        let size = r.u32("record size")? as usize;
        if size < 8 || size > bytes.len() - off {
            return Err(MetafileError::Malformed {
                what: "EMF record",
                offset: off,
                reason: format!(
                    "type {kind} claims {size} bytes, {} left",
                    bytes.len() - off
                ),
            });
        }
        if kind == 14 {
            break;
        }
        let body = Reader::new(&bytes[off + 8..off + size], off + 8);
        match record(&mut gdi, emfplus.as_mut(), kind, body) {
            Ok(()) => {}
            Err(e @ MetafileError::Limit { .. }) => return Err(e),
            Err(e) => {
                malformed += 1;
                gdi.skipped += 1;
                let e = match e {
                    MetafileError::Bitmap(reason) => MetafileError::Malformed {
                        what: "EMF record",
                        offset: off,
                        reason: format!("type {kind:#x}: bitmap: {reason}"),
                    },
                    e => e,
                };
                if malformed > MAX_MALFORMED {
                    return Err(e);
                }
                first_error.get_or_insert(e);
            }
        }
        off += size;
    }
    gdi.flush()?;
    // Malformed records and nothing drawn: a broken file, not an empty picture.
    if let (0, Some(e)) = (gdi.canvas.elements, first_error) {
        return Err(e);
    }
    let unsupported = emfplus.as_ref().map_or(0, |p| p.unsupported);
    *budget = gdi.budget.clone();
    let skipped = gdi.skipped + unsupported;
    let texts = gdi.canvas.texts;
    let (view, width, height) = match head.view {
        Some(v) => (v, head.width, head.height),
        None => {
            let b = gdi.canvas.bbox().ok_or(MetafileError::Empty)?;
            let s = 96.0 / 25.4 / head.px_per_mm.x;
            (b, b.width() * s, b.height() * s)
        }
    };
    if !(view.width() > 0.0 && view.height() > 0.0) {
        return Err(MetafileError::Empty);
    }
    let text = gdi.canvas.finish(view, width, height);
    Ok((
        Svg {
            text,
            width,
            height,
            skipped,
            texts,
        },
        unsupported,
    ))
}

fn point32(r: &mut Reader) -> Result<Pt, MetafileError> {
    Ok(Pt::new(r.i32("point")? as f64, r.i32("point")? as f64))
}

fn rectl(r: &mut Reader) -> Result<Rect, MetafileError> {
    let (x0, y0) = (r.i32("rectangle")? as f64, r.i32("rectangle")? as f64);
    let (x1, y1) = (r.i32("rectangle")? as f64, r.i32("rectangle")? as f64);
    Ok(Rect { x0, y0, x1, y1 })
}

fn points(r: &mut Reader, n: usize, small: bool) -> Result<Vec<Pt>, MetafileError> {
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
fn poly_poly(r: &mut Reader, small: bool) -> Result<Vec<Vec<Pt>>, MetafileError> {
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

fn xform(r: &mut Reader) -> Result<Affine, MetafileError> {
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
fn log_font(r: &mut Reader) -> Result<Font, MetafileError> {
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
fn region(r: &mut Reader, size: usize) -> Result<Vec<Rect>, MetafileError> {
    let mut rr = r.sub(size.min(r.remaining()), "region")?;
    // The header's dwSize is 32; some writers put other values there: not checked.
    rr.skip(8, "region header")?;
    let n = rr.u32("region rectangle count")?;
    rr.skip(20, "region header")?;
    let n = rr.count(n, 16, "region rectangles")?;
    (0..n).map(|_| rectl(&mut rr)).collect()
}

/// Decodes the bitmap a blit record carries at `off_bmi`/`off_bits` (offsets from the
/// record's start) to PNG, cropped to `src`.
fn blit_png(
    gdi: &mut Gdi,
    r: &Reader,
    offs: [u32; 4],
    src: SrcRect,
    dib_origin_bottom: bool,
) -> Result<Vec<u8>, MetafileError> {
    let [off_bmi, cb_bmi, off_bits, cb_bits] = offs.map(|v| v as usize);
    let bmi = r.slice_at(off_bmi.saturating_sub(8), cb_bmi, "bitmap header")?;
    let bits = r.slice_at(off_bits.saturating_sub(8), cb_bits, "bitmap bits")?;
    let img = dib::decode_dib(bmi, bits, &mut gdi.budget)?;
    let bottom_up = dib_origin_bottom && bmi.get(8..12).is_some_and(|h| h[3] & 0x80 == 0);
    dib::png(&dib::crop(img, src, bottom_up))
}

/// Plays one record.
fn record(
    gdi: &mut Gdi,
    plus: Option<&mut EmfPlus>,
    kind: u32,
    mut r: Reader,
) -> Result<(), MetafileError> {
    // In EMF+ playback the EMF drawing records are GDI+'s fallback: skipped unless GetDC
    // handed drawing to EMF.
    let emf_draws = plus.as_ref().is_none_or(|p| p.gdi_draws());
    let drawing = matches!(
        kind,
        2..=8 | 15 | 41..=47 | 54..=56 | 62..=64 | 71..=74 | 76..=81 | 83..=92 | 96 | 97
            | 108 | 114 | 116 | 118
    );
    if drawing && !emf_draws {
        if matches!(kind, 27 | 54 | 6 | 89 | 5 | 88 | 55) {
            // Keep the current position right for a later GetDC.
        }
        return Ok(());
    }
    match kind {
        // Drawing: lines and shapes (MS-EMF 2.3.5).
        2 | 85 => {
            r.skip(16, "bounds")?;
            let n = r.u32("count")? as usize;
            gdi.bezier(&points(&mut r, n, kind == 85)?, false)?
        }
        3 | 86 | 4 | 87 => {
            r.skip(16, "bounds")?;
            let n = r.u32("count")? as usize;
            gdi.poly(&points(&mut r, n, kind >= 85)?, kind == 3 || kind == 86)?
        }
        5 | 88 => {
            r.skip(16, "bounds")?;
            let n = r.u32("count")? as usize;
            gdi.bezier(&points(&mut r, n, kind == 88)?, true)?
        }
        6 | 89 => {
            r.skip(16, "bounds")?;
            let n = r.u32("count")? as usize;
            gdi.poly_to(&points(&mut r, n, kind == 89)?)?
        }
        7 | 90 => gdi.poly_poly(&poly_poly(&mut r, kind == 90)?, false)?,
        8 | 91 => gdi.poly_poly(&poly_poly(&mut r, kind == 91)?, true)?,
        15 => {
            let p = point32(&mut r)?;
            let color = r.u32("colour")?;
            let m = gdi.matrix().mean_scale().max(1e-9);
            let s = gdi.hairline / m;
            gdi.fill_rect(
                Rect {
                    x0: p.x,
                    y0: p.y,
                    x1: p.x + s,
                    y1: p.y + s,
                },
                color,
            )?
        }
        27 => {
            let p = point32(&mut r)?;
            gdi.move_to(p)
        }
        54 => {
            let p = point32(&mut r)?;
            gdi.line_to(p)?
        }
        41 => {
            // ANGLEARC: a line to the arc's start, then the arc, counterclockwise.
            let c = point32(&mut r)?;
            let radius = r.u32("radius")? as f64;
            let (start, sweep) = (r.f32("angle")?, r.f32("angle")?);
            let s = Pt::new(
                c.x + radius * start.to_radians().cos(),
                c.y - radius * start.to_radians().sin(),
            );
            gdi.line_to(s)?;
            let e = (start + sweep).to_radians();
            let end = Pt::new(c.x + radius * e.cos(), c.y - radius * e.sin());
            let bx = Rect {
                x0: c.x - radius,
                y0: c.y - radius,
                x1: c.x + radius,
                y1: c.y + radius,
            };
            let saved = gdi.dc.arc_clockwise;
            gdi.dc.arc_clockwise = sweep < 0.0;
            if sweep.abs() > 0.0 {
                gdi.arc(ArcKind::ArcTo, bx, s, end)?;
            }
            gdi.dc.arc_clockwise = saved;
            gdi.dc.cur = end;
        }
        42 => gdi.ellipse(rectl(&mut r)?)?,
        43 => gdi.rectangle(rectl(&mut r)?)?,
        44 => {
            let b = rectl(&mut r)?;
            let (w, h) = (r.i32("corner")? as f64, r.i32("corner")? as f64);
            gdi.round_rect(b, w, h)?
        }
        45..=47 | 55 => {
            let b = rectl(&mut r)?;
            let (s, e) = (point32(&mut r)?, point32(&mut r)?);
            let k = match kind {
                45 => ArcKind::Arc,
                46 => ArcKind::Chord,
                47 => ArcKind::Pie,
                _ => ArcKind::ArcTo,
            };
            gdi.arc(k, b, s, e)?
        }
        // Paths (MS-EMF 2.3.10).
        59 => gdi.begin_path()?,
        60 => gdi.end_path(),
        61 => gdi.close_figure(),
        62 => gdi.paint_path(true, false)?,
        63 => gdi.paint_path(true, true)?,
        64 => gdi.paint_path(false, true)?,
        68 => gdi.abort_path(),
        65 | 66 => {}
        67 => {
            let mode = r.u32("clip mode")?;
            gdi.clip_path(mode)
        }
        // Regions.
        71 | 74 => {
            r.skip(16, "bounds")?;
            let size = r.u32("region size")? as usize;
            let color = if kind == 71 {
                let ih = r.u32("brush")?;
                match gdi.objects.get(ih as usize).cloned().flatten() {
                    Some(Object::Brush(b)) => b.color,
                    _ => gdi.dc.brush.color,
                }
            } else {
                gdi.dc.brush.color
            };
            for rect in region(&mut r, size)? {
                // Region rectangles are in device units.
                let m = gdi.matrix().invert().unwrap_or(Affine::IDENTITY);
                let (a, b) = (
                    m.apply(Pt::new(rect.x0, rect.y0)),
                    m.apply(Pt::new(rect.x1, rect.y1)),
                );
                gdi.fill_rect(
                    Rect {
                        x0: a.x,
                        y0: a.y,
                        x1: b.x,
                        y1: b.y,
                    },
                    color,
                )?;
            }
        }
        // Bitmaps (MS-EMF 2.3.1).
        76 | 77 | 114 | 116 => {
            r.skip(16, "bounds")?;
            let dest = point32(&mut r)?;
            let size = point32(&mut r)?;
            let rop = r.u32("raster operation")?;
            let src = point32(&mut r)?;
            r.skip(24 + 4 + 4, "source transform")?;
            let offs = [
                r.u32("bitmap offset")?,
                r.u32("bitmap size")?,
                r.u32("bits offset")?,
                r.u32("bits size")?,
            ];
            let src_size = if kind == 76 { size } else { point32(&mut r)? };
            if offs[1] == 0 {
                // No bitmap: a pattern blit with the brush (MS-WMF 2.1.1.31 ternary ROPs).
                let color = match rop {
                    0x00F0_0021 => gdi.dc.brush.visible.then_some(gdi.dc.brush.color),
                    0x0000_0042 => Some(0),
                    0x00FF_0062 => Some(0xff_ffff),
                    _ => None,
                };
                if let Some(c) = color {
                    let rect = Rect {
                        x0: dest.x,
                        y0: dest.y,
                        x1: dest.x + size.x,
                        y1: dest.y + size.y,
                    };
                    gdi.fill_rect(rect, c)?;
                }
                return Ok(());
            }
            // SRCAND is the mask pass of a transparent blit: the picture comes with the next.
            if (kind == 76 || kind == 77) && rop == 0x0088_00C6 {
                return Ok(());
            }
            let png = blit_png(
                gdi,
                &r,
                offs,
                (
                    src.x as i64,
                    src.y as i64,
                    src_size.x as i64,
                    src_size.y as i64,
                ),
                false,
            )?;
            gdi.image(&png, dest, size)?
        }
        80 | 81 => {
            r.skip(16, "bounds")?;
            let dest = point32(&mut r)?;
            let src = point32(&mut r)?;
            let src_size = point32(&mut r)?;
            let offs = [
                r.u32("bitmap offset")?,
                r.u32("bitmap size")?,
                r.u32("bits offset")?,
                r.u32("bits size")?,
            ];
            let _usage = r.u32("colour usage")?;
            let size = if kind == 81 {
                let rop = r.u32("raster operation")?;
                if rop == 0x0088_00C6 {
                    return Ok(());
                }
                point32(&mut r)?
            } else {
                src_size
            };
            let crop = (
                src.x as i64,
                src.y as i64,
                src_size.x as i64,
                src_size.y as i64,
            );
            let png = blit_png(gdi, &r, offs, crop, true)?;
            gdi.image(&png, dest, size)?
        }
        // Text (MS-EMF 2.3.5.7-8, 2.3.5.37).
        83 | 84 => ext_text_out(gdi, &mut r, kind == 84)?,
        108 => {
            let at = point32(&mut r)?;
            let n = r.u32("character count")? as usize;
            let options = r.u32("text options")?;
            r.skip(12, "graphics mode and scales")?;
            if options & 0x100 == 0 {
                r.skip(16, "text rectangle")?;
            }
            let text = if options & 0x200 != 0 {
                ansi(r.bytes(n.min(r.remaining()), "text")?)
            } else {
                utf16(r.bytes((n * 2).min(r.remaining()), "text")?)
            };
            gdi.text(at, &text, None)?
        }
        118 => gradient_fill(gdi, &mut r)?,
        // Objects (MS-EMF 2.3.7).
        37 => {
            let ih = r.u32("object index")?;
            gdi.select(ih)
        }
        40 => {
            let ih = r.u32("object index")?;
            gdi.delete(ih)
        }
        38 => {
            let ih = r.u32("object index")?;
            let style = r.u32("pen style")?;
            let width = r.i32("pen width")? as f64;
            r.skip(4, "pen width y")?;
            let color = r.u32("pen colour")?;
            gdi.put_object(
                ih,
                Object::Pen(Pen {
                    style,
                    width,
                    color,
                }),
            )?
        }
        95 => {
            let ih = r.u32("object index")?;
            r.skip(16, "pen bitmap")?;
            let mut style = r.u32("pen style")?;
            let width = r.u32("pen width")? as f64;
            let brush_style = r.u32("pen brush style")?;
            let color = r.u32("pen colour")?;
            if brush_style == 1 {
                style = (style & !0x0f) | 5;
            }
            // A cosmetic pen is one pixel wide whatever its width says.
            let width = if style & 0x0001_0000 != 0 { width } else { 0.0 };
            gdi.put_object(
                ih,
                Object::Pen(Pen {
                    style,
                    width,
                    color,
                }),
            )?
        }
        39 => {
            let ih = r.u32("object index")?;
            let style = r.u32("brush style")?;
            let color = r.u32("brush colour")?;
            let visible = style != 1;
            gdi.put_object(ih, Object::Brush(Brush { visible, color }))?
        }
        93 | 94 => {
            let ih = r.u32("object index")?;
            let _usage = r.u32("colour usage")?;
            let offs = [
                r.u32("bitmap offset")?,
                r.u32("bitmap size")?,
                r.u32("bits offset")?,
                r.u32("bits size")?,
            ];
            let [ob, cb, ox, cx] = offs.map(|v| v as usize);
            let color = r
                .slice_at(ob.saturating_sub(8), cb, "pattern")
                .and_then(|bmi| {
                    let bits = r.slice_at(ox.saturating_sub(8), cx, "pattern bits")?;
                    dib::decode_dib(bmi, bits, &mut gdi.budget)
                })
                .map(|img| dib::mean_colorref(&img))
                .unwrap_or(0x80_8080);
            gdi.put_object(
                ih,
                Object::Brush(Brush {
                    visible: true,
                    color,
                }),
            )?
        }
        82 => {
            let ih = r.u32("object index")?;
            let font = log_font(&mut r)?;
            gdi.put_object(ih, Object::Font(font))?
        }
        49 | 99 | 122 => {
            let ih = r.u32("object index")?;
            gdi.put_object(ih, Object::Other)?
        }
        // State (MS-EMF 2.3.11-12).
        9 => gdi.dc.win_ext = point32(&mut r)?,
        10 => gdi.dc.win_org = point32(&mut r)?,
        11 => gdi.dc.vp_ext = point32(&mut r)?,
        12 => gdi.dc.vp_org = point32(&mut r)?,
        31 | 32 => {
            let v: Vec<f64> = (0..4)
                .map(|_| r.i32("scale").map(|v| v as f64))
                .collect::<Result<_, _>>()?;
            if v[1] != 0.0 && v[3] != 0.0 {
                let ext = if kind == 31 {
                    &mut gdi.dc.vp_ext
                } else {
                    &mut gdi.dc.win_ext
                };
                ext.x = ext.x * v[0] / v[1];
                ext.y = ext.y * v[2] / v[3];
            }
        }
        17 => gdi.dc.map_mode = r.u32("map mode")?,
        19 => gdi.dc.evenodd = r.u32("fill mode")? != 2,
        22 => gdi.dc.text_align = r.u32("text alignment")?,
        24 => gdi.dc.text_color = r.u32("text colour")?,
        25 => gdi.dc.bk_color = r.u32("background colour")?,
        33 => gdi.save(),
        34 => {
            let n = r.i32("saved state")?;
            gdi.flush()?;
            gdi.restore(n)
        }
        35 => gdi.dc.world = xform(&mut r)?,
        36 => {
            let x = xform(&mut r)?;
            let w = gdi.dc.world;
            gdi.dc.world = match r.u32("transform mode")? {
                1 => Affine::IDENTITY,
                2 => x.then(&w),
                3 => w.then(&x),
                4 => x,
                _ => w,
            };
        }
        57 => gdi.dc.arc_clockwise = r.u32("arc direction")? == 2,
        // Clipping (MS-EMF 2.3.2).
        30 => {
            let b = rectl(&mut r)?;
            gdi.intersect_clip_rect(b)
        }
        29 => {
            let b = rectl(&mut r)?;
            gdi.exclude_clip_rect(b)
        }
        75 => {
            let size = r.u32("region size")? as usize;
            let mode = r.u32("region mode")?;
            let rects = if size == 0 {
                Vec::new()
            } else {
                region(&mut r, size)?
            };
            gdi.set_clip_region(&rects, mode)
        }
        // Comments: EMF+ (MS-EMFPLUS 2.3), or anything else (ignored).
        70 => {
            if let Some(p) = plus {
                let len = r.u32("comment size")? as usize;
                if r.bytes(4.min(r.remaining()), "comment identifier")? == b"EMF+" {
                    let data = r.sub(len.saturating_sub(4).min(r.remaining()), "EMF+ records")?;
                    p.comment(gdi, data)?;
                }
            }
        }
        // Settings that do not change the drawing, or that SVG cannot show.
        1
        | 13
        | 16
        | 18
        | 20
        | 21
        | 23
        | 28
        | 48
        | 50..=52
        | 58
        | 98
        | 100
        | 101
        | 109..=113
        | 115
        | 119..=121 => {}
        _ => gdi.skipped += 1,
    }
    Ok(())
}

/// EXTTEXTOUTA / EXTTEXTOUTW (MS-EMF 2.3.5.7-8) with its EmrText (2.2.5).
fn ext_text_out(gdi: &mut Gdi, r: &mut Reader, wide: bool) -> Result<(), MetafileError> {
    r.skip(16 + 12, "bounds, graphics mode and scales")?;
    let at = point32(r)?;
    let n = r.u32("character count")? as usize;
    let off_string = r.u32("string offset")? as usize;
    let options = r.u32("text options")?;
    // ETO_NO_RECT (0x100): no rectangle field.
    let rect = if options & 0x100 == 0 {
        Some(rectl(r)?)
    } else {
        None
    };
    let off_dx = r.u32("advances offset")? as usize;
    // ETO_GLYPH_INDEX (0x10): glyph numbers of a font we do not have, not characters.
    if options & 0x10 != 0 {
        gdi.skipped += 1;
        return Ok(());
    }
    // ETO_OPAQUE (0x2): the rectangle is filled with the background colour first.
    if let (Some(b), true) = (rect, options & 0x2 != 0) {
        if b.width() > 0.0 && b.height() > 0.0 {
            let bk = gdi.dc.bk_color;
            gdi.fill_rect(b, bk)?;
        }
    }
    if n == 0 {
        return Ok(());
    }
    let unit = if wide { 2 } else { 1 };
    let bytes = r.slice_at(off_string.saturating_sub(8), n.saturating_mul(unit), "text")?;
    let text = if wide { utf16(bytes) } else { ansi(bytes) };
    // ETO_PDY (0x2000): each advance is an x, y pair.
    let pairs = options & 0x2000 != 0;
    let per = if pairs { 8 } else { 4 };
    let dx = if off_dx >= 8 {
        r.slice_at(off_dx - 8, n.saturating_mul(per), "advances")
            .ok()
            .map(|b| {
                b.chunks_exact(per)
                    .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                    .collect::<Vec<_>>()
            })
    } else {
        None
    };
    // Advances are per UTF-16 unit; with surrogate pairs they do not line up with chars.
    let dx = dx.filter(|d| d.len() == text.chars().count());
    gdi.text(at, &text, dx.as_deref())
}

/// GRADIENTFILL (MS-EMF 2.3.5.12): rectangles filled with their vertices' mean colour;
/// triangles skipped.
fn gradient_fill(gdi: &mut Gdi, r: &mut Reader) -> Result<(), MetafileError> {
    r.skip(16, "bounds")?;
    let n_ver = r.u32("vertex count")?;
    let n_tri = r.u32("gradient count")?;
    let mode = r.u32("gradient mode")?;
    let n_ver = r.count(n_ver, 16, "vertices")?;
    let mut verts = Vec::with_capacity(n_ver);
    for _ in 0..n_ver {
        let p = point32(r)?;
        let c = [r.u16("red")?, r.u16("green")?, r.u16("blue")?];
        r.skip(2, "alpha")?;
        verts.push((p, c));
    }
    if mode > 1 {
        gdi.skipped += 1;
        return Ok(());
    }
    let n = r.count(n_tri, 8, "gradient rectangles")?;
    for _ in 0..n {
        let (a, b) = (r.u32("vertex")? as usize, r.u32("vertex")? as usize);
        let (Some(va), Some(vb)) = (verts.get(a), verts.get(b)) else {
            continue;
        };
        let mean = |i: usize| ((va.1[i] as u32 + vb.1[i] as u32) / 2) >> 8;
        let color = mean(0) | (mean(1) << 8) | (mean(2) << 16);
        let rect = Rect {
            x0: va.0.x,
            y0: va.0.y,
            x1: vb.0.x,
            y1: vb.0.y,
        };
        gdi.fill_rect(rect, color)?;
    }
    Ok(())
}
