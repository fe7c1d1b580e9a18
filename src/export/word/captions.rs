//! Captions: the template's `Caption` style, the label in the export language, a `SEQ` field
//! holding the number, then the caption text.
//!
//! The `SEQ` identifier is the label itself (`SEQ Abbildung`, `SEQ Рисунок`), as Word does when
//! it inserts a caption in that language, so captions a user adds later continue the same
//! sequence; the list of figures uses the same identifier (`TOC \c "Abbildung"`).
//!
//! Bookmarks: the block id (if any) wraps label and number, the target Word's "label and number"
//! cross-references use (`REF id \h` shows `Figure 3`); a `_Toc` bookmark wraps the whole caption
//! for the entry in the list of figures or tables.

use std::fmt::Write;

use super::writer::{Target, TocEntry, Writer, field, text_run};

/// Figure or table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CaptionKind {
    Figure,
    Table,
}

/// Separator between number and caption text.
pub const CAPTION_SEPARATOR: &str = ": ";

impl Writer<'_> {
    /// The caption label (and SEQ identifier) of `kind` in the export language.
    pub(crate) fn caption_label(&self, kind: CaptionKind) -> &'static str {
        match kind {
            CaptionKind::Figure => self.settings.language.figure(),
            CaptionKind::Table => self.settings.language.table(),
        }
    }

    /// Writes a caption paragraph. `keep_next` keeps it with what follows (table captions sit
    /// above their table).
    pub(crate) fn write_caption(
        &mut self,
        out: &mut String,
        kind: CaptionKind,
        numbered: bool,
        text: &str,
        id: Option<&str>,
        keep_next: bool,
    ) {
        out.push_str(r#"<w:p><w:pPr><w:pStyle w:val="Caption"/>"#);
        if keep_next {
            out.push_str("<w:keepNext/>");
        }
        // In a cell with a font size, every paragraph mark and text run carries it (what a
        // reader takes for the cell's size).
        let cell = self.cell.unwrap_or_default();
        cell.push_mark_size(out);
        out.push_str("</w:pPr>");
        let rpr = cell.run_props();
        let toc_name = self.toc_bookmark();
        let toc_id = self.bookmark_start(out, &toc_name);
        let id_bookmark = id.map(|id| {
            let name = self.bookmark_for_id(id);
            let bid = self.bookmark_start(out, &name);
            (id.to_string(), name, bid)
        });
        let label = self.caption_label(kind);
        let number = if numbered {
            let n = match kind {
                CaptionKind::Figure => {
                    self.figure_count += 1;
                    self.figure_count
                }
                CaptionKind::Table => {
                    self.table_count += 1;
                    self.table_count
                }
            };
            text_run(out, &format!("{label} "), &rpr, false);
            let mut result = String::new();
            text_run(&mut result, &n.to_string(), &rpr, false);
            field(out, &format!("SEQ {label} \\* ARABIC"), &result, false);
            Some(format!("{label} {n}"))
        } else {
            None
        };
        let text_part = if number.is_some() && text.is_empty() {
            // Label and number alone: no separator after them.
            String::new()
        } else if number.is_some() {
            format!("{CAPTION_SEPARATOR}{text}")
        } else {
            text.to_string()
        };
        match (&number, &id_bookmark) {
            // The id bookmark ends after the number: REF shows "Figure 3".
            (Some(_), Some((_, _, bid))) => {
                let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
                text_run(out, &text_part, &rpr, false);
            }
            (None, Some((_, _, bid))) => {
                text_run(out, &text_part, &rpr, false);
                let _ = write!(out, r#"<w:bookmarkEnd w:id="{bid}"/>"#);
            }
            (_, None) => text_run(out, &text_part, &rpr, false),
        }
        let _ = write!(out, r#"<w:bookmarkEnd w:id="{toc_id}"/></w:p>"#);
        if let Some(shown) = &number {
            let entry = TocEntry {
                level: 0,
                text: format!("{shown}{CAPTION_SEPARATOR}{text}"),
                bookmark: toc_name,
                block: self.block,
            };
            match kind {
                CaptionKind::Figure => self.figures.push(entry),
                CaptionKind::Table => self.tables.push(entry),
            }
        }
        if let Some((id, name, _)) = id_bookmark {
            let caption = number.is_some();
            self.targets.insert(
                id,
                Target {
                    bookmark: name,
                    number,
                    text: text.to_string(),
                    caption,
                },
            );
        }
    }
}
