//! The installation's resource ceilings, in one place.
//!
//! Every stage that takes data in (the HTTP body, a BPMN file, a model's answer, the prompt it is sent)
//! checks its ceiling *where the data enters*, against this one struct. Defaults are chosen so that the
//! embedded default works on a laptop; operators override them in `formgen.toml` (`[limits]`) and then in
//! the environment (`FORMGEN_LIMIT_<FIELD>`, e.g. `FORMGEN_LIMIT_BPMN_BYTES=20000000`), the environment
//! winning because that is where container platforms put per-deployment tuning.
//!
//! This module knows nothing about where a limit is enforced; it only says what the numbers are.

use serde::{Deserialize, Serialize};

/// Resource ceilings. Field names are the `[limits]` keys in `formgen.toml` and, upper-cased, the
/// suffixes of the `FORMGEN_LIMIT_*` environment variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Largest HTTP request body accepted, in bytes.
    pub request_body_bytes: usize,
    /// Longest author description, in characters.
    pub description_chars: usize,
    /// Largest BPMN document read, in bytes (inline `processXml`, files in the process store, CLI files).
    pub bpmn_bytes: usize,
    /// Largest form schema accepted (a refinement's current form, `validate`, `formgen check`), in bytes.
    pub schema_bytes: usize,
    /// Largest model answer read from the wire, in bytes; the rest is never downloaded.
    pub answer_bytes: usize,
    /// Character budget of the process description put into a prompt.
    pub prompt_chars: usize,
    /// Output tokens a model may spend on one answer.
    pub output_tokens: u32,
    /// Seconds a model call may take, unless a Worker sets a shorter `timeout_s`.
    pub model_timeout_s: u64,
    /// Generations in flight across the whole service.
    pub concurrent_generations: usize,
    /// Generations in flight per Worker.
    pub concurrent_per_worker: usize,
    /// Seconds a client has to send a whole request head, counted from when the connection opens or
    /// its previous answer was sent; then the connection is closed.
    pub header_read_timeout_s: u64,
    /// Seconds a client has to send a whole request body: the body limit in time, as
    /// `request_body_bytes` is in bytes.
    pub body_read_timeout_s: u64,
    /// Seconds a kept-alive connection may wait for its next request before it is closed.
    pub idle_timeout_s: u64,
    /// Connections open at once; a connection over the cap is closed as it arrives.
    pub max_connections: usize,
    /// Connections one peer (one IP address) may have open at once, its share of `max_connections`;
    /// one more is closed as it arrives. Behind a reverse proxy every connection comes from the
    /// proxy's address: raise it to `max_connections` there.
    pub connections_per_peer: usize,
    /// Seconds an answer may wait for its peer to take any of its bytes (a client that sends requests
    /// but never reads the answers); then the connection is closed.
    pub write_timeout_s: u64,
    /// Request-body bytes being read (and held by their requests) at once, across all connections;
    /// a request waits for room, up to `body_read_timeout_s`.
    pub bodies_in_flight_bytes: usize,
    /// Longest `model` override, in characters.
    pub model_chars: usize,
    /// Longest `formId`, in characters.
    pub form_id_chars: usize,
    /// Longest `worker` name, in characters.
    pub worker_chars: usize,
    /// Longest `elementId`, in characters.
    pub element_id_chars: usize,
    /// Longest `processId`, in characters.
    pub process_id_chars: usize,
    /// Seconds the gate may work on one hand-written form (`validate`) before it stops.
    pub gate_seconds: u64,
    /// Seconds reading and outlining one request's process (and its project), and drafting or
    /// building the prompt from them, may take before the request is answered 503 (`process_timeout`).
    pub process_seconds: u64,
    /// Forms and decision files of a process's project (a request's `forms` + `decisions`, or a folder).
    pub project_files: usize,
    /// Bytes of a project's forms and decisions together.
    pub project_bytes: usize,
    /// Bytes of any one form or decision file of a project.
    pub project_file_bytes: usize,
    /// Seconds reading one file of the process store or the project folder (or a `file:` credential,
    /// or a file the CLI is given) may take; a file that takes longer is skipped as unreadable, and a
    /// request waits no longer than this for the store.
    pub file_read_timeout_s: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            request_body_bytes: 12 * 1024 * 1024,
            description_chars: 8_000,
            bpmn_bytes: 10 * 1024 * 1024,
            schema_bytes: 1024 * 1024,
            answer_bytes: 1024 * 1024,
            prompt_chars: 48_000,
            output_tokens: 8_192,
            model_timeout_s: 120,
            concurrent_generations: 64,
            concurrent_per_worker: 16,
            header_read_timeout_s: 10,
            body_read_timeout_s: 30,
            idle_timeout_s: 5,
            max_connections: 1024,
            connections_per_peer: 256,
            write_timeout_s: 10,
            bodies_in_flight_bytes: 64 * 1024 * 1024,
            model_chars: 128,
            form_id_chars: 255,
            worker_chars: 128,
            element_id_chars: 255,
            process_id_chars: 255,
            gate_seconds: 10,
            process_seconds: 10,
            project_files: 200,
            project_bytes: 16 * 1024 * 1024,
            project_file_bytes: 2 * 1024 * 1024,
            file_read_timeout_s: 10,
        }
    }
}

