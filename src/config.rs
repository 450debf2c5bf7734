//! `formgen.toml`: the operator's configuration, validated whole at start.
//!
//! Loading reports *every* problem at once, each naming its place (`workers[2].provider: "chat" is not a
//! wire format; ...`), so an operator fixes a file in one round. Values are then overridden from the
//! environment where container platforms put them (`FORMGEN_LISTEN`, `FORMGEN_AUTH_MODE`,
//! `FORMGEN_VAULT_ADDR`, `FORMGEN_WORKER_<NAME>_MODEL`, `FORMGEN_LIMIT_*`, ...; see [`ENV_VARS`]).
//!
//! With no config file at all, formgen runs on the embedded default: loopback only, no auth, the
//! `builtin` Worker (no model, no key, no network), and `./processes` if it exists.
//!
//! This module turns text into a checked [`Config`]; it knows nothing of serving or calling models.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::credentials::CredentialRef;
use crate::limits::Limits;
use crate::workers::{Allow, Provider, Worker};

/// How requests say who they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    /// Everyone is `anonymous`; only allowed on a loopback address.
    None,
    /// `Authorization: Bearer <token>`, checked against SHA-256 hashes in the config.
    Tokens,
    /// A trusted proxy's user and groups headers, only from the proxy's addresses.
    Header,
}

/// A principal of `auth.mode = "tokens"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrincipalConfig {
    /// Its name.
    pub name: String,
    /// SHA-256 of its bearer token (never the token).
    pub token_sha256: [u8; 32],
    /// Its groups.
    pub groups: Vec<String>,
}

/// Authentication settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Auth {
    /// The mode.
    pub mode: AuthMode,
    /// Principals (tokens mode).
    pub principals: Vec<PrincipalConfig>,
    /// The proxy's user header (header mode).
    pub user_header: String,
    /// The proxy's groups header, comma-separated groups (header mode).
    pub groups_header: String,
    /// Addresses the proxy connects from (header mode).
    pub trusted_proxies: Vec<IpAddr>,
}

/// Server settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// Where to listen.
    pub listen: SocketAddr,
    /// Editor origins allowed by CORS.
    pub cors_origins: Vec<String>,
    /// Seconds in-flight generations may take to finish on shutdown.
    pub shutdown_grace_s: u64,
    /// The built modeller page to serve at `/`, if any.
    pub web_dir: Option<PathBuf>,
}

/// The vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultConfig {
    /// Its address.
    pub addr: reqwest::Url,
    /// A reference to its token (`env:VAULT_TOKEN`, `file:...`).
    pub token: CredentialRef,
    /// Vault Enterprise / OpenBao namespace.
    pub namespace: Option<String>,
}

/// The whole, checked configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Server settings.
    pub server: Server,
    /// Authentication.
    pub auth: Auth,
    /// The process store's folder (`drafts/` and `deployed/` inside), if any.
    pub processes_dir: Option<PathBuf>,
    /// The Workers.
    pub workers: Vec<Worker>,
    /// The vault, if configured.
    pub vault: Option<VaultConfig>,
    /// How long a resolved credential is reused.
    pub credential_cache: Duration,
    /// Resource ceilings.
    pub limits: Limits,
    /// A folder whose `system.md` / `generate.md` / `refine.md` / `repair.md` replace the embedded prompts.
    pub prompts_dir: Option<PathBuf>,
    /// Where the configuration came from, for the start-up log.
    pub source: String,
}

