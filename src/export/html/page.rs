//! The page around the body: `head`, the document header, the note and comment lists, the
//! footer, and the splice that puts generated directories in place.

use super::{ImageMode, STYLESHEET, Writer};
use crate::ast::inline::plain_text;
use crate::ast::{Block, DirectoryKind, PageText, TextType};
use crate::report::{Location, WarningKind};

impl Writer<'_> {
    /// Writes everything up to and including `<main>`.
    pub(super) fn head(&mut self) {
        let doc = self.doc;
        let meta = &doc.meta;
        self.out.push_str("<!DOCTYPE html>\n<html lang=\"");
        self.out.push_str(self.lang.bcp47());
        self.out.push_str(
            "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
        );
        let title = nonempty(meta.title.as_deref())
            .map(str::to_owned)
            .or_else(|| nonempty(meta.filename.as_deref()).map(str::to_owned))
            .or_else(|| first_heading(&doc.blocks))
            .unwrap_or_else(|| "Document".to_owned());
        self.text(&title);
        self.out.push_str("</title>\n");
        // Named again by a visually hidden `h1` when the page would have none.
        self.landmarks.page_title = title;
        let description =
            nonempty(meta.description.as_deref()).or(nonempty(meta.subtitle.as_deref()));
        for (name, value) in [
            ("description", description),
            ("author", nonempty(meta.creator.as_deref())),
        ] {
            if let Some(value) = value {
                self.out.push_str("<meta name=\"");
                self.out.push_str(name);
                self.out.push_str("\" content=\"");
                self.attr(value);
                self.out.push_str("\">\n");
            }
        }
        if !meta.tags.is_empty() {
            self.out.push_str("<meta name=\"keywords\" content=\"");
            for (i, tag) in meta.tags.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.attr(tag);
            }
            self.out.push_str("\">\n");
        }
        self.out
            .push_str("<meta name=\"generator\" content=\"sdconv\">\n");
        match self.mode {
            ImageMode::Files => self
                .out
                .push_str("<link rel=\"stylesheet\" href=\"style.css\">\n"),
            ImageMode::Inline | ImageMode::Streamed => {
                self.out.push_str("<style>\n");
                self.out.push_str(STYLESHEET);
                self.out.push_str("</style>\n");
            }
        }
        self.out.push_str("</head>\n<body>\n");
        // The page header above the text, the footer below it ([`Self::finish_page`]): a page
        // has one of each, the first section's.
        let shown = meta.pages.one_page();
        if shown.not_shown > 0 {
            self.report.warn(
                WarningKind::Lossy,
                format!(
                    "{} other page header/footer text(s) (later sections, first or even pages) \
                     are not shown: a web page has one header and one footer",
                    shown.not_shown
                ),
                Location::default().element("header"),
            );
        }
        if shown.fields {
            self.report.warn(
                WarningKind::Lossy,
                "page numbers in the page header or footer are left out: a web page has no pages",
                Location::default().element("header"),
            );
        }
        // The page header is the page's one banner landmark.
        if let Some(header) = shown.header {
            self.out.push_str("<header class=\"page-header\">\n");
            self.page_text(header);
            self.out.push_str("</header>\n");
        }
        self.out.push_str("<main>\n");
        self.landmarks.main_at = self.out.len();
        // The title block opens `main`: a `header` inside `main` is no second banner, and the
        // title is the page's level-one heading (the document's headings keep their own ranks,
        // as pandoc writes them: several `h1` are valid HTML and a reader's outline).
        let title = nonempty(meta.title.as_deref());
        let subtitle = nonempty(meta.subtitle.as_deref());
        if title.is_some() || subtitle.is_some() {
            self.out.push_str("<header class=\"doc-header\">\n");
            if let Some(t) = title {
                self.out.push_str("<h1 class=\"doc-title\">");
                self.text(t);
                self.out.push_str("</h1>\n");
                self.landmarks.has_h1 = true;
            }
            if let Some(s) = subtitle {
                self.out.push_str("<p class=\"doc-subtitle\">");
                self.text(s);
                self.out.push_str("</p>\n");
            }
            self.out.push_str("</header>\n");
        }
    }

    /// Writes the lists and the footer, splices in the directories, and returns the page.
    pub(super) fn finish_page(&mut self) -> String {
        // A range left open at the end of the body does not reach into the notes.
        self.comments.active.clear();
        // Footnotes go to the first footnotes list when there is one, their title at its rank.
        let footnotes_tag = self
            .placeholders
            .iter()
            .zip(&self.landmarks.directories)
            .find(|((_, kind), _)| *kind == DirectoryKind::Footnotes)
            .map_or("h2", |(_, &(tag, _))| tag);
        let footnotes = self.notes_section(false, footnotes_tag);
        let endnotes = self.notes_section(true, "h2");
        let comments = self.comments_section();

        let mut footnotes = (!footnotes.is_empty()).then_some(footnotes);
        // Directories go after the hidden `h1` (if any), at offsets it moved.
        let moved = self.hidden_h1();
        let mut placeholders = std::mem::take(&mut self.placeholders);
        for (at, _) in &mut placeholders {
            *at += moved;
        }
        let directories: Vec<String> = placeholders
            .iter()
            .enumerate()
            .map(|(n, &(_, kind))| self.directory(n + 1, kind, &mut footnotes))
            .collect();

        let mut tail = String::new();
        if let Some(f) = footnotes {
            tail.push_str(&f);
        }
        tail.push_str(&endnotes);
        tail.push_str("</main>\n");
        // Comments are remarks beside the text, not part of it: a complementary landmark of
        // their own, which must not sit inside `main` (axe `landmark-complementary-is-top-level`).
        tail.push_str(&comments);
        let doc = self.doc;
        // The Word footer with its paragraphs, else the service's one-line footer.
        if let Some(footer) = doc.meta.pages.one_page().footer {
            let at = self.out.len();
            self.page_text(footer);
            let paragraphs = self.out.split_off(at);
            tail.push_str("<footer class=\"doc-footer\">\n");
            tail.push_str(&paragraphs);
            tail.push_str("</footer>\n");
        } else if let Some(footer) = nonempty(doc.meta.footer.as_deref()) {
            tail.push_str("<footer class=\"doc-footer\">\n<p>");
            self.replaced += super::escape::text(footer, &mut tail);
            tail.push_str("</p>\n</footer>\n");
        }
        tail.push_str("</body>\n</html>\n");

        if self.replaced > 0 {
            self.report.warn(
                WarningKind::Repaired,
                format!(
                    "{} control or noncharacter code point(s) HTML forbids were replaced by U+FFFD",
                    self.replaced
                ),
                Location::default(),
            );
        }

        let mut page = std::mem::take(&mut self.out);
        let offsets: Vec<usize> = placeholders.iter().map(|&(at, _)| at).collect();
        splice(&mut page, &offsets, &directories);
        page.push_str(&tail);
        page
    }
}

