//! The `pages` table: rendered pages (an html export, the page an access link opens), whose
//! files are blobs under [`page_prefix`], valid until they expire.

use super::Store;

/// Blob folder of a rendered page.
pub fn page_prefix(hash: &str) -> String {
    format!("pages/{hash}")
}

impl Store {
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
