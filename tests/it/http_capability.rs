//! The capability probe and the choice of a Worker through the router: every principal/Worker
//! combination, the answers without or with an unknown token, and a Worker a principal may not use
//! answering exactly like a missing one.

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use formgen::config::Config;
use formgen::service::Service;
use serde_json::json;

use crate::http_common::{ANA, BOB, build, builtin_worker, call, config, generate, worker_names};

#[tokio::test]
async fn capability_lists_exactly_the_permitted_workers() {
    let workers = [
        builtin_worker("everyone", ""),
        builtin_worker("designers-only", "\"group:designers\""),
        builtin_worker("bob-only", "\"bob\""),
    ]
    .concat();
    let (app, _) = build(&config(&workers, ""));
    let (status, body, _) = call(&app, "GET", "/api/formgen/capability", Some(ANA), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(worker_names(&body), ["everyone", "designers-only"]);
    assert_eq!(body["available"], true);
    assert_eq!(body["workers"][0], json!({"name": "everyone", "model": "outline", "provider": "builtin"}));
    assert!(body["limits"]["descriptionChars"].as_u64().unwrap() > 0);
    let (_, body, _) = call(&app, "GET", "/api/formgen/capability", Some(BOB), None).await;
    assert_eq!(worker_names(&body), ["everyone", "bob-only"]);
    let (status, body, headers) = call(&app, "GET", "/api/formgen/capability", None, None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("unauthenticated")));
    assert_eq!(headers["www-authenticate"], "Bearer");
    let (status, body, _) = call(&app, "GET", "/api/formgen/capability", Some("stolen"), None).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("unknown_principal")));

    // no Worker in reach: the button should not be drawn
    let (app, _) = app_for(&config(&builtin_worker("designers-only", "\"group:designers\""), ""));
    let (_, body, _) = call(&app, "GET", "/api/formgen/capability", Some(BOB), None).await;
    assert_eq!((body["available"].as_bool(), body["workers"].as_array().unwrap().len()), (Some(false), 0));
    let (status, body, _) = generate(&app, BOB, json!({"description": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::SERVICE_UNAVAILABLE, Some("no_worker")));
}

fn app_for(c: &Config) -> (Router, Arc<Service>) {
    build(c)
}

#[tokio::test]
async fn choosing_a_worker() {
    let workers =
        [builtin_worker("a", ""), builtin_worker("b", ""), builtin_worker("secret-b", "\"group:ops\"")]
            .concat();
    let (app, _) = build(&config(&workers, ""));
    let (status, body, _) = generate(&app, ANA, json!({"description": "x"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("worker_required")));
    assert!(body["error"].as_str().unwrap().contains("(a, b)"), "{body}");
    // a Worker this principal may not use answers exactly like a missing one: no names to enumerate
    let (status, hidden, _) = generate(&app, ANA, json!({"description": "x", "worker": "secret-b"})).await;
    assert_eq!((status, hidden["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_worker")));
    assert_eq!(hidden["error"], "There is no Worker named \"secret-b\".");
    let (status, body, _) = generate(&app, ANA, json!({"description": "x", "worker": "gpt"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_worker")));
    assert_eq!(body["error"], "There is no Worker named \"gpt\".");
    assert_eq!(hidden["error"].as_str().unwrap().replace("secret-b", "gpt"), body["error"]);
    let (status, body, _) = generate(&app, ANA, json!({"description": "x", "worker": "b"})).await;
    assert_eq!((status, body["worker"].as_str()), (StatusCode::OK, Some("b")));
}
