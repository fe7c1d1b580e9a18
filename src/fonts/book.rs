//! The process's font book: every font a layout may draw with, by a small id.
//!
//! Ids 0–4 are the bundled faces ([`Face::ALL`] order), always present, measured from their
//! dense tables ([`super::metrics`]). Further ids are given out as fonts are first needed, in
//! the order of the fallback:
//!
//! 1. fonts the caller registered ([`register`], the CLI's `--font-dir`), in registration order;
//! 2. fonts found on the system (fontdb's standard directories: `/usr/share/fonts`, …), looked
//!    for only when a character is met that neither the bundled nor the registered fonts
//!    write, so a Latin document never reads the font directories. For a character's script
//!    the families that write it well are asked for by name first (Noto Naskh Arabic for
//!    Arabic, Noto Serif CJK JP for Japanese kanji, …); a script none of them covers is looked
//!    up in every system font once.
//!
//! The book is shared by every conversion of the process (a font is parsed once) and only
//! grows; it holds at most [`MAX_FONTS`] fonts of at most [`MAX_FONT_BYTES`] each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::metrics::{self, Face};
use super::script::Script;

/// Fonts beyond the bundled ones the book will hold.
pub(crate) const MAX_FONTS: usize = 256;
/// Bytes of one font file, at most (Noto Serif CJK's collection is about 25 MB).
pub const MAX_FONT_BYTES: usize = 64 << 20;

/// A font of the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct FontId(u16);

impl FontId {
    /// The id of a bundled face.
    pub(crate) fn of(face: Face) -> FontId {
        FontId(face.index() as u16)
    }

    /// The bundled face this id stands for, if it is one.
    pub(crate) fn face(self) -> Option<Face> {
        Face::ALL.get(usize::from(self.0)).copied()
    }

    /// The id as an index (bundled faces first).
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The bytes of a font file.
#[derive(Clone)]
pub(crate) enum FontData {
    /// A bundled face, compiled in.
    Static(&'static [u8]),
    /// A file read from disk or handed over by the caller.
    Shared(Arc<[u8]>),
}

impl FontData {
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            FontData::Static(b) => b,
            FontData::Shared(b) => b,
        }
    }
}

impl std::fmt::Debug for FontData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FontData({} bytes)", self.bytes().len())
    }
}

/// A font that is not bundled: its file, face index, names, character map and advances.
#[derive(Debug)]
pub(crate) struct Font {
    pub data: FontData,
    /// The face's index in a collection (`.ttc`), 0 otherwise.
    pub index: u32,
    /// The PostScript name.
    pub name: String,
    cmap: HashMap<u32, u16>,
    /// Advance of each glyph, 1/1000 em.
    advances: Vec<f32>,
}

impl Font {
    /// Reads the face `index` of `data`; `None` when it is not a font skrifa reads.
    pub(crate) fn load(data: FontData, index: u32) -> Option<Font> {
        use skrifa::MetadataProvider;
        use skrifa::instance::{LocationRef, Size};
        use skrifa::raw::TableProvider;

        let font = skrifa::FontRef::from_index(data.bytes(), index).ok()?;
        let upem = f32::from(font.head().ok()?.units_per_em()).max(1.0);
        let glyphs = font.glyph_metrics(Size::unscaled(), LocationRef::default());
        let count = u32::from(font.maxp().ok()?.num_glyphs());
        let advances = (0..count)
            .map(|g| glyphs.advance_width(skrifa::GlyphId::new(g)).unwrap_or(0.0) * 1000.0 / upem)
            .collect();
        let cmap = font
            .charmap()
            .mappings()
            .filter_map(|(c, g)| Some((c, u16::try_from(g.to_u32()).ok()?)))
            .collect();
        let name = font
            .localized_strings(skrifa::string::StringId::POSTSCRIPT_NAME)
            .english_or_first()
            .map(|s| {
                s.chars()
                    .filter(|c| c.is_ascii_graphic())
                    .collect::<String>()
            })
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "Font".to_string());
        Some(Font {
            data,
            index,
            name,
            cmap,
            advances,
        })
    }

    /// The glyph of `c`.
    pub(crate) fn glyph(&self, c: char) -> Option<u16> {
        self.cmap.get(&(c as u32)).copied().filter(|&g| g != 0)
    }

    /// The advance of glyph `gid`, 1/1000 em.
    pub(crate) fn advance(&self, gid: u16) -> f32 {
        self.advances.get(usize::from(gid)).copied().unwrap_or(0.0)
    }
}

