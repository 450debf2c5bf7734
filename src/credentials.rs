//! Credential references and their resolution, just in time.
//!
//! A Worker holds a *reference* to its API key, never the key: `env:NAME`, `file:PATH`,
//! `vault:MOUNT/PATH#FIELD` (HashiCorp Vault or OpenBao, KV version 2) or `none`. The key is resolved
//! on each model call, through a short cache (seconds), so rotating it needs no restart. From the
//! moment it is read it lives only in a [`SecretString`], whose `Debug` is redacted and which has no
//! `Display` or `Serialize`; it leaves formgen only as the model endpoint's auth header.
//!
//! Every error names the *reference* and the reason, never a value.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use secrecy::{ExposeSecret, SecretString};
use tokio::sync::Mutex;

use crate::redact::Redactor;
use crate::vault::{Vault, VaultError};

/// Where a credential comes from.
#[derive(Clone, PartialEq, Eq)]
pub enum CredentialRef {
    /// No credential (a local model server without auth).
    None,
    /// An environment variable of formgen's process.
    Env(String),
    /// A file (its content, trimmed), e.g. a mounted Kubernetes secret.
    File(PathBuf),
    /// A field of a KV v2 secret in the vault.
    Vault {
        /// The KV engine's mount (`secret`).
        mount: String,
        /// The secret's path under the mount (`formgen/anthropic`).
        path: String,
        /// The field of the secret (`api_key`).
        field: String,
    },
}

impl fmt::Display for CredentialRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CredentialRef::None => f.write_str("none"),
            CredentialRef::Env(name) => write!(f, "env:{name}"),
            CredentialRef::File(path) => write!(f, "file:{}", path.display()),
            CredentialRef::Vault { mount, path, field } => {
                write!(f, "vault:{mount}/{path}#{field}")
            }
        }
    }
}

impl fmt::Debug for CredentialRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CredentialRef({self})")
    }
}

impl CredentialRef {
    /// Parses a reference; the error says what form was expected. It never repeats the text: a key
    /// written where its reference belongs would otherwise be printed and logged.
    pub fn parse(s: &str) -> Result<CredentialRef, String> {
        const EXPECTED: &str = "write where the key is kept (env:NAME, file:PATH, vault:MOUNT/PATH#FIELD or none), never the key itself";
        let s = s.trim();
        if s == "none" {
            return Ok(CredentialRef::None);
        }
        if let Some(name) = s.strip_prefix("env:") {
            let valid = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            return if valid {
                Ok(CredentialRef::Env(name.into()))
            } else {
                Err(format!(
                    "the env: reference names no environment variable (letters, digits and _ only); {EXPECTED}"
                ))
            };
        }
        if let Some(path) = s.strip_prefix("file:") {
            return if path.is_empty() {
                Err(format!("the file: reference names no file; {EXPECTED}"))
            } else {
                Ok(CredentialRef::File(path.into()))
            };
        }
        if let Some(rest) = s.strip_prefix("vault:") {
            let parsed = rest.split_once('#').and_then(|(location, field)| {
                let (mount, path) = location.trim_matches('/').split_once('/')?;
                let ok = !mount.is_empty() && !path.is_empty() && !field.is_empty() && !path.contains("..");
                ok.then(|| CredentialRef::Vault {
                    mount: mount.into(),
                    path: path.trim_matches('/').into(),
                    field: field.into(),
                })
            });
            return parsed.ok_or_else(|| {
                format!("the vault: reference is not of the form vault:MOUNT/PATH#FIELD; {EXPECTED}")
            });
        }
        Err(format!(
            "is not a credential reference (it is not repeated here, as it may be the key itself); {EXPECTED}"
        ))
    }

    /// Whether resolving it needs the vault.
    pub fn needs_vault(&self) -> bool {
        matches!(self, CredentialRef::Vault { .. })
    }

    /// Makes a relative `file:` path relative to `base` (the config file's folder).
    pub fn relative_to(self, base: &Path) -> CredentialRef {
        match self {
            CredentialRef::File(p) if p.is_relative() => CredentialRef::File(base.join(p)),
            other => other,
        }
    }
}

/// Where the vault's own token comes from: like a [`CredentialRef`], except that it can never be in
/// the vault it opens.
#[derive(Clone, PartialEq, Eq)]
pub enum VaultTokenRef {
    /// No token (a dev vault without auth).
    None,
    /// An environment variable of formgen's process.
    Env(String),
    /// A file (its content, trimmed).
    File(PathBuf),
}

impl TryFrom<CredentialRef> for VaultTokenRef {
    type Error = CredentialRef;

