//! `formgen eval`'s library side on hand-made pairs with known answers (`fixtures/eval/`): loading,
//! hiding the answer, scoring, the report, leave-one-out on a project folder, bad input, and one run
//! through the real service with the builtin drafter.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use formgen::eval::{self, EvalError, Generated, GenerationInput, PairOrProblem, Quiet, Report};
use formgen::{Limits, config::Config, service};
use serde_json::{Value, json};

fn pairs_dir() -> PathBuf {
    crate::common::fixtures().join("eval/pairs")
}

fn pairs() -> Vec<PairOrProblem> {
    eval::load_pairs(&pairs_dir(), &Limits::default()).unwrap()
}

fn pair(items: &[PairOrProblem], i: usize) -> &eval::Pair {
    match &items[i] {
        PairOrProblem::Pair(p) => p,
        PairOrProblem::Problem(p) => panic!("pair {i} is a problem: {}", p.error),
    }
}

fn generated(components: Value, prompt: &str) -> Generated {
    Generated {
        schema: json!({"type": "default", "components": components}),
        prompt_text: prompt.to_string(),
        attempts: 1,
        input_tokens: 100,
        output_tokens: 10,
    }
}

/// Known proposals for the fixture's steps.
async fn fake(input: GenerationInput) -> Result<Generated, String> {
    let choice = |v: &[&str]| v.iter().map(|s| json!({"label": s, "value": s})).collect::<Vec<_>>();
    Ok(match input.element_id.as_str() {
        "Task_Exact" => {
            assert!(
                !input.bpmn_text.contains("<zeebe:userTaskForm"),
                "the answer was handed to the generator"
            );
            generated(
                json!([{"type": "textfield", "key": "customer", "label": "Customer"},
                       {"type": "number", "key": "amount", "label": "Amount", "validate": {"required": true}}]),
                "The step writes customer and amount.",
            )
        }
        "Task_Half" => generated(
            json!([{"type": "textfield", "key": "name", "label": "Full name"},
                   {"type": "textfield", "key": "phone", "label": "Phone"}]),
            "name",
        ),
        "Task_Type" => generated(
            json!([{"type": "textfield", "key": "comment", "label": "Comment"},
                   {"type": "select", "key": "decision", "label": "Decision", "validate": {"required": true},
                    "values": choice(&["yes", "no", "maybe"])},
                   {"type": "select", "key": "priority", "label": "Priority", "values": choice(&["low", "high"])}]),
            "",
        ),
        "Task_Fail" => return Err("The model answered nothing usable.".to_string()),
        "Task_Group" => generated(
            json!([{"type": "group", "path": "applicant", "components": [
                       {"type": "textfield", "key": "firstName", "label": "First  Name"}]},
                   {"type": "group", "path": "ignored", "components": [
                       {"type": "number", "key": "age", "label": "Age"}]}]),
            "applicant.firstName, age",
        ),
        other => panic!("no fake answer for {other}"),
    })
}

async fn fake_report() -> Report {
    let mut report = eval::run(pairs(), 2, fake, &mut Quiet).await;
    for r in &mut report.rows {
        r.seconds = 0.0;
    }
    report.seconds = 0.0;
    report
}

#[test]
fn the_fixture_pairs_load_ready_to_generate_with_their_problems() {
    let items = pairs();
    assert_eq!(items.len(), 8);
    let exact = pair(&items, 0);
    assert!(!exact.input.bpmn_text.contains("Form_exact\">"), "the embedded form is cut out");
    assert!(exact.input.bpmn_text.contains("formKey=\"camunda-forms:bpmn:Form_exact\""), "the link stays");
    let names = |p: &eval::Pair| -> Vec<String> {
        p.input.project_files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect()
    };
    assert_eq!(names(exact), ["group.form", "half.form", "pricing.dmn", "type.form"]);
    assert_eq!(names(pair(&items, 1)), ["group.form", "pricing.dmn", "type.form"], "its own form is hidden");
    let group = pair(&items, 4);
    assert_eq!(group.author_keys, ["applicant.firstName", "age"], "no inputKeys: read from the form");
    assert_eq!(group.listed_keys, None);
    for i in 0..5 {
        assert!(
            pair(&items, i).key_differences().is_empty(),
            "pair {i}: {:?}",
            pair(&items, i).key_differences()
        );
    }
    let problems: Vec<&eval::Problem> = items
        .iter()
        .filter_map(|i| match i {
            PairOrProblem::Problem(p) => Some(p),
            PairOrProblem::Pair(_) => None,
        })
        .collect();
    assert_eq!(problems.len(), 3);
    assert!(problems[0].error.starts_with("line 6 of pairs.jsonl is not a pair"), "{}", problems[0].error);
    assert!(problems[1].error.contains("missing.bpmn"), "{}", problems[1].error);
    assert_eq!(problems[1].element_id, "Task_Half");
    assert!(problems[2].error.contains("\"Task_Nowhere\" is in no process"), "{}", problems[2].error);
}

