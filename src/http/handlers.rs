//! The handlers: each translates HTTP to one service call and back. No decisions are made here.

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::AppState;
use super::error::ApiError;
use super::extract::{ApiJson, Caller, MetricsReader};
use crate::service::Code;
use crate::service::{
    Capability, ErrorBody, GenerateRequest, GenerateResponse, OutlineRequest, OutlineResponse,
    ValidateRequest, ValidateResponse,
};

/// Whether to show the "generate form" button, and with which Workers.
#[utoipa::path(get, path = "/api/formgen/capability", tag = "formgen",
    responses((status = 200, body = Capability), (status = 401, body = ErrorBody), (status = 421, body = ErrorBody)))]
pub async fn capability(State(state): State<AppState>, Caller(principal): Caller) -> Json<Capability> {
    Json(state.service.capability(&principal))
}

/// Writes a form (or revises one) and returns it unsaved. With `Accept: text/event-stream` the answer
/// is a stream of Server-Sent Events: `progress` ({attempt, tokens, seconds, components}), `draft` (a
/// whole form-js document of the components complete so far, gated, never a secret-asking field),
/// `warning` ({warning}), `repair` ({attempt, problems}), then exactly one `proposal` (this call's
/// 200 body) or `error` ({error, code, status, problems?}), then the end. Closing the stream stops
/// the generation.
#[utoipa::path(post, path = "/api/formgen/generate", tag = "formgen", request_body = GenerateRequest,
    responses((status = 200, description = "The proposal; or, asked with `Accept: text/event-stream`, its events",
            content((GenerateResponse = "application/json"),
                (String = "text/event-stream", example = json!("event: progress\ndata: {\"attempt\":1,\"tokens\":12,\"seconds\":0.8,\"components\":0}\n\nevent: draft\ndata: {\"components\":[...],\"type\":\"default\",\"id\":\"Form_1\",\"schemaVersion\":19}\n\nevent: proposal\ndata: {\"schema\":{...},\"worker\":\"local\",...}\n\n")))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 421, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 408, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody), (status = 500, body = ErrorBody),
        (status = 502, body = ErrorBody), (status = 503, body = ErrorBody), (status = 504, body = ErrorBody)))]
///
/// A plain function handing back a future, as [`crate::service::Service::generate`] is: the future
/// keeps the request boxed, once, and neither the headers nor the extractors' copies of the arguments.
pub fn generate(
    State(state): State<AppState>,
    Caller(principal): Caller,
    draining: Option<axum::Extension<super::Draining>>,
    headers: axum::http::HeaderMap,
    ApiJson(request, room): ApiJson<GenerateRequest>,
) -> impl Future<Output = Result<Response, ApiError>> + Send {
    let events = super::stream::wants_events(&headers);
    // the headers share the connection's read buffer: not kept while the model thinks
    drop(headers);
    let request = Box::new(request);
    async move {
        if events {
            let draining = draining.map(|axum::Extension(d)| d);
            return Ok(super::stream::generate(state.service.clone(), principal, *request, draining));
        }
        // the body's room in the budget goes back once the request is read, not after the model
        // answered
        Ok(Json(state.service.generate_releasing(&principal, request, room).await?).into_response())
    }
}

/// The gate on a hand-written form.
#[utoipa::path(post, path = "/api/formgen/validate", tag = "formgen", request_body = ValidateRequest,
    responses((status = 200, body = ValidateResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 421, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 408, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 500, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn validate(
    State(state): State<AppState>,
    Caller(_): Caller,
    ApiJson(request, _room): ApiJson<ValidateRequest>,
) -> Result<Json<ValidateResponse>, ApiError> {
    Ok(Json(state.service.validate(request).await?))
}

/// What a model would be shown about a process.
#[utoipa::path(post, path = "/api/formgen/outline", tag = "formgen", request_body = OutlineRequest,
    responses((status = 200, body = OutlineResponse), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 421, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 408, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody),
        (status = 500, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn outline(
    State(state): State<AppState>,
    Caller(_): Caller,
    ApiJson(request, _room): ApiJson<OutlineRequest>,
) -> Result<Json<OutlineResponse>, ApiError> {
    Ok(Json(state.service.outline(request).await?))
}

/// Liveness.
#[utoipa::path(get, path = "/healthz", tag = "operations", responses((status = 200, description = "ok"), (status = 421, body = ErrorBody)))]
pub async fn healthz() -> &'static str {
    "ok\n"
}

/// Prometheus metrics: for the principals and groups `auth.metrics` names (`tokens`, `header`), or
/// loopback (`none`); they name every Worker, so they are not for every author.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text"), (status = 401, body = ErrorBody), (status = 421, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn metrics(State(state): State<AppState>, _: MetricsReader) -> Response {
    (
        [(header::CONTENT_TYPE, "application/openmetrics-text; version=1.0.0; charset=utf-8")],
        state.service.metrics().encode(),
    )
        .into_response()
}

/// A path that exists, asked with a method it does not answer.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    let answers = match uri.path() {
        "/api/formgen/generate" | "/api/formgen/validate" | "/api/formgen/outline" => "POST",
        _ => "GET",
    };
    ApiError::new(
        Code::MethodNotAllowed,
        format!("{} answers {answers}, not {method}; /openapi.json lists every path's method", uri.path()),
    )
}

/// Any other path.
pub async fn not_found() -> ApiError {
    ApiError::new(Code::NotFound, "there is nothing at this path; the API lives under /api/formgen/")
}
