//! What the HTTP API tests share: a token-auth configuration with three principals, the router
//! built from it, one request through it (`tower::ServiceExt::oneshot`), and the Workers and model
//! answers the tests configure.

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::{Value, json};
use sha2::Digest;
use tower::ServiceExt;
use wiremock::ResponseTemplate;

/// ana's token: a designer.
pub(crate) const ANA: &str = "ana-token";
/// bob's token: in no group.
pub(crate) const BOB: &str = "bob-token";
/// ops's token: the operator who may read the metrics.
pub(crate) const OPS: &str = "ops-token";

fn sha(token: &str) -> String {
    hex::encode(sha2::Sha256::digest(token.as_bytes()))
}

/// The vacation process fixture's text.
pub(crate) fn vacation_xml() -> String {
    std::fs::read_to_string(crate::common::fixtures().join("bpmn/vacation.bpmn")).unwrap()
}

/// A configuration with token auth (ana in "designers", bob in no group, ops reading the metrics)
/// and the given Workers.
pub(crate) fn config(workers: &str, extra: &str) -> Config {
    let text = format!(
        r#"
        [auth]
        mode = "tokens"
        metrics = ["ops"]
        [[auth.principals]]
        name = "ops"
        token_sha256 = "{}"
        [[auth.principals]]
        name = "ana"
        token_sha256 = "{}"
        groups = ["designers"]
        [[auth.principals]]
        name = "bob"
        token_sha256 = "{}"
        {extra}
        {workers}
        "#,
        sha(OPS),
        sha(ANA),
        sha(BOB)
    );
    Config::parse(&text, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"))
}

/// The service for `config` and its router.
pub(crate) fn build(config: &Config) -> (Router, Arc<Service>) {
    let service = Arc::new(Service::new(config).unwrap());
    (formgen::http::router(service.clone(), config), service)
}

/// One request through the router: its status, its body (JSON, or the text as a JSON string) and
/// its headers.
pub(crate) async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value, axum::http::HeaderMap) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b.to_string())).unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value, headers)
}

/// `POST /api/formgen/generate` with this body as this principal.
pub(crate) async fn generate(
    app: &Router,
    token: &str,
    body: Value,
) -> (StatusCode, Value, axum::http::HeaderMap) {
    call(app, "POST", "/api/formgen/generate", Some(token), Some(body)).await
}

/// A builtin Worker whom `allow` (a TOML list's items) may use; everyone when empty.
pub(crate) fn builtin_worker(name: &str, allow: &str) -> String {
    format!("[[workers]]\nname = \"{name}\"\nprovider = \"builtin\"\nallow = [{allow}]\n")
}

/// A model Worker of `provider` at `endpoint`, with no credential and `extra` settings.
pub(crate) fn model_worker(name: &str, provider: &str, endpoint: &str, extra: &str) -> String {
    format!(
        "[[workers]]\nname = \"{name}\"\nprovider = \"{provider}\"\nendpoint = \"{endpoint}\"\nmodel = \"test-model\"\ncredential = \"none\"\n{extra}\n"
    )
}

/// A chat-completions answer with this text.
pub(crate) fn chat_answer(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
}

/// A form the gate accepts: a checkbox and a comment.
pub(crate) fn form_answer() -> String {
    json!({"components": [
        {"type": "checkbox", "key": "approved", "label": "Genehmigt"},
        {"type": "textarea", "key": "comment", "label": "Kommentar"}
    ]})
    .to_string()
}

/// The names of the Workers a capability answer lists.
pub(crate) fn worker_names(v: &Value) -> Vec<String> {
    v["workers"].as_array().unwrap().iter().map(|w| w["name"].as_str().unwrap().to_string()).collect()
}
