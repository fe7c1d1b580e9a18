//! Inline content → tokens for the line breaker: text pieces in a face and size, spaces, forced
//! breaks, inline pictures and footnote markers. Marks become faces, sizes, colours and rules;
//! links, cross-references, notes and comment anchors are resolved here.

use crate::ast::{ChangeKind, Inline, NoteKind, TextStyle};
use crate::fonts::book::{self, FontId, Lang};
use crate::fonts::metrics::{self, Face};
use crate::fonts::script::{self, Script};
use crate::fonts::shape::Glyphs;
use crate::fonts::word_breaks;
use compact_str::CompactString;

/// Text colour, RGB 0..1.
pub(crate) type Rgb = [f32; 3];

pub(crate) const BLACK: Rgb = [0.0, 0.0, 0.0];
pub(crate) const LINK_BLUE: Rgb = [0.05, 0.25, 0.65];
const INSERT_GREEN: Rgb = [0.0, 0.45, 0.2];
const DELETE_RED: Rgb = [0.75, 0.1, 0.1];
const COMMENT_ORANGE: Rgb = [0.8, 0.4, 0.0];

/// How a piece of text is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Style {
    pub face: Face,
    pub size: f32,
    pub color: Rgb,
    pub underline: bool,
    pub strike: bool,
    /// Baseline shift in points (superscript up, subscript down).
    pub rise: f32,
    /// Index into [`Inliner::links`].
    pub link: Option<u32>,
    /// Small capitals: drawn as capitals at 80 %.
    pub caps: bool,
    /// Bidirectional embedding level (UAX #9): even left to right, odd right to left. Set by
    /// [`super::bidi::prepare`] before lines are broken.
    pub level: u8,
}

impl Style {
    pub(crate) fn new(face: Face, size: f32) -> Style {
        Style {
            face,
            size,
            color: BLACK,
            underline: false,
            strike: false,
            rise: 0.0,
            link: None,
            caps: false,
            level: 0,
        }
    }
}

/// Where a link goes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum LinkTarget {
    /// A web or mail address.
    Uri(String),
    /// An anchor in this document.
    Anchor(Anchor),
}

/// A place in the document a link, the outline or a directory points to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Anchor {
    /// A top-level block by index.
    Block(usize),
    /// A block or bookmark id of the tree.
    Id(String),
    /// The n-th endnote (0-based).
    Endnote(usize),
    /// The n-th comment in the list at the end (0-based).
    Comment(usize),
}

/// One unit for the line breaker.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Token {
    /// Characters drawn in one style and font (part of a word; words end at [`Token::Space`]).
    Text {
        /// Held inline up to 24 bytes (most words).
        text: CompactString,
        style: Style,
        width: f32,
        /// The font that writes them: `style.face` when a bundled face has them, else a
        /// fallback font.
        font: FontId,
        /// The shaped glyphs, when the text needs shaping or is not in a bundled face
        /// ([`super::bidi::prepare`] shapes); `None` maps characters to glyphs one to one.
        glyphs: Option<Glyphs>,
    },
    /// A breakable space (zero wide between ideographs, where lines may break).
    Space { width: f32 },
    /// Fixed space inside a word (keeps a letter mark apart from its word for text extraction).
    Kern(f32),
    /// A forced line break.
    Break,
    /// A point inside a word where a line may break with a hyphen `width` wide drawn at its
    /// end ([`super::hyphen`]); nothing where the line does not break.
    Hyphen { width: f32 },
    /// A picture inside the text.
    Image {
        media: String,
        width: f32,
        height: f32,
    },
    /// The footnote with this index is cited here.
    NoteRef(usize),
}

/// A target of a cross-reference: its number label and its text.
#[derive(Debug, Clone, Default)]
pub(crate) struct RefTarget {
    pub label: Option<String>,
    pub text: String,
}

/// Footnote or endnote content waiting for layout.
#[derive(Debug, Clone)]
pub(crate) struct NoteText {
    pub mark: String,
    pub content: Vec<Inline>,
}

/// State shared by all inline conversion of one document.
#[derive(Default)]
pub(crate) struct Inliner {
    pub links: Vec<LinkTarget>,
    pub footnotes: Vec<NoteText>,
    pub endnotes: Vec<NoteText>,
    pub targets: std::collections::HashMap<String, RefTarget>,
    pub comment_index: std::collections::HashMap<String, usize>,
    /// Characters no font writes: drawn as the font's box, kept in the text layer.
    pub missing: std::collections::BTreeSet<char>,
    /// The language of the text being converted, which chooses Han glyph forms.
    pub lang: Lang,
    pub unknown_refs: Vec<String>,
    pub sidenotes: usize,
    /// Height limit of inline pictures, points.
    pub inline_image_max: f32,
    /// Natural size of a picture by media name, points.
    pub image_size: std::collections::HashMap<String, (f32, f32)>,
    in_link: bool,
}

