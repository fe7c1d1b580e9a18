//! Paragraphs: which block a paragraph becomes (an item's own paragraph, an indented block, an
//! image block), the paragraph slot of each list item, and code and HTML block text.

use super::{InlineBuf, ItemSlot, ListInfo, Para, QUOTE_STYLE, Reader, State, Verbatim, clamp_u8};
use crate::ast::inline::{Leaf, Run, from_runs};
use crate::ast::{
    Block, Image, Inline, MAX_INDENT, MAX_LEVEL, Mark, Paragraph, TextStyle, TextType,
};
use crate::lang::Language;
use crate::report::WarningKind;

impl Reader<'_, '_, '_> {
    /// Opens a paragraph: the current item's own paragraph when the item has none yet, else a
    /// block indented under the quotes and lists around it.
    pub(super) fn begin_para(&mut self, st: &mut State, verbatim: Verbatim) {
        self.finish_para(st);
        let mut para = Para {
            verbatim,
            ..Para::plain(st.block_indent())
        };
        if let Some(item) = self.take_item_slot(st) {
            para.kind = item.kind;
            para.level = item.level;
            para.indent = item.indent;
            para.list = Some(item.list);
        }
        st.para = Some(para);
    }

    /// If the innermost list's current item has no paragraph yet, claims it.
    fn take_item_slot(&mut self, st: &mut State) -> Option<ItemSlot> {
        let depth = st.lists.len();
        let quote = st.quote;
        let prev_is_parent = match st.blocks.last() {
            Some(Block::Paragraph(p)) => p.kind.is_list() && usize::from(p.level) + 1 < depth,
            _ => false,
        };
        let frame = st.lists.last_mut()?;
        if frame.item_done {
            return None;
        }
        frame.item_done = true;
        let level = depth.saturating_sub(1);
        if level > usize::from(MAX_LEVEL) {
            self.warn_once(
                "list-depth",
                WarningKind::Lossy,
                "lists nested deeper than 6 levels are flattened to level 6",
            );
        }
        let first = !frame.first_done;
        frame.first_done = true;
        let (start, restart) = if first && frame.ordered {
            let start = u32::try_from(frame.start).unwrap_or(u32::MAX);
            // A nested list that does not directly follow its parent item would otherwise
            // continue the counting of an earlier nested list of the same parent.
            ((start != 1).then_some(start), level > 0 && !prev_is_parent)
        } else {
            (None, false)
        };
        let kind = if frame.ordered {
            TextType::ListOl
        } else {
            TextType::ListUl
        };
        Some(ItemSlot {
            kind,
            level: clamp_u8(level, MAX_LEVEL),
            indent: quote.min(MAX_INDENT),
            list: ListInfo {
                list_id: frame.list_id.clone(),
                start,
                restart,
            },
        })
    }

    /// Before a block that cannot be an item's own paragraph: gives the item an empty one.
    pub(super) fn ensure_item(&mut self, st: &mut State) {
        if let Some(slot) = self.take_item_slot(st) {
            st.blocks.push(Block::Paragraph(list_paragraph(
                slot.kind,
                slot.level,
                slot.indent,
                slot.list,
                Vec::new(),
            )));
        }
    }

    pub(super) fn end_item(&mut self, st: &mut State) {
        self.finish_para(st);
        self.ensure_item(st);
    }

    pub(super) fn finish_para(&mut self, st: &mut State) {
        let Some(mut para) = st.para.take() else {
            return;
        };
        if para.buf.image.is_some() {
            // An image left open by a truncated range: keep what we have.
            let img = para.buf.image.take();
            if let Some(img) = img {
                let atom = self.image_atom(img);
                para.buf.runs.push(Run {
                    marks: Vec::new(),
                    leaf: Leaf::Atom(atom),
                });
            }
        }
        if para.verbatim != Verbatim::No {
            // The block's last line ends with a newline that is not a break.
            while matches!(
                para.buf.runs.last(),
                Some(Run {
                    leaf: Leaf::LineBreak,
                    ..
                })
            ) {
                para.buf.runs.pop();
            }
        }
        // A heading with no text (`#` alone) holds nothing to keep: no empty heading in the
        // tree, as the writer writes none.
        if para.kind.is_heading()
            && para.list.is_none()
            && para.buf.runs.iter().all(|r| match &r.leaf {
                Leaf::Text(t) => t.trim().is_empty(),
                Leaf::LineBreak => true,
                Leaf::Atom(_) => false,
            })
        {
            return;
        }
        if para.list.is_none()
            && para.kind == TextType::Paragraph
            && para.verbatim == Verbatim::No
            && let Some(image) = captioned_image(&para.buf.runs)
        {
            st.blocks.push(Block::Image(Image {
                indent: para.indent,
                ..image
            }));
            return;
        }
        let only_image = para.list.is_none()
            && para.kind == TextType::Paragraph
            && para.verbatim == Verbatim::No
            && para.buf.runs.len() == 1
            && matches!(
                para.buf.runs.first(),
                Some(Run {
                    leaf: Leaf::Atom(Inline::Image { .. }),
                    ..
                })
            );
        let content = from_runs(para.buf.runs);
        // Quoted text gets Word's quote style: the Markdown writer writes only such paragraphs as
        // block quotes (indentation alone is not a quote).
        let style = (st.quote > 0).then(|| QUOTE_STYLE.to_string());
        if only_image {
            if let Some(Inline::Image {
                media,
                caption,
                alt,
            }) = content.into_iter().next()
            {
                st.blocks.push(Block::Image(Image {
                    media,
                    // A title as a caption: its edges are not text (the writer writes the
                    // caption as emphasis, which cannot hold them).
                    caption: caption.map(|c| c.trim().to_string()),
                    alt,
                    indent: para.indent,
                    ..Image::default()
                }));
            }
            return;
        }
        if let Some(list) = para.list {
            st.blocks.push(Block::Paragraph(Paragraph {
                style,
                ..list_paragraph(para.kind, para.level, para.indent, list, content)
            }));
            return;
        }
        if content.is_empty() && para.kind == TextType::Paragraph {
            if para.verbatim == Verbatim::Code {
                self.warn(WarningKind::Dropped, "empty code block dropped");
            }
            return;
        }
        st.blocks.push(Block::Paragraph(Paragraph {
            level: para.level,
            indent: para.indent,
            style,
            code: para.language.filter(|_| para.kind == TextType::Paragraph),
            ..Paragraph::new(para.kind, content)
        }));
    }
}

