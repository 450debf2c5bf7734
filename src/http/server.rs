//! The server: `run(listener, app, shutdown, grace)` serves until `shutdown` resolves, then lets
//! in-flight requests finish for up to `grace` (mini-redis's `server::run(listener, shutdown)` is the
//! model). [`serve`] is `formgen serve`: it binds, installs the signal handlers and calls [`run_with`],
//! so tests and benches start a served formgen exactly as the command does.
//!
//! The accept loop is our own (hyper's HTTP/1 connection builder per socket) because slow and many
//! clients must cost nothing: a connection over `max_connections`, or over its peer's share
//! (`connections_per_peer`), is closed as it arrives; a request head must arrive within
//! `header_read_timeout_s` (hyper's timer, which also runs while a kept-alive connection waits for its
//! next request); a kept-alive connection with nothing in flight is closed after `idle_timeout_s`; an
//! answer whose peer takes none of its bytes for `write_timeout_s` (it sends requests and never reads
//! the answers) closes its connection.
//!
//! On shutdown every connection is told to finish: an idle one (or one with a half-sent head) closes
//! at once, one with a request in flight closes after its answer. The grace bounds the whole
//! shutdown, the process's exit included: shortly before it ends ([`Draining`], a quarter of the grace
//! and at most a second before), whatever is still running is ended with a `shutting_down` answer
//! (503; an event stream's final `error` event), and at its end `run` drops whatever is still open.
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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
    /// Connections open at once from one IP address.
    pub per_peer: usize,
    /// Time an answer may wait for its peer to take any of its bytes.
    pub write_timeout: Duration,
}

