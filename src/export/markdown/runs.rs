//! Inline content reduced to the runs Markdown can hold (the rest warned about), and white space
//! moved out of the edges of emphasis, where a parser would not see the delimiters.

use super::{Ctx, Writer};
use crate::ast::inline::{Leaf, Run, to_runs};
use crate::ast::{Inline, Mark, NoteKind, TextStyle};
use crate::export::marks;
use crate::report::WarningKind;

impl Writer<'_> {
    /// Reduces inline content to what Markdown holds, warning about the rest.
    pub(super) fn prepare(&mut self, content: &[Inline], ctx: Ctx) -> Vec<Run> {
        let mut out = Vec::new();
        for run in to_runs(content) {
            let Some(marks) = marks::reduce(run.marks, self) else {
                continue;
            };
            let leaf = match run.leaf {
                Leaf::LineBreak if ctx != Ctx::Para => {
                    self.warn_once(
                        "break-in-line",
                        WarningKind::Lossy,
                        "a line break in a heading or table cell is written as a space",
                    );
                    Leaf::Text(" ".into())
                }
                // Asked for, a comment is a footnote where its range ends: the note reads
                // "Comment (author): text", right after the text it is about.
                Leaf::Atom(Inline::CommentEnd { id }) if self.opts.comments => {
                    match self.comment_note(&id) {
                        Some(note) => Leaf::Atom(note),
                        None => continue,
                    }
                }
                Leaf::Atom(Inline::CommentStart { .. }) if self.opts.comments => continue,
                Leaf::Atom(Inline::CrossRef { target, .. }) => {
                    self.warn_once(
                        "xref",
                        WarningKind::Lossy,
                        "cross-references are written as their text (Markdown has no anchors for block ids)",
                    );
                    match self.targets.get(&target) {
                        Some(text) if !text.is_empty() => Leaf::Text(text.clone()),
                        Some(_) => {
                            self.warn(
                                WarningKind::Lossy,
                                format!(
                                    "cross-reference to {target:?}, which has no number or text, written as \"{}\"",
                                    crate::export::XREF_MARK
                                ),
                            );
                            Leaf::Text(crate::export::XREF_MARK.into())
                        }
                        None => {
                            self.warn(
                                WarningKind::Dropped,
                                format!("cross-reference to unknown id {target:?} dropped"),
                            );
                            continue;
                        }
                    }
                }
                other => match marks::reduce_leaf(other, self) {
                    Some(leaf) => leaf,
                    None => continue,
                },
            };
            out.push(Run { marks, leaf });
        }
        // A break at the end of a paragraph has no Markdown form (a trailing `\` is literal).
        while matches!(
            out.last(),
            Some(Run {
                leaf: Leaf::LineBreak,
                ..
            })
        ) {
            out.pop();
        }
        out
    }
}

impl Writer<'_> {
    /// The footnote a comment becomes; `None` (warned) when the tree has no comment `id`.
    fn comment_note(&mut self, id: &str) -> Option<Inline> {
        let doc = self.doc;
        let Some(comment) = doc.comments.iter().find(|c| c.id == id) else {
            self.warn(
                WarningKind::Dropped,
                format!("comment {id:?} is not in the document; not written"),
            );
            return None;
        };
        let label = match comment.author.as_deref().filter(|a| !a.trim().is_empty()) {
            Some(author) => format!("Comment ({author}): "),
            None => "Comment: ".to_string(),
        };
        let mut content = vec![Inline::text(label)];
        // A note inside a note has no Markdown form: comment text holding notes keeps their text.
        for inline in &comment.content {
            match inline {
                Inline::Note { content: inner, .. } => content.extend(inner.iter().cloned()),
                other => content.push(other.clone()),
            }
        }
        Some(Inline::Note {
            kind: NoteKind::Footnote,
            content,
        })
    }
}

fn is_emphasis(mark: &Mark) -> bool {
    matches!(
        mark,
        Mark::Style(TextStyle::Bold | TextStyle::Italic | TextStyle::Strike)
    )
}

/// Emphasis that starts or ends with white space (or a break) is not emphasis to a Markdown
/// parser: move such space out of the emphasis that opens or closes next to it. Moving space
/// out can leave other space at a new edge, so this repeats until nothing changes (each round
/// only removes marks or splits text at its edges; the bound is a safety net).
pub(super) fn move_boundary_space(mut runs: Vec<Run>) -> Vec<Run> {
    // Most paragraphs have no emphasis and no hard break, where a pass would only copy every
    // run to find nothing moved.
    if runs
        .iter()
        .all(|r| !matches!(r.leaf, Leaf::LineBreak) && !r.marks.iter().any(is_emphasis))
    {
        return runs;
    }
    for _ in 0..32 {
        let next = boundary_pass(&runs);
        if next == runs {
            break;
        }
        runs = next;
    }
    runs
}

