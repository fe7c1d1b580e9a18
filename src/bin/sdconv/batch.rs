//! `sdconv batch`: convert many files in one process, in parallel on one rayon pool.
//!
//! Each file is isolated: a failure is reported and the batch goes on, a file past `--timeout`
//! is given up on, a panic (a bug) is caught and reported naming the file. Outputs are written
//! under a temporary hidden name (`.NAME.partial`) and renamed into place, so a killed batch
//! never leaves a half-written output under its real name; the next run removes the leftover.
//! Existing outputs are kept unless `--force`; `--resume` converts again only inputs newer than
//! their output.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use sdconv::Format;

use crate::Failure;
use crate::batch_inputs::{Filter, Job, Layout, expand_stdin, plan};
use crate::batch_progress::Progress;
use crate::batch_report::{BatchReport, FailureKind, FileReport, Status, human_bytes, round};
use crate::batch_run::{Ended, Guard, run_all};
use crate::convert::{self, Options};
use crate::detect::read_input;

/// What `sdconv batch` was asked to do.
pub struct Args {
    /// Files, folders, `-`.
    pub inputs: Vec<PathBuf>,
    /// The output format.
    pub to: Format,
    /// Where the output tree goes.
    pub out_dir: PathBuf,
    /// The input format, when not told by each file.
    pub from: Option<Format>,
    /// Globs selecting files found in folders.
    pub include: Vec<String>,
    /// Globs leaving files found in folders out.
    pub exclude: Vec<String>,
    /// Threads (default: all cores).
    pub jobs: Option<usize>,
    /// Time limit per file.
    pub timeout: Option<Duration>,
    /// Replace existing outputs.
    pub force: bool,
    /// Convert again only inputs newer than their output.
    pub resume: bool,
    /// No progress, no summary.
    pub quiet: bool,
    /// Report files (`.json` or `.html`).
    pub reports: Vec<PathBuf>,
    /// The conversion options, built once for all files.
    pub options: Options,
}

/// Which report forms, by the report file's extension.
#[derive(Clone, Copy)]
enum ReportForm {
    Json,
    Html,
}

