//! Findings about the process itself: a name read that nothing writes, told apart when it looks like
//! a literal written without its quotes or a misspelling of a written name, in `outline --json`,
//! `check --project` and the API's outline; and never a field the form is told to add.

use std::process::Command;

use serde_json::{Value, json};

use crate::http_common::{ANA, build, builtin_worker, call, config};

fn invoice() -> std::path::PathBuf {
    crate::common::fixtures().join("check/process/invoice.bpmn")
}

fn codes(findings: &Value) -> Vec<(String, String, String)> {
    let field = |f: &Value, k: &str| f[k].as_str().unwrap_or_default().to_string();
    let list = findings.as_array().map(Vec::as_slice).unwrap_or_default();
    list.iter().map(|f| (field(f, "code"), field(f, "key"), field(f, "elementId"))).collect()
}

fn expected() -> Vec<(String, String, String)> {
    [
        ("misspelled_variable", "elegibilityCheck", "Flow_yes"),
        ("unquoted_literal", "APPROVED", "Flow_yes"),
        ("unquoted_literal", "P1D", "Wait"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect()
}

#[test]
fn check_project_lists_the_processs_own_mistakes_and_blames_no_form() {
    let dir = invoice().parent().unwrap().to_path_buf();
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["check", "--json", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "warnings only: {}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let process = lines.iter().find(|l| l.get("elementId").is_none()).expect("the process's own line");
    assert_eq!(codes(&process["findings"]), expected());
    assert!(process["findings"].as_array().unwrap().iter().all(|f| f["severity"] == "warning"));
    let start = lines.iter().find(|l| l["elementId"] == "Start").expect("the start form is checked");
    assert_eq!(start["findings"], json!([]), "nothing of it is the start form's to supply");
}

#[test]
fn outline_json_carries_the_processs_findings() {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["outline", "--json"])
        .arg(invoice())
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = codes(&line["findings"]);
    for e in expected() {
        assert!(found.contains(&e), "{e:?} in {found:?}");
    }
}

#[tokio::test]
async fn the_apis_outline_answers_the_processs_findings() {
    let (app, _) = build(&config(&builtin_worker("builtin", ""), ""));
    let xml = std::fs::read_to_string(invoice()).unwrap();
    let (status, body, _) =
        call(&app, "POST", "/api/formgen/outline", Some(ANA), Some(json!({"processXml": xml}))).await;
    assert_eq!(status, 200, "{body}");
    let found = codes(&body["findings"]);
    for e in expected() {
        assert!(found.contains(&e), "{e:?} in {found:?}");
    }
    let supply = body["step"]["toSupply"].to_string();
    assert!(!supply.contains("P1D") && !supply.contains("APPROVED"), "{supply}");
}

#[test]
fn a_decision_whose_rules_test_an_input_as_a_list_it_declares_a_string_is_a_process_finding() {
    let dir = crate::common::fixtures().join("check/dmnlist");
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["outline", "--json", "--element", "Task_offer", "--project"])
        .arg(&dir)
        .arg(dir.join("offer.bpmn"))
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = codes(&line["findings"]);
    let expected = ("decision_type_mismatch".to_string(), "purchases".to_string(), "Task_offer".to_string());
    assert!(found.contains(&expected), "{found:?}");
}