fn list_paragraph(
    kind: TextType,
    level: u8,
    indent: u8,
    list: ListInfo,
    content: Vec<Inline>,
) -> Paragraph {
    Paragraph {
        level,
        indent,
        list_id: Some(list.list_id),
        start: list.start,
        restart: list.restart,
        ..Paragraph::new(kind, content)
    }
}

/// Adds code or HTML block text: each newline becomes a line break; code is code-formatted.
pub(super) fn push_verbatim(buf: &mut InlineBuf, text: &str, code: bool) {
    let code = if code {
        vec![Mark::Style(TextStyle::Code)]
    } else {
        Vec::new()
    };
    let mut first = true;
    for line in text.split('\n') {
        if !first {
            buf.runs.push(Run {
                marks: code.clone(),
                leaf: Leaf::LineBreak,
            });
        }
        first = false;
        if !line.is_empty() {
            buf.runs.push(Run {
                marks: code.clone(),
                leaf: Leaf::Text(line.to_string()),
            });
        }
    }
}

/// A picture with its caption on the line under it, all in emphasis (`![a](p)` then
/// `*Figure 3: text*` in one paragraph), as the Markdown writer writes a captioned picture:
/// the image block, its caption numbered when it starts with a figure label in one of the
/// caption languages (`Figure 3`, `Abbildung 3`, …; the number itself is counted again).
fn captioned_image(runs: &[Run]) -> Option<Image> {
    let [first, gap, rest @ ..] = runs else {
        return None;
    };
    let Leaf::Atom(Inline::Image {
        media,
        caption: None,
        alt,
    }) = &first.leaf
    else {
        return None;
    };
    let italic = [Mark::Style(TextStyle::Italic)];
    if !first.marks.is_empty()
        || !matches!(&gap.leaf, Leaf::Text(t) if t == " ")
        || !gap.marks.is_empty()
        || rest.is_empty()
    {
        return None;
    }
    let mut text = String::new();
    for r in rest {
        match &r.leaf {
            Leaf::Text(t) if r.marks == italic => text.push_str(t),
            _ => return None,
        }
    }
    let (caption, numbered) = match figure_label(&text) {
        Some(after) => (after.to_string(), true),
        None => (text, false),
    };
    Some(Image {
        media: media.clone(),
        caption: Some(caption),
        alt: alt.clone(),
        numbered,
        ..Image::default()
    })
}

/// The caption text after a figure label (`Figure 3: ` or a whole `Figure 3`), if `text`
/// starts with one.
fn figure_label(text: &str) -> Option<&str> {
    Language::ALL.into_iter().find_map(|lang| {
        let rest = text.strip_prefix(lang.figure())?.strip_prefix(' ')?;
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        let after = &rest[digits..];
        if after.is_empty() {
            Some(after)
        } else {
            after.strip_prefix(": ")
        }
    })
}
