//! The PDF writer: a typeset, paged, tagged PDF from the tree, in pure Rust.
//!
//! ## The route, and why
//! krilla 0.8 (typst's PDF layer) writes the PDF objects; the layout is ours (`export::paged`,
//! shared with the Word writer's page numbers). It replaced printpdf 0.12 + lopdf, which wrote
//! untagged PDF 1.3: a screen reader got a bag of glyphs, and nothing could claim PDF/A or
//! PDF/UA. krilla gives what those need and printpdf does not have: a structure tree built from
//! tag groups whose leaves are the marked content drawn on the pages, artifacts for what is
//! not content, real PDF/A-1..4 and PDF/UA-1 identification (XMP metadata, output intent,
//! `MarkInfo`, `DisplayDocTitle`) and its own validator, which refuses a file that would not
//! conform. It also subsets the fonts, writes `ToUnicode` from the text each glyph stands for,
//! builds the nested outline, and writes deterministic ids (hashes of the content, no dates).
//! It is used without `simple-text`: text arrives as glyph ids we place ourselves
//! ([`glyphs`], the seam for shaping), so no second shaper is built in.
//!
//! Measured (2-core machine shared with three other builds, load about 4, both release
//! binaries run alternately): `sdconv convert ../shared/bench/large.docx -o out.pdf` (434 pages)
//! takes 0.70–0.99 s wall, 1.0 s user CPU, 212–221 MiB peak tagged through krilla, against
//! 0.55–0.66 s, 0.52 s and 214 MiB untagged through printpdf. Most of the difference is the
//! pictures: printpdf passed PNG data through with its predictors, krilla takes only decoded
//! pixels and deflates them again (a third of the time is deflate); the structure tree itself
//! costs little. PDF/UA-1 and PDF/A-2b output of `medium.docx` passes the independent validator
//! `page` (PyPI `page-validation`) with 0 failed rules (tests/pdf_export.rs).
//!
//! Modules: [`glyphs`] (text → glyphs and fonts), `images` (pictures), `draw` (the pages, every
//! piece marked as content of a structure node or as an artifact), `tags` (the tag tree from
//! the structure the layout recorded, `export::paged::structure`), [`standard`] (PDF/A, PDF/UA)
//! and this module (assembly, outline, metadata, conformance checks).
//!
//! ## What is drawn
//! - done: title block (title, subtitle, description); headings with their numbers
//!   ([`crate::ast::numbering`]), in the outline nested by level; paragraphs with alignment
//!   and justification, indents; numbered and bulleted lists with hanging markers; every mark
//!   (bold, italic, underline, strike, super/subscript, small caps, code in the mono face);
//!   links (external, and internal to ids) and cross-references showing number and/or text,
//!   linked to their target; footnotes at the foot of the citing page (continued on the next
//!   page when a page cannot hold them), endnotes at the end (roman marks, linked); comments
//!   as linked `[Cn]` marks with the list at the end; tracked insertions green and underlined,
//!   deletions red and struck; pictures scaled to `width_percent` (else their size), kept on
//!   one page with their localised caption; tables with column widths, borders, border colour,
//!   shading, colspan/rowspan, the caption above, header rows repeated on each page, rows
//!   split across pages; page breaks; contents, list of figures and list of tables with the
//!   real page numbers and dot leaders; a running footer with `meta.footer` and
//!   "page N of M"; A4 or Letter; metadata (title, author, subject, keywords, language);
//!   `compressedImages` downscales pictures to their printed width as the Word writer does.
//! - widows and orphans: at least two lines of a paragraph at the foot and head of a page;
//!   headings are kept with the next three lines.
//! - partly: a table inside a cell is drawn as its cells' content one after another (warning);
//!   sidenotes become footnotes (warning).
//! - justified paragraphs broken by total fit; words hyphenated with their language's
//!   patterns when the document (`w:autoHyphenation`) or [`PdfOptions::hyphenate`] asks, and
//!   at soft hyphens always; the hyphen drawn carries U+00AD in the text layer.
//! - not drawn (warning): directories of footnotes, web links, index, sidenotes.
//! - a character no font has is drawn as its font's box, with the character kept in the text
//!   layer, and named in one warning.
//!
//! ## Tagged, and conformance on request
//! Every PDF is tagged: Document; H1–H6; P; L / LI / Lbl / LBody; Table / THead / TBody / TR /
//! TH (scope Column in header rows) / TD; Figure with its alt text (else its caption) and box;
//! Caption; Note for footnotes and endnotes (beside the text citing them); TOC / TOCI for the
//! directories; Link with its text and annotation; Code. Page headers, footers, page numbers,
//! rules, shading and repeated table header rows are artifacts. `/Lang` is the document's.
//! [`PdfOptions::with_standard`] asks for PDF/UA-1, PDF/A-2b/2u/3b or PDF/A-2b with PDF/UA-1;
//! a document that cannot conform is [`Error::Nonconforming`] with every reason.

