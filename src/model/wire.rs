//! What both wire formats share: a bounded POST and the mapping of HTTP failures to [`ModelError`].

use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;

use super::{Bounds, ModelAnswer, ModelError, StopReason, Usage};

/// A header value for a secret, marked sensitive so no `Debug` of the request prints it.
pub fn secret_header(prefix: &str, key: &SecretString) -> Result<HeaderValue, ModelError> {
    let mut value = HeaderValue::from_str(&format!("{prefix}{}", key.expose_secret()))
        .map_err(|_| ModelError::CredentialRefused { status: 0 })?;
    value.set_sensitive(true);
    Ok(value)
}

/// POSTs `body` as JSON and returns the status and at most `bounds.answer_bytes` of the body. Non-2xx
/// statuses become errors here, with the provider's error type when its body names one; a 3xx is
/// refused unread (the client follows no redirects). Nothing here is redacted or logged: that is
/// `model::call`'s, once, for every path.
pub async fn post_json(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: &impl Serialize,
    bounds: Bounds,
) -> Result<(u16, Vec<u8>), ModelError> {
    let response = send(client, url, headers, body, bounds).await?;
    // boxed: the reading's state is allocated once an answer arrives, not reserved in the future of
    // every generation still waiting for one
    Box::pin(read_checked(response, url, bounds)).await
}

/// What a request that asked for a stream got back.
pub enum Answered {
    /// A 2xx `text/event-stream`: its events are read as they come.
    Events(reqwest::Response),
    /// A server that does not stream answered with one JSON body (2xx, at most the cap).
    Body(u16, Vec<u8>),
}

/// POSTs `body` (which asks for a stream) as [`post_json`] does, but hands back a 2xx event stream
/// unread; a plain answer is read, and failed, as [`post_json`] would.
pub async fn post_for_stream(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: &impl Serialize,
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

async fn send(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: &impl Serialize,
    bounds: Bounds,
) -> Result<reqwest::Response, ModelError> {
    // (a derived `Serialize` with string keys cannot fail; were it to, the call fails, it is not sent)
    let bytes = serde_json::to_vec(body).map_err(|_| ModelError::Unreachable {
        endpoint: super::reach::host_port(url),
        cause: super::reach::Cause::Other,
    })?;
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
    let v: serde_json::Value = serde_json::from_slice(body).ok()?;
    error_kind_of(&v)
}

/// The provider's error type from a parsed error body or stream event (`{"error": {...}}`).
pub fn error_kind_of(v: &serde_json::Value) -> Option<String> {
    let error = v.get("error")?;
    let kind = error.get("type").or_else(|| error.get("code"))?;
    let kind = match kind {
        serde_json::Value::String(s) => s.clone(),
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

/// `{endpoint}/{path}` without doubled slashes.
pub fn join(endpoint: &reqwest::Url, path: &str) -> String {
    format!("{}/{}", endpoint.as_str().trim_end_matches('/'), path.trim_start_matches('/'))
}

/// The end every answer goes through, whatever its wire format: an answer cut at the token limit and an
/// answer without text are errors; anything else is the answer.
pub fn finish(
    text: String,
    usage: Usage,
    stop: StopReason,
    max_tokens: u32,
) -> Result<ModelAnswer, ModelError> {
    if stop == StopReason::MaxTokens {
        return Err(ModelError::Truncated { max_tokens, partial: text });
    }
    if text.trim().is_empty() {
        return Err(ModelError::Empty);
    }
    Ok(ModelAnswer { text, usage, stop })
}
