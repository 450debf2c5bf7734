//! How a step names its form, and what the project makes of that name: the form to check, or a
//! finding that the step binds a form nobody can find or read.

use crate::bpmn::{LINKED_FORM_PREFIX, Process};
use crate::project::Project;

/// Camunda 7's key for a form-js form deployed with the process.
const DEPLOYED_PREFIX: &str = "camunda-forms:deployment:";

/// What a step's form reference names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormRef<'a> {
    /// No form.
    None,
    /// A form embedded in the BPMN (`camunda-forms:bpmn:ID`, a `zeebe:userTaskForm`).
    Embedded(&'a str),
    /// A form-js form of the project, by its id (`zeebe:formDefinition formId`, a bare form key).
    Project(&'a str),
    /// A form-js file deployed with the process (`camunda-forms:deployment:FILE`), by its file name.
    Deployed(&'a str),
    /// Something else an application resolves (`embedded:app:forms/x.html`, `${expression}`, a URL):
    /// not a form-js form formgen can check.
    External,
}

/// Reads a step's form reference (`Element::form_id`).
pub(crate) fn form_ref(form_id: &str) -> FormRef<'_> {
    let id = form_id.trim();
    if id.is_empty() {
        return FormRef::None;
    }
    if let Some(inner) = id.strip_prefix(LINKED_FORM_PREFIX) {
        return FormRef::Embedded(inner);
    }
    if let Some(file) = id.strip_prefix(DEPLOYED_PREFIX) {
        return FormRef::Deployed(file);
    }
    if id.contains([':', '/', '\\', '$', '#', '{', ' ']) {
        return FormRef::External;
    }
    FormRef::Project(id)
}

/// Whether a project holds form-js forms at all: where it holds none, a bare form key names a form of
/// some other application, not a missing form-js file.
pub(crate) fn has_forms(project: &Project) -> bool {
    !project.forms.is_empty() || !project.form_problems.is_empty()
}

/// The project form a deployed-form key names: a form whose file is that name (or ends with it as a
/// path), else one whose id it is.
pub fn deployed<'p>(project: &'p Project, file: &str) -> Option<&'p crate::project::ProjectForm> {
    let file = file.trim_start_matches("./");
    let by_file = project.forms.iter().find(|f| {
        let name = f.file.replace('\\', "/");
        name == file || name.ends_with(&format!("/{file}"))
    });
    by_file.or_else(|| project.form(file.trim_end_matches(".form")))
}

/// The elements of `process` that bind a form, with what they name.
pub(crate) fn bound_forms(process: &Process) -> impl Iterator<Item = (usize, FormRef<'_>)> {
    process
        .elements
        .iter()
        .enumerate()
        .map(|(i, e)| (i, form_ref(&e.form_id)))
        .filter(|(_, r)| *r != FormRef::None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_read_by_their_shape() {
        assert_eq!(form_ref(""), FormRef::None);
        assert_eq!(form_ref("camunda-forms:bpmn:userTaskForm_1"), FormRef::Embedded("userTaskForm_1"));
        assert_eq!(form_ref("approve-vacation"), FormRef::Project("approve-vacation"));
        assert_eq!(form_ref("camunda-forms:deployment:forms/a.form"), FormRef::Deployed("forms/a.form"));
        for external in ["embedded:app:forms/a.html", "${formKey}", "app:task.jsf", "https://x/y"] {
            assert_eq!(form_ref(external), FormRef::External, "{external}");
        }
    }
}
