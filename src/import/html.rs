//! HTML into the tree's blocks, for the HTML a Word file embeds (`w:altChunk`: mail merges and
//! document assembly tools put whole pages there).
//!
//! The HTML is parsed by html5ever (through `scraper`), as a browser parses it, so any bytes
//! give a tree. Headings, paragraphs, lists (nested), tables (header cells, spans, cells holding
//! blocks), links, emphasis, code, line breaks and pictures (`data:` URIs) become the tree's;
//! containers (`div`, `section`, `blockquote`, …) give their content; `script`, `style` and
//! the head are not content. What the tree cannot hold (forms, embedded media, frames, inline
//! SVG) is named in [`HtmlBlocks::lost`], for the caller's one warning.

use std::collections::BTreeSet;

use base64::Engine;
use scraper::node::Node;
use scraper::{ElementRef, Html};

use crate::ast::{Block, Cell, Inline, MediaItem, Paragraph, Row, Table, TextStyle, TextType};

/// Elements nested deeper than this are read as text only (a hostile page cannot recurse the
/// reader's stack away).
const MAX_DEPTH: usize = 64;
/// Pictures taken from one chunk, at most.
const MAX_PICTURES: usize = 1000;

/// What an HTML text gives.
#[derive(Debug, Default)]
pub(crate) struct HtmlBlocks {
    /// The blocks, in document order.
    pub blocks: Vec<Block>,
    /// The pictures the blocks show (`data:` URIs decoded), named `{prefix}{n}.{ext}`.
    pub media: Vec<MediaItem>,
    /// Kinds of content left out (`form`, `video`, …), each once.
    pub lost: BTreeSet<String>,
}

/// Reads `html` (a whole page or a fragment). Pictures are named with `prefix`.
pub(crate) fn read(html: &str, prefix: &str) -> HtmlBlocks {
    let doc = Html::parse_document(html);
    let mut reader = Reader {
        out: HtmlBlocks::default(),
        prefix,
    };
    let root = doc.root_element();
    let body = root
        .children()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "body")
        .unwrap_or(root);
    let mut blocks = Vec::new();
    reader.blocks(body, 0, 0, &mut blocks);
    reader.out.blocks = blocks;
    reader.out
}

struct Reader<'p> {
    out: HtmlBlocks,
    prefix: &'p str,
}

/// Elements whose content is blocks (a paragraph ends before them).
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "ul"
            | "ol"
            | "li"
            | "table"
            | "blockquote"
            | "pre"
            | "section"
            | "article"
            | "header"
            | "footer"
            | "main"
            | "nav"
            | "aside"
            | "figure"
            | "figcaption"
            | "address"
            | "dl"
            | "dt"
            | "dd"
            | "hr"
            | "center"
            | "form"
            | "fieldset"
    )
}

/// Elements that are not content at all.
fn is_hidden(name: &str) -> bool {
    matches!(
        name,
        "head" | "script" | "style" | "template" | "noscript" | "title" | "meta" | "link"
    )
}

/// Elements whose content the tree cannot hold.
fn is_lost(name: &str) -> bool {
    matches!(
        name,
        "input"
            | "select"
            | "textarea"
            | "button"
            | "iframe"
            | "frame"
            | "video"
            | "audio"
            | "object"
            | "embed"
            | "canvas"
            | "svg"
            | "math"
    )
}

