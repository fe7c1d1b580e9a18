//! Embedded chunks (`w:altChunk`): parts in another format that Word shows in place of the
//! element, as mail merges and document assembly tools produce them. HTML is read by the HTML
//! reader ([`crate::import::html`]), plain text a paragraph per line, a Word document by this
//! reader itself with the outer document's options (its styles mapped the same way). Each
//! chunk becomes blocks and pictures, which stage two puts where the chunk stood.

use std::collections::HashMap;

use crate::archive::Source;
use crate::ast::{Block, Document, Inline, MediaItem, Paragraph, TextType};
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Location, Report, WarningKind};

use super::DocxImportOptions;
use super::parse::model;
use super::parse::package::Package;
use super::parse::parts::collect_parts;

/// Word documents inside Word documents, at most this deep.
const MAX_DEPTH: u8 = 3;
/// Chunks read from one document, at most.
const MAX_CHUNKS: usize = 1000;

/// What one chunk gives.
#[derive(Debug, Default)]
pub(crate) struct ChunkBlocks {
    /// Its blocks, in order.
    pub blocks: Vec<Block>,
    /// The pictures they show, named apart from the document's own.
    pub media: Vec<MediaItem>,
}

/// What a chunk part holds, by its content type (else its extension).
enum Kind {
    Html,
    Text,
    Word,
    Other(String),
}

fn kind_of(pkg: &Package<'_>, part: &str) -> Kind {
    let ct = pkg
        .content_types
        .of(part)
        .unwrap_or("")
        .to_ascii_lowercase();
    let ext = part
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if ct.starts_with("text/html")
        || ct.contains("xhtml")
        || matches!(ext.as_str(), "htm" | "html" | "xhtml")
    {
        Kind::Html
    } else if ct.starts_with("text/plain") || ext == "txt" {
        Kind::Text
    } else if ct.contains("wordprocessingml.document")
        || matches!(ext.as_str(), "docx" | "docm" | "dotx")
    {
        Kind::Word
    } else if ct.is_empty() {
        Kind::Other(format!(".{ext}"))
    } else {
        Kind::Other(ct)
    }
}

/// Reads every chunk the body's blocks stand for, once each, by part name. What cannot be
/// read is one warning per chunk and no entry.
pub(super) fn read_chunks(
    pkg: &mut Package<'_>,
    body: &model::Body,
    options: &DocxImportOptions,
    limits: &Limits,
    report: &mut Report,
) -> Result<HashMap<String, ChunkBlocks>> {
    let mut parts = Vec::new();
    collect_parts(&body.blocks, &|p| &p.chunks, &mut parts);
    // Each nested Word document inflates within a share of what this one has left, so nested
    // chunks together never inflate more than the document could itself (times the depth).
    let words = parts
        .iter()
        .filter(|p| matches!(kind_of(pkg, p), Kind::Word))
        .count()
        .max(1) as u64;
    let share = limits.max_total_size.saturating_sub(pkg.inflated) / words;
    let nested_limits = limits.clone().with_max_total_size(share);
    let mut out = HashMap::new();
    for part in parts {
        if out.contains_key(&*part) {
            continue;
        }
        let warn = |report: &mut Report, kind: WarningKind, why: String| {
            report.warn(kind, why, Location::part(&*part).element("w:altChunk"));
        };
        if out.len() >= MAX_CHUNKS {
            warn(
                report,
                WarningKind::Dropped,
                format!("more than {MAX_CHUNKS} embedded chunks: {part} is not imported"),
            );
            continue;
        }
        let prefix = format!("chunk{}-", out.len() + 1);
        let chunk = match kind_of(pkg, &part) {
            Kind::Html => pkg.read_text(&part, report)?.map(|html| {
                let read = crate::import::html::read(&html, &prefix);
                if !read.lost.is_empty() {
                    let lost: Vec<&str> = read.lost.iter().map(String::as_str).collect();
                    warn(
                        report,
                        WarningKind::Dropped,
                        format!(
                            "an embedded HTML chunk holds what the tree cannot ({}): left out, \
                             its other content kept",
                            lost.join(", ")
                        ),
                    );
                }
                ChunkBlocks {
                    blocks: read.blocks,
                    media: read.media,
                }
            }),
            Kind::Text => pkg.read_text(&part, report)?.map(|text| ChunkBlocks {
                blocks: text
                    .lines()
                    .map(str::trim_end)
                    .filter(|l| !l.is_empty())
                    .map(|l| {
                        Block::Paragraph(Paragraph::new(TextType::Paragraph, vec![Inline::text(l)]))
                    })
                    .collect(),
                media: Vec::new(),
            }),
            Kind::Word if options.chunk_depth >= MAX_DEPTH => {
                warn(
                    report,
                    WarningKind::Dropped,
                    format!("a Word chunk nested more than {MAX_DEPTH} deep is not imported"),
                );
                None
            }
            Kind::Word => match pkg.read_bytes(&part)? {
                Some(bytes) => word_chunk(&bytes, &part, &prefix, options, &nested_limits, report)?,
                None => None,
            },
            Kind::Other(what) => {
                warn(
                    report,
                    WarningKind::Dropped,
                    format!("an embedded chunk of type {what} ({part}) is not imported"),
                );
                None
            }
        };
        if let Some(chunk) = chunk {
            out.insert(part.to_string(), chunk);
        }
    }
    Ok(out)
}

