//! The embedded store: an SQLite database (sqlx) for records and a [`BlobStore`] for files.
//! Queries live here, typed; handlers never write SQL.

pub mod blob;
pub mod migrations;
pub mod s3;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;

use sqlx::ConnectOptions;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions, AnyRow};
use sqlx::sqlite::SqliteConnectOptions;
// Dynamic SQL here is only ever assembled from this module's constant fragments; values are
// always bound.
use sqlx::{AnyPool, AssertSqlSafe, Executor, Row};

pub use blob::{BlobStore, LocalDir};

/// A user of a client, as the partner last sent it.
#[derive(Debug, Clone)]
pub struct User {
    /// Id inside the service (`userIdSD`).
    pub id: String,
    /// Id in the partner system (`userId`).
    pub partner_id: String,
    /// E-mail.
    pub email: String,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
    /// Company.
    pub company: String,
    /// Language code (`en_EN` when never sent).
    pub language: String,
}

/// The user fields a create, open or import call sends.
#[derive(Debug, Clone, Default)]
pub struct UserInput {
    /// `userId`.
    pub partner_id: String,
    /// `email`.
    pub email: String,
    /// `firstname`.
    pub firstname: String,
    /// `lastname`.
    pub lastname: String,
    /// `company`.
    pub company: String,
    /// `language`, when sent (some payloads omit it; the stored one is kept then).
    pub language: Option<String>,
}

/// A document record.
#[derive(Debug, Clone, Default)]
pub struct DocumentRow {
    /// Id.
    pub id: String,
    /// Owning client.
    pub client_id: String,
    /// Title.
    pub title: String,
    /// Subtitle.
    pub subtitle: String,
    /// File name.
    pub filename: String,
    /// Description.
    pub description: String,
    /// Footer.
    pub footer: String,
    /// Partner data, never evaluated.
    pub supplemental: String,
    /// Tags.
    pub tags: Vec<String>,
    /// Creator's service id.
    pub creator_id: String,
    /// `draft` or `review`.
    pub status: String,
    /// Archived flag.
    pub archived: bool,
    /// Partner group.
    pub group_id: String,
    /// sdox template it started from.
    pub sample_id: String,
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds of the last change of content or metadata.
    pub modified: i64,
    /// Unix seconds of the last conversation change (deletion-process messages); 0 = none.
    pub conversation_changed: i64,
    /// When an active deletion process deletes it.
    pub deletion_due: Option<i64>,
    /// Warnings of the conversion that made it, as JSON strings.
    pub warnings: Vec<String>,
}

/// A user's role and rights in a document, and when they last opened it.
#[derive(Debug, Clone)]
pub struct Member {
    /// `userRole`.
    pub role: String,
    /// `sectionHistory`.
    pub section_history: Option<bool>,
    /// `documentExportDuplicate`.
    pub export_duplicate: Option<bool>,
    /// `admin`.
    pub admin: Option<bool>,
    /// Unix seconds of the last open through an access link.
    pub last_opened: Option<i64>,
}

/// A background import.
#[derive(Debug, Clone)]
pub struct Job {
    /// `PENDING`, `SUCCESS` or `FAILURE`.
    pub state: String,
    /// The document made, on success.
    pub document_id: Option<String>,
    /// The importing user's service id.
    pub user_id: Option<String>,
}

/// The database a [`Store`] talks to; the SQL is shared, the few differences are chosen by
/// this.
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

/// A background import a worker has claimed.
#[derive(Debug, Clone)]
pub struct ClaimedJob {
    /// Job id (also the id of the document it makes).
    pub id: String,
    /// Client.
    pub client_id: String,
    /// The request's `data` part.
    pub payload: String,
    /// The upload's file name.
    pub file_name: String,
    /// Claims so far, this one included.
    pub attempts: i64,
}

/// Blob key of a queued background upload.
pub fn job_upload_key(id: &str) -> String {
    format!("jobs/{id}/upload.docx")
}

/// How long a request waits for a database connection before it fails with 503.
const DB_ACQUIRE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// The database and the files.
#[derive(Debug, Clone)]
pub struct Store {
    /// The pool.
    pub db: AnyPool,
    /// Which database `db` talks to.
    pub backend: Backend,
    /// The files.
    pub blobs: Arc<dyn BlobStore>,
}

