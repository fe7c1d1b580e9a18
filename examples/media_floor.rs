//! The whole-process floor beside `sdconv convert INPUT.docx -o OUTPUT`: maps the Word file as
//! the CLI does, reads every XML part and writes the package again into OUTPUT, the XML
//! deflated and the pictures copied as stored (`benches/floor/mod.rs`); with `--pictures`, only
//! the pictures, as any conversion to a zip format copies them before it writes its own XML.
//! No conversion that reads the text and keeps the pictures compressed can take less time.
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
    let (what, paths) = match args.split_last() {
        Some((last, rest)) if last == "--pictures" => (Output::Pictures, rest),
        _ => (Output::Package, &args[..]),
    };
    let [input, output] = paths else {
        return Err("usage: media_floor INPUT.docx OUTPUT.zip [--pictures]".into());
    };
    let file = std::fs::File::open(input)?;
    // SAFETY: as in `sdconv convert`, the file is only read and must not be truncated while
    // this short-lived process runs.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    let bytes = bytes::Bytes::from_owner(map);
    let sink = BufWriter::with_capacity(64 * 1024, std::fs::File::create(output)?);
    let (events, sink) = floor::floor(&bytes, Some((sink, what)))?;
    // The last buffered bytes: a failure to write them is a failure of the run.
    if let Some(sink) = sink {
        sink.into_inner()?;
    }
    eprintln!("{events} XML events");
    Ok(())
}
