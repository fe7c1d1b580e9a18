//! The event walk: each pulldown-cmark event of a range opens, fills or closes the blocks,
//! lists, quotes and tables being built.

use std::ops::Range;

use pulldown_cmark::{Alignment, CodeBlockKind, Event, LinkType, Tag, TagEnd};

use super::paragraphs::push_verbatim;
use super::{ListFrame, Para, PendingImage, Reader, State, TableBuf, Verbatim, clamp_u8};
use crate::ast::inline::{Leaf, Run, from_runs};
use crate::ast::{Align, Block, Cell, MAX_LEVEL, Mark, Paragraph, Row, Table, TextStyle, TextType};
use crate::report::WarningKind;

impl<'a> Reader<'_, 'a, '_> {
    /// Converts the events in `range` into blocks.
    pub(super) fn blocks(&mut self, range: Range<usize>) -> Vec<Block> {
        let mut st = State::default();
        let events = self.events;
        for e in events.get(range).unwrap_or_default() {
            if st.skip > 0 {
                match e {
                    Event::Start(Tag::FootnoteDefinition(_)) => st.skip += 1,
                    Event::End(TagEnd::FootnoteDefinition) => st.skip -= 1,
                    _ => {}
                }
                continue;
            }
            self.event(&mut st, e);
        }
        // Balanced events close everything; finish whatever a truncated range left open.
        self.finish_para(&mut st);
        while !st.lists.is_empty() {
            self.end_item(&mut st);
            st.lists.pop();
        }
        st.blocks
    }