/// The book's mutable part.
#[derive(Default)]
struct Book {
    /// Fonts by id − 5.
    fonts: Vec<Arc<Font>>,
    /// Ids of the registered fonts, in order.
    registered: Vec<FontId>,
    /// The system's fonts, read on first need; `None` inside when system fonts are off.
    system: Option<Option<fontdb::Database>>,
    /// System faces already loaded, by fontdb id.
    loaded: HashMap<fontdb::ID, Option<FontId>>,
    /// The font found for a character and weight (bold, italic), or none.
    found: HashMap<(char, bool, bool), Option<FontId>>,
    /// Characters looked up in every system font so far.
    scans: usize,
}

/// Characters a process looks up in every system font, at most.
const MAX_SCANS: usize = 64;

fn book() -> &'static Mutex<Book> {
    static BOOK: OnceLock<Mutex<Book>> = OnceLock::new();
    BOOK.get_or_init(|| Mutex::new(Book::default()))
}

fn lock() -> std::sync::MutexGuard<'static, Book> {
    // A panic elsewhere while the lock was held leaves the book as consistent as before each
    // insert (every change is one push or insert), so a poisoned lock is still used.
    book().lock().unwrap_or_else(|e| e.into_inner())
}

/// Whether system fonts are looked up (on unless switched off, e.g. for byte-identical output
/// on every machine).
static SYSTEM_FONTS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Switches the system font lookup on or off for the rest of the process (it is on by
/// default). Off, a character neither the bundled nor the registered fonts write is drawn as a
/// box, the same on every machine.
pub fn use_system_fonts(on: bool) {
    SYSTEM_FONTS.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Why a font could not be registered.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    /// The bytes are no font file skrifa reads.
    #[error("not a font file (TrueType, OpenType or a collection of them)")]
    NotAFont,
    /// The file is larger than [`MAX_FONT_BYTES`].
    #[error("font file of {0} bytes is over the limit of {MAX_FONT_BYTES}")]
    TooLarge(usize),
    /// The book is full.
    #[error("no more than {MAX_FONTS} fonts can be loaded")]
    Full,
}

/// Registers a font file (every face of a collection) for the paged writers (PDF, and the
/// Word writer's page numbers), for the rest of the process: its faces are tried after the
/// bundled fonts and before the system's. Returns the number of faces added.
pub fn register(data: Vec<u8>) -> Result<usize, FontError> {
    if data.len() > MAX_FONT_BYTES {
        return Err(FontError::TooLarge(data.len()));
    }
    let data: Arc<[u8]> = data.into();
    let count = match skrifa::raw::FileRef::new(&data) {
        Ok(skrifa::raw::FileRef::Font(_)) => 1,
        Ok(skrifa::raw::FileRef::Collection(c)) => c.len().min(64),
        Err(_) => return Err(FontError::NotAFont),
    };
    let mut added = 0;
    let mut b = lock();
    for index in 0..count {
        let Some(font) = Font::load(FontData::Shared(data.clone()), index) else {
            continue;
        };
        let id = b.push(font).ok_or(FontError::Full)?;
        b.registered.push(id);
        added += 1;
    }
    if added == 0 {
        return Err(FontError::NotAFont);
    }
    // Characters looked up before may be written by the new font.
    b.found.clear();
    Ok(added)
}

impl Book {
    fn push(&mut self, font: Font) -> Option<FontId> {
        if self.fonts.len() >= MAX_FONTS {
            return None;
        }
        self.fonts.push(Arc::new(font));
        u16::try_from(self.fonts.len() - 1 + Face::ALL.len())
            .ok()
            .map(FontId)
    }

    fn get(&self, id: FontId) -> Option<&Arc<Font>> {
        self.fonts.get(id.index().checked_sub(Face::ALL.len())?)
    }

    fn system(&mut self) -> Option<&fontdb::Database> {
        if self.system.is_none() {
            let db = SYSTEM_FONTS
                .load(std::sync::atomic::Ordering::Relaxed)
                .then(|| {
                    let mut db = fontdb::Database::new();
                    db.load_system_fonts();
                    db
                });
            self.system = Some(db);
        }
        self.system.as_ref().and_then(Option::as_ref)
    }

    /// The book's font for the system face `id`, loading it on first use.
    fn system_face(&mut self, id: fontdb::ID) -> Option<FontId> {
        if let Some(known) = self.loaded.get(&id) {
            return *known;
        }
        let (source, index) = self.system()?.face_source(id)?;
        let data: Option<Arc<[u8]>> = match source {
            fontdb::Source::File(path) => std::fs::metadata(&path)
                .ok()
                .filter(|m| m.len() <= MAX_FONT_BYTES as u64)
                .and_then(|_| std::fs::read(&path).ok())
                .map(Into::into),
            fontdb::Source::Binary(b) | fontdb::Source::SharedFile(_, b) => {
                let b = (*b).as_ref();
                (b.len() <= MAX_FONT_BYTES).then(|| b.into())
            }
        };
        let font = data.and_then(|d| Font::load(FontData::Shared(d), index));
        let fid = font.and_then(|f| self.push(f));
        self.loaded.insert(id, fid);
        fid
    }

    /// A system font that writes `c`, preferring the families named for its script.
    fn system_font_for(&mut self, c: char, bold: bool, italic: bool, lang: Lang) -> Option<FontId> {
        let families = families(Script::of(c), lang);
        let weight = if bold {
            fontdb::Weight::BOLD
        } else {
            fontdb::Weight::NORMAL
        };
        let style = if italic {
            fontdb::Style::Italic
        } else {
            fontdb::Style::Normal
        };
        for family in families {
            let query = fontdb::Query {
                families: &[fontdb::Family::Name(family)],
                weight,
                stretch: fontdb::Stretch::Normal,
                style,
            };
            let Some(id) = self.system()?.query(&query) else {
                continue;
            };
            if let Some(fid) = self.system_face(id)
                && self.get(fid).is_some_and(|f| f.glyph(c).is_some())
            {
                return Some(fid);
            }
        }
        // No named family: every system face, regular ones first, the first that has it. Not for
        // private-use characters (their glyphs mean something only in the font they came
        // with), and only for so many characters a process (each look costs a pass over every
        // font file).
        let private = matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..);
        if private || self.scans >= MAX_SCANS {
            return None;
        }
        self.scans += 1;
        let mut ids: Vec<(bool, fontdb::ID)> = self
            .system()?
            .faces()
            .map(|f| (f.weight != weight || f.style != style, f.id))
            .collect();
        ids.sort_by_key(|(other, _)| *other);
        for (_, id) in ids {
            let covers = self
                .system()?
                .with_face_data(id, |data, index| {
                    use skrifa::MetadataProvider;
                    skrifa::FontRef::from_index(data, index)
                        .ok()
                        .and_then(|f| f.charmap().map(c))
                        .is_some_and(|g| g.to_u32() != 0)
                })
                .unwrap_or(false);
            if covers {
                return self.system_face(id);
            }
        }
        None
    }
}

