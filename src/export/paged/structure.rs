//! The document's logical structure, recorded while the layout places it: the tree a tagged
//! PDF's structure tree is made from (headings, paragraphs, lists, tables, figures, notes,
//! directories, links), and which drawn items belong to which node.
//!
//! The layout opens and closes nodes around what it places ([`Structure::open`],
//! [`Structure::close`]); [`super::page::Flow::push`] starts a new *mark* on the page whenever
//! the node the items belong to changes, and adds the mark to that node's children. A node's
//! children are its sub-nodes and its marks, in the order they were met, which is reading
//! order even where the drawing order differs (a footnote drawn at the foot of the page sits
//! in the tree right after the line that cites it).
//!
//! Only the PDF writer reads this; the recording costs one comparison per drawn item, and
//! nothing when the pages keep no items (the Word writer's page numbers).

#![cfg_attr(not(feature = "pdf"), allow(dead_code))]

use std::collections::HashMap;

/// The node of the whole document.
pub(crate) const ROOT: u32 = 0;
/// "Not part of the structure": repeated table header rows and other pagination artifacts.
pub(crate) const ARTIFACT: u32 = u32::MAX;

/// What a node is.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// The whole document (the root).
    Document,
    /// A heading; `level` 0 is the top level. `title` is its text (PDF/UA wants it as `/T`).
    Heading { level: u8, title: String },
    /// A paragraph (also title block lines, captions standing alone, comment entries).
    Paragraph,
    /// A list of consecutive list paragraphs of one level.
    List { ordered: bool },
    /// One list entry: its label and its body.
    ListItem,
    /// The number or bullet of a list entry.
    Label,
    /// The text of a list entry (and lists nested below it).
    ListBody,
    /// A table.
    Table,
    /// The table's header rows.
    TableHead,
    /// The table's other rows.
    TableBody,
    /// A table row.
    Row,
    /// A header cell; `column` when it heads its column (a cell of a header row); the columns
    /// and rows it spans.
    HeaderCell { column: bool, cols: u32, rows: u32 },
    /// A data cell and the columns and rows it spans (an empty one fills a short row).
    Cell { cols: u32, rows: u32 },
    /// A picture: its media name, its description (alt text, else caption) and, once placed,
    /// its page and box (x, y, w, h, top-down points).
    Figure {
        media: String,
        alt: Option<String>,
        bbox: Option<(usize, [f32; 4])>,
    },
    /// A picture's or table's caption.
    Caption,
    /// A footnote's or endnote's text.
    Note,
    /// A directory (contents, figures, tables).
    Toc,
    /// One directory entry.
    TocItem,
    /// A link: its text and its clickable area.
    Link,
    /// Code (text in the mono face).
    Code,
}

/// A child of a node: a node, or a run of drawn items (a mark) on a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Child {
    Node(u32),
    Mark { page: u32, mark: u32 },
}

/// One node of the tree.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: Kind,
    pub parent: u32,
    pub children: Vec<Child>,
    /// The node's language (BCP 47) where it differs from the document's.
    pub lang: Option<String>,
}

/// A run of a page's items that belongs to one node: items from `start` to the next mark's
/// start. `node` is [`ARTIFACT`] for items outside the structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Mark {
    pub start: u32,
    pub node: u32,
}

/// The tree and where the layout is in it.
#[derive(Debug, Clone)]
pub(crate) struct Structure {
    pub nodes: Vec<Node>,
    /// The node items pushed now belong to.
    pub current: u32,
    /// While a list entry is placed: its label node (the pieces hanging left of the text).
    pub label: Option<u32>,
    /// Description of each picture by media name (alt text, else caption), for pictures
    /// inside text and cells, whose layout pieces carry only the name.
    pub alt: HashMap<String, String>,
    /// The node of each footnote (by index), made where it is first cited.
    notes: HashMap<usize, u32>,
    /// The link node opened last, and its link ([`Structure::open_link`]).
    last_link: Option<(u32, u32)>,
    /// Off when the pages keep no items: nothing is recorded.
    pub on: bool,
}

impl Default for Structure {
    fn default() -> Self {
        Structure {
            nodes: vec![Node {
                kind: Kind::Document,
                parent: ROOT,
                children: Vec::new(),
                lang: None,
            }],
            current: ROOT,
            label: None,
            alt: HashMap::new(),
            notes: HashMap::new(),
            last_link: None,
            on: true,
        }
    }
}