mod draw;
pub mod glyphs;
mod images;
mod png;
pub mod standard;
mod tags;

use std::collections::HashMap;

use krilla::destination::XyzDestination;
use krilla::geom::Point;
use krilla::image::Image;
use krilla::metadata::{DateTime, Metadata};
use krilla::outline::{Outline, OutlineNode};

pub use crate::export::paged::Paper;
pub use standard::PdfStandard;

use crate::export::paged::structure::{Kind, Structure};
use crate::export::paged::{layout, page};

use crate::ast::{Block, Document, MediaKind};
use crate::error::{Error, Result};
use crate::export::metafiles::{self, Shown};
pub use crate::export::paged::PagedSettings;
use crate::limits::Limits;
use crate::report::{Converted, Location, Warning, WarningKind};

/// Options of the PDF writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct PdfOptions {
    /// The settings Word and PDF output share (language, captions, directories).
    pub settings: PagedSettings,
    /// Paper size.
    pub paper: Paper,
    /// Limits (`max_image_pixels`: larger pictures are not decoded).
    pub limits: Limits,
    /// The standard the PDF must meet; [`PdfStandard::None`] (tagged PDF 1.7) by default.
    pub standard: PdfStandard,
    /// Hyphenate words with their language's patterns even when the document does not ask
    /// for it (`w:autoHyphenation` turns it on by itself).
    pub hyphenate: bool,
}

impl PdfOptions {
    /// Options with `settings`, A4.
    pub fn new(settings: PagedSettings) -> Self {
        PdfOptions {
            settings,
            ..PdfOptions::default()
        }
    }

    /// Sets the paper size.
    pub fn with_paper(mut self, paper: Paper) -> Self {
        self.paper = paper;
        self
    }

    /// Hyphenates words even when the document does not ask for it.
    pub fn with_hyphenation(mut self, on: bool) -> Self {
        self.hyphenate = on;
        self
    }

    /// Sets the standard the PDF must meet (PDF/UA-1, PDF/A-2b, …).
    pub fn with_standard(mut self, standard: PdfStandard) -> Self {
        self.standard = standard;
        self
    }
}

/// A written PDF and facts about it.
#[derive(Debug, Clone)]
pub struct PdfOutput {
    /// The PDF bytes.
    pub bytes: Vec<u8>,
    /// Number of pages.
    pub pages: usize,
    /// Outline entries (one per heading).
    pub outline: usize,
}

/// Writes `doc` as PDF. Errors: forbidden settings ([`Error::Parameter`]), a document that
/// cannot meet the standard asked for ([`Error::Nonconforming`]); everything that cannot be
/// drawn exactly is a warning.
pub fn write(doc: &Document, options: &PdfOptions) -> Result<Converted<Vec<u8>>> {
    Ok(write_with_info(doc, options)?.map(|o| o.bytes))
}

