//! The server: `run(listener, app, shutdown, grace)` serves until `shutdown` resolves, then lets
//! in-flight requests finish for up to `grace` (mini-redis's `server::run(listener, shutdown)` is the
//! model). [`serve`] is `formgen serve`: it binds, installs the signal handlers and calls [`run`], so
//! tests and benches start a served formgen exactly as the command does.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;

use crate::config::Config;
use crate::service::Service;

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The prompts could not be loaded.
    #[error("{0}")]
    Prompt(#[from] crate::prompt::PromptError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// The server failed.
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// Runs the service until SIGTERM or Ctrl-C, then lets in-flight generations finish for up to
/// `server.shutdown_grace_s` seconds. Prints `listening on http://ADDR` once it accepts connections.
pub async fn serve(config: Config) -> Result<(), ServeError> {
    let service = Arc::new(Service::new(&config)?);
    let app = super::router(service.clone(), &config);
    let listener = tokio::net::TcpListener::bind(config.server.listen)
        .await
        .map_err(|error| ServeError::Bind { addr: config.server.listen, error })?;
    let addr = listener.local_addr()?;
    tracing::info!(
        %addr,
        config = %config.source,
        workers = config.workers.len(),
        auth = ?config.auth.mode,
        web = %config.server.web_dir.as_ref().filter(|d| d.join("index.html").is_file()).map_or("none".into(), |d| d.display().to_string()),
        "formgen serving"
    );
    println!("listening on http://{addr}");
    let grace = Duration::from_secs(config.server.shutdown_grace_s);
    run(listener, app, shutdown_signal(), grace).await?;
    tracing::info!(in_flight = service.metrics().in_flight(), "stopped");
    Ok(())
}

/// Serves `app` on `listener` until `shutdown` resolves; then stops accepting and gives the requests
/// in flight up to `grace` to finish before returning.
pub async fn run(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> Result<(), ServeError> {
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let server = axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async move {
            let mut stopped = stopped;
            let _ = stopped.wait_for(|s| *s).await;
        });
    let mut running = tokio::spawn(async move { server.await });
    tokio::select! {
        result = &mut running => return result.map_err(|e| ServeError::Io(std::io::Error::other(e)))?.map_err(ServeError::Io),
        () = shutdown => {}
    }
    tracing::info!(grace_s = grace.as_secs(), "shutting down: finishing in-flight generations");
    let _ = stop.send(true);
    if tokio::time::timeout(grace, &mut running).await.is_err() {
        tracing::warn!("in-flight generations did not finish within the grace period; stopping anyway");
    }
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
