//! The database schema, as numbered migrations applied in order at start-up. A migration once
//! released is never edited: changes are new migrations.

use sqlx::{AnyConnection, AnyPool, Executor};

use super::Backend;

/// `(version, SQL)` for SQLite, in order.
const SQLITE: &[(i64, &str)] = &[
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
    archived INTEGER NOT NULL DEFAULT 0,
    group_id TEXT NOT NULL,
    sample_id TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL,
    modified INTEGER NOT NULL,
    conversation_changed INTEGER NOT NULL DEFAULT 0,
    deletion_due INTEGER,
    warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX documents_client_group ON documents (client_id, group_id);
CREATE TABLE members (
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    section_history INTEGER,
    export_duplicate INTEGER,
    admin INTEGER,
    last_opened INTEGER,
    PRIMARY KEY (document_id, user_id)
);
CREATE TABLE access_tokens (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    expires INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE pages (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    expires INTEGER NOT NULL
);
CREATE TABLE admin_tokens (
    hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    expires INTEGER NOT NULL
);
CREATE TABLE seen_jtis (
    client_id TEXT NOT NULL,
    jti TEXT NOT NULL,
    expires INTEGER NOT NULL,
    PRIMARY KEY (client_id, jti)
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    state TEXT NOT NULL,
    document_id TEXT,
    user_id TEXT,
    message TEXT NOT NULL DEFAULT '',
    created INTEGER NOT NULL
);
CREATE TABLE notifications (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    message TEXT NOT NULL,
    created INTEGER NOT NULL
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
ALTER TABLE jobs ADD COLUMN lease_until INTEGER;
ALTER TABLE jobs ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
CREATE INDEX jobs_pending ON jobs (state, created);
"#,
    ),
];

/// The same schema for PostgreSQL: 64-bit integers (times, flags) and a serial id, the rest as
/// for SQLite so that the queries are shared.
const POSTGRES: &[(i64, &str)] = &[
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
    archived BIGINT NOT NULL DEFAULT 0,
    group_id TEXT NOT NULL,
    sample_id TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL,
    modified BIGINT NOT NULL,
    conversation_changed BIGINT NOT NULL DEFAULT 0,
    deletion_due BIGINT,
    warnings TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX documents_client_group ON documents (client_id, group_id);
CREATE TABLE members (
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    section_history BIGINT,
    export_duplicate BIGINT,
    admin BIGINT,
    last_opened BIGINT,
    PRIMARY KEY (document_id, user_id)
);
CREATE TABLE access_tokens (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    expires BIGINT NOT NULL,
    used BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE pages (
    hash TEXT PRIMARY KEY,
    document_id TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE TABLE admin_tokens (
    hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    expires BIGINT NOT NULL
);
CREATE TABLE seen_jtis (
    client_id TEXT NOT NULL,
    jti TEXT NOT NULL,
    expires BIGINT NOT NULL,
    PRIMARY KEY (client_id, jti)
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    state TEXT NOT NULL,
    document_id TEXT,
    user_id TEXT,
    message TEXT NOT NULL DEFAULT '',
    created BIGINT NOT NULL
);
CREATE TABLE notifications (
    id BIGSERIAL PRIMARY KEY,
    document_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    message TEXT NOT NULL,
    created BIGINT NOT NULL
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
ALTER TABLE jobs ADD COLUMN lease_until BIGINT;
ALTER TABLE jobs ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
CREATE INDEX jobs_pending ON jobs (state, created);
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
    let migrations = match backend {
        Backend::Sqlite => SQLITE,
        Backend::Postgres => POSTGRES,
    };
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied BIGINT NOT NULL)",
    )
    .await?;
    for &(version, sql) in migrations {
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
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
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
