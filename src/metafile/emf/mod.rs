//! The EMF player (MS-EMF): the header, then EMR_* records played on the shared device
//! context. EMF+ records ride in EMR_COMMENT (MS-EMFPLUS 2.3); when a file has them they are
//! played and the EMF drawing records, GDI+'s fallback, are skipped, except after an
//! EmfPlusGetDC, which hands drawing back to EMF. When the EMF+ records cannot all be drawn
//! and the file is "dual" (its EMF records draw the whole picture too), the EMF records are
//! played instead.//!
//! - `header` — the header: frame, bounds, reference device; whether EMF+ records follow.
//! - `records` — one EMR_* record played on the device context.
//! - `fields` — the points, rectangles, transforms, fonts and regions records hold.

mod fields;
mod header;
mod records;

use self::header::{Header, emf_plus_header, header};
use super::emfplus::EmfPlus;
use super::gdi::Gdi;
use super::reader::Reader;
use super::records::RecordLoop;
use super::{Budget, MAX_SVG_BYTES, MetafileError, Svg};

/// Plays an EMF into SVG.
pub(crate) fn play(bytes: &[u8], budget: &mut Budget) -> Result<Svg, MetafileError> {
    let head = header(bytes)?;
    let mut partial = None;
    if let Some(dual) = emf_plus_header(bytes, head.size) {
        let mut b = budget.clone();
        match play_records(bytes, &head, true, &mut b) {
            Ok((svg, unsupported)) if unsupported == 0 || !dual => {
                *budget = b;
                return Ok(svg);
            }
            Err(e) if !dual => return Err(e),
            // Dual: the EMF records draw it all; better them than a part.
            Ok((svg, _)) => partial = Some(svg),
            Err(_) => {}
        }
    }
    let svg = play_records(bytes, &head, false, budget).map(|(svg, _)| svg)?;
    // A file that says "dual" but whose EMF records draw nothing (some write only comments):
    // the EMF+ drawing, though part of it could not be drawn, is all there is.
    match partial {
        Some(plus) if svg.is_empty() => Ok(plus),
        _ => Ok(svg),
    }
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
        gdi.canvas.set_view(v);
        if head.width > 0.0 {
            gdi.hairline = (v.width() / head.width).abs().max(1e-6);
        }
    }
    let mut emfplus = plus.then(EmfPlus::new);
    let mut off = head.size;
    let mut tally = RecordLoop::new("EMF record", 8);
    while off + 8 <= bytes.len() {
        tally.next()?;
        let mut r = Reader::new(&bytes[off..], off);
        let kind = r.u32("record type")?;
        let size = r.u32("record size")? as usize;
        tally.check_size(off, size, bytes.len() - off, format_args!("type {kind}"))?;
        if kind == 14 {
            break;
        }
        let body = Reader::new(&bytes[off + 8..off + size], off + 8);
        let played = records::record(&mut gdi, emfplus.as_mut(), kind, body);
        tally.played(&mut gdi, off, kind, played)?;
        off += size;
    }
    gdi.flush()?;
    tally.finish(&gdi)?;
    let unsupported = emfplus.as_ref().map_or(0, |p| p.unsupported);
    *budget = gdi.budget.clone();
    let skipped = gdi.skipped + unsupported + gdi.canvas.dropped;
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
