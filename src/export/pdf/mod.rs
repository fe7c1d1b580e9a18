//! The PDF writer: a typeset, paged PDF from the tree, in pure Rust.
//!
//! ## The route, and why
//! printpdf 0.12 writes the PDF objects; the layout is ours. printpdf's own HTML layout (its
//! `html` feature) pulls in the azul layout engine, fontconfig and an XML stack, and lays out
//! CSS boxes without footnotes, repeated table headers or page-number references, all of which
//! this writer needs. So printpdf is used without default features, as a drawing-operations →
//! PDF-objects layer (fonts, image XObjects, link annotations, metadata), and lopdf (the object
//! model printpdf serialises through) adds the nested outline, `/Lang` and fixed document ids.
//! Measured (2-core machine, four other builds running): without default features printpdf
//! brings only lopdf, allsorts-azul and small crates (no azul, fontconfig or XML stack); the
//! cold release build of the whole crate with them took 7 min 35 s on that loaded machine. The
//! whole process `sdconv convert ../shared/bench/large.docx -o out.pdf` takes 0.72–1.46 s wall
//! (0.68 s CPU) at 181 MiB peak for 424 pages (LibreOffice printing the Word export: 15.5 s,
//! 555 MiB); the criterion bench `export_pdf` lays out and writes 639 pages in about 0.7 s. Text is
//! drawn as `Tj` strings in the subset fonts' glyph ids; printpdf's glyph-run merging (for its
//! own layout) is not used.
//!
//! The layout is the paged layer's (`export::paged`, shared with the Word writer's
//! page numbers); this writer draws its pages. Modules: `fonts` (subsetting the bundled faces),
//! `images` (XObjects), `draw` (operations), and this module (document assembly, outline,
//! metadata).
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
//!   sidenotes become footnotes (warning); no hyphenation (greedy line breaking).
//! - not drawn (warning): directories of footnotes, web links, index, sidenotes.
//! - a character none of the bundled fonts has is drawn as `?` and named in one warning.

mod draw;
mod fonts;
mod images;

use std::collections::HashMap;

use lopdf::{Dictionary, Object, ObjectId, StringFormat};
use printpdf::{PdfDocument, PdfFont, PdfSaveOptions, XObject, XObjectId};

pub use crate::export::paged::Paper;

use crate::export::paged::{layout, page};
use crate::fonts::metrics;

use crate::ast::{Document, MediaKind};
use crate::error::{Error, Result};
use crate::export::metafiles::{self, Shown};
use crate::export::paged::WordSettings;
use crate::lang::Language;
use crate::limits::Limits;
use crate::report::{Converted, Location, Warning, WarningKind};

/// Options of the PDF writer.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct PdfOptions {
    /// The Word export's settings (language, captions, directories); they mean the same here.
    pub settings: WordSettings,
    /// Paper size.
    pub paper: Paper,
    /// Limits (`max_image_pixels`: larger pictures are not decoded).
    pub limits: Limits,
}

