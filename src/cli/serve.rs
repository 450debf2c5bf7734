//! `formgen serve`: the HTTP service for editors.
//!
//! Before serving it says what in the configuration will not work as meant (no Worker, an allow list
//! no caller can meet, a page folder with no page), and refuses prompt templates that cannot be used
//! as bad usage (exit 2), like a configuration error.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{UsageError, init_logs, load_config, runtime};

#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// formgen.toml (default: FORMGEN_CONFIG, else the embedded default: loopback, no auth, builtin Worker).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
}

pub(crate) fn run(args: ServeArgs) -> Result<ExitCode, UsageError> {
    let config = load_config(args.config.as_deref())?;
    formgen::prompt::Prompts::load(config.prompts_dir.as_deref())
        .map_err(|e| UsageError::new(e.to_string()))?;
    init_logs("info");
    for warning in config.warnings() {
        tracing::warn!("{}", formgen::words::sentence(&warning));
    }
    // glibc keeps what a burst of generations freed; give it back once the burst is over
    super::trim::start();
    let runtime = runtime();
    let grace = std::time::Duration::from_secs(config.server.shutdown_grace_s);
    let served = runtime.block_on(formgen::http::serve(config));
    // the grace period bounds the whole shutdown: a CPU-bound request still running does not hold the exit
    runtime.shutdown_timeout(formgen::http::exit_allowance(grace));
    match served {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            super::say(&format!("formgen: {e}"));
            Ok(ExitCode::from(1))
        }
    }
}
