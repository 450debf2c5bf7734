//! `POST /api/formgen/generate` with a model Worker (wiremock chat-completions endpoints): a
//! generation end to end with its prompt and metrics, the repair round, refinement, every model
//! failure's status, an unresolvable credential and the concurrency limits.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common::wait::until;
use crate::http_common::{
    ANA, OPS, build, call, chat_answer, config, form_answer, generate, model_worker, vacation_xml,
};

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
        let (app, service) =
            build(&config(&model_worker("local", "chat-completions", &server.uri(), ""), limits));
        let first = {
            let app = app.clone();
            tokio::spawn(async move { generate(&app, ANA, json!({"description": "x"})).await })
        };
        // in flight only once it holds its permits
        until("the first generation to be in flight", || service.metrics().in_flight() == 1).await;
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
