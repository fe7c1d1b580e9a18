//! Tracked changes and comments as a reader of the output wants them (pandoc's
//! `--track-changes`): every change shown marked, all accepted, or all rejected, and comments
//! kept or left out. Applied to the tree before any writer sees it, so every format agrees.

use super::inline::{append, normalize_owned};
use super::{Block, ChangeKind, Document, Inline};

/// What the writers show of tracked changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrackChanges {
    /// Insertions and deletions shown marked, as the source has them.
    #[default]
    All,
    /// Every change accepted: insertions kept as plain content, deletions gone.
    Accept,
    /// Every change rejected: deletions kept as plain content, insertions gone.
    Reject,
}

impl TrackChanges {
    /// Parses `all`, `accept` or `reject` (the CLI's spelling).
    pub fn parse(s: &str) -> Option<TrackChanges> {
        match s {
            "all" => Some(TrackChanges::All),
            "accept" => Some(TrackChanges::Accept),
            "reject" => Some(TrackChanges::Reject),
            _ => None,
        }
    }
}

/// Accepts or rejects every tracked change of `doc` (nothing for [`TrackChanges::All`]), in
/// paragraphs, tables, notes and comments.
pub fn resolve_changes(doc: &mut Document, mode: TrackChanges) {
    if mode == TrackChanges::All {
        return;
    }
    let keep_inserted = mode == TrackChanges::Accept;
    edit_inlines(doc, &mut |inline| match inline {
        Inline::Tracked { change, .. } => {
            if (change.kind == ChangeKind::Insert) == keep_inserted {
                Edit::Unwrap
            } else {
                Edit::Drop
            }
        }
        _ => Edit::Keep,
    });
    // Paragraph marks: a deleted break accepted, or an inserted one rejected, joins the
    // paragraph with the next; otherwise the break stays, unmarked.
    let joins = |kind: ChangeKind| (kind == ChangeKind::Delete) == keep_inserted;
    let removed = join_paragraphs(&mut doc.blocks, &joins);
    if removed.contains(&true) {
        doc.meta.pages.blocks_removed(&removed);
    }
}

/// Settles the paragraph marks of `blocks` (and of the tables' cells in them): a paragraph
/// whose mark `joins` takes the next paragraph's content. Returns which blocks went.
fn join_paragraphs(blocks: &mut Vec<Block>, joins: &dyn Fn(ChangeKind) -> bool) -> Vec<bool> {
    let mut removed = vec![false; blocks.len()];
    let mut out: Vec<Block> = Vec::with_capacity(blocks.len());
    // Whether the last paragraph kept has taken one in already (its content is canonical by
    // then): the next one's content is appended where the two meet, so a chain of joins costs
    // its length, where normalizing the whole growing paragraph at every join cost its square.
    let mut grown = false;
    for (i, mut block) in std::mem::take(blocks).into_iter().enumerate() {
        if let Block::Table(t) = &mut block {
            for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                join_paragraphs(&mut cell.blocks, joins);
            }
        }
        // The paragraph before takes this one when its mark joins them.
        if let (Some(Block::Paragraph(prev)), Block::Paragraph(next)) = (out.last_mut(), &mut block)
            && prev.mark.as_ref().is_some_and(|m| joins(m.kind))
        {
            if !grown {
                prev.content = normalize_owned(std::mem::take(&mut prev.content));
            }
            append(
                &mut prev.content,
                normalize_owned(std::mem::take(&mut next.content)),
            );
            prev.mark = next.mark.take();
            removed[i] = true;
            grown = true;
            continue;
        }
        if let Some(Block::Paragraph(prev)) = out.last_mut() {
            prev.mark = None;
        }
        out.push(block);
        grown = false;
    }
    if let Some(Block::Paragraph(last)) = out.last_mut() {
        last.mark = None;
    }
    *blocks = out;
    removed
}

