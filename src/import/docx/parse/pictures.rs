//! Stage one for pictures: the picture parts of a package, kept deflated (only a header prefix
//! is inflated, to sniff type and size), read by a second thread while the calling thread reads
//! and converts the text ([`MediaJob::alongside`]), then by both.
//!
//! Pictures are most of a document's bytes. Both threads take pictures from one queue and count
//! their declared sizes against what is left of the budget; the caller checks the sum of all
//! reads at the end.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::archive::{Source, ZipReader};
use crate::ast::MediaItem;
use crate::error::{Error, Result};
use crate::limits::Limits;

/// A picture read (sniffed, never decoded), or why it could not be read.
pub type Picture = std::result::Result<MediaItem, String>;

/// Loaded pictures by index into the job's parts.
type Loaded = Vec<(usize, Picture)>;

/// Picture parts to read, shared by the threads that work on them.
pub struct MediaJob<'b> {
    source: &'b Source<'b>,
    limits: Limits,
    parts: &'b [String],
    next: AtomicUsize,
    inflated: AtomicU64,
}

impl<'b> MediaJob<'b> {
    /// A job over `parts` of `source`, within `limits` (whose total is what is left for them).
    pub fn new(source: &'b Source<'b>, limits: Limits, parts: &'b [String]) -> Self {
        MediaJob {
            source,
            limits,
            parts,
            next: AtomicUsize::new(0),
            inflated: AtomicU64::new(0),
        }
    }

    /// Runs `text` on this thread while a second thread reads the pictures, then helps with what
    /// is left. The pictures come back by part name. An error of `text` stops the picture
    /// thread early; a limit passed by either stops the whole import.
    pub fn alongside<T>(
        &self,
        text: impl FnOnce() -> Result<T>,
    ) -> Result<(T, HashMap<String, Picture>)> {
        std::thread::scope(|scope| {
            let worker = if self.parts.is_empty() {
                None
            } else {
                std::thread::Builder::new()
                    .name("docx-media".into())
                    .spawn_scoped(scope, || self.work())
                    .ok()
            };
            let side = match text() {
                Ok(side) => side,
                Err(e) => {
                    // Stop the picture thread early; the scope joins it.
                    self.cancel();
                    return Err(e);
                }
            };
            let mine = self.work();
            let theirs = match worker {
                Some(handle) => handle.join().unwrap_or_else(|_| {
                    Err(Error::invalid(
                        "media",
                        "reading the pictures failed unexpectedly",
                    ))
                }),
                None => Ok(Vec::new()),
            };
            let mut loaded = HashMap::new();
            for (i, item) in mine?.into_iter().chain(theirs?) {
                if let Some(part) = self.parts.get(i) {
                    loaded.insert(part.clone(), item);
                }
            }
            Ok((side, loaded))
        })
    }

    /// Reads every picture on this thread, into `loaded` by part name.
    pub fn read_into(&self, loaded: &mut HashMap<String, Picture>) -> Result<()> {
        for (i, item) in self.work()? {
            if let Some(part) = self.parts.get(i) {
                loaded.insert(part.clone(), item);
            }
        }
        Ok(())
    }

    /// Empties the queue: workers stop after the picture in hand.
    fn cancel(&self) {
        self.next.store(usize::MAX / 2, Ordering::Relaxed);
    }

    /// Takes pictures from the queue until it is empty. Limits stop the whole import: each
    /// thread's reader enforces the per-entry limits, the shared count the total.
    fn work(&self) -> Result<Loaded> {
        let mut out = Vec::new();
        let mut zip: Option<ZipReader<'b>> = None;
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(part) = self.parts.get(i) else {
                return Ok(out);
            };
            let reader = match &mut zip {
                Some(z) => z,
                None => zip.insert(ZipReader::from_source(self.source.clone(), &self.limits)?),
            };
            match reader.read_raw(part) {
                Ok(raw) => {
                    let size = raw.size;
                    let total = self
                        .inflated
                        .fetch_add(size, Ordering::Relaxed)
                        .saturating_add(size);
                    if total > self.limits.max_total_size {
                        return Err(Error::TooLarge {
                            what: "total uncompressed size",
                            detail: format!(
                                "the pictures pass the {} bytes left for them",
                                self.limits.max_total_size
                            ),
                        });
                    }
                    let name = part.rsplit('/').next().unwrap_or(part).to_string();
                    out.push((i, Ok(MediaItem::deflated(name, raw))));
                }
                Err(e @ Error::TooLarge { .. }) => return Err(e),
                Err(e) => out.push((i, Err(e.to_string()))),
            }
        }
    }

    /// The declared sizes of the pictures read so far.
    pub fn inflated(&self) -> u64 {
        self.inflated.load(Ordering::Relaxed)
    }
}
