//! Deflating one large part on all cores, as pigz does: the text is cut into fixed chunks, each
//! deflated on its own with the 32 KiB before it as its dictionary and ended with a sync flush,
//! so the pieces join into one stream any inflater reads, compressed almost as well as in one
//! piece. The CRC-32s of the chunks combine. Chunk boundaries depend only on the length, so
//! the bytes are the same whatever the number of threads.
//!
//! The result is wrapped as a one-entry zip ([`one_entry_zip`]) so that [`crate::archive`]
//! copies it into the archive it writes like any entry kept as it was stored.
//!
//! A part whose end is final before its start ([`crate::export::word`]'s main part, whose
//! tables of contents wait for the page layout) has its end deflated ahead ([`deflate_tail`],
//! the pieces counted from the tail's start) and its head later, ended with a sync flush, and
//! the two join into one stream ([`one_entry_zip_joined`]).

use flate2::{Compress, Compression, FlushCompress, Status};
use rayon::prelude::*;

/// The size of the pieces deflated side by side.
const CHUNK: usize = 256 * 1024;

/// Deflate's window: what a chunk may refer back to.
pub(crate) const WINDOW: usize = 32 * 1024;

/// A raw deflate stream and what a zip entry records of its input.
pub(crate) struct Deflated {
    data: Vec<u8>,
    crc: u32,
    size: u64,
}

/// Deflates `bytes` at `level` in [`CHUNK`]-sized pieces on the current rayon pool.
fn deflate(bytes: &[u8], level: u32) -> Result<Deflated, String> {
    pieces(&[], bytes, level, true)
}

/// Deflates `bytes` at `level` in [`CHUNK`]-sized pieces on the current rayon pool, as the
/// stretch of a stream that follows `before` (the stream's bytes right before it, of which the
/// first piece may use the last [`WINDOW`]), ending the stream (`finish`) or with a sync flush,
/// so that a stretch deflated after it joins on.
fn pieces(before: &[u8], bytes: &[u8], level: u32, finish: bool) -> Result<Deflated, String> {
    // An empty stretch is still one piece: the stream's end must be written.
    let chunks: Vec<&[u8]> = if bytes.is_empty() {
        vec![bytes]
    } else {
        bytes.chunks(CHUNK).collect()
    };
    let count = chunks.len();
    let pieces: Vec<Result<(Vec<u8>, crc32fast::Hasher), String>> = chunks
        .into_par_iter()
        .enumerate()
        .map(|(i, chunk)| {
            let start = i * CHUNK;
            let last = i + 1 == count;
            let mut c = Compress::new(Compression::new(level), false);
            let dictionary = if start > 0 {
                &bytes[start.saturating_sub(WINDOW)..start]
            } else {
                &before[before.len().saturating_sub(WINDOW)..]
            };
            if !dictionary.is_empty() {
                c.set_dictionary(dictionary).map_err(|e| e.to_string())?;
            }
            let flush = if last && finish {
                FlushCompress::Finish
            } else {
                FlushCompress::Sync
            };
            let mut out = Vec::with_capacity(chunk.len() / 3 + 1024);
            loop {
                let read = usize::try_from(c.total_in()).unwrap_or(usize::MAX);
                let rest = chunk.get(read..).unwrap_or_default();
                let status = c
                    .compress_vec(rest, &mut out, flush)
                    .map_err(|e| e.to_string())?;
                let all_in = usize::try_from(c.total_in()).is_ok_and(|n| n == chunk.len());
                // Done when the stream ended, or when all input is in and the sync flush left
                // room in the output: zlib's sign that nothing is pending.
                let done = match status {
                    Status::StreamEnd => true,
                    _ => flush == FlushCompress::Sync && all_in && out.len() < out.capacity(),
                };
                if done {
                    break;
                }
                out.reserve(out.capacity().max(1024));
            }
            let mut crc = crc32fast::Hasher::new();
            crc.update(chunk);
            Ok((out, crc))
        })
        .collect();
    let mut data = Vec::new();
    let mut crc = crc32fast::Hasher::new();
    for piece in pieces {
        let (bytes, piece_crc) = piece?;
        data.extend_from_slice(&bytes);
        crc.combine(&piece_crc);
    }
    Ok(Deflated {
        data,
        crc: crc.finalize(),
        size: bytes.len() as u64,
    })
}

