//! Laid-out pages → krilla drawing: shading, pictures (or a placeholder box), rules, text,
//! underline and strike rules, the running footer (`meta.footer` and "page N of M"), the
//! document's page headers and footers, the page numbers of directory entries, and link
//! annotations.
//!
//! Every piece of content is marked: what belongs to a structure node (text, pictures,
//! directory page numbers) in a marked-content section whose identifier goes to that node's
//! mark ([`super::tags`]), everything else (rules, fills, page headers and footers, repeated
//! table headers) as an artifact. All marking goes through [`Sections`], which closes one
//! section before it opens the next and closes the last at the end of the page, so sections
//! are never nested or left open (krilla panics on either).

use std::collections::HashMap;

use krilla::action::{Action, LinkAction};
use krilla::annotation::{Annotation, LinkAnnotation, Target};
use krilla::color::rgb;
use krilla::destination::{Destination, XyzDestination};
use krilla::geom::{PathBuilder, Point, Quadrilateral, Rect, Size, Transform};
use krilla::image::Image;
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::tagging::{Artifact, ArtifactType, ContentTag, Identifier, SpanTag};

use super::glyphs::{self, Fonts};
use super::tags::MarkIds;
use crate::ast::Pages;
use crate::ast::pages::PageSide;
use crate::export::paged::lines::{Piece, plain_line};
use crate::export::paged::page::{Geometry, Item, Page};
use crate::export::paged::structure::ARTIFACT;
use crate::export::paged::text::{Anchor, LinkTarget, Rgb};
use crate::fonts::book::FontId;
use crate::fonts::metrics::{self as fonts, Face};
use crate::fonts::shape::Glyph;

/// What the drawing needs besides the pages.
pub(crate) struct Context<'a> {
    pub geo: Geometry,
    pub anchors: &'a HashMap<Anchor, (usize, f32)>,
    pub links: &'a [LinkTarget],
    /// The image per media name; `None` = draw a placeholder.
    pub images: &'a HashMap<String, Option<Image>>,
    pub footer: Option<&'a str>,
    pub page_label: &'a dyn Fn(usize, usize) -> String,
    /// The document's page headers and footers, and the first page of each section.
    pub pages: &'a Pages,
    pub section_pages: &'a [usize],
}

/// What the document's own headers and footers put on one page.
struct PageTexts {
    header: Option<Vec<String>>,
    footer: Option<Vec<String>>,
    /// Whether the document has footers of its own (then no running footer is drawn).
    has_footers: bool,
}

/// The header and footer lines of page `index` (of `total`), numbers filled in.
fn page_texts(cx: &Context<'_>, index: usize, total: usize) -> PageTexts {
    let pages = cx.pages;
    let has_footers = pages.sections.iter().any(|s| !s.footer.is_empty());
    let k = cx.section_pages.iter().rposition(|first| *first <= index);
    let (Some(k), Some(section)) = (k, k.and_then(|k| pages.sections.get(k))) else {
        return PageTexts {
            header: None,
            footer: None,
            has_footers,
        };
    };
    let first = cx.section_pages[k];
    let next = cx.section_pages.get(k + 1).copied().unwrap_or(total);
    let side = PageSide {
        first: index == first,
        even: (index + 1) % 2 == 0,
    };
    let numbers = Some((index + 1, total, next.saturating_sub(first)));
    let lines = |footer| {
        pages
            .chosen(section, footer, side)
            .map(|t| t.lines(numbers))
    };
    PageTexts {
        header: lines(false),
        footer: lines(true),
        has_footers,
    }
}

