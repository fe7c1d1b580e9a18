//! Attribute access and the value grammar of the DTD (levels, indents, percentages, 0/1 flags,
//! colours), plus the repair of Word field codes that old exports left in `a@href`.

use std::borrow::Cow;

use quick_xml::events::BytesStart;

use crate::limits::MAX_TABLE_COLUMNS;

/// The attributes of `e` as (local name, value); values are unescaped and normalised as XML 1.0
/// requires. A value with an entity only a DTD could define is taken raw (like text, where such a
/// reference is kept literally). A malformed attribute list yields `Err` with the parser's message.
/// Repeated names are not checked here (the caller does, without allocating).
pub(super) fn iter<'e>(
    e: &'e BytesStart<'_>,
) -> impl Iterator<Item = Result<(&'e str, Cow<'e, str>), String>> {
    let mut attributes = e.attributes();
    attributes.with_checks(false);
    attributes.filter_map(|a| {
        let a = match a {
            Ok(a) => a,
            Err(err) => return Some(Err(err.to_string())),
        };
        let key = a.key.0;
        if key == "xmlns" || key.starts_with("xmlns:") {
            return None;
        }
        let local = crate::xml::local(key);
        let value = a
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .unwrap_or_else(|_| a.value.clone());
        Some(Ok((local, value)))
    })
}

/// A level `0..=5` (`heading@level`, `@enumeration`).
pub(super) fn level(s: &str) -> Option<u8> {
    s.trim()
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= crate::ast::MAX_LEVEL)
}

/// An indent `0..=15`.
pub(super) fn indent(s: &str) -> Option<u8> {
    s.trim()
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= crate::ast::MAX_INDENT)
}

/// A list depth: any small non-negative number (the caller clamps it to the tree's levels).
pub(super) fn depth(s: &str) -> Option<u32> {
    s.trim().parse::<u32>().ok()
}

