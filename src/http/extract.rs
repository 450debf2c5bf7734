//! Extractors that turn what arrives into the service's types, or into an [`ApiError`] the author can
//! read: a JSON body (bad JSON, unknown fields, a body over the limit in bytes or in time, no room to
//! read it), and the caller's principal.
//!
//! A body is read only with room for it in the installation's budget of body bytes in flight
//! ([`Bodies`]): a request takes room for its bytes as they arrive (what it declares reserves
//! nothing, so bodies that declare megabytes and send a byte a second hold a few bytes, not the
//! budget), waits for room when there is none within the body read time, and holds it until its
//! handler is done with the body, so forty 9 MB requests cost the budget, not forty times 9 MB. When
//! every body being read waits for room and what they hold leaves none, none of them could get it:
//! the one that would wait last reads the rest of its body beyond the budget instead (one body at a
//! time), finishes, and so gives room back to the others. The bytes in flight are so at most the
//! budget and one request body; a body that waits past its read time is refused (503
//! `server_busy`, `Retry-After`). Room given back goes to bodies already begun before new ones, so
//! that few bodies hold part of the budget at once. A generation
//! gives its room back once its request is read (the process parsed, the prompt built), not when the
//! model has answered: nothing of those bytes is kept while it waits. A large body's JSON is parsed
//! on the blocking pool, not on the threads that answer every other request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::AppState;
use super::error::ApiError;
use crate::auth::Principal;
use crate::service::Code;

/// The budget of request-body bytes being read (and held by their requests) at once.
#[derive(Debug, Clone)]
pub struct Bodies {
    bytes: Arc<Semaphore>,
    /// Woken whenever room is given back.
    released: Arc<Notify>,
    capacity: usize,
    body_limit: usize,
    read_timeout: Duration,
    /// Bodies being read, those of them waiting for room, and the room they hold.
    reading: Arc<AtomicUsize>,
    waiting: Arc<AtomicUsize>,
    held_by_reading: Arc<AtomicUsize>,
    /// Whether a body is being read beyond the budget (at most one at a time).
    overdraft: Arc<AtomicBool>,
    /// Bodies that hold room and wait for more: a body that holds none lets them go first.
    waiting_to_go_on: Arc<AtomicUsize>,
}

