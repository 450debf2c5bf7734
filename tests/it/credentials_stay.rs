//! Credentials never leave their origin: a model endpoint or vault that redirects gets nothing sent on
//! (a listener on the second port sees no connection at all), and a provider that echoes the key (in
//! its error type, its message, its answer) gets it redacted before anything is logged, gated or
//! returned, whether the key came from the environment, a file or the vault.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::body::Body;
use axum::extract::connect_info::MockConnectInfo;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::{Value, json};
use tower::ServiceExt;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common::raw_server::{Behaviour, RawServer};

fn app(toml: &str, base: &Path) -> Router {
    let config = Config::parse(toml, "test", base, false, &|_| None).unwrap_or_else(|e| panic!("{e}"));
    let service = std::sync::Arc::new(Service::new(&config).unwrap());
    formgen::http::router(service, &config).layer(MockConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))))
}

/// Sends a request; returns the status, the body as JSON (or text) and everything seen, headers too.
async fn send(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value, String) {
    let req = Request::builder().method(method).uri(uri);
    let req = match body {
        Some(b) => req.header("content-type", "application/json").body(Body::from(b.to_string())).unwrap(),
        None => req.body(Body::empty()).unwrap(),
    };
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let headers = format!("{:?}", response.headers());
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text.clone()));
    (status, value, format!("{headers}\n{text}"))
}

fn messages_worker(name: &str, endpoint: &str, credential: &str) -> String {
    format!(
        "[[workers]]\nname = \"{name}\"\nprovider = \"messages\"\nendpoint = \"{endpoint}\"\nmodel = \"m\"\ncredential = \"{credential}\"\n"
    )
}

#[tokio::test]
async fn a_redirecting_model_endpoint_gets_nothing_sent_on() {
    // SAFETY: only this test reads or writes this variable.
    unsafe { std::env::set_var("FORMGEN_TEST_REDIRECT_KEY", "sk-redirect-canary-1") };
    let elsewhere = RawServer::start(Behaviour::Silent).await;
    let model = MockServer::start().await;
    for status in [302, 307, 308] {
        Mock::given(method("POST"))
            .respond_with(
                ResponseTemplate::new(status)
                    .insert_header("location", format!("{}/v1/messages", elsewhere.url)),
            )
            .up_to_n_times(1)
            .mount(&model)
            .await;
    }
    // (a short timeout: were the redirect followed, the silent second port would hold the call)
    let worker = messages_worker("redir", &model.uri(), "env:FORMGEN_TEST_REDIRECT_KEY") + "timeout_s = 3\n";
    let app = app(&worker, Path::new("."));
    for status in [302, 307, 308] {
        let (code, body, _) =
            send(&app, "POST", "/api/formgen/generate", Some(json!({"description": "x"}))).await;
        assert_eq!((code, body["code"].as_str()), (StatusCode::BAD_GATEWAY, Some("model_failed")), "{body}");
        let sentence = body["error"].as_str().unwrap();
        assert!(
            sentence.contains("\"redir\"")
                && sentence.contains(&format!("redirected the request (HTTP {status})"))
                && sentence.contains("sent nothing on"),
            "{sentence}"
        );
    }
    assert_eq!(model.received_requests().await.unwrap().len(), 3);
    assert_eq!(elsewhere.accepted.load(Ordering::SeqCst), 0, "the second port saw a connection");
}

