//! `formgen generate`: one form for a process step, schema on stdout, warnings on stderr.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use formgen::{bpmn, gate};

use super::errors::{Asked, explain};
use super::{UsageError, init_logs, load_config, runtime};

#[derive(Debug, clap::Args)]
pub(crate) struct GenerateArgs {
    /// The BPMN file the form belongs to (or --process FILE).
    #[arg(value_name = "FILE.bpmn", conflicts_with = "process")]
    pub(crate) file: Option<PathBuf>,
    /// The BPMN file the form belongs to.
    #[arg(long, value_name = "FILE.bpmn")]
    pub(crate) process: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) step: super::StepArgs,
    /// The brief, in the author's own language.
    #[arg(long, short = 'd')]
    pub(crate) description: Option<String>,
    /// The Worker to ask; default: the only one configured.
    #[arg(long)]
    pub(crate) worker: Option<String>,
    /// Overrides the Worker's model.
    #[arg(long)]
    pub(crate) model: Option<String>,
    /// The form as it stands: refine it instead of drafting a new one.
    #[arg(long, value_name = "CURRENT.form")]
    pub(crate) schema: Option<PathBuf>,
    /// The id the editor holds the form under.
    #[arg(long)]
    pub(crate) form_id: Option<String>,
    /// Write the schema here instead of stdout.
    #[arg(long, short = 'o', value_name = "OUT")]
    pub(crate) output: Option<PathBuf>,
}

/// A usage error when the command names neither a process nor a brief.
fn something_to_draft(args: &GenerateArgs, has_file: bool) -> Result<(), UsageError> {
    let has_brief = args.description.as_deref().is_some_and(|d| !d.trim().is_empty());
    if has_file || args.step.process_id.is_some() {
        return Ok(());
    }
    if let Some(element) = &args.step.element {
        return Err(UsageError::new(format!(
            "--element {element} names a step of a process; give the process's BPMN file too (formgen generate FILE.bpmn --element {element})"
        )));
    }
    if !has_brief {
        return Err(UsageError::new(
            "say what the form is for: give a BPMN file (formgen generate FILE.bpmn [--element ID]) or a brief (-d \"...\"); see formgen generate --help".into(),
        ));
    }
    Ok(())
}

/// The generation with the event stream's progress on one line of stderr.
async fn on_a_terminal(
    service: &formgen::service::Service,
    principal: &formgen::auth::Principal,
    request: formgen::service::GenerateRequest,
    worker_label: String,
) -> Result<formgen::service::GenerateResponse, formgen::service::ServiceError> {
    // on a terminal: the same progress the event stream gives, on one line of stderr
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Seen::default()));
    let ticker = {
        let seen = seen.clone();
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            loop {
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                let who =
                    if worker_label.is_empty() { "the model".to_string() } else { worker_label.clone() };
                let s = *seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                let attempt = if s.attempt > 1 { format!(", attempt {}", s.attempt) } else { String::new() };
                eprint!(
                    "\r\x1b[2K  asking {who}… {} components, {} tokens{attempt}, {:.1} s",
                    s.components,
                    s.tokens,
                    started.elapsed().as_secs_f64()
                );
            }
        })
    };
    let on = |event: formgen::service::Event| {
        let mut s = seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match event {
            formgen::service::Event::Progress(p) => {
                (s.attempt, s.tokens) = (p.attempt, p.tokens);
            }
            formgen::service::Event::Draft(d) => {
                s.components = d["components"].as_array().map_or(0, Vec::len);
            }
            formgen::service::Event::Repair(r) => *s = Seen { attempt: r.attempt, ..Seen::default() },
            formgen::service::Event::Warning(_) => {}
        }
    };
    let result = service.generate_watched(principal, request, &on).await;
    ticker.abort();
    eprint!("\r\x1b[2K");
    result
}

