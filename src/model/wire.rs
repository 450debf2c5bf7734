//! What every wire format shares: the call itself ([`call`]), a bounded POST, the mapping of HTTP
//! failures to [`ModelError`], and reading a streamed answer ([`Streamed`]).
//!
//! A wire format is a [`Format`]: its request body, its headers, what one streamed event and a whole
//! answer mean. Everything around those is here, once, so both formats post, bound, fail and finish
//! alike. This file knows HTTP and the shape of an answer; no format's wire structs.

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;
use serde_json::Value;

use super::sse::{self, Answer, Events};
use super::{Bounds, Delta, ModelAnswer, ModelError, ModelRequest, Sink, StopReason, Usage};

/// What sets one wire format apart; the rest of a call is [`call`]'s.
pub trait Format {
    /// The API's path under the Worker's endpoint.
    const PATH: &'static str;

    /// The request body: `structured` when the Worker enables structured output, `stream` when the
    /// answer is to be streamed.
    fn body(request: &ModelRequest, structured: bool, stream: bool) -> impl Serialize + Send + Sync;

    /// The format's headers, with the credential when there is one ([`secret_header`]: the one place
    /// a key is exposed).
    fn headers(key: Option<&SecretString>) -> Result<HeaderMap, ModelError>;

    /// A whole answer from a 2xx JSON body, before [`finish`] checks it.
    fn answer(status: u16, body: &[u8]) -> Result<ModelAnswer, ModelError>;

    /// One streamed event, read into `stream`.
    fn event(event: &sse::Event, stream: &mut Streamed<'_>) -> Result<Next, ModelError>;

    /// What the provider's stop (or finish) reason means.
    fn stop_reason(reason: Option<&str>) -> StopReason;

    /// Whether a stream that ended before its closing event is whole all the same, given the stop
    /// reason it reported.
    fn whole_without_close(stop: Option<&str>) -> bool;
}

/// What a streamed event was to the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// More may follow.
    More,
    /// The format's closing event: the answer is complete.
    Closed,
}

/// Asks the model in format `F`: the body posted (streamed into `sink` when there is one and the
/// server streams), and the answer read and checked.
pub async fn call<F: Format>(
    client: &reqwest::Client,
    endpoint: &reqwest::Url,
    key: Option<&SecretString>,
    request: &ModelRequest,
    structured: bool,
    bounds: Bounds,
    sink: Option<Sink<'_>>,
) -> Result<ModelAnswer, ModelError> {
    let headers = F::headers(key)?;
    let url = join(endpoint, F::PATH);
    // serialised at once: the body's own values (the prompt, inflated) are dropped before the wait
    let body = serialised(&F::body(request, structured, sink.is_some()), &url)?;
    let (status, bytes) = match sink {
        None => post_json(client, &url, headers, body, bounds).await?,
        Some(sink) => match post_for_stream(client, &url, headers, body, bounds).await? {
            Answered::Events(response) => {
                // boxed: the stream's state exists once the model answers (see [`post_json`])
                let events = Events::new(response, bounds);
                return Box::pin(streamed::<F>(events, &url, sink, request.max_tokens, bounds)).await;
            }
            Answered::Body(status, bytes) => (status, bytes),
        },
    };
    finish(F::answer(status, &bytes)?, request.max_tokens)
}

/// Reads a streamed answer event by event until the format's closing event.
async fn streamed<F: Format>(
    mut events: Events,
    url: &str,
    sink: Sink<'_>,
    max_tokens: u32,
    bounds: Bounds,
) -> Result<ModelAnswer, ModelError> {
    let mut stream = Streamed {
        sink,
        bounds,
        text: Answer::default(),
        tool: Answer::default(),
        in_tool: false,
        usage: Usage::default(),
        stop: None,
    };
    let mut closed = false;
    while let Some(event) = events.next().await? {
        if F::event(&event, &mut stream)? == Next::Closed {
            closed = true;
            break;
        }
    }
    if !closed && !F::whole_without_close(stream.stop.as_deref()) {
        return Err(sse::cut(url));
    }
    let stop = F::stop_reason(stream.stop.as_deref());
    let text = if stream.in_tool { stream.tool.text } else { stream.text.text };
    finish(ModelAnswer { text, usage: stream.usage, stop }, max_tokens)
}

/// A streamed answer as its events are read: prose and a tool's input kept apart (once a tool's
/// input starts it is the answer, and what the sink was shown before it was prose), the usage and
/// the stop reason as last reported, and the sink every piece goes to as it arrives.
pub struct Streamed<'s> {
    sink: Sink<'s>,
    bounds: Bounds,
    text: Answer,
    tool: Answer,
    in_tool: bool,
    usage: Usage,
    stop: Option<String>,
}

