//! The Word (.docx/.docm) reader: our own, on quick-xml and zip.
//!
//! Two stages, as in mammoth and pandoc's `Docx/Parse`:
//! 1. **Parts → plain structs** (`parse/`), one module per part: `package` (content types,
//!    package relationships, main part), `rels`, `styles`, `numbering`, `body` (with `runs`,
//!    `tables`, `drawing` and `math`) for the main part (`halves` splits a large one between two
//!    parsers), `notes`, `comments`, `core_props`, `settings`, `charts`, `smartart`;
//!    `pictures` reads the picture parts on a second thread meanwhile. The main part is
//!    streamed, never loaded as a DOM.
//! 2. **Structs → tree** (`tree/`): `convert`, `paragraphs`, `inlines` and `fields`
//!    (paragraphs, runs, fields, notes, comments, images), [`mapping`] (the text type of each
//!    paragraph: the API's `styleMapping`, built-in styles, outline levels, numbering),
//!    `numbering` (Word's list counters), `tables`, `captions`, `references`, `pictures`,
//!    `meta`, `language` (languages and directions, settled over the whole body), and [`looks`]
//!    (how Word draws each list level).
//!
//! Both stages read caption labels (a `TOC \c` argument, a caption's label) from one list,
//! `caption_labels`.
//!
//! This module holds the options and the entry points and calls the stages in order. The reader
//! calls nothing above it: a magic import takes the tree and the looks [`read_with_looks`] hands
//! out, and settles the lists with [`WordRead::into_document`] after its style sets.

// Stage two is `tree/` (for what it makes), not `build/`: tools skip a `build/` folder.
mod caption_labels;
pub(crate) mod chunks;
mod parse;
mod tree;

use crate::archive::Source;
use crate::ast::Document;
use crate::error::{Error, Result};
use crate::limits::Limits;
use crate::report::{Converted, Report};

pub use tree::looks::{self, NumberLook, NumberLooks};
pub use tree::mapping::{self, MappingEntry, StyleMapping};

use parse::package::Package;
use parse::parser::Facts;
use parse::parts::{self, TextParts};
use parse::pictures::MediaJob;
use parse::rels::Relationships;
use tree::convert::Built;
use tree::converter::{Sources, Split};
use tree::copies::{CopiedParts, Copies};
use tree::{meta, numbering as lists, pictures, references};

/// Options of the Word reader. Input limits are an argument of their own ([`read_source`]).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct DocxImportOptions {
    /// The API's `styleMapping`: Word style name → `{textType, level}`. Parsed from the API's
    /// JSON object with [`StyleMapping::from_json`].
    pub style_mapping: StyleMapping,
    /// The API's creation payload fields (title, description, subtitle, filename, footer,
    /// supplemental, tags, language…) that override what the document says. Length limits are
    /// enforced ([`crate::Error::Parameter`]): title 200, description 400, subtitle 300,
    /// filename 200, supplemental 400 characters.
    pub meta: crate::ast::Meta,
    /// Parse a large main part on the calling thread only, not in two halves at once on the
    /// rayon pool (`parse/halves.rs`): for a caller that keeps the other cores busy itself
    /// (the CLI inflating a Word file's pictures while it reads). Off by default.
    pub parse_on_one_core: bool,
    /// Inflate the main part's pictures on the picture thread while the tree is built (after
    /// the parse, which has both cores, and until the text is done), for a writer that needs
    /// every picture's bytes: the single-file page's `data:` URIs. What is not inflated by
    /// then is inflated when first used, as without it. Off by default: writers of a zip copy
    /// pictures as stored, and the CLI streams the HTML folder's pictures into files.
    pub inflate_pictures: bool,
    /// Read as mammoth reads Word, for its drop-in HTML ([`crate::export::html::mammoth`]):
    /// every paragraph keeps its Word style's name (also when its text type already says
    /// what the style means), every run in a character style is a span of that style, a run's
    /// formatting is only its own (bold from a style stays the style's, as in mammoth), notes
    /// keep the space after their number, captions stay paragraphs (not parts of their
    /// picture or table), a leading Title stays text, unmapped styles are not warned (the
    /// style map warns), and `meta.word` holds the styles' ids and the notes' Word ids. Off by
    /// default.
    pub word_refs: bool,
    /// How deep in embedded Word chunks (`w:altChunk`) this reading is: 0 for the document.
    pub(crate) chunk_depth: u8,
}