/// Inserts `parts[i]` at byte offset `offsets[i]` of `page` (ascending, on character
/// boundaries), inside the page's own buffer: each stretch of text moves once, from the last
/// offset back. A page with its pictures inline is tens of megabytes; building a second one
/// cost a copy into fresh memory, faulted in page by page.
fn splice(page: &mut String, offsets: &[usize], parts: &[String]) {
    let extra: usize = offsets.iter().zip(parts).map(|(_, p)| p.len()).sum();
    if extra == 0 {
        return;
    }
    let old_len = page.len();
    let mut bytes = std::mem::take(page).into_bytes();
    bytes.resize(old_len + extra, 0);
    let mut end = old_len;
    let mut shift = extra;
    for (&at, part) in offsets.iter().zip(parts).rev() {
        let start = at.min(end);
        bytes.copy_within(start..end, start + shift);
        shift -= part.len();
        bytes[start + shift..start + shift + part.len()].copy_from_slice(part.as_bytes());
        end = start;
    }
    // Valid: whole strings were put between characters.
    *page = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

impl Writer<'_> {
    /// A header's or footer's paragraphs, page-number fields left out (warned by the caller)
    /// and the spaces and tabs they leave behind closed up.
    fn page_text(&mut self, text: &PageText) {
        for line in text.plain_lines() {
            self.out.push_str("<p>");
            self.text(&line);
            self.out.push_str("</p>\n");
        }
    }
}

fn nonempty(s: Option<&str>) -> Option<&str> {
    s.map(str::trim).filter(|s| !s.is_empty())
}

fn first_heading(blocks: &[Block]) -> Option<String> {
    blocks.iter().find_map(|b| match b {
        Block::Paragraph(p) if matches!(p.kind, TextType::Heading | TextType::HeadingOl) => {
            let t = plain_text(&p.content);
            let t = t.trim();
            (!t.is_empty()).then(|| t.to_owned())
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::splice;

    #[test]
    fn parts_go_in_at_their_offsets() {
        let parts = ["<A>", "", "<Bé>", "<C>"].map(String::from);
        let mut page = "héllo wörld".to_string();
        let end = page.len();
        // At the start, twice at one offset, in the middle, at the end.
        splice(&mut page, &[0, 0, 6, end], &parts);
        assert_eq!(page, "<A>héllo<Bé> wörld<C>");
        let mut page = "x".to_string();
        splice(&mut page, &[], &[]);
        assert_eq!(page, "x");
    }
}
