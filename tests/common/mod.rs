//! Helpers of the integration tests (`tests/it`). The conformance tier takes the few it needs
//! (`paths`, `moddle`, `served`) by path, so no helper goes unused in either binary.

pub mod drafts;
pub mod logs;
pub mod moddle;
mod paths;
pub mod process;
pub mod raw_server;
pub mod served;
pub mod synthetic;
pub mod tls_double;
pub mod wait;

pub use paths::{bpmn_files, fixtures};