/// A Word document embedded as a chunk, read by this reader with the outer options: its
/// blocks and pictures (renamed with `prefix`); its warnings join the outer report.
fn word_chunk(
    bytes: &[u8],
    part: &str,
    prefix: &str,
    options: &DocxImportOptions,
    limits: &Limits,
    report: &mut Report,
) -> Result<Option<ChunkBlocks>> {
    let mut inner = options.clone();
    inner.chunk_depth += 1;
    // The caller's metadata is the outer document's.
    inner.meta = Default::default();
    let read = match super::read_source(Source::Borrowed(bytes), &inner, limits) {
        Ok(read) => read,
        Err(e @ Error::TooLarge { .. }) => return Err(e),
        Err(e) => {
            report.warn(
                WarningKind::InvalidValue,
                format!("an embedded Word chunk ({part}) cannot be read ({e}); dropped"),
                Location::part(part).element("w:altChunk"),
            );
            return Ok(None);
        }
    };
    for w in read.warnings {
        report.warn(
            w.kind,
            format!("in the embedded Word chunk {part}: {}", w.message),
            w.location,
        );
    }
    let mut doc: Document = read.value;
    if !doc.comments.is_empty() {
        report.warn(
            WarningKind::Dropped,
            format!(
                "{} comment(s) of the embedded Word chunk {part} are left out",
                doc.comments.len()
            ),
            Location::part(part).element("w:altChunk"),
        );
        crate::ast::changes::drop_comments(&mut doc);
    }
    // Its title and subtitle were taken from its first paragraphs: they are text here.
    let mut blocks = Vec::new();
    for (text, kind) in [
        (doc.meta.title.take(), TextType::Heading),
        (doc.meta.subtitle.take(), TextType::Paragraph),
    ] {
        if let Some(t) = text.filter(|t| !t.trim().is_empty()) {
            blocks.push(Block::Paragraph(Paragraph::new(
                kind,
                vec![Inline::text(t)],
            )));
        }
    }
    let renamed: HashMap<String, String> = doc
        .media
        .iter()
        .map(|m| (m.name.clone(), format!("{prefix}{}", m.name)))
        .collect();
    doc.rename_media(|name| renamed.get(name).cloned());
    let media = doc
        .media
        .iter()
        .map(|m| {
            let mut m = m.clone();
            m.name = renamed.get(&m.name).cloned().unwrap_or_default();
            m
        })
        .collect();
    blocks.append(&mut doc.blocks);
    Ok(Some(ChunkBlocks { blocks, media }))
}
