//! The canonical form of inline content ([`normalize`]): content flattened into runs (one leaf
//! and the marks over it) and nested again in [`Mark`]'s order, adjacent runs with the same
//! marks merged, empty text and empty wrappers gone; and [`unwrap_marks`], which takes some
//! wrappers out of canonical content without flattening it.

use super::{Inline, Mark, TextStyle};

/// The leaf of a [`Run`].
#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    /// Text.
    Text(String),
    /// A line break.
    LineBreak,
    /// Any other non-wrapper inline (note, cross-reference, image, index mark, comment anchor).
    Atom(Inline),
}

/// Inline content flattened: one leaf and the marks that apply to it, in canonical order.
/// Readers that meet formatting as flags (Word runs) build runs; [`from_runs`] nests them.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The marks, sorted and without duplicates after [`canonical_marks`].
    pub marks: Vec<Mark>,
    /// The content.
    pub leaf: Leaf,
}

/// Sorts marks into canonical order, drops duplicates, unnamed character styles, links
/// without a target and empty language marks, keeps one language mark (the first in order; runs
/// built by [`to_runs`] have one already), and keeps only one of subscript and superscript
/// (superscript wins: a run cannot be both, and Word's `vertAlign` has one value).
pub fn canonical_marks(marks: &mut Vec<Mark>) {
    // A character style without a name, a link without a target or a language mark without
    // language or direction says nothing, and no format could name them either.
    marks.retain(|m| match m {
        Mark::Span(s) | Mark::Link(s) => !s.is_empty(),
        Mark::Lang(k) => !k.is_empty(),
        _ => true,
    });
    // Most runs carry one mark (their language) or none: nothing to order or keep apart.
    if marks.len() < 2 {
        return;
    }
    marks.sort();
    marks.dedup();
    let mut langs = 0;
    marks.retain(|m| {
        langs += usize::from(matches!(m, Mark::Lang(_)));
        !matches!(m, Mark::Lang(_)) || langs == 1
    });
    if marks.contains(&Mark::Style(TextStyle::Superscript)) {
        marks.retain(|m| *m != Mark::Style(TextStyle::Subscript));
    }
}

/// Flattens inline content into runs (marks in canonical order).
pub fn to_runs(inlines: &[Inline]) -> Vec<Run> {
    let mut out = Vec::new();
    let mut stack = Vec::new();
    flatten(inlines, &mut stack, &mut out);
    out
}

fn flatten(inlines: &[Inline], stack: &mut Vec<Mark>, out: &mut Vec<Run>) {
    for inline in inlines {
        if let (Some(mark), Some(children)) = (Mark::of(inline), inline.children()) {
            with_mark(stack, mark, |stack| flatten(children, stack, out));
            continue;
        }
        let leaf = match inline {
            Inline::Text { text } => Leaf::Text(text.clone()),
            Inline::LineBreak => Leaf::LineBreak,
            Inline::Note { kind, content } => Leaf::Atom(Inline::Note {
                kind: *kind,
                content: normalize(content),
            }),
            other => Leaf::Atom(other.clone()),
        };
        push_leaf(stack, leaf, out);
    }
}

/// Runs `inner` with `mark` open: pushed, or, for a language mark inside another, laid over
/// the outer one's fields (one language mark per run).
fn with_mark(stack: &mut Vec<Mark>, mark: Mark, inner: impl FnOnce(&mut Vec<Mark>)) {
    if let Mark::Lang(key) = &mark {
        if let Some(at) = stack.iter().position(|m| matches!(m, Mark::Lang(_))) {
            let outer = stack[at].clone();
            if let Mark::Lang(o) = &outer {
                stack[at] = Mark::Lang(o.overlaid(key));
            }
            inner(stack);
            stack[at] = outer;
            return;
        }
    }
    stack.push(mark);
    inner(stack);
    stack.pop();
}

