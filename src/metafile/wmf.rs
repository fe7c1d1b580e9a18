//! The WMF player (MS-WMF): the optional placeable header (its bounding box and units per
//! inch give the picture's frame and size), the META_HEADER, then META_* records of 16-bit
//! coordinates played on the shared device context. The logical window is mapped onto the
//! frame whatever the mapping mode says, as Windows does when it places a WMF in a document.

use super::dib;
use super::gdi::{ArcKind, Brush, Font, Gdi, Object, Pen, hatch_tint};
use super::geom::{Pt, Rect};
use super::reader::Reader;
use super::records::RecordLoop;
use super::text::ansi;
use super::{Budget, MAX_SVG_BYTES, MetafileError, Svg};

fn not(reason: &str) -> MetafileError {
    MetafileError::NotMetafile {
        kind: "WMF",
        reason: reason.to_string(),
    }
}

/// The frame from the first SETWINDOWORG/SETWINDOWEXT records, for a WMF without a
/// placeable header.
fn window_frame(bytes: &[u8], mut off: usize) -> Option<Rect> {
    let (mut org, mut ext) = (Pt::default(), None);
    for _ in 0..10_000 {
        let rec = bytes.get(off..off + 6)?;
        let words = u32::from_le_bytes([rec[0], rec[1], rec[2], rec[3]]) as usize;
        let func = u16::from_le_bytes([rec[4], rec[5]]);
        let arg = |i: usize| {
            bytes
                .get(off + 6 + 2 * i..off + 8 + 2 * i)
                .map(|b| i16::from_le_bytes([b[0], b[1]]) as f64)
        };
        match func {
            0x020B => org = Pt::new(arg(1)?, arg(0)?),
            0x020C => ext = Some(Pt::new(arg(1)?, arg(0)?)),
            0x0000 => break,
            _ => {}
        }
        if words < 3 {
            return None;
        }
        off = off.checked_add(words * 2)?;
    }
    let e = ext?;
    (e.x != 0.0 && e.y != 0.0).then_some(Rect {
        x0: org.x,
        y0: org.y,
        x1: org.x + e.x,
        y1: org.y + e.y,
    })
}

/// Plays a WMF into SVG.
pub(crate) fn play(bytes: &[u8], budget: &mut Budget) -> Result<Svg, MetafileError> {
    let mut r = Reader::new(bytes, 0);
    let mut frame = None;
    let mut inch = 1440.0;
    if r.u32("WMF key").map_err(|_| not("too short"))? == 0x9AC6_CDD7 {
        // META_PLACEABLE (2.3.2.3).
        r.skip(2, "placeable handle")?;
        let (l, t) = (r.i16("bounding box")? as f64, r.i16("bounding box")? as f64);
        let (rt, b) = (r.i16("bounding box")? as f64, r.i16("bounding box")? as f64);
        let units = r.u16("units per inch")? as f64;
        if units > 0.0 {
            inch = units;
        }
        if rt != l && b != t {
            frame = Some(Rect {
                x0: l,
                y0: t,
                x1: rt,
                y1: b,
            });
        }
        r.seek(22, "WMF header")?;
    } else {
        r.seek(0, "WMF header")?;
    }
    // META_HEADER (2.3.2.2).
    let kind = r.u16("WMF header type")?;
    let header_words = r.u16("WMF header size")?;
    if !(kind == 1 || kind == 2) || header_words != 9 {
        return Err(not("no META_HEADER"));
    }
    r.skip(14, "WMF header")?;
    let start = r.pos();
    let frame = frame.or_else(|| window_frame(bytes, start));
    let mut gdi = Gdi::new(budget.clone(), MAX_SVG_BYTES);
    let (mut width, mut height) = (0.0, 0.0);
    if let Some(f) = frame {
        gdi.wmf_frame = Some(f);
        gdi.canvas.set_view(f);
        // Until the records set a window, logical units are the frame's.
        gdi.dc.win_org = Pt::new(f.x0, f.y0);
        gdi.dc.win_ext = Pt::new(f.width(), f.height());
        width = f.width().abs() / inch * 96.0;
        height = f.height().abs() / inch * 96.0;
        if width > 0.0 {
            gdi.hairline = f.width().abs() / width;
        }
    }
    let mut off = start;
    let mut tally = RecordLoop::new("WMF record", 6);
    while off + 6 <= bytes.len() {
        tally.next()?;
        let mut h = Reader::new(&bytes[off..], off);
        let words = h.u32("record size")? as usize;
        let func = h.u16("record function")?;
        let size = words.saturating_mul(2);
        let left = bytes.len() - off;
        if let Err(e) = tally.check_size(off, size, left, format_args!("function {func:#06x}")) {
            // META_EOF may end the file with any size field.
            if func == 0 {
                break;
            }
            return Err(e);
        }
        if func == 0 {
            break;
        }
        let body = Reader::new(&bytes[off + 6..off + size], off + 6);
        let played = record(&mut gdi, func, body);
        tally.played(&mut gdi, off, func.into(), played)?;
        off += size;
    }
    gdi.flush()?;
    tally.finish(&gdi)?;
    *budget = gdi.budget.clone();
    let view = match frame {
        Some(f) => Rect {
            x0: f.x0.min(f.x1),
            y0: f.y0.min(f.y1),
            x1: f.x0.max(f.x1),
            y1: f.y0.max(f.y1),
        },
        None => {
            let b = gdi.canvas.bbox().ok_or(MetafileError::Empty)?;
            width = b.width() / inch * 96.0;
            height = b.height() / inch * 96.0;
            b
        }
    };
    if !(view.width() > 0.0 && view.height() > 0.0) {
        return Err(MetafileError::Empty);
    }
    let skipped = gdi.skipped + gdi.canvas.dropped;
    let texts = gdi.canvas.texts;
    let text = gdi.canvas.finish(view, width, height);
    Ok(Svg {
        text,
        width,
        height,
        skipped,
        texts,
    })
}

