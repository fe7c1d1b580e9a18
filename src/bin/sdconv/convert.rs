//! `sdconv convert`: read, import, export, write; warnings to stderr.
//!
//! Formats whose result is more than one file get them here, next to the output: `html` writes
//! the page, `style.css` and `images/` (a `.zip` output or standard output gets the API's zip
//! instead), `markdown` writes its `images/` beside the text and reads images referenced by a
//! Markdown input from beside it.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

use sdconv::export::{html, markdown, pdf};
use sdconv::import::docx::StyleMapping;
use sdconv::lang::Language;
use sdconv::{Document, ExportOptions, Format, ImportOptions, Warning};

use crate::detect::{Input, input_format, map_input, output_format};
use crate::prefetch::{self, Prefetched};
use crate::staged::Staged;
use crate::{Failure, WarningStyle};

/// Word export: the API's `templateId` and `settings`, or single flags as shorthand.
#[derive(Debug, clap::Args)]
pub struct WordArgs {
    /// PDF output (and the Word writer's page numbers): a folder of font files (`.ttf`, `.otf`,
    /// `.ttc`) tried after the bundled fonts and before the system's; may be repeated.
    #[arg(long, value_name = "DIR")]
    pub font_dir: Vec<PathBuf>,
    /// Word export template id (`sdconv templates word`).
    #[arg(long, value_name = "ID")]
    pub template: Option<String>,
    /// A folder of custom Word templates (sub-folders with a template.json) added to the built-in
    /// ones.
    #[arg(long, value_name = "DIR")]
    pub template_dir: Option<PathBuf>,
    /// The API's Word export settings object, as JSON.
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Image captions (`imageCaption`).
    #[arg(long)]
    pub image_caption: bool,
    /// Table captions (`tableCaption`).
    #[arg(long)]
    pub table_caption: bool,
    /// Table of contents (`textToc`).
    #[arg(long)]
    pub text_toc: bool,
    /// List of figures (`imageToc`; needs --image-caption).
    #[arg(long)]
    pub image_toc: bool,
    /// List of tables (`tableToc`; needs --table-caption).
    #[arg(long)]
    pub table_toc: bool,
    /// Downscale and recompress images (`compressedImages`).
    #[arg(long)]
    pub compressed_images: bool,
    /// PDF output: US Letter paper instead of A4.
    #[arg(long)]
    pub letter: bool,
    /// PDF output: the standard to meet (ua1, a2b, a2u, a3b, a2b+ua1); a document that cannot
    /// is an error naming why. Without it the PDF is tagged PDF 1.7.
    #[arg(long, value_name = "STANDARD", value_parser = parse_pdf_standard)]
    pub pdf_standard: Option<sdconv::export::pdf::PdfStandard>,
    /// PDF output: hyphenate words with their language's patterns even when the document
    /// does not ask for it (Word's automatic hyphenation turns it on by itself).
    #[arg(long)]
    pub hyphenate: bool,
}

/// `--pdf-standard`'s value.
fn parse_pdf_standard(s: &str) -> Result<sdconv::export::pdf::PdfStandard, String> {
    s.parse()
}

impl WordArgs {
    /// Whether any flag that chooses captions or directories was given.
    fn any_setting(&self) -> bool {
        self.image_caption
            || self.table_caption
            || self.text_toc
            || self.image_toc
            || self.table_toc
    }
}