impl Streamed<'_> {
    /// The usage as the provider now reports it (`update` may change part of it), to the sink.
    pub fn usage(&mut self, update: impl FnOnce(&mut Usage)) {
        update(&mut self.usage);
        (self.sink)(Delta::Usage(self.usage));
    }

    /// A piece of prose: the answer unless a tool's input starts, shown until one does.
    pub fn prose(&mut self, piece: &str) -> Result<(), ModelError> {
        self.text.push(piece, self.bounds)?;
        if !self.in_tool {
            (self.sink)(Delta::Text(piece));
        }
        Ok(())
    }

    /// A tool's input starts (once per answer): the sink starts over.
    pub fn tool_starts(&mut self) {
        if !self.in_tool {
            self.in_tool = true;
            (self.sink)(Delta::Restart);
        }
    }

    /// A piece of the tool's input.
    pub fn tool_input(&mut self, piece: &str) -> Result<(), ModelError> {
        self.tool.push(piece, self.bounds)?;
        (self.sink)(Delta::Text(piece));
        Ok(())
    }

    /// The stop reason, when an event reports one (a later report replaces an earlier).
    pub fn stop(&mut self, reason: Option<String>) {
        if reason.is_some() {
            self.stop = reason;
        }
    }
}

/// A stream broken off by the provider's error event, whose `error` object may name its type.
pub fn interrupted(error: &Value) -> ModelError {
    ModelError::Interrupted { kind: kind_of(error) }
}

/// A header value for a secret, marked sensitive so no `Debug` of the request prints it.
pub fn secret_header(prefix: &str, key: &SecretString) -> Result<HeaderValue, ModelError> {
    let mut value = HeaderValue::from_str(&format!("{prefix}{}", key.expose_secret()))
        .map_err(|_| ModelError::CredentialRefused { status: 0 })?;
    value.set_sensitive(true);
    Ok(value)
}

/// POSTs `body` (JSON) and returns the status and at most `bounds.answer_bytes` of the body. Non-2xx
/// statuses become errors here, with the provider's error type when its body names one; a 3xx is
/// refused unread (the client follows no redirects). Nothing here is redacted or logged: that is
/// `model::call`'s, once, for every path.
async fn post_json(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: Vec<u8>,
    bounds: Bounds,
) -> Result<(u16, Vec<u8>), ModelError> {
    let response = send(client, url, headers, body, bounds).await?;
    // boxed: the reading's state is allocated once an answer arrives, not reserved in the future of
    // every generation still waiting for one
    Box::pin(read_checked(response, url, bounds)).await
}

/// What a request that asked for a stream got back.
enum Answered {
    /// A 2xx `text/event-stream`: its events are read as they come.
    Events(reqwest::Response),
    /// A server that does not stream answered with one JSON body (2xx, at most the cap).
    Body(u16, Vec<u8>),
}

/// POSTs `body` (which asks for a stream) as [`post_json`] does, but hands back a 2xx event stream
/// unread; a plain answer is read, and failed, as [`post_json`] would.
async fn post_for_stream(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: Vec<u8>,
    bounds: Bounds,
) -> Result<Answered, ModelError> {
    let response = send(client, url, headers, body, bounds).await?;
    let is_events = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("text/event-stream"));
    if response.status().is_success() && is_events {
        return Ok(Answered::Events(response));
    }
    // boxed as in [`post_json`]
    let (status, body) = Box::pin(read_checked(response, url, bounds)).await?;
    Ok(Answered::Body(status, body))
}

/// `body` as JSON bytes. (A derived `Serialize` with string keys cannot fail; were it to, the call
/// fails, it is not sent.)
fn serialised(body: &impl Serialize, url: &str) -> Result<Vec<u8>, ModelError> {
    serde_json::to_vec(body).map_err(|_| ModelError::Unreachable {
        endpoint: super::reach::host_port(url),
        cause: super::reach::Cause::Other,
    })
}

async fn send(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    bytes: Vec<u8>,
    bounds: Bounds,
) -> Result<reqwest::Response, ModelError> {
    // sent as a one-chunk stream with its length: a body that cannot be cloned is not kept for a
    // redirect or a retry (neither is followed), so it is freed once written, not held for as long
    // as the model takes
    let length = bytes.len();
    let once = futures_util::stream::once(async move { Ok::<_, std::io::Error>(bytes) });
    let response = client
        .post(url)
        .headers(headers)
        .header(CONTENT_TYPE, "application/json")
        .header(reqwest::header::CONTENT_LENGTH, length)
        .body(reqwest::Body::wrap_stream(once))
        .timeout(bounds.timeout)
        .send()
        .await
        .map_err(|e| unreachable(url, &e, bounds))?;
    let status = response.status().as_u16();
    if (300..=399).contains(&status) {
        return Err(ModelError::Redirected { status });
    }
    Ok(response)
}

