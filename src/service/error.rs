//! The service layer's errors: what went wrong, in words for the author. The HTTP layer maps each to a
//! status and code in one place (`http::error`).

use crate::credentials::CredentialError;
use crate::model::ModelError;
use crate::workers::ChoiceError;

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
    /// `processId` names no stored process (or none in `processXml`).
    #[error("there is no process \"{0}\"; check the process id, or send the BPMN as processXml")]
    UnknownProcess(String),
    /// `elementId` names nothing in the process.
    #[error(
        "the process \"{process}\" has no element \"{element}\"; pick a step of this process, or none for the start form"
    )]
    UnknownElement {
        /// The process.
        process: String,
        /// The id asked for.
        element: String,
    },
    /// An input over its limit.
    #[error("the {what} is {size} {unit}, over this installation's limit of {limit}; {advice}")]
    TooLarge {
        /// What ("description", "BPMN", "current form").
        what: &'static str,
        /// How big it was.
        size: usize,
        /// Its unit ("characters", "bytes").
        unit: &'static str,
        /// The limit.
        limit: usize,
        /// What to do.
        advice: &'static str,
    },
    /// Too many generations in flight.
    #[error("formgen is busy with {in_flight} generations{scope}; try again in {retry_after_s} s")]
    Busy {
        /// How many are running.
        in_flight: usize,
        /// " on this Worker", or "".
        scope: &'static str,
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
    /// A request body that is not valid JSON for the endpoint.
    #[error("the request is not valid: {0}")]
    BadRequest(String),
}
