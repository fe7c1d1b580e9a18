//! Stage one's reading of the parts around the main part: which part a relationship names, and
//! each optional part parsed by its own module (styles, numbering, notes, comments, core
//! properties, page headers and footers, SmartArt data, charts). A malformed optional part is
//! reported and skipped; limits still stop the import.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::charts;
use super::comments::{self, RawComment};
use super::core_props::{self, CoreProps};
use super::model;
use super::notes::{self, NoteMap};
use super::numbering::{MAX_ID, MAX_LEVEL_STRING, Numbering};
use super::package::Package;
use super::parser::{BodyParser, Facts};
use super::rels::Relationships;
use super::smartart::{self, DiagramItem};
use super::styles::{MAX_NAME_CHARS, Styles};
use crate::ast::NoteKind;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Location, Report, WarningKind};

/// The parts the main part's relationships name that stage two reads besides the body.
#[derive(Default)]
pub struct TextParts {
    /// `word/styles.xml`.
    pub styles: Styles,
    /// `word/numbering.xml`.
    pub numbering: Numbering,
    /// Footnote bodies by id.
    pub footnotes: NoteMap,
    /// Endnote bodies by id.
    pub endnotes: NoteMap,
    /// Comment bodies, in the part's order.
    pub comments: Vec<RawComment>,
    /// Picture parts the relationships of these parts name (the main part's own are read
    /// first, so these may repeat them).
    pub images: Vec<String>,
}

/// Reads styles, numbering, footnotes, endnotes and comments, in that order.
pub fn read_text_parts(
    pkg: &mut Package<'_>,
    main_rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
) -> Result<TextParts> {
    let mut images = Vec::new();
    let styles = optional(
        pkg,
        main_rels,
        "styles",
        report,
        &mut images,
        |t, p, _, r| {
            let styles = Styles::parse(t, p, limits)?;
            if styles.names_cut > 0 {
                r.warn(
                    WarningKind::InvalidValue,
                    format!(
                        "style names longer than Word allows are cut to {MAX_NAME_CHARS} characters ({} of them)",
                        styles.names_cut
                    ),
                    Location::part(p).element("w:name"),
                );
            }
            Ok(styles)
        },
    )?
    .unwrap_or_default();
    let numbering = optional(
        pkg,
        main_rels,
        "numbering",
        report,
        &mut images,
        |t, p, _, r| {
            let numbering = Numbering::parse(t, p, limits)?;
            let loc = || Location::part(p).element("w:numbering");
            if numbering.ignored > 0 {
                r.warn(
                    WarningKind::InvalidValue,
                    format!(
                        "numbering definitions with an id longer than {MAX_ID} characters are left out ({} of them)",
                        numbering.ignored
                    ),
                    loc(),
                );
            }
            if numbering.cut > 0 {
                r.warn(
                    WarningKind::InvalidValue,
                    format!(
                        "numbering level texts, formats and styles longer than {MAX_LEVEL_STRING} characters are cut ({} of them)",
                        numbering.cut
                    ),
                    loc(),
                );
            }
            Ok(numbering)
        },
    )?
    .unwrap_or_default();
    let footnotes = optional(
        pkg,
        main_rels,
        "footnotes",
        report,
        &mut images,
        |t, p, rels, r| notes::parse(t, p, rels, limits, r, NoteKind::Footnote),
    )?
    .unwrap_or_default();
    let endnotes = optional(
        pkg,
        main_rels,
        "endnotes",
        report,
        &mut images,
        |t, p, rels, r| notes::parse(t, p, rels, limits, r, NoteKind::Endnote),
    )?
    .unwrap_or_default();
    let comments = optional(
        pkg,
        main_rels,
        "comments",
        report,
        &mut images,
        |t, p, rels, r| comments::parse(t, p, rels, limits, r),
    )?
    .unwrap_or_default();
    Ok(TextParts {
        styles,
        numbering,
        footnotes,
        endnotes,
        comments,
        images,
    })
}

/// The page header and footer parts the sections refer to, and the document's settings for
/// them.
#[derive(Default)]
pub struct PageParts {
    /// Each part's blocks, by the relationship id the sections use.
    pub parts: HashMap<String, Vec<model::Block>>,
    /// `w:evenAndOddHeaders` in the settings part.
    pub even_and_odd: bool,
    /// The settings part as a whole (hyphenation and theme languages matter beyond the pages).
    pub settings: super::settings::Settings,
    /// The footers our writer took from its template: the service's one-line footer in the
    /// template's frame, not a footer of the document's own.
    pub template_footers: HashSet<String>,
}

/// Header and footer parts read, at most: three of each per section, and a document has far
/// fewer sections than this.
const MAX_PAGE_PARTS: usize = 3_000;

