//! The engine's share of one round of the server's load test (`server/tests/load.rs`): a Word
//! upload of `medium.docx` (the shared benchmark file, `../shared/bench/medium.docx`; a
//! generated Word file when it is not there) read and stored as the sd.xml zip, then that zip
//! read back and exported as the HTML download (a zip). Each step is measured alone and the
//! whole round together, so a change in the server's hot path shows where it lands.
//!
//! `cargo bench --bench server_round` measures; `cargo test --benches` runs each once.

use std::hint::black_box;

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use sdconv::{Document, ExportOptions, Format, ImportOptions};

/// The benchmark upload, or a generated stand-in with pictures.
fn input() -> Bytes {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench/medium.docx");
    if let Ok(bytes) = std::fs::read(path) {
        return bytes.into();
    }
    eprintln!("server_round: {path} not found, using a generated Word file");
    let doc = sdconv::internal::sample::large_document(200, 10, 5, 1);
    sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .expect("the sample exports")
        .value
        .into()
}

fn read(format: Format, bytes: &Bytes) -> Document {
    sdconv::import_shared(format, bytes.clone(), &ImportOptions::default())
        .expect("the input reads")
        .value
}

fn write(doc: &Document, format: Format) -> Bytes {
    sdconv::export(doc, format, &ExportOptions::default())
        .expect("the tree writes")
        .value
        .into()
}

fn round(c: &mut Criterion) {
    let docx = input();
    let tree = read(Format::Word, &docx);
    let stored = write(&tree, Format::Sdxml);
    let loaded = read(Format::Sdxml, &stored);
    let mut group = c.benchmark_group("server_round");
    group.sample_size(20);
    group.bench_function("docx_import", |b| {
        b.iter(|| read(Format::Word, black_box(&docx)))
    });
    group.bench_function("sdxml_store", |b| {
        b.iter(|| write(black_box(&tree), Format::Sdxml))
    });
    group.bench_function("sdxml_load", |b| {
        b.iter(|| read(Format::Sdxml, black_box(&stored)))
    });
    group.bench_function("html_download", |b| {
        b.iter(|| write(black_box(&loaded), Format::Html))
    });
    group.bench_function("round", |b| {
        b.iter(|| {
            let tree = read(Format::Word, black_box(&docx));
            let stored = write(&tree, Format::Sdxml);
            let loaded = read(Format::Sdxml, &stored);
            write(&loaded, Format::Html).len()
        })
    });
    group.finish();
}

criterion_group!(benches, round);
criterion_main!(benches);
