//! Inline content: text, formatting, links, notes, cross-references, images, anchors.

use std::fmt::Write;

use base64::Engine;

use super::landmarks::{LinkShows, link_shows};
use super::url::{self, Target};
use super::{ImageMode, Writer, excerpt};
use crate::ast::numbering::format_number;
use crate::ast::{Change, ChangeKind, Inline, MediaKind, NoteKind, NumberFormat, TextStyle};
use crate::export::XREF_MARK;
use crate::report::WarningKind;

impl<'a> Writer<'a> {
    /// Writes inline content.
    pub(super) fn inlines(&mut self, inlines: &'a [Inline]) {
        for inline in inlines {
            self.inline(inline);
        }
    }

    /// Writes inline content into a separate string with formatting only (no links, notes, ids or
    /// comment marks): the text of generated list entries.
    pub(super) fn plain_html(&mut self, inlines: &'a [Inline]) -> String {
        let saved = std::mem::take(&mut self.out);
        let was_plain = std::mem::replace(&mut self.plain, true);
        self.inlines(inlines);
        self.plain = was_plain;
        std::mem::replace(&mut self.out, saved)
    }

    fn inline(&mut self, inline: &'a Inline) {
        match inline {
            Inline::Text { text } => self.text_run(text),
            Inline::Styled {
                style: TextStyle::Code,
                children,
            } if self.in_pre => self.inlines(children),
            Inline::Styled { style, children } => {
                let (open, close) = style_tags(*style);
                self.out.push_str(open);
                self.inlines(children);
                self.out.push_str(close);
            }
            Inline::Link { href, children } => self.link(href, children),
            Inline::Span { style, children } => {
                if self.plain {
                    self.inlines(children);
                } else {
                    self.out.push_str("<span class=\"cs\" data-style=\"");
                    self.attr(style);
                    self.out.push_str("\">");
                    self.inlines(children);
                    self.out.push_str("</span>");
                }
            }
            Inline::Lang {
                lang,
                dir,
                children,
            } => self.lang_span(lang.as_deref(), *dir, children),
            Inline::Tracked { change, children } => self.tracked(change, children),
            Inline::Note { kind, content } => self.note(*kind, content),
            Inline::CrossRef {
                target,
                number,
                text,
            } => self.cross_ref(target, *number, *text),
            Inline::LineBreak => self.out.push_str(if self.in_pre {
                "\n"
            } else if self.plain {
                " "
            } else {
                "<br>"
            }),
            Inline::Image {
                media,
                caption,
                alt,
            } => {
                if !self.plain {
                    self.inline_image(media, caption.as_deref(), alt.as_deref());
                } else if let Some(alt) = alt.as_deref().filter(|a| !a.trim().is_empty()) {
                    // A list entry reads the picture's text: a heading of pictures alone
                    // still gives its entry a name.
                    self.text(alt);
                }
            }
            Inline::IndexMark { id } => {
                if !self.plain && !self.in_comment {
                    self.index_marks += 1;
                    let n = self.index_marks;
                    if self.wants.index {
                        self.index_targets.entry(id.as_str()).or_insert(n);
                    }
                    let _ = write!(
                        self.out,
                        "<span class=\"index-mark\" id=\"sd-ix-{n}\" data-index=\""
                    );
                    self.attr(id);
                    self.out.push_str("\"></span>");
                }
            }
            Inline::CommentStart { id } => self.comment_start(id),
            Inline::CommentEnd { id } => self.comment_end(id),
            Inline::Ruby { base, reading } => {
                if self.plain {
                    self.text(&Inline::ruby_text(base, reading));
                } else {
                    // `rp` shows the parentheses where ruby is not rendered.
                    self.out.push_str("<ruby>");
                    self.text(base);
                    self.out.push_str("<rp>(</rp><rt>");
                    self.text(reading);
                    self.out.push_str("</rt><rp>)</rp></ruby>");
                }
            }
            Inline::Math { display, math } => {
                self.replaced += super::mathml::write(math, *display, &mut self.out);
            }
        }
    }

