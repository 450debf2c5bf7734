//! The JSON schema of the answer sent for structured output: form-js's shape, kept deliberately small.
//!
//! Grammar-constrained decoders handle small schemas well and large ones badly; the gate fills in ids,
//! `schemaVersion` and the rest. It depends only on the Worker's settings.

use serde_json::{Value, json};

use crate::formjs::{CONTAINERS, INPUTS, OPTION_FIELDS};

/// The JSON schema of the answer, for structured output: form-js's shape, kept small. A component is a
/// field (which must have a key and a label), a container, or something shown; the gate fills in ids,
/// schemaVersion and the rest.
///
/// `max_components` caps each components list: small local models fill every list to its maximum. The
/// schema has no regular-expression `pattern`s: a real grammar-constrained server (llama.cpp) produced
/// unparseable output with them, and the gate checks keys and FEEL anyway.
///
/// `lean` leaves out the optional garnish (description, validate, defaultValue, conditional): a small
/// model constrained by a grammar fills in every property it is offered, and invented conditions and
/// defaults are what the gate then refuses.
pub fn answer_schema(max_components: usize, lean: bool) -> Value {
    let components =
        json!({"type": "array", "maxItems": max_components.max(1), "items": {"$ref": "#/$defs/component"}});
    let plain: Vec<&str> = INPUTS.iter().copied().filter(|t| !OPTION_FIELDS.contains(t)).collect();
    let key = json!({"type": "string"});
    let validate = json!({
        "type": "object",
        "properties": {
            "required": {"type": "boolean"},
            "min": {"type": "number"},
            "max": {"type": "number"},
            "minLength": {"type": "integer"},
            "maxLength": {"type": "integer"},
            "pattern": {"type": "string"}
        },
        "additionalProperties": false
    });
    let conditional = json!({
        "type": "object",
        "properties": {"hide": {"type": "string"}},
        "required": ["hide"],
        "additionalProperties": false
    });
    let values = json!({
        "type": "array",
        "minItems": 1,
        "maxItems": 40,
        "items": {
            "type": "object",
            "properties": {"label": {"type": "string"}, "value": {"type": "string"}},
            "required": ["label", "value"],
            "additionalProperties": false
        }
    });
    // A field binds a key and has a label; a choice also has its options. `lean` offers nothing more.
    let input = |types: &[&str], options: Option<Value>| {
        let mut properties = json!({
            "type": {"type": "string", "enum": types},
            "key": key,
            "label": {"type": "string"}
        });
        let mut required = vec!["type", "key", "label"];
        if let Some(options) = options {
            properties["values"] = options;
            required.push("values");
        }
        if !lean {
            properties["description"] = json!({"type": "string"});
            properties["validate"] = validate.clone();
            properties["defaultValue"] = json!({});
            properties["conditional"] = conditional.clone();
        }
        json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
    };
    let schema = json!({
        "type": "object",
        "properties": {"components": components},
        "required": ["components"],
        "additionalProperties": false,
        "$defs": {
            "component": {"anyOf": [
                {"$ref": "#/$defs/field"},
                {"$ref": "#/$defs/choice"},
                {"$ref": "#/$defs/container"},
                {"$ref": "#/$defs/display"}
            ]},
            "field": input(&plain, None),
            "choice": input(OPTION_FIELDS, Some(values)),
            "container": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": CONTAINERS},
                    "label": {"type": "string"},
                    "path": {"type": "string"},
                    "components": components
                },
                "required": ["type", "components"],
                "additionalProperties": false
            },
            "display": {
                "type": "object",
                "properties": {
                    "type": {"type": "string", "enum": ["text"]},
                    "text": {"type": "string"}
                },
                "required": ["type", "text"],
                "additionalProperties": false
            }
        }
    });
    schema
}

/// `schema` (an [`answer_schema`]) with every field's key one of `keys`, as an enum: a
/// grammar-constrained decoder then writes only those. The caller gives at least one key.
pub fn with_keys(schema: &Value, keys: &[String]) -> Value {
    let mut schema = schema.clone();
    for def in ["field", "choice"] {
        if let Some(key) = schema.pointer_mut(&format!("/$defs/{def}/properties/key")) {
            *key = json!({"type": "string", "enum": keys});
        }
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_held_to_a_list_are_an_enum_of_every_field_and_choice() {
        let keys = ["amount".to_string(), "approved".to_string()];
        let held = with_keys(&answer_schema(10, true), &keys);
        for def in ["field", "choice"] {
            assert_eq!(held["$defs"][def]["properties"]["key"], json!({"type": "string", "enum": keys}));
        }
        let free = answer_schema(10, true);
        assert_eq!(held["$defs"]["container"], free["$defs"]["container"], "a group's path stays free");
        assert_eq!(free["$defs"]["field"]["properties"]["key"], json!({"type": "string"}));
    }

    #[test]
    fn the_answer_schema_and_its_lean_form() {
        let full = answer_schema(40, false);
        assert_eq!(full["properties"]["components"]["maxItems"], 40);
        assert!(full["$defs"]["field"]["properties"]["conditional"].is_object());
        let lean = answer_schema(3, true);
        assert_eq!(lean["properties"]["components"]["maxItems"], 3);
        assert!(lean["$defs"]["field"]["properties"].get("conditional").is_none());
        assert!(lean["$defs"]["choice"]["properties"]["values"].is_object());
        assert!(!full.to_string().contains("\"pattern\":\""), "no regular-expression patterns");
    }
}
