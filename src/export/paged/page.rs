//! Pagination: the page geometry, what a laid-out page holds, and the flow that places lines
//! and boxes top-down, starts new pages, and keeps each page's footnotes at its foot.
//!
//! Coordinates here run top-down from the page's top-left corner in points; the drawing step
//! turns them into PDF's bottom-up space.

use compact_str::CompactString;
use std::collections::HashMap;

use super::lines::{Line, Piece};
use super::structure::{ARTIFACT, Kind, Mark, Structure};
use super::text::{Anchor, Rgb};

/// Paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Paper {
    /// ISO A4, 210 × 297 mm (the default).
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in (chosen through the PDF writer's options).
    #[cfg_attr(not(feature = "pdf"), allow(dead_code))]
    Letter,
}

/// Page size and margins, points.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Geometry {
    pub width: f32,
    pub height: f32,
    pub left: f32,
    pub right: f32,
    pub top: f32,
    pub bottom: f32,
}

impl Geometry {
    pub(crate) fn new(paper: Paper) -> Geometry {
        let (width, height) = match paper {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        };
        // 25 mm all round, as the Word templates' pages.
        let m = 70.87;
        Geometry {
            width,
            height,
            left: m,
            right: m,
            top: m,
            bottom: m,
        }
    }

    pub(crate) fn text_width(&self) -> f32 {
        self.width - self.left - self.right
    }

    pub(crate) fn body_bottom(&self) -> f32 {
        self.height - self.bottom
    }

    pub(crate) fn body_height(&self) -> f32 {
        self.body_bottom() - self.top
    }
}

/// Something drawn on a page (top-down coordinates).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Item {
    /// Text with its baseline at `y`, in `font` (the bundled `face` or a fallback font).
    Text {
        x: f32,
        y: f32,
        text: CompactString,
        face: crate::fonts::metrics::Face,
        size: f32,
        color: Rgb,
        font: crate::fonts::book::FontId,
        /// Shaped glyphs in visual order, each with the byte range of `text` it stands for;
        /// `None`: one glyph per character, through the font's character map.
        glyphs: Option<crate::fonts::shape::Glyphs>,
    },
    /// A filled rectangle; `under` ones are drawn before text (cell shading).
    Fill {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        color: Rgb,
        under: bool,
    },
    /// A straight rule.
    Rule {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        color: Rgb,
    },
    /// A picture by media name, top-left at (x, y).
    Image {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        media: String,
    },
    /// A clickable area, index into the link list.
    Link {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        link: u32,
    },
    /// The page number of `anchor`, right-aligned at `x` (directories; filled in after layout).
    PageNumber {
        x: f32,
        y: f32,
        size: f32,
        anchor: Anchor,
    },
}

/// Where each anchor is: page index and y.
pub(crate) type Anchors = HashMap<Anchor, (usize, f32)>;

/// A laid-out page.
#[derive(Debug, Clone, Default)]
pub(crate) struct Page {
    pub items: Vec<Item>,
    /// Which structure node the items belong to, run by run ([`super::structure`]).
    pub marks: Vec<Mark>,
}

/// An outline (bookmark) entry.
#[derive(Debug, Clone)]
#[cfg_attr(not(feature = "pdf"), allow(dead_code))]
pub(crate) struct OutlineEntry {
    pub level: u8,
    pub title: String,
    pub page: usize,
    pub y: f32,
}

/// The flow: places content down the pages.
pub(crate) struct Flow {
    pub geo: Geometry,
    pub pages: Vec<Page>,
    /// Cursor, top-down.
    pub y: f32,
    /// Whether the current page has body content yet.
    pub used: bool,
    /// Footnote lines laid out, by footnote index (set by the caller before lines cite them).
    pub footnotes: Vec<Vec<Line>>,
    /// Footnote lines on the current page.
    foot: Vec<Line>,
    foot_h: f32,
    /// Footnote lines that did not fit on their page.
    carry: Vec<Line>,
    pub anchors: Anchors,
    pub outline: Vec<OutlineEntry>,
    /// Whether pages keep what is drawn on them. Off when only the positions matter (the Word
    /// writer's TOC page numbers): the pages and anchors come out the same, with no items.
    pub keep_items: bool,
    /// The index of each section's first page (empty for a document without sections).
    pub sections: Vec<usize>,
    /// The document's structure, recorded as content is placed.
    pub tags: Structure,
    /// The structure node (a footnote's) of each line in `foot` and `carry`.
    foot_tags: Vec<u32>,
    carry_tags: Vec<u32>,
}

/// Space between the body and the footnote rule.
const FOOT_GAP: f32 = 10.0;

impl Flow {
    pub(crate) fn new(geo: Geometry) -> Flow {
        Flow {
            geo,
            pages: vec![Page::default()],
            y: geo.top,
            used: false,
            footnotes: Vec::new(),
            foot: Vec::new(),
            foot_h: 0.0,
            carry: Vec::new(),
            anchors: HashMap::new(),
            outline: Vec::new(),
            keep_items: true,
            sections: Vec::new(),
            tags: Structure::default(),
            foot_tags: Vec::new(),
            carry_tags: Vec::new(),
        }
    }