pub(crate) fn run(mut args: GenerateArgs) -> Result<ExitCode, UsageError> {
    let bpmn_file = args.file.take().or(args.process.take());
    something_to_draft(&args, bpmn_file.is_some())?;
    let config = load_config(args.step.config.as_deref())?;
    init_logs("error");
    let process_xml = match &bpmn_file {
        Some(path) => Some(read_process(path, &config.limits)?),
        None => None,
    };
    let schema = match &args.schema {
        Some(path) => Some(read_current_form(path, &config.limits)?),
        None => None,
    };
    let request = formgen::service::GenerateRequest {
        description: args.description,
        worker: args.worker,
        model: args.model,
        process_id: args.step.process_id,
        process_xml,
        element_id: args.step.element,
        form_id: args.form_id,
        schema,
        ..formgen::service::GenerateRequest::default()
    };
    let mut config = config;
    config.project_dir = super::project_folder(args.step.project.as_deref(), bpmn_file.as_deref())?;
    let service = formgen::service::Service::new(&config).map_err(|e| UsageError::new(e.to_string()))?;
    let worker_label = request.worker.clone().unwrap_or_default();
    let rt = runtime();
    let result = rt.block_on(async {
        let principal = formgen::auth::Principal::operator();
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return service.generate(&principal, request).await;
        }
        on_a_terminal(&service, &principal, request, worker_label).await
    });
    let response = match result {
        Ok(r) => r,
        Err(e) => {
            let asked = Asked {
                file: bpmn_file.as_deref(),
                schema: args.schema.as_deref(),
                config: &config.source,
                workers: config.workers.iter().map(|w| w.name.as_str()).collect(),
            };
            let (sentence, code) = explain(&e, &asked);
            super::say(&format!("formgen: {} ({})", formgen::words::sentence(&sentence), e.code()));
            for p in e.problems().unwrap_or_default() {
                super::say(&format!("  - {p}"));
            }
            return Ok(ExitCode::from(code));
        }
    };
    let json = serde_json::to_string_pretty(&response.schema).expect("schema serialises");
    match &args.output {
        Some(path) => std::fs::write(path, json + "\n")
            .map_err(|e| UsageError::new(format!("cannot write {}: {e}", path.display())))?,
        None => {
            let _ = writeln!(std::io::stdout().lock(), "{json}");
        }
    }
    super::say(&format!(
        "formgen: {} ({}) wrote the form{} in {} attempt(s), {} tokens in, {} out",
        response.worker,
        response.model,
        if response.element_id.is_empty() { String::new() } else { format!(" for {}", response.element_id) },
        response.attempts,
        response.usage.input_tokens,
        response.usage.output_tokens
    ));
    for w in &response.warnings {
        super::say(&format!("warning: {w}"));
    }
    for f in &response.findings {
        super::say(&format!(
            "{}: {} [{}]",
            formgen::report::severity_word(f.severity),
            f.message,
            f.code.as_str()
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the terminal's progress line shows.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    attempt: u32,
    tokens: u64,
    components: usize,
}

/// The BPMN file's text, within the BPMN size limit and the file read time.
fn read_process(path: &std::path::Path, limits: &formgen::Limits) -> Result<String, UsageError> {
    let file = formgen::files::open(path, limits.file_read_timeout())
        .map_err(|e| UsageError::new(format!("cannot read {}: {e}", path.display())))?;
    let size = file.len();
    if size > limits.bpmn_bytes as u64 {
        let too_large = bpmn::ReadError::TooLarge { size: Some(size), limit: limits.bpmn_bytes };
        return Err(UsageError::new(format!("{}: {too_large}", path.display())));
    }
    let bytes = bpmn::read_capped(file, limits.bpmn_bytes)
        .map_err(|e| UsageError::new(format!("{}: {e}", path.display())))?;
    Ok(bpmn::decode_text(&bytes).into_owned())
}

/// The form `--schema` names, through the gate, within the form size limit and the file read time.
fn read_current_form(
    path: &std::path::Path,
    limits: &formgen::Limits,
) -> Result<serde_json::Value, UsageError> {
    let bytes = formgen::files::read_capped(path, limits.schema_bytes as u64, limits.file_read_timeout())
        .map_err(|e| UsageError::new(format!("cannot read {}: {e}", path.display())))?
        .ok_or_else(|| {
            UsageError::new(format!(
                "{} is over the {}-byte limit for a form (FORMGEN_LIMIT_SCHEMA_BYTES)",
                path.display(),
                limits.schema_bytes
            ))
        })?;
    let text = String::from_utf8_lossy(&bytes);
    // the service leaves out what breaks a rule, and says so; only a file with no form is refused
    let form = gate::review_text(&text, &gate::Options::default())
        .map_err(|e| UsageError::new(format!("{} holds no form: {e}", path.display())))?;
    Ok(form.proposal.schema)
}
