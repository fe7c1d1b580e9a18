//! Total-fit line breaking (Knuth and Plass, "Breaking paragraphs into lines", 1981) for
//! justified paragraphs: of all ways to break a paragraph, the one whose lines are spaced most
//! evenly, instead of filling each line as far as it goes (which leaves wide gaps after a long
//! word that did not fit).
//!
//! The paragraph is words (boxes) and the spaces between them (glue that stretches by half and
//! shrinks by a third of its width, as TeX's interword space); a forced break ends a segment
//! whose last line is set ragged. For each possible break the cheapest way to reach it is
//! kept (dynamic programming over active breaks); a line whose words cannot be shrunk to the
//! width is never chosen, so no line runs past the margin. The work per word is bounded by
//! the number of words that fit on a line. A hyphenated word comes as its parts, the break
//! between them a penalised one that adds the hyphen to its line.

/// A word as the breaker sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Word {
    /// Width of the word.
    pub width: f32,
    /// Width of the space before it (0 at the start of a segment or between ideographs).
    pub glue: f32,
    /// A forced break comes before this word.
    pub forced: bool,
    /// This is the second part of a hyphenated word: a line ending before it ends in a
    /// hyphen this wide ([`super::hyphen`]).
    pub hyphen: Option<f32>,
}

/// Badness of a line that cannot stretch or shrink to fit but is allowed (TeX's `inf_bad`).
const AWFUL: f64 = 10_000.0;
/// Demerits added per line, so that fewer lines are preferred when spacing is equal.
const LINE_PENALTY: f64 = 10.0;
/// The penalty of a line ending in a hyphen (TeX's `\hyphenpenalty`): a word is split only
/// where that spaces the paragraph clearly better.
const HYPHEN_PENALTY: f64 = 50.0;
/// Demerits for two hyphenated lines in a row (TeX's `\doublehyphendemerits`).
const DOUBLE_HYPHEN: f64 = 3000.0;

/// For each word, whether a line starts at it (the first word of every segment does), or
/// `None` when some word is wider than the line (the caller then cuts it greedily).
pub(crate) fn breaks(words: &[Word], width: f32) -> Option<Vec<bool>> {
    let width = f64::from(width);
    if words.iter().any(|w| f64::from(w.width) > width) {
        return None;
    }
    let mut starts = vec![false; words.len()];
    let mut seg = 0;
    while seg < words.len() {
        let end = (seg + 1..words.len())
            .find(|&i| words[i].forced)
            .unwrap_or(words.len());
        for i in segment(&words[seg..end], width)? {
            starts[seg + i] = true;
        }
        seg = end;
    }
    Some(starts)
}

