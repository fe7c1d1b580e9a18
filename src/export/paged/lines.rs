//! Line breaking: greedy first fit over the tokens' widths (shaped where the text needs it:
//! [`super::bidi::prepare`] runs first). Words break at spaces, and between ideographs at the
//! zero-wide spaces [`super::text`] puts there; a word longer than the line is cut between
//! characters, never in front of a combining mark. Justified lines spread the extra width over
//! their spaces (the last line and lines ending in a forced break stay ragged). Each finished
//! line is put in visual order ([`super::bidi::reorder`]); a right-to-left paragraph's start
//! is its right edge, so `Align::Left` (Word's "start" there) sets it flush right.
//!
//! Justified paragraphs are broken by total fit ([`fit`]), the rest greedily. Where words
//! may be hyphenated ([`hyphen`]) they come as their parts with hyphen points between, and a
//! line broken at one ends in a hyphen.

use super::bidi::{self, Base};
use super::fit;
use super::hyphen;
use super::text::{Style, Token, token_width};
use crate::ast::Align;
use crate::fonts::book::FontId;
use crate::fonts::shape::{self, Glyphs};
use compact_str::CompactString;

/// A positioned piece of a line (x relative to the line start).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Piece {
    Text {
        x: f32,
        /// Held inline up to 24 bytes (most words and short lines' pieces).
        text: CompactString,
        style: Style,
        width: f32,
        font: FontId,
        /// Shaped glyphs in visual order (see [`Token::Text`]).
        glyphs: Option<Glyphs>,
    },
    Image {
        x: f32,
        media: String,
        width: f32,
        height: f32,
    },
}

/// One laid-out line.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Line {
    /// What is drawn, placed. A line only measured ([`break_lines`] with `drawn` false), which
    /// no one draws, keeps none of its text's; a list label is still put before the first.
    pub pieces: Vec<Piece>,
    /// Height from the top of the line to the baseline.
    pub ascent: f32,
    /// Total height (ascent + descent + leading).
    pub height: f32,
    /// Footnotes cited on this line.
    pub notes: Vec<usize>,
    /// The line belongs to a right-to-left paragraph.
    pub rtl: bool,
}

/// Leading factor: line height = 1.3 × font size.
const LEADING: f32 = 1.3;

/// How a paragraph's lines are set besides their width.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Setting<'a> {
    pub align: Align,
    /// The paragraph's direction.
    pub base: Base,
    /// Its language (BCP 47), for the shaper and the hyphenation patterns.
    pub lang: Option<&'a str>,
    /// Words may break at the points the language's patterns find ([`hyphen`]).
    pub hyphenate: bool,
}

/// Breaks `tokens` into lines `width` points wide. `min_size` is the font size that sets the
/// height of an empty line. The tokens' text moves into the lines (a copy per word was a fifth
/// of the Word writer's page layout), so they are left empty. `drawn`: the lines will be drawn,
/// so neighbouring pieces in one style are joined ([`merge`]) and words end in a space
/// character ([`end_with_space`]); measuring needs neither, as neither moves anything, and
/// keeps no pieces at all: only the lines' heights and notes.
pub(crate) fn break_lines(
    tokens: &mut Vec<Token>,
    width: f32,
    set: Setting<'_>,
    min_size: f32,
    drawn: bool,
) -> Vec<Line> {
    let width = width.max(1.0);
    if set.hyphenate
        && let Some(lang) = hyphen::language(set.lang)
    {
        hyphen::insert(tokens, lang);
    }
    let rtl = bidi::prepare(tokens, set.base, set.lang);
    // In a right-to-left paragraph Word's left and right are its start and end.
    let align = match (rtl, set.align) {
        (true, Align::Left) => Align::Right,
        (true, Align::Right) => Align::Left,
        (_, a) => a,
    };
    // Justified text is broken by total fit; the rest, and paragraphs with a word wider than
    // the line, first fit.
    let starts = if align == Align::Justify {
        fit::breaks(&words(tokens), width)
    } else {
        None
    };
    let mut b = Breaker {
        forced: false,
        fixed: starts.is_some(),
        rtl,
        lang: set.lang,
        drawn,
        lines: Vec::new(),
        // A line's pieces, drained at each line's end: sized once for most lines.
        cur: Vec::with_capacity(tokens.len().min(32)),
        cur_w: 0.0,
        pending: 0.0,
        hyphen: None,
        notes: Vec::new(),
        width,
        align,
        min_size,
    };
    let mut i = 0;
    let mut word = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Space { width: w } => {
                if !b.cur.is_empty() {
                    b.pending += w;
                }
                i += 1;
            }
            Token::Break => {
                // The line's last word ends in a space too: a forced break is no word break
                // to a text extractor.
                b.forced = true;
                b.hyphen = None;
                b.finish(false);
                i += 1;
            }
            Token::Hyphen { width: w } => {
                // Only between two parts of a word on the line.
                b.hyphen = (!b.cur.is_empty() && b.pending == 0.0).then_some(*w);
                i += 1;
            }
            _ => {
                // A word, or the part of one up to a hyphen point: everything up to the next
                // space, break or hyphen point.
                let start = i;
                while i < tokens.len() && !ends_word(&tokens[i]) {
                    i += 1;
                }
                // The hyphen drawn if the line breaks after this part.
                let after = match tokens.get(i) {
                    Some(Token::Hyphen { width }) => *width,
                    _ => 0.0,
                };
                if starts.as_ref().and_then(|s| s.get(word)) == Some(&true) && !b.cur.is_empty() {
                    b.break_before();
                }
                b.word(&mut tokens[start..i], after);
                word += 1;
            }
        }
    }
    if !b.cur.is_empty() || b.lines.is_empty() {
        b.finish(false);
    }
    b.lines
}

