//! The bundled fonts (`templates/pdf/fonts/`: DejaVu Serif in four faces, DejaVu Sans Mono) and
//! their advance widths in dense tables: what every paged layout measures Latin, Greek and
//! Cyrillic text with, without shaping. Read with allsorts, so the metrics, and with them the
//! Word writer's table of contents page numbers, are the same whether the PDF writer is built
//! or not.

use std::sync::OnceLock;

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

    /// The font file: built in, or with the `external-fonts` feature the file given to
    /// [`provide_bundled_fonts`] (empty before: every character then counts as missing).
    pub(crate) fn bytes(self) -> &'static [u8] {
        #[cfg(not(feature = "external-fonts"))]
        let files = BUILT_IN;
        #[cfg(feature = "external-fonts")]
        let Some(files) = PROVIDED.get() else {
            return &[];
        };
        files[self.index()]
    }

    /// The face's PostScript name (the PDF's `/BaseFont`).
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

/// The bundled font files (`templates/pdf/fonts/`), in the order of the faces: what
/// `provide_bundled_fonts` (feature `external-fonts`) takes.
pub const BUNDLED_FONT_FILES: [&str; 5] = [
    "DejaVuSerif.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSerif-Italic.ttf",
    "DejaVuSerif-BoldItalic.ttf",
    "DejaVuSansMono.ttf",
];

// The files as one static: a static is one allocation in one codegen unit, where
// `include_bytes!` written inside `Face::bytes` was copied into every unit that inlined it (the
// WebAssembly package, js/, held the 1.8 MB three times).
#[cfg(not(feature = "external-fonts"))]
static BUILT_IN: [&[u8]; 5] = [
    include_bytes!("../../templates/pdf/fonts/DejaVuSerif.ttf"),
    include_bytes!("../../templates/pdf/fonts/DejaVuSerif-Bold.ttf"),
    include_bytes!("../../templates/pdf/fonts/DejaVuSerif-Italic.ttf"),
    include_bytes!("../../templates/pdf/fonts/DejaVuSerif-BoldItalic.ttf"),
    include_bytes!("../../templates/pdf/fonts/DejaVuSansMono.ttf"),
];

/// The files given to [`provide_bundled_fonts`].
#[cfg(feature = "external-fonts")]
static PROVIDED: OnceLock<[&'static [u8]; 5]> = OnceLock::new();

/// With the `external-fonts` feature (the WebAssembly package, which loads them as a file of
/// their own on first use): gives the engine the bundled font files, the contents of
/// [`BUNDLED_FONT_FILES`] in that order. Call it before the first Word, PDF, sd.xml or parsX
/// export (their layout and metafile pictures measure and draw text with these faces and keep
/// what they measured); later calls change nothing. Returns whether these files were taken.
#[cfg(feature = "external-fonts")]
pub fn provide_bundled_fonts(files: [Vec<u8>; 5]) -> bool {
    if PROVIDED.get().is_some() {
        return false;
    }
    // Leaked: the faces live as long as the process, as the built-in ones do.
    let files = files.map(|f| &*Box::leak(f.into_boxed_slice()));
    PROVIDED.set(files).is_ok()
}

/// Whether the bundled faces are there: always, unless the `external-fonts` feature waits for
/// `provide_bundled_fonts`.
pub fn bundled_fonts_present() -> bool {
    #[cfg(feature = "external-fonts")]
    let present = PROVIDED.get().is_some();
    #[cfg(not(feature = "external-fonts"))]
    let present = true;
    present
}

/// Code points below this are looked up in a dense table (Latin, Greek, Cyrillic, punctuation,
/// arrows, box drawing: everything the corpus uses), the rest in the font's map.
const DENSE: usize = 0x3000;
const NONE: u16 = u16::MAX;

/// A font file's character map and advances, in font units.
struct FontTables {
    units_per_em: u16,
    /// Code point → glyph id, from the preferred Unicode `cmap` subtable, by code point.
    glyphs: Vec<(u32, u16)>,
    /// Advance of each glyph id below `maxp.numGlyphs`.
    advances: Vec<u16>,
}

/// Mappings sorted by code point, one per code point (the last given, as a map would keep):
/// looked up by binary search. Built once per face at start-up, where a tree map (about
/// 3,400 code points a face, 17,000 for the five) cost more than the rest of reading the fonts.
fn by_code_point(mut mappings: Vec<(u32, u16)>) -> Vec<(u32, u16)> {
    // Reversed, a stable sort puts the last mapping of a code point first, which `dedup`
    // keeps.
    mappings.reverse();
    mappings.sort_by_key(|&(cp, _)| cp);
    mappings.dedup_by_key(|&mut (cp, _)| cp);
    mappings
}

/// Reads `head`, `maxp`, `hhea`, `cmap` and `hmtx` with allsorts.
fn read_font(bytes: &[u8]) -> Option<FontTables> {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::tables::cmap::Cmap;
    use allsorts::tables::{FontTableProvider, HeadTable, HheaTable, HmtxTable, MaxpTable};
    use allsorts::tag;

    let font_file = ReadScope::new(bytes).read::<FontData<'_>>().ok()?;
    let provider = font_file.table_provider(0).ok()?;
    let head = provider.read_table_data(tag::HEAD).ok()?;
    let head = ReadScope::new(&head).read::<HeadTable>().ok()?;
    let maxp = provider.read_table_data(tag::MAXP).ok()?;
    let maxp = ReadScope::new(&maxp).read::<MaxpTable>().ok()?;
    let hhea = provider.read_table_data(tag::HHEA).ok()?;
    let hhea = ReadScope::new(&hhea).read::<HheaTable>().ok()?;

    let mut glyphs = Vec::new();
    let cmap_data = provider.read_table_data(tag::CMAP).ok()?;
    let cmap = ReadScope::new(&cmap_data).read::<Cmap<'_>>().ok()?;
    if let Ok(Some((_, subtable))) = allsorts::font::read_cmap_subtable(&cmap) {
        let _ = subtable.mappings_fn(|cp, gid| glyphs.push((cp, gid)));
    }
    let glyphs = by_code_point(glyphs);
    let hmtx_data = provider.read_table_data(tag::HMTX).ok()?;
    let hmtx = ReadScope::new(&hmtx_data)
        .read_dep::<HmtxTable<'_>>((
            usize::from(maxp.num_glyphs),
            usize::from(hhea.num_h_metrics),
        ))
        .ok()?;
    let advances = (0..maxp.num_glyphs)
        .map(|gid| hmtx.horizontal_advance(gid).unwrap_or(0))
        .collect();
    Some(FontTables {
        units_per_em: head.units_per_em,
        glyphs,
        advances,
    })
}

