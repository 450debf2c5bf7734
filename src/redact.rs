//! Redaction: the installation's resolved secrets taken out of every text that came from outside.
//!
//! A model endpoint (or anything posing as one) may echo what it was sent: the key in its error type,
//! its message, or its answer. A [`Redactor`] is built from the exact secrets one call used (the
//! Worker's resolved key and, for a key from the vault, the vault's token) and is applied once, where
//! the call's result comes back (`model::call`), before anything is logged, gated or returned.
//!
//! This module knows secrets and text; it knows nothing of where either came from.

use secrecy::{ExposeSecret, SecretString};

/// What a secret is replaced by.
pub const REDACTED: &str = "[REDACTED]";

/// Secrets shorter than this are not redacted: replacing every `a` of an answer would destroy it,
/// and a secret that short protects nothing anyway.
const SHORTEST: usize = 4;

/// The secrets of one call, to be taken out of what came back.
#[derive(Clone, Default)]
pub struct Redactor {
    /// The secrets, and their JSON-escaped forms where those differ; longest first, so a secret that
    /// contains another is replaced whole.
    secrets: Vec<SecretString>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Redactor({} secrets)", self.secrets.len())
    }
}

impl Redactor {
    /// A redactor for these secrets (`None`s and too-short ones are skipped).
    pub fn new<'a>(secrets: impl IntoIterator<Item = Option<&'a SecretString>>) -> Redactor {
        let mut all: Vec<SecretString> = Vec::new();
        for secret in secrets.into_iter().flatten() {
            let plain = secret.expose_secret();
            if plain.chars().count() < SHORTEST {
                continue;
            }
            all.push(secret.clone());
            // a secret inside a JSON string (a tool call's input is re-serialised) may be escaped
            if let Ok(quoted) = serde_json::to_string(plain) {
                let escaped = &quoted[1..quoted.len() - 1];
                if escaped != plain {
                    all.push(SecretString::from(escaped.to_string()));
                }
            }
        }
        all.sort_by_key(|s| std::cmp::Reverse(s.expose_secret().len()));
        Redactor { secrets: all }
    }

    /// Whether there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    /// `text` with every secret replaced by [`REDACTED`].
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        self.scrub_in_place(&mut out);
        out
    }

    /// Replaces every secret in `text` by [`REDACTED`].
    pub fn scrub_in_place(&self, text: &mut String) {
        for secret in &self.secrets {
            let s = secret.expose_secret();
            if text.contains(s) {
                *text = text.replace(s, REDACTED);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_secret_goes_whole_and_short_ones_are_left() {
        let key = SecretString::from("sk-canary-123");
        let longer = SecretString::from("sk-canary-123-and-more");
        let short = SecretString::from("abc");
        let r = Redactor::new([Some(&key), None, Some(&longer), Some(&short)]);
        assert_eq!(
            r.scrub("a sk-canary-123-and-more b sk-canary-123 c abc"),
            "a [REDACTED] b [REDACTED] c abc"
        );
        assert!(Redactor::new([None]).is_empty());
        assert_eq!(format!("{r:?}"), "Redactor(2 secrets)");
    }

    #[test]
    fn a_json_escaped_secret_goes_too() {
        let key = SecretString::from("k\"ey/with\\quote");
        let r = Redactor::new([Some(&key)]);
        let echoed = serde_json::json!({ "label": "k\"ey/with\\quote" }).to_string();
        assert!(!r.scrub(&echoed).contains("ey/with"), "{}", r.scrub(&echoed));
    }
}
