//! The service's errors and the one vocabulary of error codes.
//!
//! Every error formgen answers with has a stable snake_case [`Code`]: the service's own, and those the
//! HTTP layer makes for a request it cannot read. The HTTP layer maps code → status in one table
//! (`http::error`); the CLI prints the code and picks its exit code from it; the metrics' outcome
//! label is the code. Sentences are for the author; codes are for programs.

use crate::auth::AuthError;
use crate::credentials::CredentialError;
use crate::model::ModelError;
use crate::sources::SourceError;
use crate::workers::ChoiceError;

/// Every error code formgen answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// Neither a description nor a process.
    BriefRequired,
    /// Validate without a form.
    FormRequired,
    /// Outline without a process.
    ProcessRequired,
    /// A body that does not fit the endpoint's fields.
    BadRequest,
    /// A body that is not JSON.
    BadJson,
    /// A body sent without the JSON content type.
    JsonRequired,
    /// A body over the request limit.
    BodyTooLarge,
    /// A body that did not arrive within the body read time.
    BodyTimeout,
    /// No room to read another request body now.
    ServerBusy,
    /// A string field over its length limit.
    FieldTooLong,
    /// Several Workers are in reach and none was named.
    WorkerRequired,
    /// No Worker has that name.
    UnknownWorker,
    /// No Worker is in reach at all.
    NoWorker,
    /// No such process.
    UnknownProcess,
    /// No such element in the process.
    UnknownElement,
    /// An element was named in something that holds no BPMN process at all.
    NotBpmn,
    /// The element named is not a step that has a form (a flow, a gateway, a service task...).
    NotAFormStep,
    /// The brief is over its limit.
    DescriptionTooLong,
    /// The BPMN is over its limit.
    BpmnTooLarge,
    /// The form is over its limit.
    SchemaTooLarge,
    /// The project's forms and decisions are over their limits.
    ProjectTooLarge,
    /// Too many generations in flight.
    TooManyGenerations,
    /// The model did not answer in time.
    ModelTimeout,
    /// The provider is rate-limiting.
    ModelRateLimited,
    /// The provider refused the key.
    ModelCredentialRefused,
    /// The answer hit the output-token limit.
    ModelAnswerTruncated,
    /// The answer was over the size cap.
    ModelAnswerTooLarge,
    /// Any other model endpoint failure.
    ModelFailed,
    /// Two answers the gate refused.
    UnusableAnswer,
    /// The Worker's credential could not be resolved.
    CredentialUnavailable,
    /// The gate refused a hand-written form.
    SchemaRefused,
    /// The gate worked on a form past its time.
    GateTimeout,
    /// Reading and outlining a request's process took past its time.
    ProcessTimeout,
    /// No credentials were sent.
    Unauthenticated,
    /// Credentials no principal has.
    UnknownPrincipal,
    /// A caller who may not see this (the metrics off loopback, without authentication).
    Forbidden,
    /// A request addressed to a host name this installation does not answer to (DNS rebinding).
    HostNotAllowed,
    /// No route at this path.
    NotFound,
    /// A route asked with a method it does not answer.
    MethodNotAllowed,
    /// The server is stopping: what was still running at the end of its grace period was ended.
    ShuttingDown,
    /// formgen's own fault.
    Internal,
}

impl Code {
    /// The stable snake_case spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::BriefRequired => "brief_required",
            Code::FormRequired => "form_required",
            Code::ProcessRequired => "process_required",
            Code::BadRequest => "bad_request",
            Code::BadJson => "bad_json",
            Code::JsonRequired => "json_required",
            Code::BodyTooLarge => "body_too_large",
            Code::BodyTimeout => "body_timeout",
            Code::ServerBusy => "server_busy",
            Code::FieldTooLong => "field_too_long",
            Code::WorkerRequired => "worker_required",
            Code::UnknownWorker => "unknown_worker",
            Code::NoWorker => "no_worker",
            Code::UnknownProcess => "unknown_process",
            Code::UnknownElement => "unknown_element",
            Code::NotBpmn => "not_bpmn",
            Code::NotAFormStep => "not_a_form_step",
            Code::DescriptionTooLong => "description_too_long",
            Code::BpmnTooLarge => "bpmn_too_large",
            Code::SchemaTooLarge => "schema_too_large",
            Code::ProjectTooLarge => "project_too_large",
            Code::TooManyGenerations => "too_many_generations",
            Code::ModelTimeout => "model_timeout",
            Code::ModelRateLimited => "model_rate_limited",
            Code::ModelCredentialRefused => "model_credential_refused",
            Code::ModelAnswerTruncated => "model_answer_truncated",
            Code::ModelAnswerTooLarge => "model_answer_too_large",
            Code::ModelFailed => "model_failed",
            Code::UnusableAnswer => "unusable_answer",
            Code::CredentialUnavailable => "credential_unavailable",
            Code::SchemaRefused => "schema_refused",
            Code::GateTimeout => "gate_timeout",
            Code::ProcessTimeout => "process_timeout",
            Code::Unauthenticated => "unauthenticated",
            Code::UnknownPrincipal => "unknown_principal",
            Code::Forbidden => "forbidden",
            Code::HostNotAllowed => "host_not_allowed",
            Code::NotFound => "not_found",
            Code::MethodNotAllowed => "method_not_allowed",
            Code::ShuttingDown => "shutting_down",
            Code::Internal => "internal",
        }
    }
}

