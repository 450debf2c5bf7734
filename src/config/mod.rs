//! `formgen.toml`: the operator's configuration, validated whole at start.
//!
//! Loading reports *every* problem at once, each naming its place (`workers[2].provider: "chat" is not a
//! wire format; ...`), so an operator fixes a file in one round. As ripgrep turns raw flags into checked
//! types, the file as written (`raw.rs`) is turned section by section into checked types, each builder
//! adding to one list of problems: `server.rs`, `auth.rs`, `vault.rs`, `workers.rs`, `limits.rs`.
//! Values are first overridden from the environment where container platforms put them
//! ([`ENV_VARS`]).
//!
//! With no config file at all, formgen runs on the embedded default: loopback only, no auth, the
//! `builtin` Worker (no model, no key, no network), and `./processes` if it exists.
//!
//! This module turns text into a checked [`Config`]; it knows nothing of serving or calling models.

mod auth;
mod limits;
mod raw;
mod server;
mod toml_errors;
mod vault;
mod warnings;
mod workers;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::credentials::VaultTokenRef;
use crate::limits::Limits;
use crate::workers::Worker;

pub use crate::auth::{Auth, AuthMode, PrincipalConfig};
pub use raw::{ENV_VARS, EnvVar};

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
    /// Host names besides the loopback ones that requests may be addressed to in `auth.mode = "none"`
    /// (lower-cased, without a port).
    pub allowed_hosts: Vec<String>,
}

/// The vault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VaultConfig {
    /// Its address.
    pub addr: reqwest::Url,
    /// A reference to its token (`env:VAULT_TOKEN`, `file:...`), never itself in the vault.
    pub token: VaultTokenRef,
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
    /// The folder whose `.form` and `.dmn` files (recursively) are the processes' project, when it is
    /// not the process store's folder (the CLI's `--project`).
    pub project_dir: Option<PathBuf>,
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

impl Config {
    /// The project folder: the CLI's `--project`, else the process store's folder.
    pub fn project_dir(&self) -> Option<&Path> {
        self.project_dir.as_deref().or(self.processes_dir.as_deref())
    }
}

/// Everything wrong with a configuration, one line each.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} problem(s) in the configuration ({origin}):\n  {}", problems.len(), problems.join("\n  "))]
pub struct ConfigError {
    /// Where the configuration came from.
    pub origin: String,
    /// The problems.
    pub problems: Vec<String>,
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
        // an empty FORMGEN_CONFIG= is how shells and container specs unset a variable
        let from_env = env("FORMGEN_CONFIG").filter(|p| !p.trim().is_empty()).map(PathBuf::from);
        let path = path.map(Path::to_path_buf).or(from_env);
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
        let (raw, file_problems) = toml_errors::read::<raw::RawConfig>(text);
        let mut p = Problems(file_problems.into_iter().map(without_secret_value).collect());
        let Some(mut raw) = raw else {
            return Err(ConfigError { origin: source.to_string(), problems: p.0 });
        };
        let (env_problems, overrides) = raw::apply_env(&mut raw, env);
        p.0.extend(env_problems);
        let origin = match overrides.vars().collect::<Vec<_>>() {
            vars if vars.is_empty() => source.to_string(),
            vars => format!("{source}, with {} from the environment", vars.join(", ")),
        };
        let fail = |problems: Vec<String>| ConfigError { origin: origin.clone(), problems };
        let paths = Paths { base, embedded };
        let o = &overrides;
        let server = Server::from_raw(&raw.server, paths, o, &mut p);
        let auth = Auth::from_raw(&raw.auth, server.as_ref().map(|s| s.listen), o, &mut p);
        let vault = VaultConfig::from_raw(raw.vault.as_ref(), base, o, &mut p);
        let credential_cache = Duration::from_secs(raw.vault.as_ref().and_then(|v| v.cache_s).unwrap_or(30));
        let workers = workers::from_raw(&raw.workers, raw.vault.is_some(), base, o, &mut p);
        let limits = limits::from_raw(raw.limits.as_ref(), env, &mut p);
        let processes_dir = match paths.resolve(raw.processes.dir.clone()) {
            Some(d) => Some(d),
            None if embedded => Some(PathBuf::from("processes")).filter(|d| d.is_dir()),
            None => None,
        };
        let prompts_dir = paths.resolve(raw.prompts.dir.clone());
        if let Some(d) = &prompts_dir
            && !d.is_dir()
        {
            p.add(format!("{}: {} is not a folder", o.place("prompts.dir"), d.display()));
        }
        match (server, p.0.is_empty()) {
            (Some(server), true) => Ok(Config {
                server,
                auth,
                processes_dir,
                project_dir: None,
                workers,
                vault,
                credential_cache,
                limits,
                prompts_dir,
                source: source.to_string(),
            }),
            _ => Err(fail(p.0)),
        }
    }
}

