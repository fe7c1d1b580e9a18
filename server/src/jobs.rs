//! Background imports as database rows. The upload handler stores the file as a blob and
//! queues a row; every instance runs workers that claim rows (see
//! [`Store::claim_job`](crate::store::Store::claim_job)) under a lease, convert, and record the
//! result only while they still hold the lease. A worker that dies leaves its lease to run
//! out; another worker (of any instance) then takes the job over. The document a job makes has
//! the job's id, so a taken-over job never stores a second document.

use std::time::Duration;

use crate::api::imports::{Upload, import, word_request};
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::{ClaimedJob, job_upload_key};

/// How often an idle worker looks for jobs queued by other instances.
const POLL: Duration = Duration::from_millis(500);

/// Claims and runs jobs until the runtime stops; `worker` names this worker in the rows.
pub async fn run(state: AppState, worker: String) {
    loop {
        match work_one(&state, &worker).await {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => tracing::error!(worker, "background job queue: {e}"),
        }
        tokio::select! {
            () = state.jobs_queued.notified() => {}
            () = tokio::time::sleep(POLL) => {}
        }
    }
}

/// Claims one job and runs it; false when none was waiting.
pub async fn work_one(state: &AppState, worker: &str) -> ApiResult<bool> {
    let lease = i64::try_from(state.config.timeout.as_secs()).unwrap_or(i64::MAX);
    let Some(job) = state.store.claim_job(worker, state.now(), lease).await? else {
        return Ok(false);
    };
    let result = run_job(state, &job).await;
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
    if recorded {
        state.blob_delete(format!("jobs/{}", job.id)).await?;
    } else {
        tracing::warn!(job = %job.id, worker, "lease lost: another worker finishes the job");
    }
    Ok(true)
}

/// Converts and stores the job's upload; `(document, user)`.
async fn run_job(state: &AppState, job: &ClaimedJob) -> ApiResult<(String, String)> {
    // Taken over after the previous holder stored the document but before it recorded so.
    if let Some(doc) = state.store.document(&job.client_id, &job.id).await? {
        return Ok((doc.id, doc.creator_id));
    }
    let file = state
        .blob_get(job_upload_key(&job.id))
        .await?
        .ok_or_else(|| ApiError::internal("background upload", "the upload file is missing"))?;
    let req = word_request(Upload {
        file_name: job.file_name.clone(),
        file: file.into(),
        data: job.payload.clone().into_bytes().into(),
    })?;
    let (row, user) = import(
        state,
        &job.client_id,
        &req.creation,
        sdconv::Format::Word,
        req.options,
        req.file,
        Some(job.id.clone()),
    )
    .await?;
    Ok((row.id, user.id))
}
