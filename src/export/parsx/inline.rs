//! Inline content: reduced to what parsX holds and split at line breaks, then written as
//! formatting elements, links, notes, cross-references and inline images.

use super::Writer;
use super::ids::ncname;
use crate::ast::inline::{Leaf, Run, from_runs, to_runs};
use crate::ast::{Inline, NoteKind, TextStyle};
use crate::export::marks;
use crate::report::WarningKind;
use crate::xml::escape_text;

fn style_element(style: TextStyle) -> &'static str {
    match style {
        TextStyle::Code => "code",
        TextStyle::SmallCaps => "kapitaelchen",
        TextStyle::Bold => "fett",
        TextStyle::Italic => "kursiv",
        TextStyle::Underline => "unterstr",
        TextStyle::Strike => "durchgestr",
        TextStyle::Subscript => "tief",
        TextStyle::Superscript => "hoch",
    }
}

impl Writer<'_> {
    /// Filters inline content down to what parsX holds ([`marks::reduce`],
    /// [`marks::reduce_leaf`]) and splits it at line breaks: deleted text, comment anchors,
    /// index marks, character styles and unresolvable internal links go (each warned once), the
    /// rest is re-nested canonically per line.
    pub(super) fn prepare(&mut self, content: &[Inline]) -> Vec<Vec<Inline>> {
        let mut lines: Vec<Vec<Run>> = vec![Vec::new()];
        for run in to_runs(content) {
            let Some(marks) = marks::reduce(run.marks, self) else {
                continue;
            };
            let leaf = match run.leaf {
                Leaf::LineBreak => {
                    lines.push(Vec::new());
                    continue;
                }
                math @ Leaf::Atom(Inline::Math { .. }) => {
                    self.warn_once(
                        "math",
                        WarningKind::Lossy,
                        "equations are written to parsX as their linear text",
                    );
                    math
                }
                other => match marks::reduce_leaf(other, self) {
                    Some(leaf) => leaf,
                    None => continue,
                },
            };
            if let Some(line) = lines.last_mut() {
                line.push(Run { marks, leaf });
            }
        }
        if lines.len() > 1 {
            self.warn_once(
                "line-break",
                WarningKind::Lossy,
                "line breaks are written as paragraph boundaries",
            );
            // Breaks at the very start or end leave empty lines that mean nothing in parsX.
            while lines.len() > 1 && lines.last().is_some_and(Vec::is_empty) {
                lines.pop();
            }
            // Counted, then drained at once: a paragraph may start with many breaks.
            let leading = lines.iter().take_while(|l| l.is_empty()).count();
            lines.drain(..leading.min(lines.len() - 1));
        }
        lines.into_iter().map(from_runs).collect()
    }

    /// Writes prepared inline content (see [`Writer::prepare`]) in the current element.
    pub(super) fn inlines(&mut self, content: &[Inline], in_note: bool) {
        for inline in content {
            self.inline(inline, in_note);
        }
    }

    fn inline(&mut self, inline: &Inline, in_note: bool) {
        match inline {
            Inline::Text { text } => escape_text(text, &mut self.out),
            // parsX has no math: the formula's linear text (warned about in `prepare`).
            Inline::Math { math, .. } => {
                escape_text(&crate::ast::math::linear_text(math), &mut self.out)
            }
            Inline::Styled { style, children } => {
                let name = style_element(*style);
                self.start_tag(name, &[], false);
                self.inlines(children, in_note);
                self.out.push_str("</");
                self.out.push_str(name);
                self.out.push('>');
            }
            Inline::Link { href, children } => {
                let attr = match href.strip_prefix('#') {
                    Some(target) => (
                        "verweis-intern",
                        self.targets
                            .get(target)
                            .map(|t| t.id.clone())
                            .unwrap_or_else(|| ncname(target)),
                    ),
                    None => ("verweis-extern", href.to_string()),
                };
                self.start_tag("verweis", &[(attr.0, &attr.1)], false);
                self.inlines(children, in_note);
                self.out.push_str("</verweis>");
            }
            Inline::Note { kind, content } => self.note(*kind, content, in_note),
            Inline::CrossRef {
                target,
                number,
                text,
            } => self.cross_ref(target, *number, *text),
            Inline::Image {
                media,
                caption,
                alt,
            } => {
                if caption.as_deref().is_some_and(|c| !c.is_empty()) {
                    self.warn_once(
                        "inline-caption",
                        WarningKind::Lossy,
                        "captions of images inside text are not written to parsX",
                    );
                }
                match self.image_path(media) {
                    Some(path) => {
                        let mut a: Vec<(&str, &str)> = vec![("quelle", &path)];
                        if let Some(alt) = alt.as_deref() {
                            a.push(("ersatztext", alt));
                        }
                        self.start_tag("abbildung", &a, true);
                    }
                    None => self.warn(
                        WarningKind::MissingMedia,
                        format!("inline image {media:?} is not in the media store; not written"),
                    ),
                }
            }
            Inline::LineBreak => self.out.push(' '),
            // Filtered out by `prepare`; kept total for content that bypassed it.
            Inline::Span { children, .. }
            | Inline::Lang { children, .. }
            | Inline::Tracked { children, .. } => self.inlines(children, in_note),
            Inline::Ruby { base, reading } => {
                escape_text(&Inline::ruby_text(base, reading), &mut self.out)
            }
            Inline::IndexMark { .. } | Inline::CommentStart { .. } | Inline::CommentEnd { .. } => {}
        }
    }

    fn note(&mut self, kind: NoteKind, content: &[Inline], in_note: bool) {
        let lines = self.prepare(content);
        if in_note {
            // parsX forbids notes inside notes: the inner note's text goes in brackets.
            self.warn_once(
                "nested-note",
                WarningKind::Lossy,
                "a note inside a note is written as bracketed text",
            );
            self.out.push_str(" (");
            for (k, line) in lines.iter().enumerate() {
                if k > 0 {
                    self.out.push(' ');
                }
                self.inlines(line, true);
            }
            self.out.push(')');
            return;
        }
        let name = match kind {
            NoteKind::Footnote => "fussnote",
            NoteKind::Endnote => "endnote",
            NoteKind::Sidenote => {
                self.warn_once(
                    "sidenote",
                    WarningKind::Lossy,
                    "sidenotes are written as footnotes",
                );
                "fussnote"
            }
        };
        self.start_tag(name, &[], false);
        for line in &lines {
            if line.is_empty() {
                self.start_tag("abs", &[], true);
                continue;
            }
            self.start_tag("abs", &[], false);
            self.inlines(line, true);
            self.out.push_str("</abs>");
        }
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }

    fn cross_ref(&mut self, target: &str, number: bool, text: bool) {
        let Some(t) = self.targets.get(target).cloned() else {
            self.warn_target(target, "cross-reference");
            return;
        };
        let shown = match (number, text, &t.label) {
            (true, true, Some(label)) if !t.text.is_empty() => format!("{label} {}", t.text),
            (true, _, Some(label)) => label.clone(),
            (false, false, Some(label)) => label.clone(),
            _ if !t.text.is_empty() => t.text.clone(),
            _ => match t.label.clone() {
                Some(label) => label,
                None => {
                    self.warn(
                        WarningKind::Lossy,
                        format!(
                            "cross-reference to {target:?}, which has no number or text, written as \"{}\"",
                            crate::export::XREF_MARK
                        ),
                    );
                    crate::export::XREF_MARK.to_string()
                }
            },
        };
        let id = t.id.clone();
        self.start_tag("verweis", &[("verweis-intern", &id)], false);
        escape_text(&shown, &mut self.out);
        self.out.push_str("</verweis>");
    }
}
