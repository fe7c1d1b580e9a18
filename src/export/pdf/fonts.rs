//! The bundled fonts (`templates/pdf/fonts/`: DejaVu Serif in four faces, DejaVu Sans Mono),
//! their advance widths for the layout, the missing-glyph count, and subsetting: each PDF embeds
//! only the glyphs it draws.
//!
//! printpdf without its `text_layout` feature (which would pull in the azul layout engine) embeds
//! whole font files, so the subset is made here with allsorts (printpdf's own font crate) and
//! handed to printpdf as the font: its cmap maps the drawn characters, so printpdf's `/W` widths
//! and `/ToUnicode` (what `pdftotext` reads) come out right.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use printpdf::ParsedFont;

/// A face of the bundled family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Face {
    Regular,
    Bold,
    Italic,
    BoldItalic,
    Mono,
}

impl Face {
    pub(crate) const ALL: [Face; 5] = [
        Face::Regular,
        Face::Bold,
        Face::Italic,
        Face::BoldItalic,
        Face::Mono,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The face with bold and/or italic added (the mono face has no variants).
    pub(crate) fn with(self, bold: bool, italic: bool) -> Face {
        if self == Face::Mono {
            return Face::Mono;
        }
        let b = bold || matches!(self, Face::Bold | Face::BoldItalic);
        let i = italic || matches!(self, Face::Italic | Face::BoldItalic);
        match (b, i) {
            (false, false) => Face::Regular,
            (true, false) => Face::Bold,
            (false, true) => Face::Italic,
            (true, true) => Face::BoldItalic,
        }
    }

    fn bytes(self) -> &'static [u8] {
        match self {
            Face::Regular => include_bytes!("../../../templates/pdf/fonts/DejaVuSerif.ttf"),
            Face::Bold => include_bytes!("../../../templates/pdf/fonts/DejaVuSerif-Bold.ttf"),
            Face::Italic => include_bytes!("../../../templates/pdf/fonts/DejaVuSerif-Italic.ttf"),
            Face::BoldItalic => {
                include_bytes!("../../../templates/pdf/fonts/DejaVuSerif-BoldItalic.ttf")
            }
            Face::Mono => include_bytes!("../../../templates/pdf/fonts/DejaVuSansMono.ttf"),
        }
    }

    /// The PostScript-style name printpdf writes as `/BaseFont`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Face::Regular => "DejaVuSerif",
            Face::Bold => "DejaVuSerif-Bold",
            Face::Italic => "DejaVuSerif-Italic",
            Face::BoldItalic => "DejaVuSerif-BoldItalic",
            Face::Mono => "DejaVuSansMono",
        }
    }
}

/// Code points below this are looked up in a dense table (Latin, Greek, Cyrillic, punctuation,
/// arrows, box drawing: everything the corpus uses), the rest in the font's map.
const DENSE: usize = 0x3000;
const NONE: u16 = u16::MAX;

/// One parsed face: advances in 1/1000 em.
pub(crate) struct Metrics {
    dense: Vec<u16>,
    sparse: BTreeMap<u32, u16>,
    cmap: BTreeMap<u32, u16>,
}

impl Metrics {
    fn parse(face: Face) -> Metrics {
        let mut warnings = Vec::new();
        // The bundled files are known-good; a parse failure would leave the face empty (every
        // character then counts as missing), never a panic.
        let parsed = ParsedFont::from_bytes(face.bytes(), 0, &mut warnings);
        let mut dense = vec![NONE; DENSE];
        let mut sparse = BTreeMap::new();
        let mut cmap = BTreeMap::new();
        if let Some(font) = parsed {
            let upm = f32::from(font.units_per_em.max(1));
            for (&cp, &gid) in &font.codepoint_to_glyph {
                let adv = font.glyph_widths.get(&gid).copied().unwrap_or(0);
                let w = (f32::from(adv) * 1000.0 / upm).round().min(65000.0) as u16;
                if (cp as usize) < DENSE {
                    dense[cp as usize] = w;
                } else {
                    sparse.insert(cp, w);
                }
                cmap.insert(cp, gid);
            }
        }
        Metrics {
            dense,
            sparse,
            cmap,
        }
    }

