//! `sdconv batch` as an operator runs it: the built binary on temporary folders.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use sdconv::internal::sample::{large_document, small_document};
use sdconv::{ExportOptions, Format, ImportOptions};

fn sdconv(args: &[&str], dir: &Path) -> Output {
    sdconv_stdin(args, dir, "")
}

fn sdconv_stdin(args: &[&str], dir: &Path, stdin: &str) -> Output {
    common::sdconv_with_stdin(args, dir, stdin.as_bytes())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn export(format: Format) -> Vec<u8> {
    sdconv::export(&small_document(), format, &ExportOptions::default())
        .expect("export sample")
        .value
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

/// `in/` with documents in several formats, nested, plus files a batch must not take.
fn input_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("in");
    write(&root.join("a.docx"), &export(Format::Word));
    write(&root.join("sub/b.sdxml.zip"), &export(Format::Sdxml));
    write(&root.join("sub/deep/c.json"), &export(Format::Json));
    write(&root.join("sub/deep/d.md"), b"# Title\n\nSome *text*.\n");
    write(&root.join("notes.txt"), b"not a document");
    write(&root.join(".hidden/e.docx"), &export(Format::Word));
    dir
}

/// Every file below `dir`, relative, sorted.
fn files_below(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let rel = path.strip_prefix(root).expect("below root");
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    if dir.is_dir() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}

fn report(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).expect("read report")).expect("report is JSON")
}

