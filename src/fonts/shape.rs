//! Shaping with harfrust (the Rust port of HarfBuzz resvg already brings): Arabic joining,
//! ligatures, kerning, combining marks and the reordering of Indic and Thai vowels. A run is
//! shaped in one font and one direction; the glyphs come out in visual order (left to right
//! on the page), each with the byte range of the text it stands for, so the PDF's text layer
//! reads the characters back.
//!
//! Documents repeat their words, so results are kept per (font, direction, text); the cache
//! is bounded and starts over when full.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::book::{self, FontId};

/// One shaped glyph. Lengths are in 1/1000 em, so a shaped run serves every font size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Glyph {
    /// Glyph id in the run's font; 0 is the font's `.notdef` box (a character it lacks).
    pub id: u16,
    /// Horizontal advance.
    pub advance: f32,
    /// Offset from the pen position, right and up.
    pub dx: f32,
    pub dy: f32,
    /// The byte range of the run's text this glyph's cluster covers.
    pub start: u32,
    pub end: u32,
}

/// A shaped run: its glyphs in visual order.
pub(crate) type Glyphs = Arc<[Glyph]>;

/// The total advance of `glyphs`, 1/1000 em.
pub(crate) fn width(glyphs: &[Glyph]) -> f32 {
    glyphs.iter().map(|g| g.advance).sum()
}

/// Entries the cache holds before it starts over.
const CACHE_ENTRIES: usize = 1 << 16;

/// Results by font, direction and language (a hash of its tag), then by text (looked up by
/// `&str`: no allocation on a hit).
type Results = HashMap<(FontId, bool, u64), HashMap<Box<str>, Glyphs>>;

/// FNV-1a of the language tag: part of the cache key, as a font's forms may differ by language.
fn lang_key(lang: Option<&str>) -> u64 {
    lang.map_or(0, |l| {
        l.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    })
}

struct Shaper {
    /// harfrust's per-font tables, built once per font.
    data: HashMap<FontId, Arc<harfrust::ShaperData>>,
    results: Results,
    /// Entries in `results`.
    entries: usize,
}

fn shaper() -> &'static Mutex<Shaper> {
    static SHAPER: OnceLock<Mutex<Shaper>> = OnceLock::new();
    SHAPER.get_or_init(|| {
        Mutex::new(Shaper {
            data: HashMap::new(),
            results: HashMap::new(),
            entries: 0,
        })
    })
}

/// Shapes `text` in font `font`, right to left when `rtl`; `lang` (BCP 47) picks language
/// forms where the font has them. `None` when the font cannot be read.
pub(crate) fn shape(font: FontId, text: &str, rtl: bool, lang: Option<&str>) -> Option<Glyphs> {
    let (bytes, index) = book::data(font)?;
    let f = harfrust::FontRef::from_index(bytes.bytes(), index).ok()?;
    let data = {
        let mut s = shaper().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(hit) = s
            .results
            .get(&(font, rtl, lang_key(lang)))
            .and_then(|m| m.get(text))
        {
            return Some(hit.clone());
        }
        s.data
            .entry(font)
            .or_insert_with(|| Arc::new(harfrust::ShaperData::new(&f)))
            .clone()
    };
    // Shaped outside the lock: the font's bytes are shared, the tables are the cache's.
    let upem = skrifa::raw::TableProvider::head(&f)
        .map(|h| f32::from(h.units_per_em()))
        .unwrap_or(1000.0)
        .max(1.0);
    let shaper_of_font = data.shaper(&f).build();
    let mut buffer = harfrust::UnicodeBuffer::new();
    buffer.push_str(text);
    buffer.set_direction(if rtl {
        harfrust::Direction::RightToLeft
    } else {
        harfrust::Direction::LeftToRight
    });
    if let Some(l) = lang.and_then(|l| l.replace('_', "-").parse::<harfrust::Language>().ok()) {
        buffer.set_language(l);
    }
    buffer.guess_segment_properties();
    let out = shaper_of_font.shape(buffer, harfrust::ShapeOptions::new());
    let infos = out.glyph_infos();
    let positions = out.glyph_positions();
    // A cluster ends where the next larger cluster starts (glyphs of a right-to-left run come
    // in falling cluster order).
    let mut starts: Vec<u32> = infos.iter().map(|i| i.cluster).collect();
    starts.sort_unstable();
    starts.dedup();
    let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
    let k = 1000.0 / upem;
    let glyphs: Glyphs = infos
        .iter()
        .zip(positions)
        .map(|(info, pos)| {
            let start = info.cluster.min(len);
            let end = match starts.binary_search(&info.cluster) {
                Ok(i) => starts.get(i + 1).copied().unwrap_or(len),
                Err(_) => len,
            }
            .min(len);
            Glyph {
                id: u16::try_from(info.glyph_id).unwrap_or(0),
                advance: pos.x_advance as f32 * k,
                dx: pos.x_offset as f32 * k,
                dy: pos.y_offset as f32 * k,
                start,
                end,
            }
        })
        .collect();
    let glyphs = refine_clusters(font, text, rtl, glyphs);
    let mut s = shaper().lock().unwrap_or_else(|e| e.into_inner());
    if s.entries >= CACHE_ENTRIES {
        s.results.clear();
        s.entries = 0;
    }
    s.entries += 1;
    s.results
        .entry((font, rtl, lang_key(lang)))
        .or_default()
        .insert(text.into(), glyphs.clone());
    Some(glyphs)
}

