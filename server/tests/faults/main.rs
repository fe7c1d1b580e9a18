//! Fault injection against real `sdconv-server` processes: an instance killed (SIGKILL) in the
//! middle of background imports, and PostgreSQL restarted under load.

/// The API suite's harness (for its payload helpers and PostgreSQL schemas) takes its store
/// from this; the servers here are processes started by [`child`].
const POSTGRES: bool = false;
const S3: bool = false;

#[path = "../api/harness.rs"]
#[allow(dead_code)] // The suite's harness; these tests use its payload and schema helpers.
mod harness;

#[path = "../support/child.rs"]
#[allow(dead_code)]
mod child;

mod kill;
mod pg_restart;
