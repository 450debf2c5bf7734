//! The calls on the project's fixtures: each answers, and a bad request is an error with its code.

use serde_json::{Value, json};

use super::{Call, run};

const PROCESS: &str = include_str!("../../../../fixtures/bpmn/vacation.bpmn");

fn call(call: Call, request: Value) -> Result<Value, super::CallError> {
    run(call, request.to_string().as_bytes(), None)
}

#[test]
fn an_outline_names_the_file_and_its_processes() {
    let answer =
        call(Call::Outline, json!({ "processXml": PROCESS, "processName": "vacation.bpmn" })).unwrap();
    assert_eq!(answer["file"], "vacation.bpmn");
    assert!(!answer["processes"].as_array().unwrap().is_empty());
    assert!(answer.get("step").is_none(), "no step was named");
}

#[test]
fn a_draft_is_a_form_and_passes_its_own_check() {
    let outline = call(Call::Outline, json!({ "processXml": PROCESS })).unwrap();
    let step = outline["processes"][0]["elements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "userTask")
        .map(|e| e["id"].as_str().unwrap().to_string())
        .expect("a user task");
    let drafted = call(Call::Draft, json!({ "processXml": PROCESS, "elementId": step })).unwrap();
    assert_eq!(drafted["schema"]["type"], "default");
    let checked =
        call(Call::Check, json!({ "processXml": PROCESS, "elementId": step, "form": drafted["schema"] }))
            .unwrap();
    let errors: Vec<&Value> =
        checked["findings"].as_array().unwrap().iter().filter(|f| f["severity"] == "error").collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_form_that_is_no_json_is_an_error_saying_where() {
    let e = call(Call::Check, json!({ "form": "{\"components\": [" })).unwrap_err();
    assert_eq!(e.code, "unreadable_form");
    assert!(e.message.contains("line 1"), "{}", e.message);
}

#[test]
fn bad_requests_are_errors_with_their_codes() {
    assert_eq!(run(Call::Outline, b"not json", None).unwrap_err().code, "bad_request");
    assert_eq!(call(Call::Outline, json!({ "unknown": 1 })).unwrap_err().code, "bad_request");
    assert_eq!(call(Call::Outline, json!({})).unwrap_err().code, "no_process");
    let e = call(Call::Draft, json!({ "processXml": PROCESS, "elementId": "nope" })).unwrap_err();
    assert_eq!(e.code, "unknown_element");
    assert_eq!(call(Call::Validate, json!({ "processXml": PROCESS })).unwrap_err().code, "form_required");
}

#[test]
fn the_boundary_answers_ok_or_error_json() {
    let (status, answer) = crate::answer(9, b"{}", None);
    assert_eq!(status, 1);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["error"]["code"], "bad_request");
    let (status, answer) =
        crate::answer(3, json!({ "form": { "components": [] } }).to_string().as_bytes(), None);
    assert_eq!(status, 0);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert!(answer["ok"]["schema"].is_object());
}

#[test]
fn lint_places_a_missing_form_on_its_step() {
    let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><userTask id="review"><extensionElements><zeebe:formDefinition formId="review-form"/></extensionElements></userTask></process></definitions>"#;
    let project = json!([{ "name": "other.form", "text": "{\"id\": \"other\", \"components\": []}" }]);
    let answer = call(Call::Lint, json!({ "processXml": xml, "project": project })).unwrap();
    let findings = answer["findings"].as_array().unwrap();
    let missing = findings.iter().find(|f| f["code"] == "form_not_found").expect("form_not_found");
    assert_eq!((&missing["elementId"], &missing["processId"]), (&json!("review"), &json!("P")));
}
