//! The builtin drafter: a form drafted from the process outline alone, with no model.
//!
//! It is the embedded default, so formgen works on a fresh machine with no key and no network, and it
//! is the baseline every model must beat. The draft has one field per variable the target step reads or
//! writes or its downstream gateways decide on (for the start form: what the start event writes and the
//! decisions no later step answers), typed from how the process's conditions use each variable:
//! compared with a number → `number` (with a lower bound where every bound seen is non-negative, both
//! bounds for a range); with `true`/`false` → `checkbox`; with two or more texts → `select` offering
//! them; named like a date → `datetime`; long-text names → `textarea`; else `textfield`. Values the step
//! only reads are shown read-only; fields a condition depends on are required. Labels are the variable
//! names made readable in their own language (`urlaubstage` → "Urlaubstage"), and a heading text carries
//! the step's name and documentation.
//!
//! The output is a plain form-js document; the gate normalises and checks it like any model's answer.

mod data;

use serde_json::{Map, Value, json};

use crate::bpmn::{Comparison, Literal, Operator, Process, read_condition};
use crate::flow::{Definition, Picture};
use crate::project::Project;
use crate::words;

pub use data::KNOWN_SHOWN;

/// A draft and what the author should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The form-js document (the gate normalises it like any answer).
    pub form: Value,
    /// What the drafter left out and why.
    pub warnings: Vec<String>,
}

/// What the drafter knows about the step beyond the process: its data picture and the project.
#[derive(Debug, Clone, Copy)]
pub struct Around<'a> {
    /// The step's data picture.
    pub picture: &'a Picture,
    /// The forms and decisions around the process.
    pub project: &'a Project,
}

/// What a field does with its variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    /// The step only reads it: shown, not edited.
    Read,
    /// The form captures it.
    Write,
}

/// Drafts a form for the element at index `target` of `process` (none: the start form), from the
/// process alone. See [`draft_in`].
pub fn draft(
    process: Option<&Process>,
    target: Option<usize>,
    description: &str,
    current: Option<&Value>,
) -> Value {
    draft_in(process, target, None, description, current).form
}

/// Drafts a form for the element at index `target` of `process` (none: the start form), with the
/// step's data picture and the project when there are (`around`). With a `current` form (a
/// refinement), its components are kept and fields are added for variables it does not bind yet.
pub fn draft_in(
    process: Option<&Process>,
    target: Option<usize>,
    around: Option<Around<'_>>,
    description: &str,
    current: Option<&Value>,
) -> Draft {
    let Some(process) = process else {
        return Draft { form: without_process(description, current), warnings: Vec::new() };
    };
    let mut warnings = Vec::new();
    let comparisons = comparisons_by_variable(process);
    let mut components: Vec<Value> = match current.and_then(|c| c.get("components")).and_then(Value::as_array)
    {
        Some(existing) => existing.clone(),
        None => vec![heading(process, target)],
    };
    let bound: Vec<String> =
        components.iter().filter_map(|c| c.get("key")?.as_str().map(str::to_string)).collect();
    let mut bound = bound;
    if current.is_none()
        && let Some(i) = target
    {
        for c in data::declared(&process.elements[i]) {
            let key = c.get("key").and_then(Value::as_str).unwrap_or_default().to_string();
            let label =
                c.get("label").or_else(|| c.get("dateLabel")).and_then(Value::as_str).unwrap_or_default();
            if let Some(asked) = crate::gate::secret_in(&key).or_else(|| crate::gate::secret_in(label)) {
                warnings.push(secret_skipped(&key, &asked));
                continue;
            }
            bound.push(key);
            components.push(c);
        }
    }
    let mut chosen = fields(process, target, around.is_none());
    if let Some(around) = around {
        data::add_picture_fields(&mut chosen, around.picture, target.is_some());
        data::expand_objects(&mut chosen, process, around.project);
    }
    for (name, use_) in chosen {
        if bound.iter().any(|b| *b == name || overlaps(b, &name)) {
            continue;
        }
        if let Some(asked) = crate::gate::secret_in(&name) {
            warnings.push(secret_skipped(&name, &asked));
            continue;
        }
        let cs = comparisons.get(&name).map(Vec::as_slice).unwrap_or_default();
        let definition: Option<Definition> =
            around.and_then(|a| crate::flow::definition(&name, process, a.project));
        let component = match &definition {
            Some(d) if cs.is_empty() || d.kind != "textfield" => data::defined_field(&name, use_, d),
            _ => field(&name, use_, cs),
        };
        bound.push(name);
        components.push(component);
    }
    let mut form = Map::new();
    form.insert("type".into(), json!("default"));
    if let Some(id) = current.and_then(|c| c.get("id")).and_then(Value::as_str) {
        form.insert("id".into(), json!(id));
    }
    form.insert("components".into(), Value::Array(components));
    Draft { form: Value::Object(form), warnings }
}

/// The warning for a variable the draft has no field for because its name asks for a secret.
fn secret_skipped(name: &str, asked: &str) -> String {
    format!(
        "The process variable `{name}` asks for a secret ({asked}), so the draft has no field for it; keep credentials in a vault and let the process reference them by name."
    )
}

/// Without a process there is nothing to draft from but the brief: a heading and a free-text field.
fn without_process(description: &str, current: Option<&Value>) -> Value {
    if let Some(current) = current {
        return current.clone();
    }
    let title = description.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("Form");
    let title: String = title.chars().take(80).collect();
    json!({
        "type": "default",
        "components": [
            {"type": "text", "text": format!("# {}", escape_markdown(&title))},
            {"type": "textarea", "key": "notes", "label": "Notes"}
        ]
    })
}

