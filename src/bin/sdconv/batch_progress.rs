//! `sdconv batch` progress on standard error: an `indicatif` bar on a terminal (files done of
//! total, files/s, MB/s, ETA, failures so far), a plain line every few seconds otherwise (a log
//! file or CI), nothing with `--quiet`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often the plain form prints a line.
const PLAIN_EVERY: Duration = Duration::from_secs(2);

enum Display {
    Bar(ProgressBar),
    Plain { last: Instant },
    Quiet,
}

/// The progress of a batch.
pub struct Progress {
    display: Display,
    total: usize,
    done: usize,
    failed: usize,
    bytes_in: u64,
    start: Instant,
}

impl Progress {
    /// Progress over `total` files: a bar when standard error is a terminal.
    pub fn new(total: usize, quiet: bool) -> Self {
        let display = if quiet {
            Display::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(
                Some(total as u64),
                ProgressDrawTarget::stderr_with_hz(8),
            );
            // The template is a constant: it parses, or the bar falls back to the default look.
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:32.cyan/blue} {pos}/{len} files  {msg}  ETA {eta}",
            ) {
                bar.set_style(style.progress_chars("█▉▊▋▌▍▎▏ "));
            }
            Display::Bar(bar)
        } else {
            Display::Plain {
                last: Instant::now(),
            }
        };
        Progress {
            display,
            total,
            done: 0,
            failed: 0,
            bytes_in: 0,
            start: Instant::now(),
        }
    }

    /// One more file finished.
    pub fn file_done(&mut self, failed: bool, bytes_in: u64) {
        self.done += 1;
        self.bytes_in += bytes_in;
        if failed {
            self.failed += 1;
        }
        if let Display::Bar(bar) = &self.display {
            bar.set_position(self.done as u64);
            bar.set_message(self.rates());
        }
    }

    /// Time passed: the plain form prints a line when one is due.
    pub fn tick(&mut self) {
        let rates = self.rates();
        let line = match &mut self.display {
            Display::Plain { last } if last.elapsed() >= PLAIN_EVERY => {
                *last = Instant::now();
                true
            }
            Display::Bar(bar) => {
                bar.set_message(rates);
                false
            }
            _ => false,
        };
        if line {
            eprintln!(
                "sdconv batch: {}/{} files, {}, ETA {}",
                self.done,
                self.total,
                self.rates(),
                self.eta()
            );
        }
    }

    /// A failure's line, printed above the bar so the bar stays whole.
    pub fn println(&self, line: &str) {
        match &self.display {
            Display::Bar(bar) => bar.println(line),
            _ => eprintln!("{line}"),
        }
    }

    /// The batch is over: the bar goes; the summary line stays unless `--quiet`.
    pub fn finish(&self, summary: &str) {
        match &self.display {
            Display::Bar(bar) => {
                bar.finish_and_clear();
                eprintln!("{summary}");
            }
            Display::Plain { .. } => eprintln!("{summary}"),
            Display::Quiet => {}
        }
    }

    fn rates(&self) -> String {
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        format!(
            "{:.1} files/s, {:.1} MB/s, {} failed",
            self.done as f64 / secs,
            self.bytes_in as f64 / 1e6 / secs,
            self.failed
        )
    }

    fn eta(&self) -> String {
        if self.done == 0 {
            return "?".into();
        }
        let per_file = self.start.elapsed().as_secs_f64() / self.done as f64;
        let left = per_file * (self.total - self.done.min(self.total)) as f64;
        format!("{left:.0}s")
    }
}
