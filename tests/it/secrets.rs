//! A known secret in use from the vault to the model endpoint: it appears nowhere but the outgoing
//! auth header — not in any log line (every level, every crate), not in any error or `Debug`, not in
//! the request body, URL or other headers.

use std::time::Duration;

use formgen::credentials::{CredentialRef, Credentials, VaultTokenRef};
use formgen::model::{self, Bounds, ModelRequest};
use formgen::vault::Vault;
use formgen::workers::{ModelWorker, Wire};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SECRET: &str = "sk-ant-SECRET-4f1c9a7e2b";
const VAULT_TOKEN: &str = "hvs.VAULT-TOKEN-77aa";

fn worker(wire: Wire, endpoint: &str) -> ModelWorker {
    ModelWorker {
        credential: CredentialRef::parse("vault:secret/formgen#anthropic").unwrap(),
        ..ModelWorker::new(wire, endpoint.parse().unwrap())
    }
}

#[tokio::test]
async fn the_secret_appears_only_in_the_auth_header() {
    let (logs, _guard) = crate::common::logs::capture();
    // SAFETY: only this test reads or writes this variable.
    unsafe { std::env::set_var("FORMGEN_TEST_SECRETS_VAULT_TOKEN", VAULT_TOKEN) };

    let vault_server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/secret/data/formgen"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "data": {"data": {"anthropic": SECRET, "other": "unrelated"}, "metadata": {"version": 3}}
        })))
        .mount(&vault_server)
        .await;
    let vault = (
        Vault::new(vault_server.uri().parse().unwrap(), None),
        VaultTokenRef::Env("FORMGEN_TEST_SECRETS_VAULT_TOKEN".into()),
    );
    let credentials = Credentials::new(Some(vault), Duration::from_secs(30));

    let model_server = MockServer::start().await;
    // a provider that echoes what it was sent in its error body
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({
            "type": "error", "error": {"type": "invalid_request_error", "message": format!("bad key {SECRET}")}
        })))
        .up_to_n_times(1)
        .mount(&model_server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(ResponseTemplate::new(200).set_body_string(format!("not json, echo: {SECRET}")))
        .up_to_n_times(1)
        .mount(&model_server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "content": [{"type": "text", "text": "{\"components\": []}"}], "stop_reason": "end_turn"
        })))
        .mount(&model_server)
        .await;

    let w = worker(Wire::Messages, &model_server.uri());
    let key = credentials.resolve(&w.credential).await.unwrap().unwrap();
    let request = ModelRequest {
        model: "m".into(),
        system: "s".into(),
        user: "u".into(),
        max_tokens: 10,
        json_schema: None,
        temperature: None,
    };
    let bounds = Bounds { timeout: Duration::from_secs(5), answer_bytes: 1 << 20 };
    let redactor = credentials.redactor(&w.credential, Some(&key)).await;
    let client = model::client();
    let mut seen = Vec::new();
    for _ in 0..3 {
        match model::call(&client, &w, Some(&key), &request, bounds, &redactor).await {
            Ok(answer) => seen.push(format!("{answer:?}")),
            Err(e) => seen.push(format!("{e} {e:?}")),
        }
    }
    seen.push(format!("{w:?} {credentials:?} {key:?}"));

    // chat-completions too
    let chat_server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(401).set_body_string(format!("invalid {SECRET}")))
        .mount(&chat_server)
        .await;
    let chat = worker(Wire::ChatCompletions, &chat_server.uri());
    let e = model::call(&client, &chat, Some(&key), &request, bounds, &redactor).await.unwrap_err();
    seen.push(format!("{e} {e:?}"));

    // a vault that is down: the error names the reference, not a value
    let down = (
        Vault::new("http://127.0.0.1:9".parse().unwrap(), None),
        VaultTokenRef::Env("FORMGEN_TEST_SECRETS_VAULT_TOKEN".into()),
    );
    let e = Credentials::new(Some(down), Duration::ZERO).resolve(&w.credential).await.unwrap_err();
    assert!(e.to_string().contains("vault:secret/formgen#anthropic"), "{e}");
    seen.push(format!("{e} {e:?}"));

    for text in &seen {
        assert!(!text.contains(SECRET), "secret in an error or Debug: {text}");
        assert!(!text.contains(VAULT_TOKEN), "vault token in an error or Debug: {text}");
    }
    let log = logs.text();
    assert!(log.contains("model endpoint rejected the request"), "the capture works: {log}");
    assert!(log.contains("[REDACTED]"), "the echoed key was redacted: {log}");
    assert!(!log.contains(SECRET), "secret in the logs:\n{log}");
    assert!(!log.contains(VAULT_TOKEN), "vault token in the logs:\n{log}");

    // the model endpoints saw the key exactly where it belongs
    for server in [&model_server, &chat_server] {
        for r in server.received_requests().await.unwrap() {
            let auth: Vec<String> = r
                .headers
                .iter()
                .filter(|(_, v)| v.to_str().unwrap_or("").contains(SECRET))
                .map(|(n, _)| n.as_str().to_string())
                .collect();
            assert_eq!(auth.len(), 1, "the key is in exactly one header: {auth:?}");
            assert!(auth[0] == "x-api-key" || auth[0] == "authorization", "{auth:?}");
            assert!(!String::from_utf8_lossy(&r.body).contains(SECRET), "the key is not in the body");
            assert!(!r.url.as_str().contains(SECRET), "the key is not in the URL");
        }
    }
    // the vault saw its token as X-Vault-Token only
    let vault_requests = vault_server.received_requests().await.unwrap();
    assert_eq!(vault_requests.len(), 1, "the credential is cached");
    assert_eq!(vault_requests[0].headers.get("x-vault-token").unwrap(), VAULT_TOKEN);
}