/// The variables a form for `target` has fields for, in order: the step's own, then the decisions
/// downstream that nothing else answers.
fn fields(process: &Process, target: Option<usize>, with_decisions: bool) -> Vec<(String, Use)> {
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
    for decision in process.decisions_after(target).into_iter().filter(|_| with_decisions) {
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

fn comparisons_by_variable(process: &Process) -> std::collections::HashMap<String, Vec<Comparison>> {
    let mut map: std::collections::HashMap<String, Vec<Comparison>> = std::collections::HashMap::new();
    for e in process.elements.iter().filter(|e| !e.condition.is_empty()) {
        for c in read_condition(&e.condition).comparisons {
            map.entry(c.variable.clone()).or_default().push(c);
        }
    }
    map
}

/// One field for a variable, typed from the comparisons the process makes with it.
fn field(name: &str, use_: Use, comparisons: &[Comparison]) -> Value {
    let label = words::humanise(name.rsplit('.').next().unwrap_or(name));
    let label = if name.contains('.') { words::humanise(name) } else { label };
    let mut c = Map::new();
    let numbers: Vec<f64> = literals(comparisons)
        .filter_map(|l| if let Literal::Number(n) = l { Some(*n) } else { None })
        .collect();
    let mut texts: Vec<String> = Vec::new();
    for l in literals(comparisons) {
        if let Literal::Text(t) = l
            && !texts.contains(t)
        {
            texts.push(t.clone());
        }
    }
    let is_bool = literals(comparisons).any(|l| matches!(l, Literal::Bool(_)));
    let word_set = words::split(name);
    let last = word_set.last().map(String::as_str).unwrap_or("");
    if is_bool && numbers.is_empty() && texts.is_empty() {
        c.insert("type".into(), json!("checkbox"));
    } else if !numbers.is_empty() && texts.is_empty() {
        c.insert("type".into(), json!("number"));
        let mut validate = Map::new();
        let range_low =
            comparisons.iter().find(|c| c.operator == Operator::Ge && is_range_partner(c, comparisons));
        let range_high =
            comparisons.iter().find(|c| c.operator == Operator::Le && is_range_partner(c, comparisons));
        if let (
            Some(Comparison { literal: Literal::Number(lo), .. }),
            Some(Comparison { literal: Literal::Number(hi), .. }),
        ) = (range_low, range_high)
            && lo <= hi
        {
            validate.insert("min".into(), json!(lo));
            validate.insert("max".into(), json!(hi));
        } else if numbers.iter().all(|n| *n >= 0.0) {
            validate.insert("min".into(), json!(0));
        }
        if !validate.is_empty() {
            c.insert("validate".into(), Value::Object(validate));
        }
    } else if texts.len() >= 2 {
        c.insert("type".into(), json!("select"));
        let values: Vec<Value> =
            texts.iter().map(|t| json!({"label": words::capitalise(t), "value": t})).collect();
        c.insert("values".into(), Value::Array(values));
    } else if matches!(last, "date" | "datum" | "fecha" | "deadline" | "birthday" | "geburtstag" | "dob") {
        c.insert("type".into(), json!("datetime"));
        c.insert("subtype".into(), json!("date"));
        c.insert("dateLabel".into(), json!(label));
    } else if matches!(last, "time" | "zeit" | "uhrzeit") {
        c.insert("type".into(), json!("datetime"));
        c.insert("subtype".into(), json!("time"));
        c.insert("timeLabel".into(), json!(label));
    } else if word_set.iter().any(|w| LONG_TEXT.contains(&w.as_str())) {
        c.insert("type".into(), json!("textarea"));
    } else {
        c.insert("type".into(), json!("textfield"));
        if word_set.iter().any(|w| w == "email" || w == "mail") {
            c.insert("validate".into(), json!({"validationType": "email"}));
        }
    }
    c.insert("key".into(), json!(name));
    if c.get("type") != Some(&json!("datetime")) {
        c.insert("label".into(), json!(label));
    }
    match use_ {
        Use::Read => {
            c.insert("readonly".into(), json!(true));
        }
        Use::Write if !comparisons.is_empty() && c.get("type") != Some(&json!("checkbox")) => {
            // a decision depends on it: the form must not be submitted without it
            let validate = c.entry("validate").or_insert_with(|| json!({}));
            validate["required"] = json!(true);
        }
        Use::Write => {}
    }
    // the order a person reads a field in: what it is, what it binds, how it is called, then the rest
    let mut ordered = Map::new();
    for k in ["type", "key", "label", "subtype", "dateLabel", "timeLabel", "values", "readonly", "validate"] {
        if let Some(v) = c.remove(k) {
            ordered.insert(k.to_string(), v);
        }
    }
    ordered.extend(c);
    Value::Object(ordered)
}

/// Names of free-text data, which get a text area.
const LONG_TEXT: &[&str] = &[
    "comment",
    "comments",
    "kommentar",
    "bemerkung",
    "bemerkungen",
    "description",
    "beschreibung",
    "notes",
    "notiz",
    "reason",
    "begruendung",
    "grund",
    "remarks",
    "message",
    "nachricht",
    "feedback",
    "justification",
    "commentaire",
];

fn literals(comparisons: &[Comparison]) -> impl Iterator<Item = &Literal> {
    comparisons.iter().flat_map(|c| match &c.literal {
        Literal::List(items) => items.iter().collect::<Vec<_>>(),
        l => vec![l],
    })
}

/// Whether `c` is one end of an `in [a..b]` range (the reader turns it into `>= a` and `<= b`).
fn is_range_partner(c: &Comparison, all: &[Comparison]) -> bool {
    let other = if c.operator == Operator::Ge { Operator::Le } else { Operator::Ge };
    all.iter().any(|o| o.operator == other && o.variable == c.variable)
}

fn heading(process: &Process, target: Option<usize>) -> Value {
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
