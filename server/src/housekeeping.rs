//! The sweeper: deletes documents whose deletion process is due and forgets expired tokens and
//! pages. Runs every minute; tests call [`sweep`] directly after moving the clock.

use std::time::Duration;

use crate::error::ApiResult;
use crate::service;
use crate::state::AppState;
use crate::store::page_prefix;

/// What one sweep removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Swept {
    /// Documents deleted by their deletion process.
    pub documents: usize,
    /// Expired pages removed.
    pub pages: usize,
}

/// One sweep at the clock's current time.
pub async fn sweep(state: &AppState) -> ApiResult<Swept> {
    let now = state.now();
    // Several instances sweep the same database: each due document is deleted (and counted)
    // by the one whose conditional DELETE removes its row.
    let mut documents = 0;
    for id in state.store.due_deletions(now).await? {
        if service::delete_document(state, &id, Some(now)).await? {
            tracing::info!(document = %id, "deletion process due: deleted");
            documents += 1;
        }
    }
    let pages = state.store.expire(now).await?;
    for hash in &pages {
        state.blob_delete(page_prefix(hash)).await?;
    }
    Ok(Swept {
        documents,
        pages: pages.len(),
    })
}

/// Sweeps every `every` until the runtime stops.
pub async fn run(state: AppState, every: Duration) {
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        if let Err(e) = sweep(&state).await {
            tracing::error!("sweep failed: {e}");
        }
    }
}