/// One line of plain text (page headers and footers, page numbers, placeholders): fonts
/// found, shaped and in visual order, placed from x = 0; with its width. A forced break in the
/// text does not start a second line: its pieces follow on.
pub(crate) fn plain_line(
    text: &str,
    face: crate::fonts::metrics::Face,
    size: f32,
) -> (Vec<Piece>, f32) {
    let mut tokens = Vec::new();
    super::text::Inliner::default().text(text, Style::new(face, size), &mut tokens);
    tokens.retain(|t| !matches!(t, Token::Break));
    bidi::prepare(&mut tokens, Base::Auto, None);
    let natural: f32 = tokens
        .iter()
        .map(|t| match t {
            Token::Space { width } => *width,
            other => token_width(other),
        })
        .sum();
    let lines = break_lines(&mut tokens, natural + 0.01, Setting::default(), size, true);
    let pieces: Vec<Piece> = lines.into_iter().flat_map(|l| l.pieces).collect();
    let width = pieces
        .iter()
        .map(|p| match p {
            Piece::Text { x, width, .. } | Piece::Image { x, width, .. } => x + width,
        })
        .fold(0.0, f32::max);
    (pieces, width)
}

/// Whether `t` ends a word (or the part of one before a hyphen point) for the breakers.
fn ends_word(t: &Token) -> bool {
    matches!(t, Token::Space { .. } | Token::Break | Token::Hyphen { .. })
}

/// The words of `tokens` as the total-fit breaker sees them (the same division into words
/// and parts of words as [`break_lines`] makes).
fn words(tokens: &[Token]) -> Vec<fit::Word> {
    let mut out = Vec::new();
    let (mut glue, mut forced, mut hyphen) = (0.0, false, None);
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Space { width } => {
                glue += width;
                hyphen = None;
                i += 1;
            }
            Token::Break => {
                (glue, forced, hyphen) = (0.0, true, None);
                i += 1;
            }
            Token::Hyphen { width } => {
                hyphen = (!out.is_empty() && glue == 0.0 && !forced).then_some(*width);
                i += 1;
            }
            _ => {
                let mut width = 0.0;
                while i < tokens.len() && !ends_word(&tokens[i]) {
                    width += token_width(&tokens[i]);
                    i += 1;
                }
                out.push(fit::Word {
                    width,
                    glue: if out.is_empty() && !forced { 0.0 } else { glue },
                    forced,
                    hyphen,
                });
                (glue, forced, hyphen) = (0.0, false, None);
            }
        }
    }
    out
}

/// A piece waiting on the current line, with the number of spaces before it.
struct Pending {
    piece: Piece,
    glues: u32,
}

struct Breaker<'a> {
    /// The line being finished ends at a forced break.
    forced: bool,
    /// The lines' starts were chosen by total fit: words never break a line themselves, and
    /// a line may be set tighter than its natural spacing.
    fixed: bool,
    /// The paragraph is right to left: lines are reordered, ragged lines of justified text
    /// sit at the right.
    rtl: bool,
    lang: Option<&'a str>,
    /// The lines will be drawn (see [`break_lines`]).
    drawn: bool,
    lines: Vec<Line>,
    cur: Vec<Pending>,
    cur_w: f32,
    pending: f32,
    /// The next part of a word follows a hyphen point this wide (where the line may break
    /// with a hyphen).
    hyphen: Option<f32>,
    notes: Vec<usize>,
    width: f32,
    align: Align,
    min_size: f32,
}

