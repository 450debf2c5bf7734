//! Live generation: both wire formats streamed from wiremock doubles (normal, stalled, cut
//! mid-event, oversized, a provider error mid-stream, a server that does not stream, a Worker with
//! `stream = false`), the SSE answer of `POST /api/formgen/generate`, and a real socket on which
//! closing the event stream closes the model call.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::common::raw_server::{Behaviour, RawServer};
use formgen::config::Config;
use formgen::model::{self, Bounds, Delta, ModelError, ModelRequest};
use formgen::redact::Redactor;
use formgen::service::Service;
use formgen::workers::{ModelWorker, Wire};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wiremock::matchers::{body_partial_json, method};
use wiremock::{Mock, MockServer, ResponseTemplate};

const FORM: &str = r#"{"components": [{"type": "textfield", "key": "name", "label": "Name"}, {"type": "textfield", "key": "days", "label": "Days"}]}"#;

fn request() -> ModelRequest {
    ModelRequest {
        model: "m".into(),
        system: "You write forms.".into(),
        user: "A vacation request form.".into(),
        max_tokens: 500,
        json_schema: Some(std::sync::Arc::new(json!({"type": "object"}))),
        temperature: None,
    }
}

fn bounds(answer_bytes: usize) -> Bounds {
    Bounds { timeout: Duration::from_secs(2), answer_bytes }
}

/// Splits `text` into pieces of about `n` bytes, on character boundaries.
fn pieces(text: &str, n: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.chunks(n).map(|c| c.iter().collect()).collect()
}

fn chat_stream(text: &str, done: bool) -> String {
    let mut body = String::new();
    for p in pieces(text, 7) {
        body +=
            &format!("data: {}\n\n", json!({"choices": [{"delta": {"content": p}, "finish_reason": null}]}));
    }
    if done {
        body += &format!("data: {}\n\n", json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}));
        body += &format!(
            "data: {}\n\n",
            json!({"choices": [], "usage": {"prompt_tokens": 40, "completion_tokens": 17}})
        );
        body += "data: [DONE]\n\n";
    }
    body
}

fn messages_stream(text: &str, done: bool) -> String {
    let ev = |name: &str, data: Value| format!("event: {name}\ndata: {data}\n\n");
    let mut body = ev(
        "message_start",
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 30, "output_tokens": 1}}}),
    );
    body += &ev(
        "content_block_start",
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "name": "submit_form", "input": {}}}),
    );
    body += ": ping\n\n";
    for p in pieces(text, 5) {
        body += &ev(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": p}}),
        );
    }
    if done {
        body += &ev("content_block_stop", json!({"type": "content_block_stop", "index": 0}));
        body += &ev(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 21}}),
        );
        body += &ev("message_stop", json!({"type": "message_stop"}));
    }
    body
}

fn events(body: String) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.into_bytes(), "text/event-stream")
}

async fn double(template: ResponseTemplate, expect: Value) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST")).and(body_partial_json(expect)).respond_with(template).mount(&server).await;
    server
}

fn endpoint(wire: Wire, server: &MockServer) -> String {
    match wire {
        Wire::ChatCompletions => format!("{}/v1", server.uri()),
        Wire::Messages => server.uri(),
    }
}

/// Streams one call; returns the result and the text pieces and usages the sink saw.
async fn streamed(
    worker: &ModelWorker,
    b: Bounds,
) -> (Result<model::ModelAnswer, ModelError>, Vec<String>, Vec<model::Usage>) {
    let mut texts = Vec::new();
    let mut usages = Vec::new();
    let mut sink = |d: Delta<'_>| match d {
        Delta::Text(t) => texts.push(t.to_string()),
        Delta::Usage(u) => usages.push(u),
        Delta::Restart => texts.clear(),
    };
    let result = model::call_streaming(
        &model::client(),
        worker,
        None,
        &request(),
        b,
        &Redactor::default(),
        Some(&mut sink),
    )
    .await;
    (result, texts, usages)
}

#[tokio::test]
async fn both_formats_stream_their_pieces_and_end_with_the_whole_answer() {
    for wire in [Wire::ChatCompletions, Wire::Messages] {
        let body = match wire {
            Wire::ChatCompletions => chat_stream(FORM, true),
            Wire::Messages => messages_stream(FORM, true),
        };
        let server = double(events(body), json!({"stream": true})).await;
        let worker = ModelWorker::new(wire, endpoint(wire, &server).parse().unwrap());
        let (result, texts, usages) = streamed(&worker, bounds(64 * 1024)).await;
        let answer = result.unwrap_or_else(|e| panic!("{wire:?}: {e}"));
        assert_eq!(answer.text, FORM, "{wire:?}");
        assert!(texts.len() > 10, "{wire:?} streamed in pieces: {}", texts.len());
        assert_eq!(texts.concat(), FORM);
        assert!(answer.usage.output_tokens > 0 && !usages.is_empty(), "{wire:?}: {:?}", answer.usage);
    }
}

