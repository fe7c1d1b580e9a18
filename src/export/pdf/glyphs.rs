//! The one place where text becomes glyphs: an `Item::Text` of the paged layout
//! (text, font, size, and shaped glyphs where the layout shaped it) → the krilla font to draw
//! it with and its positioned glyphs.
//!
//! Text the layout shaped (`fonts::shape`: right-to-left runs, joining and Indic
//! scripts, fallback fonts) arrives as glyphs in visual order with their advances, offsets and
//! the byte range of the text each glyph's cluster stands for. Other text (Latin, Greek,
//! Cyrillic in the bundled faces) is mapped one glyph per character through the font's
//! character map, advancing by the font's own advance width (so krilla writes no position
//! adjustments). krilla writes the `ToUnicode` map and, where a glyph stands for text it cannot
//! map one to one (ligatures, reordered clusters), `ActualText` from those ranges, so copying
//! and screen readers get the text, not the glyphs.
//!
//! A character no font has a glyph for is drawn as glyph 0 (`.notdef`, a visible box) and its
//! text stays in the text layer. The PDF standards forbid `.notdef`, so the writer checks for
//! such characters before it asks for one ([`super::standard`]).

use std::collections::HashMap;
use std::sync::Arc;

use krilla::Data;
use krilla::text::{Font, GlyphId, KrillaGlyph};

use crate::fonts::book::{self, FontData, FontId};
use crate::fonts::metrics::metrics;
use crate::fonts::shape::Glyph;

/// What identifies a font to draw with: a bundled face or a font of the process's font book.
pub(crate) type FontKey = FontId;

/// The fonts one document draws with, each loaded once (krilla subsets each to the glyphs used
/// when the document is finished).
#[derive(Default)]
pub(crate) struct Fonts {
    loaded: HashMap<FontKey, Option<Font>>,
}

impl Fonts {
    /// The font for `key`, `None` when it cannot be read.
    pub(crate) fn get(&mut self, key: FontKey) -> Option<Font> {
        self.loaded
            .entry(key)
            .or_insert_with(|| {
                let (data, index) = book::data(key)?;
                let data: Data = match data {
                    FontData::Static(b) => b.into(),
                    FontData::Shared(b) => {
                        let shared: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(b);
                        shared.into()
                    }
                };
                Font::new(data, index)
            })
            .clone()
    }

    /// The names of the fonts asked for that could not be read.
    pub(crate) fn unreadable(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .loaded
            .iter()
            .filter(|(_, f)| f.is_none())
            .map(|(k, _)| book::name(*k))
            .collect();
        names.sort_unstable();
        names
    }
}

/// A run of glyphs in one font.
pub(crate) struct Run {
    pub font: Font,
    pub glyphs: Vec<KrillaGlyph>,
}

/// The glyphs of `text` in `font` (at any size: lengths are in em): `shaped` as they are, or
/// one per character. `None` when the font cannot be loaded.
pub(crate) fn run(
    fonts: &mut Fonts,
    text: &str,
    font: FontKey,
    shaped: Option<&[Glyph]>,
) -> Option<Run> {
    let loaded = fonts.get(font)?;
    let len = text.len();
    let glyphs = match shaped {
        Some(shaped) => shaped
            .iter()
            .map(|g| {
                // Ranges come from the shaper over this very text; clamp all the same, so a
                // range can never point past it.
                let start = (g.start as usize).min(len);
                let end = (g.end as usize).clamp(start, len);
                KrillaGlyph::new(
                    GlyphId::new(u32::from(g.id)),
                    g.advance / 1000.0,
                    g.dx / 1000.0,
                    g.dy / 1000.0,
                    0.0,
                    start..end,
                    None,
                )
            })
            .collect(),
        None => text
            .char_indices()
            .map(|(i, c)| {
                let (gid, advance) = match font.face() {
                    Some(face) => {
                        let m = metrics(face);
                        let gid = m.glyph(c as u32).unwrap_or(0);
                        (gid, m.glyph_advance(gid))
                    }
                    None => {
                        let gid = book::glyph(font, c).unwrap_or(0);
                        let advance = book::font(font).map_or(0.0, |f| f.advance(gid) / 1000.0);
                        (gid, advance)
                    }
                };
                KrillaGlyph::new(
                    GlyphId::new(u32::from(gid)),
                    advance,
                    0.0,
                    0.0,
                    0.0,
                    i..i + c.len_utf8(),
                    None,
                )
            })
            .collect(),
    };
    Some(Run {
        font: loaded,
        glyphs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fonts::metrics::Face;

    #[test]
    fn each_character_is_one_glyph_covering_its_bytes() {
        let mut fonts = Fonts::default();
        let run =
            run(&mut fonts, "Aé\u{10FFFD}", FontId::of(Face::Regular), None).expect("bundled face");
        let ranges: Vec<_> = run.glyphs.iter().map(|g| g.text_range.clone()).collect();
        assert_eq!(ranges, vec![0..1, 1..3, 3..7]);
        assert_ne!(run.glyphs[0].glyph_id.to_u32(), 0);
        // A character the face lacks is `.notdef`, never another character's glyph.
        assert_eq!(run.glyphs[2].glyph_id.to_u32(), 0);
        // Advances in em: "A" is a bit over half an em in DejaVu Serif.
        assert!((0.5..0.9).contains(&run.glyphs[0].x_advance));
    }
}

#[cfg(test)]
mod shaped_tests {
    use super::*;
    use crate::fonts::metrics::Face;

    #[test]
    fn shaped_glyphs_keep_their_ranges_and_offsets() {
        let id = FontId::of(Face::Regular);
        let text = "\u{5E9}\u{5DC}\u{5D5}\u{5DD}";
        let shaped = crate::fonts::shape::shape(id, text, true, Some("he")).expect("bundled face");
        let mut fonts = Fonts::default();
        let run = run(&mut fonts, text, id, Some(&shaped)).expect("bundled face");
        assert_eq!(run.glyphs.len(), shaped.len());
        // Visual order: the last glyph is the first letter.
        assert_eq!(run.glyphs.last().map(|g| g.text_range.clone()), Some(0..2));
        for (k, g) in run.glyphs.iter().zip(shaped.iter()) {
            assert_eq!(k.glyph_id.to_u32(), u32::from(g.id));
            assert!((k.x_advance - g.advance / 1000.0).abs() < 1e-6);
        }
    }
}
