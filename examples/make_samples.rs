//! Writes `samples/sample.sdxml.zip` (the README's first command reads it) from
//! `sdconv::sample::small_document()` through the sd.xml writer.
//!
//! Run from anywhere: `cargo run --example make_samples`. The output is deterministic, so running
//! it again changes nothing unless the writer or the sample changed.

use std::path::Path;
use std::process::ExitCode;

use sdconv::{ExportOptions, Format};

fn main() -> ExitCode {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/sample.sdxml.zip");
    let doc = sdconv::sample::small_document();
    let out = match sdconv::export(&doc, Format::Sdxml, &ExportOptions::default()) {
        Ok(out) => out,
        Err(e) => {
            eprintln!("make_samples: {e}");
            return ExitCode::FAILURE;
        }
    };
    for w in &out.warnings {
        eprintln!("warning: {w}");
    }
    if let Err(e) = std::fs::write(&path, &out.value) {
        eprintln!("make_samples: {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("wrote {} ({} bytes)", path.display(), out.value.len());
    ExitCode::SUCCESS
}
