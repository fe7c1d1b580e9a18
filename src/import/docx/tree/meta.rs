//! Stage two: document metadata: core properties and the default footer fill what the caller did
//! not give; the caller's fields (the API's creation payload) win. The API's length limits apply: a
//! caller value that is too long is an [`Error::Parameter`] naming the field; a value read
//! from the document is shortened with a warning (the caller cannot be blamed for it).

use crate::ast::inline::plain_text;
use crate::ast::{Block, Document, Meta};
use crate::error::{Error, Result};
use crate::import::docx::parse::core_props::CoreProps;
use crate::lang::Language;
use crate::report::{Location, Report, WarningKind};

/// (field, limit in characters) from the API's limits table.
const LIMITS: [(&str, usize); 5] = [
    ("title", 200),
    ("description", 400),
    ("subtitle", 300),
    ("filename", 200),
    ("supplemental", 400),
];

fn field<'m>(meta: &'m Meta, name: &str) -> Option<&'m String> {
    match name {
        "title" => meta.title.as_ref(),
        "description" => meta.description.as_ref(),
        "subtitle" => meta.subtitle.as_ref(),
        "filename" => meta.filename.as_ref(),
        "supplemental" => meta.supplemental.as_ref(),
        _ => None,
    }
}

/// Checks the caller's metadata against the API's limits.
pub fn check_given(given: &Meta) -> Result<()> {
    for (name, limit) in LIMITS {
        if let Some(v) = field(given, name) {
            let n = v.chars().count();
            if n > limit {
                return Err(Error::parameter(
                    name,
                    format!("{n} characters, at most {limit} allowed"),
                ));
            }
        }
    }
    Ok(())
}

fn clip(value: Option<String>, name: &str, report: &mut Report) -> Option<String> {
    let limit = LIMITS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(usize::MAX, |l| l.1);
    let v = value?;
    let n = v.chars().count();
    if n <= limit {
        return Some(v);
    }
    report.warn(
        WarningKind::Lossy,
        format!("the document's {name} has {n} characters; shortened to the API's {limit}"),
        Location::part("docProps/core.xml"),
    );
    Some(v.chars().take(limit).collect())
}

/// Merges document metadata under the caller's.
///
/// The language: the caller's; else the body's most common one (`body_language`, BCP 47), in
/// the core properties' spelling when they name the same language (so `en_EN` written by our
/// writer comes back as `en_EN`); else the core properties'. The body beats `dc:language`
/// because producers fill that in with the user's locale (LibreOffice says `en-US` for a
/// Chinese text).
pub fn merge(
    core: CoreProps,
    footer: Option<String>,
    body_language: Option<String>,
    given: &Meta,
    report: &mut Report,
) -> Meta {
    let mut meta = given.clone();
    let or = |given: &mut Option<String>, doc: Option<String>| {
        if given.as_deref().is_none_or(str::is_empty) {
            *given = doc;
        }
    };
    or(&mut meta.title, clip(core.title, "title", report));
    or(&mut meta.subtitle, clip(core.subject, "subtitle", report));
    or(
        &mut meta.description,
        clip(core.description, "description", report),
    );
    or(&mut meta.creator, core.creator);
    // The API's code where the document's tag names one of its four languages (`en` → `en_EN`).
    let core_language = core.language.map(api_code);
    let body_language = body_language.map(api_code);
    let language = match (body_language, core_language) {
        (Some(body), Some(core)) if crate::lang_tag::same_language(&body, &core) => Some(core),
        (Some(body), _) => Some(body),
        (None, core) => core,
    };
    or(&mut meta.language, language);
    or(&mut meta.footer, footer);
    if meta.tags.is_empty() {
        meta.tags = core.keywords;
    }
    meta
}

/// A language as the API's code when it is exactly one of the four's tags (`de-DE` → `de_DE`,
/// `en` → `en_EN`); any other as written (`en-US` stays: it says more than `en_EN`).
fn api_code(language: String) -> String {
    let tag = crate::lang_tag::normalize(&language);
    Language::ALL
        .into_iter()
        .find(|api| Some(api.bcp47()) == tag.as_deref())
        .map_or(language, |api| api.code().to_string())
}

