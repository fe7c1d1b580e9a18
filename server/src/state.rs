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
        self.store
            .blobs
            .get(&key)
            .await
            .map_err(|e| ApiError::internal("file store", e))
    }

    /// Writes blobs.
    pub async fn blob_put(&self, files: Vec<(String, Vec<u8>)>) -> ApiResult<()> {
        for (key, bytes) in files {
            self.store
                .blobs
                .put(&key, bytes)
                .await
                .map_err(|e| ApiError::internal("file store", e))?;
        }
        Ok(())
    }

    /// Removes a blob folder.
    pub async fn blob_delete(&self, prefix: String) -> ApiResult<()> {
        self.store
            .blobs
            .delete_prefix(&prefix)
            .await
            .map_err(|e| ApiError::internal("file store", e))
    }
}
