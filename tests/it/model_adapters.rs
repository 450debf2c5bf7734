//! The two model wire formats against wiremock doubles: the exact request each sends, and the mapping
//! of every failure to its error. A hand-rolled peer covers an endless body and a silent server.

use std::time::{Duration, Instant};

use crate::common::raw_server::{Behaviour, RawServer};
use crate::common::wait::until;
use formgen::credentials::CredentialRef;
use formgen::model::{self, Bounds, ModelError, ModelRequest, StopReason, Usage};
use formgen::redact::Redactor;
use formgen::workers::{ModelWorker, Wire};
use secrecy::SecretString;
use serde_json::{Value, json};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn worker(wire: Wire, endpoint: &str) -> ModelWorker {
    ModelWorker {
        credential: CredentialRef::Env("UNUSED".into()),
        ..ModelWorker::new(wire, endpoint.parse().unwrap())
    }
}

fn request(schema: Option<Value>) -> ModelRequest {
    ModelRequest {
        model: "override-model".into(),
        system: "You write forms.".into(),
        user: "A vacation request form.".into(),
        max_tokens: 321,
        json_schema: schema.map(std::sync::Arc::new),
        temperature: None,
    }
}

fn bounds() -> Bounds {
    Bounds { timeout: Duration::from_secs(5), answer_bytes: 64 * 1024 }
}

fn key() -> SecretString {
    SecretString::from("sk-test-0123456789")
}

fn schema() -> Value {
    json!({"type": "object", "properties": {"components": {"type": "array"}}, "required": ["components"]})
}

async fn call(
    provider: Wire,
    server: &str,
    schema: Option<Value>,
    b: Bounds,
) -> Result<model::ModelAnswer, ModelError> {
    let k = key();
    model::call(
        &model::client(),
        &worker(provider, server),
        Some(&k),
        &request(schema),
        b,
        &Redactor::default(),
    )
    .await
}

// ---- messages ------------------------------------------------------------------------------------

#[tokio::test]
async fn messages_sends_the_exact_request_with_a_forced_tool() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(header("x-api-key", "sk-test-0123456789"))
        .and(header("anthropic-version", "2023-06-01"))
        .and(header("content-type", "application/json"))
        .and(body_json(json!({
            "model": "override-model",
            "max_tokens": 321,
            "system": "You write forms.",
            "messages": [{"role": "user", "content": "A vacation request form."}],
            "tools": [{"name": "submit_form", "description": "Submit the complete form-js form.", "input_schema": schema()}],
            "tool_choice": {"type": "tool", "name": "submit_form"}
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "msg_1", "type": "message", "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "submit_form", "input": {"components": []}}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 120, "output_tokens": 30}
        })))
        .expect(1)
        .mount(&server)
        .await;
    let answer = call(Wire::Messages, &server.uri(), Some(schema()), bounds()).await.unwrap();
    assert_eq!(answer.text, r#"{"components":[]}"#);
    assert_eq!((answer.usage.input_tokens, answer.usage.output_tokens), (120, 30));
    assert_eq!(answer.stop, StopReason::Complete);
}

#[tokio::test]
async fn messages_plain_text_without_structured_output() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(body_json(json!({
            "model": "override-model",
            "max_tokens": 321,
            "system": "You write forms.",
            "messages": [{"role": "user", "content": "A vacation request form."}]
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "content": [{"type": "text", "text": "```json\n{\"components\":[]}\n```"}],
            "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 2}
        })))
        .expect(1)
        .mount(&server)
        .await;
    let answer = call(Wire::Messages, &server.uri(), None, bounds()).await.unwrap();
    assert!(answer.text.contains("components"));
}

// ---- chat-completions -------------------------------------------------------------------------------

