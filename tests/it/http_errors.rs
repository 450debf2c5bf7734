//! Requests the HTTP API refuses before any work: bodies that are not the request (400, 415), an
//! unknown path (404), and every size limit (413, a length claim refused before a byte is read).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use tower::ServiceExt;

use crate::http_common::{ANA, build, builtin_worker, call, config, generate, vacation_xml};

#[tokio::test]
async fn bad_bodies_are_400_with_a_sentence() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let req = Request::post("/api/formgen/generate")
        .header("authorization", format!("Bearer {ANA}"))
        .header("content-type", "application/json")
        .body(Body::from("{\"description\": "))
        .unwrap();
    let response = app.clone().oneshot(req).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let (status, body, _) = generate(&app, ANA, json!({"descripton": "typo"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("bad_request")));
    assert!(body["error"].as_str().unwrap().contains("unknown field `descripton`"), "{body}");
    let req = Request::post("/api/formgen/generate")
        .header("authorization", format!("Bearer {ANA}"))
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, body, _) = call(&app, "GET", "/nope", None, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("not_found")));
}

#[tokio::test]
async fn limits_are_413() {
    let extra =
        "[limits]\ndescription_chars = 10\nbpmn_bytes = 2000\nschema_bytes = 100\nrequest_body_bytes = 50000";
    let (app, _) = build(&config(&builtin_worker("builtin", ""), extra));
    let (status, body, _) = generate(&app, ANA, json!({"description": "a".repeat(11)})).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("description_too_long"))
    );
    assert!(body["error"].as_str().unwrap().contains("11 characters"), "{body}");
    let (status, body, _) = generate(&app, ANA, json!({"processXml": vacation_xml()})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("bpmn_too_large")));
    let big_form = json!({"components": [{"type": "textfield", "key": "a", "label": "x".repeat(200)}]});
    let (status, body, _) = generate(&app, ANA, json!({"description": "x", "schema": big_form})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("schema_too_large")));
    let (status, body, _) = generate(&app, ANA, json!({"description": "x".repeat(60_000)})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("body_too_large")));
    // a 2 GB length claim is refused before a byte of it is read
    let req = Request::post("/api/formgen/generate")
        .header("authorization", format!("Bearer {ANA}"))
        .header("content-type", "application/json")
        .header("content-length", "2147483648")
        .body(Body::from("{}"))
        .unwrap();
    assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::PAYLOAD_TOO_LARGE);
}
