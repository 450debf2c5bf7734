//! The `formgen` command line: `generate`, `serve`, `check`, `outline` and `eval`, one file each.
//!
//! The CLI lives in the binary, not the library: it parses arguments, reads files and prints; every
//! decision is made by the library function it calls, so the CLI and the HTTP API can never disagree.
//! Exit codes: 0 done, 1 a refusal the input deserved (a schema the gate refused) or a generation that
//! failed, 2 bad usage or an unreadable path, with one line on stderr in the CLI's words (`errors.rs`).
//!
//! Every subcommand takes its arguments in one shape: a BPMN file is a positional argument or
//! `--process FILE`, and the subcommands that read a process share [`StepArgs`]: a process of the
//! file is `--process-id ID`, a step is `--element ID`, its project `--project DIR`, and the
//! configuration `--config FILE`. Every subcommand reads its limits from that one configuration.

mod check;
mod check_project;
mod errors;
mod eval;
mod generate;
mod outline;
mod serve;
mod trim;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use formgen::bpmn;
use formgen::config::Config;
use formgen::limits::Limits;

/// formgen: first drafts of forms for BPMN processes.
#[derive(Debug, Parser)]
#[command(name = "formgen", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print what formgen reads in BPMN files: the text a model is shown, or the outline as JSON.
    Outline(outline::OutlineArgs),
    /// Run the schema gate on forms: saved `.form` files or raw model answers (fenced, chatty).
    Check(check::CheckArgs),
    /// Write a form for a process step, once: schema on stdout, warnings on stderr.
    Generate(generate::GenerateArgs),
    /// Run the HTTP service for editors.
    Serve(serve::ServeArgs),
    /// Measure how close a Worker's forms come to the ones authors wrote.
    Eval(eval::EvalArgs),
}

/// What the subcommands that read a process share: which process of the file, which step, which
/// project, which configuration. Where a default differs by subcommand, each says its own
/// ([`own_help`]), so no subcommand's help speaks of another.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct StepArgs {
    /// Which process of the BPMN file (by id).
    #[arg(long, value_name = "ID")]
    pub(crate) process_id: Option<String>,
    /// The step (by id).
    #[arg(long, value_name = "ID")]
    pub(crate) element: Option<String>,
    /// The process's project folder: the `.form` and `.dmn` files (recursively) of its other steps and
    /// the decisions it calls. Default: the BPMN file's own folder.
    #[arg(long, value_name = "DIR")]
    pub(crate) project: Option<std::path::PathBuf>,
    /// formgen.toml, for its `[limits]` (default: FORMGEN_CONFIG, else the embedded default).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<std::path::PathBuf>,
}

/// Each subcommand's own words for the shared [`StepArgs`]: (subcommand, argument id, help).
const OWN_HELP: &[(&str, &str, &str)] = &[
    (
        "generate",
        "process_id",
        "Which process of the BPMN file (by id); default: the one that holds --element, else the first",
    ),
    ("generate", "element", "The step to draft the form for (by id); default: the start form"),
    (
        "generate",
        "config",
        "formgen.toml, for its Workers and [limits] (default: FORMGEN_CONFIG, else the embedded default with the builtin Worker)",
    ),
    ("check", "process_id", "Which process of the --process file (by id); default: the first"),
    (
        "check",
        "element",
        "The step to check the forms against (by id); default: the step that binds the form's id",
    ),
    ("outline", "process_id", "Only this process of each file (by id); default: every process"),
    ("outline", "element", "The step to describe (by id); default: the start form"),
];

/// The command line with each subcommand's own help for the arguments they share.
fn own_help(mut command: clap::Command) -> clap::Command {
    for (sub, arg, help) in OWN_HELP {
        command = command.mut_subcommand(*sub, |c| c.mut_arg(*arg, |a| a.help(*help)));
    }
    command
}

/// A failure that ends the command with exit code 2 and one line on stderr (and a line for each of
/// its details, such as the problems of a configuration).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub(crate) struct UsageError {
    message: String,
    details: Vec<String>,
}

impl UsageError {
    pub(crate) fn new(message: String) -> UsageError {
        UsageError { message, details: Vec::new() }
    }
}

