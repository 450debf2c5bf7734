//! The input fields of a form-js schema, by full binding path: what both sides of a comparison are
//! reduced to before they are scored.
//!
//! Input fields are the components of the types in [`INPUT_TYPES`] (the corpus's definition of
//! `inputKeys`). A field's binding path is its `key` prefixed by the `path` of every enclosing group or
//! dynamic list that has one, dot-joined: nested paths compose, and a group's `key` is never a prefix
//! (form-js binds only by `path`). This module knows form-js's JSON and nothing of BPMN or scoring.

use serde_json::Value;

/// The component types whose key is an input: the author's answer to the step.
pub const INPUT_TYPES: [&str; 11] = [
    "textfield",
    "textarea",
    "number",
    "datetime",
    "checkbox",
    "checklist",
    "radio",
    "select",
    "taglist",
    "filepicker",
    "expression",
];

/// The input types that offer a list of options.
pub const CHOICE_TYPES: [&str; 4] = ["select", "radio", "checklist", "taglist"];

/// Deepest container nesting walked; deeper components are ignored (form-js's own editor stops far
/// earlier, and the gate refuses deeper forms).
const MAX_DEPTH: usize = 32;

/// Where a choice field's options come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Options {
    /// Not a choice field.
    NotChoice,
    /// Options written in the form (`values`): their `value`s, as text (a non-string value as its JSON).
    Inline(Vec<String>),
    /// Options read from a process variable (`valuesKey`).
    Key(String),
    /// Options computed by a FEEL expression (`valuesExpression`).
    Expression(String),
}

/// One input field of a form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The full binding path (`path.key` inside containers with a path).
    pub path: String,
    /// The component type, as written.
    pub kind: String,
    /// The label, as written (`""` when absent).
    pub label: String,
    /// `validate.required` (absent counts as `false`).
    pub required: bool,
    /// Its options, for choice fields.
    pub options: Options,
    /// Whether it is shown only under a condition (its own `conditional.hide` or a container's).
    pub conditional: bool,
}

impl Field {
    /// Whether this is a choice field (select, radio, checklist, taglist).
    pub fn is_choice(&self) -> bool {
        CHOICE_TYPES.contains(&self.kind.as_str())
    }
}

/// The input fields of `schema` in document order. When several components bind the same path (a
/// form may show one key twice, e.g. under different conditions), the first one stands for it.
pub fn input_fields(schema: &Value) -> Vec<Field> {
    let mut fields = Vec::new();
    if let Some(components) = schema.get("components").and_then(Value::as_array) {
        walk(components, &mut Vec::new(), (0, false), &mut fields);
    }
    let mut seen = std::collections::HashSet::new();
    fields.retain(|f: &Field| seen.insert(f.path.clone()));
    fields
}

/// The binding paths of [`input_fields`], in document order.
pub fn input_keys(schema: &Value) -> Vec<String> {
    input_fields(schema).into_iter().map(|f| f.path).collect()
}

/// `at`: how deep the components are, and whether a container around them is hidden by a condition.
fn walk(components: &[Value], prefix: &mut Vec<String>, at: (usize, bool), out: &mut Vec<Field>) {
    let (depth, hidden) = at;
    if depth > MAX_DEPTH {
        return;
    }
    for c in components {
        let kind = text(c, "type");
        let key = text(c, "key");
        if INPUT_TYPES.contains(&kind) && !key.trim().is_empty() {
            let mut path = prefix.clone();
            path.push(key.trim().to_string());
            let mut f = field(c, kind, path.join("."));
            f.conditional |= hidden;
            out.push(f);
        }
        if let Some(children) = c.get("components").and_then(Value::as_array) {
            let own = text(c, "path").trim();
            let pushed = !own.is_empty();
            if pushed {
                prefix.push(own.to_string());
            }
            walk(children, prefix, (depth + 1, hidden || has_hide(c)), out);
            if pushed {
                prefix.pop();
            }
        }
    }
}

/// Whether a component has a `conditional.hide` condition.
fn has_hide(c: &Value) -> bool {
    c.pointer("/conditional/hide").and_then(Value::as_str).is_some_and(|h| !h.trim().is_empty())
}

