//! Typed numbering at the start of a paragraph's text: `1.`, `1.2.3`, `§ 4`, `a)`, `(b)`, `c.`,
//! `(aa)`, `iv)`. A marker may read several ways (`i)` is the letter i or the roman one); the
//! style set decides with its context which one it is.

use crate::ast::Inline;
use crate::ast::inline::{Leaf, Run, from_runs, to_runs};

/// One reading of a marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// `1`, `1.`, `1.2`, `1.2.3.`, `§ 1`, `1)`: the dot-separated numbers.
    Decimal(Vec<u32>),
    /// `a)`, `(a)`, `a.`: the letter's position (a = 1).
    Letter(u32),
    /// `aa)`, `(bb)`: the doubled letter's position (aa = 1).
    DoubleLetter(u32),
    /// `i)`, `(iv)`, `ix.`: the value.
    Roman(u32),
}

impl Form {
    /// The number this form counts at its own level (the last part of a decimal).
    pub fn value(&self) -> u32 {
        match self {
            Form::Decimal(parts) => parts.last().copied().unwrap_or(0),
            Form::Letter(v) | Form::DoubleLetter(v) | Form::Roman(v) => *v,
        }
    }
}

/// A typed marker found at the start of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// Bytes of text the marker and the whitespace after it take.
    pub len: usize,
    /// Every way to read it.
    pub forms: Vec<Form>,
    /// A lone number with nothing after it (`3 years`): a set takes it only where the number
    /// continues the sequence, since ordinary sentences start like that too.
    pub bare: bool,
}

fn is_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{a0}' | '\u{2002}' | '\u{2003}' | '\u{2009}'
    )
}

/// Parses the marker at the start of `text`. A marker must be followed by whitespace and then
/// more text: `1. Scope` is numbered, `1.` alone or `1.5kg` is not.
pub fn parse(text: &str) -> Option<Marker> {
    let lead = text.len() - text.trim_start_matches(is_space).len();
    let s = &text[lead..];
    let (forms, used) = parse_decimal(s).or_else(|| parse_alpha(s))?;
    let rest = &s[used..];
    let after = rest.trim_start_matches(is_space);
    // Whitespace after the marker, then something to number.
    if after.len() == rest.len() || after.is_empty() {
        return None;
    }
    let bare = matches!(forms.as_slice(), [Form::Decimal(parts)] if parts.len() == 1)
        && s.as_bytes().first().is_some_and(u8::is_ascii_digit)
        && s[..used].bytes().all(|b| b.is_ascii_digit());
    Some(Marker {
        len: text.len() - after.len(),
        forms,
        bare,
    })
}

fn parse_decimal(s: &str) -> Option<(Vec<Form>, usize)> {
    let mut i = 0;
    let b = s.as_bytes();
    if s.starts_with('§') {
        i += '§'.len_utf8();
        while b.get(i).is_some_and(|&c| c == b' ' || c == b'\t') {
            i += 1;
        }
        if s[i..].starts_with('\u{a0}') {
            i += '\u{a0}'.len_utf8();
        }
    }
    let mut parts = Vec::new();
    loop {
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        // Three digits at most: `2024 was …` is a year, not a clause number.
        if i == start || i - start > 3 {
            return if parts.is_empty() || i - start > 3 {
                None
            } else {
                // `1.` : the dot closed the number.
                Some((vec![Form::Decimal(parts)], i))
            };
        }
        parts.push(s[start..i].parse().ok()?);
        match b.get(i) {
            Some(b'.') => i += 1,
            Some(b')') => return Some((vec![Form::Decimal(parts)], i + 1)),
            _ => return Some((vec![Form::Decimal(parts)], i)),
        }
    }
}

fn parse_alpha(s: &str) -> Option<(Vec<Form>, usize)> {
    let b = s.as_bytes();
    let paren = b.first() == Some(&b'(');
    let start = usize::from(paren);
    let mut i = start;
    while b.get(i).is_some_and(u8::is_ascii_alphabetic) && i - start < 6 {
        i += 1;
    }
    let word = s.get(start..i)?.to_ascii_lowercase();
    if word.is_empty() {
        return None;
    }
    match b.get(i) {
        Some(b')') => i += 1,
        Some(b'.') if !paren => i += 1,
        _ => return None,
    }
    let mut forms = Vec::new();
    let chars: Vec<u8> = word.bytes().collect();
    if let [c] = chars[..] {
        forms.push(Form::Letter(u32::from(c - b'a') + 1));
    }
    if let [c, d] = chars[..] {
        if c == d {
            forms.push(Form::DoubleLetter(u32::from(c - b'a') + 1));
        }
    }
    if let Some(v) = roman_value(&word) {
        // A single `c`, `l`, `d`, `m` is a letter in practice; only i, v, x are read both ways.
        if word.len() > 1 || matches!(word.as_str(), "i" | "v" | "x") {
            forms.push(Form::Roman(v));
        }
    }
    if forms.is_empty() {
        None
    } else {
        Some((forms, i))
    }
}