/// A problem of the file as written at a setting that holds a credential reference, without what the
/// parser quoted of its value: a key written there instead of its reference must not reach the logs.
fn without_secret_value(problem: String) -> String {
    let Some((place, _)) = problem.split_once(" (line ") else { return problem };
    let secret = place.ends_with(".credential") || place == "vault.token";
    match problem.split_once("): ") {
        Some((at, _)) if secret => format!(
            "{at}): not a credential reference (not repeated here, as it may be the key itself); write a string such as \"env:NAME\""
        ),
        _ => problem,
    }
}

/// Every problem found so far, in the order found.
#[derive(Default)]
pub(crate) struct Problems(Vec<String>);

impl Problems {
    pub(crate) fn add(&mut self, problem: String) {
        self.0.push(problem);
    }
}

/// How relative paths in the file are resolved.
#[derive(Clone, Copy)]
struct Paths<'a> {
    /// The config file's folder.
    base: &'a Path,
    /// Whether this is the embedded default (which looks in the current folder).
    embedded: bool,
}

impl Paths<'_> {
    fn resolve(&self, dir: Option<PathBuf>) -> Option<PathBuf> {
        dir.map(|d| if d.is_relative() { self.base.join(d) } else { d })
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
    fn every_environment_variable_is_documented_in_the_configuration_reference() {
        for var in ENV_VARS {
            let name = var.name.split([' ', '<']).next().unwrap_or(var.name);
            assert!(
                REFERENCE.contains(name),
                "docs/configuration.md does not mention {name} ({})",
                var.setting
            );
        }
    }

    #[test]
    fn the_embedded_default() {
        let c = Config::load(None, &no_env).unwrap();
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.auth.mode, AuthMode::None);
        assert_eq!(c.workers.len(), 1);
        assert_eq!(
            (c.workers[0].name.as_str(), c.workers[0].provider()),
            ("builtin", crate::workers::Provider::Builtin)
        );
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
            "workers[1].credential: is not a credential reference",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
        assert!(!text.contains("sk-123"), "a credential's value is never repeated: {text}");
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
        assert_eq!(c.vault.as_ref().unwrap().token, VaultTokenRef::Env("VAULT_TOKEN".into()));
        assert_eq!(c.limits.prompt_chars, 1000);
    }

    #[test]
    fn listen_takes_host_names_and_a_bad_one_from_the_environment_names_the_variable() {
        let env = |k: &str| (k == "FORMGEN_LISTEN").then(|| "localhost:8081".to_string());
        let c = Config::load(None, &env).unwrap();
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:8081");
        let c =
            parse("[server]\nlisten = \"LOCALHOST:9\"\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n")
                .unwrap();
        assert_eq!(c.server.listen.to_string(), "127.0.0.1:9");
        let env = |k: &str| (k == "FORMGEN_LISTEN").then(|| "localhost".to_string());
        let e = Config::load(None, &env).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("FORMGEN_LISTEN (server.listen): \"localhost\" is not an address"), "{text}");
        assert!(text.contains("with FORMGEN_LISTEN from the environment"), "{text}");
        let e = parse("[server]\nlisten = \"localhost:http\"\n").unwrap_err();
        assert!(e.to_string().contains("server.listen: \"localhost:http\""), "{e}");
    }

    #[test]
    fn an_empty_formgen_config_is_unset() {
        let env = |k: &str| (k == "FORMGEN_CONFIG").then(String::new);
        let c = Config::load(None, &env).unwrap();
        assert_eq!(c.source, "the embedded default");
        let env = |k: &str| (k == "FORMGEN_CONFIG").then(|| "  ".to_string());
        assert!(Config::load(None, &env).is_ok());
    }

    #[test]
    fn every_section_and_the_environment_in_one_round() {
        let vars = [
            ("FORMGEN_AUTH_MODE", "sometimes"),
            ("FORMGEN_VAULT_ADDR", "ftp://vault"),
            ("FORMGEN_TRUSTED_PROXIES", "proxy"),
            ("FORMGEN_WORKER_M_ENDPOINT", "nowhere"),
            ("FORMGEN_LIMIT_BPMN_BYTES", "0"),
            ("FORMGEN_SHUTDOWN_GRACE_S", "soon"),
        ];
        let env = |k: &str| vars.iter().find(|(name, _)| *name == k).map(|(_, v)| v.to_string());
        let e = Config::parse(
            "[server]\nlisten_on = 1\ncors_origins = [\"nope\"]\n[[workers]]\nname = \"m\"\nprovider = \"chat\"\nmodel = \"x\"\nalow = 1\n[prompts]\ndir = \"/nonexistent/prompts\"\n",
            "t",
            Path::new("."),
            false,
            &env,
        )
        .unwrap_err();
        let text = e.to_string();
        for expected in [
            "server.listen_on (line 2, column 1): unknown field",
            "workers[0].alow (line 8, column 1): unknown field",
            "server.cors_origins[0]: \"nope\"",
            "FORMGEN_AUTH_MODE (auth.mode): \"sometimes\"",
            "FORMGEN_TRUSTED_PROXIES (auth.trusted_proxies)[0]: \"proxy\"",
            "FORMGEN_VAULT_ADDR (vault.addr): \"ftp://vault\"",
            "workers[0].provider: \"chat\"",
            "FORMGEN_WORKER_M_ENDPOINT (workers[0].endpoint): \"nowhere\"",
            "FORMGEN_LIMIT_BPMN_BYTES (limits.bpmn_bytes): 0 would refuse every request",
            "FORMGEN_SHUTDOWN_GRACE_S=\"soon\"",
            "prompts.dir: /nonexistent/prompts is not a folder",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
        assert_eq!(e.problems.len(), 11, "{text}");
    }

    /// The configuration reference operators are pointed at.
    const REFERENCE: &str = include_str!("../../docs/configuration.md");

    /// The rows of the reference's table whose header row starts with `header`: each row's first
    /// cell's names in backquotes.
    fn reference_table_names(header: &str) -> Vec<String> {
        let rows = REFERENCE
            .lines()
            .skip_while(|l| !l.starts_with(header))
            .skip(2)
            .take_while(|l| l.starts_with('|'));
        rows.flat_map(|row| {
            let cell = row.split('|').nth(1).unwrap_or_default();
            cell.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>()
        })
        .collect()
    }

    #[test]
    fn the_reference_lists_every_limit_every_auth_field_and_every_worker_field() {
        let mut limits: Vec<String> = match serde_json::to_value(crate::limits::Limits::default()) {
            Ok(serde_json::Value::Object(fields)) => fields.keys().cloned().collect(),
            other => panic!("{other:?}"),
        };
        let mut listed = reference_table_names("| limit | default |");
        limits.sort();
        listed.sort();
        assert_eq!(listed, limits, "docs/configuration.md's Limits table and the fields of Limits");
        // the fields a section takes, as serde lists them for a key it does not know
        let fields_of = |section: &str| {
            let e = parse(&format!("{section}\nno_such_field = 1\n")).unwrap_err().to_string();
            let expected = e.split("expected one of ").nth(1).unwrap_or_else(|| panic!("{e}")).to_string();
            let mut fields: Vec<String> =
                expected.split('`').skip(1).step_by(2).map(str::to_string).collect();
            fields.sort();
            assert!(fields.len() >= 6, "{e}");
            fields
        };
        let mut listed = reference_table_names("| `[auth]` field |");
        listed.sort();
        assert_eq!(
            listed,
            fields_of("[auth]"),
            "docs/configuration.md's [auth] table and the fields of [auth]"
        );
        let mut listed = reference_table_names("| field | meaning |");
        listed.sort();
        assert_eq!(
            listed,
            fields_of("[[workers]]"),
            "docs/configuration.md's Workers table and a Worker's fields"
        );
    }

    #[test]
    fn unknown_keys_and_bad_toml_are_reported() {
        let e = parse("[server]\nlisten_on = \"x\"\n").unwrap_err();
        assert!(e.to_string().contains("unknown field `listen_on`"), "{e}");
        let e = parse("[limits]\nbpmn_bytes = \"lots\"\n").unwrap_err();
        assert!(e.to_string().contains("limits.bpmn_bytes (line 2, column 14): invalid type"), "{e}");
    }

    #[test]
    fn typos_are_all_reported_with_line_and_column() {
        let e = parse(
            "[server]\nlisten_on = \"x\"\n\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\ntimeout_s = \"10\"\nalow = []\n[limits]\nbpmn_byte = 1\n",
        )
        .unwrap_err();
        let text = e.to_string();
        assert_eq!(e.problems.len(), 4, "{text}");
        for expected in [
            "server.listen_on (line 2, column 1): unknown field `listen_on`",
            "workers[0].timeout_s (line 7, column 13): invalid type: string \"10\", expected u64",
            "workers[0].alow (line 8, column 1): unknown field `alow`",
            "limits.bpmn_byte (line 10, column 1): unknown field `bpmn_byte`",
        ] {
            assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
        }
        assert!(!text.contains("byte 9") && !text.contains("at byte"), "{text}");
        let e = parse("[server\nlisten = 1\n").unwrap_err();
        assert!(e.problems[0].starts_with("line 1, column "), "{e}");
    }

    #[test]
    fn allow_entries_are_names_or_groups() {
        let e = parse(
            "[[workers]]\nname = \"b\"\nprovider = \"builtin\"\nallow = [\"ana\", \"user:carl\", \"group:designers\", \"team:x\", \"group:\", \"user:a:b\"]\n",
        )
        .unwrap_err();
        let text = e.to_string();
        assert_eq!(e.problems.len(), 3, "{text}");
        for bad in ["allow[3]: \"team:x\"", "allow[4]: \"group:\"", "allow[5]: \"user:a:b\""] {
            assert!(text.contains(bad), "{bad} in {text}");
        }
        assert!(
            text.contains("write a principal's name (\"ana\" or \"user:ana\") or \"group:NAME\""),
            "{text}"
        );
        use crate::auth::Allow;
        assert_eq!(Allow::parse("user:carl"), Some(Allow::Principal("carl".into())));
        assert_eq!(Allow::parse("group:designers"), Some(Allow::Group("designers".into())));
    }

    #[test]
    fn numeric_environment_values_are_refused_when_wrong() {
        let env = |k: &str| match k {
            "FORMGEN_WORKER_B_TIMEOUT_S" | "FORMGEN_SHUTDOWN_GRACE_S" | "FORMGEN_CREDENTIAL_CACHE_S" => {
                Some("abc".to_string())
            }
            "FORMGEN_LIMIT_BPMN_BYTES" => Some("lots".to_string()),
            _ => None,
        };
        let e = Config::parse(
            "[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n",
            "t",
            Path::new("."),
            false,
            &env,
        )
        .unwrap_err();
        let text = e.to_string();
        for var in [
            "FORMGEN_WORKER_B_TIMEOUT_S=\"abc\" is not a whole number",
            "FORMGEN_SHUTDOWN_GRACE_S=\"abc\" is not a whole number",
            "FORMGEN_CREDENTIAL_CACHE_S=\"abc\" is not a whole number",
            "FORMGEN_LIMIT_BPMN_BYTES",
        ] {
            assert!(text.contains(var), "missing {var:?} in:\n{text}");
        }
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
