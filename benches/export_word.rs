//! Word export on a generated large tree, the size of `../shared/bench/large.docx`: 5,000
//! paragraphs (headings on three levels, lists, footnotes, links), 150 tables, 100 PNG images of
//! 300-2000 px. Measures the writer alone (the docx reader is measured in its own bench) and the
//! writer with `compressedImages` (run once with `RAYON_NUM_THREADS=1` to see the parallel gain).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use sdconv::Document;
use sdconv::ast::{
    Block, Cell, Image, Inline, NoteKind, Paragraph, Row, Table, TextStyle, TextType,
};
use sdconv::export::word::{self, PagedSettings, WordOptions};
use sdconv::lang::Language;

/// A deterministic pseudo-random sequence (no extra dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn png(w: u32, h: u32, seed: u32) -> Vec<u8> {
    // Gradients with a blocky texture: photo-like enough that JPEG pays off, and about the
    // 180 kB per image of ../shared/bench/large.docx (18 MB for 100 images).
    let mut rng = Lcg(u64::from(seed) + 1);
    let blocks: Vec<u8> = (0..64 * 64).map(|_| rng.next(24) as u8).collect();
    let img = image::RgbImage::from_fn(w, h, |x, y| {
        let n = blocks[((y / 16 % 64) * 64 + x / 16 % 64) as usize];
        image::Rgb([
            ((x * 255 / w) as u8).wrapping_add(n),
            ((y * 255 / h) as u8).wrapping_add(n),
            (((x + y) * 255 / (w + h)) as u8).wrapping_add(n / 2),
        ])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("png");
    out.into_inner()
}

fn text(rng: &mut Lcg, words: usize) -> String {
    const WORDS: [&str; 12] = [
        "lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
        "consectetur",
        "adipiscing",
        "elit",
        "sed",
        "do",
        "eiusmod",
        "tempor",
    ];
    (0..words)
        .map(|_| WORDS[rng.next(12) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

fn large_tree() -> Document {
    let mut rng = Lcg(42);
    let mut doc = Document::new();
    doc.meta.title = Some("Benchmark".into());
    doc.meta.footer = Some("generated".into());
    for i in 0..100u32 {
        let w = 300 + (i * 17) % 1700;
        let h = w * 3 / 4;
        doc.media.add(format!("img{i}.png"), png(w, h, i));
    }
    let mut blocks = Vec::new();
    let (mut tables, mut images) = (0, 0);
    for i in 0..5_000usize {
        let kind = match i % 50 {
            0 => TextType::HeadingOl,
            10 | 30 => TextType::Heading,
            20..=24 => TextType::ListOl,
            40..=43 => TextType::ListUl,
            _ => TextType::Paragraph,
        };
        let level = match kind {
            TextType::HeadingOl => (i / 50 % 3) as u8,
            TextType::Heading => 1,
            TextType::ListOl | TextType::ListUl => (i % 2) as u8,
            _ => 0,
        };
        let mut content = vec![Inline::text(text(&mut rng, 30))];
        if i % 7 == 0 {
            content.push(Inline::styled(
                TextStyle::Bold,
                vec![Inline::text(text(&mut rng, 3))],
            ));
        }
        if i % 19 == 0 {
            content.push(Inline::Note {
                kind: NoteKind::Footnote,
                content: vec![Inline::text(text(&mut rng, 12))],
            });
        }
        if i % 23 == 0 {
            content.push(Inline::Link {
                href: format!("https://example.org/{i}").into(),
                children: vec![Inline::text("link")],
            });
        }
        blocks.push(Block::Paragraph(Paragraph {
            level,
            ..Paragraph::new(kind, content)
        }));
        if i % 33 == 5 && tables < 150 {
            tables += 1;
            let cols = 3 + tables % 6;
            let rows = 3 + (tables * 7) % 38;
            blocks.push(Block::Table(Table {
                caption: Some(format!("Table caption {tables}")),
                rows: (0..rows)
                    .map(|r| Row {
                        header: r == 0,
                        cells: (0..cols)
                            .map(|_| Cell {
                                blocks: vec![Block::Paragraph(Paragraph::new(
                                    TextType::Paragraph,
                                    vec![Inline::text(text(&mut rng, 3))],
                                ))],
                                ..Cell::default()
                            })
                            .collect(),
                        ..Row::default()
                    })
                    .collect(),
                ..Table::default()
            }));
        }
        if i % 50 == 25 && images < 100 {
            blocks.push(Block::Image(Image {
                media: format!("img{images}.png"),
                caption: Some(format!("Figure caption {images}")),
                width_percent: Some(40.0 + (images % 6) as f32 * 10.0),
                ..Image::default()
            }));
            images += 1;
        }
    }
    doc.blocks = blocks;
    doc
}

fn settings(compressed: bool) -> WordOptions {
    WordOptions::new(
        "report",
        PagedSettings::new(Language::De)
            .with_image_caption(true)
            .with_table_caption(true)
            .with_text_toc(true)
            .with_image_toc(true)
            .with_table_toc(true)
            .with_compressed_images(compressed),
    )
}

fn bench(c: &mut Criterion) {
    let doc = large_tree();
    let plain = word::write_with_stats(&doc, &settings(false)).expect("export");
    let small = word::write_with_stats(&doc, &settings(true)).expect("export");
    let s = small.value.stats;
    eprintln!(
        "large tree: {} blocks, {} images ({} MB); docx {} bytes; compressed docx {} bytes ({:.1} %), images {} -> {} bytes ({} recompressed)",
        doc.blocks.len(),
        doc.media.len(),
        s.bytes_before / 1_000_000,
        plain.value.bytes.len(),
        small.value.bytes.len(),
        100.0 * small.value.bytes.len() as f64 / plain.value.bytes.len() as f64,
        s.bytes_before,
        s.bytes_after,
        s.recompressed,
    );
    let mut g = c.benchmark_group("export_word");
    g.sample_size(10);
    g.bench_function("large_tree_to_docx", |b| {
        b.iter(|| word::write(black_box(&doc), &settings(false)).expect("export"))
    });
    g.bench_function("large_tree_to_docx_compressed_images", |b| {
        b.iter(|| word::write(black_box(&doc), &settings(true)).expect("export"))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
