//! The whole-process floor beside `sdconv convert INPUT.docx -o OUTPUT`: maps the Word file as
//! the CLI does, reads every XML part and writes the package again into OUTPUT, the XML
//! deflated and the pictures copied as stored (`benches/floor/mod.rs`); with `--pictures`, only
//! the pictures, as any conversion to a zip format copies them before it writes its own XML.
//! No conversion that reads the text and keeps the pictures compressed can take less time.
//!
//! With `--unpack`, OUTPUT is a folder and the package is written out into it as files, the
//! pictures inflated (the floor of the HTML folder and Markdown); with `--inline`, OUTPUT is one
//! file holding the XML and each picture inflated in base64 (the floor of the single-file HTML).
//!
//! ```sh
//! cargo build --release --example media_floor
//! hyperfine -N "target/release/examples/media_floor ../shared/bench/large.docx /tmp/floor.zip"
//! ```

#[path = "../benches/floor/mod.rs"]
mod floor;

use std::io::BufWriter;

use floor::Output;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let (mode, paths) = match args.split_last() {
        Some((last, rest)) if last.to_str().is_some_and(|m| m.starts_with("--")) => {
            (last.to_str(), rest)
        }
        _ => (None, &args[..]),
    };
    let [input, output] = paths else {
        return Err(
            "usage: media_floor INPUT.docx OUTPUT [--pictures | --unpack | --inline]".into(),
        );
    };
    let file = std::fs::File::open(input)?;
    // SAFETY: as in `sdconv convert`, the file is only read and must not be truncated while
    // this short-lived process runs.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    let bytes = bytes::Bytes::from_owner(map);
    let create = || -> std::io::Result<_> {
        Ok(BufWriter::with_capacity(
            64 * 1024,
            std::fs::File::create(output)?,
        ))
    };
    let events = match mode {
        Some("--unpack") => {
            std::fs::create_dir_all(output)?;
            floor::unpack(&bytes, std::path::Path::new(output))?
        }
        Some("--inline") => {
            let (events, sink) = floor::inline(&bytes, create()?)?;
            sink.into_inner()?;
            events
        }
        Some("--pictures") | None => {
            let what = if mode.is_some() {
                Output::Pictures
            } else {
                Output::Package
            };
            let (events, sink) = floor::floor(&bytes, Some((create()?, what)))?;
            // The last buffered bytes: a failure to write them is a failure of the run.
            if let Some(sink) = sink {
                sink.into_inner()?;
            }
            events
        }
        Some(other) => return Err(format!("unknown option {other}").into()),
    };
    eprintln!("{events} XML events");
    Ok(())
}
