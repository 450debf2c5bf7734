//! Credentials never leave their origin: a model endpoint or vault that redirects gets nothing sent on
//! (a listener on the second port sees no connection at all), and a provider that echoes the key (in
//! its error type, its message, its answer) gets it redacted before anything is logged, gated or
//! returned, whether the key came from the environment, a file or the vault, and whether it is
//! written in clear, as JSON escapes of any of its characters or in base64, for both wire formats,
//! answered at once or streamed. A vault that answers without end is read up to its bound only.

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

    // a secret within the bound is read
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

// ---- a key echoed as JSON escapes or base64 -----------------------------------------------------

/// `secret` with the characters `pick` chooses written as `\uXXXX` (upper-case hex when `upper`).
fn u_escaped(secret: &str, pick: impl Fn(usize) -> bool, upper: bool) -> String {
    secret
        .chars()
        .enumerate()
        .map(|(i, c)| match (pick(i), upper) {
            (true, false) => format!("\\u{:04x}", c as u32),
            (true, true) => format!("\\u{:04X}", c as u32),
            (false, _) => c.to_string(),
        })
        .collect()
}

/// The spellings a hostile model writes a secret in, inside JSON strings of its answer: every
/// character escaped, some of them (upper-case hex), and base64 in both alphabets at two alignments.
fn spellings(secret: &str) -> [String; 4] {
    use base64::Engine;
    [
        u_escaped(secret, |_| true, false),
        u_escaped(secret, |i| i % 3 != 1, true),
        base64::engine::general_purpose::STANDARD.encode(format!("k={secret}")),
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("key:{secret};")),
    ]
}

/// Whether `text` holds `secret` in clear, JSON-escaped (any level, any subset of characters) or as
/// the inner part of one of the base64 spellings the doubles wrote.
fn holds(text: &str, secret: &str) -> bool {
    let mut decoded = text.to_string();
    for _ in 0..4 {
        if decoded.contains(secret) {
            return true;
        }
        decoded = unescape_all(&decoded);
    }
    spellings(secret)[2..]
        .iter()
        .any(|b| decoded.contains(&b[3..b.len() - 3]) || text.contains(&b[3..b.len() - 3]))
}

/// Every `\uXXXX` and short JSON escape in `text` decoded once (a test's own reading, lenient).
fn unescape_all(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let unit = tail.get(2..6).and_then(|h| u32::from_str_radix(h, 16).ok());
        match (tail.as_bytes().get(1), unit) {
            (Some(b'u'), Some(u)) if char::from_u32(u).is_some() => {
                out.push(char::from_u32(u).unwrap());
                rest = &tail[6..];
            }
            (Some(b'"' | b'\\' | b'/'), _) => {
                out.push(tail.as_bytes()[1] as char);
                rest = &tail[2..];
            }
            _ => {
                out.push('\\');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The answers of one Worker's double, in the order asked: a refused form (a PIN field labelled with
/// the secret fully escaped), then a form the gate accepts that spells the secret every other way
/// (in a label, a description, an option, a field whose key the gate makes up from its label, an
/// object key); then two refused forms; then a 200 that is not the wire format and a 400 whose
/// error echoes it, both logged.
fn hostile_texts(secrets: &[&str]) -> [String; 4] {
    let all: Vec<[String; 4]> = secrets.iter().map(|s| spellings(s)).collect();
    let joined = |n: usize| all.iter().map(|s| s[n].clone()).collect::<Vec<_>>().join(" ");
    let refused =
        format!(r#"{{"components": [{{"type": "textfield", "key": "pin", "label": "PIN {}"}}]}}"#, joined(0));
    let accepted = format!(
        r#"{{"components": [{{"type": "textfield", "key": "note", "label": "Echo {}", "description": "{}"}}, {{"type": "select", "key": "choice", "label": "Choice", "values": [{{"label": "{}", "value": "a"}}]}}, {{"type": "textfield", "label": "{}"}}], "{}": 1}}"#,
        joined(1),
        joined(2),
        joined(3),
        joined(0),
        joined(1)
    );
    let refused_again = format!(
        r#"{{"components": [{{"type": "textfield", "key": "secret", "label": "Password {}"}}]}}"#,
        joined(1)
    );
    [refused.clone(), accepted, refused, refused_again]
}

fn messages_body(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "usage": {"input_tokens": 1, "output_tokens": 1}})
}

fn chat_body(text: &str) -> Value {
    json!({"choices": [{"message": {"content": text}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 1, "completion_tokens": 1}})
}

/// `text` as the event stream of `wire`, in pieces of a few characters.
fn event_stream(wire: &str, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let pieces: Vec<String> = chars.chunks(6).map(|c| c.iter().collect()).collect();
    let ev = |name: &str, data: Value| format!("event: {name}\ndata: {data}\n\n");
    let mut body = String::new();
    if wire == "chat-completions" {
        for p in pieces {
            body += &format!(
                "data: {}\n\n",
                json!({"choices": [{"delta": {"content": p}, "finish_reason": null}]})
            );
        }
        body += &format!("data: {}\n\n", json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}));
        return body + "data: [DONE]\n\n";
    }
    body += &ev(
        "message_start",
        json!({"type": "message_start", "message": {"usage": {"input_tokens": 1, "output_tokens": 1}}}),
    );
    body += &ev(
        "content_block_start",
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
    );
    for p in pieces {
        body += &ev(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}),
        );
    }
    body += &ev("content_block_stop", json!({"type": "content_block_stop", "index": 0}));
    body += &ev(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}}),
    );
    body + &ev("message_stop", json!({"type": "message_stop"}))
}

