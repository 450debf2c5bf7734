//! A sibling form of the project: its id, its schema and the fields that bind data.
//!
//! A step that binds a form (`zeebe:formDefinition formId`) writes that form's input keys, and a
//! variable another form already asks for has a label, a type and options worth reusing. This file
//! reads those from a form-js schema, leniently: any JSON object with a `components` list is a form;
//! components it does not understand are passed over.

use serde::Serialize;
use serde_json::Value;

use crate::formjs::{CONTAINERS, INPUTS};

/// Containers nested deeper than this are not walked (form-js editors nest a few levels).
const MAX_NESTING: usize = crate::limits::nesting::FORM;

/// A form-js form of the project. Serialises (camelCase) without its schema.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectForm {
    /// The schema's `id`: what `zeebe:formDefinition formId` names. `""` when the schema has none (it
    /// can be linked by nothing, but its fields still say how the project names its data).
    pub id: String,
    /// Where it came from: the file's path below the project folder (`/`-separated), or `forms[2]`
    /// for the request's list.
    pub file: String,
    /// The schema as written.
    #[serde(skip)]
    pub schema: Value,
    /// Every component that binds a key, document order.
    pub input_fields: Vec<FormField>,
}

/// One component of a form that binds data.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormField {
    /// The full binding path: the `path`s of the groups and dynamic lists around it and its `key`,
    /// dot-joined (`address.street`). A group without a `path` adds nothing, nor does a group's `key`.
    /// Inside a dynamic list the path is the list's path and the key (`items.price`), as the pairs'
    /// `inputKeys` write it, although each list entry holds its own `price`.
    pub key: String,
    /// The label it shows (`label`, or a date or time field's `dateLabel` / `timeLabel`), trimmed;
    /// `""` when absent.
    pub label: String,
    /// The component `type` (`textfield`, `select`, ...): one of form-js's input types.
    #[serde(rename = "type")]
    pub kind: String,
    /// The static options (`values`) of a select, radio, checklist or taglist; empty otherwise and for
    /// options that come from a variable (`valuesKey`, `valuesExpression`).
    pub options: Vec<FieldOption>,
    /// `validate.required` is `true`.
    pub required: bool,
    /// `readonly` is `true` (a FEEL expression that decides it at run time does not count).
    pub readonly: bool,
    /// Whether the field sits inside a dynamic list (its key is per list entry).
    pub in_list: bool,
    /// `disabled` is `true`: form-js leaves the field out of what it submits.
    #[serde(skip)]
    pub disabled: bool,
    /// A number field with `serializeToString`: its value is submitted as text.
    #[serde(skip)]
    pub as_text: bool,
    /// Its options come from a variable or an expression (`valuesKey`, `valuesExpression`), not
    /// from the form.
    #[serde(skip)]
    pub dynamic_options: bool,
    /// Its `id` in the form (`""` when it has none).
    #[serde(skip)]
    pub id: String,
    /// The `conditional.hide` expressions of the field and of the containers around it, outermost
    /// first: form-js neither submits nor validates a field one of them hides.
    #[serde(skip)]
    pub hidden_when: Vec<String>,
}

impl FormField {
    /// Its form-js type; `None` for a custom type.
    pub(crate) fn component_type(&self) -> Option<crate::formjs::ComponentType> {
        crate::formjs::ComponentType::parse(&self.kind)
    }
}

/// One static option of a field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldOption {
    /// `value` as written (usually a string).
    pub value: Value,
    /// The label it shows (`label`, or a date or time field's `dateLabel` / `timeLabel`), trimmed;
    /// `""` when absent.
    pub label: String,
}

/// Reads a form-js schema; the reason it is not one otherwise (a clause for a sentence).
impl ProjectForm {
    /// Reads a form-js schema (`file` names it in sentences); the error says why it is not a form.
    pub fn read(schema: Value, file: String) -> Result<ProjectForm, &'static str> {
        read_form(schema, file)
    }
}

pub(super) fn read_form(schema: Value, file: String) -> Result<ProjectForm, &'static str> {
    let Some(object) = schema.as_object() else {
        return Err("it is not a JSON object");
    };
    let Some(Value::Array(components)) = object.get("components") else {
        return Err("it has no components list");
    };
    let id = object.get("id").and_then(Value::as_str).unwrap_or_default().trim().to_string();
    let mut input_fields = Vec::new();
    walk(components, &Around::default(), 0, &mut input_fields);
    Ok(ProjectForm { id, file, schema, input_fields })
}

/// What the containers around a component give it: a path, a list, conditions that hide them.
#[derive(Default, Clone)]
struct Around {
    prefix: String,
    in_list: bool,
    hidden_when: Vec<String>,
}

