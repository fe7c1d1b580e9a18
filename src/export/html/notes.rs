//! The lists at the end of the page: footnotes, endnotes, comments.

use std::fmt::Write;

use super::{Writer, inline::valid_datetime};
use crate::ast::Inline;

impl<'a> Writer<'a> {
    /// The footnote or endnote section as a string (empty when there are none), its title a
    /// `title_tag` heading.
    pub(super) fn notes_section(&mut self, endnotes: bool, title_tag: &str) -> String {
        let notes: Vec<&'a [Inline]> = if endnotes {
            std::mem::take(&mut self.endnotes)
        } else {
            std::mem::take(&mut self.footnotes)
        };
        if notes.is_empty() {
            return String::new();
        }
        let (class, prefix, title, list) = if endnotes {
            ("endnotes", "en", self.lang.endnotes(), "<ol type=\"i\">\n")
        } else {
            ("footnotes", "fn", self.lang.footnotes(), "<ol>\n")
        };
        let saved = std::mem::take(&mut self.out);
        let _ = write!(
            self.out,
            "<section class=\"{class}\" aria-labelledby=\"sd-{class}-title\">\n<{title_tag} class=\"notes-title\" id=\"sd-{class}-title\">{title}</{title_tag}>\n{list}"
        );
        let back = self.lang.back_to_text();
        self.in_note = true;
        for (i, content) in notes.iter().enumerate() {
            let n = i + 1;
            let _ = write!(self.out, "<li id=\"sd-{prefix}-{n}\">");
            self.inlines(content);
            let _ = writeln!(
                self.out,
                " <a class=\"backref\" href=\"#sd-{prefix}ref-{n}\" role=\"doc-backlink\" aria-label=\"{back}\">\u{21A9}\u{FE0E}</a></li>"
            );
        }
        self.in_note = false;
        self.out.push_str("</ol>\n</section>\n");
        if endnotes {
            self.endnotes = notes;
        } else {
            self.footnotes = notes;
        }
        std::mem::replace(&mut self.out, saved)
    }

    /// The comment list (empty when the document has no comments). Comments that were anchored
    /// come first, in the order of their ranges, then the others.
    pub(super) fn comments_section(&mut self) -> String {
        let doc = self.doc;
        if doc.comments.is_empty() {
            return String::new();
        }
        let mut order = std::mem::take(&mut self.comments.order);
        let anchored = order.len();
        for i in 0..doc.comments.len() {
            if self.comments.number.get(i) == Some(&0) {
                order.push(i);
            }
        }
        let saved = std::mem::take(&mut self.out);
        let title = self.lang.comments();
        let _ = write!(
            self.out,
            "<aside class=\"comments\" aria-labelledby=\"sd-comments-title\">\n<h2 class=\"notes-title\" id=\"sd-comments-title\">{title}</h2>\n<ol>\n"
        );
        let back = self.lang.back_to_text();
        self.in_comment = true;
        for (k, &i) in order.iter().enumerate() {
            let Some(c) = doc.comments.get(i) else {
                continue;
            };
            let n = k + 1;
            let _ = write!(
                self.out,
                "<li id=\"sd-comment-{n}\"><p class=\"comment-meta\">"
            );
            if let Some(a) = c.author.as_deref().filter(|a| !a.is_empty()) {
                self.out.push_str("<strong>");
                self.text(a);
                self.out.push_str("</strong>");
            }
            if let Some(d) = c.date.as_deref().filter(|d| !d.is_empty()) {
                if valid_datetime(d) {
                    self.out.push_str(" <time datetime=\"");
                    self.out.push_str(d);
                    self.out.push_str("\">");
                    self.text(d);
                    self.out.push_str("</time>");
                } else {
                    self.out.push(' ');
                    self.text(d);
                }
            }
            self.out.push_str("</p><p>");
            self.inlines(&c.content);
            if k < anchored {
                let _ = write!(
                    self.out,
                    " <a class=\"backref\" href=\"#sd-cref-{n}\" aria-label=\"{back}\">\u{21A9}\u{FE0E}</a>"
                );
            }
            self.out.push_str("</p></li>\n");
        }
        self.in_comment = false;
        self.out.push_str("</ol>\n</aside>\n");
        std::mem::replace(&mut self.out, saved)
    }
}