/// Every environment variable that overrides a setting.
pub const ENV_VARS: &[(&str, &str)] = &[
    ("FORMGEN_CONFIG", "path of formgen.toml (instead of --config)"),
    ("FORMGEN_LISTEN", "server.listen"),
    ("FORMGEN_CORS_ORIGINS", "server.cors_origins, comma-separated"),
    ("FORMGEN_WEB_DIR", "server.web_dir"),
    ("FORMGEN_SHUTDOWN_GRACE_S", "server.shutdown_grace_s"),
    ("FORMGEN_AUTH_MODE", "auth.mode"),
    ("FORMGEN_TRUSTED_PROXIES", "auth.trusted_proxies, comma-separated"),
    ("FORMGEN_PROCESSES_DIR", "processes.dir"),
    ("FORMGEN_VAULT_ADDR", "vault.addr"),
    ("FORMGEN_VAULT_TOKEN", "vault.token (a reference such as env:VAULT_TOKEN)"),
    ("FORMGEN_VAULT_NAMESPACE", "vault.namespace"),
    ("FORMGEN_CREDENTIAL_CACHE_S", "vault.cache_s"),
    ("FORMGEN_PROMPTS_DIR", "prompts.dir"),
    (
        "FORMGEN_WORKER_<NAME>_ENDPOINT / _MODEL / _CREDENTIAL / _TIMEOUT_S",
        "that Worker's field (NAME upper-cased, - as _)",
    ),
    ("FORMGEN_LIMIT_<NAME>", "limits.<name>, e.g. FORMGEN_LIMIT_BPMN_BYTES"),
];

/// Everything wrong with a configuration, one line each.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} problem(s) in the configuration ({origin}):\n  {}", problems.len(), problems.join("\n  "))]
pub struct ConfigError {
    /// Where the configuration came from.
    pub origin: String,
    /// The problems.
    pub problems: Vec<String>,
}

