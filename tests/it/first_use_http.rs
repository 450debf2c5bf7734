//! What a new user runs into (issue 14), through the router: the same refusals the CLI gives, as
//! `{error, code}` bodies with the status of `http::error`'s table.

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::{Value, json};
use tower::ServiceExt;

fn app() -> Router {
    let config = Config::parse(
        "[[workers]]\nname = \"builtin\"\nprovider = \"builtin\"\n",
        "test",
        Path::new("."),
        false,
        &|_| None,
    )
    .unwrap();
    formgen::http::router(Arc::new(Service::new(&config).unwrap()), &config)
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let req = Request::builder().method(method).uri(uri);
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b.to_string())).unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::String(String::from_utf8_lossy(&bytes).into())))
}

fn thin_xml() -> String {
    std::fs::read_to_string(crate::common::fixtures().join("cli/thin.bpmn")).unwrap()
}

#[tokio::test]
async fn no_bpmn_with_a_step_named_is_refused() {
    let app = app();
    let body = json!({"processXml": "Meeting notes, not BPMN", "elementId": "Task_approve"});
    let (status, v) = call(&app, "POST", "/api/formgen/generate", Some(body)).await;
    assert_eq!((status, v["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("not_bpmn")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("holds no BPMN process"), "{v}");
    let (status, v) = call(
        &app,
        "POST",
        "/api/formgen/generate",
        Some(json!({"processXml": "Meeting notes", "description": "Leave"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(!v["warnings"].to_string().contains("whole brief"), "{v}");
}

#[tokio::test]
async fn a_flow_or_a_gateway_has_no_form() {
    let app = app();
    for element in ["Flow_1", "Gateway_ok"] {
        let body = json!({"processXml": thin_xml(), "elementId": element});
        let (status, v) = call(&app, "POST", "/api/formgen/generate", Some(body)).await;
        assert_eq!((status, v["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("not_a_form_step")));
        let error = v["error"].as_str().unwrap();
        assert!(
            error.contains("Task_look (\"Have a look\")") && error.contains("which has no form"),
            "{error}"
        );
    }
}