#[test]
fn a_pair_without_a_project_gets_its_folder_by_the_layout_without_its_own_form() {
    let items = eval::load_pairs(&crate::common::fixtures().join("eval/layout"), &Limits::default()).unwrap();
    let names = |i: usize| -> Vec<String> {
        let files = &pair(&items, i).input.project_files;
        files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect()
    };
    // `shop__order.bpmn` keeps its project in `projects/shop`; `contact.form` carries the form's id
    // and `keys.form` binds the same keys: both are the pair's own form
    assert_eq!(names(0), ["group.form", "pricing.dmn", "review-v2.form"]);
    // a named folder without a list of files to hide hides the copies too: the same components
    assert_eq!(names(1), ["contact.form", "group.form", "keys.form", "pricing.dmn"]);
    // a list of files to hide is the pairs file's word
    assert_eq!(names(2), ["contact.form", "keys.form", "pricing.dmn", "review-v2.form"]);
    assert!(names(3).is_empty(), "a BPMN file named without a prefix has no project folder");
}

#[test]
fn one_form_is_the_same_id_the_same_components_or_the_same_keys() {
    let form =
        json!({"id": "a", "components": [{"type": "textfield", "key": "x"}, {"type": "number", "key": "y"}]});
    let same = |other: Value| eval::same_form(&form, &other);
    assert!(same(json!({"id": "a", "components": []})));
    assert!(same(json!({"id": "b", "components": form["components"]})));
    assert!(same(
        json!({"components": [{"type": "textarea", "key": "y"}, {"type": "textfield", "key": "x"}]})
    ));
    assert!(!same(json!({"id": "b", "components": [{"type": "textfield", "key": "x"}]})));
    let unnamed = json!({"components": [{"type": "text", "text": "# Hello"}]});
    assert!(!eval::same_form(&json!({"components": [{"type": "text", "text": "# Bye"}]}), &unnamed));
}

#[test]
fn listed_keys_that_differ_from_the_form_are_said() {
    let mut p = pair(&pairs(), 1).clone();
    p.listed_keys = Some(vec!["email".into(), "nickname".into()]);
    assert_eq!(
        p.key_differences(),
        [
            "inputKeys lists \"nickname\", which the form does not bind",
            "the form binds \"name\", which inputKeys does not list"
        ]
    );
}

#[tokio::test]
async fn known_answers_per_pair_and_micro_averaged() {
    let report = fake_report().await;
    let figures = |i: usize| {
        let c = report.rows[i].counts;
        (c.key_recall(), c.key_precision(), c.type_agreement(), c.loose_type_agreement(), c.label_agreement())
    };
    assert_eq!(figures(0), (Some(1.0), Some(1.0), Some(1.0), Some(1.0), Some(1.0)), "reproduced exactly");
    assert_eq!(report.rows[0].counts.all_reproduced, 1);
    assert_eq!(figures(1), (Some(0.5), Some(0.5), Some(1.0), Some(1.0), Some(0.0)), "half");
    assert_eq!(figures(2), (Some(1.0), Some(1.0), Some(1.0 / 3.0), Some(1.0), Some(1.0)), "type mismatch");
    let options = report.rows[2].counts.options_agreement().unwrap();
    assert!((options - (2.0 / 3.0 + 1.0) / 2.0).abs() < 1e-9, "{options}");
    assert_eq!(report.rows[2].counts.prompt_key_coverage(), Some(0.0));
    assert_eq!(report.rows[3].error.as_deref(), Some("The model answered nothing usable."));
    assert_eq!(figures(4), (Some(0.5), Some(0.5), Some(1.0), Some(1.0), Some(1.0)), "group path");
    assert_eq!(report.rows[4].proposal_keys, ["applicant.firstName", "ignored.age"]);
    assert!(report.rows[5..].iter().all(|r| r.error.is_some()));

    let s = report.summary();
    assert_eq!((s.pairs, s.failed, s.author_keys, s.proposal_keys), (8, 4, 9, 9));
    assert_eq!(s.key_recall, Some(0.6364), "7 of 11: the failed generation's 2 keys count");
    assert_eq!((s.key_recall_evaluated, s.key_precision), (Some(0.7778), Some(0.7778)));
    assert_eq!((s.type_agreement, s.loose_type_agreement), (Some(0.7143), Some(1.0)));
    assert_eq!((s.label_agreement, s.required_agreement), (Some(0.8571), Some(1.0)));
    assert_eq!((s.options_agreement, s.prompt_key_coverage), (Some(0.8333), Some(0.5556)));
    assert_eq!((s.all_keys_reproduced, s.input_tokens, s.output_tokens), (2, 400, 40));
    assert_eq!(report.exit_code(), 0);
}

