//! A bounded load test on loopback against a real `sdconv-server` process: 32 clients, each
//! running rounds — word import of `../shared/bench/medium.docx` (a generated Word file where
//! `../shared` is absent), html export (zip download) of
//! the document made, DELETE of it (so the store stays the same size) — for
//! `SDCONV_LOAD_SECONDS` (default 10; README figures: 60 with a release server,
//! `SDCONV_LOAD_SERVER=target/release/sdconv-server`), on SQLite and on PostgreSQL.
//!
//! Two ways to offer the load (`SDCONV_LOAD_RATE`):
//! - paced (the default, 40 rounds/s, the throughput goal): round `k` is due at
//!   `k / rate` seconds and taken by whichever of the 32 clients is free (an open loop, as
//!   wrk2 does). The import's latency counts from the round's due time, so a server that falls
//!   behind shows it in the percentiles instead of slowing the clients down (no coordinated
//!   omission). This is the latency at the goal throughput.
//! - `max`: each client starts its next round as soon as the last one ends (a closed loop). This
//!   measures the most the server does; its latency is by Little's law the number of clients
//!   divided by that throughput, whatever the server does.
//!
//! `SDCONV_LOAD_SERVER_ARGS` passes more flags to the server (`"--db-pool 4"`).
//!
//! Prints per request kind the throughput, p50/p99 latency and errors, and the server's peak
//! memory (VmHWM). Asserts what does not depend on the machine's speed: no error, and memory
//! flat (the resident size of the last third of the run within 25 % + 48 MiB of the middle
//! third's).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::json;
use tokio::sync::Mutex;

const POSTGRES: bool = false;
const S3: bool = false;

#[path = "api/harness.rs"]
#[allow(dead_code)] // The suite's harness; this test uses its payload and schema helpers.
mod harness;

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;

use child::Child;
use harness::{creation, postgres_schema, upload};

const CLIENTS: usize = 32;

/// The two runs measure one server at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

