//! Font embedding: each PDF embeds only the glyphs it draws of the bundled faces
//! ([`crate::export::paged::metrics`]).
//!
//! printpdf without its `text_layout` feature (which would pull in the azul layout engine) embeds
//! whole font files, so the subset is made here with allsorts (printpdf's own font crate) and
//! handed to printpdf as the font: its cmap maps the drawn characters, so printpdf's `/W` widths
//! and `/ToUnicode` (what `pdftotext` reads) come out right.

use std::collections::BTreeSet;

use printpdf::ParsedFont;

use crate::fonts::metrics::{Face, metrics};

/// A subset font program holding the glyphs of `chars` (plus `.notdef`), as printpdf's font.
/// `None` when subsetting fails; the caller then embeds the whole face.
pub(crate) fn subset(face: Face, chars: &BTreeSet<char>) -> Option<ParsedFont> {
    use allsorts::binary::read::ReadScope;
    use allsorts::font_data::FontData;
    use allsorts::subset::{CmapTarget, SubsetProfile};

    let m = metrics(face);
    let mut gids: BTreeSet<u16> = chars.iter().filter_map(|c| m.glyph(*c as u32)).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

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
