//! The server: `run(listener, app, shutdown, grace)` serves until `shutdown` resolves, then lets
//! in-flight requests finish for up to `grace` (mini-redis's `server::run(listener, shutdown)` is the
//! model). [`serve`] is `formgen serve`: it binds, installs the signal handlers and calls [`run_with`],
//! so tests and benches start a served formgen exactly as the command does.
//!
//! The accept loop is our own (hyper's HTTP/1 connection builder per socket) because slow and many
//! clients must cost nothing: a connection over `max_connections` is closed as it arrives; a request
//! head must arrive within `header_read_timeout_s` (hyper's timer, which also runs while a kept-alive
//! connection waits for its next request); a kept-alive connection with nothing in flight is closed
//! after `idle_timeout_s`. On shutdown every connection is told to finish: an idle one (or one with a
//! half-sent head) closes at once, one with a request in flight closes after its answer. The grace
//! bounds the whole shutdown: at its end `run` returns whatever is still running.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;

use crate::config::Config;
use crate::limits::Limits;
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

/// What the accept loop bounds, from [`Limits`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connections {
    /// Time to send a whole request head (also bounds the wait for a kept-alive connection's next one).
    pub header_read_timeout: Duration,
    /// Time a kept-alive connection with nothing in flight stays open.
    pub idle_timeout: Duration,
    /// Connections open at once.
    pub max_connections: usize,
}

impl From<&Limits> for Connections {
    fn from(l: &Limits) -> Self {
        Connections {
            header_read_timeout: Duration::from_secs(l.header_read_timeout_s.max(1)),
            idle_timeout: Duration::from_secs(l.idle_timeout_s.max(1)),
            max_connections: l.max_connections.max(1),
        }
    }
}

impl Default for Connections {
    fn default() -> Self {
        Connections::from(&Limits::default())
    }
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
    let connections = Connections::from(&config.limits);
    run_with(listener, app, shutdown_signal(), grace, connections).await?;
    tracing::info!(in_flight = service.metrics().in_flight(), "stopped");
    Ok(())
}

/// Serves `app` on `listener` with the default connection bounds until `shutdown` resolves; then
/// stops accepting and gives the requests in flight up to `grace` to finish before returning.
pub async fn run(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> Result<(), ServeError> {
    run_with(listener, app, shutdown, grace, Connections::default()).await
}

/// The most a connection's read buffer grows to (hyper's default is ~400 KB; its minimum 8 KB).
const READ_BUFFER_BYTES: usize = 16 * 1024;

/// [`run`] with these connection bounds.
pub async fn run_with(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
    bounds: Connections,
) -> Result<(), ServeError> {
    let (stop, stopping) = watch::channel(false);
    let slots = Arc::new(Semaphore::new(bounds.max_connections));
    let mut connections = JoinSet::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    // the read buffer keeps its largest size for as long as the connection lives, and a generation
    // may wait on a model for minutes: bounded, it holds a request head and a chunk of body at a time
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(bounds.header_read_timeout)
        .keep_alive(true)
        .max_buf_size(READ_BUFFER_BYTES);
    let builder = Arc::new(builder);
    let mut shutdown = pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
            // reap finished connections as they end, so the set stays as large as what is open
            Some(_) = connections.join_next(), if !connections.is_empty() => continue,
        };
        let (socket, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // out of file descriptors and the like: the listener itself is fine; breathe
                tracing::warn!(error = %e, "could not accept a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::debug!(%peer, max = bounds.max_connections, "connection refused: at the connection cap");
            drop(socket);
            continue;
        };
        let _ = socket.set_nodelay(true);
        let app = app.clone();
        let builder = builder.clone();
        let stopping = stopping.clone();
        connections.spawn(async move {
            serve_connection(&builder, socket, peer, app, stopping, bounds.idle_timeout).await;
            drop(slot);
        });
    }
    drop(listener);
    tracing::info!(grace_s = grace.as_secs(), "shutting down: finishing in-flight generations");
    let _ = stop.send(true);
    let drained =
        tokio::time::timeout(grace, async { while connections.join_next().await.is_some() {} }).await;
    if drained.is_err() {
        tracing::warn!("in-flight generations did not finish within the grace period; stopping anyway");
        connections.abort_all();
    }
    Ok(())
}

/// One connection: HTTP/1 with keep-alive, closed when idle too long or when the server stops (at
/// once when nothing is in flight, else after the answer).
async fn serve_connection(
    builder: &hyper::server::conn::http1::Builder,
    socket: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    mut stopping: watch::Receiver<bool>,
    idle_timeout: Duration,
) {
    let activity = Arc::new(Activity::default());
    let service = Tracked { inner: app, peer, activity: activity.clone() };
    let connection = builder.serve_connection(TokioIo::new(socket), TowerToHyperService::new(service));
    let mut connection = pin!(connection);
    let (mut told, mut idled) = (false, false);
    loop {
        tokio::select! {
            result = connection.as_mut() => {
                if let Err(e) = result {
                    tracing::debug!(%peer, error = %e, "connection ended");
                }
                return;
            }
            _ = stopping.wait_for(|s| *s), if !told => {
                told = true;
                // hyper's graceful shutdown waits for a first request that has not come (a half-sent
                // head held shutdown for the whole grace): a connection that never began one is dropped
                if activity.started.load(Ordering::SeqCst) == 0 {
                    return;
                }
                connection.as_mut().graceful_shutdown();
            }
            () = activity.idle_for(idle_timeout), if !idled && !told => {
                idled = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Requests in flight on one connection, and a wake-up when the count changes.
#[derive(Default)]
struct Activity {
    started: AtomicUsize,
    in_flight: AtomicUsize,
    changed: tokio::sync::Notify,
}

impl Activity {
    /// Resolves once nothing has been in flight for `timeout` (a request that starts restarts it).
    async fn idle_for(&self, timeout: Duration) {
        loop {
            let changed = self.changed.notified();
            if self.in_flight.load(Ordering::SeqCst) == 0 {
                if tokio::time::timeout(timeout, changed).await.is_err() {
                    return;
                }
            } else {
                changed.await;
            }
        }
    }
}

/// Counts a request in flight from its head to its answer (released if the request is dropped).
struct InFlight(Arc<Activity>);

impl InFlight {
    fn start(activity: Arc<Activity>) -> InFlight {
        activity.started.fetch_add(1, Ordering::SeqCst);
        activity.in_flight.fetch_add(1, Ordering::SeqCst);
        activity.changed.notify_waiters();
        InFlight(activity)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
        self.0.changed.notify_waiters();
    }
}

/// The router, with the peer's address as `ConnectInfo`, counting each request of its connection in
/// flight.
#[derive(Clone)]
struct Tracked {
    inner: Router,
    peer: SocketAddr,
    activity: Arc<Activity>,
}

impl tower::Service<http::Request<hyper::body::Incoming>> for Tracked {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future = std::pin::Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: http::Request<hyper::body::Incoming>) -> Self::Future {
        let guard = InFlight::start(self.activity.clone());
        request.extensions_mut().insert(axum::extract::ConnectInfo(self.peer));
        let call = tower::ServiceExt::oneshot(self.inner.clone(), request.map(axum::body::Body::new));
        Box::pin(async move {
            let response = call.await;
            drop(guard);
            response
        })
    }
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