/// Reads every header and footer part a section refers to (each once), and whether even pages
/// have their own. A header our writer took from its template (the title line) is the
/// template's, not the document's, and is left out so round trips hold.
pub fn read_page_parts(
    pkg: &mut Package<'_>,
    body: &model::Body,
    main_rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
) -> Result<PageParts> {
    let settings = read_settings(pkg, main_rels, limits, report)?;
    let mut out = PageParts {
        even_and_odd: settings.even_and_odd,
        settings,
        ..PageParts::default()
    };
    let sections = body
        .blocks
        .iter()
        .filter_map(|b| match b {
            model::Block::Para(p) => p.props.section.as_deref(),
            _ => None,
        })
        .chain(body.final_section.as_ref());
    // The parts past the bound (told once, at the first of them).
    let mut left_out: HashSet<&str> = HashSet::new();
    let mut first_left_out = None;
    for section in sections {
        let refs = section.headers.iter().map(|r| (true, r));
        for (header, (_, id)) in refs.chain(section.footers.iter().map(|r| (false, r))) {
            if out.parts.contains_key(id) {
                continue;
            }
            if out.parts.len() >= MAX_PAGE_PARTS {
                // Only parts that would have been read count as left out.
                if let Some(rel) = main_rels.get(id).filter(|r| !r.external) {
                    if left_out.insert(id) && first_left_out.is_none() {
                        first_left_out = Some(rel.target.to_string());
                    }
                }
                continue;
            }
            let Some(part) = main_rels
                .get(id)
                .filter(|r| !r.external)
                .map(|r| r.target.to_string())
            else {
                continue;
            };
            let blocks = optional_part(
                pkg,
                &part,
                report,
                &mut Vec::new(),
                &mut |text, p, rels, r| {
                    let template = text.contains(crate::ooxml::TEMPLATE_HEADER_TAG);
                    if header && template {
                        return Ok((Vec::new(), true));
                    }
                    let mut f = Facts::default();
                    let blocks =
                        BodyParser::new(text, p, rels, limits, r, &mut f).parse_root_blocks()?;
                    Ok((blocks, template))
                },
            )?
            .unwrap_or_default();
            let (blocks, template) = blocks;
            if template && !header {
                out.template_footers.insert(id.clone());
            }
            out.parts.insert(id.clone(), blocks);
        }
    }
    if !left_out.is_empty() {
        report.warn(
            WarningKind::Dropped,
            format!(
                "{} header and footer parts past the first {MAX_PAGE_PARTS} are left out",
                left_out.len()
            ),
            Location::part(first_left_out.unwrap_or_default()),
        );
    }
    Ok(out)
}

/// The settings part ([`super::settings::Settings`]); the defaults when there is none.
fn read_settings(
    pkg: &mut Package<'_>,
    main_rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
) -> Result<super::settings::Settings> {
    let Some(part) = main_rels
        .first_of_type("settings")
        .filter(|r| !r.external)
        .map(|r| r.target.to_string())
    else {
        return Ok(Default::default());
    };
    if !pkg.contains(&part) {
        return Ok(Default::default());
    }
    let Some(text) = pkg.read_text(&part, report)? else {
        return Ok(Default::default());
    };
    super::settings::Settings::parse(&text, &part, limits)
}

/// The SmartArt data parts anchored anywhere in the body, read: part name → items in reading
/// order.
pub fn read_diagrams(
    pkg: &mut Package<'_>,
    body: &model::Body,
    limits: &Limits,
    report: &mut Report,
) -> Result<HashMap<String, Vec<DiagramItem>>> {
    let mut diagram_parts = Vec::new();
    collect_parts(&body.blocks, &|p| &p.diagrams, &mut diagram_parts);
    let mut diagrams = HashMap::new();
    for part in diagram_parts {
        if diagrams.contains_key(&*part) {
            continue;
        }
        let items = optional_part(
            pkg,
            &part,
            report,
            &mut Vec::new(),
            &mut |text, p, _rels, _r| smartart::read(text, p, limits),
        )?
        .unwrap_or_default();
        diagrams.insert(part.to_string(), items);
    }
    Ok(diagrams)
}

/// The parts (SmartArt data, charts: `which`) anchored in `blocks`, tables and text boxes
/// included, in order.
pub(in crate::import::docx) fn collect_parts(
    blocks: &[model::Block],
    which: &dyn Fn(&model::Para) -> &Vec<Arc<str>>,
    out: &mut Vec<Arc<str>>,
) {
    for b in blocks {
        match b {
            model::Block::Para(p) => {
                out.extend(which(p).iter().cloned());
                for tb in &p.textboxes {
                    collect_parts(tb, which, out);
                }
            }
            model::Block::Table(t) => {
                for cell in t.rows.iter().flat_map(|r| &r.cells) {
                    collect_parts(&cell.blocks, which, out);
                }
            }
            model::Block::Loose(_) => {}
        }
    }
}