    /// A vault reference is given back: the vault's token cannot come from the vault.
    fn try_from(r: CredentialRef) -> Result<Self, CredentialRef> {
        match r {
            CredentialRef::None => Ok(VaultTokenRef::None),
            CredentialRef::Env(n) => Ok(VaultTokenRef::Env(n)),
            CredentialRef::File(p) => Ok(VaultTokenRef::File(p)),
            vault @ CredentialRef::Vault { .. } => Err(vault),
        }
    }
}

impl From<&VaultTokenRef> for CredentialRef {
    fn from(r: &VaultTokenRef) -> Self {
        match r {
            VaultTokenRef::None => CredentialRef::None,
            VaultTokenRef::Env(n) => CredentialRef::Env(n.clone()),
            VaultTokenRef::File(p) => CredentialRef::File(p.clone()),
        }
    }
}

impl fmt::Debug for VaultTokenRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VaultTokenRef({})", CredentialRef::from(self))
    }
}

/// Why a credential could not be resolved. Names the reference, never a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CredentialError {
    /// `env:NAME` is not set (or empty).
    #[error("the credential {reference} is not set in formgen's environment")]
    EnvMissing {
        /// The reference.
        reference: String,
    },
    /// `file:PATH` cannot be read (or is empty).
    #[error("the credential {reference} cannot be read: {reason}")]
    File {
        /// The reference.
        reference: String,
        /// Why.
        reason: String,
    },
    /// A vault reference, but no `[vault]` is configured.
    #[error("the credential {reference} is in a vault, but formgen has no [vault] configured")]
    NoVault {
        /// The reference.
        reference: String,
    },
    /// The vault refused, was unreachable, or lacks the secret.
    #[error("the credential {reference} could not be read from the vault: {reason}")]
    Vault {
        /// The reference.
        reference: String,
        /// Why (unreachable, 403, no such field, ...).
        reason: VaultError,
    },
}

/// Resolves references, caching values for a short time.
pub struct Credentials {
    vault: Option<(Vault, VaultTokenRef)>,
    ttl: Duration,
    cache: Mutex<HashMap<String, (Instant, SecretString)>>,
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("vault", &self.vault.as_ref().map(|(v, t)| (v, t)))
            .field("ttl", &self.ttl)
            .finish_non_exhaustive()
    }
}

impl Credentials {
    /// A resolver using `vault` with its token's reference (if configured), caching each value for `ttl`.
    pub fn new(vault: Option<(Vault, VaultTokenRef)>, ttl: Duration) -> Self {
        Credentials { vault, ttl, cache: Mutex::new(HashMap::new()) }
    }

    /// The credential a reference names; `None` for `none`.
    pub async fn resolve(&self, reference: &CredentialRef) -> Result<Option<SecretString>, CredentialError> {
        if *reference == CredentialRef::None {
            return Ok(None);
        }
        let key = reference.to_string();
        if !self.ttl.is_zero() {
            let cache = self.cache.lock().await;
            if let Some((at, value)) = cache.get(&key)
                && at.elapsed() < self.ttl
            {
                return Ok(Some(value.clone()));
            }
        }
        let value = self.fetch(reference).await?;
        if !self.ttl.is_zero() {
            self.cache.lock().await.insert(key, (Instant::now(), value.clone()));
        }
        Ok(Some(value))
    }

    /// The redactor for a call made with `key`, resolved from `reference`: the key and, when the key
    /// came from the vault, the vault's token (a vault or an endpoint may echo either).
    pub async fn redactor(&self, reference: &CredentialRef, key: Option<&SecretString>) -> Redactor {
        let token = match (&self.vault, reference.needs_vault()) {
            (Some((_, token_ref)), true) => {
                self.resolve(&CredentialRef::from(token_ref)).await.ok().flatten()
            }
            _ => None,
        };
        Redactor::new([key, token.as_ref()])
    }

    async fn fetch(&self, reference: &CredentialRef) -> Result<SecretString, CredentialError> {
        let named = reference.to_string();
        match reference {
            CredentialRef::None => Ok(SecretString::from("")),
            CredentialRef::Env(name) => match std::env::var(name) {
                Ok(v) if !v.trim().is_empty() => Ok(SecretString::from(v.trim().to_string())),
                _ => Err(CredentialError::EnvMissing { reference: named }),
            },
            CredentialRef::File(path) => {
                let text = read_secret_file(path).await.map_err(|e| CredentialError::File {
                    reference: named.clone(),
                    reason: os_reason(&e, path),
                })?;
                let value = SecretString::from(text.trim().to_string());
                drop(text);
                if value.expose_secret().is_empty() {
                    return Err(CredentialError::File {
                        reference: named,
                        reason: "the file is empty".into(),
                    });
                }
                Ok(value)
            }
            CredentialRef::Vault { mount, path, field } => {
                let (vault, token_ref) =
                    self.vault.as_ref().ok_or(CredentialError::NoVault { reference: named.clone() })?;
                let token = Box::pin(self.resolve(&CredentialRef::from(token_ref))).await.map_err(|e| {
                    CredentialError::Vault {
                        reference: named.clone(),
                        reason: VaultError::Token(e.to_string()),
                    }
                })?;
                vault
                    .read_field(mount, path, field, token.as_ref())
                    .await
                    .map_err(|reason| CredentialError::Vault { reference: named, reason })
            }
        }
    }
}

