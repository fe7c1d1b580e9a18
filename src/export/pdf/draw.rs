//! Laid-out pages → printpdf drawing operations: shading, pictures (or a placeholder box),
//! rules, text, underline and strike rules, the running footer (`meta.footer` and "page N of M"),
//! the page numbers of directory entries, and link annotations.

use std::collections::{BTreeSet, HashMap};

use printpdf::{
    Actions, BorderArray, Color, ColorArray, CurTransMat, Destination, FontId, Line, LinePoint,
    LinkAnnotation, Op, PaintMode, PdfFontHandle, PdfPage, Point, Pt, Rect, Rgb as PdfRgb,
    TextItem, TextMatrix, XObjectId, XObjectTransform,
};

use crate::ast::Pages;
use crate::ast::pages::PageSide;
use crate::export::paged::page::{Geometry, Item, Page};
use crate::export::paged::text::{Anchor, LinkTarget, Rgb};
use crate::fonts::metrics::{self as fonts, Face};

/// What the drawing needs besides the pages.
pub(crate) struct Context<'a> {
    pub geo: Geometry,
    pub anchors: &'a HashMap<Anchor, (usize, f32)>,
    pub links: &'a [LinkTarget],
    /// XObject id per media name; `None` = draw a placeholder.
    pub images: &'a HashMap<String, Option<XObjectId>>,
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

/// The font resource id of a face.
pub(crate) fn font_id(face: Face) -> FontId {
    FontId(format!("F{}", face.index()))
}

/// Draws every page; returns the pages and the characters drawn per face (for subsetting).
pub(crate) fn draw(pages: &[Page], cx: &Context<'_>) -> (Vec<PdfPage>, Vec<BTreeSet<char>>) {
    let mut used = vec![BTreeSet::new(); Face::ALL.len()];
    let total = pages.len();
    let out = pages
        .iter()
        .enumerate()
        .map(|(i, page)| {
            let mut d = Drawer {
                ops: Vec::with_capacity(page.items.len() * 3 + 32),
                h: cx.geo.height,
                used: &mut used,
                font: None,
                fill: None,
            };
            d.page(page, i, total, cx);
            PdfPage::new(
                printpdf::Mm::from(Pt(cx.geo.width)),
                printpdf::Mm::from(Pt(cx.geo.height)),
                d.ops,
            )
        })
        .collect();
    (out, used)
}

struct Drawer<'u> {
    ops: Vec<Op>,
    h: f32,
    used: &'u mut Vec<BTreeSet<char>>,
    font: Option<(Face, f32)>,
    fill: Option<Rgb>,
}

fn color(c: Rgb) -> Color {
    Color::Rgb(PdfRgb {
        r: c[0].clamp(0.0, 1.0),
        g: c[1].clamp(0.0, 1.0),
        b: c[2].clamp(0.0, 1.0),
        icc_profile: None,
    })
}

const GREY: Rgb = [0.35, 0.35, 0.35];