// ---- the file as written -------------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    server: RawServer,
    #[serde(default)]
    auth: RawAuth,
    #[serde(default)]
    processes: RawProcesses,
    #[serde(default)]
    workers: Vec<RawWorker>,
    vault: Option<RawVault>,
    #[serde(default)]
    limits: Option<toml::Table>,
    #[serde(default)]
    prompts: RawPrompts,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawServer {
    listen: Option<String>,
    cors_origins: Option<Vec<String>>,
    shutdown_grace_s: Option<u64>,
    web_dir: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAuth {
    mode: Option<String>,
    #[serde(default)]
    principals: Vec<RawPrincipal>,
    user_header: Option<String>,
    groups_header: Option<String>,
    trusted_proxies: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrincipal {
    name: Option<String>,
    token_sha256: Option<String>,
    #[serde(default)]
    groups: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProcesses {
    dir: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrompts {
    dir: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorker {
    name: Option<String>,
    provider: Option<String>,
    endpoint: Option<String>,
    model: Option<String>,
    credential: Option<String>,
    #[serde(default)]
    allow: Vec<String>,
    timeout_s: Option<u64>,
    structured_output: Option<bool>,
    max_output_tokens: Option<u32>,
    max_concurrent: Option<usize>,
    temperature: Option<f32>,
    max_components: Option<usize>,
    answer_schema: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVault {
    addr: Option<String>,
    token: Option<String>,
    namespace: Option<String>,
    cache_s: Option<u64>,
}

/// The embedded default: what formgen runs on without a config file.
pub const DEFAULT_TOML: &str = r#"
[server]
listen = "127.0.0.1:8080"

[auth]
mode = "none"

[[workers]]
name = "builtin"
provider = "builtin"
model = "outline"
"#;

/// The name of the builtin drafter's model, shown to authors.
pub const BUILTIN_MODEL: &str = "outline";

impl Config {
    /// Loads the configuration: `path` (or `FORMGEN_CONFIG`), else the embedded default; then the
    /// environment overrides; then checks everything. `env` is the process environment in production.
    pub fn load(path: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let path = path.map(Path::to_path_buf).or_else(|| env("FORMGEN_CONFIG").map(PathBuf::from));
        let (text, source, base, embedded) = match &path {
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|e| ConfigError {
                    origin: p.display().to_string(),
                    problems: vec![format!("cannot read {}: {e}", p.display())],
                })?;
                let base = p.parent().map(Path::to_path_buf).unwrap_or_default();
                (text, p.display().to_string(), base, false)
            }
            None => (DEFAULT_TOML.to_string(), "the embedded default".to_string(), PathBuf::from("."), true),
        };
        Config::parse(&text, &source, &base, embedded, env)
    }

    /// Parses and checks configuration text. `base` is the folder relative paths start from.
    pub fn parse(
        text: &str,
        source: &str,
        base: &Path,
        embedded: bool,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let fail = |problems: Vec<String>| ConfigError { origin: source.to_string(), problems };
        let mut raw: RawConfig = toml::from_str(text).map_err(|e| fail(vec![toml_problem(&e)]))?;
        apply_env(&mut raw, env);
        let mut p = Problems::default();

        // [server]
        let listen_text = raw.server.listen.clone().unwrap_or_else(|| "127.0.0.1:8080".into());
        let listen = match listen_text.parse::<SocketAddr>() {
            Ok(addr) => Some(addr),
            Err(_) => {
                p.add(format!(
                    "server.listen: \"{listen_text}\" is not an address and port such as \"127.0.0.1:8080\""
                ));
                None
            }
        };
        let cors_origins = raw.server.cors_origins.clone().unwrap_or_default();
        for (i, origin) in cors_origins.iter().enumerate() {
            let ok = origin == "*"
                || reqwest::Url::parse(origin)
                    .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.path() == "/");
            if !ok {
                p.add(format!(
                    "server.cors_origins[{i}]: \"{origin}\" is not an origin such as \"https://modeler.example.com\""
                ));
            }
        }

        // [auth]
        let mode = match raw.auth.mode.as_deref().unwrap_or("none") {
            "none" => AuthMode::None,
            "tokens" => AuthMode::Tokens,
            "header" => AuthMode::Header,
            other => {
                p.add(format!(
                    "auth.mode: \"{other}\" is not an auth mode; expected \"none\", \"tokens\" or \"header\""
                ));
                AuthMode::None
            }
        };
        if let (AuthMode::None, Some(addr)) = (mode, &listen)
            && !addr.ip().is_loopback()
        {
            p.add(format!(
                "auth.mode: \"none\" lets anyone generate forms with your Workers, so it is only allowed on a loopback address, not {addr}; use \"tokens\" or \"header\""
            ));
        }
        let mut principals = Vec::new();
        for (i, rp) in raw.auth.principals.iter().enumerate() {
            let place = format!("auth.principals[{i}]");
            let name = match rp.name.as_deref().map(str::trim) {
                Some(n) if !n.is_empty() => n.to_string(),
                _ => {
                    p.add(format!("{place}: has no name"));
                    continue;
                }
            };
            if principals.iter().any(|q: &PrincipalConfig| q.name == name) {
                p.add(format!("{place}: the name \"{name}\" is used twice"));
            }
            match rp.token_sha256.as_deref().map(str::trim) {
                None | Some("") => p.add(format!(
                    "{place} (\"{name}\"): has no token_sha256; put the SHA-256 of its token there (e.g. `printf %s \"$TOKEN\" | sha256sum`)"
                )),
                Some(h) => match hex::decode(h).ok().and_then(|b| <[u8; 32]>::try_from(b).ok()) {
                    Some(hash) => principals.push(PrincipalConfig { name, token_sha256: hash, groups: rp.groups.clone() }),
                    None => p.add(format!(
                        "{place} (\"{name}\"): token_sha256 is not 64 hexadecimal digits (the SHA-256 of the token, never the token itself)"
                    )),
                },
            }
        }
        if mode == AuthMode::Tokens && raw.auth.principals.is_empty() {
            p.add("auth.mode: \"tokens\" needs at least one [[auth.principals]]".to_string());
        }
        let mut trusted_proxies = Vec::new();
        for (i, proxy) in raw.auth.trusted_proxies.clone().unwrap_or_default().iter().enumerate() {
            match proxy.trim().parse::<IpAddr>() {
                Ok(ip) => trusted_proxies.push(ip),
                Err(_) => p.add(format!("auth.trusted_proxies[{i}]: \"{proxy}\" is not an IP address")),
            }
        }
        if mode == AuthMode::Header && trusted_proxies.is_empty() {
            p.add(
                "auth.mode: \"header\" trusts a proxy's headers, so it needs auth.trusted_proxies (the proxy's addresses)"
                    .to_string(),
            );
        }

        // [vault]
        let vault = raw.vault.as_ref().and_then(|v| {
            let addr = match v.addr.as_deref() {
                Some(a) => match reqwest::Url::parse(a) {
                    Ok(u) if matches!(u.scheme(), "http" | "https") => Some(u),
                    _ => {
                        p.add(format!("vault.addr: \"{a}\" is not an http(s) URL"));
                        None
                    }
                },
                None => {
                    p.add("vault.addr: missing; give the vault's address, e.g. \"http://127.0.0.1:8200\"".into());
                    None
                }
            };
            let token = match v.token.as_deref() {
                Some(t) => match CredentialRef::parse(t) {
                    Ok(CredentialRef::Vault { .. }) => {
                        p.add("vault.token: the vault's own token cannot come from the vault; use env: or file:".into());
                        None
                    }
                    Ok(r) => Some(r.relative_to(base)),
                    Err(e) => {
                        p.add(format!("vault.token: {e}"));
                        None
                    }
                },
                None => Some(CredentialRef::Env("VAULT_TOKEN".into())),
            };
            Some(VaultConfig { addr: addr?, token: token?, namespace: v.namespace.clone().filter(|n| !n.is_empty()) })
        });
        let credential_cache = Duration::from_secs(raw.vault.as_ref().and_then(|v| v.cache_s).unwrap_or(30));

        // [[workers]]
        let mut workers: Vec<Worker> = Vec::new();
        for (i, rw) in raw.workers.iter().enumerate() {
            let place = format!("workers[{i}]");
            let name = match rw.name.as_deref().map(str::trim) {
                Some(n) if !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c)) => {
                    n.to_string()
                }
                Some(n) if !n.is_empty() => {
                    p.add(format!("{place}.name: \"{n}\" may only hold letters, digits, -, _ and ."));
                    n.to_string()
                }
                _ => {
                    p.add(format!("{place}.name: missing"));
                    format!("#{i}")
                }
            };
            if let Some(first) = workers.iter().position(|w| w.name == name) {
                p.add(format!("{place}.name: \"{name}\" is already the name of workers[{first}]"));
            }
            // An unknown provider is reported and the other fields are checked as for a model Worker.
            let provider = match rw.provider.as_deref() {
                Some(s) => Provider::parse(s).unwrap_or_else(|| {
                    p.add(format!(
                        "{place}.provider: \"{s}\" is not a wire format; expected \"messages\", \"chat-completions\" or \"builtin\""
                    ));
                    Provider::ChatCompletions
                }),
                None => {
                    p.add(format!("{place}.provider: missing; expected \"messages\", \"chat-completions\" or \"builtin\""));
                    Provider::ChatCompletions
                }
            };
            let endpoint = match (provider, rw.endpoint.as_deref()) {
                (Provider::Builtin, None) => None,
                (Provider::Builtin, Some(_)) => {
                    p.add(format!("{place}.endpoint: the builtin Worker calls no endpoint; remove it"));
                    None
                }
                (_, None) => {
                    p.add(format!("{place}.endpoint: missing; give the model server's base URL"));
                    None
                }
                (_, Some(e)) => match reqwest::Url::parse(e) {
                    Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Some(u),
                    _ => {
                        p.add(format!("{place}.endpoint: \"{e}\" is not an http(s) URL"));
                        None
                    }
                },
            };
            let model = match (provider, rw.model.as_deref().map(str::trim)) {
                (Provider::Builtin, m) => m.filter(|m| !m.is_empty()).unwrap_or(BUILTIN_MODEL).to_string(),
                (_, Some(m)) if !m.is_empty() => m.to_string(),
                _ => {
                    p.add(format!("{place}.model: missing; name the model this Worker asks"));
                    String::new()
                }
            };
            let credential = match rw.credential.as_deref() {
                None => CredentialRef::None,
                Some(c) => match CredentialRef::parse(c) {
                    Ok(r) => r.relative_to(base),
                    Err(e) => {
                        p.add(format!("{place}.credential: {e}"));
                        CredentialRef::None
                    }
                },
            };
            if credential.needs_vault() && raw.vault.is_none() {
                p.add(format!(
                    "{place}.credential: \"{credential}\" is in a vault, but there is no [vault] section"
                ));
            }
            if provider == Provider::Builtin && credential != CredentialRef::None {
                p.add(format!("{place}.credential: the builtin Worker needs no credential; remove it"));
            }
            if let Some(t) = rw.temperature
                && !(0.0..=2.0).contains(&t)
            {
                p.add(format!("{place}.temperature: {t} is outside 0 to 2"));
            }
            let lean_schema = match rw.answer_schema.as_deref() {
                None | Some("full") => false,
                Some("lean") => true,
                Some(other) => {
                    p.add(format!("{place}.answer_schema: \"{other}\" is not an answer schema; expected \"full\" or \"lean\""));
                    false
                }
            };
            if rw.max_components == Some(0) {
                p.add(format!("{place}.max_components: 0 would allow no form at all"));
            }
            let mut allow = Vec::new();
            for (j, a) in rw.allow.iter().enumerate() {
                match Allow::parse(a) {
                    Some(entry) => allow.push(entry),
                    None => p.add(format!(
                        "{place}.allow[{j}]: \"{a}\" is neither a principal name nor group:NAME"
                    )),
                }
            }
            workers.push(Worker {
                name,
                provider,
                endpoint,
                model,
                credential,
                allow,
                timeout_s: rw.timeout_s.unwrap_or(0),
                structured_output: rw.structured_output.unwrap_or(true),
                max_output_tokens: rw.max_output_tokens.unwrap_or(0),
                max_concurrent: rw.max_concurrent.unwrap_or(0),
                temperature: rw.temperature,
                max_components: rw.max_components.unwrap_or(crate::workers::DEFAULT_MAX_COMPONENTS),
                lean_schema,
            });
        }

        // [limits]
        let mut limits = match &raw.limits {
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

        let resolve = |dir: Option<PathBuf>| dir.map(|d| if d.is_relative() { base.join(d) } else { d });
        let processes_dir = match resolve(raw.processes.dir.clone()) {
            Some(d) => Some(d),
            None if embedded => Some(PathBuf::from("processes")).filter(|d| d.is_dir()),
            None => None,
        };
        // the built modeller page: where configured; the embedded default serves `web/dist` when it has
        // been built in the current folder
        let web_dir = match resolve(raw.server.web_dir.clone()) {
            Some(d) => Some(d),
            None if embedded => Some(PathBuf::from("web/dist")).filter(|d| d.join("index.html").is_file()),
            None => None,
        };
        let prompts_dir = resolve(raw.prompts.dir.clone());
        if let Some(d) = &prompts_dir
            && !d.is_dir()
        {
            p.add(format!("prompts.dir: {} is not a folder", d.display()));
        }

        if !p.0.is_empty() {
            return Err(fail(p.0));
        }
        Ok(Config {
            server: Server {
                listen: listen.expect("checked"),
                cors_origins,
                shutdown_grace_s: raw.server.shutdown_grace_s.unwrap_or(30),
                web_dir,
            },
            auth: Auth {
                mode,
                principals,
                user_header: raw.auth.user_header.clone().unwrap_or_else(|| "X-Forwarded-User".into()),
                groups_header: raw.auth.groups_header.clone().unwrap_or_else(|| "X-Forwarded-Groups".into()),
                trusted_proxies,
            },
            processes_dir,
            workers,
            vault,
            credential_cache,
            limits,
            prompts_dir,
            source: source.to_string(),
        })
    }
}

#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn add(&mut self, problem: String) {
        self.0.push(problem);
    }
}

