//! Word file in, file out, with the pictures kept compressed: `large.docx` (the shared benchmark
//! document, `../shared/bench/large.docx`; a generated Word file with deflated pictures when it
//! is not there) read and written as docx, sd.xml and the HTML folder's files — bytes to bytes,
//! as the CLI does. The zip writers copy the pictures as they are stored; the HTML files need
//! them inflated (in parallel).
//!
//! Beside them, two floors made of the same library pieces (`floor/mod.rs`), for what no such
//! conversion can avoid: `floor_read_xml` inflates every XML part and tokenises it (pictures
//! untouched); `floor_pictures` also copies the pictures as stored into a zip in memory;
//! `floor_repack` writes the whole package again, the XML deflated too. Two more floors are for
//! outputs that hold the pictures inflated: `floor_inline` writes the XML and every picture in
//! base64 into one buffer (the single-file HTML page), `floor_unpack` writes the package out into
//! a temporary folder as files (the HTML folder and Markdown).
//!
//! `cargo bench --bench media` measures; `cargo test --benches` runs each once as a smoke test.

mod floor;

use std::hint::black_box;
use std::io::Cursor;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sdconv::internal::archive::{Compression, ZipReader, ZipWriter};
use sdconv::{ExportOptions, Format, ImportOptions, Limits};

use floor::Output;

/// The benchmark document, or a generated stand-in with every entry deflated.
fn input() -> Bytes {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench/large.docx");
    if let Ok(bytes) = std::fs::read(path) {
        return bytes.into();
    }
    eprintln!("media: {path} not found, using a generated Word file");
    let doc = sdconv::internal::sample::large_document(2_000, 40, 20, 1);
    let docx = sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .expect("the sample exports")
        .value;
    let mut r = ZipReader::new(&docx, &Limits::default()).expect("our own zip");
    let mut w = ZipWriter::new();
    for name in r.names().to_vec() {
        let bytes = r.read(&name).expect("our own entry");
        w.add(&name, &bytes, Compression::Deflate)
            .expect("a valid name");
    }
    w.finish().expect("in memory").into()
}

fn word_to(bytes: &Bytes, format: Format) -> usize {
    let doc = sdconv::import_shared(Format::Word, bytes.clone(), &ImportOptions::default())
        .expect("the input reads")
        .value;
    if format == Format::Html {
        // The folder form: every file, pictures inflated.
        let files = sdconv::export::html::write_files(&doc, &Default::default());
        return files.value.iter().map(|(_, b)| b.len()).sum();
    }
    sdconv::export(&doc, format, &ExportOptions::default())
        .expect("the tree writes")
        .value
        .len()
}

fn media(c: &mut Criterion) {
    let bytes = input();
    let mut group = c.benchmark_group("media");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    for (name, format) in [
        ("docx_to_docx", Format::Word),
        ("docx_to_sdxml", Format::Sdxml),
        ("docx_to_html_folder", Format::Html),
    ] {
        group.bench_function(name, |b| b.iter(|| word_to(black_box(&bytes), format)));
    }
    group.bench_function("floor_read_xml", |b| {
        b.iter(|| floor::floor::<Cursor<Vec<u8>>>(black_box(&bytes), None).expect("reads"))
    });
    for (name, what) in [
        ("floor_pictures", Output::Pictures),
        ("floor_repack", Output::Package),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                // Room for the package and a quarter more, so the buffer never grows: growing
                // copies all written so far, which no file sink does (the repack comes out
                // 64 KB larger than large.docx).
                let sink = Cursor::new(Vec::with_capacity(bytes.len() + bytes.len() / 4));
                floor::floor(black_box(&bytes), Some((sink, what))).expect("repacks")
            })
        });
    }
    group.bench_function("floor_inline", |b| {
        b.iter(|| {
            // Base64 takes a third more than the pictures; room for it all, as above.
            let sink = Vec::with_capacity(bytes.len() * 3 / 2);
            floor::inline(black_box(&bytes), sink).expect("inlines")
        })
    });
    let dir = std::env::temp_dir().join(format!("sdconv-media-floor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    group.bench_function("floor_unpack", |b| {
        b.iter(|| floor::unpack(black_box(&bytes), &dir).expect("unpacks"))
    });
    std::fs::remove_dir_all(&dir).ok();
    group.finish();
}

criterion_group!(benches, media);
criterion_main!(benches);
