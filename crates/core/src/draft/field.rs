//! One field for one variable, typed from how the process's conditions use it.
//!
//! The drafter (`mod.rs`) decides which variables a form has fields for; this file decides what each
//! field looks like. It knows nothing of briefs or of which step the form is for.

use serde_json::{Map, Value, json};

use super::Use;
use crate::bpmn::{Comparison, Literal, Operator, Process, read_condition};
use crate::words;

/// Every comparison the process's conditions make, by the variable compared.
pub(super) fn comparisons_by_variable(
    process: &Process,
) -> std::collections::HashMap<String, Vec<Comparison>> {
    let mut map: std::collections::HashMap<String, Vec<Comparison>> = std::collections::HashMap::new();
    for e in crate::stop::until_stopped(process.elements.iter().filter(|e| !e.condition.is_empty())) {
        for c in read_condition(&e.condition).comparisons {
            map.entry(c.variable.clone()).or_default().push(c);
        }
    }
    map
}

/// The label of a field bound to a path: its last name, as authors label the fields of an object
/// (`ibmqResult.jobId` → "Job id"); [`distinct_labels`] gives the whole path where two would read alike.
pub(super) fn leaf_label(path: &str) -> String {
    words::humanise(path.rsplit('.').next().unwrap_or(path))
}

/// Labels every field of `components` from `from` on whose label is its path's last name, and which
/// another field's label reads like, by its whole path instead (`customer.name` and `supplier.name`
/// are "Customer name" and "Supplier name", not "Name" twice).
pub(super) fn distinct_labels(components: &mut [Value], from: usize) {
    let label = |c: &Value| c.get("label").and_then(Value::as_str).map(str::to_lowercase);
    let labels: Vec<Option<String>> = components.iter().map(label).collect();
    for (i, c) in components.iter_mut().enumerate().skip(from) {
        let Some(key) = c.get("key").and_then(Value::as_str).filter(|k| k.contains('.')) else { continue };
        let shared = labels.iter().enumerate().any(|(j, l)| j != i && l.is_some() && *l == labels[i]);
        if shared && labels[i].as_deref() == Some(leaf_label(key).to_lowercase().as_str()) {
            c["label"] = json!(words::humanise(key));
        }
    }
}

/// One field for a variable, typed from the comparisons the process makes with it.
pub(super) fn field(name: &str, use_: Use, comparisons: &[Comparison]) -> Value {
    let label = leaf_label(name);
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
        let values: Vec<Value> = texts.iter().map(|t| option(t, "")).collect();
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

/// One option of a choice field: its label where the source gives one, else its value read as words
/// (`words::option_label`).
pub(super) fn option(value: &str, label: &str) -> Value {
    let label = if label.is_empty() { words::option_label(value) } else { label.to_string() };
    json!({"label": label, "value": value})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_labelled_by_its_last_name_unless_another_field_reads_alike() {
        assert_eq!(leaf_label("ibmqResult.jobId"), "Job id");
        let mut components = vec![
            json!({"type": "text", "text": "# Review"}),
            json!({"type": "textfield", "key": "status", "label": "Status"}),
            json!({"type": "textfield", "key": "ibmqResult.status", "label": "Status"}),
            json!({"type": "textfield", "key": "ibmqResult.jobId", "label": "Job id"}),
            json!({"type": "textfield", "key": "order.jobId", "label": "Job ID (external)"}),
        ];
        distinct_labels(&mut components, 2);
        let labels: Vec<&str> = components.iter().filter_map(|c| c["label"].as_str()).collect();
        assert_eq!(labels, ["Status", "Ibmq result status", "Job id", "Job ID (external)"]);
    }
}