impl From<&AuthError> for Code {
    fn from(e: &AuthError) -> Code {
        match e {
            AuthError::Missing => Code::Unauthenticated,
            AuthError::MetricsLoopbackOnly | AuthError::MetricsNotPermitted => Code::Forbidden,
            _ => Code::UnknownPrincipal,
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What was over its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oversized {
    /// The author's brief (characters).
    Description,
    /// The BPMN document (bytes).
    Bpmn,
    /// The current form of a refinement (bytes).
    CurrentForm,
    /// The form sent to `validate` (bytes).
    Form,
}

impl Oversized {
    fn what(self) -> &'static str {
        match self {
            Oversized::Description => "description",
            Oversized::Bpmn => "BPMN",
            Oversized::CurrentForm => "current form",
            Oversized::Form => "form",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Oversized::Description => "characters",
            _ => "bytes",
        }
    }

    fn advice(self) -> &'static str {
        match self {
            Oversized::Description => "shorten the brief",
            Oversized::Bpmn => "send a smaller process",
            Oversized::CurrentForm | Oversized::Form => "send a smaller form",
        }
    }
}

/// Which concurrency limit was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusyScope {
    /// The installation's limit on generations in flight.
    Service,
    /// The Worker's own limit.
    Worker,
}

/// Why a generation, validation or outline could not be done.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    /// Neither a description nor a process.
    #[error("say what the form is for: give a description, or name a process (processId or processXml)")]
    BriefRequired,
    /// Validate without a form.
    #[error("send the form to check, as \"schema\" (JSON) or \"text\" (a raw answer)")]
    FormRequired,
    /// Outline without a process.
    #[error("name the process to outline: give processId or processXml")]
    ProcessRequired,
    /// Choosing a Worker failed.
    #[error("{0}")]
    Worker(#[from] ChoiceError),
    /// The process or step could not be found.
    #[error("{0}")]
    Source(#[from] SourceError),
    /// An input over its limit.
    #[error("the {} is {size} {}, over this installation's limit of {limit}; {}", .what.what(), .what.unit(), .what.advice())]
    TooLarge {
        /// What.
        what: Oversized,
        /// How big it was.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// Too many generations in flight.
    #[error("formgen is busy with {in_flight} generation{}{}; try again in {retry_after_s} s", if *.in_flight == 1 { "" } else { "s" }, match .scope { BusyScope::Service => "", BusyScope::Worker => " on this Worker" })]
    Busy {
        /// How many are running.
        in_flight: usize,
        /// Which limit.
        scope: BusyScope,
        /// Seconds to wait.
        retry_after_s: u64,
    },
    /// The model call failed.
    #[error("the Worker \"{worker}\" could not write the form: {error}")]
    Model {
        /// The Worker.
        worker: String,
        /// What failed.
        error: ModelError,
    },
    /// The model answered twice with something the gate refused.
    #[error("the Worker \"{worker}\" answered with something that is not a usable form, also after a second try: {}", problems.join(" "))]
    Unusable {
        /// The Worker.
        worker: String,
        /// The gate's sentences about the last answer.
        problems: Vec<String>,
        /// The tokens the answers took (what a draft that answers instead still cost).
        usage: crate::model::Usage,
    },
    /// The Worker's credential could not be resolved.
    #[error("the Worker \"{worker}\" cannot be used right now: {error}")]
    Credential {
        /// The Worker.
        worker: String,
        /// Why (names the reference, never a value).
        error: CredentialError,
    },
    /// The gate refused a hand-written form.
    #[error("the form was refused: {}", .0.join(" "))]
    Refused(Vec<String>),
    /// The gate worked on a form past its time.
    #[error(
        "checking the form took longer than this installation's {after_s} s (FORMGEN_LIMIT_GATE_SECONDS); send a smaller form"
    )]
    GateStopped {
        /// The time limit.
        after_s: u64,
    },
    /// Reading and outlining the process worked past its time.
    #[error(
        "reading and outlining the process took longer than this installation's {after_s} s (FORMGEN_LIMIT_PROCESS_SECONDS); send a smaller process"
    )]
    ProcessStopped {
        /// The time limit.
        after_s: u64,
    },
    /// The current form of a refinement is not a form the gate accepts.
    #[error("the current form (\"schema\") is not a form the gate accepts: {}", .0.join(" "))]
    CurrentFormRefused(Vec<String>),
    /// The element named is not one a form belongs to.
    #[error("{}", not_a_form_step(.element, .kind, .steps))]
    NotAFormStep {
        /// The element's id.
        element: String,
        /// Its BPMN kind (`sequenceFlow`, `exclusiveGateway`, ...).
        kind: &'static str,
        /// The process's user tasks and start events: (id, name).
        steps: Vec<(String, String)>,
    },
    /// A string field over its length limit.
    #[error("\"{}\" is {chars} characters, over this installation's limit of {limit} ({}); send a shorter one", .field.json_name(), .field.env_var())]
    FieldTooLong {
        /// Which field.
        field: crate::service::Field,
        /// Its length.
        chars: usize,
        /// The limit.
        limit: usize,
    },
    /// A `model` override that is not a model name.
    #[error("\"model\" is not a model name: model names are letters, digits and . _ - : / @ only")]
    BadModelName,
}