/// Draws every page into `doc`; returns the identifiers of each page's marks (for the tag
/// tree).
pub(crate) fn draw(
    doc: &mut krilla::Document,
    pages: &[Page],
    cx: &Context<'_>,
    fonts: &mut Fonts,
) -> MarkIds {
    let total = pages.len();
    let mut all = Vec::with_capacity(total);
    let size = Size::from_wh(cx.geo.width, cx.geo.height);
    for (i, page) in pages.iter().enumerate() {
        let settings = match size {
            Some(s) => PageSettings::new(s),
            None => PageSettings::default(),
        };
        let mut pdf_page = doc.start_page_with(settings);
        let mut ids: Vec<Vec<Identifier>> = vec![Vec::new(); page.marks.len()];
        let mark_of = marks_of(page);
        {
            let mut surface = pdf_page.surface();
            let mut d = Drawer {
                s: &mut surface,
                fonts,
                sections: Sections::default(),
                ids: &mut ids,
            };
            d.page(page, &mark_of, i, total, cx);
            d.sections.end(d.s);
            surface.finish();
        }
        // Link annotations, each in its link's node (a link drawn again as an artifact, in a
        // repeated table header, is left out: its first drawing links).
        // Each link's pieces on one line (a justified line draws each word apart) make one
        // area, so an address is not written again for every word.
        let mut areas: Vec<LinkArea> = Vec::new();
        for (k, item) in page.items.iter().enumerate() {
            let Item::Link { x, y, w, h, link } = *item else {
                continue;
            };
            let Some(m) = mark_of.get(k).copied() else {
                continue;
            };
            let Some(node) = page
                .marks
                .get(m as usize)
                .map(|m| m.node)
                .filter(|n| *n != ARTIFACT)
            else {
                continue;
            };
            if !(x.is_finite() && y.is_finite() && w.is_finite() && h.is_finite()) {
                continue;
            }
            match areas.last_mut() {
                Some(a) if a.node == node && a.link == link && a.y == y && a.h == h => {
                    a.left = a.left.min(x);
                    a.right = a.right.max(x + w);
                }
                _ => areas.push(LinkArea {
                    node,
                    mark: m,
                    link,
                    left: x,
                    right: x + w,
                    y,
                    h,
                }),
            }
        }
        let mut long: Vec<LongLink> = Vec::new();
        for a in areas {
            let Some(rect) = area(a.left, a.y, a.right - a.left, a.h) else {
                continue;
            };
            if is_long(cx, a.link) {
                match long
                    .iter_mut()
                    .find(|l| l.node == a.node && l.link == a.link)
                {
                    Some(l) => l.areas.push(rect.into()),
                    None => long.push(LongLink {
                        node: a.node,
                        mark: a.mark,
                        link: a.link,
                        areas: vec![rect.into()],
                    }),
                }
                continue;
            }
            if let Some((target, alt)) = target(a.link, cx, total) {
                let annotation = Annotation::new_link(LinkAnnotation::new(rect, target), Some(alt));
                let id = pdf_page.add_tagged_annotation(annotation);
                if let Some(list) = ids.get_mut(a.mark as usize) {
                    list.push(id);
                }
            }
        }
        for l in long {
            if let Some((target, alt)) = target(l.link, cx, total) {
                let a = LinkAnnotation::new_with_quad_points(l.areas, target);
                let id = pdf_page.add_tagged_annotation(Annotation::new_link(a, Some(alt)));
                if let Some(list) = ids.get_mut(l.mark as usize) {
                    list.push(id);
                }
            }
        }
        pdf_page.finish();
        all.push(ids);
    }
    all
}

/// The mark each item belongs to (its index in `page.marks`).
fn marks_of(page: &Page) -> Vec<u32> {
    let mut out = Vec::with_capacity(page.items.len());
    let mut m = 0usize;
    for k in 0..page.items.len() {
        while page
            .marks
            .get(m + 1)
            .is_some_and(|next| next.start as usize <= k)
        {
            m += 1;
        }
        out.push(m as u32);
    }
    out
}

/// Addresses longer than this are written once per page and node, in one annotation over all
/// the link's lines there (`QuadPoints`), not in an annotation per line: each annotation holds
/// the address twice (its action and its description), and a link whose text runs over
/// hundreds of lines would repeat a long one hundreds of times. Shorter ones keep an annotation
/// per line, which every viewer reads (some take only an annotation's bounding box, which for
/// an area over several lines covers text beside the link too).
const LONG_URI: usize = 512;

/// A link's pieces on one line, in one structure node: its clickable area.
struct LinkArea {
    node: u32,
    mark: u32,
    link: u32,
    left: f32,
    right: f32,
    y: f32,
    h: f32,
}

/// One long address's lines on a page, in one structure node (each line is a mark of its own:
/// the annotation goes with the first).
struct LongLink {
    node: u32,
    mark: u32,
    link: u32,
    areas: Vec<Quadrilateral>,
}