impl From<&Limits> for Connections {
    fn from(l: &Limits) -> Self {
        Connections {
            header_read_timeout: Duration::from_secs(l.header_read_timeout_s.max(1)),
            idle_timeout: Duration::from_secs(l.idle_timeout_s.max(1)),
            max_connections: l.max_connections.max(1),
            per_peer: l.connections_per_peer.max(1),
            write_timeout: Duration::from_secs(l.write_timeout_s.max(1)),
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

/// The most a connection's read buffer grows to: hyper's minimum (its default is ~400 KB). A request
/// head must fit in it, as in Tomcat's and Jetty's defaults; a larger one is answered 431.
const READ_BUFFER_BYTES: usize = 8 * 1024;

/// [`run`] with these connection bounds.
pub async fn run_with(
    listener: tokio::net::TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
    grace: Duration,
    bounds: Connections,
) -> Result<(), ServeError> {
    let (stop, stopping) = watch::channel(false);
    let (cut, draining) = watch::channel(false);
    let slots = Arc::new(Semaphore::new(bounds.max_connections));
    let peers = Peers::default();
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
        let Some(share) = peers.admit(peer.ip(), bounds.per_peer) else {
            tracing::debug!(%peer, max = bounds.per_peer, "connection refused: at the peer's share of connections");
            drop(socket);
            continue;
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::debug!(%peer, max = bounds.max_connections, "connection refused: at the connection cap");
            drop(socket);
            continue;
        };
        let _ = socket.set_nodelay(true);
        let socket = WriteBounded::new(socket, bounds.write_timeout);
        let app = app.clone();
        let builder = builder.clone();
        let stopping = stopping.clone();
        let draining = Draining(draining.clone());
        connections.spawn(async move {
            let connection = Connection { peer, stopping, draining, idle_timeout: bounds.idle_timeout };
            connection.serve(&builder, socket, app).await;
            drop((slot, share));
        });
    }
    drop(listener);
    tracing::info!(grace_s = grace.as_secs_f64(), "shutting down: finishing in-flight generations");
    let _ = stop.send(true);
    let (cut_at, drop_at) = schedule(tokio::time::Instant::now(), grace);
    if drain(&mut connections, cut_at).await {
        return Ok(());
    }
    tracing::warn!("in-flight generations did not finish within the grace period; ending them");
    let _ = cut.send(true);
    if !drain(&mut connections, drop_at).await {
        tracing::warn!("connections still open at the end of the grace period; stopping anyway");
        connections.abort_all();
    }
    Ok(())
}

/// Whether every connection ended before `until`.
async fn drain(connections: &mut JoinSet<()>, until: tokio::time::Instant) -> bool {
    tokio::time::timeout_at(until, async { while connections.join_next().await.is_some() {} }).await.is_ok()
}

/// When, after shutdown began at `start`, what still runs is ended with a `shutting_down` answer, and
/// when the connections still open are dropped: a quarter of the grace (at most a second) before it
/// ends, then half of that later, leaving the rest for the process to exit within the grace.
fn schedule(start: tokio::time::Instant, grace: Duration) -> (tokio::time::Instant, tokio::time::Instant) {
    let margin = exit_margin(grace);
    (start + grace - margin, start + grace - margin / 2)
}

/// What of the grace is kept for ending what still runs and exiting: a quarter, at most a second.
fn exit_margin(grace: Duration) -> Duration {
    (grace / 4).min(Duration::from_secs(1))
}

/// How long the process may wait for blocking work (a gate, a reader) once [`serve`] has returned,
/// and still exit within a grace of `grace`.
pub fn exit_allowance(grace: Duration) -> Duration {
    (exit_margin(grace) / 2).min(Duration::from_millis(200))
}

/// The end of the grace period as a request sees it: once [`Draining::ended`] resolves, what still
/// runs must answer at once (`shutting_down`) and end. Requests served by [`run`] carry it as an
/// extension; a router called without the server has none, and never ends so.
#[derive(Debug, Clone)]
pub struct Draining(watch::Receiver<bool>);

impl Draining {
    /// Resolves when the grace period is about to end (or the server is gone).
    pub async fn ended(mut self) {
        let _ = self.0.wait_for(|cut| *cut).await;
    }
}

/// Connections open per peer address.
#[derive(Default, Clone)]
struct Peers(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One connection's place in its peer's share; given back when dropped.
struct Share {
    peers: Peers,
    ip: IpAddr,
}

impl Peers {
    /// A place for one more connection from `ip`, unless it has `share` open already.
    fn admit(&self, ip: IpAddr, share: usize) -> Option<Share> {
        let mut open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_default();
        if *n >= share {
            return None;
        }
        *n += 1;
        Some(Share { peers: self.clone(), ip })
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut open = self.peers.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// A socket whose writes fail once the peer has taken none of their bytes for `timeout`: hyper then
/// closes the connection (and drops its answer, and with an event stream's its generation).
struct WriteBounded {
    socket: tokio::net::TcpStream,
    timeout: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl WriteBounded {
    fn new(socket: tokio::net::TcpStream, timeout: Duration) -> WriteBounded {
        WriteBounded { socket, timeout, stalled: None }
    }

    /// What a write (or flush) that made progress, or did not, means: a pending one starts the
    /// clock, or fails when it has run out.
    fn bound<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<std::io::Result<T>>,
    ) -> Poll<std::io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let timeout = self.timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("the peer took no bytes of the answer for {} s", timeout.as_secs_f64()),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl tokio::io::AsyncRead for WriteBounded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.socket).poll_read(cx, buf)
    }
}

impl tokio::io::AsyncWrite for WriteBounded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.socket).poll_write(cx, buf);
        self.bound(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.socket).poll_write_vectored(cx, bufs);
        self.bound(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.socket.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.socket).poll_flush(cx);
        self.bound(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let polled = Pin::new(&mut self.socket).poll_shutdown(cx);
        self.bound(cx, polled)
    }
}

/// What one connection knows of the server: its peer, and the shutdown's two moments.
struct Connection {
    peer: SocketAddr,
    stopping: watch::Receiver<bool>,
    draining: Draining,
    idle_timeout: Duration,
}

impl Connection {
    /// HTTP/1 with keep-alive, closed when idle too long or when the server stops (at once when
    /// nothing is in flight, else after the answer).
    async fn serve(self, builder: &hyper::server::conn::http1::Builder, socket: WriteBounded, app: Router) {
        let Connection { peer, mut stopping, draining, idle_timeout } = self;
        let activity = Arc::new(Activity::default());
        let service = Tracked { inner: app, peer, activity: activity.clone(), draining };
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
                    // hyper's graceful shutdown waits for a first request that has not come (a
                    // half-sent head held shutdown for the whole grace): a connection that never began
                    // one is dropped
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

/// The router, with the peer's address as `ConnectInfo` and the end of the grace as [`Draining`],
/// counting each request of its connection in flight.
#[derive(Clone)]
struct Tracked {
    inner: Router,
    peer: SocketAddr,
    activity: Arc<Activity>,
    draining: Draining,
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
        request.extensions_mut().insert(self.draining.clone());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shutdown_schedule_ends_within_the_grace() {
        let start = tokio::time::Instant::now();
        for (grace_ms, cut_ms, drop_ms) in
            [(0, 0, 0), (1_000, 750, 875), (2_000, 1_500, 1_750), (10_000, 9_000, 9_500)]
        {
            let grace = Duration::from_millis(grace_ms);
            let (cut, dropped) = schedule(start, grace);
            assert_eq!((cut - start).as_millis(), cut_ms, "grace {grace_ms} ms");
            assert_eq!((dropped - start).as_millis(), drop_ms, "grace {grace_ms} ms");
            assert!(dropped - start + exit_allowance(grace) <= grace, "grace {grace_ms} ms");
        }
    }

    #[test]
    fn a_peer_has_its_share_and_gets_it_back() {
        let peers = Peers::default();
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let first = peers.admit(a, 2).unwrap();
        let _second = peers.admit(a, 2).unwrap();
        assert!(peers.admit(a, 2).is_none());
        assert!(peers.admit(b, 2).is_some());
        drop(first);
        assert!(peers.admit(a, 2).is_some());
    }
}