impl Drawer<'_> {
    fn page(&mut self, page: &Page, index: usize, total: usize, cx: &Context<'_>) {
        // Cell shading under everything.
        for item in &page.items {
            if let Item::Fill {
                x,
                y,
                w,
                h,
                color,
                under: true,
            } = item
            {
                self.fill_rect(*x, *y, *w, *h, *color);
            }
        }
        for item in &page.items {
            match item {
                Item::Image { x, y, w, h, media } => {
                    match cx.images.get(media).cloned().flatten() {
                        Some(id) => self.image(id, *x, *y, *w, *h),
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
                } => self.rule(*x1, *y1, *x2, *y2, *width, *color),
                _ => {}
            }
        }
        // All text of the page in one text object.
        self.ops.push(Op::StartTextSection);
        for item in &page.items {
            match item {
                Item::Text {
                    x,
                    y,
                    text,
                    face,
                    size,
                    color,
                    ..
                } => self.text(*x, *y, text, *face, *size, *color),
                Item::PageNumber { x, y, size, anchor } => {
                    if let Some((p, _)) = cx.anchors.get(anchor) {
                        let s = (p + 1).to_string();
                        let w = fonts::width(Face::Regular, *size, &s);
                        self.text(x - w, *y, &s, Face::Regular, *size, [0.0; 3]);
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
            let lines = header.len() as f32;
            for (k, line) in header.iter().enumerate() {
                let y = geo.top - 20.0 - (lines - 1.0 - k as f32) * 11.0;
                self.page_line(geo, y, line);
            }
        }
        if own.has_footers {
            for (k, line) in own.footer.iter().flatten().enumerate() {
                self.page_line(geo, fy + k as f32 * 11.0, line);
            }
        } else {
            self.running_footer(geo, fy, index, total, cx);
        }
        self.ops.push(Op::EndTextSection);
        if !own.has_footers {
            self.rule(
                geo.left,
                fy - 11.0,
                geo.width - geo.right,
                fy - 11.0,
                0.4,
                [0.6; 3],
            );
        }
        for item in &page.items {
            if let Item::Fill {
                x,
                y,
                w,
                h,
                color,
                under: false,
            } = item
            {
                self.fill_rect(*x, *y, *w, *h, *color);
            }
        }
        for item in &page.items {
            if let Item::Link { x, y, w, h, link } = item {
                self.link(*x, *y, *w, *h, *link, cx);
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
        let lw = fonts::width(Face::Regular, size, &label);
        self.text(
            geo.width - geo.right - lw,
            fy,
            &label,
            Face::Regular,
            size,
            GREY,
        );
        if let Some(f) = cx.footer {
            // Shortened with an ellipsis when it would run into the page number.
            let room = geo.text_width() - lw - 12.0;
            let mut t: String = f.split_whitespace().collect::<Vec<_>>().join(" ");
            while !t.is_empty() && fonts::width(Face::Regular, size, &t) > room {
                t.pop();
                while t.ends_with(' ') {
                    t.pop();
                }
                if fonts::width(Face::Regular, size, &format!("{t}…")) <= room {
                    t.push('…');
                    break;
                }
            }
            self.text(geo.left, fy, &t, Face::Regular, size, GREY);
        }
    }

    /// One line of a page header or footer: `\t` splits it into a left, a centred and a
    /// right-aligned part, as Word's Header and Footer styles place their tab stops.
    fn page_line(&mut self, geo: Geometry, y: f32, line: &str) {
        let size = 8.5;
        let parts: Vec<&str> = line.splitn(3, '\t').map(str::trim).collect();
        for (k, part) in parts.iter().enumerate() {
            let w = fonts::width(Face::Regular, size, part);
            let x = match (k, parts.len()) {
                (0, _) => geo.left,
                (1, 2) | (2, _) => geo.width - geo.right - w,
                _ => geo.left + (geo.text_width() - w) / 2.0,
            };
            self.text(x, y, part, Face::Regular, size, GREY);
        }
    }

    fn set_fill(&mut self, c: Rgb) {
        if self.fill != Some(c) {
            self.ops.push(Op::SetFillColor { col: color(c) });
            self.fill = Some(c);
        }
    }

    fn text(&mut self, x: f32, y: f32, text: &str, face: Face, size: f32, c: Rgb) {
        if text.is_empty() || !x.is_finite() || !y.is_finite() {
            return;
        }
        if self.font != Some((face, size)) {
            self.ops.push(Op::SetFont {
                font: PdfFontHandle::External(font_id(face)),
                size: Pt(size),
            });
            self.font = Some((face, size));
        }
        self.set_fill(c);
        self.ops.push(Op::SetTextMatrix {
            matrix: TextMatrix::Translate(Pt(x), Pt(self.h - y)),
        });
        self.used[face.index()].extend(text.chars());
        self.ops.push(Op::ShowText {
            items: vec![TextItem::Text(text.to_string())],
        });
    }

    fn fill_rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgb) {
        self.set_fill(c);
        self.ops.push(Op::DrawRectangle {
            rectangle: Rect {
                x: Pt(x),
                y: Pt(self.h - y - h),
                width: Pt(w),
                height: Pt(h),
                mode: Some(PaintMode::Fill),
                winding_order: None,
            },
        });
    }

    fn rule(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, width: f32, c: Rgb) {
        self.ops.push(Op::SetOutlineColor { col: color(c) });
        self.ops.push(Op::SetOutlineThickness { pt: Pt(width) });
        let pt = |x: f32, y: f32| LinePoint {
            p: Point {
                x: Pt(x),
                y: Pt(self.h - y),
            },
            bezier: false,
        };
        self.ops.push(Op::DrawLine {
            line: Line {
                points: vec![pt(x1, y1), pt(x2, y2)],
                is_closed: false,
            },
        });
    }

    fn image(&mut self, id: XObjectId, x: f32, y: f32, w: f32, h: f32) {
        self.ops.push(Op::SaveGraphicsState);
        self.ops.push(Op::SetTransformationMatrix {
            matrix: CurTransMat::Raw([w, 0.0, 0.0, h, x, self.h - y - h]),
        });
        self.ops.push(Op::UseXobject {
            id,
            transform: XObjectTransform {
                no_auto_scale: true,
                ..XObjectTransform::default()
            },
        });
        self.ops.push(Op::RestoreGraphicsState);
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
        self.ops.push(Op::StartTextSection);
        self.text(
            x + 4.0,
            y + h / 2.0 + size / 3.0,
            &label,
            Face::Regular,
            size,
            GREY,
        );
        self.ops.push(Op::EndTextSection);
    }

    fn link(&mut self, x: f32, y: f32, w: f32, h: f32, link: u32, cx: &Context<'_>) {
        let actions = match cx.links.get(link as usize) {
            Some(LinkTarget::Uri(u)) => Actions::Uri(u.clone()),
            Some(LinkTarget::Anchor(a)) => match cx.anchors.get(a) {
                Some((page, ay)) => Actions::Goto(Destination::Xyz {
                    page: page + 1,
                    left: Some(0.0),
                    top: Some(self.h - ay + 4.0),
                    zoom: None,
                }),
                None => return,
            },
            None => return,
        };
        let rect = Rect {
            x: Pt(x),
            y: Pt(self.h - y - h),
            width: Pt(w.max(1.0)),
            height: Pt(h.max(1.0)),
            mode: None,
            winding_order: None,
        };
        self.ops.push(Op::LinkAnnotation {
            link: LinkAnnotation::new(
                rect,
                actions,
                Some(BorderArray::Solid([0.0, 0.0, 0.0])),
                Some(ColorArray::Transparent),
                None,
            ),
        });
    }
}
