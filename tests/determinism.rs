//! Every writer gives the same bytes for the same tree and options: run after run, thread
//! after thread, process after process (zip times, ids, map iteration order), and written into
//! a sink (`export_to`, how the CLI writes files) as in memory. Checked on the generated
//! samples, on arbitrary trees and on the real corpus.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use proptest::prelude::*;
use sdconv::internal::sample::{large_document, small_document};
use sdconv::{Document, ExportOptions, Format, ImportOptions};

/// The formats this build writes; the others are named as skipped (PDF is written elsewhere and
/// joins here by itself once `Format::can_write` says so).
fn writable() -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|f| {
            let ok = f.can_write();
            if !ok {
                eprintln!("skipped: {f} is not available yet");
            }
            ok
        })
        .collect()
}

/// Options that switch on what draws ids, numbers and generated parts: captions, directories,
/// compressed images.
fn rich_options() -> ExportOptions {
    let mut options = ExportOptions::default();
    options.word.settings = options
        .word
        .settings
        .with_image_caption(true)
        .with_table_caption(true)
        .with_text_toc(true)
        .with_image_toc(true)
        .with_table_toc(true)
        .with_compressed_images(true);
    options
}

/// `doc` in `format`, or `None` when the writer refuses this tree (then it must refuse it
/// every time, which the caller checks by comparing the `Err` text).
fn write(doc: &Document, format: Format, options: &ExportOptions) -> Result<Vec<u8>, String> {
    sdconv::export(doc, format, options)
        .map(|c| c.value)
        .map_err(|e| e.to_string())
}

/// `doc` in `format` written into a sink, as [`write`] gives it.
fn write_into_sink(
    doc: &Document,
    format: Format,
    options: &ExportOptions,
) -> Result<Vec<u8>, String> {
    sdconv::export_to(doc, format, options, std::io::Cursor::new(Vec::new()))
        .map(|c| c.value.into_inner())
        .map_err(|e| e.to_string())
}

/// Writes `doc` in every format three times on this thread, once into a sink, and once on each
/// of four threads at the same time; every result must equal the first.
fn assert_deterministic(name: &str, doc: &Document, options: &ExportOptions) {
    for format in writable() {
        let first = write(doc, format, options);
        assert!(
            write_into_sink(doc, format, options) == first,
            "{name} → {format}: written into a sink differs from the bytes in memory"
        );
        for run in 0..2 {
            assert!(
                write(doc, format, options) == first,
                "{name} → {format}: run {} differs from run 0",
                run + 1
            );
        }
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| write(doc, format, options)))
                .collect();
            for (i, h) in handles.into_iter().enumerate() {
                let out = h.join().expect("writer thread");
                assert!(out == first, "{name} → {format}: thread {i} differs");
            }
        });
    }
}

#[test]
fn samples_give_the_same_bytes_every_time() {
    let docs = [
        ("small", small_document()),
        ("large", large_document(300, 8, 4, 3)),
    ];
    for (name, doc) in &docs {
        assert_deterministic(name, doc, &ExportOptions::default());
        assert_deterministic(name, doc, &rich_options());
    }
}

proptest! {
    #![proptest_config(common::config(24))]

    #[test]
    fn arbitrary_trees_give_the_same_bytes_every_time(doc in common::arb::document()) {
        assert_deterministic("arbitrary tree", &doc, &ExportOptions::default());
    }
}

/// The readable files of the shared corpus, by format.
fn corpus() -> Vec<(PathBuf, Format)> {
    let Some(shared) = common::shared_dir() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    let mut stack = vec![shared.join("corpus")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Some(format) = corpus_format(&path) {
                files.push((path, format));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

fn corpus_format(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_str()?;
    if name.ends_with(".docx") {
        Some(Format::Word)
    } else if name.ends_with(".zip") && path.to_string_lossy().contains("/sdxml/") {
        Some(Format::Sdxml)
    } else {
        None
    }
}

#[test]
fn the_corpus_gives_the_same_bytes_every_time() {
    let files = corpus();
    if files.is_empty() {
        return;
    }
    // Two threads over the files (the machine has two cores); each file's own check runs four
    // more threads at once.
    let chunks: Vec<&[(PathBuf, Format)]> = files.chunks(files.len().div_ceil(2)).collect();
    std::thread::scope(|s| {
        for chunk in chunks {
            s.spawn(move || {
                for (path, format) in chunk {
                    let bytes = std::fs::read(path).expect("read corpus file");
                    let Ok(doc) = sdconv::import(*format, &bytes, &ImportOptions::default()) else {
                        continue;
                    };
                    let name = path.display().to_string();
                    assert_deterministic(&name, &doc.value, &ExportOptions::default());
                }
            });
        }
    });
}

/// A new process has new hash seeds: map iteration order that leaked into the output would
/// show here even where one process always agrees with itself.
#[test]
fn separate_processes_give_the_same_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.sdxml.zip");
    let bytes = sdconv::export(&small_document(), Format::Sdxml, &ExportOptions::default())
        .expect("sd.xml")
        .value;
    std::fs::write(&input, bytes).expect("write input");
    for format in writable() {
        let run = || {
            let out = Command::new(env!("CARGO_BIN_EXE_sdconv"))
                .args([
                    "convert",
                    "in.sdxml.zip",
                    "--to",
                    format.name(),
                    "--text-toc",
                ])
                .current_dir(dir.path())
                .output()
                .expect("run sdconv");
            assert!(
                out.status.success(),
                "{format}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            out.stdout
        };
        let first = run();
        assert!(!first.is_empty(), "{format}: no output");
        assert!(
            run() == first,
            "{format}: a second process wrote other bytes"
        );
    }
}
