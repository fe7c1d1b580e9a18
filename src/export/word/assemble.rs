//! The .docx package: every part, its content type and relationships (ECMA-376 Part 2), written
//! through the deterministic [`crate::archive::ZipWriter`].

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::archive::{Compression, ZipWriter};
use crate::ast::{Document, MediaKind};
use crate::error::Result;
use crate::limits::Limits;
use crate::report::{Converted, Location, WarningKind};
use crate::xml::{escape_attr, escape_text};

use super::main_part::MainPart;
use super::runs::word_date;
use super::template::WordTemplate;
use super::writer::{Part, Rel, Writer};
use super::{ImageStats, PagedSettings};
use crate::export::paged::pictures::compress_all;

use crate::ooxml::{R, W, XML_DECL};
const REL_BASE: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const CT_BASE: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml";

/// From how many top-level blocks the TOC layout runs beside the body writer.
const PARALLEL_LAYOUT_BLOCKS: usize = 500;

/// Writes the package into the archive `open` makes once document.xml's length is known;
/// returns the finished sink and the image statistics.
pub(crate) fn write_package<S: std::io::Write + std::io::Seek>(
    doc: &Document,
    tpl: &WordTemplate,
    settings: &PagedSettings,
    limits: &Limits,
    open: impl FnOnce(usize) -> ZipWriter<S>,
) -> Result<Converted<(S, ImageStats)>> {
    let mut w = Writer::new(doc, tpl, settings);
    let fill = |text: &str| {
        let mut t = String::new();
        escape_text(text, &mut t);
        t
    };
    // Headers, footers and the sections they belong to; the body writer ends each section.
    let layout = super::page_parts::plan(doc, tpl, &fill);
    w.section_ends = layout
        .sections
        .windows(2)
        .map(|pair| (pair[1].0, pair[0].1.clone()))
        .collect();
    // The lists' page numbers come from the PDF layout, a third of a long document's export
    // and needing nothing the body writer makes: lay a long document out on another core
    // meanwhile (a short one on this thread: handing it over costs more than it saves). The
    // numbers are used only when the tables of contents' markers are resolved, after both; the
    // body writer deflates the main part's end meanwhile (`main_part`). The last section's
    // properties close the body.
    let last_section = layout.sections.last().map_or("", |(_, last)| last.as_str());
    let (pages, main) = if doc.blocks.len() >= PARALLEL_LAYOUT_BLOCKS {
        rayon::join(
            || crate::export::paged::listed_block_pages(doc, settings),
            || {
                let body = w.write_body();
                MainPart::ahead(&mut w, body, last_section)
            },
        )
    } else {
        (
            crate::export::paged::listed_block_pages(doc, settings),
            Ok(MainPart::Body(w.write_body())),
        )
    };
    w.pages = pages;
    let main = main?.finish(&mut w, last_section);
    let footnotes: Vec<String> = std::mem::take(&mut w.footnotes)
        .into_iter()
        .map(|n| w.resolve_markers(n))
        .collect();
    let endnotes: Vec<String> = std::mem::take(&mut w.endnotes)
        .into_iter()
        .map(|n| w.resolve_markers(n))
        .collect();
    let comments = comments_part(&mut w);
    if w.sidenotes > 0 {
        w.report.warn(
            WarningKind::Lossy,
            format!(
                "{} sidenote(s) written as footnotes (Word has no margin notes)",
                w.sidenotes
            ),
            Location::part("word/footnotes.xml"),
        );
    }
    if !doc.indexes.is_empty() {
        w.report.warn(
            WarningKind::Lossy,
            "the index tree is not written; its entries are XE fields Word can build an index from",
            Location::part("word/document.xml"),
        );
    }

    // Images: as they are, or compressed in parallel.
    let used: Vec<(&crate::ast::MediaItem, u64)> = w
        .media_order
        .iter()
        .filter_map(|(name, width)| doc.media.get(name).map(|m| (m, *width)))
        .collect();
    let (images, stats) = if settings.compressed_images {
        let (prepared, stats, warnings) = compress_all(&used, limits.max_image_pixels);
        for warning in warnings {
            w.report.push(warning);
        }
        (prepared, stats)
    } else {
        // Clones share the bytes, and deflated ones are copied into the package as they are.
        let prepared: Vec<crate::ast::MediaItem> = used.iter().map(|(m, _)| (*m).clone()).collect();
        let total: u64 = prepared.iter().map(|p| p.size as u64).sum();
        let stats = ImageStats {
            images: prepared.len(),
            bytes_before: total,
            bytes_after: total,
            ..ImageStats::default()
        };
        (prepared, stats)
    };
    let mut taken = std::collections::HashSet::new();
    let media_names: Vec<String> = images
        .iter()
        .zip(&w.media_order)
        .map(|(p, (name, _))| format!("media/{}", media_file_name(name, p.kind, &mut taken)))
        .collect();

    let has_footnotes = !footnotes.is_empty();
    let has_endnotes = !endnotes.is_empty();
    let has_comments = comments.is_some();

    let mut zip = open(main.len);
    let mut defaults: BTreeSet<&str> = BTreeSet::new();
    for name in &media_names {
        defaults.insert(name.rsplit_once('.').map_or("bin", |(_, ext)| ext));
    }
    let mut types = content_types(&defaults, has_footnotes, has_endnotes, has_comments);
    for i in 1..=w.charts.len() {
        types = types.replace(
            "</Types>",
            &format!(
                r#"<Override PartName="/word/charts/chart{i}.xml" ContentType="{}"/></Types>"#,
                super::chart::CHART_CONTENT_TYPE
            ),
        );
    }
    for part in &layout.parts {
        types = types.replace(
            "</Types>",
            &format!(
                r#"<Override PartName="/word/{}" ContentType="{CT_BASE}.{}+xml"/></Types>"#,
                part.name, part.kind
            ),
        );
    }
    zip.add(
        "[Content_Types].xml",
        types.as_bytes(),
        Compression::Deflate,
    )?;
    zip.add("_rels/.rels", ROOT_RELS.as_bytes(), Compression::Deflate)?;
    zip.add(
        "docProps/core.xml",
        core_xml(doc, settings).as_bytes(),
        Compression::Deflate,
    )?;
    main.add_to(&mut zip)?;

    // Relationships of the main part: fixed parts, then links and images in first-use order.
    let mut rels = String::from(XML_DECL);
    let _ = write!(
        rels,
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#
    );
    let mut fixed = vec![
        ("rIdStyles", "styles", "styles.xml"),
        ("rIdNumbering", "numbering", "numbering.xml"),
        ("rIdSettings", "settings", "settings.xml"),
    ];
    if has_footnotes {
        fixed.push(("rIdFootnotes", "footnotes", "footnotes.xml"));
    }
    if has_endnotes {
        fixed.push(("rIdEndnotes", "endnotes", "endnotes.xml"));
    }
    if has_comments {
        fixed.push(("rIdComments", "comments", "comments.xml"));
    }
    for part in &layout.parts {
        fixed.push((&part.id, part.kind, &part.name));
    }
    for (id, kind, target) in fixed {
        let _ = write!(
            rels,
            r#"<Relationship Id="{id}" Type="{REL_BASE}/{kind}" Target="{target}"/>"#
        );
    }
    push_rels(&mut rels, w.rels.get(&Part::Document), &media_names);
    rels.push_str("</Relationships>");
    zip.add(
        "word/_rels/document.xml.rels",
        rels.as_bytes(),
        Compression::Deflate,
    )?;

    let mut styles = std::mem::take(&mut w.styles);
    if !w.extra_char_styles.is_empty() {
        let mut extra = String::new();
        for (id, name) in &w.extra_char_styles {
            let _ = write!(
                extra,
                r#"<w:style w:type="character" w:customStyle="1" w:styleId="{id}"><w:name w:val=""#
            );
            escape_attr(name, &mut extra);
            extra.push_str(r#""/><w:basedOn w:val="DefaultParagraphFont"/></w:style>"#);
        }
        if let Some(at) = styles.rfind("</w:styles>") {
            styles.insert_str(at, &extra);
        }
    }
    zip.add("word/styles.xml", styles.as_bytes(), Compression::Deflate)?;
    zip.add(
        "word/numbering.xml",
        w.numbering.to_xml().as_bytes(),
        Compression::Deflate,
    )?;
    zip.add(
        "word/settings.xml",
        settings_xml(settings, w.wrote_toc, has_footnotes, has_endnotes)
            .replace(
                "<w:characterSpacingControl",
                if doc.meta.hyphenate {
                    "<w:autoHyphenation/><w:characterSpacingControl"
                } else {
                    "<w:characterSpacingControl"
                },
            )
            .replace(
                "<w:characterSpacingControl",
                if layout.even_and_odd {
                    // Even pages' header in use (CT_Settings: before characterSpacingControl).
                    "<w:evenAndOddHeaders/><w:characterSpacingControl"
                } else {
                    "<w:characterSpacingControl"
                },
            )
            .as_bytes(),
        Compression::Deflate,
    )?;
    for (notes, part, tag) in [
        (&footnotes, Part::Footnotes, "footnote"),
        (&endnotes, Part::Endnotes, "endnote"),
    ] {
        if notes.is_empty() {
            continue;
        }
        let mut x = String::from(XML_DECL);
        let _ = write!(
            x,
            r#"<w:{tag}s xmlns:w="{W}" xmlns:r="{R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">"#
        );
        // Separator notes with ids -1 and 0, as Word writes them.
        let _ = write!(
            x,
            r#"<w:{tag} w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:separator/></w:r></w:p></w:{tag}><w:{tag} w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0" w:line="240" w:lineRule="auto"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:{tag}>"#
        );
        for n in notes {
            x.push_str(n);
        }
        let _ = write!(x, "</w:{tag}s>");
        zip.add(
            &format!("word/{tag}s.xml"),
            x.as_bytes(),
            Compression::Deflate,
        )?;
        part_rels(&mut zip, &w, part, &media_names)?;
    }
    if let Some(c) = &comments {
        zip.add("word/comments.xml", c.as_bytes(), Compression::Deflate)?;
        part_rels(&mut zip, &w, Part::Comments, &media_names)?;
    }
    for part in &layout.parts {
        zip.add(
            &format!("word/{}", part.name),
            part.xml.as_bytes(),
            Compression::Deflate,
        )?;
    }
    for (i, chart) in w.charts.iter().enumerate() {
        zip.add(
            &format!("word/charts/chart{}.xml", i + 1),
            chart.as_bytes(),
            Compression::Deflate,
        )?;
    }
    for (p, name) in images.iter().zip(&media_names) {
        // Images are compressed already: deflating them again only costs time, and those still
        // deflated as the source stored them are copied as they are.
        zip.add_media(&format!("word/{name}"), p)?;
    }
    let sink = zip.finish_sink()?;
    Ok(w.report.finish((sink, stats)))
}

/// The file name under `word/media/` of the tree's media `name` written as `kind`: the tree's
/// name, so a reader (ours names media after their part) gets it back, made safe for a part
/// name (ASCII letters, digits, `-`, `_`, `.`; others become `_`), with an extension that says
/// `kind` (the tree's own when it does, so `photo.jpg` stays) and unique regardless of case.
fn media_file_name(
    name: &str,
    kind: MediaKind,
    taken: &mut std::collections::HashSet<String>,
) -> String {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) => (stem, Some(ext.to_ascii_lowercase())),
        None => (name, None),
    };
    let fits = |e: &str| match kind {
        MediaKind::Jpeg => matches!(e, "jpeg" | "jpg"),
        MediaKind::Tiff => matches!(e, "tif" | "tiff"),
        other => e == extension(other),
    };
    let ext = ext
        .filter(|e| fits(e))
        .unwrap_or_else(|| extension(kind).to_string());
    let mut stem: String = stem
        .chars()
        .take(100)
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if stem.is_empty() || stem.starts_with('.') {
        stem.insert_str(0, "image");
    }
    let mut file = format!("{stem}.{ext}");
    let mut n = 2;
    while !taken.insert(file.to_ascii_lowercase()) {
        file = format!("{stem}-{n}.{ext}");
        n += 1;
    }
    file
}

