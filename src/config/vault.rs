//! `[vault]`: the address, the reference to the vault's own token, and the namespace.

use std::path::Path;

use super::raw::RawVault;
use super::{Problems, VaultConfig};
use crate::credentials::{CredentialRef, VaultTokenRef};

impl VaultConfig {
    /// The checked `[vault]` section, when there is one.
    pub(super) fn from_raw(raw: Option<&RawVault>, base: &Path, p: &mut Problems) -> Option<VaultConfig> {
        let v = raw?;
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
                Ok(r) => match VaultTokenRef::try_from(r.relative_to(base)) {
                    Ok(token) => Some(token),
                    Err(_) => {
                        p.add("vault.token: the vault's own token cannot come from the vault; use env: or file:".into());
                        None
                    }
                },
                Err(e) => {
                    p.add(format!("vault.token: {e}"));
                    None
                }
            },
            None => Some(VaultTokenRef::Env("VAULT_TOKEN".into())),
        };
        Some(VaultConfig {
            addr: addr?,
            token: token?,
            namespace: v.namespace.clone().filter(|n| !n.is_empty()),
        })
    }
}
