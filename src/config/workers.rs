//! `[[workers]]`: the operator's records of models, each checked on its own.
//!
//! An unknown provider is reported and the Worker's other fields are then checked as for a model
//! Worker, so one round shows every problem.

use std::path::Path;

use super::raw::{Overrides, RawWorker};
use super::{BUILTIN_MODEL, Problems};
use crate::auth::Allow;
use crate::credentials::CredentialRef;
use crate::workers::{Backend, DEFAULT_MAX_COMPONENTS, ModelWorker, Provider, Wire, Worker};

/// The checked Workers, in file order. A Worker with a problem that leaves it unusable (no endpoint)
/// is reported and left out; the configuration is refused then anyway.
pub(super) fn from_raw(
    raw: &[RawWorker],
    has_vault: bool,
    base: &Path,
    o: &Overrides,
    p: &mut Problems,
) -> Vec<Worker> {
    let mut names: Vec<String> = Vec::new();
    let mut workers = Vec::new();
    for (i, rw) in raw.iter().enumerate() {
        let (name, worker) = worker(rw, &format!("workers[{i}]"), has_vault, base, o, p);
        if let Some(first) = names.iter().position(|n| *n == name) {
            p.add(format!("workers[{i}].name: \"{name}\" is already the name of workers[{first}]"));
        }
        names.push(name);
        workers.extend(worker);
    }
    workers
}

fn worker(
    rw: &RawWorker,
    place: &str,
    has_vault: bool,
    base: &Path,
    o: &Overrides,
    p: &mut Problems,
) -> (String, Option<Worker>) {
    let at = |field: &str| o.place(&format!("{place}.{field}"));
    let name = match rw.name.as_deref().map(str::trim) {
        Some(n) if !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c)) => {
            n.to_string()
        }
        Some(n) if !n.is_empty() => {
            p.add(format!("{place}.name: \"{n}\" may only hold letters, digits, -, _ and ."));
            n.to_string()
        }
        _ => {
            p.add(format!("{place}.name: missing"));
            format!("#{}", place.trim_start_matches("workers[").trim_end_matches(']'))
        }
    };
    let provider = match rw.provider.as_deref() {
        Some(s) => Provider::parse(s).unwrap_or_else(|| {
            p.add(format!(
                "{place}.provider: \"{s}\" is not a wire format; expected \"messages\", \"chat-completions\" or \"builtin\""
            ));
            Provider::ChatCompletions
        }),
        None => {
            p.add(format!("{place}.provider: missing; expected \"messages\", \"chat-completions\" or \"builtin\""));
            Provider::ChatCompletions
        }
    };
    let mut allow = Vec::new();
    let backend = match provider {
        Provider::Builtin => {
            if rw.endpoint.is_some() {
                p.add(format!("{place}.endpoint: the builtin Worker calls no endpoint; remove it"));
            }
            match rw.credential.as_deref().map(CredentialRef::parse) {
                None | Some(Ok(CredentialRef::None)) => {}
                Some(Err(e)) => p.add(format!("{}: {e}", at("credential"))),
                Some(Ok(_)) => {
                    p.add(format!("{place}.credential: the builtin Worker needs no credential; remove it"));
                }
            }
            Some(Backend::Builtin)
        }
        Provider::Messages | Provider::ChatCompletions => {
            let wire = if provider == Provider::Messages { Wire::Messages } else { Wire::ChatCompletions };
            model_backend(rw, place, &at, wire, (has_vault, base), p)
        }
    };
    let model = match (provider, rw.model.as_deref().map(str::trim)) {
        (Provider::Builtin, m) => m.filter(|m| !m.is_empty()).unwrap_or(BUILTIN_MODEL).to_string(),
        (_, Some(m)) if !m.is_empty() => m.to_string(),
        _ => {
            p.add(format!("{}: missing; name the model this Worker asks", at("model")));
            String::new()
        }
    };
    for (j, a) in rw.allow.iter().enumerate() {
        match Allow::parse(a) {
            Some(entry) => allow.push(entry),
            None => p.add(format!(
                "{place}.allow[{j}]: \"{a}\" is not an allow entry; write a principal's name (\"ana\" or \"user:ana\") or \"group:NAME\""
            )),
        }
    }
    let worker = backend.map(|backend| Worker {
        name: name.clone(),
        model,
        allow,
        timeout_s: rw.timeout_s.unwrap_or(0),
        max_concurrent: rw.max_concurrent.unwrap_or(0),
        backend,
    });
    (name, worker)
}

