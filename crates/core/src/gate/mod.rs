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

mod claims;
mod constraints;
mod extract;
mod fields;
mod form_id;
mod leaks;
mod markup;
mod mend;
mod names;
mod normalise;
pub mod partial;
mod patterns;
mod rule;
mod secrets;

use form_id::base36;

use std::collections::HashSet;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::bpmn::Process;

pub use extract::Unreadable;
pub use form_id::choose as choose_form_id;
pub use mend::mend;
pub use normalise::Binding;
pub use rule::{Problem, Rule};

/// The `schemaVersion` form-js 1.23's editor writes (`node check.mjs --info`).
pub(crate) const SCHEMA_VERSION: u64 = 19;

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
    /// The caller's [`Options::stop`] said to stop (the request was abandoned or ran out of time).
    #[error("the form check was stopped before it finished (the request was abandoned or took too long)")]
    Stopped,
}

impl GateError {
    /// The refusal sentences: one per problem.
    pub fn problems(&self) -> Vec<String> {
        match self {
            GateError::Unreadable(u) => vec![crate::words::capitalise(&u.to_string()) + "."],
            GateError::Refused(p) => p.clone(),
            GateError::Stopped => vec![crate::words::capitalise(&GateError::Stopped.to_string()) + "."],
        }
    }
}

/// Who wrote the form: the rules are the same, the repairs are not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Origin {
    /// A model's answer (generation): unknown input types degrade to `textfield`, missing labels and
    /// keys are made up (with warnings), and the result carries formgen's `exporter`.
    #[default]
    Model,
    /// A hand-written form (`validate`, `formgen check`, the current form of a refinement): custom
    /// types are kept (with a warning), nothing is invented, and the author's `exporter` stays.
    Author,
}

/// How to run the gate: who wrote the form, the editor's form id, the process, and a stop hook.
#[derive(Clone, Copy, Default)]
pub struct Options<'a> {
    /// Who wrote the form.
    pub origin: Origin,
    /// The id the editor holds the form under; stamped into the result.
    pub form_id: Option<&'a str>,
    /// The process the form belongs to, checked for fit.
    pub process: Option<&'a Process>,
    /// Asked every [`STOP_EVERY`] components (and per pattern): `true` makes the gate return
    /// [`GateError::Stopped`] promptly. Give it a check of the request's deadline or cancellation
    /// token, e.g. `&|| Instant::now() > deadline || token.is_cancelled()`.
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl std::fmt::Debug for Options<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("origin", &self.origin)
            .field("form_id", &self.form_id)
            .field("process", &self.process.map(|p| &p.id))
            .field("stop", &self.stop.is_some())
            .finish()
    }
}

/// How many refusal sentences a refusal lists before it says how many more there are.
pub const MAX_PROBLEMS: usize = 100;

/// How many components the walk handles between two calls of [`Options::stop`].
pub const STOP_EVERY: usize = 256;

/// Refusals and warnings collected while a form is walked (each sentence once, in order).
#[derive(Debug, Default)]
pub struct Report {
    problems: Vec<Problem>,
    warnings: Vec<String>,
    seen: HashSet<String>,
    /// The binding path (or key) of the component being walked, for the problems found there.
    at: Option<String>,
    /// The form's patterns: the compile budget spent and the verdicts reached.
    pub(crate) patterns: patterns::Patterns,
}

impl Report {
    /// Records a refusal: `rule` broken by the component being walked.
    pub fn refuse(&mut self, rule: Rule, sentence: String) {
        if self.seen.insert(sentence.clone()) {
            self.problems.push(Problem { rule, key: self.at.clone(), message: sentence });
        }
    }

    /// Says which component the problems found next belong to.
    pub(crate) fn at(&mut self, key: Option<String>) {
        self.at = key;
    }

    /// Records a warning.
    pub fn warn(&mut self, sentence: String) {
        if self.seen.insert(sentence.clone()) {
            self.warnings.push(sentence);
        }
    }
}

/// Runs the gate on a model's raw answer (or a saved `.form`'s text). `form_id` is the id the editor
/// holds the form under and is stamped into the result; `process`, when given, is checked for fit.
/// The form is judged as a model's answer ([`Origin::Model`]); see [`check`] for hand-written forms.
pub fn schema_from(
    answer: &str,
    form_id: Option<&str>,
    process: Option<&Process>,
) -> Result<Proposal, GateError> {
    run_text(answer, &Options { form_id, process, ..Options::default() })
}

/// Runs the gate on an already parsed value (a model's draft), as [`schema_from`] does.
pub fn schema_from_value(
    value: Value,
    form_id: Option<&str>,
    process: Option<&Process>,
) -> Result<Proposal, GateError> {
    run_value(value, &Options { form_id, process, ..Options::default() })
}

/// Runs the gate on a hand-written form's text ([`Origin::Author`]): `formgen check`, `validate`.
pub fn check(text: &str, form_id: Option<&str>, process: Option<&Process>) -> Result<Proposal, GateError> {
    run_text(text, &Options { origin: Origin::Author, form_id, process, stop: None })
}