/// One `FORMGEN_LIMIT_*` variable that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{var}={value:?} is not a whole number; leave it unset or give e.g. {var}={example}")]
pub struct LimitEnvError {
    /// The variable's name.
    pub var: String,
    /// What it held (limits are not secrets).
    pub value: String,
    /// The current value, as an example of the expected form.
    pub example: String,
}

macro_rules! limit_fields {
    ($m:ident) => {
        $m!(request_body_bytes, "REQUEST_BODY_BYTES");
        $m!(description_chars, "DESCRIPTION_CHARS");
        $m!(bpmn_bytes, "BPMN_BYTES");
        $m!(schema_bytes, "SCHEMA_BYTES");
        $m!(answer_bytes, "ANSWER_BYTES");
        $m!(prompt_chars, "PROMPT_CHARS");
        $m!(output_tokens, "OUTPUT_TOKENS");
        $m!(model_timeout_s, "MODEL_TIMEOUT_S");
        $m!(concurrent_generations, "CONCURRENT_GENERATIONS");
        $m!(concurrent_per_worker, "CONCURRENT_PER_WORKER");
        $m!(header_read_timeout_s, "HEADER_READ_TIMEOUT_S");
        $m!(body_read_timeout_s, "BODY_READ_TIMEOUT_S");
        $m!(idle_timeout_s, "IDLE_TIMEOUT_S");
        $m!(max_connections, "MAX_CONNECTIONS");
        $m!(connections_per_peer, "CONNECTIONS_PER_PEER");
        $m!(write_timeout_s, "WRITE_TIMEOUT_S");
        $m!(bodies_in_flight_bytes, "BODIES_IN_FLIGHT_BYTES");
        $m!(model_chars, "MODEL_CHARS");
        $m!(form_id_chars, "FORM_ID_CHARS");
        $m!(worker_chars, "WORKER_CHARS");
        $m!(element_id_chars, "ELEMENT_ID_CHARS");
        $m!(process_id_chars, "PROCESS_ID_CHARS");
        $m!(gate_seconds, "GATE_SECONDS");
        $m!(process_seconds, "PROCESS_SECONDS");
        $m!(project_files, "PROJECT_FILES");
        $m!(project_bytes, "PROJECT_BYTES");
        $m!(project_file_bytes, "PROJECT_FILE_BYTES");
        $m!(file_read_timeout_s, "FILE_READ_TIMEOUT_S");
    };
}

