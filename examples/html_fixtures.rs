//! Writes the HTML outputs of the test fixtures to a folder, for the validator and browser checks
//! in `.ci/html-checks.sh`:
//!
//! ```text
//! cargo run --release --example html_fixtures -- OUT_DIR          # fixtures
//! cargo run --release --example html_fixtures -- --timing         # export timings
//! ```
//!
//! For each golden fixture `NAME`: `NAME.html` (the `html` page) and `NAME.single.html`; for the
//! tree with every kind: `everything/` (index.html, style.css, images/) and
//! `everything.single.html`; `metafiles/` and `metafiles.single.html` (an EMF and a WMF
//! picture); `random-NN.html` for pseudo-random valid trees. Prints `everything.single.html headings=H tables=T images=I`, the
//! counts the browser check expects.

#[path = "../tests/html_fixtures/mod.rs"]
mod html_fixtures;

use std::path::Path;
use std::time::{Duration, Instant};

use sdconv::Document;
use sdconv::ast::{Block, Image, NoteKind, Paragraph, TextStyle, TextType};
use sdconv::export::html::{HtmlOptions, write_all_in_one, write_files, write_zip};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arg = std::env::args()
        .nth(1)
        .ok_or("usage: html_fixtures OUT_DIR | --timing")?;
    if arg == "--timing" {
        timing();
        return Ok(());
    }
    let out = Path::new(&arg);
    std::fs::create_dir_all(out)?;
    for (name, doc, opts) in html_fixtures::goldens() {
        write_page(out, name, &doc, &opts)?;
    }
    let doc = html_fixtures::everything();
    let opts = HtmlOptions::default();
    write_page(out, "everything", &doc, &opts)?;
    let folder = out.join("everything");
    std::fs::create_dir_all(folder.join("images"))?;
    for (name, bytes) in write_files(&doc, &opts).value {
        std::fs::write(folder.join(name), bytes)?;
    }
    // Windows metafiles, drawn as SVG: the browser check looks at their pixels, on the one-file
    // page and in the folder form.
    let metafiles = html_fixtures::metafiles();
    write_page(out, "metafiles", &metafiles, &opts)?;
    let folder = out.join("metafiles");
    std::fs::create_dir_all(folder.join("images"))?;
    for (name, bytes) in write_files(&metafiles, &opts).value {
        std::fs::write(folder.join(name), bytes)?;
    }
    // Pseudo-random valid trees: odd combinations of every kind, for the validator.
    for seed in 1..=40 {
        let doc = html_fixtures::random_tree(seed);
        if let Err(v) = doc.validate() {
            return Err(format!("random tree {seed} is not valid: {}", v[0]).into());
        }
        write_page(out, &format!("random-{seed:02}"), &doc, &opts)?;
    }
    let (headings, tables, images) = html_fixtures::counts(&doc);
    println!("everything.single.html headings={headings} tables={tables} images={images}");
    Ok(())
}

fn write_page(out: &Path, name: &str, doc: &Document, opts: &HtmlOptions) -> std::io::Result<()> {
    let files = write_files(doc, opts).value;
    if let Some((_, page)) = files.iter().find(|(n, _)| n == "index.html") {
        std::fs::write(out.join(format!("{name}.html")), page)?;
    }
    let single = write_all_in_one(doc, opts).value;
    std::fs::write(out.join(format!("{name}.single.html")), single)
}

/// A generated tree: `paragraphs` paragraphs (every 20th a heading, some lists, formatting,
/// footnotes, links) and `images` images of `image_bytes` bytes each.
fn generated(paragraphs: usize, images: usize, image_bytes: usize) -> Document {
    use html_fixtures::{link, note, p, st, t};
    let mut d = Document::new();
    d.meta.title = Some("Generated".into());
    let mut blocks = Vec::with_capacity(paragraphs + images);
    let per_image = paragraphs / images.max(1);
    for i in 0..paragraphs {
        let block = match i % 20 {
            0 => p(
                TextType::HeadingOl,
                (i / 20 % 3) as u8,
                vec![t(&format!("Heading {i}"))],
            ),
            5..=8 => p(
                TextType::ListOl,
                (i % 2) as u8,
                vec![t("A list item with some words in it.")],
            ),
            _ => Block::Paragraph(Paragraph::new(
                TextType::Paragraph,
                vec![
                    t(
                        "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ",
                    ),
                    st(TextStyle::Bold, vec![t("Ut enim ad minim veniam")]),
                    t(
                        ", quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat ",
                    ),
                    link("https://example.org/page", vec![t("a link")]),
                    t(" & <more>."),
                    note(NoteKind::Footnote, vec![t("A footnote.")]),
                ],
            )),
        };
        blocks.push(block);
        if images > 0
            && i % per_image.max(1) == per_image.max(1) - 1
            && i / per_image.max(1) < images
        {
            let n = i / per_image.max(1);
            let name = format!("img{n:03}.png");
            let mut bytes = html_fixtures::dot_png();
            bytes.resize(image_bytes, (n % 251) as u8);
            d.media.add(name.clone(), bytes);
            blocks.push(Block::Image(Image {
                caption: Some(format!("Image {n}")),
                ..html_fixtures::image(&name, None)
            }));
        }
    }
    d.blocks = blocks;
    d
}

/// CPU time this thread has run (Linux; `None` elsewhere). On a loaded machine wall time
/// includes waiting for a core, CPU time does not.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Best wall and best CPU time of `n` runs, and the size `f` returns.
fn best_of(n: usize, mut f: impl FnMut() -> usize) -> (Duration, Option<Duration>, usize) {
    let (mut wall, mut cpu) = (Duration::MAX, None::<Duration>);
    let mut size = 0;
    for _ in 0..n {
        let (start, start_cpu) = (Instant::now(), cpu_time());
        size = f();
        wall = wall.min(start.elapsed());
        if let (Some(a), Some(b)) = (start_cpu, cpu_time()) {
            cpu = Some(cpu.map_or(b - a, |c| c.min(b - a)));
        }
    }
    (wall, cpu, size)
}

/// One timed export: returns the bytes written.
type Run<'a> = Box<dyn Fn() -> usize + 'a>;

fn timing() {
    let opts = HtmlOptions::default();
    for (label, paragraphs, images, image_bytes) in [
        (
            "10,000 paragraphs, 50 images of 180 KB",
            10_000,
            50,
            180_000,
        ),
        (
            "5,372 paragraphs, 100 images of 180 KB (large.docx-sized)",
            5_372,
            100,
            180_000,
        ),
    ] {
        let doc = generated(paragraphs, images, image_bytes);
        println!("{label} (best of 7: wall / CPU):");
        let runs: [(&str, Run<'_>); 3] = [
            (
                "html files",
                Box::new(|| {
                    write_files(&doc, &opts)
                        .value
                        .iter()
                        .map(|(_, b)| b.len())
                        .sum()
                }),
            ),
            (
                "html zip",
                Box::new(|| write_zip(&doc, &opts).map_or(0, |z| z.value.len())),
            ),
            (
                "html_all_in_one",
                Box::new(|| write_all_in_one(&doc, &opts).value.len()),
            ),
        ];
        for (name, run) in runs {
            let (wall, cpu, size) = best_of(7, run);
            let cpu = cpu.map_or("-".to_string(), |c| format!("{:.1}", ms(c)));
            println!(
                "  {name:<16} {:>7.1} ms / {cpu:>6} ms  {size:>10} bytes",
                ms(wall)
            );
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