impl Inliner {
    /// Converts `inlines` in base style `base` into `out`.
    pub(crate) fn tokens(&mut self, inlines: &[Inline], base: Style, out: &mut Vec<Token>) {
        for inline in inlines {
            self.inline(inline, base, out);
        }
    }

    fn inline(&mut self, inline: &Inline, style: Style, out: &mut Vec<Token>) {
        match inline {
            Inline::Text { text } => self.text(text, style, out),
            Inline::Styled { style: s, children } => {
                let mut st = style;
                match s {
                    TextStyle::Bold => st.face = st.face.with(true, false),
                    TextStyle::Italic => st.face = st.face.with(false, true),
                    TextStyle::Underline => st.underline = true,
                    TextStyle::Strike => st.strike = true,
                    TextStyle::Code => st.face = Face::Mono,
                    TextStyle::SmallCaps => st.caps = true,
                    TextStyle::Superscript => {
                        st.rise += style.size * 0.33;
                        st.size = style.size * 0.7;
                    }
                    TextStyle::Subscript => {
                        st.rise -= style.size * 0.15;
                        st.size = style.size * 0.7;
                    }
                }
                self.tokens(children, st, out);
            }
            Inline::Link { href, children } => {
                let target = if let Some(id) = href.strip_prefix('#') {
                    Some(LinkTarget::Anchor(Anchor::Id(id.to_string())))
                } else {
                    safe_uri(href).map(LinkTarget::Uri)
                };
                let mut st = style;
                // A link inside a link keeps the outer target (a PDF annotation has one).
                if let (Some(t), false) = (target, self.in_link) {
                    st.link = Some(self.link(t));
                    st.color = LINK_BLUE;
                    st.underline = true;
                }
                let was = self.in_link;
                self.in_link = true;
                self.tokens(children, st, out);
                self.in_link = was;
            }
            Inline::Span { children, .. } => self.tokens(children, style, out),
            // A run in another language: its Han characters take that language's forms.
            Inline::Lang { lang, children, .. } => {
                let outer = self.lang;
                if let Some(l) = lang.as_deref() {
                    self.lang = Lang::of(Some(l));
                }
                self.tokens(children, style, out);
                self.lang = outer;
            }
            Inline::Tracked { change, children } => {
                let mut st = style;
                match change.kind {
                    ChangeKind::Insert => {
                        st.color = INSERT_GREEN;
                        st.underline = true;
                    }
                    ChangeKind::Delete => {
                        st.color = DELETE_RED;
                        st.strike = true;
                    }
                }
                self.tokens(children, st, out);
            }
            Inline::Note { kind, content } => {
                let mut st = style;
                st.rise += style.size * 0.33;
                st.size = style.size * 0.7;
                st.underline = false;
                st.strike = false;
                st.color = BLACK;
                match kind {
                    NoteKind::Endnote => {
                        let n = self.endnotes.len();
                        let mark = roman(n + 1);
                        self.endnotes.push(NoteText {
                            mark: mark.clone(),
                            content: content.clone(),
                        });
                        if !self.in_link {
                            st.link = Some(self.link(LinkTarget::Anchor(Anchor::Endnote(n))));
                        }
                        // Roman marks are letters: a hair of space keeps them off the word.
                        out.push(Token::Kern(style.size * 0.12));
                        self.text(&mark, st, out);
                    }
                    NoteKind::Footnote | NoteKind::Sidenote => {
                        if *kind == NoteKind::Sidenote {
                            self.sidenotes += 1;
                        }
                        let n = self.footnotes.len();
                        let mark = (n + 1).to_string();
                        self.footnotes.push(NoteText {
                            mark: mark.clone(),
                            content: content.clone(),
                        });
                        self.text(&mark, st, out);
                        out.push(Token::NoteRef(n));
                    }
                }
            }
            Inline::CrossRef {
                target,
                number,
                text,
            } => self.cross_ref(target, *number, *text, style, out),
            Inline::LineBreak => out.push(Token::Break),
            Inline::Image { media, caption, .. } => {
                let (w, h) = self.image_size.get(media).copied().unwrap_or((48.0, 36.0));
                let max = self.inline_image_max.max(12.0);
                let k = if h > max { max / h } else { 1.0 };
                out.push(Token::Image {
                    media: media.clone(),
                    width: (w * k).max(1.0),
                    height: (h * k).max(1.0),
                });
                if let Some(c) = caption.as_deref().filter(|c| !c.is_empty()) {
                    out.push(Token::Space {
                        width: metrics::width(style.face, style.size, " "),
                    });
                    let mut st = style;
                    st.face = st.face.with(false, true);
                    self.text(c, st, out);
                }
            }
            Inline::Ruby { base, reading } => self.ruby(base, reading, style, out),
            // Formulas are set as their linear text (`x^2/(a+b)`), as parsX writes them.
            Inline::Math { math, .. } => {
                self.text(&crate::ast::math::linear_text(math), style, out)
            }
            Inline::IndexMark { .. } | Inline::CommentStart { .. } => {}
            Inline::CommentEnd { id } => {
                if let Some(&n) = self.comment_index.get(id) {
                    let mut st = style;
                    st.rise += style.size * 0.33;
                    st.size = style.size * 0.7;
                    st.color = COMMENT_ORANGE;
                    st.underline = false;
                    st.strike = false;
                    if !self.in_link {
                        st.link = Some(self.link(LinkTarget::Anchor(Anchor::Comment(n))));
                    }
                    self.text(&format!("[C{}]", n + 1), st, out);
                }
            }
        }
    }

