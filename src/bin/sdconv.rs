//! The `sdconv` command: convert documents between formats and inspect them.
//!
//! Only this binary touches the file system; the library takes and returns bytes. Exit codes:
//! 0 success, 1 a conversion failed (one line on stderr naming the file and the problem),
//! 2 the command line is wrong (clap's own code for bad arguments).

// A crate root resolves `mod x;` beside itself (src/bin/x.rs), where Cargo would take the file
// for another binary: the modules live in src/bin/sdconv/ and are named by path.
#[path = "sdconv/batch.rs"]
mod batch;
#[path = "sdconv/batch_inputs.rs"]
mod batch_inputs;
#[path = "sdconv/batch_progress.rs"]
mod batch_progress;
#[path = "sdconv/batch_report.rs"]
mod batch_report;
#[path = "sdconv/batch_run.rs"]
mod batch_run;
#[path = "sdconv/convert.rs"]
mod convert;
#[path = "sdconv/detect.rs"]
mod detect;
#[path = "sdconv/inspect.rs"]
mod inspect;
#[path = "sdconv/prefetch.rs"]
mod prefetch;
#[path = "sdconv/staged.rs"]
mod staged;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum, error::ErrorKind};
use sdconv::Format;

const FORMATS_HELP: &str = "\
Formats (as the partner API spells them; aliases in brackets):
  sdxml [sdox]     the service's zip of sd.xml + images/
  parsx            parsX 4 zip (output only)
  html             HTML page + images
  html_all_in_one  one self-contained HTML file
  word [docx]      Word .docx
  pdf              PDF (output only)
  markdown [md]    Markdown
  json             the document tree's JSON dump
A format this build cannot convert yet fails with \"format X is not available yet\" (exit 1).

Exit codes: 0 success, 1 conversion error, 2 usage error.";