/// A leaf under the open marks (those that apply to it), as a run.
fn push_leaf(stack: &[Mark], leaf: Leaf, out: &mut Vec<Run>) {
    let mut marks = stack.to_vec();
    if matches!(leaf, Leaf::Atom(_)) {
        marks.retain(Mark::applies_to_atoms);
    }
    canonical_marks(&mut marks);
    out.push(Run { marks, leaf });
}

/// [`to_runs`] for content the caller gives up: text and atoms move into the runs instead of
/// being copied.
pub fn into_runs(inlines: Vec<Inline>) -> Vec<Run> {
    let mut out = Vec::with_capacity(inlines.len());
    let mut stack = Vec::new();
    flatten_owned(inlines, &mut stack, &mut out);
    out
}

/// [`flatten`], moving what it reads.
fn flatten_owned(inlines: Vec<Inline>, stack: &mut Vec<Mark>, out: &mut Vec<Run>) {
    for inline in inlines {
        let leaf = match Mark::split(inline) {
            Ok((mark, children)) => {
                with_mark(stack, mark, |stack| flatten_owned(children, stack, out));
                continue;
            }
            Err(Inline::Text { text }) => Leaf::Text(text),
            Err(Inline::LineBreak) => Leaf::LineBreak,
            Err(Inline::Note { kind, content }) => Leaf::Atom(Inline::Note {
                kind,
                content: from_runs(into_runs(content)),
            }),
            Err(other) => Leaf::Atom(other),
        };
        push_leaf(stack, leaf, out);
    }
}

/// Nests runs into canonical inline content: adjacent text with the same marks is merged, empty
/// text is dropped, and each mark opens as late and closes as early as the canonical order allows.
pub fn from_runs(runs: impl IntoIterator<Item = Run>) -> Vec<Inline> {
    // Merge first so nesting sees the final leaves. A `Vec` of runs (what the readers hand over)
    // is merged where it lies: collecting its own iterator reuses its memory.
    let mut merged: Vec<Run> = runs.into_iter().collect();
    for run in &mut merged {
        canonical_marks(&mut run.marks);
        if let Leaf::Atom(atom) = &mut run.leaf {
            run.marks.retain(Mark::applies_to_atoms);
            if let Inline::Note { content, .. } = atom {
                *content = normalize(content);
            }
        }
    }
    merged.retain(|run| !matches!(&run.leaf, Leaf::Text(t) if t.is_empty()));
    merged.dedup_by(|run, prev| match (&run.leaf, &mut prev.leaf) {
        (Leaf::Text(t), Leaf::Text(into)) if run.marks == prev.marks => {
            into.push_str(t);
            true
        }
        _ => false,
    });
    // `open` holds each open wrapper's mark with the children it has collected so far, innermost
    // last; `top` collects the top level. Runs are owned: their marks move into `open` and on
    // into the wrappers, never cloned.
    let mut top: Vec<Inline> = Vec::with_capacity(merged.len());
    let mut open: Vec<(Mark, Vec<Inline>)> = Vec::new();
    for Run { marks, leaf } in merged {
        let common = open
            .iter()
            .zip(&marks)
            .take_while(|((a, _), b)| a == *b)
            .count();
        while open.len() > common {
            close_frame(&mut open, &mut top);
        }
        for mark in marks.into_iter().skip(common) {
            open.push((mark, Vec::new()));
        }
        let leaf = match leaf {
            Leaf::Text(text) => Inline::Text { text },
            Leaf::LineBreak => Inline::LineBreak,
            Leaf::Atom(atom) => atom,
        };
        match open.last_mut() {
            Some((_, children)) => children.push(leaf),
            None => top.push(leaf),
        }
    }
    while !open.is_empty() {
        close_frame(&mut open, &mut top);
    }
    top
}

/// Closes the innermost open wrapper into the one around it, or into the top level.
fn close_frame(open: &mut Vec<(Mark, Vec<Inline>)>, top: &mut Vec<Inline>) {
    let Some((mark, children)) = open.pop() else {
        return;
    };
    let wrapped = mark.into_wrapper(children);
    match open.last_mut() {
        Some((_, parent)) => parent.push(wrapped),
        None => top.push(wrapped),
    }
}

