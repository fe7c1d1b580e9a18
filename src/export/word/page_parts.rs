//! Page headers and footers: the header and footer parts, and each section's `w:sectPr` that
//! refers to them.
//!
//! A document with headers or footers of its own ([`crate::ast::Pages`]) gets them back per
//! section (default, first page with `w:titlePg`, even pages with `w:evenAndOddHeaders`),
//! page-number fields as fields; the template's title header and `{{footer}}` footer fill in
//! where the document has no header, or no footer, at all. Parts with the same text are
//! written once.

use std::collections::HashMap;
use std::fmt::Write;

use crate::ast::{Document, PagePiece, PageText};
use crate::ooxml::{R, W, XML_DECL};
use crate::xml::escape_text;

use super::template::WordTemplate;

/// One header or footer part.
pub(super) struct PagePart {
    /// `header` or `footer` (its relationship type and content type).
    pub kind: &'static str,
    /// The part's file name under `word/`.
    pub name: String,
    /// The main part's relationship id for it.
    pub id: String,
    /// The part's XML.
    pub xml: String,
}

/// What the document's headers and footers make.
pub(super) struct PageLayout {
    /// The parts.
    pub parts: Vec<PagePart>,
    /// Each section's first top-level block and its whole `w:sectPr`, in order.
    pub sections: Vec<(usize, String)>,
    /// Even pages have their own header and footer (settings' `w:evenAndOddHeaders`).
    pub even_and_odd: bool,
}

