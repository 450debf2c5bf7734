//! The calls the editors make, each a JSON request in and a JSON answer out: the same answers the
//! command line prints, from the same functions of the core.

use std::sync::Arc;

use formgen_core::bpmn::{self, Definitions};
use formgen_core::check::{self, Finding, FormStep};
use formgen_core::project::{self, Project, ProjectBounds};
use formgen_core::report::{self, CheckError, Format, NamedForm, ProcessReport, Run, Step};
use formgen_core::sources::{self, Origin, Resolved, Target};
use formgen_core::{Limits, draft, flow, gate, outline};
use serde::Deserialize;
use serde_json::{Value, json};

/// A call's input: what each call needs of it (the rest is ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Request {
    /// The process's BPMN text (a process given as bytes comes beside the request instead).
    pub process_xml: Option<String>,
    /// How the answer names the process file (default `process.bpmn`).
    pub process_name: Option<String>,
    /// Which process of the document (default: the one that holds the step, else the first).
    pub process_id: Option<String>,
    /// The step.
    pub element_id: Option<String>,
    /// The form: a form-js schema, or its text.
    pub form: Option<Value>,
    /// How the answer names the form file (default `form.form`).
    pub form_name: Option<String>,
    /// The id the editor holds the form under.
    pub form_id: Option<String>,
    /// The author's brief, for a draft.
    pub description: Option<String>,
    /// The project's files: `.form` and `.dmn` files by their paths in the project.
    pub project: Vec<ProjectFile>,
}

/// One file of the project, as the editor holds it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectFile {
    /// Its path in the project (`forms/approve.form`).
    pub name: String,
    /// Its text.
    pub text: String,
}

/// Why a call gave no answer: a stable code and the sentence for the author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallError {
    /// The stable code (`bad_request`, `too_large`, `no_process`, `unknown_element`, ...).
    pub code: &'static str,
    /// The sentence.
    pub message: String,
}

impl CallError {
    fn new(code: &'static str, message: impl Into<String>) -> CallError {
        CallError { code, message: message.into() }
    }

    /// The error as the JSON the JS API throws from.
    pub fn to_json(&self) -> Value {
        json!({ "error": { "code": self.code, "message": self.message } })
    }
}

/// The calls, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Call {
    /// The outline line of `formgen outline --json`.
    Outline,
    /// The builtin draft of `formgen generate --worker builtin`.
    Draft,
    /// The JSON line of `formgen check --format json`.
    Check,
    /// The answer of `POST /api/formgen/validate`.
    Validate,
    /// What is wrong with every process of the document on its elements (the bpmnlint rules).
    Lint,
}

impl Call {
    /// The call a number names at the WebAssembly boundary.
    pub fn of_number(n: u32) -> Option<Call> {
        [Call::Outline, Call::Draft, Call::Check, Call::Validate, Call::Lint].get(n as usize).copied()
    }
}

/// Runs `call` on the JSON `request`, with the process's bytes when the editor sent bytes rather than
/// text.
pub fn run(call: Call, request: &[u8], process_bytes: Option<&[u8]>) -> Result<Value, CallError> {
    let limits = Limits::default();
    // room for the largest process, project and form together, escaped as JSON strings
    let most = (limits.bpmn_bytes + limits.project_bytes + limits.schema_bytes).saturating_mul(2);
    if request.len() > most {
        return Err(CallError::new("too_large", format!("the request is over {most} bytes")));
    }
    let req: Request = serde_json::from_slice(request)
        .map_err(|e| CallError::new("bad_request", format!("the request is not what the call takes: {e}")))?;
    let input = Input::read(req, process_bytes, &limits)?;
    match call {
        Call::Outline => outline_call(&input),
        Call::Draft => draft_call(input),
        Call::Check => check_call(&input),
        Call::Validate => validate_call(input),
        Call::Lint => lint_call(&input),
    }
}

/// A request read: its process parsed, its project read, its ids trimmed.
struct Input {
    definitions: Option<Arc<Definitions>>,
    process_name: String,
    process_id: Option<String>,
    element_id: Option<String>,
    form: Option<Value>,
    form_name: String,
    form_id: Option<String>,
    description: String,
    project: Project,
}

