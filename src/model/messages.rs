//! Anthropic's Messages API: `POST {endpoint}/v1/messages` with `x-api-key` and `anthropic-version`.
//!
//! Structured output, when the Worker enables it, is a forced tool whose `input_schema` is the answer
//! schema: the model must "call" `submit_form` and its input is the form.
//!
//! Streamed (`stream: true`), the answer comes as `content_block_delta` events (`text_delta`, or
//! `input_json_delta` pieces of the tool's input, which then are the answer), `message_start` and
//! `message_delta` with usage and the stop reason, and `message_stop`; an `error` event is the
//! provider breaking off.
//!
//! This file knows the format's wire structs and what its events mean; posting, bounds, failures and
//! the checks every answer goes through are [`super::wire`]'s.

use reqwest::header::{HeaderMap, HeaderValue};
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::sse::Event;
use super::wire::{Format, Next, Streamed, interrupted, parse, parse_event, secret_header};
use super::{ModelAnswer, ModelError, ModelRequest, StopReason, Usage};

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
    content: std::borrow::Cow<'a, str>,
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

/// The Messages wire format.
pub struct Messages;

impl Format for Messages {
    const PATH: &'static str = "v1/messages";

    fn body(request: &ModelRequest, structured: bool, stream: bool) -> impl Serialize + Send + Sync {
        let schema = request.json_schema.as_deref().filter(|_| structured);
        Request {
            model: &request.model,
            max_tokens: request.max_tokens,
            temperature: request.temperature,
            system: &request.system,
            messages: [Message { role: "user", content: request.user.text().into() }],
            tools: schema.map(|s| {
                [Tool { name: TOOL_NAME, description: "Submit the complete form-js form.", input_schema: s }]
            }),
            tool_choice: schema.map(|_| ToolChoice { kind: "tool", name: TOOL_NAME }),
            stream,
        }
    }

    fn headers(key: Option<&SecretString>) -> Result<HeaderMap, ModelError> {
        let mut headers = HeaderMap::new();
        headers.insert("anthropic-version", HeaderValue::from_static(ANTHROPIC_VERSION));
        if let Some(key) = key {
            headers.insert("x-api-key", secret_header("", key)?);
        }
        Ok(headers)
    }

    /// The tool's input when the model called it, else its text blocks joined.
    fn answer(status: u16, body: &[u8]) -> Result<ModelAnswer, ModelError> {
        let response: Response = parse(status, body)?;
        let usage = response.usage.map(Usage::from).unwrap_or_default();
        let stop = Self::stop_reason(response.stop_reason.as_deref());
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
        Ok(ModelAnswer { text, usage, stop })
    }

    /// One event: text and tool-input pieces (a tool's input, once its block starts, is the answer),
    /// usage and the stop reason as reported; `message_stop` closes the stream.
    fn event(event: &Event, stream: &mut Streamed<'_>) -> Result<Next, ModelError> {
        match parse_event(&event.data)? {
            StreamEvent::MessageStart { message } => {
                if let Some(u) = message.usage {
                    stream.usage(|usage| *usage = u.into());
                }
            }
            StreamEvent::ContentBlockStart { content_block } => {
                if content_block.kind == "tool_use" {
                    stream.tool_starts();
                }
            }
            StreamEvent::ContentBlockDelta { delta: BlockDelta::TextDelta { text } } => {
                stream.prose(&text)?;
            }
            StreamEvent::ContentBlockDelta { delta: BlockDelta::InputJsonDelta { partial_json } } => {
                stream.tool_input(&partial_json)?;
            }
            StreamEvent::MessageDelta { delta, usage } => {
                stream.stop(delta.stop_reason);
                // the delta's usage counts the tokens written; those read came with `message_start`
                if let Some(u) = usage {
                    stream.usage(|usage| usage.output_tokens = u.output_tokens);
                }
            }
            StreamEvent::MessageStop => return Ok(Next::Closed),
            StreamEvent::Error { error } => return Err(interrupted(&error)),
            StreamEvent::ContentBlockDelta { delta: BlockDelta::Other } | StreamEvent::Other => {}
        }
        Ok(Next::More)
    }

    fn stop_reason(reason: Option<&str>) -> StopReason {
        match reason {
            Some("max_tokens") => StopReason::MaxTokens,
            None | Some("end_turn" | "stop_sequence" | "tool_use") => StopReason::Complete,
            Some(other) => StopReason::Other(other.to_string()),
        }
    }

    /// Only `message_stop` says the answer is complete.
    fn whole_without_close(_stop: Option<&str>) -> bool {
        false
    }
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Usage {
        Usage { input_tokens: u.input_tokens, output_tokens: u.output_tokens }
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