/// A model double of `wire` that answers `hostile_texts(secrets)` (streamed when `streamed`), then
/// the two logged failures.
async fn hostile_model(wire: &str, streamed: bool, secrets: &[&str]) -> MockServer {
    let server = MockServer::start().await;
    for text in hostile_texts(secrets) {
        let template = match (streamed, wire) {
            (true, _) => ResponseTemplate::new(200)
                .set_body_raw(event_stream(wire, &text).into_bytes(), "text/event-stream"),
            (false, "chat-completions") => ResponseTemplate::new(200).set_body_json(chat_body(&text)),
            (false, _) => ResponseTemplate::new(200).set_body_json(messages_body(&text)),
        };
        Mock::given(method("POST")).respond_with(template).up_to_n_times(1).mount(&server).await;
    }
    let every: Vec<String> = secrets.iter().flat_map(|s| spellings(s)).collect();
    let echo = every.join(" ");
    let failures = [
        ResponseTemplate::new(200).set_body_string(format!("not json {echo}")),
        ResponseTemplate::new(400).set_body_string(
            json!({"type": "error", "error": {"type": "invalid_request_error", "message": format!("bad key {echo}")}})
                .to_string()
                .replace("\\\\u", "\\u"),
        ),
    ];
    for template in failures {
        Mock::given(method("POST")).respond_with(template).up_to_n_times(1).mount(&server).await;
    }
    server
}

/// A generation's whole answer: the JSON body, or the event stream's text.
async fn generation(app: &Router, worker: &str, streamed: bool) -> String {
    let mut req = Request::post("/api/formgen/generate").header("content-type", "application/json");
    if streamed {
        req = req.header("accept", "text/event-stream");
    }
    let body = json!({"description": "x", "worker": worker}).to_string();
    let response = app.clone().oneshot(req.body(Body::from(body)).unwrap()).await.unwrap();
    let headers = format!("{:?}", response.headers());
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    format!("{headers}\n{}", String::from_utf8_lossy(&bytes))
}

