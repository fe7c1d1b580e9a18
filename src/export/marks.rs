//! Reducing a run to what a plainer format holds (Markdown, parsX): its marks ([`reduce`]:
//! tracked changes accepted, insertions kept and deletions dropped; character styles, run
//! languages and unsupported text styles dropped; one link per run) and its leaf
//! ([`reduce_leaf`]: comment anchors and index marks dropped, ruby flattened to text). Each
//! writer decides which styles and links it keeps and how a loss is worded; the rules
//! themselves live here once.

use crate::ast::inline::{Leaf, Mark};
use crate::ast::{Inline, TextStyle};
use crate::report::WarningKind;

/// What a writer loses when a mark is reduced away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loss {
    /// A tracked change was accepted.
    Tracked,
    /// A character style (span) was dropped.
    Span,
    /// A link inside a link: only the outer one stays.
    NestedLink,
    /// A run's language or direction was dropped.
    Lang,
    /// A text style the format has no syntax for.
    Style(TextStyle),
    /// A comment anchor was dropped.
    Comments,
    /// An index entry was dropped.
    Index,
    /// Ruby was written as its base text and reading.
    Ruby,
}

impl Loss {
    /// The warning a writer for `format` gives (once per key): `(key, kind, message)`.
    pub(crate) fn warning(self, format: &str) -> (String, WarningKind, String) {
        match self {
            Loss::Tracked => (
                "tracked".into(),
                WarningKind::Lossy,
                "tracked changes are accepted: inserted text kept, deleted text dropped".into(),
            ),
            Loss::Span => (
                "span".into(),
                WarningKind::Lossy,
                format!("character styles are not written to {format}"),
            ),
            Loss::NestedLink => (
                "nested-link".into(),
                WarningKind::Lossy,
                "a link inside a link keeps only the outer one".into(),
            ),
            Loss::Lang => (
                "lang".into(),
                WarningKind::Lossy,
                format!(
                    "{format} has no way to mark the language or direction of a run: such runs                      are written as plain text"
                ),
            ),
            Loss::Style(s) => {
                let name = format!("{s:?}").to_lowercase();
                (
                    format!("style-{name}"),
                    WarningKind::Lossy,
                    format!("{name} has no {format} syntax; written as plain text"),
                )
            }
            Loss::Comments => (
                "comments".into(),
                WarningKind::Dropped,
                format!("comments are not written to {format}"),
            ),
            Loss::Index => (
                "index".into(),
                WarningKind::Dropped,
                format!("index entries are not written to {format}"),
            ),
            Loss::Ruby => (
                "ruby".into(),
                WarningKind::Lossy,
                "ruby is written as \"base (reading)\"".into(),
            ),
        }
    }
}

/// A writer's choices while marks are reduced.
pub(crate) trait MarkPolicy {
    /// Whether the format writes this text style.
    fn keeps_style(&self, style: TextStyle) -> bool;
    /// Whether this link is written. A writer dropping one says why itself.
    fn keeps_link(&mut self, href: &str) -> bool;
    /// Told of every loss (writers usually warn once per kind).
    fn lost(&mut self, loss: Loss);
}

/// Reduces one run's marks (outermost first) under `policy`; `None` when the run is deleted
/// text, which an accepted change drops.
pub(crate) fn reduce(marks: Vec<Mark>, policy: &mut impl MarkPolicy) -> Option<Vec<Mark>> {
    let mut kept = Vec::with_capacity(marks.len());
    let mut linked = false;
    for mark in marks {
        match mark {
            Mark::Tracked(key) => {
                policy.lost(Loss::Tracked);
                if !key.insert {
                    return None;
                }
            }
            Mark::Span(_) => policy.lost(Loss::Span),
            Mark::Lang(_) => policy.lost(Loss::Lang),
            Mark::Link(href) => {
                if linked {
                    policy.lost(Loss::NestedLink);
                } else if policy.keeps_link(&href) {
                    linked = true;
                    kept.push(Mark::Link(href));
                }
            }
            Mark::Style(s) => {
                if policy.keeps_style(s) {
                    kept.push(mark);
                } else {
                    policy.lost(Loss::Style(s));
                }
            }
        }
    }
    Some(kept)
}