/// Why a file could not be read, as the OS says it, with the path as resolved (relative references
/// are resolved against the config file's folder, so the operator sees where formgen looked).
/// The most a `file:` credential may hold: a key is a few hundred bytes at most.
const SECRET_FILE_BYTES: u64 = 64 * 1024;

/// A `file:` credential's text: a regular file only (never a FIFO, which would block its reader
/// forever), of at most [`SECRET_FILE_BYTES`], read on the blocking pool within the file read time.
async fn read_secret_file(path: &std::path::Path) -> std::io::Result<String> {
    let timeout = crate::files::default_timeout();
    let owned = path.to_path_buf();
    let read =
        tokio::task::spawn_blocking(move || crate::files::read_capped(&owned, SECRET_FILE_BYTES, timeout));
    let bytes = match tokio::time::timeout(timeout, read).await {
        Ok(Ok(read)) => read?,
        Ok(Err(e)) => return Err(std::io::Error::other(e.to_string())),
        Err(_) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("reading it took longer than {} s", timeout.as_secs()),
            ));
        }
    };
    let bytes = bytes.ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it holds more than {SECRET_FILE_BYTES} bytes, more than any key"),
        )
    })?;
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

fn os_reason(e: &std::io::Error, path: &std::path::Path) -> String {
    let shown = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    format!("{}: {e}", shown.display())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(CredentialRef::parse("none"), Ok(CredentialRef::None));
        assert_eq!(
            CredentialRef::parse("env:ANTHROPIC_API_KEY"),
            Ok(CredentialRef::Env("ANTHROPIC_API_KEY".into()))
        );
        assert_eq!(
            CredentialRef::parse("file:/run/secrets/key"),
            Ok(CredentialRef::File("/run/secrets/key".into()))
        );
        assert_eq!(
            CredentialRef::parse("vault:secret/formgen/anthropic#api_key"),
            Ok(CredentialRef::Vault {
                mount: "secret".into(),
                path: "formgen/anthropic".into(),
                field: "api_key".into()
            })
        );
        for bad in
            ["vault:secret", "vault:secret#f", "vault:/x#f", "env:", "env:A-B", "sk-ant-123", "file:", ""]
        {
            let e = CredentialRef::parse(bad).unwrap_err();
            assert!(e.contains("(env:NAME, file:PATH"), "{bad}: {e}");
            assert!(bad.len() < 6 || !e.contains(bad.trim_start_matches("env:")), "{bad} is repeated: {e}");
        }
        let v = CredentialRef::parse("vault:secret/formgen#anthropic").unwrap();
        assert_eq!(v.to_string(), "vault:secret/formgen#anthropic");
    }

    #[tokio::test]
    async fn env_and_file_resolve_and_errors_name_the_reference() {
        let creds = Credentials::new(None, Duration::ZERO);
        // SAFETY: this test owns this variable name; no other test reads or writes it.
        unsafe { std::env::set_var("FORMGEN_TEST_CRED_A", "  value-a \n") };
        let v = creds.resolve(&CredentialRef::Env("FORMGEN_TEST_CRED_A".into())).await.unwrap().unwrap();
        assert_eq!(v.expose_secret(), "value-a");
        assert_eq!(format!("{v:?}"), "SecretBox<str>([REDACTED])");
        let e = creds.resolve(&CredentialRef::Env("FORMGEN_TEST_CRED_MISSING".into())).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            "the credential env:FORMGEN_TEST_CRED_MISSING is not set in formgen's environment"
        );
        let e = creds.resolve(&CredentialRef::File("/nonexistent/key".into())).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            "the credential file:/nonexistent/key cannot be read: /nonexistent/key: No such file or directory (os error 2)"
        );
        let dir = tempfile::tempdir().unwrap();
        let e = creds.resolve(&CredentialRef::File(dir.path().into())).await.unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = creds.resolve(&CredentialRef::parse("vault:secret/x#y").unwrap()).await.unwrap_err();
        assert!(e.to_string().contains("vault:secret/x#y") && e.to_string().contains("no [vault]"));
        assert_eq!(creds.resolve(&CredentialRef::None).await.unwrap().map(|_| ()), None);
    }
}