fn trimmed(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

impl Input {
    fn read(req: Request, bytes: Option<&[u8]>, limits: &Limits) -> Result<Input, CallError> {
        let too_large = |what: &str, size: usize, limit: usize| {
            CallError::new("too_large", format!("{what} is {size} bytes, over the limit of {limit} bytes"))
        };
        let definitions = match (bytes, &req.process_xml) {
            (Some(b), _) if b.len() > limits.bpmn_bytes => {
                return Err(too_large("the process", b.len(), limits.bpmn_bytes));
            }
            (Some(b), _) => Some(Arc::new(bpmn::read(b))),
            (None, Some(x)) if x.len() > limits.bpmn_bytes => {
                return Err(too_large("the process", x.len(), limits.bpmn_bytes));
            }
            (None, Some(x)) => Some(Arc::new(bpmn::read_str(x))),
            (None, None) => None,
        };
        if let Some(form) = &req.form {
            let size = match form {
                Value::String(text) => text.len(),
                schema => schema.to_string().len(),
            };
            if size > limits.schema_bytes {
                return Err(too_large("the form", size, limits.schema_bytes));
            }
        }
        let files = req.project.iter().map(|f| (f.name.as_str(), f.text.as_bytes()));
        let project = project::from_files(files, &ProjectBounds::from_limits(limits))
            .map_err(|e| CallError::new("project_too_large", e.to_string()))?;
        Ok(Input {
            definitions,
            process_name: req.process_name.unwrap_or_else(|| "process.bpmn".into()),
            process_id: trimmed(req.process_id),
            element_id: trimmed(req.element_id),
            form: req.form,
            form_name: req.form_name.unwrap_or_else(|| "form.form".into()),
            form_id: trimmed(req.form_id),
            description: req.description.unwrap_or_default(),
            project,
        })
    }

    fn definitions(&self) -> Result<&Arc<Definitions>, CallError> {
        self.definitions
            .as_ref()
            .ok_or_else(|| CallError::new("no_process", "the call needs the process (processXml)"))
    }

    /// The step, resolved as the service resolves it, with the project around it.
    fn target(&self) -> Result<Target, CallError> {
        let definitions = self.definitions()?.clone();
        let (process_id, element_id) = (self.process_id.as_deref(), self.element_id.as_deref());
        match sources::locate(
            definitions,
            Origin::Request,
            process_id.unwrap_or(""),
            element_id.unwrap_or(""),
        ) {
            Ok(Resolved::Found(t)) => Ok(t.with_project(Arc::new(self.project.clone()))),
            Ok(_) => Err(CallError::new("no_process", "the BPMN holds no process")),
            Err(sources::SourceError::UnknownProcess(id)) => {
                Err(CallError::new("unknown_process", format!("the BPMN has no process \"{id}\"")))
            }
            Err(sources::SourceError::UnknownElement { process, element }) => Err(CallError::new(
                "unknown_element",
                format!("the process \"{process}\" has no element \"{element}\""),
            )),
            Err(e) => Err(CallError::new("no_process", e.to_string())),
        }
    }

    /// The form's text as the report places findings in it: as sent, or a schema's pretty JSON.
    fn form_text(&self) -> Result<String, CallError> {
        match &self.form {
            Some(Value::String(text)) => Ok(text.clone()),
            Some(schema) => Ok(serde_json::to_string_pretty(schema).expect("a value serialises")),
            None => Err(CallError::new("form_required", "the call needs the form (form)")),
        }
    }
}

fn outline_call(input: &Input) -> Result<Value, CallError> {
    let definitions = input.definitions()?;
    let processes: Vec<&bpmn::Process> = definitions
        .processes
        .iter()
        .filter(|p| input.process_id.as_deref().is_none_or(|id| p.id == id))
        .collect();
    if let Some(id) = &input.process_id
        && processes.is_empty()
        && !definitions.processes.is_empty()
    {
        return Err(CallError::new("unknown_process", format!("the BPMN has no process \"{id}\"")));
    }
    // the project is read only for a step, as `formgen outline --json` reads it
    let (step, project) = match &input.element_id {
        Some(_) => {
            let target = input.target()?;
            (
                Some(flow::picture(target.process(), target.element_index(), target.project())),
                input.project.clone(),
            )
        }
        None => (None, Project::default()),
    };
    let findings = processes.iter().flat_map(|p| check::process_findings(p, &project)).collect();
    let line =
        outline::Line { outline: outline::OutlineView::new(&input.process_name, processes), step, findings };
    Ok(serde_json::to_value(&line).expect("an outline serialises"))
}

fn draft_call(input: Input) -> Result<Value, CallError> {
    let target = input.target()?;
    let current = match input.form.clone() {
        Some(Value::String(text)) => Some(
            gate::review_text(&text, &gate::Options::default())
                .map_err(|e| CallError::new("unreadable_form", e.to_string()))?
                .proposal
                .schema,
        ),
        other => other,
    };
    let drafted = draft::draft_step(&target, &input.description, current, input.form_id.as_deref())
        .map_err(|e| CallError::new("refused", e.problems().join(" ")))?;
    Ok(serde_json::to_value(&drafted).expect("a draft serialises"))
}

fn check_call(input: &Input) -> Result<Value, CallError> {
    let text = input.form_text()?;
    let mut run = Run::default();
    let process = match &input.definitions {
        Some(defs) => Some(pick_process(defs, input.process_id.as_deref())?),
        None => None,
    };
    if let Some(p) = process {
        let file = report::display_path(std::path::Path::new(&input.process_name));
        run.processes.push(ProcessReport {
            file,
            name: input.process_name.clone(),
            id: p.id.clone(),
            located: Vec::new(),
        });
    }
    let form = NamedForm { name: &input.form_name, text: &text, form_id: input.form_id.as_deref() };
    let step = process.map(|p| Step { process: p, index: 0, element: input.element_id.as_deref() });
    let unit =
        report::check_form(form, step, || Ok::<_, CallError>(input.project.clone())).map_err(
            |e| match e {
                CheckError::NoElement(id) => {
                    CallError::new("unknown_element", format!("the process has no element \"{id}\""))
                }
                CheckError::Project(e) => e,
            },
        )?;
    run.units.push(unit);
    let shown = run.render(Format::Json);
    match shown.out.lines().next() {
        Some(line) => Ok(serde_json::from_str(line).expect("the report's line is JSON")),
        None => Err(CallError::new("unreadable_form", shown.err.trim_end())),
    }
}

fn lint_call(input: &Input) -> Result<Value, CallError> {
    let definitions = input.definitions()?;
    let mut findings = Vec::new();
    for process in &definitions.processes {
        for finding in check::lint(process, &input.project) {
            let mut value = serde_json::to_value(&finding).expect("a finding serialises");
            value["processId"] = json!(process.id);
            findings.push(value);
        }
    }
    Ok(json!({ "findings": findings }))
}

/// The process `processId` names, else the first, as `formgen check --process` picks it.
fn pick_process<'a>(defs: &'a Definitions, id: Option<&str>) -> Result<&'a bpmn::Process, CallError> {
    match id {
        Some(id) => defs
            .processes
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| CallError::new("unknown_process", format!("the BPMN has no process \"{id}\""))),
        None => {
            defs.processes.first().ok_or_else(|| CallError::new("no_process", "the BPMN holds no process"))
        }
    }
}

