//! The database schema, as numbered migrations applied in order at start-up. A migration once
//! released is never edited: changes are new migrations.
//!
//! One text serves both databases. Where their DDL differs it names a placeholder, and
//! `DIALECT` says what each placeholder is on SQLite and on PostgreSQL; every other word is the
//! same on both, so that the queries of [`super::Store`] are shared too. The text renders to
//! exactly the statements each database was given when both were written out in full
//! (`tests/fixtures/schema_v2_*.sql`), so databases made before keep their recorded versions
//! and their schema.

use sqlx::{AnyConnection, AnyPool, AssertSqlSafe, Executor};

use super::Backend;

/// The only differences between the two databases' DDL: `(placeholder, SQLite, PostgreSQL)`.
const DIALECT: &[(&str, &str, &str)] = &[
    // Times, flags and counts: 64-bit on both. SQLite's INTEGER is 64-bit already;
    // PostgreSQL's is 32-bit, and sqlx decodes its BIGINT as the i64 the queries use.
    ("{int}", "INTEGER", "BIGINT"),
    // A key the database numbers, rising: notifications are read in the order of their ids.
    // On SQLite only `INTEGER PRIMARY KEY` is the rowid (a BIGINT key would not be), and
    // AUTOINCREMENT keeps it from reusing a deleted row's id, as a PostgreSQL sequence never
    // does.
    (
        "{serial_key}",
        "INTEGER PRIMARY KEY AUTOINCREMENT",
        "BIGSERIAL PRIMARY KEY",
    ),
];

/// `sql` with the placeholders of [`DIALECT`] replaced for `backend`.
fn render(sql: &str, backend: Backend) -> String {
    DIALECT
        .iter()
        .fold(sql.to_string(), |sql, &(placeholder, sqlite, postgres)| {
            let with = match backend {
                Backend::Sqlite => sqlite,
                Backend::Postgres => postgres,
            };
            sql.replace(placeholder, with)
        })
}

/// `(version, SQL)` in order, for both databases: `{int}` and `{serial_key}` stand for the
/// types of [`DIALECT`].
const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        r#"
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    partner_id TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    firstname TEXT NOT NULL DEFAULT '',
    lastname TEXT NOT NULL DEFAULT '',
    company TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL DEFAULT 'en_EN',
    UNIQUE (client_id, partner_id)
);
CREATE TABLE documents (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    title TEXT NOT NULL,
    subtitle TEXT NOT NULL DEFAULT '',
    filename TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    footer TEXT NOT NULL DEFAULT '',
    supplemental TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]',
    creator_id TEXT NOT NULL,
    status TEXT NOT NULL,
    archived {int} NOT NULL DEFAULT 0,
    group_id TEXT NOT NULL,
    sample_id TEXT NOT NULL DEFAULT '',
    created {int} NOT NULL,
    modified {int} NOT NULL,
    conversation_changed {int} NOT NULL DEFAULT 0,
    deletion_due {int},
    warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX documents_client_group ON documents (client_id, group_id);
