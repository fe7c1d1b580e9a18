//! Blocks: the body in order, list items (markers, numbers, nesting) and the blocks that
//! continue them, block quotes, headings (ATX or setext), paragraphs and fenced code blocks.

use std::borrow::Cow;

use super::inline::one_line;
use super::render::longest_run;
use super::{Ctx, Writer};
use crate::ast::inline::{Leaf, to_runs};
use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{Align, Block, Inline, Mark, Paragraph, TextStyle, TextType};
use crate::report::WarningKind;

/// One level of the open list context.
struct Frame {
    ordered: bool,
    /// Alternate markers (`*`, `1)`) to keep this list apart from the one before it.
    alt: bool,
    /// Column where this level's item content starts.
    content: usize,
    /// The number a next item continuing this (ordered) list shows: Markdown numbers the
    /// items after a list's first itself.
    next: u32,
}

/// The lists being written: their quote depth, the outer list's id and one frame per level.
struct ListCtx {
    quote: u8,
    list_id: Option<String>,
    frames: Vec<Frame>,
    /// The last item written was empty: content after a blank line cannot join it.
    last_empty: bool,
}

impl Writer<'_> {
    pub(super) fn body(&mut self) {
        let doc = self.doc;
        let numbers = number_blocks(&doc.blocks);
        let mut ctx: Option<ListCtx> = None;
        let mut last_item = false;
        for (i, block) in doc.blocks.iter().enumerate() {
            self.block = i;
            let n = numbers.get(i).cloned().unwrap_or_default();
            if let Block::Paragraph(p) = block {
                if p.kind.is_list() {
                    self.list_item(p, &n, &mut ctx, last_item);
                    last_item = true;
                    continue;
                }
            }
            last_item = false;
            let indent = match block {
                Block::Paragraph(p) => p.indent,
                Block::Image(img) => img.indent,
                Block::Table(t) => t.indent,
                Block::PageBreak | Block::Directory { .. } => 0,
            };
            // An indented block right after a list item continues that item (or an outer one);
            // indent beyond the innermost item is a block quote inside it.
            let cont = ctx.as_ref().and_then(|c| {
                let depth = usize::from(indent).checked_sub(usize::from(c.quote) + 1)?;
                let mut level = depth.min(c.frames.len().checked_sub(1)?);
                if c.last_empty && level + 1 == c.frames.len() {
                    // Quote it inside the parent item instead (or leave the list).
                    level = level.checked_sub(1)?;
                }
                Some((level, depth - level))
            });
            let lines = self.block_lines(block, &n);
            if cont.is_none() {
                ctx = None;
            }
            if lines.is_empty() {
                continue;
            }
            let quoted = is_quote(block);
            match (cont, ctx.as_mut()) {
                (Some((level, inner)), Some(c)) => {
                    c.frames.truncate(level + 1);
                    c.last_empty = false;
                    let col = c.frames.last().map_or(0, |f| f.content);
                    let quote = c.quote;
                    // Indent beyond the item is a quote inside it only for quoted text.
                    let inner = if quoted { inner } else { 0 };
                    let pad = format!("{}{}", " ".repeat(col), "> ".repeat(inner));
                    self.emit(&lines, quote, &pad, &pad, true);
                }
                _ => {
                    // Indentation is layout, not a quote: only a quote style becomes `>`.
                    let quote = if quoted { indent.max(1) } else { 0 };
                    if indent > 0 && !quoted {
                        self.warn_once("indent", WarningKind::Lossy, "indentation is not written");
                    }
                    self.emit(&lines, quote, "", "", true)
                }
            }
        }
    }

    /// Appends `lines`: the first prefixed by `first`, the rest by `rest` (list markers and
    /// content indentation), all inside `quote` block-quote levels; after a blank line when
    /// `blank` (a quoted blank line when both neighbours are quoted).
    pub(super) fn emit(
        &mut self,
        lines: &[String],
        quote: u8,
        first: &str,
        rest: &str,
        blank: bool,
    ) {
        let q = "> ".repeat(usize::from(quote));
        if !self.out.is_empty() {
            if blank {
                let shared = "> ".repeat(usize::from(quote.min(self.last_quote)));
                self.out.push('\n');
                self.out.push_str(shared.trim_end());
            }
            self.out.push('\n');
        }
        for (k, line) in lines.iter().enumerate() {
            if k > 0 {
                self.out.push('\n');
            }
            let pad = if k == 0 { first } else { rest };
            if line.is_empty() {
                // Keep the markers (quotes, an empty item's list marker), not trailing spaces.
                let lead = format!("{q}{pad}");
                self.out.push_str(lead.trim_end());
                continue;
            }
            self.out.push_str(&q);
            self.out.push_str(pad);
            self.out.push_str(line);
        }
        self.last_quote = quote;
    }

    fn list_item(
        &mut self,
        p: &Paragraph,
        n: &BlockNumber,
        ctx: &mut Option<ListCtx>,
        last_item: bool,
    ) {
        let ordered = p.kind == TextType::ListOl;
        // Only quoted list items are written inside a block quote.
        let quote = if is_quote_style(p.style.as_deref()) {
            p.indent
        } else {
            0
        };
        if ctx.as_ref().is_some_and(|c| c.quote != quote) {
            *ctx = None;
        }
        let c = ctx.get_or_insert_with(|| ListCtx {
            quote,
            list_id: p.list_id.clone(),
            frames: Vec::new(),
            last_empty: false,
        });
        let wanted = usize::from(p.level);
        let level = wanted.min(c.frames.len());
        if level < wanted {
            self.warn_once(
                "list-skip",
                WarningKind::Lossy,
                "a list level skipped in the tree is written one level below its parent",
            );
        }
        let value = n.value.unwrap_or(1).min(999_999_999);
        let (alt, new_list) = match c.frames.get(level) {
            Some(f) if f.ordered != ordered => (false, true),
            Some(f) => {
                // Any number but the next (a restart, a start, another list's item under the
                // same parent) shows only as the first of a new list.
                let new_list = (ordered && (p.restart || value != f.next))
                    || (level == 0 && c.list_id != p.list_id);
                (if new_list { !f.alt } else { f.alt }, new_list)
            }
            None => (false, true),
        };
        if level == 0 {
            c.list_id = p.list_id.clone();
        }
        let base = if level == 0 {
            0
        } else {
            c.frames.get(level - 1).map_or(0, |f| f.content)
        };
        let marker = if ordered {
            format!("{value}{} ", if alt { ')' } else { '.' })
        } else {
            (if alt { "* " } else { "- " }).to_string()
        };
        c.frames.truncate(level);
        c.frames.push(Frame {
            ordered,
            alt,
            content: base + marker.len(),
            next: value.saturating_add(1),
        });
        let quote = c.quote;
        if p.align != Align::Left {
            self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
        }
        let lines = self.paragraph_lines(p, &[]);
        let first = format!("{}{marker}", " ".repeat(base));
        let rest = " ".repeat(base + marker.len());
        c.last_empty = lines.is_empty();
        // A list may only interrupt a paragraph when it starts at 1 and is not empty; a new
        // top-level list gets a blank line anyway, for the reader's eye.
        let interrupts = new_list && ((ordered && value != 1) || lines.is_empty() || level == 0);
        let lines = if lines.is_empty() {
            vec![String::new()]
        } else {
            lines
        };
        self.emit(&lines, quote, &first, &rest, !last_item || interrupts);
    }

    /// The lines of one non-list block (no quote or list prefix); empty when nothing is written.
    fn block_lines(&mut self, block: &Block, n: &BlockNumber) -> Vec<String> {
        match block {
            Block::Paragraph(p) if p.kind.is_heading() => self.heading_lines(p, n),
            Block::Paragraph(p) => {
                if p.kind == TextType::Caption {
                    self.warn_once(
                        "caption",
                        WarningKind::Lossy,
                        "a stand-alone caption is written as a paragraph",
                    );
                }
                if p.align != Align::Left {
                    self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
                }
                let prefix = match (p.kind, &n.label) {
                    (TextType::ParagraphOl, Some(label)) => vec![Inline::text(format!("{label} "))],
                    _ => Vec::new(),
                };
                self.paragraph_lines(p, &prefix)
            }
            Block::Image(img) => self.image_lines(img, n),
            Block::Table(t) => self.table_lines(t, n),
            // The marker the options ask for (a chunk boundary), else a thematic break.
            Block::PageBreak => match self.opts.page_breaks.as_deref() {
                Some(marker) if marker.trim().is_empty() => Vec::new(),
                Some(marker) => vec![marker.replace(['\n', '\r'], " ")],
                None => vec!["---".into()],
            },
            Block::Directory { kind } => {
                self.warn(
                    WarningKind::Dropped,
                    format!(
                        "{} directory not written (Markdown has none)",
                        kind.as_str()
                    ),
                );
                Vec::new()
            }
        }
    }

    fn heading_lines(&mut self, p: &Paragraph, n: &BlockNumber) -> Vec<String> {
        let label = match (p.kind, &n.label) {
            (TextType::HeadingOl, Some(label)) => vec![Inline::text(format!("{label} "))],
            _ => Vec::new(),
        };
        let content = with_prefix(&label, &p.content);
        if p.align != Align::Left {
            self.warn_once("align", WarningKind::Lossy, "text alignment is not written");
        }
        let level = usize::from(p.level.min(5)) + 1;
        if level <= 2 && self.keeps_break(&content) {
            // Only setext headings can hold a hard break.
            let mut lines = self.inline_lines(&content, Ctx::Para);
            if lines.iter().all(String::is_empty) {
                return self.empty_heading();
            }
            lines.push((if level == 1 { "===" } else { "---" }).to_string());
            return lines;
        }
        let text = one_line(self.inline_lines(&content, Ctx::Heading));
        if text.is_empty() {
            return self.empty_heading();
        }
        vec![format!("{} {text}", "#".repeat(level))]
    }

    /// A heading with no text is not written (a bare `##` reads as noise to every reader of
    /// the text, and outlines skip it); one warning says so.
    fn empty_heading(&mut self) -> Vec<String> {
        self.warn_once(
            "empty-heading",
            WarningKind::Dropped,
            "a heading with no text is not written",
        );
        Vec::new()
    }

    /// Whether `content`, written as a paragraph, holds a line break: not one at its end, nor
    /// one inside a note (the setext heading form is only for breaks the reader will see, so a
    /// second trip chooses the same form). Asks [`Writer::prepare`] without keeping its warnings:
    /// the content is written afterwards and warns then.
    fn keeps_break(&mut self, content: &[Inline]) -> bool {
        let report = std::mem::take(&mut self.report);
        let warned = self.warned.clone();
        let runs = self.prepare(content, Ctx::Para);
        self.report = report;
        self.warned = warned;
        runs.iter().any(|r| r.leaf == Leaf::LineBreak)
    }

    /// A paragraph's lines: a fenced block (with its language) for a code block, else inline
    /// content with hard breaks.
    fn paragraph_lines(&mut self, p: &Paragraph, prefix: &[Inline]) -> Vec<String> {
        if let Some(language) = p.code.as_deref().filter(|_| prefix.is_empty()) {
            if let Some(code) = code_block_text(&p.content) {
                let longest = longest_run(&code, '`');
                let fence = "`".repeat(longest.max(2) + 1);
                let info = if crate::ast::is_code_language(language) {
                    language
                } else {
                    ""
                };
                let mut lines = vec![format!("{fence}{info}")];
                lines.extend(code.split('\n').map(str::to_string));
                lines.push(fence);
                return lines;
            }
        }
        let lines = self.inline_lines(&with_prefix(prefix, &p.content), Ctx::Para);
        if lines.len() == 1 && lines.first().is_some_and(String::is_empty) {
            return Vec::new();
        }
        lines
    }
}

