//! The HTTP API through the router (`tower::ServiceExt::oneshot`), with wiremock model endpoints:
//! every row of DESIGN.md's status table, every principal/Worker combination of the capability probe,
//! refinement, the repair round, validate, outline and the operational endpoints.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::{Value, json};
use sha2::Digest;
use tower::ServiceExt;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const ANA: &str = "ana-token";
const BOB: &str = "bob-token";
const OPS: &str = "ops-token";

fn sha(token: &str) -> String {
    hex::encode(sha2::Sha256::digest(token.as_bytes()))
}

fn vacation_xml() -> String {
    std::fs::read_to_string(crate::common::fixtures().join("bpmn/vacation.bpmn")).unwrap()
}

/// A configuration with token auth (ana in "designers", bob in no group, ops reading the metrics)
/// and the given Workers.
fn config(workers: &str, extra: &str) -> Config {
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

fn build(config: &Config) -> (Router, Arc<Service>) {
    let service = Arc::new(Service::new(config).unwrap());
    (formgen::http::router(service.clone(), config), service)
}

async fn call(
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

async fn generate(app: &Router, token: &str, body: Value) -> (StatusCode, Value, axum::http::HeaderMap) {
    call(app, "POST", "/api/formgen/generate", Some(token), Some(body)).await
}

fn builtin_worker(name: &str, allow: &str) -> String {
    format!("[[workers]]\nname = \"{name}\"\nprovider = \"builtin\"\nallow = [{allow}]\n")
}

fn model_worker(name: &str, provider: &str, endpoint: &str, extra: &str) -> String {
    format!(
        "[[workers]]\nname = \"{name}\"\nprovider = \"{provider}\"\nendpoint = \"{endpoint}\"\nmodel = \"test-model\"\ncredential = \"none\"\n{extra}\n"
    )
}

/// A chat-completions answer with this text.
fn chat_answer(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
}

fn form_answer() -> String {
    json!({"components": [
        {"type": "checkbox", "key": "approved", "label": "Genehmigt"},
        {"type": "textarea", "key": "comment", "label": "Kommentar"}
    ]})
    .to_string()
}

/// The names of the Workers a capability answer lists.
fn worker_names(v: &Value) -> Vec<String> {
    v["workers"].as_array().unwrap().iter().map(|w| w["name"].as_str().unwrap().to_string()).collect()
}

// ---- capability ------------------------------------------------------------------------------------

#[tokio::test]
async fn capability_lists_exactly_the_permitted_workers() {
    let workers = [
        builtin_worker("everyone", ""),
        builtin_worker("designers-only", "\"group:designers\""),
        builtin_worker("bob-only", "\"bob\""),
    ]
    .concat();
    let (app, _) = build(&config(&workers, ""));
    let (status, body, _) = call(&app, "GET", "/api/formgen/capability", Some(ANA), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(worker_names(&body), ["everyone", "designers-only"]);
    assert_eq!(body["available"], true);
    assert_eq!(body["workers"][0], json!({"name": "everyone", "model": "outline", "provider": "builtin"}));
    assert!(body["limits"]["descriptionChars"].as_u64().unwrap() > 0);
    let (_, body, _) = call(&app, "GET", "/api/formgen/capability", Some(BOB), None).await;
    assert_eq!(worker_names(&body), ["everyone", "bob-only"]);
    let (status, body, headers) = call(&app, "GET", "/api/formgen/capability", None, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("unauthenticated")));
    assert_eq!(headers["www-authenticate"], "Bearer");
    let (status, body, _) = call(&app, "GET", "/api/formgen/capability", Some("stolen"), None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("unknown_principal")));

    // no Worker in reach: the button should not be drawn
    let (app, _) = app_for(&config(&builtin_worker("designers-only", "\"group:designers\""), ""));
    let (_, body, _) = call(&app, "GET", "/api/formgen/capability", Some(BOB), None).await;
    assert_eq!((body["available"].as_bool(), body["workers"].as_array().unwrap().len()), (Some(false), 0));
    let (status, body, _) = generate(&app, BOB, json!({"description": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("no_worker")));
}

fn app_for(c: &Config) -> (Router, Arc<Service>) {
    build(c)
}

#[tokio::test]
async fn choosing_a_worker() {
    let workers =
        [builtin_worker("a", ""), builtin_worker("b", ""), builtin_worker("secret-b", "\"group:ops\"")]
            .concat();
    let (app, _) = build(&config(&workers, ""));
    let (status, body, _) = generate(&app, ANA, json!({"description": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("worker_required")));
    assert!(body["error"].as_str().unwrap().contains("(a, b)"), "{body}");
    // a Worker this principal may not use answers exactly like a missing one: no names to enumerate
    let (status, hidden, _) = generate(&app, ANA, json!({"description": "x", "worker": "secret-b"})).await;
    assert_eq!((status, hidden["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_worker")));
    assert_eq!(hidden["error"], "There is no Worker named \"secret-b\".");
    let (status, body, _) = generate(&app, ANA, json!({"description": "x", "worker": "gpt"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_worker")));
    assert_eq!(body["error"], "There is no Worker named \"gpt\".");
    assert_eq!(hidden["error"].as_str().unwrap().replace("secret-b", "gpt"), body["error"]);
    let (status, body, _) = generate(&app, ANA, json!({"description": "x", "worker": "b"})).await;
    assert_eq!((status, body["worker"].as_str()), (StatusCode::OK, Some("b")));
}

// ---- generate: sources, statuses ---------------------------------------------------------------------

#[tokio::test]
async fn generate_with_the_builtin_worker_from_the_request_and_the_store() {
    let store = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(store.path().join("deployed")).unwrap();
    std::fs::create_dir_all(store.path().join("drafts")).unwrap();
    std::fs::copy(
        crate::common::fixtures().join("bpmn/vacation.bpmn"),
        store.path().join("deployed/vacation.bpmn"),
    )
    .unwrap();
    let extra = format!("[processes]\ndir = \"{}\"", store.path().display());
    let (app, _) = build(&config(&builtin_worker("builtin", ""), &extra));

    let (status, body, headers) = generate(
        &app,
        ANA,
        json!({"processXml": vacation_xml(), "elementId": "Task_approve", "formId": "approve-vacation"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(headers.contains_key("x-request-id"));
    assert_eq!(body["schema"]["id"], "approve-vacation");
    assert_eq!(
        (body["processSource"].as_str(), body["processId"].as_str()),
        (Some("request"), Some("vacation-request"))
    );
    assert_eq!(
        (body["elementId"].as_str(), body["worker"].as_str(), body["model"].as_str()),
        (Some("Task_approve"), Some("builtin"), Some("outline"))
    );
    assert_eq!((body["usage"]["inputTokens"].as_u64(), body["attempts"].as_u64()), (Some(0), Some(1)));

    let (_, body, _) =
        generate(&app, ANA, json!({"processXml": vacation_xml(), "elementId": "Task_hr"})).await;
    assert_eq!(body["schema"]["id"], "vacation-request-Task_hr", "a new form gets an id no other step binds");
    let (status, body, _) =
        generate(&app, ANA, json!({"processId": "vacation-request", "elementId": "Task_approve"})).await;
    assert_eq!((status, body["processSource"].as_str()), (StatusCode::OK, Some("deployment")));
    assert_eq!(body["schema"]["id"], "approve-vacation", "the id the step already binds");
    std::fs::copy(
        crate::common::fixtures().join("bpmn/vacation.bpmn"),
        store.path().join("drafts/vacation-v2.bpmn"),
    )
    .unwrap();
    let (_, body, _) = generate(&app, ANA, json!({"processId": "vacation-request"})).await;
    assert_eq!(body["processSource"], "draft", "a draft wins over the deployment, without a restart");

    let (status, body, _) = generate(&app, ANA, json!({"processId": "nope"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_process")));
    assert!(body["error"].as_str().unwrap().contains("\"nope\""));
    let (status, body, _) =
        generate(&app, ANA, json!({"processXml": vacation_xml(), "elementId": "Task_nope"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_element")));
    assert!(body["error"].as_str().unwrap().contains("\"Task_nope\""));

    // a description alone is a complete request; a draft that does not parse still gets a form
    let (status, body, _) = generate(&app, ANA, json!({"description": "Reisekostenabrechnung"})).await;
    assert_eq!((status, body["processSource"].as_str()), (StatusCode::OK, Some("")));
    let (status, body, _) =
        generate(&app, ANA, json!({"description": "Expenses", "processXml": "<not bpmn"})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["warnings"][0].as_str().unwrap().contains("could not be read"));

    let (status, body, _) = generate(&app, ANA, json!({})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("brief_required")));
}

#[tokio::test]
async fn bad_bodies_are_400_with_a_sentence() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let req = Request::post("/api/formgen/generate")
        .header("authorization", format!("Bearer {ANA}"))
        .header("content-type", "application/json")
        .body(Body::from("{\"description\": "))
        .unwrap();
    let response = app.clone().oneshot(req).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let (status, body, _) = generate(&app, ANA, json!({"descripton": "typo"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    assert!(body["error"].as_str().unwrap().contains("unknown field `descripton`"), "{body}");
    let req = Request::post("/api/formgen/generate")
        .header("authorization", format!("Bearer {ANA}"))
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, body, _) = call(&app, "GET", "/nope", None, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}

#[tokio::test]
async fn limits_are_413() {
    let extra =
        "[limits]\ndescription_chars = 10\nbpmn_bytes = 2000\nschema_bytes = 100\nrequest_body_bytes = 50000";
    let (app, _) = build(&config(&builtin_worker("builtin", ""), extra));
    let (status, body, _) = generate(&app, ANA, json!({"description": "a".repeat(11)})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("description_too_long"))
    );
    assert!(body["error"].as_str().unwrap().contains("11 characters"), "{body}");
    let (status, body, _) = generate(&app, ANA, json!({"processXml": vacation_xml()})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("bpmn_too_large")));
    let big_form = json!({"components": [{"type": "textfield", "key": "a", "label": "x".repeat(200)}]});
    let (status, body, _) = generate(&app, ANA, json!({"description": "x", "schema": big_form})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("schema_too_large")));
    let (status, body, _) = generate(&app, ANA, json!({"description": "x".repeat(60_000)})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("body_too_large")));
    // a 2 GB length claim is refused before a byte of it is read
    let req = Request::post("/api/formgen/generate")
        .header("authorization", format!("Bearer {ANA}"))
        .header("content-type", "application/json")
        .header("content-length", "2147483648")
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::PAYLOAD_TOO_LARGE);
}

// ---- generate with a model -------------------------------------------------------------------------

#[tokio::test]
async fn a_model_generation_end_to_end() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(chat_answer(&form_answer()))
        .expect(1)
        .mount(&server)
        .await;
    let worker = model_worker("local", "chat-completions", &format!("{}/v1", server.uri()), "");
    let (app, service) = build(&config(&worker, ""));
    let (status, body, _) = generate(
        &app,
        ANA,
        json!({"description": "Genehmigung mit Kommentar", "processXml": vacation_xml(), "elementId": "Task_approve", "model": "bigger-model"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!((body["model"].as_str(), body["attempts"].as_u64()), (Some("bigger-model"), Some(1)));
    assert_eq!(body["usage"], json!({"inputTokens": 100, "outputTokens": 20}));
    assert_eq!(body["schema"]["id"], "approve-vacation");
    let sent: Value = serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    assert_eq!(sent["model"], "bigger-model");
    let user = sent["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("<<<DATA\nGenehmigung mit Kommentar\nDATA>>>"), "{user}");
    assert!(
        user.contains("The form is for the step \"Antrag prüfen\""),
        "the process text is in the prompt: {user}"
    );
    assert!(sent["response_format"]["json_schema"]["schema"]["$defs"]["component"].is_object());
    assert_eq!(service.metrics().in_flight(), 0);
    let (status, _, _) = call(&app, "GET", "/metrics", None, None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "the metrics name Workers: operators only");
    let (status, _, _) = call(&app, "GET", "/metrics", Some(ANA), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "ana is no operator");
    let (_, metrics, _) = call(&app, "GET", "/metrics", Some(OPS), None).await;
    let metrics = metrics.as_str().unwrap().to_string();
    assert!(metrics.contains("formgen_generations_total{worker=\"local\",outcome=\"ok\"} 1"), "{metrics}");
    assert!(
        metrics.contains("formgen_model_tokens_total{worker=\"local\",direction=\"input\"} 100"),
        "{metrics}"
    );
    assert!(metrics.contains("formgen_model_latency_seconds_count{worker=\"local\"} 1"), "{metrics}");
}

#[tokio::test]
async fn the_repair_round_and_an_unusable_answer() {
    let server = MockServer::start().await;
    let secret_form =
        json!({"components": [{"type": "textfield", "key": "pw", "label": "Password"}]}).to_string();
    Mock::given(method("POST")).respond_with(chat_answer(&secret_form)).up_to_n_times(1).mount(&server).await;
    Mock::given(method("POST")).respond_with(chat_answer(&form_answer())).mount(&server).await;
    let (app, _) = build(&config(&model_worker("local", "chat-completions", &server.uri(), ""), ""));
    let (status, body, _) = generate(&app, ANA, json!({"description": "Login form"})).await;
    assert_eq!((status, body["attempts"].as_u64()), (StatusCode::OK, Some(2)), "{body}");
    assert_eq!(body["usage"]["inputTokens"], 200, "usage counts both calls");
    let requests = server.received_requests().await.unwrap();
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    let repair = second["messages"][1]["content"].as_str().unwrap();
    assert!(repair.contains("asks for a secret"), "the refusal goes back to the model: {repair}");
    assert!(repair.contains("Login form"), "with the original request");

    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(chat_answer("I cannot do that.")).mount(&server).await;
    let (app, _) = build(&config(&model_worker("local", "chat-completions", &server.uri(), ""), ""));
    let (status, body, _) = generate(&app, ANA, json!({"description": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_GATEWAY, Some("unusable_answer")));
    assert!(body["error"].as_str().unwrap().contains("holds no JSON form"), "{body}");
    assert_eq!(server.received_requests().await.unwrap().len(), 2, "exactly one repair round");
}

#[tokio::test]
async fn refinement_keeps_the_authors_ids_and_says_what_changed() {
    let server = MockServer::start().await;
    let revised = json!({"type": "default", "components": [
        {"type": "checkbox", "key": "approved", "label": "Genehmigt", "id": "Field_new1"},
        {"type": "textarea", "key": "comment", "label": "Begründung", "id": "Field_new2"},
        {"type": "number", "key": "urlaubstage", "label": "Urlaubstage"}
    ]});
    Mock::given(method("POST")).respond_with(chat_answer(&revised.to_string())).mount(&server).await;
    let (app, _) = build(&config(&model_worker("local", "chat-completions", &server.uri(), ""), ""));
    let current = json!({"type": "default", "id": "approve-vacation", "components": [
        {"type": "checkbox", "key": "approved", "label": "Genehmigt", "id": "Field_a"},
        {"type": "textarea", "key": "comment", "label": "Kommentar", "id": "Field_c"},
        {"type": "text", "text": "Bitte prüfen", "id": "Field_t"}
    ]});
    let (status, body, _) = generate(
        &app,
        ANA,
        json!({"description": "Begründung statt Kommentar, Urlaubstage anzeigen", "processXml": vacation_xml(), "elementId": "Task_approve", "schema": current}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let cs = body["schema"]["components"].as_array().unwrap();
    assert_eq!((cs[0]["id"].as_str(), cs[1]["id"].as_str()), (Some("Field_a"), Some("Field_c")));
    assert_eq!(body["schema"]["id"], "approve-vacation", "the current form's id stays");
    let warnings =
        body["warnings"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect::<Vec<_>>();
    assert!(
        warnings
            .contains(&"The revision changed \"Kommentar\" (comment): label \"Kommentar\" → \"Begründung\"."),
        "{warnings:?}"
    );
    assert!(warnings.contains(&"The revision added \"Urlaubstage\" (urlaubstage)."), "{warnings:?}");
    assert!(warnings.contains(&"The revision removed \"Bitte prüfen\"."), "{warnings:?}");
    let sent: Value = serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    assert!(
        sent["messages"][1]["content"].as_str().unwrap().contains("\"Field_c\""),
        "the current form is sent"
    );
}

#[tokio::test]
async fn model_failures_map_to_statuses() {
    let cases: Vec<(ResponseTemplate, StatusCode, &str)> = vec![
        (ResponseTemplate::new(500), StatusCode::BAD_GATEWAY, "model_failed"),
        (ResponseTemplate::new(401), StatusCode::BAD_GATEWAY, "model_credential_refused"),
        (
            ResponseTemplate::new(429).insert_header("retry-after", "42"),
            StatusCode::TOO_MANY_REQUESTS,
            "model_rate_limited",
        ),
        (
            ResponseTemplate::new(200).set_body_json(
                json!({"choices": [{"message": {"content": "{\"comp"}, "finish_reason": "length"}]}),
            ),
            StatusCode::BAD_GATEWAY,
            "model_answer_truncated",
        ),
        (
            ResponseTemplate::new(200).set_delay(Duration::from_secs(10)),
            StatusCode::GATEWAY_TIMEOUT,
            "model_timeout",
        ),
    ];
    for (template, status, code) in cases {
        let server = MockServer::start().await;
        Mock::given(method("POST")).respond_with(template).mount(&server).await;
        let (app, service) =
            build(&config(&model_worker("local", "chat-completions", &server.uri(), "timeout_s = 1"), ""));
        let (got, body, headers) = generate(&app, ANA, json!({"description": "x"})).await;
        assert_eq!((got, body["code"].as_str()), (status, Some(code)), "{body}");
        assert!(body["error"].as_str().unwrap().starts_with("The Worker \"local\""), "{body}");
        if code == "model_rate_limited" {
            assert_eq!(headers["retry-after"], "42");
        }
        assert_eq!(service.metrics().in_flight(), 0);
    }
}

#[tokio::test]
async fn an_unresolvable_credential_is_503_naming_the_reference() {
    let worker = "[[workers]]\nname = \"claude\"\nprovider = \"messages\"\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\ncredential = \"env:FORMGEN_TEST_NOT_SET_ANYWHERE\"\n";
    let (app, _) = build(&config(worker, ""));
    let (status, body, _) = generate(&app, ANA, json!({"description": "x"})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("credential_unavailable"))
    );
    assert!(body["error"].as_str().unwrap().contains("env:FORMGEN_TEST_NOT_SET_ANYWHERE"), "{body}");
}

#[tokio::test]
async fn past_the_concurrency_limit_is_429_with_retry_after() {
    for (limits, scope) in [
        ("[limits]\nconcurrent_generations = 1", "busy with 1 generation;"),
        ("[limits]\nconcurrent_per_worker = 1", "on this Worker"),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(chat_answer(&form_answer()).set_delay(Duration::from_millis(800)))
            .mount(&server)
            .await;
        let (app, _) = build(&config(&model_worker("local", "chat-completions", &server.uri(), ""), limits));
        let first = {
            let app = app.clone();
            tokio::spawn(async move { generate(&app, ANA, json!({"description": "x"})).await })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (status, body, headers) = generate(&app, ANA, json!({"description": "y"})).await;
        assert_eq!(
            (status, body["code"].as_str()),
            (StatusCode::TOO_MANY_REQUESTS, Some("too_many_generations"))
        );
        assert!(body["error"].as_str().unwrap().contains(scope), "{body}");
        assert_eq!(headers["retry-after"], "5");
        assert_eq!(first.await.unwrap().0, StatusCode::OK);
    }
}

// ---- validate, outline, operations -----------------------------------------------------------------

#[tokio::test]
async fn validate_accepts_or_lists_every_problem() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let ok = json!({"schema": {"components": [{"type": "number", "key": "vacationDays", "label": "Vacation days"}]}, "formId": "f", "processXml": vacation_xml()});
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(ok)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["schema"]["id"], "f");
    assert!(body["warnings"][0].as_str().unwrap().contains("`urlaubstage`"), "{body}");
    let bad = json!({"text": "```json\n{\"components\":[{\"type\":\"textfield\",\"key\":\"pw\",\"label\":\"Password\"},{\"type\":\"number\",\"key\":\"n\",\"label\":\"N\",\"validate\":{\"min\":2,\"max\":1}}]}\n```"});
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(bad)).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("schema_refused")));
    let problems = body["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{body}");
    assert!(problems[0].as_str().unwrap().starts_with("The field \"Password\""));
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(json!({}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("form_required")));
}

#[tokio::test]
async fn outline_shows_what_leaves_the_building() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let (status, body, _) = call(
        &app,
        "POST",
        "/api/formgen/outline",
        Some(ANA),
        Some(json!({"processXml": vacation_xml(), "elementId": "Task_approve"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["process"]["id"], "vacation-request");
    assert_eq!(body["process"]["elements"][0]["formId"], "vacation-request-form");
    assert!(body["text"].as_str().unwrap().contains("The form is for the step \"Antrag prüfen\""));
    assert_eq!(body["processSource"], "request");
    assert_eq!(body["step"]["elementId"], "Task_approve");
    assert_eq!(body["step"]["decidedOn"][0]["name"], "approved");
    assert!(body["text"].as_str().unwrap().contains("The data at this step:"));
    let (status, _, _) = call(&app, "POST", "/api/formgen/outline", Some(ANA), Some(json!({}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // the editor's forms are read as the process's project, and bounded
    let sibling = json!({"id": "other", "components": [{"type": "textfield", "key": "vertretung", "label": "Stellvertretung"}]});
    let (status, body, _) = call(
        &app,
        "POST",
        "/api/formgen/outline",
        Some(ANA),
        Some(json!({"processXml": vacation_xml(), "elementId": "Task_approve", "forms": [sibling]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["text"].as_str().unwrap().contains("Stellvertretung"), "{}", body["text"]);
    let many: Vec<Value> = (0..201).map(|i| json!({"id": format!("f{i}"), "components": []})).collect();
    let (status, body, _) = call(
        &app,
        "POST",
        "/api/formgen/outline",
        Some(ANA),
        Some(json!({"processXml": vacation_xml(), "forms": many})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("project_too_large")),
        "{body}"
    );
}

#[tokio::test]
async fn operations_endpoints() {
    let (app, _) = build(&config(
        &builtin_worker("builtin", ""),
        "[server]\ncors_origins = [\"http://localhost:8081\"]",
    ));
    let (status, body, headers) = call(&app, "GET", "/healthz", None, None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, Some("ok\n")));
    assert!(headers["x-request-id"].to_str().unwrap().len() > 8);
    let (status, doc, _) = call(&app, "GET", "/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    for p in
        ["/api/formgen/capability", "/api/formgen/generate", "/api/formgen/validate", "/api/formgen/outline"]
    {
        assert!(doc["paths"][p].is_object(), "{p} missing from the OpenAPI document");
    }
    assert!(doc["components"]["schemas"]["GenerateRequest"]["properties"]["processXml"].is_object());

    let preflight = Request::builder()
        .method("OPTIONS")
        .uri("/api/formgen/generate")
        .header("origin", "http://localhost:8081")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,authorization")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(preflight).await.unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "http://localhost:8081");
    let other = Request::builder()
        .method("OPTIONS")
        .uri("/api/formgen/generate")
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(other).await.unwrap();
    assert!(response.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn the_built_page_is_served_at_the_root_when_there_is_one() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>formgen</title>").unwrap();
    std::fs::write(web.path().join("app.js"), "console.log('formgen')").unwrap();
    let extra = format!("[server]\nweb_dir = \"{}\"", web.path().display());
    let (app, _) = build(&config(&builtin_worker("builtin", ""), &extra));
    let (status, body, _) = call(&app, "GET", "/", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().contains("<title>formgen</title>"));
    let (status, body, _) = call(&app, "GET", "/app.js", None, None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, Some("console.log('formgen')")));
    let (status, body, _) = call(&app, "GET", "/api/formgen/capability", Some(ANA), None).await;
    assert_eq!((status, body["available"].as_bool()), (StatusCode::OK, Some(true)), "the API is unchanged");

    // not built: the service runs without it
    let (app, _) =
        build(&config(&builtin_worker("builtin", ""), "[server]\nweb_dir = \"/nonexistent/dist\""));
    let (status, body, _) = call(&app, "GET", "/", None, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}

#[tokio::test]
async fn header_mode_believes_only_the_trusted_proxy() {
    use axum::extract::connect_info::MockConnectInfo;
    let text = format!(
        "[auth]\nmode = \"header\"\ntrusted_proxies = [\"10.0.0.5\"]\n{}{}",
        builtin_worker("everyone", ""),
        builtin_worker("designers-only", "\"group:designers\"")
    );
    let cfg = Config::parse(&text, "test", Path::new("."), false, &|_| None).unwrap();
    let (app, _) = build(&cfg);
    let from =
        |ip: &str| app.clone().layer(MockConnectInfo(std::net::SocketAddr::new(ip.parse().unwrap(), 40000)));
    let request = |user: &str, groups: &str| {
        Request::get("/api/formgen/capability")
            .header("x-forwarded-user", user)
            .header("x-forwarded-groups", groups)
            .body(Body::empty())
            .unwrap()
    };
    let read = |r: axum::response::Response| async move {
        let status = r.status();
        let bytes = axum::body::to_bytes(r.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice::<Value>(&bytes).unwrap())
    };
    let (status, body) =
        read(from("10.0.0.5").oneshot(request("ana", "ops, designers")).await.unwrap()).await;
    assert_eq!(
        (status, worker_names(&body)),
        (StatusCode::OK, vec!["everyone".to_string(), "designers-only".to_string()])
    );
    let (_, body) = read(from("10.0.0.5").oneshot(request("bob", "")).await.unwrap()).await;
    assert_eq!(worker_names(&body), ["everyone"]);
    let (status, body) = read(from("10.0.0.6").oneshot(request("ana", "designers")).await.unwrap()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("unknown_principal")),
        "not the proxy"
    );
    let no_user = Request::get("/api/formgen/capability").body(Body::empty()).unwrap();
    let (status, _) = read(from("10.0.0.5").oneshot(no_user).await.unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// A form the gate works on for seconds in a debug build (it is linear, so it takes many fields).
fn huge_form() -> Value {
    let components: Vec<Value> = (0..50_000)
        .map(|i| json!({"type": "textfield", "key": format!("field{i}"), "label": format!("Field {i}")}))
        .collect();
    json!({"schema": {"components": components}})
}

const HUGE_LIMITS: &str =
    "schema_bytes = 200000000\nrequest_body_bytes = 200000000\nbodies_in_flight_bytes = 400000000";

/// One runtime thread: were the gate on it, `/healthz` could not answer until the gate was done.
#[tokio::test(flavor = "current_thread")]
async fn the_gate_runs_off_the_async_threads() {
    let (app, _) = build(&config(
        &builtin_worker("builtin", ""),
        &format!("[limits]\ngate_seconds = 120\n{HUGE_LIMITS}"),
    ));
    let validate = tokio::spawn({
        let app = app.clone();
        async move { call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(huge_form())).await }
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    let started = std::time::Instant::now();
    let (status, _, _) = call(&app, "GET", "/healthz", None, None).await;
    let waited = started.elapsed();
    assert_eq!(status, StatusCode::OK);
    assert!(!validate.is_finished(), "the validate was still at work while healthz answered");
    assert!(waited < Duration::from_secs(2), "healthz waited {waited:?}");
    let (status, body, _) = validate.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{}", body["error"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gate_stops_at_its_time() {
    let (app, _) =
        build(&config(&builtin_worker("builtin", ""), &format!("[limits]\ngate_seconds = 1\n{HUGE_LIMITS}")));
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(huge_form())).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("gate_timeout")),
        "{body}"
    );
}