impl DocxImportOptions {
    /// Sets the style mapping.
    pub fn with_style_mapping(mut self, mapping: StyleMapping) -> Self {
        self.style_mapping = mapping;
        self
    }

    /// Sets the caller's metadata.
    pub fn with_meta(mut self, meta: crate::ast::Meta) -> Self {
        self.meta = meta;
        self
    }

    /// Sets [`DocxImportOptions::word_refs`].
    pub fn with_word_refs(mut self, on: bool) -> Self {
        self.word_refs = on;
        self
    }

    /// Sets [`DocxImportOptions::inflate_pictures`].
    pub fn with_inflate_pictures(mut self, on: bool) -> Self {
        self.inflate_pictures = on;
        self
    }

    /// Sets [`DocxImportOptions::parse_on_one_core`].
    pub fn with_parse_on_one_core(mut self, on: bool) -> Self {
        self.parse_on_one_core = on;
        self
    }
}

/// A Word file read for a stage that needs Word's own numbering (magic import's style sets):
/// the tree with its list ids, starts and restarts as Word
/// gives them, and how Word draws each list level. [`WordRead::into_document`] then says the
/// numbering in the tree's canonical form, as [`read`] returns it.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct WordRead {
    /// The tree, its lists as Word numbers them.
    pub doc: Document,
    /// How Word draws the numbers of the tree's numbered paragraphs, by list id and level.
    pub looks: NumberLooks,
}

impl WordRead {
    /// The tree with its numbering in canonical form: list ids, starts and restarts only where
    /// the numbers need them.
    pub fn into_document(self) -> Document {
        let mut doc = self.doc;
        lists::canonical_form(&mut doc);
        doc
    }
}

/// How the reader leaves the tree's lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lists {
    /// In canonical form, settled right after the text is converted.
    Canonical,
    /// As Word numbers them, for [`WordRead`].
    AsWord,
}

/// Reads a .docx (or .docm) file into a tree, within the default [`Limits`].
///
/// Errors: not a Word file ([`Error::WrongFormat`] naming what it is), a broken zip
/// ([`Error::NotZip`]), a malformed main part ([`Error::Xml`]), limits ([`Error::TooLarge`]),
/// caller metadata over the API's limits ([`Error::Parameter`]). Everything else that cannot be
/// converted exactly is a warning.
///
/// ```
/// use sdconv::import::docx::{read, DocxImportOptions};
/// let err = read(b"%PDF-1.7", &DocxImportOptions::default()).unwrap_err();
/// assert_eq!(err.to_string(), "not a docx file: a PDF");
/// ```
pub fn read(bytes: &[u8], options: &DocxImportOptions) -> Result<Converted<Document>> {
    read_source(Source::Borrowed(bytes), options, &Limits::default())
}

/// Reads a Word file like [`read`], within `limits`, from borrowed or shared bytes: from
/// [`Source::Shared`] bytes the pictures, kept deflated until something needs them
/// ([`crate::ast::MediaItem::deflated`]), point into those bytes; borrowed bytes cost each
/// picture a copy of its deflated bytes.
pub fn read_source(
    source: Source<'_>,
    options: &DocxImportOptions,
    limits: &Limits,
) -> Result<Converted<Document>> {
    read_document(source, options, limits, DEFAULT_SPLIT)
}

/// [`read_word`] with the lists in canonical form, handing out the tree.
fn read_document(
    source: Source<'_>,
    options: &DocxImportOptions,
    limits: &Limits,
    split: Split,
) -> Result<Converted<Document>> {
    let read = read_word(source, options, limits, Lists::Canonical, split)?;
    Ok(Converted {
        value: read.value.doc,
        warnings: read.warnings,
    })
}

