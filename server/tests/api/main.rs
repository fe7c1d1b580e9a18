//! The partner API over real HTTP: a server per test on a loopback port (reqwest), with a
//! manual clock for expiry and leeways.

mod harness;

mod access;
mod auth;
mod browser;
mod documents;
mod imports_exports;
mod openapi;