/// Runs the command line and returns the process exit code.
pub(crate) fn main() -> ExitCode {
    let parsed = own_help(<Cli as clap::CommandFactory>::command())
        .try_get_matches()
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Outline(args) => {
            load_config(args.step.config.as_deref()).and_then(|c| outline::run(args, &c.limits))
        }
        Command::Check(args) => {
            load_config(args.step.config.as_deref()).and_then(|c| check::run(args, &c.limits))
        }
        Command::Generate(args) => generate::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Eval(args) => eval::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => usage(e),
    }
}

pub(crate) fn usage(e: UsageError) -> ExitCode {
    say(&format!("formgen: {}", e.message));
    for detail in &e.details {
        say(&format!("  {detail}"));
    }
    ExitCode::from(2)
}

/// Writes one line to stderr. The CLI never prints a control character it did not write: whatever in
/// the line came from a file, a process or the environment (a name holding ESC, BEL, CR or a line
/// break) is shown escaped ([`formgen::words::printable`]).
pub(crate) fn say(line: &str) {
    eprintln!("{}", formgen::words::printable(line));
}

pub(crate) fn load_config(path: Option<&std::path::Path>) -> Result<Config, UsageError> {
    Config::load(path, &|k| std::env::var(k).ok()).map_err(|e| UsageError {
        message: format!("{} problem(s) in the configuration ({}):", e.problems.len(), e.origin),
        details: e.problems,
    })
}

/// Logs to stderr: `RUST_LOG` if set, else `default` (colours only on a terminal).
pub(crate) fn init_logs(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi).init();
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime")
}

pub(crate) fn read_bpmn(path: &std::path::Path, limits: &Limits) -> Result<bpmn::Definitions, UsageError> {
    bpmn::read_file_within(path, limits.bpmn_bytes, limits.file_read_timeout()).map_err(|e| match e {
        bpmn::ReadError::Io(io) => UsageError::new(format!("cannot read {}: {io}", path.display())),
        too_large => UsageError::new(format!("{}: {too_large}", path.display())),
    })
}

/// The project folder of a command: `--project DIR` (which must be a folder), else the BPMN file's own
/// folder (a Camunda project keeps its `.bpmn`, `.form` and `.dmn` files together), else none.
pub(crate) fn project_folder(
    project: Option<&std::path::Path>,
    process: Option<&std::path::Path>,
) -> Result<Option<std::path::PathBuf>, UsageError> {
    match project {
        Some(dir) if dir.is_dir() => Ok(Some(dir.to_path_buf())),
        Some(dir) => Err(UsageError::new(format!(
            "--project {}: not a folder; give the folder that holds the process's .form and .dmn files",
            dir.display()
        ))),
        None => Ok(process
            .and_then(std::path::Path::parent)
            .map(|p| if p.as_os_str().is_empty() { std::path::PathBuf::from(".") } else { p.to_path_buf() })),
    }
}

/// The current folder, `/`-separated, that a report's relative paths start from ("" when unknown).
pub(crate) fn current_folder() -> String {
    let dir = std::env::current_dir().unwrap_or_default();
    dir.to_string_lossy().replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The help text of a subcommand.
    fn help(sub: &str) -> String {
        let mut command = super::own_help(super::Cli::command());
        command.build();
        let sub = command.find_subcommand_mut(sub).expect("a subcommand");
        sub.render_long_help().to_string()
    }

    #[test]
    fn each_subcommand_s_help_is_about_itself() {
        for sub in ["generate", "check", "outline", "serve", "eval"] {
            let text = help(sub);
            for other in ["generate", "check", "outline", "serve", "eval"].iter().filter(|o| **o != sub) {
                assert!(
                    !text.contains(&format!("(for `{other}`")),
                    "{sub}'s help speaks of {other}:\n{text}"
                );
                assert!(
                    !text.contains(&format!("for `{other}`,")),
                    "{sub}'s help speaks of {other}:\n{text}"
                );
            }
        }
        assert!(help("generate").contains("The step to draft the form for"), "{}", help("generate"));
        assert!(help("check").contains("the step that binds the form's id"), "{}", help("check"));
        assert!(help("outline").contains("default: every process"), "{}", help("outline"));
        for (sub, arg, _) in super::OWN_HELP {
            let command = super::own_help(super::Cli::command());
            let found =
                command.find_subcommand(sub).and_then(|c| c.get_arguments().find(|a| a.get_id() == *arg));
            assert!(found.is_some(), "{sub} has no argument {arg}");
        }
    }
}
