//! `formgen outline`: what formgen reads in BPMN files, as the text a model is shown or as JSON.

use std::io::{BufWriter, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use std::sync::Arc;

use formgen::Limits;
use formgen::project::{self, Project};
use formgen::sources::{self, Origin, Resolved};
use formgen::{bpmn, outline};

use super::{UsageError, read_bpmn};

#[derive(Debug, clap::Args)]
pub(crate) struct OutlineArgs {
    /// One JSON line per file in the outline contract's format instead of the description text.
    #[arg(long)]
    pub(crate) json: bool,
    /// A BPMN file to read (as the positional FILE; repeatable). A value that is no file is taken as a
    /// process id (deprecated: `--process-id` says so plainly).
    #[arg(long, value_name = "FILE.bpmn")]
    pub(crate) process: Vec<PathBuf>,
    #[command(flatten)]
    pub(crate) step: super::StepArgs,
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
        if is_old_process_id(&value) && args.step.process_id.is_none() {
            let id = value.to_string_lossy().into_owned();
            super::say(&format!(
                "formgen: warning: outline --process {id} is deprecated for a process id; write --process-id {id} (--process takes a BPMN file, as in every subcommand)"
            ));
            args.step.process_id = Some(id);
        } else {
            files.push(value);
        }
    }
    if files.is_empty() {
        return Err(UsageError::new(
            "name the BPMN file to outline: formgen outline FILE.bpmn [--process-id ID] [--element ID]"
                .into(),
        ));
    }
    // one buffer for the whole output: a 21 MB outline is written in 64 KB writes, not line by line
    let mut stdout = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    for path in &files {
        let defs = Arc::new(read_bpmn(path, limits)?);
        if defs.processes.is_empty() && !args.json {
            // the description of no process is nothing; its folder is not read as a project either
            return Err(UsageError::new(format!(
                "{} holds no BPMN process (no definitions element with a process); is it a .bpmn file?",
                path.display()
            )));
        }
        if defs.processes.is_empty() {
            super::say(&format!(
                "formgen: {}: found no BPMN process in it (no definitions element with a process); is it a .bpmn file?",
                path.display()
            ));
        }
        let processes: Vec<&bpmn::Process> = defs
            .processes
            .iter()
            .filter(|p| args.step.process_id.as_deref().is_none_or(|id| p.id == id))
            .collect();
        if let Some(id) = &args.step.process_id
            && processes.is_empty()
            && !defs.processes.is_empty()
        {
            return Err(UsageError::new(format!(
                "{} has no process \"{id}\"; check --process-id",
                path.display()
            )));
        }
        for w in processes.iter().flat_map(|p| sources::reading_warnings(p)) {
            super::say(&format!("formgen: warning: {}: {w}", path.display()));
        }
        if args.json {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let (step, project) = match args.step.element.as_deref() {
                Some(element) => {
                    let target = step(&defs, args.step.process_id.as_deref(), element, path)?;
                    let around = read_project(args.step.project.as_deref(), path, limits)?;
                    let target = target.with_project(around);
                    let picture =
                        formgen::flow::picture(target.process(), target.element_index(), target.project());
                    (Some(picture), target.project().clone())
                }
                None => (None, formgen::project::Project::default()),
            };
            let findings =
                processes.iter().flat_map(|p| formgen::check::process_findings(p, &project)).collect();
            let outline = outline::OutlineView::new(&name, processes.iter().copied());
            let line = outline::Line { outline, step, findings };
            // written straight from the read document into the buffered output
            let _ = serde_json::to_writer(&mut stdout, &line);
            let _ = stdout.write_all(b"\n");
            let _ = stdout.flush();
            if std::ptr::eq(path, files.last().expect("a file")) {
                // the command ends here and the system takes its memory back whole; freeing a large
                // process element by element first was ~4% of its outline
                drop((line, processes));
                std::mem::forget(defs);
            }
            continue;
        }
        let element = args.step.element.as_deref().unwrap_or("");
        let around = read_project(args.step.project.as_deref(), path, limits)?;
        let mut found = element.is_empty();
        for p in &processes {
            if !element.is_empty() && p.element_index(element).is_none() {
                continue;
            }
            found = true;
            let target = step(&defs, Some(&p.id), element, path)?.with_project(around.clone());
            let picture = formgen::flow::picture(target.process(), target.element_index(), target.project());
            let text = formgen::prompt::process_text(&target, Some(&picture), false, limits.prompt_chars);
            // the text's own line breaks are kept; any other control character a name holds is escaped
            let _ = writeln!(stdout, "{}", formgen::words::printable_lines(&text));
        }
        let _ = stdout.flush();
        if !found {
            return Err(UsageError::new(format!(
                "{} has no element \"{element}\"{}; check --element (formgen outline --json FILE lists the steps)",
                path.display(),
                if defs.processes.is_empty() { " (it holds no BPMN process)" } else { "" }
            )));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The process and step of a file, resolved as the service resolves them.
fn step(
    defs: &Arc<bpmn::Definitions>,
    process_id: Option<&str>,
    element: &str,
    path: &std::path::Path,
) -> Result<sources::Target, UsageError> {
    match sources::locate(defs.clone(), Origin::Request, process_id.unwrap_or(""), element) {
        Ok(Resolved::Found(t)) => Ok(t),
        Ok(_) => Err(UsageError::new(format!("{} holds no BPMN process", path.display()))),
        Err(sources::SourceError::NotBpmn { element, .. }) => Err(UsageError::new(format!(
            "{} holds no BPMN process (no definitions element with a process), so it has no element \"{element}\"",
            path.display()
        ))),
        Err(e) => Err(UsageError::new(format!("{}: {e}", path.display()))),
    }
}

/// The project around a file: `--project DIR`, else the file's own folder (where a folder over the
/// project limits is read as empty, with a warning, since the user did not ask for it).
fn read_project(
    dir: Option<&std::path::Path>,
    file: &std::path::Path,
    limits: &Limits,
) -> Result<Arc<Project>, UsageError> {
    let Some(folder) = super::project_folder(dir, Some(file))? else {
        return Ok(Arc::default());
    };
    match project::read_folder(&folder, &project::ProjectBounds::from_limits(limits)) {
        Ok((p, _)) => {
            for w in &p.warnings {
                super::say(&format!("formgen: warning: {w}"));
            }
            Ok(Arc::new(p))
        }
        Err(e) if dir.is_some() => Err(UsageError::new(e.to_string())),
        Err(e) => {
            super::say(&format!("formgen: warning: the project around {} was not read: {e}", file.display()));
            Ok(Arc::default())
        }
    }
}
