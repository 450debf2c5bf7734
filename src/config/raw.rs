//! The configuration as written: the TOML shapes, and the environment variables that override them.
//!
//! Overrides are applied to the file as written, so they are checked exactly like it. The list of
//! variables ([`ENV_VARS`]) exists once: it drives the overrides and is what the documentation shows.

use std::path::PathBuf;

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConfig {
    #[serde(default)]
    pub server: RawServer,
    #[serde(default)]
    pub auth: RawAuth,
    #[serde(default)]
    pub processes: RawProcesses,
    #[serde(default)]
    pub workers: Vec<RawWorker>,
    pub vault: Option<RawVault>,
    #[serde(default)]
    pub limits: Option<crate::limits::Limits>,
    #[serde(default)]
    pub prompts: RawPrompts,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawServer {
    pub listen: Option<String>,
    pub cors_origins: Option<Vec<String>>,
    pub shutdown_grace_s: Option<u64>,
    pub web_dir: Option<PathBuf>,
    pub allowed_hosts: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAuth {
    pub mode: Option<String>,
    #[serde(default)]
    pub principals: Vec<RawPrincipal>,
    pub user_header: Option<String>,
    pub groups_header: Option<String>,
    pub trusted_proxies: Option<Vec<String>>,
    pub metrics: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPrincipal {
    pub name: Option<String>,
    pub token_sha256: Option<String>,
    #[serde(default)]
    pub groups: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawProcesses {
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPrompts {
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWorker {
    pub name: Option<String>,
    pub provider: Option<String>,
    pub endpoint: Option<String>,
    pub model: Option<String>,
    pub credential: Option<String>,
    #[serde(default)]
    pub allow: Vec<String>,
    pub timeout_s: Option<u64>,
    pub structured_output: Option<bool>,
    pub max_output_tokens: Option<u32>,
    pub max_concurrent: Option<usize>,
    pub temperature: Option<f32>,
    pub max_components: Option<usize>,
    pub answer_schema: Option<String>,
    pub stream: Option<bool>,
    pub starting_point: Option<bool>,
    pub draft_when_unusable: Option<bool>,
    pub constrain_keys: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVault {
    pub addr: Option<String>,
    pub token: Option<String>,
    pub namespace: Option<String>,
    pub cache_s: Option<u64>,
}

/// How one environment variable changes the file as written.
#[derive(Clone, Copy)]
enum Apply {
    /// A text setting.
    Text(fn(&mut RawConfig, String)),
    /// A whole number of seconds.
    Seconds(fn(&mut RawConfig, u64)),
    /// Read before the file: which file.
    ConfigPath,
    /// `FORMGEN_WORKER_<NAME>_<FIELD>`: applied per Worker.
    PerWorker,
    /// `FORMGEN_LIMIT_<NAME>`: applied by [`crate::Limits::apply_env`].
    Limit,
}

/// One environment variable that overrides a setting.
#[derive(Clone, Copy)]
pub struct EnvVar {
    /// Its name (a pattern for the per-Worker and per-limit families).
    pub name: &'static str,
    /// The setting it overrides.
    pub setting: &'static str,
    apply: Apply,
}

impl std::fmt::Debug for EnvVar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name, self.setting)
    }
}

const fn text(name: &'static str, setting: &'static str, f: fn(&mut RawConfig, String)) -> EnvVar {
    EnvVar { name, setting, apply: Apply::Text(f) }
}

fn list(s: String) -> Vec<String> {
    s.split(',').map(str::trim).filter(|x| !x.is_empty()).map(str::to_string).collect()
}

fn vault(raw: &mut RawConfig) -> &mut RawVault {
    raw.vault.get_or_insert_with(RawVault::default)
}

/// Every environment variable that overrides a setting.
pub const ENV_VARS: &[EnvVar] = &[
    EnvVar {
        name: "FORMGEN_CONFIG",
        setting: "path of formgen.toml (instead of --config)",
        apply: Apply::ConfigPath,
    },
    text("FORMGEN_LISTEN", "server.listen", |r, v| r.server.listen = Some(v)),
    text("FORMGEN_CORS_ORIGINS", "server.cors_origins, comma-separated", |r, v| {
        r.server.cors_origins = Some(list(v));
    }),
    text("FORMGEN_ALLOWED_HOSTS", "server.allowed_hosts, comma-separated", |r, v| {
        r.server.allowed_hosts = Some(list(v));
    }),
    text("FORMGEN_WEB_DIR", "server.web_dir", |r, v| r.server.web_dir = Some(v.into())),
    EnvVar {
        name: "FORMGEN_SHUTDOWN_GRACE_S",
        setting: "server.shutdown_grace_s",
        apply: Apply::Seconds(|r, v| r.server.shutdown_grace_s = Some(v)),
    },
    text("FORMGEN_AUTH_MODE", "auth.mode", |r, v| r.auth.mode = Some(v)),
    text("FORMGEN_TRUSTED_PROXIES", "auth.trusted_proxies, comma-separated", |r, v| {
        r.auth.trusted_proxies = Some(list(v));
    }),
    text("FORMGEN_PROCESSES_DIR", "processes.dir", |r, v| r.processes.dir = Some(v.into())),
    text("FORMGEN_PROMPTS_DIR", "prompts.dir", |r, v| r.prompts.dir = Some(v.into())),
    text("FORMGEN_VAULT_ADDR", "vault.addr", |r, v| vault(r).addr = Some(v)),
    text("FORMGEN_VAULT_TOKEN", "vault.token (a reference such as env:VAULT_TOKEN)", |r, v| {
        vault(r).token = Some(v);
    }),
    text("FORMGEN_VAULT_NAMESPACE", "vault.namespace", |r, v| vault(r).namespace = Some(v)),
    EnvVar {
        name: "FORMGEN_CREDENTIAL_CACHE_S",
        setting: "vault.cache_s",
        apply: Apply::Seconds(|r, v| vault(r).cache_s = Some(v)),
    },
    EnvVar {
        name: "FORMGEN_WORKER_<NAME>_ENDPOINT / _MODEL / _CREDENTIAL / _TIMEOUT_S",
        setting: "that Worker's field (NAME upper-cased, - as _)",
        apply: Apply::PerWorker,
    },
    EnvVar {
        name: "FORMGEN_LIMIT_<NAME>",
        setting: "limits.<name>, e.g. FORMGEN_LIMIT_BPMN_BYTES",
        apply: Apply::Limit,
    },
];

/// Which settings the environment gave, so that a problem with one names the variable it came from.
#[derive(Debug, Default)]
pub(crate) struct Overrides(Vec<(String, String)>);

impl Overrides {
    fn record(&mut self, setting: &str, var: &str) {
        self.0.push((setting.to_string(), var.to_string()));
    }

    /// The place a problem with `setting` names: the setting, and the variable when it came from one
    /// (`FORMGEN_LISTEN (server.listen)`).
    pub(crate) fn place(&self, setting: &str) -> String {
        match self.0.iter().find(|(s, _)| s == setting) {
            Some((_, var)) => format!("{var} ({setting})"),
            None => setting.to_string(),
        }
    }

    /// The variables that were applied, in order.
    pub(crate) fn vars(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(_, v)| v.as_str())
    }
}

/// The setting a variable's text goes to, for naming the variable in problems (the part of `setting`
/// before any comment).
fn setting_of(var: &EnvVar) -> &'static str {
    var.setting.split([' ', ',']).next().unwrap_or(var.setting)
}

/// A value that is not a whole number, as a problem sentence.
fn not_seconds(var: &str, value: &str) -> String {
    format!("{var}={value:?} is not a whole number of seconds; leave it unset or give e.g. {var}=30")
}

/// Applies the environment overrides to the file as written; returns the values that could not be used
/// and which settings the environment gave.
pub(super) fn apply_env(
    raw: &mut RawConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> (Vec<String>, Overrides) {
    let mut problems = Vec::new();
    let mut overrides = Overrides::default();
    for var in ENV_VARS {
        match var.apply {
            Apply::Text(set) => {
                if let Some(v) = env(var.name) {
                    set(raw, v);
                    overrides.record(setting_of(var), var.name);
                }
            }
            Apply::Seconds(set) => {
                if let Some(v) = env(var.name) {
                    match v.trim().parse() {
                        Ok(n) => set(raw, n),
                        Err(_) => problems.push(not_seconds(var.name, &v)),
                    }
                    overrides.record(setting_of(var), var.name);
                }
            }
            Apply::PerWorker => apply_worker_env(raw, env, &mut problems, &mut overrides),
            Apply::ConfigPath | Apply::Limit => {}
        }
    }
    (problems, overrides)
}

fn apply_worker_env(
    raw: &mut RawConfig,
    env: &dyn Fn(&str) -> Option<String>,
    problems: &mut Vec<String>,
    overrides: &mut Overrides,
) {
    for (i, w) in raw.workers.iter_mut().enumerate() {
        let Some(name) = &w.name else { continue };
        let prefix = format!("FORMGEN_WORKER_{}_", name.to_uppercase().replace(['-', '.'], "_"));
        let fields: [(&str, &mut Option<String>); 3] =
            [("endpoint", &mut w.endpoint), ("model", &mut w.model), ("credential", &mut w.credential)];
        for (field, slot) in fields {
            let var = format!("{prefix}{}", field.to_uppercase());
            if let Some(v) = env(&var) {
                *slot = Some(v);
                overrides.record(&format!("workers[{i}].{field}"), &var);
            }
        }
        let timeout = format!("{prefix}TIMEOUT_S");
        if let Some(v) = env(&timeout) {
            match v.trim().parse() {
                Ok(n) => w.timeout_s = Some(n),
                Err(_) => problems.push(not_seconds(&timeout, &v)),
            }
            overrides.record(&format!("workers[{i}].timeout_s"), &timeout);
        }
    }
}