/// One parsed face: advances in 1/1000 em.
pub(crate) struct Metrics {
    dense: Vec<u16>,
    /// Advances of code points past the dense table, by code point.
    sparse: Vec<(u32, u16)>,
    /// Code point → glyph id, by code point.
    cmap: Vec<(u32, u16)>,
    /// The advance of `.notdef`, the box drawn for a character no font has.
    notdef: f32,
    /// Each glyph's advance in em, unrounded, as the PDF draws it (the dense tables round to
    /// 1/1000 em; drawing with those would add a position adjustment to nearly every glyph).
    exact: Vec<f32>,
}

impl Metrics {
    fn parse(face: Face) -> Metrics {
        let mut dense = vec![NONE; DENSE];
        let mut sparse = Vec::new();
        let mut cmap = Vec::new();
        let mut notdef = 500.0;
        let mut exact = Vec::new();
        // The bundled files are known-good; a parse failure would leave the face empty (every
        // character then counts as missing), never a panic.
        if let Some(font) = read_font(face.bytes()) {
            let upm = f32::from(font.units_per_em.max(1));
            notdef = f32::from(font.advances.first().copied().unwrap_or(500)) * 1000.0 / upm;
            exact = font.advances.iter().map(|&a| f32::from(a) / upm).collect();
            for &(cp, gid) in &font.glyphs {
                let adv = font.advances.get(usize::from(gid)).copied().unwrap_or(0);
                let w = (f32::from(adv) * 1000.0 / upm).round().min(65000.0) as u16;
                if (cp as usize) < DENSE {
                    dense[cp as usize] = w;
                } else {
                    sparse.push((cp, w));
                }
            }
            cmap = font.glyphs;
        }
        Metrics {
            dense,
            sparse,
            cmap,
            notdef,
            exact,
        }
    }

    /// The advance of glyph `gid` in em, unrounded (0 for a glyph the face does not have).
    pub(crate) fn glyph_advance(&self, gid: u16) -> f32 {
        self.exact.get(usize::from(gid)).copied().unwrap_or(0.0)
    }

    /// The glyph id of code point `cp`, when the face has one.
    pub(crate) fn glyph(&self, cp: u32) -> Option<u16> {
        let at = self.cmap.binary_search_by_key(&cp, |&(c, _)| c).ok()?;
        Some(self.cmap[at].1)
    }

    /// The advance of `.notdef` in 1/1000 em.
    pub(crate) fn notdef(&self) -> f32 {
        self.notdef
    }

    /// The advance of `c` in 1/1000 em, `None` when the face has no glyph for it.
    pub(crate) fn advance(&self, c: char) -> Option<f32> {
        let cp = c as usize;
        let w = if cp < DENSE {
            self.dense[cp]
        } else {
            let at = self
                .sparse
                .binary_search_by_key(&(c as u32), |&(c, _)| c)
                .ok()?;
            self.sparse[at].1
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

/// The width of `text` in `face` at `size` points, without shaping or fallback: characters
/// the face lacks count as its `.notdef` box.
pub(crate) fn width(face: Face, size: f32, text: &str) -> f32 {
    let m = metrics(face);
    let q = m.notdef();
    text.chars().map(|c| m.advance(c).unwrap_or(q)).sum::<f32>() * size / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mappings_by_code_point_keep_the_last_of_each() {
        let sorted = by_code_point(vec![(0x4E00, 7), (65, 1), (0x4E00, 9), (66, 2), (65, 3)]);
        assert_eq!(sorted, [(65, 3), (66, 2), (0x4E00, 9)]);
        // Code points past the dense table are found by search, and absent ones are not.
        let mut searched = 0;
        for face in Face::ALL {
            let m = metrics(face);
            for &(cp, w) in &m.sparse {
                let c = char::from_u32(cp).expect("a cmap maps characters");
                assert_eq!(m.advance(c), Some(f32::from(w)));
                assert!(m.glyph(cp).is_some());
                searched += 1;
            }
            assert_eq!(m.glyph(0x10FFFF), None);
            assert_eq!(m.advance('\u{10FFFF}'), None);
        }
        assert!(
            searched > 0,
            "no face maps a code point past the dense table"
        );
    }

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
        assert_eq!(metrics(Face::Regular).advance('\u{10FFFD}'), None);
    }
}
