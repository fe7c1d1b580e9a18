//! HTML escaping straight into the output string.
//!
//! Text and attribute values are copied in runs between the few bytes that need attention, so
//! plain text (Latin or Cyrillic alike) costs one `push_str` per run. Code points HTML forbids in
//! documents (controls other than tab/LF/CR/FF, noncharacters: the HTML standard's "input stream
//! preprocessing" parse errors) are replaced by U+FFFD and counted, so the caller can report them
//! once instead of passing them on silently.

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

fn escape(s: &str, out: &mut String, quote: bool) -> usize {
    let bytes = s.as_bytes();
    let mut replaced = 0;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let replacement: Option<&str> = match b {
            b'&' => Some("&amp;"),
            b'<' => Some("&lt;"),
            b'>' => Some("&gt;"),
            b'"' if quote => Some("&quot;"),
            b'\t' | b'\n' | b'\r' | 0x0C => None,
            0x00..=0x1F | 0x7F => Some("\u{FFFD}"),
            // Lead bytes of the only multi-byte sequences that can be forbidden: C1 controls
            // (U+0080..U+009F, lead 0xC2), U+FDD0..U+FDEF and U+FFFE/U+FFFF (lead 0xEF), and the
            // plane-end noncharacters U+1FFFE.. (leads 0xF0..0xF4).
            0xC2 | 0xEF | 0xF0..=0xF4 => {
                let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
                if forbidden(c) {
                    out.push_str(&s[start..i]);
                    out.push('\u{FFFD}');
                    replaced += 1;
                    i += c.len_utf8();
                    start = i;
                    continue;
                }
                i += c.len_utf8();
                continue;
            }
            _ => None,
        };
        if let Some(r) = replacement {
            out.push_str(&s[start..i]);
            out.push_str(r);
            if r == "\u{FFFD}" {
                replaced += 1;
            }
            start = i + 1;
        }
        i += 1;
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
}
