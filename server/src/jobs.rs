//! Background imports as database rows. The upload handler stores the file as a blob and
//! queues a row; every instance runs workers that claim rows (see
//! [`Store::claim_job`](crate::store::Store::claim_job)) under a lease, convert, and record the
//! result only while they still hold the lease. A worker that dies leaves its lease to run
//! out; another worker (of any instance) then takes the job over. The document a job makes has
//! the job's id, so a taken-over job never stores a second document.
//!
//! A live worker renews its lease every third of it while it converts, so a slow conversion
//! keeps its job however long it takes, and the lease itself can be short: a dead instance's
//! jobs are taken over within one lease (`--job-lease`).

use std::time::Duration;

use tokio::sync::watch;

use crate::error::{ApiError, ApiResult};
use crate::imports::{Upload, import, word_request};
use crate::state::AppState;
use crate::store::{ClaimedJob, job_upload_key};

/// How often an idle worker looks for jobs queued by other instances.
const POLL: Duration = Duration::from_millis(500);

/// Claims and runs jobs until `stop` turns true (or its sender is gone); `worker` names this
/// worker in the rows.
///
/// A claim is never cut short: a claim dropped in the middle of its query may still be carried
/// out by the database afterwards, after shutdown released this instance's jobs, and would
/// leave a job held by a worker that no longer runs until its lease ran out. So the stop is
/// looked at only between claims, while idle, and while a claimed job runs (that job is then
/// released by [`crate::Server::shutdown`], once every worker has returned).
pub async fn run(state: AppState, worker: String, mut stop: watch::Receiver<bool>) {
    loop {
        if *stop.borrow() {
            return;
        }
        let lease = lease_seconds(&state);
        let found = match state.store.claim_job(&worker, state.now(), lease).await {
            Ok(Some(job)) => {
                tokio::select! {
                    result = run_claimed(&state, &worker, job) => match result {
                        Ok(()) => true,
                        // As after a failed claim: wait a poll before the next one.
                        Err(e) => {
                            tracing::error!(worker, "background job queue: {e}");
                            false
                        }
                    },
                    _ = stop.changed() => return,
                }
            }
            Ok(None) => false,
            Err(e) => {
                tracing::error!(worker, "background job queue: {e}");
                false
            }
        };
        if found {
            continue;
        }
        tokio::select! {
            () = state.jobs_queued.notified() => {}
            () = tokio::time::sleep(POLL) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Runs a claimed job and records its result while `worker` still holds it.
async fn run_claimed(state: &AppState, worker: &str, job: ClaimedJob) -> ApiResult<()> {
    let result = {
        // Dropped (and so stopped) when the job is done, before its result is recorded.
        let _renewal = Renewal::start(state, &job.id, worker);
        run_job(state, &job).await
    };
    if let Err(e) = &result
        && e.status == axum::http::StatusCode::SERVICE_UNAVAILABLE
    {
        // The database (or store) is away: not the job's fault. Keep it pending; it is claimed
        // again when its lease runs out.
        return Err(e.clone());
    }
    // The upload goes before the result is recorded: a worker killed in between leaves its
    // successor the stored document to find (or, after a failure, the same failure to
    // record), never an upload nobody removes.
    state.blob_delete(format!("jobs/{}", job.id)).await?;
    let recorded = match &result {
        Ok((doc, user)) => {
            state
                .store
                .finish_job(&job.id, worker, Ok((doc, user)))
                .await?
        }
        Err(e) => {
            tracing::warn!(job = %job.id, "background import failed: {e}");
            state
                .store
                .finish_job(&job.id, worker, Err(&e.message))
                .await?
        }
    };
    if !recorded {
        tracing::warn!(job = %job.id, worker, "lease lost: another worker finishes the job");
    }
    Ok(())
}

/// The lease in whole seconds (the unit of the clock and the rows).
fn lease_seconds(state: &AppState) -> i64 {
    i64::try_from(state.config.job_lease.as_secs()).unwrap_or(i64::MAX)
}

/// A task renewing a job's lease every third of the lease until dropped.
struct Renewal(tokio::task::JoinHandle<()>);

impl Renewal {
    fn start(state: &AppState, job: &str, worker: &str) -> Renewal {
        let (state, job, worker) = (state.clone(), job.to_string(), worker.to_string());
        Renewal(tokio::spawn(async move {
            let every = state.config.job_lease / 3;
            loop {
                tokio::time::sleep(every).await;
                let until = state.now().saturating_add(lease_seconds(&state));
                match state.store.renew_job(&job, &worker, until).await {
                    Ok(true) => {}
                    Ok(false) => {
                        // Taken over (the lease ran out while the database was away): the
                        // result of this run will not be recorded, finish_job says so.
                        tracing::warn!(job, worker, "lease lost while converting");
                        return;
                    }
                    // Try again at the next tick; the lease has two more thirds to go.
                    Err(e) => tracing::warn!(job, worker, "renewing the lease: {e}"),
                }
            }
        }))
    }
}

impl Drop for Renewal {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Converts and stores the job's upload; `(document, user)`.
async fn run_job(state: &AppState, job: &ClaimedJob) -> ApiResult<(String, String)> {
    // Taken over after the previous holder stored the document but before it recorded so.
    if let Some(doc) = state.store.document(&job.client_id, &job.id).await? {
        return Ok((doc.id, doc.creator_id));
    }
    let Some(file) = state.blob_get(job_upload_key(&job.id)).await? else {
        // A previous holder stored the document and removed the upload since the look above.
        return match state.store.document(&job.client_id, &job.id).await? {
            Some(doc) => Ok((doc.id, doc.creator_id)),
            None => Err(ApiError::internal(
                "background upload",
                "the upload file is missing",
            )),
        };
    };
    let req = word_request(Upload {
        file_name: job.file_name.clone(),
        file: file.into(),
        data: job.payload.clone().into_bytes().into(),
    })?;
    let imported = import(
        state,
        &job.client_id,
        &req.creation,
        sdconv::Format::Word,
        req.options,
        req.file,
        Some(job.id.clone()),
    )
    .await;
    match imported {
        Ok((row, user)) => Ok((row.id, user.id)),
        // A worker that lost its lease (the database was away past it) may still have stored
        // the document meanwhile: then that document is the job's result (its id is the
        // job's, so the second insert failed), not a failure.
        Err(e) => match state.store.document(&job.client_id, &job.id).await? {
            Some(doc) => Ok((doc.id, doc.creator_id)),
            None => Err(e),
        },
    }
}