/// Whether link `link` goes to an address longer than [`LONG_URI`].
fn is_long(cx: &Context<'_>, link: u32) -> bool {
    matches!(cx.links.get(link as usize), Some(LinkTarget::Uri(u)) if u.len() > LONG_URI)
}

/// The clickable area of a link's piece, when it has finite bounds.
fn area(x: f32, y: f32, w: f32, h: f32) -> Option<Rect> {
    if !(x.is_finite() && y.is_finite() && w.is_finite() && h.is_finite()) {
        return None;
    }
    Rect::from_xywh(x, y, w.max(1.0), h.max(1.0))
}

/// Where link `link` goes, with its description (PDF/UA wants one).
fn target(link: u32, cx: &Context<'_>, total: usize) -> Option<(Target, String)> {
    Some(match cx.links.get(link as usize)? {
        LinkTarget::Uri(u) => (
            Target::Action(Action::Link(LinkAction::new(u.clone()))),
            u.clone(),
        ),
        LinkTarget::Anchor(a) => {
            let (page, ay) = *cx.anchors.get(a)?;
            if page >= total {
                return None;
            }
            let dest = XyzDestination::new(page, Point::from_xy(0.0, (ay - 4.0).max(0.0)));
            (
                Target::Destination(Destination::Xyz(dest)),
                (cx.page_label)(page + 1, total),
            )
        }
    })
}

/// The marked-content section open on the surface.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    /// Content of a structure node's mark.
    Mark(u32),
    /// An artifact of this kind.
    Artifact(Kind),
}

/// The artifacts drawn: layout decoration, a page's header, its footer (and page number).
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Layout,
    Header,
    Footer,
}

/// The open section, if any. Opening another closes it first; [`Sections::end`] closes it.
#[derive(Default)]
struct Sections {
    open: Option<Section>,
}

impl Sections {
    /// Makes `want` the open section; returns the identifier of a new content section.
    fn switch(&mut self, s: &mut Surface<'_>, want: Section, text: bool) -> Option<Identifier> {
        if self.open == Some(want) {
            return None;
        }
        self.end(s);
        self.open = Some(want);
        match want {
            Section::Mark(_) => Some(s.start_tagged(if text {
                ContentTag::Span(SpanTag::empty())
            } else {
                ContentTag::Other
            })),
            Section::Artifact(kind) => {
                let kind = match kind {
                    Kind::Layout => ArtifactType::Layout,
                    Kind::Header => ArtifactType::Header,
                    Kind::Footer => ArtifactType::Footer,
                };
                s.start_tagged(ContentTag::Artifact(Artifact::with_kind(kind)));
                None
            }
        }
    }

    fn end(&mut self, s: &mut Surface<'_>) {
        if self.open.take().is_some() {
            s.end_tagged();
        }
    }
}

struct Drawer<'s, 'p, 'f, 'i> {
    s: &'s mut Surface<'p>,
    fonts: &'f mut Fonts,
    sections: Sections,
    ids: &'i mut Vec<Vec<Identifier>>,
}

/// The width of a line of plain text in the regular face.
fn plain_width(text: &str, size: f32) -> f32 {
    plain_line(text, Face::Regular, size).1
}

fn color(c: Rgb) -> rgb::Color {
    let b = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    rgb::Color::new(b(c[0]), b(c[1]), b(c[2]))
}

const GREY: Rgb = [0.35, 0.35, 0.35];

impl Drawer<'_, '_, '_, '_> {
    /// Opens the section item `k` belongs to: its mark's, or an artifact when its mark is
    /// outside the structure or the item is decoration (`content` false).
    fn enter(&mut self, page: &Page, mark_of: &[u32], k: usize, content: bool, text: bool) {
        let m = mark_of.get(k).copied();
        let node = m.and_then(|m| page.marks.get(m as usize)).map(|m| m.node);
        let want = match (m, node) {
            (Some(m), Some(node)) if content && node != ARTIFACT => Section::Mark(m),
            _ => Section::Artifact(Kind::Layout),
        };
        if let Some(id) = self.sections.switch(self.s, want, text)
            && let Section::Mark(m) = want
            && let Some(list) = self.ids.get_mut(m as usize)
        {
            list.push(id);
        }
    }

