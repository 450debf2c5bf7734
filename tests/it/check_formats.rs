//! `formgen check --format`: each format through the binary on `fixtures/check/formats` (the
//! vacation process and an approval form with an error, `missing_supply`, and a warning,
//! `unused_key`), `--max-warnings`, `--json` as `--format json`, and `--print-schema`.

use std::path::{Path, PathBuf};
use std::process::Command;

use quick_xml::events::Event;
use serde_json::Value;

fn formgen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn folder() -> PathBuf {
    crate::common::fixtures().join("check/formats")
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The fixture folder as a path relative to the checkout, as CI names it.
const FOLDER: &str = "fixtures/check/formats";

/// `--project` on the fixture folder, from the checkout, in a format.
fn project(format: &str) -> (i32, String, String) {
    formgen(&["check", "--format", format, "--project", FOLDER])
}

/// The 1-based line of the first line of `file` that holds `needle`.
fn line_of(file: &Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn text_says_each_finding_at_its_place_then_one_summary_line() {
    let (code, out, err) = project("text");
    assert_eq!(code, 1, "{out}{err}");
    let form = folder().join("approve.form");
    let line = line_of(&form, "\"vacationDays\"");
    let warning = out.lines().find(|l| l.contains("unused_key")).expect(&out);
    assert!(warning.trim_start().starts_with(&format!("{FOLDER}/approve.form:{line}:")), "{warning}");
    assert!(warning.contains("  warning  The field \"Vacation days\" binds `vacationDays`"), "{warning}");
    let error = out.lines().find(|l| l.contains("missing_supply")).expect(&out);
    assert!(error.contains("  error    The gateway \"Genehmigt?\" reads `approved`"), "{error}");
    assert_eq!(out.lines().last(), Some("1 form at 1 step of 1 process: 1 error, 1 warning"), "{out}");
    assert!(err.is_empty(), "{err}");
}

#[test]
fn sarif_is_a_log_code_scanning_takes_with_the_components_line() {
    let (code, out, err) = project("sarif");
    assert_eq!(code, 1, "{err}");
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "formgen");
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["missing_supply", "unused_key"]);
    for rule in rules {
        for member in ["shortDescription", "fullDescription", "help"] {
            assert!(rule[member]["text"].as_str().is_some_and(|t| t.ends_with('.')), "{rule}");
        }
        assert!(rule["defaultConfiguration"]["level"].is_string(), "{rule}");
    }
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let form = folder().join("approve.form");
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(result["ruleId"], rules[index]["id"]);
        assert!(["error", "warning"].contains(&result["level"].as_str().unwrap()), "{result}");
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let place = &result["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let uri = place["artifactLocation"]["uri"].as_str().unwrap();
        assert_eq!(uri, format!("{FOLDER}/approve.form"));
        assert!(place["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(place["region"]["startColumn"].as_u64().unwrap() >= 1);
    }
    let warning = results.iter().find(|r| r["ruleId"] == "unused_key").unwrap();
    let region = &warning["locations"][0]["physicalLocation"]["region"];
    assert_eq!(region["startLine"].as_u64(), Some(line_of(&form, "\"vacationDays\"") as u64));
}

/// The attributes of every start tag named `tag`.
fn tags(xml: &str, tag: &str) -> Vec<Vec<(String, String)>> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut found = Vec::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == tag => {
                let attributes = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        let value =
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0).unwrap().into_owned();
                        (a.key.as_ref().to_string(), value)
                    })
                    .collect();
                found.push(attributes);
            }
            Event::Eof => return found,
            _ => {}
        }
    }
}

fn attribute<'a>(attributes: &'a [(String, String)], name: &str) -> &'a str {
    &attributes.iter().find(|(k, _)| k == name).unwrap().1
}

#[test]
fn junit_parses_with_a_suite_per_process_and_the_counts() {
    let (code, out, err) = project("junit");
    assert_eq!(code, 1, "{err}");
    let suites = tags(&out, "testsuites");
    assert_eq!(suites.len(), 1);
    assert_eq!(
        ["tests", "failures", "errors", "skipped"].map(|n| attribute(&suites[0], n)),
        ["1", "1", "0", "0"]
    );
    let suite = &tags(&out, "testsuite")[0];
    assert!(attribute(suite, "name").ends_with("vacation.bpmn vacation-request"), "{suite:?}");
    let case = &tags(&out, "testcase")[0];
    assert_eq!(attribute(case, "classname"), "vacation-request");
    assert_eq!(attribute(case, "name"), "Task_approve approve.form");
    let failure = &tags(&out, "failure")[0];
    assert_eq!(attribute(failure, "type"), "missing_supply");
    assert!(attribute(failure, "message").starts_with("The gateway \"Genehmigt?\""), "{failure:?}");
    assert!(out.contains("<system-out>") && out.contains("  unused_key&#10;"), "{out}");
}

