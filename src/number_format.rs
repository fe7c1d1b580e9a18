//! Numbers as a chart shows them: Excel number format codes (`c:formatCode`) applied to the
//! cached values of a chart, and the way back from the text shown to the number and a code.
//!
//! A chart's data table holds what Word showed (`45%`, `1,234.50`, `4.4` where the cache holds
//! `4.4000000000000004`), so every writer shows the same; the chart writers ([`parse`]) get
//! the number back to draw it or to cache it in a chart part with a code that shows it again
//! exactly so.
//!
//! Supported: `General` (at most 15 significant digits, as Excel shows a number), digit
//! placeholders `0` `#` `?` with decimals, thousands separators, percent, literal text
//! (quoted, escaped, or the characters Excel shows as they are: `$ - + ( ) : / space` and
//! currency signs), `[…]` colour and locale tags, and a second section for negative numbers.
//! Anything else (dates, times, fractions, scientific notation, scaling commas, text sections)
//! is shown as `General`.

/// Significant digits Excel shows of a number in `General`.
const GENERAL_DIGITS: usize = 15;
/// Decimals a code may ask for, at most (Excel's own limit is 30).
const MAX_DECIMALS: usize = 30;
/// Characters of a format code, at most (Excel's limit); a longer one is shown as `General`.
const MAX_CODE_CHARS: usize = 255;
/// Digits a code may ask to show before the point, at most.
const MAX_INT_DIGITS: usize = 30;

/// `value` as `code` shows it (see the module documentation for what is supported).
pub fn format(value: f64, code: &str) -> String {
    if !value.is_finite() || code.chars().count() > MAX_CODE_CHARS {
        return general(value);
    }
    let sections = split_sections(code);
    let (section, value) = match sections.as_slice() {
        // A second section is for negative numbers, shown without their sign.
        [_, negative, ..] if value < 0.0 => (*negative, -value),
        [first, ..] => (*first, value),
        [] => return general(value),
    };
    match Pattern::parse(section) {
        Some(p) => p.apply(value),
        None => general(value),
    }
}

/// A number as `General` shows it: rounded to 15 significant digits, in the shortest form
/// that reads back as that rounded number (`4.4000000000000004` → `4.4`).
pub fn general(value: f64) -> String {
    if !value.is_finite() || value == 0.0 {
        return if value == 0.0 {
            "0".into()
        } else {
            value.to_string()
        };
    }
    let rounded: f64 = format!("{:.*e}", GENERAL_DIGITS - 1, value)
        .parse()
        .unwrap_or(value);
    rounded.to_string()
}

/// A number shown by a chart, and a code that shows it so again.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// The number.
    pub value: f64,
    /// A format code for which `format(value, code)` is the text it was read from.
    pub code: String,
}

/// The number a chart's text shows, with a code that shows it so ([`format()`] gives the text
/// back exactly), or `None` when the text is not a number this module writes.
pub fn parse(shown: &str) -> Option<Shown> {
    // A plain number first: what a chart cache holds and what General shows.
    if is_plain_number(shown)
        && let Ok(value) = shown.parse::<f64>()
        && value.is_finite()
    {
        let code = if general(value) == shown {
            "General".to_string()
        } else {
            // `4.40`, `4.4000000000000004`: as many decimals as written.
            let decimals = shown
                .split_once('.')
                .map_or(0, |(_, d)| d.len())
                .min(MAX_DECIMALS);
            if shown.contains(['e', 'E']) || decimals == 0 && shown.starts_with(['+', '.']) {
                return None;
            }
            plain_code(false, decimals, false)
        };
        return (format(value, &code) == shown).then_some(Shown { value, code });
    }
    // Affixes, thousands separators and percent: `$1,234.50`, `45%`, `12 kg`.
    let start = shown.find(|c: char| c.is_ascii_digit() || c == '.')?;
    let (mut prefix, rest) = shown.split_at(start);
    let negative = prefix.ends_with('-');
    if negative {
        prefix = &prefix[..prefix.len() - 1];
    }
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(rest.len());
    let (core, mut suffix) = rest.split_at(end);
    let percent = suffix.starts_with('%');
    if percent {
        suffix = &suffix[1..];
    }
    // Only a currency, a sign or a short unit around the number: longer text, or digits in it,
    // make it something else (`R&D <2024>`, `12-3`, `5 and 6`).
    if core.starts_with(',') || core.ends_with(',') || !is_affix(prefix) || !is_affix(suffix) {
        return None;
    }
    let grouped = core.contains(',');
    let decimals = core.split_once('.').map_or(0, |(_, d)| d.len());
    if decimals > MAX_DECIMALS {
        return None;
    }
    let mut value: f64 = core.replace(',', "").parse().ok()?;
    if percent {
        value /= 100.0;
    }
    if negative {
        value = -value;
    }
    let mut code = String::new();
    quote(prefix, &mut code);
    code.push_str(&plain_code(grouped, decimals, percent));
    quote(suffix, &mut code);
    (value.is_finite() && format(value, &code) == shown).then_some(Shown { value, code })
}

