//! `sdconv inspect`: what a document holds, whether its tree is valid, and what reading it lost.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use sdconv::ast::{Block, Document, Inline, Meta, NoteKind, TextType};
use sdconv::{Format, ImportOptions, Warning};

use crate::Failure;
use crate::detect::{input_format, read_input};

/// Most violations the text report lists one by one.
const MAX_LISTED: usize = 20;

/// The report, as printed by `--json`.
#[derive(Debug, Serialize)]
struct Report<'a> {
    file: &'a str,
    format: &'static str,
    meta: &'a Meta,
    counts: Counts,
    valid: bool,
    violations: Vec<String>,
    warnings: &'a [Warning],
}

/// Block and inline counts. Paragraphs and images inside table cells are counted too.
#[derive(Debug, Default, Serialize)]
struct Counts {
    /// Top-level blocks.
    blocks: usize,
    /// Paragraphs by the API's `textType`, all seven listed.
    paragraphs: BTreeMap<&'static str, usize>,
    /// Of those, how many are inside table cells.
    paragraphs_in_tables: usize,
    images: usize,
    inline_images: usize,
    tables: usize,
    table_rows: usize,
    table_cells: usize,
    page_breaks: usize,
    directories: usize,
    footnotes: usize,
    endnotes: usize,
    sidenotes: usize,
    links: usize,
    cross_refs: usize,
    comments: usize,
    media: MediaCounts,
}

#[derive(Debug, Default, Serialize)]
struct MediaCounts {
    items: usize,
    bytes: u64,
}

/// Reads `input` and prints the report on stdout.
pub fn run(input_path: &Path, from: Option<Format>, json: bool) -> Result<(), Failure> {
    let input = read_input(input_path)?;
    let format = input_format(&input, from, input_path)?;
    let imported = sdconv::import(format, &input.bytes, &ImportOptions::default())
        .map_err(|e| Failure::convert(&input.name, e))?;
    let doc = &imported.value;
    let violations: Vec<String> = match doc.validate() {
        Ok(()) => Vec::new(),
        Err(v) => v.iter().map(ToString::to_string).collect(),
    };
    let report = Report {
        file: &input.name,
        format: format.name(),
        meta: &doc.meta,
        counts: count(doc),
        valid: violations.is_empty(),
        violations,
        warnings: &imported.warnings,
    };
    let text = if json {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string_pretty(&report).unwrap_or_default() + "\n"
    } else {
        render(&report)
    };
    print!("{text}");
    Ok(())
}

fn count(doc: &Document) -> Counts {
    let mut c = Counts {
        blocks: doc.blocks.len(),
        paragraphs: TextType::ALL.iter().map(|t| (t.as_str(), 0)).collect(),
        comments: doc.comments.len(),
        media: MediaCounts {
            items: doc.media.len(),
            bytes: doc.media.iter().map(|m| m.size as u64).sum(),
        },
        ..Counts::default()
    };
    doc.walk_blocks(&mut |path, block| match block {
        Block::Paragraph(p) => {
            *c.paragraphs.entry(p.kind.as_str()).or_default() += 1;
            if path.in_table() {
                c.paragraphs_in_tables += 1;
            }
        }
        Block::Image(_) => c.images += 1,
        Block::Table(t) => {
            c.tables += 1;
            c.table_rows += t.rows.len();
            c.table_cells += t.rows.iter().map(|r| r.cells.len()).sum::<usize>();
        }
        Block::PageBreak => c.page_breaks += 1,
        Block::Directory { .. } => c.directories += 1,
    });
    doc.walk_inlines(&mut |inline| match inline {
        Inline::Note { kind, .. } => match kind {
            NoteKind::Footnote => c.footnotes += 1,
            NoteKind::Endnote => c.endnotes += 1,
            NoteKind::Sidenote => c.sidenotes += 1,
        },
        Inline::Image { .. } => c.inline_images += 1,
        Inline::Link { .. } => c.links += 1,
        Inline::CrossRef { .. } => c.cross_refs += 1,
        _ => {}
    });
    c
}

fn render(r: &Report<'_>) -> String {
    let mut s = String::new();
    // Writing to a String cannot fail.
    let mut line = |label: &str, value: &str| {
        let _ = writeln!(s, "{label:<14}{value}");
    };
    line("file:", &format!("{} ({})", r.file, r.format));
    let m = r.meta;
    for (label, value) in [
        ("title:", &m.title),
        ("subtitle:", &m.subtitle),
        ("description:", &m.description),
        ("language:", &m.language),
        ("creator:", &m.creator),
        ("filename:", &m.filename),
        ("footer:", &m.footer),
        ("id:", &m.id),
        ("generator:", &m.generator),
    ] {
        if let Some(v) = value {
            line(label, v);
        }
    }
    if !m.tags.is_empty() {
        line("tags:", &m.tags.join(", "));
    }
    let c = &r.counts;
    line("blocks:", &format!("{} top-level", c.blocks));
    let total: usize = c.paragraphs.values().sum();
    let by_kind: Vec<String> = TextType::ALL
        .iter()
        .filter_map(|t| {
            let n = c.paragraphs.get(t.as_str()).copied().unwrap_or(0);
            (n > 0).then(|| format!("{} {n}", t.as_str()))
        })
        .collect();
    let mut paragraphs = format!("{total}");
    if !by_kind.is_empty() {
        let _ = write!(paragraphs, " ({})", by_kind.join(", "));
    }
    if c.paragraphs_in_tables > 0 {
        let _ = write!(paragraphs, "; {} in tables", c.paragraphs_in_tables);
    }
    line("paragraphs:", &paragraphs);
    line(
        "tables:",
        &format!(
            "{} ({} rows, {} cells)",
            c.tables, c.table_rows, c.table_cells
        ),
    );
    line(
        "images:",
        &format!("{} blocks, {} inline", c.images, c.inline_images),
    );
    line(
        "notes:",
        &format!(
            "{} footnotes, {} endnotes, {} sidenotes",
            c.footnotes, c.endnotes, c.sidenotes
        ),
    );
    line(
        "references:",
        &format!("{} links, {} cross-references", c.links, c.cross_refs),
    );
    line("page breaks:", &c.page_breaks.to_string());
    line("directories:", &c.directories.to_string());
    line("comments:", &c.comments.to_string());
    line(
        "media:",
        &format!("{} items, {} bytes", c.media.items, c.media.bytes),
    );
    if r.valid {
        line("validation:", "ok");
    } else {
        line("validation:", &format!("{} violations", r.violations.len()));
        for v in r.violations.iter().take(MAX_LISTED) {
            let _ = writeln!(s, "  {v}");
        }
        if r.violations.len() > MAX_LISTED {
            let _ = writeln!(s, "  … and {} more", r.violations.len() - MAX_LISTED);
        }
    }
    let _ = writeln!(s, "{:<14}{}", "warnings:", r.warnings.len());
    for w in r.warnings {
        let _ = writeln!(s, "  warning: {w}");
    }
    s
}
