//! Pictures in Markdown and HTML output, beyond the engine's `images` modes
//! ([`sdconv::export::files::ImageMode`]): pointing the text's picture references at whatever
//! `src` the caller's callback gives.

use std::collections::HashMap;

use sdconv::Format;

/// The MIME type of a picture's bytes (`image/png`), as the engine's media store tells it.
pub fn mime(bytes: &[u8]) -> &'static str {
    sdconv::ast::media::sniff(bytes).0.mime()
}

/// The places a writer's text names its picture files: what comes right before the file name
/// (`images/<name>`), and which characters may end the reference.
fn openers(format: Format) -> &'static [(&'static str, &'static [char])] {
    match format {
        // `![alt](images/a.png "caption")`: the destination ends at `)` or the title's space.
        Format::Markdown => &[("](", &[')', ' '])],
        // The two forms the HTML writer emits for block and inline pictures; the writer never
        // puts a `"` inside a file name.
        Format::Html => &[
            ("<img src=\"", &['"']),
            ("<img class=\"inline\" src=\"", &['"']),
        ],
        _ => &[],
    }
}

/// `text` (Markdown or HTML output) with each reference to a picture file of `srcs` (by its
/// name, `images/a.png`) replaced by that file's new `src`. Only references the writer made are
/// touched: the text right before them must be the writer's own markup, and the name must be
/// one of the files it wrote. The new `src` is escaped for where it goes.
pub fn rewrite(text: &str, format: Format, srcs: &HashMap<String, String>) -> String {
    let openers = openers(format);
    if openers.is_empty() || srcs.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + srcs.values().map(String::len).sum::<usize>());
    let mut rest = text;
    while let Some(at) = rest.find("images/") {
        let (before, from) = rest.split_at(at);
        let found = openers.iter().find_map(|(open, ends)| {
            if !before.ends_with(open) {
                return None;
            }
            let len = from.find(|c: char| ends.contains(&c))?;
            let src = srcs.get(&from[..len])?;
            Some((len, src))
        });
        out.push_str(before);
        match found {
            Some((len, src)) => {
                escape_src(src, format, &mut out);
                rest = &from[len..];
            }
            None => {
                out.push_str("images/");
                rest = &from["images/".len()..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Writes a `src` given by the caller into the text: HTML attribute escaping, or in Markdown
/// percent-escapes for the characters that would end or break the destination.
fn escape_src(src: &str, format: Format, out: &mut String) {
    for c in src.chars() {
        match (format, c) {
            (Format::Html, '"') => out.push_str("&quot;"),
            (Format::Html, '&') => out.push_str("&amp;"),
            (Format::Html, '<') => out.push_str("&lt;"),
            (Format::Markdown, ' ') => out.push_str("%20"),
            (Format::Markdown, '(') => out.push_str("%28"),
            (Format::Markdown, ')') => out.push_str("%29"),
            (Format::Markdown, '\n') => out.push_str("%0A"),
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn srcs(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn markdown_references_the_writer_made_are_rewritten() {
        let text = "![a](images/a.png \"cap\") and ![b](images/b.png) but not images/a.png \
                    nor ![c](images/unknown.png)";
        let out = rewrite(
            text,
            Format::Markdown,
            &srcs(&[("images/a.png", "x y.png"), ("images/b.png", "b2")]),
        );
        assert_eq!(
            out,
            "![a](x%20y.png \"cap\") and ![b](b2) but not images/a.png \
             nor ![c](images/unknown.png)"
        );
    }

    #[test]
    fn html_img_sources_only() {
        let text = "<p>src=\"images/a.png\"</p><img src=\"images/a.png\" alt=\"\">\
                    <img class=\"inline\" src=\"images/a.png\">";
        let out = rewrite(
            text,
            Format::Html,
            &srcs(&[("images/a.png", "u?a=1&b=\"2\"")]),
        );
        assert_eq!(
            out,
            "<p>src=\"images/a.png\"</p><img src=\"u?a=1&amp;b=&quot;2&quot;\" alt=\"\">\
             <img class=\"inline\" src=\"u?a=1&amp;b=&quot;2&quot;\">"
        );
    }
}
