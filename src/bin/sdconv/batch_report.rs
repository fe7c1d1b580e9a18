//! `sdconv batch --report`: what happened to every file, as JSON for programs and as one
//! self-contained HTML page for people (totals, an inline SVG chart of the time per file, the
//! slowest files, warnings grouped by kind with their files, failures with their messages).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

/// What happened to one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Converted and written.
    Converted,
    /// Not converted: its output exists (kept without `--force`, or newer with `--resume`).
    Skipped,
    /// Not converted: see `failure` and `error`.
    Failed,
}

/// Why an input failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// Reading, converting or writing failed (the message says which).
    Error,
    /// The conversion ran past `--timeout`; nothing was written.
    Timeout,
    /// sdconv panicked: a bug, reported with the file's name.
    Panic,
}

/// One input's line in the report.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// The input file, as found.
    pub input: String,
    /// The main output file (`None` when the input failed before one was known).
    pub output: Option<String>,
    /// What happened.
    pub status: Status,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureKind>,
    /// The error, when it failed; why it was skipped, when skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Warnings by kind (`lossy`, `dropped`, … as the library names them).
    pub warnings: BTreeMap<String, usize>,
    /// Wall time spent on this file, in milliseconds.
    pub ms: f64,
    /// Size of the input.
    pub bytes_in: u64,
    /// Size of everything written for it.
    pub bytes_out: u64,
}

/// The sums over all files.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Totals {
    /// Inputs.
    pub files: usize,
    /// Converted.
    pub converted: usize,
    /// Skipped (outputs kept).
    pub skipped: usize,
    /// Failed (errors, timeouts, panics).
    pub failed: usize,
    /// Warnings over all files.
    pub warnings: usize,
    /// Bytes read.
    pub bytes_in: u64,
    /// Bytes written.
    pub bytes_out: u64,
    /// Wall time of the whole batch, in milliseconds.
    pub wall_ms: f64,
    /// Sum of the files' times, in milliseconds (greater than `wall_ms` when files ran in
    /// parallel).
    pub file_ms: f64,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct BatchReport {
    /// The output format.
    pub to: String,
    /// The output folder.
    pub out_dir: String,
    /// Threads used.
    pub jobs: usize,
    /// Sums.
    pub totals: Totals,
    /// Every input, in input order.
    pub files: Vec<FileReport>,
}

impl BatchReport {
    /// The report over `files`; `wall_ms` is the batch's own time.
    pub fn new(
        to: String,
        out_dir: String,
        jobs: usize,
        files: Vec<FileReport>,
        wall_ms: f64,
    ) -> Self {
        let mut totals = Totals {
            files: files.len(),
            wall_ms: round(wall_ms),
            ..Totals::default()
        };
        for f in &files {
            match f.status {
                Status::Converted => totals.converted += 1,
                Status::Skipped => totals.skipped += 1,
                Status::Failed => totals.failed += 1,
            }
            totals.warnings += f.warnings.values().sum::<usize>();
            totals.bytes_in += f.bytes_in;
            totals.bytes_out += f.bytes_out;
            totals.file_ms += f.ms;
        }
        totals.file_ms = round(totals.file_ms);
        BatchReport {
            to,
            out_dir,
            jobs,
            totals,
            files,
        }
    }

    /// The JSON form.
    pub fn to_json(&self) -> String {
        // Plain strings, numbers and maps with string keys: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The HTML page: self-contained (inline CSS and SVG, no script, nothing fetched).
    pub fn to_html(&self) -> String {
        let t = &self.totals;
        let mut h = String::with_capacity(16 * 1024 + 400 * self.files.len());
        h.push_str(concat!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
            "<title>sdconv batch report</title>\n<style>\n",
            include_str!("batch_report.css"),
            "</style>\n</head>\n<body>\n"
        ));
        let _ = write!(
            h,
            "<h1>sdconv batch report</h1>\n<p class=\"sub\">{} files to <b>{}</b> in <code>{}</code>, {} threads</p>\n",
            t.files,
            esc(&self.to),
            esc(&self.out_dir),
            self.jobs
        );
        self.totals_html(&mut h);
        self.chart_html(&mut h);
        self.slowest_html(&mut h);
        self.failures_html(&mut h);
        self.warnings_html(&mut h);
        self.all_files_html(&mut h);
        h.push_str("</body>\n</html>\n");
        h
    }