#[tokio::test]
async fn a_stream_cut_mid_event_is_a_closed_connection() {
    for wire in [Wire::ChatCompletions, Wire::Messages] {
        let mut body = match wire {
            Wire::ChatCompletions => chat_stream(FORM, false),
            Wire::Messages => messages_stream(FORM, false),
        };
        body += "data: {\"choices\": [{\"delta\": {\"content\": \"ab"; // the event never ends
        let server = double(events(body), json!({"stream": true})).await;
        let worker = ModelWorker::new(wire, endpoint(wire, &server).parse().unwrap());
        let (result, texts, _) = streamed(&worker, bounds(64 * 1024)).await;
        assert!(
            matches!(result, Err(ModelError::Unreachable { cause: model::reach::Cause::Closed, .. })),
            "{wire:?}: {result:?}"
        );
        assert!(!texts.is_empty(), "the pieces before the cut were seen");
    }
}

#[tokio::test]
async fn a_stream_that_stalls_past_the_timeout_times_out() {
    for wire in [Wire::ChatCompletions, Wire::Messages] {
        let template = events(chat_stream(FORM, true)).set_delay(Duration::from_secs(5));
        let server = double(template, json!({"stream": true})).await;
        let worker = ModelWorker::new(wire, endpoint(wire, &server).parse().unwrap());
        let started = Instant::now();
        let b = Bounds { timeout: Duration::from_millis(400), answer_bytes: 64 * 1024 };
        let (result, _, _) = streamed(&worker, b).await;
        assert!(matches!(result, Err(ModelError::Timeout { .. })), "{wire:?}: {result:?}");
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}

#[tokio::test]
async fn an_oversized_stream_is_refused_at_the_cap() {
    let big = format!(r#"{{"components": [{{"type": "text", "text": "{}"}}]}}"#, "x".repeat(4000));
    for wire in [Wire::ChatCompletions, Wire::Messages] {
        let body = match wire {
            Wire::ChatCompletions => chat_stream(&big, true),
            Wire::Messages => messages_stream(&big, true),
        };
        let server = double(events(body), json!({"stream": true})).await;
        let worker = ModelWorker::new(wire, endpoint(wire, &server).parse().unwrap());
        let (result, _, _) = streamed(&worker, bounds(1024)).await;
        assert_eq!(result, Err(ModelError::TooLarge { limit: 1024 }), "{wire:?}");
    }
}

#[tokio::test]
async fn a_provider_error_mid_stream_is_an_interruption() {
    let chat = chat_stream(FORM, false)
        + &format!("data: {}\n\n", json!({"error": {"type": "server_error", "message": "boom"}}));
    let messages = messages_stream(FORM, false)
        + &format!(
            "event: error\ndata: {}\n\n",
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
        );
    for (wire, body, kind) in
        [(Wire::ChatCompletions, chat, "server_error"), (Wire::Messages, messages, "overloaded_error")]
    {
        let server = double(events(body), json!({"stream": true})).await;
        let worker = ModelWorker::new(wire, endpoint(wire, &server).parse().unwrap());
        let (result, _, _) = streamed(&worker, bounds(64 * 1024)).await;
        assert_eq!(result, Err(ModelError::Interrupted { kind: Some(kind.into()) }), "{wire:?}");
    }
}

#[tokio::test]
async fn a_server_that_does_not_stream_gives_one_answer() {
    let chat = json!({"choices": [{"message": {"content": FORM}, "finish_reason": "stop"}]});
    let messages = json!({"content": [{"type": "text", "text": FORM}], "stop_reason": "end_turn"});
    for (wire, body) in [(Wire::ChatCompletions, chat), (Wire::Messages, messages)] {
        let server = double(ResponseTemplate::new(200).set_body_json(body), json!({"stream": true})).await;
        let worker = ModelWorker::new(wire, endpoint(wire, &server).parse().unwrap());
        let (result, texts, _) = streamed(&worker, bounds(64 * 1024)).await;
        assert_eq!(result.unwrap().text, FORM, "{wire:?}");
        assert!(texts.is_empty(), "nothing was streamed");
    }
}

#[tokio::test]
async fn a_worker_with_stream_off_asks_for_one_answer() {
    let server = MockServer::start().await;
    let chat = json!({"choices": [{"message": {"content": FORM}, "finish_reason": "stop"}]});
    Mock::given(method("POST"))
        .and(body_partial_json(json!({"stream": false})))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat))
        .expect(1)
        .mount(&server)
        .await;
    let worker = ModelWorker {
        stream: false,
        ..ModelWorker::new(Wire::ChatCompletions, format!("{}/v1", server.uri()).parse().unwrap())
    };
    let (result, texts, _) = streamed(&worker, bounds(64 * 1024)).await;
    assert_eq!(result.unwrap().text, FORM);
    assert!(texts.is_empty());
}

