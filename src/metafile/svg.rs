//! The SVG the players draw into: paths, text and images in device coordinates, grouped by
//! clip, with the output size capped. Text stays text (`<text>`), escaped.

use std::collections::HashMap;
use std::fmt::Write;
use std::rc::Rc;

use super::MetafileError;
use super::geom::{Affine, PathData, Pt, Rect, num, push_num};

/// A colour with opacity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Paint {
    /// `0xRRGGBB`.
    pub rgb: u32,
    /// 0..=1.
    pub opacity: f64,
}

impl Paint {
    /// A GDI COLORREF (`0x00BBGGRR`, MS-WMF 2.2.2.8), opaque.
    pub(crate) fn colorref(c: u32) -> Paint {
        let (r, g, b) = (c & 0xff, (c >> 8) & 0xff, (c >> 16) & 0xff);
        Paint {
            rgb: (r << 16) | (g << 8) | b,
            opacity: 1.0,
        }
    }

    /// A GDI+ ARGB colour (`0xAARRGGBB`, MS-EMFPLUS 2.2.2.1).
    pub(crate) fn argb(c: u32) -> Paint {
        Paint {
            rgb: c & 0xff_ffff,
            opacity: ((c >> 24) & 0xff) as f64 / 255.0,
        }
    }

    fn push(&self, out: &mut String, attr: &str) {
        let _ = write!(out, " {attr}=\"#{:06x}\"", self.rgb);
        if self.opacity < 1.0 {
            let _ = write!(out, " {attr}-opacity=\"{}\"", num(self.opacity.max(0.0)));
        }
    }
}

/// How a path's outline is drawn.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stroke {
    pub paint: Paint,
    /// Width in device units.
    pub width: f64,
    /// Dash lengths in device units; empty for a solid line.
    pub dash: Vec<f64>,
    pub cap: &'static str,
    pub join: &'static str,
}

/// How a shape is painted.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Style {
    pub fill: Option<Paint>,
    pub evenodd: bool,
    pub stroke: Option<Stroke>,
}

/// A run of text, placed by `matrix` (text space to device space; text space has its
/// baseline on y = 0 and its x growing along the baseline).
#[derive(Debug, Clone)]
pub(crate) struct TextRun {
    pub text: String,
    pub matrix: Affine,
    /// Start x of each character (when the metafile gives advances), else one start.
    pub x: Vec<f64>,
    pub size: f64,
    pub family: String,
    pub weight: u32,
    pub italic: bool,
    pub underline: bool,
    pub strike: bool,
    pub fill: Paint,
    /// `start`, `middle` or `end`.
    pub anchor: &'static str,
}

/// A clip region: a device-space path, intersected with its parent's.
#[derive(Debug)]
pub(crate) struct ClipNode {
    id: u64,
    d: String,
    evenodd: bool,
    parent: Option<Rc<ClipNode>>,
    depth: usize,
}

impl ClipNode {
    /// How many regions are intersected in this clip.
    pub(crate) fn depth(&self) -> usize {
        self.depth
    }
}

/// The clip in force: `None` draws everywhere.
pub(crate) type Clip = Option<Rc<ClipNode>>;

/// The drawing being built.
pub(crate) struct Canvas {
    body: String,
    defs: String,
    emitted_clips: HashMap<u64, usize>,
    next_clip: u64,
    open_group: Option<u64>,
    bbox: Option<Rect>,
    max_bytes: usize,
    /// Elements drawn.
    pub elements: usize,
    /// Text runs drawn.
    pub texts: usize,
    /// Elements not drawn because they lie absurdly far outside the view or are absurdly
    /// large (corrupt coordinates, which would only cost the rasteriser time).
    pub dropped: usize,
    view: Option<Rect>,
}

/// Escapes text for XML content and attributes, dropping characters XML cannot hold.
pub(crate) fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 => {}
            '\u{fffe}' | '\u{ffff}' => {}
            c => out.push(c),
        }
    }
}