#[tokio::test]
async fn json_lines_one_object_per_pair_then_the_summary() {
    let report = fake_report().await;
    let text = report.json_lines();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 9);
    assert_eq!(lines[0]["bpmn"], "bpmn/order.bpmn");
    assert_eq!(lines[0]["elementId"], "Task_Exact");
    assert_eq!(lines[0]["authorKeys"], json!(["customer", "amount"]));
    assert_eq!(lines[0]["keyRecall"], 1.0);
    assert!(lines[0].get("error").is_none());
    assert_eq!(lines[3]["error"], "The model answered nothing usable.");
    assert_eq!(lines[3]["keyRecall"], Value::Null);
    let summary = &lines[8]["summary"];
    for field in [
        "pairs",
        "failed",
        "keyRecall",
        "keyRecallEvaluated",
        "keyPrecision",
        "typeAgreement",
        "labelAgreement",
        "optionsAgreement",
        "requiredAgreement",
        "promptKeyCoverage",
        "promptChars",
        "inputTokens",
        "outputTokens",
        "seconds",
        "looseTypeAgreement",
    ] {
        assert!(summary.get(field).is_some(), "summary has no {field}: {summary}");
    }
    assert_eq!(summary["keyRecall"], 0.6364);
    assert_eq!(summary["keyRecallEvaluated"], 0.7778);
}

#[tokio::test]
async fn the_table() {
    insta::assert_snapshot!(fake_report().await.table());
}

#[tokio::test]
async fn a_few_at_a_time_and_rows_in_pair_order() {
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let generate = |input: GenerationInput| {
        let (in_flight, most) = (in_flight.clone(), most.clone());
        async move {
            let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            // the first pairs take longest, so they finish last
            let wait = match input.element_id.as_str() {
                "Task_Exact" => 60,
                "Task_Half" => 40,
                _ => 5,
            };
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
            in_flight.fetch_sub(1, Ordering::SeqCst);
            fake(input).await
        }
    };
    let report = eval::run(pairs(), 2, generate, &mut Quiet).await;
    assert_eq!(most.load(Ordering::SeqCst), 2);
    let order: Vec<&str> = report.rows.iter().map(|r| r.element_id.as_str()).collect();
    assert_eq!(
        order,
        ["Task_Exact", "Task_Half", "Task_Type", "Task_Fail", "Task_Group", "", "Task_Half", "Task_Nowhere"]
    );
    assert!(report.rows[0].seconds >= 0.05, "seconds are per pair: {}", report.rows[0].seconds);
}

#[tokio::test]
async fn leave_one_out_on_a_project_folder() {
    let dir = crate::common::fixtures().join("eval/project");
    let items = eval::load_project(&dir, &Limits::default()).unwrap();
    let got: Vec<(&str, &str, Vec<String>)> = items
        .iter()
        .map(|i| match i {
            PairOrProblem::Pair(p) => (
                p.element_id.as_str(),
                p.form.as_str(),
                p.input
                    .project_files
                    .iter()
                    .map(|f| f.strip_prefix(&dir).unwrap().display().to_string())
                    .collect(),
            ),
            PairOrProblem::Problem(p) => panic!("{}", p.error),
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "Start",
                "forms/travel-request.form",
                vec![
                    "decisions/budget.dmn".to_string(),
                    "forms/approval-v1.form".into(),
                    "forms/broken.form".into(),
                    "forms/travel-approval-copy.form".into(),
                    "forms/travel-approval.form".into()
                ]
            ),
            (
                "Task_Approve",
                "forms/travel-approval.form",
                vec![
                    "decisions/budget.dmn".to_string(),
                    "forms/broken.form".into(),
                    "forms/travel-request.form".into()
                ]
            ),
        ],
        "its own form, the copy carrying its id and the one binding its keys are hidden; a form kept elsewhere and an \
         embedded one are no pairs"
    );
    // a generator that returns the author's form reproduces everything
    let answers = |input: GenerationInput| async move {
        let file = if input.element_id == "Start" { "travel-request.form" } else { "travel-approval.form" };
        let form: Value = serde_json::from_str(
            &std::fs::read_to_string(crate::common::fixtures().join("eval/project/forms").join(file))
                .unwrap(),
        )
        .unwrap();
        Ok(Generated { schema: form, attempts: 1, ..Generated::default() })
    };
    let s = eval::run(items, 1, answers, &mut Quiet).await.summary();
    assert_eq!(
        (s.pairs, s.failed, s.key_recall, s.key_precision, s.all_keys_reproduced),
        (2, 0, Some(1.0), Some(1.0), 2)
    );
    assert_eq!(s.type_agreement, Some(1.0));
}