#[tokio::test]
async fn a_key_echoed_escaped_or_in_base64_appears_in_no_response_event_log_or_upstream_call() {
    const ENV_KEY: &str = "sk-escaped-env-7c3d91";
    const VAULT_KEY: &str = "sk-escaped-vault-2e8b44";
    const VAULT_TOKEN: &str = "hvs.escaped-token-5a6f";
    let (logs, _guard) = crate::common::logs::capture();
    // SAFETY: only this test reads or writes these variables.
    unsafe {
        std::env::set_var("FORMGEN_TEST_ESCAPED_KEY", ENV_KEY);
        std::env::set_var("FORMGEN_TEST_ESCAPED_VAULT_TOKEN", VAULT_TOKEN);
    }
    let vault = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/secret/data/escaped"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "data": {"data": {"key": VAULT_KEY}, "metadata": {"version": 1}}
        })))
        .mount(&vault)
        .await;
    let mut toml = String::new();
    let mut doubles = Vec::new();
    for wire in ["messages", "chat-completions"] {
        for streamed in [false, true] {
            for (source, credential, secrets) in [
                ("env", "env:FORMGEN_TEST_ESCAPED_KEY", vec![ENV_KEY]),
                ("vault", "vault:secret/escaped#key", vec![VAULT_KEY, VAULT_TOKEN]),
            ] {
                let server = hostile_model(wire, streamed, &secrets).await;
                let name = format!("{wire}-{}-{source}", if streamed { "streamed" } else { "plain" });
                let endpoint = if wire == "messages" { server.uri() } else { format!("{}/v1", server.uri()) };
                toml += &format!(
                    "[[workers]]\nname = \"{name}\"\nprovider = \"{wire}\"\nendpoint = \"{endpoint}\"\nmodel = \"m\"\ncredential = \"{credential}\"\nstructured_output = false\n"
                );
                doubles.push((name, streamed, server));
            }
        }
    }
    toml +=
        &format!("[vault]\naddr = \"{}\"\ntoken = \"env:FORMGEN_TEST_ESCAPED_VAULT_TOKEN\"\n", vault.uri());
    let app = app(&toml, Path::new("."));
    let mut seen = String::new();
    for (name, streamed, _) in &doubles {
        let mut answers = Vec::new();
        for _ in 0..4 {
            answers.push(generation(&app, name, *streamed).await);
        }
        let proposal = &answers[0];
        assert!(
            proposal.contains("Echo [REDACTED]"),
            "{name}: the label is redacted, not dropped: {proposal}"
        );
        assert!(
            answers[1].contains("unusable_answer")
                && answers[2].contains("model_failed")
                && answers[3].contains("model_failed"),
            "{name}: {answers:?}"
        );
        if *streamed {
            for event in ["event: repair", "event: proposal"] {
                assert!(proposal.contains(event), "{name}: {proposal}");
            }
            assert!(
                answers[1].contains("event: error") && answers[1].contains("problems"),
                "{name}: {}",
                answers[1]
            );
        }
        seen.push_str(&answers.concat());
    }
    let log = logs.text();
    assert!(
        log.contains("model endpoint rejected the request") && log.contains("not the wire format"),
        "{log}"
    );
    for secret in [ENV_KEY, VAULT_KEY, VAULT_TOKEN] {
        assert!(!holds(&seen, secret), "{secret} in a response or event: {seen}");
        assert!(!holds(&log, secret), "{secret} in a log line:\n{log}");
    }
    // the repair round quotes the refused answer and the refusal sentences: redacted too
    for (name, _, server) in &doubles {
        for r in server.received_requests().await.unwrap() {
            let body = String::from_utf8_lossy(&r.body);
            for secret in [ENV_KEY, VAULT_KEY, VAULT_TOKEN] {
                assert!(!holds(&body, secret), "{name}: {secret} went upstream: {body}");
            }
        }
    }
}

