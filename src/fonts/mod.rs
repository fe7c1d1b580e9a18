//! Fonts, below both the paged layout (`export::paged`, shared by the PDF and Word writers) and
//! the metafile player: one place that knows which fonts exist, what they write, how wide
//! their glyphs are and how text is shaped in them.
//!
//! - `metrics`: the bundled faces (DejaVu Serif in four faces, DejaVu Sans Mono) and their
//!   advance tables, the fast path for Latin, Greek and Cyrillic text.
//! - `book`: every other font by id: fonts the caller registers ([`register`], the CLI's
//!   `--font-dir`) and fonts found on the system (fontdb), looked up by script when a character
//!   is met that the bundled faces do not write.
//! - `script`: which writing system a character belongs to, whether text needs shaping, and
//!   where lines may break without spaces.
//! - `shape`: harfrust shaping (joining, ligatures, kerning, marks, Indic reordering).
//! - `word_breaks`: where lines break inside Thai, Lao, Khmer and Myanmar words (ICU4X's
//!   dictionaries).
//! - `bundled_database`: the bundled faces as a fontdb database, for resvg when it draws the
//!   text of a metafile.

pub(crate) mod book;
pub(crate) mod metrics;
pub(crate) mod script;
pub(crate) mod shape;
pub(crate) mod word_breaks;

pub use book::{FontError, MAX_FONT_BYTES, register, use_system_fonts};
#[cfg(feature = "external-fonts")]
pub use metrics::provide_bundled_fonts;
pub use metrics::{BUNDLED_FONT_FILES, bundled_fonts_present};

use std::sync::{Arc, OnceLock};

use metrics::Face;

/// The bundled faces in a font database, with the generic families pointing at them: the
/// metafile player draws text with these only, so a picture is the same on every machine.
pub(crate) fn bundled_database() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        for face in Face::ALL {
            db.load_font_data(face.bytes().to_vec());
        }
        // Every generic family (and any face not bundled: Arial, Times New Roman, Symbol…)
        // falls back to the serif face, which has Latin, Greek, Cyrillic and math symbols.
        db.set_serif_family("DejaVu Serif");
        db.set_sans_serif_family("DejaVu Serif");
        db.set_cursive_family("DejaVu Serif");
        db.set_fantasy_family("DejaVu Serif");
        db.set_monospace_family("DejaVu Sans Mono");
        Arc::new(db)
    })
    .clone()
}