#[test]
fn bad_input_is_an_error_of_its_own_with_exit_code_2() {
    let empty = tempfile::tempdir().unwrap();
    let limits = Limits::default();
    let e = eval::load_pairs(empty.path(), &limits).unwrap_err();
    assert!(matches!(e, EvalError::NoPairsFile(_)), "{e}");
    assert!(e.to_string().contains("has no pairs.jsonl"), "{e}");
    assert_eq!(e.exit_code(), 2);
    assert!(matches!(eval::load_project(empty.path(), &limits).unwrap_err(), EvalError::NoBpmn(_)));
    let gone = empty.path().join("gone");
    assert!(matches!(eval::load_pairs(&gone, &limits).unwrap_err(), EvalError::Unreadable { .. }));
    assert!(matches!(eval::load_project(&gone, &limits).unwrap_err(), EvalError::Unreadable { .. }));
    std::fs::write(empty.path().join("pairs.jsonl"), "\n  \n").unwrap();
    let e = eval::load_pairs(empty.path(), &limits).unwrap_err();
    assert!(matches!(e, EvalError::NoPairs(_)), "{e}");
    let file = empty.path().join("pairs.jsonl");
    assert!(matches!(eval::load_pairs(&file, &limits).unwrap_err(), EvalError::NotAFolder(_)));
    assert_eq!(eval::exit_code(&Err(e)), 2);
}

#[test]
fn a_pair_file_path_may_not_leave_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("pairs.jsonl"),
        r#"{"bpmn": "../outside.bpmn", "elementId": "T", "form": "f.form"}"#,
    )
    .unwrap();
    let items = eval::load_pairs(dir.path(), &Limits::default()).unwrap();
    let PairOrProblem::Problem(p) = &items[0] else { panic!("a pair outside the folder was read") };
    assert!(p.error.contains("not a path inside the pairs folder"), "{}", p.error);
}

#[tokio::test]
async fn no_pair_evaluated_exits_1() {
    let report =
        eval::run(pairs(), 4, |_| async { Err("The endpoint is down.".to_string()) }, &mut Quiet).await;
    let s = report.summary();
    assert_eq!((s.pairs, s.failed, s.key_recall), (8, 8, Some(0.0)), "no key of any pair was reproduced");
    assert_eq!(s.key_recall_evaluated, None);
    assert_eq!(report.exit_code(), 1);
    assert_eq!(eval::exit_code(&Ok(report)), 1);
}

#[tokio::test]
async fn the_builtin_drafter_through_the_service() {
    let config = Config::load(None, &|_| None).unwrap();
    let service = service::Service::new(&config).unwrap();
    let report =
        eval::run(pairs(), 2, |input| eval::service::generate(&service, "", "", input), &mut Quiet).await;
    println!("{}", report.table());
    let s = report.summary();
    assert_eq!((s.pairs, s.failed), (8, 3), "only the three broken lines fail: the drafter always drafts");
    let exact = &report.rows[0];
    assert_eq!(exact.proposal_keys[..2], ["customer", "amount"], "the step's outputs become its fields");
    assert_eq!(exact.counts.key_recall(), Some(1.0));
    assert_eq!(exact.counts.prompt_key_coverage(), Some(1.0), "describe names the outputs");
    assert!(exact.prompt_chars > 0 && exact.attempts == 1);
    assert_eq!((s.input_tokens, s.output_tokens), (0, 0), "no model, no tokens");
    assert_eq!(report.exit_code(), 0);
}
