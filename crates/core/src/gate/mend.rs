//! A hand-written form made one the gate accepts, for a refinement: each component that breaks a rule
//! is left out, with a sentence that names it and says why. The rest is the author's, untouched.

use serde_json::Value;

use super::{GateError, Options, Origin, Problem, Reviewed, review_value};

/// How many rounds of leaving components out before giving up (a component left out can only
/// uncover problems of its own kind, such as a clash it was half of).
const ROUNDS: usize = 3;

/// The form with every component that breaks a rule left out, and a sentence for each. Refused
/// (with the rules it still breaks) only when leaving components out does not make it pass.
pub fn mend(mut form: Value) -> Result<(Value, Vec<String>), GateError> {
    let options = Options { origin: Origin::Author, ..Options::default() };
    let mut said = Vec::new();
    for _ in 0..ROUNDS {
        let Reviewed { problems, .. } = review_value(form.clone(), &options)?;
        if problems.is_empty() {
            return Ok((form, said));
        }
        let components = match &mut form {
            Value::Array(list) => list,
            Value::Object(map) => match map.get_mut("components") {
                Some(Value::Array(list)) => list,
                _ => break,
            },
            _ => break,
        };
        let before = said.len();
        for p in &problems {
            if leave_out(components, "", p) {
                said.push(sentence(p));
            }
        }
        if said.len() == before {
            break;
        }
    }
    let Reviewed { problems, .. } = review_value(form.clone(), &options)?;
    if problems.is_empty() {
        Ok((form, said))
    } else {
        Err(GateError::Refused(problems.into_iter().map(|p| p.message).collect()))
    }
}

fn sentence(p: &Problem) -> String {
    let what = p.message.trim_end_matches('.');
    format!(
        "Your form's component {} was left out of the refinement: {what}.",
        p.key.as_deref().unwrap_or("?")
    )
}

/// Removes the component a problem is located at (its binding path or id; a component that is not an
/// object when the problem has no place); whether one went.
fn leave_out(components: &mut Vec<Value>, prefix: &str, p: &Problem) -> bool {
    let Some(at) = p.key.as_deref() else {
        let before = components.len();
        components.retain(Value::is_object);
        return components.len() < before;
    };
    for i in 0..components.len() {
        let Some(c) = components[i].as_object() else { continue };
        let own = c.get("key").or_else(|| c.get("path")).and_then(Value::as_str).filter(|k| !k.is_empty());
        let full = match own {
            Some(k) if prefix.is_empty() => Some(k.to_string()),
            Some(k) => Some(format!("{prefix}.{k}")),
            None => None,
        };
        let id = c.get("id").and_then(Value::as_str);
        if full.as_deref() == Some(at) || (own.is_none() && id == Some(at)) {
            components.remove(i);
            return true;
        }
        let inner = match (c.get("type").and_then(Value::as_str), full) {
            (Some("dynamiclist"), _) => String::new(),
            (_, Some(path)) if c.contains_key("path") => path,
            _ => prefix.to_string(),
        };
        if let Some(Value::Array(children)) = components[i].get_mut("components")
            && leave_out(children, &inner, p)
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_component_that_breaks_a_rule_is_left_out_and_named() {
        let form = json!({"id": "f", "components": [
            {"type": "textfield", "key": "name", "label": "Name"},
            {"type": "textfield", "key": "cvc", "label": "CVC"},
            {"type": "group", "path": "card", "components": [
                {"type": "checkbox", "key": "ok", "label": "OK", "readonly": "on"}
            ]}
        ]});
        let (mended, said) = mend(form).unwrap();
        let keys: Vec<&str> =
            mended["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
        assert_eq!(keys, ["name"]);
        assert_eq!(mended["components"][1]["components"], json!([]));
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("cvc") && said[0].contains("secret"), "{said:?}");
        assert!(said[1].contains("card.ok") && said[1].contains("readonly"), "{said:?}");
    }

    #[test]
    fn a_form_that_passes_is_kept_as_it_is() {
        let form = json!({"components": [{"type": "textfield", "key": "a", "label": "A"}]});
        assert_eq!(mend(form.clone()).unwrap(), (form, Vec::new()));
    }
}
