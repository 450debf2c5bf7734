//! Every error the API returns, mapped to a status and a code in this one place.
//!
//! Bodies are `{"error": "<sentence for the author>", "code": "<snake_case>"}` (plus `problems` for a
//! refused form), never a stack trace and never a secret.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::auth::AuthError;
use crate::service::{Code, ErrorBody, ServiceError};

/// An error response.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// The code; the status follows from it ([`status`]).
    pub code: Code,
    /// The sentence.
    pub message: String,
    /// Seconds for `Retry-After`.
    pub retry_after_s: Option<u64>,
    /// Refusal sentences.
    pub problems: Option<Vec<String>>,
}

impl ApiError {
    /// An error with a code and sentence.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: crate::words::sentence(&message.into()),
            retry_after_s: None,
            problems: None,
        }
    }

    /// What a request (or an event stream) still running at the end of the shutdown's grace period
    /// is answered.
    pub fn shutting_down() -> Self {
        ApiError::new(Code::ShuttingDown, "formgen is shutting down; try again in a moment")
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> StatusCode {
        status(self.code)
    }
}

/// The one table from code to status.
pub fn status(code: Code) -> StatusCode {
    use StatusCode as S;
    match code {
        Code::BriefRequired
        | Code::FormRequired
        | Code::ProcessRequired
        | Code::BadRequest
        | Code::BadJson
        | Code::WorkerRequired => S::BAD_REQUEST,
        Code::Unauthenticated | Code::UnknownPrincipal => S::UNAUTHORIZED,
        Code::Forbidden => S::FORBIDDEN,
        Code::HostNotAllowed => S::MISDIRECTED_REQUEST,
        Code::UnknownWorker | Code::UnknownProcess | Code::UnknownElement | Code::NotFound => S::NOT_FOUND,
        Code::DescriptionTooLong
        | Code::BpmnTooLarge
        | Code::SchemaTooLarge
        | Code::ProjectTooLarge
        | Code::BodyTooLarge
        | Code::FieldTooLong => S::PAYLOAD_TOO_LARGE,
        Code::BodyTimeout => S::REQUEST_TIMEOUT,
        Code::JsonRequired => S::UNSUPPORTED_MEDIA_TYPE,
        Code::GateTimeout | Code::ProcessTimeout => S::SERVICE_UNAVAILABLE,
        Code::MethodNotAllowed => S::METHOD_NOT_ALLOWED,
        Code::SchemaRefused | Code::NotBpmn | Code::NotAFormStep => S::UNPROCESSABLE_ENTITY,
        Code::TooManyGenerations | Code::ModelRateLimited => S::TOO_MANY_REQUESTS,
        Code::ModelCredentialRefused
        | Code::ModelAnswerTruncated
        | Code::ModelAnswerTooLarge
        | Code::ModelFailed
        | Code::UnusableAnswer => S::BAD_GATEWAY,
        Code::NoWorker | Code::CredentialUnavailable | Code::ServerBusy | Code::ShuttingDown => {
            S::SERVICE_UNAVAILABLE
        }
        Code::ModelTimeout => S::GATEWAY_TIMEOUT,
        Code::Internal => S::INTERNAL_SERVER_ERROR,
    }
}

impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        let mut api = ApiError::new(e.code(), e.to_string());
        api.retry_after_s = e.retry_after_s();
        api.problems = e.problems().map(<[String]>::to_vec);
        if let ServiceError::Refused(_) = e {
            api.message = "The form was refused; each problem is listed in \"problems\".".into();
        }
        api
    }
}

impl From<AuthError> for ApiError {
    fn from(e: AuthError) -> Self {
        ApiError::new(Code::from(&e), e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body =
            ErrorBody { error: self.message, code: self.code.as_str().to_string(), problems: self.problems };
        let mut response = (status, Json(body)).into_response();
        if let Some(s) = self.retry_after_s {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(s));
        }
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}
