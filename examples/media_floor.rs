//! The whole-process floor beside `sdconv convert INPUT.docx -o OUTPUT`: maps the Word file as
//! the CLI does, reads every XML part and writes the package again into OUTPUT, the XML
//! deflated and the pictures copied as stored (`benches/floor/mod.rs`). No conversion that
//! reads the text and keeps the pictures compressed can take less time.
//!
//! ```sh
//! cargo build --release --example media_floor
//! hyperfine -N "target/release/examples/media_floor ../shared/bench/large.docx /tmp/floor.zip"
//! ```

#[path = "../benches/floor/mod.rs"]
mod floor;

use std::io::BufWriter;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let (Some(input), Some(output)) = (args.next(), args.next()) else {
        return Err("usage: media_floor INPUT.docx OUTPUT.zip".into());
    };
    let file = std::fs::File::open(&input)?;
    // SAFETY: as in `sdconv convert`, the file is only read and must not be truncated while
    // this short-lived process runs.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    let bytes = bytes::Bytes::from_owner(map);
    let sink = BufWriter::with_capacity(64 * 1024, std::fs::File::create(&output)?);
    let (events, _) = floor::floor(&bytes, Some(sink))?;
    eprintln!("{events} XML events");
    Ok(())
}
