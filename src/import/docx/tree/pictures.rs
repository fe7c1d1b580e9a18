//! Stage two for pictures once their parts are read ([`crate::import::docx::parse::pictures`]):
//! each picture the tree shows goes into the media store under the name stage two gave it;
//! pictures that cannot be read leave the tree (warned); image blocks drop an extent their
//! width and pixels already say.

use std::collections::{HashMap, HashSet};

use bytes::Bytes;

use crate::ast::{Block, Document, MediaItem, MediaKind};
use crate::error::Result;
use crate::import::docx::parse::pictures::Picture;
use crate::report::{Location, Report, WarningKind};

/// Puts the pictures the tree refers to (`wanted`: part, media name) into its media store,
/// taking them from `loaded` or, for parts no image relationship named, from `read_part`.
/// Returns the media names of the pictures that could not be read (warned), which
/// [`drop_images`] takes out of the tree.
///
/// Pictures the tree no longer shows (an inline picture in a caption, which keeps only its
/// text, warned there) stay out of its media.
pub fn store(
    doc: &mut Document,
    wanted: Vec<(String, String)>,
    loaded: &mut HashMap<String, Picture>,
    mut read_part: impl FnMut(&str) -> Result<Option<Vec<u8>>>,
    report: &mut Report,
) -> Result<HashSet<String>> {
    let mut missing = HashSet::new();
    let shown = doc.referenced_media();
    for (part, name) in wanted {
        if !shown.contains(&name) {
            continue;
        }
        let found = match loaded.remove(&part) {
            Some(r) => Some(r),
            // Not among the parts named by image relationships: read it here.
            None => {
                read_part(&part)?.map(|data| Ok(MediaItem::new(name.clone(), Bytes::from(data))))
            }
        };
        match found {
            Some(Ok(mut item)) => {
                item.name = name.clone();
                // A Windows metafile is kept as it is, losing nothing: the writers that cannot
                // carry one draw it, and warn only when that fails.
                if item.kind == MediaKind::Unknown {
                    report.warn(
                        WarningKind::InvalidValue,
                        format!(
                            "picture {name} is not an image format we recognise; kept as it is"
                        ),
                        Location::part(&part),
                    );
                }
                doc.media.insert(item);
            }
            Some(Err(e)) => {
                report.warn(
                    WarningKind::MissingMedia,
                    format!("picture {part} cannot be read ({e}); dropped"),
                    Location::part(&part),
                );
                missing.insert(name);
            }
            None => {
                report.warn(
                    WarningKind::MissingMedia,
                    format!("picture {part} is missing from the package; dropped"),
                    Location::part(&part),
                );
                missing.insert(name);
            }
        }
    }
    Ok(missing)
}

/// Removes pictures whose bytes could not be read, block and inline.
pub fn drop_images(doc: &mut Document, missing: &HashSet<String>) {
    doc.remove_images(|media| missing.contains(media));
}

/// Drops an image block's extent when its `width_percent` and the picture's pixels already
/// say it: the picture is no wider than the text (so `width_percent` is its width) and shown
/// undistorted (the height follows from the pixels' aspect ratio, within rounding). Kept: the
/// extent of a picture wider than its text (`wide`), a distorted one, or one whose pixel size
/// is unknown (a metafile).
///
/// A picture shown at exactly its natural size (one pixel per 1/96 inch, how Word inserts a
/// picture and how every writer shows one with no size) loses both: no size means that size.
pub fn drop_implied_extents(doc: &mut Document, wide: &HashSet<(String, u64, u64)>) {
    use crate::ast::length::EMU_PER_PX;
    let media = &doc.media;
    let mut implied = |img: &mut crate::ast::Image| {
        let Some(e) = img.extent else { return };
        let Some((w, h)) = media
            .get(&img.media)
            .and_then(|m| m.width.zip(m.height))
            .filter(|(w, h)| *w > 0 && *h > 0)
        else {
            return;
        };
        let natural = (
            u64::from(w).saturating_mul(EMU_PER_PX),
            u64::from(h).saturating_mul(EMU_PER_PX),
        );
        if (e.width, e.height) == natural && !wide.contains(&(img.media.clone(), e.width, e.height))
        {
            img.extent = None;
            img.width_percent = None;
            return;
        }
        if img.width_percent.is_none() || wide.contains(&(img.media.clone(), e.width, e.height)) {
            return;
        }
        let want = e.width as f64 * f64::from(h) / f64::from(w);
        if (e.height as f64 - want).abs() <= (want * 0.002).max(1.0) {
            img.extent = None;
        }
    };
    let mut blocks = std::mem::take(&mut doc.blocks);
    for b in &mut blocks {
        visit_images(b, &mut implied);
    }
    doc.blocks = blocks;
}

fn visit_images(block: &mut Block, f: &mut impl FnMut(&mut crate::ast::Image)) {
    match block {
        Block::Image(img) => f(img),
        Block::Table(t) => {
            for b in t
                .rows
                .iter_mut()
                .flat_map(|r| r.cells.iter_mut())
                .flat_map(|c| c.blocks.iter_mut())
            {
                visit_images(b, f);
            }
        }
        _ => {}
    }
}