/// `content` after `prefix` (a number label), borrowed when there is none.
fn with_prefix<'a>(prefix: &[Inline], content: &'a [Inline]) -> Cow<'a, [Inline]> {
    if prefix.is_empty() {
        return Cow::Borrowed(content);
    }
    let mut joined = prefix.to_vec();
    joined.extend(content.iter().cloned());
    Cow::Owned(joined)
}

/// Whether `block` is quoted text: a paragraph with a quote style.
fn is_quote(block: &Block) -> bool {
    matches!(block, Block::Paragraph(p) if is_quote_style(p.style.as_deref()))
}

/// Whether a paragraph style is a quotation style: Word's `Quote`, `Intense Quote` and their
/// names in the languages sdconv knows, `Block Text`, and what the Markdown reader gives quotes.
pub(super) fn is_quote_style(style: Option<&str>) -> bool {
    let Some(style) = style else {
        return false;
    };
    // Asked for every paragraph with a style: ASCII, most of any name, is lowercased without
    // Unicode's tables, into room on the stack that holds most names.
    let mut name: smallvec::SmallVec<[u8; 48]> = smallvec::SmallVec::new();
    let mut utf8 = [0; 4];
    for c in style
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
    {
        if c.is_ascii() {
            name.push(c.to_ascii_lowercase() as u8);
        } else {
            for l in c.to_lowercase() {
                name.extend_from_slice(l.encode_utf8(&mut utf8).as_bytes());
            }
        }
    }
    let name = name.as_slice();
    [
        "quote",
        "zitat",
        "citation",
        "citazione",
        "blocktext",
        "blockquote",
    ]
    .iter()
    .any(|q| memchr::memmem::find(name, q.as_bytes()).is_some())
        || name == b"cita"
        || name == b"citadestacada"
}

/// The text of a code block's paragraph when it is only code text and line breaks.
fn code_block_text(content: &[Inline]) -> Option<String> {
    let runs = to_runs(content);
    let code = Mark::Style(TextStyle::Code);
    let mut text = String::new();
    for run in &runs {
        if run.marks != [code.clone()] {
            return None;
        }
        match &run.leaf {
            Leaf::Text(t) if !t.contains('\n') => text.push_str(t),
            Leaf::LineBreak => text.push('\n'),
            _ => return None,
        }
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::is_quote_style;

    #[test]
    fn quote_styles_are_known_by_name_in_any_case_and_spelling() {
        for style in [
            "Quote",
            "Intense Quote",
            "Block-Text",
            "ZITAT",
            "Cita",
            "Cita destacada",
            "citazione\u{B}",
            "Ζ Quote",
        ] {
            assert!(is_quote_style(Some(style)), "{style}");
        }
        for style in ["Normal", "Citação", "Citable", "Heading 1", ""] {
            assert!(!is_quote_style(Some(style)), "{style}");
        }
        assert!(!is_quote_style(None));
    }
}