/// The line starts (indices into `words`) of one segment that ends in a ragged last line;
/// `None` when no way fits (a part of a word that fits alone but not with its hyphen).
fn segment(words: &[Word], width: f64) -> Option<Vec<usize>> {
    let n = words.len();
    if n == 0 {
        return Some(Vec::new());
    }
    // best[j]: least demerits of breaking before word j (j = n: the end), and where the line
    // ending there starts.
    let mut best: Vec<(f64, usize)> = vec![(f64::INFINITY, 0); n + 1];
    best[0] = (0.0, 0);
    for i in 0..n {
        if !best[i].0.is_finite() {
            continue;
        }
        // The line from word i to word j − 1.
        let (mut natural, mut stretch, mut shrink) = (0.0f64, 0.0f64, 0.0f64);
        for j in i + 1..=n {
            let w = &words[j - 1];
            if j - 1 > i {
                let g = f64::from(w.glue);
                natural += g;
                stretch += g / 2.0;
                shrink += g / 3.0;
            }
            natural += f64::from(w.width);
            if natural - shrink > width + 1e-3 {
                // Too tight even shrunk; longer lines only get tighter. A single word always
                // fits (checked by the caller).
                break;
            }
            let last = j == n;
            // Ending before the second part of a word: the line ends in a hyphen.
            let hyphen = if last { None } else { words[j].hyphen };
            let natural = natural + hyphen.map_or(0.0, f64::from);
            if natural - shrink > width + 1e-3 {
                continue;
            }
            let badness = if last && natural <= width {
                0.0
            } else if natural <= width {
                // Not capped where the line can stretch: of two very loose lines the looser
                // must cost more, or a narrow column gets gaps wider than a word.
                if stretch > 0.0 {
                    100.0 * ((width - natural) / stretch).powi(3)
                } else if width - natural < 1e-3 {
                    0.0
                } else {
                    AWFUL
                }
            } else if shrink > 0.0 {
                100.0 * ((natural - width) / shrink).powi(3)
            } else {
                AWFUL
            };
            let mut demerits = best[i].0 + (LINE_PENALTY + badness).powi(2);
            if hyphen.is_some() {
                demerits += HYPHEN_PENALTY.powi(2);
                if i > 0 && words[i].hyphen.is_some() {
                    demerits += DOUBLE_HYPHEN;
                }
            }
            if demerits < best[j].0 {
                best[j] = (demerits, i);
            }
        }
    }
    if !best[n].0.is_finite() {
        return None;
    }
    let mut starts = Vec::new();
    let mut j = n;
    while j > 0 {
        let i = best[j].1;
        starts.push(i);
        j = i;
    }
    starts.reverse();
    Some(starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(widths: &[f32]) -> Vec<Word> {
        widths
            .iter()
            .enumerate()
            .map(|(i, &w)| Word {
                width: w,
                glue: if i == 0 { 0.0 } else { 4.0 },
                forced: false,
                hyphen: None,
            })
            .collect()
    }

    /// The widths of the lines the starts make, with natural spaces.
    fn line_widths(ws: &[Word], starts: &[bool]) -> Vec<f32> {
        let mut out: Vec<f32> = Vec::new();
        for (w, &s) in ws.iter().zip(starts) {
            if s || out.is_empty() {
                out.push(w.width);
            } else if let Some(l) = out.last_mut() {
                *l += w.glue + w.width;
            }
        }
        out
    }

    #[test]
    fn total_fit_spreads_the_slack_that_first_fit_leaves_on_one_line() {
        // First fit: "aaaa bb" fills line one, leaving "cccccc dd" loose on line two and "e"
        // last; total fit moves "bb" down so both full lines are about equally loose.
        let ws = words(&[40.0, 20.0, 60.0, 20.0, 10.0]);
        let starts = breaks(&ws, 70.0).expect("every word fits");
        let lines = line_widths(&ws, &starts);
        assert!(
            lines.iter().all(|w| *w <= 70.0 + 70.0 * 0.0001),
            "{lines:?}"
        );
        let full = &lines[..lines.len() - 1];
        let worst = full.iter().map(|w| 70.0 - w).fold(0.0f32, f32::max);
        // Greedy would leave a line 6 points short (60 + 4 = 64 of 70) after "aaaa bb" (64).
        assert!(worst <= 12.0, "{lines:?}");
        assert!(starts[0]);
    }

    #[test]
    fn no_line_is_wider_than_the_measure_even_shrunk() {
        let ws = words(&[30.0; 40]);
        let starts = breaks(&ws, 100.0).expect("fits");
        for w in line_widths(&ws, &starts) {
            // Each line's spaces may shrink by a third: at most 4/3 × 4 per space over.
            assert!(w <= 100.0 + 3.0 * 4.0 / 3.0, "{w}");
        }
    }

    #[test]
    fn forced_breaks_start_lines_and_a_word_too_wide_gives_up() {
        let mut ws = words(&[10.0, 10.0, 10.0]);
        ws[2].forced = true;
        let starts = breaks(&ws, 100.0).expect("fits");
        assert_eq!(starts, vec![true, false, true]);
        assert!(breaks(&words(&[150.0]), 100.0).is_none());
        assert_eq!(breaks(&[], 100.0), Some(vec![]));
    }
}