    fn totals_html(&self, h: &mut String) {
        let t = &self.totals;
        h.push_str("<section class=\"totals\">\n");
        let cards: [(&str, &str, String, &str); 8] = [
            ("files", "files", t.files.to_string(), ""),
            ("converted", "converted", t.converted.to_string(), "ok"),
            ("skipped", "skipped", t.skipped.to_string(), ""),
            (
                "failed",
                "failed",
                t.failed.to_string(),
                if t.failed > 0 { "bad" } else { "" },
            ),
            (
                "warnings",
                "warnings",
                t.warnings.to_string(),
                if t.warnings > 0 { "warn" } else { "" },
            ),
            ("wall_ms", "wall time", format!("{:.0} ms", t.wall_ms), ""),
            ("bytes_in", "read", human_bytes(t.bytes_in), ""),
            ("bytes_out", "written", human_bytes(t.bytes_out), ""),
        ];
        for (key, label, value, class) in cards {
            // data-total carries the raw number, for programs (and the test that checks it
            // against the JSON report).
            let raw = match key {
                "files" => t.files.to_string(),
                "converted" => t.converted.to_string(),
                "skipped" => t.skipped.to_string(),
                "failed" => t.failed.to_string(),
                "warnings" => t.warnings.to_string(),
                "wall_ms" => t.wall_ms.to_string(),
                "bytes_in" => t.bytes_in.to_string(),
                _ => t.bytes_out.to_string(),
            };
            let _ = writeln!(
                h,
                "<div class=\"card {class}\"><div class=\"num\" data-total=\"{key}\" data-value=\"{raw}\">{}</div><div class=\"label\">{label}</div></div>",
                esc(&value)
            );
        }
        h.push_str("</section>\n");
    }

    /// A horizontal bar per file, slowest first, so the long tail is visible at a glance.
    fn chart_html(&self, h: &mut String) {
        const MAX_BARS: usize = 300;
        const ROW: usize = 16;
        const LABEL_W: usize = 330;
        const BAR_W: usize = 760;
        let mut order: Vec<&FileReport> = self
            .files
            .iter()
            .filter(|f| f.status != Status::Skipped)
            .collect();
        order.sort_by(|a, b| b.ms.total_cmp(&a.ms).then_with(|| a.input.cmp(&b.input)));
        let shown = order.len().min(MAX_BARS);
        h.push_str("<h2>Time per file</h2>\n");
        if shown == 0 {
            h.push_str("<p>No file was converted.</p>\n");
            return;
        }
        let max = order[0].ms.max(0.001);
        let height = shown * ROW + 24;
        let _ = writeln!(
            h,
            "<svg class=\"chart\" role=\"img\" aria-label=\"time per file\" viewBox=\"0 0 {w} {height}\" width=\"{w}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">",
            w = LABEL_W + BAR_W + 80
        );
        for (i, f) in order.iter().take(shown).enumerate() {
            let y = i * ROW;
            let width = (f.ms / max * BAR_W as f64).max(1.0);
            let class = if f.status == Status::Failed {
                "bar failed"
            } else {
                "bar"
            };
            let _ = writeln!(
                h,
                "<g><title>{title}: {ms:.1} ms</title><text x=\"{lx}\" y=\"{ty}\" class=\"lbl\">{label}</text><rect class=\"{class}\" x=\"{LABEL_W}\" y=\"{ry}\" width=\"{width:.1}\" height=\"{bh}\"/><text x=\"{vx:.1}\" y=\"{ty}\" class=\"val\">{ms:.1} ms</text></g>",
                title = esc(&f.input),
                label = esc(&shorten(&f.input, 48)),
                lx = LABEL_W - 6,
                ty = y + 12,
                ry = y + 2,
                bh = ROW - 4,
                vx = LABEL_W as f64 + width + 4.0,
                ms = f.ms,
            );
        }
        let axis_y = shown * ROW + 16;
        let _ = writeln!(
            h,
            "<text x=\"{LABEL_W}\" y=\"{axis_y}\" class=\"axis\">0 ms</text><text x=\"{}\" y=\"{axis_y}\" class=\"axis\" text-anchor=\"end\">{max:.1} ms</text>\n</svg>",
            LABEL_W + BAR_W
        );
        if order.len() > shown {
            let _ = writeln!(
                h,
                "<p class=\"note\">{} faster files not drawn.</p>",
                order.len() - shown
            );
        }
    }

