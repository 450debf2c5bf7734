//! Who is asking: the principal of a request, by the configured mode.
//!
//! - `none`: everyone is `anonymous` (the config refuses this mode off loopback);
//! - `tokens`: `Authorization: Bearer <token>`; the config holds only each token's SHA-256, compared in
//!   constant time against every principal (no early exit that would time which one matched);
//! - `header`: a trusted proxy's user and groups headers, believed only from the proxy's addresses.
//!
//! This module reads headers and the peer address; it knows nothing of Workers or routes.

use std::net::IpAddr;

use http::HeaderMap;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

mod settings;

pub use settings::{Auth, AuthMode, PrincipalConfig};

/// Who may see and name a Worker: a principal by name, or a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allow {
    /// `ana`
    Principal(String),
    /// `group:designers`
    Group(String),
}

impl Allow {
    /// Parses an `allow` entry: a principal's name (`ana`, or `user:ana`), or `group:NAME`. Any other
    /// `prefix:` is refused rather than taken as a principal literally named so.
    pub fn parse(s: &str) -> Option<Allow> {
        let s = s.trim();
        let name = |n: &str| {
            let n = n.trim();
            (!n.is_empty() && !n.contains(':')).then(|| n.to_string())
        };
        match s.split_once(':') {
            Some(("group", g)) => name(g).map(Allow::Group),
            Some(("user", u)) => name(u).map(Allow::Principal),
            Some(_) => None,
            None => name(s).map(Allow::Principal),
        }
    }
}

impl Allow {
    /// Whether this entry names `principal`, by name or by one of its groups.
    pub fn admits(&self, principal: &Principal) -> bool {
        match self {
            Allow::Principal(name) => *name == principal.name,
            Allow::Group(group) => principal.groups.iter().any(|g| g == group),
        }
    }
}

/// Who is asking: a name and the groups it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Principal {
    /// The principal's name (`anonymous` when auth is off).
    pub name: String,
    /// Its groups.
    pub groups: Vec<String>,
    /// The operator at the command line, who configured the Workers and may use every one.
    pub operator: bool,
}

impl Principal {
    /// The operator running `formgen generate`.
    pub fn operator() -> Principal {
        Principal { name: "operator".into(), groups: Vec::new(), operator: true }
    }
}

/// Why a request has no principal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// No credentials at all.
    #[error("sign in first: send your formgen token as \"Authorization: Bearer <token>\"")]
    Missing,
    /// A token no principal has.
    #[error("this token belongs to no formgen principal; ask the operator for a valid one")]
    UnknownToken,
    /// Header mode, from an address that is not the trusted proxy.
    #[error("requests must come through the configured proxy")]
    UntrustedPeer,
    /// Header mode, without the user header.
    #[error("the proxy did not say who you are (no {0} header)")]
    NoUser(String),
    /// Header mode, with an identity header given more than once: a proxy that appends rather than
    /// replaces would let the client choose who it is, so neither is believed.
    #[error("the proxy sent the {0} header more than once, so formgen cannot tell who you are")]
    DuplicateIdentity(String),
    /// `/metrics` in `none` mode, from an address that is not loopback.
    #[error("the metrics are served to loopback only when formgen runs without authentication")]
    MetricsLoopbackOnly,
    /// `/metrics` for a principal `auth.metrics` does not name.
    #[error(
        "the metrics are for the operators named in auth.metrics, and this principal is not one of them; ask the operator"
    )]
    MetricsNotPermitted,
}

