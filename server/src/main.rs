//! `sdconv-server`: flags/env → config; starts the store, the sweeper and the router.

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use sdconv_server::clock::SystemClock;
use sdconv_server::config::{Config, Flags};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_env("SDCONV_LOG")
                .unwrap_or_else(|_| EnvFilter::new("info,tower_http=info,sqlx=warn")),
        )
        .init();
    let config = match Config::from_flags(Flags::parse()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sdconv-server: {e}");
            return ExitCode::from(2);
        }
    };
    let dev = config
        .dev_client
        .then(|| config.clients.values().next().cloned())
        .flatten();
    let server = match sdconv_server::start(config, Arc::new(SystemClock)).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sdconv-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("sdconv-server listening on http://{}", server.addr);
    println!("public URL: {}", server.url());
    // Job rows name their worker `<instance>-<n>`: this ties them to this process's log.
    println!("instance: {}", server.instance);
    if let Some(c) = dev {
        println!("development client (no --client given):");
        println!("  x-client-id: {}", c.id);
        println!("  secret:      {}", c.secret);
    }
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {
            println!("shutting down");
        }
        () = terminated() => {
            println!("SIGTERM: shutting down");
        }
    }
    server.shutdown().await;
    ExitCode::SUCCESS
}

/// Resolves on SIGTERM (what service managers and orchestrators send); never when the
/// handler cannot be installed.
async fn terminated() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                term.recv().await;
                return;
            }
            Err(e) => tracing::warn!("no SIGTERM handler: {e}"),
        }
    }
    std::future::pending::<()>().await
}