/// What every writer shows, whatever the format.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// Tracked changes: `all` shows insertions and deletions marked, `accept` applies them,
    /// `reject` undoes them (pandoc's --track-changes).
    #[arg(long, value_name = "MODE", default_value = "all", value_parser = parse_track_changes)]
    pub track_changes: sdconv::TrackChanges,
    /// Markdown output: `auto` writes a pipe table where a table is a plain grid and an HTML
    /// table (with colspan/rowspan) where it is not; `html` and `gfm` always write one kind.
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = parse_tables)]
    pub tables: markdown::Tables,
    /// Markdown output: write comments as footnotes after the text they are on (other formats
    /// always keep them).
    #[arg(long)]
    pub comments: bool,
    /// Markdown output and the mammoth HTML flavor: write the page header before the text and
    /// the footer after it.
    #[arg(long)]
    pub headers_footers: bool,
    /// Markdown output: the line written for a page break, e.g. `<!-- pagebreak -->` to cut the
    /// text into chunks (default: a thematic break, `---`).
    #[arg(long, value_name = "LINE")]
    pub page_breaks: Option<String>,
    /// HTML output: `page` (a whole page and its stylesheet), `mammoth` (the clean fragment
    /// mammoth writes, Word styles matched by --style-map; --headers-footers adds the page
    /// header and footer) or `mammoth-text` (mammoth's extractRawText: each paragraph's text
    /// and a blank line).
    #[arg(long, value_name = "FLAVOR", value_enum, default_value = "page")]
    pub html_flavor: HtmlFlavor,
    /// HTML output in the mammoth flavor: a file of mammoth style map rules
    /// (`p[style-name='Warning'] => div.warning > p:fresh`), tried before mammoth's defaults.
    #[arg(long, value_name = "FILE")]
    pub style_map: Option<PathBuf>,
    /// HTML output in the mammoth flavor: leave out mammoth's default style map.
    #[arg(long)]
    pub no_default_style_map: bool,
    /// HTML output in the mammoth flavor: keep empty paragraphs as `<p></p>`.
    #[arg(long)]
    pub keep_empty_paragraphs: bool,
    /// HTML output in the mammoth flavor: put PREFIX before every id written.
    #[arg(long, value_name = "PREFIX")]
    pub id_prefix: Option<String>,
}

/// What `--html-flavor` chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HtmlFlavor {
    /// A whole page with its stylesheet.
    Page,
    /// mammoth's clean fragment.
    Mammoth,
    /// mammoth's raw text.
    MammothText,
}

fn parse_tables(kind: &str) -> Result<markdown::Tables, String> {
    markdown::Tables::parse(kind)
        .ok_or_else(|| format!("unknown table kind {kind:?} (known: auto, html, gfm)"))
}

fn parse_track_changes(mode: &str) -> Result<sdconv::TrackChanges, String> {
    sdconv::TrackChanges::parse(mode)
        .ok_or_else(|| format!("unknown mode {mode:?} (known: all, accept, reject)"))
}

/// What `sdconv convert` was asked to do.
#[derive(Debug)]
pub struct Args {
    pub word: WordArgs,
    pub export: ExportArgs,
    pub input: PathBuf,
    pub output: Option<PathBuf>,
    pub from: Option<Format>,
    pub to: Option<Format>,
    pub warnings: WarningStyle,
    pub style_mapping: Option<PathBuf>,
    pub language: Option<Language>,
    pub magic: Option<String>,
    pub routines: Vec<String>,
}