#[tokio::test]
async fn a_large_answer_is_redacted_as_a_small_one_is() {
    use formgen::model::{self, Bounds, ModelRequest};
    use formgen::workers::{ModelWorker, Wire};
    const KEY: &str = "sk-large-answer-9d1e";
    let padding = "x".repeat(200 * 1024);
    let text = format!(
        r#"{{"components": [{{"type": "text", "text": "{padding} {} {}"}}]}}"#,
        spellings(KEY)[1],
        spellings(KEY)[2]
    );
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat_body(&text)))
        .mount(&server)
        .await;
    let worker = ModelWorker::new(Wire::ChatCompletions, format!("{}/v1", server.uri()).parse().unwrap());
    let key = secrecy::SecretString::from(KEY);
    let request = ModelRequest {
        model: "m".into(),
        system: "s".into(),
        user: "u".into(),
        max_tokens: 100,
        json_schema: None,
        temperature: None,
    };
    let bounds = Bounds { timeout: std::time::Duration::from_secs(5), answer_bytes: 1 << 20 };
    let redactor = formgen::redact::Redactor::new([Some(&key)]);
    let answer =
        model::call(&model::client(), &worker, Some(&key), &request, bounds, &redactor).await.unwrap();
    assert!(answer.text.len() > 200 * 1024, "the answer is kept whole");
    let tail = &answer.text[answer.text.len() - 100..];
    assert_eq!(answer.text.matches("[REDACTED]").count(), 2, "{tail}");
    assert!(!holds(&answer.text, KEY));
}

// ---- a key echoed as HTML character references ---------------------------------------------------

/// `secret` as a browser would show it from references: decimal, hex, named entities, and a
/// reference escaped again (`&amp;#115;`, shown as `s` once rendered twice).
fn html_spellings(secret: &str) -> [String; 3] {
    let named = |c: char| match c {
        '-' => "&#45".to_string(),
        '_' => "&lowbar;".to_string(),
        '.' => "&period;".to_string(),
        c => c.to_string(),
    };
    [
        secret.chars().map(|c| format!("&#{};", c as u32)).collect(),
        secret
            .chars()
            .enumerate()
            .map(|(i, c)| if i % 2 == 0 { format!("&#x{:x};", c as u32) } else { named(c) })
            .collect(),
        secret.chars().map(|c| format!("&amp;#{};", c as u32)).collect(),
    ]
}

#[tokio::test]
async fn a_key_spelled_as_html_references_never_comes_back() {
    const KEY: &str = "sk-html-canary_4d.2f";
    // SAFETY: only this test reads or writes this variable.
    unsafe { std::env::set_var("FORMGEN_TEST_HTML_KEY", KEY) };
    let [decimal, mixed, twice] = html_spellings(KEY);
    let form = json!({"components": [
        {"type": "text", "text": format!("Your key: {decimal}")},
        {"type": "html", "content": format!("<p>Key <b>{mixed}</b></p>")},
        {"type": "textfield", "key": "note", "label": "Note", "description": format!("Echo {twice}")},
        // Markdown shows `sk-h**tml-ca**nary` as the key in bold type
        {"type": "text", "text": format!("Bold {}**{}**{}", &KEY[..4], &KEY[4..10], &KEY[10..])},
    ]})
    .to_string();
    let mut toml = String::new();
    let mut doubles = Vec::new();
    for streamed in [false, true] {
        let server = MockServer::start().await;
        let template = if streamed {
            ResponseTemplate::new(200)
                .set_body_raw(event_stream("messages", &form).into_bytes(), "text/event-stream")
        } else {
            ResponseTemplate::new(200).set_body_json(messages_body(&form))
        };
        Mock::given(method("POST")).respond_with(template).mount(&server).await;
        let name = if streamed { "streamed" } else { "plain" };
        toml += &format!(
            "{}structured_output = false\n",
            messages_worker(name, &server.uri(), "env:FORMGEN_TEST_HTML_KEY")
        );
        doubles.push((name, streamed, server));
    }
    let app = app(&toml, Path::new("."));
    for (name, streamed, _) in &doubles {
        let answer = generation(&app, name, *streamed).await;
        assert!(
            answer.contains("Your key: [REDACTED]"),
            "{name}: the text is redacted, not dropped: {answer}"
        );
        // what form-js would show: the answer's JSON decoded, then its HTML rendered
        let mut shown = answer.clone();
        for _ in 0..3 {
            shown = formgen_core::html::rendered(&unescape_all(&shown), 3);
        }
        assert!(!shown.contains(KEY) && !shown.contains("canary"), "{name}: the key came back: {answer}");
        assert!(answer.contains("Bold [REDACTED]"), "{name}: the emphasised key is redacted: {answer}");
    }
}
