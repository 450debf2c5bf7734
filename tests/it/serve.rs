//! The service on a real socket: the request owns the model call (a client that goes away takes the
//! upstream call with it), graceful shutdown as a process, and no secret in any response or log line.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::common::raw_server::{Behaviour, RawServer};
use crate::common::served::{spawn_serve, terminate, wait_exit};
use crate::common::wait::{until, until_async};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::json;
use tokio::io::AsyncWriteExt;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

fn config(toml: &str) -> Config {
    Config::parse(toml, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"))
}

/// Serves `config` in-process on a free port; returns the address and the service.
async fn serve_in_process(config: &Config) -> (std::net::SocketAddr, Arc<Service>) {
    let service = Arc::new(Service::new(config).unwrap());
    let app = formgen::http::router(service.clone(), config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(formgen::http::run(listener, app, std::future::pending(), Duration::from_secs(1)));
    (addr, service)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_goes_away_takes_the_model_call_with_it() {
    let model = RawServer::start(Behaviour::Silent).await;
    let cfg = config(&format!(
        "[[workers]]\nname = \"local\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        model.url
    ));
    let (addr, service) = serve_in_process(&cfg).await;
    let body = json!({"description": "A vacation request"}).to_string();
    let request = format!(
        "POST /api/formgen/generate HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut client = tokio::net::TcpStream::connect(addr).await.unwrap();
    client.write_all(request.as_bytes()).await.unwrap();
    until("the model call to start", || model.accepted.load(Ordering::SeqCst) == 1).await;
    assert_eq!(service.metrics().in_flight(), 1);
    let left_at = Instant::now();
    drop(client); // the author navigates away
    until("the model server to see its connection closed", || model.closed.load(Ordering::SeqCst) == 1).await;
    let after = left_at.elapsed();
    assert!(after < Duration::from_secs(2), "the upstream call was dropped {after:?} after the client left");
    until("the in-flight gauge to return to zero", || service.metrics().in_flight() == 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_lets_in_flight_generations_finish_up_to_a_bound() {
    let model = MockServer::start().await;
    let answer = json!({"choices": [{"message": {"content": "{\"components\":[{\"type\":\"textfield\",\"key\":\"a\",\"label\":\"A\"}]}"}, "finish_reason": "stop"}]});
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(answer).set_delay(Duration::from_millis(1_500)),
        )
        .mount(&model)
        .await;
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\nshutdown_grace_s = 10\n[[workers]]\nname = \"slow\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        model.uri()
    );
    let mut served = spawn_serve(&toml, dir.path());
    let url = format!("{}/api/formgen/generate", served.url);
    let pending = tokio::spawn(async move {
        reqwest::Client::new().post(url).json(&json!({"description": "x"})).send().await
    });
    until_async("the generation to reach the model", async || {
        model.received_requests().await.is_some_and(|r| !r.is_empty())
    })
    .await;
    terminate(&served.child);
    let response = pending.await.unwrap().expect("the in-flight generation was answered");
    assert_eq!(response.status(), 200);
    let status = wait_exit(&mut served.child, Duration::from_secs(5));
    assert!(status.success(), "{status:?}");
    assert!(served.stderr.lock().unwrap().contains("finishing in-flight generations"));

    // a model that never answers: the process still stops at the end of the grace period
    let silent = RawServer::start(Behaviour::Silent).await;
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\nshutdown_grace_s = 1\n[[workers]]\nname = \"stuck\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        silent.url
    );
    let mut served = spawn_serve(&toml, dir.path());
    let url = format!("{}/api/formgen/generate", served.url);
    let _pending = tokio::spawn(async move {
        reqwest::Client::new().post(url).json(&json!({"description": "x"})).send().await
    });
    until("the stuck model call", || silent.accepted.load(Ordering::SeqCst) == 1).await;
    let stopping = Instant::now();
    terminate(&served.child);
    wait_exit(&mut served.child, Duration::from_secs(5));
    assert!(stopping.elapsed() < Duration::from_secs(4));
    assert!(served.stderr.lock().unwrap().contains("did not finish within the grace period"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_in_any_response_or_log_line() {
    const SECRET: &str = "sk-live-HTTP-SECRET-9d8e7f";
    let model = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(400).set_body_string(format!(
            "{{\"error\":{{\"type\":\"bad\",\"message\":\"key {SECRET} invalid\"}}}}"
        )))
        .up_to_n_times(1)
        .mount(&model)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_string(format!("wrong key {SECRET}")))
        .up_to_n_times(1)
        .mount(&model)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string(format!("not json {SECRET}")))
        .mount(&model)
        .await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), SECRET).unwrap();
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n[[workers]]\nname = \"claude\"\nprovider = \"messages\"\nendpoint = \"{}\"\nmodel = \"m\"\ncredential = \"file:key\"\n",
        model.uri()
    );
    let mut served = spawn_serve(&toml, dir.path());
    let client = reqwest::Client::new();
    let mut seen = String::new();
    for _ in 0..3 {
        let r = client
            .post(format!("{}/api/formgen/generate", served.url))
            .json(&json!({"description": "x"}))
            .send()
            .await
            .unwrap();
        seen.push_str(&format!("{:?}", r.headers()));
        seen.push_str(&r.text().await.unwrap());
    }
    for path in ["/api/formgen/capability", "/metrics", "/openapi.json", "/healthz"] {
        seen.push_str(
            &client.get(format!("{}{path}", served.url)).send().await.unwrap().text().await.unwrap(),
        );
    }
    terminate(&served.child);
    wait_exit(&mut served.child, Duration::from_secs(5));
    let logs = served.stderr.lock().unwrap().clone();
    assert!(seen.contains("model_credential_refused") && seen.contains("model_failed"), "{seen}");
    assert!(logs.contains("model endpoint rejected the request"), "{logs}");
    assert!(!seen.contains(SECRET), "a response carries the secret: {seen}");
    assert!(!logs.contains(SECRET), "a log line carries the secret: {logs}");
    for r in model.received_requests().await.unwrap() {
        assert_eq!(r.headers.get("x-api-key").unwrap(), SECRET, "the one place it goes");
        assert!(!String::from_utf8_lossy(&r.body).contains(SECRET));
    }
}

