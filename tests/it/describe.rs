//! `describe` — the text a model is shown — pinned by snapshots on the fixtures, and its budget rule
//! on a very large process.

use formgen::bpmn::{self, DescribeError};

fn process(name: &str) -> bpmn::Process {
    let bytes = std::fs::read(crate::common::fixtures().join("bpmn").join(name)).unwrap();
    bpmn::read(&bytes).processes.into_iter().next().unwrap()
}

const BUDGET: usize = 48_000;

#[test]
fn snapshots() {
    for (file, element) in [
        ("vacation.bpmn", "Task_approve"),
        ("vacation.bpmn", ""),
        ("expense-c7.bpmn", "approve"),
        ("expense-c7.bpmn", ""),
        ("order.bpmn", "check"),
        ("order.bpmn", "packItem"),
    ] {
        let text = bpmn::describe_step(&process(file), element, BUDGET).unwrap();
        let name = format!(
            "{}-{}",
            file.trim_end_matches(".bpmn"),
            if element.is_empty() { "start" } else { element }
        );
        insta::assert_snapshot!(name, text);
    }
}

#[test]
fn unknown_element_is_a_typed_error() {
    let err = bpmn::describe_step(&process("vacation.bpmn"), "Nope", BUDGET).unwrap_err();
    assert_eq!(
        err,
        DescribeError::UnknownElement { process_id: "vacation-request".into(), element_id: "Nope".into() }
    );
    assert!(err.to_string().contains("has no element \"Nope\""));
}

#[test]
fn nothing_to_say_is_empty() {
    assert_eq!(bpmn::describe_step(&bpmn::Process::default(), "", BUDGET).unwrap(), "");
}

#[test]
fn a_huge_process_stays_within_budget_and_keeps_every_variable_and_the_neighbourhood() {
    let xml = crate::common::synthetic::process(20_000);
    let defs = bpmn::read(xml.as_bytes());
    let p = &defs.processes[0];
    assert!(p.elements.len() > 20_000);
    for (target, budget) in [("t10005", BUDGET), ("", BUDGET), ("t19999", 200_000)] {
        let text = bpmn::describe_step(p, target, budget).unwrap();
        assert!(text.len() <= budget, "{} > {budget}", text.len());
        for v in p.variables() {
            assert!(text.contains(v), "variable {v} missing for target {target:?}");
        }
        assert!(text.contains("Left out to stay within the prompt budget"), "{target:?}");
    }
    let text = bpmn::describe_step(p, "t10005", BUDGET).unwrap();
    assert!(text.contains("The form is for the step \"Review item 10005 of the order\""));
    assert!(text.contains("- from \"Review item 10004 of the order\""));
    assert!(text.contains("- to \"Review item 10006 of the order\""));
    assert!(text.contains("\"Amount over 10009?\""), "the next gateway downstream is shown");
    assert!(text.contains("amount9 > 10009"), "its condition is shown");
}

#[test]
fn a_tiny_budget_is_still_respected() {
    let p = process("vacation.bpmn");
    for budget in [0, 50, 300, 1_000] {
        let text = bpmn::describe_step(&p, "Task_approve", budget).unwrap();
        assert!(text.len() <= budget.max(60) + 60, "{budget}: {}", text.len());
    }
}