/// What the text's language says about which Han glyphs are wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) enum Lang {
    /// No language, or one that does not decide.
    #[default]
    Unknown,
    Japanese,
    Korean,
    TraditionalChinese,
    SimplifiedChinese,
}

impl Lang {
    /// From a BCP 47 or `ll_CC` tag.
    pub(crate) fn of(tag: Option<&str>) -> Lang {
        let Some(tag) = tag else {
            return Lang::Unknown;
        };
        let t = tag.to_ascii_lowercase().replace('_', "-");
        if t.starts_with("ja") {
            Lang::Japanese
        } else if t.starts_with("ko") {
            Lang::Korean
        } else if t.starts_with("zh-tw")
            || t.starts_with("zh-hk")
            || t.starts_with("zh-mo")
            || t.contains("hant")
        {
            Lang::TraditionalChinese
        } else if t.starts_with("zh") {
            Lang::SimplifiedChinese
        } else {
            Lang::Unknown
        }
    }
}

/// The families asked for by name for a script, serif first (the body face is a serif).
fn families(script: Script, lang: Lang) -> &'static [&'static str] {
    match script {
        Script::Arabic => &["Noto Naskh Arabic", "Noto Sans Arabic", "DejaVu Sans"],
        Script::Hebrew => &["Noto Serif Hebrew", "Noto Sans Hebrew", "DejaVu Sans"],
        Script::Syriac => &["Noto Sans Syriac"],
        Script::Thaana => &["Noto Sans Thaana"],
        Script::Devanagari => &["Noto Serif Devanagari", "Noto Sans Devanagari"],
        Script::Bengali => &["Noto Serif Bengali", "Noto Sans Bengali"],
        Script::Gurmukhi => &["Noto Serif Gurmukhi", "Noto Sans Gurmukhi"],
        Script::Gujarati => &["Noto Serif Gujarati", "Noto Sans Gujarati"],
        Script::Oriya => &["Noto Sans Oriya"],
        Script::Tamil => &["Noto Serif Tamil", "Noto Sans Tamil"],
        Script::Telugu => &["Noto Serif Telugu", "Noto Sans Telugu"],
        Script::Kannada => &["Noto Serif Kannada", "Noto Sans Kannada"],
        Script::Malayalam => &["Noto Serif Malayalam", "Noto Sans Malayalam"],
        Script::Sinhala => &["Noto Serif Sinhala", "Noto Sans Sinhala"],
        Script::Thai => &["Noto Serif Thai", "Noto Sans Thai", "Noto Looped Thai"],
        Script::Lao => &["Noto Serif Lao", "Noto Sans Lao"],
        Script::Tibetan => &["Noto Serif Tibetan", "Noto Sans Tibetan"],
        Script::Myanmar => &["Noto Serif Myanmar", "Noto Sans Myanmar"],
        Script::Khmer => &["Noto Serif Khmer", "Noto Sans Khmer"],
        Script::Georgian => &["Noto Serif Georgian", "Noto Sans Georgian", "DejaVu Sans"],
        Script::Armenian => &["Noto Serif Armenian", "Noto Sans Armenian", "DejaVu Sans"],
        Script::Ethiopic => &["Noto Serif Ethiopic", "Noto Sans Ethiopic"],
        Script::Hangul => &["Noto Serif CJK KR", "Noto Sans CJK KR"],
        Script::Kana => &["Noto Serif CJK JP", "Noto Sans CJK JP"],
        Script::Han => match lang {
            Lang::Japanese => &["Noto Serif CJK JP", "Noto Sans CJK JP"],
            Lang::Korean => &["Noto Serif CJK KR", "Noto Sans CJK KR"],
            Lang::TraditionalChinese => &["Noto Serif CJK TC", "Noto Sans CJK TC"],
            Lang::SimplifiedChinese | Lang::Unknown => &["Noto Serif CJK SC", "Noto Sans CJK SC"],
        },
        Script::Common | Script::Other => &[
            "DejaVu Sans",
            "Noto Sans",
            "Noto Sans Symbols",
            "Noto Sans Symbols2",
        ],
    }
}

