//! The schema gate: one set of rules for generated and hand-written forms.
//!
//! Whatever a model writes is a draft that must pass the same gate a hand-written form does; the gate
//! judges model answers (generation), `POST /api/formgen/validate` and `formgen check` alike.
//! [`schema_from`] takes a model's raw answer (bare JSON, fenced, chatty), finds the form in it,
//! normalises it to a form-js schema form-js 1.23 imports (type, stamped id, schemaVersion, exporter,
//! unique ids, keyed and labelled inputs) and applies the rules: no field may ask for a secret, every
//! key binds a path of its own, every constraint is one form-js enforces. Each refusal is a sentence an
//! author can act on that names the field by its label.
//!
//! The rules are pinned by the test vectors in `fixtures/gate/`, replayed by `tests/gate_vectors.rs`
//! and, for every accepted schema, by the real form-js library in the conformance tier.
//!
//! This module knows form-js and the process outline; it knows nothing of models, HTTP or storage.

mod catalogue;
mod constraints;
mod extract;
pub mod fit;
mod form_id;
mod normalise;
mod secrets;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::bpmn::Process;

pub use catalogue::{CONTAINERS, INPUTS, OPTION_FIELDS, PRESENTATIONAL};
pub use extract::Unreadable;
pub use form_id::choose as choose_form_id;
pub use normalise::Binding;
pub use secrets::secret_in;

/// The `schemaVersion` form-js 1.23's editor writes (`node check.mjs --info`).
pub const SCHEMA_VERSION: u64 = 19;

/// A form the gate accepted: the normalised schema and what the author should know about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Proposal {
    /// The normalised form-js schema.
    pub schema: Value,
    /// What was repaired or looks wrong but was accepted, one sentence each.
    pub warnings: Vec<String>,
    /// Keys (binding paths) that are variables of the process, in form order.
    pub bound: Vec<String>,
    /// Every keyed field and dynamic list, in form order.
    #[serde(skip)]
    pub bindings: Vec<Binding>,
}

/// Why the gate refused a form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GateError {
    /// No form could be found in the text.
    #[error("{0}")]
    Unreadable(#[from] Unreadable),
    /// A form was found, but it breaks rules; one sentence per problem.
    #[error("{}", .0.join(" "))]
    Refused(Vec<String>),
}

impl GateError {
    /// The refusal sentences: one per problem.
    pub fn problems(&self) -> Vec<String> {
        match self {
            GateError::Unreadable(u) => vec![crate::words::capitalise(&u.to_string()) + "."],
            GateError::Refused(p) => p.clone(),
        }
    }
}

/// Refusals and warnings collected while a form is walked.
#[derive(Debug, Default)]
pub struct Report {
    problems: Vec<String>,
    warnings: Vec<String>,
}

impl Report {
    /// Records a refusal.
    pub fn refuse(&mut self, sentence: String) {
        if !self.problems.contains(&sentence) {
            self.problems.push(sentence);
        }
    }

    /// Records a warning.
    pub fn warn(&mut self, sentence: String) {
        if !self.warnings.contains(&sentence) {
            self.warnings.push(sentence);
        }
    }
}

/// Runs the gate on a model's raw answer (or a saved `.form`'s text). `form_id` is the id the editor
/// holds the form under and is stamped into the result; `process`, when given, is checked for fit.
pub fn schema_from(
    answer: &str,
    form_id: Option<&str>,
    process: Option<&Process>,
) -> Result<Proposal, GateError> {
    let form = extract::form_in(answer)?;
    gate(form, form_id, process)
}

/// Runs the gate on an already parsed value (a JSON body's `schema`).
pub fn schema_from_value(
    value: Value,
    form_id: Option<&str>,
    process: Option<&Process>,
) -> Result<Proposal, GateError> {
    let form = extract::as_form(value)?;
    gate(form, form_id, process)
}

/// Root properties form-js passes through untouched.
const ROOT_PASSTHROUGH: &[&str] = &["executionPlatform", "executionPlatformVersion", "versionTag"];

fn gate(
    mut form: Map<String, Value>,
    form_id: Option<&str>,
    process: Option<&Process>,
) -> Result<Proposal, GateError> {
    let mut report = Report::default();
    match form.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "default" => {}
        Some(other) => report.warn(format!(
            "The form had the type {}; a form-js form's type is \"default\", so it is now that.",
            constraints_brief(other)
        )),
    }
    let id = form_id::stamp(&form, form_id, process, &mut report);
    let Some(Value::Array(mut components)) = form.remove("components") else {
        unreachable!("extract guarantees a components array")
    };
    let mut walker = normalise::Walker::new(&mut report, &id);
    walker.walk_root(&mut components);
    let bindings = std::mem::take(&mut walker.bindings);
    let bound = process.map(|p| fit_report(p, &bindings, &mut report)).unwrap_or_default();
    if !report.problems.is_empty() {
        return Err(GateError::Refused(report.problems));
    }
    let mut schema = Map::new();
    schema.insert("components".into(), Value::Array(components));
    schema.insert("type".into(), Value::String("default".into()));
    schema.insert("id".into(), Value::String(id));
    for key in ROOT_PASSTHROUGH {
        if let Some(v @ Value::String(_)) = form.get(*key) {
            schema.insert((*key).to_string(), v.clone());
        }
    }
    schema.insert(
        "exporter".into(),
        serde_json::json!({"name": "formgen", "version": env!("CARGO_PKG_VERSION")}),
    );
    schema.insert("schemaVersion".into(), Value::from(SCHEMA_VERSION));
    Ok(Proposal { schema: Value::Object(schema), warnings: report.warnings, bound, bindings })
}

/// Bound keys, and warnings for keys that bind nothing while a close variable exists.
fn fit_report(process: &Process, bindings: &[Binding], report: &mut Report) -> Vec<String> {
    let variables = process.variables();
    let mut bound = Vec::new();
    for b in bindings.iter().filter(|b| !b.in_list) {
        let head = b.path.split('.').next().unwrap_or(&b.path);
        if variables.contains(&b.path.as_str()) || variables.contains(&head) {
            if !bound.contains(&b.path) {
                bound.push(b.path.clone());
            }
            continue;
        }
        if let Some(close) = fit::close_variable(&b.path, &variables) {
            report.warn(format!(
                "{} binds `{}`, which nothing in this process uses; the process has `{close}`. Use that key if it is the same data.",
                b.who, b.path
            ));
        }
    }
    bound
}

fn constraints_brief(v: &Value) -> String {
    constraints::brief(v)
}