    fn page(&mut self, page: &Page, mark_of: &[u32], index: usize, total: usize, cx: &Context) {
        // Cell shading under everything.
        for (k, item) in page.items.iter().enumerate() {
            if let Item::Fill {
                x,
                y,
                w,
                h,
                color,
                under: true,
            } = item
            {
                self.enter(page, mark_of, k, false, false);
                self.fill_rect(*x, *y, *w, *h, *color);
            }
        }
        for (k, item) in page.items.iter().enumerate() {
            match item {
                Item::Image { x, y, w, h, media } => {
                    self.enter(page, mark_of, k, true, false);
                    match cx.images.get(media).cloned().flatten() {
                        Some(img) => self.image(img, *x, *y, *w, *h),
                        None => self.placeholder(*x, *y, *w, *h, media),
                    }
                }
                Item::Rule {
                    x1,
                    y1,
                    x2,
                    y2,
                    width,
                    color,
                } => {
                    self.enter(page, mark_of, k, false, false);
                    self.rule(*x1, *y1, *x2, *y2, *width, *color);
                }
                _ => {}
            }
        }
        for (k, item) in page.items.iter().enumerate() {
            match item {
                Item::Text {
                    x,
                    y,
                    text,
                    size,
                    color,
                    font,
                    glyphs,
                    ..
                } => {
                    self.enter(page, mark_of, k, true, true);
                    self.text(*x, *y, text, *font, glyphs.as_deref(), *size, *color);
                }
                Item::PageNumber { x, y, size, anchor } => {
                    if let Some((p, _)) = cx.anchors.get(anchor) {
                        self.enter(page, mark_of, k, true, true);
                        let s = (p + 1).to_string();
                        let w = fonts::width(Face::Regular, *size, &s);
                        self.plain(x - w, *y, &s, *size, [0.0; 3]);
                    }
                }
                _ => {}
            }
        }
        let geo = cx.geo;
        let fy = geo.height - geo.bottom + 28.0;
        // The document's own header and footer, as Word shows them on this page.
        let own = page_texts(cx, index, total);
        if let Some(header) = &own.header {
            self.sections
                .switch(self.s, Section::Artifact(Kind::Header), true);
            let lines = header.len() as f32;
            for (k, line) in header.iter().enumerate() {
                let y = geo.top - 20.0 - (lines - 1.0 - k as f32) * 11.0;
                self.page_line(geo, y, line);
            }
        }
        self.sections
            .switch(self.s, Section::Artifact(Kind::Footer), true);
        if own.has_footers {
            for (k, line) in own.footer.iter().flatten().enumerate() {
                self.page_line(geo, fy + k as f32 * 11.0, line);
            }
        } else {
            self.running_footer(geo, fy, index, total, cx);
            self.rule(
                geo.left,
                fy - 11.0,
                geo.width - geo.right,
                fy - 11.0,
                0.4,
                [0.6; 3],
            );
        }
        for (k, item) in page.items.iter().enumerate() {
            if let Item::Fill {
                x,
                y,
                w,
                h,
                color,
                under: false,
            } = item
            {
                self.enter(page, mark_of, k, false, false);
                self.fill_rect(*x, *y, *w, *h, *color);
            }
        }
    }

    /// The running footer of a document without footers of its own: `meta.footer` on the
    /// left, "page N of M" on the right.
    fn running_footer(
        &mut self,
        geo: Geometry,
        fy: f32,
        index: usize,
        total: usize,
        cx: &Context<'_>,
    ) {
        let label = (cx.page_label)(index + 1, total);
        let size = 8.5;
        let lw = plain_width(&label, size);
        self.plain(geo.width - geo.right - lw, fy, &label, size, GREY);
        if let Some(f) = cx.footer {
            // Shortened with an ellipsis when it would run into the page number.
            let room = geo.text_width() - lw - 12.0;
            let mut t: String = f.split_whitespace().collect::<Vec<_>>().join(" ");
            while !t.is_empty() && plain_width(&t, size) > room {
                t.pop();
                while t.ends_with(' ') {
                    t.pop();
                }
                if plain_width(&format!("{t}…"), size) <= room {
                    t.push('…');
                    break;
                }
            }
            self.plain(geo.left, fy, &t, size, GREY);
        }
    }