fn pt(r: &mut Reader) -> Result<Pt, MetafileError> {
    // Most records give y before x.
    let y = r.i16("y")? as f64;
    let x = r.i16("x")? as f64;
    Ok(Pt::new(x, y))
}

/// bottom, right, top, left (the order of META_RECTANGLE and friends).
fn rect(r: &mut Reader) -> Result<Rect, MetafileError> {
    let (b, rt) = (r.i16("bottom")? as f64, r.i16("right")? as f64);
    let (t, l) = (r.i16("top")? as f64, r.i16("left")? as f64);
    Ok(Rect {
        x0: l,
        y0: t,
        x1: rt,
        y1: b,
    })
}

fn points(r: &mut Reader, n: u16) -> Result<Vec<Pt>, MetafileError> {
    let n = r.count(n as u32, 4, "points")?;
    (0..n)
        .map(|_| Ok(Pt::new(r.i16("x")? as f64, r.i16("y")? as f64)))
        .collect()
}

/// Draws a packed DIB onto a logical rectangle, cropped to the source rectangle.
fn dib_image(
    gdi: &mut Gdi,
    r: &mut Reader,
    dest: Pt,
    size: Pt,
    src: (f64, f64, f64, f64),
) -> Result<(), MetafileError> {
    let packed = r.bytes(r.remaining(), "bitmap")?;
    let (bmi, bits) = dib::split_packed(packed)?;
    let img = dib::decode_dib(bmi, bits, &mut gdi.budget)?;
    let crop = (src.0 as i64, src.1 as i64, src.2 as i64, src.3 as i64);
    let png = dib::png(&dib::crop(img, crop, false))?;
    gdi.image(&png, dest, size)
}

