//! The draft's control given back where a model's answer, held to the step's own data (a first
//! generation without a brief), asks as plain text for a value its draft asks for with another
//! control: a number, a date, a yes/no box, a choice of the values the process compares it with, a
//! text area for long text. The draft's control comes from what the process and its project say of
//! the value, which is all such a model was shown; small models write most fields as text fields
//! (`requestDetails`, `message`), and turn a choice into a text area. A control the author wants
//! otherwise is theirs to ask for in the brief or a refinement, where the answer is the model's.

use serde_json::Value;

use super::complete::label_of;
use super::labels::visit;

/// The plain text controls a model falls back to.
const PLAIN: [&str; 2] = ["textfield", "textarea"];

/// Gives every keyed field of `components` (inside groups too) that is a plain text control where
/// `draft` has another control for its binding path the draft's field, under the answer's key, label
/// and description. Returns the paths given back, each with the answer's type and the draft's.
pub(super) fn restore(
    components: &mut [Value],
    draft: &dyn Fn(&str) -> Option<Value>,
) -> Vec<(String, String, String)> {
    let mut restored = Vec::new();
    visit(components, "", &mut |path, field| {
        let answered = type_of(field).to_string();
        let Some(mut given) = draft(path) else { return };
        let drafted = type_of(&given).to_string();
        if !PLAIN.contains(&answered.as_str()) || drafted == answered || drafted.is_empty() {
            return;
        }
        let Some(obj) = given.as_object_mut() else { return };
        obj.remove("id");
        obj.insert("key".into(), field["key"].clone());
        let label = label_of(field).trim();
        if !label.is_empty() {
            let slot = match (drafted.as_str(), obj.get("subtype").and_then(Value::as_str)) {
                ("datetime", Some("time")) => "timeLabel",
                ("datetime", _) => "dateLabel",
                _ => "label",
            };
            obj.insert(slot.into(), Value::String(label.to_string()));
        }
        for own in ["description", "conditional"] {
            if let Some(v) = field.get(own) {
                obj.insert(own.into(), v.clone());
            }
        }
        *field = given;
        restored.push((path.to_string(), answered, drafted));
    });
    restored
}

/// The sentence for the controls given back, if any.
pub(super) fn restored_warning(restored: &[(String, String, String)]) -> Option<String> {
    if restored.is_empty() {
        return None;
    }
    let each: Vec<String> = restored
        .iter()
        .map(|(path, answered, drafted)| format!("`{path}` ({answered} → {drafted})"))
        .collect();
    Some(format!(
        "The model's form asked as plain text for {} its draft asks for with another control, from what the \
         process and project say of the value; formgen gave back the draft's: {}.",
        if restored.len() == 1 { "a value" } else { "values" },
        each.join(", ")
    ))
}

fn type_of(field: &Value) -> &str {
    field.get("type").and_then(Value::as_str).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn draft(path: &str) -> Option<Value> {
        match path {
            "amount" => Some(json!({"id": "Field_1", "type": "number", "key": "amount", "label": "Amount",
                "validate": {"min": 0}})),
            "due" => Some(json!({"type": "datetime", "key": "due", "subtype": "date", "dateLabel": "Due"})),
            "claim.decision" => Some(json!({"type": "select", "key": "claim.decision", "label": "Decision",
                "values": [{"label": "Approved", "value": "APPROVED"}, {"label": "Rejected", "value": "REJECTED"}]})),
            "details" => Some(json!({"type": "textarea", "key": "details", "label": "Details"})),
            "name" => Some(json!({"type": "textfield", "key": "name", "label": "Name"})),
            "urgent" => Some(json!({"type": "checkbox", "key": "urgent", "label": "Urgent"})),
            _ => None,
        }
    }

    #[test]
    fn a_value_the_draft_asks_for_with_another_control_gets_it_back() {
        let mut form = json!([
            {"type": "textfield", "key": "amount", "label": "Total amount", "description": "in EUR"},
            {"type": "textfield", "key": "due", "label": "Due by"},
            {"type": "group", "path": "claim", "components": [
                {"type": "textarea", "key": "decision", "label": "Your decision"}
            ]},
            {"type": "textfield", "key": "details", "label": ""}
        ]);
        let restored = restore(form.as_array_mut().unwrap(), &draft);
        let paths: Vec<&str> = restored.iter().map(|(p, _, _)| p.as_str()).collect();
        assert_eq!(paths, ["amount", "due", "claim.decision", "details"]);
        assert_eq!(
            form[0],
            json!({"type": "number", "key": "amount", "label": "Total amount", "description": "in EUR",
                "validate": {"min": 0}}),
            "the draft's control and bounds, the answer's words, no draft id"
        );
        assert_eq!((&form[1]["type"], &form[1]["dateLabel"]), (&json!("datetime"), &json!("Due by")));
        let decision = &form[2]["components"][0];
        assert_eq!((&decision["key"], &decision["type"]), (&json!("decision"), &json!("select")));
        assert_eq!(decision["values"][1]["value"], "REJECTED");
        assert_eq!((&form[3]["type"], &form[3]["label"]), (&json!("textarea"), &json!("Details")));
        let warning = restored_warning(&restored).unwrap();
        assert!(warning.contains("`amount` (textfield → number)"), "{warning}");
    }

    #[test]
    fn a_control_of_the_models_own_and_a_field_the_draft_has_not_stay() {
        let mut form = json!([
            {"type": "textarea", "key": "name", "label": "Name"},
            {"type": "radio", "key": "urgent", "label": "Urgent",
                "values": [{"label": "Yes", "value": "yes"}, {"label": "No", "value": "no"}]},
            {"type": "textfield", "key": "invented", "label": "Invented"}
        ]);
        let before = form.clone();
        let restored = restore(form.as_array_mut().unwrap(), &draft);
        assert_eq!(restored.len(), 1, "only the text area the draft has as a text field: {restored:?}");
        assert_eq!(form[0]["type"], "textfield");
        assert_eq!(
            (&form[1], &form[2]),
            (&before[1], &before[2]),
            "a choice the model made, and a field the draft has not, stay"
        );
        assert_eq!(restored_warning(&[]), None);
    }
}
