//! Every field bounded and one deadline: string fields over their caps are refused before anything
//! reads them (nothing goes upstream), a generation is admitted before its BPMN is parsed, and one
//! deadline covers every attempt of a generation, the repair round included.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::{Value, json};
use tower::ServiceExt;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common::raw_server::{Behaviour, RawServer};

fn app(toml: &str) -> (Router, Arc<Service>) {
    let config =
        Config::parse(toml, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"));
    let service = Arc::new(Service::new(&config).unwrap());
    (formgen::http::router(service.clone(), &config), service)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::post(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn chat_worker(endpoint: &str, extra: &str) -> String {
    format!(
        "[[workers]]\nname = \"m\"\nprovider = \"chat-completions\"\nendpoint = \"{endpoint}\"\nmodel = \"m\"\n{extra}\n"
    )
}

#[tokio::test]
async fn every_string_field_is_capped_before_anything_reads_it() {
    let model = MockServer::start().await;
    Mock::given(method("POST")).respond_with(ResponseTemplate::new(500)).mount(&model).await;
    let (app, _) = app(&chat_worker(&model.uri(), ""));
    let cases = [
        (
            json!({"description": "x", "model": "m".repeat(5 * 1024 * 1024)}),
            "model",
            "FORMGEN_LIMIT_MODEL_CHARS",
        ),
        (json!({"description": "x", "formId": "f".repeat(300)}), "formId", "FORMGEN_LIMIT_FORM_ID_CHARS"),
        (json!({"description": "x", "worker": "w".repeat(200)}), "worker", "FORMGEN_LIMIT_WORKER_CHARS"),
        (
            json!({"description": "x", "elementId": "e".repeat(300)}),
            "elementId",
            "FORMGEN_LIMIT_ELEMENT_ID_CHARS",
        ),
        (
            json!({"description": "x", "processId": "p".repeat(300)}),
            "processId",
            "FORMGEN_LIMIT_PROCESS_ID_CHARS",
        ),
    ];
    for (body, field, var) in cases {
        let (status, answer) = post(&app, "/api/formgen/generate", body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::PAYLOAD_TOO_LARGE, Some("field_too_long"))
        );
        let sentence = answer["error"].as_str().unwrap();
        assert!(sentence.starts_with(&format!("\"{field}\" is ")) && sentence.contains(var), "{sentence}");
    }
    let (status, answer) = post(&app, "/api/formgen/outline", json!({"processId": "p".repeat(300)})).await;
    assert_eq!((status, answer["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("field_too_long")));
    let (status, answer) =
        post(&app, "/api/formgen/validate", json!({"schema": {"components": []}, "formId": "f".repeat(300)}))
            .await;
    assert_eq!((status, answer["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("field_too_long")));
    let (status, answer) =
        post(&app, "/api/formgen/generate", json!({"description": "x", "model": "a b\nc"})).await;
    assert_eq!((status, answer["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")), "{answer}");
    assert!(model.received_requests().await.unwrap().is_empty(), "nothing went upstream");
    // at the cap is fine (and goes upstream)
    let (_, answer) =
        post(&app, "/api/formgen/generate", json!({"description": "x", "model": "m".repeat(128)})).await;
    assert_eq!(answer["code"], "model_failed", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_is_admitted_before_its_process_is_read() {
    let silent = RawServer::start(Behaviour::Silent).await;
    let (app, service) =
        app(&format!("[limits]\nconcurrent_generations = 1\n{}", chat_worker(&silent.url, "")));
    let busy = tokio::spawn({
        let app = app.clone();
        async move { post(&app, "/api/formgen/generate", json!({"description": "x"})).await }
    });
    crate::common::wait::until("the first generation to be in flight", || service.metrics().in_flight() > 0)
        .await;
    // an unknown process would be a 404 once looked up: refused first, it is a 429
    for (uri, body) in [
        ("/api/formgen/generate", json!({"description": "x", "processId": "nope"})),
        ("/api/formgen/outline", json!({"processId": "nope"})),
    ] {
        let (status, answer) = post(&app, uri, body).await;
        assert_eq!(
            (status, answer["code"].as_str()),
            (StatusCode::TOO_MANY_REQUESTS, Some("too_many_generations"))
        );
    }
    let (status, _) =
        post(&app, "/api/formgen/validate", json!({"schema": {"components": []}, "processId": "nope"})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    busy.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_deadline_covers_the_repair_round() {
    let model = MockServer::start().await;
    let garbage = json!({"choices": [{"message": {"content": "no form here"}, "finish_reason": "stop"}]});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(garbage).set_delay(Duration::from_secs(4)))
        .mount(&model)
        .await;
    let (app, service) = app(&chat_worker(&model.uri(), "timeout_s = 5"));
    let capability = service.capability(&formgen::auth::Principal::default());
    assert_eq!(capability.limits.model_timeout_s, 5, "capability reports the generation's deadline");
    let started = Instant::now();
    let (status, answer) = post(&app, "/api/formgen/generate", json!({"description": "x"})).await;
    let after = started.elapsed();
    eprintln!(
        "FIGURE a 4 s model answering garbage with a 5 s deadline: answered {status} after {:.2} s",
        after.as_secs_f64()
    );
    assert_eq!(
        (status, answer["code"].as_str()),
        (StatusCode::GATEWAY_TIMEOUT, Some("model_timeout")),
        "{answer}"
    );
    assert!(answer["error"].as_str().unwrap().contains("within 5 s"), "{answer}");
    assert_eq!(model.received_requests().await.unwrap().len(), 2, "the repair round was asked");
    assert!(after >= Duration::from_millis(4_900) && after < Duration::from_millis(5_600), "{after:?}");
}
