//! Stage two for page headers and footers: each section's parts as [`PageText`] (page-number
//! fields kept as fields), a section without a part of a kind taking the previous section's,
//! as Word shows it.

use std::collections::HashMap;

use crate::ast::{PagePiece, PageSection, PageText, Pages, inline::plain_text};
use crate::import::docx::parse::model;
use crate::import::docx::parse::parts::PageParts;
use crate::import::docx::parse::props::Section;

use super::converter::Converter;
use crate::report::WarningKind;

/// The private-use character that stands for a page-number field in a header's text while it
/// is converted (never in the tree: [`Converter::page_text`] turns it back into the field).
pub(super) fn field_mark(piece: &PagePiece) -> char {
    match piece {
        PagePiece::PageNumber => '\u{E000}',
        PagePiece::PageCount => '\u{E001}',
        PagePiece::SectionPageCount => '\u{E002}',
        // Not a field: no mark.
        PagePiece::Text(_) => '\u{FFFD}',
    }
}

fn field_of(c: char) -> Option<PagePiece> {
    match c {
        '\u{E000}' => Some(PagePiece::PageNumber),
        '\u{E001}' => Some(PagePiece::PageCount),
        '\u{E002}' => Some(PagePiece::SectionPageCount),
        _ => None,
    }
}

impl Converter<'_> {
    /// A header or footer part's blocks as page text, one paragraph per block (a table's
    /// cells run together); `None` when it shows nothing.
    pub(super) fn page_text(&mut self, blocks: Vec<model::Block>) -> Option<PageText> {
        self.footer_mode = true;
        let mut paragraphs = Vec::new();
        for block in blocks {
            let inlines = self.inline_of_blocks(vec![block], false);
            let text = plain_text(&inlines);
            let mut pieces = Vec::new();
            let mut run = String::new();
            for c in text.chars() {
                match field_of(c) {
                    Some(field) => {
                        if !run.is_empty() {
                            pieces.push(PagePiece::Text(std::mem::take(&mut run)));
                        }
                        pieces.push(field);
                    }
                    // Line breaks inside a paragraph: a space, as Word's header shows them on
                    // one line at most widths.
                    None if c == '\n' => run.push(' '),
                    None => run.push(c),
                }
            }
            if !run.is_empty() {
                pieces.push(PagePiece::Text(run));
            }
            paragraphs.push(pieces);
        }
        self.footer_mode = false;
        // Empty paragraphs at the ends are spacing, not text.
        while paragraphs
            .last()
            .is_some_and(|p: &Vec<PagePiece>| is_blank(p))
        {
            paragraphs.pop();
        }
        let lead = paragraphs.iter().take_while(|p| is_blank(p)).count();
        paragraphs.drain(..lead);
        let text = PageText { paragraphs };
        (!text.is_empty()).then_some(text)
    }

    /// The document's sections with their headers and footers: `ends` are the sections the
    /// body's paragraphs end (where the next one starts), `last` the body's own. Also the text
    /// of a footer our writer made from its template around the service's footer line.
    pub(super) fn pages(
        &mut self,
        ends: Vec<(usize, Section)>,
        last: Option<Section>,
        mut parts: PageParts,
    ) -> (Pages, Option<String>) {
        let mut sections: Vec<PageSection> = Vec::with_capacity(ends.len() + 1);
        let mut start = 0;
        let all = ends
            .into_iter()
            .chain(std::iter::once((usize::MAX, last.unwrap_or_default())));
        let mut template_footer: Option<String> = None;
        // A part's text and its size ([`text_size`]).
        let mut converted: HashMap<String, (Option<PageText>, usize)> = HashMap::new();
        // Each section holds its own copy of what it shows: the page text they hold together
        // (`held`; the last one's `last_size`) stays within `MAX_PAGE_TEXT`.
        let mut held = 0usize;
        let mut last_size = 0usize;
        let mut over = false;
        for (next, props) in all {
            // Inherited: what the previous section shows, for each kind this one leaves out.
            let (mut section, mut size) = match sections.last() {
                Some(prev) if held.saturating_add(last_size) <= MAX_PAGE_TEXT => {
                    (prev.clone(), last_size)
                }
                Some(_) => {
                    over = true;
                    (PageSection::default(), 0)
                }
                None => (PageSection::default(), 0),
            };
            section.start = start;
            section.title_page = props.title_page;
            for (refs, slots) in [
                (&props.headers, &mut section.header),
                (&props.footers, &mut section.footer),
            ] {
                // At most three of each (the parser keeps no more).
                for (kind, id) in refs {
                    if parts.template_footers.contains(id) {
                        // Our writer's frame around the service's footer: that footer only.
                        if template_footer.is_none() {
                            let blocks = parts.parts.remove(id).unwrap_or_default();
                            template_footer = self
                                .page_text(blocks)
                                .map(|t| one_line(&t))
                                .filter(|l| !l.is_empty());
                        }
                        continue;
                    }
                    // A part several sections name is converted once.
                    if !converted.contains_key(id) {
                        let text = parts.parts.remove(id).and_then(|b| self.page_text(b));
                        let n = text_size(&text);
                        converted.insert(id.clone(), (text, n));
                    }
                    let Some((text, n)) = converted.get(id) else {
                        continue;
                    };
                    let slot = match kind.as_str() {
                        "first" => &mut slots.first,
                        "even" => &mut slots.even,
                        _ => &mut slots.default,
                    };
                    let without = size.saturating_sub(text_size(slot));
                    if held.saturating_add(without).saturating_add(*n) > MAX_PAGE_TEXT {
                        // Not what the section before showed either: nothing.
                        *slot = None;
                        size = without;
                        over = true;
                        continue;
                    }
                    *slot = text.clone();
                    size = without.saturating_add(*n);
                }
            }
            // A section with no blocks (the body ends with a section break) shows nothing.
            if sections.last().is_some_and(|s| s.start == start) {
                sections.pop();
                held = held.saturating_sub(last_size);
            }
            sections.push(section);
            last_size = size;
            held = held.saturating_add(size);
            if next == usize::MAX {
                break;
            }
            start = next;
        }
        parts.parts.clear();
        if over {
            self.warn(
                WarningKind::Dropped,
                format!(
                    "headers and footers past {} MiB of page text held by the sections together \
                     are left out (each section holds its own copy)",
                    MAX_PAGE_TEXT >> 20
                ),
                "w:sectPr",
            );
        }
        let pages = Pages {
            even_and_odd: parts.even_and_odd,
            sections,
        };
        if pages.is_empty() {
            (Pages::default(), template_footer)
        } else {
            (pages, template_footer)
        }
    }
}