#[tokio::test]
async fn a_redirecting_vault_gets_nothing_sent_on_and_serves_no_key() {
    // SAFETY: only this test reads or writes this variable.
    unsafe { std::env::set_var("FORMGEN_TEST_REDIRECT_VAULT_TOKEN", "hvs.redirect-canary") };
    let elsewhere = RawServer::start(Behaviour::Silent).await;
    let vault = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(307)
                .insert_header("location", format!("{}/v1/secret/data/x", elsewhere.url)),
        )
        .mount(&vault)
        .await;
    let model = MockServer::start().await;
    let toml = format!(
        "{}[vault]\naddr = \"{}\"\ntoken = \"env:FORMGEN_TEST_REDIRECT_VAULT_TOKEN\"\n",
        messages_worker("vaulted", &model.uri(), "vault:secret/formgen#key"),
        vault.uri()
    );
    let app = app(&toml, Path::new("."));
    let (code, body, _) =
        send(&app, "POST", "/api/formgen/generate", Some(json!({"description": "x"}))).await;
    assert_eq!(
        (code, body["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("credential_unavailable")),
        "{body}"
    );
    let sentence = body["error"].as_str().unwrap();
    assert!(
        sentence.contains(&format!("the vault at {} redirected the request (HTTP 307)", vault.uri()))
            && sentence.contains("\"vaulted\""),
        "{sentence}"
    );
    assert_eq!(elsewhere.accepted.load(Ordering::SeqCst), 0, "the second port saw a connection");
    assert!(model.received_requests().await.unwrap().is_empty(), "no key, no model call");
}

/// A Messages endpoint that echoes `echo` everywhere a provider can: its error type and message, a
/// 401 body, an answer the gate refuses (so the repair prompt would quote it), a form's label, and a
/// body that is not the wire format.
async fn echoing_model(echo: &str) -> MockServer {
    let server = MockServer::start().await;
    let text_answer = |text: String| {
        ResponseTemplate::new(200).set_body_json(json!({
            "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
            "usage": {"input_tokens": 1, "output_tokens": 1}
        }))
    };
    let form = json!({"components": [{"type": "textfield", "key": "a", "label": format!("Echo {echo}")}]});
    let responses = [
        ResponseTemplate::new(400).set_body_json(json!({
            "type": "error", "error": {"type": echo, "message": format!("bad key {echo}")}
        })),
        ResponseTemplate::new(401).set_body_string(format!("wrong key {echo}")),
        text_answer(format!("I cannot, my key is {echo}")),
        text_answer(form.to_string()),
        ResponseTemplate::new(200).set_body_string(format!("not json {echo}")),
    ];
    for response in responses {
        Mock::given(method("POST")).respond_with(response).up_to_n_times(1).mount(&server).await;
    }
    server
}

#[tokio::test]
async fn canaries_from_env_file_and_vault_appear_in_no_response_log_or_metric() {
    const ENV_KEY: &str = "sk-canary-env-5b7d";
    const FILE_KEY: &str = "sk-canary-file-8c2e";
    const VAULT_KEY: &str = "sk-canary-vault-1f9a";
    const VAULT_TOKEN: &str = "hvs.canary-token-44e1";
    let canaries = [ENV_KEY, FILE_KEY, VAULT_KEY, VAULT_TOKEN];
    let (logs, _guard) = crate::common::logs::capture();
    // SAFETY: only this test reads or writes these variables.
    unsafe {
        std::env::set_var("FORMGEN_TEST_CANARY_KEY", ENV_KEY);
        std::env::set_var("FORMGEN_TEST_CANARY_VAULT_TOKEN", VAULT_TOKEN);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("key"), format!("{FILE_KEY}\n")).unwrap();
    let vault = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/secret/data/formgen"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "data": {"data": {"key": VAULT_KEY}, "metadata": {"version": 1}}
        })))
        .mount(&vault)
        .await;
    // each endpoint echoes its key; the vault-keyed one echoes the vault's token as well
    let env_model = echoing_model(ENV_KEY).await;
    let file_model = echoing_model(FILE_KEY).await;
    let vault_model = echoing_model(&format!("{VAULT_KEY} {VAULT_TOKEN}")).await;
    let toml = format!(
        "{}{}{}[vault]\naddr = \"{}\"\ntoken = \"env:FORMGEN_TEST_CANARY_VAULT_TOKEN\"\n",
        messages_worker("env", &env_model.uri(), "env:FORMGEN_TEST_CANARY_KEY"),
        messages_worker("file", &file_model.uri(), "file:key"),
        messages_worker("vault", &vault_model.uri(), "vault:secret/formgen#key"),
        vault.uri()
    );
    let app = app(&toml, dir.path());
    let mut seen = String::new();
    let mut codes = Vec::new();
    for worker in ["env", "file", "vault"] {
        for _ in 0..4 {
            let request = json!({"description": "x", "worker": worker});
            let (_, body, all) = send(&app, "POST", "/api/formgen/generate", Some(request)).await;
            codes.push(body["code"].as_str().unwrap_or("ok").to_string());
            seen.push_str(&all);
        }
    }
    for uri in ["/metrics", "/api/formgen/capability"] {
        seen.push_str(&send(&app, "GET", uri, None).await.2);
    }
    assert_eq!(codes, ["model_failed", "model_credential_refused", "ok", "model_failed"].repeat(3), "{seen}");
    assert!(seen.contains("Echo [REDACTED]"), "the echoed label is redacted, not dropped: {seen}");
    assert!(seen.contains("formgen_generations_total"), "{seen}");
    let log = logs.text();
    assert!(log.contains("model endpoint rejected the request") && log.contains("TRACE"), "{log}");
    for canary in canaries {
        assert!(!seen.contains(canary), "{canary} in a response or metric: {seen}");
        assert!(!log.contains(canary), "{canary} in a log line:\n{log}");
    }
    // the repair prompt quotes the refused answer: redacted before it was gated, so not sent back
    for server in [&env_model, &file_model, &vault_model] {
        for r in server.received_requests().await.unwrap() {
            let body = String::from_utf8_lossy(&r.body);
            assert!(canaries.iter().all(|c| !body.contains(c)), "a canary went upstream: {body}");
        }
    }
}

