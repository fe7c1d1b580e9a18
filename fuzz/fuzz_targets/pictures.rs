//! Fuzzes every path that looks into a document's picture (a metafile's bitmaps are the
//! `metafile` target's): the PDF writer (the JPEG and PNG
//! pass-through checks, then the `image` crate's decoders), the Word writer's compressed
//! pictures and the rotating picture routine, each on a one-picture document.
//!
//! The first byte chooses how the rest becomes a picture: as it is (the sniffer takes JPEG, GIF,
//! BMP, WebP and PNG by their signatures; seeds in `fuzz/seeds/pictures` start the fuzzer on
//! real files), or as a PNG built from chunks whose lengths and CRCs the target writes, its
//! image data deflated here when the input asks, so the fuzzer reaches the PNG decoder's palette,
//! transparency and filter code past the checksums it could not guess. Errors and warnings are
//! answers; a panic is a finding.

#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use sdconv::ast::{Block, Extent, Image};
use sdconv::{Document, ExportOptions, Format, Limits, Report};

/// Chunk types a PNG decoder acts on, and one it skips.
const KINDS: [&[u8; 4]; 9] = [
    b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND", b"gAMA", b"sBIT", b"bKGD", b"teXt",
];

/// A PNG of the chunks `data` describes: per chunk a type byte, a length byte and that many
/// bytes (fewer at the end). An IHDR's size is cut to 64×64 so a picture decodes in
/// microseconds; an IDAT whose type byte is odd holds its bytes deflated.
fn png(data: &[u8]) -> Vec<u8> {
    let mut chunks: Vec<(&[u8; 4], Vec<u8>)> = Vec::new();
    let mut rest = data;
    while let [kind, len, tail @ ..] = rest {
        let take = usize::from(*len).min(tail.len());
        let (body, after) = tail.split_at(take);
        rest = after;
        let name = KINDS[usize::from(*kind) % KINDS.len()];
        let mut body = body.to_vec();
        if name == b"IHDR" {
            body.resize(13, 0);
            // Width and height of 1 to 64.
            for at in [0, 4] {
                let side = u32::from_be_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
                body[at..at + 4].copy_from_slice(&(side % 64 + 1).to_be_bytes());
            }
        } else if name == b"IDAT" && kind % 2 == 1 {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            let _ = z.write_all(&body);
            body = z.finish().unwrap_or_default();
        }
        chunks.push((name, body));
    }
    let chunks: Vec<(&[u8; 4], &[u8])> = chunks.iter().map(|(k, b)| (*k, b.as_slice())).collect();
    sdconv::internal::sample::png_chunks(&chunks)
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let bytes = if choice % 2 == 0 {
        rest.to_vec()
    } else {
        png(rest)
    };
    let mut doc = Document::default();
    let name = doc.media.add("picture", bytes);
    doc.blocks.push(Block::Image(Image {
        media: name,
        // Landscape, so the rotating routine takes it.
        extent: Some(Extent {
            width: 2_000_000,
            height: 1_000_000,
        }),
        ..Image::default()
    }));
    // Pictures of up to four million pixels: a header of a few bytes may promise the
    // default's hundred million, whose decoding takes gigabytes (bounded, but past the
    // fuzzer's memory limit when three paths hold theirs at once).
    let mut limits = Limits::default();
    limits.max_image_pixels = 1 << 22;
    let mut options = ExportOptions::default();
    options.pdf.limits = limits.clone();
    let _ = sdconv::export(&doc, Format::Pdf, &options);
    options.word.settings = options.word.settings.with_compressed_images(true);
    options.word.limits = limits.clone();
    let _ = sdconv::export(&doc, Format::Word, &options);
    let mut report = Report::default();
    let _ = sdconv::cleanup::apply(
        &mut doc,
        &["rotate-landscape-images".into()],
        &limits,
        &mut report,
    );
});
