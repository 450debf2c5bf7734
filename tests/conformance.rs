//! The conformance tier: checks against `../shared` (the real-BPMN corpus with bpmn-moddle's outlines,
//! the real form-js library, a real OpenBao, a real llama.cpp server). Every test here is `#[ignore]`d
//! so that `cargo test` stays self-contained; `bash .ci/conformance` runs them with `--ignored` after
//! preparing the tools, and each one fails loudly when `../shared` is missing.

mod common;

#[path = "conformance/corpus.rs"]
mod corpus;

#[path = "conformance/formjs.rs"]
mod formjs;

#[path = "conformance/forms.rs"]
mod forms;

#[path = "conformance/vault.rs"]
mod vault;

#[path = "conformance/local_llm.rs"]
mod local_llm;

#[path = "conformance/builtin.rs"]
mod builtin;

#[path = "conformance/e2e.rs"]
mod e2e;