    pub(crate) fn page_index(&self) -> usize {
        self.pages.len() - 1
    }

    /// The lowest y body content may reach on this page.
    pub(crate) fn limit(&self) -> f32 {
        let foot = if self.foot_h > 0.0 {
            self.foot_h + FOOT_GAP
        } else {
            0.0
        };
        self.geo.body_bottom() - foot
    }

    pub(crate) fn room(&self) -> f32 {
        self.limit() - self.y
    }

    pub(crate) fn push(&mut self, item: Item) {
        if !self.keep_items {
            return;
        }
        let page = self.page_index();
        if let Some(p) = self.pages.last_mut() {
            // A new run of items whenever the node they belong to changes.
            let node = self.tags.current;
            if p.marks.last().is_none_or(|m| m.node != node) {
                if node != ARTIFACT {
                    self.tags.mark(node, page, p.marks.len());
                }
                p.marks.push(Mark {
                    start: p.items.len() as u32,
                    node,
                });
            }
            if let Item::Image { x, y, w, h, .. } = &item {
                self.tags.place_figure(node, page, [*x, *y, *w, *h]);
            }
            p.items.push(item);
        }
    }

    /// Starts a new page unless `h` points still fit (or the page is still empty).
    pub(crate) fn need(&mut self, h: f32) {
        if self.used && self.y + h > self.limit() {
            self.new_page();
        }
    }

    /// Ends the page: its footnotes are drawn at its foot.
    pub(crate) fn new_page(&mut self) {
        self.flush_foot();
        self.pages.push(Page::default());
        self.y = self.geo.top;
        self.used = false;
        // Footnote text that did not fit goes on first.
        let carry = std::mem::take(&mut self.carry);
        let carry_tags = std::mem::take(&mut self.carry_tags);
        let mut rest = false;
        for (line, tag) in carry.into_iter().zip(carry_tags) {
            self.add_foot_line(line, tag, &mut rest);
        }
    }

    /// Draws the footnote area of the current page.
    pub(crate) fn flush_foot(&mut self) {
        if self.foot.is_empty() {
            return;
        }
        let top = self.geo.body_bottom() - self.foot_h;
        let left = self.geo.left;
        self.push(Item::Rule {
            x1: left,
            y1: top - FOOT_GAP / 2.0,
            x2: left + 120.0,
            y2: top - FOOT_GAP / 2.0,
            width: 0.5,
            color: [0.3, 0.3, 0.3],
        });
        let mut y = top;
        // Each note's lines belong to its node, wherever the citing text was.
        let outer = self.tags.current;
        let tags = std::mem::take(&mut self.foot_tags);
        for (line, tag) in std::mem::take(&mut self.foot).into_iter().zip(tags) {
            let height = line.height;
            self.tags.current = tag;
            self.draw_line(line, left, y);
            y += height;
        }
        self.tags.current = outer;
        self.foot_h = 0.0;
    }

    /// Adds footnote lines to the page's foot; `tag` is the note's structure node.
    fn add_foot_lines(&mut self, lines: Vec<Line>, tag: u32) {
        let mut rest = false;
        for line in lines {
            self.add_foot_line(line, tag, &mut rest);
        }
    }

    /// One line of [`Flow::add_foot_lines`]; once one is carried (`rest`), the others follow.
    fn add_foot_line(&mut self, line: Line, tag: u32, rest: &mut bool) {
        // The foot takes at most half the body so that text keeps flowing.
        let max = self.geo.body_height() * 0.5;
        if *rest || (self.foot_h + line.height > max && !self.foot.is_empty()) {
            *rest = true;
            self.carry.push(line);
            self.carry_tags.push(tag);
        } else {
            self.foot_h += line.height;
            self.foot.push(line);
            self.foot_tags.push(tag);
        }
    }

    /// The height of the footnotes `line` cites.
    fn notes_height(&self, line: &Line) -> f32 {
        line.notes
            .iter()
            .filter_map(|&n| self.footnotes.get(n))
            .flatten()
            .map(|l| l.height)
            .sum()
    }

    /// Places a line at the cursor, `x` from the page's left edge, with the footnotes it cites.
    pub(crate) fn line(&mut self, mut line: Line, x: f32) {
        let notes_h = self.notes_height(&line);
        let gap = if notes_h > 0.0 && self.foot_h == 0.0 {
            FOOT_GAP
        } else {
            0.0
        };
        let notes_h = notes_h.min(self.geo.body_height() * 0.5);
        if self.used && self.y + line.height + notes_h + gap > self.limit() {
            self.new_page();
        }
        let y = self.y;
        let (height, notes) = (line.height, std::mem::take(&mut line.notes));
        self.draw_line(line, x, y);
        self.y += height;
        self.used = true;
        for n in notes {
            let lines = self.footnotes.get(n).cloned().unwrap_or_default();
            let tag = self.tags.note(n);
            self.add_foot_lines(lines, tag);
        }
    }

