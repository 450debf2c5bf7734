//! `formgen check --project DIR` with no forms named: every form a step of a process in the folder
//! binds (a `formId` of the folder's `.form` files, or a form embedded in the BPMN) is gated and checked
//! against that step's contract, with a table per process.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use formgen::Limits;
use formgen::check::{self, Finding, FormRef, Severity};
use formgen::project::{self, Project, ProjectBounds};

use super::check::severity_word;
use super::{UsageError, read_bpmn};

/// One step's form and what the check said.
struct Checked {
    element_id: String,
    form: String,
    findings: Vec<Finding>,
}

impl Checked {
    fn errors(&self) -> usize {
        self.findings.iter().filter(|f| f.severity == Severity::Error).count()
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
    let files = check::project_findings(&project);
    let mut any_error = files.iter().any(|(_, f)| f.severity == Severity::Error);
    for (file, finding) in &files {
        if json {
            let line = serde_json::json!({"file": file, "findings": [finding]});
            let _ = writeln!(stdout, "{line}");
        } else {
            let _ = writeln!(
                stdout,
                "{file}: {}: {} [{}]",
                severity_word(finding.severity),
                finding.message,
                finding.code.as_str()
            );
        }
    }
    for file in &processes.files {
        let defs = read_bpmn(&file.path, limits)?;
        for process in &defs.processes {
            let checked = check_process(process, &project);
            any_error |= checked.iter().any(|c| c.errors() > 0);
            let own = check::process_findings(process, &project);
            if json && !own.is_empty() {
                let line =
                    serde_json::json!({"file": file.name, "processId": process.id.as_str(), "findings": own});
                let _ = writeln!(stdout, "{line}");
            } else {
                for f in &own {
                    let _ = writeln!(
                        stdout,
                        "{}: {}: {} [{}]",
                        file.name,
                        severity_word(f.severity),
                        f.message,
                        f.code.as_str()
                    );
                }
            }
            if json {
                for c in &checked {
                    let line = serde_json::json!({
                        "file": file.name, "processId": process.id.as_str(), "elementId": c.element_id,
                        "form": c.form, "findings": c.findings,
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

/// Every step of `process` that binds a form-js form, checked: the form the BPMN embeds or the
/// folder holds, reviewed by the gate and checked against the step's contract, or a finding that
/// the form cannot be found or read.
fn check_process(process: &formgen::bpmn::Process, project: &Project) -> Vec<Checked> {
    let mut out = Vec::new();
    for (i, reference) in check::bound_forms(process) {
        let element = &process.elements[i];
        let found = match reference {
            FormRef::Embedded(id) => match process.linked_form(element) {
                Some(linked) => serde_json::from_str(&linked.body)
                    .map(|schema| (format!("the embedded form {id}"), schema))
                    .map_err(|e| (format!("the embedded form {id}"), check::Missing::NotJson(e.to_string()))),
                None => Err((id.to_string(), check::Missing::NotEmbedded)),
            },
            FormRef::Project(id) => match project.form(id) {
                Some(form) => Ok((form.file.clone(), form.schema.clone())),
                None if check::has_forms(project) => Err((id.to_string(), check::Missing::NotInProject)),
                None => continue, // a folder without form-js forms: the key names another application's form
            },
            FormRef::Deployed(file) => match check::deployed(project, file) {
                Some(form) => Ok((form.file.clone(), form.schema.clone())),
                None => Err((file.to_string(), check::Missing::NotInProject)),
            },
            FormRef::None | FormRef::External => continue,
        };
        let (form, findings) = match found {
            Ok((name, schema)) => {
                let findings = check::review_at_step(schema, &name, process, i, project);
                (name, findings)
            }
            Err((name, missing)) => {
                let finding = check::missing_form(element, &name, &missing, project);
                (name, vec![finding])
            }
        };
        out.push(Checked { element_id: element.id.to_string(), form, findings });
    }
    out
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
        for f in &c.findings {
            out.push_str(&format!(
                "    {}: {} [{}]\n",
                severity_word(f.severity),
                f.message,
                f.code.as_str()
            ));
        }
    }
    out
}