/// Runs the gate on a hand-written form already parsed (a `validate` body's `schema`).
pub fn check_value(
    value: Value,
    form_id: Option<&str>,
    process: Option<&Process>,
) -> Result<Proposal, GateError> {
    run_value(value, &Options { origin: Origin::Author, form_id, process, stop: None })
}

/// Runs the gate on text with every option (origin, stop hook).
pub fn run_text(text: &str, options: &Options<'_>) -> Result<Proposal, GateError> {
    let form = match options.origin {
        Origin::Model => extract::form_in(text).map_err(Unreadable::of_model_answer)?,
        Origin::Author => extract::form_in_file(text)?,
    };
    strict(gate(form, options)?)
}

/// A hand-written form as the gate reads it: normalised as far as the rules allow, with every rule it
/// breaks. Nothing is refused: the components that break a rule stay as written, so the contract check
/// still reads every field.
#[derive(Debug, Clone, PartialEq)]
pub struct Reviewed {
    /// The form, normalised; its warnings; its bindings.
    pub proposal: Proposal,
    /// The rules it breaks (at most [`MAX_PROBLEMS`], then one that says how many more).
    pub problems: Vec<Problem>,
}

/// Reviews a hand-written form's text ([`Origin::Author`]): a `.form` file, `validate`'s `text`. Only
/// text that holds no form at all is an error (with the line and column of a JSON mistake), and a
/// stop.
pub fn review_text(text: &str, options: &Options<'_>) -> Result<Reviewed, GateError> {
    let form = extract::form_in_file(text)?;
    gate(form, &Options { origin: Origin::Author, ..*options })
}

/// Reviews a hand-written form already parsed (`validate`'s `schema`, a project's form).
pub fn review_value(value: Value, options: &Options<'_>) -> Result<Reviewed, GateError> {
    let form = extract::as_form(value).map_err(Unreadable::of_form_file)?;
    gate(form, &Options { origin: Origin::Author, ..*options })
}

/// The JSON a model's raw answer holds (bare, fenced, after prose), decoded but not yet judged: what
/// [`run_text`] reads first. A caller that must change the decoded strings before the gate derives
/// anything from them (the service takes the call's secrets out) decodes with this and gates the
/// value with [`run_value`]; the outcome is the one [`run_text`] gives.
pub fn decode(answer: &str) -> Result<Value, GateError> {
    Ok(extract::json_in(answer).map_err(Unreadable::of_model_answer)?)
}

/// Runs the gate on a parsed value with every option.
pub fn run_value(value: Value, options: &Options<'_>) -> Result<Proposal, GateError> {
    let form = extract::as_form(value)?;
    strict(gate(form, options)?)
}

/// A reviewed form as a verdict: refused when it breaks any rule.
fn strict(reviewed: Reviewed) -> Result<Proposal, GateError> {
    if reviewed.problems.is_empty() {
        Ok(reviewed.proposal)
    } else {
        Err(GateError::Refused(reviewed.problems.into_iter().map(|p| p.message).collect()))
    }
}

/// Root properties form-js passes through untouched.
const ROOT_PASSTHROUGH: &[&str] = &["executionPlatform", "executionPlatformVersion", "versionTag"];

fn gate(mut form: Map<String, Value>, options: &Options<'_>) -> Result<Reviewed, GateError> {
    let mut report = Report::default();
    match form.get("type") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "default" => {}
        Some(other) => report.warn(format!(
            "The form had the type {}; a form-js form's type is \"default\", so it is now that.",
            constraints::brief(other)
        )),
    }
    let id = form_id::stamp(&form, options, &mut report);
    let Some(Value::Array(mut components)) = form.remove("components") else {
        unreachable!("extract guarantees a components array")
    };
    let mut walker = normalise::Walker::new(&mut report, &id, options.origin, options.stop);
    walker.walk_root(&mut components);
    if walker.stopped {
        return Err(GateError::Stopped);
    }
    let bindings = std::mem::take(&mut walker.bindings);
    let bound = options.process.map(|p| fit_report(p, &bindings, &mut report)).unwrap_or_default();
    let mut problems = report.problems;
    if problems.len() > MAX_PROBLEMS {
        let more = problems.len() - MAX_PROBLEMS;
        let rule = problems[MAX_PROBLEMS].rule;
        problems.truncate(MAX_PROBLEMS);
        problems.push(Problem {
            rule,
            key: None,
            message: format!("The form has {more} more problems; fix these first and check it again."),
        });
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
    let exporter = match (options.origin, form.get("exporter")) {
        (Origin::Author, Some(own @ Value::Object(_))) => own.clone(),
        _ => serde_json::json!({"name": "formgen", "version": env!("CARGO_PKG_VERSION")}),
    };
    if options.origin == Origin::Model || form.contains_key("exporter") {
        schema.insert("exporter".into(), exporter);
    }
    let version = match (options.origin, form.get("schemaVersion").and_then(Value::as_u64)) {
        (Origin::Author, Some(v)) if (1..=SCHEMA_VERSION).contains(&v) => v,
        _ => SCHEMA_VERSION,
    };
    schema.insert("schemaVersion".into(), Value::from(version));
    let proposal = Proposal { schema: Value::Object(schema), warnings: report.warnings, bound, bindings };
    Ok(Reviewed { proposal, problems })
}