/// The value of a lower-case roman numeral written the standard way, up to 3999.
pub fn roman_value(s: &str) -> Option<u32> {
    let digit = |c: char| match c {
        'i' => Some(1),
        'v' => Some(5),
        'x' => Some(10),
        'l' => Some(50),
        'c' => Some(100),
        'd' => Some(500),
        'm' => Some(1000),
        _ => None,
    };
    let values: Vec<u32> = s.chars().map(digit).collect::<Option<_>>()?;
    let mut total = 0i64;
    for (k, v) in values.iter().enumerate() {
        match values.get(k + 1) {
            Some(next) if next > v => total -= i64::from(*v),
            _ => total += i64::from(*v),
        }
    }
    let total = u32::try_from(total).ok()?;
    // Only the canonical spelling: `iiii` or `ic` are words, not numbers.
    (total > 0
        && total < 4000
        && crate::ast::numbering::format_number(total, crate::ast::NumberFormat::LowerRoman) == s)
        .then_some(total)
}

/// The text at the start of `content`, up to the first thing that is not text (a note, an image,
/// a line break).
pub fn leading_text(content: &[Inline]) -> String {
    let mut s = String::new();
    for run in to_runs(content) {
        match run.leaf {
            Leaf::Text(t) => s.push_str(&t),
            _ => break,
        }
    }
    s
}

/// Removes the first `len` bytes of text from `content` (which [`leading_text`] saw), keeping the
/// formatting of what remains. Returns canonical content.
pub fn strip_leading(content: &[Inline], mut len: usize) -> Vec<Inline> {
    let runs = to_runs(content);
    let mut out: Vec<Run> = Vec::with_capacity(runs.len());
    for mut run in runs {
        if len > 0 {
            if let Leaf::Text(t) = &mut run.leaf {
                let cut = len.min(t.len());
                // `len` came from the same text, so it falls on a character boundary; guard anyway.
                if t.is_char_boundary(cut) {
                    t.replace_range(..cut, "");
                    len -= cut;
                } else {
                    len = 0;
                }
            } else {
                len = 0;
            }
        }
        out.push(run);
    }
    from_runs(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forms(s: &str) -> Vec<Form> {
        parse(s).map(|m| m.forms).unwrap_or_default()
    }

    #[test]
    fn markers() {
        assert_eq!(forms("1. Scope"), vec![Form::Decimal(vec![1])]);
        assert_eq!(forms("1 Scope"), vec![Form::Decimal(vec![1])]);
        assert_eq!(forms("2.3.1 x"), vec![Form::Decimal(vec![2, 3, 1])]);
        assert_eq!(forms("1.2. x"), vec![Form::Decimal(vec![1, 2])]);
        assert_eq!(forms("§ 7 Term"), vec![Form::Decimal(vec![7])]);
        assert_eq!(forms("(b) x"), vec![Form::Letter(2)]);
        assert_eq!(forms("c. x"), vec![Form::Letter(3)]);
        assert_eq!(forms("i) x"), vec![Form::Letter(9), Form::Roman(1)]);
        assert_eq!(forms("(iv) x"), vec![Form::Roman(4)]);
        assert_eq!(forms("bb) x"), vec![Form::DoubleLetter(2)]);
        assert_eq!(forms("ii) x"), vec![Form::DoubleLetter(9), Form::Roman(2)]);
        for not in [
            "2024 was",
            "1.",
            "e.g. this",
            "Scope",
            "a)",
            "1.5kg",
            "(a x",
        ] {
            assert!(parse(not).is_none(), "{not}");
        }
        assert_eq!(parse("  1.\tScope").map(|m| m.len), Some(5));
    }

    #[test]
    fn strip_keeps_formatting() {
        let content = vec![
            Inline::text("1. "),
            Inline::styled(crate::ast::TextStyle::Bold, vec![Inline::text("Scope")]),
        ];
        assert_eq!(leading_text(&content), "1. Scope");
        let out = strip_leading(&content, 3);
        assert_eq!(
            out,
            vec![Inline::styled(
                crate::ast::TextStyle::Bold,
                vec![Inline::text("Scope")]
            )]
        );
    }
}