    fn link(&mut self, t: LinkTarget) -> u32 {
        self.links.push(t);
        (self.links.len() - 1) as u32
    }

    fn cross_ref(
        &mut self,
        target: &str,
        number: bool,
        text: bool,
        style: Style,
        out: &mut Vec<Token>,
    ) {
        let Some(t) = self.targets.get(target).cloned() else {
            self.unknown_refs.push(target.to_string());
            self.text(target, style, out);
            return;
        };
        let label = t.label.as_deref().filter(|l| !l.is_empty());
        let body = Some(t.text.as_str()).filter(|s| !s.is_empty());
        // Neither asked for: the number if there is one, else the text (as the HTML writer does).
        let (label, body) = match (number && label.is_some(), text && body.is_some()) {
            (false, false) => (label, if label.is_some() { None } else { body }),
            (n, b) => (label.filter(|_| n), body.filter(|_| b)),
        };
        let shown = match (label, body) {
            (Some(l), Some(b)) => format!("{l} {b}"),
            (Some(l), None) => l.to_string(),
            (None, Some(b)) => b.to_string(),
            (None, None) => target.to_string(),
        };
        let mut st = style;
        if !self.in_link {
            st.link = Some(self.link(LinkTarget::Anchor(Anchor::Id(target.to_string()))));
            st.color = LINK_BLUE;
        }
        self.text(&shown, st, out);
    }

