//! The HTTP API (axum): routes and layers here, the server with graceful shutdown in [`run`].
//!
//! Thin by design: handlers translate HTTP to one service call and back (`handlers.rs`); errors become
//! statuses in one place ([`error`]). Layers add a request id to every response and log line, refuse
//! other host names than the served ones without authentication (DNS rebinding), CORS for
//! the configured editor origins, a body limit that refuses oversized requests before reading them, and
//! the built modeller page at `/` when there is one. The service and the page share an origin, so the
//! page needs no CORS; other editors' origins are governed by `server.cors_origins`.

pub mod error;
pub mod extract;
mod handlers;
pub mod openapi;
mod server;
mod stream;

pub use server::{Connections, Draining, ServeError, exit_allowance, run, run_with, serve};

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, Method, Request};
use axum::routing::{get, post};
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::services::{ServeDir, ServeFile};
use tower_http::trace::TraceLayer;

use crate::config::{Auth, Config};
use crate::service::Service;

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The service.
    pub service: Arc<Service>,
    /// How callers are identified.
    pub auth: Arc<Auth>,
    /// The budget of request-body bytes in flight.
    pub bodies: extract::Bodies,
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Request ids: a per-process random prefix and a counter (unique, cheap, and sortable in a log).
#[derive(Clone)]
struct Ids {
    prefix: Arc<str>,
    next: Arc<AtomicU64>,
}

impl Ids {
    fn new() -> Self {
        use sha2::Digest;
        let seed = format!("{:?}{}", std::time::SystemTime::now(), std::process::id());
        let digest = sha2::Sha256::digest(seed.as_bytes());
        Ids { prefix: hex::encode(&digest[..4]).into(), next: Arc::new(AtomicU64::new(1)) }
    }
}

impl MakeRequestId for Ids {
    fn make_request_id<B>(&mut self, _: &Request<B>) -> Option<RequestId> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        HeaderValue::from_str(&format!("{}-{n:06}", self.prefix)).ok().map(RequestId::new)
    }
}

/// The application: every route and layer.
pub fn router(service: Arc<Service>, config: &Config) -> Router {
    let limits = service.limits().clone();
    let state =
        AppState { service, auth: Arc::new(config.auth.clone()), bodies: extract::Bodies::new(&limits) };
    let api = Router::new()
        .route("/api/formgen/capability", get(handlers::capability))
        .route("/api/formgen/generate", post(handlers::generate))
        .route("/api/formgen/validate", post(handlers::validate))
        .route("/api/formgen/outline", post(handlers::outline))
        .route("/healthz", get(handlers::healthz))
        .route("/metrics", get(handlers::metrics))
        .route("/openapi.json", get(openapi::handler))
        .method_not_allowed_fallback(handlers::method_not_allowed)
        .layer(DefaultBodyLimit::max(limits.request_body_bytes))
        .layer(axum::middleware::from_fn_with_state(limits.request_body_bytes, refuse_oversized))
        .layer(axum::middleware::from_fn(end_at_shutdown))
        .with_state(state);
    let app = match config.server.web_dir.as_ref().filter(|d| d.join("index.html").is_file()) {
        Some(dir) => {
            api.fallback_service(ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html"))))
        }
        None => api.fallback(handlers::not_found),
    };
    let app = match cors(&config.server.cors_origins) {
        Some(cors) => app.layer(cors),
        None => app,
    };
    let app = match Hosts::of(config) {
        Some(hosts) => app.layer(axum::middleware::from_fn_with_state(Arc::new(hosts), refuse_other_hosts)),
        None => app,
    };
    app.layer(
        TraceLayer::new_for_http()
            .make_span_with(|request: &Request<_>| {
                let id = request.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
                tracing::info_span!("request", id = %id, method = %request.method(), path = %request.uri().path())
            })
            .on_request(())
            .on_response(tower_http::trace::DefaultOnResponse::new().level(tracing::Level::INFO)),
    )
    .layer(PropagateRequestIdLayer::new(REQUEST_ID))
    .layer(SetRequestIdLayer::new(REQUEST_ID, Ids::new()))
}

/// A request still running when the shutdown's grace period is about to end is answered
/// `shutting_down` (503) and dropped (its generation, its gate), so its client learns why rather than
/// seeing the connection cut. An event stream's answer is already sent: it ends itself so
/// (`stream.rs`).
async fn end_at_shutdown(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let Some(draining) = request.extensions().get::<Draining>().cloned() else {
        return next.run(request).await;
    };
    tokio::select! {
        response = next.run(request) => response,
        () = draining.ended() => axum::response::IntoResponse::into_response(error::ApiError::shutting_down()),
    }
}

/// A body whose declared length is over the limit is refused before a byte of it is read (the body
/// limit above also stops bodies that do not declare their length, as they stream in).
async fn refuse_oversized(
    axum::extract::State(limit): axum::extract::State<usize>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return axum::response::IntoResponse::into_response(error::ApiError::new(
            crate::service::Code::BodyTooLarge,
            format!(
                "the request body is over this installation's limit of {limit} bytes (FORMGEN_LIMIT_REQUEST_BODY_BYTES); send a smaller process or form"
            ),
        ));
    }
    next.run(request).await
}

