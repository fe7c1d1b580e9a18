//! Windows metafiles drawn for the writers whose readers cannot show them.
//!
//! Word keeps a WMF or EMF picture as it is, but no browser shows one and the service takes
//! only JPEG, PNG and GIF. Before such a writer runs, [`drawn`] plays every metafile the tree
//! shows ([`crate::metafile`]) into what its reader can show: SVG for pages (text stays text),
//! PNG for sd.xml, parsX and PDF. The writer then gets a copy of the tree whose references
//! point at the drawn pictures, so it needs no case of its own. The drawing runs on the rayon
//! pool, one metafile a task; a tree with no metafile is handed back as it is, uncopied.
//!
//! A metafile that cannot be drawn stays as it is, with one warning saying what the output
//! loses; a drawn one gives none.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

use bytes::Bytes;
use rayon::prelude::*;

use crate::ast::length::EMU_PER_PX;
use crate::ast::{Block, Document, Extent, Inline, MediaItem, MediaKind};
use crate::metafile::{self, Svg};
use crate::report::{Location, Warning, WarningKind};

/// What the writer's reader shows in place of a metafile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    /// An SVG file or `data:` URI: a browser, or a Markdown viewer.
    Svg,
    /// A PNG: the service (sd.xml, parsX) and the PDF writer.
    Png,
}

/// How many PNG pixels one CSS pixel of a block picture gets: 192 dpi, sharp on paper and on
/// high-density screens. Inline pictures have no size but their pixels', so they get one.
const PNG_SCALE: f64 = 2.0;
/// Pixels of one drawn PNG, at most (2048 × 2048): the size the PDF writer scales bitmaps to.
const MAX_PNG_PIXELS: u64 = 1 << 22;

/// `doc` with every metafile it shows drawn as `shown`, and one warning per metafile that could
/// not be drawn (`lost` says what the output has instead: "kept as it is, which browsers do not
/// display").
/// A tree that shows no metafile is returned borrowed.
pub(crate) fn drawn<'d>(
    doc: &'d Document,
    shown: Shown,
    lost: &str,
) -> (Cow<'d, Document>, Vec<Warning>) {
    // The media store is small; the walk over the tree only happens for a tree with metafiles.
    if !doc.media.iter().any(|m| is_metafile(m.kind)) {
        return (Cow::Borrowed(doc), Vec::new());
    }
    let (referenced, inline) = references(doc);
    let work: Vec<&MediaItem> = doc
        .media
        .iter()
        .filter(|m| is_metafile(m.kind) && referenced.contains(m.name.as_str()))
        .collect();
    if work.is_empty() {
        return (Cow::Borrowed(doc), Vec::new());
    }
    let results: Vec<Result<Picture, String>> = work
        .par_iter()
        .map(|item| draw(item, shown, inline.contains(item.name.as_str())))
        .collect();

    let mut warnings = Vec::new();
    let mut taken: HashSet<String> = doc.media.iter().map(|m| m.name.clone()).collect();
    let mut renamed: HashMap<String, (String, (f64, f64))> = HashMap::new();
    let mut out = doc.clone();
    for (item, result) in work.iter().zip(results) {
        match result {
            Ok(picture) => {
                let name = unique_name(&item.name, shown, &mut taken);
                out.media.remove(&item.name);
                out.media.insert(MediaItem::new(name.clone(), picture.bytes));
                renamed.insert(item.name.clone(), (name, picture.css_size));
            }
            Err(reason) => warnings.push(Warning::new(
                WarningKind::Lossy,
                format!(
                    "picture {:?} is a Windows metafile ({}) that could not be drawn ({reason}): {lost}",
                    item.name,
                    item.kind.extension().to_uppercase()
                ),
                Location::default().element("img"),
            )),
        }
    }
    if renamed.is_empty() {
        return (Cow::Borrowed(doc), warnings);
    }
    // The drawn PNG has PNG_SCALE pixels per CSS pixel: a picture block with no size of its
    // own keeps the metafile's frame size rather than doubling.
    out.walk_blocks_mut(&mut |_, block| {
        if let Block::Image(img) = block
            && let Some((_, (w, h))) = renamed.get(&img.media)
            && img.extent.is_none()
            && img.width_percent.is_none()
        {
            img.extent = Some(Extent {
                width: (w * EMU_PER_PX as f64).round() as u64,
                height: (h * EMU_PER_PX as f64).round() as u64,
            });
        }
    });
    out.rename_media(|name| renamed.get(name).map(|(new, _)| new.clone()));
    (Cow::Owned(out), warnings)
}

/// Whether `kind` is a Windows metafile.
fn is_metafile(kind: MediaKind) -> bool {
    matches!(kind, MediaKind::Emf | MediaKind::Wmf)
}

/// The media names the tree shows, and those of them shown inline (which have no size of
/// their own).
fn references(doc: &Document) -> (BTreeSet<String>, HashSet<String>) {
    let mut inline = HashSet::new();
    doc.walk_inlines(&mut |i| {
        if let Inline::Image { media, .. } = i {
            inline.insert(media.clone());
        }
    });
    (doc.referenced_media(), inline)
}

/// A drawn metafile.
struct Picture {
    bytes: Bytes,
    /// The metafile's frame in CSS pixels.
    css_size: (f64, f64),
}

/// Draws one metafile; the error is the reason, for the warning.
fn draw(item: &MediaItem, shown: Shown, inline: bool) -> Result<Picture, String> {
    if !item.has_bytes() || item.size == 0 {
        return Err("its bytes are missing".into());
    }
    let bytes = item.bytes().map_err(|e| e.reason)?;
    let svg = metafile::to_svg(&bytes, item.kind).map_err(|e| e.to_string())?;
    // A drawing with nothing in it, from a metafile with records, lost them all: better the
    // original and a warning than an empty picture.
    if svg.is_empty() {
        return Err("nothing in it could be drawn".into());
    }
    let Svg {
        text,
        width,
        height,
        ..
    } = svg;
    let bytes = match shown {
        Shown::Svg => Bytes::from(text),
        Shown::Png => {
            let scale = if inline { 1.0 } else { PNG_SCALE };
            Bytes::from(
                metafile::svg_to_png(&text, scale, MAX_PNG_PIXELS).map_err(|e| e.to_string())?,
            )
        }
    };
    Ok(Picture {
        bytes,
        css_size: (width, height),
    })
}

/// `image1.emf` → `image1.svg` (or `.png`), or `image1-2.svg`… when that name is taken.
fn unique_name(original: &str, shown: Shown, taken: &mut HashSet<String>) -> String {
    let ext = match shown {
        Shown::Svg => "svg",
        Shown::Png => "png",
    };
    let stem = match original.rfind('.') {
        Some(i) if i > 0 => &original[..i],
        _ => original,
    };
    let name = crate::ast::media::unused_name(format!("{stem}.{ext}"), |n| taken.contains(n));
    taken.insert(name.clone());
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawn_names_are_unique() {
        let mut taken: HashSet<String> = ["a.png".to_string(), "a-2.png".to_string()].into();
        assert_eq!(unique_name("a.emf", Shown::Png, &mut taken), "a-3.png");
        assert_eq!(unique_name("a.emf", Shown::Svg, &mut taken), "a.svg");
        assert_eq!(unique_name("noext", Shown::Svg, &mut taken), "noext.svg");
        assert_eq!(unique_name(".wmf", Shown::Png, &mut taken), ".wmf.png");
    }
}
