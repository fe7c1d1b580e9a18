//! Page headers and footers as a Word document has them: per section, a default one and, when
//! the document asks for them, one for the section's first page and one for even pages; page
//! number fields kept as fields, filled in by writers that know the pages.
//!
//! A section that defines none of a kind has the previous section's (Word's rule), resolved
//! when the document is read: every section here holds what its pages show.

use serde::{Deserialize, Serialize};

/// The page headers and footers of a document.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Pages {
    /// Even pages show their own header and footer (Word's `w:evenAndOddHeaders`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub even_and_odd: bool,
    /// The sections, in order: each runs from its `start` block to the next one's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<PageSection>,
}

/// One section's headers and footers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PageSection {
    /// Index of the section's first top-level block.
    pub start: usize,
    /// The section's first page shows the `first` header and footer (Word's `w:titlePg`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub title_page: bool,
    /// The page headers.
    #[serde(default, skip_serializing_if = "Slots::is_empty")]
    pub header: Slots,
    /// The page footers.
    #[serde(default, skip_serializing_if = "Slots::is_empty")]
    pub footer: Slots,
}

/// The three variants of a header or footer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Slots {
    /// On every page the other two do not take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<PageText>,
    /// On the section's first page, when [`PageSection::title_page`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<PageText>,
    /// On even pages, when [`Pages::even_and_odd`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub even: Option<PageText>,
}

/// The text of a header or footer: paragraphs of text and page-number fields.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct PageText {
    /// The paragraphs, top to bottom (a tab is `\t`).
    pub paragraphs: Vec<Vec<PagePiece>>,
}

/// A piece of a header or footer paragraph.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PagePiece {
    /// Text.
    Text(String),
    /// The page's number (Word's `PAGE` field).
    PageNumber,
    /// The number of pages (`NUMPAGES`).
    PageCount,
    /// The number of pages of the section (`SECTIONPAGES`).
    SectionPageCount,
}

/// Which page of a section a header or footer is chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSide {
    /// The section's first page.
    pub first: bool,
    /// An even page number.
    pub even: bool,
}

impl Pages {
    /// Whether the document has no header or footer at all.
    pub fn is_empty(&self) -> bool {
        self.sections
            .iter()
            .all(|s| s.header.is_empty() && s.footer.is_empty())
    }

    /// Moves the sections' starts as top-level blocks leave the tree: `removed[i]` says
    /// whether block `i` (of the tree before) went. A section whose blocks all went starts
    /// where the next block is.
    pub fn blocks_removed(&mut self, removed: &[bool]) {
        move_past_removed(self.sections.iter_mut().map(|s| &mut s.start), removed);
    }

    /// The section holding top-level block `block`.
    pub fn section_of(&self, block: usize) -> Option<&PageSection> {
        self.sections.iter().rev().find(|s| s.start <= block)
    }

    /// The header (or footer, `footer`) a page of `section` shows.
    pub fn chosen<'a>(
        &self,
        section: &'a PageSection,
        footer: bool,
        side: PageSide,
    ) -> Option<&'a PageText> {
        let slots = if footer {
            &section.footer
        } else {
            &section.header
        };
        // Word: a page that takes the first or even variant shows nothing when it is missing.
        if side.first && section.title_page {
            slots.first.as_ref()
        } else if side.even && self.even_and_odd {
            slots.even.as_ref()
        } else {
            slots.default.as_ref()
        }
    }
}

/// What an output without pages (a web page, Markdown) shows: one header above the text and
/// one footer below it, and what that leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OnePage<'a> {
    /// The first section's header (its default one, else its first page's).
    pub header: Option<&'a PageText>,
    /// The first section's footer, chosen as the header.
    pub footer: Option<&'a PageText>,
    /// Other header and footer texts the document has (other sections, first or even pages),
    /// each counted once.
    pub not_shown: usize,
    /// Whether what is shown holds page-number fields (which have no value without pages).
    pub fields: bool,
}

impl Pages {
    /// The header and footer an output without pages shows ([`OnePage`]).
    pub fn one_page(&self) -> OnePage<'_> {
        let Some(first) = self.sections.first() else {
            return OnePage::default();
        };
        fn pick(s: &Slots) -> Option<&PageText> {
            s.default.as_ref().or(s.first.as_ref())
        }
        let (header, footer) = (pick(&first.header), pick(&first.footer));
        let shown = [header, footer];
        let mut others: Vec<&PageText> = Vec::new();
        for section in &self.sections {
            for (_, text) in section.header.iter().chain(section.footer.iter()) {
                if !shown.contains(&Some(text)) && !others.contains(&text) {
                    others.push(text);
                }
            }
        }
        OnePage {
            header,
            footer,
            not_shown: others.len(),
            fields: shown.iter().flatten().any(|t| t.has_fields()),
        }
    }
}

impl Slots {
    /// Whether no variant is set.
    pub fn is_empty(&self) -> bool {
        self.default.is_none() && self.first.is_none() && self.even.is_none()
    }

    /// The variants that are set, with Word's names for them (`default`, `first`, `even`).
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &PageText)> {
        [
            ("default", &self.default),
            ("first", &self.first),
            ("even", &self.even),
        ]
        .into_iter()
        .filter_map(|(name, text)| text.as_ref().map(|t| (name, t)))
    }
}