async fn read_checked(
    response: reqwest::Response,
    url: &str,
    bounds: Bounds,
) -> Result<(u16, Vec<u8>), ModelError> {
    let status = response.status().as_u16();
    let retry_after = response.headers().get(RETRY_AFTER).and_then(parse_retry_after);
    let body = read_capped(response, bounds).await.map_err(|e| e.at(url))?;
    match status {
        200..=299 => Ok((status, body)),
        401 | 403 => Err(ModelError::CredentialRefused { status }),
        429 => Err(ModelError::RateLimited { retry_after_s: retry_after }),
        408 | 504 => Err(timeout(bounds)),
        500..=599 => Err(ModelError::Unavailable { status }),
        _ => Err(ModelError::Rejected { status, kind: error_kind(&body), raw: shorten(&body) }),
    }
}

/// A failed request: a timeout, or the endpoint's `host:port` and why it could not be reached.
fn unreachable(url: &str, e: &reqwest::Error, bounds: Bounds) -> ModelError {
    match super::reach::cause(e) {
        _ if e.is_timeout() => timeout(bounds),
        cause => ModelError::Unreachable { endpoint: super::reach::host_port(url), cause },
    }
}

impl ModelError {
    /// Names the endpoint in an [`ModelError::Unreachable`] made where the URL was not at hand.
    fn at(self, url: &str) -> ModelError {
        match self {
            ModelError::Unreachable { cause, .. } => {
                ModelError::Unreachable { endpoint: super::reach::host_port(url), cause }
            }
            other => other,
        }
    }
}

fn timeout(bounds: Bounds) -> ModelError {
    ModelError::Timeout { after_s: bounds.timeout.as_secs() }
}

/// Reads the body up to the cap; past it the connection is dropped, so the rest is never downloaded.
async fn read_capped(mut response: reqwest::Response, bounds: Bounds) -> Result<Vec<u8>, ModelError> {
    let limit = bounds.answer_bytes;
    if response.content_length().is_some_and(|n| n > limit as u64) {
        return Err(ModelError::TooLarge { limit });
    }
    let mut body = Vec::new();
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > limit {
                    return Err(ModelError::TooLarge { limit });
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(e) if e.is_timeout() => return Err(timeout(bounds)),
            Err(e) => return Err(unreachable("", &e, bounds)),
        }
    }
}

/// `Retry-After` in seconds (the HTTP-date form is rare from model APIs and read as "later").
fn parse_retry_after(value: &HeaderValue) -> Option<u64> {
    value.to_str().ok()?.trim().parse().ok()
}

/// The provider's error type from an error body (`{"error": {"type": "..."}}` or `{"error": {"code": ...}}`).
fn error_kind(body: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    kind_of(v.get("error")?)
}

/// The provider's error type from an error object (`{"type": "..."}` or `{"code": ...}`).
fn kind_of(error: &Value) -> Option<String> {
    let kind = error.get("type").or_else(|| error.get("code"))?;
    let kind = match kind {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    // an error *type* is a short identifier; anything longer may be prose that echoes the prompt
    (kind.len() <= 64 && kind.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))).then_some(kind)
}

/// How many bytes of a raw body are kept until it is redacted: enough that a secret the log line
/// would show the start of is whole in what is redacted, in any spelling the redactor finds (a
/// 100-character key written as `\uXXXX` escapes takes 600).
const RAW_KEPT: usize = 4096;

/// How many characters of a redacted raw body the log shows.
const RAW_SHOWN: usize = 300;

/// The start of a raw body, kept for the log; [`for_log`] cuts it, once it is redacted.
pub fn shorten(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(RAW_KEPT)]).into_owned();
    if body.len() > RAW_KEPT { format!("{text}…") } else { text }
}

/// A redacted raw body cut to what a log line shows.
pub fn for_log(raw: &str) -> String {
    match raw.char_indices().nth(RAW_SHOWN) {
        Some((at, _)) => format!("{}…", &raw[..at]),
        None => raw.to_string(),
    }
}

/// Parses a 2xx body, or keeps its start for the log.
pub fn parse<T: serde::de::DeserializeOwned>(status: u16, body: &[u8]) -> Result<T, ModelError> {
    serde_json::from_slice(body).map_err(|_| ModelError::Unreadable { status, raw: shorten(body) })
}

/// Parses a streamed event's data, which came with the stream's 200.
pub fn parse_event<T: serde::de::DeserializeOwned>(data: &str) -> Result<T, ModelError> {
    parse(200, data.as_bytes())
}

/// `{endpoint}/{path}` without doubled slashes.
fn join(endpoint: &reqwest::Url, path: &str) -> String {
    format!("{}/{}", endpoint.as_str().trim_end_matches('/'), path.trim_start_matches('/'))
}

/// The end every answer goes through, whatever its wire format: an answer cut at the token limit and an
/// answer without text are errors; anything else is the answer.
fn finish(answer: ModelAnswer, max_tokens: u32) -> Result<ModelAnswer, ModelError> {
    if answer.stop == StopReason::MaxTokens {
        return Err(ModelError::Truncated { max_tokens, partial: answer.text, usage: answer.usage });
    }
    if answer.text.trim().is_empty() {
        return Err(ModelError::Empty);
    }
    Ok(answer)
}