/// Reads a Word file like [`read_source`], handing out Word's numbering for a later stage
/// ([`WordRead`]).
pub fn read_with_looks(
    source: Source<'_>,
    options: &DocxImportOptions,
    limits: &Limits,
) -> Result<Converted<WordRead>> {
    read_word(source, options, limits, Lists::AsWord, DEFAULT_SPLIT)
}

/// Reads a Word file like [`read`], converting bodies of `split_from` top-level blocks or more
/// in two halves at once, the second always on the pool: for tests that compare both ways on
/// small files.
pub(crate) fn read_split_from(
    bytes: &[u8],
    options: &DocxImportOptions,
    split_from: usize,
) -> Result<Converted<Document>> {
    let split = Split {
        from: split_from,
        always: true,
    };
    read_document(Source::Borrowed(bytes), options, &Limits::default(), split)
}

/// The zip entries of the pictures the main document part of the Word file `bytes` shows,
/// sorted: the pictures [`read`] loads first (kept deflated). For a caller that starts on them
/// while the reader works on the text (the CLI inflates them into files then). Reads only the
/// package's relationships; errors as [`read`] for what is no Word file.
pub fn picture_parts(bytes: &[u8], limits: &Limits) -> Result<Vec<String>> {
    let mut report = Report::new();
    let mut pkg = Package::open(bytes, limits, &mut report)?;
    let main = pkg.main_part.clone();
    let main_rels = pkg.rels_of(&main, &mut report)?;
    Ok(parts::main_pictures(&pkg, &main_rels))
}

/// The stages in order: the package, the text parts (read and converted on this thread) beside
/// the main part's pictures (read on a second one), the pictures of notes and comments, the
/// media store, the metadata.
fn read_word(
    source: Source<'_>,
    options: &DocxImportOptions,
    limits: &Limits,
    lists: Lists,
    split: Split,
) -> Result<Converted<WordRead>> {
    let bytes: &[u8] = source.as_ref();
    meta::check_given(&options.meta)?;
    let mut report = Report::new();
    let mut pkg = Package::open(bytes, limits, &mut report)?;
    let main = pkg.main_part.clone();
    let main_rels = pkg.rels_of(&main, &mut report)?;
    let images = parts::main_pictures(&pkg, &main_rels);
    let left = |used: u64| {
        limits
            .clone()
            .with_max_total_size(limits.max_total_size.saturating_sub(used))
    };
    let job =
        MediaJob::new(&source, left(pkg.inflated), &images).inflating(options.inflate_pictures);
    let parsed = || job.parsed();
    let (side, mut loaded) = job.alongside(|| {
        let read = Reading {
            options,
            limits,
            lists,
            parsed: &parsed,
            split,
        };
        text_side(&mut pkg, &main, &main_rels, &read, report)
    })?;
    let TextSide {
        built:
            Built {
                mut doc,
                wanted,
                wide,
                looks,
                mut report,
            },
        core,
        mut more_images,
    } = side;
    // Pictures of notes and comments that the main part does not share.
    more_images.retain(|p| pkg.contains(p) && images.binary_search(p).is_err());
    more_images.sort_unstable();
    more_images.dedup();
    let more = MediaJob::new(
        &source,
        left(pkg.inflated.saturating_add(job.inflated())),
        &more_images,
    );
    more.read_into(&mut loaded)?;
    let media_inflated = job.inflated().saturating_add(more.inflated());
    // Checked again after reads of pictures outside the media list.
    let check_total = |pkg: &Package<'_>| {
        if pkg.inflated.saturating_add(media_inflated) > limits.max_total_size {
            Err(Error::TooLarge {
                what: "total uncompressed size",
                detail: format!("the parts pass {} bytes together", limits.max_total_size),
            })
        } else {
            Ok(())
        }
    };
    check_total(&pkg)?;
    let missing = pictures::store(
        &mut doc,
        wanted,
        &mut loaded,
        |part| pkg.read_bytes(part),
        &mut report,
    )?;
    check_total(&pkg)?;
    if !missing.is_empty() {
        pictures::drop_images(&mut doc, &missing);
    }
    pictures::drop_implied_extents(&mut doc, &wide);
    meta::settle(&mut doc, core, &options.meta, &mut report);
    Ok(report.finish(WordRead { doc, looks }))
}

