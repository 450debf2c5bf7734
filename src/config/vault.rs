//! `[vault]`: the address, the reference to the vault's own token, and the namespace.

use std::path::Path;

use super::raw::{Overrides, RawVault};
use super::{Problems, VaultConfig};
use crate::credentials::{CredentialRef, VaultTokenRef};

impl VaultConfig {
    /// The checked `[vault]` section, when there is one.
    pub(super) fn from_raw(
        raw: Option<&RawVault>,
        base: &Path,
        o: &Overrides,
        p: &mut Problems,
    ) -> Option<VaultConfig> {
        let v = raw?;
        let addr = match v.addr.as_deref() {
            Some(a) => super::workers::http_url(a, &o.place("vault.addr"), "the vault's token", p),
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
                        p.add(format!(
                            "{}: the vault's own token cannot come from the vault; use env: or file:",
                            o.place("vault.token")
                        ));
                        None
                    }
                },
                Err(e) => {
                    p.add(format!("{}: {e}", o.place("vault.token")));
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
