//! OpenAI-compatible chat completions: `POST {endpoint}/chat/completions` with `Authorization: Bearer`.
//! The same wire format serves OpenAI, Azure-style gateways, vLLM, llama.cpp and Ollama.
//!
//! Structured output, when the Worker enables it, is `response_format: {"type": "json_schema"}`, which
//! grammar-constrained servers (llama.cpp, vLLM) enforce token by token.
//!
//! Streamed (`stream: true`), the answer comes as `data:` chunks whose `choices[0].delta` holds
//! `content` (or `tool_calls[].function.arguments`) pieces, a chunk with `usage` when asked for, and
//! `data: [DONE]`; a chunk with an `error` is the provider breaking off.

use reqwest::header::{AUTHORIZATION, HeaderMap};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sse::{self, Answer, Events};
use super::wire::{Answered, error_kind_of, finish, join, parse, post_for_stream, post_json, secret_header};
use super::{Bounds, Delta, ModelAnswer, ModelError, ModelRequest, Sink, StopReason, Usage};

#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    messages: Vec<Message<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<ResponseFormat<'a>>,
    stream: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream_options: Option<StreamOptions>,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

#[derive(Serialize)]
struct ResponseFormat<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    json_schema: JsonSchema<'a>,
}

#[derive(Serialize)]
struct JsonSchema<'a> {
    name: &'static str,
    schema: &'a Value,
    strict: bool,
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: Option<ChoiceMessage>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    content: Option<String>,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<ChunkChoice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Deserialize)]
struct ChunkChoice {
    delta: Option<ChunkDelta>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChunkDelta {
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<ToolCallDelta>,
}

#[derive(Deserialize)]
struct ToolCallDelta {
    function: Option<FunctionDelta>,
}

#[derive(Deserialize)]
struct FunctionDelta {
    arguments: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

pub async fn call(
    client: &reqwest::Client,
    endpoint: &reqwest::Url,
    key: Option<&SecretString>,
    request: &ModelRequest,
    structured: bool,
    bounds: Bounds,
    sink: Option<Sink<'_>>,
) -> Result<ModelAnswer, ModelError> {
    let mut messages = Vec::with_capacity(2);
    if !request.system.is_empty() {
        messages.push(Message { role: "system", content: &request.system });
    }
    messages.push(Message { role: "user", content: &request.user });
    let body = Request {
        model: &request.model,
        max_tokens: request.max_tokens,
        temperature: request.temperature,
        messages,
        response_format: request.json_schema.as_deref().filter(|_| structured).map(|schema| ResponseFormat {
            kind: "json_schema",
            json_schema: JsonSchema { name: "form", schema, strict: false },
        }),
        stream: sink.is_some(),
        stream_options: sink.is_some().then_some(StreamOptions { include_usage: true }),
    };
    let mut headers = HeaderMap::new();
    if let Some(key) = key {
        headers.insert(AUTHORIZATION, secret_header("Bearer ", key)?);
    }
    let url = join(endpoint, "chat/completions");
    let (status, bytes) = match sink {
        None => post_json(client, &url, headers, &body, bounds).await?,
        Some(sink) => match post_for_stream(client, &url, headers, &body, bounds).await? {
            Answered::Events(response) => {
                // boxed: the stream's state exists once the model answers (see `wire::post_json`)
                let events = Events::new(response, bounds);
                return Box::pin(streamed(events, &url, sink, request.max_tokens, bounds)).await;
            }
            Answered::Body(status, bytes) => (status, bytes),
        },
    };
    let response: Response = parse(status, &bytes)?;
    let usage = response
        .usage
        .map(|u| Usage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens })
        .unwrap_or_default();
    let Some(choice) = response.choices.into_iter().next() else {
        return Err(ModelError::Unreadable { status, raw: super::wire::shorten(&bytes) });
    };
    let stop = stop_reason(choice.finish_reason.as_deref());
    let text = choice.message.and_then(|m| m.content).unwrap_or_default();
    finish(text, usage, stop, request.max_tokens)
}

/// Reads a streamed answer: content pieces (or tool-call arguments, which then are the answer) into
/// the sink, usage when reported, until `[DONE]`.
async fn streamed(
    mut events: Events,
    url: &str,
    sink: Sink<'_>,
    max_tokens: u32,
    bounds: Bounds,
) -> Result<ModelAnswer, ModelError> {
    let (mut text, mut tool) = (Answer::default(), Answer::default());
    let mut usage = Usage::default();
    let mut finish_reason: Option<String> = None;
    let mut done = false;
    while let Some(event) = events.next().await? {
        let data = event.data.trim();
        if data == "[DONE]" {
            done = true;
            break;
        }
        let chunk: Chunk = serde_json::from_str(data).map_err(|_| ModelError::Unreadable {
            status: 200,
            raw: super::wire::shorten(data.as_bytes()),
        })?;
        if let Some(error) = &chunk.error {
            let body = serde_json::json!({ "error": error });
            return Err(ModelError::Interrupted { kind: error_kind_of(&body) });
        }
        if let Some(u) = chunk.usage {
            usage = Usage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens };
            sink(Delta::Usage(usage));
        }
        let Some(choice) = chunk.choices.into_iter().next() else { continue };
        if let Some(reason) = choice.finish_reason {
            finish_reason = Some(reason);
        }
        let Some(delta) = choice.delta else { continue };
        for piece in delta.tool_calls.iter().filter_map(|t| t.function.as_ref()?.arguments.as_deref()) {
            if tool.text.is_empty() && !piece.is_empty() {
                sink(Delta::Restart);
            }
            tool.push(piece, bounds)?;
            sink(Delta::Text(piece));
        }
        if let Some(piece) = delta.content.as_deref().filter(|p| !p.is_empty()) {
            text.push(piece, bounds)?;
            if tool.text.is_empty() {
                sink(Delta::Text(piece));
            }
        }
    }
    if !done && finish_reason.is_none() {
        return Err(sse::cut(url));
    }
    let stop = stop_reason(finish_reason.as_deref());
    let answer = if tool.text.is_empty() { text.text } else { tool.text };
    finish(answer, usage, stop, max_tokens)
}

fn stop_reason(reason: Option<&str>) -> StopReason {
    match reason {
        Some("length") => StopReason::MaxTokens,
        None | Some("stop" | "tool_calls" | "function_call") => StopReason::Complete,
        Some(other) => StopReason::Other(other.to_string()),
    }
}
