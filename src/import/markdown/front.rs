//! YAML front matter (pandoc's convention: a block between `---` lines at the very start of the
//! text) read into the document's metadata, and the title heading and subtitle paragraph the
//! Markdown writer puts under it recognised as those fields rather than body text.
//!
//! Only the flat subset metadata uses is read: `key: value` with plain, single- or
//! double-quoted scalars, flow lists (`[a, "b"]`) and block lists (`- a` lines). Keys the tree
//! has no field for are ignored, as are nested mappings under them; a block that is not this
//! subset is warned and left as Markdown text.

use crate::ast::inline::plain_text;
use crate::ast::{Block, Direction, Meta, TextType};
use crate::report::{Location, Report, WarningKind};

/// Splits front matter off `text`: the metadata it holds and the Markdown after it. Text that
/// does not start with a front-matter block comes back whole with empty metadata.
pub(super) fn split<'t>(text: &'t str, report: &mut Report) -> (Meta, &'t str) {
    let mut meta = Meta::default();
    let Some(body) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return (meta, text);
    };
    // Pandoc's rule: the opening line is not followed by a blank line (that is a thematic break).
    if body.lines().next().is_none_or(|l| l.trim().is_empty()) {
        return (meta, text);
    }
    let mut offset = 0;
    let mut end = None;
    for line in body.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" || bare == "..." {
            end = Some((offset, offset + line.len()));
            break;
        }
        offset += line.len();
    }
    // No closing line: a thematic break, not front matter.
    let Some((yaml_end, rest_start)) = end else {
        return (meta, text);
    };
    let yaml = &body[..yaml_end];
    match parse(yaml, &mut meta) {
        Ok(()) => (meta, &body[rest_start..]),
        Err(why) => {
            report.warn(
                WarningKind::Lossy,
                format!("the front matter at the start is not the YAML metadata sdconv reads ({why}); kept as text"),
                Location::part("markdown"),
            );
            (Meta::default(), text)
        }
    }
}

/// A value of a key: one scalar or a list of them.
enum Value {
    Scalar(String),
    List(Vec<String>),
}

fn parse(yaml: &str, meta: &mut Meta) -> Result<(), String> {
    // Each key with its value; a key with nothing after the colon collects the `- item` lines
    // (or a nested mapping, skipped) below it.
    let mut entries: Vec<(String, Value)> = Vec::new();
    let mut open: Option<(String, Vec<String>, bool)> = None;
    for (n, line) in yaml.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indented = line.starts_with([' ', '\t']);
        if let Some((_, items, nested)) = open.as_mut() {
            if let Some(item) = trimmed
                .strip_prefix("- ")
                .or((trimmed == "-").then_some(""))
            {
                if !*nested {
                    items.push(scalar(item).map_err(|e| format!("line {}: {e}", n + 2))?);
                }
                continue;
            }
            if indented {
                // A nested mapping (`author:` / `  name: …`): not a shape the tree holds.
                *nested = true;
                continue;
            }
        }
        if indented {
            return Err(format!("line {}: indented line outside a list", n + 2));
        }
        if let Some((key, items, nested)) = open.take() {
            if !nested {
                entries.push((key, Value::List(items)));
            }
        }
        let Some((key, value)) = split_key(trimmed) else {
            return Err(format!("line {}: not `key: value`", n + 2));
        };
        let value = value.trim();
        if value.is_empty() {
            open = Some((key.to_string(), Vec::new(), false));
        } else if let Some(inner) = value.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| format!("line {}: unclosed list", n + 2))?;
            let items = flow_items(inner).map_err(|e| format!("line {}: {e}", n + 2))?;
            entries.push((key.to_string(), Value::List(items)));
        } else {
            let v = scalar(value).map_err(|e| format!("line {}: {e}", n + 2))?;
            entries.push((key.to_string(), Value::Scalar(v)));
        }
    }
    if let Some((key, items, false)) = open {
        entries.push((key, Value::List(items)));
    }
    for (key, value) in entries {
        let one = |v: Value| match v {
            Value::Scalar(s) => s,
            Value::List(items) => items.join(", "),
        };
        let field = match key.to_ascii_lowercase().as_str() {
            "title" => &mut meta.title,
            "subtitle" => &mut meta.subtitle,
            "author" | "creator" => &mut meta.creator,
            "lang" | "language" => &mut meta.language,
            "dir" => {
                // `ltr`/`rtl` as HTML and pandoc spell it; anything else says nothing.
                meta.direction = Direction::parse(&one(value));
                continue;
            }
            "description" | "abstract" => &mut meta.description,
            "keywords" | "tags" => {
                meta.tags = match value {
                    // `keywords: a, b` is a common hand-written form.
                    Value::Scalar(s) => s.split(',').map(|t| t.trim().to_string()).collect(),
                    Value::List(items) => items,
                };
                meta.tags.retain(|t| !t.is_empty());
                continue;
            }
            _ => continue,
        };
        let v = one(value);
        if !v.trim().is_empty() {
            *field = Some(v);
        }
    }
    Ok(())
}