impl Breaker<'_> {
    /// Ends the line before the next word or part of one: with a hyphen when it is the
    /// second part of a word.
    fn break_before(&mut self) {
        if let Some(w) = self.hyphen.take() {
            self.hyphenate(w);
        }
        self.finish(true);
    }

    /// Draws a hyphen `width` wide at the end of the current line, in its last text's style.
    fn hyphenate(&mut self, width: f32) {
        let last = self.cur.iter().rev().find_map(|p| match &p.piece {
            Piece::Text { style, font, .. } => Some((*style, *font, p.glues)),
            Piece::Image { .. } => None,
        });
        if let Some((style, font, glues)) = last {
            self.cur.push(Pending {
                piece: Piece::Text {
                    x: self.cur_w,
                    text: "\u{AD}".into(),
                    style,
                    width,
                    font,
                    glyphs: Some(std::sync::Arc::from([hyphen::hyphen_glyph(font)])),
                },
                glues,
            });
            self.cur_w += width;
        }
    }

    /// Puts a word (or the part of one up to a hyphen point) on the line, after breaking the
    /// line when it does not fit there with the hyphen that may follow it (`after` wide).
    fn word(&mut self, word: &mut [Token], after: f32) {
        let w: f32 = word.iter().map(token_width).sum();
        if !self.fixed && !self.cur.is_empty() && self.cur_w + self.pending + w + after > self.width
        {
            self.break_before();
        }
        self.hyphen = None;
        if self.cur.is_empty() && w > self.width {
            self.long_word(word);
            return;
        }
        let glue = if self.cur.is_empty() {
            0.0
        } else {
            self.pending
        };
        let glues = if self.cur.is_empty() {
            0
        } else {
            self.cur.last().map_or(0, |p| p.glues) + u32::from(self.pending > 0.0)
        };
        self.cur_w += glue;
        self.pending = 0.0;
        for t in word {
            self.push(t, glues);
        }
    }

    /// Puts `t` on the current line, taking its text.
    fn push(&mut self, t: &mut Token, glues: u32) {
        let x = self.cur_w;
        match t {
            Token::Text {
                text,
                style,
                width,
                font,
                glyphs,
            } => {
                // The parts of a hyphenated word that stay on one line are drawn as one
                // piece again.
                if self.drawn
                    && glyphs.is_none()
                    && let Some(Pending {
                        piece:
                            Piece::Text {
                                x: px,
                                text: pt,
                                style: ps,
                                width: pw,
                                font: pf,
                                glyphs: None,
                            },
                        glues: pg,
                    }) = self.cur.last_mut()
                    && *pg == glues
                    && *ps == *style
                    && *pf == *font
                    && (*px + *pw - x).abs() < 0.01
                {
                    pt.push_str(text);
                    *pw += *width;
                    self.cur_w += *width;
                    return;
                }
                self.cur.push(Pending {
                    piece: Piece::Text {
                        x,
                        text: std::mem::take(text),
                        style: *style,
                        width: *width,
                        font: *font,
                        glyphs: glyphs.take(),
                    },
                    glues,
                });
                self.cur_w += *width;
            }
            Token::Image {
                media,
                width,
                height,
            } => {
                let (w, h) = if *width > self.width {
                    (self.width, *height * self.width / *width)
                } else {
                    (*width, *height)
                };
                self.cur.push(Pending {
                    piece: Piece::Image {
                        x,
                        media: std::mem::take(media),
                        width: w,
                        height: h,
                    },
                    glues,
                });
                self.cur_w += w;
            }
            Token::NoteRef(n) => self.notes.push(*n),
            Token::Kern(w) => self.cur_w += *w,
            Token::Space { .. } | Token::Break | Token::Hyphen { .. } => {}
        }
    }

    /// A word wider than the line: cut between characters (never in front of a combining
    /// mark), each part on its own line, shaped again when the word was shaped.
    fn long_word(&mut self, word: &mut [Token]) {
        for t in word {
            match t {
                Token::Text {
                    text,
                    style,
                    font,
                    glyphs,
                    ..
                } => {
                    let shaped = glyphs.is_some();
                    let (style, font) = (*style, *font);
                    let text = std::mem::take(text);
                    let mut from = 0;
                    let mut part_w = 0.0;
                    for (i, c) in text.char_indices() {
                        let cw = crate::fonts::book::advance_of(font, c.encode_utf8(&mut [0; 4]))
                            * style.size
                            / 1000.0;
                        if self.cur_w + part_w + cw > self.width
                            && (i > from || !self.cur.is_empty())
                            && !crate::fonts::script::is_mark(c)
                        {
                            let mut tok = self.part(&text[from..i], style, font, part_w, shaped);
                            self.push(&mut tok, 0);
                            part_w = 0.0;
                            from = i;
                            self.finish(false);
                        }
                        part_w += cw;
                    }
                    if from < text.len() {
                        let mut tok = self.part(&text[from..], style, font, part_w, shaped);
                        self.push(&mut tok, 0);
                    }
                }
                other => {
                    if !self.cur.is_empty() && self.cur_w + token_width(other) > self.width {
                        self.finish(false);
                    }
                    self.push(other, 0);
                }
            }
        }
    }

    /// A piece of a cut word as a token, shaped on its own when the word was.
    fn part(&self, text: &str, style: Style, font: FontId, width: f32, shaped: bool) -> Token {
        let glyphs = shaped
            .then(|| shape::shape(font, text, style.level % 2 == 1, self.lang))
            .flatten();
        Token::Text {
            text: text.into(),
            style,
            width: glyphs
                .as_ref()
                .map_or(width, |g| shape::width(g) * style.size / 1000.0),
            font,
            glyphs,
        }
    }

    /// Ends the current line; `soft` = broken by width (justify applies).
    fn finish(&mut self, soft: bool) {
        // A line only measured gives its height alone: its pieces are dropped as it ends.
        let mut pieces: Vec<Piece> = if self.drawn {
            Vec::with_capacity(self.cur.len())
        } else {
            Vec::new()
        };
        let used = self.cur_w;
        let total_glues = self.cur.last().map_or(0, |p| p.glues);
        // Total fit may have chosen a line a little over the measure, its spaces shrunk.
        let least = if self.fixed { f32::NEG_INFINITY } else { 0.0 };
        let extra = if self.align == Align::Justify && soft && total_glues > 0 {
            ((self.width - used) / total_glues as f32).max(least)
        } else {
            0.0
        };
        let shift = match self.align {
            Align::Center => ((self.width - used) / 2.0).max(0.0),
            Align::Right => (self.width - used).max(0.0),
            // A justified right-to-left paragraph's ragged lines end at its start, the right.
            Align::Justify if self.rtl && extra == 0.0 => (self.width - used).max(0.0),
            _ => 0.0,
        };
        let (mut asc, mut desc) = (self.min_size * 0.95, self.min_size * (LEADING - 0.95));
        // A piece followed by a space ends in a space character, and so does the last of a
        // line broken at a space or by a forced break: the text layer then says where words
        // end (poppler guesses wrong where the direction changes, and a tagged PDF's text joins
        // its lines without them), drawn with no advance so nothing moves. Lines only measured
        // need none.
        let drawn = self.drawn;
        let last_spaced = (soft && self.pending > 0.0) || self.forced;
        self.forced = false;
        let mut rest = self.cur.drain(..).peekable();
        while let Some(p) = rest.next() {
            let dx = shift + extra * p.glues as f32;
            let spaced = rest.peek().map_or(last_spaced, |next| next.glues > p.glues);
            let mut piece = p.piece;
            if drawn && spaced {
                end_with_space(&mut piece);
            }
            match &mut piece {
                Piece::Text { x, style, .. } => {
                    *x += dx;
                    asc = asc.max(style.size * 0.95 + style.rise.max(0.0));
                    desc = desc.max(style.size * (LEADING - 0.95) - style.rise.min(0.0));
                }
                Piece::Image { x, height, .. } => {
                    *x += dx;
                    asc = asc.max(*height);
                }
            }
            if drawn {
                pieces.push(piece);
            }
        }
        if drawn {
            bidi::reorder(&mut pieces, self.rtl);
            if extra == 0.0 {
                pieces = merge(pieces);
            }
        }
        self.lines.push(Line {
            pieces,
            ascent: asc,
            height: asc + desc,
            notes: std::mem::take(&mut self.notes),
            rtl: self.rtl,
        });
        self.cur_w = 0.0;
        self.pending = 0.0;
    }
}