/// The principal of a request.
pub fn principal(auth: &Auth, headers: &HeaderMap, peer: Option<IpAddr>) -> Result<Principal, AuthError> {
    match auth.mode {
        AuthMode::None => Ok(Principal { name: "anonymous".into(), ..Principal::default() }),
        AuthMode::Tokens => {
            let token = headers
                .get(http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")))
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .ok_or(AuthError::Missing)?;
            let hash: [u8; 32] = Sha256::digest(token.as_bytes()).into();
            let mut found: Option<&PrincipalConfig> = None;
            for p in &auth.principals {
                let equal: bool = p.token_sha256.ct_eq(&hash).into();
                if equal && found.is_none() {
                    found = Some(p);
                }
            }
            found
                .map(|p| Principal { name: p.name.clone(), groups: p.groups.clone(), operator: false })
                .ok_or(AuthError::UnknownToken)
        }
        AuthMode::Header => {
            // an IPv4 peer on a dual-stack socket arrives as ::ffff:a.b.c.d
            let peer = peer.ok_or(AuthError::UntrustedPeer)?.to_canonical();
            if !auth.trusted_proxies.iter().any(|p| p.to_canonical() == peer) {
                return Err(AuthError::UntrustedPeer);
            }
            for name in [&auth.user_header, &auth.groups_header] {
                if headers.get_all(name.as_str()).iter().nth(1).is_some() {
                    tracing::warn!(
                        header = %name,
                        %peer,
                        "refused a request with more than one {name} header: configure the proxy to replace the identity headers a client sends, not to append to them"
                    );
                    return Err(AuthError::DuplicateIdentity(name.clone()));
                }
            }
            let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
            let name = header(&auth.user_header)
                .filter(|n| !n.is_empty())
                .ok_or_else(|| AuthError::NoUser(auth.user_header.clone()))?;
            let groups = header(&auth.groups_header)
                .map(|g| g.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
                .unwrap_or_default();
            Ok(Principal { name: name.to_string(), groups, operator: false })
        }
    }
}

/// Whether this request may read `/metrics`: in `tokens` and `header` mode a principal that
/// `auth.metrics` names, by name or group (the metrics name every Worker, including those a principal
/// may not use, so they are the operators'); in `none` mode, a peer on loopback only.
pub fn may_read_metrics(auth: &Auth, headers: &HeaderMap, peer: Option<IpAddr>) -> Result<(), AuthError> {
    match auth.mode {
        AuthMode::None => match peer.map(|p| p.to_canonical()) {
            Some(p) if p.is_loopback() => Ok(()),
            _ => Err(AuthError::MetricsLoopbackOnly),
        },
        AuthMode::Tokens | AuthMode::Header => {
            let who = principal(auth, headers, peer)?;
            if auth.metrics.iter().any(|a| a.admits(&who)) {
                Ok(())
            } else {
                Err(AuthError::MetricsNotPermitted)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PrincipalConfig;

    fn auth(mode: AuthMode) -> Auth {
        Auth {
            mode,
            principals: vec![PrincipalConfig {
                name: "ana".into(),
                token_sha256: Sha256::digest(b"ana-token").into(),
                groups: vec!["designers".into()],
            }],
            user_header: "X-Forwarded-User".into(),
            groups_header: "X-Forwarded-Groups".into(),
            trusted_proxies: vec!["10.0.0.1".parse().unwrap()],
            metrics: vec![Allow::Group("ops".into())],
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn header_mode_refuses_a_second_identity_header() {
        let a = auth(AuthMode::Header);
        let proxy = Some("10.0.0.1".parse().unwrap());
        let twice = headers(&[("x-forwarded-user", "mallory"), ("x-forwarded-user", "bob")]);
        assert_eq!(
            principal(&a, &twice, proxy),
            Err(AuthError::DuplicateIdentity("X-Forwarded-User".into()))
        );
        let groups = headers(&[
            ("x-forwarded-user", "bob"),
            ("x-forwarded-groups", "ops"),
            ("x-forwarded-groups", "admins"),
        ]);
        let e = principal(&a, &groups, proxy).unwrap_err();
        assert_eq!(e, AuthError::DuplicateIdentity("X-Forwarded-Groups".into()));
    }

    #[test]
    fn an_ipv4_mapped_peer_is_the_ipv4_proxy() {
        let a = auth(AuthMode::Header);
        let h = headers(&[("x-forwarded-user", "bob")]);
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        assert_eq!(principal(&a, &h, Some(mapped)).unwrap().name, "bob");
        let other: IpAddr = "::ffff:10.0.0.2".parse().unwrap();
        assert_eq!(principal(&a, &h, Some(other)), Err(AuthError::UntrustedPeer));
        // and a proxy configured as a mapped address matches its IPv4 peer
        let b = Auth { trusted_proxies: vec![mapped], ..auth(AuthMode::Header) };
        assert!(principal(&b, &h, Some("10.0.0.1".parse().unwrap())).is_ok());
    }

    #[test]
    fn metrics_need_an_operator_or_loopback() {
        let tokens = auth(AuthMode::Tokens);
        assert_eq!(may_read_metrics(&tokens, &HeaderMap::new(), None), Err(AuthError::Missing));
        let ana = headers(&[("authorization", "Bearer ana-token")]);
        assert_eq!(may_read_metrics(&tokens, &ana, None), Err(AuthError::MetricsNotPermitted));
        let mut operators = auth(AuthMode::Tokens);
        operators.metrics = vec![Allow::Group("designers".into())];
        assert!(may_read_metrics(&operators, &ana, None).is_ok());
        operators.metrics = vec![Allow::Principal("ana".into())];
        assert!(may_read_metrics(&operators, &ana, None).is_ok());
        let none = auth(AuthMode::None);
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let mapped_lo: IpAddr = "::ffff:127.0.0.1".parse().unwrap();
        assert!(may_read_metrics(&none, &HeaderMap::new(), Some(lo)).is_ok());
        assert!(may_read_metrics(&none, &HeaderMap::new(), Some(mapped_lo)).is_ok());
        let far: IpAddr = "192.168.1.9".parse().unwrap();
        assert_eq!(
            may_read_metrics(&none, &HeaderMap::new(), Some(far)),
            Err(AuthError::MetricsLoopbackOnly)
        );
        assert_eq!(may_read_metrics(&none, &HeaderMap::new(), None), Err(AuthError::MetricsLoopbackOnly));
    }

    #[test]
    fn tokens() {
        let a = auth(AuthMode::Tokens);
        let p = principal(&a, &headers(&[("authorization", "Bearer ana-token")]), None).unwrap();
        assert_eq!((p.name.as_str(), p.groups.as_slice()), ("ana", &["designers".to_string()][..]));
        assert_eq!(
            principal(&a, &headers(&[("authorization", "Bearer nope")]), None),
            Err(AuthError::UnknownToken)
        );
        assert_eq!(principal(&a, &HeaderMap::new(), None), Err(AuthError::Missing));
    }

    #[test]
    fn header_mode_trusts_only_the_proxy() {
        let a = auth(AuthMode::Header);
        let h = headers(&[("x-forwarded-user", "bob"), ("x-forwarded-groups", "ops, designers")]);
        let p = principal(&a, &h, Some("10.0.0.1".parse().unwrap())).unwrap();
        assert_eq!(p.groups, ["ops", "designers"]);
        assert_eq!(principal(&a, &h, Some("10.0.0.2".parse().unwrap())), Err(AuthError::UntrustedPeer));
        assert_eq!(
            principal(&a, &HeaderMap::new(), Some("10.0.0.1".parse().unwrap())),
            Err(AuthError::NoUser("X-Forwarded-User".into()))
        );
    }
}
