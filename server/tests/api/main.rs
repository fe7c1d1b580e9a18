//! The partner API over real HTTP: a server per test on a loopback port (reqwest), with a
//! manual clock for expiry and leeways.

/// This suite runs on SQLite; `api_postgres` runs the same tests on PostgreSQL.
const POSTGRES: bool = false;

mod harness;

mod access;
mod auth;
mod browser;
mod documents;
mod imports_exports;
mod instances;
mod openapi;
