//! The document walk: title block, paragraphs (headings with their numbers, lists with hanging
//! markers, captions), pictures kept with their captions, page breaks, directories, then the
//! endnotes and the comments. Tables are in [`super::tables`].

use super::PagedSettings;
use super::bidi::Base;
use super::lines::{Line, Piece, Setting};
use super::page::{Flow, Geometry, Item, OutlineEntry};
use super::structure::{Kind, ROOT};
use super::text::{Anchor, Inliner, RefTarget, Style, Token, plain};
use crate::ast::numbering::{BlockNumber, number_blocks};
use crate::ast::{Align, Block, DirectoryKind, Document, Image, Paragraph, TextType};
use crate::fonts::metrics::Face;
use crate::lang::Language;
use crate::report::{Location, Warning, WarningKind};
use crate::room::Room;

/// Body text size, points.
pub(crate) const BODY: f32 = 10.5;
/// Footnote text size.
const NOTE: f32 = 8.5;
/// Indentation of one `indent` step and of one list level.
const INDENT_STEP: f32 = 14.0;
const LIST_STEP: f32 = 18.0;
/// Space after a paragraph.
const PARA_GAP: f32 = 5.0;

/// A directory entry: level (contents), text, where it points.
#[derive(Debug, Clone)]
pub(crate) struct DirEntry {
    pub level: u8,
    pub text: String,
    pub anchor: Anchor,
}

/// The layout of one document.
pub(crate) struct Layout<'a> {
    pub doc: &'a Document,
    pub settings: PagedSettings,
    pub lang: Language,
    /// The document's language as a BCP 47 tag, for the shaper and the choice of Han glyphs.
    pub text_lang: Option<String>,
    /// Words are hyphenated with their language's patterns: the document asks for it
    /// (`w:autoHyphenation`), or the caller does.
    pub hyphenate: bool,
    pub flow: Flow,
    pub inl: Inliner,
    pub warnings: Vec<Warning>,
    contents: Vec<DirEntry>,
    figures: Vec<DirEntry>,
    tables: Vec<DirEntry>,
    hidden_captions: (usize, usize),
    pub(crate) nested_tables: usize,
    /// The lists open in the structure while list paragraphs follow each other: level, list
    /// node, body node of its last entry (where a deeper list goes).
    lists: Vec<(u8, u32, u32)>,
    /// Room for a paragraph's tokens, kept from one paragraph to the next (up to 4,096).
    token_room: Room<Vec<Token>, 4096>,
}