/// The data tables of the chart parts the main part's relationships name, by part name. A chart
/// part that is missing or not XML is left out (the chart is then reported dropped).
pub fn read_charts(
    pkg: &mut Package<'_>,
    rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
) -> Result<HashMap<String, crate::ast::Table>> {
    let mut out = HashMap::new();
    for rel in rels.iter().filter(|r| r.is("chart") && !r.external) {
        if out.contains_key(&*rel.target) {
            continue;
        }
        let Some(text) = pkg.read_text(&rel.target, report)? else {
            continue;
        };
        match charts::read(&text, &rel.target, limits) {
            Ok(data) => {
                if let Some(lost) = data.left_out() {
                    report.warn(
                        WarningKind::Dropped,
                        format!(
                            "chart part {}: {lost} are left out of its data table",
                            rel.target
                        ),
                        Location::part(&rel.target),
                    );
                }
                if let Some(table) = data.to_table() {
                    out.insert(rel.target.to_string(), table);
                }
            }
            Err(e) => report.warn(
                WarningKind::InvalidValue,
                format!("chart part {} could not be read: {e}", rel.target),
                Location::part(&rel.target),
            ),
        }
    }
    Ok(out)
}

/// The zip entry names of the package, lower-cased, to know whether a picture's part exists.
pub fn part_names(pkg: &Package<'_>) -> HashSet<String> {
    pkg.names().iter().map(|n| n.to_ascii_lowercase()).collect()
}

/// The picture parts the main part refers to that the package holds, sorted, once each.
pub fn main_pictures(pkg: &Package<'_>, main_rels: &Relationships) -> Vec<String> {
    let mut images = image_parts(main_rels);
    images.retain(|p| pkg.contains(p));
    images.sort_unstable();
    images.dedup();
    images
}

/// The image parts a part's relationships name (embedded ones only).
fn image_parts(rels: &Relationships) -> Vec<String> {
    rels.iter()
        .filter(|r| r.is("image") && !r.external)
        .map(|r| r.target.to_string())
        .collect()
}

/// The core properties (`docProps/core.xml`), empty when the package names none or the part is
/// unreadable (warned).
pub fn read_core(pkg: &mut Package<'_>, report: &mut Report) -> Result<CoreProps> {
    let Some(part) = pkg
        .package_rels
        .first_of_type("core-properties")
        .map(|r| r.target.to_string())
    else {
        return Ok(CoreProps::default());
    };
    let Some(text) = pkg.read_text(&part, report)? else {
        return Ok(CoreProps::default());
    };
    let limits = pkg.limits().clone();
    Ok(
        core_props::parse(&text, &part, &limits).unwrap_or_else(|e| {
            report.warn(
                WarningKind::InvalidValue,
                format!("{part} is unreadable; document properties ignored: {e}"),
                Location::part(&part),
            );
            CoreProps::default()
        }),
    )
}

type PartParser<'p, T> = dyn FnMut(&str, &str, &Relationships, &mut Report) -> Result<T> + 'p;

/// Reads the part the main part's first relationship of type `rel_type` names, if any. A
/// malformed optional part is reported and skipped; limits still stop the import. The image
/// parts its own relationships name are added to `images`.
fn optional<T>(
    pkg: &mut Package<'_>,
    main_rels: &Relationships,
    rel_type: &str,
    report: &mut Report,
    images: &mut Vec<String>,
    mut parse: impl FnMut(&str, &str, &Relationships, &mut Report) -> Result<T>,
) -> Result<Option<T>> {
    let Some(part) = main_rels
        .first_of_type(rel_type)
        .filter(|r| !r.external)
        .map(|r| r.target.to_string())
    else {
        return Ok(None);
    };
    optional_part(pkg, &part, report, images, &mut parse)
}

fn optional_part<T>(
    pkg: &mut Package<'_>,
    part: &str,
    report: &mut Report,
    images: &mut Vec<String>,
    parse: &mut PartParser<'_, T>,
) -> Result<Option<T>> {
    if !pkg.contains(part) {
        report.warn(
            WarningKind::MissingMedia,
            format!("{part} is named by a relationship but missing from the package"),
            Location::part(part),
        );
        return Ok(None);
    }
    let rels = pkg.rels_of(part, report)?;
    // Duplicates are removed once all parts are read.
    images.extend(image_parts(&rels));
    let Some(text) = pkg.read_text(part, report)? else {
        return Ok(None);
    };
    match parse(&text, part, &rels, report) {
        Ok(v) => Ok(Some(v)),
        Err(e @ Error::TooLarge { .. }) => Err(e),
        Err(e) => {
            report.warn(
                WarningKind::InvalidValue,
                format!("{part} is unreadable and ignored: {e}"),
                Location::part(part),
            );
            Ok(None)
        }
    }
}
