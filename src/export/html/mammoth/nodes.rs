//! mammoth's HTML model: elements that are either fresh (always new) or continue an open
//! element of the same tag and attributes, collapsed and written the way mammoth 1.13 does
//! (`lib/html/simplify.js`, `lib/writers/html-writer.js`), so the fragment is the same bytes.

use super::style_map::{HtmlPath, TagSpec};

/// A node of the fragment being built.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Node {
    /// An element.
    Element(Element),
    /// Text (escaped when written).
    Text(String),
    /// Keeps the element it is in even when it holds nothing else (a table cell, an empty
    /// paragraph when empty paragraphs are kept).
    ForceWrite,
    /// Markup written as it is (MathML made by our own writer).
    Raw(String),
}

/// An element and its children.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Element {
    pub tag: TagSpec,
    pub children: Vec<Node>,
}

/// Tags written as `<tag />` when they hold nothing.
const VOID: [&str; 4] = ["br", "hr", "img", "input"];

impl Node {
    /// A fresh element.
    pub fn fresh(tag: &str, attributes: Vec<(String, String)>, children: Vec<Node>) -> Node {
        Node::Element(Element {
            tag: TagSpec {
                attributes,
                ..TagSpec::new(tag, true)
            },
            children,
        })
    }

    /// An element that continues an open one of its tag and attributes.
    pub fn plain(tag: &str, attributes: Vec<(String, String)>, children: Vec<Node>) -> Node {
        Node::Element(Element {
            tag: TagSpec {
                attributes,
                ..TagSpec::new(tag, false)
            },
            children,
        })
    }
}

impl Element {
    fn is_void(&self) -> bool {
        self.children.is_empty()
            && self
                .tag
                .names
                .first()
                .is_some_and(|n| VOID.contains(&n.as_str()))
    }
}

/// `children` inside the path's elements (the last innermost); an ignoring path drops them.
pub(super) fn wrap(path: &HtmlPath, children: Vec<Node>) -> Vec<Node> {
    match path {
        HtmlPath::Ignore => Vec::new(),
        HtmlPath::Elements(tags) => {
            let mut nodes = children;
            for tag in tags.iter().rev() {
                nodes = vec![Node::Element(Element {
                    tag: tag.clone(),
                    children: nodes,
                })];
            }
            nodes
        }
    }
}

/// Empty elements removed, then elements that continue their predecessor merged into it.
pub(super) fn simplify(nodes: Vec<Node>) -> Vec<Node> {
    collapse(remove_empty(nodes))
}

fn remove_empty(nodes: Vec<Node>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        match node {
            Node::Element(e) => {
                let children = remove_empty(e.children);
                let e = Element {
                    tag: e.tag,
                    children,
                };
                if !e.children.is_empty() || e.is_void() {
                    out.push(Node::Element(e));
                }
            }
            Node::Text(t) if t.is_empty() => {}
            Node::Raw(r) if r.is_empty() => {}
            other => out.push(other),
        }
    }
    out
}

fn collapse(nodes: Vec<Node>) -> Vec<Node> {
    let mut out = Vec::with_capacity(nodes.len());
    for node in nodes {
        let node = match node {
            Node::Element(e) => Node::Element(Element {
                tag: e.tag,
                children: collapse(e.children),
            }),
            other => other,
        };
        append(&mut out, node);
    }
    out
}

/// Whether `child` (not fresh) continues `last`: one of its tag names is `last`'s tag and
/// the attributes are the same (in any order).
fn continues(child: &TagSpec, last: &TagSpec) -> bool {
    let Some(name) = last.names.first() else {
        return false;
    };
    if !child.names.contains(name) {
        return false;
    }
    let mut a = child.attributes.clone();
    let mut b = last.attributes.clone();
    a.sort();
    b.sort();
    a == b
}

fn append(children: &mut Vec<Node>, child: Node) {
    if let Node::Element(c) = &child {
        if !c.tag.fresh {
            if let Some(Node::Element(last)) = children.last_mut() {
                if continues(&c.tag, &last.tag) {
                    let Node::Element(c) = child else {
                        return;
                    };
                    if !c.tag.separator.is_empty() {
                        append(&mut last.children, Node::Text(c.tag.separator.clone()));
                    }
                    for grandchild in c.children {
                        append(&mut last.children, grandchild);
                    }
                    return;
                }
            }
        }
    }
    children.push(child);
}

/// Writes the nodes as mammoth's simple writer does: no whitespace added, attributes in
/// their order, `&`, `<`, `>` escaped in text and `"` too in attributes.
pub(super) fn write(nodes: &[Node], out: &mut String) {
    for node in nodes {
        match node {
            Node::Text(t) => escape(t, false, out),
            Node::Raw(r) => out.push_str(r),
            Node::ForceWrite => {}
            Node::Element(e) => {
                let name = e.tag.names.first().map_or("span", String::as_str);
                out.push('<');
                out.push_str(name);
                for (k, v) in &e.tag.attributes {
                    out.push(' ');
                    out.push_str(k);
                    out.push_str("=\"");
                    escape(v, true, out);
                    out.push('"');
                }
                if e.is_void() {
                    out.push_str(" />");
                } else {
                    out.push('>');
                    write(&e.children, out);
                    out.push_str("</");
                    out.push_str(name);
                    out.push('>');
                }
            }
        }
    }
}

fn escape(s: &str, attribute: bool, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(nodes: Vec<Node>) -> String {
        let mut out = String::new();
        write(&simplify(nodes), &mut out);
        out
    }

    #[test]
    fn plain_elements_continue_fresh_ones_do_not() {
        let strong = |t: &str| Node::plain("strong", vec![], vec![Node::Text(t.into())]);
        let p = |c: Vec<Node>| Node::fresh("p", vec![], c);
        assert_eq!(
            html(vec![
                p(vec![strong("a"), strong("b")]),
                p(vec![strong("c")])
            ]),
            "<p><strong>ab</strong></p><p><strong>c</strong></p>"
        );
    }

    #[test]
    fn empty_elements_go_unless_forced_or_void() {
        let nodes = vec![
            Node::fresh("p", vec![], vec![]),
            Node::fresh("td", vec![], vec![Node::ForceWrite]),
            Node::fresh("br", vec![], vec![]),
        ];
        assert_eq!(html(nodes), "<td></td><br />");
    }

    #[test]
    fn text_and_attributes_are_escaped() {
        let a = Node::fresh(
            "a",
            vec![("href".into(), "x?a=1&b=\"2\"".into())],
            vec![Node::Text("<&>\"".into())],
        );
        assert_eq!(
            html(vec![a]),
            "<a href=\"x?a=1&amp;b=&quot;2&quot;\">&lt;&amp;&gt;\"</a>"
        );
    }
}
