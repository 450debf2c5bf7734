//! The request and response types of the API, shared by the HTTP handlers, the CLI and the OpenAPI
//! document (which is generated from them).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::check::Finding;
use crate::model::Usage;
use crate::outline::OutlineProcess;
use crate::workers::WorkerView;

/// `POST /api/formgen/generate`: what an author asks for. Everything but a brief or a process is
/// optional, and a request with only a process is complete: "the form that starts this" says enough.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct GenerateRequest {
    /// The author's brief, in their own language.
    pub description: String,
    /// The Worker to ask; empty picks the only one in reach.
    pub worker: String,
    /// Overrides the Worker's model.
    pub model: String,
    /// The process the form belongs to: its draft, else its deployed version.
    pub process_id: String,
    /// The BPMN the author has open now; wins over stored sources.
    pub process_xml: String,
    /// The step the form is for; empty: the start form.
    pub element_id: String,
    /// The id the editor holds the form under; stamped into the result.
    pub form_id: String,
    /// The form as it stands: present for a refinement.
    #[schema(value_type = Option<Object>)]
    pub schema: Option<Value>,
    /// Form-js schemas of the process's project that the editor holds (the forms of other steps).
    #[schema(value_type = Vec<Object>)]
    pub forms: Vec<Value>,
    /// DMN documents (XML text) of the process's project that the editor holds.
    pub decisions: Vec<String>,
}

/// The proposal: not saved anywhere.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateResponse {
    /// The form-js schema.
    #[schema(value_type = Object)]
    pub schema: Value,
    /// The Worker that answered.
    pub worker: String,
    /// The model it asked.
    pub model: String,
    /// The process that was read ("" when none).
    pub process_id: String,
    /// The step the form is for ("" for the start form).
    pub element_id: String,
    /// Where the process came from: "draft", "deployment", "request" or "".
    pub process_source: String,
    /// What the author should know: repairs, near-miss keys, what a refinement changed.
    pub warnings: Vec<String>,
    /// Tokens spent, over all attempts.
    pub usage: Usage,
    /// Model calls it took: 1, or 2 after a repair round.
    pub attempts: u32,
    /// What the proposal does not do as its step needs (the contract check); empty without a process.
    pub findings: Vec<Finding>,
}

/// `POST /api/formgen/validate`: the gate on a hand-written form.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ValidateRequest {
    /// The form, as JSON.
    #[schema(value_type = Option<Object>)]
    pub schema: Option<Value>,
    /// Or a raw model answer, as text.
    pub text: Option<String>,
    /// The id to stamp.
    pub form_id: String,
    /// The process to check the keys against.
    pub process_id: String,
    /// Or the process's BPMN.
    pub process_xml: String,
    /// The step the form is for; empty: the step that binds the form's id (`formId`, else the
    /// schema's `id`), and no contract check when none does.
    pub element_id: String,
    /// Form-js schemas of the process's project that the editor holds (the forms of other steps).
    #[schema(value_type = Vec<Object>)]
    pub forms: Vec<Value>,
    /// DMN documents (XML text) of the process's project that the editor holds.
    pub decisions: Vec<String>,
}

/// An accepted form.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ValidateResponse {
    /// The normalised schema.
    #[schema(value_type = Object)]
    pub schema: Value,
    /// What was repaired or looks wrong.
    pub warnings: Vec<String>,
    /// What the form does not do as its step needs (the contract check); empty without a process or
    /// a step.
    pub findings: Vec<Finding>,
}

/// `POST /api/formgen/outline`: what a model would be shown.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct OutlineRequest {
    /// The process id (store), or…
    pub process_id: String,
    /// …its BPMN.
    pub process_xml: String,
    /// The step; empty: the start form.
    pub element_id: String,
    /// Form-js schemas of the process's project that the editor holds (the forms of other steps).
    #[schema(value_type = Vec<Object>)]
    pub forms: Vec<Value>,
    /// DMN documents (XML text) of the process's project that the editor holds.
    pub decisions: Vec<String>,
}

/// The outline and the text a model would read.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineResponse {
    /// The process outline (the contract's JSON).
    pub process: OutlineProcess,
    /// `describe` output.
    pub text: String,
    /// Where the process came from.
    pub process_source: String,
    /// The step's data picture: known before, to supply, decided on, the forms and decisions read
    /// (absent when no process could be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<crate::flow::Picture>,
}

/// `GET /api/formgen/capability`: whether to show the button, and with which Workers.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Capability {
    /// Whether any Worker is in reach.
    pub available: bool,
    /// The Workers this principal may name.
    pub workers: Vec<WorkerView>,
    /// The limits an editor needs.
    pub limits: CapabilityLimits,
}

/// The limits an editor should respect before sending.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CapabilityLimits {
    /// Largest request body, bytes.
    pub request_body_bytes: usize,
    /// Longest description, characters.
    pub description_chars: usize,
    /// Largest BPMN, bytes.
    pub bpmn_bytes: usize,
    /// Largest current schema, bytes.
    pub schema_bytes: usize,
    /// Longest a generation may take, seconds.
    pub model_timeout_s: u64,
}

/// An error body: a sentence for the author and a stable code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// The sentence.
    pub error: String,
    /// snake_case code.
    pub code: String,
    /// One sentence per problem (validation refusals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<String>>,
}
