//! `formgen check --project DIR` with no forms named: every form a step of a process in the folder
//! binds (a `formId` of the folder's `.form` files, or a form embedded in the BPMN) is gated and checked
//! against that step's contract, with a table per process.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use formgen::Limits;
use formgen::check::{self, Finding, Severity};
use formgen::project::{self, Project, ProjectBounds, ProjectForm};

use super::{UsageError, read_bpmn};

/// One step's form and what the check said.
struct Checked {
    element_id: String,
    form: String,
    /// The gate's refusal sentences, when it refused the form.
    refused: Vec<String>,
    findings: Vec<Finding>,
}

impl Checked {
    fn errors(&self) -> usize {
        self.refused.len() + self.findings.iter().filter(|f| f.severity == Severity::Error).count()
    }
}

pub(crate) fn run(dir: &Path, json: bool, limits: &Limits) -> Result<ExitCode, UsageError> {
    let bounds = ProjectBounds::from_limits(limits);
    let folder_error = |e: project::ProjectError| UsageError(format!("--project {}: {e}", dir.display()));
    let (project, _) = project::read_folder(dir, &bounds).map_err(folder_error)?;
    let processes = project::list_processes(dir, &bounds).map_err(folder_error)?;
    if processes.files.is_empty() {
        return Err(UsageError(format!("--project {}: the folder holds no .bpmn file", dir.display())));
    }
    let mut stdout = std::io::stdout().lock();
    let mut any_error = false;
    for file in &processes.files {
        let defs = read_bpmn(&file.path, limits)?;
        for process in &defs.processes {
            let checked = check_process(process, &project);
            any_error |= checked.iter().any(|c| c.errors() > 0);
            if json {
                for c in &checked {
                    let line = serde_json::json!({
                        "file": file.name, "processId": process.id.as_str(), "elementId": c.element_id,
                        "form": c.form, "refused": c.refused, "findings": c.findings,
                    });
                    let _ = writeln!(stdout, "{line}");
                }
            } else {
                let _ = write!(stdout, "{}", table(&file.name, process.id.as_str(), &checked));
            }
        }
    }
    Ok(if any_error { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Every step of `process` that binds a form the folder or the BPMN holds, checked.
fn check_process(process: &formgen::bpmn::Process, project: &Project) -> Vec<Checked> {
    let mut out = Vec::new();
    for (i, element) in process.elements.iter().enumerate().filter(|(_, e)| !e.form_id.is_empty()) {
        let (name, schema) = match process.linked_form(element) {
            Some(linked) => match serde_json::from_str(&linked.body) {
                Ok(schema) => (format!("the embedded form {}", linked.id), schema),
                Err(e) => {
                    out.push(refused(element.id.as_str(), &linked.id, format!("it is not JSON ({e})")));
                    continue;
                }
            },
            None => match project.form(&element.form_id) {
                Some(form) => (form.file.clone(), form.schema.clone()),
                None => continue, // a form the folder does not hold: nothing to check
            },
        };
        let checked = match formgen::gate::check_value(schema, None, Some(process)) {
            Ok(proposal) => match ProjectForm::read(proposal.schema, name.clone()) {
                Ok(form) => Checked {
                    element_id: element.id.to_string(),
                    form: name,
                    refused: Vec::new(),
                    findings: check::check_step(process, Some(i), project, &form),
                },
                Err(_) => continue,
            },
            Err(e) => Checked {
                element_id: element.id.to_string(),
                form: name,
                refused: e.problems(),
                findings: Vec::new(),
            },
        };
        out.push(checked);
    }
    out
}

fn refused(element_id: &str, form: &str, why: String) -> Checked {
    Checked {
        element_id: element_id.to_string(),
        form: form.to_string(),
        refused: vec![why],
        findings: Vec::new(),
    }
}

/// The table of one process: a line per step with its counts, then each sentence under it.
fn table(file: &str, process_id: &str, checked: &[Checked]) -> String {
    let mut out = format!("{file} (process {process_id}): {} forms checked\n", checked.len());
    if checked.is_empty() {
        return out;
    }
    let width = checked.iter().map(|c| c.element_id.chars().count()).max().unwrap_or(4).max(4);
    out.push_str(&format!("  {:<width$}  {:>6} {:>8} {:>4}  form\n", "step", "errors", "warnings", "info"));
    for c in checked {
        let count = |s: Severity| c.findings.iter().filter(|f| f.severity == s).count();
        out.push_str(&format!(
            "  {:<width$}  {:>6} {:>8} {:>4}  {}\n",
            c.element_id,
            c.errors(),
            count(Severity::Warning),
            count(Severity::Info),
            c.form
        ));
        for r in &c.refused {
            out.push_str(&format!("    refused: {r}\n"));
        }
        for f in &c.findings {
            out.push_str(&format!(
                "    {}: {} [{}]\n",
                super::check::severity_word(f.severity),
                f.message,
                f.code.as_str()
            ));
        }
    }
    out
}
