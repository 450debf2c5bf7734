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
//! - [`cli`]: the `formgen` command line.

pub mod bpmn;
pub mod cli;
pub mod limits;

pub use limits::Limits;
