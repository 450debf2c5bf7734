//! The operational endpoints through the router: `/healthz`, the OpenAPI document, CORS preflights,
//! and the built page served at the root when there is one.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tower::ServiceExt;

use crate::http_common::{ANA, build, builtin_worker, call, config};

#[tokio::test]
async fn operations_endpoints() {
    let (app, _) = build(&config(
        &builtin_worker("builtin", ""),
        "[server]\ncors_origins = [\"http://localhost:8081\"]",
    ));
    let (status, body, headers) = call(&app, "GET", "/healthz", None, None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, Some("ok\n")));
    assert!(headers["x-request-id"].to_str().unwrap().len() > 8);
    let (status, doc, _) = call(&app, "GET", "/openapi.json", None, None).await;
    assert_eq!(status, StatusCode::OK);
    for p in
        ["/api/formgen/capability", "/api/formgen/generate", "/api/formgen/validate", "/api/formgen/outline"]
    {
        assert!(doc["paths"][p].is_object(), "{p} missing from the OpenAPI document");
    }
    assert!(doc["components"]["schemas"]["GenerateRequest"]["properties"]["processXml"].is_object());

    let preflight = Request::builder()
        .method("OPTIONS")
        .uri("/api/formgen/generate")
        .header("origin", "http://localhost:8081")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,authorization")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(preflight).await.unwrap();
    assert_eq!(response.headers()["access-control-allow-origin"], "http://localhost:8081");
    let other = Request::builder()
        .method("OPTIONS")
        .uri("/api/formgen/generate")
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(other).await.unwrap();
    assert!(response.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn the_built_page_is_served_at_the_root_when_there_is_one() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>formgen</title>").unwrap();
    std::fs::write(web.path().join("app.js"), "console.log('formgen')").unwrap();
    let extra = format!("[server]\nweb_dir = \"{}\"", web.path().display());
    let (app, _) = build(&config(&builtin_worker("builtin", ""), &extra));
    let (status, body, _) = call(&app, "GET", "/", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.as_str().unwrap().contains("<title>formgen</title>"));
    let (status, body, _) = call(&app, "GET", "/app.js", None, None).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, Some("console.log('formgen')")));
    let (status, body, _) = call(&app, "GET", "/api/formgen/capability", Some(ANA), None).await;
    assert_eq!((status, body["available"].as_bool()), (StatusCode::OK, Some(true)), "the API is unchanged");

    // not built: the service runs without it
    let (app, _) =
        build(&config(&builtin_worker("builtin", ""), "[server]\nweb_dir = \"/nonexistent/dist\""));
    let (status, body, _) = call(&app, "GET", "/", None, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}
