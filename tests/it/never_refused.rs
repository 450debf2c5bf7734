//! Hand-written forms are never refused: a form that breaks the gate's rules is still checked against
//! its step (an error finding per broken rule, beside the contract's), a refinement of it leaves out
//! and names what it had to, and `check --project` says when a step's form cannot be found or read.

use std::path::Path;
use std::process::Command;

use axum::http::StatusCode;
use serde_json::{Value, json};

use crate::http_common::{ANA, build, builtin_worker, config, generate, vacation_xml};

fn formgen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen")).args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), text(out.stdout), text(out.stderr))
}

fn vacation() -> String {
    crate::common::fixtures().join("bpmn/vacation.bpmn").to_string_lossy().into_owned()
}

/// The approval form an author might write: a field labelled like a secret, a readonly written "on",
/// and no field for `approved`, which the gateway after the step reads.
fn approval_form() -> Value {
    json!({"id": "approve-vacation", "components": [
        {"type": "textfield", "key": "authorizationCode", "label": "Authorization Code"},
        {"type": "textarea", "key": "comment", "label": "Kommentar", "readonly": "on"}
    ]})
}

fn codes(findings: &Value) -> Vec<(String, String)> {
    let list = findings.as_array().map(Vec::as_slice).unwrap_or_default();
    list.iter()
        .map(|f| (f["code"].as_str().unwrap().to_string(), f["key"].as_str().unwrap_or("").to_string()))
        .collect()
}

#[test]
fn a_form_that_breaks_rules_still_gets_its_contract_findings() {
    let dir = tempfile::tempdir().unwrap();
    let form = dir.path().join("approve.form");
    std::fs::write(&form, serde_json::to_string_pretty(&approval_form()).unwrap()).unwrap();
    let (code, out, err) = formgen(&[
        "check",
        "--json",
        "--element",
        "Task_approve",
        "--process",
        &vacation(),
        form.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    let line: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let found = codes(&line["findings"]);
    for expected in [
        ("secret_field", "authorizationCode"),
        ("invalid_expression", "comment"),
        ("missing_supply", "approved"),
    ] {
        assert!(found.contains(&(expected.0.into(), expected.1.into())), "{expected:?} in {found:?}");
    }
}

#[test]
fn a_json_mistake_is_told_by_its_line_and_column_and_not_as_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let form = dir.path().join("typo.form");
    std::fs::write(
        &form,
        "{\n  \"id\": \"x\",\n  \"components\": [\n    {\"type\": \"textfield\" \"key\": \"a\"}\n  ]\n}\n",
    )
    .unwrap();
    let (code, out, err) = formgen(&["check", form.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("typo.form:4:26") && out.contains("line 4, column 26"), "{out}");
    assert!(out.contains("unreadable_form"), "{out}");
    assert!(!out.contains("answer"), "a file is not a model's answer: {out}");
}

#[tokio::test]
async fn refining_a_form_that_breaks_rules_gives_a_proposal_that_passes_and_says_what_it_left_out() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let request =
        json!({"processXml": vacation_xml(), "elementId": "Task_approve", "schema": approval_form()});
    let (status, body, _) = generate(&app, ANA, request).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(formgen::gate::check_value(body["schema"].clone(), None, None).is_ok(), "{body}");
    let warnings = body["warnings"].to_string();
    assert!(warnings.contains("authorizationCode") && warnings.contains("secret"), "{warnings}");
    assert!(warnings.contains("comment") && warnings.contains("readonly"), "{warnings}");
    let keys = body["schema"]["components"].to_string();
    assert!(keys.contains("\"approved\""), "the field the process needs is added: {keys}");
}

fn project(dir: &Path, forms: &[(&str, &str)]) {
    std::fs::copy(vacation(), dir.join("vacation.bpmn")).unwrap();
    for (name, text) in forms {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

#[test]
fn check_project_says_when_a_bound_form_is_missing_unreadable_or_shares_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let request = r#"{"id": "vacation-request-form", "components": [{"type": "number", "key": "urlaubstage", "label": "Tage"}]}"#;
    project(
        dir.path(),
        &[
            ("request.form", request),
            ("request-copy.form", request),
            ("broken.form", "{\"id\": \"approve-vacation\",,}"),
        ],
    );
    let (code, out, err) = formgen(&["check", "--json", "--project", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "a bound form that cannot be read fails the check: {out}{err}");
    let lines: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let all: Vec<(String, String, String)> = lines
        .iter()
        .flat_map(|l| {
            // a project file's line names it as the form; a step's line names its process's file
            let named =
                if l["elementId"].is_null() && l.get("form").is_some() { &l["form"] } else { &l["file"] };
            let file = named.as_str().unwrap().to_string();
            let step = l["elementId"].as_str().unwrap_or("").to_string();
            codes(&l["findings"]).into_iter().map(move |(code, _)| (file.clone(), step.clone(), code))
        })
        .collect();
    let has = |file: &str, step: &str, code: &str| all.contains(&(file.into(), step.into(), code.into()));
    assert!(has("broken.form", "", "unreadable_form"), "{all:?}");
    assert!(
        has("request.form", "", "duplicate_form_id") || has("request-copy.form", "", "duplicate_form_id"),
        "{all:?}"
    );
    assert!(has("vacation.bpmn", "Task_approve", "form_not_found"), "{all:?}");
    let missing = lines.iter().find(|l| l["elementId"] == "Task_approve").unwrap();
    let message = missing["findings"][0]["message"].as_str().unwrap();
    assert!(message.contains("approve-vacation") && message.contains("broken.form"), "{message}");
}

#[test]
fn a_folder_without_form_js_forms_binds_other_applications_forms_and_is_not_faulted() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), &[]);
    let (code, out, err) = formgen(&["check", "--json", "--project", dir.path().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("form_not_found"), "{out}");
}
