//! Inline content written into a [`Render`]: text, emphasis, links and autolinks, footnote
//! references, code spans and formulas.

use std::borrow::Cow;

use super::links::{autolinkable, destination};
use super::render::Render;
use super::runs::move_boundary_space;
use super::{Ctx, Writer};
use crate::ast::inline::{from_runs, plain_text};
use crate::ast::{Inline, NoteKind, TextStyle};
use crate::report::WarningKind;

impl Writer<'_> {
    /// Renders inline content to lines (split at hard breaks).
    pub(super) fn inline_lines(&mut self, content: &[Inline], ctx: Ctx) -> Vec<String> {
        let mut r = Render::new(ctx);
        if let Some(text) = only_text(content) {
            // Plain text, most paragraphs and cells of most documents: the runs would carry no
            // marks to reduce or move space out of, and would merge back into this one text.
            if !text.is_empty() {
                // Escapes make it a little longer: room for a few, rather than grown by doubling.
                r.reserve(text.len() + text.len() / 16 + 8);
                r.text(&text);
            }
        } else {
            let runs = self.prepare(content, ctx);
            let runs = move_boundary_space(runs);
            let tree = from_runs(runs);
            self.inlines(&mut r, &tree);
        }
        let text = r.finish();
        if text.is_empty() {
            return Vec::new();
        }
        if memchr::memchr(b'\n', text.as_bytes()).is_none() {
            return vec![text];
        }
        text.split('\n').map(str::to_string).collect()
    }

    fn inlines(&mut self, r: &mut Render, content: &[Inline]) {
        for (i, inline) in content.iter().enumerate() {
            match inline {
                Inline::Styled {
                    style: TextStyle::Code,
                    children,
                } if inside_word(r, children, content.get(i + 1)) => {
                    // A monospace font on part of a word (`Thes` + `e`) is a font change, not
                    // code: a code span there would split the word for every reader.
                    self.warn_once(
                        "code-in-word",
                        WarningKind::Lossy,
                        "a monospace font inside a word is written as plain text",
                    );
                    self.inlines(r, children);
                }
                _ => self.inline(r, inline),
            }
        }
    }

    fn inline(&mut self, r: &mut Render, inline: &Inline) {
        match inline {
            Inline::Text { text } => r.text(text),
            Inline::Styled { style, children } => match style {
                TextStyle::Code => self.code(r, children),
                TextStyle::Bold | TextStyle::Italic | TextStyle::Strike => {
                    let d = r.delim(delimiter(*style), true);
                    self.inlines(r, children);
                    r.delim(d, false);
                }
                _ => self.inlines(r, children),
            },
            Inline::Link { href, children } => {
                let text = plain_text(children);
                let plain = children.iter().all(|c| matches!(c, Inline::Text { .. }));
                if plain && autolinkable(href, &text) {
                    r.raw(&format!("<{text}>"));
                    return;
                }
                if r.note_end == Some(r.buf.len()) {
                    self.warn_once(
                        "note-link",
                        WarningKind::Lossy,
                        "a space is written between a footnote reference and a link right after it",
                    );
                    r.raw(" ");
                }
                r.raw("[");
                self.inlines(r, children);
                r.raw("](");
                r.raw(&destination(href));
                r.raw(")");
            }
            Inline::Note { kind, content } => {
                if *kind != NoteKind::Footnote {
                    self.warn_once(
                        "note-kind",
                        WarningKind::Lossy,
                        "endnotes and sidenotes are written as footnotes",
                    );
                }
                self.notes.push(content.clone());
                let label = self.notes.len();
                r.raw(&format!("[^{label}]"));
                r.note_end = Some(r.buf.len());
            }
            Inline::Image {
                media,
                caption,
                alt,
            } => self.image(r, media, alt.as_deref(), caption.as_deref()),
            Inline::LineBreak => r.hard_break(),
            Inline::Span { children, .. }
            | Inline::Lang { children, .. }
            | Inline::Tracked { children, .. } => self.inlines(r, children),
            Inline::Ruby { base, reading } => r.text(&Inline::ruby_text(base, reading)),
            Inline::Math { display, math } => {
                let tex = crate::math_tex::write(math);
                let fence = if *display { "$$" } else { "$" };
                // Inside a table cell a `|` would end the cell.
                let tex = if r.ctx == Ctx::Cell {
                    tex.replace('|', "\\vert ")
                } else {
                    tex
                };
                r.raw(fence);
                r.raw(&tex);
                r.raw(fence);
            }
            Inline::CrossRef { .. }
            | Inline::IndexMark { .. }
            | Inline::CommentStart { .. }
            | Inline::CommentEnd { .. } => {}
        }
    }

    /// Code: a code span per piece of text (a span cannot hold a break or emphasis). Emphasis
    /// inside code is written around its spans (`**`x`**`), which reads back as the same tree;
    /// other formatting has no Markdown form and is dropped with a warning.
    fn code(&mut self, r: &mut Render, children: &[Inline]) {
        for child in children {
            match child {
                // A heading or table cell is one line: no hard break there.
                Inline::Text { text } if r.ctx != Ctx::Para && text.contains('\n') => {
                    self.warn_once(
                        "break-in-line",
                        WarningKind::Lossy,
                        "a line break in a heading or table cell is written as a space",
                    );
                    r.code_span(&text.replace('\n', " "));
                }
                Inline::Text { text } => {
                    for (k, segment) in text.split('\n').enumerate() {
                        if k > 0 {
                            r.hard_break();
                        }
                        r.code_span(segment);
                    }
                }
                Inline::LineBreak => r.hard_break(),
                Inline::Styled {
                    style: style @ (TextStyle::Bold | TextStyle::Italic | TextStyle::Strike),
                    children,
                } => {
                    let d = r.delim(delimiter(*style), true);
                    self.code(r, children);
                    r.delim(d, false);
                }
                other => {
                    self.warn_once(
                        "code-format",
                        WarningKind::Lossy,
                        "formatting inside code other than emphasis is not written",
                    );
                    match other.children() {
                        Some(children) => self.code(r, children),
                        None => self.inline(r, other),
                    }
                }
            }
        }
    }
}

