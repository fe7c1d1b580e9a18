//! The `pages` table: rendered pages (an html export, the page an access link opens), whose
//! files are blobs under [`page_prefix`], valid until they expire. A page an access link opened
//! is bound to its user by a session ([`PageSession`]): only the browser holding the session's
//! cookie is served it.

use super::Store;

/// Blob folder of a rendered page.
pub fn page_prefix(hash: &str) -> String {
    format!("pages/{hash}")
}

/// The session a page is bound to: the user it was opened for and the hash of the secret its
/// cookie carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageSession {
    /// The user's service id.
    pub user: String,
    /// SHA-256 (hex) of the cookie's secret.
    pub secret_hash: String,
}

/// A page that has not expired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The document shown.
    pub document: String,
    /// `None`: a link anyone holding it may open (the html export's URL).
    pub session: Option<PageSession>,
}

impl Store {
    /// Registers a rendered page, bound to `session` when given.
    pub async fn insert_page(
        &self,
        hash: &str,
        document: &str,
        expires: i64,
        session: Option<&PageSession>,
    ) -> Result<(), sqlx::Error> {
        sqlx::query(
            "INSERT INTO pages (hash, document_id, expires, user_id, session_hash)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(hash)
        .bind(document)
        .bind(expires)
        .bind(session.map(|s| s.user.as_str()))
        .bind(session.map(|s| s.secret_hash.as_str()))
        .execute(&self.db)
        .await?;
        Ok(())
    }

    /// The page `hash` when it exists and has not expired at `now`.
    pub async fn page(&self, hash: &str, now: i64) -> Result<Option<Page>, sqlx::Error> {
        let row: Option<(String, i64, Option<String>, Option<String>)> = sqlx::query_as(
            "SELECT document_id, expires, user_id, session_hash FROM pages WHERE hash = $1",
        )
        .bind(hash)
        .fetch_optional(&self.db)
        .await?;
        Ok(row.filter(|(_, expires, _, _)| *expires > now).map(
            |(document, _, user, secret_hash)| Page {
                document,
                session: user
                    .zip(secret_hash)
                    .map(|(user, secret_hash)| PageSession { user, secret_hash }),
            },
        ))
    }

    /// Whether the page exists and has not expired.
    pub async fn page_valid(&self, hash: &str, now: i64) -> Result<bool, sqlx::Error> {
        Ok(self.page(hash, now).await?.is_some())
    }

    /// Ends the sessions of `user` in `document` (a new link was given to them, or they opened
    /// a new page): removes those pages' records and returns their hashes, whose files the
    /// caller removes. Pages without a session (export links) stay.
    pub async fn end_sessions(
        &self,
        document: &str,
        user: &str,
    ) -> Result<Vec<String>, sqlx::Error> {
        let pages: Vec<(String,)> = sqlx::query_as(
            "DELETE FROM pages WHERE document_id = $1 AND user_id = $2 RETURNING hash",
        )
        .bind(document)
        .bind(user)
        .fetch_all(&self.db)
        .await?;
        Ok(pages.into_iter().map(|r| r.0).collect())
    }

    /// Removes the expired page records; returns their hashes (see [`Store::expire`]).
    pub(super) async fn expire_pages(&self, now: i64) -> Result<Vec<String>, sqlx::Error> {
        let pages: Vec<(String,)> =
            sqlx::query_as("DELETE FROM pages WHERE expires <= $1 RETURNING hash")
                .bind(now)
                .fetch_all(&self.db)
                .await?;
        Ok(pages.into_iter().map(|r| r.0).collect())
    }
}