/// The paragraphs whose mark (their end) is a tracked change, in every block list.
pub fn paragraph_marks(doc: &Document) -> usize {
    let mut n = 0;
    doc.walk_blocks(&mut |_, b| {
        if matches!(b, Block::Paragraph(p) if p.mark.is_some()) {
            n += 1;
        }
    });
    n
}

/// The warning of a writer that shows no tracked paragraph marks, when `doc` has some.
pub(crate) fn unshown_marks(doc: &Document) -> Option<String> {
    let n = paragraph_marks(doc);
    (n > 0).then(|| {
        format!(
            "{n} tracked paragraph mark(s) (paragraphs added or merged by a change) are not \
             shown: their text is, as one paragraph each"
        )
    })
}

/// Removes the comments of `doc` and the marks where their ranges start and end.
pub fn drop_comments(doc: &mut Document) {
    doc.comments.clear();
    edit_inlines(doc, &mut |inline| match inline {
        Inline::CommentStart { .. } | Inline::CommentEnd { .. } => Edit::Drop,
        _ => Edit::Keep,
    });
}

/// What becomes of one inline node.
enum Edit {
    Keep,
    Drop,
    /// The wrapper goes, its children stay in its place.
    Unwrap,
}

fn edit_inlines(doc: &mut Document, decide: &mut impl FnMut(&Inline) -> Edit) {
    // What an edit leaves is put back in canonical form: the text of an unwrapped change
    // joins its neighbours (`a` + `new` is the one text `anew`), and a wrapper whose only
    // child was dropped goes.
    let mut edit = |content: &mut Vec<Inline>| {
        if edit_list(content, decide) {
            *content = super::inline::normalize(content);
        }
    };
    doc.walk_blocks_mut(&mut |_, block| {
        if let super::Block::Paragraph(p) = block {
            edit(&mut p.content);
        }
    });
    for comment in &mut doc.comments {
        edit(&mut comment.content);
    }
}

/// Edits `list` and what it holds; `false` when nothing needed an edit.
fn edit_list(list: &mut Vec<Inline>, decide: &mut impl FnMut(&Inline) -> Edit) -> bool {
    // Most lists hold nothing to edit: leave them untouched.
    if !list.iter().any(|i| needs_edit(i, decide)) {
        return false;
    }
    let old = std::mem::take(list);
    for mut inline in old {
        match decide(&inline) {
            Edit::Drop => {}
            Edit::Unwrap => {
                if let Some(children) = inline.children_mut() {
                    let mut children = std::mem::take(children);
                    edit_list(&mut children, decide);
                    list.extend(children);
                }
            }
            Edit::Keep => {
                if let Some(children) = inline.children_mut() {
                    edit_list(children, decide);
                }
                if let Inline::Note { content, .. } = &mut inline {
                    edit_list(content, decide);
                }
                list.push(inline);
            }
        }
    }
    true
}