/// Returns the canonical form of `inlines` (see the module documentation).
pub fn normalize(inlines: &[Inline]) -> Vec<Inline> {
    from_runs(to_runs(inlines))
}

/// [`normalize`] for content the caller gives up: its texts move into the runs instead of being
/// copied.
pub fn normalize_owned(inlines: Vec<Inline>) -> Vec<Inline> {
    from_runs(into_runs(inlines))
}

/// Canonical `inlines` without the wrappers `unwrap` picks, each one's children in its place,
/// and what then stands side by side joined: text to text, a wrapper to the same wrapper. This
/// is [`normalize`] of the same runs without those marks (every wrapper of canonical content
/// nests in mark order, so joining neighbours level by level is all that normalizing would do),
/// made without flattening the content into runs and nesting it again: the texts and the kept
/// wrappers move (a text is copied only onto the one it joins). Notes are atoms here: their
/// content is left as it is.
pub fn unwrap_marks(mut inlines: Vec<Inline>, unwrap: &impl Fn(&Inline) -> bool) -> Vec<Inline> {
    // One wrapper to unwrap around everything (a paragraph in its own language's one mark): its
    // children are the list.
    while let [only] = inlines.as_mut_slice() {
        if !unwrap(only) {
            break;
        }
        match only.children_mut() {
            Some(children) => inlines = std::mem::take(children),
            None => break,
        }
    }
    // Nothing to unwrap: the list as it is, not built again.
    if !inlines.iter().any(|i| holds(i, unwrap)) {
        return inlines;
    }
    let mut out = Vec::with_capacity(inlines.len());
    for inline in inlines {
        push_unwrapped(&mut out, inline, unwrap);
    }
    out
}

/// Canonical `more` added after canonical `out`, joined where the two touch (text to text, a
/// wrapper to the same wrapper, level by level): [`normalize`] of the two lists one after the
/// other, made in time proportional to `more` alone, so content built up piece by piece (a
/// paragraph that takes in the next, again and again) is not flattened and nested whole for
/// every piece.
pub fn append(out: &mut Vec<Inline>, more: Vec<Inline>) {
    for inline in more {
        push_unwrapped(out, inline, &|_| false);
    }
}

/// Whether `inline` is or holds a wrapper `unwrap` picks.
fn holds(inline: &Inline, unwrap: &impl Fn(&Inline) -> bool) -> bool {
    inline
        .children()
        .is_some_and(|c| unwrap(inline) || c.iter().any(|i| holds(i, unwrap)))
}

/// Adds `inline` to `out` for [`unwrap_marks`].
fn push_unwrapped(out: &mut Vec<Inline>, inline: Inline, unwrap: &impl Fn(&Inline) -> bool) {
    let inline = if unwrap(&inline) {
        match Mark::split(inline) {
            Ok((_, children)) => {
                for child in children {
                    push_unwrapped(out, child, unwrap);
                }
                return;
            }
            Err(leaf) => leaf,
        }
    } else {
        inline
    };
    match (out.last_mut(), inline) {
        // The canonical form has no empty text (`from_runs` drops it).
        (_, Inline::Text { text }) if text.is_empty() => {}
        (Some(Inline::Text { text: into }), Inline::Text { text }) => into.push_str(&text),
        (Some(last), mut inline) if same_wrapper(last, &inline) => {
            if let (Some(into), Some(children)) = (last.children_mut(), inline.children_mut()) {
                for child in std::mem::take(children) {
                    push_unwrapped(into, child, unwrap);
                }
            }
        }
        (_, mut inline) => {
            if let Some(children) = inline.children_mut() {
                *children = unwrap_marks(std::mem::take(children), unwrap);
                // A wrapper around nothing but what was dropped is no wrapper in canonical form.
                if children.is_empty() {
                    return;
                }
            }
            out.push(inline);
        }
    }
}