    /// Text, inside a `mark` per open comment range; tabs kept in a span that preserves them.
    fn text_run(&mut self, text: &str) {
        let marked = !self.plain && !self.comments.active.is_empty();
        if marked {
            self.open_comment_mark();
        }
        if text.contains('\t') && !self.in_pre {
            for (i, part) in text.split('\t').enumerate() {
                if i > 0 {
                    self.out.push_str("<span class=\"tab\">\t</span>");
                }
                self.text(part);
            }
        } else {
            self.text(text);
        }
        if marked {
            self.out.push_str("</mark>");
        }
    }

    fn open_comment_mark(&mut self) {
        self.out.push_str("<mark class=\"comment\" data-comment=\"");
        let doc = self.doc;
        for (k, &c) in self.comments.active.iter().enumerate() {
            if k > 0 {
                self.out.push(' ');
            }
            if let Some(comment) = doc.comments.get(c) {
                self.replaced += super::escape::attr(&comment.id, &mut self.out);
            }
        }
        self.out.push_str("\" title=\"");
        for (k, &c) in self.comments.active.iter().enumerate() {
            if k > 0 {
                self.out.push('\n');
            }
            if let Some(title) = self.comments.titles.get(c) {
                self.replaced += super::escape::attr(title, &mut self.out);
            }
        }
        self.out.push_str("\">");
    }

    fn link(&mut self, href: &str, children: &'a [Inline]) {
        if self.plain || self.in_link {
            self.inlines(children);
            return;
        }
        let Some((clean, kind)) = url::check(href) else {
            self.warn(
                WarningKind::Dropped,
                format!(
                    "unsafe link target {:?} removed; its text is kept",
                    excerpt(href)
                ),
                "a@href",
            );
            self.inlines(children);
            return;
        };
        // A link to a block id points at the block's (sanitised) page id; one to an id the page
        // does not have would lead nowhere, so only its text is kept. `#` alone (the top) stays.
        let fragment = match kind {
            Target::Fragment if !clean.is_empty() => {
                let found = self.targets.by_source.get(clean.as_str()).copied();
                match found.and_then(|i| self.targets.list.get(i)) {
                    Some(t) => Some(t.html_id.as_str()),
                    None => {
                        self.warn(
                            WarningKind::Lossy,
                            format!("link to unknown id {:?} written as text", excerpt(&clean)),
                            "a@href",
                        );
                        self.inlines(children);
                        return;
                    }
                }
            }
            _ => None,
        };
        let shows = link_shows(children);
        if shows == LinkShows::Nothing {
            // Only spaces or breaks: nothing to see or to read, so nothing to follow.
            self.warn(
                WarningKind::Lossy,
                format!(
                    "link to {:?} without text written as its content",
                    excerpt(href)
                ),
                "a@href",
            );
            self.inlines(children);
            return;
        }
        let at = self.out.len();
        self.out.push_str("<a href=\"");
        match (kind, fragment) {
            (Target::Fragment, Some(id)) => {
                self.out.push('#');
                self.out.push_str(id);
            }
            (Target::Fragment, None) => self.out.push('#'),
            (Target::External | Target::Relative, _) => self.attr(&clean),
        }
        self.out.push('"');
        if shows == LinkShows::Picture {
            // A picture without alternative text: the link is named by where it goes (the
            // `href` value just written, quotes included).
            let target = self.out[at + "<a href=".len()..].to_owned();
            self.out.push_str(" aria-label=");
            self.out.push_str(&target);
        }
        self.out.push('>');
        if kind == Target::External && self.wants.weblinks && !self.weblinks_seen.contains(&clean) {
            self.weblinks_seen.insert(clean.clone());
            self.weblinks.push(clean);
        }
        self.in_link = true;
        self.inlines(children);
        self.in_link = false;
        self.out.push_str("</a>");
    }

    /// A tracked paragraph mark: a pilcrow inserted or deleted at the paragraph's end, as Word
    /// shows a paragraph added or merged.
    pub(super) fn paragraph_mark(&mut self, mark: Option<&Change>) {
        static PILCROW: std::sync::OnceLock<[Inline; 1]> = std::sync::OnceLock::new();
        if let Some(mark) = mark {
            self.tracked(mark, PILCROW.get_or_init(|| [Inline::text("\u{B6}")]));
        }
    }

