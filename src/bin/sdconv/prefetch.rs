//! Pictures of a Word input inflated into files ahead of time, for the HTML folder and for
//! Markdown with its `images/`.
//!
//! The Word reader works on the text on one core; the HTML folder (and Markdown) then needs
//! every picture inflated into a file, which took a third of the whole conversion of an 18 MB
//! file once the page was written. So, while the reader runs, the other cores inflate the pictures the main
//! part refers to into a hidden folder beside the output (`.sdconv-pictures-<pid>`, on the same
//! file system, so a rename moves a file). [`write_files`](crate::convert::write_files) renames
//! each picture the page shows into place and writes the rest as before; the hidden folder goes
//! when the [`Job`] is dropped, with whatever the page did not show, and so do the folders made
//! for it that stay empty (a failed conversion leaves nothing). A process killed meanwhile
//! leaves the hidden folder behind.
//!
//! The hidden folder has a random name and is made new (never one that exists, which may be a
//! link planted to send the pictures elsewhere), readable by its owner only; each file in it is
//! made new too. A picture is matched by its entry's index and where its stored bytes lie in
//! the input: the same entry of the same bytes, so the same content. Anything that fails here
//! (a broken entry, a full disk) only means that picture is written the ordinary way, which
//! reports it.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::{Scope, ScopedJoinHandle};

use sdconv::Limits;
use sdconv::ast::MediaItem;
use sdconv::internal::archive::{RawEntry, Source, ZipReader};

use crate::detect::Input;
use crate::staged::{outermost_missing, remove_made};

/// Which entry of the input a stored picture is: its index, and the start address and length
/// of its stored bytes.
type Place = (usize, usize, usize);

fn place_of(raw: &RawEntry) -> Option<Place> {
    raw.stored_slice()
        .map(|b| (raw.index(), b.as_ptr() as usize, b.len()))
}

/// Pictures being inflated into a hidden folder by worker threads of a [`Scope`].
pub struct Prefetch<'scope, 'env> {
    job: &'env Job<'env>,
    workers: Vec<ScopedJoinHandle<'scope, ()>>,
}

/// The queue the workers and [`Prefetch::finish`] share, and what they wrote.
pub struct Job<'env> {
    input: &'env Input,
    dir: PathBuf,
    /// The output folder.
    folder: PathBuf,
    /// The outermost of `folder` and its parents that this run made: those stay only if the
    /// output is written into them.
    made: Option<PathBuf>,
    entries: Vec<RawEntry>,
    next: AtomicUsize,
    written: Mutex<HashMap<Place, PathBuf>>,
}

impl<'env> Job<'env> {
    /// The pictures of the Word file `input` to inflate into a hidden folder inside `folder`,
    /// `None` when there are none or they cannot be listed (then nothing is done ahead).
    /// `limits` are the import's: the declared sizes of all pictures must fit within them.
    pub fn new(input: &'env Input, folder: &Path, limits: &Limits) -> Option<Self> {
        let parts = sdconv::import::docx::picture_parts(&input.bytes, limits).ok()?;
        if parts.is_empty() {
            return None;
        }
        // Shared, so each entry knows where its bytes lie in the input (`place_of`).
        let mut zip = ZipReader::from_source(Source::Shared(input.bytes.clone()), limits).ok()?;
        let entries: Vec<RawEntry> = parts.iter().filter_map(|p| zip.read_raw(p).ok()).collect();
        // A package whose pictures claim more than the import may inflate fails there; no
        // work is started for it here.
        let total = entries
            .iter()
            .try_fold(0u64, |sum, e| sum.checked_add(e.size))?;
        if total > limits.max_total_size {
            return None;
        }
        // The outermost folder of the output's that does not exist yet: made here, and removed
        // again with those inside it if they stay empty.
        let made = outermost_missing(folder);
        std::fs::create_dir_all(folder).ok()?;
        let dir = folder.join(format!(
            ".sdconv-pictures-{}-{:016x}",
            std::process::id(),
            std::collections::hash_map::RandomState::new()
                .build_hasher()
                .finish()
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        if builder.create(&dir).is_err() {
            // Not ours (or not possible): left alone.
            remove_made(folder, made.as_deref());
            return None;
        }
        Some(Job {
            input,
            dir,
            folder: folder.to_path_buf(),
            made,
            entries,
            next: AtomicUsize::new(0),
            written: Mutex::new(HashMap::new()),
        })
    }

    /// Empties the queue: workers stop after the picture in hand (the conversion failed).
    pub fn cancel(&self) {
        self.next.store(usize::MAX / 2, Ordering::Relaxed);
    }

    /// Takes pictures from the queue until it is empty.
    fn work(&self) {
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(raw) = self.entries.get(i) else {
                return;
            };
            let (Some(place), Some(stored)) = (place_of(raw), raw.stored_slice()) else {
                continue;
            };
            let path = self.dir.join(i.to_string());
            let written = std::fs::File::create_new(&path).ok().and_then(|file| {
                let mut out =
                    std::io::BufWriter::with_capacity(sdconv::internal::archive::COPY_PIECE, file);
                raw.copy_to(&mut out).ok()?;
                out.flush().ok()
            });
            // Its deflated bytes are not needed again (see `Input::release`).
            self.input.release(&stored);
            match written {
                Some(()) => {
                    if let Ok(mut map) = self.written.lock() {
                        map.insert(place, path);
                    }
                }
                None => {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }

    /// Starts `threads` workers on the pictures in `scope`.
    pub fn start<'scope>(
        &'env self,
        scope: &'scope Scope<'scope, 'env>,
        threads: usize,
    ) -> Prefetch<'scope, 'env> {
        let workers = (0..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("picture-prefetch".into())
                    .spawn_scoped(scope, || self.work())
                    .ok()
            })
            .collect();
        Prefetch { job: self, workers }
    }
}

impl Drop for Job<'_> {
    fn drop(&mut self) {
        // Pictures the page did not show, or all of them when the conversion failed.
        let _ = std::fs::remove_dir_all(&self.dir);
        remove_made(&self.folder, self.made.as_deref());
    }
}

impl<'env> Prefetch<'_, 'env> {
    /// Helps with what is left of the queue, waits for the workers, and gives the pictures
    /// written.
    pub fn finish(self) -> Prefetched<'env> {
        self.job.work();
        for worker in self.workers {
            let _ = worker.join();
        }
        Prefetched { job: self.job }
    }
}

/// The pictures inflated ahead of time, to be moved into place.
pub struct Prefetched<'env> {
    job: &'env Job<'env>,
}

impl Prefetched<'_> {
    /// Takes the file holding `item`'s bytes, if one was written ahead: the caller renames it.
    pub fn take(&self, item: &MediaItem) -> Option<PathBuf> {
        let place = place_of(item.stored()?)?;
        self.job.written.lock().ok()?.remove(&place)
    }
}
