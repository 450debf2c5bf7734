//! `POST /api/formgen/outline` through the router: what of a process would leave the building for a
//! model, with the editor's forms read as the process's project and bounded.

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::http_common::{ANA, build, builtin_worker, call, config, vacation_xml};

#[tokio::test]
async fn outline_shows_what_leaves_the_building() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let (status, body, _) = call(
        &app,
        "POST",
        "/api/formgen/outline",
        Some(ANA),
        Some(json!({"processXml": vacation_xml(), "elementId": "Task_approve"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["process"]["id"], "vacation-request");
    assert_eq!(body["process"]["elements"][0]["formId"], "vacation-request-form");
    assert!(body["text"].as_str().unwrap().contains("The form is for the step \"Antrag prüfen\""));
    assert_eq!(body["processSource"], "request");
    assert_eq!(body["step"]["elementId"], "Task_approve");
    assert_eq!(body["step"]["decidedOn"][0]["name"], "approved");
    assert!(body["text"].as_str().unwrap().contains("The data at this step:"));
    let (status, _, _) = call(&app, "POST", "/api/formgen/outline", Some(ANA), Some(json!({}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    // the editor's forms are read as the process's project, and bounded
    let sibling = json!({"id": "other", "components": [{"type": "textfield", "key": "vertretung", "label": "Stellvertretung"}]});
    let (status, body, _) = call(
        &app,
        "POST",
        "/api/formgen/outline",
        Some(ANA),
        Some(json!({"processXml": vacation_xml(), "elementId": "Task_approve", "forms": [sibling]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(body["text"].as_str().unwrap().contains("Stellvertretung"), "{}", body["text"]);
    let many: Vec<Value> = (0..201).map(|i| json!({"id": format!("f{i}"), "components": []})).collect();
    let (status, body, _) = call(
        &app,
        "POST",
        "/api/formgen/outline",
        Some(ANA),
        Some(json!({"processXml": vacation_xml(), "forms": many})),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::PAYLOAD_TOO_LARGE, Some("project_too_large")),
        "{body}"
    );
}
