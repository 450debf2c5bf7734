//! The builtin drafter: a form drafted from the process outline and what a deterministic reader can
//! take from the brief, with no model.
//!
//! It is the embedded default, so formgen works on a fresh machine with no key and no network, and it
//! is the baseline every model must beat. The draft has one field per variable the target step reads or
//! writes or its downstream gateways decide on (for the start form: what the start event writes and the
//! decisions no later step answers), typed from how the process's conditions use each variable
//! (`field.rs`). Values the step only reads are shown read-only; fields a condition depends on are
//! required. Labels are the variable names made readable in their own language (`urlaubstage` →
//! "Urlaubstage"), and a heading text carries the step's name and documentation.
//!
//! Of the brief (`brief.rs`) it uses the first line as the heading, a list of fields as fields (keyed
//! to the process variable each means, where one does), and its language for the labels it makes up;
//! what it did not use, a warning says.
//!
//! The output is a plain form-js document; the gate normalises and checks it like any model's answer.

mod brief;
mod field;

use serde_json::{Map, Value, json};

use crate::bpmn::{Process, read_condition};

pub use brief::{Brief, Language, read as read_brief};
use field::{Use, comparisons_by_variable, field};

/// A drafted form and what the author should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The form-js document, before the gate.
    pub form: Value,
    /// What the drafter did not use or could not do, one sentence each.
    pub warnings: Vec<String>,
}

/// Drafts a form for the element at index `target` of `process` (none: the start form). With a
/// `current` form (a refinement), its components are kept and fields are added for variables it does
/// not bind yet. The form alone; [`compose`] also says what it did not use.
pub fn draft(
    process: Option<&Process>,
    target: Option<usize>,
    description: &str,
    current: Option<&Value>,
) -> Value {
    compose(process, target, description, current).form
}

/// Drafts a form like [`draft`], with the warnings: which parts of the brief it did not use, and why a
/// form is thin when the step gives nothing to draft from.
pub fn compose(
    process: Option<&Process>,
    target: Option<usize>,
    description: &str,
    current: Option<&Value>,
) -> Draft {
    let brief = brief::read(description);
    let mut warnings = Vec::new();
    let mut unused = brief.unused.clone();
    let existing = current.and_then(|c| c.get("components")).and_then(Value::as_array);
    if existing.is_some()
        && let Some(h) = &brief.heading
    {
        unused.insert(0, h.clone());
    }
    let Some(process) = process else {
        let (form, unusable) = without_process(&brief, current);
        unused.extend(unusable);
        warnings.extend(unused_warning(&unused));
        return Draft { form, warnings };
    };
    let comparisons = comparisons_by_variable(process);
    let make = |name: &str, use_: Use| {
        let cs = comparisons.get(name).map(Vec::as_slice).unwrap_or_default();
        field(name, use_, cs)
    };
    let mut components: Vec<Value> = match existing {
        Some(existing) => existing.clone(),
        None => vec![heading(process, target, brief.heading.as_deref())],
    };
    let bound: Vec<String> =
        components.iter().filter_map(|c| c.get("key")?.as_str().map(str::to_string)).collect();
    for (name, use_) in fields(process, target) {
        if bound.iter().any(|b| *b == name || overlaps(b, &name)) {
            continue;
        }
        components.push(make(&name, use_));
    }
    let drafted = components.len();
    let variables = variables(process);
    let variables: Vec<&str> = variables.iter().map(String::as_str).collect();
    unused.extend(brief::merge(&brief.fields, &mut components, &variables, |k| make(k, Use::Write)));
    if existing.is_none() && drafted == 1 && components.len() == 1 {
        warnings.push(thin(process, target));
    }
    warnings.extend(unused_warning(&unused));
    let mut form = Map::new();
    form.insert("type".into(), json!("default"));
    if let Some(id) = current.and_then(|c| c.get("id")).and_then(Value::as_str) {
        form.insert("id".into(), json!(id));
    }
    form.insert("components".into(), Value::Array(components));
    Draft { form: Value::Object(form), warnings }
}

/// Without a process there is nothing to draft from but the brief: its heading and its fields, or a
/// free-text field when it lists none. Returns the labels that gave no usable key.
fn without_process(brief: &Brief, current: Option<&Value>) -> (Value, Vec<String>) {
    if let Some(current) = current {
        let mut form = current.clone();
        let mut components = form.get("components").and_then(Value::as_array).cloned().unwrap_or_default();
        let unusable = brief::merge(&brief.fields, &mut components, &[], |k| field(k, Use::Write, &[]));
        form["components"] = Value::Array(components);
        return (form, unusable);
    }
    let title = brief.heading.as_deref().unwrap_or(brief.language.form());
    let title: String = title.chars().take(80).collect();
    let mut components = vec![json!({"type": "text", "text": format!("# {}", escape_markdown(&title))})];
    let unusable = brief::merge(&brief.fields, &mut components, &[], |k| field(k, Use::Write, &[]));
    if components.len() == 1 {
        components.push(json!({"type": "textarea", "key": "notes", "label": brief.language.notes()}));
    }
    (json!({"type": "default", "components": components}), unusable)
}

