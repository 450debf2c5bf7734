//! `[limits]`: the installation's ceilings, from the file and then `FORMGEN_LIMIT_*`.

use super::{Problems, toml_problem};
use crate::limits::Limits;

impl Limits {
    /// The checked `[limits]` section with the environment's overrides applied.
    pub(super) fn from_raw(
        table: Option<&toml::Table>,
        env: &dyn Fn(&str) -> Option<String>,
        p: &mut Problems,
    ) -> Limits {
        let mut limits = match table {
            Some(table) => match toml::Value::Table(table.clone()).try_into::<Limits>() {
                Ok(l) => l,
                Err(e) => {
                    p.add(format!("limits: {}", toml_problem(&e)));
                    Limits::default()
                }
            },
            None => Limits::default(),
        };
        for problem in limits.apply_env(env) {
            p.add(problem.to_string());
        }
        for zero in limits.zero_fields() {
            p.add(format!("limits.{zero}: 0 would refuse every request"));
        }
        limits
    }
}