impl Structure {
    /// Adds a node of `kind` as the last child of `parent` (the root when `parent` is an
    /// artifact or unknown) and returns it. Nothing is added when recording is off.
    pub(crate) fn add(&mut self, parent: u32, kind: Kind) -> u32 {
        if !self.on {
            return ROOT;
        }
        let parent = if (parent as usize) < self.nodes.len() {
            parent
        } else {
            ROOT
        };
        let id = self.nodes.len() as u32;
        self.nodes.push(Node {
            kind,
            lang: None,
            parent,
            children: Vec::new(),
        });
        self.nodes[parent as usize].children.push(Child::Node(id));
        id
    }

    /// Adds a node under the current one and makes it current.
    pub(crate) fn open(&mut self, kind: Kind) -> u32 {
        let id = self.add(self.current, kind);
        self.current = id;
        id
    }

    /// Opens the node of a piece of link `link` (an index into the inliner's links) under the
    /// current node and makes it current: the node of the piece before it when that is the
    /// current node's last child, so a link that goes on past a line's end or a change of
    /// style is one Link element (one link to a screen reader, its annotations together),
    /// else a new one.
    pub(crate) fn open_link(&mut self, link: u32) -> u32 {
        if let Some((node, l)) = self.last_link {
            let last = self
                .nodes
                .get(self.current as usize)
                .and_then(|n| n.children.last());
            if l == link && last == Some(&Child::Node(node)) {
                self.current = node;
                return node;
            }
        }
        let id = self.open(Kind::Link);
        if self.on {
            self.last_link = Some((id, link));
        }
        id
    }

    /// Sets the language of node `id` (a paragraph in another language than the document).
    pub(crate) fn set_lang(&mut self, id: u32, lang: Option<String>) {
        if let Some(node) = self.nodes.get_mut(id as usize)
            && id != ROOT
        {
            node.lang = lang;
        }
    }

    /// Makes the parent of `id` current again (the root for the root or an artifact).
    pub(crate) fn close(&mut self, id: u32) {
        self.current = self.nodes.get(id as usize).map_or(ROOT, |n| n.parent);
    }

    /// The node of footnote `n`, made under the current node on its first citation.
    pub(crate) fn note(&mut self, n: usize) -> u32 {
        if let Some(&id) = self.notes.get(&n) {
            return id;
        }
        let id = self.add(self.current, Kind::Note);
        if self.on {
            self.notes.insert(n, id);
        }
        id
    }

    /// Records that mark `mark` of page `page` belongs to `node`.
    pub(crate) fn mark(&mut self, node: u32, page: usize, mark: usize) {
        if let Some(n) = self.nodes.get_mut(node as usize) {
            n.children.push(Child::Mark {
                page: page as u32,
                mark: mark as u32,
            });
        }
    }

    /// What node `id` is.
    pub(crate) fn kind(&self, id: u32) -> Option<&Kind> {
        self.nodes.get(id as usize).map(|n| &n.kind)
    }

    /// Sets the box of the figure `node` to the first picture placed in it.
    pub(crate) fn place_figure(&mut self, node: u32, page: usize, rect: [f32; 4]) {
        if let Some(Node {
            kind: Kind::Figure { bbox, .. },
            ..
        }) = self.nodes.get_mut(node as usize)
            && bbox.is_none()
        {
            *bbox = Some((page, rect));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_nest_and_close_back_to_their_parent() {
        let mut s = Structure::default();
        let list = s.open(Kind::List { ordered: false });
        let item = s.open(Kind::ListItem);
        s.mark(item, 0, 0);
        s.close(item);
        assert_eq!(s.current, list);
        s.close(list);
        assert_eq!(s.current, ROOT);
        assert_eq!(s.nodes[ROOT as usize].children, vec![Child::Node(list)]);
        assert_eq!(
            s.nodes[item as usize].children,
            vec![Child::Mark { page: 0, mark: 0 }]
        );
        // Unknown ids never panic: they fall back to the root.
        s.close(12345);
        assert_eq!(s.current, ROOT);
        assert_eq!(s.add(ARTIFACT, Kind::Paragraph) as usize, s.nodes.len() - 1);
        let n = s.note(3);
        assert_eq!(s.note(3), n, "a note is one node however often cited");
    }
}