fn field(c: &Value, kind: &str, path: String) -> Field {
    let options = if !CHOICE_TYPES.contains(&kind) {
        Options::NotChoice
    } else if let Some(values) = c.get("values").and_then(Value::as_array) {
        Options::Inline(values.iter().map(|v| option_value(v.get("value").unwrap_or(&Value::Null))).collect())
    } else if !text(c, "valuesKey").is_empty() {
        Options::Key(text(c, "valuesKey").to_string())
    } else if !text(c, "valuesExpression").is_empty() {
        Options::Expression(text(c, "valuesExpression").to_string())
    } else {
        Options::Inline(Vec::new())
    };
    Field {
        path,
        kind: kind.to_string(),
        label: c.as_object().map(formgen_core::formjs::shown_label).unwrap_or_default().to_string(),
        required: c.pointer("/validate/required").and_then(Value::as_bool).unwrap_or(false),
        options,
        conditional: has_hide(c),
    }
}

fn option_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn text<'v>(c: &'v Value, name: &str) -> &'v str {
    c.get(name).and_then(Value::as_str).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_compose_through_containers_and_a_group_key_is_no_prefix() {
        let schema = json!({"components": [
            {"type": "textfield", "key": "name"},
            {"type": "text", "text": "hello"},
            {"type": "group", "key": "ignored", "components": [{"type": "number", "key": "flat"}]},
            {"type": "group", "path": "applicant", "components": [
                {"type": "textfield", "key": "email"},
                {"type": "dynamiclist", "path": "children", "components": [{"type": "datetime", "key": "born"}]}
            ]},
            {"type": "button", "key": "submit"},
            {"type": "textfield", "key": "name", "label": "second"}
        ]});
        assert_eq!(input_keys(&schema), ["name", "flat", "applicant.email", "applicant.children.born"]);
        assert_eq!(input_fields(&schema)[0].label, "", "the first component of a path stands for it");
    }

    #[test]
    fn a_field_in_a_hidden_container_is_conditional() {
        let schema = json!({"components": [
            {"type": "checkbox", "key": "a"},
            {"type": "group", "conditional": {"hide": "=a"}, "components": [
                {"type": "textfield", "key": "b"},
                {"type": "group", "components": [{"type": "textfield", "key": "c"}]}
            ]},
            {"type": "textfield", "key": "d", "conditional": {"hide": "=not(a)"}},
            {"type": "textfield", "key": "e", "conditional": {"hide": " "}}
        ]});
        let conditional: Vec<bool> = input_fields(&schema).iter().map(|f| f.conditional).collect();
        assert_eq!(conditional, [false, true, true, true, false]);
    }

    #[test]
    fn options_required_and_labels_are_read() {
        let schema = json!({"components": [
            {"type": "select", "key": "a", "label": "A", "validate": {"required": true},
             "values": [{"label": "Yes", "value": "yes"}, {"label": "One", "value": 1}]},
            {"type": "radio", "key": "b", "valuesKey": "choices"},
            {"type": "checklist", "key": "c", "valuesExpression": "=list"},
            {"type": "textfield", "key": "d", "values": [{"value": "x"}]},
            {"type": "datetime", "key": "e", "subtype": "date", "dateLabel": " Due "},
            {"type": "datetime", "key": "f", "subtype": "time", "timeLabel": "At"}
        ]});
        let f = input_fields(&schema);
        assert_eq!((f[4].label.as_str(), f[5].label.as_str()), ("Due", "At"), "a datetime shows these");
        assert_eq!(f[0].options, Options::Inline(vec!["yes".into(), "1".into()]));
        assert!(f[0].required && f[0].is_choice());
        assert_eq!(f[0].label, "A");
        assert_eq!(f[1].options, Options::Key("choices".into()));
        assert_eq!(f[2].options, Options::Expression("=list".into()));
        assert_eq!(f[3].options, Options::NotChoice);
        assert!(!f[3].required);
    }

    #[test]
    fn fields_below_the_depth_bound_are_ignored() {
        let mut c = json!({"type": "textfield", "key": "leaf"});
        for _ in 0..100 {
            c = json!({"type": "group", "path": "p", "components": [c]});
        }
        assert!(input_keys(&json!({"components": [c]})).is_empty());
    }
}