/// Appends a space character to a text piece (see [`Breaker::finish`]): to the text, and to
/// shaped glyphs as the font's space glyph with no advance, at the logical end (the left of a
/// right-to-left run).
pub(crate) fn end_with_space(piece: &mut Piece) {
    let Piece::Text {
        text,
        font,
        glyphs,
        style,
        ..
    } = piece
    else {
        return;
    };
    if text.ends_with(' ') {
        return;
    }
    let at = u32::try_from(text.len()).unwrap_or(u32::MAX);
    text.push(' ');
    if let Some(g) = glyphs {
        let space = crate::fonts::shape::Glyph {
            id: crate::fonts::book::glyph(*font, ' ').unwrap_or(0),
            advance: 0.0,
            dx: 0.0,
            dy: 0.0,
            start: at,
            end: at.saturating_add(1),
        };
        let mut v: Vec<crate::fonts::shape::Glyph> = g.to_vec();
        if style.level % 2 == 1 {
            v.insert(0, space);
        } else {
            v.push(space);
        }
        *g = v.into();
    }
}

/// Joins neighbouring pieces in one style that sit one space apart into one piece with the space:
/// fewer text operations, same positions (advances add up; the fonts are not kerned here).
fn merge(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(pieces.len());
    // The width of a space in the last style asked for: a line's pieces mostly share one.
    let mut space: Option<(Style, f32)> = None;
    for p in pieces {
        if let (
            Some(Piece::Text {
                x: px,
                text: pt,
                style: ps,
                width: pw,
                font: pf,
                glyphs: pg,
            }),
            Piece::Text {
                x,
                text,
                style,
                width,
                font,
                glyphs: None,
            },
        ) = (out.last_mut(), &p)
            && *ps == *style
            && *pf == *font
            && pg.is_none()
        {
            let space = match space {
                Some((s, w)) if s == *style => w,
                _ => {
                    let w = crate::fonts::metrics::width(style.face, style.size, " ");
                    space = Some((*style, w));
                    w
                }
            };
            let gap = x - (*px + *pw);
            if gap.abs() < 0.01 || (gap - space).abs() < 0.01 {
                if gap.abs() >= 0.01 && !pt.ends_with(' ') {
                    pt.push(' ');
                }
                pt.push_str(text);
                *pw = x + width - *px;
                continue;
            }
        }
        out.push(p);
    }
    out
}