/// Gives each glyph of a cluster its own character where the cluster's glyphs are simply its
/// characters' glyphs in order (a consonant and its vowel sign, a letter and its accent): the
/// PDF then maps each glyph to its character (`ToUnicode`) instead of wrapping the cluster in
/// `ActualText`, which text extractors read as a word of its own. Ligatures and reordered
/// clusters keep their shared range.
fn refine_clusters(font: FontId, text: &str, rtl: bool, mut glyphs: Glyphs) -> Glyphs {
    let mut i = 0;
    let mut changed: Option<Vec<Glyph>> = None;
    while i < glyphs.len() {
        let (start, end) = (glyphs[i].start, glyphs[i].end);
        let mut j = i + 1;
        while j < glyphs.len() && glyphs[j].start == start && glyphs[j].end == end {
            j += 1;
        }
        let Some(cluster) = text.get(start as usize..end as usize) else {
            i = j;
            continue;
        };
        let n = j - i;
        if n > 1 && cluster.chars().count() == n {
            // The glyphs in logical order: a right-to-left run lists them backwards.
            let order: Vec<usize> = if rtl {
                (i..j).rev().collect()
            } else {
                (i..j).collect()
            };
            // Glyphs moved off their pen position (marks set by offsets) stay one cluster:
            // text extractors take a glyph drawn away from its advance for a word break.
            let matches = cluster.char_indices().zip(&order).all(|((_, c), &k)| {
                book::glyph(font, c) == Some(glyphs[k].id)
                    && glyphs[k].dx == 0.0
                    && glyphs[k].dy == 0.0
            });
            if matches {
                let v = changed.get_or_insert_with(|| glyphs.to_vec());
                for ((at, c), &k) in cluster.char_indices().zip(&order) {
                    let from = start + at as u32;
                    v[k].start = from;
                    v[k].end = from + c.len_utf8() as u32;
                }
            }
        }
        i = j;
    }
    if let Some(v) = changed {
        glyphs = v.into();
    }
    // A mark set by an offset (a vowel sign over its consonant in Devanagari, a vowel of
    // Thai) ends its glyph's box before the next glyph starts, and poppler and other
    // extractors read that gap as a word break ("रे खा"): such a run, a word or part of
    // one, becomes a single cluster, which the PDF writes as one `ActualText`. Not right to
    // left: extractors read such a span's text in drawing order, backwards.
    if !rtl && glyphs.iter().any(|g| g.dx != 0.0 || g.dy != 0.0) {
        let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
        glyphs = glyphs
            .iter()
            .map(|g| Glyph {
                start: 0,
                end: len,
                ..*g
            })
            .collect();
    }
    glyphs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fonts::metrics::Face;

    #[test]
    fn latin_shapes_to_one_glyph_per_letter_with_the_tables_advances() {
        let id = FontId::of(Face::Regular);
        let g = shape(id, "Wave", false, None).expect("bundled font");
        assert_eq!(g.len(), 4);
        // Kerning may move "Wa" closer, never apart by much: the sum stays near the plain one.
        let plain = crate::fonts::metrics::width(Face::Regular, 1000.0, "Wave");
        assert!(
            (width(&g) - plain).abs() < 150.0,
            "{} vs {plain}",
            width(&g)
        );
        assert_eq!((g[0].start, g[0].end), (0, 1));
        assert_eq!((g[3].start, g[3].end), (3, 4));
    }

    #[test]
    fn right_to_left_glyphs_come_in_visual_order() {
        // DejaVu Serif has Hebrew letters: the first letter's glyph comes last.
        let id = FontId::of(Face::Regular);
        let text = "שלום";
        let g = shape(id, text, true, Some("he")).expect("bundled font");
        assert_eq!(g.len(), 4);
        assert_eq!(g[3].start, 0, "{g:?}");
        assert_eq!(g[0].end as usize, text.len());
    }

    #[test]
    fn a_letter_and_its_accent_map_to_their_own_characters() {
        // "e" + combining acute: DejaVu has no precomposed form for the pair as typed, so the
        // shaper gives two glyphs in one cluster; each stands for its own character.
        let id = FontId::of(Face::Regular);
        let g = shape(id, "xe\u{301}y", false, None).expect("bundled font");
        let ranges: Vec<(u32, u32)> = g.iter().map(|g| (g.start, g.end)).collect();
        assert!(
            ranges == vec![(0, 1), (1, 2), (2, 4), (4, 5)] || ranges.len() == 3,
            "{ranges:?}"
        );
    }

    #[test]
    fn a_missing_character_keeps_its_text_range() {
        let id = FontId::of(Face::Regular);
        let g = shape(id, "a\u{10FFFD}b", false, None).expect("bundled font");
        let missing: Vec<&Glyph> = g.iter().filter(|g| g.id == 0).collect();
        assert_eq!(missing.len(), 1);
        assert_eq!((missing[0].start, missing[0].end), (1, 5));
    }
}
