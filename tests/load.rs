//! The library under load in one process, as the API server runs it: 16 threads convert the
//! corpus in every direction (every reader × every writer this build has) for a bounded time.
//! Every output must equal the one a single thread made, and memory must stay flat from round to
//! round (no leak, no growth).
//!
//! `SDCONV_LOAD_SECONDS` sets the time (default 4 s; at least nine rounds run whatever it says).

mod common;

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sdconv::internal::sample::small_document;
use sdconv::{ExportOptions, Format, ImportOptions};

const THREADS: usize = 16;
/// Three thirds of three rounds: warm-up, middle, last (see the memory check).
const MIN_ROUNDS: usize = 9;

/// One input: its name, format and bytes.
struct Input {
    name: String,
    format: Format,
    bytes: Vec<u8>,
}

/// The corpus's Word and sd.xml files, plus a Markdown and a JSON input so every reader runs.
fn inputs() -> Vec<Input> {
    let sample = small_document();
    let mut inputs = vec![
        Input {
            name: "sample.md".into(),
            format: Format::Markdown,
            bytes: sdconv::export(&sample, Format::Markdown, &ExportOptions::default())
                .expect("markdown")
                .value,
        },
        Input {
            name: "sample.json".into(),
            format: Format::Json,
            bytes: sample.to_json().into_bytes(),
        },
    ];
    let Some(shared) = common::shared_dir() else {
        return inputs;
    };
    let mut files: Vec<(PathBuf, Format)> = Vec::new();
    let mut stack = vec![shared.join("corpus")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path.to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".docx") {
                files.push((path, Format::Word));
            } else if name.ends_with(".zip") && name.contains("/sdxml/") {
                files.push((path, Format::Sdxml));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, format) in files {
        inputs.push(Input {
            name: path.display().to_string(),
            format,
            bytes: std::fs::read(&path).expect("read corpus file"),
        });
    }
    inputs
}

/// What converting one input to one format gave: a hash and length of the bytes, or the error.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Bytes(u64, usize),
    Failed(String),
}

fn convert(input: &Input, to: Format) -> Outcome {
    let doc = match sdconv::import(input.format, &input.bytes, &ImportOptions::default()) {
        Ok(doc) => doc.value,
        Err(e) => return Outcome::Failed(format!("import: {e}")),
    };
    match sdconv::export(&doc, to, &ExportOptions::default()) {
        Ok(out) => {
            // DefaultHasher::new() has fixed keys: the same bytes hash the same in every thread.
            let mut h = DefaultHasher::new();
            out.value.hash(&mut h);
            Outcome::Bytes(h.finish(), out.value.len())
        }
        Err(e) => Outcome::Failed(format!("export: {e}")),
    }
}

/// The process's resident memory in KiB (`VmRSS` of /proc/self/status), if the system has it.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn sixteen_threads_agree_with_one_and_memory_stays_flat() {
    let inputs = inputs();
    let formats: Vec<Format> = Format::ALL.into_iter().filter(|f| f.can_write()).collect();
    let tasks: Vec<(usize, Format)> = (0..inputs.len())
        .flat_map(|i| formats.iter().map(move |&f| (i, f)))
        .collect();
    let reference: Vec<Outcome> = tasks.iter().map(|&(i, f)| convert(&inputs[i], f)).collect();
    assert!(
        reference.iter().any(|o| matches!(o, Outcome::Bytes(..))),
        "nothing converted at all"
    );

    let budget = std::env::var("SDCONV_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map_or(Duration::from_secs(4), Duration::from_secs_f64);
    let start = Instant::now();
    let mut rss = Vec::new();
    let mut rounds = 0;
    while rounds < MIN_ROUNDS || start.elapsed() < budget {
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..THREADS {
                s.spawn(|| {
                    loop {
                        let t = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(i, format)) = tasks.get(t) else {
                            break;
                        };
                        let got = convert(&inputs[i], format);
                        assert_eq!(
                            got, reference[t],
                            "{} → {format}: a thread under load differs from one thread alone",
                            inputs[i].name
                        );
                    }
                });
            }
        });
        rounds += 1;
        if let Some(kib) = rss_kib() {
            rss.push(kib);
        }
    }
    eprintln!(
        "{rounds} rounds of {} conversions on {THREADS} threads in {:.1} s; VmRSS after each (KiB): {rss:?}",
        tasks.len(),
        start.elapsed().as_secs_f64()
    );
    if rss.len() < MIN_ROUNDS {
        eprintln!("skipped memory check: /proc/self/status has no VmRSS here");
        return;
    }
    // The first third of the rounds warms up (an allocator arena per thread, lazily built
    // tables) and is left out: one run's first round stayed at 87 MiB where others reached
    // 107 MiB, which made "the earlier half" too low a yardstick. After that memory must not
    // keep growing: the last third peaks no higher than the middle third plus a tolerance for
    // allocator noise. With PDF among the writers (fonts, deflated pictures) the peak of one
    // round depends on which large conversions happen to run side by side on 16 threads:
    // 94 → 130 MiB was seen once under outside load without any growth trend, so the tolerance
    // is 40 % (≥ 32 MiB).
    let third = rss.len() / 3;
    let early = rss[third..2 * third].iter().copied().max().unwrap_or(0);
    let late = rss[2 * third..].iter().copied().max().unwrap_or(0);
    let tolerance = (early * 2 / 5).max(32 * 1024);
    assert!(
        late <= early + tolerance,
        "memory grows from round to round: {rss:?} KiB (middle third's peak {early}, last third's {late})"
    );
}
