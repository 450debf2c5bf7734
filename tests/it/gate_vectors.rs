//! Replays the gate's test vectors in `fixtures/gate/`: each file is one case, an input (a model's raw
//! `answer` text, or a `schema` object) with an optional `formId` and `process` (a BPMN fixture), and
//! `origin` (`"model"`, the default, or `"author"` for a hand-written form), and
//! the expected outcome: `{"accepted": {"schema", "warnings", "bound"}}` or `{"refused": [sentences]}`.
//! The same files are replayed through the real form-js library by the conformance tier.
//!
//! `FORMGEN_BLESS=1 cargo test --test gate_vectors` rewrites the expectations from what the gate does
//! now; review the diff before committing it.

use formgen::{bpmn, gate};
use serde_json::{Value, json};

/// Runs one case's input through the gate and returns the outcome in the fixture's `expect` shape.
pub fn outcome(case: &Value) -> Value {
    let form_id = case.get("formId").and_then(Value::as_str);
    let process = case.get("process").and_then(Value::as_str).map(|name| {
        let bytes = std::fs::read(crate::common::fixtures().join("bpmn").join(name)).unwrap();
        bpmn::read(&bytes).processes.into_iter().next().expect("a process")
    });
    let origin = match case.get("origin").and_then(Value::as_str) {
        None | Some("model") => gate::Origin::Model,
        Some("author") => gate::Origin::Author,
        Some(other) => panic!("origin is \"model\" or \"author\", not {other:?}"),
    };
    let options = gate::Options { origin, form_id, process: process.as_ref(), stop: None };
    let result = match (case.get("answer"), case.get("schema")) {
        (Some(Value::String(answer)), None) => gate::run_text(answer, &options),
        (None, Some(schema)) => gate::run_value(schema.clone(), &options),
        _ => panic!("a case has exactly one of \"answer\" (text) and \"schema\""),
    };
    if let Ok(p) = &result {
        let again = gate::run_value(p.schema.clone(), &options).expect("the gate accepts its own output");
        assert_eq!(again.schema, p.schema, "the gate changed its own output");
    }
    match result {
        Ok(p) => {
            json!({"accepted": {"schema": p.schema, "warnings": p.warnings, "bound": p.bound}})
        }
        Err(e) => json!({"refused": e.problems()}),
    }
}

#[test]
fn gate_vectors() {
    let dir = crate::common::fixtures().join("gate");
    let mut paths: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.retain(|p| p.extension().is_some_and(|e| e == "json"));
    paths.sort();
    assert!(paths.len() >= 80, "the gate needs at least 80 vectors, found {}", paths.len());
    let bless = std::env::var_os("FORMGEN_BLESS").is_some();
    let (mut accepted, mut refused, mut failures) = (0, 0, Vec::new());
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap();
        let mut case: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let actual = outcome(&case);
        if actual.get("accepted").is_some() {
            accepted += 1;
        } else {
            refused += 1;
        }
        if bless {
            case["expect"] = actual;
            std::fs::write(path, serde_json::to_string_pretty(&case).unwrap() + "\n").unwrap();
        } else if case.get("expect") != Some(&actual) {
            failures.push(format!(
                "{}:\n  expected {}\n  actual   {}",
                path.file_name().unwrap().to_string_lossy(),
                case.get("expect").map(Value::to_string).unwrap_or_else(|| "nothing".into()),
                actual
            ));
        }
    }
    println!("gate vectors: {} cases, {accepted} accepted, {refused} refused", paths.len());
    assert!(failures.is_empty(), "{} vectors differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_refusal_names_a_field_or_says_what_was_wrong() {
    let dir = crate::common::fixtures().join("gate");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let case: Value =
            serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        if let Some(sentences) = case["expect"]["refused"].as_array() {
            for s in sentences {
                let s = s.as_str().unwrap();
                let specific = s.starts_with("The field \"")
                    || s.starts_with("The ")
                    || s.starts_with("Component ")
                    || s.starts_with("The answer");
                assert!(specific && s.ends_with('.'), "not specific: {s}");
            }
        }
    }
}
