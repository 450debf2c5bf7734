//! Workers: the operator's one record of a model.
//!
//! A Worker names a wire format, an endpoint, a model and a *reference* to its API key; nothing else in
//! formgen configures a model. The browser only ever sees a Worker's public view `{name, model,
//! provider}` — never its endpoint and never anything about its key. Which principals may see and name
//! a Worker is its `allow` list.
//!
//! This module owns the record, the allow rule and the choice of Worker for a request; it knows nothing
//! of HTTP, credentials' values or wire formats.

use serde::Serialize;

use crate::auth::{Allow, Principal};
use crate::credentials::CredentialRef;

/// A model wire format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// Anthropic's Messages API.
    Messages,
    /// OpenAI-compatible chat completions (OpenAI, gateways, vLLM, llama.cpp, Ollama).
    ChatCompletions,
    /// No model: formgen drafts from the process outline itself.
    Builtin,
}

impl Provider {
    /// Parses a `provider` value.
    pub fn parse(s: &str) -> Option<Provider> {
        match s {
            "messages" => Some(Provider::Messages),
            "chat-completions" => Some(Provider::ChatCompletions),
            "builtin" => Some(Provider::Builtin),
            _ => None,
        }
    }

    /// The configuration spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Messages => "messages",
            Provider::ChatCompletions => "chat-completions",
            Provider::Builtin => "builtin",
        }
    }
}

/// A model wire format: how a model Worker's endpoint is spoken to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// Anthropic's Messages API.
    Messages,
    /// OpenAI-compatible chat completions.
    ChatCompletions,
}

impl Wire {
    /// The provider this wire format is shown as.
    pub fn provider(self) -> Provider {
        match self {
            Wire::Messages => Provider::Messages,
            Wire::ChatCompletions => Provider::ChatCompletions,
        }
    }
}

/// What only a Worker that calls a model has: the wire format, the endpoint, the key's reference and
/// the knobs of the call. A builtin Worker has none of these, so "builtin with an endpoint" or "a
/// model Worker without one" cannot be built.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelWorker {
    /// The wire format.
    pub wire: Wire,
    /// The base URL (`https://api.anthropic.com`, `http://127.0.0.1:8000/v1`).
    pub endpoint: reqwest::Url,
    /// Where its API key comes from.
    pub credential: CredentialRef,
    /// Ask for structured output (a forced tool, or `response_format: json_schema`).
    pub structured_output: bool,
    /// Output tokens per answer (0: the installation's limit).
    pub max_output_tokens: u32,
    /// Sampling temperature sent to the model, when set (0 makes small models repeatable).
    pub temperature: Option<f32>,
    /// Most components per list in the structured-output schema (small models fill lists to the cap).
    pub max_components: usize,
    /// Offer only type, key, label and options in the structured-output schema (for small models).
    pub lean_schema: bool,
    /// Ask for the answer as a stream when the caller watches it being written (`stream = false`:
    /// always one answer at the end, for servers that stream badly).
    pub stream: bool,
    /// Show the model the builtin draft of the step as its starting point (`starting_point = false`:
    /// the process text alone, with the step's data picture).
    pub starting_point: bool,
    /// Answer with the builtin draft of the step, with a warning that says why, when the model's
    /// answers cannot be used (cut off before a field, or refused by the gate after the repair round)
    /// on a first generation for a step; `false` (the default): the generation fails with the error.
    /// A model that cannot be reached, or refuses the credential, always fails: that is the
    /// operator's to see.
    pub draft_when_unusable: bool,
    /// With structured output, hold the keys of a first generation without a brief to the step's
    /// own (the draft's, and those the process or its project uses) in the answer schema, as an
    /// enum: the completion leaves any other key out of such an answer anyway.
    pub constrain_keys: bool,
}

impl ModelWorker {
    /// A model Worker's call settings with the configuration's defaults: no credential, structured
    /// output with the full schema, the installation's token limit.
    pub fn new(wire: Wire, endpoint: reqwest::Url) -> ModelWorker {
        ModelWorker {
            wire,
            endpoint,
            credential: CredentialRef::None,
            structured_output: true,
            max_output_tokens: 0,
            temperature: None,
            max_components: DEFAULT_MAX_COMPONENTS,
            lean_schema: false,
            stream: true,
            starting_point: true,
            draft_when_unusable: false,
            constrain_keys: false,
        }
    }
}

/// Which kind of Worker it is: the builtin drafter, or a model behind an endpoint.
#[derive(Debug, Clone, PartialEq)]
pub enum Backend {
    /// No model: formgen drafts from the process itself.
    Builtin,
    /// A language model.
    Model(ModelWorker),
}

/// One Worker.
#[derive(Debug, Clone, PartialEq)]
pub struct Worker {
    /// The name requests use.
    pub name: String,
    /// The model asked unless a request overrides it (the builtin's is a label for authors).
    pub model: String,
    /// Who may use it; empty: everyone.
    pub allow: Vec<Allow>,
    /// Seconds a generation may take (0: the installation's limit).
    pub timeout_s: u64,
    /// Generations in flight on this Worker (0: the installation's per-Worker limit).
    pub max_concurrent: usize,
    /// The builtin drafter or a model.
    pub backend: Backend,
}