#[derive(Debug, Parser)]
#[command(
    name = "sdconv",
    version,
    about = "Convert documents between Word, sd.xml, HTML, PDF, Markdown and more",
    after_help = FORMATS_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Convert INPUT to another format.
    ///
    /// The input format is taken from --from, else from INPUT's extension; a .zip (or stdin) is
    /// recognised by its content (sd.xml inside: sdxml; [Content_Types].xml: word). The output
    /// format is taken from --to, else from OUTPUT's extension.
    #[command(after_help = FORMATS_HELP)]
    Convert {
        /// The document to read; `-` reads standard input.
        input: PathBuf,
        /// Where to write; `-` or nothing writes to standard output.
        #[arg(short, long, value_name = "OUTPUT")]
        output: Option<PathBuf>,
        /// Input format (default: from INPUT's extension or content).
        #[arg(long, value_name = "FMT", value_parser = parse_format)]
        from: Option<Format>,
        /// Output format (default: from OUTPUT's extension).
        #[arg(long, value_name = "FMT", value_parser = parse_format)]
        to: Option<Format>,
        /// How to print conversion warnings on stderr.
        #[arg(long, value_enum, default_value_t = WarningStyle::Text)]
        warnings: WarningStyle,
        /// Word import: the API's styleMapping JSON object (Word style name -> {textType, level}).
        #[arg(long, value_name = "FILE")]
        style_mapping: Option<PathBuf>,
        /// Language of generated words (captions, directory titles; parsX: also its xml:lang):
        /// de_DE, en_EN, ru_RU or fr_CA (default: the document's language).
        #[arg(long, value_name = "LANG", value_parser = parse_language)]
        language: Option<sdconv::lang::Language>,
        /// Word import: magic style set key(s), pipe-combinable (`contract_1-1-1|numbered-headers`);
        /// a --style-mapping is then ignored.
        #[arg(long, value_name = "KEY")]
        magic: Option<String>,
        /// Cleanup routines to apply after reading, comma-separated, in order.
        #[arg(long, value_name = "KEYS", value_delimiter = ',')]
        routines: Vec<String>,
        #[command(flatten)]
        word: convert::WordArgs,
        #[command(flatten)]
        export: convert::ExportArgs,
    },
    /// Convert many files in one process, in parallel, into an output folder.
    ///
    /// The output tree mirrors the input: a folder's files keep their place below it, a file
    /// named directly goes to the top; each output is `<stem>.<ext>` (`html` and `markdown`: a
    /// folder per document). Exit codes: 0 every file converted (or kept), 1 some failed,
    /// 2 usage error.
    #[command(after_help = FORMATS_HELP)]
    Batch {
        /// Files and folders to convert (folders are recursed); `-` reads a list of paths from
        /// standard input, one a line.
        #[arg(required = true, value_name = "INPUT")]
        inputs: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_name = "FMT", value_parser = parse_format)]
        to: Format,
        /// The folder the outputs go to (created when missing).
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
        /// Input format (default: each file's extension or content).
        #[arg(long, value_name = "FMT", value_parser = parse_format)]
        from: Option<Format>,
        /// Take only files found in folders that match (repeatable; a glob without `/` matches
        /// the file name, one with `/` the path below the folder; default: the formats sdconv
        /// reads).
        #[arg(long, value_name = "GLOB")]
        include: Vec<String>,
        /// Leave out files found in folders that match (repeatable; as --include).
        #[arg(long, value_name = "GLOB")]
        exclude: Vec<String>,
        /// Files converted at once (default: all cores); a document's own picture work runs
        /// on the same threads.
        #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
        jobs: Option<u32>,
        /// Give up on a file after this many seconds (it is reported as failed).
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
        timeout: Option<std::time::Duration>,
        /// Replace outputs that exist (default: keep them and skip the input).
        #[arg(long, conflicts_with = "resume")]
        force: bool,
        /// Convert again inputs newer than their output; skip the rest.
        #[arg(long)]
        resume: bool,
        /// No progress display and no summary (failures are still printed).
        #[arg(short, long)]
        quiet: bool,
        /// Write a report: FILE.json (per file and totals) or FILE.html (one page to read);
        /// repeatable.
        #[arg(long, value_name = "FILE")]
        report: Vec<PathBuf>,
        /// Word import: the API's styleMapping JSON object.
        #[arg(long, value_name = "FILE")]
        style_mapping: Option<PathBuf>,
        /// Language of generated words: de_DE, en_EN, ru_RU or fr_CA.
        #[arg(long, value_name = "LANG", value_parser = parse_language)]
        language: Option<sdconv::lang::Language>,
        /// Word import: magic style set key(s), pipe-combinable.
        #[arg(long, value_name = "KEY")]
        magic: Option<String>,
        /// Cleanup routines to apply after reading, comma-separated, in order.
        #[arg(long, value_name = "KEYS", value_delimiter = ',')]
        routines: Vec<String>,
        #[command(flatten)]
        word: convert::WordArgs,
        #[command(flatten)]
        export: convert::ExportArgs,
    },
    /// Print a template catalog: `word` (`GET /partner/templates/word`) or `sdox`
    /// (`GET /partner/templates/sdox`).
    Templates {
        /// Which catalog.
        #[arg(value_enum)]
        kind: TemplateKind,
        /// Print the API's JSON instead of a list.
        #[arg(long)]
        json: bool,
    },
    /// Print the magic style sets (`GET /partner/imports/word/mapping`).
    StyleSets {
        /// Print the API's JSON (`[{key, name}]`) instead of a list.
        #[arg(long)]
        json: bool,
    },
    /// Print the cleanup routines (`GET /partner/routines`).
    Routines {
        /// Print the API's JSON instead of a list.
        #[arg(long)]
        json: bool,
    },
    /// Print a document's metadata, block counts, validation result and warnings.
    #[command(after_help = FORMATS_HELP)]
    Inspect {
        /// The document to read; `-` reads standard input.
        input: PathBuf,
        /// Input format (default: from INPUT's extension or content).
        #[arg(long, value_name = "FMT", value_parser = parse_format)]
        from: Option<Format>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// The two template catalogs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TemplateKind {
    /// Word export templates.
    Word,
    /// sdox templates (documents to start from).
    Sdox,
}

/// How `convert` prints warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum WarningStyle {
    /// One line each: `warning: <where>: <what>`.
    Text,
    /// The whole list as one JSON array.
    Json,
}

fn parse_format(name: &str) -> Result<Format, String> {
    Format::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!(
            "unknown format {name:?} (known: {}; aliases docx, md, sdox)",
            names.join(", ")
        )
    })
}

