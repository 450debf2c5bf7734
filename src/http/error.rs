//! Every error the API returns, mapped to a status and a code in this one place.
//!
//! Bodies are `{"error": "<sentence for the author>", "code": "<snake_case>"}` (plus `problems` for a
//! refused form), never a stack trace and never a secret.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::auth::AuthError;
use crate::model::ModelError;
use crate::service::{ErrorBody, ServiceError};
use crate::workers::ChoiceError;

/// An error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// The code.
    pub code: &'static str,
    /// The sentence.
    pub message: String,
    /// Seconds for `Retry-After`.
    pub retry_after_s: Option<u64>,
    /// Refusal sentences.
    pub problems: Option<Vec<String>>,
}

impl ApiError {
    /// An error with a status, code and sentence.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: capitalised(message.into()), retry_after_s: None, problems: None }
    }
}

/// Sentences start upper-case and end with a full stop, whichever layer wrote them.
fn capitalised(s: String) -> String {
    if s.is_empty() {
        return s;
    }
    let mut out = crate::words::capitalise(&s);
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        use StatusCode as S;
        let message = e.to_string();
        let (status, code) = match &e {
            ServiceError::BriefRequired => (S::BAD_REQUEST, "brief_required"),
            ServiceError::FormRequired => (S::BAD_REQUEST, "form_required"),
            ServiceError::ProcessRequired => (S::BAD_REQUEST, "process_required"),
            ServiceError::BadRequest(_) => (S::BAD_REQUEST, "bad_request"),
            ServiceError::Worker(ChoiceError::Ambiguous(_)) => (S::BAD_REQUEST, "worker_required"),
            ServiceError::Worker(ChoiceError::NotAllowed(_)) => (S::FORBIDDEN, "worker_not_permitted"),
            ServiceError::Worker(ChoiceError::Unknown(_)) => (S::NOT_FOUND, "unknown_worker"),
            ServiceError::Worker(ChoiceError::NoneInReach) => (S::SERVICE_UNAVAILABLE, "no_worker"),
            ServiceError::UnknownProcess(_) => (S::NOT_FOUND, "unknown_process"),
            ServiceError::UnknownElement { .. } => (S::NOT_FOUND, "unknown_element"),
            ServiceError::TooLarge { what: "description", .. } => {
                (S::PAYLOAD_TOO_LARGE, "description_too_long")
            }
            ServiceError::TooLarge { what: "BPMN", .. } => (S::PAYLOAD_TOO_LARGE, "bpmn_too_large"),
            ServiceError::TooLarge { .. } => (S::PAYLOAD_TOO_LARGE, "schema_too_large"),
            ServiceError::Busy { .. } => (S::TOO_MANY_REQUESTS, "too_many_generations"),
            ServiceError::Model { error, .. } => match error {
                ModelError::Timeout { .. } => (S::GATEWAY_TIMEOUT, "model_timeout"),
                ModelError::RateLimited { .. } => (S::TOO_MANY_REQUESTS, "model_rate_limited"),
                ModelError::CredentialRefused { .. } => (S::BAD_GATEWAY, "model_credential_refused"),
                ModelError::Truncated { .. } => (S::BAD_GATEWAY, "model_answer_truncated"),
                ModelError::TooLarge { .. } => (S::BAD_GATEWAY, "model_answer_too_large"),
                _ => (S::BAD_GATEWAY, "model_failed"),
            },
            ServiceError::Unusable { .. } => (S::BAD_GATEWAY, "unusable_answer"),
            ServiceError::Credential { .. } => (S::SERVICE_UNAVAILABLE, "credential_unavailable"),
            ServiceError::Refused(_) => (S::UNPROCESSABLE_ENTITY, "schema_refused"),
        };
        let mut api = ApiError::new(status, code, message);
        match e {
            ServiceError::Busy { retry_after_s, .. } => api.retry_after_s = Some(retry_after_s),
            ServiceError::Model { error: ModelError::RateLimited { retry_after_s }, .. } => {
                api.retry_after_s = Some(retry_after_s.unwrap_or(30));
            }
            ServiceError::Refused(problems) => {
                api.message = "The form was refused; each problem is listed in \"problems\".".into();
                api.problems = Some(problems);
            }
            ServiceError::Unusable { problems, .. } => api.problems = Some(problems),
            _ => {}
        }
        api
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        let code = match e {
            AuthError::Missing => "unauthenticated",
            _ => "unknown_principal",
        };
        ApiError::new(StatusCode::UNAUTHORIZED, code, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { error: self.message, code: self.code.to_string(), problems: self.problems };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(s) = self.retry_after_s {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}
