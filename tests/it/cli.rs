//! The `formgen` binary's command line: exit codes, the JSON outline lines, one-line errors.

use std::process::Command;

fn formgen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn fixture(name: &str) -> String {
    crate::common::fixtures().join("bpmn").join(name).to_string_lossy().into_owned()
}

#[test]
fn outline_json_is_one_line_per_file_in_the_contract_format() {
    let (code, out, _) =
        formgen(&["outline", "--json", &fixture("vacation.bpmn"), &fixture("not-bpmn.bpmn")]);
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], "vacation.bpmn");
    let keys: Vec<&str> = lines[0].as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["file", "processes"]);
    let element = &lines[0]["processes"][0]["elements"][0];
    let keys: Vec<&str> = element.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    // the contract's fields first, exactly as they are; then the data-flow additions
    assert_eq!(keys, ["id", "kind", "name", "documentation", "condition", "formId", "reads", "writes"]);
    let process = lines[0]["processes"][0].as_object().unwrap();
    let keys: Vec<&str> = process.keys().map(|k| k.as_str()).collect();
    assert_eq!(keys, ["id", "name", "documentation", "elements", "variables", "declaredFields"]);
    assert_eq!(lines[1]["processes"], serde_json::json!([]));
}

#[test]
fn broken_files_still_exit_zero() {
    for f in ["truncated.bpmn", "mismatched.bpmn", "billion-laughs.bpmn"] {
        let (code, _, err) = formgen(&["outline", &fixture(f)]);
        assert_eq!(code, 0, "{f}: {err}");
        let (code, _, _) = formgen(&["outline", "--json", &fixture(f)]);
        assert_eq!(code, 0, "{f}");
    }
}

#[test]
fn a_file_with_no_bpmn_is_a_usage_error_and_its_folder_is_not_read() {
    let (code, out, err) = formgen(&["outline", &fixture("not-bpmn.bpmn")]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("not-bpmn.bpmn holds no BPMN process"), "{err}");
    assert!(!err.contains("warning"), "the folder is not read as a project: {err}");
    // the JSON contract has one line per file, an empty one for a file with no process
    let (code, out, _) = formgen(&["outline", "--json", &fixture("not-bpmn.bpmn")]);
    assert_eq!((code, out.lines().count()), (0, 1));
}

#[test]
fn describe_text_for_an_element() {
    let (code, out, _) = formgen(&["outline", "--element", "Task_approve", &fixture("vacation.bpmn")]);
    assert_eq!(code, 0);
    assert!(out.contains("The form is for the step \"Antrag prüfen\" (userTask Task_approve)."), "{out}");
}

#[test]
fn usage_errors_exit_two_with_one_line() {
    let cases: &[&[&str]] = &[
        &["outline", "/nonexistent/file.bpmn"],
        &["outline"],
        &["outline", "--bogus", "x.bpmn"],
        &["frobnicate"],
    ];
    for args in cases {
        let (code, _, err) = formgen(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(!err.trim().is_empty(), "{args:?}");
    }
    let (code, _, err) = formgen(&["outline", "/nonexistent/file.bpmn"]);
    assert_eq!((code, err.lines().count()), (2, 1), "{err}");
    assert!(err.contains("cannot read /nonexistent/file.bpmn"), "{err}");
    let (code, _, err) = formgen(&["outline", "--element", "Nope", &fixture("vacation.bpmn")]);
    assert_eq!(code, 2);
    assert!(err.contains("has no element \"Nope\""), "{err}");
}

#[test]
fn over_the_size_limit_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["outline", &fixture("vacation.bpmn")])
        .env("FORMGEN_LIMIT_BPMN_BYTES", "100")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("over this installation's limit of 100 bytes"), "{err}");
}

#[test]
fn every_subcommand_that_reads_a_process_takes_its_limits_from_the_configuration() {
    let dir = tempfile::tempdir().unwrap();
    let config = write(dir.path(), "formgen.toml", "[limits]\nbpmn_bytes = 100\n");
    let form = write(dir.path(), "a.form", r#"{"components": []}"#);
    let vacation = fixture("vacation.bpmn");
    for args in [
        vec!["outline", "--config", &config, &vacation],
        vec!["check", "--config", &config, &vacation, &form],
        vec!["generate", "--config", &config, &vacation],
    ] {
        let (code, _, err) = formgen(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("over this installation's limit of 100 bytes"), "{args:?}: {err}");
    }
    // FORMGEN_CONFIG names the same file for every subcommand
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["outline", &vacation])
        .env("FORMGEN_CONFIG", &config)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn check_prints_the_schema_of_one_accepted_file_when_asked_and_the_report_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let answer = write(
        dir.path(),
        "answer.txt",
        "Here is the form:\n```json\n{\"components\":[{\"type\":\"number\",\"key\":\"vacationDays\",\"label\":\"Vacation days\"}]}\n```",
    );
    let vacation = fixture("vacation.bpmn");
    let args = ["check", "--form-id", "approve-vacation", "--process", &vacation, &answer];
    let (code, out, err) = formgen(&[&args[..], &["--print-schema"]].concat());
    // the form binds as the approval step's form, which must supply `approved`, and `comment`, which
    // the rejection step's input mapping passes in
    assert_eq!(code, 1, "{err}");
    let schema: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(schema["id"], "approve-vacation");
    assert_eq!(schema["schemaVersion"], 19);
    assert!(
        err.contains("error    The gateway \"Genehmigt?\" reads `approved` right after this step"),
        "{err}"
    );
    assert!(
        err.contains("error    The user task \"Ablehnung lesen\" reads `comment` after this step"),
        "{err}"
    );
    assert!(err.contains("warning  The field \"Vacation days\" binds `vacationDays`"), "{err}");
    assert!(err.contains("the process has `urlaubstage`"), "{err}");
    assert_eq!(err.matches("binds `vacationDays`").count(), 1, "said once: {err}");
    // the model answer's line of the key
    assert!(err.contains("answer.txt:3:"), "{err}");
    // without --print-schema the report is on stdout and nothing on stderr
    let (code, report, err) = formgen(&args);
    assert_eq!((code, err.as_str()), (1, ""));
    assert!(report.ends_with("1 form at 1 step of 1 process: 2 errors, 1 warning\n"), "{report}");
}

