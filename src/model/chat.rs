//! OpenAI-compatible chat completions: `POST {endpoint}/chat/completions` with `Authorization: Bearer`.
//! The same wire format serves OpenAI, Azure-style gateways, vLLM, llama.cpp and Ollama.
//!
//! Structured output, when the Worker enables it, is `response_format: {"type": "json_schema"}`, which
//! grammar-constrained servers (llama.cpp, vLLM) enforce token by token.
//!
//! Streamed (`stream: true`), the answer comes as `data:` chunks whose `choices[0].delta` holds
//! `content` (or `tool_calls[].function.arguments`) pieces, a chunk with `usage` when asked for, and
//! `data: [DONE]`; a chunk with an `error` is the provider breaking off.
//!
//! This file knows the format's wire structs and what its chunks mean; posting, bounds, failures and
//! the checks every answer goes through are [`super::wire`]'s.

use reqwest::header::{AUTHORIZATION, HeaderMap};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sse::Event;
use super::wire::{Format, Next, Streamed, interrupted, parse, parse_event, secret_header, shorten};
use super::{ModelAnswer, ModelError, ModelRequest, StopReason, Usage};

/// The chat-completions wire format.
pub struct Chat;

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
    content: std::borrow::Cow<'a, str>,
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

impl Format for Chat {
    const PATH: &'static str = "chat/completions";

    fn body(request: &ModelRequest, structured: bool, stream: bool) -> impl Serialize + Send + Sync {
        let mut messages = Vec::with_capacity(2);
        if !request.system.is_empty() {
            messages.push(Message { role: "system", content: (&*request.system).into() });
        }
        messages.push(Message { role: "user", content: request.user.text().into() });
        Request {
            model: &request.model,
            max_tokens: request.max_tokens,
            temperature: request.temperature,
            messages,
            response_format: request.json_schema.as_deref().filter(|_| structured).map(|schema| {
                ResponseFormat {
                    kind: "json_schema",
                    json_schema: JsonSchema { name: "form", schema, strict: false },
                }
            }),
            stream,
            stream_options: stream.then_some(StreamOptions { include_usage: true }),
        }
    }

    fn headers(key: Option<&SecretString>) -> Result<HeaderMap, ModelError> {
        let mut headers = HeaderMap::new();
        if let Some(key) = key {
            headers.insert(AUTHORIZATION, secret_header("Bearer ", key)?);
        }
        Ok(headers)
    }

    fn answer(status: u16, body: &[u8]) -> Result<ModelAnswer, ModelError> {
        let response: Response = parse(status, body)?;
        let usage = response.usage.map(Usage::from).unwrap_or_default();
        let Some(choice) = response.choices.into_iter().next() else {
            return Err(ModelError::Unreadable { status, raw: shorten(body) });
        };
        let stop = Self::stop_reason(choice.finish_reason.as_deref());
        let text = choice.message.and_then(|m| m.content).unwrap_or_default();
        Ok(ModelAnswer { text, usage, stop })
    }

    /// One chunk: content pieces (or tool-call arguments, which then are the answer), usage when
    /// reported, the finish reason; `[DONE]` closes the stream.
    fn event(event: &Event, stream: &mut Streamed<'_>) -> Result<Next, ModelError> {
        let data = event.data.trim();
        if data == "[DONE]" {
            return Ok(Next::Closed);
        }
        let chunk: Chunk = parse_event(data)?;
        if let Some(error) = &chunk.error {
            return Err(interrupted(error));
        }
        if let Some(u) = chunk.usage {
            stream.usage(|usage| *usage = u.into());
        }
        let Some(choice) = chunk.choices.into_iter().next() else { return Ok(Next::More) };
        stream.stop(choice.finish_reason);
        let Some(delta) = choice.delta else { return Ok(Next::More) };
        for piece in delta.tool_calls.iter().filter_map(|t| t.function.as_ref()?.arguments.as_deref()) {
            // the arguments are the answer from their first piece with text on
            if !piece.is_empty() {
                stream.tool_starts();
            }
            stream.tool_input(piece)?;
        }
        if let Some(piece) = delta.content.as_deref().filter(|p| !p.is_empty()) {
            stream.prose(piece)?;
        }
        Ok(Next::More)
    }

    fn stop_reason(reason: Option<&str>) -> StopReason {
        match reason {
            Some("length") => StopReason::MaxTokens,
            None | Some("stop" | "tool_calls" | "function_call") => StopReason::Complete,
            Some(other) => StopReason::Other(other.to_string()),
        }
    }

    /// A finish reason already says the answer is complete: a stream that reported one is whole
    /// without `[DONE]`.
    fn whole_without_close(stop: Option<&str>) -> bool {
        stop.is_some()
    }
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Usage {
        Usage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens }
    }
}
