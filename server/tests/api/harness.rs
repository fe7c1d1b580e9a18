//! A server started per test on a free loopback port, with a manual clock, one JWT client
//! (`acme` / `s3cret`) and one legacy account (`acme=key-1,admin@example.com,pw`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::{Method, RequestBuilder, StatusCode};
pub use sdconv_server::clock::Clock;
use sdconv_server::clock::ManualClock;
use sdconv_server::config::{Config, LegacyAccount};
use sdconv_server::{Server, start};
use serde_json::{Value, json};

pub const CLIENT: &str = "acme";
pub const SECRET: &str = "s3cret";
pub const API_KEY: &str = "key-1";
pub const ADMIN_EMAIL: &str = "admin@example.com";
pub const ADMIN_PASSWORD: &str = "pw";

#[path = "../support/moto.rs"]
mod moto;

static JTI: AtomicU64 = AtomicU64::new(0);

pub struct Harness {
    pub server: Server,
    /// What `server` was started with (a twin instance starts with it too).
    pub config: Config,
    pub clock: ManualClock,
    pub http: reqwest::Client,
    _dir: tempfile::TempDir,
}

impl Harness {
    /// A server on the suite's store; `None` (the test skips) only for the PostgreSQL suite
    /// without `SDCONV_TEST_POSTGRES`, or the S3 suite without moto, outside CI.
    pub async fn start() -> Option<Harness> {
        Harness::start_with(|_| {}).await
    }

    pub async fn start_with(adjust: impl FnOnce(&mut Config)) -> Option<Harness> {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::for_tests(dir.path().to_path_buf(), CLIENT, SECRET);
        if crate::POSTGRES {
            config.database_url = Some(postgres_schema().await?);
        }
        if crate::S3 {
            config.blob_url = Some(moto_bucket().await?);
            // moto takes any keys; these keep the environment's out of the tests.
            config.s3_keys = Some(("test".into(), "test".into()));
        }
        config.legacy.push(LegacyAccount {
            client_id: CLIENT.into(),
            api_key: API_KEY.into(),
            email: ADMIN_EMAIL.into(),
            password: ADMIN_PASSWORD.into(),
        });
        adjust(&mut config);
        let clock = ManualClock::new(1_800_000_000);
        let server = start(config.clone(), Arc::new(clock.clone()))
            .await
            .unwrap();
        // start() installed the TLS provider reqwest needs.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Some(Harness {
            server,
            config,
            clock,
            http,
            _dir: dir,
        })
    }

    /// A second instance on the same database and file store, clock and clients (its own
    /// port and workers).
    pub async fn twin(&self) -> Server {
        let mut config = self.config.clone();
        config.public_url = None;
        start(config, Arc::new(self.clock.clone())).await.unwrap()
    }

    /// A JWT-authenticated request to `server` (e.g. a twin).
    pub fn req_on(&self, server: &Server, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, format!("{}{path}", server.url()))
            .header("x-client-id", CLIENT)
            .bearer_auth(self.jwt())
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.server.url())
    }

    /// A fresh HS256 token (new jti) issued now.
    pub fn jwt(&self) -> String {
        self.jwt_with(Algorithm::HS256, SECRET, self.clock.now())
    }

    pub fn jwt_with(&self, alg: Algorithm, secret: &str, iat: i64) -> String {
        let jti = format!("jti-{}", JTI.fetch_add(1, Ordering::SeqCst));
        let claims = json!({"iat": iat, "iss": "partner-user", "jti": jti});
        jsonwebtoken::encode(
            &Header::new(alg),
            &claims,
            &EncodingKey::from_secret(secret.as_bytes()),
        )
        .unwrap()
    }

    /// A request with JWT authentication.
    pub fn req(&self, method: Method, path: &str) -> RequestBuilder {
        self.http
            .request(method, self.url(path))
            .header("x-client-id", CLIENT)
            .bearer_auth(self.jwt())
    }

    pub fn get(&self, path: &str) -> RequestBuilder {
        self.req(Method::GET, path)
    }

    pub fn post(&self, path: &str) -> RequestBuilder {
        self.req(Method::POST, path)
    }

    pub fn delete(&self, path: &str) -> RequestBuilder {
        self.req(Method::DELETE, path)
    }

    /// Creates a document; returns the access result.
    pub async fn create(&self, user: &str, group: &str, status: &str) -> Value {
        let body = creation(user, group, status, "A title");
        let resp = self
            .post("/partner/documents/create")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status(), StatusCode::OK);
        resp.json().await.unwrap()
    }

    pub async fn doc(&self, id: &str, user: Option<&str>) -> (StatusCode, Value) {
        let mut r = self.get(&format!("/partner/documents/{id}"));
        if let Some(u) = user {
            r = r.query(&[("userId", u)]);
        }
        send_json(r).await
    }
}