fn same_tag(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => crate::lang_tag::same_language(a, b),
        (a, b) => a == b,
    }
}

/// Whether `text` is a directory title our writer puts above a TOC field (any of the four
/// languages). Other headings (a document's own wording) are kept as text, never dropped.
fn is_writer_title(text: &str) -> bool {
    Language::ALL
        .into_iter()
        .any(|l| [l.contents(), l.list_of_figures(), l.list_of_tables()].contains(&text))
}

/// Settles the tree's metadata once everything is read: the core properties and what the parts
/// said (the footer's and page headers' text, which travel in `doc.meta` until now) fill what the
/// caller did not give; then the leading title paragraphs move into it
/// ([`take_title_blocks`]).
pub fn settle(doc: &mut Document, core: CoreProps, given: &Meta, report: &mut Report) {
    let read = std::mem::take(&mut doc.meta);
    let body_language = read.language.clone();
    doc.meta = merge(core, read.footer, read.language, given, report);
    doc.meta.direction = given.direction.or(read.direction);
    doc.meta.hyphenate = given.hyphenate || read.hyphenate;
    // Paragraphs say their language relative to the body's; when the caller names another
    // document language, they are said again relative to that one.
    let now = doc.meta.lang_tag();
    if body_language.is_some() && !same_tag(body_language.as_deref(), now.as_deref()) {
        super::language::rebase(doc, body_language.as_deref(), now.as_deref());
    }
    // Page headers and footers: the caller's, else the document's.
    if doc.meta.pages.is_empty() {
        doc.meta.pages = read.pages;
    }
    // Read as mammoth reads (`word` kept), a title paragraph stays text: mammoth writes it.
    doc.meta.word = read.word;
    if doc.meta.word.is_some() {
        return;
    }
    let removed = take_title_blocks(&mut doc.meta, &mut doc.blocks);
    doc.meta.pages.blocks_removed(&removed);
    // A Title or Subtitle paragraph not at the start is not the document's title: it stays a
    // plain paragraph, and says so once per style.
    for style in ["Title", "Subtitle"] {
        let left = doc
            .blocks
            .iter()
            .position(|b| matches!(b, Block::Paragraph(p) if p.style.as_deref() == Some(style)));
        if let Some(block) = left {
            report.warn(
                WarningKind::UnmappedStyle,
                format!(
                    "Unrecognised paragraph style: {style}; it is not at the start of the \
                     document, where it would be the {}, so it is kept as a plain paragraph",
                    style.to_lowercase()
                ),
                Location::part("word/document.xml")
                    .element("w:pStyle")
                    .block(block),
            );
        }
    }
}

/// The writer's contract: leading `Title` / `Subtitle` paragraphs are `meta.title` /
/// `meta.subtitle` (taken when the field is empty or already holds the same text), and a
/// `TOC Heading` paragraph holding the writer's title directly before a table of contents is
/// the directory's own heading. Returns which top-level blocks went (one entry per block
/// before), for what points at blocks by index.
pub fn take_title_blocks(meta: &mut Meta, blocks: &mut Vec<Block>) -> Vec<bool> {
    let mut lead = 0;
    while let Some(Block::Paragraph(p)) = blocks.get(lead) {
        let field = match p.style.as_deref() {
            Some("Title") => &mut meta.title,
            Some("Subtitle") => &mut meta.subtitle,
            _ => break,
        };
        let text = plain_text(&p.content);
        // The core property holds the same text with its line breaks as spaces.
        if field
            .as_deref()
            .is_some_and(|f| !f.is_empty() && !same_but_spacing(f, &text))
        {
            break;
        }
        *field = Some(text);
        lead += 1;
    }
    let mut removed = vec![true; lead];
    blocks.drain(..lead);
    removed.extend(drop_directory_titles(blocks));
    removed
}

