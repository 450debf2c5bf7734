//! Which step a form is checked against, and the contract check run for it on the blocking pool when
//! the process is large. The check itself is [`crate::check`]; this only picks the step and the thread.

use serde_json::Value;

use super::admission::Held;
use super::complete::AnswerCheck;
use super::generate::Generation;
use super::{Service, ServiceError, offload};
use crate::check::{self, Finding, StepCheck};
use crate::sources::Target;

/// The step a form is for.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Step {
    /// The step the request resolved: the one it named, or the start form.
    Resolved,
    /// The step that binds this form id, if any does; no check when none does.
    BoundTo(String),
}

impl Step {
    /// A validation's step: the element it names, else the step bound to the form id it gives, else
    /// to the schema's own `id`.
    pub(super) fn of_validate(element_id: Option<&str>, form_id: Option<&str>, schema: &Value) -> Step {
        if element_id.is_some() {
            return Step::Resolved;
        }
        let id = form_id.or_else(|| schema.get("id").and_then(Value::as_str)).unwrap_or_default();
        Step::BoundTo(id.to_string())
    }

    /// The checks for this step of `target`'s process: the one it resolved, or each step that binds
    /// the form (a form shared by several steps is checked at each); none when no step binds it.
    pub(super) fn checks(&self, target: &Target) -> Vec<StepCheck> {
        let indexes = match self {
            Step::Resolved => vec![target.element_index()],
            Step::BoundTo(id) => check::steps_binding(target.process(), id).into_iter().map(Some).collect(),
        };
        indexes.into_iter().map(|i| StepCheck::new(target.process(), i, target.project())).collect()
    }
}

impl Service {
    /// The findings of an accepted `schema` for `step` of `target`'s process.
    pub(super) async fn step_findings(
        &self,
        held: &Held,
        target: Target,
        step: Step,
        schema: Value,
    ) -> Result<Vec<Finding>, ServiceError> {
        let large = offload::target_is_large(&target);
        self.cpu(held, large, move |stop| {
            let mut findings: Vec<Finding> = Vec::new();
            for check in step.checks(&target) {
                stop.check()?;
                for f in check.of_schema(&schema) {
                    if !findings.contains(&f) {
                        findings.push(f);
                    }
                }
            }
            findings.sort_by_key(|f| f.severity);
            Ok(findings)
        })
        .await
    }
}

impl Service {
    /// A model's gated answer, completed with what the step must supply, with its findings; on the
    /// blocking pool when the process was large.
    pub(super) async fn checked(
        &self,
        held: &Held,
        mut generation: Generation,
        check: Option<AnswerCheck>,
        form_id: Option<String>,
        large: bool,
    ) -> Result<(Generation, Vec<Finding>), ServiceError> {
        let Some(check) = check else { return Ok((generation, Vec::new())) };
        self.cpu(held, large, move |_| {
            let findings = check.complete(&mut generation.proposal, form_id.as_deref());
            Ok((generation, findings))
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_named_element_wins_then_the_given_form_id_then_the_schema_s_id() {
        let schema = json!({"id": "own"});
        assert_eq!(Step::of_validate(Some("Task_1"), Some("given"), &schema), Step::Resolved);
        assert_eq!(Step::of_validate(None, Some("given"), &schema), Step::BoundTo("given".into()));
        assert_eq!(Step::of_validate(None, None, &schema), Step::BoundTo("own".into()));
        assert_eq!(Step::of_validate(None, None, &json!({})), Step::BoundTo(String::new()));
    }
}
