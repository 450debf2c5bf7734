//! formgen writes the first draft of a form for a BPMN process.
//!
//! An author in a process modeller presses "generate form"; formgen reads the process leniently
//! ([`bpmn`]), asks the language model the operator configured, and returns a form-js schema whose keys
//! already match the process's own variables, as an unsaved proposal that passed the same gate a
//! hand-written form does.
//!
//! The modules follow the flow of a request (see DESIGN.md):
//!
//! ```text
//! request -> principal -> process source -> bpmn reader -> prompt -> worker + vault -> model -> gate
//! ```
//!
//! - [`limits`]: every resource ceiling, in one struct.
//! - [`bpmn`]: the lenient reader, the outline, conditions and `describe`.
//! - [`flow`]: the data flow: what each element reads and writes.
//! - [`config`]: `formgen.toml`, checked whole at start, with environment overrides.
//! - [`workers`]: the operator's records of models, and who may use which.
//! - [`credentials`], [`vault`]: API keys resolved just in time, only ever in `SecretString`.
//! - [`model`]: the provider-neutral model call, its two wire formats and the builtin drafter.
//! - [`gate`]: the schema gate every form passes, generated or hand-written.
//! - [`words`]: identifiers as words, shared by the gate and the drafter.
//! - [`sources`]: the process a form belongs to: the request's BPMN, a draft, or the deployment.
//! - [`prompt`]: the templates in `prompts/` and the answer schema.
//! - [`auth`]: who is asking.
//! - [`service`]: one function per API call, shared by HTTP and CLI; [`metrics`] counts them.
//! - [`http`]: the axum router, thin handlers, errors mapped to statuses in one place.
//! - [`cli`]: the `formgen` command line.

pub mod auth;
pub mod bpmn;
pub mod cli;
pub mod config;
pub mod credentials;
pub mod flow;
pub mod gate;
pub mod http;
pub mod limits;
pub mod metrics;
pub mod model;
pub mod prompt;
pub mod service;
pub mod sources;
pub mod vault;
pub mod words;
pub mod workers;

pub use limits::Limits;
