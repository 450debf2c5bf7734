//! The contract check through `formgen check --element`: every case of `fixtures/check/cases.json`
//! is a form checked against one step of a process, with the findings it must raise (code, severity,
//! the key and the element that reads it) and no others. The exit code is 1 exactly when a finding is
//! an error.

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

type Found = BTreeSet<(String, String, String, String)>;

fn field(v: &Value, name: &str) -> String {
    v[name].as_str().unwrap_or_default().to_string()
}

fn findings(list: &Value) -> Found {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|f| (field(f, "code"), field(f, "severity"), field(f, "key"), field(f, "elementId")))
        .collect()
}

#[test]
fn every_case_raises_exactly_its_findings() {
    let dir = crate::common::fixtures().join("check");
    let cases: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
    assert!(cases.len() >= 10, "the cases are read");
    let mut wrong = Vec::new();
    for case in &cases {
        let name = field(case, "case");
        let process = dir.join(field(case, "process"));
        let form = dir.join(field(case, "form"));
        let element = field(case, "element");
        let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
            .args(["check", "--json", "--element", &element, "--process"])
            .arg(&process)
            .arg(&form)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let Some(line) = stdout.lines().next().and_then(|l| serde_json::from_str::<Value>(l).ok()) else {
            wrong.push(format!("{name}: no JSON line; stderr: {}", String::from_utf8_lossy(&out.stderr)));
            continue;
        };
        let got = findings(&line["findings"]);
        let want = findings(&case["findings"]);
        if got != want {
            wrong.push(format!("{name}:\n  expected {want:?}\n  found    {got:?}"));
        }
        let errors = want.iter().any(|(_, severity, _, _)| severity == "error");
        if out.status.code() != Some(i32::from(errors)) {
            wrong.push(format!("{name}: exit {:?}, expected {}", out.status.code(), i32::from(errors)));
        }
        for f in line["findings"].as_array().into_iter().flatten() {
            let message = field(f, "message");
            if message.len() < 20 || !message.ends_with('.') {
                wrong.push(format!("{name}: a finding without a sentence: {f}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn check_project(dir: &std::path::Path, json: bool) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_formgen"));
    cmd.args(["check", "--project"]).arg(dir);
    if json {
        cmd.arg("--json");
    }
    cmd.output().unwrap()
}

/// A copy of the claim project with its review form replaced.
fn claim_with_review(form: &str) -> tempfile::TempDir {
    let src = crate::common::fixtures().join("check");
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(src.join("claim")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    std::fs::copy(src.join("forms").join(form), dir.path().join("claim-review.form")).unwrap();
    dir
}

#[test]
fn check_project_checks_every_bound_form_of_every_process_and_lists_what_it_found() {
    let out = check_project(&crate::common::fixtures().join("check/claim"), false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout, "3 forms at 3 steps of 1 process: 0 errors, 0 warnings\n");

    let broken = claim_with_review("review-no-decision.form");
    let out = check_project(broken.path(), false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "an error finding is exit 1: {stdout}");
    assert!(stdout.contains("claim-review.form at step Task_review of claim"), "{stdout}");
    let review =
        stdout.lines().find(|l| l.contains("reads `decision` right after this step")).expect(&stdout);
    assert!(
        review.trim_start().starts_with(&format!("{}:", broken.path().join("claim-review.form").display()))
    );
    assert!(review.ends_with("  missing_supply"), "{review}");

    let out = check_project(broken.path(), true);
    let lines: Vec<Value> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3, "one line per checked step");
    let review = lines.iter().find(|l| l["elementId"] == "Task_review").unwrap();
    assert_eq!(findings(&review["findings"]).len(), 1, "{review}");
    assert_eq!(review["processId"], "claim");
}

#[test]
fn check_project_on_a_folder_without_a_process_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = check_project(dir.path(), false);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no .bpmn file"));
}
