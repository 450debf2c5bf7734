//! What a configuration that loads may still get wrong: settings that are valid one by one but cannot
//! work as meant together, said once at start by `serve` (each sentence names the fix).
//!
//! This file reads a checked [`Config`] (and looks at the file system for the page); it changes nothing.

use crate::auth::AuthMode;
use crate::auth::{Allow, Principal};
use crate::credentials::{CredentialRef, VaultTokenRef};

use super::Config;

impl Config {
    /// The start-up warnings, one sentence each; empty for a configuration that works as written.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.workers.is_empty() {
            out.push(format!(
                "{} has no Worker, so the page shows no Generate button and every generation is refused; add a \
                 [[workers]] section, e.g. name = \"builtin\" and provider = \"builtin\" (no model, no key)",
                self.source
            ));
        }
        if self.auth.mode == AuthMode::None {
            let anonymous = Principal { name: "anonymous".into(), ..Principal::default() };
            for (i, w) in self.workers.iter().enumerate() {
                if !w.allows(&anonymous) {
                    out.push(format!(
                        "workers[{i}] (\"{}\") has an allow list, but auth.mode = \"none\" makes every caller \
                         \"anonymous\" with no groups, so no one can use it from the page; remove allow, or set \
                         auth.mode = \"tokens\" or \"header\"",
                        w.name
                    ));
                }
            }
        }
        out.extend(self.metrics_warnings());
        if self.auth.mode == AuthMode::Tokens {
            let names: Vec<&str> = self.auth.principals.iter().map(|p| p.name.as_str()).collect();
            let groups: Vec<&str> =
                self.auth.principals.iter().flat_map(|p| p.groups.iter().map(String::as_str)).collect();
            for (i, w) in self.workers.iter().enumerate() {
                for (j, a) in w.allow.iter().enumerate() {
                    let missing = match a {
                        Allow::Principal(n) if !names.contains(&n.as_str()) => format!("principal \"{n}\""),
                        Allow::Group(g) if !groups.contains(&g.as_str()) => format!("group \"{g}\""),
                        _ => continue,
                    };
                    out.push(format!(
                        "workers[{i}].allow[{j}]: no [[auth.principals]] entry is the {missing}, so this entry lets no one in; check the spelling"
                    ));
                }
            }
        }
        out.extend(self.credential_file_warnings());
        if self.auth.mode != AuthMode::None && !self.server.allowed_hosts.is_empty() {
            out.push(
                "server.allowed_hosts has no effect unless auth.mode = \"none\": with authentication any host name is served; remove it"
                    .to_string(),
            );
        }
        if let Some(dir) = &self.server.web_dir {
            let index = dir.join("index.html");
            if !index.is_file() {
                let absolute = std::path::absolute(&index).unwrap_or(index);
                out.push(format!(
                    "server.web_dir: there is no page at {} ({}), so / answers 404; build the page \
                     (cd web && npm ci && npm run build) or point web_dir at the folder holding index.html",
                    absolute.display(),
                    if dir.is_dir() { "the folder has no index.html" } else { "the folder does not exist" }
                ));
            }
        }
        out
    }

    /// `file:` credentials (a Worker's key, the vault's token) that users other than formgen's may read.
    fn credential_file_warnings(&self) -> Vec<String> {
        let mut files: Vec<(String, &std::path::Path)> = Vec::new();
        for (i, w) in self.workers.iter().enumerate() {
            if let crate::workers::Backend::Model(m) = &w.backend
                && let CredentialRef::File(path) = &m.credential
            {
                files.push((format!("workers[{i}].credential"), path));
            }
        }
        if let Some(v) = &self.vault
            && let VaultTokenRef::File(path) = &v.token
        {
            files.push(("vault.token".to_string(), path));
        }
        files
            .into_iter()
            .filter(|(_, path)| readable_by_others(path))
            .map(|(place, path)| {
                format!(
                    "{place}: {} can be read by other users of this machine (group or others); restrict it with chmod 600 {}",
                    path.display(),
                    path.display()
                )
            })
            .collect()
    }

    /// Who can read `/metrics`, when that is not what the operator likely meant.
    fn metrics_warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let metrics = &self.auth.metrics;
        match self.auth.mode {
            AuthMode::None if !metrics.is_empty() => out.push(
                "auth.metrics has no effect with auth.mode = \"none\": /metrics is served to loopback only; remove it, or set auth.mode = \"tokens\" or \"header\"".to_string(),
            ),
            AuthMode::Tokens | AuthMode::Header if metrics.is_empty() => out.push(
                "auth.metrics names no one, so /metrics answers 403 to every principal; name the principal or group that scrapes it, e.g. auth.metrics = [\"group:operators\"]".to_string(),
            ),
            AuthMode::Tokens => {
                let principals = &self.auth.principals;
                for (i, a) in metrics.iter().enumerate() {
                    let met = principals.iter().any(|p| {
                        a.admits(&Principal { name: p.name.clone(), groups: p.groups.clone(), operator: false })
                    });
                    if !met {
                        out.push(format!(
                            "auth.metrics[{i}]: no [[auth.principals]] entry is {}, so this entry lets no one read the metrics; check the spelling",
                            match a {
                                Allow::Principal(n) => format!("the principal \"{n}\""),
                                Allow::Group(g) => format!("in the group \"{g}\""),
                            }
                        ));
                    }
                }
            }
            _ => {}
        }
        out
    }
}

