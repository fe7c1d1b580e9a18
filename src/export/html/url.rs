//! Which link targets may become an `href`.
//!
//! Allowed: `http:`, `https:`, `mailto:`, relative references and fragments (`#id`). The check
//! reads the target the way a browser's URL parser would (WHATWG URL standard): leading and
//! trailing C0 controls and spaces are stripped and tabs and newlines removed anywhere, so
//! `" java\tscript:"` is seen as `javascript:`. Anything whose scheme is not on the list is
//! refused — including malformed "schemes" such as `java\u{200B}script:`: a colon before the
//! first `/`, `?` or `#` must introduce an allowed scheme.

/// What kind of target an allowed href is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// `http:`, `https:` or `mailto:`.
    External,
    /// A relative reference (`a/b.html`, `//host/x`, `?q`).
    Relative,
    /// A fragment in this page (`#id`); the string returned is the id, without `#`.
    Fragment,
}

/// Returns the cleaned target and its kind, or `None` when the link must be dropped. The target is
/// returned percent-encoded where the URL standard forbids a character (space, `"`, `<`, `>`,
/// `` ` ``, `{`, `}`, `|`, `\`, `^`, brackets outside the host, a second `#`, a `%` that starts
/// no escape), so validators accept it and browsers read the same address.
pub fn check(href: &str) -> Option<(String, Target)> {
    // Read as the tree's own check reads it (`ast::links`), controls refused.
    let cleaned = crate::ast::links::normalized(href)?;
    if let Some(id) = cleaned.strip_prefix('#') {
        return Some((id.to_string(), Target::Fragment));
    }
    let kind = match crate::ast::links::scheme(&cleaned) {
        None => Target::Relative,
        Some(scheme) => {
            let scheme = scheme.to_ascii_lowercase();
            if !matches!(scheme.as_str(), "http" | "https" | "mailto") {
                return None;
            }
            Target::External
        }
    };
    Some((encode(&cleaned), kind))
}

/// Percent-encodes what may not stand in a URL as written (see [`check`]).
fn encode(url: &str) -> String {
    // The authority (`//host:port`) keeps its brackets: they delimit IPv6 addresses.
    let authority = match url.find("//") {
        Some(i) if !url[..i].contains(['/', '?', '#']) => {
            let rest = &url[i + 2..];
            i + 2 + rest.find(['/', '?', '#']).unwrap_or(rest.len())
        }
        _ => 0,
    };
    let bytes = url.as_bytes();
    let mut out = String::with_capacity(url.len());
    let mut seen_hash = false;
    for (i, c) in url.char_indices() {
        let escape = match c {
            ' ' | '"' | '<' | '>' | '`' | '{' | '}' | '|' | '\\' | '^' => true,
            '[' | ']' => i >= authority,
            '#' => std::mem::replace(&mut seen_hash, true),
            '%' => {
                !(bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                    && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            }
            _ => false,
        };
        if escape {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allows_web_mail_relative_and_fragments() {
        assert_eq!(
            check("https://example.org/a?b#c"),
            Some(("https://example.org/a?b#c".into(), Target::External))
        );
        assert_eq!(
            check(" HTTP://x "),
            Some(("HTTP://x".into(), Target::External))
        );
        assert_eq!(
            check("mailto:a@b.c"),
            Some(("mailto:a@b.c".into(), Target::External))
        );
        assert_eq!(
            check("docs/a:b.html"),
            Some(("docs/a:b.html".into(), Target::Relative))
        );
        assert_eq!(check("#sec-1"), Some(("sec-1".into(), Target::Fragment)));
    }

    #[test]
    fn encodes_what_urls_may_not_hold() {
        assert_eq!(
            check("https://example.org/a b?q=\"x\"&r=<y>#f#g").map(|c| c.0),
            Some("https://example.org/a%20b?q=%22x%22&r=%3Cy%3E#f%23g".into())
        );
        assert_eq!(
            check("http://[::1]:8080/p[1]?x=100%&y=%41").map(|c| c.0),
            Some("http://[::1]:8080/p%5B1%5D?x=100%25&y=%41".into())
        );
    }

    #[test]
    fn refuses_script_and_data_in_any_disguise() {
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " \u{1}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "jav\u{0}ascript:x",
            "java\u{200B}script:x",
            "vbscript:msgbox",
            "data:text/html;base64,PHNjcmlwdD4=",
            "DATA:image/png;base64,AAAA",
            "file:///etc/passwd",
            "tel:123",
            "a:b",
        ] {
            assert_eq!(check(bad), None, "{bad:?}");
        }
    }
}
