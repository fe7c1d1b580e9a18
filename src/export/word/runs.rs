//! Inline content → runs: formatting as run properties, links as `w:hyperlink`, tracked changes
//! as `w:ins`/`w:del` (deleted text in `w:delText`), notes as footnote/endnote references,
//! cross-references as `REF` fields, comment anchors as `w:commentRangeStart/End` +
//! `w:commentReference`, inline images as drawings, index marks as `XE` fields.

use std::fmt::Write;

use crate::ast::inline::{ChangeKey, Leaf, Mark, Run, plain_text, to_runs};
use crate::ast::{IndexNode, Inline, NoteKind, TextStyle};
use crate::report::WarningKind;
use crate::xml::escape_attr;

use super::writer::{MARK, Part, PendingRef, Writer, field, text_run};

/// The longest name a character style id is made of (a number may follow to keep ids apart):
/// the length of the longest style name Word allows.
const MAX_STYLE_ID: usize = 253;

/// Run properties every run of a context shares.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct RunContext {
    /// Font size in half-points (table cells that set one).
    pub size: Option<u32>,
    /// Width available to inline images, EMU.
    pub avail_emu: u64,
}

fn link_of(run: &Run) -> Option<&str> {
    run.marks.iter().find_map(|m| match m {
        Mark::Link(h) => Some(&**h),
        _ => None,
    })
}

fn tracked_of(run: &Run) -> Option<&ChangeKey> {
    run.marks.iter().find_map(|m| match m {
        Mark::Tracked(k) => Some(k),
        _ => None,
    })
}

fn is_comment_anchor(run: &Run) -> bool {
    matches!(
        run.leaf,
        Leaf::Atom(Inline::CommentStart { .. } | Inline::CommentEnd { .. })
    )
}

/// Schemes a link may use; anything else (javascript:, data:, …) is not written as a link.
fn safe_href(href: &str) -> bool {
    let lower = href.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        None => true,
        Some((scheme, _)) => {
            matches!(scheme, "http" | "https" | "mailto" | "ftp" | "ftps" | "tel" | "file" | "news")
                // a relative path with a colon later on
                || scheme.contains('/')
        }
    }
}

/// Whether a date is an `xsd:dateTime` Word accepts (`2024-01-31T12:00:00Z`).
pub(crate) fn word_date(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() >= 16
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
}

