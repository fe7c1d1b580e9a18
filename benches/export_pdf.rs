//! PDF export on the generated large tree of `benches/convert.rs`
//! (`sample::large_document(10_000, 200, 50, 1)`: 10,000 paragraphs, 200 tables, 50 PNG images),
//! with captions and all three directories on. Measures layout, drawing, font subsetting,
//! image encoding and serialisation together.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sdconv::export::pdf::{PdfOptions, write_with_info};
use sdconv::export::word::PagedSettings;
use sdconv::lang::Language;

fn options() -> PdfOptions {
    PdfOptions::new(
        PagedSettings::new(Language::En)
            .with_image_caption(true)
            .with_table_caption(true)
            .with_text_toc(true)
            .with_image_toc(true)
            .with_table_toc(true),
    )
}

fn bench(c: &mut Criterion) {
    let doc = sdconv::internal::sample::large_document(10_000, 200, 50, 1);
    let out = write_with_info(&doc, &options()).expect("export");
    eprintln!(
        "large tree: {} blocks -> {} pages, {} outline entries, {} bytes, {} warnings",
        doc.blocks.len(),
        out.value.pages,
        out.value.outline,
        out.value.bytes.len(),
        out.warnings.len()
    );
    let mut g = c.benchmark_group("export_pdf");
    g.sample_size(10);
    g.bench_function("large_tree_to_pdf", |b| {
        b.iter(|| write_with_info(black_box(&doc), &options()).expect("export"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