#[test]
fn forms_that_break_the_gates_rules_are_checked_with_an_error_finding_each() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(
        dir.path(),
        "good.form",
        r#"{"id":"good","components":[{"type":"textfield","key":"a","label":"A"}]}"#,
    );
    let bad = write(
        dir.path(),
        "bad.form",
        r#"{"components":[{"type":"textfield","key":"pw","label":"Password"},{"type":"number","key":"n","label":"N","validate":{"min":3,"max":1}}]}"#,
    );
    let (code, out, err) = formgen(&["check", &good, &bad]);
    assert_eq!(code, 1, "{err}");
    assert!(err.is_empty(), "the report is on stdout: {err}");
    let errors: Vec<&str> = out.lines().filter(|l| l.contains("bad.form") && l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{out}");
    assert!(!out.contains("refused"), "no form is refused: {out}");
    assert!(!out.contains("good.form"), "a form with nothing to say is not listed: {out}");
    assert!(errors[0].contains("asks for a secret") && errors[0].ends_with("secret_field"), "{out}");
    assert!(
        errors[1].contains("has min 3 above max 1") && errors[1].ends_with("invalid_validation"),
        "{out}"
    );
    assert!(
        out.ends_with("\n2 forms: 2 errors, 1 warning\n"),
        "the gate's warning that the form has no id: {out}"
    );
}

#[test]
fn check_usage_errors_exit_two() {
    let (code, _, err) = formgen(&["check", "/nonexistent.form"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent.form"), "{err}");
    let (code, _, _) = formgen(&["check"]);
    assert_eq!(code, 2);
}

#[test]
fn eval_runs_the_builtin_worker_over_a_pairs_folder_and_says_what_is_wrong_with_bad_ones() {
    let pairs = crate::common::fixtures().join("eval/pairs");
    let (code, out, err) = formgen(&["eval", "--pairs", pairs.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let summary = &last["summary"];
    for field in ["pairs", "failed", "keyRecall", "keyPrecision", "promptKeyCoverage", "promptChars"] {
        assert!(!summary[field].is_null(), "{field} in {summary}");
    }
    assert!(out.lines().count() > 1, "one line per pair before the summary");
    let (code, out, _) = formgen(&["eval", "--pairs", pairs.to_str().unwrap(), "--limit", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("key recall"), "{out}");

    let empty = tempfile::tempdir().unwrap();
    let (code, _, err) = formgen(&["eval", "--pairs", empty.path().to_str().unwrap()]);
    assert_eq!(code, 2, "an unreadable folder is usage: {err}");
    assert!(err.contains("pairs.jsonl"), "{err}");
    let (code, _, err) = formgen(&["eval"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = formgen(&["eval", "--pairs", pairs.to_str().unwrap(), "--worker", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("no Worker named \"nope\""), "{err}");
}

#[test]
fn eval_writes_each_proposal_as_a_form_file_named_by_its_pair_and_step() {
    let pairs = crate::common::fixtures().join("eval/pairs");
    let out_dir = tempfile::tempdir().unwrap();
    let dir = out_dir.path().join("proposals");
    let (code, out, err) = formgen(&[
        "eval",
        "--pairs",
        pairs.to_str().unwrap(),
        "--json",
        "--proposals",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &serde_json::Value| r["summary"].is_null())
        .collect();
    let mut written: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    written.sort();
    let evaluated: Vec<&serde_json::Value> = rows.iter().filter(|r| r["error"].is_null()).collect();
    assert!(!evaluated.is_empty(), "the fixture pairs give proposals: {out}");
    assert_eq!(written.len(), evaluated.len(), "one file per proposal: {written:?}");
    for (i, row) in rows.iter().enumerate() {
        let element = row["elementId"].as_str().unwrap_or_default();
        let name = written.iter().find(|n| n.starts_with(&format!("{:02}-", i + 1)));
        let Some(name) = name else {
            assert!(!row["error"].is_null(), "pair {} has a proposal but no file", i + 1);
            continue;
        };
        assert!(
            name.ends_with(".form")
                && name.contains(
                    &element.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '_', "_")
                ),
            "{name}"
        );
        let form: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let keys: Vec<&str> =
            form["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
        for key in row["proposalKeys"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|k| k.as_str())
            .filter(|k| !k.contains('.'))
        {
            assert!(keys.contains(&key), "{name} binds the row's `{key}`: {form}");
        }
    }
}