impl<'a> Layout<'a> {
    pub(crate) fn new(doc: &'a Document, settings: PagedSettings, geo: Geometry) -> Layout<'a> {
        let lang = doc
            .meta
            .language
            .as_deref()
            .and_then(Language::parse)
            .filter(|_| settings.language == Language::default())
            .unwrap_or(settings.language);
        let mut inl = Inliner::default();
        inl.inline_image_max = 120.0;
        let text_lang = doc.meta.language.as_deref().map(|l| l.replace('_', "-"));
        inl.lang = crate::fonts::book::Lang::of(text_lang.as_deref());
        // Pixels at 96 per inch, as Word and browsers size a picture without a size.
        for m in doc.media.iter() {
            if let (Some(w), Some(h)) = (m.width, m.height) {
                inl.image_size
                    .insert(m.name.clone(), (w as f32 * 0.75, h as f32 * 0.75));
            }
        }
        for (i, c) in doc.comments.iter().enumerate() {
            inl.comment_index.entry(c.id.clone()).or_insert(i);
        }
        Layout {
            doc,
            settings,
            lang,
            text_lang,
            hyphenate: doc.meta.hyphenate,
            flow: Flow::new(geo),
            inl,
            warnings: Vec::new(),
            contents: Vec::new(),
            figures: Vec::new(),
            tables: Vec::new(),
            hidden_captions: (0, 0),
            nested_tables: 0,
            lists: Vec::new(),
            token_room: Room::default(),
        }
    }

    pub(crate) fn warn(
        &mut self,
        kind: WarningKind,
        message: impl Into<String>,
        block: Option<usize>,
    ) {
        let mut loc = Location::part("pdf");
        loc.block = block;
        self.warnings.push(Warning::new(kind, message, loc));
    }

    fn geo(&self) -> Geometry {
        self.flow.geo
    }

    /// Lays out the whole document.
    pub(crate) fn run(&mut self) {
        let doc = self.doc;
        // The structure is recorded only when the pages keep what is drawn.
        self.flow.tags.on = self.flow.keep_items;
        if self.flow.tags.on {
            collect_alt(&doc.blocks, &mut self.flow.tags.alt);
        }
        let numbers = number_blocks(&doc.blocks);
        self.collect(&numbers);
        self.title_block();
        for kind in super::directories_on_top(doc, &self.settings) {
            self.directory(kind, None);
        }
        // A section starts on a new page (Word's default section break), where its own page
        // header and footer begin.
        let mut starts = doc.meta.pages.sections.iter().map(|s| s.start).peekable();
        for (i, (block, number)) in doc.blocks.iter().zip(&numbers).enumerate() {
            while starts.next_if(|start| *start <= i).is_some() {
                if self.flow.used && !self.flow.sections.is_empty() {
                    self.flow.new_page();
                }
                self.flow.sections.push(self.flow.page_index());
            }
            self.block(i, block, number);
        }
        self.endnotes();
        self.comments();
        for message in super::hidden_caption_messages(self.hidden_captions) {
            self.warn(WarningKind::Lossy, message, None);
        }
    }

    /// Breaks `tokens` into lines, the direction taken from the text; their pieces are joined
    /// by style only when the pages keep what is drawn on them.
    fn break_lines(
        &self,
        tokens: &mut Vec<Token>,
        width: f32,
        align: Align,
        size: f32,
    ) -> Vec<Line> {
        self.break_lines_in(tokens, width, align, Base::Auto, None, size)
    }

    /// The base direction of a paragraph: its own, else the document's, else its text's.
    pub(crate) fn base_of(&self, dir: Option<crate::ast::Direction>) -> Base {
        match dir.or(self.doc.meta.direction) {
            Some(crate::ast::Direction::Rtl) => Base::Rtl,
            Some(crate::ast::Direction::Ltr) => Base::Ltr,
            None => Base::Auto,
        }
    }

    /// [`Self::break_lines`] in a direction and a language (the document's when `None`).
    fn break_lines_in(
        &self,
        tokens: &mut Vec<Token>,
        width: f32,
        align: Align,
        base: Base,
        lang: Option<&str>,
        size: f32,
    ) -> Vec<Line> {
        let set = Setting {
            align,
            base,
            lang: lang.or(self.text_lang.as_deref()),
            hyphenate: self.hyphenate,
        };
        super::lines::break_lines(tokens, width, set, size, self.flow.keep_items)
    }

    /// Cross-reference targets and directory entries, before layout.
    fn collect(&mut self, numbers: &[BlockNumber]) {
        let doc = self.doc;
        for (i, (block, n)) in doc.blocks.iter().zip(numbers).enumerate() {
            match block {
                Block::Paragraph(p) => {
                    let numbered = matches!(
                        p.kind,
                        TextType::HeadingOl | TextType::ParagraphOl | TextType::ListOl
                    );
                    // Only headings and paragraphs with an id are listed or referred to.
                    if !p.kind.is_heading() && p.id.is_none() {
                        continue;
                    }
                    let label = n.label.clone().filter(|_| numbered);
                    let text = plain(&p.content);
                    if p.kind.is_heading() {
                        let shown = match (&label, p.kind) {
                            (Some(l), TextType::HeadingOl) => format!("{l} {text}"),
                            _ => text.clone(),
                        };
                        self.contents.push(DirEntry {
                            level: p.level,
                            text: shown,
                            anchor: Anchor::Block(i),
                        });
                    }
                    if let Some(id) = &p.id {
                        self.inl
                            .targets
                            .entry(id.clone())
                            .or_insert(RefTarget { label, text });
                    }
                }
                Block::Image(img) => {
                    let caption = img.caption.clone().unwrap_or_default();
                    let label = n.caption.map(|k| format!("{} {k}", self.lang.figure()));
                    if self.settings.image_caption && !caption.is_empty() {
                        self.figures.push(DirEntry {
                            level: 0,
                            text: caption_text(label.as_deref(), &caption),
                            anchor: Anchor::Block(i),
                        });
                    }
                    if let Some(id) = &img.id {
                        self.inl.targets.entry(id.clone()).or_insert(RefTarget {
                            label,
                            text: caption,
                        });
                    }
                }
                Block::Table(t) => {
                    let caption = t.caption.clone().unwrap_or_default();
                    let label = n.caption.map(|k| format!("{} {k}", self.lang.table()));
                    if self.settings.table_caption && !caption.is_empty() {
                        self.tables.push(DirEntry {
                            level: 0,
                            text: caption_text(label.as_deref(), &caption),
                            anchor: Anchor::Block(i),
                        });
                    }
                    if let Some(id) = &t.id {
                        self.inl.targets.entry(id.clone()).or_insert(RefTarget {
                            label,
                            text: caption,
                        });
                    }
                    collect_cell_ids(t, &mut self.inl);
                }
                Block::PageBreak | Block::Directory { .. } => {}
            }
        }
    }

    fn title_block(&mut self) {
        let meta = &self.doc.meta;
        let w = self.geo().text_width();
        let x = self.geo().left;
        let mut any = false;
        for (text, face, size) in [
            (&meta.title, Face::Bold, 22.0),
            (&meta.subtitle, Face::Italic, 14.0),
            (&meta.description, Face::Regular, BODY),
        ] {
            if let Some(t) = text.as_deref().filter(|t| !t.trim().is_empty()) {
                let mut tokens = Vec::new();
                self.inl.text(t, Style::new(face, size), &mut tokens);
                let lines = self.break_lines(&mut tokens, w, Align::Center, size);
                let node = self.flow.tags.open(Kind::Paragraph);
                self.flow.paragraph(lines, x);
                self.flow.tags.close(node);
                self.flow.y += size * 0.5;
                any = true;
            }
        }
        if any {
            self.flow.y += 12.0;
        }
    }

    fn block(&mut self, i: usize, block: &Block, number: &BlockNumber) {
        // A list ends at the first block that is not one of its entries.
        if !matches!(block, Block::Paragraph(p) if p.kind.is_list()) {
            self.lists.clear();
        }
        self.flow.tags.current = ROOT;
        match block {
            Block::Paragraph(p) => self.paragraph(i, p, number),
            Block::Image(img) => self.image(i, img, number),
            Block::Table(t) => self.table(i, t, number),
            Block::PageBreak => {
                if self.flow.used {
                    self.flow.new_page();
                }
            }
            Block::Directory { kind } => self.directory(*kind, Some(i)),
        }
    }

    /// Lays out the footnotes cited so far that have no lines yet.
    pub(crate) fn lay_out_new_notes(&mut self) {
        let w = self.geo().text_width();
        let mut nested = Vec::new();
        while self.flow.footnotes.len() < self.inl.footnotes.len() {
            let n = self.flow.footnotes.len();
            let note = self.inl.footnotes[n].clone();
            let mut tokens = Vec::new();
            let st = Style::new(Face::Regular, NOTE);
            self.inl.text(&format!("{} ", note.mark), st, &mut tokens);
            self.inl.tokens(&note.content, st, &mut tokens);
            // A note cited inside a note goes on the page's foot too, right after it.
            tokens.retain(|t| match t {
                Token::NoteRef(m) => {
                    nested.push((n, *m));
                    false
                }
                _ => true,
            });
            let lines = self.break_lines(&mut tokens, w, Align::Left, NOTE);
            self.flow.footnotes.push(lines);
        }
        // Deepest first: a child's own children are already appended to it.
        for &(parent, child) in nested.iter().rev() {
            let lines = self.flow.footnotes.get(child).cloned().unwrap_or_default();
            if let Some(p) = self.flow.footnotes.get_mut(parent) {
                p.extend(lines);
            }
        }
    }

    /// The lines of a paragraph `width` wide, with its marker (number or bullet) hanging left
    /// of x = 0 on the first line. Returns the lines and the left offset of the text.
    pub(crate) fn paragraph_lines(
        &mut self,
        p: &Paragraph,
        number: &BlockNumber,
        width: f32,
        base_size: f32,
    ) -> (Vec<Line>, f32) {
        let (face, size) = match p.kind {
            TextType::Heading | TextType::HeadingOl => {
                (Face::Bold, heading_size(p.level, base_size))
            }
            TextType::Caption => (Face::Italic, base_size * 0.9),
            _ => (Face::Regular, base_size),
        };
        let style = Style::new(face, size);
        let mut offset = f32::from(p.indent.min(crate::ast::MAX_INDENT)) * INDENT_STEP;
        let mut tokens = self.token_room.take();
        let mut marker: Option<(String, f32)> = None;
        match p.kind {
            TextType::HeadingOl => {
                if let Some(l) = &number.label {
                    self.inl.text(&format!("{l} "), style, &mut tokens);
                }
            }
            TextType::ParagraphOl => {
                if let Some(l) = &number.label {
                    let hang = (crate::fonts::metrics::width(face, size, l) + 8.0).max(24.0);
                    offset += hang;
                    marker = Some((l.clone(), hang));
                }
            }
            TextType::ListOl | TextType::ListUl => {
                offset += f32::from(p.level.min(crate::ast::MAX_LEVEL)) * LIST_STEP + LIST_STEP;
                let m = if p.kind == TextType::ListOl {
                    number.label.as_ref().map(|l| format!("{l}."))
                } else {
                    Some(bullet(p.level).to_string())
                };
                if let Some(m) = m {
                    let hang = (crate::fonts::metrics::width(face, size, &m) + 6.0).max(LIST_STEP);
                    marker = Some((m, hang));
                }
            }
            _ => {}
        }
        // The paragraph's language chooses Han glyph forms and goes to the shaper.
        let doc_lang = self.inl.lang;
        if let Some(l) = p.lang.as_deref() {
            self.inl.lang = crate::fonts::book::Lang::of(Some(l));
        }
        self.inl.tokens(&p.content, style, &mut tokens);
        self.inl.lang = doc_lang;
        let width = (width - offset).max(size * 2.0);
        let align = if p.kind == TextType::Caption && p.align == Align::Left {
            Align::Center
        } else {
            p.align
        };
        let base = self.base_of(p.dir);
        let mut lines =
            self.break_lines_in(&mut tokens, width, align, base, p.lang.as_deref(), size);
        self.token_room.give_back(tokens);
        let rtl = lines.first().is_some_and(|l| l.rtl);
        if let (Some((m, hang)), Some(first)) = (marker, lines.first_mut()) {
            let mut mt = Vec::new();
            self.inl.text(&m, style, &mut mt);
            let marker_w: f32 = mt.iter().map(super::text::token_width).sum();
            // Left of the text's start, or right of it in a right-to-left paragraph.
            let mut x = if rtl { width + hang - marker_w } else { -hang };
            let count = mt.len();
            for (k, t) in mt.into_iter().enumerate() {
                if let Token::Text {
                    text,
                    style,
                    width,
                    font,
                    glyphs,
                } = t
                {
                    let mut piece = Piece::Text {
                        x,
                        text,
                        style,
                        width,
                        font,
                        glyphs,
                    };
                    // The marker is a word of its own in the text layer.
                    if k + 1 == count {
                        super::lines::end_with_space(&mut piece);
                    }
                    first.pieces.insert(0, piece);
                    x += width;
                }
            }
        }
        // A right-to-left paragraph is indented from the right: its text starts at the left
        // edge of the box and stops `offset` short of the right one.
        let offset = if rtl { 0.0 } else { offset };
        self.lay_out_new_notes();
        (lines, offset)
    }

    fn paragraph(&mut self, i: usize, p: &Paragraph, number: &BlockNumber) {
        let w = self.geo().text_width();
        let (lines, offset) = self.paragraph_lines(p, number, w, BODY);
        let heading = p.kind.is_heading();
        if heading {
            let first = lines.first().map_or(BODY, |l| l.height);
            if self.flow.used {
                self.flow.y += heading_size(p.level, BODY) * 0.8;
            }
            // Keep a heading with the first lines of what follows.
            self.flow.need(first + BODY * 1.3 * 3.0);
            self.flow.anchor(Anchor::Block(i));
            if let Some(entry) = self.contents.iter().find(|e| e.anchor == Anchor::Block(i)) {
                let entry = OutlineEntry {
                    level: p.level,
                    title: entry.text.clone(),
                    page: self.flow.page_index(),
                    y: self.flow.y,
                };
                self.flow.outline.push(entry);
            }
        } else {
            self.flow.need(lines.first().map_or(0.0, |l| l.height));
        }
        if let Some(id) = &p.id {
            self.flow.anchor(Anchor::Id(id.clone()));
        }
        let x = self.geo().left + offset;
        self.open_paragraph_node(p);
        if p.lang.is_some() {
            let current = self.flow.tags.current;
            self.flow.tags.set_lang(current, p.lang.clone());
        }
        self.flow.paragraph(lines, x);
        self.flow.tags.label = None;
        self.flow.tags.current = ROOT;
        self.flow.y += if p.kind.is_list() {
            PARA_GAP * 0.4
        } else if heading {
            PARA_GAP * 0.6
        } else {
            PARA_GAP
        };
    }

    /// Makes the structure node a top-level paragraph's lines go into: a heading, a paragraph,
    /// a caption, or the body of a list entry (with its label node for the marker), nested
    /// into the entry before it when its level is deeper.
    fn open_paragraph_node(&mut self, p: &Paragraph) {
        let tags = &mut self.flow.tags;
        if !tags.on {
            return;
        }
        if p.kind.is_heading() {
            let title = plain(&p.content);
            tags.open(Kind::Heading {
                level: p.level,
                title,
            });
            return;
        }
        if !p.kind.is_list() {
            tags.open(if p.kind == TextType::Caption {
                Kind::Caption
            } else {
                Kind::Paragraph
            });
            return;
        }
        let level = p.level;
        while self.lists.last().is_some_and(|&(l, _, _)| l > level) {
            self.lists.pop();
        }
        let list = match self.lists.last() {
            Some(&(l, list, _)) if l == level => list,
            top => {
                let parent = top.map_or(ROOT, |&(_, _, body)| body);
                let ordered = p.kind == TextType::ListOl;
                let list = tags.add(parent, Kind::List { ordered });
                self.lists.push((level, list, ROOT));
                list
            }
        };
        let item = tags.add(list, Kind::ListItem);
        tags.label = Some(tags.add(item, Kind::Label));
        let body = tags.add(item, Kind::ListBody);
        if let Some(top) = self.lists.last_mut() {
            top.2 = body;
        }
        tags.current = body;
    }

    /// Display size of a picture `avail` points wide at most.
    pub(crate) fn image_size(&self, img: &Image, avail: f32) -> (f32, f32) {
        let natural = self.inl.image_size.get(&img.media).copied();
        let (nw, nh) = natural.unwrap_or((avail.min(200.0), 100.0));
        let ratio = if nw > 0.0 { nh / nw } else { 0.75 };
        let mut w = match (img.width_percent, img.extent) {
            (Some(p), _) if p.is_finite() && p > 0.0 => avail * p.min(100.0) / 100.0,
            (_, Some(e)) if e.width > 0 => e.width as f32 / 12700.0,
            _ => nw,
        };
        let ratio = match (img.width_percent, img.extent) {
            (None, Some(e)) if e.width > 0 && e.height > 0 => e.height as f32 / e.width as f32,
            _ => ratio,
        };
        if !w.is_finite() || w <= 0.0 {
            w = avail.min(200.0);
        }
        w = w.min(avail);
        let mut h = w * ratio;
        // Never taller than two thirds of the body, so a caption fits beside it.
        let max_h = self.geo().body_height() * 0.66;
        if h > max_h {
            w *= max_h / h;
            h = max_h;
        }
        (w.max(1.0), h.max(1.0))
    }

    fn caption_lines(
        &mut self,
        label: Option<&str>,
        text: &str,
        width: f32,
        size: f32,
    ) -> Vec<Line> {
        let mut tokens = Vec::new();
        if let Some(l) = label {
            self.inl.text(
                &format!("{l}: "),
                Style::new(Face::BoldItalic, size),
                &mut tokens,
            );
        }
        self.inl
            .text(text, Style::new(Face::Italic, size), &mut tokens);
        self.break_lines(&mut tokens, width, Align::Center, size)
    }

    fn image(&mut self, i: usize, img: &Image, number: &BlockNumber) {
        let geo = self.geo();
        let indent = f32::from(img.indent.min(crate::ast::MAX_INDENT)) * INDENT_STEP;
        let avail = (geo.text_width() - indent).max(20.0);
        let (w, h) = self.image_size(img, avail);
        let caption = img.caption.as_deref().filter(|c| !c.is_empty());
        let caption_lines = match caption {
            Some(c) if self.settings.image_caption => {
                let label = number
                    .caption
                    .map(|k| format!("{} {k}", self.lang.figure()));
                self.caption_lines(label.as_deref(), c, avail, BODY * 0.9)
            }
            Some(_) => {
                self.hidden_captions.0 += 1;
                Vec::new()
            }
            None => Vec::new(),
        };
        let cap_h: f32 = caption_lines.iter().map(|l| l.height).sum();
        // Picture and caption stay on one page.
        self.flow.need(h + cap_h + 6.0);
        self.flow.anchor(Anchor::Block(i));
        if let Some(id) = &img.id {
            self.flow.anchor(Anchor::Id(id.clone()));
        }
        let x = geo.left
            + indent
            + match img.align {
                Align::Center => (avail - w) / 2.0,
                Align::Right => avail - w,
                _ => 0.0,
            };
        let y = self.flow.y;
        // PDF/UA: a picture is described by its alt text, else by its caption.
        let alt = img
            .alt
            .as_deref()
            .filter(|a| !a.trim().is_empty())
            .or(caption)
            .map(str::to_string);
        let figure = self.flow.tags.open(Kind::Figure {
            media: img.media.clone(),
            alt,
            bbox: None,
        });
        self.flow.push(Item::Image {
            x,
            y,
            w,
            h,
            media: img.media.clone(),
        });
        self.flow.tags.close(figure);
        self.flow.y += h + 4.0;
        self.flow.used = true;
        if !caption_lines.is_empty() {
            let node = self.flow.tags.open(Kind::Caption);
            for l in caption_lines {
                self.flow.line(l, geo.left + indent);
            }
            self.flow.tags.close(node);
        }
        self.flow.y += PARA_GAP + 2.0;
    }

    fn directory(&mut self, kind: DirectoryKind, block: Option<usize>) {
        let (title, entries) = match kind {
            DirectoryKind::Content => (self.lang.contents(), self.contents.clone()),
            DirectoryKind::Images => {
                if !self.settings.image_caption {
                    self.warn(
                        WarningKind::Lossy,
                        "a list of figures without image captions (imageCaption) has no entries",
                        block,
                    );
                }
                (self.lang.list_of_figures(), self.figures.clone())
            }
            DirectoryKind::Tables => {
                if !self.settings.table_caption {
                    self.warn(
                        WarningKind::Lossy,
                        "a list of tables without table captions (tableCaption) has no entries",
                        block,
                    );
                }
                (self.lang.list_of_tables(), self.tables.clone())
            }
            other => {
                self.warn(
                    WarningKind::Dropped,
                    format!(
                        "a generated list of {} is not drawn in PDF; left out",
                        other.as_str()
                    ),
                    block,
                );
                return;
            }
        };
        let geo = self.geo();
        let mut tokens = Vec::new();
        self.inl.text(
            title,
            Style::new(Face::Bold, heading_size(0, BODY)),
            &mut tokens,
        );
        let lines = self.break_lines(&mut tokens, geo.text_width(), Align::Left, BODY);
        if self.flow.used {
            self.flow.y += BODY;
        }
        self.flow
            .need(lines.iter().map(|l| l.height).sum::<f32>() + BODY * 4.0);
        let node = self.flow.tags.open(Kind::Paragraph);
        self.flow.paragraph(lines, geo.left);
        self.flow.tags.close(node);
        self.flow.y += PARA_GAP;
        let toc = self.flow.tags.open(Kind::Toc);
        // The page number column: wide enough for five digits.
        let num_w = crate::fonts::metrics::width(Face::Regular, BODY, "00000");
        for e in entries {
            let indent = f32::from(e.level.min(crate::ast::MAX_LEVEL)) * LIST_STEP;
            let face = if kind == DirectoryKind::Content && e.level == 0 {
                Face::Bold
            } else {
                Face::Regular
            };
            let link = self.inl.links.len() as u32;
            self.inl
                .links
                .push(super::text::LinkTarget::Anchor(e.anchor.clone()));
            let mut st = Style::new(face, BODY);
            st.link = Some(link);
            let mut tokens = Vec::new();
            self.inl.text(&e.text, st, &mut tokens);
            let text_w = geo.text_width() - indent - num_w - 8.0;
            let mut lines = self.break_lines(&mut tokens, text_w, Align::Left, BODY);
            let x = geo.left + indent;
            let right = geo.left + geo.text_width();
            // Dot leaders from the end of the text to the number column, on lines that are
            // drawn (a line only measured has no pieces to end them after).
            if let Some(last) = lines.last_mut().filter(|_| self.flow.keep_items) {
                let start = last.used_width() + 4.0;
                let end = geo.text_width() - indent - num_w;
                let dot = crate::fonts::metrics::width(Face::Regular, BODY, ". ");
                let n = ((end - start) / dot).floor();
                if n >= 1.0 {
                    let dots = ". ".repeat(n as usize);
                    let dots_w = crate::fonts::metrics::width(Face::Regular, BODY, &dots);
                    last.pieces.push(Piece::Text {
                        x: end - dots_w,
                        text: dots.into(),
                        style: Style::new(Face::Regular, BODY),
                        width: dots_w,
                        font: crate::fonts::book::FontId::of(Face::Regular),
                        glyphs: None,
                    });
                }
            }
            let total: f32 = lines.iter().map(|l| l.height).sum();
            self.flow.need(total);
            let last_top = self.flow.y + total - lines.last().map_or(0.0, |l| l.height);
            let ascent = lines.last().map_or(BODY, |l| l.ascent);
            let item = self.flow.tags.open(Kind::TocItem);
            for l in lines {
                self.flow.line(l, x);
            }
            let base = last_top + ascent;
            let number = self.flow.tags.open(Kind::Link);
            self.flow.push(Item::PageNumber {
                x: right,
                y: base,
                size: BODY,
                anchor: e.anchor.clone(),
            });
            self.flow.push(Item::Link {
                x: right - num_w,
                y: base - BODY,
                w: num_w,
                h: BODY * 1.3,
                link,
            });
            self.flow.tags.close(number);
            self.flow.tags.close(item);
            self.flow.y += 2.0;
        }
        self.flow.tags.close(toc);
        self.flow.y += PARA_GAP * 2.0;
    }

    fn endnotes(&mut self) {
        if self.inl.endnotes.is_empty() {
            return;
        }
        let geo = self.geo();
        self.section_title(self.lang.endnotes());
        let mut n = 0;
        while n < self.inl.endnotes.len() {
            let note = self.inl.endnotes[n].clone();
            let mut tokens = Vec::new();
            let st = Style::new(Face::Regular, BODY * 0.9);
            self.inl.text(&format!("{}. ", note.mark), st, &mut tokens);
            self.inl.tokens(&note.content, st, &mut tokens);
            let lines = self.break_lines(&mut tokens, geo.text_width(), Align::Left, BODY * 0.9);
            self.lay_out_new_notes();
            self.flow.need(lines.first().map_or(0.0, |l| l.height));
            self.flow.anchor(Anchor::Endnote(n));
            self.flow.tags.current = ROOT;
            let node = self.flow.tags.open(Kind::Note);
            self.flow.paragraph(lines, geo.left);
            self.flow.tags.close(node);
            self.flow.y += PARA_GAP * 0.6;
            n += 1;
        }
    }

    fn comments(&mut self) {
        if self.doc.comments.is_empty() {
            return;
        }
        let geo = self.geo();
        self.section_title(self.lang.comments());
        for (i, c) in self.doc.comments.iter().enumerate() {
            let mut head = format!("[C{}]", i + 1);
            if let Some(a) = c.author.as_deref().filter(|a| !a.is_empty()) {
                head.push(' ');
                head.push_str(a);
            }
            if let Some(d) = c.date.as_deref().filter(|d| !d.is_empty()) {
                head.push_str(&format!(" ({d})"));
            }
            head.push_str(": ");
            let mut tokens = Vec::new();
            let size = BODY * 0.9;
            self.inl
                .text(&head, Style::new(Face::Bold, size), &mut tokens);
            self.inl
                .tokens(&c.content, Style::new(Face::Regular, size), &mut tokens);
            let lines = self.break_lines(&mut tokens, geo.text_width(), Align::Left, size);
            self.lay_out_new_notes();
            self.flow.need(lines.first().map_or(0.0, |l| l.height));
            self.flow.anchor(Anchor::Comment(i));
            self.flow.tags.current = ROOT;
            let node = self.flow.tags.open(Kind::Paragraph);
            self.flow.paragraph(lines, geo.left);
            self.flow.tags.close(node);
            self.flow.y += PARA_GAP * 0.6;
        }
    }

    fn section_title(&mut self, title: &str) {
        let geo = self.geo();
        let mut tokens = Vec::new();
        self.inl.text(
            title,
            Style::new(Face::Bold, heading_size(1, BODY)),
            &mut tokens,
        );
        let lines = self.break_lines(&mut tokens, geo.text_width(), Align::Left, BODY);
        if self.flow.used {
            self.flow.y += BODY * 1.5;
        }
        self.flow
            .need(lines.iter().map(|l| l.height).sum::<f32>() + BODY * 4.0);
        self.flow.tags.current = ROOT;
        let node = self.flow.tags.open(Kind::Paragraph);
        self.flow.paragraph(lines, geo.left);
        self.flow.tags.close(node);
        self.flow.y += PARA_GAP;
    }

    /// Caption label for tables in the export language.
    pub(crate) fn table_label(&self, number: &BlockNumber) -> Option<String> {
        number.caption.map(|k| format!("{} {k}", self.lang.table()))
    }

    /// Lines of a table caption (above the table).
    pub(crate) fn table_caption(
        &mut self,
        caption: Option<&str>,
        number: &BlockNumber,
        width: f32,
    ) -> Vec<Line> {
        match caption.filter(|c| !c.is_empty()) {
            Some(c) if self.settings.table_caption => {
                let label = self.table_label(number);
                self.caption_lines(label.as_deref(), c, width, BODY * 0.9)
            }
            Some(_) => {
                self.hidden_captions.1 += 1;
                Vec::new()
            }
            None => Vec::new(),
        }
    }
}

fn collect_cell_ids(t: &crate::ast::Table, inl: &mut Inliner) {
    for row in &t.rows {
        for cell in &row.cells {
            for b in &cell.blocks {
                match b {
                    Block::Paragraph(p) => {
                        if let Some(id) = &p.id {
                            inl.targets.entry(id.clone()).or_insert(RefTarget {
                                label: None,
                                text: plain(&p.content),
                            });
                        }
                    }
                    Block::Table(inner) => collect_cell_ids(inner, inl),
                    _ => {}
                }
            }
        }
    }
}

/// The description of every picture by media name, for the structure's figures: its alt text,
/// else its caption (the first picture of a name that has one wins).
fn collect_alt(blocks: &[Block], out: &mut std::collections::HashMap<String, String>) {
    fn describe(
        media: &str,
        alt: Option<&str>,
        caption: Option<&str>,
        out: &mut std::collections::HashMap<String, String>,
    ) {
        let text = alt
            .filter(|a| !a.trim().is_empty())
            .or(caption.filter(|c| !c.trim().is_empty()));
        if let Some(t) = text {
            out.entry(media.to_string())
                .or_insert_with(|| t.to_string());
        }
    }
    fn inlines(list: &[crate::ast::Inline], out: &mut std::collections::HashMap<String, String>) {
        for i in list {
            match i {
                crate::ast::Inline::Image {
                    media,
                    alt,
                    caption,
                } => describe(media, alt.as_deref(), caption.as_deref(), out),
                crate::ast::Inline::Note { content, .. } => inlines(content, out),
                other => {
                    if let Some(children) = other.children() {
                        inlines(children, out);
                    }
                }
            }
        }
    }
    for b in blocks {
        match b {
            Block::Paragraph(p) => inlines(&p.content, out),
            Block::Image(img) => {
                describe(&img.media, img.alt.as_deref(), img.caption.as_deref(), out);
            }
            Block::Table(t) => {
                for cell in t.rows.iter().flat_map(|r| &r.cells) {
                    collect_alt(&cell.blocks, out);
                }
            }
            Block::PageBreak | Block::Directory { .. } => {}
        }
    }
}

fn caption_text(label: Option<&str>, caption: &str) -> String {
    match label {
        Some(l) => format!("{l}: {caption}"),
        None => caption.to_string(),
    }
}

/// Heading sizes by level.
pub(crate) fn heading_size(level: u8, base: f32) -> f32 {
    base * [1.65, 1.4, 1.22, 1.1, 1.05, 1.0][usize::from(level.min(5))]
}

fn bullet(level: u8) -> &'static str {
    ["•", "◦", "▪"][usize::from(level % 3)]
}