/// What the text side hands back: the converted text, the core properties, and picture parts
/// of notes and comments.
struct TextSide {
    built: Built,
    core: parse::core_props::CoreProps,
    more_images: Vec<String>,
}

/// How the text side reads: the caller's options and limits, the lists' form, and whom to
/// tell once the main part is parsed (the picture thread, which may inflate from then on).
struct Reading<'r> {
    options: &'r DocxImportOptions,
    limits: &'r Limits,
    lists: Lists,
    parsed: &'r dyn Fn(),
    /// Which bodies are converted in two halves at once ([`DEFAULT_SPLIT`] but in tests).
    split: Split,
}

/// Bodies of [`tree::seam::SPLIT_FROM`] top-level blocks or more are converted in two halves
/// at once, the second half by this thread when the pool has not started on it.
const DEFAULT_SPLIT: Split = Split {
    from: tree::seam::SPLIT_FROM,
    always: false,
};

/// Reads the text parts (main, styles, numbering, notes, comments, core properties, page
/// headers and footers, diagrams, charts) and converts them.
fn text_side(
    pkg: &mut Package<'_>,
    main: &str,
    main_rels: &Relationships,
    read: &Reading<'_>,
    mut report: Report,
) -> Result<TextSide> {
    let Reading {
        options,
        limits,
        lists,
        parsed,
        ..
    } = *read;
    let (text, parts, core) = main_beside_parts(
        pkg,
        main,
        main_rels,
        limits,
        &mut report,
        !options.parse_on_one_core,
    )?;
    let TextParts {
        styles,
        numbering,
        footnotes,
        endnotes,
        comments,
        images: more_images,
    } = parts;

    let mut facts = Facts::default();
    let body = parse::halves::parse_main(
        &text,
        main,
        main_rels,
        limits,
        &mut report,
        &mut facts,
        !options.parse_on_one_core,
    )?;
    // Every link target the file writes down, once: the budget of link copies starts there.
    let links = main_rels
        .iter()
        .map(|r| r.target.len())
        .fold(text.len(), usize::saturating_add);
    // The picture thread inflating pictures meanwhile wants the other core.
    let split = if options.parse_on_one_core || options.inflate_pictures {
        Split::NEVER
    } else {
        read.split
    };
    // A body converted in two halves may need its second half's blocks again, which the pool
    // consumed (`tree::seam`): the text is kept for that while the tree is built (in place of
    // copies of those blocks, which cost the pool a fifth of its work), else dropped here.
    let kept = split.splits(body.blocks.len()).then_some(text);
    let in_halves = !options.parse_on_one_core;
    let again = || {
        let text = kept.as_deref()?;
        // The same parse as above: its warnings and facts are given already.
        let (mut report, mut facts) = (Report::new(), Facts::default());
        parse::halves::parse_main(
            text,
            main,
            main_rels,
            limits,
            &mut report,
            &mut facts,
            in_halves,
        )
        .ok()
        .map(|body| body.blocks)
    };
    // From here this thread works alone (the parts left are small, the tree is built here).
    parsed();
    let page = parts::read_page_parts(pkg, &body, main_rels, limits, &mut report)?;
    let diagrams = parts::read_diagrams(pkg, &body, limits, &mut report)?;
    let chunks = chunks::read_chunks(pkg, &body, options, limits, &mut report)?;
    let names = parts::part_names(pkg);
    let charts = parts::read_charts(pkg, main_rels, limits, &mut report)?;
    let comment_ids = comments.iter().map(|c| c.id.clone()).collect();
    let copies = Copies::measure(
        CopiedParts {
            footnotes: &footnotes,
            endnotes: &endnotes,
            charts: &charts,
            diagrams: &diagrams,
            chunks: &chunks,
            links,
        },
        // An embedded document's blocks are a part the outer budget counts: were each nested
        // document given the room of a document, nesting would multiply it. It gets only what
        // ordinary links repeat (a relationship named by several hyperlinks, a link cut by
        // changes), which each chunk's own bytes in the outer file pay for many times over.
        if options.chunk_depth == 0 {
            tree::copies::MIN_COPIES
        } else {
            tree::copies::MIN_NESTED_COPIES
        },
    );
    let src = Sources {
        styles: &styles,
        numbering: &numbering,
        mapping: &options.style_mapping,
        word_refs: options.word_refs,
        footnotes: &footnotes,
        endnotes: &endnotes,
        comment_ids: &comment_ids,
        facts: &facts,
        parts: &names,
        main_part: main,
        diagrams: &diagrams,
        charts: &charts,
        chunks: &chunks,
        copies: &copies,
        core_language: core.language.as_deref(),
        split,
        again: &again,
    };
    let mut built = tree::convert::build(src, body, comments, page, report);
    // Freeing the part's text unmaps its 3.6 MB in a large file (about 0.8 ms): on the pool,
    // beside the passes below. (It is kept only when the pool has a second thread.)
    if let Some(text) = kept {
        rayon::spawn(move || drop(text));
    }
    // The chunks' pictures, beside the document's own (named apart).
    for item in chunks.into_values().flat_map(|c| c.media) {
        built.doc.media.insert(item);
    }
    if lists == Lists::Canonical {
        lists::canonical_form(&mut built.doc);
    }
    references::drop_unreferenced_hidden_ids(&mut built.doc);
    Ok(TextSide {
        built,
        core,
        more_images,
    })
}

