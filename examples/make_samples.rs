//! Writes the bundled samples from `sdconv::internal::sample::small_document()`:
//! `samples/sample.sdxml.zip` through the sd.xml writer and `samples/sample.docx` (the README's
//! first command turns it into HTML) through the Word writer, with captions and a table of
//! contents.
//!
//! Run from anywhere: `cargo run --example make_samples`. The output is deterministic, so running
//! it again changes nothing unless a writer or the sample changed (tests check that).

use std::path::Path;
use std::process::ExitCode;

use sdconv::export::word::{PagedSettings, WordOptions};
use sdconv::lang::Language;
use sdconv::{ExportOptions, Format};

/// The options the sample docx is written with (tests rebuild it the same way).
pub fn docx_options() -> ExportOptions {
    let mut options = ExportOptions::default();
    options.word = WordOptions::new(
        "report",
        PagedSettings::new(Language::En)
            .with_image_caption(true)
            .with_table_caption(true)
            .with_text_toc(true),
    );
    options
}

fn main() -> ExitCode {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let doc = sdconv::internal::sample::small_document();
    let jobs = [
        ("sample.sdxml.zip", Format::Sdxml, ExportOptions::default()),
        ("sample.docx", Format::Word, docx_options()),
    ];
    for (name, format, options) in jobs {
        let path = dir.join(name);
        let out = match sdconv::export(&doc, format, &options) {
            Ok(out) => out,
            Err(e) => {
                eprintln!("make_samples: {name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        for w in &out.warnings {
            eprintln!("warning: {name}: {w}");
        }
        if let Err(e) = std::fs::write(&path, &out.value) {
            eprintln!("make_samples: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {} ({} bytes)", path.display(), out.value.len());
    }
    ExitCode::SUCCESS
}