/// Whether `a` and `b` are wrappers of the same mark (what [`from_runs`] keeps in one).
fn same_wrapper(a: &Inline, b: &Inline) -> bool {
    match (a, b) {
        (Inline::Styled { style: x, .. }, Inline::Styled { style: y, .. }) => x == y,
        (Inline::Link { href: x, .. }, Inline::Link { href: y, .. }) => x == y,
        (Inline::Span { style: x, .. }, Inline::Span { style: y, .. }) => x == y,
        (
            Inline::Lang {
                lang: x, dir: dx, ..
            },
            Inline::Lang {
                lang: y, dir: dy, ..
            },
        ) => x == y && dx == dy,
        (Inline::Tracked { change: x, .. }, Inline::Tracked { change: y, .. }) => x == y,
        _ => false,
    }
}

/// Whether `inlines` are already in canonical form.
pub fn is_normalized(inlines: &[Inline]) -> bool {
    normalize(inlines) == inlines
}

#[cfg(test)]
mod tests {
    use super::super::{Change, ChangeKey, ChangeKind, LangKey, NoteKind};
    use super::*;
    use crate::ast::Direction;

    fn b(children: Vec<Inline>) -> Inline {
        Inline::styled(TextStyle::Bold, children)
    }
    fn i(children: Vec<Inline>) -> Inline {
        Inline::styled(TextStyle::Italic, children)
    }
    fn t(s: &str) -> Inline {
        Inline::text(s)
    }

    /// A mark of a small set (two of each kind where the kind has a value) and a leaf of text,
    /// a break or an atom, for [`unwrap_marks`]'s property.
    fn arb_run() -> impl proptest::strategy::Strategy<Value = Run> {
        use proptest::prelude::*;
        let marks = [
            Mark::Tracked(ChangeKey {
                insert: true,
                author: Some("A".into()),
                date: None,
            }),
            Mark::Tracked(ChangeKey {
                insert: false,
                author: None,
                date: None,
            }),
            Mark::Link("x".into()),
            Mark::Link("y".into()),
            Mark::Lang(LangKey {
                lang: Some("en".into()),
                dir: None,
            }),
            Mark::Lang(LangKey {
                lang: None,
                dir: Some(crate::ast::Direction::Rtl),
            }),
            Mark::Span("s".into()),
            Mark::Style(TextStyle::Bold),
            Mark::Style(TextStyle::Italic),
        ];
        let leaf = prop_oneof![
            Just(Leaf::Text("a".into())),
            Just(Leaf::Text("b".into())),
            Just(Leaf::Text(String::new())),
            Just(Leaf::LineBreak),
            Just(Leaf::Atom(Inline::CommentEnd { id: "c".into() })),
        ];
        (proptest::sample::subsequence(marks.to_vec(), 0..=4), leaf)
            .prop_map(|(marks, leaf)| Run { marks, leaf })
    }

    /// Which marks a case of the property below unwraps.
    type IsMark = fn(&Mark) -> bool;

    proptest::proptest! {
        /// Unwrapping marks of canonical content in place gives what nesting the same runs
        /// without those marks gives.
        #[test]
        fn unwrapping_marks_is_normalizing_the_runs_without_them(
            runs in proptest::collection::vec(arb_run(), 0..12)
        ) {
            let content = from_runs(runs.clone());
            let kinds: [(&str, IsMark); 3] = [
                ("lang", |m| matches!(m, Mark::Lang(_))),
                ("link", |m| matches!(m, Mark::Link(_))),
                ("bold", |m| *m == Mark::Style(TextStyle::Bold)),
            ];
            for (kind, is_mark) in kinds {
                let without = runs.iter().cloned().map(|mut r| {
                    r.marks.retain(|m| !is_mark(m));
                    r
                });
                proptest::prop_assert_eq!(
                    unwrap_marks(content.clone(), &|i| Mark::of(i).is_some_and(|m| is_mark(&m))),
                    from_runs(without),
                    "unwrapping {}", kind
                );
            }
        }
    }

