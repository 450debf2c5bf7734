//! `formgen eval`: how close a Worker's forms come to the ones authors wrote.
//!
//! The instrument an operator uses to choose a model and this project uses to judge a change to
//! generation. It owns reading the pairs (a [`pairs`] folder in the format of `corpus/pairs/`, or an
//! operator's [`project`] folder, leave-one-out), hiding the answer from the generator ([`embedded`]),
//! reducing forms to their input fields ([`fields`]), the measures ([`score`]), the driver that runs a
//! few generations at a time with a progress bar ([`run()`]), the table and JSON lines ([`report`]), and
//! the service's `generate` as the generation ([`service`]).
//!
//! The driver does not know how a form is generated: it takes the generation as a closure from a
//! [`GenerationInput`] to a [`Generated`] (the CLI plugs in [`service::generate`]), so the measures are
//! tested with fake generators that give known answers. It knows no CLI flags and no HTTP.
//!
//! Wiring `formgen eval` is, in outline:
//!
//! ```ignore
//! let mut pairs = match (&args.pairs, &args.project) {
//!     (Some(dir), None) => eval::load_pairs(dir, &config.limits),
//!     (None, Some(dir)) => eval::load_project(dir, &config.limits),
//!     _ => return usage("give --pairs DIR or --project DIR"),
//! }?; // EvalError: print it, exit e.exit_code() (2)
//! pairs.truncate(args.limit.unwrap_or(usize::MAX));
//! let service = Service::new(&config)?;
//! let report = runtime.block_on(eval::run(pairs, concurrency, |input| {
//!     eval::service::generate(&service, &worker, &model, input)
//! }, &mut *eval::progress_for_stderr()));
//! print!("{}", if args.json { report.json_lines() } else { report.table() });
//! ExitCode::from(report.exit_code())
//! ```
//!
//! Exit codes ([`EvalError::exit_code`], [`report::Report::exit_code`]): 0 when it ran, whatever the
//! figures; 1 when no pair could be evaluated; 2 for bad usage or an unreadable folder.

pub mod embedded;
pub mod fields;
pub mod pairs;
pub mod project;
pub mod report;
pub mod run;
pub mod score;
pub mod service;

use std::path::PathBuf;

pub use pairs::{Pair, PairOrProblem, Problem, load_pairs, same_form};
pub use project::load_project;
pub use report::{Report, Row, Summary};
pub use run::{Progress, Quiet, TerminalBar, progress_for_stderr, run};

/// What a generator is given for one pair: never the author's form.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GenerationInput {
    /// The BPMN text, with the step's embedded form (if any) cut out.
    pub bpmn_text: String,
    /// The step the form is for.
    pub element_id: String,
    /// The pair's project folder (sibling `.form` and `.dmn` files), without the pair's own form and
    /// copies of it. Absolute (or as the folder was named) paths, sorted.
    pub project_files: Vec<PathBuf>,
}

/// What a generator hands back for one pair.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Generated {
    /// The proposed form-js schema.
    pub schema: serde_json::Value,
    /// The process text the model was shown (for prompt key coverage and size).
    pub prompt_text: String,
    /// Model calls it took: 1, or 2 after a repair round.
    pub attempts: u32,
    /// Input tokens, over all attempts.
    pub input_tokens: u64,
    /// Output tokens, over all attempts.
    pub output_tokens: u64,
}

/// A folder that cannot be evaluated at all (as opposed to one pair that cannot, which is a
/// [`Problem`] of that pair).
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The folder (or its `pairs.jsonl`) could not be read.
    #[error("cannot read {path}: {error}")]
    Unreadable {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The path is not a folder.
    #[error(
        "{0} is not a folder; give the folder that holds pairs.jsonl (or, with --project, the BPMN files)"
    )]
    NotAFolder(PathBuf),
    /// A pairs folder without `pairs.jsonl`.
    #[error(
        "{0} has no pairs.jsonl; a pairs folder holds one JSON line per pair with bpmn, elementId and form \
         (see corpus/pairs/README.md), or use --project for a folder of BPMN and .form files"
    )]
    NoPairsFile(PathBuf),
    /// `pairs.jsonl` holds no line.
    #[error("{0} holds no pair; add one JSON line per pair")]
    NoPairs(PathBuf),
    /// A project folder without a BPMN file.
    #[error("{0} holds no .bpmn file; --project needs the BPMN files with the .form files their steps bind")]
    NoBpmn(PathBuf),
    /// A folder the project walker refuses (past its file count or size, or unreadable).
    #[error(transparent)]
    Listing(#[from] crate::project::ProjectError),
    /// `pairs.jsonl` is over its size bound.
    #[error("{path} is {size} bytes, over the {limit}-byte bound for a pairs file; split it")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size (at least).
        size: u64,
        /// The bound.
        limit: u64,
    },
}

impl EvalError {
    /// The process exit code: always 2 (bad usage or an unreadable folder).
    pub fn exit_code(&self) -> u8 {
        2
    }
}

/// The exit code of a whole run: the error's code, else the report's.
pub fn exit_code(outcome: &Result<Report, EvalError>) -> u8 {
    match outcome {
        Ok(report) => report.exit_code(),
        Err(e) => e.exit_code(),
    }
}
