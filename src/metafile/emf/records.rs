//! EMR_* records (MS-EMF 2.3) played on the device context: drawing, bitmaps, text,
//! objects, state, clipping, and the comments that carry EMF+.

use super::fields::{log_font, point32, points, poly_poly, rectl, region, xform};
use crate::metafile::MetafileError;
use crate::metafile::dib::{self, SrcRect};
use crate::metafile::emfplus::EmfPlus;
use crate::metafile::gdi::{ArcKind, Brush, Gdi, Object, Pen, hatch_tint};
use crate::metafile::geom::{Affine, Pt, Rect};
use crate::metafile::reader::{Reader, utf16};
use crate::metafile::text::ansi;

/// Decodes the bitmap a blit record carries at `off_bmi`/`off_bits` (offsets from the
/// record's start) to PNG, cropped to `src`.
pub(super) fn blit_png(
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
pub(super) fn record(
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
            let mut color = r.u32("brush colour")?;
            if style == 2 {
                color = hatch_tint(color);
            }
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
pub(super) fn ext_text_out(gdi: &mut Gdi, r: &mut Reader, wide: bool) -> Result<(), MetafileError> {
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
pub(super) fn gradient_fill(gdi: &mut Gdi, r: &mut Reader) -> Result<(), MetafileError> {
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
