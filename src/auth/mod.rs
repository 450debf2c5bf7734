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

use crate::workers::Principal;
pub use settings::{Auth, AuthMode, PrincipalConfig};

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
}

impl AuthError {
    /// The stable code.
    pub fn code(&self) -> crate::service::Code {
        match self {
            AuthError::Missing => crate::service::Code::Unauthenticated,
            _ => crate::service::Code::UnknownPrincipal,
        }
    }
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
            let peer = peer.ok_or(AuthError::UntrustedPeer)?;
            if !auth.trusted_proxies.contains(&peer) {
                return Err(AuthError::UntrustedPeer);
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
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
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
