//! Flow content (chapters and table cells): one block at a time, paragraphs as `abs` (one per
//! line), blocks that continue an open list item written inside it.

use super::Writer;
use super::lists::OpenList;
use super::markup::align_value;
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Block, Inline, Paragraph, TextType};
use crate::report::WarningKind;

impl Writer<'_> {
    /// Writes one non-heading block (or a heading inside a cell, as `abs`). `lists` is the list
    /// group open in this flow; `cell_align` is the alignment of the enclosing cell.
    pub(super) fn flow_block(
        &mut self,
        block: &Block,
        n: &BlockNumber,
        lists: &mut Vec<OpenList>,
        cell_align: Option<Align>,
    ) {
        // A block indented one step deeper than an open list item continues that item (what the
        // Markdown reader makes of an item's second paragraph): it goes inside its `eintrag`.
        self.in_item = false;
        let indent = match block {
            Block::Paragraph(p) if !p.kind.is_list() => Some(p.indent),
            Block::Image(img) => Some(img.indent),
            Block::Table(t) => Some(t.indent),
            _ => None,
        };
        if let Some(indent) = indent {
            self.in_item = self.continue_item(lists, indent);
        }
        match block {
            Block::Paragraph(p) if p.kind.is_list() => self.list_item(p, n, lists, cell_align),
            Block::Paragraph(p) => self.paragraph(p, n, cell_align),
            Block::Image(img) => self.image(img, n),
            Block::Table(t) => self.table(t, n),
            Block::PageBreak => {
                self.close_lists(lists);
                self.warn(
                    WarningKind::Dropped,
                    "page break not written (parsX renderers paginate themselves)",
                );
            }
            Block::Directory { kind } => {
                self.close_lists(lists);
                self.warn(
                    WarningKind::Dropped,
                    format!(
                        "{} directory not written (parsX renderers generate directories)",
                        kind.as_str()
                    ),
                );
            }
        }
    }

    fn paragraph(&mut self, p: &Paragraph, n: &BlockNumber, cell_align: Option<Align>) {
        match p.kind {
            TextType::Heading | TextType::HeadingOl => self.warn_once(
                "nested-heading",
                WarningKind::Lossy,
                "a heading inside a table cell is written as a paragraph",
            ),
            TextType::Caption => self.warn_once(
                "caption",
                WarningKind::Lossy,
                "a stand-alone caption is written as a paragraph",
            ),
            TextType::ParagraphOl => self.warn_once(
                "paragraph-ol",
                WarningKind::Lossy,
                "numbered paragraphs carry their number as text (parsX numbers only titles)",
            ),
            _ => {}
        }
        self.warn_indent(p.indent);
        let mut content = Vec::with_capacity(p.content.len() + 1);
        if p.kind == TextType::ParagraphOl || p.kind == TextType::HeadingOl {
            if let Some(label) = &n.label {
                content.push(Inline::text(format!("{label} ")));
            }
        }
        content.extend(p.content.iter().cloned());
        let align = if p.align == Align::Left {
            cell_align.unwrap_or(Align::Left)
        } else {
            p.align
        };
        let id = self.block_ids.get(&self.path).cloned();
        self.abs_lines(&content, align, id.as_deref());
    }

    /// Writes content as one `abs` per line (line breaks split paragraphs).
    pub(super) fn abs_lines(&mut self, content: &[Inline], align: Align, id: Option<&str>) {
        let lines = self.prepare(content);
        for (k, line) in lines.iter().enumerate() {
            let mut attrs: Vec<(&str, &str)> = Vec::new();
            if k == 0 {
                if let Some(id) = id {
                    attrs.push(("id", id));
                }
            }
            if let Some(a) = align_value(align) {
                attrs.push(("ausrichtung", a));
            }
            self.newline();
            if line.is_empty() {
                self.start_tag("abs", &attrs, true);
                continue;
            }
            self.start_tag("abs", &attrs, false);
            self.inlines(line, false);
            self.out.push_str("</abs>");
        }
    }
}