/// The public view of a Worker: what the browser may know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct WorkerView {
    /// The name to send as `worker`.
    pub name: String,
    /// The model it asks.
    pub model: String,
    /// Its wire format.
    pub provider: Provider,
}

/// The components per list the answer schema allows when a Worker does not say.
pub const DEFAULT_MAX_COMPONENTS: usize = 40;

impl Worker {
    /// The builtin drafter under `name`, with the configuration's defaults (everyone allowed).
    pub fn builtin(name: &str, model: &str) -> Worker {
        Worker::with(name, model, Backend::Builtin)
    }

    /// A model Worker with the configuration's defaults (see [`ModelWorker::new`]).
    pub fn model(name: &str, wire: Wire, endpoint: reqwest::Url, model: &str) -> Worker {
        Worker::with(name, model, Backend::Model(ModelWorker::new(wire, endpoint)))
    }

    fn with(name: &str, model: &str, backend: Backend) -> Worker {
        Worker {
            name: name.to_string(),
            model: model.to_string(),
            allow: Vec::new(),
            timeout_s: 0,
            max_concurrent: 0,
            backend,
        }
    }

    /// How the Worker is shown: its wire format, or `builtin`.
    pub fn provider(&self) -> Provider {
        match &self.backend {
            Backend::Builtin => Provider::Builtin,
            Backend::Model(m) => m.wire.provider(),
        }
    }

    /// Whether `principal` may see and name this Worker.
    pub fn allows(&self, principal: &Principal) -> bool {
        principal.operator || self.allow.is_empty() || self.allow.iter().any(|a| a.admits(principal))
    }

    /// What the browser may know of it.
    pub fn view(&self) -> WorkerView {
        WorkerView { name: self.name.clone(), model: self.model.clone(), provider: self.provider() }
    }
}

/// Why no Worker could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    /// No Worker is in reach of this principal at all.
    #[error("no AI Worker is configured for you; ask the operator to add one to formgen.toml")]
    NoneInReach,
    /// Several are, and the request named none.
    #[error("several Workers are available ({}); name one in \"worker\"", .0.join(", "))]
    Ambiguous(Vec<String>),
    /// The named Worker does not exist, or this principal may not use it: the two answer alike, so
    /// a caller cannot learn the names of Workers it may not use.
    #[error("there is no Worker named \"{0}\"")]
    Unknown(String),
}

/// The configured Workers.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    workers: Vec<Worker>,
}

impl Registry {
    /// A registry of these Workers (names are unique: the config checked).
    pub fn new(workers: Vec<Worker>) -> Self {
        Registry { workers }
    }

    /// The Workers this principal may see and name, in configuration order.
    pub fn in_reach<'a>(&'a self, principal: &'a Principal) -> impl Iterator<Item = &'a Worker> + 'a {
        self.workers.iter().filter(move |w| w.allows(principal))
    }

    /// The Worker for a request: the named one, or the only one in reach when it names none.
    pub fn choose(&self, principal: &Principal, name: Option<&str>) -> Result<&Worker, ChoiceError> {
        let Some(name) = name else {
            let reach: Vec<&Worker> = self.workers.iter().filter(|w| w.allows(principal)).collect();
            return match reach.as_slice() {
                [] => Err(ChoiceError::NoneInReach),
                [only] => Ok(only),
                many => Err(ChoiceError::Ambiguous(many.iter().map(|w| w.name.clone()).collect())),
            };
        };
        self.workers
            .iter()
            .find(|w| w.name == name && w.allows(principal))
            .ok_or_else(|| ChoiceError::Unknown(name.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker(name: &str, allow: &[&str]) -> Worker {
        Worker {
            allow: allow.iter().map(|a| Allow::parse(a).unwrap()).collect(),
            ..Worker::builtin(name, "m")
        }
    }

    #[test]
    fn choosing() {
        let ana = Principal { name: "ana".into(), groups: vec!["designers".into()], operator: false };
        let bob = Principal { name: "bob".into(), groups: vec![], operator: false };
        let r = Registry::new(vec![worker("claude", &["group:designers"]), worker("local", &[])]);
        assert_eq!(r.choose(&bob, None).unwrap().name, "local");
        assert_eq!(r.choose(&ana, None), Err(ChoiceError::Ambiguous(vec!["claude".into(), "local".into()])));
        assert_eq!(
            r.choose(&bob, Some("claude")),
            Err(ChoiceError::Unknown("claude".into())),
            "hidden = missing"
        );
        assert_eq!(r.choose(&ana, Some("gpt")), Err(ChoiceError::Unknown("gpt".into())));
        assert_eq!(r.choose(&ana, Some("claude")).unwrap().name, "claude");
        assert_eq!(Registry::default().choose(&ana, None), Err(ChoiceError::NoneInReach));
        let only_ana = Registry::new(vec![worker("w", &["ana"])]);
        assert!(only_ana.choose(&ana, None).is_ok());
        assert_eq!(only_ana.choose(&bob, None), Err(ChoiceError::NoneInReach));
        assert!(
            only_ana.choose(&Principal::operator(), Some("w")).is_ok(),
            "the operator may use every Worker"
        );
    }
}
