//! Stage one: pictures and text boxes inside runs: DrawingML (`w:drawing` →
//! `wp:inline`/`wp:anchor`, `a:blip@r:embed`/`@r:link`, `wp:extent`, `wp:docPr@descr`) and VML
//! (`w:pict`, `w:object` → `v:shape@style`, `v:imagedata@r:id`). Text box content (`w:txbxContent`)
//! is parsed as blocks and attached to the anchoring paragraph; charts and bare shapes are
//! reported, not dropped silently.

use quick_xml::events::{BytesStart, Event};

use super::model::{ImageRef, ImageTarget, Para, Run, RunItem};
use super::parser::{BodyParser, Ctx, DrawingState};
use super::runs::push_text;
use super::xmlutil::{attr, attr_string, css_length_emu, emu};
use crate::error::Result;
use crate::report::WarningKind;
use crate::xml::LocalName;

/// Elements that are one shape of a group or canvas.
fn is_shape(name: &str) -> bool {
    matches!(
        name,
        "wsp" | "cxnSp" | "sp" | "shape" | "rect" | "roundrect" | "oval" | "line" | "polyline"
    )
}

fn positive(v: Option<i64>) -> Option<u64> {
    v.filter(|n| *n > 0).map(|n| n as u64)
}

/// `width:120pt;height:30pt` → EMU size.
fn vml_style_extent(style: &str) -> Option<(u64, u64)> {
    let (mut w, mut h) = (None, None);
    for decl in style.split(';') {
        if let Some((k, v)) = decl.split_once(':') {
            match k.trim() {
                "width" => w = positive(css_length_emu(v)),
                "height" => h = positive(css_length_emu(v)),
                _ => {}
            }
        }
    }
    w.zip(h)
}

impl BodyParser<'_, '_> {
    /// Reads a `w:drawing`, `w:pict` or `w:object` whose start was just read.
    pub fn drawing(&mut self, run: &mut Run, p: &mut Para) -> Result<()> {
        let mut st = DrawingState::default();
        self.drawing_walk(&mut st, p)?;
        // A group's children come in drawing (z) order; their text is read top to bottom,
        // left to right, as the page shows it. The sort is stable: boxes at one spot keep
        // their order.
        let mut boxes = std::mem::take(&mut st.boxes);
        if st.group {
            boxes.sort_by_key(|(at, _)| (at.1, at.0));
        }
        p.textboxes.extend(boxes.into_iter().map(|(_, b)| b));
        if let Some(id) = st.diagram.as_deref() {
            match self.rels.get(id).filter(|r| !r.external) {
                Some(rel) => p.diagrams.push(rel.target.clone()),
                None => self.warn(
                    WarningKind::MissingMedia,
                    format!("a SmartArt diagram's r:dm=\"{id}\" names no data part; dropped"),
                    "dgm:relIds",
                ),
            }
        }
        self.finish_drawing(st, run);
        Ok(())
    }

    /// VML pictures share the walk: their element names do not clash with DrawingML's.
    pub fn vml(&mut self, run: &mut Run, p: &mut Para) -> Result<()> {
        self.drawing(run, p)
    }

