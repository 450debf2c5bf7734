//! The conformance tier: checks against `../shared` (the real-BPMN corpus with bpmn-moddle's outlines,
//! the real form-js library, a real OpenBao, a real llama.cpp server). Every test here is `#[ignore]`d
//! so that `cargo test` stays self-contained; `bash .ci/conformance` runs them with `--ignored` after
//! preparing the tools, and each one fails loudly when `../shared` is missing.

#[path = "common/paths.rs"]
mod paths;

#[path = "common/shared.rs"]
mod shared;

/// The helpers the conformance tests share with the integration tests.
mod common {
    pub use crate::paths::{bpmn_files, fixtures};
    pub use crate::shared::shared;
}

#[path = "common/moddle.rs"]
mod moddle;

#[path = "common/served.rs"]
mod served;

#[path = "common/process.rs"]
mod process;

#[path = "conformance/ci_formats.rs"]
mod ci_formats;

#[path = "conformance/core_agrees.rs"]
mod core_agrees;

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

#[path = "conformance/dmn.rs"]
mod dmn;

#[path = "conformance/project.rs"]
mod project;

#[path = "conformance/eval.rs"]
mod eval;

#[path = "conformance/variables.rs"]
mod variables;

#[path = "conformance/eval_local.rs"]
mod eval_local;

#[path = "conformance/check.rs"]
mod check;

#[path = "conformance/patterns_v8.rs"]
mod patterns_v8;
