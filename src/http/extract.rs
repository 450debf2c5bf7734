//! Extractors that turn what arrives into the service's types, or into an [`ApiError`] the author can
//! read: a JSON body (bad JSON, unknown fields, a body over the limit in bytes or in time, no room to
//! read it), and the caller's principal.
//!
//! A body is read only with room for it in the installation's budget of body bytes in flight
//! ([`Bodies`]): a request takes as many bytes as it declares (the whole body limit when it declares
//! none) before a byte is read, waits for room within the body read time, and holds them until its
//! handler is done with them, so forty 9 MB requests cost the budget, not forty times 9 MB. A
//! generation gives its room back once its request is read (the process parsed, the prompt built),
//! not when the model has answered: nothing of those bytes is kept while it waits.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::AppState;
use super::error::ApiError;
use crate::service::Code;
use crate::workers::Principal;

/// The budget of request-body bytes being read (and held by their requests) at once.
#[derive(Debug, Clone)]
pub struct Bodies {
    bytes: Arc<Semaphore>,
    capacity: usize,
    body_limit: usize,
    read_timeout: Duration,
}

/// Room in the budget for one request's body, held until the handler is done.
#[derive(Debug)]
pub struct BodyRoom(#[allow(dead_code)] Option<OwnedSemaphorePermit>);

/// Seconds a caller refused for want of room is asked to wait.
const RETRY_AFTER_S: u64 = 5;

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
            capacity,
            body_limit: limits.request_body_bytes,
            read_timeout: Duration::from_secs(limits.body_read_timeout_s.max(1)),
        }
    }

    /// Reads `req` as JSON within the body read time, with room for it in the budget.
    async fn read<T, S>(&self, req: Request, state: &S) -> Result<(T, BodyRoom), ApiError>
    where
        axum::Json<T>: FromRequest<S, Rejection = JsonRejection>,
        S: Send + Sync,
    {
        let declared = req
            .headers()
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<usize>().ok());
        let wanted = declared.unwrap_or(self.body_limit).min(self.body_limit).min(self.capacity);
        // one deadline: waiting for room and reading the body both count against the body read time
        let deadline = tokio::time::Instant::now() + self.read_timeout;
        let room = match wanted {
            0 => None,
            n => match tokio::time::timeout_at(deadline, self.bytes.clone().acquire_many_owned(n as u32))
                .await
            {
                Ok(Ok(permit)) => Some(permit),
                _ => return Err(busy()),
            },
        };
        match tokio::time::timeout_at(deadline, axum::Json::<T>::from_request(req, state)).await {
            Ok(Ok(axum::Json(value))) => Ok((value, BodyRoom(room))),
            Ok(Err(rejection)) => Err(json_error(rejection)),
            Err(_) => Err(ApiError::new(
                Code::BodyTimeout,
                format!(
                    "the request body did not arrive within this installation's {} s (FORMGEN_LIMIT_BODY_READ_TIMEOUT_S); send it at once, or a smaller one",
                    self.read_timeout.as_secs()
                ),
            )),
        }
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
    axum::Json<T>: FromRequest<AppState, Rejection = JsonRejection>,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (value, room) = state.bodies.read(req, state).await?;
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
