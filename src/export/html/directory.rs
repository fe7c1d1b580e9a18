//! Generated lists placed where the document has a directory block: table of contents, lists of
//! figures and tables, web links, the index, sidenotes. Written after the body (their entries are
//! known only then) and spliced in.

use std::fmt::Write;

use super::{Entry, Writer, escape};
use crate::ast::{DirectoryKind, IndexNode};
use crate::report::WarningKind;

/// Deeper index trees are cut here (warned): recursion stays bounded whatever the input.
const MAX_INDEX_DEPTH: usize = 32;

impl Writer<'_> {
    /// The HTML of directory number `n` (0-based, for unique ids) of `kind`. `footnotes` is the
    /// footnote section, handed to the first footnotes directory (and then emptied).
    pub(super) fn directory(
        &mut self,
        n: usize,
        kind: DirectoryKind,
        footnotes: &mut Option<String>,
    ) -> String {
        let mut out = String::new();
        let lang = self.lang;
        let (class, title) = match kind {
            DirectoryKind::Content => ("toc", lang.contents()),
            DirectoryKind::Images => ("lof", lang.list_of_figures()),
            DirectoryKind::Tables => ("lot", lang.list_of_tables()),
            DirectoryKind::Weblinks => ("weblinks", lang.web_links()),
            DirectoryKind::Indexes => ("index", lang.index()),
            DirectoryKind::Sidenotes => ("sidenotes", lang.sidenotes()),
            DirectoryKind::Footnotes => {
                match footnotes.take() {
                    Some(section) => return section,
                    None => self.warn(
                        WarningKind::Dropped,
                        "footnotes are listed once, at the first footnotes directory".into(),
                        "section.footnotes",
                    ),
                }
                return out;
            }
        };
        let (tag, before) = self
            .landmarks
            .directories
            .get(n - 1)
            .copied()
            .unwrap_or(("h2", 0));
        // A second list of the same kind shows the same title; its landmark is told apart by
        // its number ("Contents 2").
        let _ = if before == 0 {
            writeln!(
                out,
                "<nav class=\"{class}\" aria-labelledby=\"sd-dir-{n}\">"
            )
        } else {
            writeln!(
                out,
                "<nav class=\"{class}\" aria-label=\"{title} {}\">",
                before + 1
            )
        };
        let _ = writeln!(
            out,
            "<{tag} class=\"toc-title\" id=\"sd-dir-{n}\">{title}</{tag}>"
        );
        match kind {
            DirectoryKind::Content => nested_entries(&mut out, &self.toc),
            DirectoryKind::Images => flat_entries(&mut out, &self.figures),
            DirectoryKind::Tables => flat_entries(&mut out, &self.tables),
            DirectoryKind::Weblinks => {
                if !self.weblinks.is_empty() {
                    out.push_str("<ul>\n");
                    for href in &self.weblinks {
                        out.push_str("<li><a href=\"");
                        escape::attr(href, &mut out);
                        out.push_str("\">");
                        escape::text(href, &mut out);
                        out.push_str("</a></li>\n");
                    }
                    out.push_str("</ul>\n");
                }
            }
            DirectoryKind::Indexes => {
                let doc = self.doc;
                let mut cut = false;
                self.index_nodes(&mut out, &doc.indexes, 0, &mut cut);
                if cut {
                    self.warn(
                        WarningKind::Lossy,
                        format!("index entries deeper than {MAX_INDEX_DEPTH} levels left out"),
                        "nav.index",
                    );
                }
            }
            DirectoryKind::Sidenotes => {
                if !self.sidenotes.is_empty() {
                    out.push_str("<ol>\n");
                    for (i, content) in self.sidenotes.iter().enumerate() {
                        let text = crate::ast::inline::plain_text(content);
                        let short: String = text.chars().take(80).collect();
                        let _ = write!(out, "<li><a href=\"#sd-sn-{}\">", i + 1);
                        escape::text(&short, &mut out);
                        if short.len() < text.len() {
                            out.push('…');
                        }
                        out.push_str("</a></li>\n");
                    }
                    out.push_str("</ol>\n");
                }
            }
            DirectoryKind::Footnotes => {}
        }
        out.push_str("</nav>\n");
        out
    }

    fn index_nodes(&self, out: &mut String, nodes: &[IndexNode], depth: usize, cut: &mut bool) {
        if nodes.is_empty() {
            return;
        }
        if depth >= MAX_INDEX_DEPTH {
            *cut = true;
            return;
        }
        out.push_str("<ul>\n");
        for node in nodes {
            out.push_str("<li>");
            let mark = self.index_targets.get(node.id.as_str());
            let block = node
                .target
                .as_deref()
                .and_then(|t| self.targets.by_source.get(t))
                .and_then(|&i| self.targets.list.get(i));
            match (mark, block) {
                (Some(n), _) => {
                    let _ = write!(out, "<a href=\"#sd-ix-{n}\">");
                }
                (None, Some(t)) => {
                    let _ = write!(out, "<a href=\"#{}\">", t.html_id);
                }
                (None, None) => {}
            }
            escape::text(&node.title, out);
            if mark.is_some() || block.is_some() {
                out.push_str("</a>");
            }
            if !node.children.is_empty() {
                out.push('\n');
                self.index_nodes(out, &node.children, depth + 1, cut);
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n");
    }
}

fn entry_link(out: &mut String, e: &Entry, label_sep: &str) {
    out.push_str("<a href=\"#");
    out.push_str(&e.id);
    out.push_str("\">");
    if let Some(label) = &e.label {
        out.push_str("<span class=\"num\">");
        escape::text(label, out);
        out.push_str(label_sep);
        out.push_str("</span> ");
    }
    if e.label.is_none() && shows_no_text(&e.html) {
        // A link with nothing to read leads nowhere a reader can tell: the neutral mark.
        out.push_str(crate::export::XREF_MARK);
    } else {
        out.push_str(&e.html);
    }
    out.push_str("</a>");
}

/// Whether `html` (text and formatting tags, escaped) has no text outside its tags.
fn shows_no_text(html: &str) -> bool {
    let mut in_tag = false;
    html.chars().all(|c| match c {
        '<' => {
            in_tag = true;
            true
        }
        '>' => {
            in_tag = false;
            true
        }
        c => in_tag || c.is_whitespace(),
    })
}

/// Figures or tables: one flat list.
fn flat_entries(out: &mut String, entries: &[Entry]) {
    if entries.is_empty() {
        return;
    }
    out.push_str("<ol>\n");
    for e in entries {
        out.push_str("<li>");
        entry_link(out, e, ":");
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
}

/// Headings: nested by level, relative to the shallowest; jumps get marker-less gap items.
fn nested_entries(out: &mut String, entries: &[Entry]) {
    let Some(base) = entries.iter().map(|e| e.level).min() else {
        return;
    };
    // Depth of the innermost open list; each open list has an open `li`.
    let mut open: Vec<u8> = Vec::new();
    for e in entries {
        let depth = e.level - base;
        while open.last().is_some_and(|&d| d > depth) {
            out.push_str("</li>\n</ol>\n");
            open.pop();
        }
        if open.last() == Some(&depth) {
            out.push_str("</li>\n");
        } else {
            let from = open.last().map_or(0, |&d| d + 1);
            for gap in from..depth {
                if !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("<ol>\n<li class=\"list-gap\">");
                open.push(gap);
            }
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str("<ol>\n");
            open.push(depth);
        }
        out.push_str("<li>");
        entry_link(out, e, "");
    }
    while open.pop().is_some() {
        out.push_str("</li>\n</ol>\n");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn text_is_found_outside_tags_only() {
        use super::shows_no_text;
        assert!(shows_no_text(""));
        assert!(shows_no_text("<em> </em><sub>\n</sub>"));
        assert!(!shows_no_text("<em>a</em>"));
        assert!(!shows_no_text("&amp;"));
    }
}