// ---- the API ---------------------------------------------------------------------------------------

fn config(toml: &str) -> Config {
    Config::parse(toml, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"))
}

async fn serve_in_process(config: &Config) -> (std::net::SocketAddr, Arc<Service>) {
    let service = Arc::new(Service::new(config).unwrap());
    let app = formgen::http::router(service.clone(), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(formgen::http::run(listener, app, std::future::pending(), Duration::from_secs(1)));
    (addr, service)
}

/// The events of an SSE body: (name, data as JSON).
fn sse_events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data: String = block.lines().filter_map(|l| l.strip_prefix("data: ")).collect();
            Some((name.to_string(), serde_json::from_str(&data).unwrap_or(Value::Null)))
        })
        .collect()
}

async fn generate_events(
    addr: std::net::SocketAddr,
    body: Value,
) -> (reqwest::StatusCode, Vec<(String, Value)>) {
    let response = reqwest::Client::new()
        .post(format!("http://{addr}/api/formgen/generate"))
        .header("accept", "text/event-stream")
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    (status, sse_events(&response.text().await.unwrap()))
}

#[tokio::test]
async fn the_builtin_worker_streams_one_draft_and_the_proposal() {
    let cfg = config("[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n");
    let (addr, _) = serve_in_process(&cfg).await;
    let (status, events) = generate_events(addr, json!({"description": "A vacation request"})).await;
    assert_eq!(status, 200);
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["draft", "proposal"]);
    assert_eq!(events[0].1, events[1].1["schema"], "the draft is the form");
    // without the header: one JSON answer, no events
    let plain = reqwest::Client::new()
        .post(format!("http://{addr}/api/formgen/generate"))
        .json(&json!({"description": "A vacation request"}))
        .send()
        .await
        .unwrap();
    assert_eq!(plain.headers()["content-type"], "application/json");
    let plain: Value = plain.json().await.unwrap();
    assert_eq!(plain["schema"], events[1].1["schema"]);
}

