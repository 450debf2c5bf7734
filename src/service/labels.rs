//! The draft's labels given back where a model's answer wrote a label no person would choose: the key
//! itself (`Concern_estimate`, `loan_amount`) where the draft reads it as words, or a label another
//! field of the same form has too (two fields that read "Message delivered") where the draft tells them
//! apart, or a label of its own for a value the project already names (a sibling form's "Invoice
//! Document Creditor" written "Creditor"). Small models copy a neighbour's label or the identifier they
//! were shown, and reword what the prompt asked them to reuse; a label the author wants differently is
//! theirs to write in a refinement, but one that cannot tell two fields apart is never it.

use std::collections::HashMap;

use serde_json::Value;

use super::complete::{group_path, label_of, path_in};

/// Gives every keyed field of `components` (inside groups too) whose label is its key, is shared with
/// another field, or differs from a label the project gives its value (`named`: the binding paths whose
/// draft label is the project's), the label `draft` has for its binding path, where that label differs.
/// Returns the paths given back, with the label each now reads.
pub(super) fn restore(
    components: &mut [Value],
    draft: &dyn Fn(&str) -> Option<String>,
    named: &dyn Fn(&str) -> bool,
) -> Vec<(String, String)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    visit(components, "", &mut |_, field| {
        *seen.entry(fold(label_of(field))).or_default() += 1;
    });
    let mut restored = Vec::new();
    visit(components, "", &mut |path, field| {
        let label = fold(label_of(field));
        let Some(theirs) = draft(path) else { return };
        // the draft's label in other letters ("question" for "Question") is still the key written bare
        if label.is_empty() || label_of(field).trim() == theirs.trim() {
            return;
        }
        let name = path.rsplit('.').next().unwrap_or(path);
        // a one-word key written as a word ("Amount") is a label; written as the key ("amount"), it is not
        let written = label_of(field).trim();
        let is_key = (label == fold(name) && (written == name || !reads_as_words(name)))
            || (path.contains('.') && label == fold(path));
        if is_key || seen.get(&label).copied().unwrap_or(0) > 1 || named(path) {
            field["label"] = Value::String(theirs.clone());
            restored.push((path.to_string(), theirs));
        }
    });
    restored
}

/// The sentence for the labels given back, if any.
pub(super) fn restored_warning(restored: &[(String, String)]) -> Option<String> {
    if restored.is_empty() {
        return None;
    }
    let each: Vec<String> =
        restored.iter().map(|(path, label)| format!("`{path}` reads \"{label}\"")).collect();
    Some(format!(
        "The model's form labelled {} by {} key, with another field's label or otherwise than the project \
         names the value; formgen gave back its draft's label: {}.",
        if restored.len() == 1 { "a field" } else { "fields" },
        if restored.len() == 1 { "its" } else { "their" },
        each.join(", ")
    ))
}

/// Calls `f` with the binding path of every keyed field, at any depth: a group's `path` prefixes its
/// fields' keys. A dynamic list's fields bind keys of its items, which no draft label names.
pub(super) fn visit(components: &mut [Value], prefix: &str, f: &mut dyn FnMut(&str, &mut Value)) {
    for c in components {
        match c.get("type").and_then(Value::as_str) {
            Some("dynamiclist") => continue,
            Some("group") => {
                let inner = group_path(prefix, c);
                if let Some(children) = c.get_mut("components").and_then(Value::as_array_mut) {
                    visit(children, &inner, f);
                }
                continue;
            }
            _ => {}
        }
        if let Some(key) = c.get("key").and_then(Value::as_str) {
            let path = path_in(prefix, key);
            f(&path, c);
        }
    }
}

/// Whether a key's name is one word, which a label may write with a capital (`amount` as "Amount");
/// `loan_amount` or `messageDelivered` read as words only once the label spells them out.
fn reads_as_words(name: &str) -> bool {
    name.chars().all(char::is_alphanumeric) && !name.chars().skip(1).any(char::is_uppercase)
}

/// A label as a reader compares it: case and runs of spaces aside.
fn fold(label: &str) -> String {
    label.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn draft(path: &str) -> Option<String> {
        match path {
            "message" => Some("Message".into()),
            "messageDelivered" => Some("Message delivered".into()),
            "concern_estimate" => Some("Einschätzung".into()),
            "sentiment" => Some("Stimmung".into()),
            "amount" => Some("Invoice amount".into()),
            "claim.note" => Some("Note".into()),
            _ => None,
        }
    }

    #[test]
    fn a_label_copied_from_another_field_or_the_key_gets_the_drafts_back() {
        let mut form = json!([
            {"type": "textarea", "key": "message", "label": "Message delivered"},
            {"type": "textarea", "key": "messageDelivered", "label": "Message delivered"},
            {"type": "textfield", "key": "concern_estimate", "label": "Concern_estimate"},
            {"type": "textfield", "key": "sentiment", "label": "sentiment"},
            {"type": "group", "path": "claim", "components": [
                {"type": "textfield", "key": "note", "label": "claim.note"}
            ]}
        ]);
        let restored = restore(form.as_array_mut().unwrap(), &draft, &|_| false);
        assert_eq!(
            restored,
            [
                ("message".to_string(), "Message".to_string()),
                ("concern_estimate".to_string(), "Einschätzung".to_string()),
                ("sentiment".to_string(), "Stimmung".to_string()),
                ("claim.note".to_string(), "Note".to_string())
            ]
        );
        assert_eq!(form[0]["label"], "Message");
        assert_eq!(form[1]["label"], "Message delivered", "its own draft label stays");
        let warning = restored_warning(&restored).unwrap();
        assert!(warning.contains("`message` reads \"Message\""), "{warning}");
    }

    #[test]
    fn a_value_the_project_names_gets_the_projects_label_back() {
        let mut form = json!([
            {"type": "number", "key": "amount", "label": "Total"},
            {"type": "textarea", "key": "message", "label": "Your message"}
        ]);
        let restored = restore(form.as_array_mut().unwrap(), &draft, &|path| path == "amount");
        assert_eq!(restored, [("amount".to_string(), "Invoice amount".to_string())]);
        assert_eq!(form[1]["label"], "Your message", "a label the project does not give stays the model's");
        assert!(restored_warning(&restored).unwrap().contains("otherwise than the project names the value"));
    }

    #[test]
    fn a_one_word_key_written_bare_gets_the_drafts_label_even_where_only_the_case_differs() {
        let mut form = json!([{"type": "textarea", "key": "message", "label": "message"}]);
        let restored = restore(form.as_array_mut().unwrap(), &draft, &|_| false);
        assert_eq!(restored, [("message".to_string(), "Message".to_string())]);
        assert_eq!(form[0]["label"], "Message");
    }

    #[test]
    fn a_label_of_the_models_own_stays() {
        let mut form = json!([
            {"type": "number", "key": "amount", "label": "Amount"},
            {"type": "textarea", "key": "message", "label": "Your message to the customer"},
            {"type": "checkbox", "key": "messageDelivered", "label": "Message Delivered"},
            {"type": "textfield", "key": "invented", "label": "Invented"},
            {"type": "textfield", "key": "other", "label": "Invented"}
        ]);
        let before = form.clone();
        assert!(
            restore(form.as_array_mut().unwrap(), &draft, &|_| false).is_empty(),
            "a one-word key is a label, so is the draft's label in other letters, and a field without a draft label \
             is the model's"
        );
        assert_eq!(form, before);
        assert_eq!(restored_warning(&[]), None);
    }
}