/// `key: rest` (the key plain or quoted, the colon followed by a space or the line's end).
fn split_key(line: &str) -> Option<(&str, &str)> {
    let colon = line
        .find(": ")
        .or_else(|| line.strip_suffix(':').map(str::len))?;
    let key = line[..colon].trim();
    let key = key
        .strip_prefix('"')
        .and_then(|k| k.strip_suffix('"'))
        .or_else(|| key.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
        .unwrap_or(key);
    if key.is_empty() || key.contains(['{', '[', '&', '*', '!', '|', '>']) {
        return None;
    }
    Some((key, line.get(colon + 1..).unwrap_or("")))
}

/// A scalar: double-quoted (with escapes), single-quoted (`''` is a quote) or plain (a ` #`
/// starts a comment).
fn scalar(s: &str) -> Result<String, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('"') {
        let (value, rest) = double_quoted(inner)?;
        return trailing(rest).map(|()| value);
    }
    if let Some(inner) = s.strip_prefix('\'') {
        let mut out = String::new();
        let mut chars = inner.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c == '\'' {
                if chars.peek().is_some_and(|&(_, n)| n == '\'') {
                    chars.next();
                    out.push('\'');
                    continue;
                }
                return trailing(&inner[i + 1..]).map(|()| out);
            }
            out.push(c);
        }
        return Err("unclosed quote".into());
    }
    if s.starts_with(['{', '|', '>', '&', '*', '!']) {
        return Err("a YAML form metadata does not use".into());
    }
    let plain = s.find(" #").map_or(s, |i| &s[..i]);
    Ok(plain.trim_end().to_string())
}

/// Only white space or a comment may follow a quoted scalar.
fn trailing(rest: &str) -> Result<(), String> {
    let rest = rest.trim();
    if rest.is_empty() || rest.starts_with('#') {
        Ok(())
    } else {
        Err("text after a quoted value".into())
    }
}

/// A double-quoted scalar's value (after the opening quote) and what follows its closing quote.
fn double_quoted(s: &str) -> Result<(String, &str), String> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &s[i + 1..])),
            '\\' => {
                let (_, e) = chars.next().ok_or("unfinished escape")?;
                let hex = |chars: &mut std::str::CharIndices<'_>, n: usize| {
                    let digits: String = chars.by_ref().take(n).map(|(_, c)| c).collect();
                    u32::from_str_radix(&digits, 16)
                        .ok()
                        .filter(|_| digits.len() == n)
                        .and_then(char::from_u32)
                        .ok_or_else(|| format!("bad escape \\{e}{digits}"))
                };
                match e {
                    'n' => out.push('\n'),
                    't' | '\t' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    'a' => out.push('\u{7}'),
                    'b' => out.push('\u{8}'),
                    'e' => out.push('\u{1b}'),
                    'f' => out.push('\u{c}'),
                    'v' => out.push('\u{b}'),
                    'N' => out.push('\u{85}'),
                    '_' => out.push('\u{a0}'),
                    'L' => out.push('\u{2028}'),
                    'P' => out.push('\u{2029}'),
                    ' ' | '"' | '/' | '\\' => out.push(e),
                    'x' => out.push(hex(&mut chars, 2)?),
                    'u' => out.push(hex(&mut chars, 4)?),
                    'U' => out.push(hex(&mut chars, 8)?),
                    other => return Err(format!("unknown escape \\{other}")),
                }
            }
            c => out.push(c),
        }
    }
    Err("unclosed quote".into())
}

