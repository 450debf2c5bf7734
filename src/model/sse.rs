//! Server-Sent Events from a model endpoint, read as they arrive and bounded.
//!
//! Both wire formats stream as SSE (`event:` and `data:` lines, a blank line ends an event). This
//! reads a streaming response's body chunk by chunk and hands out whole events; the bounds are the
//! call's: the raw bytes read ([`RAW_FACTOR`] × the answer-size cap, since every few characters of
//! answer come wrapped in a JSON event), one line at most the answer-size cap, and the answer text
//! itself at most the cap ([`Answer`]). The call's timeout is `model::call`'s, around all of it.
//!
//! This file knows SSE framing; what an event means is the wire format's.

use super::{Bounds, ModelError};

/// How many raw bytes per byte of answer a stream may spend on framing before it is refused.
pub const RAW_FACTOR: usize = 16;

/// One event: its name (`event:`, empty when none) and its data lines joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The `event:` field.
    pub name: String,
    /// The `data:` lines, joined with newlines.
    pub data: String,
}

/// The events of a streaming response.
pub struct Events {
    response: reqwest::Response,
    bounds: Bounds,
    buffer: Vec<u8>,
    raw: usize,
    name: String,
    data: Vec<String>,
    ended: bool,
}

impl Events {
    /// Reads the events of `response`, within `bounds`.
    pub fn new(response: reqwest::Response, bounds: Bounds) -> Events {
        Events {
            response,
            bounds,
            buffer: Vec::new(),
            raw: 0,
            name: String::new(),
            data: Vec::new(),
            ended: false,
        }
    }

    /// The next whole event; `None` when the body ended (an event cut off by the end is dropped: the
    /// wire format sees that its closing event never came).
    pub async fn next(&mut self) -> Result<Option<Event>, ModelError> {
        loop {
            while let Some(end) = memchr::memchr(b'\n', &self.buffer) {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                if let Some(event) = self.line(&line[..end]) {
                    return Ok(Some(event));
                }
            }
            if self.buffer.len() > self.bounds.answer_bytes {
                return Err(ModelError::TooLarge { limit: self.bounds.answer_bytes });
            }
            if self.ended {
                return Ok(None);
            }
            match self.response.chunk().await {
                Ok(Some(chunk)) => {
                    self.raw += chunk.len();
                    if self.raw > self.bounds.answer_bytes.saturating_mul(RAW_FACTOR) {
                        return Err(ModelError::TooLarge { limit: self.bounds.answer_bytes });
                    }
                    self.buffer.extend_from_slice(&chunk);
                }
                Ok(None) => self.ended = true,
                Err(e) if e.is_timeout() => {
                    return Err(ModelError::Timeout { after_s: self.bounds.timeout.as_secs() });
                }
                Err(e) => {
                    return Err(ModelError::Unreachable {
                        endpoint: super::reach::host_port(self.response.url().as_str()),
                        cause: super::reach::cause(&e),
                    });
                }
            }
        }
    }

    /// One line (without its `\n`); a blank line dispatches the event gathered so far.
    fn line(&mut self, line: &[u8]) -> Option<Event> {
        let line = String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line));
        if line.is_empty() {
            let name = std::mem::take(&mut self.name);
            if self.data.is_empty() {
                return None;
            }
            let data = std::mem::take(&mut self.data).join("\n");
            return Some(Event { name, data });
        }
        let (field, value) = line.split_once(':').unwrap_or((&line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.name = value.to_string(),
            "data" => self.data.push(value.to_string()),
            _ => {} // comments (`: ping`), `id:`, `retry:`
        }
        None
    }
}

/// The answer text a stream has written so far, held to the answer-size cap.
#[derive(Debug, Default)]
pub struct Answer {
    /// The text.
    pub text: String,
}

impl Answer {
    /// Adds a piece, or refuses it past the cap.
    pub fn push(&mut self, piece: &str, bounds: Bounds) -> Result<(), ModelError> {
        if self.text.len() + piece.len() > bounds.answer_bytes {
            return Err(ModelError::TooLarge { limit: bounds.answer_bytes });
        }
        self.text.push_str(piece);
        Ok(())
    }
}

/// The error for a stream that ended before its closing event.
pub fn cut(url: &str) -> ModelError {
    ModelError::Unreachable { endpoint: super::reach::host_port(url), cause: super::reach::Cause::Closed }
}