/// Whether the file's permissions let its group or others read it.
#[cfg(unix)]
fn readable_by_others(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o044 != 0)
}

#[cfg(not(unix))]
fn readable_by_others(_: &std::path::Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn parse(text: &str) -> Config {
        Config::parse(text, "test.toml", Path::new("/nonexistent/formgen"), false, &|_| None)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn no_worker_names_the_fix() {
        let w = parse("[server]\nlisten = \"127.0.0.1:8080\"\n").warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(
            w[0].starts_with("test.toml has no Worker") && w[0].contains("provider = \"builtin\""),
            "{w:?}"
        );
    }

    #[test]
    fn an_allow_list_under_no_auth_reaches_no_one() {
        let w = parse("[[workers]]\nname = \"b\"\nprovider = \"builtin\"\nallow = [\"group:designers\"]\n")
            .warnings();
        assert!(
            w.len() == 1 && w[0].contains("auth.mode = \"none\" makes every caller \"anonymous\""),
            "{w:?}"
        );
        let w =
            parse("[[workers]]\nname = \"b\"\nprovider = \"builtin\"\nallow = [\"anonymous\"]\n").warnings();
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn an_allow_entry_no_principal_meets() {
        let text = format!(
            "[auth]\nmode = \"tokens\"\nmetrics = [\"ana\"]\n[[auth.principals]]\nname = \"ana\"\ntoken_sha256 = \"{}\"\ngroups = [\"designers\"]\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\nallow = [\"ana\", \"group:designers\", \"user:carl\", \"group:design\"]\n",
            "ab".repeat(32)
        );
        let w = parse(&text).warnings();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].starts_with("workers[0].allow[2]: no [[auth.principals]] entry is the principal \"carl\""),
            "{w:?}"
        );
        assert!(
            w[1].starts_with("workers[0].allow[3]: no [[auth.principals]] entry is the group \"design\""),
            "{w:?}"
        );
    }

    #[test]
    fn metrics_readers_are_checked_at_load() {
        let principal = format!(
            "[[auth.principals]]\nname = \"prom\"\ntoken_sha256 = \"{}\"\ngroups = [\"operators\"]\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n",
            "ab".repeat(32)
        );
        let with =
            |metrics: &str| parse(&format!("[auth]\nmode = \"tokens\"\n{metrics}\n{principal}")).warnings();
        assert!(with("metrics = [\"prom\", \"group:operators\"]").is_empty());
        let w = with("");
        assert!(w.len() == 1 && w[0].starts_with("auth.metrics names no one"), "{w:?}");
        let w = with("metrics = [\"group:operator\", \"user:prometheus\"]");
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(
            w[0].starts_with("auth.metrics[0]: no [[auth.principals]] entry is in the group \"operator\""),
            "{w:?}"
        );
        assert!(
            w[1].starts_with("auth.metrics[1]: no [[auth.principals]] entry is the principal \"prometheus\""),
            "{w:?}"
        );
        let e = Config::parse(
            &format!("[auth]\nmode = \"tokens\"\nmetrics = [\"role:ops\"]\n{principal}"),
            "test.toml",
            Path::new("/nonexistent"),
            false,
            &|_| None,
        )
        .unwrap_err();
        assert!(e.to_string().contains("auth.metrics[0]: \"role:ops\" names no principal or group"), "{e}");
        let w =
            parse("[auth]\nmetrics = [\"group:ops\"]\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n")
                .warnings();
        assert!(w.len() == 1 && w[0].starts_with("auth.metrics has no effect"), "{w:?}");
    }

    #[test]
    fn a_web_dir_pointing_nowhere_says_where_it_looked() {
        let w = parse("[server]\nweb_dir = \"dist\"\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n")
            .warnings();
        assert!(w.len() == 1 && w[0].contains("/nonexistent/formgen/dist/index.html"), "{w:?}");
        assert!(w[0].contains("does not exist"), "{w:?}");
    }
}