fn boundary_pass(runs: &[Run]) -> Vec<Run> {
    let emph = |r: Option<&Run>| -> Vec<Mark> {
        r.map(|r| r.marks.iter().filter(|m| is_emphasis(m)).cloned().collect())
            .unwrap_or_default()
    };
    let mut out = Vec::with_capacity(runs.len());
    for i in 0..runs.len() {
        let Some(run) = runs.get(i) else { continue };
        let prev = emph(i.checked_sub(1).and_then(|j| runs.get(j)));
        let next = emph(runs.get(i + 1));
        let opening: Vec<Mark> = run
            .marks
            .iter()
            .filter(|m| is_emphasis(m) && !prev.contains(m))
            .cloned()
            .collect();
        let closing: Vec<Mark> = run
            .marks
            .iter()
            .filter(|m| is_emphasis(m) && !next.contains(m))
            .cloned()
            .collect();
        let without = |drop: &[&[Mark]]| -> Vec<Mark> {
            run.marks
                .iter()
                .filter(|m| !drop.iter().any(|d| d.contains(m)))
                .cloned()
                .collect()
        };
        match &run.leaf {
            Leaf::Text(t) if opening.is_empty() && closing.is_empty() => out.push(Run {
                marks: run.marks.clone(),
                leaf: Leaf::Text(t.clone()),
            }),
            Leaf::Text(t) => {
                let core = t.trim_matches(char::is_whitespace);
                if core.is_empty() {
                    out.push(Run {
                        marks: without(&[&opening, &closing]),
                        leaf: Leaf::Text(t.clone()),
                    });
                    continue;
                }
                let lead_len = t.len() - t.trim_start_matches(char::is_whitespace).len();
                let trail_start = t.trim_end_matches(char::is_whitespace).len();
                let (lead, tail) = (&t[..lead_len], &t[trail_start..]);
                if !lead.is_empty() {
                    out.push(Run {
                        marks: without(&[&opening]),
                        leaf: Leaf::Text(lead.to_string()),
                    });
                }
                out.push(Run {
                    marks: run.marks.clone(),
                    leaf: Leaf::Text(core.to_string()),
                });
                if !tail.is_empty() {
                    out.push(Run {
                        marks: without(&[&closing]),
                        leaf: Leaf::Text(tail.to_string()),
                    });
                }
            }
            Leaf::LineBreak => {
                // A delimiter just after a hard break stands at a line start, where it can open
                // but never close. When the next run opens emphasis of its own, the writer may
                // have to close and reopen the break's marks right there: then the break carries
                // none, so they close before it instead.
                let next_opens = next.iter().any(|m| !run.marks.contains(m));
                let emphasis: Vec<Mark> = run
                    .marks
                    .iter()
                    .filter(|m| is_emphasis(m))
                    .cloned()
                    .collect();
                let mut marks = if next_opens {
                    without(&[&emphasis])
                } else {
                    without(&[&opening, &closing])
                };
                // A hard break cannot end a link's text either (`[a\` newline `](…)` reads as
                // a backslash): a link that ends at the break ends before it.
                let link_goes_on = |m: &Mark| {
                    !matches!(m, Mark::Link(_))
                        || runs.get(i + 1).is_some_and(|r| r.marks.contains(m))
                };
                marks.retain(link_goes_on);
                out.push(Run {
                    marks,
                    leaf: Leaf::LineBreak,
                });
            }
            Leaf::Atom(a) => out.push(Run {
                marks: run.marks.clone(),
                leaf: Leaf::Atom(a.clone()),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(marks: Vec<Mark>, text: Option<&str>) -> Run {
        Run {
            marks,
            leaf: text.map_or(Leaf::LineBreak, |t| Leaf::Text(t.to_string())),
        }
    }

    #[test]
    fn space_moves_out_of_emphasis_and_links_end_before_a_break() {
        let bold = Mark::Style(TextStyle::Bold);
        let link = Mark::Link("https://example.org".into());
        // No emphasis, no break: nothing to move, the runs come back as they were.
        let plain = vec![run(vec![link.clone()], Some(" a ")), run(vec![], Some("b"))];
        assert_eq!(move_boundary_space(plain.clone()), plain);
        // Emphasis that ends in a space gives the space to the text after it.
        assert_eq!(
            move_boundary_space(vec![
                run(vec![bold.clone()], Some("a ")),
                run(vec![], Some("b"))
            ]),
            vec![
                run(vec![bold.clone()], Some("a")),
                run(vec![], Some(" ")),
                run(vec![], Some("b")),
            ]
        );
        // Without any emphasis, a link that ends at a hard break still ends before it.
        assert_eq!(
            move_boundary_space(vec![
                run(vec![link.clone()], Some("a")),
                run(vec![link.clone()], None),
                run(vec![], Some("b")),
            ]),
            vec![
                run(vec![link.clone()], Some("a")),
                run(vec![], None),
                run(vec![], Some("b")),
            ]
        );
    }
}