/// The sentence for an element that has no form: what it is, and which steps do have one.
fn not_a_form_step(element: &str, kind: &str, steps: &[(String, String)]) -> String {
    let kind = crate::words::split(kind).join(" ");
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    let listed: Vec<String> = steps
        .iter()
        .map(
            |(id, name)| {
                if name.is_empty() || name == id { id.clone() } else { format!("{id} (\"{name}\")") }
            },
        )
        .collect();
    let choice = if listed.is_empty() {
        "this process has none, so only its start form (no element) can be drafted".to_string()
    } else {
        format!("this process has {}, or name no element for the start form", listed.join(", "))
    };
    format!(
        "\"{element}\" is {article} {kind}, which has no form; forms belong to user tasks and start events: {choice}"
    )
}

impl ServiceError {
    /// The stable code.
    pub fn code(&self) -> Code {
        match self {
            ServiceError::BriefRequired => Code::BriefRequired,
            ServiceError::FormRequired => Code::FormRequired,
            ServiceError::ProcessRequired => Code::ProcessRequired,
            ServiceError::Worker(ChoiceError::Ambiguous(_)) => Code::WorkerRequired,
            ServiceError::Worker(ChoiceError::Unknown(_)) => Code::UnknownWorker,
            ServiceError::Worker(ChoiceError::NoneInReach) => Code::NoWorker,
            ServiceError::Source(SourceError::UnknownProcess(_)) => Code::UnknownProcess,
            ServiceError::Source(SourceError::UnknownElement { .. }) => Code::UnknownElement,
            ServiceError::Source(SourceError::StoreFailed) => Code::Internal,
            ServiceError::Source(SourceError::NotBpmn { .. }) => Code::NotBpmn,
            ServiceError::NotAFormStep { .. } => Code::NotAFormStep,
            ServiceError::Source(SourceError::ProjectTooLarge(_)) => Code::ProjectTooLarge,
            ServiceError::TooLarge { what: Oversized::Description, .. } => Code::DescriptionTooLong,
            ServiceError::TooLarge { what: Oversized::Bpmn, .. } => Code::BpmnTooLarge,
            ServiceError::TooLarge { .. } => Code::SchemaTooLarge,
            ServiceError::Busy { .. } => Code::TooManyGenerations,
            ServiceError::Model { error, .. } => match error {
                ModelError::Timeout { .. } => Code::ModelTimeout,
                ModelError::RateLimited { .. } => Code::ModelRateLimited,
                ModelError::CredentialRefused { .. } => Code::ModelCredentialRefused,
                ModelError::Truncated { .. } => Code::ModelAnswerTruncated,
                ModelError::TooLarge { .. } => Code::ModelAnswerTooLarge,
                _ => Code::ModelFailed,
            },
            ServiceError::Unusable { .. } => Code::UnusableAnswer,
            ServiceError::Credential { .. } => Code::CredentialUnavailable,
            ServiceError::GateStopped { .. } => Code::GateTimeout,
            ServiceError::ProcessStopped { .. } => Code::ProcessTimeout,
            ServiceError::Refused(_) | ServiceError::CurrentFormRefused(_) => Code::SchemaRefused,
            ServiceError::FieldTooLong { .. } => Code::FieldTooLong,
            ServiceError::BadModelName => Code::BadRequest,
        }
    }

    /// Seconds the caller should wait before trying again, when that is the remedy.
    pub fn retry_after_s(&self) -> Option<u64> {
        match self {
            ServiceError::Busy { retry_after_s, .. } => Some(*retry_after_s),
            ServiceError::Model { error: ModelError::RateLimited { retry_after_s }, .. } => {
                Some(retry_after_s.unwrap_or(30))
            }
            _ => None,
        }
    }

    /// One sentence per problem, for refusals that have several.
    pub fn problems(&self) -> Option<&[String]> {
        match self {
            ServiceError::Refused(p)
            | ServiceError::CurrentFormRefused(p)
            | ServiceError::Unusable { problems: p, .. } => Some(p),
            _ => None,
        }
    }
}