/// Converts the input to the output format.
pub fn run(args: &Args) -> Result<(), Failure> {
    // Settle the command line before touching any file.
    let output = args.output.as_deref().filter(|p| *p != Path::new("-"));
    let to = output_format(args.to, args.output.as_deref())?;
    let mut options = Options::from_args(&OptionArgs {
        style_mapping: args.style_mapping.as_deref(),
        language: args.language,
        magic: args.magic.as_deref(),
        routines: &args.routines,
        word: &args.word,
        export: &args.export,
    })?;
    let input = map_input(&args.input)?;
    // An HTML folder or Markdown with its images/ from a Word file: its pictures are inflated
    // into files on the other cores while this one reads the text (see `prefetch`).
    let ahead = match output {
        Some(path)
            if (to == Format::Markdown || (to == Format::Html && !has_extension(path, "zip")))
                && input_format(&input, args.from, &args.input).ok() == Some(Format::Word) =>
        {
            prefetch::Job::new(
                &input,
                path.parent().unwrap_or(Path::new("")),
                &options.import.limits,
            )
        }
        _ => None,
    };
    if ahead.is_some() {
        // The other cores inflate pictures meanwhile: a second parser would only compete.
        options.import.docx = options.import.docx.clone().with_parse_on_one_core(true);
    } else if to.inlines_pictures() {
        // Every picture goes into the page as base64: the reader inflates them on its picture
        // thread while it builds the tree, instead of the writer after it.
        options.import.docx = options.import.docx.clone().with_inflate_pictures(true);
    }
    if matches!(to, Format::Word | Format::Pdf) {
        // Both lay the text out (Word for its lists' page numbers): the fonts are read on a
        // thread of their own meanwhile, off the pool the reader uses.
        // Without the thread, the layout reads them itself.
        let _ = std::thread::Builder::new().spawn(sdconv::export::warm_up);
    }
    let helpers =
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1));
    std::thread::scope(|scope| {
        let prefetch = ahead.as_ref().map(|job| job.start(scope, helpers));
        let converted = match convert(&input, &args.input, args.from, to, output, false, &options) {
            Ok(converted) => converted,
            Err(failed) => {
                if let Some(job) = &ahead {
                    job.cancel();
                }
                // Joined here, so a worker's panic cannot turn into the scope's.
                if let Some(prefetch) = prefetch {
                    prefetch.finish();
                }
                // Warnings gathered so far are worth seeing even when the conversion then fails.
                print_warnings(&failed.warnings, args.warnings);
                return Err(failed.failure);
            }
        };
        let prefetched = prefetch.map(prefetch::Prefetch::finish);
        let mut warnings = converted.warnings;
        let files = converted.value;
        let written = match output {
            // Pictures that turn out broken while written are warnings too: printed with the rest.
            Some(path) => write_files(path, &files, prefetched.as_ref(), &|item| {
                release_picture(&input, item)
            })
            .map(|more| warnings.extend(more)),
            None => match files.first() {
                Some((_, Content::Bytes(bytes))) => write_stdout(bytes),
                // Pictures never come first, and there is always a first file.
                _ => write_stdout(&[]),
            },
        };
        print_warnings(&warnings, args.warnings);
        written
    })
}

/// The conversion options every command that converts takes (`convert` and `batch`), as given
/// on the command line.
pub struct OptionArgs<'a> {
    /// `--style-mapping FILE`.
    pub style_mapping: Option<&'a Path>,
    /// `--language`.
    pub language: Option<Language>,
    /// `--magic KEY[|KEY…]`.
    pub magic: Option<&'a str>,
    /// `--routines KEY,KEY…`.
    pub routines: &'a [String],
    /// The Word export flags.
    pub word: &'a WordArgs,
    /// The flags every writer honours.
    pub export: &'a ExportArgs,
}

/// The conversion options, built once (files named by options read, settings checked) and then
/// used for any number of documents, from any number of threads.
pub struct Options {
    import: ImportOptions,
    /// Every writer's options and `--track-changes`, as the engine takes them (the mammoth
    /// flavor of `--html-flavor` in `export.html.mammoth`).
    export: ExportOptions,
}

impl Options {
    /// Reads the files the options name and checks the combination.
    pub fn from_args(args: &OptionArgs<'_>) -> Result<Self, Failure> {
        let mut import = ImportOptions::default();
        if let Some(path) = args.style_mapping {
            let json = std::fs::read_to_string(path).map_err(|e| {
                Failure::convert(path.display().to_string(), format!("cannot read: {e}"))
            })?;
            let mapping = StyleMapping::from_json(&json)
                .map_err(|e| Failure::convert(path.display().to_string(), e))?;
            import.docx = import.docx.with_style_mapping(mapping);
        }
        import.magic = args.magic.map(str::to_owned);
        import.routines = args.routines.to_vec();
        for dir in &args.word.font_dir {
            register_fonts(dir)?;
        }
        let mammoth = mammoth_options(args.export)?;
        if mammoth.is_some() {
            // mammoth's style map matches Word's own style names and ids.
            import.docx = import.docx.clone().with_word_refs(true);
        }
        let word = word_options(args.word, args.language)?;
        let mut export = ExportOptions::default();
        export.track_changes = args.export.track_changes;
        export.html.language = args.language;
        export.html.mammoth = mammoth;
        export.parsx.language = args.language;
        // The PDF writer takes the Word settings as they are.
        export.pdf = pdf::PdfOptions::new(word.settings)
            .with_paper(if args.word.letter {
                pdf::Paper::Letter
            } else {
                pdf::Paper::A4
            })
            .with_standard(args.word.pdf_standard.unwrap_or_default())
            .with_hyphenation(args.word.hyphenate);
        export.word = word;
        export.markdown = markdown_options(args.export, args.language)?;
        Ok(Options { import, export })
    }
}