/// Blob key of a document's stored form.
pub fn document_key(id: &str) -> String {
    format!("documents/{id}/sd.xml.zip")
}

/// Blob folder of a rendered page.
pub fn page_prefix(hash: &str) -> String {
    format!("pages/{hash}")
}

const DOC_COLUMNS: &str = "id, client_id, title, subtitle, filename, description, footer, \
    supplemental, tags, creator_id, status, archived, group_id, sample_id, created, modified, \
    conversation_changed, deletion_due, warnings";

fn document_from(row: &AnyRow) -> Result<DocumentRow, sqlx::Error> {
    let tags: String = row.try_get("tags")?;
    let warnings: String = row.try_get("warnings")?;
    Ok(DocumentRow {
        id: row.try_get("id")?,
        client_id: row.try_get("client_id")?,
        title: row.try_get("title")?,
        subtitle: row.try_get("subtitle")?,
        filename: row.try_get("filename")?,
        description: row.try_get("description")?,
        footer: row.try_get("footer")?,
        supplemental: row.try_get("supplemental")?,
        // Written by this module only; a corrupt value reads as empty rather than failing.
        tags: serde_json::from_str(&tags).unwrap_or_default(),
        creator_id: row.try_get("creator_id")?,
        status: row.try_get("status")?,
        archived: row.try_get::<i64, _>("archived")? != 0,
        group_id: row.try_get("group_id")?,
        sample_id: row.try_get("sample_id")?,
        created: row.try_get("created")?,
        modified: row.try_get("modified")?,
        conversation_changed: row.try_get("conversation_changed")?,
        deletion_due: row.try_get("deletion_due")?,
        warnings: serde_json::from_str(&warnings).unwrap_or_default(),
    })
}

fn user_from(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        partner_id: row.try_get("partner_id")?,
        email: row.try_get("email")?,
        firstname: row.try_get("firstname")?,
        lastname: row.try_get("lastname")?,
        company: row.try_get("company")?,
        language: row.try_get("language")?,
    })
}

fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".into())
}

/// Which documents a list call asks for.
#[derive(Debug, Clone)]
pub enum ListQuery {
    /// Drafts of the group created by the user, plus the group's review documents.
    UserAndGroup {
        /// User's service id.
        user: String,
        /// Group.
        group: String,
    },
    /// The group's review documents.
    Group(String),
    /// All drafts created by the user.
    User(String),
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

    // ---- users ----

    /// Creates or overwrites the user `input.partner_id` of `client` (the spec: names, company,
    /// e-mail overwritten; the id never changes; the language only when sent).
    pub async fn upsert_user(&self, client: &str, input: &UserInput) -> Result<User, sqlx::Error> {
        let id = crate::ids::new_id();
        sqlx::query(
            "INSERT INTO users (id, client_id, partner_id, email, firstname, lastname, company, language)
             VALUES ($1, $2, $3, $4, $5, $6, $7, COALESCE($8, 'en_EN'))
             ON CONFLICT (client_id, partner_id) DO UPDATE SET
               email = excluded.email, firstname = excluded.firstname,
               lastname = excluded.lastname, company = excluded.company,
               language = COALESCE($9, users.language)",
        )
        .bind(&id)
        .bind(client)
        .bind(&input.partner_id)
        .bind(&input.email)
        .bind(&input.firstname)
        .bind(&input.lastname)
        .bind(&input.company)
        .bind(&input.language)
        .bind(&input.language)
        .execute(&self.db)
        .await?;
        match self.user(client, &input.partner_id).await? {
            Some(u) => Ok(u),
            None => Err(sqlx::Error::RowNotFound),
        }
    }

    /// The user with partner id `partner_id`.
    pub async fn user(&self, client: &str, partner_id: &str) -> Result<Option<User>, sqlx::Error> {
        sqlx::query("SELECT * FROM users WHERE client_id = $1 AND partner_id = $2")
            .bind(client)
            .bind(partner_id)
            .fetch_optional(&self.db)
            .await?
            .as_ref()
            .map(user_from)
            .transpose()
    }

    /// The user with service id `id`.
    pub async fn user_by_sd_id(&self, client: &str, id: &str) -> Result<Option<User>, sqlx::Error> {
        sqlx::query("SELECT * FROM users WHERE client_id = $1 AND id = $2")
            .bind(client)
            .bind(id)
            .fetch_optional(&self.db)
            .await?
            .as_ref()
            .map(user_from)
            .transpose()
    }

