//! The reports CI systems read, checked by the tools that read them: the SARIF `formgen check
//! --format sarif` writes over the maintainers' pairs and over a fixture is validated by Microsoft's SARIF
//! Multitool (`SARIF_MULTITOOL`, installed by `.ci/conformance`) with its SARIF and GitHub ingestion rules,
//! and the JUnit XML is parsed as GitLab and Jenkins read it (a suite per process, a case per form and
//! step, the counts adding up).

use std::path::{Path, PathBuf};
use std::process::Command;

use quick_xml::events::Event;
use serde_json::Value;

/// What `formgen check --format FORMAT --project DIR` prints.
fn check(dir: &Path, format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["check", "--format", format, "--project"])
        .arg(dir)
        .env("FORMGEN_LIMIT_PROJECT_FILES", "2000")
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn folders() -> Vec<PathBuf> {
    vec![crate::common::shared().join("corpus/pairs"), crate::common::fixtures().join("check/formats")]
}

/// The Multitool's results on a log: `(rule, level)`, notes left out.
fn validate(log: &str) -> Vec<(String, String, String)> {
    let tool = std::env::var("SARIF_MULTITOOL")
        .expect("SARIF_MULTITOOL: the SARIF Multitool's binary (bash .ci/conformance installs it)");
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("formgen.sarif"), dir.path().join("validation.sarif"));
    std::fs::write(&input, log).unwrap();
    let status = Command::new(tool)
        .args(["validate", "--rule-kind", "Gh;Sarif", "--level", "Error;Warning", "-o"])
        .arg(&output)
        .arg(&input)
        .output()
        .unwrap();
    assert!(status.status.success(), "the Multitool ran: {}", String::from_utf8_lossy(&status.stdout));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    let results = report["runs"][0]["results"].as_array().cloned().unwrap_or_default();
    results
        .iter()
        .map(|r| {
            let rule = r["ruleId"].as_str().unwrap_or_default().to_string();
            let level = r["level"].as_str().unwrap_or("warning").to_string();
            (rule, level, r["message"].to_string())
        })
        .collect()
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_sarif_log_passes_the_sarif_multitool_with_githubs_rules() {
    for dir in folders() {
        let log = check(&dir, "sarif");
        let parsed: Value = serde_json::from_str(&log).unwrap();
        let results = parsed["runs"][0]["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{}: findings to report", dir.display());
        assert!(
            results
                .iter()
                .all(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64() >= Some(1))
        );
        let found = validate(&log);
        for f in &found {
            println!("{}: {} {} {}", dir.display(), f.0, f.1, f.2);
        }
        // the one thing it asks that formgen cannot give: a web page of the tool's (Cargo.toml names none)
        let wrong: Vec<_> = found.iter().filter(|(rule, _, _)| rule != "SARIF2005").collect();
        assert!(wrong.is_empty(), "{}: {wrong:?}", dir.display());
        println!("{}: {} results, valid SARIF 2.1.0 for GitHub", dir.display(), results.len());
    }
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_junit_report_parses_with_a_case_per_form_and_step() {
    for dir in folders() {
        let xml = check(&dir, "junit");
        let json: Vec<Value> =
            check(&dir, "json").lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        // a case per form checked at a step, and one for a process's own findings when it has any
        let own = |l: &Value| l["findings"].as_array().is_some_and(|f| !f.is_empty());
        let units = json.iter().filter(|l| l.get("form").is_some() || own(l)).count();
        let mut reader = quick_xml::Reader::from_str(&xml);
        let (mut suites, mut cases, mut failures, mut declared) = (0, 0, 0, 0);
        loop {
            match reader.read_event().unwrap_or_else(|e| panic!("{}: not XML: {e}", dir.display())) {
                Event::Start(e) | Event::Empty(e) => match e.name().into_inner() {
                    "testsuite" => {
                        suites += 1;
                        let tests = e.try_get_attribute("tests").unwrap().expect("tests=");
                        let value = tests.normalized_value(quick_xml::XmlVersion::Implicit1_0).unwrap();
                        declared += value.parse::<usize>().unwrap();
                    }
                    "testcase" => cases += 1,
                    "failure" => failures += 1,
                    _ => {}
                },
                Event::Eof => break,
                _ => {}
            }
        }
        println!("{}: {suites} suites, {cases} cases, {failures} failing", dir.display());
        assert!(suites >= 1, "{}", dir.display());
        assert_eq!(cases, declared, "{}: the suites count their cases", dir.display());
        assert_eq!(
            cases,
            units,
            "{}: a case per form and step, and per process with findings",
            dir.display()
        );
    }
}