    /// Splits text into words and spaces, each word's characters grouped by the font that
    /// writes them: the style's bundled face, else the regular face, else a fallback font
    /// ([`book::fallback`]); the mono face last. A character no font writes keeps its place
    /// in the text (the PDF shows the font's box and its text layer the character) and is
    /// counted in [`Inliner::missing`]. Between ideographs, where Chinese and Japanese lines
    /// break without spaces, a zero-wide space marks the break.
    pub(crate) fn text(&mut self, text: &str, style: Style, out: &mut Vec<Token>) {
        let upper;
        let (text, style) = if style.caps {
            upper = text.to_uppercase();
            let mut st = style;
            st.size *= 0.8;
            st.caps = false;
            (upper.as_str(), st)
        } else {
            (text, style)
        };
        let space = metrics::width(style.face, style.size, " ");
        // The run's characters, and their advances summed in order as `metrics::width` sums
        // them (one pass over the text instead of two; the widths are the same to the bit).
        let mut cur = CompactString::default();
        let mut cur_advance = 0.0f32;
        let own_font = FontId::of(style.face);
        let own = metrics::metrics(style.face);
        let mut cur_font = own_font;
        // The character before, within the word: whether a line may break between them.
        let mut prev: Option<char> = None;
        let flush =
            |cur: &mut CompactString, advance: &mut f32, font: FontId, out: &mut Vec<Token>| {
                if !cur.is_empty() {
                    let mut st = style;
                    st.face = font.face().unwrap_or(style.face);
                    // A copy (inline for most words); `cur` keeps its room for the next run.
                    out.push(Token::Text {
                        text: cur.clone(),
                        style: st,
                        width: *advance * st.size / 1000.0,
                        font,
                        glyphs: None,
                    });
                    cur.clear();
                }
                *advance = 0.0;
            };
        // Word boundaries inside Thai, Lao, Khmer and Myanmar text (no spaces between words),
        // found when the first such character is met: other text never pays for the search.
        let mut unspaced: Option<Vec<usize>> = None;
        let bytes = text.as_bytes();
        let mut next = 0;
        while next < bytes.len() {
            // Printable ASCII after ASCII (most characters of most documents), taken a stretch
            // at a time: no break can fall between such characters, and the style's own face
            // has their glyphs. The advances are summed one by one, in order, as below.
            if cur_font == own_font && prev.is_none_or(|p| p.is_ascii()) {
                let from = next;
                while let Some(&b) = bytes.get(next) {
                    let Some(advance) = (b'!'..=b'~')
                        .contains(&b)
                        .then(|| own.advance(char::from(b)))
                        .flatten()
                    else {
                        break;
                    };
                    cur_advance += advance;
                    next += 1;
                }
                // The stretch is ASCII, so it starts and ends on characters.
                if let Some(stretch) = text.get(from..next).filter(|s| !s.is_empty()) {
                    cur.push_str(stretch);
                    prev = stretch.chars().next_back();
                    continue;
                }
            }
            let at = next;
            let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            next += c.len_utf8();
            match c {
                ' ' | '\u{2002}' | '\u{2003}' | '\u{2009}' | '\u{200A}' | '\u{3000}' => {
                    flush(&mut cur, &mut cur_advance, cur_font, out);
                    out.push(Token::Space { width: space });
                    prev = None;
                }
                '\t' => {
                    flush(&mut cur, &mut cur_advance, cur_font, out);
                    out.push(Token::Space { width: space * 4.0 });
                    prev = None;
                }
                '\n' | '\r' | '\u{2028}' | '\u{2029}' => {
                    flush(&mut cur, &mut cur_advance, cur_font, out);
                    out.push(Token::Break);
                    prev = None;
                }
                // A soft hyphen (Word's optional hyphen) is where the word may break.
                '\u{00AD}' => {
                    flush(&mut cur, &mut cur_advance, cur_font, out);
                    out.push(Token::Hyphen {
                        width: super::hyphen::hyphen_width(cur_font, style.size),
                    });
                }
                // Invisible: zero-width space, other controls. The joiners and direction
                // marks stay for the shaper and the bidi algorithm.
                '\u{200B}' | '\u{FEFF}' => {}
                c if c.is_control() => {}
                c => {
                    if let Some(p) = prev
                        && (((script::breaks_around(p) || script::breaks_around(c))
                            && !script::no_break_before(c)
                            && !script::no_break_after(p))
                            || (word_breaks::is_unspaced(c)
                                && unspaced
                                    .get_or_insert_with(|| word_breaks::unspaced_breaks(text))
                                    .binary_search(&at)
                                    .is_ok()))
                        && !script::is_mark(c)
                    {
                        flush(&mut cur, &mut cur_advance, cur_font, out);
                        out.push(Token::Space { width: 0.0 });
                    }
                    let (font, advance) = self.font_for(style.face, c);
                    if font != cur_font {
                        flush(&mut cur, &mut cur_advance, cur_font, out);
                        cur_font = font;
                    }
                    cur.push(c);
                    cur_advance += advance;
                    prev = Some(c);
                }
            }
        }
        flush(&mut cur, &mut cur_advance, cur_font, out);
    }

    /// The font that writes `c` in a text whose style asks for `face`, and its advance
    /// (1/1000 em). Latin, Greek and Cyrillic stay in the bundled faces (the mono face before
    /// any system font, so such documents never read the font directories); other scripts go
    /// to a font made for them before the mono face's rough forms.
    fn font_for(&mut self, face: Face, c: char) -> (FontId, f32) {
        for f in [face, Face::Regular] {
            if let Some(a) = metrics::metrics(f).advance(c) {
                return (FontId::of(f), a);
            }
        }
        let common = Script::of(c) == Script::Common;
        let mono = || {
            metrics::metrics(Face::Mono)
                .advance(c)
                .map(|a| (FontId::of(Face::Mono), a))
        };
        if common && let Some(found) = mono() {
            return found;
        }
        let bold = matches!(face, Face::Bold | Face::BoldItalic);
        let italic = matches!(face, Face::Italic | Face::BoldItalic);
        if let Some(id) = book::fallback(c, bold, italic, self.lang)
            && let Some(a) = book::advance(id, c)
        {
            return (id, a);
        }
        if let Some(found) = mono() {
            return found;
        }
        self.missing.insert(c);
        (FontId::of(face), metrics::metrics(face).notdef())
    }

