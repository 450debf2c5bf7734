//! formgen writes the first draft of a form for a BPMN process.
//!
//! An author in a process modeller presses "generate form"; formgen reads the process leniently
//! ([`bpmn`]), asks the language model the operator configured, and returns a form-js schema whose keys
//! already match the process's own variables, as an unsaved proposal that passed the same gate a
//! hand-written form does.
//!
//! The modules, in the order a request runs through them (ARCHITECTURE.md has the layers):
//!
//! ```text
//! request -> principal -> Worker -> process source (+ project) -> bpmn reader -> data flow
//!         -> prompt | draft -> credential -> model -> gate -> response
//! ```
//!
//! - [`config`]: `formgen.toml`, checked whole at start, with environment overrides; [`limits`]: every
//!   resource ceiling, in one struct.
//! - [`http`]: the axum router, thin handlers, errors mapped to statuses in one table, the server.
//! - [`auth`]: who is asking, and what a Worker allows.
//! - [`service`]: one function per API call, shared by HTTP and CLI; it orchestrates the stages below
//!   and owns admission and the error codes; [`metrics`] counts it.
//! - [`workers`]: the operator's records of models, and who may use which.
//! - [`sources`]: which process and step a request is about: the request's BPMN, a draft, or the
//!   deployment, resolved once; [`project`]: the forms and decisions around a process, from a folder or
//!   a request, with [`dmn`], the lenient DMN reader.
//! - [`bpmn`]: the lenient reader, conditions and `describe`; [`outline`]: the reader's answer as the
//!   `outline` call shows it.
//! - [`flow`]: the process's data flow: what each element reads and writes (FEEL and JUEL read), the
//!   step's data picture and its contract.
//! - [`prompt`]: the templates in `prompts/`, the text built from them, the answer schema.
//! - [`draft`]: the builtin drafter, which writes a form from the process with no model.
//! - [`credentials`], [`vault`]: API keys resolved just in time, only ever in `SecretString`; [`redact`]:
//!   those secrets taken out of whatever comes back.
//! - [`model`]: the provider-neutral model call and its two wire formats.
//! - [`gate`]: the schema gate every form passes, generated or hand-written, and the form's id;
//!   [`check`]: the contract check, which tells whether a form works with its process.
//! - [`formjs`]: what form-js knows: component types, their classes, binding paths.
//! - [`eval`]: how close a Worker's forms come to the ones authors wrote (`formgen eval`).
//! - [`files`]: opening files whose paths others control (regular files only, never blocking).
//! - [`words`]: identifiers as words and sentences, how close a name is to another, and what asks for
//!   a secret; shared by the gate, the drafter, the check and the errors.

pub mod auth;
pub mod bpmn;
pub mod config;
pub mod credentials;
pub mod dmn;
pub mod eval;
pub mod files;
pub mod http;
pub mod metrics;
pub mod model;
pub mod project;
pub mod prompt;
pub mod redact;
pub mod service;
pub mod sources;
pub mod vault;
pub mod workers;

pub use formgen_core::{Limits, check, draft, flow, formjs, gate, limits, outline, report, words};
