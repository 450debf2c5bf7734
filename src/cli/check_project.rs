//! `formgen check --project DIR` with no forms named: every form a step of a process in the folder
//! binds (a `formId` of the folder's `.form` files, a deployed form's file, or a form embedded in the
//! BPMN) is reviewed by the gate and checked against that step's contract; a bound form that cannot be
//! found or read is an error at its step, a `.form` file that cannot be read an error of its own, and
//! the processes' own mistakes are findings of their own. Each finding is placed in its file (an
//! embedded form's at its step in the BPMN file).

use std::path::Path;

use formgen::Limits;
use formgen::check::{self, Finding};
use formgen::project::{self, Project, ProjectBounds};

use super::{UsageError, read_bpmn};
use formgen::report::{self, Located, ProcessReport, Run, Unit};

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
    let folder_error =
        |e: project::ProjectError| UsageError::new(format!("--project {}: {e}", dir.display()));
    let (project, _) = project::read_folder(dir, &bounds).map_err(folder_error)?;
    let processes = project::list_processes(dir, &bounds).map_err(folder_error)?;
    if processes.files.is_empty() {
        return Err(UsageError::new(format!("--project {}: the folder holds no .bpmn file", dir.display())));
    }
    let mut run = Run { project: true, base: super::current_folder(), ..Run::default() };
    for (file, finding) in check::project_findings(&project) {
        let path = dir.join(&file);
        let text = read_text(&path, &bounds);
        let form_file = report::display_path(&path);
        let mut unit = unit("", file, form_file.clone());
        unit.element_id = None;
        unit.located = vec![Located::in_form(finding, &form_file, &text)];
        run.units.push(unit);
    }
    for file in &processes.files {
        let defs = read_bpmn(&file.path, limits)?;
        let bpmn_file = report::display_path(&file.path);
        let mut place = Place { dir, bounds: &bounds, bpmn_file, bpmn_path: &file.path, xml: None };
        for process in &defs.processes {
            let own = check::process_findings(process, &project);
            let bpmn_file = place.bpmn_file.clone();
            let xml = place.xml();
            let located = own.into_iter().map(|f| Located::in_process(f, &bpmn_file, xml, None)).collect();
            run.processes.push(ProcessReport {
                file: place.bpmn_file.clone(),
                name: file.name.clone(),
                id: process.id.to_string(),
                located,
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

/// Every step of `process` that binds a form-js form, checked: the form the BPMN embeds or the folder
/// holds, reviewed by the gate and checked against the step's contract, or an error that the form
/// cannot be found or read.
fn check_process(process: &formgen::bpmn::Process, project: &Project, place: &mut Place<'_>) -> Vec<Unit> {
    let mut out = Vec::new();
    for bound in check::bound_steps(process, project) {
        let (i, element) = (bound.index, &process.elements[bound.index]);
        let step = element.id.as_str();
        match bound.form {
            Ok(form) => {
                let (path, form_file) = match &form.file {
                    Some(file) => {
                        let path = place.dir.join(file);
                        let shown = report::display_path(&path);
                        (Some(path), shown)
                    }
                    None => (None, place.bpmn_file.clone()),
                };
                let mut unit = unit(step, form.name, form_file);
                unit.form_id = form.schema.get("id").and_then(|v| v.as_str()).unwrap_or_default().to_string();
                let findings = check::review_at_step(form.schema, &unit.form, process, i, project);
                unit.located = place_findings(findings, &unit, path.as_deref(), place, step);
                out.push(unit);
            }
            Err((name, missing)) => {
                let finding = check::missing_form(element, &name, &missing, project);
                let bpmn_file = place.bpmn_file.clone();
                let mut unit = unit(step, name, bpmn_file.clone());
                let xml = place.xml();
                unit.located = vec![Located::in_process(finding, &bpmn_file, xml, Some(step))];
                out.push(unit);
            }
        }
    }
    out
}

/// The findings of a form placed: in its `.form` file by key, or at its step for an embedded form.
fn place_findings(
    findings: Vec<Finding>,
    unit: &Unit,
    path: Option<&Path>,
    place: &mut Place<'_>,
    step: &str,
) -> Vec<Located> {
    match path {
        Some(path) => {
            let text = read_text(path, place.bounds);
            findings.into_iter().map(|f| Located::in_form(f, &unit.form_file, &text)).collect()
        }
        None => {
            let xml = place.xml();
            findings.into_iter().map(|f| Located::in_process(f, &unit.form_file, xml, Some(step))).collect()
        }
    }
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