    fn event(&mut self, st: &mut State, e: &Event<'a>) {
        // Inside an image every event only adds to the alt text.
        if let Some(buf) = self.current_buf(st) {
            if let Some(img) = &mut buf.image {
                match e {
                    Event::Start(Tag::Image { .. }) => img.depth += 1,
                    Event::End(TagEnd::Image) => {
                        img.depth -= 1;
                        if img.depth == 0 {
                            self.finish_image(st);
                        }
                    }
                    Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) | Event::Html(t) => {
                        img.alt.push_str(t)
                    }
                    Event::SoftBreak | Event::HardBreak => img.alt.push(' '),
                    _ => {}
                }
                return;
            }
        }
        match e {
            Event::Start(tag) => self.start(st, tag),
            Event::End(tag) => self.end(st, *tag),
            Event::Text(t) => {
                if let Some(p) = &mut st.para {
                    if p.verbatim != Verbatim::No {
                        push_verbatim(&mut p.buf, t, p.verbatim == Verbatim::Code);
                        return;
                    }
                }
                self.text(st, t.to_string());
            }
            Event::Code(t) => {
                let buf = self.inline_buf(st);
                let mut marks = buf.marks.clone();
                marks.push(Mark::Style(TextStyle::Code));
                buf.runs.push(Run {
                    marks,
                    leaf: Leaf::Text(t.to_string()),
                });
            }
            Event::Html(t) | Event::InlineHtml(t) => {
                self.warn_once(
                    "html",
                    WarningKind::Lossy,
                    "raw HTML is kept as plain text, never passed through",
                );
                match &mut st.para {
                    Some(p) if p.verbatim != Verbatim::No => {
                        push_verbatim(&mut p.buf, t, p.verbatim == Verbatim::Code)
                    }
                    _ => self.text(st, t.to_string()),
                }
            }
            Event::FootnoteReference(label) => self.note_ref(st, label),
            Event::SoftBreak => self.text(st, " ".into()),
            Event::HardBreak => {
                let buf = self.inline_buf(st);
                let marks = buf.marks.clone();
                buf.runs.push(Run {
                    marks,
                    leaf: Leaf::LineBreak,
                });
            }
            Event::Rule => {
                self.finish_para(st);
                self.ensure_item(st);
                st.blocks.push(Block::PageBreak);
            }
            Event::TaskListMarker(done) => {
                self.text(st, if *done { "[x] " } else { "[ ] " }.into());
            }
            Event::InlineMath(t) => self.math(st, t, false),
            Event::DisplayMath(t) => self.math(st, t, true),
        }
    }

    fn start(&mut self, st: &mut State, tag: &Tag<'a>) {
        match tag {
            Tag::Paragraph => self.begin_para(st, Verbatim::No),
            Tag::Heading { level, .. } => {
                self.finish_para(st);
                self.ensure_item(st);
                let level = clamp_u8((*level as usize).saturating_sub(1), MAX_LEVEL);
                st.para = Some(Para {
                    kind: TextType::Heading,
                    level,
                    ..Para::plain(st.block_indent())
                });
            }
            Tag::BlockQuote(_) => {
                self.finish_para(st);
                self.ensure_item(st);
                st.quote = st.quote.saturating_add(1);
            }
            Tag::CodeBlock(kind) => {
                // The info string's first word is the language (CommonMark §4.5).
                let language = match kind {
                    CodeBlockKind::Fenced(info) => {
                        let word = info.split_whitespace().next().unwrap_or("");
                        if crate::ast::is_code_language(word) {
                            word.to_string()
                        } else {
                            self.warn_once(
                                "code-info",
                                WarningKind::Lossy,
                                "a code block's info string that is not a language name is not kept",
                            );
                            String::new()
                        }
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                self.begin_para(st, Verbatim::Code);
                if let Some(para) = st.para.as_mut() {
                    para.language = Some(language);
                }
            }
            Tag::HtmlBlock => self.begin_para(st, Verbatim::Html),
            Tag::List(start) => {
                self.finish_para(st);
                self.ensure_item(st);
                let list_id = match st.lists.first() {
                    Some(outer) => outer.list_id.clone(),
                    None => {
                        self.lists_seen += 1;
                        format!("md{}", self.lists_seen)
                    }
                };
                st.lists.push(ListFrame {
                    ordered: start.is_some(),
                    start: start.unwrap_or(1),
                    list_id,
                    item_done: true,
                    first_done: false,
                });
            }
            Tag::Item => {
                self.finish_para(st);
                if let Some(l) = st.lists.last_mut() {
                    l.item_done = false;
                }
            }
            Tag::FootnoteDefinition(_) => st.skip = 1,
            Tag::Table(aligns) => {
                self.finish_para(st);
                self.ensure_item(st);
                st.table = Some(TableBuf {
                    aligns: aligns.clone(),
                    rows: Vec::new(),
                    row: Vec::new(),
                    head: false,
                    indent: st.block_indent(),
                });
            }
            Tag::TableHead => {
                if let Some(t) = &mut st.table {
                    t.head = true;
                    t.row.clear();
                }
            }
            Tag::TableRow => {
                if let Some(t) = &mut st.table {
                    t.head = false;
                    t.row.clear();
                }
            }
            // A cell's inline content collects in a paragraph of its own (never an item's).
            Tag::TableCell => st.para = Some(Para::plain(0)),
            Tag::Emphasis => self.push_mark(st, Mark::Style(TextStyle::Italic)),
            Tag::Strong => self.push_mark(st, Mark::Style(TextStyle::Bold)),
            Tag::Strikethrough => self.push_mark(st, Mark::Style(TextStyle::Strike)),
            Tag::Superscript => self.push_mark(st, Mark::Style(TextStyle::Superscript)),
            Tag::Subscript => self.push_mark(st, Mark::Style(TextStyle::Subscript)),
            Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => {
                if !title.is_empty() {
                    self.warn_once("link-title", WarningKind::Lossy, "link titles are not kept");
                }
                let href = if *link_type == LinkType::Email && !dest_url.starts_with("mailto:") {
                    format!("mailto:{dest_url}")
                } else {
                    dest_url.to_string()
                };
                self.push_mark(st, Mark::Link(href.into()));
            }
            Tag::Image {
                dest_url, title, ..
            } => {
                let buf = self.inline_buf(st);
                buf.image = Some(PendingImage {
                    depth: 1,
                    dest: dest_url.to_string(),
                    title: title.to_string(),
                    alt: String::new(),
                });
            }
            Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition
            | Tag::MetadataBlock(_) => {}
        }
    }

    fn end(&mut self, st: &mut State, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::HtmlBlock => {
                self.finish_para(st)
            }
            TagEnd::BlockQuote(_) => {
                self.finish_para(st);
                st.quote = st.quote.saturating_sub(1);
            }
            TagEnd::List(_) => {
                self.finish_para(st);
                st.lists.pop();
            }
            TagEnd::Item => self.end_item(st),
            TagEnd::FootnoteDefinition => {}
            TagEnd::Table => {
                if let Some(t) = st.table.take() {
                    let n = t.aligns.len().max(1);
                    st.blocks.push(Block::Table(Table {
                        columns: vec![100.0 / n as f32; n],
                        rows: t.rows,
                        indent: t.indent,
                        ..Table::default()
                    }));
                }
            }
            TagEnd::TableHead | TagEnd::TableRow => {
                if let Some(t) = &mut st.table {
                    let cells = std::mem::take(&mut t.row);
                    t.rows.push(Row {
                        header: t.head,
                        cells,
                        ..Row::default()
                    });
                    t.head = false;
                }
            }
            TagEnd::TableCell => {
                let para = st.para.take();
                if let Some(t) = &mut st.table {
                    let buf = para.map(|p| p.buf).unwrap_or_default();
                    let col = t.row.len();
                    let align = match t.aligns.get(col) {
                        Some(Alignment::Left) => Some(Align::Left),
                        Some(Alignment::Center) => Some(Align::Center),
                        Some(Alignment::Right) => Some(Align::Right),
                        _ => None,
                    };
                    let content = from_runs(buf.runs);
                    let blocks = if content.is_empty() {
                        Vec::new()
                    } else {
                        vec![Block::Paragraph(Paragraph::new(
                            TextType::Paragraph,
                            content,
                        ))]
                    };
                    t.row.push(Cell {
                        header: t.head,
                        align,
                        blocks,
                        ..Cell::default()
                    });
                }
            }
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link => self.pop_mark(st),
            TagEnd::Image => {}
            TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition
            | TagEnd::MetadataBlock(_) => {}
        }
    }
}
