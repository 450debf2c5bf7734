//! DNS rebinding: without authentication, formgen answers only requests addressed to a loopback name,
//! its listen address or a name of `server.allowed_hosts`; any other `Host` is answered 421
//! `host_not_allowed`, on every route. With authentication any host is served.

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::Value;
use tower::ServiceExt;

fn app(toml: &str) -> Router {
    let text = format!("{toml}\n[[workers]]\nname = \"builtin\"\nprovider = \"builtin\"\n");
    let config =
        Config::parse(&text, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"));
    formgen::http::router(Arc::new(Service::new(&config).unwrap()), &config)
}

async fn get(app: &Router, uri: &str, host: Option<&str>) -> (StatusCode, Value) {
    let mut req = Request::builder().uri(uri);
    if let Some(h) = host {
        req = req.header("host", h);
    }
    let response = app.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_rebound_name_is_refused_without_authentication() {
    let app = app("[server]\nlisten = \"127.0.0.1:8080\"");
    for host in
        ["attacker.example", "attacker.example:8080", "localhost.attacker.example", "127.0.0.1.nip.io:8080"]
    {
        for uri in ["/api/formgen/capability", "/healthz", "/metrics", "/openapi.json", "/"] {
            let (status, body) = get(&app, uri, Some(host)).await;
            assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{host} {uri}: {body}");
            assert_eq!(body["code"], "host_not_allowed", "{host} {uri}");
            assert!(body["error"].as_str().unwrap().contains("server.allowed_hosts"), "{body}");
        }
    }
}

#[tokio::test]
async fn loopback_names_and_the_listen_address_are_served_on_any_port() {
    let app = app("[server]\nlisten = \"127.0.0.2:9000\"");
    for host in [
        "localhost",
        "localhost:8080",
        "LOCALHOST:1",
        "127.0.0.1",
        "127.0.0.1:8080",
        "[::1]",
        "[::1]:8080",
        "127.0.0.2:9000",
        "127.0.0.2",
    ] {
        let (status, body) = get(&app, "/api/formgen/capability", Some(host)).await;
        assert_eq!(status, StatusCode::OK, "{host}: {body}");
    }
    // a request that names no host is no browser's
    assert_eq!(get(&app, "/healthz", None).await.0, StatusCode::OK);
}

#[tokio::test]
async fn allowed_hosts_adds_names() {
    let app = app("[server]\nallowed_hosts = [\"formgen.internal\", \"Modeler.Example.\"]");
    for host in ["formgen.internal", "formgen.internal:8080", "modeler.example", "localhost:8080"] {
        assert_eq!(get(&app, "/healthz", Some(host)).await.0, StatusCode::OK, "{host}");
    }
    assert_eq!(get(&app, "/healthz", Some("other.internal")).await.0, StatusCode::MISDIRECTED_REQUEST);
    let e = Config::parse(
        "[server]\nallowed_hosts = [\"https://x.example\", \"x.example:80\", \"ok.example\"]\n",
        "t",
        Path::new("."),
        false,
        &|k| (k == "FORMGEN_ALLOWED_HOSTS").then(|| "a b".to_string()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("FORMGEN_ALLOWED_HOSTS (server.allowed_hosts)[0]: \"a b\""), "{e}");
}

#[tokio::test]
async fn any_host_is_served_with_authentication() {
    let sha = "ab".repeat(32);
    let app = app(&format!(
        "[auth]\nmode = \"tokens\"\n[[auth.principals]]\nname = \"ana\"\ntoken_sha256 = \"{sha}\""
    ));
    assert_eq!(get(&app, "/healthz", Some("formgen.example.com")).await.0, StatusCode::OK);
}
