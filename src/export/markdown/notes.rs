//! Footnote definitions at the end of the text: `[^n]:` and the note's paragraphs under it.

use super::{Ctx, Writer};
use crate::ast::inline::{Leaf, Run, from_runs};
use crate::report::WarningKind;

impl Writer<'_> {
    pub(super) fn footnotes(&mut self) {
        let mut i = 0;
        while i < self.notes.len() {
            let content = self.notes.get(i).cloned().unwrap_or_default();
            i += 1;
            // The note's line breaks separate its paragraphs: every break that is written, also
            // one inside formatting (the reader gives it back at the top level).
            let mut paragraphs: Vec<Vec<Run>> = vec![Vec::new()];
            for run in self.prepare(&content, Ctx::Para) {
                if run.leaf == Leaf::LineBreak {
                    paragraphs.push(Vec::new());
                } else if let Some(p) = paragraphs.last_mut() {
                    p.push(run);
                }
            }
            // Markdown has no empty paragraphs: an empty one (two breaks in a row, or a break at
            // either end) is left out, and the first written one goes on the marker's line, which
            // is what the reader gives back (so a second trip writes the same text).
            let mut written = 0;
            let mut skipped = false;
            let several = paragraphs.len() > 1;
            for para in paragraphs {
                let lines = self.inline_lines(&from_runs(para), Ctx::Para);
                if lines.iter().all(String::is_empty) {
                    skipped = true;
                    continue;
                }
                if written == 0 {
                    let marker = format!("[^{i}]: ");
                    self.emit(&lines, 0, &marker, "    ", true);
                } else {
                    self.emit(&lines, 0, "    ", "    ", true);
                }
                written += 1;
            }
            if written == 0 {
                self.emit(&[String::new()], 0, &format!("[^{i}]:"), "", true);
            }
            // An empty note is written as it is; only line breaks that are not written are lost.
            if skipped && several {
                self.warn_once(
                    "note-empty-paragraph",
                    WarningKind::Lossy,
                    "empty paragraphs in a footnote are not written (Markdown has none)",
                );
            }
        }
    }
}