#[tokio::test]
async fn chat_sends_the_exact_request_with_json_schema() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(header("authorization", "Bearer sk-test-0123456789"))
        .and(body_json(json!({
            "model": "override-model",
            "max_tokens": 321,
            "messages": [
                {"role": "system", "content": "You write forms."},
                {"role": "user", "content": "A vacation request form."}
            ],
            "response_format": {"type": "json_schema", "json_schema": {"name": "form", "schema": schema(), "strict": false}},
            "stream": false
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"components\":[]}"}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 7}
        })))
        .expect(1)
        .mount(&server)
        .await;
    let answer =
        call(Wire::ChatCompletions, &format!("{}/v1", server.uri()), Some(schema()), bounds()).await.unwrap();
    assert_eq!(answer.text, r#"{"components":[]}"#);
    assert_eq!((answer.usage.input_tokens, answer.usage.output_tokens), (50, 7));
}

#[tokio::test]
async fn chat_without_a_credential_sends_no_authorization() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{"message": {"content": "{}"}, "finish_reason": "stop"}]
        })))
        .mount(&server)
        .await;
    let w = worker(Wire::ChatCompletions, &server.uri());
    model::call(&model::client(), &w, None, &request(None), bounds(), &Redactor::default()).await.unwrap();
    let received = server.received_requests().await.unwrap();
    assert!(received[0].headers.get("authorization").is_none());
}

// ---- errors, both formats ---------------------------------------------------------------------------

async fn error_for(provider: Wire, response: ResponseTemplate) -> ModelError {
    let server = MockServer::start().await;
    Mock::given(method("POST")).respond_with(response).mount(&server).await;
    let endpoint = match provider {
        Wire::ChatCompletions => format!("{}/v1", server.uri()),
        _ => server.uri(),
    };
    call(provider, &endpoint, None, bounds()).await.unwrap_err()
}

#[tokio::test]
async fn failures_map_to_errors() {
    for provider in [Wire::Messages, Wire::ChatCompletions] {
        let e = error_for(provider, ResponseTemplate::new(401).set_body_string("invalid x-api-key")).await;
        assert_eq!(e, ModelError::CredentialRefused { status: 401 });
        let e = error_for(provider, ResponseTemplate::new(403)).await;
        assert_eq!(e, ModelError::CredentialRefused { status: 403 });
        let e = error_for(provider, ResponseTemplate::new(429).insert_header("retry-after", "17")).await;
        assert_eq!(e, ModelError::RateLimited { retry_after_s: Some(17) });
        assert_eq!(e.to_string(), "the model endpoint is rate-limiting this Worker; try again in 17 s");
        let e = error_for(provider, ResponseTemplate::new(529)).await;
        assert_eq!(e, ModelError::Unavailable { status: 529 });
        let e = error_for(provider, ResponseTemplate::new(503)).await;
        assert_eq!(e, ModelError::Unavailable { status: 503 });
        let body = json!({"type": "error", "error": {"type": "not_found_error", "message": "model: override-model"}});
        let e = error_for(provider, ResponseTemplate::new(404).set_body_json(body)).await;
        assert!(
            matches!(&e, ModelError::Rejected { status: 404, kind: Some(k), .. } if k == "not_found_error"),
            "{e:?}"
        );
        let e = error_for(provider, ResponseTemplate::new(200).set_body_string("<html>gateway</html>")).await;
        assert!(
            matches!(&e, ModelError::Unreadable { status: 200, raw } if raw.contains("gateway")),
            "{e:?}"
        );
        assert!(!e.to_string().contains("gateway"), "the raw body is for the log only");
    }
}

#[tokio::test]
async fn an_answer_cut_at_the_token_limit_is_an_error_that_keeps_its_tokens() {
    let taken = Usage { input_tokens: 90, output_tokens: 321 };
    let e = error_for(
        Wire::Messages,
        ResponseTemplate::new(200).set_body_json(json!({
            "content": [{"type": "text", "text": "{\"components\": [{\"type\""}], "stop_reason": "max_tokens",
            "usage": {"input_tokens": 90, "output_tokens": 321}
        })),
    )
    .await;
    assert!(matches!(e, ModelError::Truncated { max_tokens: 321, usage, .. } if usage == taken), "{e:?}");
    let e = error_for(
        Wire::ChatCompletions,
        ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{"message": {"content": "{\"comp"}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 90, "completion_tokens": 321}
        })),
    )
    .await;
    assert!(matches!(e, ModelError::Truncated { max_tokens: 321, usage, .. } if usage == taken), "{e:?}");
    assert_eq!(
        e.to_string(),
        "the model's answer was cut off at its 321-token output limit before it was complete"
    );
}

