//! OpenAI-compatible chat completions: `POST {endpoint}/chat/completions` with `Authorization: Bearer`.
//! The same wire format serves OpenAI, Azure-style gateways, vLLM, llama.cpp and Ollama.
//!
//! Structured output, when the Worker enables it, is `response_format: {"type": "json_schema"}`, which
//! grammar-constrained servers (llama.cpp, vLLM) enforce token by token.

use reqwest::header::{AUTHORIZATION, HeaderMap};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::wire::{finish, join, parse, post_json, secret_header};
use super::{Bounds, ModelAnswer, ModelError, ModelRequest, StopReason, Usage};

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
        stream: false,
    };
    let mut headers = HeaderMap::new();
    if let Some(key) = key {
        headers.insert(AUTHORIZATION, secret_header("Bearer ", key)?);
    }
    let (status, bytes) =
        post_json(client, &join(endpoint, "chat/completions"), headers, &body, bounds).await?;
    let response: Response = parse(status, &bytes)?;
    let usage = response
        .usage
        .map(|u| Usage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens })
        .unwrap_or_default();
    let Some(choice) = response.choices.into_iter().next() else {
        return Err(ModelError::Unreadable { status, raw: super::wire::shorten(&bytes) });
    };
    let stop = match choice.finish_reason.as_deref() {
        Some("length") => StopReason::MaxTokens,
        None | Some("stop" | "tool_calls" | "function_call") => StopReason::Complete,
        Some(other) => StopReason::Other(other.to_string()),
    };
    let text = choice.message.and_then(|m| m.content).unwrap_or_default();
    finish(text, usage, stop, request.max_tokens)
}