#[test]
fn github_annotates_each_finding_with_escaped_properties() {
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join("100%, a:b.form");
    std::fs::copy(folder().join("approve.form"), &odd).unwrap();
    let bpmn = folder().join("vacation.bpmn");
    let (code, out, err) = formgen(&["check", "--format", "github", "--process", path(&bpmn), path(&odd)]);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let escaped = path(&odd).replace('%', "%25").replace(':', "%3A").replace(',', "%2C");
    let line = line_of(&odd, "\"vacationDays\"");
    assert!(
        lines[0]
            .starts_with(&format!("::error file={escaped},line=1,col=1,title=missing_supply::The gateway")),
        "{out}"
    );
    assert!(lines[1].starts_with(&format!("::warning file={escaped},line={line},col=")), "{out}");
    assert!(lines[1].contains(",title=unused_key::The field \"Vacation days\""), "{out}");
    assert_eq!(lines[2], "1 form at 1 step of 1 process: 1 error, 1 warning");
}

#[test]
fn max_warnings_makes_warnings_fail() {
    let dir = tempfile::tempdir().unwrap();
    let form = dir.path().join("approve.form");
    let text = std::fs::read_to_string(folder().join("approve.form")).unwrap().replace(
        r#"{"type": "textarea", "key": "comment", "label": "Kommentar", "id": "Field_comment"}"#,
        r#"{"type": "textarea", "key": "comment", "label": "Kommentar", "id": "Field_comment"},
        {"type": "checkbox", "key": "approved", "label": "Genehmigt", "id": "Field_approved"}"#,
    );
    std::fs::write(&form, text).unwrap();
    let bpmn = folder().join("vacation.bpmn");
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "--process", path(&bpmn), path(&form)];
        args.extend_from_slice(extra);
        formgen(&args)
    };
    let (code, out, err) = check(&[]);
    assert_eq!(code, 0, "only a warning: {out}{err}");
    assert!(out.ends_with("0 errors, 1 warning\n"), "{out}");
    assert_eq!(check(&["--max-warnings", "1"]).0, 0);
    assert_eq!(check(&["--max-warnings", "0"]).0, 1);
    assert_eq!(check(&["--max-warnings", "many"]).0, 2, "a usage error");
}

#[test]
fn json_is_the_same_as_format_json_with_located_findings() {
    let (code, by_flag, _) = formgen(&["check", "--json", "--project", FOLDER]);
    let (_, by_format, _) = project("json");
    assert_eq!((code, &by_flag), (1, &by_format));
    let line: Value = serde_json::from_str(by_flag.lines().next().unwrap()).unwrap();
    assert_eq!(line["elementId"], "Task_approve");
    let warning = line["findings"].as_array().unwrap().iter().find(|f| f["code"] == "unused_key").unwrap();
    let form = folder().join("approve.form");
    assert_eq!(warning["line"].as_u64(), Some(line_of(&form, "\"vacationDays\"") as u64));
    assert!(warning["file"].as_str().unwrap().ends_with("check/formats/approve.form"), "{warning}");
    let (code, _, err) = formgen(&["check", "--json", "--format", "text", "--project", path(&folder())]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn print_schema_is_for_one_form_in_text() {
    let form = folder().join("approve.form");
    let bpmn = folder().join("vacation.bpmn");
    let (code, out, err) = formgen(&["check", "--print-schema", "--process", path(&bpmn), path(&form)]);
    assert_eq!(code, 1);
    let schema: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(schema["id"], "approve-vacation");
    assert!(err.contains("missing_supply") && err.ends_with("1 error, 1 warning\n"), "{err}");
    let (code, out, _) = formgen(&["check", "--process", path(&bpmn), path(&form)]);
    assert!(code == 1 && !out.contains("\"schemaVersion\""), "no schema unless asked: {out}");
    let dir = tempfile::tempdir().unwrap();
    let breaking = dir.path().join("breaking.form");
    std::fs::write(
        &breaking,
        r#"{"components": [{"type": "textfield", "key": "password", "label": "Password"}]}"#,
    )
    .unwrap();
    let (code, out, err) = formgen(&["check", "--print-schema", path(&breaking)]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("\"password\""), "a form that breaks a rule is still normalised: {out}");
    assert!(err.contains("secret_field"), "the report on stderr: {err}");
    let broken = dir.path().join("broken.form");
    std::fs::write(&broken, "{\"components\": [,]}").unwrap();
    let (code, out, err) = formgen(&["check", "--print-schema", path(&broken)]);
    assert_eq!((code, out.as_str()), (1, ""), "no schema, and the report on stderr: {err}");
    assert!(err.contains("unreadable_form") && err.contains(":1:17"), "{err}");
    for args in [
        vec!["check", "--print-schema", "--format", "sarif", path(&form)],
        vec!["check", "--print-schema", path(&form), path(&form)],
        vec!["check", "--print-schema", "--project", path(&folder())],
    ] {
        let (code, _, err) = formgen(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}
