//! Data leaving the form through the viewer.

use serde_json::{Map, Value};

use super::Report;

/// Checks what a component of type `kind` makes the viewer fetch.
pub fn check(_kind: &str, _c: &Map<String, Value>, _who: &str, _report: &mut Report) {}