/// A new bucket on the test process's moto server (its store URL), or `None` with a printed
/// reason when moto cannot run outside CI.
pub async fn moto_bucket() -> Option<String> {
    moto::bucket().await
}

/// The PostgreSQL server of `SDCONV_TEST_POSTGRES`, or `None` with a printed reason when it
/// is unset outside CI (in CI, `CI=true`, it must be set: the test fails instead).
pub fn postgres_url() -> Option<String> {
    match std::env::var("SDCONV_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but SDCONV_TEST_POSTGRES is unset: the PostgreSQL suite cannot skip")
        }
        _ => {
            eprintln!("skipping: SDCONV_TEST_POSTGRES (postgres://…) is unset");
            None
        }
    }
}

/// A fresh schema on the PostgreSQL test server, so that each test has its own tables; the
/// URL selects it for every connection.
pub async fn postgres_schema() -> Option<String> {
    let url = postgres_url()?;
    static SCHEMA: AtomicU64 = AtomicU64::new(0);
    let schema = format!(
        "t{}_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
        SCHEMA.fetch_add(1, Ordering::SeqCst)
    );
    let pool = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let sep = if url.contains('?') { '&' } else { '?' };
    Some(format!("{url}{sep}options[search_path]={schema}"))
}

/// A creation payload.
pub fn creation(user: &str, group: &str, status: &str, title: &str) -> Value {
    json!({
        "user": {"userId": user, "email": format!("{user}@example.com"), "firstname": "Ada",
                 "lastname": "Lovelace", "company": "ACME", "language": "en_EN"},
        "title": title,
        "description": "",
        "userRole": "approver",
        "groupId": group,
        "status": status,
    })
}

/// Sends; returns status and the JSON body (Null when it is not JSON).
pub async fn send_json(r: RequestBuilder) -> (StatusCode, Value) {
    let resp = r.send().await.unwrap();
    let status = resp.status();
    let bytes = resp.bytes().await.unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// Asserts an error response: status, code and that the message contains `needle`.
pub async fn assert_error(r: RequestBuilder, status: u16, code: &str, needle: &str) -> Value {
    let (got, body) = send_json(r).await;
    assert_eq!(got.as_u16(), status, "body: {body}");
    assert_eq!(body["error"], code, "body: {body}");
    let message = body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(needle),
        "message {message:?} lacks {needle:?}"
    );
    body
}

/// A multipart upload of `file` named `name` with `data`.
pub fn upload(name: &str, file: Vec<u8>, data: &Value) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new()
        .part(
            "file",
            reqwest::multipart::Part::bytes(file).file_name(name.to_string()),
        )
        .text("data", data.to_string())
}

/// The small sample document as .docx, written by the engine's Word writer.
pub fn sample_docx() -> Vec<u8> {
    let doc = sdconv::internal::sample::small_document();
    let mut options = sdconv::ExportOptions::default();
    options.word.settings = options
        .word
        .settings
        .with_image_caption(true)
        .with_table_caption(true);
    sdconv::export(&doc, sdconv::Format::Word, &options)
        .unwrap()
        .value
}

/// Names of the entries of a zip.
pub fn zip_names(bytes: &[u8]) -> Vec<String> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| zip.by_index(i).unwrap().name().unwrap().to_string())
        .collect()
}

/// One entry of a zip as text.
pub fn zip_text(bytes: &[u8], name: &str) -> String {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
    let mut s = String::new();
    zip.by_name(name).unwrap().read_to_string(&mut s).unwrap();
    s
}
