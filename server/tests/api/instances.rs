//! Two instances on one database and one file store: background imports queued on either are
//! spread over both instances' workers and each is done once; an access link issued by one
//! instance is consumed on the other, once; a worker renews its lease while it converts; two
//! sweepers delete each due document once.

use std::collections::BTreeSet;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::harness::*;

const IMPORTS: usize = 200;

#[tokio::test]
async fn two_instances_share_jobs_documents_and_access_links() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let twin = h.twin().await;
    let servers = [&h.server, &twin];
    let mut jobs = Vec::new();
    let file = sample_docx();
    for n in 0..IMPORTS {
        let data = creation(&format!("u{n}"), "g1", "draft", &format!("Import {n}"));
        let (status, body) = send_json(
            h.req_on(
                servers[n % 2],
                Method::POST,
                "/partner/imports/word/background-upload",
            )
            .multipart(upload("s.docx", file.clone(), &data)),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        jobs.push(body["jobId"].as_str().unwrap().to_string());
    }
    // Every job finishes, whichever instance is asked and whichever ran it.
    let mut documents = BTreeSet::new();
    let mut links = Vec::new();
    for (n, job) in jobs.iter().enumerate() {
        let path = format!("/partner/documents/background-upload/{job}");
        let mut done = None;
        for _ in 0..2400 {
            let (status, body) =
                send_json(h.req_on(servers[(n + 1) % 2], Method::GET, &path)).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            if body["state"] != "PENDING" {
                done = Some(body);
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        let done = done.unwrap_or_else(|| panic!("job {job} did not finish"));
        assert_eq!(done["state"], "SUCCESS", "{done}");
        // The document takes the job's id: a job done twice could not store two.
        assert_eq!(done["documentId"], job.as_str());
        documents.insert(done["documentId"].as_str().unwrap().to_string());
        links.push(done["documentAccessLink"].as_str().unwrap().to_string());
    }
    assert_eq!(documents.len(), IMPORTS);
    let stored = h.server.state.store.count_documents(CLIENT).await.unwrap();
    assert_eq!(stored, IMPORTS as u64, "one document per job, none twice");
    // Both instances' workers ran some (worker names are `<instance>-<n>`).
    let workers: Vec<(String,)> = sqlx::query_as("SELECT worker FROM jobs")
        .fetch_all(&h.server.state.store.db)
        .await
        .unwrap();
    let instances: BTreeSet<&str> = workers
        .iter()
        .filter_map(|(w,)| w.rsplit_once('-').map(|(instance, _)| instance))
        .collect();
    assert_eq!(instances.len(), 2, "jobs ran on {instances:?}");
    // Nothing is left queued; the uploads were removed once recorded.
    assert!(
        h.server
            .state
            .store
            .claim_job("probe", h.clock.now(), 60)
            .await
            .unwrap()
            .is_none()
    );
    for job in &jobs {
        let upload = h
            .server
            .state
            .store
            .blobs
            .get(&format!("jobs/{job}/upload.docx"))
            .await
            .unwrap();
        assert!(upload.is_none(), "upload of {job} left behind");
    }
    // The first job's link was issued by the twin (it answered the poll); used on the first
    // instance: once, on either.
    let link = &links[0];
    assert!(link.starts_with(twin.url()), "{link}");
    let on_first = link.replacen(twin.url(), h.server.url(), 1);
    let first = h.http.get(&on_first).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::SEE_OTHER);
    let again = h.http.get(link).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
    let again_on_first = h.http.get(&on_first).send().await.unwrap();
    assert_eq!(again_on_first.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_job_held_by_a_dead_worker_is_taken_over_after_its_lease() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let (status, body) = send_json(h.post("/partner/imports/word/background-upload").multipart(
        upload("s.docx", sample_docx(), &creation("u1", "g1", "draft", "T")),
    ))
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let job = body["jobId"].as_str().unwrap().to_string();
    // Wait for the job to finish, then pretend a worker that died had claimed a second one.
    let store = &h.server.state.store;
    let path = format!("/partner/documents/background-upload/{job}");
    for _ in 0..600 {
        let (_, body) = send_json(h.get(&path)).await;
        if body["state"] != "PENDING" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    // A job of the id form stores were written with before ids were UUIDs (24 hex digits):
    // taken over and finished like a new one, its document taking that id.
    let orphan = "0123456789abcdef0a0b0c0d";
    let upload_key = format!("jobs/{orphan}/upload.docx");
    store.blobs.put(&upload_key, sample_docx()).await.unwrap();
    let data = creation("u2", "g1", "draft", "Orphan").to_string();
    insert_held_job(&h, orphan, &data, "dead-worker").await;
    let orphan_path = format!("/partner/documents/background-upload/{orphan}");
    // Live workers poll every 500 ms: after two polls it is still held.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let (_, body) = send_json(h.get(&orphan_path)).await;
    assert_eq!(body["state"], "PENDING", "taken before the lease ran out");
    h.clock.advance(301);
    let mut done = serde_json::Value::Null;
    for _ in 0..600 {
        let (_, body) = send_json(h.get(&orphan_path)).await;
        if body["state"] != "PENDING" {
            done = body;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(done["state"], "SUCCESS", "{done}");
    assert_eq!(done["documentId"], orphan);
    // The dead worker's late result is not recorded.
    assert!(
        !store
            .finish_job(orphan, "dead-worker", Err("late"))
            .await
            .unwrap()
    );
}

#[tokio::test]
async fn shutdown_releases_the_jobs_its_workers_hold() {
    let Some(h) = Harness::start().await else {
        return;
    };
    let twin = h.twin().await;
    let store = twin.state.store.clone();
    let data = creation("u1", "g1", "draft", "Held").to_string();
    // As if one of the twin's workers were converting it.
    let worker = format!("{}-9", twin.instance);
    insert_held_job(&h, "held", &data, &worker).await;
    assert!(
        store
            .claim_job("other", h.clock.now(), 300)
            .await
            .unwrap()
            .is_none()
    );
    twin.shutdown().await;
    // Released at once, with no lease to wait out: the stopped instance's worker holds it no
    // more. It is free (no lease), or a worker of the first instance (polling every 500 ms) has
    // already claimed it again — a race with this read, so either is right.
    let (holder, lease): (Option<String>, Option<i64>) =
        sqlx::query_as("SELECT worker, lease_until FROM jobs WHERE id = 'held'")
            .fetch_one(&store.db)
            .await
            .unwrap();
    match holder {
        None => assert_eq!(lease, None),
        Some(w) => assert!(
            w != worker && w.starts_with(&h.server.instance),
            "still held by {w}"
        ),
    }
}

/// A queued job already claimed by `worker` for 300 s (one statement, so no live worker can
/// claim it first).
async fn insert_held_job(h: &Harness, id: &str, payload: &str, worker: &str) {
    sqlx::query(
        "INSERT INTO jobs (id, client_id, state, created, payload, file_name, worker, lease_until,
                           attempts)
         VALUES ($1, $2, 'PENDING', $3, $4, 's.docx', $5, $6, 1)",
    )
    .bind(id)
    .bind(CLIENT)
    .bind(h.clock.now())
    .bind(payload)
    .bind(worker)
    .bind(h.clock.now() + 300)
    .execute(&h.server.state.store.db)
    .await
    .unwrap();
}

#[tokio::test]
async fn a_worker_renews_its_lease_while_converting() {
    let Some(h) = Harness::start_with(|c| c.job_lease = Duration::from_secs(3)).await else {
        return;
    };
    let state = &h.server.state;
    // Every conversion slot taken: the worker claims the job, then waits in its conversion as
    // a slow one would.
    let slots = u32::try_from(state.config.conversions).unwrap();
    let held = state.conversions.acquire_many(slots).await.unwrap();
    let (status, body) = send_json(h.post("/partner/imports/word/background-upload").multipart(
        upload(
            "s.docx",
            sample_docx(),
            &creation("u1", "g1", "draft", "Slow"),
        ),
    ))
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let job = body["jobId"].as_str().unwrap().to_string();
    let mut worker = None;
    for _ in 0..600 {
        let row: (Option<String>,) = sqlx::query_as("SELECT worker FROM jobs WHERE id = $1")
            .bind(&job)
            .fetch_one(&state.store.db)
            .await
            .unwrap();
        if row.0.is_some() {
            worker = row.0;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(worker.is_some(), "the job was never claimed");
    // The clock runs on, a second per second, twice past the claim's 3 s lease. Without the
    // renewals (every second) the instance's other worker would take the job over.
    for _ in 0..6 {
        h.clock.advance(1);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    assert!(
        state
            .store
            .claim_job("other", h.clock.now(), 3)
            .await
            .unwrap()
            .is_none(),
        "the lease of a converting worker ran out"
    );
    drop(held);
    let path = format!("/partner/documents/background-upload/{job}");
    let mut done = serde_json::Value::Null;
    for _ in 0..600 {
        let (_, body) = send_json(h.get(&path)).await;
        if body["state"] != "PENDING" {
            done = body;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (attempts, finished_by, message): (i64, Option<String>, String) =
        sqlx::query_as("SELECT attempts, worker, message FROM jobs WHERE id = $1")
            .bind(&job)
            .fetch_one(&state.store.db)
            .await
            .unwrap();
    assert_eq!(done["state"], "SUCCESS", "{done} {message}");
    assert_eq!(attempts, 1, "claimed once");
    assert_eq!(finished_by, worker);
}

#[tokio::test]
async fn two_sweepers_delete_each_due_document_once() {
    const DOCUMENTS: usize = 8;
    let Some(h) = Harness::start().await else {
        return;
    };
    let twin = h.twin().await;
    for _ in 0..DOCUMENTS {
        let id = h.create("a", "g1", "review").await["documentId"]
            .as_str()
            .unwrap()
            .to_string();
        let (status, body) = send_json(
            h.post(&format!("/partner/documents/{id}/deletion-process"))
                .json(&json!({"userId": "a"})),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }
    h.clock.advance(15 * 24 * 3600 + 1);
    let (first, second) = tokio::join!(h.server.sweep(), twin.sweep());
    let (first, second) = (first.unwrap(), second.unwrap());
    assert_eq!(
        first.documents + second.documents,
        DOCUMENTS,
        "each due document deleted by one sweeper: {first:?} {second:?}"
    );
    assert_eq!(
        h.server.state.store.count_documents(CLIENT).await.unwrap(),
        0
    );
    // Nothing left to sweep.
    assert_eq!(twin.sweep().await.unwrap().documents, 0);
}