/// Every variable the process names: those its elements read or write, and those its conditions read.
fn variables(process: &Process) -> Vec<String> {
    let mut names: Vec<String> = process.variables().into_iter().map(str::to_string).collect();
    for e in process.elements.iter().filter(|e| !e.condition.is_empty()) {
        for v in read_condition(&e.condition).variables {
            if !names.contains(&v) {
                names.push(v);
            }
        }
    }
    names.retain(|n| valid_key(n));
    names
}

/// Why a form has only its heading.
fn thin(process: &Process, target: Option<usize>) -> String {
    let what = match target {
        Some(i) => {
            format!("the step \"{}\" reads and writes no process variables", process.elements[i].label())
        }
        None => "the start event writes no process variables".to_string(),
    };
    format!(
        "{what} and no decision after it depends on one, so the form has only its heading; list its fields \
         in the brief (\"Name, E-Mail, Amount\") or map the step's inputs and outputs in the process"
    )
}

/// The warning naming what of the brief the drafter did not use.
fn unused_warning(unused: &[String]) -> Option<String> {
    let first = unused.first()?;
    let shown: String = first.chars().take(60).collect();
    let ellipsis = if shown.len() < first.len() { "…" } else { "" };
    let more = match unused.len() {
        1 => String::new(),
        2 => " and 1 more line".to_string(),
        n => format!(" and {} more lines", n - 1),
    };
    Some(format!(
        "the builtin Worker drafts from the process and uses only the brief's first line as heading and a \
         list of fields; it did not use the brief's \"{shown}{ellipsis}\"{more}; a model Worker reads all of it"
    ))
}

/// The variables a form for `target` has fields for, in order: the step's own, then the decisions
/// downstream that nothing else answers.
fn fields(process: &Process, target: Option<usize>) -> Vec<(String, Use)> {
    let mut out: Vec<(String, Use)> = Vec::new();
    let mut push = |name: &str, use_: Use| {
        if valid_key(name) && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), use_));
        }
    };
    // The elements whose data this form is: the step, or the process's top-level start events.
    let own: Vec<usize> = match target {
        Some(i) => vec![i],
        None => process
            .elements
            .iter()
            .enumerate()
            .filter(|(_, e)| e.kind == "startEvent" && e.parent.is_none())
            .map(|(i, _)| i)
            .collect(),
    };
    for &i in &own {
        for u in process.uses_of(i) {
            let use_ = if target.is_none() || u.role.is_written() { Use::Write } else { Use::Read };
            push(&u.name, use_);
        }
    }
    // Variables some other element writes are not this form's to capture.
    let written_elsewhere = |name: &str| {
        process
            .variable_uses
            .iter()
            .any(|u| u.name == name && u.role.is_written() && u.element.is_some_and(|e| !own.contains(&e)))
    };
    for decision in process.decisions_after(target) {
        for flow in &decision.flows {
            for v in read_condition(&flow.condition).variables {
                if !written_elsewhere(&v) {
                    push(&v, Use::Write);
                }
            }
        }
    }
    // A variable the process reads by path (`order.total`) is an object: its fields are the paths, and a
    // field for the whole object would both clash with them and ask for something no one can type.
    let all: Vec<String> = out.iter().map(|(n, _)| n.clone()).collect();
    out.retain(|(n, _)| !all.iter().any(|other| overlaps(n, other) && other.len() > n.len()));
    out
}

/// Whether one binding path is a proper prefix of the other (`a` and `a.b`).
fn overlaps(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.len() > short.len() && long.starts_with(short) && long.as_bytes()[short.len()] == b'.'
}

/// The heading text: the brief's title when it has one, else the step's (or process's) name; then
/// the documentation.
fn heading(process: &Process, target: Option<usize>, brief_title: Option<&str>) -> Value {
    let (title, documentation) = match target {
        Some(i) => {
            let e = &process.elements[i];
            (e.label().to_string(), e.documentation.clone())
        }
        None => {
            let title = if process.name.is_empty() { process.id.clone() } else { process.name.clone() };
            (title, process.documentation.clone())
        }
    };
    let title = brief_title.map_or(title, str::to_string);
    let mut text = format!("# {}", escape_markdown(&title));
    if !documentation.is_empty() {
        text.push_str("\n\n");
        text.push_str(&escape_markdown(&documentation));
    }
    json!({"type": "text", "text": text})
}

/// Keeps a modeller's text literal in Markdown (and out of form-js's `{{ }}` templating).
fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_[]#<>{}|".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn valid_key(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|seg| {
            !seg.is_empty()
                && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !seg.bytes().all(|b| b.is_ascii_digit())
                && !matches!(seg, "__proto__" | "prototype" | "constructor")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_must_bind() {
        assert!(valid_key("urlaubstage") && valid_key("order.total"));
        assert!(!valid_key("=parcel") && !valid_key("a b") && !valid_key("items.0"));
    }
}
