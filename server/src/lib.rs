//! # sdconv-server
//!
//! The partner API of the collaborative document service (`../shared/spec/partner-api.md`)
//! on the sdconv engine: axum over tokio, records in SQLite (a file, the default) or PostgreSQL
//! (shared by several instances) through sqlx, stored files in a [`store::BlobStore`] (a folder
//! or an S3-compatible store). Documents are kept in the engine's sd.xml zip form, so every
//! export is a conversion of what was imported.
//!
//! ```text
//! request ─► auth (JWT | legacy) ─► handler: parse → limits (412) → store → engine (blocking pool)
//! ```

#![warn(missing_docs)]
// The OpenAPI document is one large `json!` literal.
#![recursion_limit = "512"]

pub mod accounts;
pub mod api;
pub mod auth;
pub mod clock;
pub mod config;
pub mod error;
pub mod housekeeping;
pub mod ids;
pub mod imports;
pub mod jobs;
pub mod openapi;
pub mod payload;
pub mod service;
pub mod state;
pub mod store;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Notify, Semaphore, oneshot};
use tokio::task::JoinHandle;

use crate::accounts::LegacyKeys;
use crate::clock::Clock;
use crate::config::Config;
use crate::state::{AppState, Inner};
use crate::store::Store;

// Defined beside the S3 client that needs it, so that the store does not import the crate
// root; the server and its tests call it from here.
pub use crate::store::s3::tls_provider;

/// A start-up failure: what could not be done.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Binding the listen address.
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// Opening or migrating the store.
    #[error("cannot open the store (data folder {path}): {message}")]
    Store {
        /// The folder.
        path: String,
        /// Why.
        message: String,
    },
    /// A legacy password.
    #[error(transparent)]
    Password(#[from] accounts::PasswordError),
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    /// The bound address.
    pub addr: SocketAddr,
    /// The shared state (for tests: the store, the sweeper).
    pub state: AppState,
    /// This instance's name; its job workers are `<instance>-<n>`.
    pub instance: String,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
    sweeper: JoinHandle<()>,
    workers: Vec<JoinHandle<()>>,
    /// Tells the job workers to return (see [`jobs::run`]).
    stop_workers: tokio::sync::watch::Sender<bool>,
}

impl Server {
    /// The base URL links use.
    pub fn url(&self) -> &str {
        &self.state.public_url
    }

    /// Runs one sweep now.
    pub async fn sweep(&self) -> error::ApiResult<housekeeping::Swept> {
        housekeeping::sweep(&self.state).await
    }

    /// Waits until the server stops (it stops on [`Server::shutdown`] only).
    pub async fn wait(mut self) {
        let task = std::mem::replace(&mut self.task, tokio::spawn(async {}));
        let _ = task.await;
    }

    /// Stops accepting connections and finishes open requests, stops the job workers and
    /// releases the jobs they held (other instances take them over at once; a conversion
    /// already running is abandoned, and its job's document is found again by its id).
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let task = std::mem::replace(&mut self.task, tokio::spawn(async {}));
        let _ = task.await;
        // Not aborted: a worker returns between claims (see jobs::run), so no claim of this
        // instance's is still on its way to the database when its jobs are released.
        self.stop_workers.send_replace(true);
        for w in std::mem::take(&mut self.workers) {
            let _ = w.await;
        }
        match self.state.store.release_jobs(&self.instance).await {
            Ok(0) => {}
            Ok(released) => tracing::info!(released, "background jobs released at shutdown"),
            Err(e) => tracing::error!("releasing background jobs at shutdown: {e}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.sweeper.abort();
        // A job a stopped worker held is taken over when its lease runs out.
        for w in &self.workers {
            w.abort();
        }
    }
}

/// Binds, opens the store, migrates and starts serving.
pub async fn start(config: Config, clock: Arc<dyn Clock>) -> Result<Server, StartError> {
    tls_provider();
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| StartError::Listen {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| StartError::Listen {
        addr: config.listen,
        source,
    })?;
    let store = Store::connect(
        config.database_url.as_deref(),
        &config.data,
        config.db_pool,
        config.blob_url.as_deref(),
        config.s3_keys.as_ref(),
    )
    .await
    .map_err(|e| StartError::Store {
        path: config.data.display().to_string(),
        message: e.to_string(),
    })?;
    let interrupted = store
        .fail_interrupted_jobs()
        .await
        .map_err(|e| StartError::Store {
            path: config.data.display().to_string(),
            message: e.to_string(),
        })?;
    if interrupted > 0 {
        tracing::warn!(
            interrupted,
            "background imports queued before jobs were stored marked FAILURE"
        );
    }
    let legacy = LegacyKeys::from_config(&config.legacy)?;
    let public_url = config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"));
    let state = AppState(Arc::new(Inner {
        conversions: Semaphore::new(config.conversions),
        config,
        store,
        clock,
        public_url,
        legacy,
        jobs_queued: Notify::new(),
    }));
    let app = api::router(state.clone());
    let (tx, rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
        if let Err(e) = served {
            tracing::error!("server stopped: {e}");
        }
    });
    let sweeper = tokio::spawn(housekeeping::run(state.clone(), Duration::from_secs(60)));
    // As many workers as conversions may run; the conversion semaphore bounds them with the
    // synchronous requests.
    let instance = ids::new_user_id();
    let (stop_workers, stop) = tokio::sync::watch::channel(false);
    let workers = (0..state.config.conversions)
        .map(|n| {
            let worker = format!("{instance}-{n}");
            tokio::spawn(jobs::run(state.clone(), worker, stop.clone()))
        })
        .collect();
    Ok(Server {
        addr,
        state,
        instance,
        shutdown: Some(tx),
        task,
        sweeper,
        workers,
        stop_workers,
    })
}