    /// One line of a page header or footer: `\t` splits it into a left, a centred and a
    /// right-aligned part, as Word's Header and Footer styles place their tab stops.
    fn page_line(&mut self, geo: Geometry, y: f32, line: &str) {
        let size = 8.5;
        let parts: Vec<&str> = line.splitn(3, '\t').map(str::trim).collect();
        for (k, part) in parts.iter().enumerate() {
            let (pieces, w) = plain_line(part, Face::Regular, size);
            let x = match (k, parts.len()) {
                (0, _) => geo.left,
                (1, 2) | (2, _) => geo.width - geo.right - w,
                _ => geo.left + (geo.text_width() - w) / 2.0,
            };
            self.pieces(x, y, pieces, size, GREY);
        }
    }

    /// Plain text (page furniture, placeholders) with its left end at `x`: fonts found,
    /// shaped, in visual order.
    fn plain(&mut self, x: f32, y: f32, text: &str, size: f32, c: Rgb) {
        let (pieces, _) = plain_line(text, Face::Regular, size);
        self.pieces(x, y, pieces, size, c);
    }

    fn pieces(&mut self, x: f32, y: f32, pieces: Vec<Piece>, size: f32, c: Rgb) {
        for p in pieces {
            if let Piece::Text {
                x: px,
                text,
                font,
                glyphs,
                ..
            } = p
            {
                self.text(x + px, y, &text, font, glyphs.as_deref(), size, c);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn text(
        &mut self,
        x: f32,
        y: f32,
        text: &str,
        font: FontId,
        shaped: Option<&[Glyph]>,
        size: f32,
        c: Rgb,
    ) {
        if text.is_empty() || !x.is_finite() || !y.is_finite() || !size.is_finite() || size <= 0.0 {
            return;
        }
        let Some(run) = glyphs::run(self.fonts, text, font, shaped) else {
            return;
        };
        self.s.set_fill(Some(Fill {
            paint: color(c).into(),
            ..Fill::default()
        }));
        self.s.set_stroke(None);
        self.s.draw_glyphs(
            Point::from_xy(x, y),
            &run.glyphs,
            run.font,
            text,
            size,
            false,
        );
    }

    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgb) {
        let Some(rect) = Rect::from_xywh(x, y, w, h) else {
            return;
        };
        let mut pb = PathBuilder::new();
        pb.push_rect(rect);
        let Some(path) = pb.finish() else {
            return;
        };
        self.s.set_fill(Some(Fill {
            paint: color(c).into(),
            ..Fill::default()
        }));
        self.s.set_stroke(None);
        self.s.draw_path(&path);
    }

    fn rule(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width: f32, c: Rgb) {
        if ![x1, y1, x2, y2, width].iter().all(|v| v.is_finite()) {
            return;
        }
        let mut pb = PathBuilder::new();
        pb.move_to(x1, y1);
        pb.line_to(x2, y2);
        let Some(path) = pb.finish() else {
            return;
        };
        self.s.set_fill(None);
        self.s.set_stroke(Some(Stroke {
            paint: color(c).into(),
            width,
            ..Stroke::default()
        }));
        self.s.draw_path(&path);
    }

    fn image(&mut self, img: Image, x: f32, y: f32, w: f32, h: f32) {
        let Some(size) = Size::from_wh(w, h) else {
            return;
        };
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        self.s.push_transform(&Transform::from_translate(x, y));
        self.s.draw_image(img, size);
        self.s.pop();
    }

    fn placeholder(&mut self, x: f32, y: f32, w: f32, h: f32, name: &str) {
        self.fill_rect(x, y, w, h, [0.93, 0.93, 0.93]);
        for (ax, ay, bx, by) in [
            (x, y, x + w, y),
            (x, y + h, x + w, y + h),
            (x, y, x, y + h),
            (x + w, y, x + w, y + h),
        ] {
            self.rule(ax, ay, bx, by, 0.6, [0.5; 3]);
        }
        let size = 8.0_f32.min(h * 0.6).max(1.0);
        let label: String = format!("[{name}]").chars().take(80).collect();
        self.plain(x + 4.0, y + h / 2.0 + size / 3.0, &label, size, GREY);
    }
}
