//! The `members` table (a user's role and rights in a document, and their last open) and the
//! `notifications` table (messages recorded for a document's users).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::Store;

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

impl Store {
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
}

/// Creates or overwrites a membership on `conn`, so that [`Store::insert_document`] can write
/// a document and its creator's membership in one transaction.
pub(super) async fn upsert_member(
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