/// A font that writes `c` when no bundled face does: registered fonts first, then the
/// system's. Cached per character and weight.
pub(crate) fn fallback(c: char, bold: bool, italic: bool, lang: Lang) -> Option<FontId> {
    let mut b = lock();
    if let Some(found) = b.found.get(&(c, bold, italic)) {
        return *found;
    }
    let registered = b
        .registered
        .iter()
        .copied()
        .find(|&id| b.get(id).is_some_and(|f| f.glyph(c).is_some()));
    let found = registered.or_else(|| b.system_font_for(c, bold, italic, lang));
    if b.found.len() < 1 << 16 {
        b.found.insert((c, bold, italic), found);
    }
    found
}

/// The font behind a non-bundled id.
pub(crate) fn font(id: FontId) -> Option<Arc<Font>> {
    lock().get(id).cloned()
}

/// The glyph of `c` in font `id` (bundled or not).
pub(crate) fn glyph(id: FontId, c: char) -> Option<u16> {
    match id.face() {
        Some(face) => metrics::metrics(face).glyph(c as u32),
        None => font(id)?.glyph(c),
    }
}

/// The advance of `c` in font `id`, 1/1000 em; `None` when the font lacks it.
pub(crate) fn advance(id: FontId, c: char) -> Option<f32> {
    match id.face() {
        Some(face) => metrics::metrics(face).advance(c),
        None => {
            let f = font(id)?;
            f.glyph(c).map(|g| f.advance(g))
        }
    }
}

