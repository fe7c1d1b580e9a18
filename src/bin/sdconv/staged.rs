//! A one-file output (a zip format, PDF, one HTML file) written straight into a file instead of
//! memory first: an 18 MB Word file's zip is then never held whole in memory, and its pictures
//! go from the input's pages into the file in one copy.
//!
//! `convert` writes into a new hidden file beside the target (`.sdconv-<pid>-<hex>.partial`,
//! made new, never one that exists) and renames it into place only once the conversion has
//! succeeded, so a failed conversion never truncates an existing output. Only a target that is
//! absent or a plain file with one link is replaced so ([`can_stage`]); a device, a pipe, a
//! symbolic link or a file with other links is written through as before, from memory. `batch`
//! already converts into a temporary name of its own and passes that as the target to write
//! into directly. A staged file that was not put in place is removed when dropped, with the
//! output folders made for it that stay empty (a killed process leaves it behind).

use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// How much of the output is gathered before each write: the zip writer writes headers in small
/// pieces and pictures in large ones.
const BUFFER: usize = 1 << 20;

/// Whether an output at `target` may be written into a staged file and renamed over it: it does
/// not exist, or is a plain file with no other links (renaming over anything else would replace
/// a device, a pipe or a link instead of writing through it).
pub fn can_stage(target: &Path) -> bool {
    match std::fs::symlink_metadata(target) {
        Ok(m) => m.file_type().is_file() && links(&m) == 1,
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    }
}

#[cfg(unix)]
fn links(m: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(m)
}

#[cfg(not(unix))]
fn links(_: &std::fs::Metadata) -> u64 {
    1
}

/// A one-file output written to disk, waiting to be put in place.
#[derive(Debug)]
pub struct Staged {
    /// Where it was written (empty: nothing of ours there).
    file: PathBuf,
    /// The folder it was written in.
    folder: PathBuf,
    /// The file is the target itself (`batch`'s own temporary name).
    direct: bool,
    /// Renamed into place (or written in place): nothing to clean up.
    placed: AtomicBool,
    /// The outermost of the target's folders that this run made, if any.
    made: Option<PathBuf>,
    /// The length written.
    len: u64,
}

impl Staged {
    /// Writes the output for `target` through `write`, which gets a buffered file and gives it
    /// back when done. With `direct`, `target` itself is written (it is a temporary name
    /// already); else a new hidden file beside it.
    pub fn write(
        target: &Path,
        direct: bool,
        write: impl FnOnce(BufWriter<File>) -> sdconv::Result<sdconv::Converted<BufWriter<File>>>,
    ) -> sdconv::Result<sdconv::Converted<Staged>> {
        let io = |e: std::io::Error| sdconv::Error::Write {
            format: "file",
            message: format!("{}: {e}", target.display()),
        };
        let folder = target.parent().unwrap_or(Path::new(""));
        let made = outermost_missing(folder);
        std::fs::create_dir_all(folder).map_err(io)?;
        let file = if direct {
            target.to_path_buf()
        } else {
            folder.join(hidden_name())
        };
        let mut staged = Staged {
            file,
            folder: folder.to_path_buf(),
            direct,
            // Until a file exists, only the folders are to clean up.
            placed: AtomicBool::new(false),
            made,
            len: 0,
        };
        // Made new in either case: a link planted under the name is never followed (`batch`
        // removed its temporary name before).
        let opened = File::options()
            .write(true)
            .create_new(true)
            .open(&staged.file);
        let out = match opened {
            Ok(out) => out,
            Err(e) => {
                // Not ours: never removed (`create_new` failed on an existing file).
                staged.file = PathBuf::new();
                return Err(io(e));
            }
        };
        let written = write(BufWriter::with_capacity(BUFFER, out))?;
        let sink = written.value;
        let file = sink.into_inner().map_err(|e| io(e.into_error()))?;
        staged.len = file.metadata().map(|m| m.len()).map_err(io)?;
        Ok(sdconv::Converted {
            value: staged,
            warnings: written.warnings,
        })
    }

    /// The length written.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Moves the file to `target`, with the permissions of the file it replaces. An existing
    /// file there is unlinked first: ext4 flushes a file renamed over another to disk at once
    /// (its replace-by-rename safeguard), tens of milliseconds for a large output; the price is
    /// a moment in which neither file is there.
    pub fn put_in_place(&self, target: &Path) -> std::io::Result<()> {
        if !(self.direct && target == self.file) {
            if let Ok(old) = std::fs::symlink_metadata(target) {
                if old.file_type().is_file() {
                    let _ = std::fs::set_permissions(&self.file, old.permissions());
                    let _ = std::fs::remove_file(target);
                }
            }
            std::fs::rename(&self.file, target)?;
        }
        self.placed.store(true, Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.placed.load(Ordering::Relaxed) {
            return;
        }
        if !self.file.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.file);
        }
        remove_made(&self.folder, self.made.as_deref());
    }
}

/// `.sdconv-<pid>-<random hex>.partial`: short, so any target name that fits the folder's file
/// system fits beside it.
fn hidden_name() -> String {
    format!(
        ".sdconv-{}-{:016x}.partial",
        std::process::id(),
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    )
}

/// The outermost of `folder` and its parents that does not exist yet: what making `folder`
/// will make, and what [`remove_made`] may remove again.
pub fn outermost_missing(folder: &Path) -> Option<PathBuf> {
    folder
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .last()
        .map(Path::to_path_buf)
}

/// Removes `folder` and its parents up to `made` (the outermost this run made) while they are
/// empty: a removal fails, as it should, once the output is in the folder.
pub fn remove_made(folder: &Path, made: Option<&Path>) {
    let Some(made) = made else { return };
    for f in folder.ancestors() {
        if std::fs::remove_dir(f).is_err() || f == made {
            break;
        }
    }
}
