//! HTML escaping straight into the output string.
//!
//! Text and attribute values are copied in runs between the few bytes that need attention, so
//! plain text (Latin or Cyrillic alike) costs one `push_str` per run. Code points HTML forbids in
//! documents (controls other than tab/LF/CR/FF, noncharacters: the HTML standard's "input stream
//! preprocessing" parse errors) are replaced by U+FFFD and counted, so the caller can report them
//! once instead of passing them on silently.

use crate::byte_scan::next_special;

/// Appends `s` escaped for element content (`&`, `<`, `>`); returns how many forbidden code
/// points were replaced.
pub fn text(s: &str, out: &mut String) -> usize {
    escape(s, out, false)
}

/// Appends `s` escaped for a double-quoted attribute value (`&`, `<`, `>`, `"`); returns how many
/// forbidden code points were replaced.
pub fn attr(s: &str, out: &mut String) -> usize {
    escape(s, out, true)
}

/// Bytes that need a look: 1 = markup character or forbidden control, 2 = `"`, 3 = lead byte of
/// a sequence that may be forbidden. Everything else is copied as is.
const SPECIAL: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = 1;
        b += 1;
    }
    // Tab, LF, FF and CR are allowed.
    t[0x09] = 0;
    t[0x0A] = 0;
    t[0x0C] = 0;
    t[0x0D] = 0;
    t[b'&' as usize] = 1;
    t[b'<' as usize] = 1;
    t[b'>' as usize] = 1;
    t[b'"' as usize] = 2;
    t[0x7F] = 1;
    // Lead bytes of the only multi-byte sequences that can be forbidden: C1 controls
    // (U+0080..U+009F, lead 0xC2), U+FDD0..U+FDEF and U+FFFE/U+FFFF (lead 0xEF), and the
    // plane-end noncharacters U+1FFFE.. (leads 0xF0..0xF4).
    t[0xC2] = 3;
    t[0xEF] = 3;
    let mut lead = 0xF0;
    while lead <= 0xF4 {
        t[lead] = 3;
        lead += 1;
    }
    t
};

/// Whether [`SPECIAL`] gives byte `b` a look in text (1 or 3), in comparisons that
/// [`crate::byte_scan`] can run on many bytes at once.
fn text_special(b: u8) -> bool {
    (b < 0x20 && !matches!(b, 0x09 | 0x0A | 0x0C | 0x0D))
        || b == b'&'
        || b == b'<'
        || b == b'>'
        || b == 0x7F
        || b == 0xC2
        || b == 0xEF
        || (0xF0..=0xF4).contains(&b)
}

/// [`text_special`] in an attribute value, where `"` is escaped too.
fn attr_special(b: u8) -> bool {
    text_special(b) || b == b'"'
}

fn escape(s: &str, out: &mut String, quote: bool) -> usize {
    let bytes = s.as_bytes();
    let mut replaced = 0;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        i = if quote {
            next_special(bytes, i, attr_special)
        } else {
            next_special(bytes, i, text_special)
        };
        let Some(&b) = bytes.get(i) else {
            break;
        };
        let class = SPECIAL[usize::from(b)];
        if class == 0 || (class == 2 && !quote) {
            i += 1;
            continue;
        }
        if class == 3 {
            let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
            let len = c.len_utf8();
            if forbidden(c) {
                out.push_str(&s[start..i]);
                out.push('\u{FFFD}');
                replaced += 1;
                start = i + len;
            }
            i += len;
            continue;
        }
        out.push_str(&s[start..i]);
        match b {
            b'&' => out.push_str("&amp;"),
            b'<' => out.push_str("&lt;"),
            b'>' => out.push_str("&gt;"),
            b'"' => out.push_str("&quot;"),
            _ => {
                out.push('\u{FFFD}');
                replaced += 1;
            }
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    replaced
}

/// Whether HTML forbids `c` in a document.
fn forbidden(c: char) -> bool {
    let n = u32::from(c);
    matches!(n, 0x80..=0x9F | 0xFDD0..=0xFDEF) || (n & 0xFFFE) == 0xFFFE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> (String, usize) {
        let mut out = String::new();
        let n = text(s, &mut out);
        (out, n)
    }

    #[test]
    fn the_special_bytes_are_those_of_the_table() {
        for b in 0..=255u8 {
            let class = SPECIAL[usize::from(b)];
            assert_eq!(text_special(b), class == 1 || class == 3, "{b:#x}");
            assert_eq!(attr_special(b), class != 0, "{b:#x}");
        }
    }

    #[test]
    fn escapes_markup_and_keeps_unicode() {
        assert_eq!(
            t("<script>&\"Größe\" Рисунок</script>").0,
            "&lt;script&gt;&amp;\"Größe\" Рисунок&lt;/script&gt;"
        );
        let mut out = String::new();
        attr("a\"b<c>&", &mut out);
        assert_eq!(out, "a&quot;b&lt;c&gt;&amp;");
    }

    #[test]
    fn replaces_forbidden_code_points() {
        assert_eq!(t("a\u{1}b\u{85}c\u{FFFF}d\u{1FFFE}e\u{FDD0}"), {
            (
                "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}".to_string(),
                5,
            )
        });
        // Allowed neighbours of the forbidden ranges pass.
        assert_eq!(t("\t\n\u{A0}\u{FFFD}\u{1F600}\u{FDCF}"), {
            ("\t\n\u{A0}\u{FFFD}\u{1F600}\u{FDCF}".to_string(), 0)
        });
    }

    proptest::proptest! {
        /// Escaping then unescaping gives the input back, forbidden code points as U+FFFD; the
        /// output never holds a markup character.
        #[test]
        fn round_trips_any_string(s in "\\PC*|[\\x00-\\x7f\\u{80}-\\u{9f}\\u{fdd0}\\u{fffe}\\u{ffff}<>&\"]*") {
            let mut out = String::new();
            let n = attr(&s, &mut out);
            proptest::prop_assert!(!out.contains(['<', '>', '"']));
            let back = out
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&");
            let expected: String = s.chars().map(|c| if forbidden(c) || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{C}')) { '\u{FFFD}' } else { c }).collect();
            proptest::prop_assert_eq!(back, expected);
            proptest::prop_assert_eq!(n, s.chars().filter(|&c| forbidden(c) || (c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\u{C}'))).count());
        }
    }
}
