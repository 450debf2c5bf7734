//! The string fields of a request, each bounded by its limit before anything else reads it: a
//! `model` goes upstream and a `formId` into the prompt, so neither may be longer than a name is.

use super::ServiceError;
use crate::limits::Limits;

/// A bounded string field of a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// `worker`.
    Worker,
    /// `model`.
    Model,
    /// `processId`.
    ProcessId,
    /// `elementId`.
    ElementId,
    /// `formId`.
    FormId,
}

impl Field {
    /// Its name in the JSON body.
    pub fn json_name(self) -> &'static str {
        match self {
            Field::Worker => "worker",
            Field::Model => "model",
            Field::ProcessId => "processId",
            Field::ElementId => "elementId",
            Field::FormId => "formId",
        }
    }

    /// The variable that raises its limit.
    pub fn env_var(self) -> &'static str {
        match self {
            Field::Worker => "FORMGEN_LIMIT_WORKER_CHARS",
            Field::Model => "FORMGEN_LIMIT_MODEL_CHARS",
            Field::ProcessId => "FORMGEN_LIMIT_PROCESS_ID_CHARS",
            Field::ElementId => "FORMGEN_LIMIT_ELEMENT_ID_CHARS",
            Field::FormId => "FORMGEN_LIMIT_FORM_ID_CHARS",
        }
    }

    fn limit(self, limits: &Limits) -> usize {
        match self {
            Field::Worker => limits.worker_chars,
            Field::Model => limits.model_chars,
            Field::ProcessId => limits.process_id_chars,
            Field::ElementId => limits.element_id_chars,
            Field::FormId => limits.form_id_chars,
        }
    }
}

/// Every field sent within its limit, or the first that is not. Counting stops at the limit, so a
/// 5 MiB field costs no more than a short one.
pub(super) fn check(limits: &Limits, fields: &[(Field, Option<&str>)]) -> Result<(), ServiceError> {
    for &(field, value) in fields {
        let Some(value) = value else { continue };
        let limit = field.limit(limits);
        if value.len() > limit && value.chars().nth(limit).is_some() {
            return Err(ServiceError::FieldTooLong { field, chars: value.chars().count(), limit });
        }
    }
    Ok(())
}

/// A `model` override is a model name (`claude-sonnet-4-5`, `gpt-4o-mini`, `org/model:tag@v2`).
pub(super) fn check_model_name(model: &str) -> Result<(), ServiceError> {
    let ok = model.trim().chars().all(|c| c.is_ascii_alphanumeric() || "._-:/@".contains(c));
    if ok { Ok(()) } else { Err(ServiceError::BadModelName) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_has_its_limit_and_sentence() {
        let limits = Limits { form_id_chars: 5, ..Limits::default() };
        assert!(check(&limits, &[(Field::FormId, Some("abcde")), (Field::Worker, None)]).is_ok());
        // characters, not bytes
        assert!(check(&limits, &[(Field::FormId, Some("äöüßé"))]).is_ok());
        let e = check(&limits, &[(Field::Worker, Some("w")), (Field::FormId, Some("abcdef"))]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"formId\" is 6 characters, over this installation's limit of 5 (FORMGEN_LIMIT_FORM_ID_CHARS); send a shorter one"
        );
        assert_eq!(e.code(), crate::service::Code::FieldTooLong);
    }

    #[test]
    fn model_names() {
        for ok in ["", "claude-sonnet-4-5", "gpt-4o-mini", "org/model:tag@v2", "llama3.1"] {
            assert!(check_model_name(ok).is_ok(), "{ok}");
        }
        for bad in ["a b", "x\ny", "m\"; drop", "modèle"] {
            assert_eq!(check_model_name(bad), Err(ServiceError::BadModelName), "{bad}");
        }
    }
}