impl Reader<'_> {
    /// The blocks of `el`'s content: runs of inline content become paragraphs of `kind`
    /// (plain text, or the list item's), block elements their blocks. `list` is the list
    /// depth.
    fn blocks(&mut self, el: ElementRef<'_>, depth: usize, list: u8, out: &mut Vec<Block>) {
        let mut pending: Vec<Inline> = Vec::new();
        for child in el.children() {
            match child.value() {
                Node::Text(t) => pending.push(Inline::text(t.to_string())),
                Node::Element(e) => {
                    let Some(child) = ElementRef::wrap(child) else {
                        continue;
                    };
                    let name = e.name();
                    if is_hidden(name) {
                        continue;
                    }
                    if is_lost(name) {
                        self.out.lost.insert(name.to_string());
                        continue;
                    }
                    if !is_block(name) {
                        self.inline(child, depth + 1, &mut pending);
                        continue;
                    }
                    flush(&mut pending, TextType::Paragraph, 0, out);
                    self.block(child, depth + 1, list, out);
                }
                _ => {}
            }
        }
        flush(&mut pending, TextType::Paragraph, 0, out);
    }

    /// One block element.
    fn block(&mut self, el: ElementRef<'_>, depth: usize, list: u8, out: &mut Vec<Block>) {
        if depth > MAX_DEPTH {
            let mut text = Vec::new();
            self.text_only(el, &mut text);
            flush(&mut text, TextType::Paragraph, 0, out);
            return;
        }
        let name = el.value().name();
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let level = name[1..].parse::<u8>().unwrap_or(1) - 1;
                let mut content = Vec::new();
                self.inline_children(el, depth, &mut content);
                flush(&mut content, TextType::Heading, level, out);
            }
            "ul" | "ol" => {
                let kind = if name == "ol" {
                    TextType::ListOl
                } else {
                    TextType::ListUl
                };
                for item in el.children().filter_map(ElementRef::wrap) {
                    if item.value().name() == "li" {
                        self.list_item(item, kind, depth + 1, list, out);
                    } else if is_block(item.value().name()) {
                        self.block(item, depth + 1, list, out);
                    }
                }
            }
            "li" => self.list_item(el, TextType::ListUl, depth, list, out),
            "table" => out.push(Block::Table(self.table(el, depth))),
            "hr" => {}
            "pre" => {
                // Preformatted: its lines kept, as code.
                let mut text = Vec::new();
                self.text_only(el, &mut text);
                let code = crate::ast::inline::plain_text(&text);
                let mut content = Vec::new();
                for (k, line) in code.trim_end_matches('\n').split('\n').enumerate() {
                    if k > 0 {
                        content.push(Inline::LineBreak);
                    }
                    content.push(Inline::text(line));
                }
                out.push(Block::Paragraph(Paragraph::new(
                    TextType::Paragraph,
                    vec![Inline::styled(TextStyle::Code, content)],
                )));
            }
            // `p`, and containers: their content.
            _ => self.blocks(el, depth, list, out),
        }
    }

    /// A list item at `list` depth: its text one item paragraph, nested lists one level deeper.
    fn list_item(
        &mut self,
        li: ElementRef<'_>,
        kind: TextType,
        depth: usize,
        list: u8,
        out: &mut Vec<Block>,
    ) {
        let mut content = Vec::new();
        let mut nested = Vec::new();
        for child in li.children() {
            match child.value() {
                Node::Text(t) => content.push(Inline::text(t.to_string())),
                Node::Element(e) => {
                    let Some(child) = ElementRef::wrap(child) else {
                        continue;
                    };
                    match e.name() {
                        "ul" | "ol" => self.block(child, depth + 1, list + 1, &mut nested),
                        name if is_hidden(name) => {}
                        name if is_lost(name) => {
                            self.out.lost.insert(name.to_string());
                        }
                        name if is_block(name) => {
                            // A paragraph inside an item is the item's text.
                            self.inline_children(child, depth + 1, &mut content)
                        }
                        _ => self.inline(child, depth + 1, &mut content),
                    }
                }
                _ => {}
            }
        }
        // The tree's list levels stop at 15.
        flush(&mut content, kind, list.min(15), out);
        out.append(&mut nested);
    }

    fn table(&mut self, table: ElementRef<'_>, depth: usize) -> Table {
        let mut rows = Vec::new();
        let mut caption = None;
        let mut stack = vec![table];
        // Rows directly in the table or in its thead/tbody/tfoot, in order.
        let mut tr: Vec<ElementRef<'_>> = Vec::new();
        while let Some(el) = stack.pop() {
            let children: Vec<ElementRef<'_>> =
                el.children().filter_map(ElementRef::wrap).collect();
            for child in children.into_iter().rev() {
                match child.value().name() {
                    "tr" => tr.push(child),
                    "thead" | "tbody" | "tfoot" => stack.push(child),
                    "caption" => {
                        let mut text = Vec::new();
                        self.text_only(child, &mut text);
                        let text = crate::ast::inline::plain_text(&text);
                        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                        caption = Some(text).filter(|t| !t.is_empty());
                    }
                    _ => {}
                }
            }
        }
        tr.reverse();
        for row in tr {
            let mut cells = Vec::new();
            for cell in row.children().filter_map(ElementRef::wrap) {
                let name = cell.value().name();
                if name != "td" && name != "th" {
                    continue;
                }
                // The tree's tables are as wide as the Word reader's at most.
                if cells.len() >= crate::limits::MAX_TABLE_COLUMNS {
                    let max = crate::limits::MAX_TABLE_COLUMNS;
                    self.out.lost.insert(format!("{name} past {max}"));
                    break;
                }
                let span = |a: &str| {
                    cell.value()
                        .attr(a)
                        .and_then(|v| v.trim().parse::<u32>().ok())
                        .filter(|n| *n >= 1)
                        .map_or(1, |n| n.min(crate::limits::MAX_TABLE_COLUMNS as u32))
                };
                let mut blocks = Vec::new();
                self.blocks(cell, depth + 1, 0, &mut blocks);
                if blocks.is_empty() {
                    blocks.push(Block::Paragraph(Paragraph::new(
                        TextType::Paragraph,
                        vec![],
                    )));
                }
                cells.push(Cell {
                    colspan: span("colspan"),
                    rowspan: span("rowspan"),
                    header: name == "th",
                    blocks,
                    ..Cell::default()
                });
            }
            if !cells.is_empty() {
                let header = cells.iter().all(|c| c.header);
                rows.push(Row {
                    cells,
                    header,
                    ..Row::default()
                });
            }
        }
        Table {
            rows,
            numbered: caption.is_some(),
            caption,
            ..Table::default()
        }
    }

    /// The inline content of `el`'s children.
    fn inline_children(&mut self, el: ElementRef<'_>, depth: usize, out: &mut Vec<Inline>) {
        for child in el.children() {
            match child.value() {
                Node::Text(t) => out.push(Inline::text(t.to_string())),
                Node::Element(_) => {
                    if let Some(child) = ElementRef::wrap(child) {
                        self.inline(child, depth + 1, out);
                    }
                }
                _ => {}
            }
        }
    }

    /// One inline element (a block element met inside inline content gives its text).
    fn inline(&mut self, el: ElementRef<'_>, depth: usize, out: &mut Vec<Inline>) {
        let name = el.value().name();
        if is_hidden(name) {
            return;
        }
        if is_lost(name) {
            self.out.lost.insert(name.to_string());
            return;
        }
        if depth > MAX_DEPTH {
            self.text_only(el, out);
            return;
        }
        let style = match name {
            "b" | "strong" => Some(TextStyle::Bold),
            "i" | "em" | "cite" | "var" | "dfn" => Some(TextStyle::Italic),
            "u" | "ins" => Some(TextStyle::Underline),
            "s" | "strike" | "del" => Some(TextStyle::Strike),
            "sub" => Some(TextStyle::Subscript),
            "sup" => Some(TextStyle::Superscript),
            "code" | "tt" | "kbd" | "samp" => Some(TextStyle::Code),
            _ => None,
        };
        match name {
            "br" => out.push(Inline::LineBreak),
            "img" => {
                if let Some(media) = self.picture(el) {
                    out.push(Inline::Image {
                        media,
                        caption: None,
                        alt: el.value().attr("alt").map(str::to_string),
                    });
                }
            }
            "a" => {
                let mut children = Vec::new();
                self.inline_children(el, depth, &mut children);
                match el
                    .value()
                    .attr("href")
                    .map(str::trim)
                    .filter(|h| !h.is_empty())
                {
                    Some(href) => out.push(Inline::Link {
                        href: href.into(),
                        children,
                    }),
                    None => out.append(&mut children),
                }
            }
            _ => {
                let mut children = Vec::new();
                self.inline_children(el, depth, &mut children);
                match style {
                    Some(style) => out.push(Inline::styled(style, children)),
                    None => out.append(&mut children),
                }
            }
        }
    }

    /// The text of `el`, nothing else.
    fn text_only(&mut self, el: ElementRef<'_>, out: &mut Vec<Inline>) {
        for text in el.text() {
            out.push(Inline::text(text));
        }
    }

    /// A picture given as a `data:` URI, decoded into the media: its name. Other sources
    /// (addresses on the web, files beside the page) are not in the Word file: lost.
    fn picture(&mut self, img: ElementRef<'_>) -> Option<String> {
        let src = img.value().attr("src")?.trim();
        let decoded = src
            .strip_prefix("data:")
            .and_then(|rest| rest.split_once(','))
            .filter(|(meta, _)| meta.ends_with(";base64"))
            .and_then(|(_, data)| {
                let data: String = data.chars().filter(|c| !c.is_whitespace()).collect();
                base64::engine::general_purpose::STANDARD.decode(data).ok()
            });
        let Some(bytes) = decoded.filter(|_| self.out.media.len() < MAX_PICTURES) else {
            self.out.lost.insert("img".to_string());
            return None;
        };
        let mut item = MediaItem::new(String::new(), bytes);
        let name = format!(
            "{}{}.{}",
            self.prefix,
            self.out.media.len() + 1,
            item.kind.extension()
        );
        item.name = name.clone();
        self.out.media.push(item);
        Some(name)
    }
}

