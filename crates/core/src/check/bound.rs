//! The forms the steps of a process bind, each found where its key says (embedded in the BPMN, a form
//! of the project by id, a deployed form's file) or missing: what `formgen check --project` checks step
//! by step, and what the process's lint reports on its elements.

use serde_json::Value;

use super::{FormRef, Missing, bound_forms, deployed, has_forms, missing_form, review_at_step};
use crate::bpmn::Process;
use crate::check::Finding;
use crate::project::Project;

/// A form a step binds, found.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundForm {
    /// How the report names it: its project file, or "the embedded form ID".
    pub name: String,
    /// Its project file, when it is one (an embedded form is in the BPMN).
    pub file: Option<String>,
    /// Its schema.
    pub schema: Value,
}

/// The form of one binding step, found or missing.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundStep {
    /// The step's index in the process.
    pub index: usize,
    /// The form, or the name the step gives it and why it is missing.
    pub form: Result<BoundForm, (String, Missing)>,
}

/// Every step of `process` that binds a form-js form this project can answer for. Other applications'
/// forms are passed over, as are project ids in a project with no form at all (the forms are kept
/// elsewhere).
pub fn bound_steps(process: &Process, project: &Project) -> Vec<BoundStep> {
    let mut out = Vec::new();
    for (index, reference) in bound_forms(process) {
        let element = &process.elements[index];
        let form = match reference {
            FormRef::Embedded(id) => {
                let name = format!("the embedded form {id}");
                match process.linked_form(element) {
                    Some(linked) => match serde_json::from_str(&linked.body) {
                        Ok(schema) => Ok(BoundForm { name, file: None, schema }),
                        Err(e) => Err((name, Missing::NotJson(e.to_string()))),
                    },
                    None => Err((id.to_string(), Missing::NotEmbedded)),
                }
            }
            FormRef::Project(_) | FormRef::Deployed(_) => {
                let form = match reference {
                    FormRef::Deployed(file) => deployed(project, file),
                    _ => project.form(&element.form_id),
                };
                match form {
                    Some(form) => Ok(BoundForm {
                        name: form.file.clone(),
                        file: Some(form.file.clone()),
                        schema: form.schema.clone(),
                    }),
                    None if matches!(reference, FormRef::Project(_)) && !has_forms(project) => continue,
                    None => Err((element.form_id.to_string(), Missing::NotInProject)),
                }
            }
            FormRef::None | FormRef::External => continue, // another application's form
        };
        out.push(BoundStep { index, form });
    }
    out
}

/// What is wrong with a process on its elements: its own findings (names read that nothing writes,
/// literals, decisions), a bound form the project lacks, and the findings of each form embedded in
/// it at its step. A project form's own findings belong to its file, not the process's elements.
pub fn lint(process: &Process, project: &Project) -> Vec<Finding> {
    let mut findings = super::process_findings(process, project);
    for step in bound_steps(process, project) {
        let element = &process.elements[step.index];
        match step.form {
            Ok(form) if form.file.is_none() => {
                let found = review_at_step(form.schema, &form.name, process, step.index, project);
                findings.extend(found.into_iter().map(|mut f| {
                    f.element_id = Some(element.id.to_string());
                    f
                }));
            }
            Ok(_) => {}
            Err((name, missing)) => {
                let mut finding = missing_form(element, &name, &missing, project);
                finding.element_id = Some(element.id.to_string());
                findings.push(finding);
            }
        }
    }
    findings
}
