//! Tables of contents, figures and tables: `TOC` fields whose entries are already filled in
//! (each a hyperlink to the heading's or caption's `_Toc` bookmark, with a `PAGEREF` field for
//! the page), so the list is never empty when the file opens. The `PAGEREF` results hold the
//! pages of the PDF writer's layout (A4; with the `pdf` feature), so every reader shows numbers
//! at once; `w:updateFields` in settings.xml makes Word recompute them for its own pagination.
//!
//! | list | field | entries |
//! |---|---|---|
//! | contents (`textToc`, `directory type="content"`) | `TOC \o "1-3" \h \z \u` | headings of levels 0-2, styles `TOC 1`-`TOC 3` |
//! | figures (`imageToc`, `directory type="images"`) | `TOC \h \z \c "<figure label>"` | numbered image captions, style `table of figures` |
//! | tables (`tableToc`, `directory type="tables"`) | `TOC \h \z \c "<table label>"` | numbered table captions |

use std::fmt::Write;

use crate::ast::DirectoryKind;
use crate::xml::escape_attr;

use super::captions::CaptionKind;
use super::writer::{TocEntry, Writer, field, text_run};

/// Deepest heading level (0-based) the table of contents lists.
pub const TOC_MAX_LEVEL: usize = 2;

impl Writer<'_> {
    /// Writes the title paragraph and the field of one list.
    pub(crate) fn render_toc(&mut self, out: &mut String, kind: DirectoryKind) {
        let lang = self.settings.language;
        let (title, instr, entries): (&str, String, Vec<TocEntry>) = match kind {
            DirectoryKind::Images => (
                lang.list_of_figures(),
                format!(
                    "TOC \\h \\z \\c \"{}\"",
                    self.caption_label(CaptionKind::Figure)
                ),
                self.figures.clone(),
            ),
            DirectoryKind::Tables => (
                lang.list_of_tables(),
                format!(
                    "TOC \\h \\z \\c \"{}\"",
                    self.caption_label(CaptionKind::Table)
                ),
                self.tables.clone(),
            ),
            _ => (
                lang.contents(),
                format!("TOC \\o \"1-{}\" \\h \\z \\u", TOC_MAX_LEVEL + 1),
                self.headings
                    .iter()
                    .filter(|e| e.level <= TOC_MAX_LEVEL)
                    .cloned()
                    .collect(),
            ),
        };
        self.wrote_toc = true;
        out.push_str(r#"<w:p><w:pPr><w:pStyle w:val="TOCHeading"/></w:pPr>"#);
        text_run(out, title, "", false);
        out.push_str("</w:p>");
        let style = |e: &TocEntry| match kind {
            DirectoryKind::Images | DirectoryKind::Tables => "TableofFigures".to_string(),
            _ => format!("TOC{}", e.level + 1),
        };
        let begin = |out: &mut String| {
            out.push_str(r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> "#);
            crate::xml::escape_text(&instr, out);
            out.push_str(
                r#" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>"#,
            );
        };
        let end = r#"<w:r><w:fldChar w:fldCharType="end"/></w:r>"#;
        if entries.is_empty() {
            out.push_str("<w:p>");
            begin(out);
            out.push_str(end);
            out.push_str("</w:p>");
            return;
        }
        let last = entries.len() - 1;
        for (i, e) in entries.iter().enumerate() {
            let _ = write!(
                out,
                r#"<w:p><w:pPr><w:pStyle w:val="{}"/></w:pPr>"#,
                style(e)
            );
            if i == 0 {
                begin(out);
            }
            out.push_str(r#"<w:hyperlink w:anchor=""#);
            escape_attr(&e.bookmark, out);
            out.push_str(r#"" w:history="1">"#);
            text_run(out, &e.text, "", false);
            out.push_str("<w:r><w:tab/></w:r>");
            // The cached result is the PDF layout's page; Word recomputes it when it updates.
            let page = e
                .block
                .and_then(|b| self.pages.get(b).copied().flatten())
                .map(|n| {
                    let mut r = String::new();
                    text_run(&mut r, &n.to_string(), "", false);
                    r
                })
                .unwrap_or_default();
            field(out, &format!("PAGEREF {} \\h", e.bookmark), &page, false);
            out.push_str("</w:hyperlink>");
            if i == last {
                out.push_str(end);
            }
            out.push_str("</w:p>");
        }
    }
}