/// The width of `text` in font `id` without shaping, 1/1000 em; characters the font lacks
/// count as its box.
pub(crate) fn advance_of(id: FontId, text: &str) -> f32 {
    match id.face() {
        Some(face) => metrics::width(face, 1000.0, text),
        None => match font(id) {
            Some(f) => text
                .chars()
                .map(|c| f.advance(f.glyph(c).unwrap_or(0)))
                .sum(),
            None => 0.0,
        },
    }
}

/// The bytes and collection index of font `id`.
pub(crate) fn data(id: FontId) -> Option<(FontData, u32)> {
    match id.face() {
        Some(face) => Some((FontData::Static(face.bytes()), 0)),
        None => font(id).map(|f| (f.data.clone(), f.index)),
    }
}

/// The PostScript name of font `id`.
pub(crate) fn name(id: FontId) -> String {
    match id.face() {
        Some(face) => face.name().to_string(),
        None => font(id).map_or_else(|| "Font".to_string(), |f| f.name.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_ids_round_trip() {
        for face in Face::ALL {
            assert_eq!(FontId::of(face).face(), Some(face));
        }
        assert_eq!(FontId(9).face(), None);
    }

    #[test]
    fn registering_garbage_is_an_error() {
        assert!(matches!(
            register(b"not a font".to_vec()),
            Err(FontError::NotAFont)
        ));
        assert!(matches!(
            register(vec![0; MAX_FONT_BYTES + 1]),
            Err(FontError::TooLarge(_))
        ));
    }

    #[test]
    fn a_registered_font_writes_what_it_has() {
        // The bundled mono face, registered as if it were the caller's: its glyphs are found.
        let n = register(Face::Mono.bytes().to_vec()).expect("a real font");
        assert_eq!(n, 1);
        let ids = lock().registered.clone();
        let id = *ids.last().expect("registered");
        assert!(glyph(id, 'A').is_some());
        assert!(advance(id, 'A').is_some_and(|a| a > 500.0 && a < 700.0));
        assert_eq!(name(id), "DejaVuSansMono");
    }

    #[test]
    fn language_tags_choose_han_glyphs() {
        assert_eq!(Lang::of(Some("ja-JP")), Lang::Japanese);
        assert_eq!(Lang::of(Some("zh_TW")), Lang::TraditionalChinese);
        assert_eq!(Lang::of(Some("zh-CN")), Lang::SimplifiedChinese);
        assert_eq!(Lang::of(Some("de")), Lang::Unknown);
    }
}
