//! `POST /api/formgen/validate` through the router: an accepted form with its warnings, one that
//! breaks the gate's rules with an error finding per problem, text with a JSON mistake refused with
//! its line and column, and the gate on a huge form, which runs off the async threads and stops
//! at its time.

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::common::wait::until_async_within;
use crate::http_common::{ANA, build, builtin_worker, call, config, vacation_xml};

#[tokio::test]
async fn validate_accepts_or_lists_every_problem() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let ok = json!({"schema": {"components": [{"type": "number", "key": "vacationDays", "label": "Vacation days"}]}, "formId": "f", "processXml": vacation_xml()});
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(ok)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["schema"]["id"], "f");
    assert!(body["warnings"][0].as_str().unwrap().contains("`urlaubstage`"), "{body}");
    let bad = json!({"text": "```json\n{\"components\":[{\"type\":\"textfield\",\"key\":\"pw\",\"label\":\"Password\"},{\"type\":\"number\",\"key\":\"n\",\"label\":\"N\",\"validate\":{\"min\":2,\"max\":1}}]}\n```"});
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(bad)).await;
    assert_eq!(status, StatusCode::OK, "a form that breaks rules is still checked: {body}");
    let findings = body["findings"].as_array().unwrap();
    let codes: Vec<(&str, &str, &str)> = findings
        .iter()
        .map(|f| (f["code"].as_str().unwrap(), f["key"].as_str().unwrap(), f["severity"].as_str().unwrap()))
        .collect();
    assert_eq!(codes, [("secret_field", "pw", "error"), ("invalid_validation", "n", "error")], "{body}");
    assert!(findings[0]["message"].as_str().unwrap().starts_with("The field \"Password\""));
    let typo = json!({"text": "{\"components\": [\n  {\"type\": \"textfield\",, \"key\": \"a\"}]}"});
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(typo)).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("schema_refused")));
    let problem = body["problems"][0].as_str().unwrap();
    assert!(problem.contains("line 2, column 24") && !problem.contains("answer"), "{problem}");
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(json!({}))).await;
    assert_eq!((status, body["code"].as_str()), (StatusCode::BAD_REQUEST, Some("form_required")));
}

/// A form the gate works on for seconds in a debug build (it is linear, so it takes many fields).
fn huge_form() -> Value {
    let components: Vec<Value> = (0..50_000)
        .map(|i| json!({"type": "textfield", "key": format!("field{i}"), "label": format!("Field {i}")}))
        .collect();
    json!({"schema": {"components": components}})
}

const HUGE_LIMITS: &str =
    "schema_bytes = 200000000\nrequest_body_bytes = 200000000\nbodies_in_flight_bytes = 400000000";

/// One runtime thread: were the gate on it, `/healthz` could not answer until the gate was done.
#[tokio::test(flavor = "current_thread")]
async fn the_gate_runs_off_the_async_threads() {
    let (app, _) = build(&config(
        &builtin_worker("builtin", ""),
        &format!("[limits]\ngate_seconds = 120\nconcurrent_generations = 1\n{HUGE_LIMITS}"),
    ));
    let spawn_validate = || {
        let app = app.clone();
        tokio::spawn(async move {
            call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(huge_form())).await
        })
    };
    let mut validate = spawn_validate();
    // the validate holds the one permit from its parsed body to the gate's end: while an outline is
    // refused for want of it, the gate is under way (one the thread ran itself would have ended the
    // validate, and its permit, before this could ask again). A probe that held the permit when the
    // validate asked for it makes the validate the refused one: it is sent again.
    until_async_within(
        Duration::from_secs(60),
        "the validate to hold its permit, its body parsed",
        async || {
            if validate.is_finished() {
                let (status, body, _) = (&mut validate).await.unwrap();
                assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "only a probe ends it early: {body}");
                validate = spawn_validate();
                return false;
            }
            let probe = json!({"processId": "x"});
            call(&app, "POST", "/api/formgen/outline", Some(ANA), Some(probe)).await.0
                == StatusCode::TOO_MANY_REQUESTS
        },
    )
    .await;
    let started = std::time::Instant::now();
    let (status, _, _) = call(&app, "GET", "/healthz", None, None).await;
    let waited = started.elapsed();
    assert_eq!(status, StatusCode::OK);
    assert!(!validate.is_finished(), "the validate was still at work while healthz answered");
    assert!(waited < Duration::from_secs(2), "healthz waited {waited:?}");
    let (status, body, _) = validate.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{}", body["error"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gate_stops_at_its_time() {
    let (app, _) =
        build(&config(&builtin_worker("builtin", ""), &format!("[limits]\ngate_seconds = 1\n{HUGE_LIMITS}")));
    let (status, body, _) = call(&app, "POST", "/api/formgen/validate", Some(ANA), Some(huge_form())).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("gate_timeout")),
        "{body}"
    );
}
