//! The `formgen` command line: `generate`, `serve`, `check` and `outline`.
//!
//! The CLI parses arguments, reads files and prints; every decision is made by the library function it
//! calls, so the CLI and the HTTP API can never disagree. Exit codes: 0 done, 1 a refusal the input
//! deserved (a schema the gate refused), 2 bad usage or an unreadable path, with one line on stderr.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::bpmn;
use crate::config::Config;
use crate::gate;
use crate::limits::Limits;

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
    Outline(OutlineArgs),
    /// Run the schema gate on forms: saved `.form` files or raw model answers (fenced, chatty).
    Check(CheckArgs),
    /// Write a form for a process step, once: schema on stdout, warnings on stderr.
    Generate(GenerateArgs),
    /// Run the HTTP service for editors.
    Serve(ServeArgs),
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// The BPMN file the form belongs to.
    #[arg(long, value_name = "FILE.bpmn")]
    process: Option<PathBuf>,
    /// Which process of the file (by id); default: the one holding --element, else the first.
    #[arg(long)]
    process_id: Option<String>,
    /// The step the form is for; default: the start form.
    #[arg(long)]
    element: Option<String>,
    /// The brief, in the author's own language.
    #[arg(long, short = 'd')]
    description: Option<String>,
    /// The Worker to ask; default: the only one configured.
    #[arg(long)]
    worker: Option<String>,
    /// Overrides the Worker's model.
    #[arg(long)]
    model: Option<String>,
    /// The form as it stands: refine it instead of drafting a new one.
    #[arg(long, value_name = "CURRENT.form")]
    schema: Option<PathBuf>,
    /// The id the editor holds the form under.
    #[arg(long)]
    form_id: Option<String>,
    /// formgen.toml (default: FORMGEN_CONFIG, else the embedded default with the builtin Worker).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Write the schema here instead of stdout.
    #[arg(long, short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct ServeArgs {
    /// formgen.toml (default: FORMGEN_CONFIG, else the embedded default: loopback, no auth, builtin Worker).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// The BPMN process the forms belong to: keys are checked against its variables (first process).
    #[arg(long, value_name = "FILE.bpmn")]
    process: Option<PathBuf>,
    /// The id the editor holds the form under; stamped into the result.
    #[arg(long)]
    form_id: Option<String>,
    /// Forms or model answers to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct OutlineArgs {
    /// One JSON line per file in the outline contract's format instead of the description text.
    #[arg(long)]
    json: bool,
    /// Only this process (by id); default: every process in the file.
    #[arg(long)]
    process: Option<String>,
    /// Describe the form for this step; default: the start form.
    #[arg(long)]
    element: Option<String>,
    /// BPMN files to read.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// A failure that ends the command with exit code 2 and one line on stderr.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct UsageError(String);

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let limits = match limits_from_env() {
        Ok(l) => l,
        Err(e) => return usage(e),
    };
    let result = match cli.command {
        Command::Outline(args) => outline(args, &limits),
        Command::Check(args) => check(args, &limits),
        Command::Generate(args) => generate(args),
        Command::Serve(args) => serve(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => usage(e),
    }
}

fn usage(e: UsageError) -> ExitCode {
    eprintln!("formgen: {e}");
    ExitCode::from(2)
}

fn load_config(path: Option<&std::path::Path>) -> Result<Config, UsageError> {
    Config::load(path, &|k| std::env::var(k).ok()).map_err(|e| UsageError(e.to_string()))
}

/// Logs to stderr: `RUST_LOG` if set, else `default` (colours only on a terminal).
fn init_logs(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi).init();
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime")
}