    fn tracked(&mut self, change: &Change, children: &'a [Inline]) {
        let tag = match change.kind {
            ChangeKind::Insert => "ins",
            ChangeKind::Delete => "del",
        };
        if self.plain {
            // Generated lists show the text as it now stands.
            if change.kind == ChangeKind::Insert {
                self.inlines(children);
            }
            return;
        }
        let _ = write!(self.out, "<{tag}");
        let author = change.author.as_deref().filter(|a| !a.is_empty());
        let date = change.date.as_deref().filter(|d| !d.is_empty());
        if author.is_some() || date.is_some() {
            self.out.push_str(" title=\"");
            if let Some(a) = author {
                self.attr(a);
            }
            if let Some(d) = date {
                if author.is_some() {
                    self.out.push_str(", ");
                }
                self.attr(d);
            }
            self.out.push('"');
        }
        if let Some(d) = date {
            if valid_datetime(d) {
                self.out.push_str(" datetime=\"");
                self.out.push_str(d);
                self.out.push('"');
            }
        }
        self.out.push('>');
        self.inlines(children);
        let _ = write!(self.out, "</{tag}>");
    }

    fn note(&mut self, kind: NoteKind, content: &'a [Inline]) {
        if self.plain {
            return;
        }
        if self.in_note || self.in_comment {
            self.warn(
                WarningKind::Lossy,
                "a note inside a note or comment is written inline, in brackets".into(),
                "sup",
            );
            self.out.push_str(" (");
            self.inlines(content);
            self.out.push(')');
            return;
        }
        let (class, prefix, n, format) = match kind {
            NoteKind::Footnote => {
                self.footnotes.push(content);
                ("fnref", "fn", self.footnotes.len(), NumberFormat::Decimal)
            }
            // Endnotes count separately and, as in Word, in lower-case roman numerals.
            NoteKind::Endnote => {
                self.endnotes.push(content);
                ("enref", "en", self.endnotes.len(), NumberFormat::LowerRoman)
            }
            NoteKind::Sidenote => {
                self.sidenotes.push(content);
                self.pending_asides.push(self.sidenotes.len());
                ("snref", "sn", self.sidenotes.len(), NumberFormat::Decimal)
            }
        };
        let label = format_number(u32::try_from(n).unwrap_or(u32::MAX), format);
        if self.in_link {
            // No link inside a link; the id stays, the note's way back needs it.
            let _ = write!(
                self.out,
                "<sup class=\"{class}\" id=\"sd-{prefix}ref-{n}\">{label}</sup>"
            );
        } else {
            let _ = write!(
                self.out,
                "<sup class=\"{class}\"><a href=\"#sd-{prefix}-{n}\" id=\"sd-{prefix}ref-{n}\" role=\"doc-noteref\">{label}</a></sup>"
            );
        }
    }

    fn cross_ref(&mut self, target: &str, number: bool, text: bool) {
        let found = self
            .targets
            .by_source
            .get(target)
            .copied()
            .and_then(|i| self.targets.list.get(i));
        let Some(t) = found else {
            if !self.plain {
                self.warn(
                    WarningKind::Lossy,
                    format!(
                        "cross-reference to unknown id {:?} written as \"{XREF_MARK}\"",
                        excerpt(target)
                    ),
                    "a.xref",
                );
            }
            // A bookmark name (`_Ref71265628`) means nothing to a reader: a neutral mark.
            self.out.push_str("<span class=\"xref-missing\">");
            self.out.push_str(XREF_MARK);
            self.out.push_str("</span>");
            return;
        };
        let linked = !self.plain && !self.in_link;
        if linked {
            self.out.push_str("<a class=\"xref\" href=\"#");
            self.out.push_str(&t.html_id);
            self.out.push_str("\">");
        }
        let label = t.label.as_deref().filter(|l| !l.is_empty());
        // Text of only spaces or breaks would make a link with nothing to read.
        let body = Some(t.text.as_str()).filter(|s| !s.trim().is_empty());
        let (label, body) = match (number && label.is_some(), text && body.is_some()) {
            (false, false) => (label, if label.is_some() { None } else { body }),
            (n, b) => (label.filter(|_| n), body.filter(|_| b)),
        };
        let mut wrote = false;
        if let Some(l) = label {
            self.replaced += super::escape::text(l, &mut self.out);
            wrote = true;
        }
        if let Some(b) = body {
            if wrote {
                self.out.push(' ');
            }
            self.replaced += super::escape::text(b, &mut self.out);
            wrote = true;
        }
        if !wrote {
            // The target has neither number nor text: a neutral link, never the raw id.
            self.out.push_str(XREF_MARK);
            if !self.plain {
                self.warn(
                    WarningKind::Lossy,
                    format!(
                        "cross-reference to {:?}, which has no number or text, written as \"{XREF_MARK}\"",
                        excerpt(target)
                    ),
                    "a.xref",
                );
            }
        }
        if linked {
            self.out.push_str("</a>");
        }
    }

