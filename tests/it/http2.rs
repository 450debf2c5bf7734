//! A model endpoint over HTTPS is asked over HTTP/2 when it offers it (ALPN), as the hosted providers
//! do: one connection's state shared by every waiting generation, not a connection each. The
//! `formgen` binary is run against a TLS model double whose self-signed certificate is the only one
//! it trusts (`SSL_CERT_FILE`), so nothing here reaches a real network.

use std::sync::{Arc, Mutex};

use tokio_rustls::rustls;

/// The HTTP versions the double was asked in, in order.
type Seen = Arc<Mutex<Vec<hyper::Version>>>;

/// A chat-completions double over TLS for `localhost`, speaking HTTP/2 or HTTP/1.1 as the client's
/// ALPN chooses; answers every request with a small valid form. Returns its URL, what it saw and the
/// PEM file of its certificate.
async fn tls_model(dir: &std::path::Path) -> (String, Seen, std::path::PathBuf) {
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let pem = dir.join("model.pem");
    std::fs::write(&pem, certified.cert.pem()).unwrap();
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let key = rustls::pki_types::PrivateKeyDer::Pkcs8(certified.signing_key.serialize_der().into());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certified.cert.der().clone()], key)
        .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://localhost:{}/v1", listener.local_addr().unwrap().port());
    let seen: Seen = Arc::default();
    let record = seen.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (acceptor, record) = (acceptor.clone(), record.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(socket).await else { return };
                let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
                let service = hyper::service::service_fn(
                    move |request: hyper::Request<hyper::body::Incoming>| {
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
                            let response = hyper::Response::builder()
                                .header("content-type", "application/json")
                                .body(answer.to_string())
                                .unwrap();
                            Ok::<_, std::convert::Infallible>(response)
                        }
                    },
                );
                let io = hyper_util::rt::TokioIo::new(tls);
                if h2 {
                    let builder =
                        hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new());
                    let _ = builder.serve_connection(io, service).await;
                } else {
                    let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
                }
            });
        }
    });
    (url, seen, pem)
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