impl Limits {
    /// Applies `FORMGEN_LIMIT_*` overrides read through `lookup` (the process environment in production,
    /// a map in tests). Returns every variable that did not parse, all at once.
    pub fn apply_env(&mut self, lookup: impl Fn(&str) -> Option<String>) -> Vec<LimitEnvError> {
        let mut problems = Vec::new();
        macro_rules! apply {
            ($field:ident, $suffix:literal) => {
                let var = concat!("FORMGEN_LIMIT_", $suffix);
                if let Some(value) = lookup(var) {
                    match value.trim().replace('_', "").parse() {
                        Ok(v) => self.$field = v,
                        Err(_) => problems.push(LimitEnvError {
                            var: var.to_string(),
                            value,
                            example: self.$field.to_string(),
                        }),
                    }
                }
            };
        }
        limit_fields!(apply);
        problems
    }

    /// Names of the limits that are zero, which would refuse every request.
    pub fn zero_fields(&self) -> Vec<&'static str> {
        let mut zero = Vec::new();
        macro_rules! check {
            ($field:ident, $suffix:literal) => {
                if self.$field == 0 {
                    zero.push(stringify!($field));
                }
            };
        }
        limit_fields!(check);
        zero
    }

    /// The time one read of a file may take.
    pub fn file_read_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.file_read_timeout_s.max(1))
    }

    /// The model call timeout for a Worker that asks for `worker_timeout_s` (0 = no own timeout).
    pub fn model_timeout(&self, worker_timeout_s: u64) -> std::time::Duration {
        let s = match worker_timeout_s {
            0 => self.model_timeout_s,
            w => w.min(self.model_timeout_s),
        };
        std::time::Duration::from_secs(s.max(1))
    }
}

/// How deep the readers follow nesting. These are not settings: each is a depth the reader's recursion
/// (or its explicit stack) reaches with room to spare on a 2 MiB thread stack in a debug build (tokio's
/// worker and blocking threads and Rust's test threads have 2 MiB; `tests/it/nesting.rs` runs the
/// deepest input each reader accepts on a quarter of that), and far deeper than anything real: the
/// corpora's conditions nest brackets 4 deep, their forms nest groups 3 deep, their XML 14 elements
/// deep. Past its bound a reader answers leniently (the part unread, with a warning where there is a
/// place for one) or, for the gate, with a refusal sentence; it never overflows its stack.
pub mod nesting {
    /// Brackets and `not`s nested in one expression: the condition reader (`bpmn::read_condition`)
    /// leaves a condition nested deeper unread; the FEEL reader reads brackets deeper than this as if
    /// they were not there.
    pub const EXPRESSION: usize = 64;
    /// Groups and dynamic lists nested in one form: the gate refuses a form nested deeper; the other
    /// walks over a form's components (a project's forms, a refinement's diff, the forms embedded in a
    /// process) do not descend further.
    pub const FORM: usize = 32;
    /// Elements nested in one BPMN or DMN document: deeper subtrees are skipped whole.
    pub const XML: usize = 512;
    /// JSON arrays and objects nested in one document: serde_json's own recursion limit, which every
    /// JSON text formgen parses (request bodies, model answers, forms, vault answers) is read with;
    /// deeper JSON does not parse. Walks over a parsed value may rely on it.
    pub const JSON: usize = 128;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_overrides_and_reports_bad_values() {
        let mut limits = Limits::default();
        let problems = limits.apply_env(|name| match name {
            "FORMGEN_LIMIT_BPMN_BYTES" => Some("20_000_000".into()),
            "FORMGEN_LIMIT_PROMPT_CHARS" => Some("lots".into()),
            _ => None,
        });
        assert_eq!(limits.bpmn_bytes, 20_000_000);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].var, "FORMGEN_LIMIT_PROMPT_CHARS");
        assert!(problems[0].to_string().contains("is not a whole number"));
    }

    #[test]
    fn worker_timeout_never_exceeds_the_installation() {
        let limits = Limits { model_timeout_s: 60, ..Limits::default() };
        assert_eq!(limits.model_timeout(0).as_secs(), 60);
        assert_eq!(limits.model_timeout(10).as_secs(), 10);
        assert_eq!(limits.model_timeout(600).as_secs(), 60);
    }
}