/// What a batch ended with: whether every file converted (or was kept).
pub fn run(args: Args) -> Result<bool, Failure> {
    let reports = args
        .reports
        .iter()
        .map(|path| {
            let ext = path
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            match ext.as_deref() {
                Some("json") => Ok((path.clone(), ReportForm::Json)),
                Some("html" | "htm") => Ok((path.clone(), ReportForm::Html)),
                _ => Err(Failure::Usage(format!(
                    "--report {}: the name must end in .json or .html",
                    path.display()
                ))),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if !args.to.can_write() {
        return Err(Failure::convert(
            "batch",
            format!("format {} is not available yet", args.to),
        ));
    }
    let filter = Filter::new(&args.include, &args.exclude)?;
    let inputs = expand_stdin(&args.inputs)?;
    let jobs_n = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    std::fs::create_dir_all(&args.out_dir).map_err(|e| {
        Failure::convert(
            args.out_dir.display().to_string(),
            format!("cannot create: {e}"),
        )
    })?;
    let jobs = plan(&inputs, &args.out_dir, &filter, &Layout::new(args.to));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs_n)
        .thread_name(|i| format!("sdconv-batch-{i}"))
        .build()
        .map_err(|e| Failure::convert("batch", format!("cannot start threads: {e}")))?;

    // A panic is reported in the file's line; the default hook's message on stderr would only
    // tear the progress display. Panics outside the pool's jobs still print.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if rayon::current_thread_index().is_none() {
            default_hook(info);
        }
    }));

    let begin = Instant::now();
    // Both of run_all's callbacks update it, one at a time, on this thread.
    let progress = std::cell::RefCell::new(Progress::new(jobs.len(), args.quiet));
    let mut files: Vec<Option<FileReport>> = vec![None; jobs.len()];
    let jobs = Arc::new(jobs);
    let ctx = Arc::new(Context {
        to: args.to,
        from: args.from,
        force: args.force,
        resume: args.resume,
        options: args.options,
    });
    let work = {
        let (jobs, ctx) = (Arc::clone(&jobs), Arc::clone(&ctx));
        move |i: usize, guard: &Guard<'_>| process(&jobs[i], &ctx, guard)
    };
    // How often the time limits are checked and the progress redrawn: often enough that a file
    // overruns its limit by at most half of it.
    let tick = args.timeout.map_or(Duration::from_millis(100), |t| {
        (t / 2).clamp(Duration::from_millis(1), Duration::from_millis(100))
    });
    run_all(
        &pool,
        jobs.len(),
        args.timeout,
        tick,
        work,
        |i, ended, time| {
            let job = &jobs[i];
            let mut report = match ended {
                Ended::Done(report) => report,
                Ended::TimedOut => failed(
                    job,
                    FailureKind::Timeout,
                    format!(
                        "gave up after {:.1} s (--timeout); nothing written",
                        time.as_secs_f64()
                    ),
                ),
                Ended::Panicked(message) => failed(
                    job,
                    FailureKind::Panic,
                    format!(
                        "bug: sdconv panicked converting this file ({message}); nothing written. \
                         Please report it with the file"
                    ),
                ),
            };
            report.ms = round(time.as_secs_f64() * 1e3);
            let is_failure = report.status == Status::Failed;
            let mut progress = progress.borrow_mut();
            if is_failure {
                let message = report
                    .error
                    .as_deref()
                    .unwrap_or("")
                    .replace(['\r', '\n'], " ");
                progress.println(&format!("sdconv: {}: {message}", report.input));
            }
            progress.file_done(is_failure, report.bytes_in);
            files[i] = Some(report);
        },
        || progress.borrow_mut().tick(),
    );

    let wall = begin.elapsed();
    let files: Vec<FileReport> = files
        .into_iter()
        .zip(jobs.iter())
        .map(|(report, job)| {
            // Every job ends before run_all returns; should one not, say so rather than drop it.
            report.unwrap_or_else(|| {
                failed(
                    job,
                    FailureKind::Panic,
                    "bug: the job never reported back".into(),
                )
            })
        })
        .collect();
    let report = BatchReport::new(
        args.to.to_string(),
        args.out_dir.display().to_string(),
        jobs_n,
        files,
        wall.as_secs_f64() * 1e3,
    );
    let t = &report.totals;
    progress.borrow().finish(&format!(
        "sdconv batch: {} files: {} converted, {} skipped, {} failed, {} warnings; {} in, {} out; {:.2} s",
        t.files,
        t.converted,
        t.skipped,
        t.failed,
        t.warnings,
        human_bytes(t.bytes_in),
        human_bytes(t.bytes_out),
        wall.as_secs_f64()
    ));
    if jobs.is_empty() && !args.quiet {
        eprintln!("sdconv batch: no input files found");
    }
    for (path, form) in reports {
        let text = match form {
            ReportForm::Json => report.to_json(),
            ReportForm::Html => report.to_html(),
        };
        write_atomically(&path, text.as_bytes()).map_err(|e| {
            Failure::convert(path.display().to_string(), format!("cannot write: {e}"))
        })?;
    }
    Ok(report.totals.failed == 0)
}

/// What every job needs besides its own paths.
struct Context {
    to: Format,
    from: Option<Format>,
    force: bool,
    resume: bool,
    options: Options,
}

/// A failed file's report line.
fn failed(job: &Job, kind: FailureKind, message: String) -> FileReport {
    FileReport {
        input: job.input.display().to_string(),
        output: Some(job.main.display().to_string()),
        status: Status::Failed,
        failure: Some(kind),
        error: Some(message),
        warnings: Default::default(),
        ms: 0.0,
        bytes_in: 0,
        bytes_out: 0,
    }
}

