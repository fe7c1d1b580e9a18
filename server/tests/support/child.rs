//! A real `sdconv-server` process for the fault and load tests: started on a free loopback
//! port with one JWT client (`acme` / `s3cret`), stopped (SIGKILL) when dropped, and its
//! memory read from `/proc`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use jsonwebtoken::{EncodingKey, Header};
use serde_json::json;

pub const CLIENT: &str = "acme";
pub const SECRET: &str = "s3cret";

/// A running server process.
pub struct Child {
    process: std::process::Child,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    /// The instance name its job workers carry (`<instance>-<n>`).
    pub instance: String,
}

impl Child {
    /// Starts the test build of the server (or `SDCONV_LOAD_SERVER`, e.g. a release build)
    /// on `data`, and the database `database_url` (`None`: SQLite in `data`), plus `extra`
    /// flags; returns once it listens.
    pub fn start(data: &Path, database_url: Option<&str>, extra: &[&str]) -> Child {
        let program = std::env::var("SDCONV_LOAD_SERVER")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sdconv-server").to_string());
        let mut cmd = Command::new(program);
        cmd.arg("--listen")
            .arg("127.0.0.1:0")
            .arg("--data")
            .arg(data)
            .arg("--client")
            .arg(format!("{CLIENT}={SECRET}"))
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        // Only what this test sets: none of the caller's SDCONV_* settings.
        for (key, _) in std::env::vars() {
            if key.starts_with("SDCONV_") {
                cmd.env_remove(key);
            }
        }
        cmd.env("SDCONV_LOG", "warn");
        if let Some(url) = database_url {
            cmd.arg("--database-url").arg(url);
        }
        let mut process = cmd.spawn().expect("start sdconv-server");
        let stdout = process.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let (mut url, mut instance) = (None, None);
        while instance.is_none() {
            let line = match lines.next() {
                Some(Ok(line)) => line,
                _ => panic!("sdconv-server exited before it listened"),
            };
            if let Some(rest) = line.strip_prefix("sdconv-server listening on ") {
                url = Some(rest.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("instance: ") {
                instance = Some(rest.trim().to_string());
            }
        }
        // Keep reading, so that the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines.map_while(Result::ok) {});
        Child {
            process,
            url: url.expect("listening line before the instance line"),
            instance: instance.unwrap_or_default(),
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// SIGKILL, and waits for the process to be gone: nothing of it runs on.
    pub fn kill9(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }

    /// A field of `/proc/PID/status` in KiB (`VmRSS`, `VmHWM`).
    pub fn status_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("/proc/PID/status");
        status
            .lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{field} missing from /proc status"))
    }

    /// CPU time (user + system) the process has used so far, in seconds: what a run cost,
    /// whatever else the machine was running.
    pub fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).expect("/proc/PID/stat");
        // After the command name in parentheses: state is field 3, utime 14, stime 15.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or("", |(_, rest)| rest)
            .split_whitespace()
            .collect();
        let ticks = |i: usize| {
            fields
                .get(i)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        let tck = Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .unwrap_or(100.0);
        (ticks(11) + ticks(12)) as f64 / tck
    }

    /// A request with a fresh JWT.
    pub fn req(
        &self,
        http: &reqwest::Client,
        method: reqwest::Method,
        path: &str,
    ) -> reqwest::RequestBuilder {
        http.request(method, format!("{}{path}", self.url))
            .header("x-client-id", CLIENT)
            .bearer_auth(jwt())
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// An HTTP client (the process's TLS provider installed first, as reqwest here needs one).
pub fn http() -> reqwest::Client {
    sdconv_server::tls_provider();
    reqwest::Client::new()
}

/// A fresh HS256 token issued now (a new `jti` each time).
pub fn jwt() -> String {
    static JTI: AtomicU64 = AtomicU64::new(0);
    let iat = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs();
    let jti = format!(
        "child-{}-{}",
        std::process::id(),
        JTI.fetch_add(1, Ordering::SeqCst)
    );
    let claims = json!({"iat": iat, "iss": "tests", "jti": jti});
    jsonwebtoken::encode(
        &Header::default(),
        &claims,
        &EncodingKey::from_secret(SECRET.as_bytes()),
    )
    .expect("sign a JWT")
}

/// The upload of the load and fault tests: `../shared/bench/medium.docx` (2.2 MB, 54 pages),
/// or, where `../shared` is absent, a Word file of similar shape made by the engine (printed).
pub fn medium_docx() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/bench/medium.docx"
    );
    match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}; using a generated Word file instead");
            let doc = sdconv::internal::sample::large_document(600, 12, 10, 7);
            sdconv::export(
                &doc,
                sdconv::Format::Word,
                &sdconv::ExportOptions::default(),
            )
            .expect("the sample exports")
            .value
        }
    }
}