/// Characters of the text a format code shows around a number, at most.
const MAX_AFFIX: usize = 6;

/// Whether `text` can stand beside a number as its currency, sign or unit (`$`, `€ `, ` kg`,
/// `(`…`)`): letters, spaces, currency signs and brackets, a few at most.
fn is_affix(text: &str) -> bool {
    text.chars().count() <= MAX_AFFIX
        && text
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || "$€£¥₹₽()+-/:".contains(c))
}

/// Digits with at most one `.`, an optional leading `-`: what a number cache holds.
fn is_plain_number(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty()
        && digits
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
}

/// `0`, `#,##0`, with `decimals` zeros after a point, then `%`.
fn plain_code(grouped: bool, decimals: usize, percent: bool) -> String {
    let mut code = String::from(if grouped { "#,##0" } else { "0" });
    if decimals > 0 {
        code.push('.');
        code.extend(std::iter::repeat_n('0', decimals));
    }
    if percent {
        code.push('%');
    }
    code
}

/// `text` as a quoted literal of a format code.
fn quote(text: &str, code: &mut String) {
    if !text.is_empty() {
        code.push('"');
        code.push_str(&text.replace('"', ""));
        code.push('"');
    }
}

/// The sections of a code (`positive;negative;zero;text`), `;` inside quotes not counted.
fn split_sections(code: &str) -> Vec<&str> {
    let mut sections = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in code.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' if !quoted => escaped = true,
            '"' => quoted = !quoted,
            ';' if !quoted => {
                sections.push(&code[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    sections.push(&code[start..]);
    sections
}

/// The characters up to `end` (taken, not returned) or to the end.
fn take_until(chars: &mut impl Iterator<Item = char>, end: char) -> String {
    chars.take_while(|&c| c != end).collect()
}

/// One section of a code the module supports: literal text around one number.
#[derive(Debug, Default)]
struct Pattern {
    prefix: String,
    suffix: String,
    /// `0`s before the point: digits always shown.
    min_int: usize,
    /// Decimals shown at least (`0`) and at most (`0`, `#`, `?`).
    min_dec: usize,
    max_dec: usize,
    grouped: bool,
    percent: bool,
}

impl Pattern {
    /// The pattern of `section`, or `None` for what the module does not support.
    fn parse(section: &str) -> Option<Pattern> {
        let section = section.trim();
        if section.is_empty() || section.eq_ignore_ascii_case("general") {
            return None;
        }
        let mut p = Pattern::default();
        // 0: before the number, 1: in it, 2: after it.
        let mut stage = 0;
        let mut after_point = false;
        let mut chars = section.chars().peekable();
        let literal = |p: &mut Pattern, stage: usize, s: &str| {
            if stage == 0 {
                p.prefix.push_str(s);
            } else {
                p.suffix.push_str(s);
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '[' => {
                    // A colour or locale tag (`[Red]`, `[$€-407]`): a currency symbol in a
                    // locale tag is shown.
                    let tag = take_until(&mut chars, ']');
                    if let Some(symbol) = tag.strip_prefix('$') {
                        let symbol = symbol.split('-').next().unwrap_or("");
                        literal(&mut p, stage, symbol);
                    }
                }
                '"' => {
                    let text = take_until(&mut chars, '"');
                    literal(&mut p, stage, &text);
                    if stage == 1 {
                        stage = 2;
                    }
                }
                '\\' => {
                    let t = chars.next()?;
                    literal(&mut p, stage, &t.to_string());
                    if stage == 1 {
                        stage = 2;
                    }
                }
                '0' | '#' | '?' | '.' | ',' => {
                    if stage == 2 {
                        // Digits after text after digits: not one number.
                        return None;
                    }
                    stage = 1;
                    match c {
                        '.' if after_point => return None,
                        '.' => after_point = true,
                        ',' if after_point => return None,
                        ',' => {
                            // A comma after the last digit scales by 1000: not supported.
                            if !matches!(chars.peek(), Some('0' | '#' | '?')) {
                                return None;
                            }
                            p.grouped = true;
                        }
                        '0' if after_point => {
                            p.min_dec = p.max_dec + 1;
                            p.max_dec += 1;
                        }
                        _ if after_point => p.max_dec += 1,
                        '0' => p.min_int += 1,
                        _ => {}
                    }
                }
                '%' => {
                    p.percent = true;
                    literal(&mut p, stage, "%");
                    if stage == 1 {
                        stage = 2;
                    }
                }
                '_' | '*' => {
                    // Padding to the width of the next character: nothing shown here.
                    chars.next();
                }
                '$' | '-' | '+' | '(' | ')' | ':' | '/' | ' ' | '€' | '£' | '¥' | '^' | '\''
                | '{' | '}' | '<' | '>' | '=' | '!' | '&' | '~' => {
                    literal(&mut p, stage, &c.to_string());
                    if stage == 1 {
                        stage = 2;
                    }
                }
                // Dates, times, scientific notation, text: not a plain number pattern.
                _ => return None,
            }
        }
        if stage == 0 || p.max_dec > MAX_DECIMALS || p.min_int > MAX_INT_DIGITS {
            return None;
        }
        Some(p)
    }

    fn apply(&self, value: f64) -> String {
        let value = if self.percent { value * 100.0 } else { value };
        let fixed = format!("{:.*}", self.max_dec, value.abs());
        let (int, dec) = fixed.split_once('.').unwrap_or((&fixed, ""));
        // Optional decimals (`#`) drop their trailing zeros.
        let mut dec = dec.to_string();
        while dec.len() > self.min_dec && dec.ends_with('0') {
            dec.pop();
        }
        let int = int.trim_start_matches('0');
        let int = if int.len() < self.min_int {
            format!("{}{int}", "0".repeat(self.min_int - int.len()))
        } else {
            int.to_string()
        };
        let negative =
            value < 0.0 && (int.bytes().any(|b| b != b'0') || dec.bytes().any(|b| b != b'0'));
        let mut out = String::with_capacity(int.len() + dec.len() + 8);
        out.push_str(&self.prefix);
        if negative {
            out.push('-');
        }
        if self.grouped {
            for (i, c) in int.chars().enumerate() {
                if i > 0 && (int.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(c);
            }
        } else {
            out.push_str(&int);
        }
        if !dec.is_empty() {
            out.push('.');
            out.push_str(&dec);
        }
        out.push_str(&self.suffix);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_shows_fifteen_significant_digits() {
        // What a cache holds as `4.4000000000000004` reads as 4.4 itself; a sum does not.
        assert_eq!(general("4.4000000000000004".parse().unwrap()), "4.4");
        assert_eq!(general(0.1 + 0.2), "0.3");
        assert_eq!(general(1234.5), "1234.5");
        assert_eq!(general(-2.0), "-2");
        assert_eq!(general(0.0), "0");
        assert_eq!(format(1.1 * 3.0, "General"), "3.3");
    }

    #[test]
    fn codes_show_decimals_thousands_percent_and_literals() {
        for (value, code, shown) in [
            (0.456, "0%", "46%"),
            (0.4567, "0.0%", "45.7%"),
            (1234.5, "#,##0.00", "1,234.50"),
            (1234567.0, "#,##0", "1,234,567"),
            (0.1 + 0.2, "0.00", "0.30"),
            (3.0, "0.0#", "3.0"),
            (3.25, "0.0#", "3.25"),
            (0.5, "#.00", ".50"),
            (12.0, "0 \"kg\"", "12 kg"),
            (99.5, "\"$\"#,##0.00", "$99.50"),
            (99.5, "[$€-407] #,##0.00", "€ 99.50"),
            (-5.0, "0.0;(0.0)", "(5.0)"),
            (-5.0, "0.0", "-5.0"),
            (5.0, "[Red]0.0", "5.0"),
            (-0.001, "0.0", "0.0"),
        ] {
            assert_eq!(format(value, code), shown, "{value} as {code}");
        }
        // Codes past Excel's length, or asking for absurd widths, are General: a hostile chart
        // cannot make each value megabytes long.
        assert_eq!(format(2.5, &"0".repeat(1_000_000)), "2.5");
        assert_eq!(format(2.5, &format!("{}.0", "0".repeat(200))), "2.5");
        assert_eq!(format(2.5, &format!("0.0{}", " ".repeat(300))), "2.5");
        // What the module does not support is General.
        for code in ["dd/mm/yyyy", "0.00E+00", "#,##0,", "# ?/?", "@"] {
            assert_eq!(format(1234.5, code), "1234.5", "{code}");
        }
    }

    #[test]
    fn parse_gives_back_the_number_and_a_code_that_shows_it_again() {
        for shown in [
            "4.4",
            "4.40",
            "-3",
            "46%",
            "45.7%",
            "1,234.50",
            "$99.50",
            "12 kg",
            "-1,234",
            "0.5",
            "4.4000000000000004",
            "1e-7",
        ] {
            let Some(s) = parse(shown) else {
                assert_eq!(shown, "1e-7", "{shown} should parse");
                continue;
            };
            assert_eq!(format(s.value, &s.code), shown, "{shown} via {}", s.code);
        }
        assert_eq!(parse("46%").map(|s| s.value), Some(0.46));
        assert_eq!(parse("1,234.50").map(|s| s.value), Some(1234.5));
        assert_eq!(parse("4.4").map(|s| s.code), Some("General".to_string()));
        for not in [
            "",
            "North",
            "1,2",
            ",5",
            "12-3",
            "5 and 6",
            "inf",
            "NaN",
            "1.2.3",
            "R&D <2024>",
            "Q1 2024",
        ] {
            assert!(parse(not).is_none(), "{not:?}");
        }
    }
}
