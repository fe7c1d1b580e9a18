//! Every path out of a Word file as a ratio to the repack floor, measured in the same run:
//! `large.docx` (`../shared/bench/large.docx`; a generated Word file when it is absent) read and
//! written into a file as docx, sd.xml zip, HTML folder, single-file HTML and Markdown with its
//! pictures, each round beside `floor_repack` (`floor/mod.rs`: the same package written again,
//! pictures copied as stored). Machines of this kind differ by 1.5× and drift within the hour, so
//! absolute times mislead; a ratio measured in one run does not, and a regression shows as a
//! larger ratio.
//!
//! Paths whose output holds its pictures inflated are also set beside the floor of their own
//! form (`floor/mod.rs`): the HTML folder and Markdown beside `floor_unpack` (the package written
//! out as files, the pictures inflated on all cores while the XML is read), the single-file HTML
//! beside `floor_inline` (one file, the pictures inflated and in base64). What separates those
//! floors from the repack is inflating and encoding the pictures, which no conversion to those
//! forms can skip.
//!
//! Each path is split into its stages: `read` (unzip, XML parse, tree), `prepare` (the export
//! options' passes over the tree) and `write` (the writer, deflate, zip and the files). The
//! rounds interleave floor and paths, so drift touches them alike; medians are printed.
//!
//! `cargo bench --bench floor_ratios` measures (25 rounds; `-- --rounds N` for more);
//! `cargo test --benches` runs one round as a smoke test and checks every output was written.

mod floor;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bytes::Bytes;
use rayon::prelude::*;
use sdconv::ast::{Document, MediaItem};
use sdconv::export::{html, markdown};
use sdconv::{ExportOptions, Format, ImportOptions};

use floor::Output;

/// The floors: the repack, and those of the forms that hold their pictures inflated.
#[derive(Clone, Copy, PartialEq)]
enum Floor {
    Repack,
    Unpack,
    Inline,
}

const FLOORS: [(&str, Floor); 3] = [
    ("floor_repack", Floor::Repack),
    ("floor_unpack", Floor::Unpack),
    ("floor_inline", Floor::Inline),
];

/// A path out of a Word file, as `sdconv convert` writes it.
#[derive(Clone, Copy, PartialEq)]
enum Route {
    Docx,
    SdxmlZip,
    HtmlFolder,
    HtmlAllInOne,
    Markdown,
}

impl Route {
    /// The floor of this path's own form.
    fn floor(self) -> Floor {
        match self {
            Route::Docx | Route::SdxmlZip => Floor::Repack,
            Route::HtmlFolder | Route::Markdown => Floor::Unpack,
            Route::HtmlAllInOne => Floor::Inline,
        }
    }
}

const PATHS: [(&str, Route); 5] = [
    ("docx → docx", Route::Docx),
    ("docx → sd.xml zip", Route::SdxmlZip),
    ("docx → HTML folder", Route::HtmlFolder),
    ("docx → single-file HTML", Route::HtmlAllInOne),
    ("docx → Markdown", Route::Markdown),
];

/// One path's stage times in one round.
#[derive(Clone, Copy, Default)]
struct Stages {
    read: Duration,
    prepare: Duration,
    write: Duration,
}

