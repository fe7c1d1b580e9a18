//! The `jobs` table: background imports as rows that the workers of any instance claim under
//! a lease (see [`crate::jobs`]); the upload waits as a blob ([`job_upload_key`]).

// Dynamic SQL here is only ever assembled from this module's constant fragments; values are
// always bound.
use sqlx::AssertSqlSafe;

use super::{Backend, Store};

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

impl Store {
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
}
