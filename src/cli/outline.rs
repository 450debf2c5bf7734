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
    /// Only this process (by id); default: every process in the file.
    #[arg(long)]
    pub(crate) process: Option<String>,
    /// Describe the form for this step; default: the start form.
    #[arg(long)]
    pub(crate) element: Option<String>,
    /// BPMN files to read.
    #[arg(required = true)]
    pub(crate) files: Vec<PathBuf>,
}

pub(crate) fn run(args: OutlineArgs, limits: &Limits) -> Result<ExitCode, UsageError> {
    let mut stdout = std::io::stdout().lock();
    for path in &args.files {
        let defs = read_bpmn(path, limits)?;
        let processes: Vec<&bpmn::Process> =
            defs.processes.iter().filter(|p| args.process.as_deref().is_none_or(|id| p.id == id)).collect();
        if let Some(id) = &args.process
            && processes.is_empty()
        {
            return Err(UsageError(format!("{} has no process \"{id}\"", path.display())));
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
            return Err(UsageError(format!("{} has no element \"{element}\"", path.display())));
        }
    }
    Ok(ExitCode::SUCCESS)
}
