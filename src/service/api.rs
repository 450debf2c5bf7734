//! The request and response types of the API, shared by the HTTP handlers, the CLI and the OpenAPI
//! document (which is generated from them), and what a request's fields mean once read: an id or
//! name is trimmed, and a field that is missing, `null` or blank is absent (`None`), decided here
//! once (each request's `normalise`) so that nothing after the service's entry asks again whether a
//! string is empty.

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
    pub description: Option<String>,
    /// The Worker to ask; absent picks the only one in reach.
    pub worker: Option<String>,
    /// Overrides the Worker's model.
    pub model: Option<String>,
    /// The process the form belongs to: its draft, else its deployed version.
    pub process_id: Option<String>,
    /// The BPMN the author has open now; wins over stored sources.
    pub process_xml: Option<String>,
    /// The step the form is for; absent: the start form.
    pub element_id: Option<String>,
    /// The id the editor holds the form under; stamped into the result.
    pub form_id: Option<String>,
    /// The form as it stands: present for a refinement.
    #[schema(value_type = Option<Object>)]
    pub schema: Option<Value>,
    /// Form-js schemas of the process's project that the editor holds (the forms of other steps).
    #[schema(value_type = Vec<Object>)]
    pub forms: Vec<Value>,
    /// DMN documents (XML text) of the process's project that the editor holds.
    pub decisions: Vec<String>,
}

impl GenerateRequest {
    /// The request as the service reads it (see [`present`] and [`present_id`]); called once, when
    /// the request enters the service and its sizes have been checked as sent.
    pub(crate) fn normalise(&mut self) {
        self.description = present(self.description.take());
        self.worker = present_id(self.worker.take());
        self.model = present_id(self.model.take());
        self.process_id = present_id(self.process_id.take());
        self.process_xml = present(self.process_xml.take());
        self.element_id = present_id(self.element_id.take());
        self.form_id = present_id(self.form_id.take());
    }
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
    pub form_id: Option<String>,
    /// The process to check the keys against.
    pub process_id: Option<String>,
    /// Or the process's BPMN.
    pub process_xml: Option<String>,
    /// The step the form is for; absent: the step that binds the form's id (`formId`, else the
    /// schema's `id`), and no contract check when none does.
    pub element_id: Option<String>,
    /// Form-js schemas of the process's project that the editor holds (the forms of other steps).
    #[schema(value_type = Vec<Object>)]
    pub forms: Vec<Value>,
    /// DMN documents (XML text) of the process's project that the editor holds.
    pub decisions: Vec<String>,
}

impl ValidateRequest {
    /// The request as the service reads it; as [`GenerateRequest::normalise`].
    pub(crate) fn normalise(&mut self) {
        self.form_id = present_id(self.form_id.take());
        self.process_id = present_id(self.process_id.take());
        self.process_xml = present(self.process_xml.take());
        self.element_id = present_id(self.element_id.take());
    }
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
    pub process_id: Option<String>,
    /// …its BPMN.
    pub process_xml: Option<String>,
    /// The step; absent: the start form.
    pub element_id: Option<String>,
    /// Form-js schemas of the process's project that the editor holds (the forms of other steps).
    #[schema(value_type = Vec<Object>)]
    pub forms: Vec<Value>,
    /// DMN documents (XML text) of the process's project that the editor holds.
    pub decisions: Vec<String>,
}

impl OutlineRequest {
    /// The request as the service reads it; as [`GenerateRequest::normalise`].
    pub(crate) fn normalise(&mut self) {
        self.process_id = present_id(self.process_id.take());
        self.process_xml = present(self.process_xml.take());
        self.element_id = present_id(self.element_id.take());
    }
}

/// A text field (a brief, a BPMN) as the author sent it, absent when it holds only whitespace: an
/// editor sends `""` for an empty box, and a missing field, `null` and `""` all mean "not given".
/// The text itself is not touched: a brief's lines and a BPMN's bytes are the author's.
fn present(value: Option<String>) -> Option<String> {
    value.filter(|v| !v.trim().is_empty())
}

/// An id or name field, trimmed, absent when blank: ids are compared with what the BPMN, the store
/// and the configuration write, which never carry the spaces a text box or a shell can add.
fn present_id(value: Option<String>) -> Option<String> {
    let value = present(value)?;
    let trimmed = value.trim();
    Some(if trimmed.len() == value.len() { value } else { trimmed.to_string() })
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
    /// What is wrong with the process itself: names it reads that nothing in it or its project
    /// writes (a literal without its quotes, a misspelling), warnings each.
    pub findings: Vec<Finding>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blank_id_is_absent_and_an_id_is_trimmed() {
        for blank in ["", " ", "\t\n "] {
            assert_eq!(present_id(Some(blank.into())), None, "{blank:?}");
        }
        assert_eq!(present_id(None), None);
        assert_eq!(present_id(Some(" Task_1\n".into())), Some("Task_1".into()));
        assert_eq!(present_id(Some("Task_1".into())), Some("Task_1".into()));
    }

    #[test]
    fn a_brief_is_kept_as_written_and_absent_when_blank() {
        let mut req = GenerateRequest {
            description: Some("  Name,\n  E-Mail \n".into()),
            process_xml: Some(" \n ".into()),
            worker: Some(" local ".into()),
            model: Some("".into()),
            ..GenerateRequest::default()
        };
        req.normalise();
        assert_eq!(req.description.as_deref(), Some("  Name,\n  E-Mail \n"));
        assert_eq!((req.process_xml, req.worker.as_deref(), req.model), (None, Some("local"), None));
        let mut req = GenerateRequest { description: Some(" \n".into()), ..GenerateRequest::default() };
        req.normalise();
        assert_eq!(req.description, None);
    }

    #[test]
    fn an_empty_a_missing_and_a_null_element_id_are_all_absent() {
        for body in [r#"{"elementId": ""}"#, "{}", r#"{"elementId": null}"#, r#"{"elementId": "  "}"#] {
            let mut generate: GenerateRequest = serde_json::from_str(body).unwrap();
            generate.normalise();
            assert_eq!(generate.element_id, None, "{body}");
            let mut validate: ValidateRequest = serde_json::from_str(body).unwrap();
            validate.normalise();
            assert_eq!(validate.element_id, None, "{body}");
            let mut outline: OutlineRequest = serde_json::from_str(body).unwrap();
            outline.normalise();
            assert_eq!(outline.element_id, None, "{body}");
        }
        let mut named: ValidateRequest = serde_json::from_str(r#"{"elementId": " Task_1 "}"#).unwrap();
        named.normalise();
        assert_eq!(named.element_id.as_deref(), Some("Task_1"));
    }
}
