//! Link targets no reader should follow. A hyperlink to `javascript:`, `vbscript:`, `data:` or
//! `file:` is dropped when a document is read, its text kept, so no writer can carry it out (the
//! sd.xml export hands links back to the service; Word and PDF readers follow them on a click).
//!
//! Targets are read the way a browser's URL parser reads them (WHATWG URL standard), as the HTML
//! writer's stricter check does: leading and trailing C0 controls and spaces are stripped, tabs
//! and newlines removed anywhere, so `" java\tscript:"` is seen as `javascript:`.

use std::borrow::Cow;

use super::{Document, Inline};
use crate::report::{Location, Report, WarningKind};

/// Schemes that run code or reach the reader's own machine.
const UNSAFE_SCHEMES: [&str; 4] = ["javascript", "vbscript", "data", "file"];

/// `href` as a browser reads it, or `None` when it holds a control character other than the
/// tab and newlines a browser removes (nothing legitimate does, and it could hide a scheme from
/// a weaker check further down the line). Borrowed when there is nothing to strip: every piece
/// of every link is read through here on import and on each HTML export, and almost every
/// target holds no space or control character.
pub fn normalized(href: &str) -> Option<Cow<'_, str>> {
    if !href.chars().any(|c| c <= ' ' || c.is_control()) {
        return Some(Cow::Borrowed(href));
    }
    let cleaned: String = href
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    (!cleaned.chars().any(char::is_control)).then_some(Cow::Owned(cleaned))
}

/// The scheme of a [`normalized`] target (before the first `:` that comes before any `/`, `?`
/// or `#`), as written; `None` for a relative reference or a fragment.
pub fn scheme(normalized: &str) -> Option<&str> {
    let end = normalized.find(['/', '?', '#']).unwrap_or(normalized.len());
    normalized[..end]
        .find(':')
        .map(|colon| &normalized[..colon])
}

/// Whether a link to `href` must not survive reading.
pub fn is_unsafe(href: &str) -> bool {
    match normalized(href) {
        None => true,
        Some(n) => {
            scheme(&n).is_some_and(|s| UNSAFE_SCHEMES.iter().any(|u| s.eq_ignore_ascii_case(u)))
        }
    }
}

/// Unwraps every link of `doc` whose target [`is_unsafe`], keeping its text, and reports them
/// in one warning.
pub fn drop_unsafe_links(doc: &mut Document, report: &mut Report) {
    // Most documents have none: looked for on all cores, and only a document with one is
    // walked again, in order (which names the warning's example), to unwrap them.
    let any = doc.par_fold(
        |_, _, _| {},
        |any: &mut bool, i| {
            *any = *any || matches!(i, Inline::Link { href, .. } if is_unsafe(href));
        },
        |a, b| a || b,
    );
    if !any {
        return;
    }
    let mut example: Option<String> = None;
    let dropped = unwrap_links(doc, |href| {
        let goes = is_unsafe(href);
        if goes && example.is_none() {
            // Enough to recognise it; a data: URI can be megabytes.
            example = Some(href.chars().take(40).collect());
        }
        goes
    });
    if let Some(example) = example {
        report.warn(
            WarningKind::Dropped,
            format!(
                "{dropped} link(s) to unsafe targets (javascript:, vbscript:, data:, file:) \
                 dropped, their text kept (e.g. {example:?})"
            ),
            Location::default(),
        );
    }
}