/// The main part's text, the other text parts (styles, numbering, notes, comments) and the core
/// properties. With `on_pool`, a main part of [`parse::halves::PARALLEL_PARSE_FROM`] bytes or
/// more is inflated on the pool while the other parts are read here (the inflating is the
/// longer job: 3.6 MB of large.docx's main part against its 1 MB of other parts). Warnings and
/// errors come as one thread reading in turn gives them: the main part's first.
fn main_beside_parts(
    pkg: &mut Package<'_>,
    main: &str,
    main_rels: &Relationships,
    limits: &Limits,
    report: &mut Report,
    on_pool: bool,
) -> Result<(String, TextParts, parse::core_props::CoreProps)> {
    let pending = pkg.pending(main)?.ok_or_else(|| Error::MissingPart {
        part: main.to_string(),
    })?;
    let read_rest = |pkg: &mut Package<'_>, report: &mut Report| {
        let parts = parts::read_text_parts(pkg, main_rels, limits, report)?;
        let core = parts::read_core(pkg, report)?;
        Ok((parts, core))
    };
    if !on_pool || pending.declared() < parse::halves::PARALLEL_PARSE_FROM as u64 {
        let inflated = pending.inflate();
        let text = parse::package::decode_part(pkg.settle(&pending, inflated)?, main, report);
        let (parts, core) = read_rest(pkg, report)?;
        return Ok((text, parts, core));
    }
    let mut inflated = None;
    let mut rest_report = Report::new();
    let rest: Result<_> = rayon::in_place_scope(|scope| {
        scope.spawn(|_| inflated = Some(pending.inflate()));
        read_rest(pkg, &mut rest_report)
    });
    // The scope waited for the spawned job, so `inflated` is set.
    let inflated = inflated.unwrap_or_else(|| pending.inflate());
    let text = parse::package::decode_part(pkg.settle(&pending, inflated)?, main, report);
    report.append(rest_report);
    let (parts, core) = rest?;
    Ok((text, parts, core))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{Compression, ZipWriter};

    const REL: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

    /// A Word package whose main part is `body_bytes` long with one invalid UTF-8 byte, and
    /// whose styles part has one too, and whose footnotes part is missing: three warnings,
    /// one from the main part and two from the parts read beside it.
    fn package(body_bytes: usize) -> Vec<u8> {
        let mut zip = ZipWriter::new();
        let mut add = |name: &str, bytes: &[u8]| {
            zip.add(name, bytes, Compression::Deflate)
                .expect("a Vec takes any write");
        };
        add(
            "_rels/.rels",
            format!(
                r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>"#
            )
            .as_bytes(),
        );
        add(
            "word/_rels/document.xml.rels",
            format!(
                r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r1" Type="{REL}/styles" Target="styles.xml"/><Relationship Id="r2" Type="{REL}/footnotes" Target="footnotes.xml"/></Relationships>"#
            )
            .as_bytes(),
        );
        let w = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;
        let mut main = format!("<w:document {w}><w:body><w:p><w:r><w:t>a\u{1}").into_bytes();
        if let Some(b) = main.last_mut() {
            *b = 0xFF;
        }
        let para = b"</w:t></w:r></w:p><w:p><w:r><w:t>text";
        while main.len() < body_bytes {
            main.extend_from_slice(para);
        }
        main.extend_from_slice(b"</w:t></w:r></w:p></w:body></w:document>");
        add("word/document.xml", &main);
        let mut styles = format!("<w:styles {w}><!-- \u{1} --></w:styles>").into_bytes();
        if let Some(at) = styles.iter().position(|&b| b == 1) {
            styles[at] = 0xFE;
        }
        add("word/styles.xml", &styles);
        zip.finish().expect("finished")
    }

    /// Reads the main part beside the other parts or in turn: its text and the bytes counted.
    fn read(bytes: &[u8], limits: &Limits, on_pool: bool) -> (Result<(String, u64)>, Report) {
        let mut report = Report::new();
        let result = Package::open(bytes, limits, &mut report).and_then(|mut pkg| {
            let main = pkg.main_part.clone();
            let rels = pkg.rels_of(&main, &mut report)?;
            let (text, _, _) =
                main_beside_parts(&mut pkg, &main, &rels, limits, &mut report, on_pool)?;
            Ok((text, pkg.inflated))
        });
        (result, report)
    }

    #[test]
    fn a_large_main_part_inflated_beside_the_other_parts_reads_as_in_turn() {
        let bytes = package(parse::halves::PARALLEL_PARSE_FROM + 10);
        let limits = Limits::default();
        let (beside, beside_report) = read(&bytes, &limits, true);
        let (in_turn, in_turn_report) = read(&bytes, &limits, false);
        let beside = beside.expect("reads");
        assert!(beside.0.len() > parse::halves::PARALLEL_PARSE_FROM);
        assert_eq!(beside, in_turn.expect("reads"));
        let messages: Vec<String> = beside_report
            .warnings()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(beside_report.warnings(), in_turn_report.warnings());
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].contains("word/document.xml"), "{messages:?}");
        assert!(messages[1].contains("word/styles.xml"), "{messages:?}");
        assert!(messages[2].contains("footnotes.xml"), "{messages:?}");
    }
    #[test]
    fn the_total_budget_holds_the_main_part_read_beside_the_other_parts() {
        let bytes = package(parse::halves::PARALLEL_PARSE_FROM + 10);
        let (whole, _) = read(&bytes, &Limits::default(), false);
        let (main_len, counted) = whole.map(|(t, n)| (t.len() as u64, n)).expect("reads");
        // The main part fits, the styles part after it does not; then not even the main part.
        for total in [counted - 1, main_len - 1] {
            let limits = Limits::default().with_max_total_size(total);
            let (beside, _) = read(&bytes, &limits, true);
            let (in_turn, _) = read(&bytes, &limits, false);
            let (beside, in_turn) = (beside.map(|r| r.1), in_turn.map(|r| r.1));
            assert!(
                matches!(beside, Err(Error::TooLarge { .. })),
                "{total}: {beside:?}"
            );
            assert_eq!(format!("{beside:?}"), format!("{in_turn:?}"), "{total}");
        }
    }
}
