//! Stored files (converted documents, rendered pages, queued uploads) behind one small async
//! trait: a local directory ([`LocalDir`]) or an S3-compatible object store
//! ([`super::s3::S3Store`]), which several instances share.

use std::fs;
use std::future::Future;
use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::Arc;

/// What a [`BlobStore`] call returns: a boxed future, so the trait stays usable as
/// `dyn BlobStore`.
pub type BlobFuture<'a, T> = Pin<Box<dyn Future<Output = io::Result<T>> + Send + 'a>>;

/// A key-value store of files. Keys are `/`-separated paths of `[a-z0-9._-]` segments
/// ([`check_key`]); `..` and absolute keys are refused.
pub trait BlobStore: Send + Sync + std::fmt::Debug {
    /// Stores `bytes` under `key`, replacing what was there; a reader sees the old or the new
    /// file, never part of one.
    fn put<'a>(&'a self, key: &'a str, bytes: Vec<u8>) -> BlobFuture<'a, ()>;
    /// The bytes under `key`, `None` when absent.
    fn get<'a>(&'a self, key: &'a str) -> BlobFuture<'a, Option<Vec<u8>>>;
    /// Removes `prefix` and everything below it; absent is fine.
    fn delete_prefix<'a>(&'a self, prefix: &'a str) -> BlobFuture<'a, ()>;
}

/// Why [`check_key`] refused a key (inside the `io::Error` of `InvalidInput` it returns), so
/// that callers can tell a refused name (the request's fault: a 4xx) from a failing store.
#[derive(Debug, thiserror::Error)]
#[error("blob key {0:?} is not a safe relative path")]
pub struct RefusedKey(pub String);

/// Whether `e` is [`check_key`]'s refusal.
pub fn is_refused_key(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<RefusedKey>())
}

/// Refuses a key that is not a safe relative path of `[A-Za-z0-9._-]` segments.
pub fn check_key(key: &str) -> io::Result<()> {
    let ok = !key.is_empty()
        && key.split('/').all(|seg| {
            !seg.is_empty()
                && seg != "."
                && seg != ".."
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        });
    if ok {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            RefusedKey(key.to_string()),
        ))
    }
}

/// Files in a local directory (file calls run on the blocking pool).
#[derive(Debug, Clone)]
pub struct LocalDir {
    root: Arc<PathBuf>,
}

impl LocalDir {
    /// A store rooted at `root` (created when missing).
    pub fn new(root: &Path) -> io::Result<Self> {
        fs::create_dir_all(root)?;
        Ok(LocalDir {
            root: Arc::new(root.to_path_buf()),
        })
    }

    fn path(&self, key: &str) -> io::Result<PathBuf> {
        check_key(key)?;
        Ok(self.root.join(key))
    }

    /// Runs `work` on the path of `key` on the blocking pool.
    fn blocking<'a, T: Send + 'static>(
        &self,
        key: &str,
        work: impl FnOnce(PathBuf) -> io::Result<T> + Send + 'static,
    ) -> BlobFuture<'a, T> {
        let path = self.path(key);
        Box::pin(async move {
            let path = path?;
            tokio::task::spawn_blocking(move || work(path))
                .await
                .map_err(io::Error::other)?
        })
    }
}

impl BlobStore for LocalDir {
    fn put<'a>(&'a self, key: &'a str, bytes: Vec<u8>) -> BlobFuture<'a, ()> {
        self.blocking(key, move |path| {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)?;
            }
            // Write beside and rename, so a reader never sees half a file.
            let tmp = path.with_extension("partial");
            fs::write(&tmp, bytes)?;
            fs::rename(&tmp, &path)
        })
    }

    fn get<'a>(&'a self, key: &'a str) -> BlobFuture<'a, Option<Vec<u8>>> {
        self.blocking(key, |path| match fs::read(path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        })
    }

    fn delete_prefix<'a>(&'a self, prefix: &'a str) -> BlobFuture<'a, ()> {
        self.blocking(prefix, |path| {
            let result = if path.is_dir() {
                fs::remove_dir_all(&path)
            } else {
                fs::remove_file(&path)
            };
            match result {
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
                other => other,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn local_dir_puts_gets_deletes_and_refuses_unsafe_keys() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalDir::new(dir.path()).unwrap();
        let key = "documents/a1/sd.xml.zip";
        store.put(key, b"zip".to_vec()).await.unwrap();
        assert_eq!(store.get(key).await.unwrap().as_deref(), Some(&b"zip"[..]));
        assert_eq!(store.get("documents/none").await.unwrap(), None);
        store.delete_prefix("documents/a1").await.unwrap();
        assert_eq!(store.get(key).await.unwrap(), None);
        store.delete_prefix("documents/a1").await.unwrap();
        for bad in ["../x", "/etc/passwd", "a//b", "a/../b", "a b", "a/", ""] {
            let refused = store.put(bad, Vec::new()).await.unwrap_err();
            assert!(is_refused_key(&refused), "{bad}");
            assert!(is_refused_key(&store.get(bad).await.unwrap_err()), "{bad}");
        }
        assert!(!is_refused_key(&io::Error::other("disk on fire")));
    }
}