/// Registers every font file in `dir` (not its sub-folders) with the engine's font book, in
/// name order. A file that is no font fails, naming it: a font asked for by name that cannot
/// be used would change the output silently.
fn register_fonts(dir: &Path) -> Result<(), Failure> {
    let failed = |e: String| Failure::convert(dir.display().to_string(), e);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| failed(format!("cannot read the font folder: {e}")))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                matches!(
                    e.to_ascii_lowercase().as_str(),
                    "ttf" | "otf" | "ttc" | "otc"
                )
            })
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(failed(
            "no .ttf, .otf or .ttc file in the font folder".to_string(),
        ));
    }
    for file in files {
        let fail = |e: String| Failure::convert(file.display().to_string(), e);
        let meta = std::fs::metadata(&file).map_err(|e| fail(format!("cannot read: {e}")))?;
        if meta.len() > sdconv::fonts::MAX_FONT_BYTES as u64 {
            return Err(fail(format!(
                "font file of {} bytes is over the limit of {}",
                meta.len(),
                sdconv::fonts::MAX_FONT_BYTES
            )));
        }
        let bytes = std::fs::read(&file).map_err(|e| fail(format!("cannot read: {e}")))?;
        sdconv::fonts::register(bytes).map_err(|e| fail(e.to_string()))?;
    }
    Ok(())
}

/// The mammoth flavor's options from the command line; `None` for the page flavor.
fn mammoth_options(args: &ExportArgs) -> Result<Option<html::mammoth::MammothOptions>, Failure> {
    if args.html_flavor == HtmlFlavor::Page {
        return Ok(None);
    }
    let mut opts = html::mammoth::MammothOptions::default()
        .with_default_style_map(!args.no_default_style_map)
        .with_ignore_empty_paragraphs(!args.keep_empty_paragraphs)
        .with_headers_footers(args.headers_footers)
        .with_raw_text(args.html_flavor == HtmlFlavor::MammothText);
    if let Some(prefix) = &args.id_prefix {
        opts = opts.with_id_prefix(prefix.clone());
    }
    if let Some(path) = &args.style_map {
        let text = std::fs::read_to_string(path).map_err(|e| {
            Failure::convert(path.display().to_string(), format!("cannot read: {e}"))
        })?;
        opts = opts.with_style_map(&text);
    }
    Ok(Some(opts))
}

/// The Markdown writer's options from the command line.
fn markdown_options(
    args: &ExportArgs,
    language: Option<Language>,
) -> Result<markdown::MarkdownOptions, Failure> {
    let mut opts = markdown::MarkdownOptions::default()
        .with_tables(args.tables)
        .with_comments(args.comments)
        .with_headers_footers(args.headers_footers);
    opts.language = language;
    if let Some(line) = &args.page_breaks {
        // One line: a marker with a line break in it would not be found again as one.
        if line.trim().is_empty() || line.contains(['\n', '\r']) {
            return Err(Failure::Usage(
                "--page-breaks wants one non-empty line".to_string(),
            ));
        }
        opts = opts.with_page_breaks(line.clone());
    }
    Ok(opts)
}

/// A conversion that failed, with the warnings gathered before it did.
pub struct Failed {
    /// What failed.
    pub failure: Failure,
    /// The warnings so far.
    pub warnings: Vec<Warning>,
}