fn record(gdi: &mut Gdi, func: u16, mut r: Reader) -> Result<(), MetafileError> {
    match func {
        // State (MS-WMF 2.3.5).
        0x001E => gdi.save(),
        0x0127 => {
            let n = r.i16("saved state")? as i32;
            gdi.flush()?;
            gdi.restore(n)
        }
        0x0103 => gdi.dc.map_mode = r.u16("map mode")? as u32,
        0x0106 => gdi.dc.evenodd = r.u16("fill mode")? != 2,
        0x012E => gdi.dc.text_align = r.u16("text alignment")? as u32,
        0x0201 => gdi.dc.bk_color = r.u32("background colour")?,
        0x0209 => gdi.dc.text_color = r.u32("text colour")?,
        0x020B => gdi.dc.win_org = pt(&mut r)?,
        0x020C => gdi.dc.win_ext = pt(&mut r)?,
        0x020D => gdi.dc.vp_org = pt(&mut r)?,
        0x020E => gdi.dc.vp_ext = pt(&mut r)?,
        0x020F => {
            let d = pt(&mut r)?;
            gdi.dc.win_org = Pt::new(gdi.dc.win_org.x + d.x, gdi.dc.win_org.y + d.y);
        }
        0x0211 => {
            let d = pt(&mut r)?;
            gdi.dc.vp_org = Pt::new(gdi.dc.vp_org.x + d.x, gdi.dc.vp_org.y + d.y);
        }
        0x0410 | 0x0412 => {
            let (yd, yn) = (r.i16("scale")? as f64, r.i16("scale")? as f64);
            let (xd, xn) = (r.i16("scale")? as f64, r.i16("scale")? as f64);
            if xd != 0.0 && yd != 0.0 {
                let ext = if func == 0x0410 {
                    &mut gdi.dc.win_ext
                } else {
                    &mut gdi.dc.vp_ext
                };
                *ext = Pt::new(ext.x * xn / xd, ext.y * yn / yd);
            }
        }
        // Drawing (2.3.3).
        0x0214 => {
            let p = pt(&mut r)?;
            gdi.move_to(p)
        }
        0x0213 => {
            let p = pt(&mut r)?;
            gdi.line_to(p)?
        }
        0x0324 | 0x0325 => {
            let n = r.u16("point count")?;
            let pts = points(&mut r, n)?;
            gdi.poly(&pts, func == 0x0324)?
        }
        0x0538 => {
            let n = r.u16("polygon count")?;
            let n = r.count(n as u32, 2, "polygon counts")?;
            let counts: Vec<u16> = (0..n)
                .map(|_| r.u16("polygon point count"))
                .collect::<Result<_, _>>()?;
            let mut polys = Vec::with_capacity(n);
            for c in counts {
                polys.push(points(&mut r, c)?);
            }
            gdi.poly_poly(&polys, true)?
        }
        0x041B => gdi.rectangle(rect(&mut r)?)?,
        0x0418 => gdi.ellipse(rect(&mut r)?)?,
        0x061C => {
            let (h, w) = (r.i16("corner")? as f64, r.i16("corner")? as f64);
            gdi.round_rect(rect(&mut r)?, w, h)?
        }
        0x0817 | 0x081A | 0x0830 => {
            let end = pt(&mut r)?;
            let start = pt(&mut r)?;
            let b = rect(&mut r)?;
            let kind = match func {
                0x0817 => ArcKind::Arc,
                0x081A => ArcKind::Pie,
                _ => ArcKind::Chord,
            };
            gdi.arc(kind, b, start, end)?
        }
        0x041F => {
            let color = r.u32("colour")?;
            let p = pt(&mut r)?;
            let s = gdi.hairline / gdi.matrix().mean_scale().max(1e-9);
            let px = Rect {
                x0: p.x,
                y0: p.y,
                x1: p.x + s,
                y1: p.y + s,
            };
            gdi.fill_rect(px, color)?
        }
        0x0521 => {
            let n = r.u16("string length")? as usize;
            let bytes = r.bytes(n.min(r.remaining()), "string")?;
            let text = ansi(bytes);
            r.skip(n % 2, "padding")?;
            let at = pt(&mut r)?;
            gdi.text(at, &text, None)?
        }
        0x0A32 => {
            let at = pt(&mut r)?;
            let n = r.i16("string length")?.max(0) as usize;
            let options = r.u16("text options")?;
            // ETO_OPAQUE (2) and ETO_CLIPPED (4) bring a rectangle (left, top, right, bottom).
            let b = if options & 0x6 != 0 {
                let (l, t) = (r.i16("rect")? as f64, r.i16("rect")? as f64);
                let (rt, bt) = (r.i16("rect")? as f64, r.i16("rect")? as f64);
                Some(Rect {
                    x0: l,
                    y0: t,
                    x1: rt,
                    y1: bt,
                })
            } else {
                None
            };
            if let (Some(b), true) = (b, options & 2 != 0) {
                let bk = gdi.dc.bk_color;
                gdi.fill_rect(b, bk)?;
            }
            let bytes = r.bytes(n.min(r.remaining()), "string")?;
            let text = ansi(bytes);
            let _ = r.skip(n % 2, "padding");
            let dx: Vec<f64> = (0..n)
                .map_while(|_| r.i16("advance").ok().map(|v| v as f64))
                .collect();
            let dx = (dx.len() == text.chars().count()).then_some(dx);
            gdi.text(at, &text, dx.as_deref())?
        }
        // Bitmaps (2.3.1).
        0x061D => {
            let rop = r.u32("raster operation")?;
            let (h, w) = (r.i16("height")? as f64, r.i16("width")? as f64);
            let at = pt(&mut r)?;
            let color = match rop {
                0x00F0_0021 => gdi.dc.brush.visible.then_some(gdi.dc.brush.color),
                0x0000_0042 => Some(0),
                0x00FF_0062 => Some(0xff_ffff),
                _ => None,
            };
            if let Some(c) = color {
                let b = Rect {
                    x0: at.x,
                    y0: at.y,
                    x1: at.x + w,
                    y1: at.y + h,
                };
                gdi.fill_rect(b, c)?
            }
        }
        0x0F43 => {
            let rop = r.u32("raster operation")?;
            r.skip(2, "colour usage")?;
            let (sh, sw) = (r.i16("height")? as f64, r.i16("width")? as f64);
            let src = pt(&mut r)?;
            let (dh, dw) = (r.i16("height")? as f64, r.i16("width")? as f64);
            let dest = pt(&mut r)?;
            if rop != 0x0088_00C6 {
                dib_image(gdi, &mut r, dest, Pt::new(dw, dh), (src.x, src.y, sw, sh))?
            }
        }
        0x0B41 | 0x0940 => {
            let no_bitmap = r.remaining() == if func == 0x0B41 { 22 } else { 18 };
            let rop = r.u32("raster operation")?;
            let (sh, sw) = if func == 0x0B41 {
                (r.i16("height")? as f64, r.i16("width")? as f64)
            } else {
                (0.0, 0.0)
            };
            let src = pt(&mut r)?;
            if no_bitmap {
                r.skip(2, "reserved")?;
            }
            let (dh, dw) = (r.i16("height")? as f64, r.i16("width")? as f64);
            let dest = pt(&mut r)?;
            let (sw, sh) = if func == 0x0940 { (dw, dh) } else { (sw, sh) };
            if no_bitmap {
                if rop == 0x00F0_0021 && gdi.dc.brush.visible {
                    let c = gdi.dc.brush.color;
                    let b = Rect {
                        x0: dest.x,
                        y0: dest.y,
                        x1: dest.x + dw,
                        y1: dest.y + dh,
                    };
                    gdi.fill_rect(b, c)?;
                }
            } else if rop != 0x0088_00C6 {
                dib_image(gdi, &mut r, dest, Pt::new(dw, dh), (src.x, src.y, sw, sh))?
            }
        }
        0x0D33 => {
            r.skip(6, "colour usage and scans")?;
            let src = pt(&mut r)?;
            let (h, w) = (r.i16("height")? as f64, r.i16("width")? as f64);
            let dest = pt(&mut r)?;
            dib_image(gdi, &mut r, dest, Pt::new(w, h), (src.x, src.y, w, h))?
        }
        // Objects (2.3.4).
        0x02FA => {
            let style = r.u16("pen style")? as u32;
            let width = r.i16("pen width")? as f64;
            r.skip(2, "pen width y")?;
            let color = r.u32("pen colour")?;
            gdi.add_object(Object::Pen(Pen {
                style,
                width: width.abs(),
                color,
            }))?
        }
        0x02FC => {
            let style = r.u16("brush style")?;
            let mut color = r.u32("brush colour")?;
            if style == 2 {
                color = hatch_tint(color);
            }
            gdi.add_object(Object::Brush(Brush {
                visible: style != 1,
                color,
            }))?
        }
        0x0142 => {
            r.skip(4, "pattern style and usage")?;
            let packed = r.bytes(r.remaining(), "pattern")?;
            let color = dib::split_packed(packed)
                .and_then(|(bmi, bits)| dib::decode_dib(bmi, bits, &mut gdi.budget))
                .map(|img| dib::mean_colorref(&img))
                .unwrap_or(0x80_8080);
            gdi.add_object(Object::Brush(Brush {
                visible: true,
                color,
            }))?
        }
        0x01F9 => gdi.add_object(Object::Brush(Brush {
            visible: true,
            color: 0x80_8080,
        }))?,
        0x02FB => {
            let height = r.i16("font height")? as f64;
            let _width = r.i16("font width")?;
            let escapement = r.i16("font escapement")? as f64;
            let _orientation = r.i16("font orientation")?;
            let weight = r.i16("font weight")?.clamp(0, 1000) as u32;
            let b = r.bytes(8, "font flags")?;
            let face = ansi(r.bytes(r.remaining().min(32), "font face")?);
            gdi.add_object(Object::Font(Font {
                height,
                escapement,
                weight: if weight == 0 { 400 } else { weight },
                italic: b[0] != 0,
                underline: b[1] != 0,
                strike: b[2] != 0,
                charset: b[3],
                pitch_family: b[7],
                face,
            }))?
        }
        0x00F7 | 0x06FF => gdi.add_object(Object::Other)?,
        0x012D => {
            let i = r.u16("object index")? as u32;
            gdi.select(i)
        }
        0x01F0 => {
            let i = r.u16("object index")? as u32;
            gdi.delete(i)
        }
        // Clipping.
        0x0416 => {
            let b = rect(&mut r)?;
            gdi.intersect_clip_rect(b)
        }
        0x0415 => {
            let b = rect(&mut r)?;
            gdi.exclude_clip_rect(b)
        }
        // Settings without effect on the drawing, palettes, escapes (comments).
        0x0102 | 0x0104 | 0x0107 | 0x0108 | 0x020A | 0x0231 | 0x0234 | 0x0035 | 0x0037 | 0x0139
        | 0x0436 | 0x0626 | 0x0149 | 0x012C | 0x0220 => {}
        _ => gdi.skipped += 1,
    }
    Ok(())
}