impl Canvas {
    /// A canvas whose SVG text may grow to `max_bytes`.
    pub(crate) fn new(max_bytes: usize) -> Canvas {
        Canvas {
            body: String::new(),
            defs: String::new(),
            emitted_clips: HashMap::new(),
            next_clip: 0,
            open_group: None,
            bbox: None,
            max_bytes,
            elements: 0,
            texts: 0,
            dropped: 0,
            view: None,
        }
    }

    /// The bounding box of what was drawn (device coordinates).
    pub(crate) fn bbox(&self) -> Option<Rect> {
        self.bbox
    }

    /// The view the drawing will have (device coordinates), when known before drawing:
    /// elements far outside it, and strokes far wider than it, are then held in check.
    pub(crate) fn set_view(&mut self, view: Rect) {
        if view.width().is_finite() && view.height().is_finite() {
            self.view = Some(Rect {
                x0: view.x0.min(view.x1),
                y0: view.y0.min(view.y1),
                x1: view.x0.max(view.x1),
                y1: view.y0.max(view.y1),
            });
        }
    }

    /// The view's diagonal, when the view is known.
    fn diagonal(&self) -> Option<f64> {
        self.view.map(|v| v.width().hypot(v.height()).max(1e-6))
    }

    /// Whether `b` reaches more than a thousand view diagonals outside the view.
    fn absurd(&self, b: &Rect) -> bool {
        let (Some(v), Some(d)) = (self.view, self.diagonal()) else {
            return false;
        };
        let m = 1000.0 * d;
        b.x0 < v.x0 - m || b.y0 < v.y0 - m || b.x1 > v.x1 + m || b.y1 > v.y1 + m
    }

    fn grow(&mut self, r: Rect) {
        match &mut self.bbox {
            Some(b) => {
                b.include(Pt::new(r.x0, r.y0));
                b.include(Pt::new(r.x1, r.y1));
            }
            None => self.bbox = Some(r),
        }
    }

    fn check_size(&self) -> Result<(), MetafileError> {
        if self.body.len() + self.defs.len() > self.max_bytes {
            return Err(MetafileError::Limit {
                what: "SVG output bytes",
                limit: self.max_bytes as u64,
            });
        }
        Ok(())
    }

    /// A clip of `path` (device space) intersected with `parent`.
    pub(crate) fn clip(&mut self, path: &PathData, evenodd: bool, parent: &Clip) -> Clip {
        self.next_clip += 1;
        Some(Rc::new(ClipNode {
            id: self.next_clip,
            d: path.d.clone(),
            evenodd,
            parent: parent.clone(),
            depth: parent.as_ref().map_or(1, |p| p.depth + 1),
        }))
    }

    fn emit_clip(&mut self, node: &Rc<ClipNode>) -> usize {
        if let Some(&n) = self.emitted_clips.get(&node.id) {
            return n;
        }
        let parent = node.parent.as_ref().map(|p| self.emit_clip(p));
        let n = self.emitted_clips.len() + 1;
        let _ = write!(self.defs, "<clipPath id=\"c{n}\"");
        if let Some(p) = parent {
            let _ = write!(self.defs, " clip-path=\"url(#c{p})\"");
        }
        let rule = if node.evenodd {
            " clip-rule=\"evenodd\""
        } else {
            ""
        };
        let _ = write!(self.defs, "><path d=\"{}\"{rule}/></clipPath>", node.d);
        self.emitted_clips.insert(node.id, n);
        n
    }

    /// Opens the group for `clip` unless it is open already.
    fn enter(&mut self, clip: &Clip) {
        let want = clip.as_ref().map(|c| c.id);
        if want == self.open_group {
            return;
        }
        if self.open_group.is_some() {
            self.body.push_str("</g>");
        }
        if let Some(node) = clip {
            let n = self.emit_clip(node);
            let _ = write!(self.body, "<g clip-path=\"url(#c{n})\">");
        }
        self.open_group = want;
    }