    fn slowest_html(&self, h: &mut String) {
        let mut order: Vec<&FileReport> = self
            .files
            .iter()
            .filter(|f| f.status != Status::Skipped)
            .collect();
        order.sort_by(|a, b| b.ms.total_cmp(&a.ms).then_with(|| a.input.cmp(&b.input)));
        h.push_str("<h2>Slowest files</h2>\n<table>\n<tr><th>file</th><th>time</th><th>read</th><th>written</th><th>status</th></tr>\n");
        for f in order.iter().take(10) {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td class=\"n\">{:.1} ms</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
                esc(&f.input),
                f.ms,
                human_bytes(f.bytes_in),
                human_bytes(f.bytes_out),
                status_name(f)
            );
        }
        h.push_str("</table>\n");
    }

    fn failures_html(&self, h: &mut String) {
        let failed: Vec<&FileReport> = self
            .files
            .iter()
            .filter(|f| f.status == Status::Failed)
            .collect();
        let _ = writeln!(h, "<h2>Failures ({})</h2>", failed.len());
        if failed.is_empty() {
            h.push_str("<p>None.</p>\n");
            return;
        }
        h.push_str(
            "<table class=\"failures\">\n<tr><th>file</th><th>why</th><th>message</th></tr>\n",
        );
        for f in failed {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&f.input),
                status_name(f),
                esc(f.error.as_deref().unwrap_or(""))
            );
        }
        h.push_str("</table>\n");
    }

    fn warnings_html(&self, h: &mut String) {
        /// A kind's total and the files with their counts.
        type Kind<'a> = (usize, Vec<(&'a str, usize)>);
        // By kind name; files in input order.
        let mut kinds: BTreeMap<&str, Kind<'_>> = BTreeMap::new();
        for f in &self.files {
            for (kind, n) in &f.warnings {
                let entry = kinds.entry(kind).or_default();
                entry.0 += n;
                entry.1.push((&f.input, *n));
            }
        }
        let _ = writeln!(h, "<h2>Warnings by kind ({})</h2>", self.totals.warnings);
        if kinds.is_empty() {
            h.push_str("<p>None.</p>\n");
            return;
        }
        for (kind, (total, files)) in kinds {
            let _ = writeln!(
                h,
                "<details><summary><b>{}</b>: {total} in {} files</summary>\n<ul>",
                esc(kind),
                files.len()
            );
            for (file, n) in files {
                let _ = writeln!(h, "<li>{} <span class=\"count\">{n}</span></li>", esc(file));
            }
            h.push_str("</ul></details>\n");
        }
    }

    fn all_files_html(&self, h: &mut String) {
        h.push_str("<h2>All files</h2>\n<table>\n<tr><th>file</th><th>output</th><th>status</th><th>time</th><th>warnings</th></tr>\n");
        for f in &self.files {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{:.1} ms</td><td class=\"n\">{}</td></tr>",
                esc(&f.input),
                esc(f.output.as_deref().unwrap_or("")),
                status_name(f),
                f.ms,
                f.warnings.values().sum::<usize>()
            );
        }
        h.push_str("</table>\n");
    }
}