/// Bound keys, and warnings for keys that bind nothing the process names or reads while a close
/// variable exists.
fn fit_report(process: &Process, bindings: &[Binding], report: &mut Report) -> Vec<String> {
    let variables = process.variables();
    let known: HashSet<&str> = variables.iter().copied().collect();
    let mut bound = Vec::new();
    let mut listed = HashSet::new();
    // what the process's expressions read, worked out only when a key binds no variable it names
    let read: std::cell::OnceCell<HashSet<String>> = std::cell::OnceCell::new();
    for b in bindings.iter().filter(|b| !b.in_list) {
        let head = b.path.split('.').next().unwrap_or(&b.path);
        if known.contains(b.path.as_str()) || known.contains(head) {
            if listed.insert(b.path.clone()) {
                bound.push(b.path.clone());
            }
            continue;
        }
        if read.get_or_init(|| read_names(process)).contains(head) {
            continue;
        }
        if let Some(close) = crate::words::fit::close_variable(&b.path, &variables) {
            report.warn(format!(
                "{} binds `{}`, which nothing in this process uses; the process has `{close}`. Use that key if it is the same data.",
                b.who, b.path
            ));
        }
    }
    bound
}

/// Every name the process's expressions read (a key the process reads is used, though no element
/// names it as a target).
fn read_names(process: &Process) -> HashSet<String> {
    crate::flow::access::of_process(process).into_iter().flat_map(|a| a.reads).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn plain(n: usize) -> String {
        let components: Vec<Value> = (0..n)
            .map(|i| serde_json::json!({"type": "textfield", "key": format!("f{i}"), "label": format!("Field {i}")}))
            .collect();
        serde_json::json!({"id": "big", "components": components}).to_string()
    }

    #[test]
    fn the_stop_hook_stops_the_walk_promptly() {
        let text = plain(4 * STOP_EVERY);
        let asked = AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, Ordering::Relaxed) >= 1;
        let options = Options { origin: Origin::Author, stop: Some(&stop), ..Options::default() };
        assert_eq!(run_text(&text, &options), Err(GateError::Stopped));
        assert_eq!(
            asked.load(Ordering::Relaxed),
            2,
            "asked every {STOP_EVERY} components, stopped at the second"
        );
        let never = || false;
        let options = Options { stop: Some(&never), ..options };
        assert!(run_text(&text, &options).is_ok());
    }

    #[test]
    fn eight_thousand_fields_all_bind() {
        // that the cost stays linear in the fields is measured by `cargo bench --bench gate`
        let p = check(&plain(8000), None, None).unwrap();
        assert_eq!(p.bindings.len(), 8000);
    }

    #[test]
    fn a_refusal_lists_a_bounded_number_of_sentences() {
        let components: Vec<Value> = (0..500)
            .map(|i| serde_json::json!({"type": "textfield", "key": format!("bad key {i}"), "label": format!("F {i}")}))
            .collect();
        let text = serde_json::json!({"id": "x", "components": components}).to_string();
        let problems = check(&text, None, None).unwrap_err().problems();
        assert_eq!(problems.len(), MAX_PROBLEMS + 1);
        assert_eq!(
            problems[MAX_PROBLEMS],
            "The form has 400 more problems; fix these first and check it again."
        );
    }

    #[test]
    fn a_key_the_process_reads_is_used_though_no_element_names_it() {
        let process = crate::bpmn::read_str(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
                xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p">
              <serviceTask id="archive"><extensionElements><zeebe:ioMapping>
                <zeebe:input source="=note" target="remark"/></zeebe:ioMapping></extensionElements></serviceTask>
            </process></definitions>"#,
        )
        .processes
        .remove(0);
        let form = |key: &str| {
            serde_json::json!({"id": "f", "components": [{"type": "textfield", "key": key, "label": "Note"}]})
                .to_string()
        };
        let read = check(&form("note"), None, Some(&process)).unwrap();
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        let near = check(&form("remarks"), None, Some(&process)).unwrap();
        assert!(near.warnings.iter().any(|w| w.contains("the process has `remark`")), "{:?}", near.warnings);
    }

    #[test]
    fn forms_without_ids_get_ids_of_their_own() {
        let a =
            schema_from(r#"{"components": [{"type": "textfield", "key": "a", "label": "A"}]}"#, None, None);
        let b =
            schema_from(r#"{"components": [{"type": "textfield", "key": "b", "label": "B"}]}"#, None, None);
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_ne!(a.schema["id"], b.schema["id"]);
        assert!(a.warnings[0].contains("had no id"), "{:?}", a.warnings);
        let again =
            schema_from(r#"{"components": [{"type": "textfield", "key": "a", "label": "A"}]}"#, None, None);
        assert_eq!(again.unwrap().schema["id"], a.schema["id"], "deterministic");
    }
}
