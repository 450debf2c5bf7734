//! formgen's core: everything that needs no file system, network, async runtime or clock.
//!
//! It reads a process ([`bpmn`]) and its project ([`project`], given as files in memory, with
//! [`dmn`]), works out the data flow ([`flow`]): what each element reads and writes, the step's data
//! picture and its contract; drafts a form with the builtin drafter ([`draft`]); runs the schema gate
//! every form passes ([`gate`]) and the contract check that tells whether a form works with its
//! process ([`check`]); and renders the outline ([`outline`]). [`sources`] picks the process and step
//! a call is about. The service and the command line (the `formgen` crate) add files, models and HTTP
//! on top; the editors get the same code compiled to WebAssembly (`formgen-wasm`).
//!
//! The vocabularies are types parsed once at this edge: form-js's component types ([`formjs`]), BPMN's
//! element kinds ([`bpmn`]), the check's finding codes ([`check::Code`]) and the gate's rules
//! ([`gate::Rule`]). [`words`] holds identifiers as words, shared by the gate, the drafter and the
//! check; [`limits`] every resource ceiling, in one struct.

// The tests read their fixtures and time the gate's bounds; the code itself may not (clippy.toml).
#![cfg_attr(test, allow(clippy::disallowed_methods, clippy::disallowed_types))]

pub mod bpmn;
pub mod check;
pub mod dmn;
pub mod draft;
pub mod flow;
pub mod formjs;
pub mod gate;
pub mod html;
pub mod limits;
pub mod outline;
pub mod project;
pub mod report;
pub mod sources;
pub mod stop;
pub mod words;

pub use limits::Limits;