    proptest::proptest! {
        /// Appending canonical content to canonical content gives what nesting both lists'
        /// runs together gives.
        #[test]
        fn appending_is_normalizing_both_runs(
            first in proptest::collection::vec(arb_run(), 0..10),
            second in proptest::collection::vec(arb_run(), 0..10),
        ) {
            let mut content = from_runs(first.clone());
            append(&mut content, from_runs(second.clone()));
            proptest::prop_assert_eq!(content, from_runs(first.into_iter().chain(second)));
        }
    }

    #[test]
    fn merges_adjacent_runs_and_orders_marks() {
        // <i><b>a</b></i><b>b</b> → <b><i>a</i>b</b>
        let input = vec![i(vec![b(vec![t("a")])]), b(vec![t("b")])];
        assert_eq!(normalize(&input), vec![b(vec![i(vec![t("a")]), t("b")])]);
    }

    #[test]
    fn canonical_marks_drop_what_says_nothing_alone_or_among_others() {
        let lang = |l: &str| {
            Mark::Lang(LangKey {
                lang: (!l.is_empty()).then(|| l.to_string()),
                dir: None,
            })
        };
        let bold = Mark::Style(TextStyle::Bold);
        let canonical = |mut marks: Vec<Mark>| {
            canonical_marks(&mut marks);
            marks
        };
        // One mark (the common case, which skips the ordering): kept only if it says something.
        assert_eq!(canonical(vec![lang("")]), vec![]);
        assert_eq!(canonical(vec![Mark::Span("".into())]), vec![]);
        assert_eq!(canonical(vec![lang("de")]), vec![lang("de")]);
        assert_eq!(canonical(vec![]), vec![]);
        // Several: ordered, duplicates and empty marks gone, one language, superscript wins.
        assert_eq!(
            canonical(vec![
                lang("fr"),
                Mark::Style(TextStyle::Subscript),
                bold.clone(),
                lang(""),
                Mark::Style(TextStyle::Superscript),
                bold.clone(),
                lang("de"),
            ]),
            canonical(vec![
                bold.clone(),
                Mark::Style(TextStyle::Superscript),
                lang("de"),
            ])
        );
        let several = canonical(vec![lang("fr"), bold.clone(), lang("de")]);
        assert_eq!(several.len(), 2);
        assert!(several.contains(&bold));
    }

    #[test]
    fn drops_empty_text_and_wrappers() {
        let input = vec![t(""), b(vec![]), t("x"), i(vec![t("")]), t("y")];
        assert_eq!(normalize(&input), vec![t("xy")]);
    }

