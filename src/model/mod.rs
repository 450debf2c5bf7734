//! The model interface: one provider-neutral request and answer, and the wire formats behind it.
//!
//! A generation asks a model one question: system text, user text, an output-token budget and, when the
//! Worker enables structured output, the JSON schema the answer must follow. Each wire format is a file
//! of its own with private wire structs (`messages`, `chat`), and the call around them, the same for
//! both, is `wire`'s; the builtin drafter, which needs no
//! model, is not here but in [`crate::draft`]. Every call is bounded: a per-Worker timeout, an answer read with a size cap (a model
//! that streams a gigabyte costs nothing past the cap), and dropping the future aborts the HTTP call, so
//! an author who navigates away takes the call with them.
//!
//! This module knows wire formats and HTTP; it knows nothing of prompts, forms or who is asking.

mod chat;
mod messages;
mod packed;
pub mod reach;
mod sse;
mod wire;

use std::time::Duration;

use secrecy::SecretString;
use serde::Serialize;
use serde_json::Value;

pub use packed::Packed;

use crate::redact::Redactor;
use crate::workers::{ModelWorker, Wire};

/// One question to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    /// The model to ask (the Worker's, or the request's override).
    pub model: String,
    /// The system text (the installation's, shared by every request).
    pub system: std::sync::Arc<str>,
    /// The user text, held deflated while the model thinks (a repair round quotes it).
    pub user: Packed,
    /// Output tokens the answer may use.
    pub max_tokens: u32,
    /// The JSON schema of the answer, for structured output (shared: it depends on the Worker only).
    pub json_schema: Option<std::sync::Arc<Value>>,
    /// Sampling temperature, when the Worker sets one.
    pub temperature: Option<f32>,
}

/// Tokens spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens written.
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// It finished (end of turn, a stop sequence, its forced tool call).
    Complete,
    /// It hit the output-token limit.
    MaxTokens,
    /// Something else the provider reported.
    Other(String),
}

/// A model's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelAnswer {
    /// The answer text (for a forced tool call, the tool input as JSON).
    pub text: String,
    /// Tokens spent.
    pub usage: Usage,
    /// Why it stopped.
    pub stop: StopReason,
}

/// A piece of a streamed answer, as it arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delta<'a> {
    /// More answer text (unredacted: the caller scrubs what it shows).
    Text(&'a str),
    /// The answer starts over: what came so far was prose, and the form follows (a tool call's
    /// input after a text block).
    Restart,
    /// Tokens spent so far, as the provider reported them.
    Usage(Usage),
}

/// Where a streamed answer's pieces go, as they arrive.
pub type Sink<'s> = &'s mut (dyn FnMut(Delta<'_>) + Send);

/// Why a model call failed. The `Display` is a sentence for the author; nothing here holds a credential,
/// and a raw body is kept only for the log (it may echo the prompt).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// No connection to the endpoint.
    #[error("the model endpoint {endpoint} could not be reached: {cause}")]
    Unreachable {
        /// `host:port`, never a path, query or credential.
        endpoint: String,
        /// Why.
        cause: reach::Cause,
    },
    /// 401/403: the provider refused the key.
    #[error(
        "the model endpoint refused this Worker's credential (HTTP {status}); the operator must check its API key"
    )]
    CredentialRefused {
        /// The HTTP status.
        status: u16,
    },
    /// 429 from the provider.
    #[error("the model endpoint is rate-limiting this Worker; try again {}", retry_phrase(*.retry_after_s))]
    RateLimited {
        /// Seconds the provider asked to wait.
        retry_after_s: Option<u64>,
    },
    /// 5xx / 529: overloaded or failing.
    #[error("the model endpoint is overloaded or failing (HTTP {status}); try again shortly")]
    Unavailable {
        /// The HTTP status.
        status: u16,
    },
    /// Another 4xx: the request was refused (a wrong model name, for instance).
    #[error("the model endpoint rejected the request (HTTP {status}{}); the operator may need to check the Worker's model and endpoint", kind.as_deref().map(|k| format!(", {k}")).unwrap_or_default())]
    Rejected {
        /// The HTTP status.
        status: u16,
        /// The provider's error type, when it gave one.
        kind: Option<String>,
        /// The start of the raw body, for the log only.
        raw: String,
    },
    /// A 3xx: formgen follows no redirects, so neither the key nor the prompt went on.
    #[error(
        "the model endpoint redirected the request (HTTP {status}); formgen follows no redirects and sent nothing on, so the operator must set the Worker's endpoint to the address that answers"
    )]
    Redirected {
        /// The HTTP status.
        status: u16,
    },
    /// No answer within the timeout.
    #[error("the model did not answer within {after_s} s")]
    Timeout {
        /// The timeout.
        after_s: u64,
    },
    /// The answer stopped at the output-token limit.
    #[error("the model's answer was cut off at its {max_tokens}-token output limit before it was complete")]
    Truncated {
        /// The limit.
        max_tokens: u32,
        /// The answer as far as it got (within the answer's byte cap): its complete components may
        /// still be a form.
        partial: String,
        /// The tokens the cut answer took, as the endpoint reported them.
        usage: Usage,
    },
    /// The answer was over the size cap.
    #[error("the model's answer was larger than {limit} bytes and was not read further")]
    TooLarge {
        /// The cap.
        limit: usize,
    },
    /// A body that is not the wire format's answer.
    #[error("the model endpoint answered HTTP {status} with something that is not a model answer")]
    Unreadable {
        /// The HTTP status.
        status: u16,
        /// The start of the raw body, for the log only.
        raw: String,
    },
    /// An answer without any text.
    #[error("the model answered with no text")]
    Empty,
    /// A streamed answer the provider broke off with an error event.
    #[error("the model endpoint broke off its answer with an error{}; try again shortly", kind.as_deref().map(|k| format!(" ({k})")).unwrap_or_default())]
    Interrupted {
        /// The provider's error type, when it gave one.
        kind: Option<String>,
    },
}

