//! The OpenAPI document, generated from the handlers' annotations and the API types.

use utoipa::OpenApi;

use crate::service::{
    Capability, CapabilityLimits, ErrorBody, GenerateRequest, GenerateResponse, OutlineRequest,
    OutlineResponse, ValidateRequest, ValidateResponse,
};

#[derive(OpenApi)]
#[openapi(
    info(title = "formgen", description = "First drafts of forms for BPMN processes."),
    paths(
        crate::http::handlers::capability,
        crate::http::handlers::generate,
        crate::http::handlers::validate,
        crate::http::handlers::outline,
        crate::http::handlers::healthz,
        crate::http::handlers::metrics
    ),
    components(schemas(
        Capability,
        CapabilityLimits,
        ErrorBody,
        GenerateRequest,
        GenerateResponse,
        OutlineRequest,
        OutlineResponse,
        ValidateRequest,
        ValidateResponse,
        crate::model::Usage,
        crate::workers::WorkerView,
        crate::workers::Provider,
        crate::outline::OutlineProcess,
        crate::outline::OutlineElement,
        crate::check::Finding,
        crate::check::Code,
        crate::check::Severity
    ))
)]
struct ApiDoc;

/// The document.
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    doc.info.version = env!("CARGO_PKG_VERSION").to_string();
    doc
}

/// `GET /openapi.json`: this API's OpenAPI document.
pub async fn handler() -> axum::Json<utoipa::openapi::OpenApi> {
    axum::Json(document())
}
