//! Link destinations (bare or in `<…>`, escaped) and when a link can be an autolink.

/// Whether `[text](href)` can be written `<href>` (or `<address>` for `mailto:`).
pub(super) fn autolinkable(href: &str, text: &str) -> bool {
    let clean = |s: &str| {
        !s.is_empty()
            && !s
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '\\' | '&'))
    };
    if let Some(address) = href.strip_prefix("mailto:") {
        return address == text
            && clean(address)
            && address.split_once('@').is_some_and(|(user, host)| {
                !user.is_empty()
                    && !host.is_empty()
                    && host
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
                    && user
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".!#$%'*+/=?^_`{|}~-".contains(c))
            });
    }
    if href != text || !clean(href) {
        return false;
    }
    let Some((scheme, _)) = href.split_once(':') else {
        return false;
    };
    (2..=32).contains(&scheme.len())
        && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
}

/// A link destination: bare when it can be, else in `<…>`.
pub(super) fn destination(href: &str) -> String {
    let mut depth = 0i32;
    let mut balanced = true;
    for c in href.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    balanced = false;
                }
            }
            _ => {}
        }
    }
    let angle = !balanced
        || depth != 0
        || href.is_empty()
        || href
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>'));
    let mut out = String::with_capacity(href.len() + 2);
    if angle {
        out.push('<');
    }
    let chars: Vec<char> = href.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '\\' | '<' | '>' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '&' if chars
                .get(i + 1)
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == '#') =>
            {
                out.push_str("\\&");
            }
            // A line ending cannot appear in a destination: percent-encode controls.
            c if c.is_control() => out.push_str(&format!("%{:02X}", c as u32 & 0xFF)),
            c => out.push(c),
        }
    }
    if angle {
        out.push('>');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_and_autolinks() {
        assert_eq!(destination("https://a.b/c"), "https://a.b/c");
        assert_eq!(destination("a b"), "<a b>");
        assert_eq!(destination("a)"), "<a)>");
        assert_eq!(destination("x&amp;"), "x\\&amp;");
        assert!(autolinkable("https://a.b", "https://a.b"));
        assert!(!autolinkable("https://a.b", "site"));
        assert!(autolinkable("mailto:a@b.c", "a@b.c"));
        assert!(!autolinkable("a:b", "a:b"));
    }
}
