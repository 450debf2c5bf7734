//! Where a variable is already defined: a sibling form's field (its label, type and options), a
//! decision's input or output (its `typeRef` and allowed values), or a field a Camunda 7 / Flowable
//! step declares. A form for another step should reuse what the project already says about a
//! variable rather than guess it again.
//!
//! It knows the process and its project; nothing of the form being drafted.

use serde::Serialize;

use super::expr;
use crate::bpmn::{Place, Process};
use crate::project::Project;

/// What the project already says about one variable.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Definition {
    /// The variable (binding path).
    pub name: String,
    /// Where it is defined, in words (`the form "vacation-request"`).
    pub source: String,
    /// Its label there (`""` when it has none).
    pub label: String,
    /// The form-js component type it has or would have (`number`, `select`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// Its options there: `(value, label)`.
    pub options: Vec<(String, String)>,
    /// Whether it is required there.
    pub required: bool,
}

/// The first definition of `name`: a sibling form's field, else a C7/Flowable declared field, else a
/// decision's output (for the result variable of a step that calls it) or input.
pub fn definition(name: &str, process: &Process, project: &Project) -> Option<Definition> {
    if let Some((form, field)) = project.fields(name).next() {
        let source = if form.id.is_empty() {
            format!("the form {}", form.file)
        } else {
            format!("the form \"{}\"", form.id)
        };
        return Some(Definition {
            name: name.to_string(),
            source,
            label: field.label.clone(),
            kind: field.kind.clone(),
            options: field
                .options
                .iter()
                .map(|o| {
                    (o.value.as_str().map_or_else(|| o.value.to_string(), str::to_string), o.label.clone())
                })
                .collect(),
            required: field.required,
        });
    }
    for e in &process.elements {
        if let Some(f) = e.declared().fields.iter().find(|f| f.id == name || f.variable == name) {
            return Some(Definition {
                name: name.to_string(),
                source: format!("the form fields of \"{}\"", e.label()),
                label: f.label.clone(),
                kind: f.kind.form_js().to_string(),
                options: f.options.iter().map(|o| (o.id.clone(), o.name.clone())).collect(),
                required: f.required,
            });
        }
    }
    decision_definition(name, process, project)
}

fn decision_definition(name: &str, process: &Process, project: &Project) -> Option<Definition> {
    // the result variable of a step that calls a decision: the decision's (single) output
    for e in &process.elements {
        let result =
            e.accesses.iter().find(|a| a.place == Place::ResultVariable).map(|a| a.expression.trim());
        if result != Some(name) {
            continue;
        }
        for a in e.accesses.iter().filter(|a| a.place == Place::DecisionId) {
            let Some(d) = project.decision(a.expression.trim_start_matches('=')) else { continue };
            if let [output] = d.outputs.as_slice() {
                return Some(Definition {
                    name: name.to_string(),
                    source: format!("the decision \"{}\"", d.id),
                    label: if output.label.is_empty() { output.name.clone() } else { output.label.clone() },
                    kind: kind_of(&output.type_ref, !output.allowed_values.is_empty()).to_string(),
                    options: output.allowed_values.iter().map(|v| (v.clone(), v.clone())).collect(),
                    required: true,
                });
            }
        }
    }
    // an input a decision reads by this very name
    for d in &project.decisions {
        for input in &d.inputs {
            let reads = expr::feel_reads(&input.expression);
            if reads.len() == 1 && reads[0].path == name && input.expression.trim() == name {
                return Some(Definition {
                    name: name.to_string(),
                    source: format!("the decision \"{}\"", d.id),
                    label: input.label.clone(),
                    kind: kind_of(&input.type_ref, !input.allowed_values.is_empty()).to_string(),
                    options: input.allowed_values.iter().map(|v| (v.clone(), v.clone())).collect(),
                    required: true,
                });
            }
        }
    }
    None
}

/// The dotted paths the process and its project use below `root` (`order.total` for `order`): read
/// by path in an expression, bound by a project form's field, or stored as a context literal's key
/// (`resultExpression` `={order: {total: ..}}`, an output mapping `={total: ..}` to `order`). In order
/// of first appearance, at most `most`.
pub fn paths_below(root: &str, process: &Process, project: &Project, most: usize) -> Vec<String> {
    let prefix = format!("{root}.");
    let mut out: Vec<String> = Vec::new();
    let mut add = |path: &str| {
        if path.starts_with(&prefix) && path.len() > prefix.len() && !out.iter().any(|p| p == path) {
            out.push(path.to_string());
        }
    };
    for form in &project.forms {
        for f in form.input_fields.iter().filter(|f| !f.in_list) {
            add(&f.key);
        }
    }
    for e in &process.elements {
        // what a result expression or an output mapping stores, when its value is a context literal
        for (k, a) in e.accesses.iter().enumerate() {
            let stored = match &a.place {
                Place::Header(key) if key == "resultExpression" => {
                    Some((a.expression.as_str(), String::new()))
                }
                _ => e.output_mapping_at(k).map(|(source, target)| (source, format!("{target}."))),
            };
            if let Some((value, stored_as)) = stored {
                for path in super::access::context_paths(value) {
                    add(&format!("{stored_as}{path}"));
                }
            }
        }
        for a in &e.accesses {
            if a.expression.contains(&prefix) {
                for r in
                    expr::zeebe_value_reads(&a.expression).into_iter().chain(expr::juel_reads(&a.expression))
                {
                    add(&r.path);
                }
            }
        }
    }
    out.truncate(most);
    out
}

/// The form-js type for a DMN `typeRef`.
fn kind_of(type_ref: &str, has_values: bool) -> &'static str {
    if has_values {
        return "select";
    }
    match type_ref.trim().to_ascii_lowercase().as_str() {
        "number" | "integer" | "long" | "double" | "int" => "number",
        "boolean" => "checkbox",
        "date" | "date and time" | "datetime" | "time" => "datetime",
        _ => "textfield",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dmn_types() {
        assert_eq!(kind_of("number", false), "number");
        assert_eq!(kind_of("boolean", false), "checkbox");
        assert_eq!(kind_of("string", true), "select");
        assert_eq!(kind_of("string", false), "textfield");
    }
}
