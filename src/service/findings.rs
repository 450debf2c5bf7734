//! Which step a form is checked against, and the contract check run for it on the blocking pool when
//! the process is large. The check itself is [`crate::check`]; this only picks the step and the thread.

use serde_json::Value;

use super::admission::Held;
use super::complete::AnswerCheck;
use super::generate::Generation;
use super::{Service, ServiceError, offload};
use crate::check::Finding;
use crate::sources::Target;

pub(super) use crate::check::FormStep as Step;

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
