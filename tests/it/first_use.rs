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

fn cli_fixture(name: &str) -> String {
    crate::common::fixtures().join("cli").join(name).to_string_lossy().into_owned()
}

#[test]
fn a_file_with_no_bpmn_is_an_error_when_a_step_is_named_or_it_is_outlined_and_a_warning_when_drafted() {
    let notes = cli_fixture("notes.txt");
    let (code, out, err) = formgen(&["generate", "--process", &notes, "--element", "Task_approve"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains(&format!("{notes} holds no BPMN process")), "{err}");
    assert!(err.contains("no step \"Task_approve\""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");

    let (code, _, err) = formgen(&["generate", &notes]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("the description was the whole brief"), "{err}");
    assert!(err.contains("no BPMN process in it") && err.contains("There was no brief either"), "{err}");

    // a description of no process is of no use: outline says so and exits as generate does
    let (code, out, err) = formgen(&["outline", &notes]);
    assert_eq!((code, out.trim()), (2, ""));
    assert!(err.contains(&format!("{notes} holds no BPMN process")), "{err}");
}

#[test]
fn bad_usage_exits_two_in_the_clis_words() {
    let (code, _, err) = formgen(&["generate"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("formgen generate FILE.bpmn") && err.contains("-d"), "{err}");
    let (code, _, err) = formgen(&["generate", "--element", "Task_approve", "-d", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--element Task_approve names a step of a process"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("two.toml");
    std::fs::write(
        &config,
        "[[workers]]\nname = \"a\"\nprovider = \"builtin\"\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n",
    )
    .unwrap();
    let config = config.to_string_lossy();
    let (code, _, err) = formgen(&["generate", "--config", &config, &fixture("vacation.bpmn")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("name one with --worker") && !err.contains("\"worker\""), "{err}");
    let (code, _, err) =
        formgen(&["generate", "--config", &config, "--worker", "c", &fixture("vacation.bpmn")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--worker takes one of: a, b"), "{err}");
    let (code, _, err) = formgen(&["generate", "--process-id", "Nope", &fixture("vacation.bpmn")]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("has no process \"Nope\"; check --process-id") && !err.contains("processXml"),
        "{err}"
    );
}

#[test]
fn every_subcommand_takes_the_file_and_the_process_id_alike() {
    let vacation = fixture("vacation.bpmn");
    let (code, positional, _) = formgen(&["generate", &vacation, "--element", "Task_approve"]);
    let (_, flag, _) = formgen(&["generate", "--process", &vacation, "--element", "Task_approve"]);
    assert_eq!((code, &positional), (0, &flag));

    let (code, by_flag, err) =
        formgen(&["outline", "--process", &vacation, "--process-id", "vacation-request"]);
    assert_eq!(code, 0, "{err}");
    let (_, by_position, _) = formgen(&["outline", &vacation, "--process-id", "vacation-request"]);
    assert_eq!(by_flag, by_position);
    assert!(!by_flag.trim().is_empty());
    let (code, old, err) = formgen(&["outline", "--process", "vacation-request", &vacation]);
    assert_eq!((code, &old), (0, &by_flag), "{err}");
    assert!(err.contains("deprecated") && err.contains("--process-id vacation-request"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let form = dir.path().join("approve.form");
    std::fs::write(
        &form,
        r#"{"type":"default","components":[{"type":"checkbox","key":"approved","label":"OK"}]}"#,
    )
    .unwrap();
    let form = form.to_string_lossy();
    let (code, _, err) = formgen(&["check", &vacation, &form]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = formgen(&["check", "--process", &vacation, "--process-id", "Nope", &form]);
    assert_eq!(code, 2);
    assert!(err.contains("has no process \"Nope\""), "{err}");
}

#[test]
fn only_user_tasks_and_start_events_get_forms() {
    let thin = cli_fixture("thin.bpmn");
    for (element, kind) in [
        ("Flow_1", "a sequence flow"),
        ("Gateway_ok", "an exclusive gateway"),
        ("Task_send", "a service task"),
    ] {
        let (code, out, err) = formgen(&["generate", &thin, "--element", element]);
        assert_eq!((code, out.as_str()), (2, ""), "{element}: {err}");
        assert!(err.contains(&format!("\"{element}\" is {kind}, which has no form")), "{err}");
        assert!(err.contains("Start (\"Begun\"), Task_look (\"Have a look\")"), "{err}");
        assert!(err.contains("leave out --element for the start form"), "{err}");
    }
    let (code, out, err) = formgen(&["generate", &thin, "--element", "Task_look"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(components(&out).len(), 1, "the heading only");
    assert!(err.contains("the step \"Have a look\" reads and writes no process variables"), "{err}");
}

#[test]
fn the_size_error_reports_the_real_size() {
    let vacation = fixture("vacation.bpmn");
    let size = std::fs::metadata(&vacation).unwrap().len();
    for cmd in ["generate", "outline"] {
        let (code, _, err) = formgen_env(&[cmd, &vacation], &[("FORMGEN_LIMIT_BPMN_BYTES", "100")]);
        assert_eq!(code, 2, "{err}");
        assert!(
            err.contains(&format!("is {size} bytes, over this installation's limit of 100 bytes")),
            "{err}"
        );
    }
}

#[test]
fn serve_says_at_start_what_will_not_work() {
    let dir = tempfile::tempdir().unwrap();
    let config = "[server]\nlisten = \"127.0.0.1:0\"\nweb_dir = \"no-such-dist\"\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\nallow = [\"group:designers\"]\n";
    let mut served = crate::common::served::spawn_serve(config, dir.path());
    crate::common::served::terminate(&served.child);
    crate::common::served::wait_exit(&mut served.child, std::time::Duration::from_secs(10));
    crate::common::wait::until_blocking("the end of formgen serve's stderr", || served.stderr_read_to_end());
    let err = served.stderr.lock().unwrap().clone();
    assert!(err.contains("auth.mode = \"none\" makes every caller \"anonymous\""), "{err}");
    let looked = dir.path().join("no-such-dist").join("index.html");
    assert!(err.contains(&format!("there is no page at {}", looked.display())), "{err}");
    assert!(err.contains("web=none"), "{err}");

    let mut served = crate::common::served::spawn_serve("[server]\nlisten = \"127.0.0.1:0\"\n", dir.path());
    crate::common::served::terminate(&served.child);
    crate::common::served::wait_exit(&mut served.child, std::time::Duration::from_secs(10));
    crate::common::wait::until_blocking("the end of formgen serve's stderr", || served.stderr_read_to_end());
    let err = served.stderr.lock().unwrap().clone();
    assert!(err.contains("has no Worker") && err.contains("provider = \"builtin\""), "{err}");
}

#[test]
fn a_broken_prompt_template_names_its_file_and_exits_two() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("prompts")).unwrap();
    std::fs::write(dir.path().join("prompts/system.md"), "You write forms. {{nonsense}}").unwrap();
    let config = dir.path().join("formgen.toml");
    std::fs::write(
        &config,
        "[prompts]\ndir = \"prompts\"\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\n",
    )
    .unwrap();
    let (code, _, err) = formgen(&["serve", "--config", &config.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("system.md") && err.contains("{{nonsense}}"), "{err}");
}

#[test]
fn config_typos_are_all_reported_with_lines() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("formgen.toml");
    std::fs::write(&config, "[server]\nlisten_on = \"x\"\n[[workers]]\nname = \"b\"\nprovider = \"builtin\"\ntimeout_s = \"ten\"\n").unwrap();
    let (code, _, err) = formgen(&["serve", "--config", &config.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("2 problem(s)"), "{err}");
    assert!(
        err.contains("server.listen_on (line 2, column 1)")
            && err.contains("workers[0].timeout_s (line 6, column 13)"),
        "{err}"
    );
    let (code, _, err) = formgen_env(
        &["generate", "-d", "x"],
        &[("FORMGEN_SHUTDOWN_GRACE_S", "soon"), ("FORMGEN_CREDENTIAL_CACHE_S", "-1")],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("FORMGEN_SHUTDOWN_GRACE_S=\"soon\"")
            && err.contains("FORMGEN_CREDENTIAL_CACHE_S=\"-1\""),
        "{err}"
    );
}
