//! `formgen check --project DIR` with no forms named: every form a step of a process in the folder
//! binds (a `formId` of the folder's `.form` files, or a form embedded in the BPMN) is gated and checked
//! against that step's contract. Each finding is placed in the form's file (an embedded form's at its
//! step in the BPMN file).

use std::path::Path;

use formgen::Limits;
use formgen::check::{self, Severity};
use formgen::project::{self, Project, ProjectBounds, ProjectForm};

use super::report::{self, Located, Position, ProcessReport, Rule, Run, Unit};
use super::{UsageError, read_bpmn};

/// What the checks of one process need to place their findings: the folder, its bounds, the
/// process's file and its text once read.
struct Place<'a> {
    dir: &'a Path,
    bounds: &'a ProjectBounds,
    bpmn_file: String,
    bpmn_path: &'a Path,
    xml: Option<String>,
}

impl Place<'_> {
    /// The BPMN file's text, read the first time it is needed ("" when it cannot be read).
    fn xml(&mut self) -> &str {
        let (path, bounds) = (self.bpmn_path, self.bounds);
        self.xml.get_or_insert_with(|| read_text(path, bounds))
    }
}

/// A file's text, lossily decoded; "" when it cannot be read within the bounds.
fn read_text(path: &Path, bounds: &ProjectBounds) -> String {
    match formgen::files::read_capped(path, bounds.max_file_bytes, bounds.read_timeout) {
        Ok(Some(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
        _ => String::new(),
    }
}

/// Checks every bound form of every process of the folder.
pub(crate) fn run(dir: &Path, limits: &Limits) -> Result<Run, UsageError> {
    let bounds = ProjectBounds::from_limits(limits);
    let folder_error = |e: project::ProjectError| UsageError(format!("--project {}: {e}", dir.display()));
    let (project, _) = project::read_folder(dir, &bounds).map_err(folder_error)?;
    let processes = project::list_processes(dir, &bounds).map_err(folder_error)?;
    if processes.files.is_empty() {
        return Err(UsageError(format!("--project {}: the folder holds no .bpmn file", dir.display())));
    }
    let mut run = Run { project: true, ..Run::default() };
    for file in &processes.files {
        let defs = read_bpmn(&file.path, limits)?;
        let bpmn_file = report::display_path(&file.path);
        let mut place = Place { dir, bounds: &bounds, bpmn_file, bpmn_path: &file.path, xml: None };
        for process in &defs.processes {
            run.processes.push(ProcessReport {
                file: place.bpmn_file.clone(),
                name: file.name.clone(),
                id: process.id.to_string(),
                located: Vec::new(),
            });
            let index = run.processes.len() - 1;
            run.units.extend(check_process(process, &project, &mut place).into_iter().map(|mut unit| {
                unit.process = Some(index);
                unit
            }));
        }
    }
    Ok(run)
}

/// Every step of `process` that binds a form the folder or the BPMN holds, checked.
fn check_process(process: &formgen::bpmn::Process, project: &Project, place: &mut Place<'_>) -> Vec<Unit> {
    let mut out = Vec::new();
    for (i, element) in process.elements.iter().enumerate().filter(|(_, e)| !e.form_id.is_empty()) {
        let step = element.id.as_str();
        let (unit, schema) = match process.linked_form(element) {
            Some(linked) => {
                let unit = unit(step, format!("the embedded form {}", linked.id), place.bpmn_file.clone());
                match serde_json::from_str(&linked.body) {
                    Ok(schema) => (unit, schema),
                    Err(e) => {
                        let at = element_position(place, step);
                        out.push(refused(unit, vec![format!("it is not JSON ({e})")], at));
                        continue;
                    }
                }
            }
            None => match project.form(&element.form_id) {
                Some(form) => {
                    let file = report::display_path(&place.dir.join(&form.file));
                    (unit(step, form.file.clone(), file), form.schema.clone())
                }
                None => continue, // a form the folder does not hold: nothing to check
            },
        };
        let embedded = unit.form_file == place.bpmn_file;
        match formgen::gate::check_value(schema, None, Some(process)) {
            Ok(proposal) => {
                let Ok(form) = ProjectForm::read(proposal.schema, unit.form.clone()) else { continue };
                let findings = check::check_step(process, Some(i), project, &form);
                let mut unit = Unit { form_id: form.id.clone(), ..unit };
                unit.located = if embedded {
                    let xml = place.xml();
                    findings
                        .into_iter()
                        .map(|f| Located::in_process(f, &unit.form_file, xml, Some(step)))
                        .collect()
                } else {
                    let text = read_text(&place.dir.join(&form.file), place.bounds);
                    findings.into_iter().map(|f| Located::in_form(f, &unit.form_file, &text)).collect()
                };
                out.push(unit);
            }
            Err(e) => {
                let at = if embedded { element_position(place, step) } else { Position::START };
                out.push(refused(unit, e.problems(), at));
            }
        }
    }
    out
}

/// A unit for the form at a step, with nothing found yet.
fn unit(step: &str, form: String, form_file: String) -> Unit {
    Unit {
        form,
        form_file,
        form_id: String::new(),
        process: None,
        element_id: Some(step.to_string()),
        schema: None,
        located: Vec::new(),
    }
}

/// Where a step stands in the process's file.
fn element_position(place: &mut Place<'_>, step: &str) -> Position {
    report::locate::element(place.xml(), step).unwrap_or(Position::START)
}

/// The unit of a form the gate refused, with its sentences.
fn refused(mut unit: Unit, sentences: Vec<String>, at: Position) -> Unit {
    let file = unit.form_file.clone();
    unit.located = (sentences.into_iter())
        .map(|s| Located::sentence(Rule::GATE_REFUSED, Severity::Error, s, &file, at))
        .collect();
    unit
}