/// Converts one file and puts its output in place.
fn process(job: &Job, ctx: &Context, guard: &Guard<'_>) -> FileReport {
    let mut report = failed(job, FailureKind::Error, String::new());
    let partial = partial_name(&job.target);
    // A killed earlier run may have left this output half-written under its temporary name.
    remove_any(&partial);
    if let Some(conflict) = &job.conflict {
        report.error = Some(conflict.clone());
        return report;
    }
    if let Some(why) = keep_existing(job, ctx) {
        report.status = Status::Skipped;
        report.failure = None;
        report.error = Some(why.into());
        return report;
    }
    let input = match read_input(&job.input) {
        Ok(input) => input,
        Err(failure) => {
            report.error = Some(message(failure, job));
            return report;
        }
    };
    report.bytes_in = input.bytes.len() as u64;
    let folder = job.target != job.main;
    // Where the main file goes while being written: in the temporary folder, or the temporary
    // file itself.
    let main_partial = match job.main.file_name() {
        Some(name) if folder => partial.join(name),
        _ => partial.clone(),
    };
    let converted = match convert::convert(
        &input,
        &job.input,
        ctx.from,
        ctx.to,
        Some(&main_partial),
        // The temporary name is this job's own: written into directly.
        true,
        &ctx.options,
    ) {
        Ok(converted) => converted,
        Err(failed) => {
            count_warnings(&mut report, &failed.warnings);
            report.error = Some(message(failed.failure, job));
            return report;
        }
    };
    count_warnings(&mut report, &converted.warnings);
    report.bytes_out = converted.value.iter().map(|(_, b)| b.byte_len()).sum();
    match convert::write_files(&main_partial, &converted.value, None, &|_| {}) {
        Ok(warnings) => count_warnings(&mut report, &warnings),
        Err(failure) => {
            remove_any(&partial);
            report.bytes_out = 0;
            report.error = Some(message(failure, job));
            return report;
        }
    }
    if !guard.commit() {
        // Timed out meanwhile: the batch reported this file as failed; its output must not
        // appear.
        remove_any(&partial);
        return report;
    }
    if let Err(e) = put_in_place(&partial, &job.target) {
        remove_any(&partial);
        report.bytes_out = 0;
        report.error = Some(format!("cannot write {}: {e}", job.target.display()));
        return report;
    }
    report.status = Status::Converted;
    report.failure = None;
    report.error = None;
    report
}

/// Why an existing output is kept, if it is.
fn keep_existing(job: &Job, ctx: &Context) -> Option<&'static str> {
    if ctx.force || !job.target.exists() {
        return None;
    }
    if !ctx.resume {
        return Some("output exists (--force replaces it)");
    }
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let output = modified(&job.main).unwrap_or(SystemTime::UNIX_EPOCH);
    match modified(&job.input) {
        Some(input) if input > output => None,
        // The input cannot be read: converting it will fail and say why.
        None => None,
        Some(_) => Some("output is newer than the input (--resume)"),
    }
}

fn count_warnings(report: &mut FileReport, warnings: &[sdconv::Warning]) {
    for w in warnings {
        let kind = serde_json::to_value(w.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_else(|| format!("{:?}", w.kind));
        *report.warnings.entry(kind).or_default() += 1;
    }
}

/// A failure's text for the report line of `job`, which already names the input.
fn message(failure: Failure, job: &Job) -> String {
    match failure {
        Failure::Usage(m) => m,
        Failure::Convert { file, message } if Path::new(&file) == job.input => message,
        Failure::Convert { file, message } => format!("{file}: {message}"),
    }
}

/// `dir/.NAME.partial` for `dir/NAME`.
fn partial_name(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.partial"))
}

/// Removes a file or folder, if there.
fn remove_any(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// Renames the finished `partial` to `target`. A file replaces an old one atomically; a folder
/// cannot replace a non-empty one, so an old folder is first moved aside and removed after.
fn put_in_place(partial: &Path, target: &Path) -> std::io::Result<()> {
    if partial.is_dir() && target.exists() {
        let old = target.with_file_name(format!(
            ".{}.old",
            target
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ));
        remove_any(&old);
        std::fs::rename(target, &old)?;
        std::fs::rename(partial, target)?;
        remove_any(&old);
        return Ok(());
    }
    std::fs::rename(partial, target)
}

/// Writes `bytes` to `path` through a temporary name, so a reader never sees half a file.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let partial = partial_name(path);
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}