/// Whether code `children` about to be written continue a word written before them or run
/// into the word of `next`: a letter or digit on both sides of a boundary.
fn inside_word(r: &Render, children: &[Inline], next: Option<&Inline>) -> bool {
    let text = plain_text(children);
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let before = r.buf.chars().next_back();
    let after = next.map(|n| plain_text(std::slice::from_ref(n)));
    (word(before) && word(text.chars().next()))
        || (word(text.chars().next_back()) && word(after.as_deref().and_then(|a| a.chars().next())))
}

/// The delimiter of an emphasis style: `**` bold, `*` italic, `~~` strike-through.
fn delimiter(style: TextStyle) -> &'static str {
    match style {
        TextStyle::Bold => "**",
        TextStyle::Italic => "*",
        _ => "~~",
    }
}

/// `lines` (from [`Writer::inline_lines`]) joined with spaces, for a heading or cell; one line
/// (most) is kept as it is, not copied.
pub(super) fn one_line(mut lines: Vec<String>) -> String {
    if lines.len() == 1 {
        return lines.pop().unwrap_or_default();
    }
    lines.join(" ")
}

/// The text of `content` when it holds nothing but text, joined (`None` otherwise).
pub(super) fn only_text(content: &[Inline]) -> Option<Cow<'_, str>> {
    if let [Inline::Text { text }] = content {
        return Some(Cow::Borrowed(text));
    }
    let mut joined = String::new();
    for inline in content {
        let Inline::Text { text } = inline else {
            return None;
        };
        joined.push_str(text);
    }
    Some(Cow::Owned(joined))
}
