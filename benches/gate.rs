//! Gate benchmark: `cargo bench --bench gate`.
//!
//! Runs `schema_from` on a model answer holding a 500-component form (fenced, with prose; inputs of
//! every kind, options, constraints, groups, a dynamic list) against a process, and reports the time per
//! component and as a ratio to parsing the same JSON with serde_json, measured in the same run. Goal:
//! well under a millisecond per component.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn component(i: usize) -> Value {
    match i % 10 {
        0 => json!({"type": "textfield", "key": format!("name{i}"), "label": format!("Name {i}"),
                    "validate": {"required": true, "minLength": 2, "maxLength": 80, "pattern": "[A-Za-z ]+"}}),
        1 => json!({"type": "number", "key": format!("amount{i}"), "label": format!("Amount {i}"),
                    "validate": {"min": 0, "max": 10000}, "defaultValue": 5}),
        2 => {
            json!({"type": "select", "key": format!("category{i}"), "label": format!("Category {i}"),
                    "values": [{"label": "Travel", "value": "travel"}, {"label": "Hotel", "value": "hotel"}]})
        }
        3 => {
            json!({"type": "checkbox", "key": format!("approved{i}"), "label": format!("Approved {i}")})
        }
        4 => {
            json!({"type": "datetime", "key": format!("date{i}"), "dateLabel": format!("Date {i}"), "subtype": "date"})
        }
        5 => {
            json!({"type": "textarea", "key": format!("comment{i}"), "label": format!("Comment {i}"),
                    "conditional": {"hide": format!("=approved{} = true", i - 2)}})
        }
        6 => json!({"type": "text", "text": format!("## Section {i}")}),
        7 => {
            json!({"type": "radio", "key": format!("size{i}"), "label": format!("Size {i}"), "values": ["S", "M", "L"]})
        }
        8 => json!({"type": "group", "label": format!("Group {i}"), "path": format!("group{i}"),
                    "components": [{"type": "textfield", "key": "street", "label": "Street"}]}),
        _ => json!({"type": "date", "name": format!("legacy{i}"), "label": format!("Legacy {i}")}),
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let components: Vec<Value> = (0..500).map(component).collect();
    let count = 500 + 50; // the groups' children count too
    let form = json!({"type": "default", "components": components});
    let answer = format!(
        "Here is the form you asked for:\n```json\n{}\n```\n",
        serde_json::to_string_pretty(&form).unwrap()
    );
    let bpmn = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bpmn/vacation.bpmn")).unwrap();
    let process = formgen::bpmn::read(&bpmn).processes.remove(0);
    let proposal =
        formgen::gate::schema_from(&answer, Some("bench"), Some(&process)).expect("the bench form passes");
    println!(
        "form: {count} components, {} KB answer, {} warnings",
        answer.len() / 1024,
        proposal.warnings.len()
    );

    let (mut parse, mut gate) = (Vec::new(), Vec::new());
    for _ in 0..41 {
        let t = Instant::now();
        black_box(
            serde_json::from_str::<Value>(black_box(
                &answer[answer.find('{').unwrap()..answer.rfind('}').unwrap() + 1],
            ))
            .unwrap(),
        );
        parse.push(t.elapsed());
        let t = Instant::now();
        black_box(formgen::gate::schema_from(black_box(&answer), Some("bench"), Some(&process)).unwrap());
        gate.push(t.elapsed());
    }
    let (parse, gate) = (median(parse), median(gate));
    println!(
        "schema_from: {:.2} ms for {count} components = {:.1} µs per component (goal: well under 1000 µs); \
         serde_json parse of the same JSON {:.2} ms; gate / parse = {:.1}x",
        gate.as_secs_f64() * 1e3,
        gate.as_secs_f64() * 1e6 / count as f64,
        parse.as_secs_f64() * 1e3,
        gate.as_secs_f64() / parse.as_secs_f64()
    );
}
