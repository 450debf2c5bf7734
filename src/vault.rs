//! A minimal HashiCorp Vault / OpenBao client: read one field of a KV version 2 secret.
//!
//! `GET {addr}/v1/{mount}/data/{path}` with `X-Vault-Token` (and `X-Vault-Namespace` when configured);
//! the value is under `data.data.{field}`. The response body holds every field of that secret, so it is
//! parsed straight into [`SecretString`]s and the buffer is zeroed afterwards. The answer is read
//! chunk by chunk up to [`VAULT_ANSWER_BYTES`] and refused past it (early on a declared length), so
//! an address that answers gigabytes costs a mebibyte.
//!
//! This module knows the vault's HTTP API and nothing else of formgen: it is handed a resolved token
//! (resolving the token's reference is `credentials`' job), so it imports nothing of the crate.

use std::collections::HashMap;
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString, zeroize::Zeroize};
use serde::Deserialize;

/// Why a vault read failed. Never holds a secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VaultError {
    /// No connection, DNS failure, timeout.
    #[error("the vault at {addr} cannot be reached ({reason})")]
    Unreachable {
        /// The vault's address.
        addr: String,
        /// What the connection attempt said.
        reason: String,
    },
    /// 401/403: the token is wrong, expired, or lacks the policy.
    #[error("the vault refused formgen's token (HTTP {0}); check the token and its policy")]
    Denied(u16),
    /// 404: no secret at that path.
    #[error("the vault has no secret at that path")]
    NotFound,
    /// The secret exists but has no such field (or it is not a text).
    #[error("the secret has no text field \"{0}\"")]
    NoField(String),
    /// A 3xx: formgen follows no redirects, so the token went nowhere else and no key was taken from
    /// wherever the vault pointed.
    #[error(
        "the vault at {addr} redirected the request (HTTP {status}); formgen follows no redirects and sent nothing on, so set [vault] addr to the address that answers"
    )]
    Redirected {
        /// The vault's address.
        addr: String,
        /// The HTTP status.
        status: u16,
    },
    /// Any other answer.
    #[error("the vault answered HTTP {0}")]
    Status(u16),
    /// The token reference itself could not be resolved.
    #[error("the vault token could not be resolved: {0}")]
    Token(String),
    /// The body was not a KV v2 answer.
    #[error("the vault's answer is not a KV version 2 secret")]
    Malformed,
    /// The answer was larger than any secret needs: reading stopped at the bound.
    #[error(
        "the vault at {addr} answered with more than {limit} bytes, far more than a secret needs, so formgen stopped reading it; check [vault] addr"
    )]
    TooLarge {
        /// The vault's address.
        addr: String,
        /// The bound ([`VAULT_ANSWER_BYTES`]).
        limit: usize,
    },
}

/// The most bytes of a vault's answer formgen reads: a KV v2 answer holds a secret's fields and
/// metadata, kilobytes at most, so 1 MiB leaves room for any real secret and bounds what a wrong or
/// hostile address can make formgen hold.
pub const VAULT_ANSWER_BYTES: usize = 1 << 20;

/// A configured vault.
#[derive(Clone)]
pub struct Vault {
    addr: reqwest::Url,
    namespace: Option<String>,
    client: reqwest::Client,
}

impl std::fmt::Debug for Vault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vault")
            .field("addr", &self.addr.as_str())
            .field("namespace", &self.namespace)
            .finish()
    }
}

#[derive(Deserialize)]
struct KvAnswer {
    data: KvData,
}

#[derive(Deserialize)]
struct KvData {
    data: HashMap<String, serde_json::Value>,
}

impl Vault {
    /// A vault at `addr` (in `namespace`, for Vault Enterprise and OpenBao namespaces). Its client
    /// follows no redirects: the token goes to `addr` and nowhere else.
    pub fn new(addr: reqwest::Url, namespace: Option<String>) -> Self {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(15))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("a TLS-capable HTTP client");
        Vault { addr, namespace, client }
    }

    /// Reads `field` of the KV v2 secret at `mount`/`path`, with the vault token (none: no token header).
    pub async fn read_field(
        &self,
        mount: &str,
        path: &str,
        field: &str,
        token: Option<&SecretString>,
    ) -> Result<SecretString, VaultError> {
        let base = self.addr.as_str().trim_end_matches('/');
        let url = format!("{base}/v1/{mount}/data/{path}");
        let mut request = self.client.get(&url);
        if let Some(token) = token {
            let mut value = reqwest::header::HeaderValue::from_str(token.expose_secret())
                .map_err(|_| VaultError::Token("it is not a valid header value".into()))?;
            value.set_sensitive(true);
            request = request.header("X-Vault-Token", value);
        }
        if let Some(ns) = &self.namespace {
            request = request.header("X-Vault-Namespace", ns);
        }
        let response = request.send().await.map_err(|e| VaultError::Unreachable {
            addr: base.to_string(),
            reason: if e.is_timeout() { "timed out".into() } else { "no connection".into() },
        })?;
        match response.status().as_u16() {
            200 => {}
            401 | 403 => return Err(VaultError::Denied(response.status().as_u16())),
            404 => return Err(VaultError::NotFound),
            status @ 300..=399 => return Err(VaultError::Redirected { addr: base.to_string(), status }),
            other => return Err(VaultError::Status(other)),
        }
        let mut body = read_bounded(response, base).await?;
        let parsed: Result<KvAnswer, _> = serde_json::from_slice(&body);
        body.zeroize();
        let mut answer = parsed.map_err(|_| VaultError::Malformed)?;
        let found = match answer.data.data.remove(field) {
            Some(serde_json::Value::String(s)) => Some(SecretString::from(s)),
            _ => None,
        };
        for value in answer.data.data.values_mut() {
            if let serde_json::Value::String(s) = value {
                s.zeroize();
            }
        }
        found.ok_or_else(|| VaultError::NoField(field.to_string()))
    }
}

/// The body of a vault's answer, read chunk by chunk up to [`VAULT_ANSWER_BYTES`]: a declared length
/// over the bound is refused before a byte is read, and a body that grows past it is refused at the
/// chunk that crosses it (the response is dropped, so the connection closes and the rest is never
/// downloaded). What was read is zeroed on every way out: it may hold secrets.
async fn read_bounded(mut response: reqwest::Response, addr: &str) -> Result<Vec<u8>, VaultError> {
    let too_large = || VaultError::TooLarge { addr: addr.to_string(), limit: VAULT_ANSWER_BYTES };
    if response.content_length().is_some_and(|n| n > VAULT_ANSWER_BYTES as u64) {
        return Err(too_large());
    }
    // reserved once for a declared length: growing would leave copies of secret bytes behind
    let declared = response.content_length().unwrap_or(0) as usize;
    let mut body = Vec::with_capacity(declared);
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() + chunk.len() > VAULT_ANSWER_BYTES {
                    body.zeroize();
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => return Ok(body),
            Err(_) => {
                body.zeroize();
                return Err(VaultError::Unreachable {
                    addr: addr.to_string(),
                    reason: "the answer broke off".into(),
                });
            }
        }
    }
}