    fn inline_image(&mut self, media: &'a str, caption: Option<&str>, alt: Option<&str>) {
        if !self.image_available(media) {
            self.out.push_str("<span class=\"missing-image\">[");
            self.text(alt.or(caption).unwrap_or(media));
            self.out.push_str("]</span>");
            return;
        }
        self.out.push_str("<img class=\"inline\" src=\"");
        self.image_src(media);
        self.out.push_str("\" alt=\"");
        self.attr(alt.unwrap_or(""));
        self.out.push('"');
        if let Some(c) = caption.filter(|c| !c.is_empty()) {
            self.out.push_str(" title=\"");
            self.attr(c);
            self.out.push('"');
        }
        self.out.push('>');
    }

    /// Whether `media` is in the store; warns (once per image) when it is missing or when
    /// browsers cannot show its type.
    pub(super) fn image_available(&mut self, media: &'a str) -> bool {
        let doc = self.doc;
        let Some(item) = doc.media.get(media) else {
            if self.media.warned.insert(media) {
                self.warn(
                    WarningKind::MissingMedia,
                    format!(
                        "image {:?} is not in the media store; its text is kept",
                        excerpt(media)
                    ),
                    "img",
                );
            }
            return false;
        };
        if matches!(self.mode, ImageMode::Inline | ImageMode::Streamed)
            && let Err(e) = item.bytes()
        {
            // A `data:` URI needs the bytes: a picture still deflated is inflated here, and one
            // that does not inflate is left out with its text kept.
            if self.media.warned.insert(media) {
                self.warn(
                    WarningKind::MissingMedia,
                    format!("{e}; its text is kept"),
                    "img",
                );
            }
            return false;
        }
        // A metafile here is one that could not be drawn, warned when drawing was tried.
        if !item.kind.is_web_image()
            && !matches!(item.kind, MediaKind::Bmp | MediaKind::Emf | MediaKind::Wmf)
            && self.media.warned.insert(media)
        {
            self.warn(
                WarningKind::Lossy,
                format!(
                    "image {:?} is {}, which browsers do not display",
                    excerpt(media),
                    item.kind.extension()
                ),
                "img",
            );
        }
        true
    }

    /// Writes the `src` value of an image that is in the store: its file, or its bytes.
    pub(super) fn image_src(&mut self, media: &'a str) {
        let doc = self.doc;
        let Some(item) = doc.media.get(media) else {
            return;
        };
        match self.mode {
            ImageMode::Files => {
                self.media.used.insert(item.name.as_str());
                self.out.push_str("images/");
                if let Some(file) = self.media.files.get(media) {
                    // File names are ASCII letters, digits, `.`, `-`, `_`: nothing to escape.
                    self.out.push_str(file);
                }
            }
            ImageMode::Inline | ImageMode::Streamed => {
                self.out.push_str("data:");
                self.out.push_str(item.kind.mime());
                self.out.push_str(";base64,");
                if self.mode == ImageMode::Streamed {
                    // The base64 goes into the output file later, in the marker's place.
                    super::streamed::marker(self.media.streamed.len(), &mut self.out);
                    self.media.streamed.push(item);
                } else if let Ok(bytes) = item.bytes() {
                    // Checked by `image_available`; the inflated bytes are cached in the item.
                    base64::engine::general_purpose::STANDARD.encode_string(&bytes, &mut self.out);
                }
            }
        }
    }