/// The most page text (bytes of text, and one per piece) the sections of a document hold
/// together. Each section holds its own copy of the headers and footers it shows, so one long
/// header named by thousands of sections would otherwise be copied thousands of times.
const MAX_PAGE_TEXT: usize = 64 << 20;

/// The size of a header's or footer's text, as [`MAX_PAGE_TEXT`] counts it: the bytes of its
/// texts, and one for each piece and each paragraph (empty ones are copied too).
fn text_size(text: &Option<PageText>) -> usize {
    text.iter()
        .flat_map(|t| &t.paragraphs)
        .map(|pieces| {
            pieces
                .iter()
                .map(|piece| match piece {
                    PagePiece::Text(s) => s.len().saturating_add(1),
                    _ => 1,
                })
                .fold(1, usize::saturating_add)
        })
        .fold(0, usize::saturating_add)
}

fn is_blank(pieces: &[PagePiece]) -> bool {
    pieces
        .iter()
        .all(|p| matches!(p, PagePiece::Text(t) if t.trim().is_empty()))
}

/// The first section's default footer as one line of text: the service's footer.
pub(super) fn footer_line(pages: &Pages) -> Option<String> {
    let text = pages.sections.first()?.footer.default.as_ref()?;
    Some(one_line(text)).filter(|l| !l.is_empty())
}

/// A header's or footer's text on one line, page numbers left out, white space collapsed.
fn one_line(text: &PageText) -> String {
    text.plain_lines().join(" ")
}
