//! Header-mode authentication through the router: the forwarded user and groups are believed only
//! from the trusted proxy's address.

use std::path::Path;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use serde_json::Value;
use tower::ServiceExt;

use crate::http_common::{build, builtin_worker, worker_names};

#[tokio::test]
async fn header_mode_believes_only_the_trusted_proxy() {
    use axum::extract::connect_info::MockConnectInfo;
    let text = format!(
        "[auth]\nmode = \"header\"\ntrusted_proxies = [\"10.0.0.5\"]\n{}{}",
        builtin_worker("everyone", ""),
        builtin_worker("designers-only", "\"group:designers\"")
    );
    let cfg = Config::parse(&text, "test", Path::new("."), false, &|_| None).unwrap();
    let (app, _) = build(&cfg);
    let from =
        |ip: &str| app.clone().layer(MockConnectInfo(std::net::SocketAddr::new(ip.parse().unwrap(), 40000)));
    let request = |user: &str, groups: &str| {
        Request::get("/api/formgen/capability")
            .header("x-forwarded-user", user)
            .header("x-forwarded-groups", groups)
            .body(Body::empty())
            .unwrap()
    };
    let read = |r: axum::response::Response| async move {
        let status = r.status();
        let bytes = axum::body::to_bytes(r.into_body(), usize::MAX).await.unwrap();
        (status, serde_json::from_slice::<Value>(&bytes).unwrap())
    };
    let (status, body) =
        read(from("10.0.0.5").oneshot(request("ana", "ops, designers")).await.unwrap()).await;
    assert_eq!(
        (status, worker_names(&body)),
        (StatusCode::OK, vec!["everyone".to_string(), "designers-only".to_string()])
    );
    let (_, body) = read(from("10.0.0.5").oneshot(request("bob", "")).await.unwrap()).await;
    assert_eq!(worker_names(&body), ["everyone"]);
    let (status, body) = read(from("10.0.0.6").oneshot(request("ana", "designers")).await.unwrap()).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("unknown_principal")),
        "not the proxy"
    );
    let no_user = Request::get("/api/formgen/capability").body(Body::empty()).unwrap();
    let (status, _) = read(from("10.0.0.5").oneshot(no_user).await.unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}
