//! The TLS side of an HTTPS model double, shared by the HTTP/2 test and the service bench: a
//! self-signed certificate for `localhost`, written as the PEM file the server under test is told to
//! trust (`SSL_CERT_FILE`), and a listener that serves each connection over HTTP/2 when the client
//! offers it (ALPN, as hosted providers do) and over HTTP/1.1 when it does not.

use std::convert::Infallible;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio_rustls::rustls;

/// A request as the double receives it.
pub type Request = hyper::Request<hyper::body::Incoming>;

/// Serves `handle` over TLS on a loopback port. Returns the port and the certificate's PEM file.
pub async fn serve<F, Fut>(dir: &Path, handle: F) -> (u16, PathBuf)
where
    F: Fn(Request) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = hyper::Response<String>> + Send + 'static,
{
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_string()]).unwrap();
    let pem = dir.join("model-double.pem");
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
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let (acceptor, handle) = (acceptor.clone(), handle.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(socket).await else { return };
                let h2 = tls.get_ref().1.alpn_protocol() == Some(b"h2");
                let service = hyper::service::service_fn(move |request: Request| {
                    let answer = handle(request);
                    async move { Ok::<_, Infallible>(answer.await) }
                });
                let io = hyper_util::rt::TokioIo::new(tls);
                if h2 {
                    let _ = hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new())
                        .max_concurrent_streams(100_000)
                        .serve_connection(io, service)
                        .await;
                } else {
                    let _ = hyper::server::conn::http1::Builder::new().serve_connection(io, service).await;
                }
            });
        }
    });
    (port, pem)
}
