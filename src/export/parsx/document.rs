//! The document frame: `projekt`, `meta`, `werk/hauptteil`, and the `kapitel` each heading
//! opens (with its `u*` title), nested by level.

use super::lists::OpenList;
use super::{NAMESPACE, Writer};
use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{Align, Block, Paragraph, TextType};
use crate::report::{Location, WarningKind};

impl Writer<'_> {
    pub(super) fn document(&mut self) {
        self.out
            .push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let mut attrs = vec![("xmlns", NAMESPACE)];
        // The options' or one of the four API languages as before; another document language
        // (`ar-SA`) as its own tag.
        let tag = match self.language {
            Some(l) => Some(l.bcp47().to_string()),
            None => self.doc.meta.lang_tag(),
        };
        if let Some(tag) = tag.as_deref() {
            attrs.push(("xml:lang", tag));
        }
        self.start_tag("projekt", &attrs, false);
        self.depth = 1;
        self.meta();
        self.open("werk", &[]);
        self.open("hauptteil", &[]);
        self.body();
        self.close("hauptteil");
        self.close("werk");
        self.close("projekt");
        self.out.push('\n');
        if !self.doc.comments.is_empty() {
            self.warn_once(
                "comments",
                WarningKind::Dropped,
                "comments are not written to parsX",
            );
        }
        if self.doc.meta.is_rtl() || self.doc.has_block_lang_dir() {
            self.warn_once(
                "lang-dir",
                WarningKind::Lossy,
                "parsX has no direction, nor languages of paragraphs and tables: the document's \
                 direction and the paragraphs' and tables' own languages and directions are not \
                 written",
            );
        }
    }

    fn meta(&mut self) {
        let meta = &self.doc.meta;
        let title = meta.title.as_deref().filter(|s| !s.is_empty());
        let subtitle = meta.subtitle.as_deref().filter(|s| !s.is_empty());
        let description = meta.description.as_deref().filter(|s| !s.is_empty());
        let creator = meta.creator.as_deref().filter(|s| !s.is_empty());
        let mut dropped = Vec::new();
        if meta.footer.as_deref().is_some_and(|s| !s.is_empty()) {
            dropped.push("footer");
        }
        if !meta.tags.is_empty() {
            dropped.push("tags");
        }
        if meta.supplemental.as_deref().is_some_and(|s| !s.is_empty()) {
            dropped.push("supplemental");
        }
        if !dropped.is_empty() {
            self.report.warn(
                WarningKind::Dropped,
                format!(
                    "parsX meta has no place for: {} (not written)",
                    dropped.join(", ")
                ),
                Location::part("parsx.xml").element("meta"),
            );
        }
        // parsX forbids an empty `meta`, `ausgabe` or `verlag`: write only what has content.
        if title.is_none() && subtitle.is_none() && description.is_none() && creator.is_none() {
            return;
        }
        self.open("meta", &[]);
        if title.is_some() || subtitle.is_some() || description.is_some() {
            self.open("global", &[]);
            if let Some(t) = title {
                self.text_element("titel", t);
            }
            if let Some(s) = subtitle {
                self.text_element("untertitel", s);
            }
            if let Some(d) = description {
                self.open("kurztext", &[]);
                self.text_element("abs", d);
                self.close("kurztext");
            }
            self.close("global");
        }
        if let Some(t) = title {
            self.open("ausgaben", &[]);
            self.open("ausgabe", &[("id", "ausgabe-1")]);
            self.text_element("titel", t);
            self.close("ausgabe");
            self.close("ausgaben");
        }
        if let Some(c) = creator {
            self.open("dokumentation", &[]);
            self.newline();
            self.start_tag("verlag", &[("name", c)], true);
            self.close("dokumentation");
        }
        self.close("meta");
    }

    fn body(&mut self) {
        let doc = self.doc;
        let blocks = &doc.blocks;
        let numbers = number_blocks(blocks);
        // Open `kapitel`s: the heading level each was opened for; `None` is the leading one.
        let mut chapters: Vec<Option<u8>> = Vec::new();
        let mut wrote_chapter = false;
        let mut lists: Vec<OpenList> = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            self.block = i;
            self.path = vec![i];
            let n = numbers.get(i).cloned().unwrap_or_default();
            match block {
                Block::Paragraph(p) if p.kind.is_heading() => {
                    self.close_lists(&mut lists);
                    let level = p.level.min(crate::ast::MAX_LEVEL);
                    while let Some(&top) = chapters.last() {
                        if top.is_none_or(|l| l >= level) {
                            self.close("kapitel");
                            chapters.pop();
                        } else {
                            break;
                        }
                    }
                    let id = self.block_ids.get(&self.path).cloned();
                    let attrs: Vec<(&str, &str)> =
                        id.as_deref().map(|id| ("id", id)).into_iter().collect();
                    self.open("kapitel", &attrs);
                    chapters.push(Some(level));
                    wrote_chapter = true;
                    self.heading(p, &n);
                }
                other => {
                    if chapters.is_empty() && self.emits(other) {
                        self.open("kapitel", &[]);
                        chapters.push(None);
                        wrote_chapter = true;
                    }
                    self.flow_block(other, &n, &mut lists, None);
                }
            }
        }
        self.close_lists(&mut lists);
        while chapters.pop().is_some() {
            self.close("kapitel");
        }
        if !wrote_chapter {
            // `hauptteil` must hold a `kapitel`, and a `kapitel` must hold content.
            self.open("kapitel", &[]);
            self.newline();
            self.start_tag("abs", &[], true);
            self.close("kapitel");
        }
    }

    /// Whether writing `block` outside a list produces an element (page breaks, directories and
    /// images without media or caption only warn).
    fn emits(&self, block: &Block) -> bool {
        match block {
            Block::PageBreak | Block::Directory { .. } => false,
            Block::Image(img) => {
                self.doc.media.contains(&img.media)
                    || img.caption.as_deref().is_some_and(|c| !c.is_empty())
            }
            _ => true,
        }
    }

    fn heading(&mut self, p: &Paragraph, n: &BlockNumber) {
        self.in_item = false;
        let name = format!("u{}", p.level.min(crate::ast::MAX_LEVEL) + 1);
        self.warn_indent(p.indent);
        if p.align != Align::Left {
            self.warn_once(
                "heading-align",
                WarningKind::Lossy,
                "heading alignment is not written (parsX titles have none)",
            );
        }
        self.open(&name, &[]);
        self.open("titel", &[]);
        if p.kind == TextType::HeadingOl {
            if let Some(label) = &n.label {
                self.text_element("zaehler", label);
            }
        }
        self.newline();
        self.out.push_str("<text>");
        let lines = self.prepare(&p.content);
        for (k, line) in lines.iter().enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            self.inlines(line, false);
        }
        self.out.push_str("</text>");
        self.close("titel");
        self.close(&name);
    }

    pub(super) fn warn_indent(&mut self, indent: u8) {
        if indent > 0 && !self.in_item {
            self.warn_once(
                "indent",
                WarningKind::Lossy,
                "paragraph indentation is not written to parsX",
            );
        }
    }
}
