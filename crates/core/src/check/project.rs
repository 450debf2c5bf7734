//! The check over a project: a bound form reviewed and checked at its step, a bound form that cannot
//! be found or read, and the project's `.form` files that no step can use as they are.

use super::{Code, Finding, Severity, check_step, gate_findings};
use crate::bpmn::{Element, Process};
use crate::gate::{self, Options, Origin};
use crate::project::{FormFileProblem, Project, ProjectForm};

/// Why a step's form is not there to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// The step names a form embedded in the BPMN that the BPMN does not hold.
    NotEmbedded,
    /// The step names a form the project does not hold.
    NotInProject,
    /// The embedded form is not JSON (serde_json's sentence).
    NotJson(String),
}

/// The findings of a form (as the project or the BPMN holds it, `name` saying which) at the step at
/// `target`: every rule of the gate it breaks, then its contract findings. Nothing is refused; a
/// value that is no form at all is one `unreadable_form` finding.
pub fn review_at_step(
    schema: serde_json::Value,
    name: &str,
    process: &Process,
    target: usize,
    project: &Project,
) -> Vec<Finding> {
    let options = Options { origin: Origin::Author, process: Some(process), ..Options::default() };
    let reviewed = match gate::review_value(schema, &options) {
        Ok(reviewed) => reviewed,
        Err(e) => {
            let message =
                crate::words::capitalise(&format!("{name} cannot be checked: {}", e.problems().join(" ")));
            return vec![process_finding(Code::UnreadableForm, Severity::Error, None, message)];
        }
    };
    let mut findings = gate_findings(&reviewed.problems);
    if let Ok(form) = ProjectForm::read(reviewed.proposal.schema, name.to_string()) {
        findings.extend(check_step(process, Some(target), project, &form));
    }
    findings.sort_by_key(|f| f.severity);
    findings
}

/// The finding of a step whose form is not there to check (an error: the step shows no form).
pub fn missing_form(element: &Element, name: &str, missing: &Missing, project: &Project) -> Finding {
    let step_name = crate::words::one_line(&element.name);
    let step = if step_name.is_empty() {
        format!("The step {}", element.id)
    } else {
        format!("The step \"{step_name}\"")
    };
    let unreadable = project.form_problems.iter().find_map(|p| match p {
        FormFileProblem::Unreadable { why, .. } => Some(why.as_str()),
        FormFileProblem::DuplicateId { .. } => None,
    });
    let (code, message) = match missing {
        Missing::NotEmbedded => (
            Code::FormNotFound,
            format!(
                "{step} binds the embedded form \"{name}\", which the BPMN does not hold; the task shows no form. Embed the form again or bind a form of the project."
            ),
        ),
        Missing::NotInProject => {
            let hint = match unreadable {
                Some(why) => {
                    format!(" A form file of the project could not be read, and may be the one: {why}")
                }
                None => " Add the form to the project, or correct the form id.".to_string(),
            };
            (
                Code::FormNotFound,
                format!("{step} binds the form \"{name}\", which the project does not hold.{hint}"),
            )
        }
        Missing::NotJson(why) => (
            Code::UnreadableForm,
            format!(
                "{step} binds {name}, which is not JSON ({why}); the task cannot show it. Correct the form."
            ),
        ),
    };
    let mut finding = process_finding(code, Severity::Error, Some(element), message);
    finding.key = None;
    finding
}

/// The project's `.form` files that no step can use as they are, by file: unreadable ones (an
/// error: a step may bind one) and ones whose id an earlier file has (a warning).
pub fn project_findings(project: &Project) -> Vec<(String, Finding)> {
    project
        .form_problems
        .iter()
        .map(|p| match p {
            FormFileProblem::Unreadable { file, why } => {
                (file.clone(), process_finding(Code::UnreadableForm, Severity::Error, None, why.clone()))
            }
            FormFileProblem::DuplicateId { file, id, first } => {
                let message = format!(
                    "{file} has the form id \"{id}\", which {first} has too; a step that binds \"{id}\" gets {first}, so give one of them another id."
                );
                (file.clone(), process_finding(Code::DuplicateFormId, Severity::Warning, None, message))
            }
        })
        .collect()
}

fn process_finding(code: Code, severity: Severity, element: Option<&Element>, message: String) -> Finding {
    Finding {
        code,
        severity,
        key: None,
        label: None,
        element_id: element.map(|e| e.id.to_string()),
        expression: None,
        message,
    }
}