/// The end of a part deflated ahead of the rest: `tail`, the part's last bytes, as the end of
/// the stream, where `window` (at least the [`WINDOW`] bytes before `tail` in the part, or all
/// of them) is already known though what comes before it is not. [`one_entry_zip_joined`]
/// deflates the head once it is known and joins the two.
pub(crate) fn deflate_tail(window: &[u8], tail: &[u8], level: u32) -> Result<Deflated, String> {
    pieces(window, tail, level, true)
}

/// `bytes` deflated in parallel as the one entry `name` of a zip (fixed 1980-01-01 timestamp,
/// mode 0644, as [`crate::archive::ZipWriter`] writes entries). `None` when the entry would need
/// zip64 (4 GiB or more): the caller then deflates it the ordinary way.
pub(crate) fn one_entry_zip(
    name: &str,
    bytes: &[u8],
    level: u32,
) -> Result<Option<Vec<u8>>, String> {
    if u32::try_from(bytes.len()).is_err() {
        return Ok(None);
    }
    entry_zip(name, &deflate(bytes, level)?)
}

/// The part `head` + the tail deflated ahead ([`deflate_tail`], whose window must be the end of
/// `head`) as the one entry `name` of a zip, like [`one_entry_zip`]: `head` is deflated in
/// pieces ending in a sync flush, and the tail's stream follows.
pub(crate) fn one_entry_zip_joined(
    name: &str,
    head: &[u8],
    tail: &Deflated,
    level: u32,
) -> Result<Option<Vec<u8>>, String> {
    let mut d = pieces(&[], head, level, false)?;
    d.data.extend_from_slice(&tail.data);
    let mut crc = crc32fast::Hasher::new_with_initial_len(d.crc, d.size);
    crc.combine(&crc32fast::Hasher::new_with_initial_len(
        tail.crc, tail.size,
    ));
    d.crc = crc.finalize();
    d.size = d.size.saturating_add(tail.size);
    entry_zip(name, &d)
}