/// `converted`, `skipped`, or the failure's kind.
fn status_name(f: &FileReport) -> &'static str {
    match (f.status, f.failure) {
        (Status::Converted, _) => "converted",
        (Status::Skipped, _) => "skipped",
        (Status::Failed, Some(FailureKind::Timeout)) => "timeout",
        (Status::Failed, Some(FailureKind::Panic)) => "bug (panic)",
        (Status::Failed, _) => "failed",
    }
}

/// Milliseconds to two decimals: enough for a report, and stable to print.
pub fn round(ms: f64) -> f64 {
    (ms * 100.0).round() / 100.0
}

/// `12.3 MB` and the like (decimal units, as file managers show).
pub fn human_bytes(n: u64) -> String {
    let n = n as f64;
    if n < 1e3 {
        format!("{n} B")
    } else if n < 1e6 {
        format!("{:.1} kB", n / 1e3)
    } else if n < 1e9 {
        format!("{:.1} MB", n / 1e6)
    } else {
        format!("{:.2} GB", n / 1e9)
    }
}

/// The end of a long path, which tells files apart better than its start.
fn shorten(s: &str, max: usize) -> String {
    let count = s.chars().count();
    if count <= max {
        return s.to_string();
    }
    let tail: String = s.chars().skip(count - (max - 1)).collect();
    format!("…{tail}")
}

/// Text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(input: &str, status: Status, ms: f64, warnings: &[(&str, usize)]) -> FileReport {
        FileReport {
            input: input.into(),
            output: Some(format!("out/{input}.html")),
            status,
            failure: (status == Status::Failed).then_some(FailureKind::Error),
            error: (status == Status::Failed).then(|| "broken <zip> & more".to_string()),
            warnings: warnings.iter().map(|(k, n)| (k.to_string(), *n)).collect(),
            ms,
            bytes_in: 1000,
            bytes_out: 2000,
        }
    }

    fn sample() -> BatchReport {
        BatchReport::new(
            "html".into(),
            "out".into(),
            2,
            vec![
                file("a.docx", Status::Converted, 10.0, &[("lossy", 2)]),
                file("b<x>.docx", Status::Failed, 3.0, &[("dropped", 1)]),
                file("c.docx", Status::Skipped, 0.0, &[]),
                file("d.docx", Status::Converted, 30.0, &[("lossy", 1)]),
            ],
            25.0,
        )
    }

    #[test]
    fn totals_add_up() {
        let r = sample();
        assert_eq!(
            r.totals,
            Totals {
                files: 4,
                converted: 2,
                skipped: 1,
                failed: 1,
                warnings: 4,
                bytes_in: 4000,
                bytes_out: 8000,
                wall_ms: 25.0,
                file_ms: 43.0,
            }
        );
        let json: serde_json::Value = match serde_json::from_str(&r.to_json()) {
            Ok(v) => v,
            Err(e) => panic!("report JSON does not parse: {e}"),
        };
        assert_eq!(json["files"][1]["status"], "failed");
        assert_eq!(json["files"][1]["failure"], "error");
        assert_eq!(json["files"][0]["warnings"]["lossy"], 2);
        assert!(json["files"][0].get("error").is_none());
    }

    #[test]
    fn html_escapes_and_groups() {
        let html = sample().to_html();
        assert!(html.contains("b&lt;x&gt;.docx"), "file names escaped");
        assert!(
            html.contains("broken &lt;zip&gt; &amp; more"),
            "messages escaped"
        );
        assert!(!html.contains("b<x>"));
        assert!(html.contains("<b>lossy</b>: 3 in 2 files"), "{html}");
        assert!(html.contains("data-total=\"failed\" data-value=\"1\""));
        // The slowest file's bar is the longest and comes first.
        let d = html.find("<title>d.docx").unwrap_or(usize::MAX);
        let a = html.find("<title>a.docx").unwrap_or(0);
        assert!(d < a, "slowest first");
        // Skipped files are not drawn.
        assert!(!html.contains("<title>c.docx"));
    }

    #[test]
    fn shorten_keeps_the_end() {
        assert_eq!(shorten("abcdef", 10), "abcdef");
        assert_eq!(shorten("abcdefghij", 5), "…ghij");
    }
}
