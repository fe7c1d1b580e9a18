//! The EMF header (MS-EMF 2.2.9): where the records start, the frame and bounds that place
//! the picture, the reference device's size in pixels and millimetres; and the EMF+ header
//! comment (MS-EMFPLUS 2.3.3.3) that may follow it.

use crate::metafile::MetafileError;
use crate::metafile::geom::{Pt, Rect};
use crate::metafile::reader::Reader;

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

pub(super) fn header(bytes: &[u8]) -> Result<Header, MetafileError> {
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
pub(super) fn emf_plus_header(bytes: &[u8], start: usize) -> Option<bool> {
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