impl Writer<'_> {
    /// Writes inline content as paragraph content in `part`.
    pub(crate) fn write_inlines(
        &mut self,
        out: &mut String,
        part: Part,
        inlines: &[Inline],
        ctx: &RunContext,
    ) {
        // Text alone (most paragraphs and cells) is one run without marks: written as the loop
        // below writes it, without flattening the content into runs (a copy of its text).
        if let [Inline::Text { text }] = inlines {
            self.marked_run(out, &[], false, ctx, text, false);
            return;
        }
        let runs = to_runs(inlines);
        let mut i = 0;
        while i < runs.len() {
            if is_comment_anchor(&runs[i]) {
                if let Leaf::Atom(atom) = &runs[i].leaf {
                    self.comment_anchor(out, part, atom);
                }
                i += 1;
                continue;
            }
            // Links outermost (a w:hyperlink may hold w:ins/w:del, not the other way round).
            let link = link_of(&runs[i]).map(str::to_string);
            let mut j = i;
            while j < runs.len()
                && !is_comment_anchor(&runs[j])
                && link_of(&runs[j]) == link.as_deref()
            {
                j += 1;
            }
            let opened = match &link {
                Some(href) => self.open_link(out, part, href),
                None => false,
            };
            let mut a = i;
            while a < j {
                let tracked = tracked_of(&runs[a]).cloned();
                let mut b = a;
                while b < j && tracked_of(&runs[b]) == tracked.as_ref() {
                    b += 1;
                }
                if let Some(k) = &tracked {
                    self.open_change(out, k);
                }
                let deleted = tracked.as_ref().is_some_and(|k| !k.insert);
                for run in &runs[a..b] {
                    self.write_run(out, part, run, deleted, opened, ctx);
                }
                if let Some(k) = &tracked {
                    out.push_str(if k.insert { "</w:ins>" } else { "</w:del>" });
                }
                a = b;
            }
            if opened {
                out.push_str("</w:hyperlink>");
            }
            i = j;
        }
    }

    fn open_link(&mut self, out: &mut String, part: Part, href: &str) -> bool {
        if let Some(anchor) = href.strip_prefix('#') {
            out.push_str(r#"<w:hyperlink w:anchor=""#);
            escape_attr(&super::writer::bookmark_name(anchor), out);
            out.push_str(r#"" w:history="1">"#);
            return true;
        }
        if !safe_href(href) {
            self.warn(
                WarningKind::Dropped,
                "w:hyperlink",
                format!(
                    "link target {href:?} uses an unsafe scheme; its text is kept without the link"
                ),
            );
            return false;
        }
        let id = self.link_rel(part, href);
        let _ = write!(out, r#"<w:hyperlink r:id="{id}" w:history="1">"#);
        true
    }

    /// A paragraph mark's change: the `w:ins`/`w:del` element alone, for `w:pPr/w:rPr`.
    pub(super) fn mark_change(&mut self, k: &ChangeKey) -> String {
        let mut x = String::new();
        self.open_change(&mut x, k);
        if x.ends_with('>') {
            x.pop();
            x.push_str("/>");
        }
        x
    }

    fn open_change(&mut self, out: &mut String, k: &ChangeKey) {
        let id = self.annotation_id();
        let tag = if k.insert { "w:ins" } else { "w:del" };
        let _ = write!(out, r#"<{tag} w:id="{id}" w:author=""#);
        escape_attr(k.author.as_deref().unwrap_or("Unknown"), out);
        out.push('"');
        if let Some(date) = &k.date {
            if word_date(date) {
                out.push_str(r#" w:date=""#);
                escape_attr(date, out);
                out.push('"');
            } else {
                self.warn(
                    WarningKind::InvalidValue,
                    tag,
                    format!("revision date {date:?} is not an ISO 8601 date-time; left out"),
                );
            }
        }
        out.push('>');
    }

    /// Writes `text` as one run under `marks`, its properties (and language, found from the
    /// text) built in room kept from run to run: every run of the document passes here.
    fn marked_run(
        &mut self,
        out: &mut String,
        marks: &[Mark],
        linked: bool,
        ctx: &RunContext,
        text: &str,
        deleted: bool,
    ) {
        let mut rpr = self.rpr_room.take();
        self.run_properties(&mut rpr, marks, linked, ctx, text);
        text_run(out, text, &rpr, deleted);
        self.rpr_room.give_back(rpr);
    }

    fn run_properties(
        &mut self,
        rpr: &mut String,
        marks: &[Mark],
        linked: bool,
        ctx: &RunContext,
        text: &str,
    ) {
        let has = |style: TextStyle| marks.contains(&Mark::Style(style));
        let span = marks.iter().find_map(|m| match m {
            Mark::Span(s) => Some(&**s),
            _ => None,
        });
        let code = has(TextStyle::Code);
        let mut code_font = false;
        if let Some(name) = span {
            let id = self.char_style(name);
            let _ = write!(rpr, r#"<w:rStyle w:val="{id}"/>"#);
            code_font = code;
        } else if linked {
            rpr.push_str(r#"<w:rStyle w:val="Hyperlink"/>"#);
            code_font = code;
        } else if code {
            rpr.push_str(r#"<w:rStyle w:val="HTMLCode"/>"#);
        }
        if code_font {
            rpr.push_str(
                r#"<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New" w:cs="Courier New"/>"#,
            );
        }
        // Bold and italic in the marks' (canonical) order.
        for m in marks {
            match m {
                Mark::Style(TextStyle::Bold) => rpr.push_str("<w:b/><w:bCs/>"),
                Mark::Style(TextStyle::Italic) => rpr.push_str("<w:i/><w:iCs/>"),
                _ => {}
            }
        }
        if has(TextStyle::SmallCaps) {
            rpr.push_str("<w:smallCaps/>");
        }
        if has(TextStyle::Strike) {
            rpr.push_str("<w:strike/>");
        }
        if let Some(size) = ctx.size {
            let _ = write!(rpr, r#"<w:sz w:val="{size}"/><w:szCs w:val="{size}"/>"#);
        }
        if has(TextStyle::Underline) {
            rpr.push_str(r#"<w:u w:val="single"/>"#);
        }
        if has(TextStyle::Superscript) {
            rpr.push_str(r#"<w:vertAlign w:val="superscript"/>"#);
        } else if has(TextStyle::Subscript) {
            rpr.push_str(r#"<w:vertAlign w:val="subscript"/>"#);
        }
        self.push_run_lang(rpr, marks, text);
    }

    /// The style id of character style `name`, adding a definition when the template lacks it.
    fn char_style(&mut self, name: &str) -> String {
        if let Some(id) = self.char_style_ids.get(name) {
            return id.clone();
        }
        // Every run in the style names its id: a name far longer than Word allows (253
        // characters) would otherwise be written again for each run.
        let base: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .take(MAX_STYLE_ID)
            .collect();
        let base = if base.is_empty() {
            "Span".to_string()
        } else {
            base
        };
        let mut id = base.clone();
        let mut n = 1;
        while self.tpl.style_ids.contains(&id)
            || self.extra_char_styles.iter().any(|(i, _)| *i == id)
        {
            n += 1;
            id = format!("{base}{n}");
        }
        self.extra_char_styles.push((id.clone(), name.to_string()));
        self.char_style_ids.insert(name.to_string(), id.clone());
        id
    }

    fn write_run(
        &mut self,
        out: &mut String,
        part: Part,
        run: &Run,
        deleted: bool,
        linked: bool,
        ctx: &RunContext,
    ) {
        match &run.leaf {
            Leaf::Text(t) => self.marked_run(out, &run.marks, linked, ctx, t, deleted),
            // A break carries its run's properties, as a break inside text does: a reader
            // keeps it inside its span, code or link style. (A line end has no letters and no
            // direction: the run's language comes out as for empty text.)
            Leaf::LineBreak => self.marked_run(out, &run.marks, linked, ctx, "\n", deleted),
            Leaf::Atom(atom) => self.write_atom(out, part, atom, deleted, ctx),
        }
    }

    fn write_atom(
        &mut self,
        out: &mut String,
        part: Part,
        atom: &Inline,
        deleted: bool,
        ctx: &RunContext,
    ) {
        match atom {
            Inline::Note { kind, content } => {
                if part != Part::Document {
                    self.warn(
                        WarningKind::Lossy,
                        "w:footnoteReference",
                        "a note inside a note or comment has no Word form; its text is written in brackets",
                    );
                    text_run(out, " (", "", deleted);
                    self.write_inlines(out, part, content, ctx);
                    text_run(out, ")", "", deleted);
                    return;
                }
                let (endnote, tag, style) = match kind {
                    NoteKind::Endnote => (true, "endnote", "Endnote"),
                    NoteKind::Footnote => (false, "footnote", "Footnote"),
                    NoteKind::Sidenote => {
                        self.sidenotes += 1;
                        (false, "footnote", "Footnote")
                    }
                };
                let (list_len, note_part) = if endnote {
                    (self.endnotes.len(), Part::Endnotes)
                } else {
                    (self.footnotes.len(), Part::Footnotes)
                };
                let id = list_len + 1;
                let mut note = String::new();
                let _ = write!(
                    note,
                    r#"<w:{tag} w:id="{id}"><w:p><w:pPr><w:pStyle w:val="{style}Text"/></w:pPr><w:r><w:rPr><w:rStyle w:val="{style}Reference"/></w:rPr><w:{tag}Ref/></w:r><w:r><w:t xml:space="preserve"> </w:t></w:r>"#
                );
                let note_ctx = RunContext {
                    size: None,
                    avail_emu: ctx.avail_emu,
                };
                self.write_inlines(&mut note, note_part, content, &note_ctx);
                let _ = write!(note, "</w:p></w:{tag}>");
                if endnote {
                    self.endnotes.push(note);
                } else {
                    self.footnotes.push(note);
                }
                let _ = write!(
                    out,
                    r#"<w:r><w:rPr><w:rStyle w:val="{style}Reference"/></w:rPr><w:{tag}Reference w:id="{id}"/></w:r>"#
                );
            }
            Inline::CrossRef {
                target,
                number,
                text,
            } => {
                let n = self.refs.len();
                self.refs.push(PendingRef {
                    target: target.clone(),
                    number: *number,
                    text: *text,
                    deleted,
                    block: self.block,
                    size: ctx.size,
                });
                out.push(MARK);
                let _ = write!(out, "R{n}");
                out.push(MARK);
            }
            Inline::Image {
                media,
                caption,
                alt,
            } => {
                // A picture in the text has no caption paragraph: its caption is the alt-text
                // title (`wp:docPr@title`), which Word shows with the description.
                let avail = ctx.avail_emu;
                let title = caption.as_deref().filter(|c| !c.is_empty());
                self.picture(
                    out,
                    part,
                    media,
                    alt.as_deref(),
                    title,
                    None,
                    None,
                    avail,
                    "img",
                );
            }
            Inline::IndexMark { id } => match find_index(&self.doc.indexes, id) {
                Some(node) => {
                    let title = node.title.replace('"', "\\\"");
                    field(out, &format!("XE \"{title}\""), "", deleted);
                }
                None => self.warn(
                    WarningKind::InvalidValue,
                    "index",
                    format!("index mark {id:?} names no index node; left out"),
                ),
            },
            Inline::CommentStart { .. } | Inline::CommentEnd { .. } => {
                self.comment_anchor(out, part, atom)
            }
            // `w:ruby` (ECMA-376 §17.3.3.25): the reading at half the base size, raised above it.
            Inline::Ruby { base, reading } => {
                out.push_str(r#"<w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="center"/><w:hps w:val="10"/><w:hpsRaise w:val="18"/><w:hpsBaseText w:val="20"/><w:lid w:val="ja-JP"/></w:rubyPr><w:rt>"#);
                text_run(out, reading, "", deleted);
                out.push_str("</w:rt><w:rubyBase>");
                text_run(out, base, "", deleted);
                out.push_str("</w:rubyBase></w:ruby></w:r>");
            }
            Inline::Math { display, math } => super::omml::write(math, *display, out),
            // Wrappers and text never arrive here as atoms.
            other => {
                let text = plain_text(std::slice::from_ref(other));
                text_run(out, &text, "", deleted);
            }
        }
    }

    fn comment_anchor(&mut self, out: &mut String, part: Part, atom: &Inline) {
        let (id, end) = match atom {
            Inline::CommentStart { id } => (id, false),
            Inline::CommentEnd { id } => (id, true),
            _ => return,
        };
        if part != Part::Document {
            self.warn(
                WarningKind::Lossy,
                "w:commentRangeStart",
                format!("comment anchor {id:?} inside a note or comment is not written (a comment's range stays in one story)"),
            );
            return;
        }
        // A range whose end is not in the body cannot be written; the comment is reported as
        // dropped when the comments part is written.
        if !self.comments_in_body.contains(id) && self.comment_ids.contains_key(id) {
            return;
        }
        let Some(&n) = self.comment_ids.get(id) else {
            self.warn(
                WarningKind::InvalidValue,
                "w:commentRangeStart",
                format!("comment anchor {id:?} names no comment; left out"),
            );
            return;
        };
        if end {
            let _ = write!(
                out,
                r#"<w:commentRangeEnd w:id="{n}"/><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:commentReference w:id="{n}"/></w:r>"#
            );
            if let Some(e) = self.comment_ended.get_mut(n as usize) {
                *e = true;
            }
        } else {
            let _ = write!(out, r#"<w:commentRangeStart w:id="{n}"/>"#);
        }
    }

    /// Writes a cross-reference whose target is now known: a `REF` field (with `\r` for the
    /// paragraph number of a numbered heading or paragraph) holding the target's text.
    pub(crate) fn render_ref(&mut self, out: &mut String, r: &PendingRef) {
        let rpr = super::writer::CellFormat {
            align: None,
            size: r.size,
        }
        .run_props();
        let Some(t) = self.targets.get(&r.target).cloned() else {
            let mut loc = crate::report::Location::part("word/document.xml").element("REF");
            loc.block = r.block;
            self.report.warn(
                WarningKind::InvalidValue,
                format!(
                    "cross-reference to unknown id {:?}; written as a REF field showing \"{}\"",
                    r.target,
                    crate::export::XREF_MARK
                ),
                loc,
            );
            let mut result = String::new();
            text_run(&mut result, crate::export::XREF_MARK, &rpr, r.deleted);
            let name = super::writer::bookmark_name(&r.target);
            field(out, &format!("REF {name} \\h"), &result, r.deleted);
            return;
        };
        let one = |out: &mut String, switch: &str, shown: &str| {
            let mut result = String::new();
            text_run(&mut result, shown, &rpr, r.deleted);
            field(
                out,
                &format!("REF {}{switch} \\h", t.bookmark),
                &result,
                r.deleted,
            );
        };
        match (&t.number, t.caption) {
            // A caption's bookmark holds label and number: REF shows "Figure 3".
            (Some(label), true) => one(out, "", label),
            (Some(label), false) if r.number && r.text => {
                one(out, " \\r", label);
                text_run(out, " ", &rpr, r.deleted);
                one(out, "", &t.text);
            }
            (Some(label), false) if r.number => one(out, " \\r", label),
            _ if t.text.trim().is_empty() => {
                let mut loc = crate::report::Location::part("word/document.xml").element("REF");
                loc.block = r.block;
                self.report.warn(
                    WarningKind::Lossy,
                    format!(
                        "cross-reference to {:?}, which has no number or text, shows \"{}\"",
                        r.target,
                        crate::export::XREF_MARK
                    ),
                    loc,
                );
                one(out, "", crate::export::XREF_MARK)
            }
            _ => one(out, "", &t.text),
        }
    }
}

fn find_index<'d>(nodes: &'d [IndexNode], id: &str) -> Option<&'d IndexNode> {
    for n in nodes {
        if n.id == id {
            return Some(n);
        }
        if let Some(found) = find_index(&n.children, id) {
            return Some(found);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_and_dates() {
        assert!(safe_href("https://example.org"));
        assert!(safe_href("mailto:a@b.c"));
        assert!(safe_href("docs/a.html"));
        assert!(!safe_href("javascript:alert(1)"));
        assert!(!safe_href(" JavaScript:alert(1)"));
        assert!(!safe_href("data:text/html,x"));
        assert!(word_date("2024-01-31T12:00:00Z"));
        assert!(!word_date("31.01.2024"));
    }
}
