//! `POST /api/formgen/generate` with the builtin Worker through the router: the process from the
//! request, the deployment or a draft, the form ids it stamps, and the statuses of a request that
//! names what is not there.

use axum::http::StatusCode;
use serde_json::json;

use crate::http_common::{ANA, build, builtin_worker, config, generate, vacation_xml};

#[tokio::test]
async fn generate_with_the_builtin_worker_from_the_request_and_the_store() {
    let store = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(store.path().join("deployed")).unwrap();
    std::fs::create_dir_all(store.path().join("drafts")).unwrap();
    std::fs::copy(
        crate::common::fixtures().join("bpmn/vacation.bpmn"),
        store.path().join("deployed/vacation.bpmn"),
    )
    .unwrap();
    let extra = format!("[processes]\ndir = \"{}\"", store.path().display());
    let (app, _) = build(&config(&builtin_worker("builtin", ""), &extra));

    let (status, body, headers) = generate(
        &app,
        ANA,
        json!({"processXml": vacation_xml(), "elementId": "Task_approve", "formId": "approve-vacation"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(headers.contains_key("x-request-id"));
    assert_eq!(body["schema"]["id"], "approve-vacation");
    assert_eq!(
        (body["processSource"].as_str(), body["processId"].as_str()),
        (Some("request"), Some("vacation-request"))
    );
    assert_eq!(
        (body["elementId"].as_str(), body["worker"].as_str(), body["model"].as_str()),
        (Some("Task_approve"), Some("builtin"), Some("outline"))
    );
    assert_eq!((body["usage"]["inputTokens"].as_u64(), body["attempts"].as_u64()), (Some(0), Some(1)));

    let (_, body, _) =
        generate(&app, ANA, json!({"processXml": vacation_xml(), "elementId": "Task_hr"})).await;
    assert_eq!(body["schema"]["id"], "vacation-request-Task_hr", "a new form gets an id no other step binds");
    let (status, body, _) =
        generate(&app, ANA, json!({"processId": "vacation-request", "elementId": "Task_approve"})).await;
    assert_eq!((status, body["processSource"].as_str()), (StatusCode::OK, Some("deployment")));
    assert_eq!(body["schema"]["id"], "approve-vacation", "the id the step already binds");
    std::fs::copy(
        crate::common::fixtures().join("bpmn/vacation.bpmn"),
        store.path().join("drafts/vacation-v2.bpmn"),
    )
    .unwrap();
    let (_, body, _) = generate(&app, ANA, json!({"processId": "vacation-request"})).await;
    assert_eq!(body["processSource"], "draft", "a draft wins over the deployment, without a restart");

    let (status, body, _) = generate(&app, ANA, json!({"processId": "nope"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_process")));
    assert!(body["error"].as_str().unwrap().contains("\"nope\""));
    let (status, body, _) =
        generate(&app, ANA, json!({"processXml": vacation_xml(), "elementId": "Task_nope"})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::NOT_FOUND, Some("unknown_element")));
    assert!(body["error"].as_str().unwrap().contains("\"Task_nope\""));

    // a description alone is a complete request; a draft that does not parse still gets a form
    let (status, body, _) = generate(&app, ANA, json!({"description": "Reisekostenabrechnung"})).await;
    assert_eq!((status, body["processSource"].as_str()), (StatusCode::OK, Some("")));
    let (status, body, _) =
        generate(&app, ANA, json!({"description": "Expenses", "processXml": "<not bpmn"})).await;
    assert_eq!(status, StatusCode::OK);
    assert!(body["warnings"][0].as_str().unwrap().contains("could not be read"));

    let (status, body, _) = generate(&app, ANA, json!({})).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("brief_required")));
}