/// A TOML error as one line: what and where.
fn toml_problem(e: &toml::de::Error) -> String {
    let message = e.message().trim().to_string();
    match e.span() {
        Some(span) => format!("{message} (at byte {})", span.start),
        None => message,
    }
}

/// Environment overrides, applied to the file as written (so they are checked like it).
fn apply_env(raw: &mut RawConfig, env: &dyn Fn(&str) -> Option<String>) {
    let list = |s: String| {
        s.split(',').map(str::trim).filter(|x| !x.is_empty()).map(str::to_string).collect::<Vec<_>>()
    };
    if let Some(v) = env("FORMGEN_LISTEN") {
        raw.server.listen = Some(v);
    }
    if let Some(v) = env("FORMGEN_CORS_ORIGINS") {
        raw.server.cors_origins = Some(list(v));
    }
    if let Some(v) = env("FORMGEN_WEB_DIR") {
        raw.server.web_dir = Some(v.into());
    }
    if let Some(v) = env("FORMGEN_SHUTDOWN_GRACE_S").and_then(|v| v.parse().ok()) {
        raw.server.shutdown_grace_s = Some(v);
    }
    if let Some(v) = env("FORMGEN_AUTH_MODE") {
        raw.auth.mode = Some(v);
    }
    if let Some(v) = env("FORMGEN_TRUSTED_PROXIES") {
        raw.auth.trusted_proxies = Some(list(v));
    }
    if let Some(v) = env("FORMGEN_PROCESSES_DIR") {
        raw.processes.dir = Some(v.into());
    }
    if let Some(v) = env("FORMGEN_PROMPTS_DIR") {
        raw.prompts.dir = Some(v.into());
    }
    let vault_vars = [
        "FORMGEN_VAULT_ADDR",
        "FORMGEN_VAULT_TOKEN",
        "FORMGEN_VAULT_NAMESPACE",
        "FORMGEN_CREDENTIAL_CACHE_S",
    ];
    if vault_vars.iter().any(|v| env(v).is_some()) {
        let vault = raw.vault.get_or_insert_with(RawVault::default);
        if let Some(v) = env("FORMGEN_VAULT_ADDR") {
            vault.addr = Some(v);
        }
        if let Some(v) = env("FORMGEN_VAULT_TOKEN") {
            vault.token = Some(v);
        }
        if let Some(v) = env("FORMGEN_VAULT_NAMESPACE") {
            vault.namespace = Some(v);
        }
        if let Some(v) = env("FORMGEN_CREDENTIAL_CACHE_S").and_then(|v| v.parse().ok()) {
            vault.cache_s = Some(v);
        }
    }
    for w in &mut raw.workers {
        let Some(name) = &w.name else { continue };
        let prefix = format!("FORMGEN_WORKER_{}_", name.to_uppercase().replace(['-', '.'], "_"));
        if let Some(v) = env(&format!("{prefix}ENDPOINT")) {
            w.endpoint = Some(v);
        }
        if let Some(v) = env(&format!("{prefix}MODEL")) {
            w.model = Some(v);
        }
        if let Some(v) = env(&format!("{prefix}CREDENTIAL")) {
            w.credential = Some(v);
        }
        if let Some(v) = env(&format!("{prefix}TIMEOUT_S")).and_then(|v| v.parse().ok()) {
            w.timeout_s = Some(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, "test.toml", Path::new("/etc/formgen"), false, &no_env)
    }

    #[test]
    fn the_embedded_default() {
        let c = Config::load(None, &no_env).unwrap();
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.auth.mode, AuthMode::None);
        assert_eq!(c.workers.len(), 1);
        assert_eq!((c.workers[0].name.as_str(), c.workers[0].provider), ("builtin", Provider::Builtin));
        assert_eq!(c.source, "the embedded default");
    }

    #[test]
    fn every_problem_at_once_with_its_place() {
        let err = parse(
            r#"
            [server]
            listen = "0.0.0.0:8080"
            [auth]
            mode = "none"
            [[auth.principals]]
            name = "ana"
            [[workers]]
            name = "claude"
            provider = "messages"
            endpoint = "https://api.anthropic.com"
            model = "claude-x"
            credential = "vault:secret/formgen#anthropic"
            [[workers]]
            name = "claude"
            provider = "chat"
            endpoint = "ftp://example.com"
            model = "m"
            credential = "sk-123"
            "#,
        )
        .unwrap_err();
        let text = err.to_string();
        for expected in [
            "auth.mode: \"none\" lets anyone generate forms with your Workers, so it is only allowed on a loopback address, not 0.0.0.0:8080",
            "auth.principals[0] (\"ana\"): has no token_sha256",
            "workers[0].credential: \"vault:secret/formgen#anthropic\" is in a vault, but there is no [vault] section",
            "workers[1].name: \"claude\" is already the name of workers[0]",
            "workers[1].provider: \"chat\" is not a wire format; expected \"messages\", \"chat-completions\" or \"builtin\"",
            "workers[1].endpoint: \"ftp://example.com\" is not an http(s) URL",
            "workers[1].credential: \"sk-123\" is not a credential reference",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
        assert!(
            !text.contains("sk-123\" is") || text.contains("credential reference"),
            "never a value beyond the reference"
        );
        assert_eq!(err.problems.len(), 7, "{text}");
    }

    #[test]
    fn environment_overrides() {
        let env = |k: &str| match k {
            "FORMGEN_WORKER_LOCAL_LLM_MODEL" => Some("other-model".to_string()),
            "FORMGEN_LISTEN" => Some("127.0.0.1:9999".to_string()),
            "FORMGEN_VAULT_ADDR" => Some("http://127.0.0.1:8200".to_string()),
            "FORMGEN_LIMIT_PROMPT_CHARS" => Some("1000".to_string()),
            _ => None,
        };
        let c = Config::parse(
            "[[workers]]\nname = \"local-llm\"\nprovider = \"chat-completions\"\nendpoint = \"http://127.0.0.1:8089/v1\"\nmodel = \"m\"\ncredential = \"vault:secret/x#y\"\n",
            "t",
            Path::new("."),
            false,
            &env,
        )
        .unwrap();
        assert_eq!(c.workers[0].model, "other-model");
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:9999");
        assert_eq!(c.vault.as_ref().unwrap().token, CredentialRef::Env("VAULT_TOKEN".into()));
        assert_eq!(c.limits.prompt_chars, 1000);
    }

    #[test]
    fn unknown_keys_and_bad_toml_are_reported() {
        let e = parse("[server]\nlisten_on = \"x\"\n").unwrap_err();
        assert!(e.to_string().contains("unknown field `listen_on`"), "{e}");
        let e = parse("[limits]\nbpmn_bytes = \"lots\"\n").unwrap_err();
        assert!(e.to_string().contains("limits:"), "{e}");
    }

    #[test]
    fn tokens_and_header_modes() {
        let ok = parse(&format!(
            "[auth]\nmode = \"tokens\"\n[[auth.principals]]\nname = \"ana\"\ntoken_sha256 = \"{}\"\ngroups = [\"designers\"]\n",
            "ab".repeat(32)
        ))
        .unwrap();
        assert_eq!(ok.auth.principals[0].groups, ["designers"]);
        let e = parse("[auth]\nmode = \"header\"\n").unwrap_err();
        assert!(e.to_string().contains("needs auth.trusted_proxies"), "{e}");
    }
}