/// [`write()`], also returning the page and outline counts.
pub fn write_with_info(doc: &Document, options: &PdfOptions) -> Result<Converted<PdfOutput>> {
    options.settings.validate()?;
    // Windows metafiles are drawn as PNG, which the page draws like any picture.
    let (doc, mut warnings) = metafiles::drawn(doc, Shown::Png, "an empty box in its place");
    let doc = &*doc;
    let geo = page::Geometry::new(options.paper);
    let mut lay = layout::Layout::new(doc, options.settings, geo);
    lay.hyphenate |= options.hyphenate;
    lay.run();
    let lang = lay.lang;
    warnings.append(&mut lay.warnings);
    let inl = std::mem::take(&mut lay.inl);
    let section_pages = std::mem::take(&mut lay.flow.sections);
    let (pages, anchors, outline, structure) = lay.flow.finish_with_structure();

    if !inl.missing.is_empty() {
        let chars: String = inl.missing.iter().take(40).collect();
        let codes: Vec<String> = inl
            .missing
            .iter()
            .take(10)
            .map(|c| format!("U+{:04X}", *c as u32))
            .collect();
        warnings.push(pdf_warning(
            WarningKind::Lossy,
            format!(
                "{} character(s) no available font has, drawn as a box (the text layer keeps them): {chars} ({})",
                inl.missing.len(),
                codes.join(", ")
            ),
        ));
    }
    if !inl.unknown_refs.is_empty() {
        warnings.push(pdf_warning(
            WarningKind::Lossy,
            format!(
                "{} cross-reference(s) to unknown ids written as text (e.g. {:?})",
                inl.unknown_refs.len(),
                inl.unknown_refs[0]
            ),
        ));
    }
    if let Some(message) = crate::ast::changes::unshown_marks(doc) {
        warnings.push(pdf_warning(WarningKind::Lossy, message));
    }
    if inl.sidenotes > 0 {
        warnings.push(pdf_warning(
            WarningKind::Lossy,
            format!("{} sidenote(s) drawn as footnotes", inl.sidenotes),
        ));
    }

    let standard = options.standard;
    let title = document_title(doc);
    // What the document itself lacks for the standard, named before anything is drawn.
    let mut reasons = Vec::new();
    if standard != PdfStandard::None {
        for c in &inl.missing {
            reasons.push(format!(
                "the character {c:?} (U+{:04X}) has no glyph in any bundled font",
                *c as u32
            ));
        }
    }
    if standard.accessible() {
        if title.is_none() {
            reasons.push("the document has no title (no title, heading or file name)".into());
        }
        reasons.extend(undescribed_figures(&structure));
    }
    if !reasons.is_empty() {
        return Err(Error::Nonconforming {
            standard: standard.name(),
            reasons,
        });
    }

    let images = pictures(doc, &pages, options, &mut warnings);

    let page_label = move |n: usize, m: usize| lang.page_of(n, m);
    let cx = draw::Context {
        geo,
        anchors: &anchors,
        links: &inl.links,
        images: &images,
        footer: doc.meta.footer.as_deref().filter(|f| !f.trim().is_empty()),
        page_label: &page_label,
        pages: &doc.meta.pages,
        section_pages: &section_pages,
    };
    let settings = krilla::SerializeSettings {
        configuration: standard.configuration(),
        enable_tagging: true,
        ..krilla::SerializeSettings::default()
    };
    let mut pdf = krilla::Document::new_with(settings);
    let mut fonts = glyphs::Fonts::default();
    let mut ids = draw::draw(&mut pdf, &pages, &cx, &mut fonts);
    if let Some(name) = fonts.unreadable().first() {
        return Err(Error::Write {
            format: "pdf",
            message: format!("the bundled font {name} cannot be read"),
        });
    }
    let page_count = pages.len();
    // The document's own language (any BCP 47 tag: `ar-SA`, `ja-JP`), else the settings'.
    let lang_tag = doc
        .meta
        .lang_tag()
        .unwrap_or_else(|| lang.bcp47().to_string());
    let lang_tag = lang_tag.as_str();
    pdf.set_tag_tree(tags::tree(&structure, &mut ids, lang_tag, page_count));
    pdf.set_outline(build_outline(&outline, page_count));
    pdf.set_metadata(metadata(doc, title, lang_tag, standard));
    let bytes = pdf.finish().map_err(|e| match e {
        krilla::error::KrillaError::Validation(found) => {
            let mut reasons: Vec<String> = found.iter().map(|(v, _)| standard::reason(v)).collect();
            reasons.dedup();
            Error::Nonconforming {
                standard: standard.name(),
                reasons,
            }
        }
        other => Error::Write {
            format: "pdf",
            message: other.to_string(),
        },
    })?;
    Ok(Converted {
        value: PdfOutput {
            bytes,
            pages: page_count,
            outline: outline.len(),
        },
        warnings,
    })
}

