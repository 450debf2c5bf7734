//! What a new user runs into (issue 14), through the `formgen` binary: the builtin Worker and the
//! brief, usage errors in the CLI's own words, one argument shape for every subcommand, and the start-up
//! warnings of `serve` for a configuration that cannot work as meant.

use std::process::Command;

fn formgen(args: &[&str]) -> (i32, String, String) {
    formgen_env(args, &[])
}

fn formgen_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_formgen"));
    cmd.args(args).env_remove("FORMGEN_CONFIG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn fixture(name: &str) -> String {
    crate::common::fixtures().join("bpmn").join(name).to_string_lossy().into_owned()
}

fn components(stdout: &str) -> Vec<serde_json::Value> {
    let form: serde_json::Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    form["components"].as_array().unwrap().clone()
}

#[test]
fn the_builtin_worker_uses_the_briefs_heading_fields_and_language() {
    let brief = "Urlaubsantrag prüfen\nFelder: Urlaubstage, Betrag, Grund der Ablehnung\nBitte freundlich formulieren.";
    let (code, out, err) = formgen(&[
        "generate",
        "--process",
        &fixture("vacation.bpmn"),
        "--element",
        "Task_approve",
        "-d",
        brief,
        "--model",
        "gpt-x",
    ]);
    assert_eq!(code, 0, "{err}");
    let cs = components(&out);
    assert!(cs[0]["text"].as_str().unwrap().starts_with("# Urlaubsantrag prüfen\n\n"), "{:?}", cs[0]);
    let days = cs.iter().find(|c| c["key"] == "urlaubstage").unwrap();
    assert_eq!((days["label"].as_str(), days["readonly"].as_bool()), (Some("Urlaubstage"), Some(true)));
    let reason = cs.iter().find(|c| c["label"] == "Grund der Ablehnung").unwrap();
    assert_eq!(reason["key"], "grundDerAblehnung");
    assert!(cs.iter().any(|c| c["key"] == "betrag"), "{cs:#?}");
    assert!(err.contains("it did not use the brief's \"Bitte freundlich formulieren.\""), "{err}");
    assert!(err.contains("uses no model, so the model \"gpt-x\" asked for was not used"), "{err}");

    let (_, without, _) =
        formgen(&["generate", "--process", &fixture("vacation.bpmn"), "--element", "Task_approve"]);
    assert_ne!(without, out, "the brief changes the draft");
}

#[test]
fn a_german_brief_without_a_process_gets_german_labels() {
    let (code, out, err) = formgen(&["generate", "-d", "Reisekosten\nBitte mit Belegen einreichen"]);
    assert_eq!(code, 0, "{err}");
    let cs = components(&out);
    assert_eq!(cs[0]["text"], "# Reisekosten");
    assert_eq!((cs[1]["key"].as_str(), cs[1]["label"].as_str()), (Some("notes"), Some("Notizen")));
    assert!(err.contains("did not use the brief's \"Bitte mit Belegen einreichen\""), "{err}");
    let (_, out, _) = formgen(&["generate", "-d", "Expenses\n- Name\n- E-Mail\n- Amount"]);
    let keys: Vec<_> = components(&out).iter().skip(1).map(|c| c["key"].clone()).collect();
    assert_eq!(keys, ["name", "eMail", "amount"]);
}
