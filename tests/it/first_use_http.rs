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

#[tokio::test]
async fn a_wrong_method_is_405_with_a_sentence_and_a_code() {
    let app = app();
    let (status, v) = call(&app, "GET", "/api/formgen/generate", None).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::METHOD_NOT_ALLOWED, Some("method_not_allowed")),
        "{v}"
    );
    assert_eq!(
        v["error"],
        "/api/formgen/generate answers POST, not GET; /openapi.json lists every path's method."
    );
    let (status, v) = call(&app, "DELETE", "/api/formgen/capability", None).await;
    assert_eq!(
        (status, v["code"].as_str()),
        (StatusCode::METHOD_NOT_ALLOWED, Some("method_not_allowed")),
        "{v}"
    );
}

#[tokio::test]
async fn a_refinement_of_something_that_is_no_form_is_refused_as_the_cli_refuses_it() {
    let app = app();
    for schema in [json!({"foo": 1}), json!("x")] {
        let body = json!({"description": "Leave", "schema": schema});
        let (status, v) = call(&app, "POST", "/api/formgen/generate", Some(body)).await;
        assert_eq!(
            (status, v["code"].as_str()),
            (StatusCode::UNPROCESSABLE_ENTITY, Some("schema_refused")),
            "{v}"
        );
        let error = v["error"].as_str().unwrap();
        assert!(
            error.starts_with("The current form (\"schema\") is not a form the gate accepts: "),
            "{error}"
        );
        assert!(error.contains("not a form-js schema"), "the gate's sentence: {error}");
        assert_eq!(v["problems"].as_array().map(Vec::len), Some(1), "{v}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("current.form");
    std::fs::write(&path, "{\"foo\": 1}").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["generate", "-d", "Leave", "--schema", &path.to_string_lossy()])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("not a form-js schema"), "the same sentence in the CLI: {err}");
}

fn model_app(endpoint: &str) -> Router {
    let text = format!(
        "[[workers]]\nname = \"local\"\nprovider = \"chat-completions\"\nendpoint = \"{endpoint}\"\nmodel = \"m\"\ncredential = \"none\"\n"
    );
    let config = Config::parse(&text, "test", Path::new("."), false, &|_| None).unwrap();
    formgen::http::router(Arc::new(Service::new(&config).unwrap()), &config)
}

#[tokio::test]
async fn an_unreachable_model_endpoint_is_named_with_its_cause() {
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = free.local_addr().unwrap().port();
    drop(free);
    let app = model_app(&format!("http://127.0.0.1:{port}/v1?api_key=sk-secret-in-query"));
    let (status, v) =
        call(&app, "POST", "/api/formgen/generate", Some(json!({"description": "Leave"}))).await;
    assert_eq!((status, v["code"].as_str()), (StatusCode::BAD_GATEWAY, Some("model_failed")), "{v}");
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains(&format!(
            "the model endpoint 127.0.0.1:{port} could not be reached: the connection was refused"
        )),
        "{error}"
    );
    assert!(!error.contains("sk-secret") && !error.contains("/v1"), "{error}");

    // a host name that cannot resolve (`.invalid` is reserved for that)
    let app = model_app("http://formgen-test.invalid:8089/v1");
    let (_, v) = call(&app, "POST", "/api/formgen/generate", Some(json!({"description": "Leave"}))).await;
    let error = v["error"].as_str().unwrap();
    assert!(
        error.contains("formgen-test.invalid:8089 could not be reached: its host name could not be resolved"),
        "{error}"
    );

    // a plain-HTTP server asked over TLS
    let plain = wiremock::MockServer::start().await;
    let tls = plain.uri().replace("http://", "https://");
    let (_, v) =
        call(&model_app(&tls), "POST", "/api/formgen/generate", Some(json!({"description": "Leave"}))).await;
    let error = v["error"].as_str().unwrap();
    assert!(error.contains("the TLS handshake failed"), "{error}");
}

#[test]
fn one_generation_is_singular() {
    use formgen::service::{BusyScope, ServiceError};
    let busy =
        |in_flight| ServiceError::Busy { in_flight, scope: BusyScope::Service, retry_after_s: 5 }.to_string();
    assert_eq!(busy(1), "formgen is busy with 1 generation; try again in 5 s");
    assert_eq!(busy(2), "formgen is busy with 2 generations; try again in 5 s");
}