fn pdf_warning(kind: WarningKind, message: String) -> Warning {
    Warning::new(kind, message, Location::part("pdf"))
}

/// The pictures drawn, one image per media name (`None`: drawn as a placeholder, warned).
fn pictures(
    doc: &Document,
    pages: &[page::Page],
    options: &PdfOptions,
    warnings: &mut Vec<Warning>,
) -> HashMap<String, Option<Image>> {
    let mut names: Vec<&str> = pages
        .iter()
        .flat_map(|p| &p.items)
        .filter_map(|i| match i {
            page::Item::Image { media, .. } => Some(media.as_str()),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    // compressedImages: the Word writer's downscaling (to the printed width) and re-encoding.
    let compressed: HashMap<&str, crate::ast::MediaItem> = if options.settings.compressed_images {
        let mut widest: HashMap<&str, f32> = HashMap::new();
        for item in pages.iter().flat_map(|p| &p.items) {
            if let page::Item::Image { media, w, .. } = item {
                let e = widest.entry(media.as_str()).or_insert(0.0);
                *e = e.max(*w);
            }
        }
        let items: Vec<(&crate::ast::MediaItem, u64)> = names
            .iter()
            .filter_map(|n| {
                let item = doc.media.get(n)?;
                // Points → EMU (12,700 per point).
                Some((
                    item,
                    (widest.get(n).copied().unwrap_or(0.0) * 12_700.0) as u64,
                ))
            })
            .collect();
        let (prepared, _, w) =
            crate::export::paged::pictures::compress_all(&items, options.limits.max_image_pixels);
        warnings.extend(w);
        items
            .iter()
            .zip(prepared)
            .map(|((item, _), p)| (item.name.as_str(), p))
            .collect()
    } else {
        HashMap::new()
    };
    // Decoding pictures is the costly part: in parallel (krilla deflates them on its threads).
    let made: Vec<(&str, std::result::Result<Image, String>)> = {
        use rayon::prelude::*;
        names
            .par_iter()
            .map(|&name| {
                let x = match compressed.get(name).or_else(|| doc.media.get(name)) {
                    Some(item) => images::image(item, options.limits.max_image_pixels),
                    None => Err("it is not in the document's media".to_string()),
                };
                (name, x)
            })
            .collect()
    };
    let mut out = HashMap::with_capacity(made.len());
    for (name, made) in made {
        match made {
            Ok(img) => {
                out.insert(name.to_string(), Some(img));
            }
            Err(why) => {
                // A metafile left here could not be drawn, which is warned already.
                let metafile = doc
                    .media
                    .get(name)
                    .is_some_and(|m| matches!(m.kind, MediaKind::Emf | MediaKind::Wmf));
                if !metafile {
                    warnings.push(pdf_warning(
                        WarningKind::MissingMedia,
                        format!("picture {name:?} drawn as an empty box: {why}"),
                    ));
                }
                out.insert(name.to_string(), None);
            }
        }
    }
    out
}

/// The document's title: `meta.title`, else its first heading, else its file name.
fn document_title(doc: &Document) -> Option<String> {
    let nonempty = |s: &str| Some(s.trim().to_string()).filter(|t| !t.is_empty());
    doc.meta
        .title
        .as_deref()
        .and_then(nonempty)
        .or_else(|| {
            doc.blocks.iter().find_map(|b| match b {
                Block::Paragraph(p) if p.kind.is_heading() => {
                    nonempty(&crate::export::paged::text::plain(&p.content))
                }
                _ => None,
            })
        })
        .or_else(|| doc.meta.filename.as_deref().and_then(nonempty))
}

/// PDF/UA: every picture needs a description; one without alt text or caption is named.
fn undescribed_figures(s: &Structure) -> Vec<String> {
    let mut names: Vec<&str> = s
        .nodes
        .iter()
        .filter_map(|n| match &n.kind {
            Kind::Figure { media, alt, .. }
                if alt.as_deref().is_none_or(|a| a.trim().is_empty()) =>
            {
                Some(media.as_str())
            }
            _ => None,
        })
        .collect();
    names.dedup();
    names
        .into_iter()
        .map(|m| format!("the picture {m:?} has neither alt text nor a caption"))
        .collect()
}

/// The document information and XMP metadata. PDF/A needs a date: the one `SOURCE_DATE_EPOCH`
/// gives (reproducible builds), else now; the other outputs have none, so the same input
/// gives the same bytes.
fn metadata(doc: &Document, title: Option<String>, lang: &str, standard: PdfStandard) -> Metadata {
    let m = &doc.meta;
    let mut meta = Metadata::new()
        .language(lang.to_string())
        .creator("sdconv".into())
        .producer(format!("sdconv {}", env!("CARGO_PKG_VERSION")))
        .keywords(m.tags.clone());
    if let Some(t) = title {
        meta = meta.title(t);
    }
    if let Some(a) = m.creator.clone().filter(|a| !a.trim().is_empty()) {
        meta = meta.authors(vec![a]);
    }
    if let Some(s) = m
        .subtitle
        .clone()
        .or_else(|| m.description.clone())
        .filter(|s| !s.trim().is_empty())
    {
        meta = meta.description(s);
    }
    if standard.archival() {
        meta = meta.creation_date(now());
    }
    meta
}

/// The current UTC time, or the one `SOURCE_DATE_EPOCH` names.
fn now() -> DateTime {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    civil(secs)
}

/// The UTC date and time `secs` seconds after 1970-01-01.
fn civil(secs: u64) -> DateTime {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    let year = (yoe + era * 400 + i64::from(month <= 2)).clamp(0, 9999) as u16;
    DateTime::new(year)
        .month(month)
        .day(day)
        .hour((rem / 3600) as u8)
        .minute((rem % 3600 / 60) as u8)
        .second((rem % 60) as u8)
        .utc_offset_hour(0)
        .utc_offset_minute(0)
}

/// The outline: one item per heading, nested by level, pointing at the heading; the top level
/// open, the others closed.
fn build_outline(entries: &[page::OutlineEntry], pages: usize) -> Outline {
    fn settle(stack: &mut Vec<(u8, OutlineNode)>, root: &mut Outline) {
        if let Some((_, node)) = stack.pop() {
            match stack.last_mut() {
                Some((_, parent)) => parent.push_child(node),
                None => root.push_child(node),
            }
        }
    }
    let mut root = Outline::new();
    let mut stack: Vec<(u8, OutlineNode)> = Vec::new();
    for e in entries {
        while stack.last().is_some_and(|(level, _)| *level >= e.level) {
            settle(&mut stack, &mut root);
        }
        let page = e.page.min(pages.saturating_sub(1));
        let at = Point::from_xy(0.0, (e.y - 4.0).max(0.0));
        let node = OutlineNode::new(e.title.clone(), XyzDestination::new(page, at));
        stack.push((e.level, node.with_open(e.level < 1)));
    }
    while !stack.is_empty() {
        settle(&mut stack, &mut root);
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        let at = |y, mo, d, h, mi, s| {
            DateTime::new(y)
                .month(mo)
                .day(d)
                .hour(h)
                .minute(mi)
                .second(s)
                .utc_offset_hour(0)
                .utc_offset_minute(0)
        };
        assert_eq!(civil(1_795_816_800), at(2026, 11, 27, 22, 0, 0));
        assert_eq!(civil(951_868_798), at(2000, 2, 29, 23, 59, 58));
        assert_eq!(civil(0), at(1970, 1, 1, 0, 0, 0));
    }
}