fn walk(components: &[Value], around: &Around, depth: usize, out: &mut Vec<FormField>) {
    for component in components {
        let Some(c) = component.as_object() else {
            continue;
        };
        let kind = c.get("type").and_then(Value::as_str).unwrap_or_default();
        let mut hidden_when = around.hidden_when.clone();
        hidden_when.extend(hide(c));
        if INPUTS.contains(&kind) {
            let Some(key) = c.get("key").and_then(Value::as_str).filter(|k| !k.trim().is_empty()) else {
                continue;
            };
            out.push(FormField {
                key: join(&around.prefix, key),
                label: crate::formjs::shown_label(c).to_string(),
                kind: kind.to_string(),
                options: options(c.get("values")),
                required: c.get("validate").and_then(|v| v.get("required")) == Some(&Value::Bool(true)),
                readonly: c.get("readonly") == Some(&Value::Bool(true)),
                in_list: around.in_list,
                disabled: c.get("disabled") == Some(&Value::Bool(true)),
                as_text: c.get("serializeToString") == Some(&Value::Bool(true)),
                dynamic_options: c.get("valuesKey").is_some() || c.get("valuesExpression").is_some(),
                id: text(c.get("id")),
                hidden_when,
            });
        } else if CONTAINERS.contains(&kind)
            && depth < MAX_NESTING
            && let Some(Value::Array(children)) = c.get("components")
        {
            let path = c.get("path").and_then(Value::as_str).map(str::trim).unwrap_or_default();
            let prefix = if path.is_empty() { around.prefix.clone() } else { join(&around.prefix, path) };
            let inner = Around { prefix, in_list: around.in_list || kind == "dynamiclist", hidden_when };
            walk(children, &inner, depth + 1, out);
        }
    }
}

/// A component's `conditional.hide`, when it is an expression.
fn hide(c: &serde_json::Map<String, Value>) -> Option<String> {
    let text = c.get("conditional")?.get("hide")?.as_str()?.trim();
    text.starts_with('=').then(|| text.to_string())
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_string() } else { format!("{prefix}.{key}") }
}

fn text(value: Option<&Value>) -> String {
    value.and_then(Value::as_str).unwrap_or_default().trim().to_string()
}

fn options(values: Option<&Value>) -> Vec<FieldOption> {
    let Some(Value::Array(values)) = values else {
        return Vec::new();
    };
    values
        .iter()
        .filter_map(|v| {
            let value = v.get("value").filter(|v| !v.is_null())?.clone();
            Some(FieldOption { value, label: text(v.get("label")) })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn binding_paths_through_groups_and_lists() {
        let schema = json!({"id": " order ", "components": [
            {"type": "textfield", "key": "name", "label": " Name ", "validate": {"required": true}},
            {"type": "group", "key": "ignored", "components": [
                {"type": "number", "key": "age", "readonly": true}
            ]},
            {"type": "group", "path": "address", "components": [
                {"type": "textfield", "key": "street"},
                {"type": "group", "path": "geo.point", "components": [{"type": "number", "key": "lat"}]}
            ]},
            {"type": "dynamiclist", "path": "items", "components": [
                {"type": "select", "key": "size", "values": [{"label": "Small", "value": "s"}, {"label": "x"}, {"value": 2}]}
            ]},
            {"type": "text", "text": "hello"},
            {"type": "button", "key": "submit"},
            {"type": "checkbox", "key": "  "},
            {"type": "textarea", "key": "note", "readonly": "=locked"},
            {"type": "datetime", "key": "due", "subtype": "date", "dateLabel": "Due by"},
            "not a component"
        ]});
        let form = read_form(schema, "order.form".into()).unwrap();
        assert_eq!(form.id, "order");
        let keys: Vec<_> =
            form.input_fields.iter().map(|f| (f.key.as_str(), f.kind.as_str(), f.in_list)).collect();
        assert_eq!(
            keys,
            [
                ("name", "textfield", false),
                ("age", "number", false),
                ("address.street", "textfield", false),
                ("address.geo.point.lat", "number", false),
                ("items.size", "select", true),
                ("note", "textarea", false),
                ("due", "datetime", false)
            ]
        );
        let name = &form.input_fields[0];
        assert_eq!((name.label.as_str(), name.required, name.readonly), ("Name", true, false));
        assert!(form.input_fields[1].readonly);
        assert!(!form.input_fields[5].readonly, "a readonly expression decides at run time");
        assert_eq!(form.input_fields[6].label, "Due by", "a date field shows its dateLabel");
        let options: Vec<_> =
            form.input_fields[4].options.iter().map(|o| (o.value.clone(), o.label.as_str())).collect();
        assert_eq!(options, [(json!("s"), "Small"), (json!(2), "")]);
    }

    #[test]
    fn a_field_is_hidden_by_its_own_condition_and_its_containers() {
        let schema = json!({"components": [
            {"type": "group", "conditional": {"hide": "=a"}, "components": [
                {"type": "textfield", "key": "x", "conditional": {"hide": " =b "}},
                {"type": "textfield", "key": "y", "conditional": {"hide": "b"}}
            ]},
            {"type": "textfield", "key": "z", "conditional": {"hide": true}}
        ]});
        let form = read_form(schema, String::new()).unwrap();
        let hidden: Vec<Vec<&str>> =
            form.input_fields.iter().map(|f| f.hidden_when.iter().map(String::as_str).collect()).collect();
        assert_eq!(
            hidden,
            [vec!["=a", "=b"], vec!["=a"], vec![]],
            "form-js ignores what is not an expression"
        );
    }

    #[test]
    fn what_is_not_a_form() {
        assert_eq!(read_form(json!([1]), String::new()).unwrap_err(), "it is not a JSON object");
        assert_eq!(read_form(json!({"id": "x"}), String::new()).unwrap_err(), "it has no components list");
        assert_eq!(
            read_form(json!({"components": {}}), String::new()).unwrap_err(),
            "it has no components list"
        );
        assert_eq!(read_form(json!({"components": []}), String::new()).unwrap().id, "");
    }
}
