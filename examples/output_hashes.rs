//! Converts each input to every format this build can write and lays the outputs (and each
//! conversion's warnings) out in a folder, so that `benches/output_hashes.sh` can hash them and
//! show that a change left every output byte alone.
//!
//! `cargo run --release --example output_hashes -- OUT_DIR INPUT...`; built with
//! `--no-default-features` it writes what a library user without the `pdf` feature gets.
//!
//! Besides each format with default options, Word (and PDF, when built) are written a second
//! time with every caption and directory on, so the table of contents and its page numbers are
//! covered.

use std::path::Path;
use std::process::ExitCode;

use sdconv::export::word::{PagedSettings, WordOptions};
use sdconv::lang::Language;
use sdconv::{Converted, ExportOptions, Format, ImportOptions};

/// Word/PDF settings with every caption and directory on.
fn all_settings() -> PagedSettings {
    PagedSettings::new(Language::En)
        .with_image_caption(true)
        .with_table_caption(true)
        .with_text_toc(true)
        .with_image_toc(true)
        .with_table_toc(true)
}

fn variants() -> Vec<(String, Format, ExportOptions)> {
    let mut out = Vec::new();
    for format in Format::ALL {
        let mut options = ExportOptions::default();
        if format == Format::Pdf && !cfg!(feature = "pdf") {
            continue;
        }
        out.push((format.to_string(), format, options.clone()));
        if format == Format::Word {
            options.word = WordOptions::new("report", all_settings());
            out.push(("word.toc".to_string(), format, options));
        }
    }
    #[cfg(feature = "pdf")]
    {
        let mut options = ExportOptions::default();
        options.pdf = sdconv::export::pdf::PdfOptions::new(all_settings());
        out.push(("pdf.toc".to_string(), Format::Pdf, options));
    }
    out
}

fn warnings_text<T>(c: &Converted<T>) -> String {
    c.warnings.iter().map(|w| format!("{w}\n")).collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out_dir, inputs)) = args.split_first() else {
        eprintln!("usage: output_hashes OUT_DIR INPUT...");
        return ExitCode::from(2);
    };
    let out_dir = Path::new(out_dir);
    if let Err(e) = std::fs::create_dir_all(out_dir) {
        eprintln!("{}: {e}", out_dir.display());
        return ExitCode::FAILURE;
    }
    let variants = variants();
    for input in inputs {
        let path = Path::new(input);
        let from = match path.extension().and_then(|e| e.to_str()) {
            Some("docx") => Format::Word,
            Some("zip") => Format::Sdxml,
            Some("md") => Format::Markdown,
            _ => continue,
        };
        // One flat folder: the input's path with its separators replaced names each output.
        let stem = input.trim_start_matches("./").replace(['/', '\\'], "__");
        let write = |name: String, bytes: &[u8]| {
            if let Err(e) = std::fs::write(out_dir.join(name), bytes) {
                eprintln!("{input}: {e}");
            }
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{input}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let doc = match sdconv::import_shared(from, bytes.into(), &ImportOptions::default()) {
            Ok(doc) => doc,
            Err(e) => {
                write(format!("{stem}.import-error"), e.to_string().as_bytes());
                continue;
            }
        };
        write(
            format!("{stem}.import-warnings"),
            warnings_text(&doc).as_bytes(),
        );
        for (name, format, options) in &variants {
            match sdconv::export(&doc.value, *format, options) {
                Ok(out) => {
                    write(format!("{stem}.{name}"), &out.value);
                    write(
                        format!("{stem}.{name}.warnings"),
                        warnings_text(&out).as_bytes(),
                    );
                }
                Err(e) => write(format!("{stem}.{name}.error"), e.to_string().as_bytes()),
            }
        }
    }
    ExitCode::SUCCESS
}
