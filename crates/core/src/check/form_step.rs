//! Which step a validated form is checked at: the element the call names, else every step that binds
//! the form's id (the one the editor holds it under, else its own). The service's `validate` and the
//! editors' core choose the same way.

use serde_json::Value;

use super::StepCheck;
use crate::sources::Target;

/// The step a form is for.
#[derive(Debug, Clone, PartialEq)]
pub enum FormStep {
    /// The step the call resolved: the one it named, or the start form.
    Resolved,
    /// The steps that bind this form id, if any do; no check when none does.
    BoundTo(String),
}

impl FormStep {
    /// A validation's step: the element it names, else the step bound to the form id it gives, else
    /// to the schema's own `id`.
    pub fn of_validate(element_id: Option<&str>, form_id: Option<&str>, schema: &Value) -> FormStep {
        if element_id.is_some() {
            return FormStep::Resolved;
        }
        let id = form_id.or_else(|| schema.get("id").and_then(Value::as_str)).unwrap_or_default();
        FormStep::BoundTo(id.to_string())
    }

    /// The checks for this step of `target`'s process: the one it resolved, or each step that binds
    /// the form (a form shared by several steps is checked at each); none when no step binds it.
    pub fn checks(&self, target: &Target) -> Vec<StepCheck> {
        let indexes = match self {
            FormStep::Resolved => vec![target.element_index()],
            FormStep::BoundTo(id) => {
                super::steps_binding(target.process(), id).into_iter().map(Some).collect()
            }
        };
        indexes.into_iter().map(|i| StepCheck::new(target.process(), i, target.project())).collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::FormStep;

    #[test]
    fn a_named_element_wins_then_the_given_form_id_then_the_schema_s_id() {
        let schema = json!({"id": "own"});
        assert_eq!(FormStep::of_validate(Some("Task_1"), Some("given"), &schema), FormStep::Resolved);
        assert_eq!(FormStep::of_validate(None, Some("given"), &schema), FormStep::BoundTo("given".into()));
        assert_eq!(FormStep::of_validate(None, None, &schema), FormStep::BoundTo("own".into()));
        assert_eq!(FormStep::of_validate(None, None, &json!({})), FormStep::BoundTo(String::new()));
    }
}