fn retry_phrase(seconds: Option<u64>) -> String {
    match seconds {
        Some(s) => format!("in {s} s"),
        None => "later".into(),
    }
}

/// The bounds of one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The whole call, connect to last byte.
    pub timeout: Duration,
    /// The most answer bytes read.
    pub answer_bytes: usize,
}

/// The HTTP client for model endpoints: it follows no redirects (a 3xx is [`ModelError::Redirected`]),
/// so the key and the prompt go to the configured endpoint and nowhere else.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .redirect(reqwest::redirect::Policy::none())
        // never retried: a model call costs tokens and is not idempotent, and a request kept for a
        // retry keeps its body (the prompt) for as long as the model takes
        .retry(reqwest::retry::never().max_retries_per_request(0))
        .user_agent(concat!("formgen/", env!("CARGO_PKG_VERSION")))
        .build()
        .expect("a TLS-capable HTTP client")
}

/// Asks a model Worker's model. `key` is the resolved credential (none for `credential = "none"`);
/// `redactor` holds the secrets this call used, and is applied to everything that comes back (the
/// answer, the provider's error type, raw bodies) before it is logged or returned.
pub async fn call(
    client: &reqwest::Client,
    worker: &ModelWorker,
    key: Option<&SecretString>,
    request: &ModelRequest,
    bounds: Bounds,
    redactor: &Redactor,
) -> Result<ModelAnswer, ModelError> {
    call_streaming(client, worker, key, request, bounds, redactor, None).await
}

/// [`call`], with the answer streamed into `sink` as it is written when there is one and the Worker
/// streams (`stream = true`, the default). A server that answers with one JSON body instead gives
/// the sink nothing; the answer is the same either way.
pub async fn call_streaming(
    client: &reqwest::Client,
    worker: &ModelWorker,
    key: Option<&SecretString>,
    request: &ModelRequest,
    bounds: Bounds,
    redactor: &Redactor,
    sink: Option<Sink<'_>>,
) -> Result<ModelAnswer, ModelError> {
    let sink = sink.filter(|_| worker.stream);
    let result = scrubbed(call_unredacted(client, worker, key, request, bounds, sink).await, redactor).await;
    match &result {
        Err(ModelError::Rejected { status, raw, .. }) => {
            tracing::warn!(status, body = %raw, "model endpoint rejected the request");
        }
        Err(ModelError::Unreadable { status, raw }) => {
            tracing::warn!(status, body = %raw, "model answer is not the wire format's JSON");
        }
        _ => {}
    }
    result
}

/// Answers longer than this are redacted on the blocking pool: undoing the escapes of a megabyte
/// written to be costly is milliseconds of CPU an async thread must not spend.
const SCRUB_INLINE: usize = 64 * 1024;

/// A call's result with the call's secrets taken out of every text that came from the endpoint, and
/// the raw bodies cut to what the log shows once they are redacted (so no cut leaves the start of a
/// secret behind).
async fn scrubbed(
    result: Result<ModelAnswer, ModelError>,
    redactor: &Redactor,
) -> Result<ModelAnswer, ModelError> {
    match result {
        Ok(mut answer) => {
            if answer.text.len() > SCRUB_INLINE && !redactor.is_empty() {
                let (text, redactor) = (std::mem::take(&mut answer.text), redactor.clone());
                // (should the task fail, no text is kept: the answer then reads as empty)
                answer.text =
                    tokio::task::spawn_blocking(move || redactor.scrub(&text)).await.unwrap_or_default();
            } else {
                redactor.scrub_in_place(&mut answer.text);
            }
            if let StopReason::Other(reason) = &mut answer.stop {
                redactor.scrub_in_place(reason);
            }
            Ok(answer)
        }
        Err(e) => Err(e.redacted(redactor)),
    }
}

impl ModelError {
    /// This error with `redactor`'s secrets taken out of every text in it that came from the
    /// endpoint, and its raw body cut to what the log shows.
    pub fn redacted(self, redactor: &Redactor) -> ModelError {
        let raw = |raw: String| wire::for_log(&redactor.scrub(&raw));
        match self {
            ModelError::Rejected { status, kind, raw: body } => {
                ModelError::Rejected { status, kind: kind.map(|k| redactor.scrub(&k)), raw: raw(body) }
            }
            ModelError::Unreadable { status, raw: body } => ModelError::Unreadable { status, raw: raw(body) },
            ModelError::Interrupted { kind } => {
                ModelError::Interrupted { kind: kind.map(|k| redactor.scrub(&k)) }
            }
            other => other,
        }
    }
}

async fn call_unredacted(
    client: &reqwest::Client,
    worker: &ModelWorker,
    key: Option<&SecretString>,
    request: &ModelRequest,
    bounds: Bounds,
    sink: Option<Sink<'_>>,
) -> Result<ModelAnswer, ModelError> {
    let endpoint = &worker.endpoint;
    let structured = worker.structured_output;
    let call = async {
        match worker.wire {
            Wire::Messages => {
                wire::call::<messages::Messages>(client, endpoint, key, request, structured, bounds, sink)
                    .await
            }
            Wire::ChatCompletions => {
                wire::call::<chat::Chat>(client, endpoint, key, request, structured, bounds, sink).await
            }
        }
    };
    match tokio::time::timeout(bounds.timeout, call).await {
        Ok(result) => result,
        Err(_) => Err(ModelError::Timeout { after_s: bounds.timeout.as_secs() }),
    }
}
