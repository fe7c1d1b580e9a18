//! Configuration: command-line flags, each also an `SDCONV_*` environment variable.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

/// A JWT client: `x-client-id` and the secret its tokens are signed with.
#[derive(Debug, Clone)]
pub struct Client {
    /// The `x-client-id` value.
    pub id: String,
    /// The HMAC key (`<CLIENT_SECRET>`).
    pub secret: String,
}

/// A legacy (user/password mode) account: `x-api-key` plus the admin e-mail and password that
/// `POST /partner/authenticate` checks. Documents belong to `client_id`, so an account and a JWT
/// client with the same id see the same documents.
#[derive(Debug, Clone)]
pub struct LegacyAccount {
    /// The client whose documents this account manages.
    pub client_id: String,
    /// The `x-api-key` value.
    pub api_key: String,
    /// The admin e-mail.
    pub email: String,
    /// The admin password, or its argon2 PHC hash (`$argon2…`); plain passwords are hashed at
    /// start-up and never kept.
    pub password: String,
}

/// The flags as parsed.
#[derive(Debug, Parser)]
#[command(
    name = "sdconv-server",
    version,
    about = "The partner API on the sdconv engine"
)]
pub struct Flags {
    /// Address to listen on.
    #[arg(long, env = "SDCONV_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,
    /// A JWT client `ID=SECRET`; repeatable (comma-separated in the environment). Without any,
    /// a development client is made up and printed.
    #[arg(long = "client", env = "SDCONV_CLIENT", value_delimiter = ',')]
    pub clients: Vec<String>,
    /// A legacy account `CLIENT_ID=API_KEY,EMAIL,PASSWORD` (password: plain or an argon2 PHC
    /// hash); repeatable (`;`-separated in the environment).
    #[arg(long = "legacy", env = "SDCONV_LEGACY", value_delimiter = ';')]
    pub legacy: Vec<String>,
    /// Base URL of access links and page URLs (default: `http://` + the listen address).
    #[arg(long, env = "SDCONV_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Folder of the database and the stored files; created when missing.
    #[arg(long, env = "SDCONV_DATA", default_value = "./data")]
    pub data: PathBuf,
    /// Accepted JWT `iat` leeway in seconds (also applied to `exp` and `nbf` when present).
    #[arg(long, env = "SDCONV_JWT_LEEWAY", default_value_t = 300)]
    pub jwt_leeway: i64,
    /// Freemium model: documents a client may hold (0 = unlimited); one more is refused with 402.
    #[arg(long, env = "SDCONV_DOCUMENT_QUOTA", default_value_t = 0)]
    pub document_quota: u64,
    /// Largest accepted request body (uploads) in bytes; larger is refused with 403.
    #[arg(long, env = "SDCONV_MAX_UPLOAD", default_value_t = 256 * 1024 * 1024)]
    pub max_upload: usize,
    /// Request timeout in seconds (conversions included).
    #[arg(long, env = "SDCONV_TIMEOUT", default_value_t = 300)]
    pub timeout: u64,
    /// Conversions running at once (default: the number of cores).
    #[arg(long, env = "SDCONV_CONVERSIONS")]
    pub conversions: Option<usize>,
    /// The database: `postgres://user@host:port/db` to share one among several instances
    /// (migrated at start); default: the SQLite file in the data folder.
    #[arg(long, env = "SDCONV_DATABASE_URL")]
    pub database_url: Option<String>,
    /// Database connections the instance keeps at most.
    #[arg(long, env = "SDCONV_DB_POOL", default_value_t = 8)]
    pub db_pool: u32,
    /// Lease of a background job in seconds: a worker renews it every third of it while it
    /// converts, and a job whose lease ran out (its instance died) is taken over.
    #[arg(long, env = "SDCONV_JOB_LEASE", default_value_t = 30)]
    pub job_lease: u64,
    /// Where stored files go: `s3://BUCKET[/PREFIX][?endpoint=URL&region=NAME]` for an
    /// S3-compatible store that several instances share (credentials from `AWS_ACCESS_KEY_ID`
    /// and `AWS_SECRET_ACCESS_KEY`); default: the folder `blobs` in the data folder.
    #[arg(long, env = "SDCONV_BLOB_URL")]
    pub blob_url: Option<String>,
}

/// Validated configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Listen address.
    pub listen: SocketAddr,
    /// JWT clients by id.
    pub clients: BTreeMap<String, Client>,
    /// Legacy accounts by API key.
    pub legacy: Vec<LegacyAccount>,
    /// Base URL of links, without a trailing slash; `None` = derived from the bound address.
    pub public_url: Option<String>,
    /// Data folder.
    pub data: PathBuf,
    /// JWT `iat` leeway (also applied to `exp` and `nbf`).
    pub jwt_leeway: Duration,
    /// Documents per client; 0 = unlimited.
    pub document_quota: u64,
    /// Largest request body.
    pub max_upload: usize,
    /// Request timeout.
    pub timeout: Duration,
    /// Conversions at once.
    pub conversions: usize,
    /// Whether the development client was made up (and is printed at start-up).
    pub dev_client: bool,
    /// The database URL; `None` = SQLite in the data folder.
    pub database_url: Option<String>,
    /// Database connections at most.
    pub db_pool: u32,
    /// Lease of a background job (renewed every third of it while the job runs).
    pub job_lease: Duration,
    /// The S3 URL of the file store; `None` = `blobs/` in the data folder.
    pub blob_url: Option<String>,
    /// S3 access key id and secret for embedding and tests; `None` (what the binary uses) =
    /// the `AWS_*` environment variables.
    pub s3_keys: Option<(String, String)>,
}

