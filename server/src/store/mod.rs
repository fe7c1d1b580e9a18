//! The store: records in a SQL database, SQLite (a file in the data folder, the default) or
//! PostgreSQL (a server several instances share), and files in a [`BlobStore`] (a local folder
//! or an S3-compatible store). Queries live here, typed; handlers never write SQL.
//!
//! The records go through sqlx's `Any` driver, so one [`Store`] serves both databases with the
//! same SQL: `$n` parameters, `ON CONFLICT`, `RETURNING`, and 64-bit integers for times and
//! flags mean the same on both. The few places where the databases differ ask [`Backend`]. The
//! schema and its history are [`migrations`].
//!
//! One `impl Store` block per resource, named by the tables it holds:
//!
//! | module | tables |
//! |---|---|
//! | `users` | `users` |
//! | `documents` | `documents` (deleting one deletes its members, access tokens and pages) |
//! | `members` | `members`, `notifications` |
//! | `tokens` | `access_tokens`, `admin_tokens`, `seen_jtis` |
//! | `pages` | `pages` |
//! | `jobs` | `jobs` |

pub mod blob;
mod documents;
mod jobs;
mod members;
pub mod migrations;
mod pages;
pub mod s3;
mod tokens;
mod users;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyPool, ConnectOptions, Executor};

pub use blob::{BlobStore, LocalDir, RefusedKey, is_refused_key};
pub use documents::{DocumentRow, ListQuery, document_key};
pub use jobs::{ClaimedJob, Job, job_upload_key};
pub use members::Member;
pub use pages::{Page, PageSession, page_prefix};
pub use users::{User, UserInput};

/// The database a [`Store`] talks to. The SQL is shared; the few places where the two differ
/// ask this: the column types of the schema ([`migrations`]), the lock that keeps several
/// instances from migrating at once, and the row lock of a job claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The embedded file database (one writer at a time).
    Sqlite,
    /// A PostgreSQL server, which several instances may share.
    Postgres,
}

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The data folder.
    #[error("data folder: {0}")]
    Data(std::io::Error),
    /// The database URL.
    #[error("database URL: {0}")]
    Url(String),
    /// Connecting or migrating.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The file store URL.
    #[error("file store: {0}")]
    Blobs(#[from] s3::BlobUrlError),
}

/// How long a request waits for a database connection before it fails with 503.
const DB_ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// The database (SQLite or PostgreSQL: [`Backend`]) and the files; cheap to clone (a pool
/// and a shared file store).
#[derive(Debug, Clone)]
pub struct Store {
    /// The pool.
    pub db: AnyPool,
    /// Which database `db` talks to.
    pub backend: Backend,
    /// The files.
    pub blobs: Arc<dyn BlobStore>,
}

impl Store {
    /// Opens (creating when missing) `data/sdconv.db` and `data/blobs/`, and migrates.
    pub async fn open(data: &Path) -> Result<Store, OpenError> {
        Store::connect(None, data, 4, None, None).await
    }

    /// Opens the database at `database_url` (`postgres://…` or `sqlite://…`; `None` = the
    /// SQLite file `data/sdconv.db`) with at most `pool_size` connections, and the files in
    /// `data/blobs/` or the S3 store of `blob_url` (signed with `s3_keys`, default: the
    /// `AWS_*` environment); runs the migrations not yet applied.
    pub async fn connect(
        database_url: Option<&str>,
        data: &Path,
        pool_size: u32,
        blob_url: Option<&str>,
        s3_keys: Option<&(String, String)>,
    ) -> Result<Store, OpenError> {
        sqlx::any::install_default_drivers();
        std::fs::create_dir_all(data).map_err(OpenError::Data)?;
        let url = match database_url {
            Some(raw) => raw.to_string(),
            None => SqliteConnectOptions::new()
                .filename(data.join("sdconv.db"))
                .create_if_missing(true)
                .to_url_lossy()
                .to_string(),
        };
        let backend = match url.split_once(':').map(|(scheme, _)| scheme) {
            Some("postgres" | "postgresql") => Backend::Postgres,
            Some("sqlite") => Backend::Sqlite,
            _ => {
                return Err(OpenError::Url(
                    "expected postgres://… or sqlite://…".to_string(),
                ));
            }
        };
        let options = AnyConnectOptions::from_str(&url)?;
        let db = AnyPoolOptions::new()
            .max_connections(pool_size.max(1))
            // A database that is away fails a request (503) within seconds instead of holding
            // it for sqlx's default 30 s; the pool reconnects by itself once it is back.
            .acquire_timeout(DB_ACQUIRE_TIMEOUT)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        // What SqliteConnectOptions would set; the Any driver takes only a URL.
                        // synchronous = NORMAL: in WAL mode a commit no longer waits for an
                        // fsync (the WAL is synced at checkpoints). A crash of the process
                        // loses nothing; a power cut may lose the last commits, as it may the
                        // blob files, which are not synced either. Under load the fsync per
                        // commit was most of the SQLite store's tail latency.
                        conn.execute(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                             PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;",
                        )
                        .await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        migrations::run(&db, backend).await?;
        let blobs: Arc<dyn BlobStore> = match blob_url {
            Some(url) => Arc::new(s3::S3Store::from_url(url, s3_keys)?),
            None => Arc::new(LocalDir::new(&data.join("blobs")).map_err(OpenError::Data)?),
        };
        Ok(Store { db, backend, blobs })
    }

    /// Removes expired tokens, JWT ids and page records; returns the hashes of the expired
    /// pages, whose files the caller removes.
    pub async fn expire(&self, now: i64) -> Result<Vec<String>, sqlx::Error> {
        let pages = self.expire_pages(now).await?;
        self.expire_tokens(now).await?;
        Ok(pages)
    }
}