impl From<Failure> for Failed {
    fn from(failure: Failure) -> Self {
        Failed {
            failure,
            warnings: Vec::new(),
        }
    }
}

/// Converts one input read whole (`path` is where it came from: its extension and, for
/// Markdown, the folder its images are read from) to `to`. `output` is where the result will be
/// written (`None`: standard output), which decides between the multi-file and the zip form of
/// `html` and `markdown`. A one-file output is written here, into a staged file
/// ([`Staged`]) that [`write_files`] puts in place: into a new hidden file beside `output`, or
/// with `direct` into `output` itself (a temporary name the caller made). Everything else is
/// only written by [`write_files`].
pub fn convert(
    input: &Input,
    path: &Path,
    from: Option<Format>,
    to: Format,
    output: Option<&Path>,
    direct: bool,
    options: &Options,
) -> Result<sdconv::Converted<Files>, Failed> {
    let from = input_format(input, from, path)?;
    let import_options = &options.import;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    // Shared: a Word or sd.xml input's pictures stay deflated inside these bytes; a Markdown
    // input's pictures are read from beside it.
    let imported = sdconv::import_with(from, input.bytes.clone(), import_options, &mut |r| {
        read_beside(&base, r)
    })
    .map_err(|e| Failure::convert(&input.name, e))?;
    let mut warnings = imported.warnings;
    // Prepared by the engine as `sdconv::export` does, so the folder outputs written below
    // without it agree; the options returned write the prepared tree as it is.
    let (doc, export_options) = options.export.prepare_owned(imported.value);

    let exported = export(&doc, to, output, direct, &export_options);
    // Freeing a large tree is tens of thousands of small frees (8 ms for a 564-page document):
    // done on the pool while the caller writes the files.
    rayon::spawn(move || drop(doc));
    match exported {
        Ok(out) => {
            warnings.extend(out.warnings);
            Ok(sdconv::Converted {
                value: out.value,
                warnings,
            })
        }
        Err(e) => Err(Failed {
            failure: Failure::convert(&input.name, e),
            warnings,
        }),
    }
}

/// Hands back the input pages a written picture was read from (see [`Input::release`]).
fn release_picture(input: &Input, item: &sdconv::ast::MediaItem) {
    match item.stored() {
        Some(raw) => {
            if let Some(stored) = raw.stored_slice() {
                input.release(&stored);
            }
        }
        None => {
            if let Ok(bytes) = item.bytes() {
                input.release(&bytes);
            }
        }
    }
}

/// The output as files: `(path relative to the output's folder, content)`, the main one first
/// (its name is the output path itself, written as `""`).
pub type Files = Vec<(String, Content)>;

/// What an output file holds.
pub enum Content {
    /// Bytes in memory.
    Bytes(bytes::Bytes),
    /// A picture of the tree, written straight from its media: one still deflated as its source
    /// stored it is inflated into the file as it is written, never held whole in memory.
    Picture(sdconv::ast::MediaItem),
    /// A one-file output already written to disk, to be moved into place.
    Staged(Staged),
}

impl Content {
    /// The length in bytes.
    pub fn byte_len(&self) -> u64 {
        match self {
            Content::Bytes(b) => b.len() as u64,
            Content::Picture(item) => item.size as u64,
            Content::Staged(staged) => staged.len(),
        }
    }
}

