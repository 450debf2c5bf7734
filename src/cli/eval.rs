//! `formgen eval`: generate the form of every step whose author's form is known (that form hidden) and
//! report how close the proposals come. The measuring is the library's ([`formgen::eval`]).

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use formgen::eval;
use formgen::service::Service;
use formgen::workers::Worker;

use super::{UsageError, init_logs, load_config, runtime};

/// Most generations an evaluation runs at once (and never more than the Worker's own limit).
const MOST_AT_ONCE: usize = 4;

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["pairs", "project"])))]
pub(crate) struct EvalArgs {
    /// A pairs folder (`pairs.jsonl` with bpmn, elementId, form, ...; see corpus/pairs/README.md).
    #[arg(long, value_name = "DIR")]
    pairs: Option<PathBuf>,
    /// Your own project folder: every step that binds a `.form` found there, its own form hidden.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// The Worker to measure; default: the only one configured (the builtin drafter by default).
    #[arg(long)]
    worker: Option<String>,
    /// Overrides the Worker's model.
    #[arg(long)]
    model: Option<String>,
    /// formgen.toml (default: FORMGEN_CONFIG, else the embedded default with the builtin Worker).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// One JSON object per pair, then a summary line, instead of the table.
    #[arg(long)]
    json: bool,
    /// Evaluate only the first N pairs.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Also write each proposal to DIR (created if missing) as `NN-<elementId>.form`, NN the pair's number.
    #[arg(long, value_name = "DIR")]
    proposals: Option<PathBuf>,
}

pub(crate) fn run(args: EvalArgs) -> Result<ExitCode, UsageError> {
    let config = load_config(args.config.as_deref())?;
    init_logs("error");
    let loaded = match (&args.pairs, &args.project) {
        (Some(dir), _) => eval::load_pairs(dir, &config.limits),
        (None, Some(dir)) => eval::load_project(dir, &config.limits),
        (None, None) => unreachable!("clap requires --pairs or --project"),
    };
    let mut pairs = loaded.map_err(|e| UsageError::new(e.to_string()))?;
    pairs.truncate(args.limit.unwrap_or(usize::MAX));
    // scored against the listed keys: say where a pairs file lists other keys than its form binds
    for pair in pairs.iter().filter_map(|item| match item {
        eval::PairOrProblem::Pair(p) => Some(p),
        eval::PairOrProblem::Problem(_) => None,
    }) {
        for difference in pair.key_differences() {
            super::say(&format!("formgen: warning: {}#{}: {difference}", pair.bpmn, pair.element_id));
        }
    }
    let worker_name = args.worker.unwrap_or_default();
    let worker = pick(&config.workers, &worker_name)?;
    let at_once = match worker.max_concurrent {
        0 => config.limits.concurrent_per_worker,
        n => n,
    }
    .clamp(1, MOST_AT_ONCE);
    let service = Service::new(&config).map_err(|e| UsageError::new(e.to_string()))?;
    let model = args.model.unwrap_or_default();
    let report = runtime().block_on(async {
        let mut progress = eval::progress_for_stderr();
        eval::run(
            pairs,
            at_once,
            |input| eval::service::generate(&service, &worker.name, &model, input),
            &mut *progress,
        )
        .await
    });
    if let Some(dir) = &args.proposals {
        write_proposals(dir, &report)?;
    }
    // the table's own line breaks are kept; a control character a file or a model put in it is escaped
    let out = if args.json { report.json_lines() } else { formgen::words::printable_lines(&report.table()) };
    let _ = write!(std::io::stdout().lock(), "{out}");
    Ok(ExitCode::from(report.exit_code()))
}

/// Each proposal of the run as a `.form` file in `dir`.
fn write_proposals(dir: &std::path::Path, report: &eval::Report) -> Result<(), UsageError> {
    let failed =
        |e: std::io::Error| UsageError::new(format!("cannot write the proposals to {}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(failed)?;
    for (name, text) in report.proposal_files() {
        std::fs::write(dir.join(name), text).map_err(failed)?;
    }
    Ok(())
}

/// The Worker named, or the only one configured, in the CLI's words.
fn pick<'a>(workers: &'a [Worker], name: &str) -> Result<&'a Worker, UsageError> {
    let names = || workers.iter().map(|w| w.name.as_str()).collect::<Vec<_>>().join(", ");
    match (name.trim(), workers) {
        ("", [only]) => Ok(only),
        ("", []) => Err(UsageError::new("the configuration has no Worker; add a [[workers]] section".into())),
        ("", _) => Err(UsageError::new(format!(
            "several Workers are configured ({}); name one with --worker",
            names()
        ))),
        (name, _) => workers.iter().find(|w| w.name == name).ok_or_else(|| {
            UsageError::new(format!("there is no Worker named \"{name}\"; configured: {}", names()))
        }),
    }
}
