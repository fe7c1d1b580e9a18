//! What every handler shares.

use std::sync::Arc;

use tokio::sync::{Notify, Semaphore};

use crate::accounts::LegacyKeys;
use crate::clock::Clock;
use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::store::Store;

/// Shared server state (cheap to clone).
#[derive(Debug, Clone)]
pub struct AppState(pub Arc<Inner>);

/// The contents of [`AppState`].
#[derive(Debug)]
pub struct Inner {
    /// Configuration.
    pub config: Config,
    /// Database and files.
    pub store: Store,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Base of links (`http://host:port`), no trailing slash.
    pub public_url: String,
    /// Legacy accounts with hashed passwords.
    pub legacy: LegacyKeys,
    /// Conversions running at once.
    pub conversions: Semaphore,
    /// Wakes a local job worker when a job is queued here (others find it by polling).
    pub jobs_queued: Notify,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// Current Unix time in seconds.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Runs a conversion (engine work: synchronous and CPU-bound) on the blocking pool, at most
    /// `conversions` at once. Callers hold no database transaction across it.
    pub async fn convert<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> ApiResult<T> {
        let _permit = self
            .conversions
            .acquire()
            .await
            .map_err(|e| ApiError::internal("conversion queue", e))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ApiError::internal("conversion", e))
    }

    /// Reads a blob.
    pub async fn blob_get(&self, key: String) -> ApiResult<Option<Vec<u8>>> {
        self.store.blobs.get(&key).await.map_err(blob_error)
    }

    /// Writes blobs.
    pub async fn blob_put(&self, files: Vec<(String, Vec<u8>)>) -> ApiResult<()> {
        for (key, bytes) in files {
            self.store
                .blobs
                .put(&key, bytes)
                .await
                .map_err(blob_error)?;
        }
        Ok(())
    }

    /// Removes a blob folder.
    pub async fn blob_delete(&self, prefix: String) -> ApiResult<()> {
        self.store
            .blobs
            .delete_prefix(&prefix)
            .await
            .map_err(blob_error)
    }
}

/// A file store error as the API answers it: a refused key is a 404 (logged as a warning), a
/// failing store a 500.
fn blob_error(e: std::io::Error) -> ApiError {
    if crate::store::is_refused_key(&e) {
        ApiError::refused_key("file store", e)
    } else {
        ApiError::internal("file store", e)
    }
}

#[cfg(test)]
mod tests {
    use std::io;
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::store::RefusedKey;

    /// What a tracing subscriber wrote, shared with the test.
    #[derive(Clone, Default)]
    struct Log(Arc<Mutex<Vec<u8>>>);

    impl io::Write for Log {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_refused_blob_key_is_a_404_logged_as_a_warning_a_failing_store_a_500() {
        let log = Log::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let (refused, failed) = tracing::subscriber::with_default(subscriber, || {
            let refused = blob_error(io::Error::new(
                io::ErrorKind::InvalidInput,
                RefusedKey("pages/h//style.css".into()),
            ));
            let failed = blob_error(io::Error::other("disk on fire"));
            (refused, failed)
        });
        assert_eq!((refused.status.as_u16(), refused.code), (404, "no_file"));
        assert_eq!((failed.status.as_u16(), failed.code), (500, "internal"));
        let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].contains("WARN") && lines[0].contains("pages/h//style.css"),
            "{text}"
        );
        assert!(lines[1].contains("ERROR") && lines[1].contains("disk on fire"));
    }
}