/// A `0|1` flag.
pub(super) fn flag(s: &str) -> Option<bool> {
    match s.trim() {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// A width in percent of the text width, `"46.00%"` → 46.0; must lie in (0, 100].
pub(super) fn percent(s: &str) -> Option<f32> {
    let s = s.trim();
    let n = s.strip_suffix('%').unwrap_or(s).trim();
    let v: f32 = n.parse().ok()?;
    (v.is_finite() && v > 0.0 && v <= 100.0).then_some(v)
}

/// A relative column width `"20%"`; finite and not negative.
pub(super) fn column_width(s: &str) -> Option<f32> {
    let s = s.trim();
    let n = s.strip_suffix('%').unwrap_or(s).trim();
    let v: f32 = n.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// What a `colspan`/`rowspan` value means.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Span {
    /// A usable value.
    Ok(u32),
    /// Larger than any table may be: clamped to this.
    Clamped(u32),
    /// Not a positive number: 1 is used.
    Bad,
}

/// A `colspan`/`rowspan`: a positive number, hostile values clamped to [`MAX_TABLE_COLUMNS`]
/// (row spans past the table's end are cut when the table is complete).
pub(super) fn span(s: &str) -> Span {
    let s = s.trim();
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        let max = MAX_TABLE_COLUMNS as u32;
        return match s.parse::<u32>() {
            Ok(0) => Span::Bad,
            Ok(n) if n <= max => Span::Ok(n),
            // Digits only, so a parse failure means overflow: hostile, like any value past max.
            _ => Span::Clamped(max),
        };
    }
    Span::Bad
}

/// A colour `#rrggbb`.
pub(super) fn color(s: &str) -> Option<String> {
    let s = s.trim();
    let hex = s.strip_prefix('#')?;
    (hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_string())
}

/// `Some(s)` unless `s` is empty (the DTD's way of saying "none").
pub(super) fn non_empty(s: Cow<'_, str>) -> Option<String> {
    (!s.is_empty()).then(|| s.into_owned())
}

/// Repairs a Word `HYPERLINK` field code that 2016-2017 exports copied into `a@href`:
/// ` HYPERLINK  \l "absatz1" ` → `#absatz1`, ` HYPERLINK "http://x" ` → `http://x`. `None` when
/// `href` is not a field code (or one without any target).
pub(super) fn repair_field_href(href: &str) -> Option<String> {
    let t = href.trim_start();
    let head = t.get(..9)?;
    if !head.eq_ignore_ascii_case("HYPERLINK") {
        return None;
    }
    let rest = &t[9..];
    if !rest.is_empty() && !rest.starts_with(char::is_whitespace) && !rest.starts_with('"') {
        return None;
    }
    let tokens = field_tokens(rest);
    let mut url: Option<&str> = None;
    let mut anchor: Option<&str> = None;
    let mut it = tokens.iter();
    while let Some(tok) = it.next() {
        match *tok {
            // \l: a location (bookmark) inside the document.
            "\\l" => anchor = it.next().copied(),
            // \o tooltip, \t target frame: take an argument we have no use for.
            "\\o" | "\\t" => {
                it.next();
            }
            s if s.starts_with('\\') => {}
            s if url.is_none() => url = Some(s),
            _ => {}
        }
    }
    match (
        url.filter(|u| !u.is_empty()),
        anchor.filter(|a| !a.is_empty()),
    ) {
        (Some(u), Some(a)) => Some(format!("{u}#{a}")),
        (Some(u), None) => Some(u.to_string()),
        (None, Some(a)) => Some(format!("#{a}")),
        (None, None) => None,
    }
}

/// Splits field-code arguments: `"quoted text"` or bare words.
fn field_tokens(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        if let Some(q) = rest.strip_prefix('"') {
            let end = q.find('"').unwrap_or(q.len());
            out.push(&q[..end]);
            rest = q.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(&rest[..end]);
            rest = &rest[end..];
        }
        rest = rest.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_dtd() {
        assert_eq!(level("5"), Some(5));
        assert_eq!(level("9"), None);
        assert_eq!(indent("15"), Some(15));
        assert_eq!(indent("16"), None);
        assert_eq!(percent("46.00%"), Some(46.0));
        assert_eq!(percent("92.0%"), Some(92.0));
        assert_eq!(percent("0%"), None);
        assert_eq!(percent("NaN%"), None);
        assert_eq!(percent("150%"), None);
        assert_eq!(flag("1"), Some(true));
        assert_eq!(flag("yes"), None);
        assert_eq!(span("2"), Span::Ok(2));
        assert_eq!(span("0"), Span::Bad);
        assert_eq!(span("-1"), Span::Bad);
        assert_eq!(span("x"), Span::Bad);
        assert_eq!(span("99999999999999999999"), Span::Clamped(1000));
        assert_eq!(span("5000"), Span::Clamped(1000));
        assert_eq!(color("#00ffAA").as_deref(), Some("#00ffAA"));
        assert_eq!(color("red"), None);
    }

    #[test]
    fn repairs_word_field_codes() {
        assert_eq!(
            repair_field_href(" HYPERLINK  \\l \"absatz1\" ").as_deref(),
            Some("#absatz1")
        );
        assert_eq!(
            repair_field_href(" HYPERLINK \"http://x\" ").as_deref(),
            Some("http://x")
        );
        assert_eq!(
            repair_field_href("HYPERLINK \"http://x/a\" \\l \"b\" \\o \"tip\"").as_deref(),
            Some("http://x/a#b")
        );
        assert_eq!(repair_field_href("http://example.org"), None);
        assert_eq!(repair_field_href("HYPERLINKS"), None);
        assert_eq!(repair_field_href(" HYPERLINK "), None);
        assert_eq!(
            repair_field_href(" HYPERLINK \\l \"unterminated"),
            Some("#unterminated".into())
        );
    }
}
