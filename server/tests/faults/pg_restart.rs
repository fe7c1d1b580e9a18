//! PostgreSQL restarted under load: while it is down requests fail with 503 and the standard
//! JSON error body; once it is back they succeed again, with no server restart. The test runs
//! its own private cluster (initdb + pg_ctl on a free port), never the machine's shared one.

use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde_json::Value;
use tokio::sync::Mutex;

use crate::child::Child;
use crate::harness::{creation, send_json};

/// Clients sending requests all along.
const CLIENTS: usize = 6;

/// A PostgreSQL cluster of this test's own, in a temporary folder.
struct Cluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    /// Whether commands run as the `postgres` user (PostgreSQL refuses to run as root).
    as_postgres: bool,
}

impl Cluster {
    /// initdb + start; `None` (with the reason printed) when PostgreSQL's programs are not
    /// installed, outside CI only.
    fn create() -> Option<Cluster> {
        let Some(bin) = pg_bin() else {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("CI=true but no /usr/lib/postgresql/*/bin/initdb: install postgresql");
            }
            eprintln!("skipping: no /usr/lib/postgresql/*/bin/initdb");
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        let as_postgres = std::fs::metadata("/proc/self").unwrap().uid() == 0;
        if as_postgres {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(status.success(), "chown of the cluster folder");
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cluster = Cluster {
            bin,
            dir,
            port,
            as_postgres,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        cluster.start();
        Some(cluster)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = cmd.args(args).output().unwrap();
        assert!(
            out.status.success(),
            "{program} {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn start(&self) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("log").display().to_string();
        self.run(
            "pg_ctl",
            &[
                "-D",
                &self.data(),
                "-o",
                &options,
                "-l",
                &log,
                "-w",
                "start",
            ],
        );
    }

    fn stop(&self) {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "fast", "-w", "stop"]);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let path = self.bin.join("pg_ctl");
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let _ = cmd.args(["-D", &data, "-m", "immediate", "stop"]).output();
    }
}

/// The newest installed PostgreSQL's programs.
fn pg_bin() -> Option<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let version: u32 = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, bin)| bin)
}

/// One answer: when, status and body.
type Answer = (Instant, StatusCode, Value);

#[tokio::test]
async fn postgres_restart_under_load_gives_503_then_recovers_without_a_server_restart() {
    let Some(cluster) = Cluster::create() else {
        return;
    };
    let data = tempfile::tempdir().unwrap();
    let server = Arc::new(Child::start(data.path(), Some(&cluster.url()), &[]));
    let http = crate::child::http();
    let (status, created) = send_json(
        server
            .req(&http, Method::POST, "/partner/documents/create")
            .json(&creation("u1", "g1", "draft", "Before")),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let document = created["documentId"].as_str().unwrap().to_string();

    let stop = Arc::new(AtomicBool::new(false));
    let answers: Arc<Mutex<Vec<Answer>>> = Arc::default();
    let mut clients = Vec::new();
    for n in 0..CLIENTS {
        let (server, http, stop, answers) =
            (server.clone(), http.clone(), stop.clone(), answers.clone());
        let path = format!("/partner/documents/{document}");
        clients.push(tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                // Reads and writes: a document read, a document creation.
                let r = if n % 2 == 0 {
                    server.req(&http, Method::GET, &path)
                } else {
                    server
                        .req(&http, Method::POST, "/partner/documents/create")
                        .json(&creation("u1", "g1", "draft", "Under load"))
                };
                let (status, body) = send_json(r.timeout(Duration::from_secs(30))).await;
                answers.lock().await.push((Instant::now(), status, body));
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    cluster.stop();
    let stopped = Instant::now();
    tokio::time::sleep(Duration::from_secs(5)).await;
    let restarting = Instant::now();
    cluster.start();
    let restarted = Instant::now();
    // Back within a few seconds: the pool reconnects by itself.
    let deadline = Instant::now() + Duration::from_secs(30);
    let recovered = loop {
        let (status, body) = send_json(server.req(
            &http,
            Method::GET,
            &format!("/partner/documents/{document}"),
        ))
        .await;
        if status == StatusCode::OK {
            break Instant::now();
        }
        assert!(Instant::now() < deadline, "no recovery: {status} {body}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::SeqCst);
    for c in clients {
        c.await.unwrap();
    }
    let answers = answers.lock().await;
    let ok_before = answers
        .iter()
        .filter(|(t, s, _)| *t < stopped && *s == StatusCode::OK)
        .count();
    assert!(ok_before > 0, "no successful request before the stop");
    // While it was down (answered after the stop, sent before the restart began): 503 with
    // the standard body, nothing else.
    let mut unavailable = 0;
    for (t, status, body) in answers.iter() {
        if *status == StatusCode::OK {
            continue;
        }
        assert_eq!(*status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["error"], "unavailable", "{body}");
        assert!(body["message"].as_str().is_some(), "{body}");
        // A 503 only while the database was away (plus the acquire timeout of requests
        // waiting when it came back).
        assert!(*t >= stopped, "503 before the stop: {body}");
        assert!(
            *t <= restarted + Duration::from_secs(5),
            "503 long after the restart: {body}"
        );
        unavailable += 1;
    }
    assert!(unavailable > 0, "no request saw the database down");
    let down_ok = answers
        .iter()
        .filter(|(t, s, _)| {
            *t > stopped + Duration::from_secs(4) && *t < restarting && *s == StatusCode::OK
        })
        .count();
    assert_eq!(down_ok, 0, "a request succeeded with the database down");
    let ok_after = answers
        .iter()
        .filter(|(t, s, _)| *t > recovered && *s == StatusCode::OK)
        .count();
    assert!(ok_after > 0, "no successful request after the recovery");
}
