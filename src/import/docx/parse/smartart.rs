//! Stage one: SmartArt: the text of a diagram's data part (`dgm:dataModel`, ECMA-376 §21.4), as the
//! nested list it stands for. The drawing itself (layout, shapes, colours) is not kept.
//!
//! Points (`dgm:pt`) hold the text; connections (`dgm:cxn`, type `parOf` by default) make the
//! tree, ordered by `srcOrd` under each parent; the point of type `doc` is the root. Reading
//! order is the tree's depth-first order.

use std::collections::{HashMap, HashSet};

use quick_xml::events::Event;

use super::xmlutil::{attr, attr_string, element_text};
use crate::error::Result;
use crate::limits::Limits;
use crate::xml::{LocalName, XmlReader};

/// One item of a diagram's text: its depth under the root (0 = top) and its text.
pub type DiagramItem = (u8, String);

#[derive(Default)]
struct Point {
    kind: String,
    text: String,
}

/// Reads a diagram data part into its items in reading order.
pub fn read(xml: &str, part: &str, limits: &Limits) -> Result<Vec<DiagramItem>> {
    let mut r = XmlReader::new(xml, part, limits);
    let mut points: Vec<(String, Point)> = Vec::new();
    let mut links: Vec<(String, u32, String)> = Vec::new();
    // The point being read, the depth of its `pt` element, and of its `dgm:t` text body.
    let mut current: Option<(String, Point, usize)> = None;
    let mut body_depth: Option<usize> = None;
    loop {
        match r.next_event()? {
            Event::Start(e) => match e.local() {
                "pt" if current.is_none() => {
                    let id = attr_string(&e, "modelId").unwrap_or_default();
                    let kind = attr_string(&e, "type").unwrap_or_else(|| "node".into());
                    current = Some((
                        id,
                        Point {
                            kind,
                            text: String::new(),
                        },
                        r.depth(),
                    ));
                }
                "t" if current.is_some() && body_depth.is_none() => body_depth = Some(r.depth()),
                "t" if body_depth.is_some() => {
                    let text = element_text(&mut r)?;
                    if let Some((_, p, _)) = current.as_mut() {
                        p.text.push_str(&text);
                    }
                }
                "p" if body_depth.is_some() => {
                    if let Some((_, p, _)) = current.as_mut() {
                        if !p.text.is_empty() && !p.text.ends_with(' ') {
                            p.text.push(' ');
                        }
                    }
                }
                "cxn" => link(&e, &mut links),
                _ => {}
            },
            Event::Empty(e) => match e.local() {
                "cxn" => link(&e, &mut links),
                "pt" if current.is_none() => {
                    let id = attr_string(&e, "modelId").unwrap_or_default();
                    let kind = attr_string(&e, "type").unwrap_or_else(|| "node".into());
                    points.push((
                        id,
                        Point {
                            kind,
                            text: String::new(),
                        },
                    ));
                }
                _ => {}
            },
            Event::End(_) => {
                if body_depth.is_some_and(|d| r.depth() < d) {
                    body_depth = None;
                }
                if current.as_ref().is_some_and(|c| r.depth() < c.2) {
                    if let Some((id, p, _)) = current.take() {
                        points.push((id, p));
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(order(points, links))
}

/// A `parOf` connection: (parent, order, child).
fn link(e: &quick_xml::events::BytesStart<'_>, links: &mut Vec<(String, u32, String)>) {
    let kind = attr(e, "type");
    if kind.as_deref().is_some_and(|k| k != "parOf") {
        return;
    }
    let (Some(src), Some(dest)) = (attr_string(e, "srcId"), attr_string(e, "destId")) else {
        return;
    };
    let ord = attr(e, "srcOrd")
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    links.push((src, ord, dest));
}

/// The items depth-first from the `doc` point; points no connection reaches follow at the top.
fn order(points: Vec<(String, Point)>, mut links: Vec<(String, u32, String)>) -> Vec<DiagramItem> {
    links.sort_by_key(|l| l.1);
    let mut children: HashMap<&str, Vec<&str>> = HashMap::new();
    for (src, _, dest) in &links {
        children
            .entry(src.as_str())
            .or_default()
            .push(dest.as_str());
    }
    let by_id: HashMap<&str, &Point> = points.iter().map(|(id, p)| (id.as_str(), p)).collect();
    let mut out = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    // Depth-first with an explicit stack (a hostile file may nest deeply or loop).
    let roots: Vec<&str> = points
        .iter()
        .filter(|(_, p)| p.kind == "doc")
        .map(|(id, _)| id.as_str())
        .collect();
    let mut stack: Vec<(&str, u8)> = Vec::new();
    for root in roots.iter().rev() {
        stack.push((root, 0));
    }
    while let Some((id, depth)) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let point = by_id.get(id);
        let is_doc = point.is_some_and(|p| p.kind == "doc");
        let mut next_depth = depth;
        if let Some(p) = point.filter(|p| matches!(p.kind.as_str(), "node" | "asst")) {
            let text = p.text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !text.is_empty() {
                out.push((depth, text));
                next_depth = depth.saturating_add(1);
            }
        }
        if is_doc {
            next_depth = 0;
        }
        if let Some(kids) = children.get(id) {
            for kid in kids.iter().rev() {
                stack.push((kid, next_depth));
            }
        }
    }
    // Text no connection reaches (a damaged part) is still the diagram's text.
    for (id, p) in &points {
        if !seen.contains(id.as_str()) && matches!(p.kind.as_str(), "node" | "asst") {
            let text = p.text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !text.is_empty() {
                out.push((0, text));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_in_tree_order() {
        let xml = r#"<dgm:dataModel xmlns:dgm="d" xmlns:a="a"><dgm:ptLst>
          <dgm:pt modelId="0" type="doc"/>
          <dgm:pt modelId="2"><dgm:t><a:p><a:r><a:t>Second</a:t></a:r></a:p></dgm:t></dgm:pt>
          <dgm:pt modelId="1"><dgm:t><a:p><a:r><a:t>First</a:t></a:r></a:p><a:p><a:r><a:t>line</a:t></a:r></a:p></dgm:t></dgm:pt>
          <dgm:pt modelId="3"><dgm:t><a:p><a:r><a:t>Child</a:t></a:r></a:p></dgm:t></dgm:pt>
          <dgm:pt modelId="9" type="sibTrans"/>
        </dgm:ptLst><dgm:cxnLst>
          <dgm:cxn modelId="c2" srcId="0" destId="2" srcOrd="1"/>
          <dgm:cxn modelId="c1" srcId="0" destId="1" srcOrd="0"/>
          <dgm:cxn modelId="c3" srcId="1" destId="3" srcOrd="0"/>
          <dgm:cxn modelId="p" type="presOf" srcId="1" destId="9"/>
        </dgm:cxnLst></dgm:dataModel>"#;
        let items = read(xml, "word/diagrams/data1.xml", &Limits::default()).unwrap();
        assert_eq!(
            items,
            [
                (0, "First line".to_string()),
                (1, "Child".to_string()),
                (0, "Second".to_string())
            ]
        );
    }
}
