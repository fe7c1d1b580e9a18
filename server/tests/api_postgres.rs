//! The partner API suite of `tests/api` against PostgreSQL (`SDCONV_TEST_POSTGRES`, e.g.
//! `postgres://postgres@127.0.0.1:5432/test`), each test in a schema of its own. Skips with a
//! printed reason when the variable is unset, except in CI (`CI=true`), where it fails.

/// Every harness of this binary opens a PostgreSQL store.
const POSTGRES: bool = true;
/// Files in a folder (`api_s3` covers S3).
const S3: bool = false;

#[path = "api/harness.rs"]
mod harness;

#[path = "api/access.rs"]
mod access;
#[path = "api/auth.rs"]
mod auth;
#[path = "api/browser.rs"]
mod browser;
#[path = "api/client.rs"]
mod client;
#[path = "api/documents.rs"]
mod documents;
#[path = "api/imports_exports.rs"]
mod imports_exports;
#[path = "api/instances.rs"]
mod instances;
#[path = "api/migrations.rs"]
mod migrations;
// Not `api/openapi.rs`: its schemathesis run is bounded by time (3 minutes), not by what it
// covers, and runs on SQLite in `api`.