/// The Word writer's options from the flags: `--settings` first, single flags switch on top.
/// With neither, the output keeps what the document has: its captions are shown (the API's
/// explicit settings default to off, but a command-line user who gives none expects to keep
/// them); directories come from the tree's own directory blocks.
fn word_options(
    args: &WordArgs,
    language: Option<Language>,
) -> Result<sdconv::export::word::WordOptions, Failure> {
    use sdconv::export::word::{PagedSettings, WordOptions, WordTemplates};
    let mut settings = match &args.settings {
        Some(path) => {
            let name = path.display().to_string();
            let json = std::fs::read_to_string(path)
                .map_err(|e| Failure::convert(&name, format!("cannot read: {e}")))?;
            PagedSettings::from_json(&json).map_err(|e| Failure::convert(&name, e))?
        }
        None if !args.any_setting() => PagedSettings::new(language.unwrap_or_default())
            .with_image_caption(true)
            .with_table_caption(true),
        None => PagedSettings::new(language.unwrap_or_default()),
    };
    if let (Some(language), Some(_)) = (language, &args.settings) {
        settings.language = language;
    }
    settings = settings
        .with_image_caption(settings.image_caption || args.image_caption)
        .with_table_caption(settings.table_caption || args.table_caption)
        .with_text_toc(settings.text_toc || args.text_toc)
        .with_image_toc(settings.image_toc || args.image_toc)
        .with_table_toc(settings.table_toc || args.table_toc)
        .with_compressed_images(settings.compressed_images || args.compressed_images);
    settings
        .validate()
        .map_err(|e| Failure::convert("settings", e))?;
    let mut options = WordOptions::default();
    if let Some(id) = &args.template {
        options.template_id = id.clone();
    }
    if let Some(dir) = &args.template_dir {
        let mut templates = WordTemplates::builtin().clone();
        templates
            .load_dir(dir)
            .map_err(|e| Failure::convert(dir.display().to_string(), e))?;
        options.templates = Some(std::sync::Arc::new(templates));
    }
    options.settings = settings;
    Ok(options)
}

fn export(
    doc: &Document,
    to: Format,
    output: Option<&Path>,
    direct: bool,
    opts: &ExportOptions,
) -> sdconv::Result<sdconv::Converted<Files>> {
    let is_zip = output.is_none_or(|p| has_extension(p, "zip"));
    if let (Some(m), Format::Html | Format::HtmlAllInOne) = (&opts.html.mammoth, to) {
        // One file either way: the fragment holds its pictures.
        let out = html::mammoth::write(doc, m);
        return Ok(out.map(|text| vec![(String::new(), Content::Bytes(text.into_bytes().into()))]));
    }
    match to {
        Format::Html if !is_zip => {
            Ok(html::write_parts(doc, &opts.html).map(|parts| {
                // The page takes the output's own name; the rest goes beside it.
                let mut files = vec![
                    (String::new(), Content::Bytes(parts.html.into())),
                    (
                        "style.css".to_string(),
                        Content::Bytes(bytes::Bytes::from_static(html::STYLESHEET.as_bytes())),
                    ),
                ];
                files.extend(
                    parts
                        .images
                        .into_iter()
                        .map(|(name, item)| (name, Content::Picture(item))),
                );
                files
            }))
        }
        Format::Markdown if output.is_some() => {
            // As the HTML folder: pictures written straight from the tree (or moved into
            // place, inflated ahead), in parallel.
            Ok(markdown::write_parts(doc, &opts.markdown).map(|out| {
                let mut files = vec![(String::new(), Content::Bytes(out.text.into()))];
                files.extend(
                    out.images
                        .into_iter()
                        .map(|(name, item)| (name, Content::Picture(item))),
                );
                files
            }))
        }
        _ => match output {
            Some(path) if direct || crate::staged::can_stage(path) => {
                Staged::write(path, direct, |sink| sdconv::export_to(doc, to, opts, sink))
                    .map(|out| out.map(|staged| vec![(String::new(), Content::Staged(staged))]))
            }
            // Standard output, or a target written through (a device, a pipe, a link).
            _ => sdconv::export(doc, to, opts)
                .map(|out| out.map(|bytes| vec![(String::new(), Content::Bytes(bytes.into()))])),
        },
    }
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Reads an image a Markdown input refers to, from the input's folder. Only plain relative paths
/// inside that folder are followed: a document cannot make the CLI read `/etc/passwd` or `../x`.
fn read_beside(base: &Path, reference: &str) -> Option<bytes::Bytes> {
    let rel = Path::new(reference);
    if !rel
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return None;
    }
    std::fs::read(base.join(rel)).ok().map(bytes::Bytes::from)
}

