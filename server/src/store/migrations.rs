//! The database schema, as numbered migrations applied in order at start-up. A migration once
//! released is never edited: changes are new migrations.

use sqlx::SqlitePool;

/// `(version, SQL)`, in order.
const MIGRATIONS: &[(i64, &str)] = &[(
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
)];

/// Applies the migrations not yet applied, each in its own transaction.
pub async fn run(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    sqlx::raw_sql(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)",
    )
    .execute(pool)
    .await?;
    for &(version, sql) in MIGRATIONS {
        let done: Option<(i64,)> =
            sqlx::query_as("SELECT version FROM schema_migrations WHERE version = ?")
                .bind(version)
                .fetch_optional(pool)
                .await?;
        if done.is_some() {
            continue;
        }
        let mut tx = pool.begin().await?;
        sqlx::raw_sql(sql).execute(&mut *tx).await?;
        sqlx::query(
            "INSERT INTO schema_migrations (version, applied) VALUES (?, strftime('%s','now'))",
        )
        .bind(version)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        tracing::info!(version, "applied database migration");
    }
    Ok(())
}