CREATE TABLE members (
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    section_history {int},
    export_duplicate {int},
    admin {int},
    last_opened {int},
    PRIMARY KEY (document_id, user_id)
);
CREATE TABLE access_tokens (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    expires {int} NOT NULL,
    used {int} NOT NULL DEFAULT 0
);
CREATE TABLE pages (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    expires {int} NOT NULL
);
CREATE TABLE admin_tokens (
    hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    expires {int} NOT NULL
);
CREATE TABLE seen_jtis (
    client_id TEXT NOT NULL,
    jti TEXT NOT NULL,
    expires {int} NOT NULL,
    PRIMARY KEY (client_id, jti)
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    state TEXT NOT NULL,
    document_id TEXT,
    user_id TEXT,
    message TEXT NOT NULL DEFAULT '',
    created {int} NOT NULL
);
CREATE TABLE notifications (
    id {serial_key},
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    message TEXT NOT NULL,
    created {int} NOT NULL
);
"#,
    ),
    (
        2,
        // Background imports as rows any instance's worker can claim: the request, a lease
        // (Unix seconds; an expired one means the worker died) and who holds it.
        r#"
ALTER TABLE jobs ADD COLUMN payload TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN file_name TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN worker TEXT;
ALTER TABLE jobs ADD COLUMN lease_until {int};
ALTER TABLE jobs ADD COLUMN attempts {int} NOT NULL DEFAULT 0;
CREATE INDEX jobs_pending ON jobs (state, created);
"#,
    ),
    (
        3,
        // A page an access link opened is bound to its user by a session: the user and the
        // hash of the secret its cookie carries (both NULL for an export's page, a link anyone
        // holding it may open). A new link for the user ends their sessions in the document.
        r#"
ALTER TABLE pages ADD COLUMN user_id TEXT;
ALTER TABLE pages ADD COLUMN session_hash TEXT;
CREATE INDEX pages_document_user ON pages (document_id, user_id);
"#,
    ),
];

/// Key of the advisory lock PostgreSQL instances hold while migrating, so that several
/// starting at once apply each migration once.
const MIGRATION_LOCK: i64 = 0x5d_c0_4e_76;

/// Applies the migrations not yet applied, each in its own transaction.
pub async fn run(pool: &AnyPool, backend: Backend) -> Result<(), sqlx::Error> {
    let mut conn = pool.acquire().await?;
    if backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_lock($1)")
            .bind(MIGRATION_LOCK)
            .execute(&mut *conn)
            .await?;
    }
    let applied = apply(&mut conn, backend).await;
    if backend == Backend::Postgres {
        sqlx::query("SELECT pg_advisory_unlock($1)")
            .bind(MIGRATION_LOCK)
            .execute(&mut *conn)
            .await?;
    }
    applied
}

async fn apply(conn: &mut AnyConnection, backend: Backend) -> Result<(), sqlx::Error> {
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)",
    )
    .await?;
    for &(version, sql) in MIGRATIONS {
        let done: Option<(i64,)> =
            sqlx::query_as("SELECT version FROM schema_migrations WHERE version = $1")
                .bind(version)
                .fetch_optional(&mut *conn)
                .await?;
        if done.is_some() {
            continue;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        sqlx::raw_sql(AssertSqlSafe(render(sql, backend)))
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO schema_migrations (version, applied) VALUES ($1, $2)")
            .bind(version)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(version, "applied database migration");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::Store;
    use super::*;

    /// `(version, statements)` of a `tests/fixtures/schema_v2_*.sql` file, whose migrations
    /// start at lines `-- migration N`.
    fn released(fixture: &str) -> Vec<(i64, String)> {
        let mut found: Vec<(i64, String)> = Vec::new();
        for line in fixture.lines() {
            if let Some(version) = line.strip_prefix("-- migration ") {
                found.push((version.parse().unwrap(), String::new()));
            } else if let Some((_, sql)) = found.last_mut() {
                sql.push_str(line);
                sql.push('\n');
            }
        }
        found
    }

    #[test]
    fn the_shared_text_renders_the_statements_each_database_was_given() {
        for (backend, fixture) in [
            (
                Backend::Sqlite,
                include_str!("../../tests/fixtures/schema_v2_sqlite.sql"),
            ),
            (
                Backend::Postgres,
                include_str!("../../tests/fixtures/schema_v2_postgres.sql"),
            ),
        ] {
            let released = released(fixture);
            assert_eq!(released.len(), 2, "{backend:?}");
            for (version, sql) in released {
                let (_, shared) = MIGRATIONS.iter().find(|(v, _)| *v == version).unwrap();
                assert_eq!(
                    render(shared, backend).trim(),
                    sql.trim(),
                    "{backend:?}, migration {version}"
                );
            }
            // No placeholder is left for the database to refuse.
            for (version, sql) in MIGRATIONS {
                assert!(!render(sql, backend).contains('{'), "migration {version}");
            }
        }
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