fn model_backend(
    rw: &RawWorker,
    place: &str,
    at: &dyn Fn(&str) -> String,
    wire: Wire,
    (has_vault, base): (bool, &Path),
    p: &mut Problems,
) -> Option<Backend> {
    let endpoint = match rw.endpoint.as_deref() {
        None => {
            p.add(format!("{}: missing; give the model server's base URL", at("endpoint")));
            None
        }
        Some(e) => http_url(e, &at("endpoint"), "the key", p),
    };
    let credential = match rw.credential.as_deref() {
        None => CredentialRef::None,
        Some(c) => match CredentialRef::parse(c) {
            Ok(r) => r.relative_to(base),
            Err(e) => {
                p.add(format!("{}: {e}", at("credential")));
                CredentialRef::None
            }
        },
    };
    if credential.needs_vault() && !has_vault {
        p.add(format!(
            "{}: \"{credential}\" is in a vault, but there is no [vault] section",
            at("credential")
        ));
    }
    if let Some(t) = rw.temperature
        && !(0.0..=2.0).contains(&t)
    {
        p.add(format!("{place}.temperature: {t} is outside 0 to 2"));
    }
    let lean_schema = match rw.answer_schema.as_deref() {
        None | Some("full") => false,
        Some("lean") => true,
        Some(other) => {
            p.add(format!(
                "{place}.answer_schema: \"{other}\" is not an answer schema; expected \"full\" or \"lean\""
            ));
            false
        }
    };
    if rw.max_components == Some(0) {
        p.add(format!("{place}.max_components: 0 would allow no form at all"));
    }
    Some(Backend::Model(ModelWorker {
        wire,
        endpoint: endpoint?,
        credential,
        structured_output: rw.structured_output.unwrap_or(true),
        max_output_tokens: rw.max_output_tokens.unwrap_or(0),
        temperature: rw.temperature,
        max_components: rw.max_components.unwrap_or(DEFAULT_MAX_COMPONENTS),
        lean_schema,
        stream: rw.stream.unwrap_or(true),
        starting_point: rw.starting_point.unwrap_or(true),
        draft_when_unusable: rw.draft_when_unusable.unwrap_or(false),
        constrain_keys: rw.constrain_keys.unwrap_or(false),
    }))
}

/// An http(s) URL with a host and no user name or password in it; `place` names the setting in the
/// problem. A URL that carries a password is refused without repeating it: credentials are given only by
/// reference (`what` says which one), where they are resolved per call and redacted from answers.
pub(super) fn http_url(text: &str, place: &str, what: &str, p: &mut Problems) -> Option<reqwest::Url> {
    match reqwest::Url::parse(text.trim()) {
        Ok(u) if !u.username().is_empty() || u.password().is_some() => {
            p.add(format!(
                "{place}: the URL holds a user name or password (user:password@), which is not repeated here; remove it and give {what} by reference (env:NAME, file:PATH or vault:MOUNT/PATH#FIELD)"
            ));
            None
        }
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => Some(u),
        _ if text.contains('@') => {
            p.add(format!(
                "{place}: is not an http(s) URL (not repeated here, as it holds an @ and may hold a password)"
            ));
            None
        }
        _ => {
            p.add(format!("{place}: \"{text}\" is not an http(s) URL"));
            None
        }
    }
}
