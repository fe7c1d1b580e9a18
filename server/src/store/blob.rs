//! Stored files (converted documents, rendered pages) behind one small trait, so a directory
//! can later be swapped for object storage.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// A key-value store of files. Keys are `/`-separated paths of `[a-z0-9._-]` segments; `..`
/// and absolute keys are refused. Calls block: callers run them on the blocking pool.
pub trait BlobStore: Send + Sync + std::fmt::Debug {
    /// Stores `bytes` under `key`, replacing what was there.
    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()>;
    /// The bytes under `key`, `None` when absent.
    fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>>;
    /// Removes `prefix` and everything below it; absent is fine.
    fn delete_prefix(&self, prefix: &str) -> io::Result<()>;
}

/// Files in a local directory.
#[derive(Debug)]
pub struct LocalDir {
    root: PathBuf,
}

impl LocalDir {
    /// A store rooted at `root` (created when missing).
    pub fn new(root: &Path) -> io::Result<Self> {
        fs::create_dir_all(root)?;
        Ok(LocalDir {
            root: root.to_path_buf(),
        })
    }

    fn path(&self, key: &str) -> io::Result<PathBuf> {
        let ok = !key.is_empty()
            && key.split('/').all(|seg| {
                !seg.is_empty()
                    && seg != "."
                    && seg != ".."
                    && seg
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
            });
        if !ok {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("blob key {key:?} is not a safe relative path"),
            ));
        }
        Ok(self.root.join(key))
    }
}

impl BlobStore for LocalDir {
    fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.path(key)?;
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        // Write beside and rename, so a reader never sees half a file.
        let tmp = path.with_extension("partial");
        fs::write(&tmp, bytes)?;
        fs::rename(&tmp, &path)
    }

    fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>> {
        match fs::read(self.path(key)?) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn delete_prefix(&self, prefix: &str) -> io::Result<()> {
        let path = self.path(prefix)?;
        let result = if path.is_dir() {
            fs::remove_dir_all(&path)
        } else {
            fs::remove_file(&path)
        };
        match result {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_get_delete_and_unsafe_keys() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalDir::new(dir.path()).unwrap();
        store.put("documents/a1/sd.xml.zip", b"zip").unwrap();
        assert_eq!(
            store.get("documents/a1/sd.xml.zip").unwrap().as_deref(),
            Some(&b"zip"[..])
        );
        assert_eq!(store.get("documents/none").unwrap(), None);
        store.delete_prefix("documents/a1").unwrap();
        assert_eq!(store.get("documents/a1/sd.xml.zip").unwrap(), None);
        store.delete_prefix("documents/a1").unwrap();
        for bad in ["../x", "/etc/passwd", "a//b", "a/../b", "a b"] {
            assert!(store.put(bad, b"").is_err(), "{bad}");
        }
    }
}