    // ---- documents ----

    /// Number of documents `client` holds (the freemium quota counts these).
    pub async fn count_documents(&self, client: &str) -> Result<u64, sqlx::Error> {
        let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM documents WHERE client_id = $1")
            .bind(client)
            .fetch_one(&self.db)
            .await?;
        Ok(n.unsigned_abs())
    }

    /// Inserts a new document and its creator's membership in one transaction.
    pub async fn insert_document(
        &self,
        doc: &DocumentRow,
        creator: &Member,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO documents ({DOC_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
        )))
        .bind(&doc.id)
        .bind(&doc.client_id)
        .bind(&doc.title)
        .bind(&doc.subtitle)
        .bind(&doc.filename)
        .bind(&doc.description)
        .bind(&doc.footer)
        .bind(&doc.supplemental)
        .bind(json(&doc.tags))
        .bind(&doc.creator_id)
        .bind(&doc.status)
        .bind(i64::from(doc.archived))
        .bind(&doc.group_id)
        .bind(&doc.sample_id)
        .bind(doc.created)
        .bind(doc.modified)
        .bind(doc.conversation_changed)
        .bind(doc.deletion_due)
        .bind(json(&doc.warnings))
        .execute(&mut *tx)
        .await?;
        upsert_member(&mut tx, &doc.id, &doc.creator_id, creator).await?;
        tx.commit().await
    }

    /// The document `id` of `client`.
    pub async fn document(
        &self,
        client: &str,
        id: &str,
    ) -> Result<Option<DocumentRow>, sqlx::Error> {
        sqlx::query(AssertSqlSafe(format!(
            "SELECT {DOC_COLUMNS} FROM documents WHERE client_id = $1 AND id = $2"
        )))
        .bind(client)
        .bind(id)
        .fetch_optional(&self.db)
        .await?
        .as_ref()
        .map(document_from)
        .transpose()
    }

    /// The document `id` whatever its client (for access links, which carry no client).
    pub async fn document_any_client(&self, id: &str) -> Result<Option<DocumentRow>, sqlx::Error> {
        sqlx::query(AssertSqlSafe(format!(
            "SELECT {DOC_COLUMNS} FROM documents WHERE id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.db)
        .await?
        .as_ref()
        .map(document_from)
        .transpose()
    }

    /// Writes the metadata fields and `modified` of `doc`.
    pub async fn update_metadata(&self, doc: &DocumentRow) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE documents SET title = $1, subtitle = $2, filename = $3, description = $4, footer = $5,
             supplemental = $6, tags = $7, modified = $8 WHERE id = $9",
        )
        .bind(&doc.title)
        .bind(&doc.subtitle)
        .bind(&doc.filename)
        .bind(&doc.description)
        .bind(&doc.footer)
        .bind(&doc.supplemental)
        .bind(json(&doc.tags))
        .bind(doc.modified)
        .bind(&doc.id)
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Sets the status (and `modified`).
    pub async fn set_status(&self, id: &str, status: &str, now: i64) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE documents SET status = $1, modified = $2 WHERE id = $3")
            .bind(status)
            .bind(now)
            .bind(id)
            .execute(&self.db)
            .await?;
        Ok(())
    }

    /// Sets the archived flag when it is not already `archived`; false when it already was.
    pub async fn set_archived(&self, id: &str, archived: bool) -> Result<bool, sqlx::Error> {
        let done =
            sqlx::query("UPDATE documents SET archived = $1 WHERE id = $2 AND archived = $3")
                .bind(i64::from(archived))
                .bind(id)
                .bind(i64::from(!archived))
                .execute(&self.db)
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Starts (`Some(due)`) or cancels (`None`) a deletion process and records a conversation
    /// change.
    pub async fn set_deletion(
        &self,
        id: &str,
        due: Option<i64>,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "UPDATE documents SET deletion_due = $1, conversation_changed = $2, modified = $3 WHERE id = $4",
        )
        .bind(due)
        .bind(now)
        .bind(now)
        .bind(id)
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Deletes the document's records (its files are the caller's: see
    /// `service::delete_document`); with `due_at`, only when its deletion process is due at
    /// that time. True when this call deleted it: of several instances deleting one document
    /// (two sweepers, or a sweeper and a DELETE), exactly one gets true, because the row's
    /// own DELETE decides and the rest of the transaction is undone for the others.
    pub async fn delete_document(
        &self,
        id: &str,
        due_at: Option<i64>,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.db.begin().await?;
        let due = match due_at {
            Some(_) => " AND deletion_due IS NOT NULL AND deletion_due <= $2",
            None => "",
        };
        let mut delete = sqlx::query_as(AssertSqlSafe(format!(
            "DELETE FROM documents WHERE id = $1{due} RETURNING id"
        )))
        .bind(id);
        if let Some(t) = due_at {
            delete = delete.bind(t);
        }
        let deleted: Option<(String,)> = delete.fetch_optional(&mut *tx).await?;
        if deleted.is_none() {
            tx.rollback().await?;
            return Ok(false);
        }
        for table in ["members", "access_tokens", "pages"] {
            sqlx::query(AssertSqlSafe(format!(
                "DELETE FROM {table} WHERE document_id = $1"
            )))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Documents of `client` matching `query`, optionally filtered by an active deletion
    /// process, oldest first.
    pub async fn list(
        &self,
        client: &str,
        query: &ListQuery,
        with_deletion: Option<bool>,
    ) -> Result<Vec<DocumentRow>, sqlx::Error> {
        let (cond, a, b) = match query {
            ListQuery::UserAndGroup { user, group } => (
                "group_id = $2 AND ((status = 'draft' AND creator_id = $3) OR status = 'review')",
                group.as_str(),
                Some(user.as_str()),
            ),
            ListQuery::Group(group) => {
                ("group_id = $2 AND status = 'review'", group.as_str(), None)
            }
            ListQuery::User(user) => ("creator_id = $2 AND status = 'draft'", user.as_str(), None),
        };
        let deletion = match with_deletion {
            Some(true) => " AND deletion_due IS NOT NULL",
            Some(false) => " AND deletion_due IS NULL",
            None => "",
        };
        let sql = format!(
            "SELECT {DOC_COLUMNS} FROM documents WHERE client_id = $1 AND {cond}{deletion} ORDER BY created, id"
        );
        let mut q = sqlx::query(AssertSqlSafe(sql)).bind(client).bind(a);
        if let Some(b) = b {
            q = q.bind(b);
        }
        q.fetch_all(&self.db)
            .await?
            .iter()
            .map(document_from)
            .collect()
    }

    /// Documents `user` can see: their drafts, and review documents of the groups they belong
    /// to (groups of documents they created or were sent to).
    pub async fn visible_documents(
        &self,
        client: &str,
        user: &str,
    ) -> Result<Vec<DocumentRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {DOC_COLUMNS} FROM documents d WHERE client_id = $1 AND (
               (status = 'draft' AND creator_id = $2)
               OR (status = 'review' AND group_id IN (
                   SELECT d2.group_id FROM documents d2 JOIN members m ON m.document_id = d2.id
                   WHERE m.user_id = $2 AND d2.client_id = $1)))
             ORDER BY created, id"
        );
        sqlx::query(AssertSqlSafe(sql))
            .bind(client)
            .bind(user)
            .fetch_all(&self.db)
            .await?
            .iter()
            .map(document_from)
            .collect()
    }

    /// Documents whose deletion process is due at `now`.
    pub async fn due_deletions(&self, now: i64) -> Result<Vec<String>, sqlx::Error> {
        let rows: Vec<(String,)> = sqlx::query_as(
            "SELECT id FROM documents WHERE deletion_due IS NOT NULL AND deletion_due <= $1",
        )
        .bind(now)
        .fetch_all(&self.db)
        .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    // ---- members ----

    /// Creates or overwrites `user`'s role and rights in `document`, keeping `last_opened`.
    pub async fn upsert_member(
        &self,
        document: &str,
        user: &str,
        member: &Member,
    ) -> Result<(), sqlx::Error> {
        let mut conn = self.db.acquire().await?;
        upsert_member(&mut conn, document, user, member).await
    }

    /// `user`'s membership in `document`.
    pub async fn member(&self, document: &str, user: &str) -> Result<Option<Member>, sqlx::Error> {
        let row = sqlx::query(
            "SELECT role, section_history, export_duplicate, admin, last_opened FROM members
             WHERE document_id = $1 AND user_id = $2",
        )
        .bind(document)
        .bind(user)
        .fetch_optional(&self.db)
        .await?;
        let flag = |r: &AnyRow, c: &str| -> Result<Option<bool>, sqlx::Error> {
            Ok(r.try_get::<Option<i64>, _>(c)?.map(|v| v != 0))
        };
        row.map(|r| {
            Ok(Member {
                role: r.try_get("role")?,
                section_history: flag(&r, "section_history")?,
                export_duplicate: flag(&r, "export_duplicate")?,
                admin: flag(&r, "admin")?,
                last_opened: r.try_get("last_opened")?,
            })
        })
        .transpose()
    }

    /// Service ids of the document's users.
    pub async fn member_ids(&self, document: &str) -> Result<Vec<String>, sqlx::Error> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT user_id FROM members WHERE document_id = $1")
                .bind(document)
                .fetch_all(&self.db)
                .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    /// Records a message for each of `users`.
    pub async fn notify(
        &self,
        document: &str,
        users: &[String],
        message: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.db.begin().await?;
        for u in users {
            sqlx::query(
                "INSERT INTO notifications (document_id, user_id, message, created) VALUES ($1, $2, $3, $4)",
            )
            .bind(document)
            .bind(u)
            .bind(message)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await
    }

    /// Messages recorded for `user` (newest last).
    pub async fn notifications(&self, user: &str) -> Result<Vec<String>, sqlx::Error> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT message FROM notifications WHERE user_id = $1 ORDER BY id")
                .bind(user)
                .fetch_all(&self.db)
                .await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }

    // ---- one-time access tokens and pages ----

    /// Stores an access token (by hash) for `user` in `document`.
    pub async fn insert_access_token(
        &self,
        hash: &str,
        document: &str,
        user: &str,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO access_tokens (hash, document_id, user_id, expires) VALUES ($1, $2, $3, $4)",
        )
        .bind(hash)
        .bind(document)
        .bind(user)
        .bind(expires)
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Consumes an unused, unexpired access token: `(document, user)`, or `None` when it is
    /// unknown, used or expired. One statement, so two racing uses cannot both succeed.
    pub async fn consume_access_token(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<(String, String)>, sqlx::Error> {
        sqlx::query_as(
            "UPDATE access_tokens SET used = 1 WHERE hash = $1 AND used = 0 AND expires > $2
             RETURNING document_id, user_id",
        )
        .bind(hash)
        .bind(now)
        .fetch_optional(&self.db)
        .await
    }

    /// Records that `user` opened `document` at `now`.
    pub async fn record_open(
        &self,
        document: &str,
        user: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("UPDATE members SET last_opened = $1 WHERE document_id = $2 AND user_id = $3")
            .bind(now)
            .bind(document)
            .bind(user)
            .execute(&self.db)
            .await?;
        Ok(())
    }

    /// Registers a rendered page.
    pub async fn insert_page(
        &self,
        hash: &str,
        document: &str,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO pages (hash, document_id, expires) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(document)
            .bind(expires)
            .execute(&self.db)
            .await?;
        Ok(())
    }

    /// Whether the page exists and has not expired.
    pub async fn page_valid(&self, hash: &str, now: i64) -> Result<bool, sqlx::Error> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT expires FROM pages WHERE hash = $1")
            .bind(hash)
            .fetch_optional(&self.db)
            .await?;
        Ok(row.is_some_and(|(expires,)| expires > now))
    }

    // ---- authentication ----

    /// Records a JWT id; false when it was already seen (a replay).
    pub async fn remember_jti(
        &self,
        client: &str,
        jti: &str,
        expires: i64,
    ) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "INSERT INTO seen_jtis (client_id, jti, expires) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        )
        .bind(client)
        .bind(jti)
        .bind(expires)
        .execute(&self.db)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores an admin access token by hash.
    pub async fn insert_admin_token(
        &self,
        hash: &str,
        client: &str,
        expires: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query("INSERT INTO admin_tokens (hash, client_id, expires) VALUES ($1, $2, $3)")
            .bind(hash)
            .bind(client)
            .bind(expires)
            .execute(&self.db)
            .await?;
        Ok(())
    }

    /// The client of an unexpired admin token.
    pub async fn admin_token_client(
        &self,
        hash: &str,
        now: i64,
    ) -> Result<Option<String>, sqlx::Error> {
        let row: Option<(String,)> =
            sqlx::query_as("SELECT client_id FROM admin_tokens WHERE hash = $1 AND expires > $2")
                .bind(hash)
                .bind(now)
                .fetch_optional(&self.db)
                .await?;
        Ok(row.map(|r| r.0))
    }

    // ---- jobs ----

    /// Queues a background import: `payload` is the request's `data` part and `file_name` its
    /// upload's name; the upload itself is the blob [`job_upload_key`].
    pub async fn insert_job(
        &self,
        id: &str,
        client: &str,
        payload: &str,
        file_name: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO jobs (id, client_id, state, created, payload, file_name)
             VALUES ($1, $2, 'PENDING', $3, $4, $5)",
        )
        .bind(id)
        .bind(client)
        .bind(now)
        .bind(payload)
        .bind(file_name)
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// Claims the oldest pending job nobody holds (or whose holder's lease ran out) for
    /// `worker` until `now + lease`. On PostgreSQL concurrent claims skip each other's rows
    /// (`FOR UPDATE SKIP LOCKED`); SQLite has one writer, so the statement is a claim already.
    pub async fn claim_job(
        &self,
        worker: &str,
        now: i64,
        lease: i64,
    ) -> Result<Option<ClaimedJob>, sqlx::Error> {
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let row: Option<(String, String, String, String, i64)> =
            sqlx::query_as(AssertSqlSafe(format!(
                "UPDATE jobs SET worker = $1, lease_until = $2, attempts = attempts + 1
                 WHERE id = (SELECT id FROM jobs WHERE state = 'PENDING' AND payload <> ''
                             AND (lease_until IS NULL OR lease_until <= $3)
                             ORDER BY created, id LIMIT 1{lock})
                 RETURNING id, client_id, payload, file_name, attempts"
            )))
            .bind(worker)
            .bind(now.saturating_add(lease))
            .bind(now)
            .fetch_optional(&self.db)
            .await?;
        Ok(
            row.map(|(id, client_id, payload, file_name, attempts)| ClaimedJob {
                id,
                client_id,
                payload,
                file_name,
                attempts,
            }),
        )
    }

    /// Finishes a job `worker` still holds; false (nothing recorded) when its lease was
    /// taken over meanwhile, so a job is finished exactly once.
    pub async fn finish_job(
        &self,
        id: &str,
        worker: &str,
        result: Result<(&str, &str), &str>,
    ) -> Result<bool, sqlx::Error> {
        let (state, doc, user, message) = match result {
            Ok((doc, user)) => ("SUCCESS", Some(doc), Some(user), ""),
            Err(message) => ("FAILURE", None, None, message),
        };
        let done = sqlx::query(
            "UPDATE jobs SET state = $1, document_id = $2, user_id = $3, message = $4,
             lease_until = NULL
             WHERE id = $5 AND worker = $6 AND state = 'PENDING'",
        )
        .bind(state)
        .bind(doc)
        .bind(user)
        .bind(message)
        .bind(id)
        .bind(worker)
        .execute(&self.db)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Extends the lease `worker` holds on job `id` to `until`; false when it no longer holds
    /// it (taken over, or finished).
    pub async fn renew_job(&self, id: &str, worker: &str, until: i64) -> Result<bool, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE jobs SET lease_until = $1 WHERE id = $2 AND worker = $3 AND state = 'PENDING'",
        )
        .bind(until)
        .bind(id)
        .bind(worker)
        .execute(&self.db)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives up the leases of pending jobs held by the workers of `instance` (named
    /// `<instance>-<n>`), so other instances take them at once; returns how many.
    pub async fn release_jobs(&self, instance: &str) -> Result<u64, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE jobs SET lease_until = NULL, worker = NULL
             WHERE state = 'PENDING' AND worker LIKE $1",
        )
        .bind(format!("{instance}-%"))
        .execute(&self.db)
        .await?;
        Ok(done.rows_affected())
    }

    /// Marks pending jobs queued before jobs were kept in the database (no stored request, so
    /// nothing can resume them) as failed; returns how many.
    pub async fn fail_interrupted_jobs(&self) -> Result<u64, sqlx::Error> {
        let done = sqlx::query(
            "UPDATE jobs SET state = 'FAILURE', message = 'interrupted by a server restart'
             WHERE state = 'PENDING' AND payload = ''",
        )
        .execute(&self.db)
        .await?;
        Ok(done.rows_affected())
    }

    /// The job `id` of `client`.
    pub async fn job(&self, client: &str, id: &str) -> Result<Option<Job>, sqlx::Error> {
        let row: Option<(String, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT state, document_id, user_id FROM jobs WHERE client_id = $1 AND id = $2",
        )
        .bind(client)
        .bind(id)
        .fetch_optional(&self.db)
        .await?;
        Ok(row.map(|(state, document_id, user_id)| Job {
            state,
            document_id,
            user_id,
        }))
    }

    // ---- housekeeping ----

    /// Removes expired tokens, JWT ids and page records; returns the hashes of the expired
    /// pages, whose files the caller removes.
    pub async fn expire(&self, now: i64) -> Result<Vec<String>, sqlx::Error> {
        let pages: Vec<(String,)> =
            sqlx::query_as("DELETE FROM pages WHERE expires <= $1 RETURNING hash")
                .bind(now)
                .fetch_all(&self.db)
                .await?;
        for sql in [
            "DELETE FROM access_tokens WHERE expires <= $1",
            "DELETE FROM seen_jtis WHERE expires <= $1",
            "DELETE FROM admin_tokens WHERE expires <= $1",
        ] {
            sqlx::query(sql).bind(now).execute(&self.db).await?;
        }
        Ok(pages.into_iter().map(|r| r.0).collect())
    }
}

async fn upsert_member(
    conn: &mut sqlx::AnyConnection,
    document: &str,
    user: &str,
    m: &Member,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO members (document_id, user_id, role, section_history, export_duplicate, admin)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (document_id, user_id) DO UPDATE SET role = excluded.role,
           section_history = excluded.section_history,
           export_duplicate = excluded.export_duplicate, admin = excluded.admin",
    )
    .bind(document)
    .bind(user)
    .bind(&m.role)
    .bind(m.section_history.map(i64::from))
    .bind(m.export_duplicate.map(i64::from))
    .bind(m.admin.map(i64::from))
    .execute(conn)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_job_is_claimed_once_taken_over_after_its_lease_and_finished_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).await.unwrap();
        store
            .insert_job("j1", "c", "{}", "a.docx", 1)
            .await
            .unwrap();
        let a = store.claim_job("a", 10, 60).await.unwrap().unwrap();
        assert_eq!((a.id.as_str(), a.attempts), ("j1", 1));
        // Held: nobody else gets it until the lease runs out.
        assert!(store.claim_job("b", 69, 60).await.unwrap().is_none());
        let b = store.claim_job("b", 70, 60).await.unwrap().unwrap();
        assert_eq!((b.id.as_str(), b.attempts), ("j1", 2));
        // The first worker lost it: its result is not recorded.
        assert!(!store.finish_job("j1", "a", Ok(("d", "u"))).await.unwrap());
        assert!(store.finish_job("j1", "b", Ok(("d", "u"))).await.unwrap());
        assert!(!store.finish_job("j1", "b", Err("again")).await.unwrap());
        let job = store.job("c", "j1").await.unwrap().unwrap();
        assert_eq!(job.state, "SUCCESS");
        assert_eq!(job.document_id.as_deref(), Some("d"));
        assert!(store.claim_job("c", 1000, 60).await.unwrap().is_none());
        assert!(store.job("other", "j1").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn migrations_run_once_and_rows_without_a_request_fail_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).await.unwrap();
        // A row as the SQLite server before migration 2 left it.
        sqlx::query(
            "INSERT INTO jobs (id, client_id, state, created) VALUES ('old', 'c', 'PENDING', 1)",
        )
        .execute(&store.db)
        .await
        .unwrap();
        store
            .insert_job("new", "c", "{}", "a.docx", 1)
            .await
            .unwrap();
        drop(store);
        // Reopening applies no migration twice.
        let store = Store::open(dir.path()).await.unwrap();
        assert_eq!(store.fail_interrupted_jobs().await.unwrap(), 1);
        assert_eq!(
            store.job("c", "old").await.unwrap().unwrap().state,
            "FAILURE"
        );
        assert_eq!(
            store.job("c", "new").await.unwrap().unwrap().state,
            "PENDING"
        );
    }
}
