//! `POST /api/formgen/generate` with `Accept: text/event-stream`: the generation's events as
//! Server-Sent Events, then exactly one `proposal` or `error`, then the end.
//!
//! The generation runs inside the response body's stream, not on a task of its own: when the caller
//! closes the stream, the body is dropped and the generation with it (the upstream model call, the
//! concurrency permit, the in-flight gauge), as for a non-streaming caller who leaves. This file
//! only translates the service's events to SSE; it decides nothing.

use std::convert::Infallible;
use std::sync::Arc;

use axum::http::HeaderMap;
use axum::http::header::ACCEPT;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Serialize;

use super::error::ApiError;
use crate::service::{Event, GenerateRequest, Service};
use crate::workers::Principal;

/// Whether the caller asked for the event stream.
pub fn wants_events(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().to_ascii_lowercase().starts_with("text/event-stream")))
}

/// The `error` event's body: the error body a non-streaming call returns, and the status it has.
#[derive(Serialize)]
struct ErrorEvent {
    error: String,
    code: String,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<Vec<String>>,
}

fn sse(name: &str, data: &impl Serialize) -> SseEvent {
    SseEvent::default().event(name).json_data(data).unwrap_or_else(|_| SseEvent::default().event(name))
}

/// The event-stream answer of one generation.
pub fn generate(service: Arc<Service>, principal: Principal, request: GenerateRequest) -> Response {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<SseEvent>();
    let work = async move {
        let on = {
            let tx = tx.clone();
            move |e: Event| {
                let _ = tx.send(sse(e.name(), &e));
            }
        };
        let last = match service.generate_watched(&principal, request, &on).await {
            Ok(proposal) => sse("proposal", &proposal),
            Err(e) => {
                let api = ApiError::from(e);
                let status = api.status().as_u16();
                sse(
                    "error",
                    &ErrorEvent {
                        error: api.message,
                        code: api.code.as_str().to_string(),
                        status,
                        problems: api.problems,
                    },
                )
            }
        };
        let _ = tx.send(last);
    };
    let events = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (e, rx)) });
    // the generation is driven by the body: it yields nothing itself, and is dropped with the body
    let driver = futures_util::stream::once(work).filter_map(|()| async { None });
    let stream = futures_util::stream::select(events, driver).map(Ok::<_, Infallible>);
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_header_decides() {
        let mut h = HeaderMap::new();
        assert!(!wants_events(&h));
        h.insert(ACCEPT, "application/json".parse().unwrap());
        assert!(!wants_events(&h));
        h.insert(ACCEPT, "application/json, Text/Event-Stream;q=0.9".parse().unwrap());
        assert!(wants_events(&h));
    }
}
