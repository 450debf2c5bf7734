//! The auth settings of `formgen.toml`, checked: which mode, the principals of `tokens` mode and the
//! proxy of `header` mode. `config` builds them; [`super::principal`] reads them per request.

use std::net::IpAddr;

use super::Allow;

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
    /// Who may read `/metrics` in `tokens` and `header` mode (`auth.metrics`): principals by name and
    /// groups, as a Worker's `allow` names them. Empty: no principal. The metrics name every Worker,
    /// so they are an operator's, not every author's.
    pub metrics: Vec<Allow>,
}