fn serve(args: ServeArgs) -> Result<ExitCode, UsageError> {
    let config = load_config(args.config.as_deref())?;
    init_logs("info");
    match runtime().block_on(crate::http::serve(config)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("formgen: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

fn generate(args: GenerateArgs) -> Result<ExitCode, UsageError> {
    let config = load_config(args.config.as_deref())?;
    init_logs("error");
    let process_xml = match &args.process {
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
            let bytes = bpmn::read_capped(file, config.limits.bpmn_bytes)
                .map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
            bpmn::decode_text(&bytes).into_owned()
        }
        None => String::new(),
    };
    let schema = match &args.schema {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
            let form = gate::check(&text, None, None)
                .map_err(|e| UsageError(format!("{} is not a form the gate accepts: {e}", path.display())))?;
            Some(form.schema)
        }
        None => None,
    };
    let request = crate::service::GenerateRequest {
        description: args.description.unwrap_or_default(),
        worker: args.worker.unwrap_or_default(),
        model: args.model.unwrap_or_default(),
        process_id: args.process_id.unwrap_or_default(),
        process_xml,
        element_id: args.element.unwrap_or_default(),
        form_id: args.form_id.unwrap_or_default(),
        schema,
    };
    let service = crate::service::Service::new(&config).map_err(|e| UsageError(e.to_string()))?;
    let worker_label = request.worker.clone();
    let rt = runtime();
    let result = rt.block_on(async {
        let progress = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
            tokio::spawn(async move {
                let started = std::time::Instant::now();
                loop {
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                    let who =
                        if worker_label.is_empty() { "the model".to_string() } else { worker_label.clone() };
                    eprint!("\r  asking {who}… {:>4.1} s", started.elapsed().as_secs_f64());
                }
            })
        });
        let result = service.generate(&crate::workers::Principal::operator(), request).await;
        if let Some(p) = progress {
            p.abort();
            eprint!("\r\x1b[2K");
        }
        result
    });
    let response = match result {
        Ok(r) => r,
        Err(e) => {
            let api = crate::http::error::ApiError::from(e);
            eprintln!("formgen: {} ({})", api.message, api.code);
            for p in api.problems.unwrap_or_default() {
                eprintln!("  - {p}");
            }
            return Ok(ExitCode::from(1));
        }
    };
    let json = serde_json::to_string_pretty(&response.schema).expect("schema serialises");
    match &args.output {
        Some(path) => std::fs::write(path, json + "\n")
            .map_err(|e| UsageError(format!("cannot write {}: {e}", path.display())))?,
        None => {
            let _ = writeln!(std::io::stdout().lock(), "{json}");
        }
    }
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(
        stderr,
        "formgen: {} ({}) wrote the form{} in {} attempt(s), {} tokens in, {} out",
        response.worker,
        response.model,
        if response.element_id.is_empty() { String::new() } else { format!(" for {}", response.element_id) },
        response.attempts,
        response.usage.input_tokens,
        response.usage.output_tokens
    );
    for w in &response.warnings {
        let _ = writeln!(stderr, "warning: {w}");
    }
    Ok(ExitCode::SUCCESS)
}

fn limits_from_env() -> Result<Limits, UsageError> {
    let mut limits = Limits::default();
    let problems = limits.apply_env(|k| std::env::var(k).ok());
    match problems.first() {
        Some(p) => Err(UsageError(p.to_string())),
        None => Ok(limits),
    }
}

fn read_bpmn(path: &std::path::Path, limits: &Limits) -> Result<bpmn::Definitions, UsageError> {
    bpmn::read_file(path, limits.bpmn_bytes).map_err(|e| match e {
        bpmn::ReadError::Io(io) => UsageError(format!("cannot read {}: {io}", path.display())),
        too_large => UsageError(format!("{}: {too_large}", path.display())),
    })
}

fn outline(args: OutlineArgs, limits: &Limits) -> Result<ExitCode, UsageError> {
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
            if !element.is_empty() && p.element(element).is_none() {
                continue;
            }
            found = true;
            let text = bpmn::describe(p, element, limits.prompt_chars).expect("element exists");
            let _ = writeln!(stdout, "{text}");
        }
        if !found {
            return Err(UsageError(format!("{} has no element \"{element}\"", path.display())));
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn check(args: CheckArgs, limits: &Limits) -> Result<ExitCode, UsageError> {
    let process = match &args.process {
        Some(path) => {
            let defs = read_bpmn(path, limits)?;
            match defs.processes.into_iter().next() {
                Some(p) => Some(p),
                None => {
                    return Err(UsageError(format!("{} holds no BPMN process", path.display())));
                }
            }
        }
        None => None,
    };
    let cap = limits.schema_bytes.max(limits.answer_bytes);
    let mut texts = Vec::new();
    for path in &args.files {
        let file = std::fs::File::open(path)
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
    let single = args.files.len() == 1;
    let mut refused = false;
    let mut stderr = std::io::stderr().lock();
    for (path, text) in args.files.iter().zip(&texts) {
        let name = path.display();
        match gate::check(text, args.form_id.as_deref(), process.as_ref()) {
            Ok(proposal) => {
                if single {
                    let json = serde_json::to_string_pretty(&proposal.schema).expect("schema serialises");
                    let _ = writeln!(std::io::stdout().lock(), "{json}");
                } else {
                    let _ = writeln!(stderr, "{name}: accepted");
                }
                for w in &proposal.warnings {
                    let _ = writeln!(stderr, "{name}: warning: {w}");
                }
            }
            Err(e) => {
                refused = true;
                for problem in e.problems() {
                    let _ = writeln!(stderr, "{name}: refused: {problem}");
                }
            }
        }
    }
    Ok(if refused { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
