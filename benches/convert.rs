//! Conversion speed on a generated large document (`sample::large_document(10_000, 200, 50, 1)`):
//! sd.xml import and export, and the JSON dump.
//!
//! `cargo bench --bench convert` measures; `cargo test --benches` runs each once as a smoke test.
//! A format this build cannot convert yet is skipped with a note on stderr.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sdconv::{Document, Error, ExportOptions, Format, ImportOptions};

fn large() -> Document {
    sdconv::internal::sample::large_document(10_000, 200, 50, 1)
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

/// The page writers on the large tree: `export_html` (page, stylesheet and images as files, what
/// the CLI writes), `export_html_all_in_one` (one page, images as data: URIs) and `export_parsx`
/// (the zip).
fn exports(c: &mut Criterion) {
    let doc = large();
    let mut group = c.benchmark_group("export");
    group.sample_size(10);
    let html = sdconv::export::html::HtmlOptions::default();
    group.bench_function("export_html", |b| {
        b.iter(|| sdconv::export::html::write_files(black_box(&doc), &html))
    });
    group.bench_function("export_html_all_in_one", |b| {
        b.iter(|| sdconv::export::html::write_all_in_one(black_box(&doc), &html))
    });
    let options = ExportOptions::default();
    group.bench_function("export_parsx", |b| {
        b.iter(|| sdconv::export(black_box(&doc), Format::Parsx, &options))
    });
    group.finish();
}

criterion_group!(benches, sdxml_import, sdxml_export, json_dump, exports);
criterion_main!(benches);
