//! One named form through the gate's review and, with a process, the contract check of its step: what
//! `formgen check FORM --process FILE` reports for each form, and what the editors' core answers.

use serde_json::Value;

use super::{Located, Position, Rule, Unit, display_path};
use crate::check::{self, Code, Finding, Severity};
use crate::project::{Project, ProjectForm};
use crate::{bpmn, gate};

/// A form's text and how the report names it.
#[derive(Debug, Clone, Copy)]
pub struct NamedForm<'a> {
    /// The form as the user named it (its path as given).
    pub name: &'a str,
    /// The form's text: a saved `.form` file or a model's answer.
    pub text: &'a str,
    /// The id the editor holds the form under, stamped into the result.
    pub form_id: Option<&'a str>,
}

/// The step a form is checked at.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// The process.
    pub process: &'a bpmn::Process,
    /// Its index in the run's processes.
    pub index: usize,
    /// The step named, else every step that binds the form's id.
    pub element: Option<&'a str>,
}

/// The unit of one named form: the gate's review (each broken rule an error finding, a form that
/// cannot be read one `unreadable_form` sentence), then the contract check at its step. The project is
/// asked for only when the form has a step to be checked at. An element the process lacks is the
/// one error, with the sentence to say.
pub fn check_form<E>(
    form: NamedForm<'_>,
    step: Option<Step<'_>>,
    project: impl FnOnce() -> Result<Project, E>,
) -> Result<Unit, CheckError<E>> {
    let file = display_path(std::path::Path::new(form.name));
    let mut unit = Unit {
        form: form.name.to_string(),
        form_file: file.clone(),
        form_id: String::new(),
        process: step.map(|s| s.index),
        element_id: None,
        schema: None,
        located: Vec::new(),
    };
    let options = gate::Options {
        origin: gate::Origin::Author,
        form_id: form.form_id,
        process: step.map(|s| s.process),
        stop: None,
    };
    match gate::review_text(form.text, &options) {
        Ok(reviewed) => {
            let mut proposal = reviewed.proposal;
            let mut findings = check::gate_findings(&reviewed.problems);
            let (element_id, contract) = match step {
                Some(step) => step_findings(step, &proposal.schema, project)?,
                None => (None, Vec::new()),
            };
            findings.extend(contract);
            findings.sort_by_key(|f| f.severity);
            // a finding that says what a warning says replaces it
            check::without_repeats(&mut proposal.warnings, &findings);
            unit.located = findings.into_iter().map(|f| Located::in_form(f, &file, form.text)).collect();
            unit.located.extend(proposal.warnings.into_iter().map(|w| {
                Located::sentence(Rule::GATE_WARNING, Severity::Warning, w, &file, Position::START)
            }));
            unit.form_id = proposal.schema["id"].as_str().unwrap_or_default().to_string();
            unit.element_id = element_id;
            unit.schema = Some(proposal.schema);
        }
        Err(e) => {
            let at = match &e {
                gate::GateError::Unreadable(gate::Unreadable::FormSyntax { line, column, .. }) => {
                    Position { line: *line, column: *column }
                }
                _ => Position::START,
            };
            let rule = Rule::of(Code::UnreadableForm);
            unit.located = e
                .problems()
                .into_iter()
                .map(|p| Located::sentence(rule, Severity::Error, p, &file, at))
                .collect();
        }
    }
    Ok(unit)
}

/// Why a named form could not be checked at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckError<E> {
    /// The step named is not in the process.
    #[error("the process has no element \"{0}\"")]
    NoElement(String),
    /// The project could not be read.
    #[error("{0}")]
    Project(E),
}

fn step_findings<E>(
    step: Step<'_>,
    schema: &Value,
    project: impl FnOnce() -> Result<Project, E>,
) -> Result<(Option<String>, Vec<Finding>), CheckError<E>> {
    let Ok(form) = ProjectForm::read(schema.clone(), String::new()) else {
        return Ok((None, Vec::new()));
    };
    let process = step.process;
    let target = match step.element {
        Some(id) => Some(process.element_index(id).ok_or_else(|| CheckError::NoElement(id.to_string()))?),
        None => match check::step_binding(process, &form.id) {
            Some(i) => Some(i),
            None => return Ok((None, Vec::new())),
        },
    };
    let project = project().map_err(CheckError::Project)?;
    let element_id = target.map(|i| process.elements[i].id.to_string());
    if step.element.is_none() {
        // a form shared by several steps is checked at each step that binds it
        return Ok((element_id, check::check_bound_steps(process, &project, &form)));
    }
    Ok((element_id, check::check_step(process, target, &project, &form)))
}
