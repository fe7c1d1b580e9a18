//! A local S3-compatible server for the S3 tests: moto (PyPI `moto[server]`) in server mode on
//! a free loopback port, one per test process (each test makes its own bucket), ended by a
//! watchdog when the test process is gone. `SDCONV_TEST_MOTO` names its `moto_server`
//! (`.ci/run` installs one in a venv); otherwise `moto_server` on PATH. Without one the tests
//! skip with a printed reason, except in CI (`CI=true`), where they fail.

use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::OnceCell;

/// Runs moto ($1, port $2) and ends it once the process $3 (the tests) is gone: a static's
/// owner is never dropped, so the test process cannot stop it itself. The watchdog runs in
/// the background of a shell that exits at once (and is waited for), so no child is left
/// unreaped.
const WATCHDOG: &str = r#"(
"$1" -H 127.0.0.1 -p "$2" &
moto=$!
while kill -0 "$3" 2>/dev/null && kill -0 "$moto" 2>/dev/null; do sleep 1; done
kill "$moto" 2>/dev/null
) </dev/null >/dev/null 2>&1 &
"#;

static MOTO: OnceCell<Option<String>> = OnceCell::const_new();

/// The endpoint of this process's moto server (started on first use); `None` when no
/// moto_server can run (outside CI only).
pub async fn endpoint() -> Option<String> {
    MOTO.get_or_init(start).await.clone()
}

async fn start() -> Option<String> {
    let program = std::env::var("SDCONV_TEST_MOTO").unwrap_or_else(|_| "moto_server".into());
    if let Err(e) = Command::new(&program).arg("--help").output() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI=true but {program} cannot run ({e}): .ci/run installs moto");
        }
        eprintln!("skipping: {program} cannot run ({e}); pip install 'moto[server]'");
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let started = Command::new("sh")
        .args(["-c", WATCHDOG, "sh", &program, &port.to_string()])
        .arg(std::process::id().to_string())
        .stdin(Stdio::null())
        .status()
        .expect("start moto through sh");
    assert!(started.success(), "sh: {started}");
    let endpoint = format!("http://127.0.0.1:{port}");
    sdconv_server::tls_provider();
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while http.get(&endpoint).send().await.is_err() {
        assert!(Instant::now() < deadline, "moto did not come up on {port}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Some(endpoint)
}

/// A new bucket on this process's moto server; its store URL. `None` as for [`endpoint`].
pub async fn bucket() -> Option<String> {
    static N: AtomicU64 = AtomicU64::new(0);
    let endpoint = endpoint().await?;
    let bucket = format!("sdconv-{}", N.fetch_add(1, Ordering::SeqCst));
    sdconv_server::tls_provider();
    let resp = reqwest::Client::new()
        .put(format!("{endpoint}/{bucket}"))
        .send()
        .await
        .unwrap();
    assert!(
        resp.status().is_success(),
        "create bucket: {}",
        resp.status()
    );
    Some(format!(
        "s3://{bucket}?endpoint={endpoint}&region=us-east-1"
    ))
}