    /// Draws a path.
    pub(crate) fn path(
        &mut self,
        path: &PathData,
        style: &Style,
        clip: &Clip,
    ) -> Result<(), MetafileError> {
        if path.is_empty() || (style.fill.is_none() && style.stroke.is_none()) {
            return Ok(());
        }
        if path.bbox.is_some_and(|b| self.absurd(&b)) {
            self.dropped += 1;
            return Ok(());
        }
        let max_width = self.diagonal().map_or(f64::MAX, |d| 4.0 * d);
        self.enter(clip);
        self.body.push_str("<path d=\"");
        self.body.push_str(path.d.trim_start());
        self.body.push('"');
        match style.fill {
            Some(p) => p.push(&mut self.body, "fill"),
            None => self.body.push_str(" fill=\"none\""),
        }
        if style.evenodd && style.fill.is_some() {
            self.body.push_str(" fill-rule=\"evenodd\"");
        }
        if let Some(s) = &style.stroke {
            s.paint.push(&mut self.body, "stroke");
            self.body.push_str(" stroke-width=\"");
            push_num(&mut self.body, s.width.clamp(0.001, max_width));
            self.body.push('"');
            if s.cap != "butt" {
                let _ = write!(self.body, " stroke-linecap=\"{}\"", s.cap);
            }
            if s.join != "miter" {
                let _ = write!(self.body, " stroke-linejoin=\"{}\"", s.join);
            }
            if !s.dash.is_empty() {
                self.body.push_str(" stroke-dasharray=\"");
                for (i, d) in s.dash.iter().enumerate() {
                    if i > 0 {
                        self.body.push(' ');
                    }
                    push_num(&mut self.body, d.max(0.0));
                }
                self.body.push('"');
            }
        }
        self.body.push_str("/>");
        if let Some(b) = path.bbox {
            self.grow(b);
        }
        self.elements += 1;
        self.check_size()
    }

    /// Draws a run of text.
    pub(crate) fn text(&mut self, run: &TextRun, clip: &Clip) -> Result<(), MetafileError> {
        if run.text.chars().all(char::is_whitespace) || !run.size.is_finite() || run.size <= 0.0 {
            return Ok(());
        }
        let m = &run.matrix;
        let (origin, em) = (Pt::new(m.e, m.f), run.size * m.mean_scale());
        let at = Rect {
            x0: origin.x - em,
            y0: origin.y - em,
            x1: origin.x + em,
            y1: origin.y + em,
        };
        if self.absurd(&at) {
            self.dropped += 1;
            return Ok(());
        }
        self.enter(clip);
        let _ = write!(
            self.body,
            "<text xml:space=\"preserve\" transform=\"matrix({} {} {} {} {} {})\"",
            num(m.a),
            num(m.b),
            num(m.c),
            num(m.d),
            num(m.e),
            num(m.f)
        );
        self.body.push_str(" x=\"");
        for (i, x) in run.x.iter().enumerate() {
            if i > 0 {
                self.body.push(' ');
            }
            push_num(&mut self.body, *x);
        }
        if run.x.is_empty() {
            self.body.push('0');
        }
        self.body.push_str("\" y=\"0\" font-family=\"");
        escape(&run.family, &mut self.body);
        self.body.push_str("\" font-size=\"");
        push_num(&mut self.body, run.size);
        self.body.push('"');
        if run.weight >= 600 {
            self.body.push_str(" font-weight=\"bold\"");
        }
        if run.italic {
            self.body.push_str(" font-style=\"italic\"");
        }
        match (run.underline, run.strike) {
            (true, true) => self
                .body
                .push_str(" text-decoration=\"underline line-through\""),
            (true, false) => self.body.push_str(" text-decoration=\"underline\""),
            (false, true) => self.body.push_str(" text-decoration=\"line-through\""),
            _ => {}
        }
        if run.anchor != "start" {
            let _ = write!(self.body, " text-anchor=\"{}\"", run.anchor);
        }
        run.fill.push(&mut self.body, "fill");
        self.body.push('>');
        escape(&run.text, &mut self.body);
        self.body.push_str("</text>");
        // A rough box (the text's height above its origin and a width of 0.6 em a character)
        // so a file of text alone still gets a view box.
        let w = run.size * 0.6 * run.text.chars().count() as f64;
        let corners = [
            Pt::new(0.0, -run.size),
            Pt::new(w, -run.size),
            Pt::new(0.0, run.size * 0.3),
            Pt::new(w, run.size * 0.3),
        ];
        let mut b: Option<Rect> = None;
        for c in corners {
            let p = m.apply(c);
            match &mut b {
                Some(r) => r.include(p),
                None => {
                    b = Some(Rect {
                        x0: p.x,
                        y0: p.y,
                        x1: p.x,
                        y1: p.y,
                    })
                }
            }
        }
        if let Some(b) = b {
            self.grow(b);
        }
        self.elements += 1;
        self.texts += 1;
        self.check_size()
    }