    /// Puts the footnotes `notes` on this page's foot (content already placed, e.g. a table row).
    pub(crate) fn cite(&mut self, notes: &[usize]) {
        for &n in notes {
            let lines = self.footnotes.get(n).cloned().unwrap_or_default();
            let tag = self.tags.note(n);
            self.add_foot_lines(lines, tag);
        }
    }

    /// Draws a line's pieces with its top at `y`; their text moves into the page's items.
    pub(crate) fn draw_line(&mut self, line: Line, x: f32, y: f32) {
        if !self.keep_items {
            return;
        }
        let base = y + line.ascent;
        // Pieces that are a node of their own (a link, code, a picture, a list label) open it
        // under the line's node and close it after their items.
        let outer = self.tags.current;
        let inline = outer != ARTIFACT;
        for p in line.pieces {
            match p {
                Piece::Text {
                    x: px,
                    text,
                    style,
                    width,
                    font,
                    glyphs,
                } => {
                    if let (Some(label), true) = (self.tags.label, px < 0.0) {
                        // The marker hangs left of the text: the list entry's label.
                        self.tags.current = label;
                    } else if inline
                        && matches!(self.tags.kind(outer), Some(Kind::TocItem))
                        && text.len() > 1
                        && text.bytes().all(|b| b == b'.' || b == b' ')
                    {
                        // A directory entry's dot leader is decoration, not text to read.
                        self.tags.current = ARTIFACT;
                    } else if let (true, Some(link)) = (inline, style.link) {
                        self.tags.open_link(link);
                    } else if inline && style.face == crate::fonts::metrics::Face::Mono {
                        self.tags.open(Kind::Code);
                    }
                    let tx = x + px;
                    let ty = base - style.rise;
                    self.push(Item::Text {
                        x: tx,
                        y: ty,
                        text,
                        face: style.face,
                        size: style.size,
                        color: style.color,
                        font,
                        glyphs,
                    });
                    let t = (style.size * 0.06).max(0.4);
                    if style.underline {
                        self.push(Item::Fill {
                            x: tx,
                            y: ty + style.size * 0.12,
                            w: width,
                            h: t,
                            color: style.color,
                            under: false,
                        });
                    }
                    if style.strike {
                        self.push(Item::Fill {
                            x: tx,
                            y: ty - style.size * 0.3,
                            w: width,
                            h: t,
                            color: style.color,
                            under: false,
                        });
                    }
                    if let Some(link) = style.link {
                        self.push(Item::Link {
                            x: tx,
                            y: ty - style.size * 0.9,
                            w: width,
                            h: style.size * 1.15,
                            link,
                        });
                    }
                    self.tags.current = outer;
                }
                Piece::Image {
                    x: px,
                    media,
                    width,
                    height,
                } => {
                    if inline {
                        let alt = self.tags.alt.get(&media).cloned();
                        self.tags.open(Kind::Figure {
                            media: media.clone(),
                            alt,
                            bbox: None,
                        });
                    }
                    self.push(Item::Image {
                        x: x + px,
                        y: base - height,
                        w: width,
                        h: height,
                        media,
                    });
                    self.tags.current = outer;
                }
            }
        }
    }

    /// Records where `anchor` is: the current page at the cursor.
    pub(crate) fn anchor(&mut self, anchor: Anchor) {
        let at = (self.page_index(), self.y);
        self.anchors.entry(anchor).or_insert(at);
    }

    /// Places a paragraph's lines with widow and orphan control: at least two lines of a
    /// paragraph stay together at the bottom and at the top of a page.
    pub(crate) fn paragraph(&mut self, lines: Vec<Line>, x: f32) {
        let n = lines.len();
        // The height of the first two and of the last two lines with their footnotes, taken
        // before the lines move into the page.
        let pair = |i: usize| {
            let (line, next) = (&lines[i], &lines[i + 1]);
            line.height + next.height + self.notes_height(line) + self.notes_height(next)
        };
        let first = (n >= 2).then(|| pair(0));
        let last = (n >= 3).then(|| pair(n - 2));
        for (i, line) in lines.into_iter().enumerate() {
            let keep = match i {
                0 => first,
                i if i + 2 == n => last,
                _ => None,
            };
            if let Some(h) = keep
                && h <= self.geo.body_height() * 0.5
            {
                self.need(h);
            }
            self.line(line, x);
        }
    }

    /// Finishes the last page and returns the pages.
    pub(crate) fn finish(self) -> (Vec<Page>, Anchors, Vec<OutlineEntry>) {
        let (pages, anchors, outline, _) = self.finish_with_structure();
        (pages, anchors, outline)
    }

    /// [`Flow::finish`], also returning the structure recorded (complete only now: the last
    /// footnotes are placed here).
    #[cfg_attr(not(feature = "pdf"), allow(dead_code))]
    pub(crate) fn finish_with_structure(
        mut self,
    ) -> (Vec<Page>, Anchors, Vec<OutlineEntry>, Structure) {
        self.flush_foot();
        // Footnote text still waiting gets pages of its own.
        while !self.carry.is_empty() {
            self.new_page();
            self.flush_foot();
        }
        (self.pages, self.anchors, self.outline, self.tags)
    }
}
