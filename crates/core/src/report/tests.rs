//! A sample run every format's tests render, and what holds for every format.

use crate::check::{Code, Finding, Severity};
use serde_json::json;

use super::{Format, Located, Position, ProcessReport, Rule, Run, Unit};

/// A process rule no code of the check has yet: the formats take any.
const PROCESS_RULE: Rule = Rule { id: "process_rule", summary: "A process says where it ends." };

/// Said only in the schema and the finding's expression, which no format but `json` prints.
pub(crate) const UNSAID: &str = "UNSAID-default-value";

/// One process with a finding of its own, a form with an error and a gate warning, a clean form.
pub fn sample() -> Run {
    let finding = Finding {
        code: Code::MissingSupply,
        severity: Severity::Error,
        key: Some("decision".into()),
        label: None,
        element_id: Some("Gateway_1".into()),
        expression: Some(format!("= decision = \"{UNSAID}\"")),
        message: "The gateway reads `decision`.".into(),
    };
    let at = |line, column| Position { line, column };
    let process_finding = Located::sentence(
        PROCESS_RULE,
        Severity::Warning,
        "The process has no end.".into(),
        "order.bpmn",
        at(7, 5),
    );
    let unit = |form: &str, step: &str, located| Unit {
        form: form.into(),
        form_file: form.into(),
        form_id: form.trim_end_matches(".form").into(),
        process: Some(0),
        element_id: Some(step.into()),
        schema: Some(json!({"components": [{"key": "x", "defaultValue": UNSAID}]})),
        located,
    };
    Run {
        base: String::new(),
        project: true,
        processes: vec![ProcessReport {
            file: "order.bpmn".into(),
            name: "order.bpmn".into(),
            id: "order".into(),
            located: vec![process_finding],
        }],
        units: vec![
            unit(
                "review.form",
                "Task_review",
                vec![
                    Located {
                        rule: Rule::of(finding.code),
                        severity: finding.severity,
                        message: finding.message.clone(),
                        finding: Some(finding),
                        file: "review.form".into(),
                        at: at(3, 7),
                    },
                    Located::sentence(
                        Rule::GATE_WARNING,
                        Severity::Warning,
                        "The form has no id.".into(),
                        "review.form",
                        Position::START,
                    ),
                ],
            ),
            unit("start.form", "StartEvent_1", Vec::new()),
        ],
    }
}

#[test]
fn no_format_but_json_prints_what_it_was_not_given_to_print() {
    let run = sample();
    let cwd = std::env::current_dir().unwrap().to_string_lossy().into_owned();
    let home = std::env::var("HOME").unwrap_or_else(|_| cwd.clone());
    for format in [Format::Text, Format::Sarif, Format::Junit, Format::Github] {
        let shown = run.render(format);
        let all = shown.out.clone() + &shown.err;
        assert!(!all.contains(UNSAID), "{format:?} prints the schema or the expression: {all}");
        assert!(!all.contains(&cwd) && !all.contains(&home), "{format:?} prints where it runs: {all}");
        assert!(shown.err.is_empty(), "{format:?}");
        for l in run.located() {
            assert!(all.contains(l.rule.id), "{format:?} names {}", l.rule.id);
        }
        assert_eq!(run.render(format), shown, "{format:?} depends on nothing but the run");
    }
    // json prints the schema and the finding, as given
    let json = run.render(Format::Json).out;
    assert!(json.contains(UNSAID));
    assert!(!json.contains(&cwd));
}

#[test]
fn the_summary_counts_in_words() {
    let mut run = sample();
    assert_eq!(run.summary(), "2 forms at 2 steps of 1 process: 1 error, 2 warnings");
    run.units.iter_mut().for_each(|u| u.element_id = None);
    assert_eq!(run.summary(), "2 forms against 1 process: 1 error, 2 warnings");
    run.processes.clear();
    run.units.truncate(1);
    run.units[0].process = None;
    run.units[0].element_id = None;
    assert_eq!(run.summary(), "1 form: 1 error, 1 warning");
}

#[test]
fn errors_fail_and_warnings_past_the_maximum_too() {
    let mut run = sample();
    assert!(run.fails(None));
    run.units[0].located.remove(0);
    assert!(!run.fails(None));
    assert!(!run.fails(Some(2)));
    assert!(run.fails(Some(1)));
    assert!(run.fails(Some(0)));
}

#[test]
fn paths_are_shown_slash_separated_without_a_leading_dot() {
    use std::path::Path;
    assert_eq!(super::display_path(Path::new("./a/b.form")), "a/b.form");
    assert_eq!(super::display_path(Path::new(".//x.bpmn")), "x.bpmn");
    assert_eq!(super::display_path(Path::new("/abs/x.form")), "/abs/x.form");
    assert_eq!(super::display_path(Path::new("../up.form")), "../up.form");
}
