//! `formgen outline`: what formgen reads in BPMN files, as the text a model is shown or as JSON.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use formgen::Limits;
use formgen::bpmn;

use super::{UsageError, read_bpmn};

#[derive(Debug, clap::Args)]
pub(crate) struct OutlineArgs {
    /// One JSON line per file in the outline contract's format instead of the description text.
    #[arg(long)]
    pub(crate) json: bool,
    /// A BPMN file to read (as the positional FILE; repeatable). A value that is no file is taken as a
    /// process id, as before `--process-id` existed (deprecated).
    #[arg(long, value_name = "FILE.bpmn")]
    pub(crate) process: Vec<PathBuf>,
    /// Only this process (by id); default: every process in the file.
    #[arg(long, value_name = "ID")]
    pub(crate) process_id: Option<String>,
    /// Describe the form for this step; default: the start form.
    #[arg(long)]
    pub(crate) element: Option<String>,
    /// BPMN files to read.
    #[arg(value_name = "FILE.bpmn")]
    pub(crate) files: Vec<PathBuf>,
}

/// Whether an `outline --process` value is an old-style process id rather than a file.
fn is_old_process_id(value: &std::path::Path) -> bool {
    let text = value.to_string_lossy();
    !value.exists() && !text.contains(['/', '\\']) && !text.to_ascii_lowercase().ends_with(".bpmn")
}

pub(crate) fn run(mut args: OutlineArgs, limits: &Limits) -> Result<ExitCode, UsageError> {
    let mut files = std::mem::take(&mut args.files);
    for value in std::mem::take(&mut args.process) {
        if is_old_process_id(&value) && args.process_id.is_none() {
            let id = value.to_string_lossy().into_owned();
            eprintln!(
                "formgen: warning: outline --process {id} is deprecated for a process id; write --process-id {id} (--process takes a BPMN file, as in every subcommand)"
            );
            args.process_id = Some(id);
        } else {
            files.push(value);
        }
    }
    if files.is_empty() {
        return Err(UsageError(
            "name the BPMN file to outline: formgen outline FILE.bpmn [--process-id ID] [--element ID]"
                .into(),
        ));
    }
    let mut stdout = std::io::stdout().lock();
    for path in &files {
        let defs = read_bpmn(path, limits)?;
        if defs.processes.is_empty() {
            eprintln!(
                "formgen: {}: found no BPMN process in it (no definitions element with a process); is it a .bpmn file?",
                path.display()
            );
        }
        let processes: Vec<&bpmn::Process> = defs
            .processes
            .iter()
            .filter(|p| args.process_id.as_deref().is_none_or(|id| p.id == id))
            .collect();
        if let Some(id) = &args.process_id
            && processes.is_empty()
            && !defs.processes.is_empty()
        {
            return Err(UsageError(format!(
                "{} has no process \"{id}\"; check --process-id",
                path.display()
            )));
        }
        if args.json {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let file = bpmn::OutlineFile {
                file: name,
                processes: processes.iter().map(|p| bpmn::OutlineProcess::from(*p)).collect(),
            };
            let line = serde_json::to_string(&file).expect("outline serialises");
            let _ = writeln!(stdout, "{line}");
            continue;
        }
        let element = args.element.as_deref().unwrap_or("");
        let mut found = element.is_empty();
        for p in &processes {
            let target = match (element.is_empty(), p.element_index(element)) {
                (true, _) => None,
                (false, Some(i)) => Some(i),
                (false, None) => continue,
            };
            found = true;
            let _ = writeln!(stdout, "{}", bpmn::describe(p, target, limits.prompt_chars));
        }
        if !found {
            return Err(UsageError(format!(
                "{} has no element \"{element}\"{}; check --element (formgen outline --json FILE lists the steps)",
                path.display(),
                if defs.processes.is_empty() { " (it holds no BPMN process)" } else { "" }
            )));
        }
    }
    Ok(ExitCode::SUCCESS)
}
