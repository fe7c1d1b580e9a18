//! The `documents` table: one record per document (its metadata, status and deletion
//! process); the document itself is a blob ([`document_key`]). Deleting a document deletes
//! the rows of the other tables that belong to it too.

use sqlx::any::AnyRow;
// Dynamic SQL here is only ever assembled from this module's constant fragments; values are
// always bound.
use sqlx::{AssertSqlSafe, Row};

use super::Store;
use super::members::{Member, upsert_member};

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

/// Blob key of a document's stored form.
pub fn document_key(id: &str) -> String {
    format!("documents/{id}/sd.xml.zip")
}

/// The columns of a [`DocumentRow`], in the order [`Store::insert_document`] binds them.
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

/// Tags and warnings are stored as JSON arrays of strings.
fn json(v: &impl serde::Serialize) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".into())
}

impl Store {
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
        // The id is the key: one row at most.
        Ok(self
            .select_documents("client_id = $1 AND id = $2", &[client, id])
            .await?
            .pop())
    }

    /// The document `id` whatever its client (for access links, which carry no client).
    pub async fn document_any_client(&self, id: &str) -> Result<Option<DocumentRow>, sqlx::Error> {
        Ok(self.select_documents("id = $1", &[id]).await?.pop())
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
    /// that time. `Some` (with the hashes of its pages, whose files go too) when this call
    /// deleted it: of several instances deleting one document (two sweepers, or a sweeper and
    /// a DELETE), exactly one gets `Some`, because the row's own DELETE decides and the rest of
    /// the transaction is undone for the others. Its pages' sessions end with it.
    pub async fn delete_document(
        &self,
        id: &str,
        due_at: Option<i64>,
    ) -> Result<Option<Vec<String>>, sqlx::Error> {
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
            return Ok(None);
        }
        for table in ["members", "access_tokens"] {
            sqlx::query(AssertSqlSafe(format!(
                "DELETE FROM {table} WHERE document_id = $1"
            )))
            .bind(id)
            .execute(&mut *tx)
            .await?;
        }
        let pages: Vec<(String,)> =
            sqlx::query_as("DELETE FROM pages WHERE document_id = $1 RETURNING hash")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(Some(pages.into_iter().map(|r| r.0).collect()))
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
        let cond = format!("client_id = $1 AND {cond}{deletion}");
        let values: &[&str] = match b {
            Some(b) => &[client, a, b],
            None => &[client, a],
        };
        self.select_documents(&cond, values).await
    }

    /// Documents `user` can see: their drafts, and review documents of the groups they belong
    /// to (groups of documents they created or were sent to).
    pub async fn visible_documents(
        &self,
        client: &str,
        user: &str,
    ) -> Result<Vec<DocumentRow>, sqlx::Error> {
        self.select_documents(
            "client_id = $1 AND (
               (status = 'draft' AND creator_id = $2)
               OR (status = 'review' AND group_id IN (
                   SELECT d2.group_id FROM documents d2 JOIN members m ON m.document_id = d2.id
                   WHERE m.user_id = $2 AND d2.client_id = $1)))",
            &[client, user],
        )
        .await
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

    /// The documents matching `cond` (built from this module's constant fragments only, with
    /// `$1`, `$2`, … bound to `values` in order), oldest first.
    async fn select_documents(
        &self,
        cond: &str,
        values: &[&str],
    ) -> Result<Vec<DocumentRow>, sqlx::Error> {
        let sql =
            format!("SELECT {DOC_COLUMNS} FROM documents d WHERE {cond} ORDER BY created, id");
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for value in values {
            query = query.bind(*value);
        }
        query
            .fetch_all(&self.db)
            .await?
            .iter()
            .map(document_from)
            .collect()
    }
}