#[test]
fn output_tree_mirrors_input_tree() {
    let dir = input_tree();
    let out = sdconv(
        &["batch", "in", "--to", "json", "--out-dir", "out", "-q"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        files_below(&dir.path().join("out")),
        ["a.json", "sub/b.json", "sub/deep/c.json", "sub/deep/d.json"]
    );
    // Each output is the conversion of its own input.
    let a = std::fs::read(dir.path().join("out/a.json")).expect("a.json");
    let tree = sdconv::import(Format::Json, &a, &ImportOptions::default()).expect("json reads");
    let direct = sdconv::import(
        Format::Word,
        &export(Format::Word),
        &ImportOptions::default(),
    )
    .expect("docx reads");
    assert_eq!(tree.value.blocks, direct.value.blocks);
    let d = std::fs::read_to_string(dir.path().join("out/sub/deep/d.json")).expect("d.json");
    assert!(d.contains("Title"), "{d}");

    // html: a folder per document, holding the page, its stylesheet and its images.
    let out = sdconv(
        &["batch", "in/a.docx", "--to", "html", "--out-dir", "web"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let web = files_below(&dir.path().join("web"));
    assert!(web.contains(&"a/index.html".to_string()), "{web:?}");
    assert!(web.contains(&"a/style.css".to_string()), "{web:?}");
    assert!(web.iter().any(|f| f.starts_with("a/images/")), "{web:?}");
    // Not quiet, not a terminal: a summary line.
    assert!(stderr(&out).contains("1 converted"), "{}", stderr(&out));
}

#[test]
fn include_and_exclude_select_files_in_folders() {
    let dir = input_tree();
    let args = [
        "batch",
        "in",
        "--to",
        "json",
        "--out-dir",
        "out",
        "-q",
        "--include",
        "*.docx",
        "--include",
        "sub/**/*.md",
        "--exclude",
        "a.*",
    ];
    let out = sdconv(&args, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(files_below(&dir.path().join("out")), ["sub/deep/d.json"]);

    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "json",
            "--out-dir",
            "o",
            "--include",
            "[",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("bad glob"), "{}", stderr(&out));
}

#[test]
fn paths_from_standard_input() {
    let dir = input_tree();
    let list = "in/a.docx\n\nin/sub/deep\n";
    let out = sdconv_stdin(
        &["batch", "-", "--to", "word", "--out-dir", "out", "-q"],
        dir.path(),
        list,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A file named goes to the top; a folder's files keep their place below it.
    assert_eq!(
        files_below(&dir.path().join("out")),
        ["a.docx", "c.docx", "d.docx"]
    );
}

#[test]
fn a_failing_file_is_reported_and_the_batch_goes_on() {
    let dir = input_tree();
    write(
        &dir.path().join("in/broken.docx"),
        b"PK\x03\x04 this is no zip",
    );
    write(&dir.path().join("in/sub/empty.sdxml"), b"");
    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "sdxml",
            "--out-dir",
            "out",
            "--report",
            "r.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("broken.docx"), "{err}");
    assert!(err.contains("2 failed"), "{err}");
    // The good files were converted all the same; the broken ones left nothing behind.
    assert_eq!(
        files_below(&dir.path().join("out")),
        [
            "a.sdxml.zip",
            "sub/b.sdxml.zip",
            "sub/deep/c.sdxml.zip",
            "sub/deep/d.sdxml.zip"
        ]
    );
    let r = report(&dir.path().join("r.json"));
    let broken = r["files"]
        .as_array()
        .expect("files")
        .iter()
        .find(|f| {
            f["input"]
                .as_str()
                .is_some_and(|i| i.ends_with("broken.docx"))
        })
        .expect("broken.docx in the report");
    assert_eq!(broken["status"], "failed");
    assert_eq!(broken["failure"], "error");
    assert!(
        !broken["error"].as_str().unwrap_or("").is_empty(),
        "{broken}"
    );
    assert_eq!(r["totals"]["failed"], 2);
    assert_eq!(r["totals"]["converted"], 4);
}

#[test]
fn existing_outputs_are_kept_unless_forced_and_resume_redoes_newer_inputs() {
    let dir = input_tree();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "batch",
            "in",
            "--to",
            "json",
            "--out-dir",
            "out",
            "--report",
            "r.json",
        ];
        args.extend_from_slice(extra);
        let out = sdconv(&args, dir.path());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        report(&dir.path().join("r.json"))
    };
    let status = |r: &serde_json::Value, name: &str| {
        r["files"]
            .as_array()
            .expect("files")
            .iter()
            .find(|f| f["input"].as_str().is_some_and(|i| i.ends_with(name)))
            .map(|f| f["status"].as_str().unwrap_or("").to_string())
            .expect("file in report")
    };
    let r = run(&[]);
    assert_eq!(r["totals"]["converted"], 4);
    let a_out = dir.path().join("out/a.json");
    std::fs::write(&a_out, "kept").expect("mark output");

    // Again: every output exists and is kept.
    let r = run(&[]);
    assert_eq!(r["totals"]["skipped"], 4);
    assert_eq!(std::fs::read_to_string(&a_out).expect("a.json"), "kept");

    // --resume: only an input newer than its output is converted again.
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&a_out)
        .and_then(|f| f.set_modified(old))
        .expect("age output");
    let r = run(&["--resume"]);
    assert_eq!(status(&r, "a.docx"), "converted");
    assert_eq!(status(&r, "c.json"), "skipped");
    assert_eq!(r["totals"]["converted"], 1);
    assert_ne!(std::fs::read_to_string(&a_out).expect("a.json"), "kept");

    // --force: everything again.
    std::fs::write(&a_out, "kept").expect("mark output");
    let r = run(&["--force"]);
    assert_eq!(r["totals"]["converted"], 4);
    assert_ne!(std::fs::read_to_string(&a_out).expect("a.json"), "kept");

    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "json",
            "--out-dir",
            "out",
            "--force",
            "--resume",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn json_report_has_every_field() {
    let dir = input_tree();
    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "html",
            "--out-dir",
            "out",
            "-q",
            "--report",
            "r.json",
            "-j",
            "2",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = report(&dir.path().join("r.json"));
    assert_eq!(r["to"], "html");
    assert_eq!(r["jobs"], 2);
    let files = r["files"].as_array().expect("files");
    assert_eq!(files.len(), 4);
    let mut sum_in = 0;
    let mut sum_out = 0;
    for f in files {
        let input = f["input"].as_str().expect("input");
        let output = f["output"].as_str().expect("output");
        assert_eq!(f["status"], "converted", "{f}");
        assert!(f["ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{f}");
        assert!(f["warnings"].is_object(), "{f}");
        let bytes_in = f["bytes_in"].as_u64().expect("bytes_in");
        assert_eq!(
            bytes_in,
            std::fs::metadata(dir.path().join(input))
                .expect("input")
                .len()
        );
        assert!(dir.path().join(output).is_file(), "{output}");
        assert!(output.ends_with("/index.html"), "{output}");
        sum_in += bytes_in;
        sum_out += f["bytes_out"].as_u64().expect("bytes_out");
    }
    assert_eq!(r["totals"]["bytes_in"], sum_in);
    assert_eq!(r["totals"]["bytes_out"], sum_out);
    assert_eq!(r["totals"]["files"], 4);
    assert!(r["totals"]["wall_ms"].as_f64().is_some_and(|ms| ms > 0.0));
}

/// The warnings, by kind, that converting a document with a lossy target gives.
#[test]
fn warnings_are_counted_by_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Markdown cannot hold a table inside a table cell: the writer warns.
    let md = sdconv::export(&small_document(), Format::Json, &ExportOptions::default())
        .expect("json")
        .value;
    write(&dir.path().join("in/doc.json"), &md);
    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "markdown",
            "--out-dir",
            "out",
            "-q",
            "--report",
            "r.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = report(&dir.path().join("r.json"));
    let by_kind = r["files"][0]["warnings"].as_object().expect("warnings");
    let total: u64 = by_kind.values().filter_map(|v| v.as_u64()).sum();
    assert_eq!(r["totals"]["warnings"].as_u64(), Some(total));
    // A JSON dump holds no image bytes, so the Markdown writer reports the missing images.
    assert!(total > 0, "{r}");
    assert!(
        by_kind
            .keys()
            .all(|k| k.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
    );
}

#[test]
fn html_report_totals_match_the_json_report() {
    let dir = input_tree();
    write(
        &dir.path().join("in/broken.docx"),
        b"not even a zip <script>",
    );
    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "html",
            "--out-dir",
            "out",
            "-q",
            "--report",
            "r.json",
            "--report",
            "r.html",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = report(&dir.path().join("r.json"));
    let html = std::fs::read_to_string(dir.path().join("r.html")).expect("r.html");
    assert!(html.starts_with("<!DOCTYPE html>"));
    // Self-contained: nothing fetched, nothing run.
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href="));
    for key in [
        "files",
        "converted",
        "skipped",
        "failed",
        "warnings",
        "bytes_in",
        "bytes_out",
    ] {
        let marker = format!("data-total=\"{key}\" data-value=\"");
        let start = html
            .find(&marker)
            .unwrap_or_else(|| panic!("no {key} total"))
            + marker.len();
        let value = &html[start..start + html[start..].find('"').expect("closing quote")];
        assert_eq!(value, r["totals"][key].to_string(), "{key}");
    }
    assert!(html.contains("<svg"), "a chart");
    assert!(html.contains("broken.docx"), "the failure is listed");
    // One bar per converted or failed file.
    assert_eq!(html.matches("<rect class=\"bar").count(), 5);
}

#[test]
fn usage_errors_exit_2() {
    let dir = input_tree();
    for args in [
        &["batch", "in", "--out-dir", "out"][..],
        &["batch", "in", "--to", "json"],
        &["batch", "--to", "json", "--out-dir", "out"],
        &[
            "batch",
            "in",
            "--to",
            "json",
            "--out-dir",
            "out",
            "--report",
            "r.txt",
        ],
        &["batch", "in", "--to", "json", "--out-dir", "out", "-j", "0"],
        &[
            "batch",
            "in",
            "--to",
            "json",
            "--out-dir",
            "out",
            "--timeout",
            "-1",
        ],
    ] {
        let out = sdconv(args, dir.path());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn two_inputs_with_one_output_name_do_not_overwrite_each_other() {
    let dir = input_tree();
    write(&dir.path().join("in/a.sdxml"), &export(Format::Sdxml));
    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "json",
            "--out-dir",
            "out",
            "--report",
            "r.json",
            "-q",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("already the output of"),
        "{}",
        stderr(&out)
    );
    let r = report(&dir.path().join("r.json"));
    assert_eq!(r["totals"]["failed"], 1, "{r:#}");
}

/// Big enough inputs that a batch takes a while: a kill lands in the middle of it.
fn slow_inputs(dir: &Path, count: usize) -> PathBuf {
    let doc = large_document(3000, 20, 6, 7);
    let bytes = sdconv::export(&doc, Format::Sdxml, &ExportOptions::default())
        .expect("sd.xml")
        .value;
    let root = dir.join("in");
    for i in 0..count {
        write(&root.join(format!("doc{i:02}.sdxml.zip")), &bytes);
    }
    root
}

/// Kills a batch once its first output appears, with `signal`, then checks that what is there
/// is whole and that `--resume` finishes the rest.
fn kill_midway_then_resume(signal: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let count = 24;
    slow_inputs(dir.path(), count);
    let out_dir = dir.path().join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sdconv"))
        .args([
            "batch",
            "in",
            "--to",
            "word",
            "--out-dir",
            "out",
            "-q",
            "-j",
            "1",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start batch");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !files_below(&out_dir).iter().any(|f| f.ends_with(".docx")) {
        assert!(Instant::now() < deadline, "no output appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
    if signal == "KILL" {
        child.kill().expect("SIGKILL");
    } else {
        let pid = libc::pid_t::try_from(child.id()).expect("pid fits");
        // SAFETY: kill(2) with our own child's pid and a valid signal number touches no memory.
        let sent = unsafe { libc::kill(pid, libc::SIGTERM) };
        assert_eq!(sent, 0, "SIGTERM not sent");
    }
    let status = child.wait().expect("wait");
    assert!(!status.success(), "killed midway, not finished");

    let done: Vec<String> = files_below(&out_dir)
        .into_iter()
        .filter(|f| !f.starts_with('.'))
        .collect();
    assert!(!done.is_empty() && done.len() < count, "{done:?}");
    // Every output under its real name is whole: Word's own reader takes it.
    for name in &done {
        let bytes = std::fs::read(out_dir.join(name)).expect("read output");
        sdconv::import(Format::Word, &bytes, &ImportOptions::default())
            .unwrap_or_else(|e| panic!("{name} is partial: {e}"));
    }

    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "word",
            "--out-dir",
            "out",
            "--resume",
            "--report",
            "r.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let r = report(&dir.path().join("r.json"));
    assert_eq!(r["totals"]["skipped"].as_u64(), Some(done.len() as u64));
    assert_eq!(
        r["totals"]["converted"].as_u64(),
        Some((count - done.len()) as u64)
    );
    // All there, and no temporary file left.
    let all = files_below(&out_dir);
    assert_eq!(all.len(), count, "{all:?}");
    assert!(
        all.iter()
            .all(|f| f.ends_with(".docx") && !f.starts_with('.')),
        "{all:?}"
    );
}

#[test]
fn sigkill_midway_leaves_no_partial_output_and_resume_finishes() {
    kill_midway_then_resume("KILL");
}

#[test]
fn sigterm_midway_leaves_no_partial_output_and_resume_finishes() {
    kill_midway_then_resume("TERM");
}

#[test]
fn timeout_gives_up_on_a_file_and_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    slow_inputs(dir.path(), 2);
    write(&dir.path().join("in/small.json"), &export(Format::Json));
    // A limit no real conversion of the large inputs meets; the small one does.
    let out = sdconv(
        &[
            "batch",
            "in",
            "--to",
            "word",
            "--out-dir",
            "out",
            "-q",
            "--timeout",
            "0.001",
            "--report",
            "r.json",
        ],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let r = report(&dir.path().join("r.json"));
    let timeouts = r["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter(|f| f["failure"] == "timeout")
        .count();
    assert!(timeouts >= 1, "{r}");
    // A timed-out file's output never appears.
    for f in r["files"].as_array().expect("files") {
        if f["failure"] == "timeout" {
            let output = dir.path().join(f["output"].as_str().expect("output"));
            assert!(!output.exists(), "{}", output.display());
        }
    }
}

#[test]
fn an_output_folder_inside_the_input_is_not_converted_again() {
    let dir = input_tree();
    for _ in 0..2 {
        let out = sdconv(
            &[
                "batch",
                "in",
                "--to",
                "json",
                "--out-dir",
                "in/out",
                "--report",
                "r.json",
                "-q",
            ],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
    // The second run saw the same four inputs (all kept), not the first run's outputs.
    let r = report(&dir.path().join("r.json"));
    assert_eq!(r["totals"]["files"], 4, "{r}");
    assert_eq!(r["totals"]["skipped"], 4, "{r}");
}
