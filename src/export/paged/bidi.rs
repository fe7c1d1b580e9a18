//! Bidirectional text and shaping for one paragraph's tokens, before and after line breaking.
//!
//! Before: [`prepare`] resolves the embedding levels of the paragraph (UAX #9, with
//! unicode-bidi), splits text tokens where the level changes, and shapes every token that
//! needs it (right-to-left runs, scripts that join or reorder, fallback fonts) in its
//! direction, so the line breaker measures shaped widths. After: [`reorder`] puts one line's
//! pieces in visual order (rule L2: reverse each run at or above a level, from the highest
//! level down to the lowest odd one) by mirroring their positions, so spaces and justification
//! gaps move with them.
//!
//! A paragraph of left-to-right text only (every Latin document) takes the fast path: no
//! levels to compute, and only tokens in fallback fonts or with combining marks are shaped.

use unicode_bidi::{BidiInfo, Level};

use super::lines::Piece;
use super::text::Token;
use crate::fonts::script;
use crate::fonts::shape;

/// A paragraph's base direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Base {
    /// From the first strong character (rules P2–P3), left to right when there is none.
    #[default]
    Auto,
    /// Left to right.
    Ltr,
    /// Right to left.
    Rtl,
}

/// Whether `c` can make text right to left (bidi classes R, AL, AN and the explicit
/// right-to-left controls): the test for the fast path.
fn rtl_char(c: char) -> bool {
    let u = c as u32;
    matches!(u,
        0x0590..=0x08FF
        | 0x200F | 0x202B | 0x202E | 0x2067
        | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF
        | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

/// Whether `text` holds a character that can make it right to left; ASCII (most words) is
/// answered in one vectorised pass.
fn has_rtl(text: &str) -> bool {
    !text.is_ascii() && text.chars().any(rtl_char)
}

/// Resolves levels and shapes `tokens`; `lang` (BCP 47) goes to the shaper. Returns whether
/// the paragraph is right to left.
pub(crate) fn prepare(tokens: &mut Vec<Token>, base: Base, lang: Option<&str>) -> bool {
    let any_rtl = base == Base::Rtl
        || tokens
            .iter()
            .any(|t| matches!(t, Token::Text { text, .. } if has_rtl(text)));
    let rtl = if any_rtl { levels(tokens, base) } else { false };
    for t in tokens.iter_mut() {
        if let Token::Text {
            text,
            style,
            width,
            font,
            glyphs,
        } = t
        {
            let odd = style.level % 2 == 1;
            if (odd || font.face().is_none() || script::needs_shaping(text))
                && let Some(g) = shape::shape(*font, text, odd, lang)
            {
                *width = shape::width(&g) * style.size / 1000.0;
                *glyphs = Some(g);
            }
        }
    }
    rtl
}

/// Sets each text token's level, splitting tokens whose characters differ in level. Returns
/// whether the paragraph level is right to left.
fn levels(tokens: &mut Vec<Token>, base: Base) -> bool {
    // The paragraph as one string, with each token's start: spaces and breaks as spaces (class
    // WS), pictures as the object replacement character (a neutral).
    let mut s = String::new();
    let mut starts = Vec::with_capacity(tokens.len());
    for t in tokens.iter() {
        starts.push(s.len());
        match t {
            Token::Text { text, .. } => s.push_str(text),
            Token::Space { .. } | Token::Break => s.push(' '),
            Token::Image { .. } => s.push('\u{FFFC}'),
            Token::Kern(_) | Token::NoteRef(_) | Token::Hyphen { .. } => {}
        }
    }
    let level = match base {
        Base::Auto => None,
        Base::Ltr => Some(Level::ltr()),
        Base::Rtl => Some(Level::rtl()),
    };
    let info = BidiInfo::new(&s, level);
    let rtl = info.paragraphs.first().is_some_and(|p| p.level.is_rtl());
    let at = |i: usize| info.levels.get(i).map_or(0, |l| l.number());
    let mut out = Vec::with_capacity(tokens.len() + 8);
    for (t, start) in tokens.drain(..).zip(starts) {
        match t {
            Token::Text {
                text,
                style,
                width,
                font,
                glyphs,
            } => {
                // Cut where the level changes; the widths of the parts are measured again
                // when they are shaped (each part is, being at an odd level or split off one).
                let mut cuts: Vec<(usize, u8)> = Vec::new();
                for (i, _) in text.char_indices() {
                    let l = at(start + i);
                    if cuts.last().is_none_or(|&(_, last)| last != l) {
                        cuts.push((i, l));
                    }
                }
                if cuts.len() <= 1 {
                    let mut style = style;
                    style.level = cuts.first().map_or(0, |&(_, l)| l);
                    out.push(Token::Text {
                        text,
                        style,
                        width,
                        font,
                        glyphs,
                    });
                    continue;
                }
                for (k, &(from, l)) in cuts.iter().enumerate() {
                    let to = cuts.get(k + 1).map_or(text.len(), |&(i, _)| i);
                    let part = &text[from..to];
                    let mut style = style;
                    style.level = l;
                    let w = crate::fonts::book::advance_of(font, part) * style.size / 1000.0;
                    out.push(Token::Text {
                        text: part.into(),
                        style,
                        width: w,
                        font,
                        glyphs: None,
                    });
                }
            }
            other => out.push(other),
        }
    }
    *tokens = out;
    rtl
}

/// The level of a piece (pictures take the paragraph's).
fn level_of(p: &Piece, base: u8) -> u8 {
    match p {
        Piece::Text { style, .. } => style.level,
        Piece::Image { .. } => base,
    }
}

fn span_of(p: &Piece) -> (f32, f32) {
    match p {
        Piece::Text { x, width, .. } | Piece::Image { x, width, .. } => (*x, *width),
    }
}

fn set_x(p: &mut Piece, nx: f32) {
    match p {
        Piece::Text { x, .. } | Piece::Image { x, .. } => *x = nx,
    }
}

/// Puts a line's pieces (in logical order, placed left to right) in visual order, `rtl` being
/// the paragraph's direction: every run of pieces at or above a level is mirrored within the
/// space it takes, from the highest level down to the lowest odd one.
pub(crate) fn reorder(pieces: &mut [Piece], rtl: bool) {
    let base = u8::from(rtl);
    // Left-to-right lines (most) have nothing to reorder: said without a list of levels.
    if pieces.iter().all(|p| level_of(p, base) == 0) {
        return;
    }
    let levels: Vec<u8> = pieces.iter().map(|p| level_of(p, base)).collect();
    let max = levels.iter().copied().max().unwrap_or(0);
    // With no odd level the runs at level 2 would be reversed twice: start at 1 then too.
    let lowest_odd = levels
        .iter()
        .copied()
        .filter(|l| l % 2 == 1)
        .min()
        .unwrap_or(1);
    for level in (lowest_odd..=max).rev() {
        let mut i = 0;
        while i < pieces.len() {
            if levels[i] < level {
                i += 1;
                continue;
            }
            let start = i;
            while i < pieces.len() && levels[i] >= level {
                i += 1;
            }
            let run = &mut pieces[start..i];
            let lo = run
                .iter()
                .map(|p| span_of(p).0)
                .fold(f32::INFINITY, f32::min);
            let hi = run
                .iter()
                .map(|p| {
                    let (x, w) = span_of(p);
                    x + w
                })
                .fold(f32::NEG_INFINITY, f32::max);
            for p in run.iter_mut() {
                let (x, w) = span_of(p);
                set_x(p, lo + hi - (x + w));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::{Inliner, Style};
    use super::*;
    use crate::fonts::metrics::Face;

    fn tokens(s: &str) -> Vec<Token> {
        let mut out = Vec::new();
        Inliner::default().text(s, Style::new(Face::Regular, 10.0), &mut out);
        out
    }

    fn texts(tokens: &[Token]) -> Vec<(String, u8)> {
        tokens
            .iter()
            .filter_map(|t| match t {
                Token::Text { text, style, .. } => Some((text.to_string(), style.level)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn latin_takes_the_fast_path() {
        let mut t = tokens("plain words here");
        assert!(!prepare(&mut t, Base::Auto, None));
        assert!(texts(&t).iter().all(|(_, l)| *l == 0));
        assert!(t.iter().all(|t| !matches!(
            t,
            Token::Text {
                glyphs: Some(_),
                ..
            }
        )));
    }

    #[test]
    fn hebrew_with_numbers_gets_levels_and_shapes() {
        // An auto paragraph starting with Hebrew is right to left; the number inside is at
        // level 2 (left to right within it), the words at level 1.
        let mut t = tokens("שלום 123 עולם");
        assert!(prepare(&mut t, Base::Auto, Some("he")));
        let levels: Vec<u8> = texts(&t).iter().map(|(_, l)| *l).collect();
        assert_eq!(levels, vec![1, 2, 1]);
        // The right-to-left words are shaped (in their direction); the digits need not be.
        for t in &t {
            if let Token::Text { style, glyphs, .. } = t {
                assert_eq!(glyphs.is_some(), style.level == 1, "{t:?}");
            }
        }
    }

    #[test]
    fn a_token_is_split_where_the_level_changes() {
        let mut t = tokens("abc\u{5D0}\u{5D1}");
        prepare(&mut t, Base::Ltr, None);
        assert_eq!(
            texts(&t),
            vec![("abc".to_string(), 0), ("\u{5D0}\u{5D1}".to_string(), 1)]
        );
    }

    fn piece(x: f32, w: f32, level: u8) -> Piece {
        let mut style = Style::new(Face::Regular, 10.0);
        style.level = level;
        Piece::Text {
            x,
            text: Default::default(),
            style,
            width: w,
            font: crate::fonts::book::FontId::of(Face::Regular),
            glyphs: None,
        }
    }

    #[test]
    fn reordering_mirrors_runs_and_keeps_numbers_left_to_right() {
        // Logical: W1 (rtl) · 12 (level 2) · 34 (level 2) · W2 (rtl), placed left to right
        // with gaps of 5.
        let mut p = vec![
            piece(0.0, 10.0, 1),
            piece(15.0, 10.0, 2),
            piece(25.0, 10.0, 2),
            piece(40.0, 10.0, 1),
        ];
        reorder(&mut p, true);
        let xs: Vec<f32> = p.iter().map(|p| span_of(p).0).collect();
        // W1 at the right end, W2 at the left, the number in the middle still reading 12 34.
        assert_eq!(xs, vec![40.0, 15.0, 25.0, 0.0]);
    }

    #[test]
    fn left_to_right_lines_stay_put() {
        let mut p = vec![piece(0.0, 10.0, 0), piece(15.0, 10.0, 0)];
        reorder(&mut p, false);
        assert_eq!(span_of(&p[0]).0, 0.0);
        assert_eq!(span_of(&p[1]).0, 15.0);
    }
}