    /// Draws a picture (`data` of MIME type `mime`: PNG, or SVG for a nested metafile) onto
    /// the unit square mapped by `m` to device space.
    pub(crate) fn image(
        &mut self,
        mime: &str,
        data: &[u8],
        m: &Affine,
        clip: &Clip,
    ) -> Result<(), MetafileError> {
        use base64::Engine as _;
        let mut b = Rect {
            x0: m.e,
            y0: m.f,
            x1: m.e,
            y1: m.f,
        };
        for c in [Pt::new(1.0, 0.0), Pt::new(0.0, 1.0), Pt::new(1.0, 1.0)] {
            b.include(m.apply(c));
        }
        if self.absurd(&b) {
            self.dropped += 1;
            return Ok(());
        }
        let encoded_len = data.len().div_ceil(3) * 4;
        if self.body.len() + self.defs.len() + encoded_len > self.max_bytes {
            return Err(MetafileError::Limit {
                what: "SVG output bytes",
                limit: self.max_bytes as u64,
            });
        }
        self.enter(clip);
        let _ = write!(
            self.body,
            "<image width=\"1\" height=\"1\" preserveAspectRatio=\"none\" \
             transform=\"matrix({} {} {} {} {} {})\" xlink:href=\"data:{mime};base64,",
            num(m.a),
            num(m.b),
            num(m.c),
            num(m.d),
            num(m.e),
            num(m.f)
        );
        base64::engine::general_purpose::STANDARD.encode_string(data, &mut self.body);
        self.body.push_str("\"/>");
        self.grow(b);
        self.elements += 1;
        self.check_size()
    }

    /// The finished document: `view` (device coordinates) shown at `width` × `height` px.
    pub(crate) fn finish(mut self, view: Rect, width: f64, height: f64) -> String {
        if self.open_group.is_some() {
            self.body.push_str("</g>");
        }
        let mut out = String::with_capacity(self.body.len() + self.defs.len() + 300);
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" \
             xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" \
             width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\" \
             preserveAspectRatio=\"none\" overflow=\"hidden\">",
            num(width),
            num(height),
            num(view.x0),
            num(view.y0),
            num(view.width()),
            num(view.height())
        );
        if !self.defs.is_empty() {
            out.push_str("<defs>");
            out.push_str(&self.defs);
            out.push_str("</defs>");
        }
        out.push_str(&self.body);
        out.push_str("</svg>");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_controls() {
        let mut s = String::new();
        escape("a<b>&\"c\u{1}\u{ffff}", &mut s);
        assert_eq!(s, "a&lt;b&gt;&amp;&quot;c");
    }

    #[test]
    fn groups_by_clip_and_caps_size() {
        let mut c = Canvas::new(10_000);
        let mut p = PathData::default();
        p.rect(
            Rect {
                x0: 0.0,
                y0: 0.0,
                x1: 5.0,
                y1: 5.0,
            },
            &Affine::IDENTITY,
        );
        let clip = c.clip(&p, false, &None);
        let style = Style {
            fill: Some(Paint::colorref(0x0000ff)),
            ..Style::default()
        };
        c.path(&p, &style, &clip).unwrap();
        c.path(&p, &style, &clip).unwrap();
        c.path(&p, &style, &None).unwrap();
        let svg = c.finish(
            Rect {
                x0: 0.0,
                y0: 0.0,
                x1: 5.0,
                y1: 5.0,
            },
            5.0,
            5.0,
        );
        assert_eq!(svg.matches("<g clip-path").count(), 1);
        assert!(svg.contains("fill=\"#ff0000\""), "{svg}");
        let mut small = Canvas::new(10);
        assert!(small.path(&p, &style, &None).is_err());
    }
}