impl PdfOptions {
    /// Options with `settings`, A4.
    pub fn new(settings: WordSettings) -> Self {
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

/// Writes `doc` as PDF. Errors: forbidden settings ([`Error::Parameter`]); everything that cannot
/// be drawn exactly is a warning.
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
    lay.run();
    let lang = lay.lang;
    warnings.append(&mut lay.warnings);
    let inl = std::mem::take(&mut lay.inl);
    let section_pages = std::mem::take(&mut lay.flow.sections);
    let (pages, anchors, outline) = lay.flow.finish();

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

    // Pictures: one XObject per media item drawn.
    let mut xobjects: Vec<(XObjectId, XObject)> = Vec::new();
    let mut image_ids: HashMap<String, Option<XObjectId>> = HashMap::new();
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
    // Decoding and compressing pictures is the costly part: in parallel.
    let made: Vec<(&str, std::result::Result<printpdf::ExternalXObject, String>)> = {
        use rayon::prelude::*;
        names
            .par_iter()
            .map(|&name| {
                let x = match compressed.get(name).or_else(|| doc.media.get(name)) {
                    Some(item) => images::xobject(item, options.limits.max_image_pixels),
                    None => Err("it is not in the document's media".to_string()),
                };
                (name, x)
            })
            .collect()
    };
    for (name, made) in made {
        match made {
            Ok(x) => {
                let id = XObjectId(format!("Im{}", xobjects.len()));
                xobjects.push((id.clone(), XObject::External(x)));
                image_ids.insert(name.to_string(), Some(id));
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
                image_ids.insert(name.to_string(), None);
            }
        }
    }

    let page_label = move |n: usize, m: usize| layout::page_label(lang, n, m);
    let cx = draw::Context {
        geo,
        anchors: &anchors,
        links: &inl.links,
        images: &image_ids,
        footer: doc.meta.footer.as_deref().filter(|f| !f.trim().is_empty()),
        page_label: &page_label,
        pages: &doc.meta.pages,
        section_pages: &section_pages,
    };
    let (pdf_pages, used) = draw::draw(&pages, &cx);
    let page_count = pdf_pages.len();

    let mut pdf = PdfDocument::new(doc.meta.title.as_deref().unwrap_or(""));
    let mut subset = [false; metrics::Face::ALL.len()];
    for (face, chars) in metrics::Face::ALL.iter().zip(&used) {
        if chars.is_empty() {
            continue;
        }
        let made = fonts::subset(*face, chars);
        subset[face.index()] = made.is_some();
        let Some(font) = made.or_else(|| fonts::full(*face)) else {
            return Err(Error::Write {
                format: "pdf",
                message: format!("the bundled font {} cannot be read", face.name()),
            });
        };
        let mut font = font;
        font.font_name = Some(face.name().to_string());
        pdf.resources
            .fonts
            .map
            .insert(draw::font_id(*face), PdfFont::new(font));
    }
    for (id, x) in xobjects {
        pdf.resources.xobjects.map.insert(id, x);
    }
    metadata(&mut pdf, doc, lang);
    pdf.pages = pdf_pages;

    let mut save_warnings = Vec::new();
    let opts = PdfSaveOptions {
        optimize: true,
        subset_fonts: false,
        secure: true,
        image_optimization: None,
    };
    let mut lo = pdf.to_lopdf_document(&opts, &mut save_warnings);
    let outline_count = finish(&mut lo, &outline, doc, lang, geo.height, &subset);
    lo.compress();
    let mut bytes = Vec::new();
    lo.save_to(&mut bytes).map_err(|e| Error::Write {
        format: "pdf",
        message: e.to_string(),
    })?;
    Ok(Converted {
        value: PdfOutput {
            bytes,
            pages: page_count,
            outline: outline_count,
        },
        warnings,
    })
}

fn pdf_warning(kind: WarningKind, message: String) -> Warning {
    Warning::new(kind, message, Location::part("pdf"))
}

fn metadata(pdf: &mut PdfDocument, doc: &Document, _lang: Language) {
    let m = &doc.meta;
    let info = &mut pdf.metadata.info;
    info.document_title = m.title.clone().unwrap_or_default();
    info.author = m.creator.clone().unwrap_or_default();
    info.subject = m
        .subtitle
        .clone()
        .or_else(|| m.description.clone())
        .unwrap_or_default();
    info.keywords = m.tags.clone();
    info.creator = "sdconv".into();
    info.producer = format!("sdconv {}", env!("CARGO_PKG_VERSION"));
}

/// The lopdf pass: nested outline, `/Lang`, ids from the content (same input, same bytes).
/// Returns the number of outline entries.
fn finish(
    lo: &mut lopdf::Document,
    outline: &[page::OutlineEntry],
    doc: &Document,
    lang: Language,
    page_h: f32,
    subset: &[bool],
) -> usize {
    let pages = lo.get_pages();
    let lang_tag = doc
        .meta
        .language
        .as_deref()
        .and_then(Language::parse)
        .unwrap_or(lang)
        .bcp47();
    let outline_id = build_outline(lo, outline, &pages, page_h);
    if let Ok(cat) = lo.catalog_mut() {
        cat.set("Lang", Object::string_literal(lang_tag));
        match outline_id {
            Some(id) => {
                cat.set("Outlines", Object::Reference(id));
                cat.set("PageMode", Object::Name(b"UseOutlines".to_vec()));
            }
            None => {
                cat.remove(b"Outlines");
            }
        }
    }
    // printpdf's info dictionary claims PDF/X (`GTS_PDFXVersion`) and dates of 1970; this file
    // is plain PDF and has no date that would keep the output deterministic.
    if let Ok(Object::Reference(info)) = lo.trailer.get(b"Info").cloned()
        && let Ok(Object::Dictionary(d)) = lo.get_object_mut(info)
    {
        for key in ["GTS_PDFXVersion", "CreationDate", "ModDate", "Trapped"] {
            d.remove(key.as_bytes());
        }
        let empty: Vec<Vec<u8>> = d
            .iter()
            .filter(|(_, v)| matches!(v, Object::String(b, _) if b.is_empty() || b == b"\xfe\xff"))
            .map(|(k, _)| k.clone())
            .collect();
        for k in empty {
            d.remove(&k);
        }
    }
    // The embedded fonts are subsets: their names carry a subset tag (PDF 32000-1, 9.6.4).
    for obj in lo.objects.values_mut() {
        if let Object::Dictionary(d) = obj {
            for key in [&b"BaseFont"[..], &b"FontName"[..]] {
                if let Ok(Object::Name(n)) = d.get_mut(key)
                    && let Some(i) = metrics::Face::ALL
                        .iter()
                        .position(|f| f.name().as_bytes() == n)
                    && subset.get(i).copied().unwrap_or(false)
                {
                    let mut tagged = format!("SDCAA{}+", (b'A' + i as u8) as char).into_bytes();
                    tagged.extend_from_slice(n);
                    *n = tagged;
                }
            }
        }
    }
    // A content-derived document id instead of printpdf's random one.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |b: &[u8]| {
        for &x in b {
            h ^= u64::from(x);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(doc.to_json().as_bytes());
    feed(&pages.len().to_le_bytes());
    let id = format!("{h:016x}{:016x}", h.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15);
    let id_obj = || Object::String(id.as_bytes().to_vec(), StringFormat::Hexadecimal);
    lo.trailer
        .set("ID", Object::Array(vec![id_obj(), id_obj()]));
    outline.len()
}

/// Writes the outline tree (one item per heading, nested by level) and returns its root.
fn build_outline(
    lo: &mut lopdf::Document,
    entries: &[page::OutlineEntry],
    pages: &std::collections::BTreeMap<u32, ObjectId>,
    page_h: f32,
) -> Option<ObjectId> {
    if entries.is_empty() {
        return None;
    }
    let root = lo.new_object_id();
    let ids: Vec<ObjectId> = entries.iter().map(|_| lo.new_object_id()).collect();
    // Parent of each entry: the nearest earlier entry with a smaller level.
    let mut parent: Vec<Option<usize>> = vec![None; entries.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        while stack.last().is_some_and(|&j| entries[j].level >= e.level) {
            stack.pop();
        }
        parent[i] = stack.last().copied();
        stack.push(i);
    }
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); entries.len()];
    let mut top: Vec<usize> = Vec::new();
    for (i, p) in parent.iter().enumerate() {
        match p {
            Some(p) => children[*p].push(i),
            None => top.push(i),
        }
    }
    // Descendant counts, deepest first (children always come after their parent).
    let mut count = vec![0i64; entries.len()];
    for i in (0..entries.len()).rev() {
        count[i] = children[i].iter().map(|&c| 1 + count[c]).sum();
    }
    let link_siblings = |list: &[usize], d: &mut Vec<Dictionary>| {
        for (k, &i) in list.iter().enumerate() {
            if k > 0 {
                d[i].set("Prev", Object::Reference(ids[list[k - 1]]));
            }
            if let Some(&n) = list.get(k + 1) {
                d[i].set("Next", Object::Reference(ids[n]));
            }
        }
    };
    let mut dicts: Vec<Dictionary> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut d = Dictionary::new();
            d.set("Title", text_string(&e.title));
            d.set(
                "Parent",
                Object::Reference(parent[i].map_or(root, |p| ids[p])),
            );
            if let Some(page) = pages.get(&(e.page as u32 + 1)) {
                d.set(
                    "Dest",
                    Object::Array(vec![
                        Object::Reference(*page),
                        Object::Name(b"XYZ".to_vec()),
                        Object::Real(0.0),
                        Object::Real(page_h - e.y + 4.0),
                        Object::Null,
                    ]),
                );
            }
            if let (Some(&f), Some(&l)) = (children[i].first(), children[i].last()) {
                d.set("First", Object::Reference(ids[f]));
                d.set("Last", Object::Reference(ids[l]));
                // Negative: closed; the top two levels open.
                let c = if e.level < 1 { count[i] } else { -count[i] };
                d.set("Count", Object::Integer(c));
            }
            d
        })
        .collect();
    link_siblings(&top, &mut dicts);
    for c in &children {
        link_siblings(c, &mut dicts);
    }
    for (id, d) in ids.iter().zip(dicts) {
        lo.objects.insert(*id, Object::Dictionary(d));
    }
    let visible: i64 = top.iter().map(|&i| 1 + count[i].max(0)).sum();
    let mut r = Dictionary::new();
    r.set("Type", Object::Name(b"Outlines".to_vec()));
    if let (Some(&f), Some(&l)) = (top.first(), top.last()) {
        r.set("First", Object::Reference(ids[f]));
        r.set("Last", Object::Reference(ids[l]));
    }
    r.set("Count", Object::Integer(visible));
    lo.objects.insert(root, Object::Dictionary(r));
    Some(root)
}

/// A PDF text string: UTF-16BE with a byte-order mark (so any script shows in the outline).
fn text_string(s: &str) -> Object {
    let mut b = vec![0xFE, 0xFF];
    for u in s.encode_utf16() {
        b.extend_from_slice(&u.to_be_bytes());
    }
    Object::String(b, StringFormat::Hexadecimal)
}