/// Room in the budget for one request's body, held until the handler is done.
#[derive(Debug)]
pub struct BodyRoom(#[allow(dead_code)] Option<Room>);

/// Bytes of the budget, given back (and the bodies waiting for room woken) when dropped.
#[derive(Debug)]
pub struct Room {
    permit: Option<OwnedSemaphorePermit>,
    released: Arc<Notify>,
}

impl Room {
    fn merge(&mut self, mut more: Room) {
        match (&mut self.permit, more.permit.take()) {
            (Some(held), Some(more)) => held.merge(more),
            (held @ None, more) => *held = more,
            (Some(_), None) => {}
        }
    }

    fn bytes(&self) -> usize {
        self.permit.as_ref().map_or(0, OwnedSemaphorePermit::num_permits)
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        if self.permit.take().is_some() {
            self.released.notify_waiters();
        }
    }
}

/// Seconds a caller refused for want of room is asked to wait.
const RETRY_AFTER_S: u64 = 5;

/// Bodies at least this large are parsed on the blocking pool: serde_json takes about 0.45 µs per KB
/// of a body holding a BPMN string (4.6 ms for 10 MB; a spawn_blocking round trip is about 18 µs),
/// and below this an async thread is held for less than half a millisecond.
const PARSE_OFF_THREAD_BYTES: usize = 1024 * 1024;

/// Counts one body while it is read (or waits for room), and uncounts it when dropped.
struct Counted(Arc<AtomicUsize>);

/// One body being read and the room it holds so far, counted until it is read (or refused); and
/// whether it reads beyond the budget, which it gives up then.
struct Reading {
    _counted: Counted,
    held: usize,
    held_by_reading: Arc<AtomicUsize>,
    overdraft: Option<(Arc<AtomicBool>, Arc<Notify>)>,
}

impl Reading {
    fn took(&mut self, n: usize) {
        self.held += n;
        self.held_by_reading.fetch_add(n, Ordering::SeqCst);
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        self.held_by_reading.fetch_sub(self.held, Ordering::SeqCst);
        if let Some((overdraft, released)) = self.overdraft.take() {
            overdraft.store(false, Ordering::SeqCst);
            released.notify_waiters();
        }
    }
}

impl Counted {
    fn new(counter: &Arc<AtomicUsize>) -> Counted {
        Counted::place(counter).0
    }

    /// Counted, with how many are counted now that this one is.
    fn place(counter: &Arc<AtomicUsize>) -> (Counted, usize) {
        let now = counter.fetch_add(1, Ordering::SeqCst) + 1;
        (Counted(counter.clone()), now)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Bodies {
    /// The budget of these limits.
    pub fn new(limits: &crate::limits::Limits) -> Bodies {
        // a semaphore counts in u32 and a single body must always fit
        let capacity = limits
            .bodies_in_flight_bytes
            .max(limits.request_body_bytes)
            .min(Semaphore::MAX_PERMITS)
            .min(u32::MAX as usize);
        Bodies {
            bytes: Arc::new(Semaphore::new(capacity)),
            released: Arc::new(Notify::new()),
            capacity,
            body_limit: limits.request_body_bytes,
            read_timeout: Duration::from_secs(limits.body_read_timeout_s.max(1)),
            reading: Arc::default(),
            waiting: Arc::default(),
            held_by_reading: Arc::default(),
            overdraft: Arc::default(),
            waiting_to_go_on: Arc::default(),
        }
    }

    /// Reads `req` as JSON within the body read time, with room for it in the budget.
    async fn read<T>(&self, req: Request) -> Result<(T, BodyRoom), ApiError>
    where
        T: serde::de::DeserializeOwned + Send + 'static,
    {
        if !json_content_type(req.headers()) {
            return Err(json_error(JsonRejection::MissingJsonContentType(Default::default())));
        }
        // one deadline: waiting for room and reading the body both count against the body read time
        let deadline = tokio::time::Instant::now() + self.read_timeout;
        let (bytes, room) =
            match tokio::time::timeout_at(deadline, self.collect(req.into_body(), deadline)).await {
                Ok(collected) => collected?,
                Err(_) => return Err(self.too_slow()),
            };
        let value = if bytes.len() < PARSE_OFF_THREAD_BYTES {
            axum::Json::<T>::from_bytes(&bytes)
        } else {
            tokio::task::spawn_blocking(move || axum::Json::<T>::from_bytes(&bytes)).await.map_err(|e| {
                tracing::error!(error = %e, "parsing a request body failed");
                ApiError::new(Code::Internal, "formgen could not read the request body")
            })?
        };
        match value {
            Ok(axum::Json(value)) => Ok((value, room)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }

    /// The body's bytes, with room in the budget for each as it arrives.
    async fn collect(
        &self,
        body: axum::body::Body,
        deadline: tokio::time::Instant,
    ) -> Result<(Vec<u8>, BodyRoom), ApiError> {
        let mut reading = Reading {
            _counted: Counted::new(&self.reading),
            held: 0,
            held_by_reading: self.held_by_reading.clone(),
            overdraft: None,
        };
        let mut room: Option<Room> = None;
        let mut chunks = Vec::new();
        let mut total = 0usize;
        let mut stream = body.into_data_stream();
        while let Some(chunk) = futures_util::StreamExt::next(&mut stream).await {
            let chunk = chunk.map_err(|e| {
                ApiError::new(Code::BadRequest, format!("the request body could not be read ({e})"))
            })?;
            total += chunk.len();
            if total > self.body_limit {
                return Err(ApiError::new(
                    Code::BodyTooLarge,
                    "the request body is over this installation's limit (FORMGEN_LIMIT_REQUEST_BODY_BYTES); send a smaller process or form",
                ));
            }
            let more = self.room_for(chunk.len(), deadline, &mut reading).await?;
            reading.took(more.bytes());
            match &mut room {
                Some(held) => held.merge(more),
                None => room = Some(more),
            }
            chunks.push(chunk);
        }
        let mut bytes = Vec::with_capacity(total);
        for chunk in chunks {
            bytes.extend_from_slice(&chunk);
        }
        Ok((bytes, BodyRoom(room)))
    }

    /// Room for `n` more bytes of the body `reading`: at once if there is some, else waited for until
    /// `deadline`. When none could come (every body being read would be waiting, and what they hold
    /// leaves no room for `n` even once every finished request has given its room back), this body
    /// reads on beyond the budget if no other body does. A body waiting for room holds only what it
    /// took before (room is taken whole or not at all, never set aside for a waiter), so what the
    /// bodies being read hold is all that can keep them waiting.
    async fn room_for(
        &self,
        n: usize,
        deadline: tokio::time::Instant,
        reading: &mut Reading,
    ) -> Result<Room, ApiError> {
        let n = n.min(self.capacity);
        let room = |permit| Room { permit, released: self.released.clone() };
        if n == 0 || reading.overdraft.is_some() {
            return Ok(room(None));
        }
        // this body's place among those waiting: of two that begin to wait at once, only the later
        // one finds every body waiting
        let mut waiting: Option<(Counted, usize)> = None;
        // a body that has begun goes first: room given back finishes bodies rather than begins new
        // ones, so fewer bodies hold part of the budget at once
        let begun = reading.held > 0;
        let mut going_on = None;
        loop {
            let released = self.released.notified();
            let mut released = std::pin::pin!(released);
            released.as_mut().enable();
            let may_take = begun || self.waiting_to_go_on.load(Ordering::SeqCst) == 0;
            if may_take && let Ok(permit) = self.bytes.clone().try_acquire_many_owned(n as u32) {
                return Ok(room(Some(permit)));
            }
            if begun && going_on.is_none() {
                going_on = Some(Counted::new(&self.waiting_to_go_on));
            }
            let place = waiting.get_or_insert_with(|| Counted::place(&self.waiting)).1;
            let stuck = place >= self.reading.load(Ordering::SeqCst)
                && self.capacity.saturating_sub(self.held_by_reading.load(Ordering::SeqCst)) < n;
            if stuck
                && self.overdraft.compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst).is_ok()
            {
                tracing::debug!("every body being read waits for room: one reads on beyond the budget");
                reading.overdraft = Some((self.overdraft.clone(), self.released.clone()));
                return Ok(room(None));
            }
            if tokio::time::timeout_at(deadline, released).await.is_err() {
                return Err(busy());
            }
        }
    }

    fn too_slow(&self) -> ApiError {
        ApiError::new(
            Code::BodyTimeout,
            format!(
                "the request body did not arrive within this installation's {} s (FORMGEN_LIMIT_BODY_READ_TIMEOUT_S); send it at once, or a smaller one",
                self.read_timeout.as_secs()
            ),
        )
    }
}

/// Whether the request says its body is JSON (`application/json`, or a `+json` type).
fn json_content_type(headers: &axum::http::HeaderMap) -> bool {
    let Some(value) = headers.get(axum::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = value.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    match essence.split_once('/') {
        Some(("application", sub)) => sub == "json" || sub.ends_with("+json"),
        _ => false,
    }
}

fn busy() -> ApiError {
    let mut e = ApiError::new(
        Code::ServerBusy,
        format!("formgen is reading too many large requests at once; try again in {RETRY_AFTER_S} s"),
    );
    e.retry_after_s = Some(RETRY_AFTER_S);
    e
}

/// A JSON body whose rejections are API errors, with its room in the body budget.
pub struct ApiJson<T>(pub T, pub BodyRoom);

impl<T> FromRequest<AppState> for ApiJson<T>
where
    T: serde::de::DeserializeOwned + Send + 'static,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (value, room) = state.bodies.read(req).await?;
        Ok(ApiJson(value, room))
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::JsonDataError(e) => ApiError::new(
            Code::BadRequest,
            format!(
                "the request body does not fit: {}",
                e.body_text()
                    .trim_start_matches("Failed to deserialize the JSON body into the target type: ")
            ),
        ),
        JsonRejection::JsonSyntaxError(e) => ApiError::new(
            Code::BadJson,
            format!(
                "the request body is not valid JSON ({})",
                e.body_text().trim_start_matches("Failed to parse the request body as JSON: ")
            ),
        ),
        JsonRejection::MissingJsonContentType(_) => {
            ApiError::new(Code::JsonRequired, "send the body as JSON, with Content-Type: application/json")
        }
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            Code::BodyTooLarge,
            "the request body is over this installation's limit (FORMGEN_LIMIT_REQUEST_BODY_BYTES); send a smaller process or form",
        ),
        other => ApiError::new(
            Code::BadRequest,
            format!("the request body could not be read ({})", other.body_text()),
        ),
    }
}

/// The principal of the request, by the configured auth mode.
pub struct Caller(pub Principal);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // the extractor (not the bare extension) so that tests' MockConnectInfo counts as the peer too
        let peer = ConnectInfo::<SocketAddr>::from_request_parts(parts, state).await.ok().map(|c| c.0.ip());
        crate::auth::principal(&state.auth, &parts.headers, peer).map(Caller).map_err(ApiError::from)
    }
}

/// A caller who may read `/metrics`: an operator `auth.metrics` names, or loopback without auth
/// ([`crate::auth::may_read_metrics`]).
pub struct MetricsReader;

impl FromRequestParts<AppState> for MetricsReader {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let peer = ConnectInfo::<SocketAddr>::from_request_parts(parts, state).await.ok().map(|c| c.0.ip());
        crate::auth::may_read_metrics(&state.auth, &parts.headers, peer)
            .map(|()| MetricsReader)
            .map_err(ApiError::from)
    }
}
