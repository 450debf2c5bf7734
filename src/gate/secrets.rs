//! Fail closed on fields that ask for a secret.
//!
//! A rendered form is stored, shown in task lists, read by people and by agents, and written into
//! process variables that history keeps. No field type makes that safe for a password, so a field
//! whose type, key or label asks for one is refused outright — and the author is told where a secret
//! belongs instead (a vault, referenced by name).
//!
//! Matching is by whole words (see [`crate::words::split`]), so `apiKey`, `api_key`, `API-Key` and "API
//! key" all match while `keyboard`, `monkey`, `tokenizer` and `pinned` do not.

use serde_json::{Map, Value};

use crate::words;

/// Single words that name a secret, in the languages forms are written in.
const WORDS: &[&str] = &[
    "password",
    "passwords",
    "passwort",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    "kennwort",
    "contraseña",
    "contrasena",
    "senha",
    "wachtwoord",
    "secret",
    "secrets",
    "credential",
    "credentials",
    "zugangsdaten",
    "token",
    "tokens",
    "apikey",
    "privatekey",
    "otp",
    "totp",
    "hotp",
    "pin",
    "pincode",
    "geheimzahl",
    "cvv",
    "cvc",
    "cvv2",
    "cvc2",
    "ssn",
];

/// Word pairs (adjacent) that name a secret.
const PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("private", "key"),
    ("signing", "key"),
    ("encryption", "key"),
    ("ssh", "key"),
    ("license", "key"),
    ("licence", "key"),
    ("product", "key"),
    ("client", "secret"),
    ("one", "time"),
    ("security", "code"),
    ("verification", "code"),
    ("auth", "code"),
    ("authorization", "code"),
    ("mfa", "code"),
    ("2fa", "code"),
    ("tan", "code"),
    ("card", "verification"),
    ("social", "security"),
    ("mot", "passe"),
    ("de", "passe"),
    ("session", "id"),
    ("session", "cookie"),
];

/// The refusal for a component that asks for a secret, naming what gave it away.
pub fn refusal(c: &Map<String, Value>, original_type: Option<&str>, who: &str) -> Option<String> {
    for (what, text) in [
        ("type", original_type),
        ("key", c.get("key").and_then(Value::as_str)),
        ("label", c.get("label").and_then(Value::as_str)),
    ] {
        if let Some(text) = text
            && let Some(secret) = secret_in(text)
        {
            return Some(format!(
                "{who} asks for a secret (its {what} says \"{secret}\"). A form is stored and read by people and agents, so no field is safe for one: keep credentials in a vault and let the form name the entry instead."
            ));
        }
    }
    None
}

/// What a field asks for, when it asks for a secret: the words that matched, e.g. "API key".
pub fn secret_in(text: &str) -> Option<String> {
    let ws = words::split(text);
    for (i, w) in ws.iter().enumerate() {
        if WORDS.contains(&w.as_str()) {
            return Some(w.clone());
        }
        if let Some(next) = ws.get(i + 1)
            && PAIRS.iter().any(|(a, b)| a == w && b == next)
        {
            return Some(format!("{w} {next}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_every_spelling() {
        for s in [
            "password",
            "Passwort",
            "apiKey",
            "api_key",
            "API-Key",
            "APIKey",
            "client-secret",
            "clientSecret",
            "accessToken",
            "refresh_token",
            "privateKey",
            "Private key",
            "db credentials",
            "otp",
            "TOTP code",
            "PIN",
            "pinCode",
            "CVV",
            "cvv2",
            "SSN",
            "Social security number",
            "one-time code",
            "Mot de passe",
            "Kennwort",
        ] {
            assert!(secret_in(s).is_some(), "{s}");
        }
    }

    #[test]
    fn innocent_words_pass() {
        for s in [
            "keyboard",
            "monkey",
            "tokenizer",
            "pinned",
            "Key result",
            "Secretary",
            "passenger",
            "Pinboard",
            "spinner",
            "Boarding pass",
            "Primary key date",
            "Tokyo office",
            "vacationDays",
            "urlaubstage",
        ] {
            assert_eq!(secret_in(s), None, "{s}");
        }
    }
}
