//! The floor of a Word conversion that keeps its pictures compressed, made of the library's own
//! pieces: every XML part inflated and tokenised, and (when given a sink) the package written
//! again, each picture copied as it is stored and, unless only the pictures are asked for, each
//! XML part deflated at the zip writer's level (large ones in parallel, as the writers do).
//! The full repack is a docx → docx that changes nothing; the pictures-only form is what any
//! conversion to a zip format does before it writes its own XML.
//!
//! Outputs that hold their pictures inflated have floors of their own, which do what any such
//! conversion must on top of reading the text: [`unpack`] writes the package out as a folder
//! (each picture inflated into a file, as the HTML folder and Markdown write them), and
//! [`inline`] writes it as one file with each picture inflated and in base64 (the single-file
//! HTML page's data URIs).
//!
//! Shared by `benches/media.rs` (in memory) and `examples/media_floor.rs` (a whole process
//! writing a file, to set beside `sdconv convert`).

use std::io::{BufWriter, Seek, Write};
use std::path::Path;

use base64::Engine as _;
use bytes::Bytes;
use rayon::prelude::*;
use sdconv::internal::archive::{Compression, RawEntry, Source, ZipReader, ZipWriter};
use sdconv::internal::xml::XmlReader;
use sdconv::{Error, Limits, Result};

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
    let (mut r, xml, pictures) = open(bytes)?;
    let (mut w, what) = match out {
        Some((sink, what)) => (Some(ZipWriter::on(sink)), what),
        None => (None, Output::Pictures),
    };
    let events = read_xml(&mut r, &xml, |name, data| match (&mut w, what) {
        (Some(w), Output::Package) => w.add(name, data, Compression::Deflate),
        _ => Ok(()),
    })?;
    if let Some(w) = &mut w {
        for (name, entry) in &pictures {
            w.add_raw(name, entry)?;
        }
    }
    Ok((events, w.map(ZipWriter::finish_sink).transpose()?))
}

/// Reads every XML part as [`floor`] does and writes the package into the folder `dir` as files,
/// each picture inflated into its own on all cores while the XML is read (as `sdconv convert`
/// inflates pictures ahead), and each XML part as it is (about as much as the page or text made
/// of it). Returns the number of XML events.
pub fn unpack(bytes: &Bytes, dir: &Path) -> Result<usize> {
    let (mut r, xml, pictures) = open(bytes)?;
    let (events, written) = rayon::join(
        || {
            read_xml(&mut r, &xml, |name, data| {
                std::fs::write(dir.join(flat(name)), data).map_err(|e| write_error(name, e))
            })
        },
        || {
            pictures.par_iter().try_for_each(|(name, entry)| {
                let file = std::fs::File::create(dir.join(flat(name)))
                    .map_err(|e| write_error(name, e))?;
                let mut sink =
                    BufWriter::with_capacity(sdconv::internal::archive::COPY_PIECE, file);
                entry.copy_to(&mut sink)?;
                sink.flush().map_err(|e| write_error(name, e))
            })
        },
    );
    written?;
    events
}

/// Reads every XML part as [`floor`] does and writes one file into `sink`: each XML part as it
/// is, then each picture inflated and in base64, in the package's order. The pictures are
/// inflated and encoded on all cores while the XML is read. Returns the number of XML events and
/// the sink.
pub fn inline<W: Write + Send>(bytes: &Bytes, mut sink: W) -> Result<(usize, W)> {
    let (mut r, xml, pictures) = open(bytes)?;
    let (events, encoded) = rayon::join(
        || {
            read_xml(&mut r, &xml, |name, data| {
                sink.write_all(data).map_err(|e| write_error(name, e))
            })
        },
        || {
            pictures
                .par_iter()
                .map(|(_, entry)| {
                    let data = entry.inflate(&Limits::default())?;
                    Ok(base64::engine::general_purpose::STANDARD.encode(data))
                })
                .collect::<Result<Vec<String>>>()
        },
    );
    let events = events?;
    for (text, (name, _)) in encoded?.iter().zip(&pictures) {
        sink.write_all(text.as_bytes())
            .map_err(|e| write_error(name, e))?;
    }
    Ok((events, sink))
}

/// The package's reader, the names of its XML parts and its other entries (the pictures),
/// as stored.
type Opened<'a> = (ZipReader<'a>, Vec<String>, Vec<(String, RawEntry)>);

fn open(bytes: &Bytes) -> Result<Opened<'_>> {
    let limits = Limits::default();
    let mut r = ZipReader::from_source(Source::Shared(bytes.clone()), &limits)?;
    let mut xml = Vec::new();
    let mut pictures = Vec::new();
    // `read_raw` takes the reader mutably: the names are copied once (116 short strings).
    for name in r.names().to_vec() {
        if name.ends_with('/') {
            continue;
        }
        if is_xml(&name) {
            xml.push(name);
        } else {
            let entry = r.read_raw(&name)?;
            pictures.push((name, entry));
        }
    }
    Ok((r, xml, pictures))
}

/// Inflates and tokenises each XML part of `names`, then hands it to `each`; the number of
/// events.
fn read_xml(
    r: &mut ZipReader<'_>,
    names: &[String],
    mut each: impl FnMut(&str, &[u8]) -> Result<()>,
) -> Result<usize> {
    let mut events = 0;
    for name in names {
        let data = r.read(name)?;
        events += tokenise(&data, name, &Limits::default())?;
        each(name, &data)?;
    }
    Ok(events)
}

fn is_xml(name: &str) -> bool {
    name.ends_with(".xml") || name.ends_with(".rels")
}

/// Inflated XML `data` of the part `name` read to its end; the number of events.
fn tokenise(data: &[u8], name: &str, limits: &Limits) -> Result<usize> {
    let mut x = XmlReader::new(sdconv::internal::xml::decode(data, name)?, name, limits);
    let mut events = 0;
    while !matches!(x.next_event()?, quick_xml::events::Event::Eof) {
        events += 1;
    }
    Ok(events)
}

/// A part's name as one file name, so the folder needs no subfolders (`word/media/a.png` →
/// `word_media_a.png`).
fn flat(name: &str) -> String {
    name.replace('/', "_")
}

fn write_error(name: &str, e: std::io::Error) -> Error {
    Error::Write {
        format: "file",
        message: format!("{name}: {e}"),
    }
}