/// The items of a flow list's inside (`a, "b, c"`), each a scalar.
fn flow_items(s: &str) -> Result<Vec<String>, String> {
    let mut items = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let (item, after) = if let Some(inner) = rest.strip_prefix('"') {
            let (v, after) = double_quoted(inner)?;
            (v, after)
        } else if rest.starts_with('\'') {
            let end = rest
                .get(1..)
                .and_then(|r| r.find('\''))
                .ok_or("unclosed quote")?;
            (scalar(&rest[..end + 2])?, &rest[end + 2..])
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            (scalar(&rest[..end])?, &rest[end..])
        };
        if !item.is_empty() {
            items.push(item);
        }
        let after = after.trim_start();
        rest = match after.strip_prefix(',') {
            Some(r) => r.trim_start(),
            None if after.is_empty() => after,
            None => return Err("text after a list item".into()),
        };
    }
    Ok(items)
}

/// Drops the heading and paragraph the writer puts under the front matter when they repeat the
/// title and subtitle: they are the metadata shown, not body text.
pub(super) fn drop_title_blocks(meta: &Meta, blocks: &mut Vec<Block>) {
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let repeats = |block: Option<&Block>, kind: TextType, field: &Option<String>| {
        let (Some(Block::Paragraph(p)), Some(value)) = (block, field) else {
            return false;
        };
        p.kind == kind
            && p.level == 0
            && p.indent == 0
            && words(&plain_text(&p.content)) == words(value)
    };
    if repeats(blocks.first(), TextType::Heading, &meta.title) {
        blocks.remove(0);
    }
    if repeats(blocks.first(), TextType::Paragraph, &meta.subtitle) {
        blocks.remove(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Meta, String, usize) {
        let mut report = Report::new();
        let (meta, rest) = split(text, &mut report);
        let rest = rest.to_string();
        (meta, rest, report.finish(()).warnings.len())
    }

    #[test]
    fn language_and_direction_are_read() {
        let (m, _, warnings) = read("---\nlang: ar-SA\ndir: rtl\n---\nنص\n");
        assert_eq!(m.language.as_deref(), Some("ar-SA"));
        assert_eq!(m.direction, Some(Direction::Rtl));
        assert_eq!(warnings, 0);
        let (m, _, _) = read("---\ndir: sideways\n---\nx\n");
        assert_eq!(m.direction, None);
    }

    #[test]
    fn pandoc_front_matter_is_read() {
        let (m, rest, warnings) = read(
            "---\ntitle: \"A \\\"b\\\"\\n\"\nsubtitle: plain # note\nauthor:\n  - Ann\n  - 'O''Brien'\nlang: de-DE\nkeywords: [x, \"y, z\"]\ndate: 2024\n---\n# Body\n",
        );
        assert_eq!(m.title.as_deref(), Some("A \"b\"\n"));
        assert_eq!(m.subtitle.as_deref(), Some("plain"));
        assert_eq!(m.creator.as_deref(), Some("Ann, O'Brien"));
        assert_eq!(m.language.as_deref(), Some("de-DE"));
        assert_eq!(m.tags, ["x", "y, z"]);
        assert_eq!((rest.as_str(), warnings), ("# Body\n", 0));
    }

    #[test]
    fn nested_mappings_are_skipped_and_thematic_breaks_are_not_front_matter() {
        let (m, _, w) = read("---\nauthor:\n  name: A\ntitle: T\n---\n");
        assert_eq!((m.creator, m.title.as_deref(), w), (None, Some("T"), 0));
        for text in ["---\n\ntitle: T\n---\n", "---\ntitle: T\n", "x\n---\n"] {
            let (m, rest, w) = read(text);
            assert_eq!((m.title, rest.as_str(), w), (None, text, 0));
        }
    }

    #[test]
    fn malformed_front_matter_warns_and_stays_text() {
        for text in [
            "---\nnot yaml at all\n---\n",
            "---\ntitle: \"open\n---\n",
            "---\ntitle: \"bad \\q\"\n---\n",
            "---\nkeywords: [a, b\n---\n",
        ] {
            let (m, rest, w) = read(text);
            assert_eq!((m.title, rest.as_str(), w), (None, text, 1), "{text}");
        }
    }
}
