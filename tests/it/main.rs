//! The integration tests, as one test binary (as ripgrep keeps them): one link instead of one per
//! file. Each module tests one part through the public API, the router or the `formgen` binary; they
//! need only the project's own `fixtures/`. The conformance tier (`tests/conformance.rs`) is separate.

#[path = "../common/mod.rs"]
mod common;

mod binding_paths;
mod bounds;
mod builtin;
mod check_formats;
mod cli;
mod contract_check;
mod control_chars;
mod credentials_stay;
mod dataflow;
mod describe;
mod error_table;
mod eval;
mod examples;
mod findings_api;
mod first_use;
mod first_use_http;
mod gate_properties;
mod gate_vectors;
mod host_check;
mod hostile_files;
mod http2;
mod http_auth;
mod http_capability;
mod http_common;
mod http_errors;
mod http_generate;
mod http_generate_model;
mod http_operations;
mod http_outline;
mod http_validate;
mod model_adapters;
mod nesting;
mod never_refused;
mod operator_mistakes;
mod picture;
mod picture_rules;
mod process_findings;
mod reader;
mod secrets;
mod serve;
mod slow_clients;
mod starting_point;
mod streaming;
mod visibility;