    /// Ruby: the reading set small above the base, both centred on the wider of the two; the
    /// base stays one word for the text layer, the reading follows it.
    fn ruby(&mut self, base: &str, reading: &str, style: Style, out: &mut Vec<Token>) {
        let mut b = Vec::new();
        self.text(base, style, &mut b);
        let mut rs = style;
        rs.size = style.size * 0.5;
        rs.rise += style.size * 0.85;
        rs.link = None;
        let mut r = Vec::new();
        self.text(reading, rs, &mut r);
        // The base's breaks between ideographs would split it from its reading: one unit.
        b.retain(|t| !matches!(t, Token::Space { width } if *width == 0.0));
        r.retain(|t| !matches!(t, Token::Space { width } if *width == 0.0));
        let bw: f32 = b.iter().map(token_width).sum();
        let rw: f32 = r.iter().map(token_width).sum();
        let wide = bw.max(rw);
        out.push(Token::Kern((wide - bw) / 2.0));
        out.extend(b);
        // Back to where the reading starts, then on to the end of the unit.
        out.push(Token::Kern(-(bw + (wide - bw) / 2.0) + (wide - rw) / 2.0));
        out.extend(r);
        out.push(Token::Kern((wide - rw) / 2.0));
    }
}

/// The width a token takes on the line.
pub(crate) fn token_width(t: &Token) -> f32 {
    match t {
        Token::Text { width, .. } | Token::Image { width, .. } | Token::Kern(width) => *width,
        _ => 0.0,
    }
}

/// `href` if its scheme is one a reader may follow (no `javascript:`, `data:`, `file:`).
fn safe_uri(href: &str) -> Option<String> {
    let h = href.trim();
    let lower = h.to_ascii_lowercase();
    let ok = ["http://", "https://", "mailto:", "ftp://", "tel:"]
        .iter()
        .any(|s| lower.starts_with(s));
    ok.then(|| h.to_string())
}

/// Lower-case roman numerals (endnote marks, as Word numbers endnotes).
pub(crate) fn roman(n: usize) -> String {
    crate::ast::numbering::format_number(
        u32::try_from(n).unwrap_or(u32::MAX),
        crate::ast::NumberFormat::LowerRoman,
    )
}

/// Calls `f` with each piece of `text` a line cannot break inside: words between spaces,
/// single ideographs (Chinese and Japanese break between them) and the dictionary's words of
/// Thai, Lao, Khmer and Myanmar.
pub(crate) fn each_unbreakable(text: &str, mut f: impl FnMut(&str)) {
    for w in text.split_whitespace() {
        let mut unspaced: Option<Vec<usize>> = None;
        let mut from = 0;
        let mut prev: Option<char> = None;
        for (i, c) in w.char_indices() {
            if let Some(p) = prev
                && (((script::breaks_around(p) || script::breaks_around(c))
                    && !script::no_break_before(c)
                    && !script::no_break_after(p))
                    || (word_breaks::is_unspaced(c)
                        && unspaced
                            .get_or_insert_with(|| word_breaks::unspaced_breaks(w))
                            .binary_search(&i)
                            .is_ok()))
            {
                f(&w[from..i]);
                from = i;
            }
            prev = Some(c);
        }
        f(&w[from..]);
    }
}

/// The plain text of inline content (directory entries, outline titles, cross-reference text).
pub(crate) fn plain(inlines: &[Inline]) -> String {
    let mut raw = String::new();
    plain_into(inlines, &mut raw);
    let mut s = String::with_capacity(raw.len());
    for word in raw.split_whitespace() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(word);
    }
    s
}

