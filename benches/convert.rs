//! Conversion speed on a generated large document (`sample::large_document(10_000, 200, 50, 1)`):
//! sd.xml import and export, and the JSON dump.
//!
//! `cargo bench --bench convert` measures; `cargo test --benches` runs each once as a smoke test.
//! A format this build cannot convert yet is skipped with a note on stderr.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sdconv::{Document, Error, ExportOptions, Format, ImportOptions};

fn large() -> Document {
    sdconv::sample::large_document(10_000, 200, 50, 1)
}

/// The document as sd.xml bytes, or `None` (with a note) while the writer is not in this build.
fn sdxml_bytes(doc: &Document, bench: &str) -> Option<Vec<u8>> {
    match sdconv::export(doc, Format::Sdxml, &ExportOptions::default()) {
        Ok(out) => Some(out.value),
        Err(Error::Unavailable(what)) => {
            eprintln!("{bench}: skipped, format {what} is not available yet");
            None
        }
        Err(e) => panic!("{bench}: exporting the generated document failed: {e}"),
    }
}

fn sdxml_import(c: &mut Criterion) {
    let doc = large();
    let Some(bytes) = sdxml_bytes(&doc, "sdxml_import") else {
        return;
    };
    let options = ImportOptions::default();
    match sdconv::import(Format::Sdxml, &bytes, &options) {
        Ok(_) => {}
        Err(Error::Unavailable(what)) => {
            eprintln!("sdxml_import: skipped, format {what} is not available yet");
            return;
        }
        Err(e) => panic!("sdxml_import: reading the written document failed: {e}"),
    }
    let mut group = c.benchmark_group("sdxml");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("sdxml_import", |b| {
        b.iter(|| sdconv::import(Format::Sdxml, black_box(&bytes), &options))
    });
    group.finish();
}

fn sdxml_export(c: &mut Criterion) {
    let doc = large();
    let Some(bytes) = sdxml_bytes(&doc, "sdxml_export") else {
        return;
    };
    let options = ExportOptions::default();
    let mut group = c.benchmark_group("sdxml");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("sdxml_export", |b| {
        b.iter(|| sdconv::export(black_box(&doc), Format::Sdxml, &options))
    });
    group.finish();
}

fn json_dump(c: &mut Criterion) {
    let doc = large();
    let len = doc.to_json().len();
    let mut group = c.benchmark_group("json");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(len as u64));
    group.bench_function("json_dump", |b| b.iter(|| black_box(&doc).to_json()));
    group.finish();
}

criterion_group!(benches, sdxml_import, sdxml_export, json_dump);
criterion_main!(benches);
