//! What assistive technology navigates by: heading ranks, the page's level-one heading, and the
//! named, keyboard-reachable region around each table. Checked with axe-core in headless
//! Chromium (`tests/browser/axe.mjs`, WCAG 2.1 A/AA and best practice).

use super::Writer;
use crate::ast::{DirectoryKind, Inline};

/// The page's heading outline, as it is written.
#[derive(Debug, Default)]
pub(super) struct Landmarks {
    /// Source levels of the headings still open around the next one, outermost first.
    open: Vec<u8>,
    /// Whether the page has an `h1` (the title, or a heading of the first rank).
    pub has_h1: bool,
    /// The page's `<title>` text: the hidden `h1` of a page without one.
    pub page_title: String,
    /// Byte offset in the page just inside `<main>`, where that hidden `h1` goes.
    pub main_at: usize,
    /// Tables written so far: `Table N` names a table region without a caption.
    tables: u32,
    /// Per directory, in the order of the writer's placeholders: its title's tag, and how many
    /// of its kind came before it (a navigation landmark's name must be unique).
    pub directories: Vec<(&'static str, usize)>,
}

impl Landmarks {
    /// The tag of a heading at source `level` (0 = Heading 1). An HTML heading's level is its
    /// rank in the outline, so it is one more than the number of headings open around it: Word
    /// levels that skip (Heading 1, then Heading 3) become consecutive ranks (`h1`, `h2`), and a
    /// document whose top headings are Heading 2 starts at `h1`. Screen readers list headings
    /// by these ranks; a skipped rank reads as a missing section (axe `heading-order`).
    pub fn heading_tag(&mut self, level: u8) -> &'static str {
        while self.open.last().is_some_and(|&open| open >= level) {
            self.open.pop();
        }
        let rank = self.open.len().min(5);
        self.open.push(level);
        self.has_h1 |= rank == 0;
        RANKS[rank]
    }

    /// The tag of a generated list's title here: one rank below the heading it follows, and
    /// never `h1` (a contents list is part of the document, not its name). It opens no
    /// section of the document's outline.
    fn directory_tag(&self) -> &'static str {
        RANKS[self.open.len().clamp(1, 5)]
    }
}

const RANKS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];

/// What a link's content gives a reader to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum LinkShows {
    /// Nothing at all (spaces, breaks, empty anchors): no link to follow.
    Nothing,
    /// A picture without alternative text: something to click, nothing to read.
    Picture,
    /// Text, or a picture with alternative text or a caption.
    Text,
}

/// What `inlines` show as a link's content (the most readable thing in them).
pub(super) fn link_shows(inlines: &[Inline]) -> LinkShows {
    let one = |inline: &Inline| match inline {
        Inline::Text { text } if text.trim().is_empty() => LinkShows::Nothing,
        Inline::LineBreak
        | Inline::IndexMark { .. }
        | Inline::CommentStart { .. }
        | Inline::CommentEnd { .. } => LinkShows::Nothing,
        Inline::Image { alt, caption, .. } => {
            let named = |s: &Option<String>| s.as_deref().is_some_and(|s| !s.trim().is_empty());
            if named(alt) || named(caption) {
                LinkShows::Text
            } else {
                LinkShows::Picture
            }
        }
        other => other.children().map_or(LinkShows::Text, link_shows),
    };
    inlines.iter().map(one).max().unwrap_or(LinkShows::Nothing)
}