fn extension(kind: MediaKind) -> &'static str {
    match kind {
        MediaKind::Jpeg => "jpeg",
        other => other.extension(),
    }
}

fn push_rels(out: &mut String, rels: Option<&super::writer::Rels>, media: &[String]) {
    let Some(rels) = rels else { return };
    for (id, rel) in &rels.items {
        match rel {
            Rel::Link(href) => {
                let _ = write!(
                    out,
                    r#"<Relationship Id="{id}" Type="{REL_BASE}/hyperlink" Target=""#
                );
                escape_attr(href, out);
                out.push_str(r#"" TargetMode="External"/>"#);
            }
            Rel::Chart(i) => {
                let _ = write!(
                    out,
                    r#"<Relationship Id="{id}" Type="{REL_BASE}/chart" Target="charts/chart{}.xml"/>"#,
                    i + 1
                );
            }
            Rel::Image(i) => {
                if let Some(target) = media.get(*i) {
                    let _ = write!(
                        out,
                        r#"<Relationship Id="{id}" Type="{REL_BASE}/image" Target="{target}"/>"#
                    );
                }
            }
        }
    }
}

fn part_rels<S: std::io::Write + std::io::Seek>(
    zip: &mut ZipWriter<S>,
    w: &Writer<'_>,
    part: Part,
    media: &[String],
) -> Result<()> {
    let Some(rels) = w.rels.get(&part) else {
        return Ok(());
    };
    let mut x = String::from(XML_DECL);
    x.push_str(
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    push_rels(&mut x, Some(rels), media);
    x.push_str("</Relationships>");
    zip.add(
        &format!("word/_rels/{}.rels", part.name()),
        x.as_bytes(),
        Compression::Deflate,
    )
}

const ROOT_RELS: &str = concat!(
    "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n",
    r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    r#"<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>"#,
    r#"<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>"#,
    "</Relationships>"
);

fn content_types(
    images: &BTreeSet<&str>,
    footnotes: bool,
    endnotes: bool,
    comments: bool,
) -> String {
    let mut x = String::from(XML_DECL);
    x.push_str(r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>"#);
    for ext in images {
        let mime = match *ext {
            "jpeg" | "jpg" => "image/jpeg",
            "png" => "image/png",
            "gif" => "image/gif",
            "bmp" => "image/bmp",
            "tif" | "tiff" => "image/tiff",
            "emf" => "image/x-emf",
            "wmf" => "image/x-wmf",
            _ => "application/octet-stream",
        };
        let _ = write!(x, r#"<Default Extension="{ext}" ContentType="{mime}"/>"#);
    }
    let mut over = |part: &str, ct: &str| {
        let _ = write!(x, r#"<Override PartName="{part}" ContentType="{ct}"/>"#);
    };
    over(
        "/word/document.xml",
        &format!("{CT_BASE}.document.main+xml"),
    );
    over("/word/styles.xml", &format!("{CT_BASE}.styles+xml"));
    over("/word/numbering.xml", &format!("{CT_BASE}.numbering+xml"));
    over("/word/settings.xml", &format!("{CT_BASE}.settings+xml"));
    if footnotes {
        over("/word/footnotes.xml", &format!("{CT_BASE}.footnotes+xml"));
    }
    if endnotes {
        over("/word/endnotes.xml", &format!("{CT_BASE}.endnotes+xml"));
    }
    if comments {
        over("/word/comments.xml", &format!("{CT_BASE}.comments+xml"));
    }
    over(
        "/docProps/core.xml",
        "application/vnd.openxmlformats-package.core-properties+xml",
    );
    x.push_str("</Types>");
    x
}

/// settings.xml, children in CT_Settings order (ECMA-376 17.15.1.78).
fn settings_xml(settings: &PagedSettings, toc: bool, footnotes: bool, endnotes: bool) -> String {
    let mut x = String::from(XML_DECL);
    let _ = write!(
        x,
        r#"<w:settings xmlns:w="{W}"><w:zoom w:percent="100"/><w:defaultTabStop w:val="708"/><w:characterSpacingControl w:val="doNotCompress"/>"#
    );
    if toc {
        // Word asks to update fields on open and fills in the TOC page numbers.
        x.push_str(r#"<w:updateFields w:val="true"/>"#);
    }
    if footnotes {
        x.push_str(r#"<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>"#);
    }
    if endnotes {
        x.push_str(r#"<w:endnotePr><w:endnote w:id="-1"/><w:endnote w:id="0"/></w:endnotePr>"#);
    }
    x.push_str(r#"<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat>"#);
    let _ = write!(
        x,
        r#"<w:themeFontLang w:val="{}"/>"#,
        settings.language.bcp47()
    );
    x.push_str("</w:settings>");
    x
}

/// docProps/core.xml: title, subtitle (as subject), description, creator, tags, language. No dates:
/// the same document gives the same bytes.
fn core_xml(doc: &Document, settings: &PagedSettings) -> String {
    let m = &doc.meta;
    let mut x = String::from(XML_DECL);
    x.push_str(r#"<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">"#);
    let mut el = |tag: &str, v: Option<&str>| {
        if let Some(v) = v.filter(|v| crate::xml::has_xml_text(v)) {
            let _ = write!(x, "<{tag}>");
            escape_text(v, &mut x);
            let _ = write!(x, "</{tag}>");
        }
    };
    el("dc:title", m.title.as_deref());
    el("dc:subject", m.subtitle.as_deref());
    el("dc:creator", m.creator.as_deref());
    let tags = m.tags.join(", ");
    el("cp:keywords", Some(&tags));
    el("dc:description", m.description.as_deref());
    // The document's own language so a reader gets it back (one of the API's four as its tag,
    // another as its BCP 47 tag); the caption language of the settings when it names none.
    let language = match m
        .language
        .as_deref()
        .and_then(crate::lang::Language::parse_api)
    {
        Some(api) => api.bcp47().to_string(),
        None => m
            .lang_tag()
            .unwrap_or_else(|| settings.language.bcp47().to_string()),
    };
    el("dc:language", Some(&language));
    x.push_str("</cp:coreProperties>");
    x
}

/// comments.xml with the comments whose range was anchored; the others are reported.
fn comments_part(w: &mut Writer<'_>) -> Option<String> {
    let doc = w.doc;
    if doc.comments.is_empty() {
        return None;
    }
    let mut x = String::from(XML_DECL);
    let _ = write!(
        x,
        r#"<w:comments xmlns:w="{W}" xmlns:r="{R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">"#
    );
    let mut any = false;
    for (i, c) in doc.comments.iter().enumerate() {
        if !w.comment_ended.get(i).copied().unwrap_or(false) {
            w.report.warn(
                WarningKind::Dropped,
                format!("comment {:?} has no end anchor in the text; left out", c.id),
                Location::part("word/comments.xml"),
            );
            continue;
        }
        any = true;
        let _ = write!(x, r#"<w:comment w:id="{i}" w:author=""#);
        escape_attr(c.author.as_deref().unwrap_or("Unknown"), &mut x);
        x.push('"');
        if let Some(d) = c.date.as_deref().filter(|d| word_date(d)) {
            x.push_str(r#" w:date=""#);
            escape_attr(d, &mut x);
            x.push('"');
        }
        if let Some(ini) = &c.initials {
            x.push_str(r#" w:initials=""#);
            escape_attr(ini, &mut x);
            x.push('"');
        }
        x.push_str(r#"><w:p><w:pPr><w:pStyle w:val="CommentText"/></w:pPr><w:r><w:rPr><w:rStyle w:val="CommentReference"/></w:rPr><w:annotationRef/></w:r>"#);
        let ctx = super::runs::RunContext {
            size: None,
            avail_emu: u64::from(w.tpl.page.text_width) * crate::ast::length::EMU_PER_TWIP,
        };
        let mut body = String::new();
        w.lang_context = w.document_lang_context();
        w.write_inlines(&mut body, Part::Comments, &c.content, &ctx);
        let body = w.resolve_markers(body);
        x.push_str(&body);
        x.push_str("</w:p></w:comment>");
    }
    x.push_str("</w:comments>");
    any.then_some(x)
}