#[tokio::test(flavor = "multi_thread")]
async fn load_sqlite() {
    let _one = ONE_AT_A_TIME.lock().await;
    run("SQLite", None).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn load_postgres() {
    let _one = ONE_AT_A_TIME.lock().await;
    let Some(url) = postgres_schema().await else {
        return;
    };
    run("PostgreSQL", Some(url)).await;
}

/// Latencies of one kind of request, and its failures.
#[derive(Default)]
struct Kind {
    latencies: Vec<Duration>,
    errors: Vec<String>,
}

#[derive(Default)]
struct Tally {
    import: Kind,
    export: Kind,
    delete: Kind,
}

/// Rounds per second to offer, or `None` for as many as the server takes
/// (`SDCONV_LOAD_RATE`: a number, or `max`; default 40).
fn rate() -> Option<f64> {
    match std::env::var("SDCONV_LOAD_RATE") {
        Ok(s) if s == "max" => None,
        Ok(s) => Some(
            s.parse::<f64>()
                .ok()
                .filter(|r| *r > 0.0)
                .expect("SDCONV_LOAD_RATE: a positive number or max"),
        ),
        Err(_) => Some(40.0),
    }
}

fn seconds() -> u64 {
    std::env::var("SDCONV_LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10)
}

async fn run(backend: &str, database_url: Option<String>) {
    let file = child::medium_docx();
    let data = tempfile::tempdir().unwrap();
    // More server flags for a measurement (`SDCONV_LOAD_SERVER_ARGS="--db-pool 4"`).
    let extra = std::env::var("SDCONV_LOAD_SERVER_ARGS").unwrap_or_default();
    let extra: Vec<&str> = extra.split_whitespace().collect();
    let server = Arc::new(Child::start(data.path(), database_url.as_deref(), &extra));
    let http = crate::child::http();
    let duration = Duration::from_secs(seconds());
    let tally: Arc<Mutex<Tally>> = Arc::default();
    let cpu_before = server.cpu_seconds();
    let started = Instant::now();
    let end = started + duration;

    let sampler = {
        let server = server.clone();
        tokio::spawn(async move {
            let mut samples = Vec::new();
            while Instant::now() < end {
                samples.push(server.status_kib("VmRSS"));
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            samples
        })
    };
    let rate = rate();
    // The next round to start, in the paced mode.
    let next = Arc::new(AtomicU64::new(0));
    let missed = Arc::new(AtomicU64::new(0));
    let mut clients = Vec::new();
    for n in 0..CLIENTS {
        let (server, http, tally, file, next, missed) = (
            server.clone(),
            http.clone(),
            tally.clone(),
            file.clone(),
            next.clone(),
            missed.clone(),
        );
        clients.push(tokio::spawn(async move {
            let user = format!("c{n}");
            loop {
                let due = match rate {
                    None => Instant::now(),
                    Some(rate) => {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        started + Duration::from_secs_f64(k as f64 / rate)
                    }
                };
                if due >= end {
                    break;
                }
                if Instant::now() >= end {
                    // Due in the run but no client was free before it ended: the server
                    // fell behind the offered rate.
                    missed.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                tokio::time::sleep_until(due.into()).await;
                one_round(&server, &http, &user, &file, due, &tally).await;
            }
        }));
    }
    for c in clients {
        c.await.unwrap();
    }
    let elapsed = started.elapsed();
    let cpu = server.cpu_seconds() - cpu_before;
    let samples = sampler.await.unwrap();
    let peak_kib = server.status_kib("VmHWM");
    let tally = tally.lock().await;

    let offered = rate.map_or("as fast as answered (closed loop)".to_string(), |r| {
        format!("{r} rounds/s offered (paced; import latency from each round's due time)")
    });
    eprintln!(
        "\nload {backend}: {CLIENTS} clients, {offered}, {:.1} s, medium.docx ({} bytes)",
        elapsed.as_secs_f64(),
        file.len()
    );
    for (name, kind) in [
        ("import", &tally.import),
        ("export html", &tally.export),
        ("delete", &tally.delete),
    ] {
        let mut l = kind.latencies.clone();
        l.sort();
        let pct = |p: f64| {
            l.get(((l.len() as f64 * p).ceil() as usize).saturating_sub(1))
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        };
        eprintln!(
            "  {name:<12} {:>6} ok {:>7.1}/s  p50 {:>7.1} ms  p99 {:>7.1} ms  errors {}",
            l.len(),
            l.len() as f64 / elapsed.as_secs_f64(),
            pct(0.50),
            pct(0.99),
            kind.errors.len()
        );
    }
    let total: usize = [&tally.import, &tally.export, &tally.delete]
        .iter()
        .map(|k| k.latencies.len())
        .sum();
    eprintln!(
        "  all          {total:>6} ok {:>7.1}/s; server peak RSS (VmHWM) {:.1} MiB; RSS samples {} (first {:.1} MiB, last {:.1} MiB)",
        total as f64 / elapsed.as_secs_f64(),
        peak_kib as f64 / 1024.0,
        samples.len(),
        samples.first().copied().unwrap_or(0) as f64 / 1024.0,
        samples.last().copied().unwrap_or(0) as f64 / 1024.0,
    );
    let missed = missed.load(Ordering::Relaxed);
    if missed > 0 {
        eprintln!("  {missed} rounds due in the run never started: the server fell behind");
    }
    // What a round costs the server in CPU, independent of what else shares the machine,
    // and the rounds per second two dedicated cores would give at that cost.
    let rounds = tally.delete.latencies.len().max(1) as f64;
    eprintln!(
        "  server CPU {cpu:.1} s = {:.1} ms per round (import + export + delete): {:.1} rounds/s on 2 free cores; load average {}",
        cpu * 1000.0 / rounds,
        2.0 * rounds / cpu.max(0.001),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );

    for kind in [&tally.import, &tally.export, &tally.delete] {
        assert!(
            kind.errors.is_empty(),
            "{} errors, the first: {}",
            kind.errors.len(),
            kind.errors[0]
        );
    }
    assert!(
        !tally.import.latencies.is_empty(),
        "no import finished in the run"
    );
    // Memory flat: after the ramp-up (the first third), the last third stays near the middle.
    let third = samples.len() / 3;
    assert!(third > 0, "too few memory samples: {}", samples.len());
    let mean = |s: &[u64]| s.iter().sum::<u64>() / s.len().max(1) as u64;
    let (middle, last) = (
        mean(&samples[third..2 * third]),
        mean(&samples[2 * third..]),
    );
    assert!(
        last <= middle + middle / 4 + 48 * 1024,
        "memory grows: middle third {middle} KiB, last third {last} KiB"
    );
}

/// import → export → delete, each timed (the import from `due`, when the round should have
/// started); a failure is recorded and ends the round.
async fn one_round(
    server: &Child,
    http: &reqwest::Client,
    user: &str,
    file: &[u8],
    due: Instant,
    tally: &Mutex<Tally>,
) {
    let data = creation(user, "load", "draft", "Load");
    let import = server
        .req(http, Method::POST, "/partner/imports/word/upload")
        .multipart(upload("medium.docx", file.to_vec(), &data));
    let result = timed(import).await.and_then(|(_, body)| {
        let answer: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        match answer["documentId"].as_str() {
            Some(id) => Ok((due.elapsed(), id.to_string())),
            None => Err(format!("no documentId: {answer}")),
        }
    });
    let Some(id) = record(&mut tally.lock().await.import, result) else {
        return;
    };
    let export = server
        .req(
            http,
            Method::POST,
            &format!("/partner/documents/{id}/export/html"),
        )
        .json(&json!({"userId": user, "type": "html", "download": true}));
    let result = timed(export).await;
    if record(&mut tally.lock().await.export, result).is_none() {
        return;
    }
    let delete = server.req(http, Method::DELETE, &format!("/partner/documents/{id}"));
    let result = timed(delete).await;
    record(&mut tally.lock().await.delete, result);
}

/// Sends; the time until the whole body of a 200 is read, and the body; else what failed.
async fn timed(req: reqwest::RequestBuilder) -> Result<(Duration, Vec<u8>), String> {
    let t = Instant::now();
    let resp = req.send().await.map_err(|e| e.to_string())?;
    let status = resp.status();
    let body = resp.bytes().await.map_err(|e| e.to_string())?;
    if status != StatusCode::OK {
        return Err(format!("{status}: {}", String::from_utf8_lossy(&body)));
    }
    Ok((t.elapsed(), body.to_vec()))
}

/// Adds a result to `kind`; the value of a success.
fn record<T>(kind: &mut Kind, result: Result<(Duration, T), String>) -> Option<T> {
    match result {
        Ok((d, v)) => {
            kind.latencies.push(d);
            Some(v)
        }
        Err(e) => {
            kind.errors.push(e);
            None
        }
    }
}
