//! `[auth]`: the mode, the principals of `tokens` mode and the trusted proxy of `header` mode.

use std::net::{IpAddr, SocketAddr};

use super::Problems;
use super::raw::{Overrides, RawAuth};
use crate::auth::Allow;
use crate::auth::{Auth, AuthMode, PrincipalConfig};

impl Auth {
    /// The checked `[auth]` section. `listen` (when it could be read) decides whether `none` is allowed.
    pub(super) fn from_raw(
        raw: &RawAuth,
        listen: Option<SocketAddr>,
        o: &Overrides,
        p: &mut Problems,
    ) -> Auth {
        let mode = match raw.mode.as_deref().unwrap_or("none") {
            "none" => AuthMode::None,
            "tokens" => AuthMode::Tokens,
            "header" => AuthMode::Header,
            other => {
                p.add(format!(
                    "{}: \"{other}\" is not an auth mode; expected \"none\", \"tokens\" or \"header\"",
                    o.place("auth.mode")
                ));
                AuthMode::None
            }
        };
        if let (AuthMode::None, Some(addr)) = (mode, &listen)
            && !addr.ip().is_loopback()
        {
            p.add(format!(
                "{}: \"none\" lets anyone generate forms with your Workers, so it is only allowed on a loopback address, not {addr}; use \"tokens\" or \"header\"",
                o.place("auth.mode")
            ));
        }
        let mut principals = Vec::new();
        for (i, rp) in raw.principals.iter().enumerate() {
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
        if mode == AuthMode::Tokens && raw.principals.is_empty() {
            p.add("auth.mode: \"tokens\" needs at least one [[auth.principals]]".to_string());
        }
        let mut trusted_proxies = Vec::new();
        for (i, proxy) in raw.trusted_proxies.clone().unwrap_or_default().iter().enumerate() {
            match proxy.trim().parse::<IpAddr>() {
                Ok(ip) => trusted_proxies.push(ip),
                Err(_) => p.add(format!(
                    "{}[{i}]: \"{proxy}\" is not an IP address",
                    o.place("auth.trusted_proxies")
                )),
            }
        }
        if mode == AuthMode::Header && trusted_proxies.is_empty() {
            p.add(
                "auth.mode: \"header\" trusts a proxy's headers, so it needs auth.trusted_proxies (the proxy's addresses)"
                    .to_string(),
            );
        }
        let mut metrics = Vec::new();
        for (i, entry) in raw.metrics.iter().flatten().enumerate() {
            match Allow::parse(entry) {
                Some(allow) => metrics.push(allow),
                None => p.add(format!(
                    "auth.metrics[{i}]: \"{entry}\" names no principal or group; expected a principal's name, user:NAME or group:NAME"
                )),
            }
        }
        Auth {
            mode,
            principals,
            user_header: raw.user_header.clone().unwrap_or_else(|| "X-Forwarded-User".into()),
            groups_header: raw.groups_header.clone().unwrap_or_else(|| "X-Forwarded-Groups".into()),
            trusted_proxies,
            metrics,
        }
    }
}