/// Prints a catalog: the API's JSON as it is, or one `key  English name` line per entry.
fn catalog(json: &str, raw: bool) -> Result<(), Failure> {
    if raw {
        println!("{json}");
        return Ok(());
    }
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(json).map_err(|e| Failure::convert("catalog", e))?;
    for entry in entries {
        // Style sets and routines have `key` and localised names; templates `id` and a name.
        let key = entry["key"]
            .as_str()
            .or(entry["id"].as_str())
            .unwrap_or_default();
        let name = entry["name"]["en_EN"]
            .as_str()
            .or(entry["name"].as_str())
            .unwrap_or_default();
        println!("{key:<24} {name}");
    }
    Ok(())
}

fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s.is_finite() && s < 1e9 => Ok(std::time::Duration::from_secs_f64(s)),
        _ => Err(format!("{text:?} is not a positive number of seconds")),
    }
}

fn parse_language(code: &str) -> Result<sdconv::lang::Language, String> {
    sdconv::lang::Language::parse_api(code)
        .ok_or_else(|| format!("unknown language {code:?} (known: de_DE, en_EN, ru_RU, fr_CA)"))
}

/// Why a command failed.
#[derive(Debug)]
enum Failure {
    /// The command line cannot be carried out as given (exit 2).
    Usage(String),
    /// Reading, converting or writing failed (exit 1): the file concerned and the problem.
    Convert { file: String, message: String },
}

impl Failure {
    fn convert(file: impl Into<String>, message: impl ToString) -> Self {
        Failure::Convert {
            file: file.into(),
            message: message.to_string(),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (name, result) = match cli.command {
        Command::Convert {
            input,
            output,
            from,
            to,
            warnings,
            style_mapping,
            language,
            magic,
            routines,
            word,
            export,
        } => (
            "convert",
            convert::run(&convert::Args {
                word,
                export,
                input,
                output,
                from,
                to,
                warnings,
                style_mapping,
                language,
                magic,
                routines,
            }),
        ),
        Command::Batch {
            inputs,
            to,
            out_dir,
            from,
            include,
            exclude,
            jobs,
            timeout,
            force,
            resume,
            quiet,
            report,
            style_mapping,
            language,
            magic,
            routines,
            word,
            export,
        } => {
            let result = convert::Options::from_args(&convert::OptionArgs {
                style_mapping: style_mapping.as_deref(),
                language,
                magic: magic.as_deref(),
                routines: &routines,
                word: &word,
                export: &export,
            })
            .and_then(|options| {
                batch::run(batch::Args {
                    inputs,
                    to,
                    out_dir,
                    from,
                    include,
                    exclude,
                    jobs: jobs.map(|n| n as usize),
                    timeout,
                    force,
                    resume,
                    quiet,
                    reports: report,
                    options,
                })
            });
            match result {
                Ok(true) => ("batch", Ok(())),
                // Each failed file has had its line; the exit code says some failed.
                Ok(false) => return ExitCode::from(1),
                Err(failure) => ("batch", Err(failure)),
            }
        }
        Command::StyleSets { json } => {
            ("style-sets", catalog(&sdconv::magic::catalog_json(), json))
        }
        Command::Templates { kind, json } => {
            let catalog_json = match kind {
                TemplateKind::Word => sdconv::export::word::WordTemplates::builtin().catalog_json(),
                TemplateKind::Sdox => sdconv::export::word::sdox_catalog_json(),
            };
            ("templates", catalog(&catalog_json, json))
        }
        Command::Routines { json } => ("routines", catalog(&sdconv::cleanup::catalog_json(), json)),
        Command::Inspect { input, from, json } => ("inspect", inspect::run(&input, from, json)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            // Let clap print it, with the subcommand's usage line, and exit 2 like its own errors.
            let mut cmd = Cli::command();
            cmd.build();
            match cmd.find_subcommand_mut(name) {
                Some(sub) => sub.error(ErrorKind::ArgumentConflict, message).exit(),
                None => cmd.error(ErrorKind::ArgumentConflict, message).exit(),
            }
        }
        Err(Failure::Convert { file, message }) => {
            // Exactly one line, whatever the message holds.
            let message = message.replace(['\r', '\n'], " ");
            eprintln!("sdconv: {file}: {message}");
            ExitCode::from(1)
        }
    }
}