impl Line {
    /// The width the pieces take. For drawing only: a line only measured keeps no pieces of
    /// its text ([`break_lines`]), so no placement may depend on it (or on the pieces at all)
    /// without the TOC page numbers changing.
    pub(crate) fn used_width(&self) -> f32 {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text { x, width, .. } | Piece::Image { x, width, .. } => x + width,
            })
            .fold(0.0, f32::max)
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::Inliner;
    use super::*;
    use crate::fonts::metrics::Face;

    fn set(align: Align) -> Setting<'static> {
        Setting {
            align,
            ..Setting::default()
        }
    }

    fn tokens(s: &str) -> Vec<Token> {
        let mut out = Vec::new();
        Inliner::default().text(s, Style::new(Face::Regular, 10.0), &mut out);
        out
    }

    #[test]
    fn lines_fit_and_keep_every_word() {
        let text = "the quick brown fox jumps over the lazy dog ".repeat(20);
        let lines = break_lines(&mut tokens(&text), 200.0, set(Align::Justify), 10.0, true);
        assert!(lines.len() > 5);
        let mut words = 0;
        for l in &lines {
            assert!(l.used_width() <= 200.5, "{}", l.used_width());
            for p in &l.pieces {
                if let Piece::Text { text, .. } = p {
                    words += text.split_whitespace().count();
                }
            }
        }
        assert_eq!(words, 180);
        // Justified: every line but the last reaches the right edge.
        assert!((lines[0].used_width() - 200.0).abs() < 0.5);
    }

    #[test]
    fn an_over_long_word_is_cut() {
        let lines = break_lines(
            &mut tokens(&"x".repeat(500)),
            100.0,
            set(Align::Left),
            10.0,
            true,
        );
        assert!(lines.len() > 10);
        assert!(lines.iter().all(|l| l.used_width() <= 100.5));
        let n: usize = lines
            .iter()
            .flat_map(|l| &l.pieces)
            .map(|p| match p {
                Piece::Text { text, .. } => text.chars().count(),
                _ => 0,
            })
            .sum();
        assert_eq!(n, 500);
    }

    /// The words of `lines`, a hyphenated word joined again (its hyphen is U+00AD), and
    /// how many lines end in a hyphen.
    fn words_and_hyphens(lines: &[Line]) -> (Vec<String>, usize) {
        let mut text = String::new();
        let mut hyphens = 0;
        for l in lines {
            let mut ends_hyphen = false;
            for p in &l.pieces {
                if let Piece::Text { text: t, .. } = p {
                    ends_hyphen = t == "\u{AD}";
                    if !ends_hyphen {
                        text.push_str(t);
                    }
                }
            }
            if ends_hyphen {
                hyphens += 1;
            } else {
                text.push(' ');
            }
        }
        (
            text.split_whitespace().map(str::to_string).collect(),
            hyphens,
        )
    }

    const PROSE: &str = "Hyphenation considerably improves the appearance of justified \
        paragraphs, particularly in narrow columns where extraordinarily long words would \
        otherwise leave conspicuous gaps between the remaining words of a line.";

    #[test]
    fn hyphenated_justified_lines_fit_and_keep_every_word() {
        let hyphenated = Setting {
            align: Align::Justify,
            lang: Some("en-US"),
            hyphenate: true,
            ..Setting::default()
        };
        let lines = break_lines(&mut tokens(PROSE), 120.0, hyphenated, 10.0, true);
        let (words, hyphens) = words_and_hyphens(&lines);
        assert_eq!(words, PROSE.split_whitespace().collect::<Vec<_>>());
        assert!(hyphens > 0, "no word was split in a 120 pt column");
        for l in &lines {
            // Total fit may shrink spaces, but never past the margin by more than rounding.
            assert!(l.used_width() <= 120.5, "{}", l.used_width());
        }
        // Without hyphenation the same column is spaced worse: its widest gap is wider.
        let plain = Setting {
            hyphenate: false,
            ..hyphenated
        };
        let loose = break_lines(&mut tokens(PROSE), 120.0, plain, 10.0, true);
        assert_eq!(words_and_hyphens(&loose).1, 0);
        let gap = |lines: &[Line]| -> f32 {
            let mut worst = 0.0f32;
            for l in &lines[..lines.len() - 1] {
                for w in l.pieces.windows(2) {
                    if let (Piece::Text { x: a, width, .. }, Piece::Text { x: b, .. }) =
                        (&w[0], &w[1])
                    {
                        worst = worst.max(b - (a + width));
                    }
                }
            }
            worst
        };
        let dump = |lines: &[Line]| {
            lines
                .iter()
                .map(|l| {
                    l.pieces
                        .iter()
                        .map(|p| match p {
                            Piece::Text { x, text, .. } => format!("{x:.0}:{text}"),
                            _ => String::new(),
                        })
                        .collect::<Vec<_>>()
                        .join("|")
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert!(
            gap(&lines) < gap(&loose),
            "{} vs {}\n{}\n---\n{}",
            gap(&lines),
            gap(&loose),
            dump(&lines),
            dump(&loose)
        );
    }

    #[test]
    fn ragged_lines_hyphenate_greedily_and_soft_hyphens_always_break() {
        let left = Setting {
            align: Align::Left,
            lang: Some("en"),
            hyphenate: true,
            ..Setting::default()
        };
        let lines = break_lines(&mut tokens(PROSE), 90.0, left, 10.0, true);
        let (words, hyphens) = words_and_hyphens(&lines);
        assert_eq!(words, PROSE.split_whitespace().collect::<Vec<_>>());
        assert!(hyphens > 0);
        assert!(lines.iter().all(|l| l.used_width() <= 90.01));
        // A language without patterns: no automatic split, but a soft hyphen still breaks.
        let arabic = Setting {
            lang: Some("ar"),
            ..left
        };
        let soft = "aaaaaaaaaa\u{AD}bbbbbbbbbb";
        let lines = break_lines(&mut tokens(soft), 70.0, arabic, 10.0, true);
        let (words, hyphens) = words_and_hyphens(&lines);
        assert_eq!(words, vec!["aaaaaaaaaabbbbbbbbbb"]);
        assert_eq!((lines.len(), hyphens), (2, 1));
        // Where the word fits, its soft hyphen draws nothing.
        let lines = break_lines(&mut tokens(soft), 500.0, arabic, 10.0, true);
        assert_eq!(
            words_and_hyphens(&lines),
            (vec![soft.replace('\u{AD}', "")], 0)
        );
    }
}