/// Ends a run of inline content as a paragraph of `kind` at `level`, white space collapsed
/// as a browser shows it; nothing for white space alone.
fn flush(pending: &mut Vec<Inline>, kind: TextType, level: u8, out: &mut Vec<Block>) {
    let content = collapse(std::mem::take(pending));
    if content.is_empty() {
        return;
    }
    let mut p = Paragraph::new(kind, content);
    p.level = level;
    out.push(Block::Paragraph(p));
}

/// White space runs become one space, none at the ends or after a line break.
fn collapse(inlines: Vec<Inline>) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut space = true;
    collapse_into(inlines, &mut out, &mut space);
    trim_end(&mut out);
    crate::ast::inline::normalize(&out)
}

fn collapse_into(inlines: Vec<Inline>, out: &mut Vec<Inline>, space: &mut bool) {
    for inline in inlines {
        match inline {
            Inline::Text { text } => {
                let mut s = String::with_capacity(text.len());
                for c in text.chars() {
                    if c.is_whitespace() {
                        if !*space {
                            s.push(' ');
                            *space = true;
                        }
                    } else {
                        s.push(c);
                        *space = false;
                    }
                }
                if !s.is_empty() {
                    out.push(Inline::text(s));
                }
            }
            Inline::Styled { style, children } => {
                let mut inner = Vec::new();
                collapse_into(children, &mut inner, space);
                if !inner.is_empty() {
                    out.push(Inline::Styled {
                        style,
                        children: inner,
                    });
                }
            }
            Inline::Link { href, children } => {
                let mut inner = Vec::new();
                collapse_into(children, &mut inner, space);
                out.push(Inline::Link {
                    href,
                    children: inner,
                });
            }
            Inline::LineBreak => {
                trim_end(out);
                out.push(Inline::LineBreak);
                *space = true;
            }
            other => {
                out.push(other);
                *space = false;
            }
        }
    }
}

