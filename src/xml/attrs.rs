//! Looking up one attribute of a start tag by its local name, as every reader does for most
//! elements it meets (`w:val` above all: 40,000 lookups in `large.docx`).
//!
//! quick-xml's attribute iterator walks a state machine byte by byte and sets up its
//! normalisation for every value (545 instructions a lookup there). [`attr`] reads the usual
//! `name="value"` list with a search per value and borrows a value that needs no normalising;
//! at the first thing it does not expect (a name without `=`, an unquoted or unclosed value,
//! white space around `=`), it asks quick-xml's iterator for the whole answer, so malformed
//! lists read exactly as before. [`quick_attr`] is that answer, and the tests (and the
//! `xml_tokens` fuzz target, through [`super::check::compare_with_quick_xml`]) compare the two.

use std::borrow::Cow;

use quick_xml::XmlVersion;
use quick_xml::events::BytesStart;
use quick_xml::events::attributes::Attribute;
use quick_xml::name::QName;
use quick_xml::utils::is_whitespace;

use super::local;

/// The value of attribute `name` (matched on the local name, so any prefix works), unescaped
/// and normalised. A malformed attribute list gives `None` for the broken attribute rather
/// than an error: the caller decides whether a missing value matters.
pub fn attr<'a>(e: &'a BytesStart<'_>, name: &str) -> Option<Cow<'a, str>> {
    let list = e.attributes_raw();
    let bytes = list.as_bytes();
    let mut i = 0;
    loop {
        // quick-xml's steps for a well-formed attribute: white space, the name up to `=`, a
        // quote, the value up to the same quote.
        while bytes.get(i).is_some_and(|&b| is_whitespace(b)) {
            i += 1;
        }
        if i == bytes.len() {
            return None;
        }
        let key_start = i;
        while let Some(&b) = bytes.get(i) {
            if b == b'=' || is_whitespace(b) {
                break;
            }
            i += 1;
        }
        // quick-xml refuses an empty name too.
        if bytes.get(i) != Some(&b'=') || i == key_start {
            return quick_attr(e, name);
        }
        let key = list.get(key_start..i)?;
        let quote = match bytes.get(i + 1) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return quick_attr(e, name),
        };
        let value_start = i + 2;
        let Some(len) = memchr::memchr(quote, bytes.get(value_start..).unwrap_or_default()) else {
            return quick_attr(e, name);
        };
        let value = list.get(value_start..value_start + len)?;
        if local(key) == name {
            return normalized(key, value);
        }
        i = value_start + len + 1;
    }
}

/// The value of attribute `name` as quick-xml's iterator finds it (checks off, broken
/// attributes skipped): what [`attr`] answers.
pub(crate) fn quick_attr<'a>(e: &'a BytesStart<'_>, name: &str) -> Option<Cow<'a, str>> {
    for a in e.attributes().with_checks(false).flatten() {
        if local(a.key.0) == name {
            return a.normalized_value(XmlVersion::Implicit1_0).ok();
        }
    }
    None
}

/// `value` normalised as quick-xml normalises attribute values (references resolved, tabs and
/// line ends as spaces); borrowed when there is nothing to do.
fn normalized<'a>(key: &'a str, value: &'a str) -> Option<Cow<'a, str>> {
    if !value
        .bytes()
        .any(|b| matches!(b, b'&' | b'\t' | b'\n' | b'\r'))
    {
        return Some(Cow::Borrowed(value));
    }
    let a = Attribute {
        key: QName(key),
        value: Cow::Borrowed(value),
    };
    a.normalized_value(XmlVersion::Implicit1_0).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use quick_xml::utils::name_len;

    /// Both lookups of `name` in a tag of `content`.
    fn both(content: &str, name: &str) {
        let len = name_len(content.as_bytes());
        let e = BytesStart::from_content(content, len);
        assert_eq!(
            attr(&e, name),
            quick_attr(&e, name),
            "{name} in {content:?}"
        );
    }

    #[test]
    fn well_formed_and_broken_lists_read_as_quick_xml_reads_them() {
        let lists = [
            "e",
            "e ",
            "w:pStyle w:val=\"Heading1\"",
            "e a='1' b=\"2\"",
            "e a=\"1\"b=\"2\"",
            "e  a = \"1\"  b =\"2\" ",
            "e a",
            "e a b=\"2\"",
            "e a=1 b=\"2\"",
            "e a=\"1 b=\"2\"",
            "e a=",
            "e a=\"x &amp; y\" b='&#65;&bogus;' c=\"t\tn\nr\r\n\"",
            "e a=\"&\" b=\"2\"",
            "e w:a=\"1\" x:a=\"2\"",
            "e =\"1\" a=\"2\"",
            "e a==\"1\"",
            "e a=\"é東\" é=\"ü\"",
            "e a=\"'\" b='\"'",
        ];
        for list in lists {
            for name in ["a", "b", "c", "val", "é", "", "w:a"] {
                both(list, name);
            }
        }
        // The value is borrowed from the tag unless it needed normalising.
        let e = BytesStart::from_content("w:jc w:val=\"center\" x=\"a&amp;b\"", 4);
        assert!(matches!(attr(&e, "val"), Some(Cow::Borrowed("center"))));
        assert_eq!(attr(&e, "x").as_deref(), Some("a&b"));
    }

    #[test]
    fn random_lists_read_as_quick_xml_reads_them() {
        const PIECES: &[&str] = &[
            " ", "\t", "\n", "a", "b", "w:", "val", "=", "\"", "'", "x", "&amp;", "&#9;",
            "&bogus;", "&", "\r\n", ">", "é", "/",
        ];
        let mut rng = crate::sample::Rng::new(0x2545_F491_4F6C_DD1D);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..20_000 {
            let mut list = String::from("e ");
            for _ in 0..next(12) {
                list.push_str(PIECES[next(PIECES.len())]);
            }
            for name in ["a", "b", "val", "x"] {
                both(&list, name);
            }
        }
    }
}