/// The text of `inlines` as [`plain`] reads it, appended to `s` with its white space as it is.
pub(crate) fn plain_into(inlines: &[Inline], s: &mut String) {
    for i in inlines {
        match i {
            Inline::Text { text } => s.push_str(text),
            Inline::LineBreak => s.push(' '),
            Inline::Note { .. } | Inline::Image { .. } => {}
            Inline::Tracked { change, children } => {
                if change.kind == ChangeKind::Insert {
                    plain_into(children, s);
                }
            }
            other => {
                if let Some(children) = other.children() {
                    plain_into(children, s);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_spaces_and_missing_glyphs() {
        let mut inl = Inliner::default();
        let mut out = Vec::new();
        inl.text("ab cd\u{10FFFD}", Style::new(Face::Regular, 10.0), &mut out);
        assert_eq!(out.len(), 3);
        assert!(matches!(&out[1], Token::Space { .. }));
        // The character no font has keeps its place: the PDF draws the font's box for it.
        assert!(matches!(&out[2], Token::Text { text, .. } if text == "cd\u{10FFFD}"));
        assert!(inl.missing.contains(&'\u{10FFFD}'));
    }

    #[test]
    fn a_token_is_as_wide_as_its_text_measured_whole() {
        // Latin, a character only the mono face has, one no face has (drawn as a box), tabs,
        // control characters and small caps: each token's width is, to the bit, what
        // `metrics::width` gives for its text in its face.
        let text = "Wörter über\tΑλφα ∀x\u{2200}y \u{10FFFD}ab\u{200B}c d\u{7}e Ünïcödé";
        for (face, caps) in [
            (Face::Regular, false),
            (Face::Bold, false),
            (Face::Italic, true),
            (Face::Mono, false),
        ] {
            let mut style = Style::new(face, 10.5);
            style.caps = caps;
            let mut out = Vec::new();
            Inliner::default().text(text, style, &mut out);
            let mut words = 0;
            for t in &out {
                if let Token::Text {
                    text, style, width, ..
                } = t
                {
                    words += 1;
                    let whole = metrics::width(style.face, style.size, text);
                    assert_eq!(width.to_bits(), whole.to_bits(), "{text:?} in {face:?}");
                }
            }
            assert!(words >= 7, "{out:?}");
        }
    }

    #[test]
    fn ascii_after_other_scripts_breaks_and_changes_font_as_before() {
        // ASCII after ASCII takes a short way; after a Han character (a break on both sides)
        // or after a character of another font it must not.
        let texts = |text: &str| {
            let mut out = Vec::new();
            Inliner::default().text(text, Style::new(Face::Regular, 10.0), &mut out);
            out.iter()
                .map(|t| match t {
                    Token::Text { text, font, .. } => {
                        (text.to_string(), *font == FontId::of(Face::Regular))
                    }
                    Token::Space { width } => (format!("space {width}"), true),
                    other => panic!("{other:?}"),
                })
                .collect::<Vec<_>>()
        };
        let han = texts("ab日本cd");
        assert_eq!(han.first(), Some(&("ab".to_string(), true)), "{han:?}");
        assert_eq!(han.last(), Some(&("cd".to_string(), true)), "{han:?}");
        assert_eq!(
            han.iter().filter(|(t, _)| t == "space 0").count(),
            3,
            "breaks before, inside and after the Han: {han:?}"
        );
        // A check mark: the bundled regular face lacks it.
        let other = texts("x\u{2713}yz");
        assert_eq!(
            other,
            [
                ("x".to_string(), true),
                ("\u{2713}".to_string(), false),
                ("yz".to_string(), true)
            ]
        );
    }

    #[test]
    fn thai_breaks_between_its_words_without_spaces() {
        let mut out = Vec::new();
        let text = "ภาษาไทยเป็นภาษา";
        Inliner::default().text(text, Style::new(Face::Regular, 10.0), &mut out);
        // Words are what lies between the (zero-wide) spaces a line may break at.
        let mut words = vec![String::new()];
        for t in &out {
            match t {
                Token::Text { text, .. } => words.last_mut().unwrap().push_str(text),
                Token::Space { width } => {
                    assert_eq!(*width, 0.0);
                    words.push(String::new());
                }
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(words, ["ภาษา", "ไทย", "เป็น", "ภาษา"]);
        let mut pieces = Vec::new();
        each_unbreakable("ภาษาไทย เป็น", |p| {
            pieces.push(p.to_string())
        });
        assert_eq!(pieces, ["ภาษา", "ไทย", "เป็น"]);
    }

    #[test]
    fn plain_text_has_single_spaces() {
        let inlines = vec![
            Inline::text("  a \t b"),
            Inline::LineBreak,
            Inline::text("c  "),
        ];
        assert_eq!(plain(&inlines), "a b c");
        assert_eq!(plain(&[Inline::text(" \n ")]), "");
    }

    #[test]
    fn unsafe_links_are_not_links() {
        assert_eq!(safe_uri("javascript:alert(1)"), None);
        assert_eq!(safe_uri(" https://a.b "), Some("https://a.b".into()));
    }
}
