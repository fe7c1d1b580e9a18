//! Footnotes: a reference takes its definition's content, converted once (cycles and deep
//! nesting kept as text), as a note's inline content.

use super::{MAX_NOTE_DEPTH, Reader, State};
use crate::ast::{Block, Inline, NoteKind, TextType, footprint};
use crate::report::WarningKind;

impl Reader<'_, '_, '_> {
    pub(super) fn note_ref(&mut self, st: &mut State, label: &str) {
        let key = label.to_lowercase();
        let Some(range) = self.definitions.get(&key).cloned() else {
            self.warn(
                WarningKind::InvalidValue,
                format!("footnote [^{label}] has no definition; kept as text"),
            );
            self.text(st, format!("[^{label}]"));
            return;
        };
        if self.active.contains(&key) || self.active.len() >= MAX_NOTE_DEPTH {
            self.warn(
                WarningKind::InvalidValue,
                format!("footnote [^{label}] refers to itself or nests too deep; kept as text"),
            );
            self.text(st, format!("[^{label}]"));
            return;
        }
        self.used.insert(key.clone());
        if !self.notes.contains_key(&key) {
            self.active.push(key.clone());
            let blocks = self.blocks(range);
            self.active.pop();
            let c = self.note_content(blocks);
            let size = footprint::inlines(&c, 1);
            self.notes.insert(key.clone(), (c, size));
        }
        let Some((content, size)) = self.notes.get(&key) else {
            return;
        };
        // Every reference holds a copy of its note, notes inside included: a long note referred
        // to many times, or notes nested a few deep that each refer to the next many times,
        // would make copies without end from a short text. Past a budget in proportion to the
        // text, a reference stays as text.
        let copied = self.note_copies.saturating_add(*size);
        if copied > self.note_budget {
            self.warn_once(
                "note-copies",
                WarningKind::Dropped,
                "footnotes referred to more often than the text could hold are kept as their \
                 references ([^label])",
            );
            self.text(st, format!("[^{label}]"));
            return;
        }
        self.note_copies = copied;
        let content = content.clone();
        self.push_atom(
            st,
            Inline::Note {
                kind: NoteKind::Footnote,
                content,
            },
        );
    }

    /// A note holds inline content: paragraphs are joined by line breaks; other blocks are
    /// flattened.
    fn note_content(&mut self, blocks: Vec<Block>) -> Vec<Inline> {
        let mut out = Vec::new();
        for block in blocks {
            let part = match block {
                Block::Paragraph(p) => {
                    if p.kind != TextType::Paragraph || p.indent > 0 {
                        self.warn_once(
                            "note-blocks",
                            WarningKind::Lossy,
                            "lists, headings and tables inside footnotes are flattened to text",
                        );
                    }
                    p.content
                }
                Block::Image(img) => vec![Inline::Image {
                    media: img.media,
                    caption: img.caption,
                    alt: img.alt,
                }],
                Block::Table(t) => {
                    self.warn_once(
                        "note-blocks",
                        WarningKind::Lossy,
                        "lists, headings and tables inside footnotes are flattened to text",
                    );
                    let mut cells = Vec::new();
                    for row in t.rows {
                        for cell in row.cells {
                            for b in cell.blocks {
                                if let Block::Paragraph(p) = b {
                                    if !cells.is_empty() {
                                        cells.push(Inline::text(" "));
                                    }
                                    cells.extend(p.content);
                                }
                            }
                        }
                    }
                    cells
                }
                Block::PageBreak | Block::Directory { .. } => continue,
            };
            if !out.is_empty() {
                out.push(Inline::LineBreak);
            }
            out.extend(part);
        }
        crate::ast::inline::normalize(&out)
    }
}
