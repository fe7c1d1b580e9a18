//! The partner API over real HTTP: a server per test on a loopback port (reqwest), with a
//! manual clock for expiry and leeways.

/// This suite runs on SQLite; `api_postgres` runs the same tests on PostgreSQL.
const POSTGRES: bool = false;
/// This suite keeps its files in a folder; `api_s3` runs part of it on S3.
const S3: bool = false;

mod harness;

mod access;
mod auth;
mod browser;
mod client;
mod documents;
mod imports_exports;
mod instances;
mod migrations;
mod openapi;