/// The deflated stream `d` as the one entry `name` of a zip; `None` past zip32's sizes.
fn entry_zip(name: &str, d: &Deflated) -> Result<Option<Vec<u8>>, String> {
    let Ok(size) = u32::try_from(d.size) else {
        return Ok(None);
    };
    let Ok(compressed) = u32::try_from(d.data.len()) else {
        return Ok(None);
    };
    let Ok(name_len) = u16::try_from(name.len()) else {
        return Ok(None);
    };
    // Bit 11: the name is UTF-8.
    let flags: u16 = if name.is_ascii() { 0 } else { 0x0800 };
    // MS-DOS time 00:00:00 and date 1980-01-01.
    let (time, date): (u16, u16) = (0, (1 << 5) | 1);
    let mut out = Vec::with_capacity(d.data.len() + 2 * name.len() + 128);
    let u16le = |out: &mut Vec<u8>, v: u16| out.extend_from_slice(&v.to_le_bytes());
    let u32le = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
    // What both headers say from "version needed" to the name's length.
    let entry = |out: &mut Vec<u8>| {
        u16le(out, 20); // version needed: 2.0 (deflate)
        u16le(out, flags);
        u16le(out, 8); // deflated
        u16le(out, time);
        u16le(out, date);
        u32le(out, d.crc);
        u32le(out, compressed);
        u32le(out, size);
        u16le(out, name_len);
    };
    // Local file header.
    u32le(&mut out, 0x0403_4b50);
    entry(&mut out);
    u16le(&mut out, 0); // extra field
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&d.data);
    let Ok(directory_at) = u32::try_from(out.len()) else {
        return Ok(None);
    };
    // Central directory header: made by Unix (3), zip 2.0, so the mode is read.
    u32le(&mut out, 0x0201_4b50);
    u16le(&mut out, (3 << 8) | 20);
    entry(&mut out);
    u16le(&mut out, 0); // extra field
    u16le(&mut out, 0); // comment
    u16le(&mut out, 0); // disk
    u16le(&mut out, 0); // internal attributes
    u32le(&mut out, 0o100_644 << 16); // a regular file, rw-r--r--
    u32le(&mut out, 0); // the local header's offset
    out.extend_from_slice(name.as_bytes());
    let Ok(directory_len) = u32::try_from(out.len() - directory_at as usize) else {
        return Ok(None);
    };
    // End of central directory.
    u32le(&mut out, 0x0605_4b50);
    u16le(&mut out, 0);
    u16le(&mut out, 0);
    u16le(&mut out, 1);
    u16le(&mut out, 1);
    u32le(&mut out, directory_len);
    u32le(&mut out, directory_at);
    u16le(&mut out, 0);
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Text that compresses like XML, with repeats across chunk boundaries.
    fn text(len: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(len + 64);
        let mut i = 0u64;
        while out.len() < len {
            out.extend_from_slice(
                format!("<w:p><w:r><w:t>line {}</w:t></w:r></w:p>", i % 977).as_bytes(),
            );
            i = i
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407)
                >> 7;
        }
        out.truncate(len);
        out
    }

    #[test]
    fn pieces_join_into_one_stream_that_inflates_to_the_input() {
        for len in [1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 17] {
            let input = text(len);
            let d = deflate(&input, 3).unwrap();
            let mut back = Vec::new();
            flate2::read::DeflateDecoder::new(&d.data[..])
                .read_to_end(&mut back)
                .unwrap();
            assert!(back == input, "length {len}: inflates to other bytes");
            assert_eq!(d.crc, crc32fast::hash(&input), "length {len}");
        }
    }

    #[test]
    fn chunked_output_is_nearly_as_small_and_the_same_on_any_pool() {
        let input = text(5 * CHUNK);
        let one = {
            let mut c = Compress::new(Compression::new(3), false);
            let mut out = Vec::with_capacity(input.len());
            c.compress_vec(&input, &mut out, FlushCompress::Finish)
                .unwrap();
            out
        };
        let parallel = deflate(&input, 3).unwrap().data;
        // The dictionaries keep the loss to the sync flushes' few bytes and restarted matching.
        assert!(
            parallel.len() <= one.len() + one.len() / 50,
            "{} bytes in pieces, {} in one",
            parallel.len(),
            one.len()
        );
        let single = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| deflate(&input, 3).unwrap().data);
        assert!(single == parallel, "one thread gives other bytes");
    }

    #[test]
    fn a_tail_deflated_ahead_joins_a_head_deflated_after() {
        let input = text(3 * CHUNK + 77);
        // The split anywhere: inside the first chunk, on a chunk's edge, near the end, and
        // with nothing after it.
        for at in [
            WINDOW + 5,
            CHUNK,
            2 * CHUNK + 1000,
            input.len() - 1,
            input.len(),
        ] {
            let (head, tail) = input.split_at(at);
            let ahead = deflate_tail(&head[head.len() - WINDOW..], tail, 3).unwrap();
            let zip = one_entry_zip_joined("word/document.xml", head, &ahead, 3)
                .unwrap()
                .unwrap();
            let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
            let mut file = archive.by_index(0).unwrap();
            let mut back = Vec::new();
            // Reading to the end checks the CRC.
            file.read_to_end(&mut back).unwrap();
            assert!(back == input, "split at {at}: inflates to other bytes");
        }
    }

    #[test]
    fn the_one_entry_zip_reads_back() {
        let input = text(2 * CHUNK + 5);
        let zip = one_entry_zip("word/document.xml", &input, 3)
            .unwrap()
            .unwrap();
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(zip)).unwrap();
        assert_eq!(archive.len(), 1);
        let mut file = archive.by_index(0).unwrap();
        assert_eq!(file.name().unwrap(), "word/document.xml");
        assert_eq!(file.unix_mode(), Some(0o100_644));
        let mut back = Vec::new();
        // Reading to the end checks the CRC.
        file.read_to_end(&mut back).unwrap();
        assert!(back == input);
    }
}