/// Unwraps every link of `doc` whose target `unwrap` picks, keeping its text in its place;
/// returns how many. `unwrap` is asked once of each link, in the order the inline lists are
/// walked (a link inside an unwrapped one is asked in its turn, in that list).
pub(crate) fn unwrap_links(doc: &mut Document, mut unwrap: impl FnMut(&str) -> bool) -> usize {
    let mut unwrapped = 0usize;
    doc.walk_inline_lists_mut(&mut |list| {
        if !list.iter().any(|i| matches!(i, Inline::Link { .. })) {
            return;
        }
        let before = unwrapped;
        // Items still to place, the next one last: an unwrapped link's children come next.
        let mut pending = std::mem::take(list);
        pending.reverse();
        while let Some(inline) = pending.pop() {
            match inline {
                Inline::Link { href, children } if unwrap(&href) => {
                    unwrapped += 1;
                    pending.extend(children.into_iter().rev());
                }
                other => list.push(other),
            }
        }
        // The link's text now stands beside its neighbours: `a<a href="bad">b</a>` must become
        // the one text `ab` of the canonical form, not two texts side by side. Every link and
        // wrapper of canonical content nests in mark order, so putting this list in canonical
        // form puts the whole content in it.
        if unwrapped > before {
            *list = super::inline::normalize(list);
        }
    });
    unwrapped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{Block, Paragraph, TextType};

    #[test]
    fn browsers_reading_is_what_counts() {
        for bad in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:x",
            "\u{1}javascript:x",
            "vbscript:msgbox",
            "data:text/html;base64,PHNjcmlwdD4=",
            "FILE:///etc/passwd",
            "javascript\u{0}:x",
            "java\u{85}script:x",
            "  data:,x ",
        ] {
            assert!(is_unsafe(bad), "{bad:?}");
        }
        for good in [
            "https://example.com/a:b",
            "mailto:a@b.c",
            "#anchor",
            "a/b:c.html",
            "?q=javascript:x",
            "ftp://host/file",
            " https://example.com/a b ",
            "\thttp://x",
        ] {
            assert!(!is_unsafe(good), "{good:?}");
        }
        // Only a target with something to strip is copied.
        assert!(matches!(
            normalized("https://a/b"),
            Some(Cow::Borrowed("https://a/b"))
        ));
        assert!(matches!(normalized(" x\ty "), Some(Cow::Owned(n)) if n == "xy"));
        assert!(normalized("a\u{85}b").is_none());
        assert_eq!(scheme("HTTPS://x"), Some("HTTPS"));
        assert_eq!(scheme("#x:y"), None);
    }

    #[test]
    fn unsafe_links_lose_their_target_and_keep_their_text() {
        let link = |href: &str, text: &str| Inline::Link {
            href: href.into(),
            children: vec![Inline::text(text)],
        };
        let mut doc = Document::default();
        doc.blocks.push(Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![
                link("javascript:alert(1)", "click"),
                Inline::text(" and "),
                link("https://example.com", "safe"),
                Inline::Note {
                    kind: crate::ast::NoteKind::Footnote,
                    content: vec![link("data:text/html,x", "note link")],
                },
            ],
        )));
        let mut report = Report::new();
        drop_unsafe_links(&mut doc, &mut report);
        let warnings = report.finish(()).warnings;
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.starts_with("2 link(s)"),
            "{}",
            warnings[0].message
        );
        let mut hrefs = Vec::new();
        doc.walk_inlines(&mut |i| {
            if let Inline::Link { href, .. } = i {
                hrefs.push(href.to_string());
            }
        });
        assert_eq!(hrefs, ["https://example.com"]);
        let Block::Paragraph(p) = &doc.blocks[0] else {
            panic!("paragraph")
        };
        assert_eq!(crate::ast::inline::plain_text(&p.content), "click and safe");
        assert!(crate::ast::inline::is_normalized(&p.content));
    }

    /// Found by the sd.xml fuzzer: `=<a href="h\0/">r</a>` left the texts `=` and `r` side by
    /// side, which is not canonical form, and the tree failed validation.
    #[test]
    fn unwrapped_text_joins_its_neighbours() {
        let bold = |children| Inline::styled(crate::ast::TextStyle::Bold, children);
        let mut doc = Document::default();
        doc.blocks.push(Block::Paragraph(Paragraph::new(
            TextType::Paragraph,
            vec![
                Inline::text("="),
                Inline::Link {
                    href: "h\0/".into(),
                    children: vec![Inline::text("r")],
                },
                bold(vec![Inline::text("x")]),
                Inline::Link {
                    href: "javascript:x".into(),
                    children: vec![bold(vec![Inline::text("y")])],
                },
            ],
        )));
        let mut report = Report::new();
        drop_unsafe_links(&mut doc, &mut report);
        assert!(doc.validate().is_ok(), "{:?}", doc.validate());
        let Block::Paragraph(p) = &doc.blocks[0] else {
            panic!("paragraph")
        };
        assert_eq!(
            p.content,
            [Inline::text("=r"), bold(vec![Inline::text("xy")])]
        );
    }
}