#[tokio::test]
async fn a_streaming_model_gives_growing_drafts_without_secrets_then_the_proposal() {
    let form = r#"{"components": [{"type": "textfield", "key": "name", "label": "Name"}, {"type": "textfield", "key": "pin", "label": "Your PIN"}, {"type": "number", "key": "days", "label": "Days"}, {"type": "textfield", "key": "note", "label": "Note"}]}"#;
    let server = double(events(chat_stream(form, true)), json!({"stream": true})).await;
    let cfg = config(&format!(
        "[[workers]]\nname = \"local\"\nprovider = \"chat-completions\"\nendpoint = \"{}/v1\"\nmodel = \"m\"\n",
        server.uri()
    ));
    let (addr, service) = serve_in_process(&cfg).await;
    let (status, events) = generate_events(addr, json!({"description": "A vacation request"})).await;
    assert_eq!(status, 200);
    let repair = events.iter().position(|(n, _)| n == "repair").expect("a repair round");
    let drafts: Vec<&Value> = events[..repair].iter().filter(|(n, _)| n == "draft").map(|(_, d)| d).collect();
    assert!(drafts.len() >= 2, "{events:?}");
    for d in &drafts {
        assert_eq!(d["type"], "default");
        assert!(!d.to_string().contains("PIN"), "no secret field in a draft: {d}");
    }
    let sizes: Vec<usize> = drafts.iter().map(|d| d["components"].as_array().unwrap().len()).collect();
    assert_eq!(sizes, [1, 2, 3], "each attempt's drafts grow, the PIN field left out");
    assert!(events.iter().any(|(n, p)| n == "progress" && p["attempt"] == 1));
    // the final gate refuses the secret field; the repair round sees the same answer
    let (last, body) = events.last().unwrap();
    assert!(events.iter().any(|(n, r)| n == "repair" && r["attempt"] == 2), "{events:?}");
    assert_eq!(last, "error", "{body}");
    assert_eq!(body["code"], "unusable_answer");
    assert_eq!(body["status"], 502);
    assert_eq!(events.iter().filter(|(n, _)| n == "proposal" || n == "error").count(), 1);
    assert_eq!(service.metrics().in_flight(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_event_stream_closes_the_model_call_within_100_ms() {
    let model = RawServer::start(Behaviour::StreamThenStall).await;
    let cfg = config(&format!(
        "[[workers]]\nname = \"local\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        model.url
    ));
    let (addr, service) = serve_in_process(&cfg).await;
    let body = json!({"description": "A vacation request"}).to_string();
    let request = format!(
        "POST /api/formgen/generate HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut client = tokio::net::TcpStream::connect(addr).await.unwrap();
    client.write_all(request.as_bytes()).await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    let started = Instant::now();
    while !String::from_utf8_lossy(&seen).contains("event: draft") {
        assert!(started.elapsed() < Duration::from_secs(5), "no draft: {}", String::from_utf8_lossy(&seen));
        let n = tokio::time::timeout(Duration::from_secs(5), client.read(&mut buf)).await.unwrap().unwrap();
        assert!(n > 0, "closed early: {}", String::from_utf8_lossy(&seen));
        seen.extend_from_slice(&buf[..n]);
    }
    assert_eq!(service.metrics().in_flight(), 1);
    assert_eq!(model.closed.load(Ordering::SeqCst), 0);
    let left_at = Instant::now();
    drop(client); // the author presses Stop
    while model.closed.load(Ordering::SeqCst) == 0 {
        assert!(left_at.elapsed() < Duration::from_secs(2), "the model call stayed open");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let after = left_at.elapsed();
    assert!(after < Duration::from_millis(100), "the model saw its connection closed {after:?} after Stop");
    let gauge_wait = Instant::now();
    while service.metrics().in_flight() != 0 {
        assert!(gauge_wait.elapsed() < Duration::from_secs(2), "the in-flight gauge stayed up");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn the_openapi_document_names_the_event_stream() {
    let doc = serde_json::to_value(formgen::http::openapi::document()).unwrap();
    let generate = &doc["paths"]["/api/formgen/generate"]["post"];
    let content = &generate["responses"]["200"]["content"];
    assert!(content["application/json"].is_object(), "{content}");
    assert!(content["text/event-stream"].is_object(), "{content}");
    let text = generate.to_string();
    for event in ["progress", "draft", "warning", "repair", "proposal", "error"] {
        assert!(text.contains(&format!("`{event}`")), "{event} is documented");
    }
}

#[tokio::test]
async fn a_stream_that_stalls_mid_answer_times_out_with_its_pieces_seen() {
    let model = RawServer::start(Behaviour::StreamThenStall).await;
    let worker = ModelWorker::new(Wire::ChatCompletions, model.url.parse().unwrap());
    let started = Instant::now();
    let b = Bounds { timeout: Duration::from_millis(400), answer_bytes: 64 * 1024 };
    let (result, texts, _) = streamed(&worker, b).await;
    assert!(matches!(result, Err(ModelError::Timeout { .. })), "{result:?}");
    assert_eq!(texts.len(), 1, "the piece before the stall was streamed");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_nobody_reads_still_ends_its_generation_at_the_deadline() {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    // the router without the server: the body is polled only here, as hyper polls it only while its
    // peer takes bytes; after the first event nobody reads
    let model = RawServer::start(Behaviour::StreamThenStall).await;
    let cfg = config(&format!(
        "[limits]\nmodel_timeout_s = 1\nconcurrent_per_worker = 1\n[[workers]]\nname = \"local\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        model.url
    ));
    let service = Arc::new(Service::new(&cfg).unwrap());
    let app = formgen::http::router(service.clone(), &cfg);
    let request = axum::http::Request::post("/api/formgen/generate")
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .body(axum::body::Body::from(json!({"description": "x"}).to_string()))
        .unwrap();
    let mut body = app.clone().oneshot(request).await.unwrap().into_body();
    let mut seen = String::new();
    while !seen.contains("event: ") {
        let frame =
            tokio::time::timeout(Duration::from_secs(5), body.frame()).await.unwrap().unwrap().unwrap();
        seen.push_str(&String::from_utf8_lossy(frame.data_ref().unwrap()));
    }
    assert_eq!(service.metrics().in_flight(), 1, "the generation runs");
    // nobody reads: the generation still ends at its deadline, its permit given back
    let started = Instant::now();
    while service.metrics().in_flight() != 0 {
        assert!(started.elapsed() < Duration::from_secs(10), "the unread generation outlived its deadline");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let next = axum::http::Request::post("/api/formgen/generate")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(json!({"description": "y"}).to_string()))
        .unwrap();
    let status = app.clone().oneshot(next).await.unwrap().status();
    assert_ne!(status, 429, "the Worker's one permit is free again");
    // the stream, read at last, ends with the deadline's error
    let rest = tokio::time::timeout(Duration::from_secs(5), body.collect()).await.unwrap().unwrap();
    seen.push_str(&String::from_utf8_lossy(&rest.to_bytes()));
    let events = sse_events(&seen);
    let (last, data) = events.last().unwrap();
    assert_eq!((last.as_str(), data["code"].as_str()), ("error", Some("model_timeout")), "{events:?}");
}
