//! Extractors that turn what arrives into the service's types, or into an [`ApiError`] the author can
//! read: a JSON body (bad JSON, unknown fields, a body over the limit), and the caller's principal.

use std::net::SocketAddr;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;

use super::AppState;
use super::error::ApiError;
use crate::service::Code;
use crate::workers::Principal;

/// A JSON body whose rejections are API errors.
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    axum::Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(json_error(rejection)),
        }
    }
}

fn json_error(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::JsonDataError(e) => ApiError::new(
            Code::BadRequest,
            format!(
                "the request body does not fit: {}",
                e.body_text()
                    .trim_start_matches("Failed to deserialize the JSON body into the target type: ")
            ),
        ),
        JsonRejection::JsonSyntaxError(e) => ApiError::new(
            Code::BadJson,
            format!(
                "the request body is not valid JSON ({})",
                e.body_text().trim_start_matches("Failed to parse the request body as JSON: ")
            ),
        ),
        JsonRejection::MissingJsonContentType(_) => {
            ApiError::new(Code::JsonRequired, "send the body as JSON, with Content-Type: application/json")
        }
        other if other.status() == StatusCode::PAYLOAD_TOO_LARGE => ApiError::new(
            Code::BodyTooLarge,
            "the request body is over this installation's limit (FORMGEN_LIMIT_REQUEST_BODY_BYTES); send a smaller process or form",
        ),
        other => ApiError::new(
            Code::BadRequest,
            format!("the request body could not be read ({})", other.body_text()),
        ),
    }
}

/// The principal of the request, by the configured auth mode.
pub struct Caller(pub Principal);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // the extractor (not the bare extension) so that tests' MockConnectInfo counts as the peer too
        let peer = ConnectInfo::<SocketAddr>::from_request_parts(parts, state).await.ok().map(|c| c.0.ip());
        crate::auth::principal(&state.auth, &parts.headers, peer).map(Caller).map_err(ApiError::from)
    }
}