    fn comment_start(&mut self, id: &'a str) {
        if self.plain || self.in_comment {
            return;
        }
        let Some(&c) = self.comments.index.get(id) else {
            self.warn(
                WarningKind::Dropped,
                format!("comment anchor names unknown comment {:?}", excerpt(id)),
                "mark",
            );
            return;
        };
        if !self.comments.active.contains(&c) {
            self.comments.active.push(c);
        }
        if self.comments.number.get(c) == Some(&0) {
            self.comments.order.push(c);
            let n = u32::try_from(self.comments.order.len()).unwrap_or(u32::MAX);
            if let Some(slot) = self.comments.number.get_mut(c) {
                *slot = n;
            }
            let _ = write!(
                self.out,
                "<span class=\"comment-start\" id=\"sd-cref-{n}\"></span>"
            );
        }
    }

    fn comment_end(&mut self, id: &'a str) {
        if self.plain || self.in_comment {
            return;
        }
        let Some(&c) = self.comments.index.get(id) else {
            return;
        };
        self.comments.active.retain(|&a| a != c);
        let n = self.comments.number.get(c).copied().unwrap_or(0);
        if n == 0 {
            // An end without a start: nothing was marked, nothing to point back to.
            return;
        }
        if self.in_link {
            let _ = write!(self.out, "<sup class=\"comment-ref\">{n}</sup>");
        } else {
            let _ = write!(
                self.out,
                "<sup class=\"comment-ref\"><a href=\"#sd-comment-{n}\">{n}</a></sup>"
            );
        }
    }
}

fn style_tags(style: TextStyle) -> (&'static str, &'static str) {
    match style {
        TextStyle::Code => ("<code>", "</code>"),
        TextStyle::SmallCaps => ("<span class=\"sc\">", "</span>"),
        TextStyle::Bold => ("<strong>", "</strong>"),
        TextStyle::Italic => ("<em>", "</em>"),
        TextStyle::Underline => ("<u>", "</u>"),
        TextStyle::Strike => ("<s>", "</s>"),
        TextStyle::Subscript => ("<sub>", "</sub>"),
        TextStyle::Superscript => ("<sup>", "</sup>"),
    }
}

/// Whether `s` is what `ins`/`del@datetime` accepts (HTML: "a valid date string with optional
/// time"): `YYYY-MM-DD`, or a date and time with seconds optional and a zone (`Z`, `+01:00`).
pub(super) fn valid_datetime(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        if part.iter().all(u8::is_ascii_digit) {
            std::str::from_utf8(part).ok()?.parse().ok()
        } else {
            None
        }
    };
    let (Some(year), Some(month), Some(day)) = (digits(0..4), digits(5..7), digits(8..10)) else {
        return false;
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || year == 0 {
        return false;
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    if day == 0 || day > days {
        return false;
    }
    if b.len() == 10 {
        return true;
    }
    if !matches!(b.get(10), Some(b'T' | b' ')) || b.get(13) != Some(&b':') {
        return false;
    }
    match (digits(11..13), digits(14..16)) {
        (Some(h), Some(m)) if h < 24 && m < 60 => {}
        _ => return false,
    }
    let mut i = 16;
    if b.get(i) == Some(&b':') {
        match digits(i + 1..i + 3) {
            Some(sec) if sec < 60 => i += 3,
            _ => return false,
        }
        if b.get(i) == Some(&b'.') {
            let frac = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=3).contains(&frac) {
                return false;
            }
            i += 1 + frac;
        }
    }
    match &b[i..] {
        b"Z" => true,
        [sign, ..] if matches!(sign, b'+' | b'-') && b.len() == i + 6 && b[i + 3] == b':' => {
            matches!((digits(i + 1..i + 3), digits(i + 4..i + 6)), (Some(h), Some(m)) if h < 24 && m < 60)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::valid_datetime;

    #[test]
    fn datetimes() {
        for ok in [
            "2024-01-02",
            "2024-02-29",
            "2024-01-02T10:00:00Z",
            "2024-01-02T10:00Z",
            "2024-01-02 10:00:00.5+01:00",
            "2024-12-31T23:59:59.123-05:30",
        ] {
            assert!(valid_datetime(ok), "{ok}");
        }
        for bad in [
            "",
            "2023-02-29",
            "2024-13-01",
            "2024-01-02T10:00:00",
            "2024-01-02T25:00Z",
            "yesterday",
            "2024-01-02T10:00:00.1234Z",
            "2024-1-2",
            "2024-01-02T10:00+0100",
        ] {
            assert!(!valid_datetime(bad), "{bad}");
        }
    }
}
