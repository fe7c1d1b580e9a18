//! The tag tree: the layout's structure ([`crate::export::paged::structure`]) as krilla tag
//! groups, with the marked content and link annotations the drawing made for each node's marks
//! as leaves, in reading order.
//!
//! krilla requires every identifier it handed out to sit in the tree exactly once; each mark of
//! a page belongs to exactly one node, and its identifiers are moved out of the table as the
//! node takes them, so none is used twice or left out.

use std::collections::HashMap;
use std::num::{NonZeroU16, NonZeroU32};

use krilla::geom::Rect;
use krilla::tagging::{
    BBox, Identifier, ListNumbering, Node, TableHeaderScope, Tag, TagGroup, TagKind, TagTree,
};

use crate::export::paged::structure::{Child, Kind, ROOT, Structure};

/// Identifiers of the content drawn for each mark: `[page][mark]`.
pub(crate) type MarkIds = Vec<Vec<Vec<Identifier>>>;

/// The tag tree of a document of `pages` pages, `/Lang` on its root.
pub(crate) fn tree(s: &Structure, ids: &mut MarkIds, lang: &str, pages: usize) -> TagTree {
    let mut tree = TagTree::new().with_lang(Some(lang.to_string()));
    let cx = Cx {
        s,
        pages,
        levels: heading_levels(s),
    };
    if let Some(root) = s.nodes.get(ROOT as usize) {
        for child in children(&cx, &root.children, ids) {
            tree.push(child);
        }
    }
    tree
}

/// What turning nodes into tags needs.
struct Cx<'a> {
    s: &'a Structure,
    pages: usize,
    /// The tag level (1-based) of each heading node.
    levels: HashMap<u32, u16>,
}

/// Heading levels as a reader navigates them: the depth among the headings open above, so
/// that the first is H1 and none skips a level (PDF/UA; a document whose headings go from
/// level 1 to level 3 gets H1 then H2), the relative nesting kept.
fn heading_levels(s: &Structure) -> HashMap<u32, u16> {
    let mut open: Vec<u8> = Vec::new();
    let mut out = HashMap::new();
    for (i, node) in s.nodes.iter().enumerate() {
        if let Kind::Heading { level, title } = &node.kind
            && !title.trim().is_empty()
        {
            while open.last().is_some_and(|l| l >= level) {
                open.pop();
            }
            open.push(*level);
            out.insert(i as u32, open.len() as u16);
        }
    }
    out
}

fn children(cx: &Cx<'_>, list: &[Child], ids: &mut MarkIds) -> Vec<Node> {
    let mut out = Vec::with_capacity(list.len());
    for child in list {
        match *child {
            Child::Node(n) => {
                if let Some(node) = cx.s.nodes.get(n as usize) {
                    let mut tag = kind(cx, n, &node.kind);
                    if node.lang.is_some() {
                        tag = tag.with_lang(node.lang.clone());
                    }
                    let mut group = TagGroup::new(tag);
                    group.children = children(cx, &node.children, ids);
                    out.push(Node::Group(group));
                }
            }
            Child::Mark { page, mark } => {
                if let Some(found) = ids
                    .get_mut(page as usize)
                    .and_then(|p| p.get_mut(mark as usize))
                {
                    out.extend(found.drain(..).map(Node::Leaf));
                }
            }
        }
    }
    out
}

/// A span attribute, written only when it spans more than one row or column.
fn span(n: u32) -> Option<NonZeroU32> {
    NonZeroU32::new(n).filter(|n| n.get() > 1)
}

fn kind(cx: &Cx<'_>, id: u32, k: &Kind) -> TagKind {
    match k {
        // The root is krilla's own Document element; a second one never occurs.
        Kind::Document | Kind::Paragraph => Tag::P.into(),
        // A heading without text is no heading (PDF/UA wants each to have a title).
        Kind::Heading { title, .. } if title.trim().is_empty() => Tag::P.into(),
        Kind::Heading { level, title } => {
            let level = cx.levels.get(&id).copied().unwrap_or(u16::from(*level) + 1);
            let n = NonZeroU16::new(level.min(6)).unwrap_or(NonZeroU16::MIN);
            Tag::Hn(n, Some(title.clone())).into()
        }
        Kind::List { ordered: true } => Tag::L(ListNumbering::Decimal).into(),
        Kind::List { ordered: false } => Tag::L(ListNumbering::Disc).into(),
        Kind::ListItem => Tag::LI.into(),
        Kind::Label => Tag::Lbl.into(),
        Kind::ListBody => Tag::LBody.into(),
        Kind::Table => Tag::Table.into(),
        Kind::TableHead => Tag::THead.into(),
        Kind::TableBody => Tag::TBody.into(),
        Kind::Row => Tag::TR.into(),
        Kind::HeaderCell { column, cols, rows } => {
            let scope = if *column {
                TableHeaderScope::Column
            } else {
                TableHeaderScope::Row
            };
            Tag::TH(scope)
                .with_col_span(span(*cols))
                .with_row_span(span(*rows))
                .into()
        }
        Kind::Cell { cols, rows } => Tag::TD
            .with_col_span(span(*cols))
            .with_row_span(span(*rows))
            .into(),
        Kind::Figure { alt, bbox, .. } => {
            // krilla panics on a box on a page the document does not have: only real ones.
            let bbox = bbox.and_then(|(page, [x, y, w, h])| {
                let rect = Rect::from_xywh(x, y, w, h)?;
                (page < cx.pages).then(|| BBox::new(page, rect))
            });
            Tag::Figure(alt.clone()).with_bbox(bbox).into()
        }
        Kind::Caption => Tag::Caption.into(),
        Kind::Note => Tag::Note.into(),
        Kind::Toc => Tag::TOC.into(),
        Kind::TocItem => Tag::TOCI.into(),
        Kind::Link => Tag::Link.into(),
        Kind::Code => Tag::Code.into(),
    }
}
