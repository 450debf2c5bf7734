//! The builtin draft of one step, as the service answers it: drafted, through the gate, reconciled
//! with the author's form for a refinement, and checked against the step's contract.

use serde_json::Value;

use super::{Around, draft_in, refine};
use crate::bpmn::Process;
use crate::check::{self, Finding, StepCheck};
use crate::gate::{self, GateError, Proposal};
use crate::sources::{Resolved, Target};

/// The builtin draft of `element` of `process`, through the gate under `form_id`, and for a refinement
/// (`current`) reconciled with the author's form; the drafter's own warnings first.
pub fn gated(
    process: Option<&Process>,
    element: Option<usize>,
    around: Option<Around<'_>>,
    description: &str,
    current: Option<&Value>,
    form_id: Option<&str>,
) -> Result<Proposal, GateError> {
    let draft = draft_in(process, element, around, description, current);
    let mut proposal = gate::schema_from_value(draft.form, form_id, process)?;
    if let Some(current) = current {
        proposal = refine::reconciled(proposal, current, form_id, process);
    }
    proposal.warnings.splice(0..0, draft.warnings);
    Ok(proposal)
}

/// A step's builtin draft with what the author should know of it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Drafted {
    /// The proposal's form-js schema.
    pub schema: Value,
    /// What the author should know: how the process and project were read, what the gate repaired,
    /// what a refinement changed (a sentence a finding says too is left out).
    pub warnings: Vec<String>,
    /// The proposal's contract check at its step.
    pub findings: Vec<Finding>,
}

/// The builtin draft of a resolved step, as `formgen generate --worker builtin` writes it. `current`
/// is the author's form to refine, mended first: what breaks a rule is left out, and said.
pub fn draft_step(
    target: &Target,
    description: &str,
    current: Option<Value>,
    form_id: Option<&str>,
) -> Result<Drafted, GateError> {
    let (current, mended) = match current {
        Some(form) => {
            let (form, said) = gate::mend(form)?;
            (Some(form), said)
        }
        None => (None, Vec::new()),
    };
    let (process, element) = (target.process(), target.element_index());
    let form_id = gate::choose_form_id(form_id, current.as_ref(), Some((process, element)));
    let picture = crate::flow::picture(process, element, target.project());
    let contract = crate::flow::contract(process, element, target.project());
    let around = Around { picture: &picture, project: target.project(), contract: &contract };
    let proposal =
        gated(Some(process), element, Some(around), description, current.as_ref(), form_id.as_deref())?;
    let findings = StepCheck::from_contract(process, element, target.project(), contract.clone())
        .of_schema(&proposal.schema);
    let mut warnings = Resolved::Found(target.clone()).warnings();
    warnings.extend(mended);
    warnings.extend(proposal.warnings);
    check::without_repeats(&mut warnings, &findings);
    Ok(Drafted { schema: proposal.schema, warnings, findings })
}
