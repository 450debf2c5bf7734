//! The gate's refusal of a component that asks for a secret: which of its properties are read, and
//! the sentence. What counts as asking is [`crate::words::secrets`]'s.

use serde_json::{Map, Value};

use crate::formjs;
use crate::words::secrets::{Asks, asks};
/// The properties of a component read for what it asks: what an input shows and binds, and a
/// container's path and label.
const READ: &[&str] = &["key", "path", "label", "description", "placeholder", "dateLabel", "timeLabel"];

/// The text a textfield or number shows before and after its input (`appearance`), and how a
/// refusal names it.
const ADORNERS: &[(&str, &str)] = &[("prefixAdorner", "prefix adorner"), ("suffixAdorner", "suffix adorner")];

/// The refusal for a component that asks for a secret or a national id, naming what gave it away.
pub fn refusal(c: &Map<String, Value>, original_type: Option<&str>, who: &str) -> Option<String> {
    let shows_no_field = original_type.is_some_and(|t| {
        formjs::PRESENTATIONAL.contains(&t)
            || formjs::synonym(t).is_some_and(|r| r.kind.class() == formjs::Class::Presentational)
    });
    if shows_no_field {
        return None;
    }
    let options = c.get("values").and_then(Value::as_array).into_iter().flatten();
    let appearance = c.get("appearance").and_then(Value::as_object);
    let texts =
        || {
            std::iter::once(("type", original_type))
                .chain(READ.iter().map(|p| (*p, c.get(*p).and_then(Value::as_str))))
                .chain(options.clone().map(|o| ("option label", o.get("label").and_then(Value::as_str))))
                .chain(ADORNERS.iter().map(move |(p, what)| {
                    (*what, appearance.and_then(|a| a.get(*p)).and_then(Value::as_str))
                }))
        };
    // "PWD" is a person with a disability when the field says so anywhere (its key may not)
    let disability = texts().any(|(_, t)| t.is_some_and(|t| t.to_lowercase().contains("disab")));
    for (what, text) in texts() {
        match text.and_then(asks) {
            Some(Asks::Secret(w)) if w == "pwd" && disability => {}
            Some(Asks::Secret(secret)) => {
                return Some(format!(
                    "{who} asks for a secret (its {what} says \"{secret}\"). A form is stored and read by people and agents, so no field is safe for one: keep credentials in a vault and let the form name the entry instead."
                ));
            }
            Some(Asks::NationalId(id)) => {
                return Some(format!(
                    "{who} asks for a national identification number (its {what} says \"{id}\"). Whatever is typed into a form is stored with the process and shown to everyone who can read its data, so this personal data would be exposed: leave the field out, or collect the number in a system made for personal data and let the form refer to the record."
                ));
            }
            None => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_labels_and_adorners_are_read() {
        let refused = |c: Value| refusal(c.as_object().unwrap(), c["type"].as_str(), "The field");
        let option = serde_json::json!({"type": "radio", "key": "login", "label": "Sign in with",
            "values": [{"label": "Email", "value": "email"}, {"label": "Password", "value": "pass"}]});
        let sentence = refused(option).expect("refused");
        assert!(sentence.contains("its option label says \"password\""), "{sentence}");
        for (side, what) in [("prefixAdorner", "prefix adorner"), ("suffixAdorner", "suffix adorner")] {
            let adorned = serde_json::json!({"type": "textfield", "key": "x", "label": "Login",
                "appearance": {side: "Password"}});
            let sentence = refused(adorned).expect("refused");
            assert!(sentence.contains(&format!("its {what} says")), "{sentence}");
        }
        let fine = serde_json::json!({"type": "number", "key": "amount", "label": "Amount",
            "appearance": {"prefixAdorner": "€", "suffixAdorner": "per month"},
            "values": [{"label": "One-time payment", "value": "once"}]});
        assert_eq!(refused(fine), None);
    }
}