/// Polls `done` until it holds or `within` has passed.
async fn eventually(within: std::time::Duration, done: impl Fn() -> bool) -> bool {
    let deadline = std::time::Instant::now() + within;
    while std::time::Instant::now() < deadline {
        if done() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    done()
}

#[tokio::test]
async fn a_vault_answer_past_the_bound_is_refused_and_not_read_on() {
    use formgen::vault::{VAULT_ANSWER_BYTES, Vault, VaultError};
    // endless: read chunk by chunk, the read stops at the bound and the connection is closed
    let peer = RawServer::start(Behaviour::EndlessBody).await;
    let vault = Vault::new(peer.url.parse().unwrap(), None);
    let token = secrecy::SecretString::from("hvs.bounded-canary");
    let e = vault.read_field("secret", "formgen", "key", Some(&token)).await.unwrap_err();
    assert_eq!(e, VaultError::TooLarge { addr: peer.url.clone(), limit: VAULT_ANSWER_BYTES });
    let sentence = e.to_string();
    assert!(
        sentence.contains(&peer.url) && sentence.contains("stopped reading") && !sentence.contains("xxxx"),
        "{sentence}"
    );
    assert!(
        eventually(std::time::Duration::from_secs(5), || peer.closed.load(Ordering::SeqCst) == 1).await,
        "the vault's connection was closed"
    );
    let sent = peer.bytes_sent.load(Ordering::SeqCst);
    assert!(sent < 16 * VAULT_ANSWER_BYTES, "{sent} bytes sent: the read went on past the bound");

    // declared: refused on its Content-Length, whatever the body holds
    let declared = MockServer::start().await;
    let big = json!({"data": {"data": {"key": "x".repeat(VAULT_ANSWER_BYTES)}, "metadata": {}}});
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(big))
        .mount(&declared)
        .await;
    let vault = Vault::new(declared.uri().parse().unwrap(), None);
    let e = vault.read_field("secret", "formgen", "key", None).await.unwrap_err();
    assert_eq!(e, VaultError::TooLarge { addr: declared.uri(), limit: VAULT_ANSWER_BYTES });

    // a secret within the bound is read as before
    let fine = MockServer::start().await;
    let answer = json!({"data": {"data": {"key": "sk-within-bound"}, "metadata": {}}});
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(answer))
        .mount(&fine)
        .await;
    let vault = Vault::new(fine.uri().parse().unwrap(), None);
    let key = vault.read_field("secret", "formgen", "key", None).await.unwrap();
    assert_eq!(secrecy::ExposeSecret::expose_secret(&key), "sk-within-bound");
}
