//! Stage one: small XML helpers the Word parts share: attribute lookup on local names (any
//! namespace prefix, so transitional, ISO Strict and oddly prefixed files read alike), ST_OnOff
//! values, and measurements in twips or EMU with or without units (Strict writes `72pt`).

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};

use crate::error::Result;
use crate::xml::{XmlReader, push_ref};

/// The value of the attribute whose local name is `name`, unescaped; borrowed from the event
/// when nothing needed normalising.
pub use crate::xml::attr;

/// The attribute `name` as an owned string.
pub fn attr_string(e: &BytesStart<'_>, name: &str) -> Option<String> {
    attr(e, name).map(Cow::into_owned)
}

/// `w:val` (or any prefix's `val`).
pub fn val(e: &BytesStart<'_>) -> Option<String> {
    attr_string(e, "val")
}

/// An ST_OnOff value: absent means on (ECMA-376 §17.17.4: `<w:b/>` is bold); `0`, `false`, `off`
/// (any case) mean off; anything else on.
pub fn on_off(e: &BytesStart<'_>) -> bool {
    match attr(e, "val") {
        None => true,
        Some(v) => !is_off(&v),
    }
}

/// Whether an ST_OnOff string means off.
pub fn is_off(v: &str) -> bool {
    let v = v.trim();
    v == "0" || v.eq_ignore_ascii_case("false") || v.eq_ignore_ascii_case("off")
}

/// Parses a length in twentieths of a point: a plain integer (transitional) or a number with a
/// unit (`72pt`, `1in`, `2.54cm`, `25.4mm`, `6pc`, `6pi`; ISO Strict). `None` when unreadable.
pub fn twips(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Ok(n) = s.parse::<i64>() {
        return Some(n);
    }
    let (num, per_unit) = split_unit(s, 20.0)?;
    finite_round(num * per_unit)
}

/// Parses a length in EMU (914,400 per inch): a plain integer or a number with a unit.
pub fn emu(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Ok(n) = s.parse::<i64>() {
        return Some(n);
    }
    let (num, per_pt) = split_unit(s, 12_700.0)?;
    finite_round(num * per_pt)
}

/// Splits `72pt` into (72, factor) where `factor` converts the unit to the target unit given how
/// many target units make one point (`per_point`).
fn split_unit(s: &str, per_point: f64) -> Option<(f64, f64)> {
    let units: [(&str, f64); 6] = [
        ("pt", 1.0),
        ("in", 72.0),
        ("cm", 72.0 / 2.54),
        ("mm", 72.0 / 25.4),
        ("pc", 12.0),
        ("pi", 12.0),
    ];
    for (unit, points) in units {
        if let Some(num) = s.strip_suffix(unit) {
            let n: f64 = num.trim().parse().ok()?;
            return Some((n, points * per_point));
        }
    }
    // A bare decimal number (some producers write `1440.0`).
    let n: f64 = s.parse().ok()?;
    Some((n, 1.0))
}

fn finite_round(x: f64) -> Option<i64> {
    if x.is_finite() && x.abs() < 9.0e15 {
        Some(x.round() as i64)
    } else {
        None
    }
}

/// A CSS-ish length from VML `style` (`width:120pt;height:3in`) in EMU.
pub fn css_length_emu(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some(px) = s.strip_suffix("px") {
        // CSS pixels: 96 per inch.
        let n: f64 = px.trim().parse().ok()?;
        return finite_round(n * 9_525.0);
    }
    if let Ok(n) = s.parse::<f64>() {
        // VML's unitless lengths are pixels too.
        return finite_round(n * 9_525.0);
    }
    emu(s)
}

/// Reads the text content of the element whose `Start` was just read, concatenating text and
/// resolved references and skipping child tags. Newlines become spaces (Word shows them so).
pub fn element_text(r: &mut XmlReader<'_>) -> Result<String> {
    let target = r.depth().saturating_sub(1);
    let mut out = String::new();
    while r.depth() > target {
        match r.next_event()? {
            // Most elements hold one text: taken at its length, without a growth step.
            Event::Text(t) if out.is_empty() => out = t.xml10_content().into_owned(),
            Event::Text(t) => out.push_str(&t.xml10_content()),
            Event::CData(t) => out.push_str(&t.xml10_content()),
            Event::GeneralRef(g) => push_ref(&g, &mut out),
            Event::Eof => return Err(r.invalid("the part ends inside an element")),
            _ => {}
        }
    }
    // Asked of every text of the document: a vector search, not a pattern match per char.
    if memchr::memchr2(b'\n', b'\r', out.as_bytes()).is_some() {
        out = out.replace(['\n', '\r'], " ");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_off_values() {
        let mk = |s: &str| {
            let xml = format!("<w:b {s}/>");
            let mut r = quick_xml::Reader::from_str(&xml);
            match r.read_event().unwrap() {
                Event::Empty(e) => on_off(&e.into_owned()),
                _ => panic!(),
            }
        };
        assert!(mk(""));
        assert!(mk("w:val=\"1\""));
        assert!(mk("w:val=\"on\""));
        assert!(!mk("w:val=\"0\""));
        assert!(!mk("w:val=\"false\""));
        assert!(!mk("w:val=\"off\""));
    }

    #[test]
    fn measurements_with_units() {
        assert_eq!(twips("1440"), Some(1440));
        assert_eq!(twips("72pt"), Some(1440));
        assert_eq!(twips("1in"), Some(1440));
        assert_eq!(twips("595.30pt"), Some(11906));
        assert_eq!(twips("2.54cm"), Some(1440));
        assert_eq!(twips("x"), None);
        assert_eq!(twips("1e400pt"), None);
        assert_eq!(emu("914400"), Some(914_400));
        assert_eq!(emu("1in"), Some(914_400));
        assert_eq!(css_length_emu("72pt"), Some(914_400));
        assert_eq!(css_length_emu("96px"), Some(914_400));
    }
}