/// The host names requests may be addressed to when formgen runs without authentication.
///
/// Without authentication, the loopback address is the only protection, and a web page a modeller
/// visits can get round it: its name is rebound to 127.0.0.1 (DNS rebinding), and the page's requests,
/// still addressed to that name, reach formgen as same-origin ones, free to generate with the
/// configured models and read the process store. The browser always sends the name in `Host`, so
/// only the loopback names, the listen address and `server.allowed_hosts` are served.
struct Hosts {
    names: Vec<String>,
}

impl Hosts {
    /// None when the mode authenticates every request (a rebound page has no credentials).
    fn of(config: &Config) -> Option<Hosts> {
        if config.auth.mode != crate::auth::AuthMode::None {
            return None;
        }
        let listen = match config.server.listen.ip() {
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
            ip @ std::net::IpAddr::V4(_) => ip.to_string(),
        };
        let mut names: Vec<String> = ["localhost", "127.0.0.1", "[::1]"].map(String::from).into();
        names.push(listen);
        names.extend(config.server.allowed_hosts.iter().cloned());
        Some(Hosts { names })
    }

    /// Whether a `Host` (or `:authority`) value names a host served; any port.
    fn serves(&self, value: &str) -> bool {
        let value = value.trim();
        let host = match value.strip_prefix('[') {
            Some(rest) => rest.split_once(']').map(|(ip, _)| format!("[{ip}]")),
            None => Some(value.split(':').next().unwrap_or(value).to_string()),
        };
        host.map(|h| h.trim_end_matches('.').to_ascii_lowercase()).is_some_and(|h| self.names.contains(&h))
    }
}

/// Refuses a request addressed to a host name that is not served (421, `host_not_allowed`). A
/// request that names no host at all (HTTP/1.0) is no browser's, and is served.
async fn refuse_other_hosts(
    axum::extract::State(hosts): axum::extract::State<Arc<Hosts>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let named = match request.headers().get(axum::http::header::HOST) {
        Some(value) => Some(value.to_str().unwrap_or("\u{fffd}").to_string()),
        None => request.uri().authority().map(|a| a.as_str().to_string()),
    };
    match named {
        Some(host) if !hosts.serves(&host) => {
            tracing::warn!(
                host = ?host,
                "refused a request addressed to a host name formgen does not serve without authentication; if it is yours, add it to server.allowed_hosts"
            );
            axum::response::IntoResponse::into_response(error::ApiError::new(
                crate::service::Code::HostNotAllowed,
                "formgen runs without authentication and answers only requests addressed to localhost (or the names in server.allowed_hosts); open it at its local address",
            ))
        }
        _ => next.run(request).await,
    }
}

fn cors(origins: &[String]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o.trim_end_matches('/')).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([axum::http::header::CONTENT_TYPE, axum::http::header::AUTHORIZATION])
            .expose_headers([REQUEST_ID, axum::http::header::RETRY_AFTER])
            .max_age(Duration::from_secs(600)),
    )
}
