//! Stage one for pictures: the picture parts of a package, kept deflated (only a header prefix
//! is inflated, to sniff type and size), read by a second thread while the calling thread reads
//! and converts the text ([`MediaJob::alongside`]), then by both.
//!
//! Pictures are most of a document's bytes. Both threads take pictures from one queue and count
//! their declared sizes against what is left of the budget; the caller checks the sum of all
//! reads at the end.
//!
//! For a writer that needs every picture's bytes (the single-file page's `data:` URIs), the
//! second thread then inflates the pictures it read ([`MediaJob::inflating`]), but only between
//! the main part's parse and the end of the text: the parse keeps both cores busy (two halves
//! at once), while the tree is built on one core and the other would wait. Each picture is
//! inflated once ([`MediaItem::bytes`] caches it for every clone); what is left when the text is
//! done is inflated when first used, as without this.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

use crate::archive::{Source, ZipReader};
use crate::ast::MediaItem;
use crate::error::{Error, Result};
use crate::limits::Limits;

/// A picture read (sniffed, never decoded), or why it could not be read.
pub type Picture = std::result::Result<MediaItem, String>;

/// Loaded pictures by index into the job's parts.
type Loaded = Vec<(usize, Picture)>;

/// How far the text side is, for the picture thread's inflating ([`MediaJob::inflating`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// The main part is being read and parsed: no inflating, the parse has the cores.
    Parsing,
    /// The tree is being built on the calling thread: the picture thread inflates.
    Building,
    /// The text is done (or failed): the picture thread stops after the picture in hand.
    Done,
}

/// Moves a job to [`Stage::Done`] when dropped: when the text side ends, however it ends.
struct TextOver<'j, 'b>(&'j MediaJob<'b>);

impl Drop for TextOver<'_, '_> {
    fn drop(&mut self) {
        self.0.move_to(Stage::Done);
    }
}

/// Picture parts to read, shared by the threads that work on them.
pub struct MediaJob<'b> {
    source: &'b Source<'b>,
    limits: Limits,
    parts: &'b [String],
    next: AtomicUsize,
    inflated: AtomicU64,
    /// Inflate the pictures read while the tree is built.
    inflate: bool,
    stage: Mutex<Stage>,
    moved: Condvar,
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
            inflate: false,
            stage: Mutex::new(Stage::Parsing),
            moved: Condvar::new(),
        }
    }

    /// Has the picture thread inflate the pictures it read once the text side says the main
    /// part is parsed ([`MediaJob::parsed`]), until the text is done (see the module header).
    pub fn inflating(mut self, on: bool) -> Self {
        self.inflate = on;
        self
    }

    /// Called by the text side once the main part is parsed: the tree is built on that thread
    /// alone from here, so the picture thread may inflate.
    pub fn parsed(&self) {
        self.move_to(Stage::Building);
    }

    fn move_to(&self, stage: Stage) {
        // A poisoned lock only means a thread panicked holding it; the stage is still a value.
        let mut now = self.stage.lock().unwrap_or_else(|e| e.into_inner());
        *now = (*now).max(stage);
        self.moved.notify_all();
    }

    /// Inflates the pictures in `loaded` while the tree is being built: waits for the parse to
    /// end, stops once the text is done. Errors stay in each item, for its first use.
    fn inflate_while_building(&self, loaded: &Loaded) {
        let mut stage = self.stage.lock().unwrap_or_else(|e| e.into_inner());
        while *stage == Stage::Parsing {
            stage = self.moved.wait(stage).unwrap_or_else(|e| e.into_inner());
        }
        drop(stage);
        for (_, picture) in loaded {
            if *self.stage.lock().unwrap_or_else(|e| e.into_inner()) == Stage::Done {
                return;
            }
            if let Ok(item) = picture {
                let _ = item.bytes();
            }
        }
    }

    /// Runs `text` on this thread while a second thread reads the pictures (and, when
    /// [`MediaJob::inflating`], inflates them while the tree is built), then helps with what is
    /// left. The pictures come back by part name. An error of `text` stops the picture thread
    /// early; a limit passed by either stops the whole import.
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
                    .spawn_scoped(scope, || {
                        let read = self.work();
                        if self.inflate
                            && let Ok(loaded) = &read
                        {
                            self.inflate_while_building(loaded);
                        }
                        read
                    })
                    .ok()
            };
            let side = {
                // Whatever comes of the text, a panic included (the scope then joins the
                // picture thread, which must not wait for the parse forever), the picture thread
                // inflates no more once it is over.
                let _over = TextOver(self);
                text()
            };
            let side = match side {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{Compression, ZipWriter};

    /// A zip of `n` deflated pictures `p0.png`…, and their names.
    fn pictures(n: usize) -> (Vec<u8>, Vec<String>) {
        let mut zip = ZipWriter::new();
        let names: Vec<String> = (0..n).map(|i| format!("p{i}.png")).collect();
        for (i, name) in names.iter().enumerate() {
            let bytes = vec![u8::try_from(i).unwrap_or(0); 10_000];
            zip.add(name, &bytes, Compression::Deflate)
                .expect("a Vec takes any write");
        }
        (zip.finish().expect("finished"), names)
    }

    fn read_all(job: &MediaJob<'_>) -> Loaded {
        job.work().expect("the test zip reads")
    }

    fn inflated(loaded: &Loaded) -> Vec<bool> {
        loaded
            .iter()
            .map(|(_, p)| p.as_ref().is_ok_and(MediaItem::is_inflated))
            .collect()
    }

    #[test]
    fn pictures_are_inflated_only_while_the_tree_is_built() {
        let (zip, names) = pictures(3);
        let source = Source::Borrowed(&zip);

        // The tree is being built: every picture read is inflated, with its bytes intact.
        let job = MediaJob::new(&source, Limits::default(), &names).inflating(true);
        let loaded = read_all(&job);
        assert_eq!(inflated(&loaded), [false; 3], "reading inflates nothing");
        job.parsed();
        job.inflate_while_building(&loaded);
        assert_eq!(inflated(&loaded), [true; 3]);
        let Some((i, Ok(item))) = loaded.last() else {
            panic!("{:?}", loaded.len())
        };
        assert_eq!(
            item.bytes().ok().map(|b| b.to_vec()),
            Some(vec![*i as u8; 10_000])
        );

        // The text is done: nothing more is inflated, whatever is left.
        let job = MediaJob::new(&source, Limits::default(), &names).inflating(true);
        let loaded = read_all(&job);
        job.move_to(Stage::Done);
        job.parsed();
        job.inflate_while_building(&loaded);
        assert_eq!(
            inflated(&loaded),
            [false; 3],
            "a later stage is never undone"
        );
    }

    #[test]
    fn the_picture_thread_inflates_nothing_while_the_text_never_says_it_parsed() {
        let (zip, names) = pictures(2);
        let source = Source::Borrowed(&zip);
        // The picture thread waits out the parse; once the text is done it stops without
        // inflating (the writer will, when it needs the bytes).
        let job = MediaJob::new(&source, Limits::default(), &names).inflating(true);
        let (_, loaded) = job.alongside(|| Ok(())).expect("the test zip reads");
        assert_eq!(loaded.len(), 2);
        assert!(
            loaded
                .values()
                .all(|p| p.as_ref().is_ok_and(|m| !m.is_inflated()))
        );
        // A text side that panics before the parse ends still releases the picture thread:
        // the scope joins it, and the panic comes through instead of a hang.
        let job = MediaJob::new(&source, Limits::default(), &names).inflating(true);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            job.alongside(|| -> Result<()> { panic!("a bug in the text side") })
        }));
        assert!(caught.is_err());
    }
}