    /// The advance of `c` in 1/1000 em, `None` when the face has no glyph for it.
    pub(crate) fn advance(&self, c: char) -> Option<f32> {
        let cp = c as usize;
        let w = if cp < DENSE {
            self.dense[cp]
        } else {
            *self.sparse.get(&(c as u32))?
        };
        (w != NONE).then_some(f32::from(w))
    }
}

/// The five faces, parsed once per process.
pub(crate) fn metrics(face: Face) -> &'static Metrics {
    static FACES: OnceLock<Vec<Metrics>> = OnceLock::new();
    let all = FACES.get_or_init(|| Face::ALL.iter().map(|&f| Metrics::parse(f)).collect());
    &all[face.index()]
}

/// The width of `text` in `face` at `size` points; characters without a glyph count as `?`.
pub(crate) fn width(face: Face, size: f32, text: &str) -> f32 {
    let m = metrics(face);
    let q = m.advance('?').unwrap_or(500.0);
    text.chars().map(|c| m.advance(c).unwrap_or(q)).sum::<f32>() * size / 1000.0
}

/// A subset font program holding the glyphs of `chars` (plus `.notdef`), as printpdf's font.
/// `None` when subsetting fails; the caller then embeds the whole face.
pub(crate) fn subset(face: Face, chars: &BTreeSet<char>) -> Option<ParsedFont> {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{CmapTarget, SubsetProfile};

    let m = metrics(face);
    let mut gids: BTreeSet<u16> = chars
        .iter()
        .filter_map(|c| m.cmap.get(&(*c as u32)).copied())
        .collect();
    gids.remove(&0);
    // .notdef first, as allsorts requires.
    let ids: Vec<u16> = std::iter::once(0).chain(gids).collect();
    let font_file = ReadScope::new(face.bytes()).read::<FontData<'_>>().ok()?;
    let provider = font_file.table_provider(0).ok()?;
    let bytes =
        allsorts::subset::subset(&provider, &ids, &SubsetProfile::Pdf, CmapTarget::Unicode).ok()?;
    let mut warnings = Vec::new();
    ParsedFont::from_bytes(&bytes, 0, &mut warnings)
}

/// The whole face, when subsetting failed.
pub(crate) fn full(face: Face) -> Option<ParsedFont> {
    let mut warnings = Vec::new();
    ParsedFont::from_bytes(face.bytes(), 0, &mut warnings)
}

/// Picks the face that draws `c`, with the character's advance in it (font units): `want` if
/// it has the glyph, else the regular serif face, else the mono face; `None` when no bundled
/// face has it.
pub(crate) fn face_and_advance(want: Face, c: char) -> Option<(Face, f32)> {
    [want, Face::Regular, Face::Mono]
        .into_iter()
        .find_map(|f| metrics(f).advance(c).map(|a| (f, a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_cover_latin_greek_cyrillic() {
        for face in Face::ALL {
            for c in "Aäßéø ΑΩαω АЯаяёЁ€–—…„“".chars() {
                assert!(
                    metrics(face).advance(c).is_some(),
                    "{face:?} lacks {c:?} (U+{:04X})",
                    c as u32
                );
            }
        }
        assert!(width(Face::Regular, 10.0, "WWW") > width(Face::Regular, 10.0, "iii"));
        assert_eq!(face_and_advance(Face::Regular, '\u{10FFFD}'), None);
    }

    #[test]
    fn subset_keeps_only_the_glyphs_drawn() {
        let chars: BTreeSet<char> = "Hallo Welt".chars().collect();
        let font = subset(Face::Regular, &chars).expect("subset");
        assert!(font.original_bytes.len() < Face::Regular.bytes().len() / 10);
        for c in &chars {
            assert!(font.lookup_glyph_index(*c as u32).is_some(), "{c:?} lost");
        }
        assert!(font.lookup_glyph_index('Z' as u32).is_none());
    }
}