/// A flag value that cannot be understood.
#[derive(Debug, thiserror::Error)]
#[error("--{flag} {value:?}: {message}")]
pub struct ConfigError {
    flag: &'static str,
    value: String,
    message: &'static str,
}

impl Config {
    /// Checks the flags; without `--client` a random development client is added.
    pub fn from_flags(flags: Flags) -> Result<Config, ConfigError> {
        let mut clients = BTreeMap::new();
        for raw in &flags.clients {
            let (id, secret) = raw.split_once('=').ok_or_else(|| ConfigError {
                flag: "client",
                value: raw.clone(),
                message: "expected ID=SECRET",
            })?;
            if id.is_empty() || secret.is_empty() {
                return Err(ConfigError {
                    flag: "client",
                    value: raw.clone(),
                    message: "id and secret must not be empty",
                });
            }
            clients.insert(
                id.to_string(),
                Client {
                    id: id.to_string(),
                    secret: secret.to_string(),
                },
            );
        }
        let dev_client = clients.is_empty();
        if dev_client {
            let id = "dev".to_string();
            clients.insert(
                id.clone(),
                Client {
                    id,
                    secret: crate::ids::random_token(),
                },
            );
        }
        let mut legacy = Vec::new();
        for raw in &flags.legacy {
            legacy.push(parse_legacy(raw)?);
        }
        if flags.jwt_leeway < 0 {
            return Err(ConfigError {
                flag: "jwt-leeway",
                value: flags.jwt_leeway.to_string(),
                message: "must not be negative",
            });
        }
        Ok(Config {
            listen: flags.listen,
            clients,
            legacy,
            public_url: flags
                .public_url
                .map(|u| u.trim_end_matches('/').to_string()),
            data: flags.data,
            jwt_leeway: Duration::from_secs(flags.jwt_leeway.unsigned_abs()),
            document_quota: flags.document_quota,
            max_upload: flags.max_upload,
            timeout: Duration::from_secs(flags.timeout.max(1)),
            conversions: flags
                .conversions
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
                .max(1),
            dev_client,
            database_url: flags.database_url.filter(|u| !u.is_empty()),
            db_pool: flags.db_pool.max(1),
            // Under 3 s a renewal (every third) could not keep up with the clock's seconds.
            job_lease: Duration::from_secs(flags.job_lease.max(3)),
            blob_url: flags.blob_url.filter(|u| !u.is_empty()),
            s3_keys: None,
        })
    }

    /// A configuration for tests and embedding: one client, data in `data`, port chosen by the
    /// system.
    pub fn for_tests(data: PathBuf, client_id: &str, secret: &str) -> Config {
        let mut clients = BTreeMap::new();
        clients.insert(
            client_id.to_string(),
            Client {
                id: client_id.to_string(),
                secret: secret.to_string(),
            },
        );
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            clients,
            legacy: Vec::new(),
            public_url: None,
            data,
            jwt_leeway: Duration::from_secs(300),
            document_quota: 0,
            max_upload: 256 * 1024 * 1024,
            timeout: Duration::from_secs(300),
            conversions: 2,
            dev_client: false,
            database_url: None,
            db_pool: 4,
            job_lease: Duration::from_secs(30),
            blob_url: None,
            s3_keys: None,
        }
    }
}

fn parse_legacy(raw: &str) -> Result<LegacyAccount, ConfigError> {
    let bad = |message| ConfigError {
        flag: "legacy",
        value: raw.to_string(),
        message,
    };
    let (client_id, rest) = raw
        .split_once('=')
        .ok_or_else(|| bad("expected CLIENT_ID=API_KEY,EMAIL,PASSWORD"))?;
    let mut parts = rest.splitn(3, ',');
    let (Some(api_key), Some(email), Some(password)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("expected CLIENT_ID=API_KEY,EMAIL,PASSWORD"));
    };
    if [client_id, api_key, email, password]
        .iter()
        .any(|s| s.is_empty())
    {
        return Err(bad("no part may be empty"));
    }
    Ok(LegacyAccount {
        client_id: client_id.to_string(),
        api_key: api_key.to_string(),
        email: email.to_string(),
        password: password.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_parse_clients_and_legacy_accounts() {
        let flags = Flags::parse_from([
            "sdconv-server",
            "--client",
            "acme=s3cret",
            "--legacy",
            "acme=key1,admin@example.com,pa,ss",
        ]);
        let config = Config::from_flags(flags).unwrap();
        assert_eq!(config.clients["acme"].secret, "s3cret");
        assert!(!config.dev_client);
        assert_eq!(config.legacy[0].password, "pa,ss");
        assert_eq!(config.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(config.database_url, None);
    }

    #[test]
    fn database_url_and_pool_size_are_flags() {
        let flags = Flags::parse_from([
            "sdconv-server",
            "--database-url",
            "postgres://postgres@127.0.0.1:5432/test",
            "--db-pool",
            "0",
        ]);
        let config = Config::from_flags(flags).unwrap();
        assert_eq!(
            config.database_url.as_deref(),
            Some("postgres://postgres@127.0.0.1:5432/test")
        );
        // A pool needs one connection at least.
        assert_eq!(config.db_pool, 1);
    }

    #[test]
    fn without_clients_a_development_client_is_made_up() {
        let config = Config::from_flags(Flags::parse_from(["sdconv-server"])).unwrap();
        assert!(config.dev_client);
        assert_eq!(config.clients["dev"].secret.len(), 32);
    }

    #[test]
    fn malformed_client_is_refused_naming_the_flag() {
        let flags = Flags::parse_from(["sdconv-server", "--client", "nosecret"]);
        let err = Config::from_flags(flags).unwrap_err().to_string();
        assert!(err.contains("--client"), "{err}");
    }
}
