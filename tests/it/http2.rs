//! A model endpoint over HTTPS is asked over HTTP/2 when it offers it (ALPN), as the hosted providers
//! do: one connection's state shared by every waiting generation, not a connection each. The
//! `formgen` binary is run against a TLS model double whose self-signed certificate is the only one
//! it trusts (`SSL_CERT_FILE`), so nothing here reaches a real network.

use std::sync::{Arc, Mutex};

/// The HTTP versions the double was asked in, in order.
type Seen = Arc<Mutex<Vec<hyper::Version>>>;

/// A chat-completions double over TLS for `localhost`, speaking HTTP/2 or HTTP/1.1 as the client's
/// ALPN chooses; answers every request with a small valid form. Returns its URL, what it saw and the
/// PEM file of its certificate.
async fn tls_model(dir: &std::path::Path) -> (String, Seen, std::path::PathBuf) {
    let seen: Seen = Arc::default();
    let record = seen.clone();
    let (port, pem) = crate::common::tls_double::serve(dir, move |request| {
        record.lock().unwrap().push(request.version());
        async move {
            let _ = http_body_util::BodyExt::collect(request.into_body()).await;
            let form = serde_json::json!({"components": [
                {"type": "checkbox", "key": "approved", "label": "Approved"}
            ]});
            let answer = serde_json::json!({
                "choices": [{"message": {"role": "assistant", "content": form.to_string()}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5}
            });
            hyper::Response::builder().header("content-type", "application/json").body(answer.to_string()).unwrap()
        }
    })
    .await;
    (format!("https://localhost:{port}/v1"), seen, pem)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_model_that_offers_http2_is_asked_over_http2() {
    let dir = tempfile::tempdir().unwrap();
    let (endpoint, seen, pem) = tls_model(dir.path()).await;
    let config = dir.path().join("formgen.toml");
    std::fs::write(
        &config,
        format!(
            "[[workers]]\nname = \"hosted\"\nprovider = \"chat-completions\"\nendpoint = \"{endpoint}\"\nmodel = \"m\"\ncredential = \"none\"\n"
        ),
    )
    .unwrap();
    let bpmn = format!("{}/fixtures/bpmn/vacation.bpmn", env!("CARGO_MANIFEST_DIR"));
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_formgen"))
            .args(["generate", &bpmn, "--element", "Task_approve", "--worker", "hosted", "--config"])
            .arg(&config)
            .env("SSL_CERT_FILE", &pem)
            .env_remove("SSL_CERT_DIR")
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("\"approved\""), "{stdout}");
    assert_eq!(*seen.lock().unwrap(), vec![hyper::Version::HTTP_2]);
}
