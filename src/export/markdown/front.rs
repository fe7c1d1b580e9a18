//! The document's metadata: a YAML front-matter block (pandoc's convention, which static site
//! generators and the Markdown reader read back) and the title and subtitle as the first lines
//! a reader sees, since most Markdown viewers do not show front matter. Also the page header
//! and footer, when the options ask for them.

use super::inline::one_line;
use super::{Ctx, Writer};
use crate::ast::Inline;
use crate::report::{Location, WarningKind};

impl Writer<'_> {
    /// Writes the front-matter block, then the title as a level-1 heading and the subtitle as a
    /// paragraph under it (and the page header when asked). Nothing when the document has no
    /// metadata Markdown holds.
    pub(super) fn front_matter(&mut self) {
        let m = &self.doc.meta;
        let mut lines = vec!["---".to_string()];
        for (key, value) in [
            ("title", &m.title),
            ("subtitle", &m.subtitle),
            ("author", &m.creator),
        ] {
            if let Some(v) = nonempty(value.as_deref()) {
                lines.push(format!("{key}: {}", yaml_string(v)));
            }
        }
        // Pandoc and HTML want BCP 47 (`de-DE`); the tree keeps what the source wrote (`de_DE`).
        if let Some(lang) = nonempty(m.language.as_deref()) {
            lines.push(format!("lang: {}", yaml_string(&lang.replace('_', "-"))));
        }
        if let Some(dir) = m.direction {
            lines.push(format!("dir: {}", dir.as_str()));
        }
        self.warn_block_lang_dir();
        if let Some(v) = nonempty(m.description.as_deref()) {
            lines.push(format!("description: {}", yaml_string(v)));
        }
        let tags: Vec<String> = m
            .tags
            .iter()
            .filter(|t| !t.trim().is_empty())
            .map(|t| yaml_string(t))
            .collect();
        if !tags.is_empty() {
            lines.push(format!("keywords: [{}]", tags.join(", ")));
        }
        if nonempty(m.supplemental.as_deref()).is_some() {
            self.report.warn(
                WarningKind::Dropped,
                "the document's supplemental (partner) data is not written to Markdown",
                Location::part("markdown"),
            );
        }
        if lines.len() > 1 {
            lines.push("---".into());
            self.out.push_str(&lines.join("\n"));
        }
        let (title, subtitle) = (m.title.clone(), m.subtitle.clone());
        if let Some(title) = nonempty(title.as_deref()) {
            let text = one_line(self.inline_lines(&[Inline::text(title)], Ctx::Heading));
            self.emit(&[format!("# {text}")], 0, "", "", true);
        }
        if let Some(subtitle) = nonempty(subtitle.as_deref()) {
            let text = self.inline_lines(&[Inline::text(subtitle)], Ctx::Para);
            self.emit(&text, 0, "", "", true);
        }
        let shown = self.doc.meta.pages.one_page();
        if self.opts.headers_footers {
            if shown.not_shown > 0 {
                let message = format!(
                    "{} other page header/footer text(s) (later sections, first or even pages) \
                     are not written: Markdown has one header and one footer",
                    shown.not_shown
                );
                self.warn_once("page-texts", WarningKind::Lossy, &message);
            }
            if shown.fields {
                self.warn_once(
                    "page-fields",
                    WarningKind::Lossy,
                    "page numbers in the page header or footer are left out: Markdown has no pages",
                );
            }
        }
        let header = shown.header.map(|t| t.plain_lines().join("\n"));
        self.furniture(header.as_deref());
    }

    /// The page header (before the body) or footer (after it) as a paragraph, its lines kept,
    /// when the options ask for them.
    pub(super) fn furniture(&mut self, text: Option<&str>) {
        let Some(text) = nonempty(text).filter(|_| self.opts.headers_footers) else {
            return;
        };
        let mut content = Vec::new();
        for (k, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            if k > 0 {
                content.push(Inline::LineBreak);
            }
            content.push(Inline::text(line));
        }
        let lines = self.inline_lines(&content, Ctx::Para);
        if !lines.is_empty() {
            self.emit(&lines, 0, "", "", true);
        }
    }
}

/// `s` when it holds more than white space.
impl Writer<'_> {
    /// One warning when paragraphs or tables say a language or direction of their own:
    /// Markdown has none to give them (runs' languages are warned about with the other marks).
    fn warn_block_lang_dir(&mut self) {
        if self.doc.has_block_lang_dir() {
            self.report.warn(
                WarningKind::Lossy,
                "the languages and directions of paragraphs and tables are not written to \
                 Markdown (only the document's, in the front matter)",
                Location::part("markdown"),
            );
        }
    }
}

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.trim().is_empty())
}

/// `s` as a YAML double-quoted scalar: always quoted, so no value can be read as a number, a
/// boolean, a list or a comment; `\`, `"` and every control or line-separator character escaped.
fn yaml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                out.push_str(&format!("\\u{:04X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_strings_are_quoted_and_escaped() {
        assert_eq!(yaml_string("a: b"), "\"a: b\"");
        assert_eq!(yaml_string("\"x\\\"\n\u{1}"), "\"\\\"x\\\\\\\"\\n\\u0001\"");
    }
}