impl Writer<'_> {
    /// Marks where a generated list goes (written at the end, [`Self::finish_page`]) and the
    /// rank its title takes there.
    pub(super) fn directory_placeholder(&mut self, kind: DirectoryKind) {
        let before = self.placeholders.iter().filter(|(_, k)| *k == kind).count();
        self.placeholders.push((self.out.len(), kind));
        let tag = self.landmarks.directory_tag();
        self.landmarks.directories.push((tag, before));
    }

    /// Opens the wrapper that lets a wide table scroll on a narrow screen. A region that scrolls
    /// must be reachable by keyboard (`tabindex="0"`, WCAG 2.1.1) and, being a tab stop, say
    /// what it is: a `region` named by the table's caption as shown (`Table 2: text`, `number`
    /// being the caption's), else `Table N` by its place in the page.
    pub(super) fn open_table_region(&mut self, caption: Option<&str>, number: Option<u32>) {
        self.landmarks.tables += 1;
        let label = self.lang.table();
        let caption = caption.map(str::trim).filter(|c| !c.is_empty());
        let name = match (number, caption) {
            (Some(n), Some(c)) => format!("{label} {n}: {c}"),
            (None, Some(c)) => c.to_owned(),
            (Some(n), None) => format!("{label} {n}"),
            (None, None) => format!("{label} {}", self.landmarks.tables),
        };
        self.out
            .push_str("<div class=\"table-wrap\" role=\"region\" tabindex=\"0\" aria-label=\"");
        self.attr(&name);
        self.out.push_str("\">\n");
    }

    /// A visually hidden `h1` naming the page, just inside `main`, when neither a title nor a
    /// heading gave it one: a screen reader's first heading is the document's name, and the
    /// page still looks as the document does. Returns the bytes inserted (`out` moved by them).
    pub(super) fn hidden_h1(&mut self) -> usize {
        if self.landmarks.has_h1 {
            return 0;
        }
        let mut h1 = String::from("<h1 class=\"visually-hidden\">");
        self.replaced += super::escape::text(&self.landmarks.page_title, &mut h1);
        h1.push_str("</h1>\n");
        let at = self.landmarks.main_at.min(self.out.len());
        self.out.insert_str(at, &h1);
        self.landmarks.has_h1 = true;
        h1.len()
    }
}

#[cfg(test)]
mod tests {
    use super::Landmarks;

    #[test]
    fn heading_ranks_close_gaps_and_follow_the_outline() {
        let mut l = Landmarks::default();
        let tags: Vec<_> = [1, 3, 3, 2, 1, 0, 5, 4]
            .into_iter()
            .map(|level| l.heading_tag(level))
            .collect();
        assert_eq!(tags, ["h1", "h2", "h2", "h2", "h1", "h1", "h2", "h2"]);
        assert!(l.has_h1);
    }

    #[test]
    fn directory_titles_rank_below_the_open_heading_and_never_first() {
        let mut l = Landmarks::default();
        assert_eq!(l.directory_tag(), "h2");
        l.heading_tag(0);
        assert_eq!(l.directory_tag(), "h2");
        l.heading_tag(2);
        l.heading_tag(4);
        assert_eq!(l.directory_tag(), "h4");
        for level in 0..6 {
            l.heading_tag(level);
        }
        assert_eq!(l.directory_tag(), "h6");
    }

    #[test]
    fn links_show_text_pictures_or_nothing() {
        use super::{LinkShows, link_shows};
        use crate::ast::{Inline, TextStyle};
        let image = |alt: Option<&str>| Inline::Image {
            media: "a.png".into(),
            caption: None,
            alt: alt.map(Into::into),
        };
        let styled = |c| Inline::styled(TextStyle::Bold, c);
        assert_eq!(link_shows(&[]), LinkShows::Nothing);
        assert_eq!(
            link_shows(&[
                Inline::text(" \t"),
                Inline::LineBreak,
                styled(vec![Inline::LineBreak])
            ]),
            LinkShows::Nothing
        );
        assert_eq!(
            link_shows(&[image(None), image(Some(" "))]),
            LinkShows::Picture
        );
        assert_eq!(
            link_shows(&[image(None), styled(vec![Inline::text("x")])]),
            LinkShows::Text
        );
        assert_eq!(link_shows(&[image(Some("logo"))]), LinkShows::Text);
    }

    #[test]
    fn six_nested_levels_keep_six_ranks() {
        let mut l = Landmarks::default();
        let tags: Vec<_> = (0..6).map(|level| l.heading_tag(level)).collect();
        assert_eq!(tags, ["h1", "h2", "h3", "h4", "h5", "h6"]);
    }
}
