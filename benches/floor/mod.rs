//! The floor of a Word conversion that keeps its pictures compressed, made of the library's own
//! pieces: every XML part inflated and tokenised, and (when given a sink) the package written
//! again, each picture copied as it is stored and, unless only the pictures are asked for, each
//! XML part deflated at the zip writer's level (large ones in parallel, as the writers do).
//! The full repack is a docx → docx that changes nothing; the pictures-only form is what any
//! conversion to a zip format does before it writes its own XML.
//!
//! Shared by `benches/media.rs` (in memory) and `examples/media_floor.rs` (a whole process
//! writing a file, to set beside `sdconv convert`).

use std::io::{Seek, Write};

use bytes::Bytes;
use sdconv::internal::archive::{Compression, Source, ZipReader, ZipWriter};
use sdconv::internal::xml::XmlReader;
use sdconv::{Limits, Result};

/// What the floor writes into its sink, when it is given one.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// The pictures, copied as stored.
    Pictures,
    /// The whole package: the pictures and every XML part, deflated.
    Package,
}

/// Reads every XML part of the package `bytes` and, with `out`, writes what it says into its
/// sink. Returns the number of XML events and the sink.
pub fn floor<W: Write + Seek>(
    bytes: &Bytes,
    out: Option<(W, Output)>,
) -> Result<(usize, Option<W>)> {
    let limits = Limits::default();
    let mut r = ZipReader::from_source(Source::Shared(bytes.clone()), &limits)?;
    let (mut w, what) = match out {
        Some((sink, what)) => (Some(ZipWriter::on(sink)), what),
        None => (None, Output::Pictures),
    };
    let mut events = 0;
    // `read` takes the reader mutably: the names are copied once (116 short strings).
    for name in r.names().to_vec() {
        if name.ends_with('/') {
            continue;
        }
        if name.ends_with(".xml") || name.ends_with(".rels") {
            let data = r.read(&name)?;
            let mut x =
                XmlReader::new(sdconv::internal::xml::decode(&data, &name)?, &name, &limits);
            while !matches!(x.next_event()?, quick_xml::events::Event::Eof) {
                events += 1;
            }
            if let (Some(w), Output::Package) = (&mut w, what) {
                w.add(&name, &data, Compression::Deflate)?;
            }
        } else if let Some(w) = &mut w {
            w.add_raw(&name, &r.read_raw(&name)?)?;
        }
    }
    Ok((events, w.map(ZipWriter::finish_sink).transpose()?))
}