#[test]
fn a_bad_config_is_refused_at_start_with_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("formgen.toml");
    std::fs::write(
        &path,
        "[server]\nlisten = \"0.0.0.0:8080\"\n[[workers]]\nname = \"x\"\nprovider = \"chat\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["serve", "--config", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("auth.mode: \"none\""), "{err}");
    assert!(err.contains("workers[0].provider: \"chat\" is not a wire format"), "{err}");
}

/// The events of an SSE text: (name, data as JSON).
fn sse_events(body: &str) -> Vec<(String, serde_json::Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data: String = block.lines().filter_map(|l| l.strip_prefix("data: ")).collect();
            Some((name.to_string(), serde_json::from_str(&data).unwrap_or_default()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_streams_and_requests_still_running_with_shutting_down_within_the_grace() {
    const GRACE_S: u64 = 2;
    let model = RawServer::start(Behaviour::StreamForever).await;
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\nshutdown_grace_s = {GRACE_S}\n[limits]\nmodel_timeout_s = 600\n[[workers]]\nname = \"endless\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        model.url
    );
    let mut served = spawn_serve(&toml, dir.path());
    let url = format!("{}/api/formgen/generate", served.url);
    let client = reqwest::Client::new();
    let mut stream = client
        .post(&url)
        .header("accept", "text/event-stream")
        .json(&json!({"description": "x"}))
        .send()
        .await
        .unwrap();
    let plain = tokio::spawn(client.post(&url).json(&json!({"description": "y"})).send());
    let mut text = String::new();
    while !text.contains("event: progress") {
        let chunk = tokio::time::timeout(Duration::from_secs(5), stream.chunk()).await.unwrap().unwrap();
        text.push_str(&String::from_utf8_lossy(&chunk.expect("the stream ended before any progress")));
    }
    until("both model calls", || model.accepted.load(Ordering::SeqCst) == 2).await;
    terminate(&served.child);
    let read_all = async {
        while let Some(chunk) = stream.chunk().await.expect("the stream was cut") {
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(Duration::from_secs(GRACE_S + 3), read_all).await.expect("the stream stayed open");
    let events = sse_events(&text);
    let finals: Vec<_> = events.iter().filter(|(n, _)| n == "proposal" || n == "error").collect();
    assert_eq!(finals.len(), 1, "exactly one final event: {events:?}");
    let (name, body) = events.last().unwrap();
    assert_eq!(name, "error", "{events:?}");
    assert_eq!(body["code"], "shutting_down", "{body}");
    assert_eq!(body["status"], 503, "{body}");
    assert!(body["error"].as_str().unwrap().contains("shutting down"), "{body}");
    let plain = plain.await.unwrap().expect("the plain generation was answered, not cut");
    assert_eq!(plain.status(), 503);
    let plain: serde_json::Value = plain.json().await.unwrap();
    assert_eq!(plain["code"], "shutting_down", "{plain}");
    // the whole shutdown, the exit included, within the grace (a generous deadline to poll)
    wait_exit(&mut served.child, Duration::from_secs(GRACE_S + 1));
    until("the model calls to be closed", || model.closed.load(Ordering::SeqCst) == 2).await;
}
