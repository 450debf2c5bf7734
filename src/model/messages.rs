//! Anthropic's Messages API: `POST {endpoint}/v1/messages` with `x-api-key` and `anthropic-version`.
//!
//! Structured output, when the Worker enables it, is a forced tool whose `input_schema` is the answer
//! schema: the model must "call" `submit_form` and its input is the form.
//!
//! Streamed (`stream: true`), the answer comes as `content_block_delta` events (`text_delta`, or
//! `input_json_delta` pieces of the tool's input, which then are the answer), `message_start` and
//! `message_delta` with usage and the stop reason, and `message_stop`; an `error` event is the
//! provider breaking off.

use reqwest::header::{HeaderMap, HeaderValue};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sse::{self, Answer, Events};
use super::wire::{Answered, error_kind_of, finish, join, parse, post_for_stream, post_json, secret_header};
use super::{Bounds, Delta, ModelAnswer, ModelError, ModelRequest, Sink, StopReason, Usage};

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
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    stream: bool,
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
    sink: Option<Sink<'_>>,
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
        stream: sink.is_some(),
    };
    let mut headers = HeaderMap::new();
    headers.insert("anthropic-version", HeaderValue::from_static(ANTHROPIC_VERSION));
    if let Some(key) = key {
        headers.insert("x-api-key", secret_header("", key)?);
    }
    let url = join(endpoint, "v1/messages");
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
        .map(|u| Usage { input_tokens: u.input_tokens, output_tokens: u.output_tokens })
        .unwrap_or_default();
    let stop = stop_reason(response.stop_reason.as_deref());
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

fn stop_reason(reason: Option<&str>) -> StopReason {
    match reason {
        Some("max_tokens") => StopReason::MaxTokens,
        None | Some("end_turn" | "stop_sequence" | "tool_use") => StopReason::Complete,
        Some(other) => StopReason::Other(other.to_string()),
    }
}

/// One streamed event's data (only the parts formgen reads).
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StreamEvent {
    MessageStart {
        message: StartMessage,
    },
    ContentBlockStart {
        content_block: StartBlock,
    },
    ContentBlockDelta {
        delta: BlockDelta,
    },
    MessageDelta {
        delta: MessageDeltaBody,
        usage: Option<DeltaUsage>,
    },
    MessageStop,
    Error {
        error: Value,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct StartMessage {
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct StartBlock {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum BlockDelta {
    TextDelta {
        text: String,
    },
    InputJsonDelta {
        partial_json: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct MessageDeltaBody {
    stop_reason: Option<String>,
}

#[derive(Deserialize)]
struct DeltaUsage {
    #[serde(default)]
    output_tokens: u64,
}

/// Reads a streamed answer: text and tool-input pieces into the sink (a tool's input, once it
/// starts, is the answer), usage as reported, until `message_stop`.
async fn streamed(
    mut events: Events,
    url: &str,
    sink: Sink<'_>,
    max_tokens: u32,
    bounds: Bounds,
) -> Result<ModelAnswer, ModelError> {
    let (mut text, mut tool) = (Answer::default(), Answer::default());
    let mut in_tool = false;
    let mut usage = Usage::default();
    let mut stop = None;
    let mut done = false;
    while let Some(event) = events.next().await? {
        let parsed: StreamEvent = serde_json::from_str(&event.data).map_err(|_| ModelError::Unreadable {
            status: 200,
            raw: super::wire::shorten(event.data.as_bytes()),
        })?;
        match parsed {
            StreamEvent::MessageStart { message } => {
                if let Some(u) = message.usage {
                    usage = Usage { input_tokens: u.input_tokens, output_tokens: u.output_tokens };
                    sink(Delta::Usage(usage));
                }
            }
            StreamEvent::ContentBlockStart { content_block } => {
                if content_block.kind == "tool_use" && !in_tool {
                    in_tool = true;
                    sink(Delta::Restart);
                }
            }
            StreamEvent::ContentBlockDelta { delta: BlockDelta::TextDelta { text: piece } } => {
                text.push(&piece, bounds)?;
                if !in_tool {
                    sink(Delta::Text(&piece));
                }
            }
            StreamEvent::ContentBlockDelta { delta: BlockDelta::InputJsonDelta { partial_json } } => {
                tool.push(&partial_json, bounds)?;
                sink(Delta::Text(&partial_json));
            }
            StreamEvent::ContentBlockDelta { delta: BlockDelta::Other } => {}
            StreamEvent::MessageDelta { delta, usage: delta_usage } => {
                stop = delta.stop_reason.or(stop);
                if let Some(u) = delta_usage {
                    usage.output_tokens = u.output_tokens;
                    sink(Delta::Usage(usage));
                }
            }
            StreamEvent::MessageStop => {
                done = true;
                break;
            }
            StreamEvent::Error { error } => {
                let body = serde_json::json!({ "error": error });
                return Err(ModelError::Interrupted { kind: error_kind_of(&body) });
            }
            StreamEvent::Other => {}
        }
    }
    if !done {
        return Err(sse::cut(url));
    }
    let answer = if in_tool { tool.text } else { text.text };
    finish(answer, usage, stop_reason(stop.as_deref()), max_tokens)
}
