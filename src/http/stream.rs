//! `POST /api/formgen/generate` with `Accept: text/event-stream`: the generation's events as
//! Server-Sent Events, then exactly one `proposal` or `error`, then the end.
//!
//! The generation runs on a task of its own, owned by the response body: when the caller closes the
//! stream, the body is dropped and the task aborted with it (the upstream model call, the
//! concurrency permit, the in-flight gauge), as for a non-streaming caller who leaves. On its own task
//! it keeps its deadline whether or not the caller reads: hyper polls a body only while its peer takes
//! bytes, and a generation polled by the body would hold its permit for as long as a client that
//! stopped reading keeps the connection open. The events wait for the caller in a bounded queue;
//! when it is full (a caller that reads slowly, or not at all) a progress, draft or warning event is
//! dropped (a later draft shows the form as far as it got; the proposal carries every warning), never
//! the final `proposal` or `error`. When the server's shutdown grace is about to end, a stream still
//! running ends with an `error` event (`shutting_down`, 503). This file only translates the service's
//! events to SSE; it decides nothing.

use std::convert::Infallible;
use std::sync::Arc;

use axum::http::HeaderMap;
use axum::http::header::ACCEPT;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Serialize;

use super::error::ApiError;
use super::server::Draining;
use crate::auth::Principal;
use crate::service::{Event, GenerateRequest, Service};

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

/// Events held for a caller who has not read them yet; past this, previews are dropped.
const EVENTS_HELD: usize = 64;

/// What the generation's task hands the body: an event, or the last one.
enum Out {
    Event(SseEvent),
    Last(SseEvent),
}

/// The event-stream answer of one generation; `draining` says when the server's grace period ends.
pub fn generate(
    service: Arc<Service>,
    principal: Principal,
    request: GenerateRequest,
    draining: Option<Draining>,
) -> Response {
    let (tx, rx) = tokio::sync::mpsc::channel::<Out>(EVENTS_HELD);
    let work = async move {
        let on = {
            let tx = tx.clone();
            move |e: Event| {
                // full: the caller is not reading; a preview it has not seen is not kept for it
                let _ = tx.try_send(Out::Event(sse(e.name(), &e)));
            }
        };
        let last = match service.generate_watched(&principal, request, &on).await {
            Ok(proposal) => sse("proposal", &proposal),
            Err(e) => error_event(ApiError::from(e)),
        };
        // the generation is over (its permit given back); the last event waits for room
        let _ = tx.send(Out::Last(last)).await;
    };
    let feed = Feed { events: rx, task: AbortOnDrop(tokio::spawn(work)), draining, ended: false };
    let stream = futures_util::stream::unfold(feed, Feed::next).map(Ok::<_, Infallible>);
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

/// The `error` event of an API error.
fn error_event(api: ApiError) -> SseEvent {
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

/// The body's side of a generation: its events, its task, and the end of the grace period.
struct Feed {
    events: tokio::sync::mpsc::Receiver<Out>,
    task: AbortOnDrop,
    draining: Option<Draining>,
    ended: bool,
}

impl Feed {
    /// The next event, until the last: the generation's own, or `shutting_down` at the end of the
    /// grace period (the generation then stopped).
    async fn next(mut self) -> Option<(SseEvent, Feed)> {
        if self.ended {
            return None;
        }
        let cut = {
            let draining = self.draining.clone();
            async move {
                match draining {
                    Some(d) => d.ended().await,
                    None => std::future::pending().await,
                }
            }
        };
        let out = tokio::select! {
            biased;
            out = self.events.recv() => out,
            () = cut => {
                self.task.0.abort();
                Some(Out::Last(error_event(ApiError::shutting_down())))
            }
        };
        match out? {
            Out::Event(e) => Some((e, self)),
            Out::Last(e) => {
                self.ended = true;
                Some((e, self))
            }
        }
    }
}

/// Aborts the generation's task when the body is dropped (the caller left, or its connection was
/// closed).
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
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
