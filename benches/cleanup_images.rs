//! `cleanup_images`: the picture processors of the cleanup routines on 100 images of 300-2000 px
//! (rotate every image a quarter turn, then downscale those over 1000 px), once on rayon's
//! default pool (every core) and once on a one-thread pool: the ratio is the parallel speed-up
//! (the issue's target: at least 1.7x on the 2-core machine).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sdconv::Report;
use sdconv::ast::{Block, Document, Image};
use sdconv::cleanup::Catalog;

const ROUTINE: &str = r#"[{
  "key": "bench-images", "type": "routine",
  "name": {"de_DE": "x", "en_EN": "x", "es_ES": "x", "fr_BE": "x", "fr_CA": "x", "fr_FR": "x",
           "nl_BE": "x", "ru_RU": "x"},
  "actions": [
    {"filters": [{"type": "image"}], "processor": {"type": "rotate", "degrees": 90}},
    {"filters": [{"type": "image"}], "processor": {"type": "downscale", "maxPixels": 1000}}
  ]
}]"#;

/// 100 images, widths 300-2000 px spread evenly, aspect ratios varied, each its own picture.
fn document() -> Document {
    let mut doc = Document::new();
    for i in 0..100u32 {
        let width = 300 + i * 17;
        let height = 200 + (i * 37) % 1200;
        let name = format!("img-{i:03}.png");
        doc.media.add(
            name.clone(),
            sdconv::internal::sample::png(width, height, u64::from(i)),
        );
        doc.blocks.push(Block::Image(Image {
            media: name,
            ..Image::default()
        }));
    }
    doc
}

fn cleanup_images(c: &mut Criterion) {
    let catalog = Catalog::from_json(ROUTINE).expect("the bench routine loads");
    let routine = catalog.get("bench-images").expect("defined above").clone();
    let doc = document();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    let limits = sdconv::Limits::default();
    // One run of the routine over a fresh copy of the document.
    let once = || {
        let mut d = doc.clone();
        sdconv::cleanup::run(&mut d, &routine, &limits, &mut Report::new()).map(|_| black_box(d))
    };
    let mut group = c.benchmark_group("cleanup_images");
    group.sample_size(10);
    group.bench_function("all_cores", |b| b.iter(once));
    group.bench_function("one_thread", |b| b.iter(|| one.install(once)));
    group.finish();
}

criterion_group!(benches, cleanup_images);
criterion_main!(benches);