fn validate_call(input: Input) -> Result<Value, CallError> {
    let target = match &input.definitions {
        Some(_) => Some(input.target()?),
        None => None,
    };
    let form = input
        .form
        .clone()
        .ok_or_else(|| CallError::new("form_required", "the call needs the form (form)"))?;
    let options = gate::Options {
        origin: gate::Origin::Author,
        form_id: input.form_id.as_deref(),
        process: target.as_ref().map(Target::process),
        stop: None,
    };
    let reviewed = match form {
        Value::String(text) => gate::review_text(&text, &options),
        value => gate::review_value(value, &options),
    }
    .map_err(|e| CallError::new("refused", e.problems().join(" ")))?;
    let schema = reviewed.proposal.schema;
    let mut warnings = match &target {
        Some(t) => Resolved::Found(t.clone()).warnings(),
        None => Vec::new(),
    };
    warnings.extend(reviewed.proposal.warnings);
    let mut findings = check::gate_findings(&reviewed.problems);
    if let Some(target) = &target {
        findings.extend(step_findings(
            target,
            input.element_id.as_deref(),
            input.form_id.as_deref(),
            &schema,
        ));
    }
    findings.sort_by_key(|f| f.severity);
    check::without_repeats(&mut warnings, &findings);
    Ok(json!({ "schema": schema, "warnings": warnings, "findings": findings }))
}

/// The contract findings of a validated form at its steps ([`FormStep::of_validate`]), each once.
fn step_findings(
    target: &Target,
    element_id: Option<&str>,
    form_id: Option<&str>,
    schema: &Value,
) -> Vec<Finding> {
    let mut findings: Vec<Finding> = Vec::new();
    for check in FormStep::of_validate(element_id, form_id, schema).checks(target) {
        for f in check.of_schema(schema) {
            if !findings.contains(&f) {
                findings.push(f);
            }
        }
    }
    findings
}
#[cfg(test)]
mod tests;
