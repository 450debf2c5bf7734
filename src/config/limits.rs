//! `[limits]`: the installation's ceilings, from the file and then `FORMGEN_LIMIT_*`.

use super::Problems;
use crate::limits::Limits;

/// The checked `[limits]` section with the environment's overrides applied.
pub(super) fn from_raw(
    table: Option<&Limits>,
    env: &dyn Fn(&str) -> Option<String>,
    p: &mut Problems,
) -> Limits {
    // read with the rest of the file, so a wrong type here is reported with its line like any other
    let mut limits = table.cloned().unwrap_or_default();
    for problem in limits.apply_env(env) {
        p.add(problem.to_string());
    }
    for zero in limits.zero_fields() {
        let var = format!("FORMGEN_LIMIT_{}", zero.to_uppercase());
        let place =
            if env(&var).is_some() { format!("{var} (limits.{zero})") } else { format!("limits.{zero}") };
        p.add(format!("{place}: 0 would refuse every request"));
    }
    limits
}