/// Plans the parts and section properties of `doc` in template `tpl`. `fill` escapes the
/// document's text for the template's placeholders.
pub(super) fn plan(
    doc: &Document,
    tpl: &WordTemplate,
    fill: &dyn Fn(&str) -> String,
) -> PageLayout {
    let pages = &doc.meta.pages;
    let own_headers = pages.sections.iter().any(|s| !s.header.is_empty());
    let own_footers = pages.sections.iter().any(|s| !s.footer.is_empty());
    let mut parts: Vec<PagePart> = Vec::new();
    let mut add = |kind: &'static str, xml: String| -> String {
        let n = parts.iter().filter(|p| p.kind == kind).count() + 1;
        let (name, id) = (format!("{kind}{n}.xml"), format!("rId{kind}{n}"));
        parts.push(PagePart {
            kind,
            name,
            id: id.clone(),
            xml,
        });
        id
    };
    // The template's parts, where the document has none of the kind.
    let title = fill(doc.meta.title.as_deref().unwrap_or(""));
    let template_header = match &tpl.header {
        Some(h) if !own_headers => Some(add(
            "header",
            mark_template_part(&h.replace("{{title}}", &title), "hdr"),
        )),
        _ => None,
    };
    let template_footer = match &tpl.footer {
        Some(f) if !own_footers => Some(add(
            "footer",
            mark_template_part(
                &f.replace(
                    "{{footer}}",
                    &fill(doc.meta.footer.as_deref().unwrap_or("")),
                )
                .replace("{{title}}", &title),
                "ftr",
            ),
        )),
        _ => None,
    };
    // The document's own, each text once per kind.
    let mut ids: HashMap<(&'static str, &PageText), String> = HashMap::new();
    let mut sections = Vec::new();
    let default_sections = [crate::ast::PageSection::default()];
    let list = if pages.sections.is_empty() {
        &default_sections[..]
    } else {
        &pages.sections[..]
    };
    // Word gives a section the previous one's part of each kind it names none of: a variant
    // the previous section shows and this one does not is named, with an empty part.
    let empty = PageText {
        paragraphs: vec![Vec::new()],
    };
    let mut previous: Option<&crate::ast::PageSection> = None;
    for section in list {
        let mut refs = String::new();
        for (kind, slots, template) in [
            ("header", &section.header, &template_header),
            ("footer", &section.footer, &template_footer),
        ] {
            if let Some(id) = template {
                // Every page the section has shows it: a first page (`w:titlePg`) and even
                // pages would otherwise take a variant nobody wrote, and show nothing.
                let _ = write!(refs, r#"<w:{kind}Reference w:type="default" r:id="{id}"/>"#);
                if section.title_page {
                    let _ = write!(refs, r#"<w:{kind}Reference w:type="first" r:id="{id}"/>"#);
                }
                if pages.even_and_odd {
                    let _ = write!(refs, r#"<w:{kind}Reference w:type="even" r:id="{id}"/>"#);
                }
            }
            let before = previous.map(|p| {
                if kind == "header" {
                    &p.header
                } else {
                    &p.footer
                }
            });
            let blanked = before
                .into_iter()
                .flat_map(|b| b.iter())
                .filter_map(|(variant, _)| {
                    let shown = slots.iter().any(|(v, _)| v == variant);
                    (!shown).then_some((variant, &empty))
                });
            for (variant, text) in slots.iter().chain(blanked) {
                let id = match ids.get(&(kind, text)) {
                    Some(id) => id.clone(),
                    None => {
                        let id = add(kind, part_xml(kind, text));
                        ids.insert((kind, text), id.clone());
                        id
                    }
                };
                let _ = write!(
                    refs,
                    r#"<w:{kind}Reference w:type="{variant}" r:id="{id}"/>"#
                );
            }
        }
        let mut sect = String::from("<w:sectPr>");
        sect.push_str(&refs);
        sect.push_str(&with_title_page(&tpl.section_inner, section.title_page));
        sect.push_str("</w:sectPr>");
        sections.push((section.start, sect));
        previous = Some(section);
    }
    PageLayout {
        parts,
        sections,
        even_and_odd: pages.even_and_odd,
    }
}

/// The template's section properties, with `w:titlePg` where CT_SectPr wants it when `on`.
fn with_title_page(inner: &str, on: bool) -> String {
    if !on {
        return inner.to_string();
    }
    let at = [
        "<w:textDirection",
        "<w:bidi",
        "<w:rtlGutter",
        "<w:docGrid",
        "<w:printerSettings",
    ]
    .iter()
    .filter_map(|t| inner.find(t))
    .min()
    .unwrap_or(inner.len());
    format!("{}<w:titlePg/>{}", &inner[..at], &inner[at..])
}

/// A header or footer part holding `text`: a paragraph in the template's Header or Footer
/// style per paragraph, tabs as tabs, page numbers as `PAGE`/`NUMPAGES`/`SECTIONPAGES` fields.
fn part_xml(kind: &str, text: &PageText) -> String {
    let (root, style) = if kind == "header" {
        ("hdr", "Header")
    } else {
        ("ftr", "Footer")
    };
    let mut x = String::from(XML_DECL);
    let _ = write!(x, r#"<w:{root} xmlns:w="{W}" xmlns:r="{R}">"#);
    // A header or footer part holds at least one paragraph (CT_HdrFtr's block content).
    let blank = [Vec::new()];
    let paragraphs = if text.paragraphs.is_empty() {
        &blank[..]
    } else {
        &text.paragraphs[..]
    };
    for paragraph in paragraphs {
        let _ = write!(x, r#"<w:p><w:pPr><w:pStyle w:val="{style}"/></w:pPr>"#);
        for piece in paragraph {
            let instr = match piece {
                PagePiece::Text(t) => {
                    for (i, part) in t.split('\t').enumerate() {
                        if i > 0 {
                            x.push_str("<w:r><w:tab/></w:r>");
                        }
                        if !part.is_empty() {
                            x.push_str(r#"<w:r><w:t xml:space="preserve">"#);
                            escape_text(part, &mut x);
                            x.push_str("</w:t></w:r>");
                        }
                    }
                    continue;
                }
                PagePiece::PageNumber => "PAGE",
                PagePiece::PageCount => "NUMPAGES",
                PagePiece::SectionPageCount => "SECTIONPAGES",
            };
            // The result Word shows until it updates the field.
            let _ = write!(
                x,
                r#"<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>"#
            );
        }
        x.push_str("</w:p>");
    }
    let _ = write!(x, "</w:{root}>");
    x
}

/// Wraps a template header's or footer's (`root`: `hdr`, `ftr`) content in a content control
/// tagged `TEMPLATE_HEADER_TAG`: the title line and the footer line around the service's
/// footer text are the template's, and a reader must not take them for the document's own.
fn mark_template_part(xml: &str, root: &str) -> String {
    let Some(start) = xml.find(&format!("<w:{root}")) else {
        return xml.to_string();
    };
    let (Some(open_end), Some(close)) =
        (xml[start..].find('>'), xml.rfind(&format!("</w:{root}>")))
    else {
        return xml.to_string();
    };
    let open_end = start + open_end + 1;
    if close < open_end || xml[start..open_end].ends_with("/>") {
        return xml.to_string();
    }
    format!(
        r#"{}<w:sdt><w:sdtPr><w:tag w:val="{}"/></w:sdtPr><w:sdtContent>{}</w:sdtContent></w:sdt>{}"#,
        &xml[..open_end],
        crate::ooxml::TEMPLATE_HEADER_TAG,
        &xml[open_end..close],
        &xml[close..]
    )
}

/// Ends the section whose properties are `sect_pr` after what `out` holds: Word keeps a
/// section's properties in the paragraph that ends it, here one of its own (which the reader
/// takes for the break it is, not for an empty paragraph).
pub(super) fn end_section(out: &mut String, sect_pr: &str) {
    out.push_str("<w:p><w:pPr>");
    out.push_str(sect_pr);
    out.push_str("</w:pPr></w:p>");
}