/// Removes the title our writer puts before each directory ("Contents" in `TOC Heading`),
/// in table cells too, where the writer puts one as well. One pass: a file of many
/// directories must not cost a shift of the whole list per title. Returns which of `blocks`
/// went.
fn drop_directory_titles(blocks: &mut Vec<Block>) -> Vec<bool> {
    let titles: Vec<bool> = (0..blocks.len())
        .map(|i| directory_title(blocks, i))
        .collect();
    let mut title = titles.iter();
    blocks.retain(|_| !title.next().copied().unwrap_or(false));
    drop_cell_directory_titles(blocks);
    titles
}

/// [`drop_directory_titles`] in the cells of the tables of `blocks`, where nobody asks which
/// blocks went: a cell without such a title (all but a few) is left without a list of its own.
fn drop_cell_directory_titles(blocks: &mut [Block]) {
    for b in blocks {
        if let Block::Table(t) = b {
            for cell in t.rows.iter_mut().flat_map(|r| r.cells.iter_mut()) {
                if (0..cell.blocks.len()).any(|i| directory_title(&cell.blocks, i)) {
                    drop_directory_titles(&mut cell.blocks);
                } else {
                    drop_cell_directory_titles(&mut cell.blocks);
                }
            }
        }
    }
}

/// Whether `blocks[i]` is the title our writer puts before the directory that follows it.
fn directory_title(blocks: &[Block], i: usize) -> bool {
    let toc_heading = matches!(blocks.get(i), Some(Block::Paragraph(p))
        if p.style.as_deref() == Some("TOC Heading") && is_writer_title(&plain_text(&p.content)));
    toc_heading && matches!(blocks.get(i + 1), Some(Block::Directory { .. }))
}

/// Whether `a` and `b` differ at most in which whitespace characters they use.
fn same_but_spacing(a: &str, b: &str) -> bool {
    let norm = |c: char| if c.is_whitespace() { ' ' } else { c };
    a.chars().map(norm).eq(b.chars().map(norm))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_wins_and_limits_apply() {
        let core = CoreProps {
            title: Some("Doc".into()),
            description: Some("d".repeat(500)),
            keywords: vec!["k".into()],
            ..CoreProps::default()
        };
        let given = Meta {
            title: Some("Mine".into()),
            ..Meta::default()
        };
        let mut report = Report::new();
        let m = merge(core, Some("foot".into()), None, &given, &mut report);
        assert_eq!(m.title.as_deref(), Some("Mine"));
        assert_eq!(m.description.as_ref().map(|d| d.len()), Some(400));
        assert_eq!(m.footer.as_deref(), Some("foot"));
        assert_eq!(m.tags, ["k"]);
        assert_eq!(report.warnings().len(), 1);
        let too_long = Meta {
            subtitle: Some("x".repeat(301)),
            ..Meta::default()
        };
        let err = check_given(&too_long).unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::Parameter);
        assert!(err.to_string().contains("subtitle"), "{err}");
    }

    /// A directory's title in the middle of the document goes too, and the page sections
    /// after it must learn which block went, not just how many.
    #[test]
    fn removed_blocks_are_named_where_they_were() {
        use crate::ast::{DirectoryKind, Paragraph, TextType};
        let styled = |style: &str, text: &str| {
            let mut p = Paragraph::new(TextType::Paragraph, vec![crate::ast::Inline::text(text)]);
            p.style = Some(style.into());
            Block::Paragraph(p)
        };
        let mut blocks = vec![
            styled("Title", "Report"),
            styled("Normal", "Intro"),
            styled("TOC Heading", "Contents"),
            Block::Directory {
                kind: DirectoryKind::Content,
            },
            styled("Normal", "Body"),
        ];
        let mut meta = Meta::default();
        let removed = take_title_blocks(&mut meta, &mut blocks);
        assert_eq!(removed, [true, false, true, false, false]);
        assert_eq!(meta.title.as_deref(), Some("Report"));
        assert_eq!(blocks.len(), 3);
    }
}
