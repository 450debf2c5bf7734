//! Who can see what, through the router: `/metrics` only for the operators `auth.metrics` names
//! (loopback in `none` mode), so no one reads the name of a Worker they may not use there,
//! header mode refusing a second identity header with a sentence for the operator, and an
//! IPv4-mapped IPv6 peer matching its IPv4 proxy.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::connect_info::MockConnectInfo;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use formgen::service::Service;
use serde_json::Value;
use tower::ServiceExt;

fn app(toml: &str, peer: &str) -> Router {
    let config =
        Config::parse(toml, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"));
    let service = Arc::new(Service::new(&config).unwrap());
    formgen::http::router(service, &config).layer(MockConnectInfo(peer.parse::<SocketAddr>().unwrap()))
}

async fn get(app: &Router, uri: &str, headers: &[(&str, &str)]) -> (StatusCode, String) {
    let mut req = Request::get(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let response = app.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

const HEADER_MODE: &str = "[auth]\nmode = \"header\"\ntrusted_proxies = [\"10.0.0.5\"]\nmetrics = [\"group:ops\"]\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\nallow = [\"group:ops\"]\n";

#[tokio::test]
async fn metrics_are_for_operators_and_loopback_only_without_auth() {
    let none = "[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n";
    let (status, body) = get(&app(none, "127.0.0.1:5000"), "/metrics", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("formgen_"), "{body}");
    let (status, body) = get(&app(none, "[::ffff:127.0.0.1]:5000"), "/metrics", &[]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = get(&app(none, "192.168.1.9:5000"), "/metrics", &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["code"], "forbidden");

    let header = app(HEADER_MODE, "10.0.0.5:5000");
    assert_eq!(get(&header, "/metrics", &[]).await.0, StatusCode::UNAUTHORIZED);
    let ops = [("x-forwarded-user", "ana"), ("x-forwarded-groups", "ops")];
    assert_eq!(get(&header, "/metrics", &ops).await.0, StatusCode::OK);
    let (status, body) = get(&header, "/metrics", &[("x-forwarded-user", "ana")]).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let elsewhere = app(HEADER_MODE, "10.0.0.6:5000");
    assert_eq!(get(&elsewhere, "/metrics", &ops).await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_second_identity_header_is_refused_with_a_sentence_for_the_operator() {
    let (logs, _guard) = crate::common::logs::capture();
    let app = app(HEADER_MODE, "10.0.0.5:5000");
    let ok =
        get(&app, "/api/formgen/capability", &[("x-forwarded-user", "bob"), ("x-forwarded-groups", "ops")])
            .await;
    assert_eq!(ok.0, StatusCode::OK);
    assert!(ok.1.contains("\"name\":\"b\""), "{}", ok.1);
    // a proxy that appends lets the client put its own identity first
    let twice = [("x-forwarded-user", "mallory"), ("x-forwarded-user", "bob")];
    let (status, body) = get(&app, "/api/formgen/capability", &twice).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["code"], "unknown_principal");
    assert!(body["error"].as_str().unwrap().contains("X-Forwarded-User header more than once"), "{body}");
    let groups =
        [("x-forwarded-user", "bob"), ("x-forwarded-groups", "staff"), ("x-forwarded-groups", "ops")];
    assert_eq!(get(&app, "/api/formgen/capability", &groups).await.0, StatusCode::UNAUTHORIZED);
    let log = logs.text();
    assert!(
        log.contains(
            "configure the proxy to replace the identity headers a client sends, not to append to them"
        ),
        "{log}"
    );
}

#[tokio::test]
async fn an_ipv4_mapped_peer_matches_its_ipv4_proxy() {
    let mapped = app(HEADER_MODE, "[::ffff:10.0.0.5]:5000");
    let (status, body) = get(
        &mapped,
        "/api/formgen/capability",
        &[("x-forwarded-user", "bob"), ("x-forwarded-groups", "ops")],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let other = app(HEADER_MODE, "[::ffff:10.0.0.6]:5000");
    assert_eq!(
        get(&other, "/api/formgen/capability", &[("x-forwarded-user", "bob")]).await.0,
        StatusCode::UNAUTHORIZED
    );
}

fn sha(token: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(token.as_bytes()))
}

/// Tokens mode: ana designs, carl is in finance (the only one who may use "payroll-draft"), prom
/// scrapes the metrics as an operator.
fn tokens_mode(metrics: &str) -> String {
    format!(
        "[auth]\nmode = \"tokens\"\n{metrics}\n\
         [[auth.principals]]\nname = \"ana\"\ntoken_sha256 = \"{}\"\ngroups = [\"designers\"]\n\
         [[auth.principals]]\nname = \"carl\"\ntoken_sha256 = \"{}\"\ngroups = [\"finance\"]\n\
         [[auth.principals]]\nname = \"prom\"\ntoken_sha256 = \"{}\"\ngroups = [\"operators\"]\n\
         [[workers]]\nname = \"b\"\nprovider = \"builtin\"\n\
         [[workers]]\nname = \"payroll-draft\"\nprovider = \"builtin\"\nallow = [\"group:finance\"]\n",
        sha("ana-token"),
        sha("carl-token"),
        sha("prom-token")
    )
}

async fn post(app: &Router, uri: &str, token: &str, body: Value) -> (StatusCode, String) {
    let req = Request::post(uri)
        .header("authorization", format!("Bearer {token}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

#[tokio::test]
async fn no_principal_reads_the_name_of_a_worker_it_may_not_use_in_the_metrics() {
    let app = app(&tokens_mode("metrics = [\"group:operators\"]"), "10.1.2.3:5000");
    let bearer = |t: &'static str| [("authorization", format!("Bearer {t}"))];
    let (status, body) = post(
        &app,
        "/api/formgen/generate",
        "carl-token",
        serde_json::json!({"description": "Salary change", "worker": "payroll-draft"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = post(
        &app,
        "/api/formgen/generate",
        "ana-token",
        serde_json::json!({"description": "x", "worker": "payroll-draft"}),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "ana may not use it: {body}");
    for who in ["ana-token", "carl-token"] {
        let [(k, v)] = bearer(who);
        let (status, body) = get(&app, "/metrics", &[(k, &v)]).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{who}: {body}");
        assert!(!body.contains("payroll-draft"), "{who}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["code"], "forbidden");
        assert!(body["error"].as_str().unwrap().contains("auth.metrics"), "{body}");
    }
    let [(k, v)] = bearer("prom-token");
    let (status, body) = get(&app, "/metrics", &[(k, &v)]).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body.contains("formgen_generations_total{worker=\"payroll-draft\",outcome=\"ok\"} 1"), "{body}");
    assert_eq!(get(&app, "/metrics", &[]).await.0, StatusCode::UNAUTHORIZED);

    // by name too, and without auth.metrics no principal reads them
    let by_name = app_for(&tokens_mode("metrics = [\"prom\"]"));
    let [(k, v)] = bearer("prom-token");
    assert_eq!(get(&by_name, "/metrics", &[(k, &v)]).await.0, StatusCode::OK);
    let nobody = app_for(&tokens_mode(""));
    for who in ["ana-token", "prom-token"] {
        let [(k, v)] = bearer(who);
        assert_eq!(get(&nobody, "/metrics", &[(k, &v)]).await.0, StatusCode::FORBIDDEN, "{who}");
    }
}

fn app_for(toml: &str) -> Router {
    app(toml, "10.1.2.3:5000")
}
