//! `formgen check`: the gate's review and the contract check on saved forms or raw model answers: a
//! form that breaks the gate's rules is checked all the same, with an error finding per rule.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formgen::Limits;
use formgen::bpmn;
use formgen::project::{Project, ProjectBounds};
use formgen::report::{self, CheckError, Format, NamedForm, ProcessReport, Run, Step, Unit};

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
    /// How to print the report on stdout.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = Format::Text)]
    pub(crate) format: Format,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Exit 1 when there are more than N warnings (any error always does).
    #[arg(long, value_name = "N")]
    pub(crate) max_warnings: Option<usize>,
    /// Print the normalised schema of the one form named on stdout; the report goes to stderr.
    #[arg(long)]
    pub(crate) print_schema: bool,
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
    let format = if args.json { Format::Json } else { args.format };
    if args.print_schema && (args.files.len() != 1 || format != Format::Text) {
        return Err(UsageError::new(
            "--print-schema prints the schema of one form named on the command line, beside the text report"
                .into(),
        ));
    }
    if args.files.is_empty() {
        return match (&args.step.project, &args.process) {
            (Some(dir), None) if args.step.element.is_none() => {
                let run = super::check_project::run(dir, limits)?;
                Ok(report(&run, format, args.max_warnings, false))
            }
            _ => Err(UsageError::new(
                "name the forms to check: formgen check [FILE.bpmn] FORM..., or formgen check --project DIR for every form of a folder"
                    .into(),
            )),
        };
    }
    let process = match &args.process {
        Some(path) => Some((path.clone(), pick_process(path, args.step.process_id.as_deref(), limits)?)),
        None if args.step.process_id.is_some() => {
            return Err(UsageError::new(
                "--process-id picks a process of a BPMN file; give the file with --process FILE".into(),
            ));
        }
        None => None,
    };
    let texts = args.files.iter().map(|path| read_form(path, limits)).collect::<Result<Vec<_>, _>>()?;
    let mut run = Run { base: super::current_folder(), ..Run::default() };
    if let Some((path, p)) = &process {
        let file = report::display_path(path);
        run.processes.push(ProcessReport {
            file,
            name: path.display().to_string(),
            id: p.id.to_string(),
            located: Vec::new(),
        });
    }
    for (path, text) in args.files.iter().zip(&texts) {
        run.units.push(check_one(path, text, &args, process.as_ref(), limits)?);
    }
    Ok(report(&run, format, args.max_warnings, args.print_schema))
}

/// Prints the report and returns the exit code. With `print_schema`, the schema of the first form
/// (if the gate accepted it) goes to stdout and the report to stderr.
fn report(run: &Run, format: Format, max_warnings: Option<usize>, print_schema: bool) -> ExitCode {
    let shown = run.render(format);
    let (mut stdout, mut stderr) = (std::io::stdout().lock(), std::io::stderr().lock());
    if print_schema {
        if let Some(schema) = run.units.first().and_then(|u| u.schema.as_ref()) {
            let json = serde_json::to_string_pretty(schema).expect("schema serialises");
            let _ = writeln!(stdout, "{json}");
        }
        let _ = write!(stderr, "{}{}", shown.out, shown.err);
    } else {
        let _ = write!(stdout, "{}", shown.out);
        let _ = write!(stderr, "{}", shown.err);
    }
    if run.fails(max_warnings) { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// The process of the BPMN file at `path`: the one `--process-id` names, else the first.
fn pick_process(path: &Path, id: Option<&str>, limits: &Limits) -> Result<bpmn::Process, UsageError> {
    let defs = read_bpmn(path, limits)?;
    match id {
        Some(id) => defs.processes.into_iter().find(|p| p.id == *id).ok_or_else(|| {
            UsageError::new(format!("{} has no process \"{id}\"; check --process-id", path.display()))
        }),
        None => defs
            .processes
            .into_iter()
            .next()
            .ok_or_else(|| UsageError::new(format!("{} holds no BPMN process", path.display()))),
    }
}

/// The text of a form or model answer, within the form size limit.
fn read_form(path: &Path, limits: &Limits) -> Result<String, UsageError> {
    let cap = limits.schema_bytes.max(limits.answer_bytes);
    let file = formgen::files::open(path, limits.file_read_timeout())
        .map_err(|e| UsageError::new(format!("cannot read {}: {e}", path.display())))?;
    let bytes = bpmn::read_capped(file, cap).map_err(|e| match e {
        bpmn::ReadError::TooLarge { limit, .. } => UsageError::new(format!(
            "{} is over the {limit}-byte limit for a form (FORMGEN_LIMIT_SCHEMA_BYTES)",
            path.display()
        )),
        other => UsageError::new(format!("cannot read {}: {other}", path.display())),
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// One named form through the gate and, with a process, the check of its step.
fn check_one(
    path: &Path,
    text: &str,
    args: &CheckArgs,
    process: Option<&(PathBuf, bpmn::Process)>,
    limits: &Limits,
) -> Result<Unit, UsageError> {
    let name = path.display().to_string();
    let form = NamedForm { name: &name, text, form_id: args.form_id.as_deref() };
    let step = process.map(|(_, p)| Step { process: p, index: 0, element: args.step.element.as_deref() });
    let project = || match process {
        Some((bpmn_path, _)) => match super::project_folder(args.step.project.as_deref(), Some(bpmn_path))? {
            Some(folder) => formgen::project::read_folder(&folder, &ProjectBounds::from_limits(limits))
                .map(|(p, _)| p)
                .map_err(|e| UsageError::new(e.to_string())),
            None => Ok(Project::default()),
        },
        None => Ok(Project::default()),
    };
    report::check_form(form, step, project).map_err(|e| match e {
        CheckError::NoElement(id) => UsageError::new(format!(
            "{} has no element \"{id}\"",
            process.map(|(p, _)| p.display().to_string()).unwrap_or_default()
        )),
        CheckError::Project(e) => e,
    })
}