    #[test]
    fn text_merges_across_empty_text_only() {
        // Empty text between two texts of one look goes, and they join; a line break or an
        // atom between them keeps them apart, and so do other marks.
        let note = Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("n")],
        };
        let runs = |leaves: Vec<(Vec<Mark>, Leaf)>| -> Vec<Run> {
            leaves
                .into_iter()
                .map(|(marks, leaf)| Run { marks, leaf })
                .collect()
        };
        let bold = || vec![Mark::Style(TextStyle::Bold)];
        let text = |s: &str| Leaf::Text(s.into());
        assert_eq!(
            from_runs(runs(vec![
                (bold(), text("a")),
                (vec![], text("")),
                (bold(), text("b")),
                (bold(), Leaf::LineBreak),
                (bold(), text("c")),
                (vec![], Leaf::Atom(note.clone())),
                (bold(), text("d")),
                (vec![], text("e")),
            ])),
            vec![
                b(vec![t("ab"), Inline::LineBreak, t("c")]),
                note,
                b(vec![t("d")]),
                t("e"),
            ]
        );
    }

    #[test]
    fn atoms_lose_formatting_but_keep_tracking() {
        let note = Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("n")],
        };
        let change = Change {
            kind: ChangeKind::Insert,
            author: Some("A".into()),
            date: None,
        };
        let input = vec![Inline::Tracked {
            change: change.clone(),
            children: vec![b(vec![t("x"), note.clone()])],
        }];
        assert_eq!(
            normalize(&input),
            vec![Inline::Tracked {
                change,
                children: vec![b(vec![t("x")]), note]
            }]
        );
    }

    #[test]
    fn superscript_wins_over_subscript() {
        let input = vec![Inline::styled(
            TextStyle::Subscript,
            vec![Inline::styled(TextStyle::Superscript, vec![t("2")])],
        )];
        assert_eq!(
            normalize(&input),
            vec![Inline::styled(TextStyle::Superscript, vec![t("2")])]
        );
    }

    #[test]
    fn normalize_is_idempotent_on_nested_notes() {
        let input = vec![Inline::Note {
            kind: NoteKind::Endnote,
            content: vec![i(vec![t("a")]), i(vec![t("b")])],
        }];
        let once = normalize(&input);
        assert!(is_normalized(&once));
        assert_eq!(
            once,
            vec![Inline::Note {
                kind: NoteKind::Endnote,
                content: vec![i(vec![t("ab")])]
            }]
        );
    }

    fn lang(lang: Option<&str>, dir: Option<Direction>, children: Vec<Inline>) -> Inline {
        Inline::Lang {
            lang: lang.map(str::to_string),
            dir,
            children,
        }
    }

    #[test]
    fn lang_nests_inside_links_outside_styles_and_merges() {
        // <b><lang ar>x</lang></b><lang ar>y</lang> → <lang ar><b>x</b>y</lang>
        let input = vec![
            b(vec![lang(Some("ar"), None, vec![t("x")])]),
            lang(Some("ar"), None, vec![t("y")]),
        ];
        assert_eq!(
            normalize(&input),
            vec![lang(Some("ar"), None, vec![b(vec![t("x")]), t("y")])]
        );
        let link = Inline::Link {
            href: "#a".into(),
            children: vec![t("z")],
        };
        let input = vec![lang(Some("he"), None, vec![link])];
        let Inline::Link { children, .. } = &normalize(&input)[0] else {
            panic!("the link goes outside");
        };
        assert_eq!(children, &vec![lang(Some("he"), None, vec![t("z")])]);
    }

    #[test]
    fn owned_content_flattens_like_borrowed_content() {
        // Not canonical: nested languages, marks out of order, a note whose content still
        // needs nesting, empty text, a link around a language change.
        let input = vec![
            i(vec![b(vec![t("a"), t("")])]),
            lang(
                Some("ar"),
                Some(Direction::Rtl),
                vec![
                    t("b"),
                    lang(Some("en"), None, vec![t("c"), Inline::LineBreak]),
                ],
            ),
            Inline::Link {
                href: "#x".into(),
                children: vec![lang(Some("he"), None, vec![b(vec![t("d")])])],
            },
            b(vec![Inline::Note {
                kind: NoteKind::Footnote,
                content: vec![i(vec![t("e")]), i(vec![t("f")])],
            }]),
        ];
        assert_eq!(into_runs(input.clone()), to_runs(&input));
        assert_eq!(from_runs(into_runs(input.clone())), normalize(&input));
    }

    #[test]
    fn inner_lang_overrides_and_empty_lang_goes() {
        let input = vec![lang(
            Some("ar"),
            Some(Direction::Rtl),
            vec![t("a"), lang(Some("en"), None, vec![t("b")])],
        )];
        assert_eq!(
            normalize(&input),
            vec![
                lang(Some("ar"), Some(Direction::Rtl), vec![t("a")]),
                lang(Some("en"), Some(Direction::Rtl), vec![t("b")]),
            ]
        );
        assert_eq!(normalize(&[lang(None, None, vec![t("c")])]), vec![t("c")]);
        // Atoms take no language: a note inside is lifted out.
        let note = Inline::Note {
            kind: NoteKind::Footnote,
            content: vec![t("n")],
        };
        assert_eq!(
            normalize(&[lang(Some("ar"), None, vec![note.clone()])]),
            vec![note]
        );
    }
}