#[tokio::test]
async fn an_empty_answer_is_an_error() {
    let e = error_for(
        Wire::ChatCompletions,
        ResponseTemplate::new(200)
            .set_body_json(json!({"choices": [{"message": {"content": "  "}, "finish_reason": "stop"}]})),
    )
    .await;
    assert_eq!(e, ModelError::Empty);
}

#[tokio::test]
async fn a_body_over_the_cap_is_refused_by_its_length() {
    let big = "x".repeat(200 * 1024);
    let e = error_for(Wire::ChatCompletions, ResponseTemplate::new(200).set_body_string(big)).await;
    assert_eq!(e, ModelError::TooLarge { limit: 64 * 1024 });
}

#[tokio::test]
async fn an_endless_body_costs_nothing_past_the_cap() {
    let peer = RawServer::start(Behaviour::EndlessBody).await;
    let started = Instant::now();
    let e = call(Wire::ChatCompletions, &peer.url, None, bounds()).await.unwrap_err();
    assert_eq!(e, ModelError::TooLarge { limit: 64 * 1024 });
    assert!(started.elapsed() < Duration::from_secs(5));
    until("the peer to see the connection dropped", || {
        peer.closed.load(std::sync::atomic::Ordering::SeqCst) > 0
    })
    .await;
    assert_eq!(peer.closed.load(std::sync::atomic::Ordering::SeqCst), 1, "the connection is dropped");
    let sent = peer.bytes_sent.load(std::sync::atomic::Ordering::SeqCst);
    assert!(sent < 8 * 1024 * 1024, "{sent} bytes sent: the peer was stopped by the closed connection");
}

#[tokio::test]
async fn a_server_that_never_answers_times_out() {
    let peer = RawServer::start(Behaviour::Silent).await;
    let started = Instant::now();
    let short = Bounds { timeout: Duration::from_millis(700), answer_bytes: 1024 };
    let e = call(Wire::Messages, &peer.url, None, short).await.unwrap_err();
    assert!(matches!(e, ModelError::Timeout { .. }), "{e:?}");
    assert!(started.elapsed() < Duration::from_secs(3));
    until("the peer to see the connection closed at the timeout", || {
        peer.closed.load(std::sync::atomic::Ordering::SeqCst) > 0
    })
    .await;
    assert_eq!(
        peer.closed.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the connection is closed at the timeout"
    );

    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let e = call(Wire::ChatCompletions, &server.uri(), None, short).await.unwrap_err();
    assert!(matches!(e, ModelError::Timeout { .. }), "{e:?}");
}

#[tokio::test]
async fn dropping_the_call_closes_the_connection() {
    let peer = RawServer::start(Behaviour::Silent).await;
    let url = peer.url.clone();
    let task = tokio::spawn(async move { call(Wire::ChatCompletions, &url, None, bounds()).await });
    until("the model server to accept the call's connection", || {
        peer.accepted.load(std::sync::atomic::Ordering::SeqCst) == 1
    })
    .await;
    task.abort();
    until("the model server to see the dropped call's connection closed", || {
        peer.closed.load(std::sync::atomic::Ordering::SeqCst) > 0
    })
    .await;
    assert_eq!(
        peer.closed.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "the model server sees the close at once"
    );
}

#[tokio::test]
async fn an_unreachable_endpoint() {
    let e = call(Wire::Messages, "http://127.0.0.1:9", None, bounds()).await.unwrap_err();
    assert_eq!(
        e,
        ModelError::Unreachable {
            endpoint: "127.0.0.1:9".into(),
            cause: formgen::model::reach::Cause::Refused
        }
    );
    assert!(
        e.to_string()
            .starts_with("the model endpoint 127.0.0.1:9 could not be reached: the connection was refused")
    );
}
