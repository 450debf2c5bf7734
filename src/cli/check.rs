//! `formgen check`: the schema gate on saved forms or raw model answers.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use formgen::Limits;
use formgen::{bpmn, gate};

use super::{UsageError, read_bpmn};

#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// The BPMN process the forms belong to: keys are checked against its variables. A `.bpmn` file
    /// among the positional files is taken as this too.
    #[arg(long, value_name = "FILE.bpmn")]
    pub(crate) process: Option<PathBuf>,
    /// The id the editor holds the form under; stamped into the result.
    #[arg(long)]
    pub(crate) form_id: Option<String>,
    #[command(flatten)]
    pub(crate) step: super::StepArgs,
    /// Print `{"schema", "findings"}` per form on stdout, one JSON object per line.
    #[arg(long)]
    pub(crate) json: bool,
    /// Forms or model answers to check. None, with `--project DIR`: every form a step of a process in
    /// the folder binds.
    pub(crate) files: Vec<PathBuf>,
}

fn is_bpmn(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("bpmn"))
}

pub(crate) fn run(mut args: CheckArgs, limits: &Limits) -> Result<ExitCode, UsageError> {
    if args.process.is_none()
        && let Some(i) = args.files.iter().position(|f| is_bpmn(f))
    {
        args.process = Some(args.files.remove(i));
    }
    if args.files.is_empty() {
        return match (&args.step.project, &args.process) {
            (Some(dir), None) if args.step.element.is_none() => super::check_project::run(dir, args.json, limits),
            _ => Err(UsageError(
                "name the forms to check: formgen check [FILE.bpmn] FORM..., or formgen check --project DIR for every form of a folder"
                    .into(),
            )),
        };
    }
    let process = match &args.process {
        Some(path) => {
            let defs = read_bpmn(path, limits)?;
            let found = match &args.step.process_id {
                Some(id) => defs.processes.into_iter().find(|p| p.id == *id).ok_or_else(|| {
                    UsageError(format!("{} has no process \"{id}\"; check --process-id", path.display()))
                })?,
                None => defs
                    .processes
                    .into_iter()
                    .next()
                    .ok_or_else(|| UsageError(format!("{} holds no BPMN process", path.display())))?,
            };
            Some(found)
        }
        None if args.step.process_id.is_some() => {
            return Err(UsageError(
                "--process-id picks a process of a BPMN file; give the file with --process FILE".into(),
            ));
        }
        None => None,
    };
    let texts = read_texts(&args.files, limits)?;
    let single = args.files.len() == 1;
    let mut refused = false;
    let mut stderr = std::io::stderr().lock();
    for (path, text) in args.files.iter().zip(&texts) {
        let name = path.display();
        let options = gate::Options {
            origin: gate::Origin::Author,
            form_id: args.form_id.as_deref(),
            process: process.as_ref(),
            stop: None,
        };
        match gate::review_text(text, &options) {
            Ok(reviewed) => {
                let proposal = reviewed.proposal;
                let mut findings = formgen::check::gate_findings(&reviewed.problems);
                if let (Some(p), Some(bpmn_path)) = (&process, &args.process) {
                    findings.extend(step_findings(p, &args, bpmn_path, &proposal.schema, limits)?);
                }
                findings.sort_by_key(|f| f.severity);
                if findings.iter().any(|f| f.severity == formgen::check::Severity::Error) {
                    refused = true;
                }
                if args.json {
                    let line = serde_json::json!({"file": name.to_string(), "schema": proposal.schema, "findings": findings});
                    let _ = writeln!(std::io::stdout().lock(), "{line}");
                } else {
                    for f in &findings {
                        let _ = writeln!(
                            stderr,
                            "{name}: {}: {} [{}]",
                            severity_word(f.severity),
                            f.message,
                            f.code.as_str()
                        );
                    }
                }
                if args.json {
                } else if single {
                    let json = serde_json::to_string_pretty(&proposal.schema).expect("schema serialises");
                    let _ = writeln!(std::io::stdout().lock(), "{json}");
                } else {
                    let _ = writeln!(stderr, "{name}: accepted");
                }
                // a finding that says what a warning says replaces it
                for w in proposal.warnings.iter().filter(|w| !findings.iter().any(|f| f.message == **w)) {
                    let _ = writeln!(stderr, "{name}: warning: {w}");
                }
            }
            Err(e) => {
                refused = true;
                for problem in e.problems() {
                    let _ = writeln!(stderr, "{name}: error: {problem} [unreadable_form]");
                }
            }
        }
    }
    Ok(if refused { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The named files' texts, each within the size limit for a form.
fn read_texts(files: &[PathBuf], limits: &Limits) -> Result<Vec<String>, UsageError> {
    let cap = limits.schema_bytes.max(limits.answer_bytes);
    let mut texts = Vec::new();
    for path in files {
        let file = formgen::files::open(path, limits.file_read_timeout())
            .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
        let bytes = bpmn::read_capped(file, cap).map_err(|e| match e {
            bpmn::ReadError::TooLarge { limit, .. } => UsageError(format!(
                "{} is over the {limit}-byte limit for a form (FORMGEN_LIMIT_SCHEMA_BYTES)",
                path.display()
            )),
            other => UsageError(format!("cannot read {}: {other}", path.display())),
        })?;
        texts.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    Ok(texts)
}

pub(super) fn severity_word(s: formgen::check::Severity) -> &'static str {
    match s {
        formgen::check::Severity::Error => "error",
        formgen::check::Severity::Warning => "warning",
        formgen::check::Severity::Info => "info",
    }
}

fn step_findings(
    process: &formgen::bpmn::Process,
    args: &CheckArgs,
    bpmn_path: &std::path::Path,
    schema: &serde_json::Value,
    limits: &Limits,
) -> Result<Vec<formgen::check::Finding>, UsageError> {
    let Ok(form) = formgen::project::ProjectForm::read(schema.clone(), String::new()) else {
        return Ok(Vec::new());
    };
    let target = match &args.step.element {
        Some(id) => Some(
            process
                .element_index(id)
                .ok_or_else(|| UsageError(format!("{} has no element \"{id}\"", bpmn_path.display())))?,
        ),
        None => match formgen::check::step_binding(process, &form.id) {
            Some(i) => Some(i),
            None => return Ok(Vec::new()),
        },
    };
    let project = match super::project_folder(args.step.project.as_deref(), Some(bpmn_path))? {
        Some(folder) => {
            formgen::project::read_folder(&folder, &formgen::project::ProjectBounds::from_limits(limits))
                .map(|(p, _)| p)
                .map_err(|e| UsageError(e.to_string()))?
        }
        None => formgen::project::Project::default(),
    };
    Ok(formgen::check::check_step(process, target, &project, &form))
}
