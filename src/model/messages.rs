//! Anthropic's Messages API: `POST {endpoint}/v1/messages` with `x-api-key` and `anthropic-version`.
//!
//! Structured output, when the Worker enables it, is a forced tool whose `input_schema` is the answer
//! schema: the model must "call" `submit_form` and its input is the form.

use reqwest::header::{HeaderMap, HeaderValue};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::wire::{finish, join, parse, post_json, secret_header};
use super::{Bounds, ModelAnswer, ModelError, ModelRequest, StopReason, Usage};

/// The API version formgen speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// The forced tool's name.
pub const TOOL_NAME: &str = "submit_form";

#[derive(Serialize)]
struct Request<'a> {
    model: &'a str,
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f32>,
    #[serde(skip_serializing_if = "str::is_empty")]
    system: &'a str,
    messages: [Message<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    tools: Option<[Tool<'a>; 1]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_choice: Option<ToolChoice>,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

#[derive(Serialize)]
struct Tool<'a> {
    name: &'static str,
    description: &'static str,
    input_schema: &'a Value,
}

#[derive(Serialize)]
struct ToolChoice {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'static str,
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    content: Vec<Block>,
    stop_reason: Option<String>,
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        input: Value,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}

pub async fn call(
    client: &reqwest::Client,
    endpoint: &reqwest::Url,
    key: Option<&SecretString>,
    request: &ModelRequest,
    structured: bool,
    bounds: Bounds,
) -> Result<ModelAnswer, ModelError> {
    let schema = request.json_schema.as_deref().filter(|_| structured);
    let body = Request {
        model: &request.model,
        max_tokens: request.max_tokens,
        temperature: request.temperature,
        system: &request.system,
        messages: [Message { role: "user", content: &request.user }],
        tools: schema.map(|s| {
            [Tool { name: TOOL_NAME, description: "Submit the complete form-js form.", input_schema: s }]
        }),
        tool_choice: schema.map(|_| ToolChoice { kind: "tool", name: TOOL_NAME }),
    };
    let mut headers = HeaderMap::new();
    headers.insert("anthropic-version", HeaderValue::from_static(ANTHROPIC_VERSION));
    if let Some(key) = key {
        headers.insert("x-api-key", secret_header("", key)?);
    }
    let (status, bytes) = post_json(client, &join(endpoint, "v1/messages"), headers, &body, bounds).await?;
    let response: Response = parse(status, &bytes)?;
    let usage = response
        .usage
        .map(|u| Usage { input_tokens: u.input_tokens, output_tokens: u.output_tokens })
        .unwrap_or_default();
    let stop = match response.stop_reason.as_deref() {
        Some("max_tokens") => StopReason::MaxTokens,
        None | Some("end_turn" | "stop_sequence" | "tool_use") => StopReason::Complete,
        Some(other) => StopReason::Other(other.to_string()),
    };
    let tool_input = response.content.iter().find_map(|b| match b {
        Block::ToolUse { input } => Some(input.to_string()),
        _ => None,
    });
    let text = match tool_input {
        Some(input) => input,
        None => response
            .content
            .iter()
            .filter_map(|b| match b {
                Block::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(""),
    };
    finish(text, usage, stop, request.max_tokens)
}