impl PageText {
    /// Whether it holds any piece.
    pub fn is_empty(&self) -> bool {
        self.paragraphs.iter().all(Vec::is_empty)
    }

    /// Whether it holds a page-number field.
    pub fn has_fields(&self) -> bool {
        self.paragraphs
            .iter()
            .flatten()
            .any(|p| !matches!(p, PagePiece::Text(_)))
    }

    /// The text of each paragraph for an output without pages: fields left out, the white
    /// space (tabs included) they leave closed up, empty paragraphs left out.
    pub fn plain_lines(&self) -> Vec<String> {
        self.lines(None)
            .iter()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// The text of each paragraph, the fields filled in with `numbers` (page, pages, pages of
    /// the section), or left out without.
    pub fn lines(&self, numbers: Option<(usize, usize, usize)>) -> Vec<String> {
        self.paragraphs
            .iter()
            .map(|pieces| {
                let mut line = String::new();
                for piece in pieces {
                    match (piece, numbers) {
                        (PagePiece::Text(t), _) => line.push_str(t),
                        (PagePiece::PageNumber, Some((n, _, _))) => line.push_str(&n.to_string()),
                        (PagePiece::PageCount, Some((_, m, _))) => line.push_str(&m.to_string()),
                        (PagePiece::SectionPageCount, Some((_, _, s))) => {
                            line.push_str(&s.to_string())
                        }
                        (_, None) => {}
                    }
                }
                line
            })
            .collect()
    }
}

/// Moves each block index `at` gives back by the blocks `removed` (one flag per block as they
/// were) before it, so it names the same block, or the one after the blocks that went. One
/// count of the flags serves every index: counting them again for each took sections × blocks.
pub fn move_past_removed<'a>(at: impl IntoIterator<Item = &'a mut usize>, removed: &[bool]) {
    if !removed.contains(&true) {
        return;
    }
    // `gone[i]`: how many of the first `i` blocks went.
    let mut gone = Vec::with_capacity(removed.len() + 1);
    gone.push(0usize);
    let mut n = 0;
    for r in removed {
        n += usize::from(*r);
        gone.push(n);
    }
    for a in at {
        *a -= gone.get(*a).copied().unwrap_or(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Option<PageText> {
        Some(PageText {
            paragraphs: vec![vec![PagePiece::Text(s.into())]],
        })
    }

    #[test]
    fn a_page_takes_the_variant_word_shows() {
        let section = PageSection {
            start: 0,
            title_page: true,
            header: Slots {
                default: text("odd"),
                first: None,
                even: text("even"),
            },
            footer: Slots::default(),
        };
        let mut pages = Pages {
            even_and_odd: true,
            sections: vec![section.clone()],
        };
        let pick = |pages: &Pages, first, even| {
            pages
                .chosen(&section, false, PageSide { first, even })
                .map(|t| t.lines(None).concat())
        };
        // The first page takes the (missing) first-page header: nothing, as in Word.
        assert_eq!(pick(&pages, true, false), None);
        assert_eq!(pick(&pages, false, true).as_deref(), Some("even"));
        assert_eq!(pick(&pages, false, false).as_deref(), Some("odd"));
        pages.even_and_odd = false;
        assert_eq!(pick(&pages, false, true).as_deref(), Some("odd"));
    }

    #[test]
    fn fields_are_filled_in_or_left_out() {
        let t = PageText {
            paragraphs: vec![vec![
                PagePiece::Text("Page ".into()),
                PagePiece::PageNumber,
                PagePiece::Text(" of ".into()),
                PagePiece::PageCount,
            ]],
        };
        assert!(t.has_fields());
        assert_eq!(t.lines(Some((3, 9, 4))), ["Page 3 of 9"]);
        assert_eq!(t.lines(None), ["Page  of "]);
    }

    #[test]
    fn a_block_is_in_the_last_section_starting_at_or_before_it() {
        let pages = Pages {
            even_and_odd: false,
            sections: vec![
                PageSection::default(),
                PageSection {
                    start: 5,
                    ..PageSection::default()
                },
            ],
        };
        assert_eq!(pages.section_of(4).map(|s| s.start), Some(0));
        assert_eq!(pages.section_of(5).map(|s| s.start), Some(5));
    }

    /// Each index moves back by the flags set before it, an index past the end by all of them.
    #[test]
    fn indices_move_back_past_the_blocks_removed() {
        let removed = [false, true, true, false, true, false];
        let naive = |a: usize| {
            a - removed[..a.min(removed.len())]
                .iter()
                .filter(|r| **r)
                .count()
        };
        let mut at: Vec<usize> = (0..=8).collect();
        let want: Vec<usize> = at.iter().map(|&a| naive(a)).collect();
        move_past_removed(&mut at, &removed);
        assert_eq!(at, want);
        assert_eq!(at, [0, 1, 1, 1, 2, 2, 3, 4, 5]);
        let mut same = vec![0, 3, 9];
        move_past_removed(&mut same, &[false; 4]);
        assert_eq!(same, [0, 3, 9]);
    }
}