fn needs_edit(inline: &Inline, decide: &mut impl FnMut(&Inline) -> Edit) -> bool {
    if !matches!(decide(inline), Edit::Keep) {
        return true;
    }
    let nested = match inline {
        Inline::Note { content, .. } => Some(content.as_slice()),
        other => other.children(),
    };
    nested.is_some_and(|c| c.iter().any(|i| needs_edit(i, decide)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::inline::normalize;
    use crate::ast::{Block, Change, Comment, Paragraph};

    fn tracked(kind: ChangeKind, text: &str) -> Inline {
        Inline::Tracked {
            change: Change {
                kind,
                author: Some("A".into()),
                date: None,
            },
            children: vec![Inline::text(text)],
        }
    }

    fn doc() -> Document {
        let content = vec![
            Inline::text("a "),
            tracked(ChangeKind::Insert, "new "),
            tracked(ChangeKind::Delete, "old "),
            Inline::CommentStart { id: "c1".into() },
            Inline::Note {
                kind: crate::ast::NoteKind::Footnote,
                content: vec![tracked(ChangeKind::Delete, "gone")],
            },
            Inline::CommentEnd { id: "c1".into() },
            Inline::text("z"),
        ];
        let mut d = Document::default();
        d.blocks.push(Block::Paragraph(Paragraph::new(
            crate::ast::TextType::Paragraph,
            content,
        )));
        d.comments.push(Comment {
            id: "c1".into(),
            content: vec![tracked(ChangeKind::Insert, "note")],
            ..Comment::default()
        });
        d
    }

    fn text(d: &Document) -> String {
        match &d.blocks[0] {
            Block::Paragraph(p) => crate::ast::inline::plain_text(&p.content),
            _ => String::new(),
        }
    }

    #[test]
    fn accept_keeps_insertions_and_drops_deletions_everywhere() {
        let mut d = doc();
        resolve_changes(&mut d, TrackChanges::Accept);
        assert_eq!(text(&d), "a new z");
        // The accepted text is one with its neighbours, as every reader would have built it.
        assert!(d.validate().is_ok(), "{:?}", d.validate());
        let Block::Paragraph(p) = &d.blocks[0] else {
            panic!("paragraph")
        };
        assert_eq!(p.content.first(), Some(&Inline::text("a new ")));
        let mut tracked = 0;
        d.walk_inlines(&mut |i| tracked += usize::from(matches!(i, Inline::Tracked { .. })));
        assert_eq!(tracked, 0);
        assert_eq!(
            crate::ast::inline::plain_text(&d.comments[0].content),
            "note"
        );
    }

    #[test]
    fn reject_keeps_deletions_and_drops_insertions() {
        let mut d = doc();
        resolve_changes(&mut d, TrackChanges::Reject);
        assert_eq!(text(&d), "a old z");
        assert!(d.validate().is_ok(), "{:?}", d.validate());
        assert!(d.comments[0].content.is_empty());
    }

    #[test]
    fn all_changes_nothing_and_comments_can_go() {
        let mut d = doc();
        let before = d.clone();
        resolve_changes(&mut d, TrackChanges::All);
        assert_eq!(d, before);
        drop_comments(&mut d);
        assert!(d.comments.is_empty());
        assert!(d.validate().is_ok(), "{:?}", d.validate());
        let mut marks = 0;
        d.walk_inlines(&mut |i| {
            marks += usize::from(matches!(
                i,
                Inline::CommentStart { .. } | Inline::CommentEnd { .. }
            ))
        });
        assert_eq!(marks, 0);
    }

    /// A chain of paragraphs whose marks were deleted, accepted, is one paragraph whose content
    /// is the canonical form of all of theirs (bold and plain runs alternate, so each join
    /// meets at a wrapper); 20,000 of them, which normalizing the growing paragraph at every
    /// join took time growing with the square of.
    #[test]
    fn a_long_chain_of_deleted_marks_joins_into_one_paragraph() {
        let n = 20_000;
        let deleted = Change {
            kind: ChangeKind::Delete,
            author: None,
            date: None,
        };
        let contents: Vec<Vec<Inline>> = (0..n)
            .map(|i| {
                vec![
                    Inline::text(format!("p{i} ")),
                    Inline::styled(crate::ast::TextStyle::Bold, vec![Inline::text("b")]),
                    // Not canonical: two texts side by side.
                    Inline::text("x"),
                    Inline::text("y"),
                ]
            })
            .collect();
        let mut d = Document::default();
        for (i, content) in contents.iter().enumerate() {
            let mut p = Paragraph::new(crate::ast::TextType::Paragraph, content.clone());
            p.mark = (i + 1 < n).then(|| deleted.clone());
            d.blocks.push(Block::Paragraph(p));
        }
        resolve_changes(&mut d, TrackChanges::Accept);
        let [Block::Paragraph(p)] = d.blocks.as_slice() else {
            panic!("{} blocks", d.blocks.len())
        };
        assert_eq!(p.content, normalize(&contents.concat()));
        assert_eq!(p.mark, None);
    }
}
