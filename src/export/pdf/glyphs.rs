//! The one place where text becomes glyphs: an [`Item::Text`](crate::export::paged::page::Item)
//! (text, face, size) → the font to draw it with and its positioned glyphs.
//!
//! This is the seam the text shaping work replaces: for now each character is mapped through
//! the bundled face's character map (`export::paged::metrics`), one glyph per character,
//! advancing by the font's own advance width (so krilla writes no position adjustments). A
//! shaper (harfrust runs with font fallback) will return the same [`Run`]: a font from
//! [`Fonts`] and glyphs with their advances, offsets and the byte range of the text each
//! stands for. krilla writes the `ToUnicode` map and, where a glyph stands for text it cannot
//! map one to one (ligatures, reordered clusters), `ActualText` from those ranges, so copying
//! and screen readers get the text, not the glyphs.
//!
//! A character the font has no glyph for is drawn as glyph 0 (`.notdef`, a visible box) and
//! its text stays in the text layer. The PDF standards forbid `.notdef`, so the writer checks
//! for such characters before it asks for one ([`super::standard`]).

use std::collections::HashMap;
use std::sync::OnceLock;

use krilla::text::{Font, GlyphId, KrillaGlyph};

use crate::export::paged::metrics::{Face, metrics};

/// What identifies a font to draw with. Today one of the bundled faces; a font from the system
/// (font fallback) will get a key of its own.
pub(crate) type FontKey = Face;

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
            .or_insert_with(|| Font::new(key.bytes().into(), 0))
            .clone()
    }

    /// The names of the fonts asked for that could not be read.
    pub(crate) fn unreadable(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .loaded
            .iter()
            .filter(|(_, f)| f.is_none())
            .map(|(k, _)| k.name())
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

/// The glyphs of `text` in `face` (at any size: advances are in em). `None` when the face
/// cannot be loaded.
pub(crate) fn run(fonts: &mut Fonts, text: &str, face: Face) -> Option<Run> {
    let font = fonts.get(face)?;
    let m = metrics(face);
    let adv = advances(face);
    let upm = f32::from(adv.units_per_em.max(1));
    let glyphs = text
        .char_indices()
        .map(|(i, c)| {
            let gid = m.glyph(c as u32).unwrap_or(0);
            let units = adv.advances.get(usize::from(gid)).copied().unwrap_or(0);
            KrillaGlyph::new(
                GlyphId::new(u32::from(gid)),
                f32::from(units) / upm,
                0.0,
                0.0,
                0.0,
                i..i + c.len_utf8(),
                None,
            )
        })
        .collect();
    Some(Run { font, glyphs })
}

/// A face's advance widths in font units, exactly as its `hmtx` table holds them.
struct Advances {
    units_per_em: u16,
    advances: Vec<u16>,
}

fn advances(face: Face) -> &'static Advances {
    static ALL: OnceLock<Vec<Advances>> = OnceLock::new();
    let all = ALL.get_or_init(|| Face::ALL.iter().map(|f| read_advances(f.bytes())).collect());
    &all[face.index()]
}

/// Reads `head`, `maxp`, `hhea` and `hmtx`; a face that cannot be read has no advances (its
/// glyphs then sit on top of each other, never a panic; the bundled faces are known-good).
fn read_advances(bytes: &[u8]) -> Advances {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::tables::{FontTableProvider, HeadTable, HheaTable, HmtxTable, MaxpTable};
    use allsorts::tag;

    let read = || -> Option<Advances> {
        let font_file = ReadScope::new(bytes).read::<FontData<'_>>().ok()?;
        let provider = font_file.table_provider(0).ok()?;
        let head = provider.read_table_data(tag::HEAD).ok()?;
        let head = ReadScope::new(&head).read::<HeadTable>().ok()?;
        let maxp = provider.read_table_data(tag::MAXP).ok()?;
        let maxp = ReadScope::new(&maxp).read::<MaxpTable>().ok()?;
        let hhea = provider.read_table_data(tag::HHEA).ok()?;
        let hhea = ReadScope::new(&hhea).read::<HheaTable>().ok()?;
        let hmtx = provider.read_table_data(tag::HMTX).ok()?;
        let hmtx = ReadScope::new(&hmtx)
            .read_dep::<HmtxTable<'_>>((
                usize::from(maxp.num_glyphs),
                usize::from(hhea.num_h_metrics),
            ))
            .ok()?;
        Some(Advances {
            units_per_em: head.units_per_em,
            advances: (0..maxp.num_glyphs)
                .map(|g| hmtx.horizontal_advance(g).unwrap_or(0))
                .collect(),
        })
    };
    read().unwrap_or(Advances {
        units_per_em: 1000,
        advances: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_character_is_one_glyph_covering_its_bytes() {
        let mut fonts = Fonts::default();
        let run = run(&mut fonts, "Aé\u{10FFFD}", Face::Regular).expect("bundled face");
        let ranges: Vec<_> = run.glyphs.iter().map(|g| g.text_range.clone()).collect();
        assert_eq!(ranges, vec![0..1, 1..3, 3..7]);
        assert_ne!(run.glyphs[0].glyph_id.to_u32(), 0);
        // A character the face lacks is `.notdef`, never another character's glyph.
        assert_eq!(run.glyphs[2].glyph_id.to_u32(), 0);
        // Advances in em: "A" is a bit over half an em in DejaVu Serif.
        assert!((0.5..0.9).contains(&run.glyphs[0].x_advance));
    }
}
