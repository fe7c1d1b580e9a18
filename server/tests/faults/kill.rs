//! kill -9 of an instance in the middle of background word imports: its jobs are taken over
//! (by the other instance, or by itself restarted) when their lease runs out, and every job
//! completes exactly once — one document row and one stored file per job, no upload left.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use sqlx::AnyPool;

use crate::child::{Child, medium_docx};
use crate::harness::{creation, postgres_schema, send_json, upload};

/// Jobs queued; each imports the benchmark's medium.docx, long enough to be caught mid-way.
const JOBS: usize = 12;
/// Flags of every instance: a short lease, so a dead instance's jobs move on within seconds.
const FLAGS: &[&str] = &["--job-lease", "3", "--conversions", "2"];

#[tokio::test]
async fn killed_instance_on_postgres_its_jobs_finish_once_on_the_other() {
    let Some(url) = postgres_schema().await else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let mut a = Child::start(data.path(), Some(&url), FLAGS);
    let b = Child::start(data.path(), Some(&url), FLAGS);
    let db = pool(&url).await;
    let jobs = queue(&a, JOBS).await;
    let interrupted = kill_while_converting(&mut a, &db).await;
    check_all_done_once(&b, &db, data.path(), &jobs, &interrupted).await;
}

#[tokio::test]
async fn killed_instance_on_sqlite_its_jobs_finish_once_after_a_restart() {
    let data = tempfile::tempdir().unwrap();
    let mut a = Child::start(data.path(), None, FLAGS);
    let url = format!("sqlite://{}", data.path().join("sdconv.db").display());
    let db = pool(&url).await;
    let jobs = queue(&a, JOBS).await;
    let interrupted = kill_while_converting(&mut a, &db).await;
    let restarted = Child::start(data.path(), None, FLAGS);
    check_all_done_once(&restarted, &db, data.path(), &jobs, &interrupted).await;
}

async fn pool(url: &str) -> AnyPool {
    sqlx::any::install_default_drivers();
    AnyPool::connect(url).await.unwrap()
}

/// Queues `n` background imports on `server`; their job ids.
async fn queue(server: &Child, n: usize) -> Vec<String> {
    let http = crate::child::http();
    let file = medium_docx();
    let mut jobs = Vec::new();
    for i in 0..n {
        let data = creation(&format!("u{i}"), "g1", "draft", &format!("Import {i}"));
        let (status, body) = send_json(
            server
                .req(
                    &http,
                    Method::POST,
                    "/partner/imports/word/background-upload",
                )
                .multipart(upload("medium.docx", file.clone(), &data)),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        jobs.push(body["jobId"].as_str().unwrap().to_string());
    }
    jobs
}

/// Waits until a worker of `victim` holds a job, then kills it; the jobs it held.
async fn kill_while_converting(victim: &mut Child, db: &AnyPool) -> BTreeSet<String> {
    let pattern = format!("{}-%", victim.instance);
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let held: Vec<(String,)> =
            sqlx::query_as("SELECT id FROM jobs WHERE state = 'PENDING' AND worker LIKE $1")
                .bind(&pattern)
                .fetch_all(db)
                .await
                .unwrap();
        if !held.is_empty() {
            victim.kill9();
            // What it held at its death (it may have claimed one more since the query).
            let held: Vec<(String,)> =
                sqlx::query_as("SELECT id FROM jobs WHERE state = 'PENDING' AND worker LIKE $1")
                    .bind(&pattern)
                    .fetch_all(db)
                    .await
                    .unwrap();
            assert!(
                !held.is_empty(),
                "the victim finished its jobs before dying"
            );
            return held.into_iter().map(|(id,)| id).collect();
        }
        assert!(
            Instant::now() < deadline,
            "no job was claimed by the victim"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Every job SUCCESS (asked of `survivor`) with its own document, exactly one document row
/// and one stored file per job, the uploads removed, the interrupted jobs claimed again.
async fn check_all_done_once(
    survivor: &Child,
    db: &AnyPool,
    data: &Path,
    jobs: &[String],
    interrupted: &BTreeSet<String>,
) {
    let http = crate::child::http();
    let deadline = Instant::now() + Duration::from_secs(240);
    for job in jobs {
        let path = format!("/partner/documents/background-upload/{job}");
        let body = loop {
            let (status, body) = send_json(survivor.req(&http, Method::GET, &path)).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            if body["state"] != "PENDING" {
                break body;
            }
            assert!(Instant::now() < deadline, "job {job} never finished");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        assert_eq!(body["state"], "SUCCESS", "job {job}: {body}");
        assert_eq!(body["documentId"], job.as_str());
    }
    let (documents,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM documents")
        .fetch_one(db)
        .await
        .unwrap();
    assert_eq!(documents, jobs.len() as i64, "one document row per job");
    let stored: BTreeSet<String> = std::fs::read_dir(data.join("blobs/documents"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let expected: BTreeSet<String> = jobs.iter().cloned().collect();
    assert_eq!(stored, expected, "one stored document folder per job");
    for job in jobs {
        let file = data.join(format!("blobs/documents/{job}/sd.xml.zip"));
        assert!(file.is_file(), "{} missing", file.display());
        let upload = data.join(format!("blobs/jobs/{job}"));
        assert!(!upload.exists(), "upload of {job} left behind");
    }
    for job in interrupted {
        let (attempts,): (i64,) = sqlx::query_as("SELECT attempts FROM jobs WHERE id = $1")
            .bind(job)
            .fetch_one(db)
            .await
            .unwrap();
        assert!(
            attempts >= 2,
            "interrupted job {job} was claimed {attempts} time(s)"
        );
    }
}