/// Drops the trailing space of the last text.
fn trim_end(out: &mut Vec<Inline>) {
    match out.last_mut() {
        Some(Inline::Text { text }) => {
            let trimmed = text.trim_end_matches(' ').len();
            text.truncate(trimmed);
            if text.is_empty() {
                out.pop();
            }
        }
        Some(Inline::Styled { children, .. }) | Some(Inline::Link { children, .. }) => {
            trim_end(children)
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::inline::plain_text;

    fn texts(blocks: &[Block]) -> Vec<(TextType, u8, String)> {
        blocks
            .iter()
            .filter_map(|b| match b {
                Block::Paragraph(p) => Some((p.kind, p.level, plain_text(&p.content))),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn headings_paragraphs_and_nested_lists() {
        let r = read(
            "<html><head><title>x</title><style>p{}</style></head><body><h2>Terms</h2>\
             <p>Some   <b>bold</b>\n text.</p><ul><li>one<ul><li>deep</li></ul></li><li>two</li></ul>\
             <ol><li><p>first</p></li></ol><script>alert(1)</script></body></html>",
            "c-",
        );
        assert_eq!(
            texts(&r.blocks),
            [
                (TextType::Heading, 1, "Terms".into()),
                (TextType::Paragraph, 0, "Some bold text.".into()),
                (TextType::ListUl, 0, "one".into()),
                (TextType::ListUl, 1, "deep".into()),
                (TextType::ListUl, 0, "two".into()),
                (TextType::ListOl, 0, "first".into()),
            ]
        );
        let Block::Paragraph(p) = &r.blocks[1] else {
            panic!()
        };
        assert!(p.content.iter().any(|i| matches!(
            i,
            Inline::Styled {
                style: TextStyle::Bold,
                ..
            }
        )));
        assert!(r.lost.is_empty());
    }

    #[test]
    fn tables_links_pictures_and_what_is_lost() {
        // A 1×1 PNG.
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
        let r = read(
            &format!(
                "<table><caption>Prices</caption><tr><th>A</th><th>B</th></tr>\
                 <tr><td colspan=2><a href='https://example.org'>site</a> <img alt='dot' src='data:image/png;base64,{png}'></td></tr></table>\
                 <form><input name=q></form><video src=x></video><img src='https://example.org/x.png'>"
            ),
            "chunk1-",
        );
        let Block::Table(t) = &r.blocks[0] else {
            panic!("{:?}", r.blocks)
        };
        assert_eq!(t.caption.as_deref(), Some("Prices"));
        assert!(t.rows[0].header && t.rows[0].cells[0].header);
        assert_eq!(t.rows[1].cells[0].colspan, 2);
        let Block::Paragraph(p) = &t.rows[1].cells[0].blocks[0] else {
            panic!()
        };
        assert!(
            matches!(&p.content[0], Inline::Link { href, .. } if &**href == "https://example.org")
        );
        assert!(
            p.content
                .iter()
                .any(|i| matches!(i, Inline::Image { media, .. } if media == "chunk1-1.png"))
        );
        assert_eq!(r.media.len(), 1);
        assert_eq!(r.media[0].name, "chunk1-1.png");
        let lost: Vec<&str> = r.lost.iter().map(String::as_str).collect();
        assert_eq!(lost, ["img", "input", "video"]);
    }

    #[test]
    fn any_bytes_give_blocks_and_deep_nesting_is_text() {
        let deep = "<div>".repeat(5000) + "deep text" + &"</div>".repeat(5000);
        let r = read(&deep, "c-");
        assert_eq!(
            texts(&r.blocks).last().map(|t| t.2.as_str()),
            Some("deep text")
        );
        for junk in [
            "",
            "<",
            "</p></p><li>",
            "\u{0}\u{FFFF}<<<>>>",
            "<table><td>x",
        ] {
            let _ = read(junk, "c-");
        }
        // A row wider than the tree's tables: cut, and said.
        let wide = format!("<table><tr>{}</tr></table>", "<td>x</td>".repeat(5000));
        let r = read(&wide, "c-");
        let Some(Block::Table(t)) = r.blocks.first() else {
            panic!("{:?}", r.blocks)
        };
        assert_eq!(t.rows[0].cells.len(), crate::limits::MAX_TABLE_COLUMNS);
        assert_eq!(r.lost.len(), 1);
    }
}