impl Stages {
    fn total(&self) -> Duration {
        self.read + self.prepare + self.write
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo bench` passes --bench; `cargo test --benches` does not: one round, as a smoke test.
    let measuring = args.iter().any(|a| a == "--bench");
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(if measuring { 25 } else { 1 });
    let input = input();
    let out = std::env::temp_dir().join(format!("sdconv-floor-ratios-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("a temporary folder");

    if measuring {
        // Warm-up: page cache, allocator, the fonts the Word writer's TOC layout reads.
        for (_, floor) in FLOORS {
            run_floor(&input, floor, &out);
        }
        for (name, route) in PATHS {
            run_path(&input, name, route, &out);
        }
    }
    let mut floors: Vec<Vec<Duration>> = vec![Vec::new(); FLOORS.len()];
    let mut times: Vec<Vec<Stages>> = vec![Vec::new(); PATHS.len()];
    let run_floors = |floors: &mut Vec<Vec<Duration>>| {
        for (i, (_, floor)) in FLOORS.iter().enumerate() {
            floors[i].push(run_floor(&input, *floor, &out));
        }
    };
    for round in 0..rounds {
        // Alternate the order so neither side always runs on a cache the other warmed.
        if round % 2 == 0 {
            run_floors(&mut floors);
        }
        for (i, (name, route)) in PATHS.iter().enumerate() {
            times[i].push(run_path(&input, name, *route, &out));
        }
        if round % 2 == 1 {
            run_floors(&mut floors);
        }
    }
    if !measuring {
        // The smoke test: every path wrote something.
        for (name, _) in PATHS {
            let file = out.join(file_name(name));
            let len = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            assert!(len > 0, "{name}: nothing written to {}", file.display());
        }
    }
    std::fs::remove_dir_all(&out).ok();

    let floor_times: Vec<Duration> = floors.iter_mut().map(|f| median(f)).collect();
    let floor_of = |floor: Floor| {
        FLOORS
            .iter()
            .position(|(_, f)| *f == floor)
            .and_then(|i| floor_times.get(i).copied())
            .unwrap_or_default()
    };
    for (i, (name, _)) in FLOORS.iter().enumerate() {
        println!(
            "{name}: {} (median of {}, {:.2}× floor_repack)",
            ms(floor_times[i]),
            floors[i].len(),
            floor_times[i].as_secs_f64() / floor_of(Floor::Repack).as_secs_f64(),
        );
    }
    println!("input: {} MB", input.len() / 1_000_000);
    println!(
        "{:<26} {:>8} {:>8} {:>9} {:>8} {:>8} {:>8}",
        "path", "× repack", "× own", "total ms", "read", "prepare", "write"
    );
    for (i, (name, route)) in PATHS.iter().enumerate() {
        let t = &times[i];
        let pick = |f: fn(&Stages) -> Duration| median(&mut t.iter().map(f).collect::<Vec<_>>());
        let total = pick(Stages::total);
        println!(
            "{:<26} {:>8.2} {:>8.2} {:>9} {:>8} {:>8} {:>8}",
            name,
            total.as_secs_f64() / floor_of(Floor::Repack).as_secs_f64(),
            total.as_secs_f64() / floor_of(route.floor()).as_secs_f64(),
            ms(total),
            ms(pick(|s| s.read)),
            ms(pick(|s| s.prepare)),
            ms(pick(|s| s.write)),
        );
    }
}

/// The benchmark document, or a generated Word file when it is absent.
fn input() -> Bytes {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench/large.docx");
    if let Ok(bytes) = std::fs::read(path) {
        return bytes.into();
    }
    eprintln!("floor_ratios: {path} not found, using a generated Word file");
    let doc = sdconv::internal::sample::large_document(2_000, 40, 20, 1);
    sdconv::export(&doc, Format::Word, &ExportOptions::default())
        .expect("the sample exports")
        .value
        .into()
}

fn run_floor(input: &Bytes, which: Floor, out: &Path) -> Duration {
    let start = Instant::now();
    match which {
        Floor::Repack => {
            let sink = BufWriter::with_capacity(64 * 1024, create(&out.join("floor.zip")));
            let (_, sink) = floor::floor(input, Some((sink, Output::Package))).expect("repacks");
            if let Some(sink) = sink {
                sink.into_inner().expect("written");
            }
        }
        Floor::Unpack => {
            let dir = out.join("floor-unpack");
            std::fs::create_dir_all(&dir).expect("a floor folder");
            floor::unpack(input, &dir).expect("unpacks");
        }
        Floor::Inline => {
            let sink = BufWriter::with_capacity(64 * 1024, create(&out.join("floor-inline")));
            let (_, sink) = floor::inline(input, sink).expect("inlines");
            sink.into_inner().expect("written");
        }
    }
    start.elapsed()
}

fn run_path(input: &Bytes, name: &str, route: Route, out: &Path) -> Stages {
    let target = out.join(file_name(name));
    let mut options = ImportOptions::default();
    // As `sdconv convert` does: the single-file page's pictures are inflated while the tree is
    // built.
    options.docx = options
        .docx
        .with_inflate_pictures(route == Route::HtmlAllInOne);
    let start = Instant::now();
    let doc = sdconv::import_shared(Format::Word, input.clone(), &options)
        .expect("the benchmark document reads")
        .value;
    let read = start.elapsed();
    let start = Instant::now();
    let (doc, options) = ExportOptions::default().prepare_owned(doc);
    let prepare = start.elapsed();
    let start = Instant::now();
    write(&doc, route, &options, &target);
    let write = start.elapsed();
    // As `sdconv convert` does: the tree is freed on the pool, after the output is written.
    rayon::spawn(move || drop(doc));
    Stages {
        read,
        prepare,
        write,
    }
}

/// Writes `doc` as `sdconv convert` does for `route`: zip formats straight into the file, folders
/// as a page (or text) and its pictures written in parallel, a picture still deflated inflated
/// straight into its file.
fn write(doc: &Document, route: Route, options: &ExportOptions, target: &Path) {
    match route {
        Route::Docx | Route::SdxmlZip => {
            let format = if route == Route::Docx {
                Format::Word
            } else {
                Format::Sdxml
            };
            let mut sink = BufWriter::with_capacity(64 * 1024, create(target));
            sdconv::export_to(doc, format, options, &mut sink).expect("the tree writes");
            sink.into_inner().expect("written");
        }
        Route::HtmlAllInOne => {
            // As `convert`: the page goes into its file as it is made.
            sdconv::export_to(doc, Format::HtmlAllInOne, options, create(target))
                .expect("the tree writes");
        }
        Route::HtmlFolder => {
            let parts = html::write_parts(doc, &options.html).value;
            create(target)
                .write_all(parts.html.as_bytes())
                .expect("written");
            let dir = target.parent().unwrap_or(target);
            create(&dir.join("style.css"))
                .write_all(html::STYLESHEET.as_bytes())
                .expect("written");
            pictures(dir, &parts.images);
        }
        Route::Markdown => {
            let parts = markdown::write_parts(doc, &options.markdown).value;
            create(target)
                .write_all(parts.text.as_bytes())
                .expect("written");
            pictures(target.parent().unwrap_or(target), &parts.images);
        }
    }
}

fn pictures(dir: &Path, images: &[(String, MediaItem)]) {
    images.par_iter().for_each(|(name, item)| {
        let file: PathBuf = dir.join(name);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).expect("a picture folder");
        }
        let mut sink =
            BufWriter::with_capacity(sdconv::internal::archive::COPY_PIECE, create(&file));
        item.write_to(&mut sink).expect("the picture writes");
        sink.into_inner().expect("written");
    });
}

fn file_name(path_name: &str) -> String {
    let ext = match path_name {
        n if n.ends_with("docx") => "docx",
        n if n.ends_with("zip") => "sdxml.zip",
        n if n.ends_with("Markdown") => "md",
        n if n.ends_with("single-file HTML") => "single.html",
        _ => "html",
    };
    format!("out.{ext}")
}

fn create(path: &Path) -> File {
    File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}