/// Reduces one run's leaf under `policy`: comment anchors and index marks go (`None`), ruby
/// becomes the text "base (reading)", anything else is kept. A writer with its own form for
/// one of these (Markdown's comments as notes) handles that leaf before calling this.
pub(crate) fn reduce_leaf(leaf: Leaf, policy: &mut impl MarkPolicy) -> Option<Leaf> {
    match leaf {
        Leaf::Atom(Inline::CommentStart { .. } | Inline::CommentEnd { .. }) => {
            policy.lost(Loss::Comments);
            None
        }
        Leaf::Atom(Inline::IndexMark { .. }) => {
            policy.lost(Loss::Index);
            None
        }
        Leaf::Atom(Inline::Ruby { base, reading }) => {
            policy.lost(Loss::Ruby);
            Some(Leaf::Text(Inline::ruby_text(&base, &reading)))
        }
        other => Some(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::inline::ChangeKey;

    #[derive(Default)]
    struct Plain {
        losses: Vec<Loss>,
    }

    impl MarkPolicy for Plain {
        fn keeps_style(&self, style: TextStyle) -> bool {
            style == TextStyle::Bold
        }
        fn keeps_link(&mut self, href: &str) -> bool {
            !href.is_empty()
        }
        fn lost(&mut self, loss: Loss) {
            self.losses.push(loss);
        }
    }

    fn change(insert: bool) -> Mark {
        Mark::Tracked(ChangeKey {
            insert,
            author: None,
            date: None,
        })
    }

    #[test]
    fn deletions_drop_the_run_insertions_keep_it() {
        let mut p = Plain::default();
        assert_eq!(reduce(vec![change(false)], &mut p), None);
        assert_eq!(
            reduce(vec![change(true), Mark::Style(TextStyle::Bold)], &mut p),
            Some(vec![Mark::Style(TextStyle::Bold)])
        );
        assert_eq!(p.losses, vec![Loss::Tracked, Loss::Tracked]);
    }

    #[test]
    fn one_link_styles_by_policy_spans_go() {
        let mut p = Plain::default();
        let got = reduce(
            vec![
                Mark::Link("".into()),
                Mark::Link("a".into()),
                Mark::Span("Quote".into()),
                Mark::Link("b".into()),
                Mark::Style(TextStyle::Italic),
                Mark::Style(TextStyle::Bold),
            ],
            &mut p,
        );
        // The empty link is refused, so `a` is the outer one and `b` nested.
        assert_eq!(
            got,
            Some(vec![Mark::Link("a".into()), Mark::Style(TextStyle::Bold)])
        );
        assert_eq!(
            p.losses,
            vec![Loss::Span, Loss::NestedLink, Loss::Style(TextStyle::Italic)]
        );
    }

    #[test]
    fn anchors_and_index_marks_go_ruby_becomes_text() {
        let mut p = Plain::default();
        let comment = Leaf::Atom(Inline::CommentStart { id: "1".into() });
        assert_eq!(reduce_leaf(comment, &mut p), None);
        let ruby = Leaf::Atom(Inline::Ruby {
            base: "漢".into(),
            reading: "かん".into(),
        });
        assert_eq!(
            reduce_leaf(ruby, &mut p),
            Some(Leaf::Text(Inline::ruby_text("漢", "かん")))
        );
        assert_eq!(
            reduce_leaf(Leaf::Text("a".into()), &mut p),
            Some(Leaf::Text("a".into()))
        );
        assert_eq!(p.losses, vec![Loss::Comments, Loss::Ruby]);
    }
}