/// Prints warnings on stderr: one line each, or one JSON array (`[]` when there are none, so a
/// script can always parse it).
pub fn print_warnings(warnings: &[Warning], style: WarningStyle) {
    match style {
        WarningStyle::Text => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
        }
        WarningStyle::Json => {
            // Serialising plain strings and enums cannot fail.
            let json = serde_json::to_string(warnings).unwrap_or_else(|_| "[]".into());
            eprintln!("{json}");
        }
    }
}

/// Writes the main file at `path` and the others beside it (their names were checked by the
/// writers: relative, no `..`), in parallel. Everything but the pictures exists in memory or in
/// a staged file before this runs, so a failed conversion never truncates an existing file. A
/// picture that does not inflate is left out and returned as a warning; a file that cannot be
/// written is the failure.
/// A picture written `ahead` is moved into place instead (a new file: an existing one's mode
/// and links are not kept). `after_picture` runs after each picture written here, not after
/// those moved.
pub fn write_files(
    path: &Path,
    files: &Files,
    ahead: Option<&Prefetched<'_>>,
    after_picture: &(dyn Fn(&sdconv::ast::MediaItem) + Sync),
) -> Result<Vec<Warning>, Failure> {
    use rayon::prelude::*;
    let folder = path.parent().unwrap_or(Path::new(""));
    let targets: Vec<PathBuf> = files
        .iter()
        .map(|(name, _)| {
            if name.is_empty() {
                path.to_path_buf()
            } else {
                folder.join(name)
            }
        })
        .collect();
    let fail = |target: &Path, e: &dyn std::fmt::Display| {
        Failure::convert(target.display().to_string(), format!("cannot write: {e}"))
    };
    for target in &targets {
        if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| fail(target, &e))?;
        }
    }
    let written: Vec<Result<Option<Warning>, Failure>> = files
        .par_iter()
        .zip(&targets)
        .map(|((_, content), target)| match content {
            Content::Bytes(bytes) => std::fs::write(target, bytes)
                .map(|()| None)
                .map_err(|e| fail(target, &e)),
            Content::Staged(staged) => staged
                .put_in_place(target)
                .map(|()| None)
                .map_err(|e| fail(target, &e)),
            Content::Picture(item) => {
                if let Some(file) = ahead.and_then(|a| a.take(item)) {
                    // Unlinked first: ext4 flushes a file renamed over another to disk at once
                    // (its replace-by-rename safeguard), 25 ms for the pictures of an 18 MB
                    // file written again into the same folder.
                    let _ = std::fs::remove_file(target);
                    if std::fs::rename(&file, target).is_ok() {
                        return Ok(None);
                    }
                }
                let file = std::fs::File::create(target).map_err(|e| fail(target, &e))?;
                let mut out =
                    std::io::BufWriter::with_capacity(sdconv::internal::archive::COPY_PIECE, file);
                let written = item.write_to(&mut out).and_then(|()| {
                    out.flush().map_err(|e| sdconv::Error::Write {
                        format: "file",
                        message: e.to_string(),
                    })
                });
                after_picture(item);
                match written {
                    Ok(()) => Ok(None),
                    Err(e @ sdconv::Error::Write { .. }) => Err(fail(target, &e)),
                    Err(e) => {
                        // The picture itself is broken: no half-written file stays behind.
                        drop(out);
                        let _ = std::fs::remove_file(target);
                        Ok(Some(Warning::new(
                            sdconv::WarningKind::MissingMedia,
                            format!("{e}; {} is not written", target.display()),
                            sdconv::Location::default().element("img@src"),
                        )))
                    }
                }
            }
        })
        .collect();
    let mut warnings = Vec::new();
    for w in written {
        warnings.extend(w?);
    }
    Ok(warnings)
}

fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        // The reader went away (`sdconv … | head`): nothing left to do, not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::convert("<stdout>", format!("cannot write: {e}"))),
    }
}
