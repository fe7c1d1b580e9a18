//! Word import speed on the generated benchmark documents (`../shared/bench`): `large.docx`
//! (pandoc: 5,372 paragraphs, 150 tables, 100 images, 270 footnotes, 18 MB) and `large-lo.docx`
//! (the same re-saved by LibreOffice, twice the markup). Target: large.docx ≤ 100 ms.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use sdconv::import::docx::{DocxImportOptions, read};

fn import_docx(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench");
    let options = DocxImportOptions::default();
    let mut group = c.benchmark_group("import_docx");
    group.sample_size(20);
    for name in ["large.docx", "large-lo.docx"] {
        let Ok(bytes) = std::fs::read(dir.join(name)) else {
            eprintln!("skipped {name}: ../shared/bench is absent");
            continue;
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let doc = read(black_box(&bytes), &options).expect("benchmark input reads");
                black_box(doc.value.blocks.len())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, import_docx);
criterion_main!(benches);