    /// Walks the element whose start was just read, to its end.
    pub fn drawing_walk(&mut self, st: &mut DrawingState, p: &mut Para) -> Result<()> {
        let target = self.r.depth().saturating_sub(1);
        while self.r.depth() > target {
            match self.r.next_event()? {
                Event::Start(e) => match e.local() {
                    "txbxContent" => {
                        let mut blocks = Vec::new();
                        self.blocks_until_end(&mut blocks)?;
                        st.textbox = true;
                        st.filled();
                        if !blocks.is_empty() {
                            st.boxes.push((st.offset, blocks));
                        }
                    }
                    // DrawingML text (a locked canvas's or a plain DrawingML shape's): its
                    // paragraphs, as a text box's.
                    "txBody" => {
                        let blocks = self.drawingml_text()?;
                        st.textbox = true;
                        st.filled();
                        if !blocks.is_empty() {
                            st.boxes.push((st.offset, blocks));
                        }
                    }
                    "AlternateContent" => self.alternate(&mut Ctx::Drawing(st, p))?,
                    name => {
                        if is_shape(name) {
                            st.shapes.push((self.r.depth(), false));
                            st.offset = (0, 0);
                        }
                        drawing_attrs(&e, st);
                    }
                },
                Event::Empty(e) => {
                    let bare = is_shape(e.local()) && st.group;
                    drawing_attrs(&e, st);
                    if bare {
                        st.bare_shapes += 1;
                    }
                }
                Event::End(_) => {
                    while st.shapes.last().is_some_and(|s| s.0 > self.r.depth()) {
                        if let Some((_, false)) = st.shapes.pop() {
                            if st.group {
                                st.bare_shapes += 1;
                            }
                        }
                    }
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside a drawing")),
                _ => {}
            }
        }
        Ok(())
    }

    /// The paragraphs of the DrawingML text body (`a:txBody`) whose start was just read, to
    /// its end: each `a:p` one paragraph of its `a:t` text (`a:br` a line break, `a:tab` a tab).
    fn drawingml_text(&mut self) -> Result<Vec<super::model::Block>> {
        let target = self.r.depth().saturating_sub(1);
        let mut blocks = Vec::new();
        let mut text = String::new();
        while self.r.depth() > target {
            match self.r.next_event()? {
                Event::Start(e) if e.local() == "t" => {
                    text.push_str(&self.r.read_text()?);
                }
                Event::Empty(e) => match e.local() {
                    "br" => text.push('\n'),
                    "tab" => text.push('\t'),
                    _ => {}
                },
                Event::End(e) if e.local() == "p" => {
                    let mut run = Run::default();
                    push_text(&mut run, &std::mem::take(&mut text));
                    let mut para = Para::default();
                    if !run.content.is_empty() {
                        para.items.push(super::model::Item::Run(run));
                    }
                    blocks.push(super::model::Block::Para(para));
                }
                Event::Eof => return Err(self.r.invalid("the part ends inside a:txBody")),
                _ => {}
            }
        }
        // A shape's empty paragraphs (every text body has one) are not text.
        let empty = |b: &super::model::Block| matches!(b, super::model::Block::Para(p) if p.items.is_empty());
        if blocks.iter().all(empty) {
            blocks.clear();
        }
        Ok(blocks)
    }

    fn finish_drawing(&mut self, st: DrawingState, run: &mut Run) {
        let count = st.blips.len() + st.vml.len();
        let mut added = 0;
        for (embed, link) in &st.blips {
            let target = self.image_target(embed.as_deref(), link.as_deref(), "a:blip");
            if let Some(target) = target {
                run.content.push(RunItem::Image(Box::new(ImageRef {
                    target,
                    // A group's outer size is not any one picture's size.
                    extent: if count == 1 { st.extent } else { None },
                    alt: st.alt.clone(),
                    title: st.title.clone(),
                    anchored: st.anchored,
                })));
                added += 1;
            }
        }
        for (id, extent, title) in &st.vml {
            if let Some(target) = self.image_target(Some(id), None, "v:imagedata") {
                run.content.push(RunItem::Image(Box::new(ImageRef {
                    target,
                    extent: *extent,
                    alt: title.clone().or_else(|| st.alt.clone()),
                    title: None,
                    anchored: false,
                })));
                added += 1;
            }
        }
        if !st.text.is_empty() {
            push_text(run, &st.text);
        }
        if st.ole && added > 0 {
            self.warn(
                WarningKind::Lossy,
                "an embedded object (OLE) is kept as its preview picture",
                "o:OLEObject",
            );
        }
        let chart_found = st
            .chart_rel
            .as_deref()
            .is_some_and(|id| self.rels.get(id).is_some_and(|r| !r.external));
        let kept =
            count > 0 || st.textbox || !st.text.is_empty() || st.diagram.is_some() || chart_found;
        if kept && st.bare_shapes > 0 {
            let n = st.bare_shapes;
            let what = if n == 1 {
                "a shape".to_string()
            } else {
                format!("{n} shapes")
            };
            self.warn(
                WarningKind::Dropped,
                format!(
                    "{what} without picture or text in a group or canvas dropped; its text and pictures are kept"
                ),
                "wpg:wgp",
            );
        }
        let chart_part = st
            .chart_rel
            .as_deref()
            .and_then(|id| self.rels.get(id))
            .filter(|r| !r.external)
            .map(|r| r.target.clone());
        if let Some(part) = chart_part.filter(|_| count == 0) {
            run.content.push(RunItem::Chart(part));
            return;
        }
        if !kept {
            if st.chart {
                self.warn(WarningKind::Dropped, "a chart is not imported", "c:chart");
            } else {
                self.warn(
                    WarningKind::Dropped,
                    "a drawing without picture or text (a shape or line) is dropped",
                    "w:drawing",
                );
            }
        }
    }

    /// Where an image's bytes are, from `r:embed` (else `r:link`).
    fn image_target(
        &mut self,
        embed: Option<&str>,
        link: Option<&str>,
        element: &str,
    ) -> Option<ImageTarget> {
        let (id, linked) = match (embed, link) {
            (Some(e), _) if !e.is_empty() => (e, false),
            (_, Some(l)) if !l.is_empty() => (l, true),
            _ => {
                self.warn(
                    WarningKind::MissingMedia,
                    "a picture names no image data; dropped",
                    element,
                );
                return None;
            }
        };
        match self.rels.get(id) {
            Some(rel) if rel.external || linked => Some(ImageTarget::External(rel.target.clone())),
            Some(rel) => Some(ImageTarget::Part(rel.target.clone())),
            None => {
                self.warn(
                    WarningKind::MissingMedia,
                    format!("a picture's r:id=\"{id}\" names no relationship; dropped"),
                    element,
                );
                None
            }
        }
    }
}

fn drawing_attrs(e: &BytesStart<'_>, st: &mut DrawingState) {
    match e.local() {
        "inline" => st.anchored = false,
        "anchor" => st.anchored = true,
        "extent" if st.extent.is_none() => {
            let cx = positive(attr(e, "cx").and_then(|v| emu(&v)));
            let cy = positive(attr(e, "cy").and_then(|v| emu(&v)));
            st.extent = cx.zip(cy);
        }
        "docPr" => {
            st.alt = attr_string(e, "descr").filter(|d| !d.trim().is_empty());
            st.title = attr_string(e, "title").filter(|t| !t.trim().is_empty());
        }
        "blip" => {
            st.filled();
            st.blips
                .push((attr_string(e, "embed"), attr_string(e, "link")))
        }
        "wgp" | "wpc" | "group" | "grpSp" | "lockedCanvas" => st.group = true,
        "off" => {
            let x = attr(e, "x")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            let y = attr(e, "y")
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            st.offset = (x, y);
        }
        "chart" => {
            st.chart = true;
            if st.chart_rel.is_none() {
                st.chart_rel = attr_string(e, "id");
            }
        }
        "relIds" => st.diagram = attr_string(e, "dm"),
        "shape" | "rect" | "roundrect" | "oval" | "image" => {
            if let Some(style) = attr(e, "style") {
                st.shape_extent = vml_style_extent(&style);
                st.offset = vml_style_offset(&style);
            }
        }
        "imagedata" => {
            st.filled();
            let id = attr_string(e, "id").or_else(|| attr_string(e, "relid"));
            if let Some(id) = id {
                let title = attr_string(e, "title").filter(|t| !t.trim().is_empty());
                st.vml.push((id, st.shape_extent, title));
            }
        }
        "textpath" => {
            if let Some(s) = attr_string(e, "string") {
                st.text.push_str(&s);
            }
        }
        "OLEObject" => st.ole = true,
        _ => {}
    }
}

/// `left:10pt;top:20pt` (VML, inside a group: plain numbers in the group's units) → offset.
fn vml_style_offset(style: &str) -> (i64, i64) {
    let (mut x, mut y) = (0, 0);
    for decl in style.split(';') {
        if let Some((k, v)) = decl.split_once(':') {
            let n = css_length_emu(v).or_else(|| v.trim().parse().ok());
            match k.trim() {
                "left" => x = n.unwrap_or(0),
                "top" => y = n.unwrap_or(0),
                _ => {}
            }
        }
    }
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vml_style_sizes() {
        assert_eq!(
            vml_style_extent("position:absolute;width:72pt;height:36pt"),
            Some((914_400, 457_200))
        );
        assert_eq!(vml_style_extent("width:72pt"), None);
    }
}
