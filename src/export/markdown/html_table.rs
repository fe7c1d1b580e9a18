//! Tables a pipe table cannot hold (merged cells, nested tables, cells with several blocks,
//! lists or pictures) as an HTML `<table>` block: `colspan`/`rowspan` kept, cell content as
//! escaped inline HTML. The whole table is one HTML block, so it has no blank line inside
//! (CommonMark ends the block at one) and no Markdown syntax (none is parsed inside).

use super::{Ctx, Writer};
use crate::ast::inline::from_runs;
use crate::ast::numbering::BlockNumber;
use crate::ast::{Block, Inline, Paragraph, Table, TextStyle, TextType};
use crate::report::WarningKind;

/// How deep tables nest inside cells before the inner ones are written as their text (bounds
/// recursion on hostile trees; real documents nest two or three deep).
const MAX_NESTING: usize = 16;

impl Writer<'_> {
    /// The table as lines of HTML; the caption (with its number) as the `<caption>`.
    pub(super) fn html_table_lines(&mut self, t: &Table, n: &BlockNumber) -> Vec<String> {
        let caption =
            super::images::caption_text(self.lang.table(), t.caption.as_deref(), n.caption);
        let mut out = String::new();
        self.html_table(&mut out, t, caption.as_deref(), 0);
        out.lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }

    fn html_table(&mut self, out: &mut String, t: &Table, caption: Option<&str>, depth: usize) {
        out.push_str("<table>\n");
        if let Some(c) = caption {
            out.push_str("<caption>");
            out.push_str(&escape(c));
            out.push_str("</caption>\n");
        }
        for row in &t.rows {
            out.push_str("<tr>\n");
            for cell in &row.cells {
                let tag = if cell.header || row.header {
                    "th"
                } else {
                    "td"
                };
                out.push('<');
                out.push_str(tag);
                if cell.colspan > 1 {
                    out.push_str(&format!(" colspan=\"{}\"", cell.colspan));
                }
                if cell.rowspan > 1 {
                    out.push_str(&format!(" rowspan=\"{}\"", cell.rowspan));
                }
                if let Some(a) = cell.align.filter(|a| *a != crate::ast::Align::Left) {
                    out.push_str(&format!(" align=\"{}\"", a.as_str()));
                }
                out.push('>');
                self.html_cell(out, &cell.blocks, depth);
                out.push_str("</");
                out.push_str(tag);
                out.push_str(">\n");
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
    }

    /// A cell's blocks: one paragraph as bare inline HTML, several as `<p>`s; list items
    /// grouped into `<ul>`/`<ol>`, code blocks as `<pre>`, pictures as `<img>`, tables nested.
    fn html_cell(&mut self, out: &mut String, blocks: &[Block], depth: usize) {
        let single = blocks.len() == 1;
        let mut open_list: Option<&'static str> = None;
        for block in blocks {
            let list = match block {
                Block::Paragraph(p) if p.kind == TextType::ListOl => Some("ol"),
                Block::Paragraph(p) if p.kind == TextType::ListUl => Some("ul"),
                _ => None,
            };
            if open_list != list {
                if let Some(tag) = open_list {
                    out.push_str(&format!("</{tag}>"));
                }
                if let Some(tag) = list {
                    out.push_str(&format!("<{tag}>"));
                }
                open_list = list;
            }
            match block {
                Block::Paragraph(p) if list.is_some() => {
                    out.push_str("<li>");
                    self.html_inlines(out, &p.content);
                    out.push_str("</li>");
                }
                Block::Paragraph(p) => self.html_paragraph(out, p, single),
                Block::Image(img) => {
                    let path = self.image_path(&img.media);
                    out.push_str(&format!("<img src=\"{}\"", escape(&path)));
                    if let Some(alt) = img.alt.as_deref() {
                        out.push_str(&format!(" alt=\"{}\"", escape(alt.trim())));
                    }
                    if let Some(c) = img.caption.as_deref().filter(|c| !c.is_empty()) {
                        out.push_str(&format!(" title=\"{}\"", escape(c)));
                    }
                    out.push('>');
                }
                Block::Table(inner) if depth < MAX_NESTING => {
                    out.push('\n');
                    self.html_table(out, inner, inner.caption.as_deref(), depth + 1);
                }
                Block::Table(inner) => {
                    self.warn_once(
                        "table-depth",
                        WarningKind::Lossy,
                        "tables nested too deep are written as their text",
                    );
                    for row in &inner.rows {
                        for cell in &row.cells {
                            self.html_cell(out, &cell.blocks, depth);
                            out.push(' ');
                        }
                    }
                }
                Block::PageBreak | Block::Directory { .. } => {}
            }
        }
        if let Some(tag) = open_list {
            out.push_str(&format!("</{tag}>"));
        }
    }

    fn html_paragraph(&mut self, out: &mut String, p: &Paragraph, single: bool) {
        if p.code.is_some() {
            out.push_str("<pre>");
            self.html_inlines(out, &p.content);
            out.push_str("</pre>");
            return;
        }
        if !single {
            out.push_str("<p>");
        }
        self.html_inlines(out, &p.content);
        if !single {
            out.push_str("</p>");
        }
    }

    /// Inline content as escaped HTML, reduced as in the Markdown text (the same warnings).
    fn html_inlines(&mut self, out: &mut String, content: &[Inline]) {
        let runs = self.prepare(content, Ctx::Para);
        let tree = from_runs(runs);
        self.html_tree(out, &tree);
    }

    fn html_tree(&mut self, out: &mut String, content: &[Inline]) {
        for inline in content {
            match inline {
                // A newline in text could end the HTML block at a blank line: a space instead.
                Inline::Text { text } => out.push_str(&escape(&text.replace(['\n', '\r'], " "))),
                Inline::Styled { style, children } => {
                    let tag = match style {
                        TextStyle::Bold => "strong",
                        TextStyle::Italic => "em",
                        TextStyle::Strike => "del",
                        TextStyle::Code => "code",
                        _ => {
                            self.html_tree(out, children);
                            continue;
                        }
                    };
                    out.push_str(&format!("<{tag}>"));
                    self.html_tree(out, children);
                    out.push_str(&format!("</{tag}>"));
                }
                Inline::Link { href, children } => {
                    out.push_str(&format!("<a href=\"{}\">", escape(href)));
                    self.html_tree(out, children);
                    out.push_str("</a>");
                }
                Inline::Note { content, .. } => {
                    // Markdown is not parsed inside HTML: the reference stays readable text,
                    // and the note's definition is at the end with the others.
                    self.notes.push(content.clone());
                    out.push_str(&format!("<sup>[^{}]</sup>", self.notes.len()));
                }
                Inline::Image {
                    media,
                    caption,
                    alt,
                    ..
                } => {
                    let path = self.image_path(media);
                    out.push_str(&format!("<img src=\"{}\"", escape(&path)));
                    if let Some(alt) = alt.as_deref() {
                        out.push_str(&format!(" alt=\"{}\"", escape(alt.trim())));
                    }
                    if let Some(c) = caption.as_deref().filter(|c| !c.is_empty()) {
                        out.push_str(&format!(" title=\"{}\"", escape(c)));
                    }
                    out.push('>');
                }
                Inline::LineBreak => out.push_str("<br>"),
                Inline::Math { display, math } => {
                    let tex = crate::math_tex::write(math);
                    let fence = if *display { "$$" } else { "$" };
                    out.push_str(&escape(&format!("{fence}{tex}{fence}").replace('\n', " ")));
                }
                Inline::Ruby { base, reading } => {
                    out.push_str(&escape(&Inline::ruby_text(base, reading)));
                }
                Inline::Span { children, .. }
                | Inline::Lang { children, .. }
                | Inline::Tracked { children, .. } => self.html_tree(out, children),
                Inline::CrossRef { .. }
                | Inline::IndexMark { .. }
                | Inline::CommentStart { .. }
                | Inline::CommentEnd { .. } => {}
            }
        }
    }
}

/// `s` escaped for HTML text and attribute values (newlines as references, so no line of the
/// HTML block can be blank).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    crate::xml::escape_attr(s, &mut out);
    out
}

/// Whether a table needs HTML: merged cells, or a cell holding anything but one plain paragraph.
pub(super) fn needs_html(t: &Table) -> bool {
    t.rows.iter().flat_map(|r| &r.cells).any(|cell| {
        cell.colspan > 1
            || cell.rowspan > 1
            || cell.blocks.len() > 1
            || cell.blocks.iter().any(|b| {
                !matches!(b, Block::Paragraph(p)
                    if !p.kind.is_list() && p.code.is_none())
            })
    })
}
