//! Gate benchmark: `cargo bench --bench gate`.
//!
//! Runs the gate on forms of 1k, 4k and 16k components (a mix of every input kind with options,
//! constraints, groups and a dynamic list, in a chatty fenced answer, against a process), on 16k plain
//! text fields checked as a hand-written form, and on one select with 34k options. Reports the time per
//! component (or option) and the ratio to a bare serde_json parse of the same bytes, measured in the
//! same run: the ratio must stay flat as n grows (every rule is O(n log n) or better).

use std::hint::black_box;
use std::time::{Duration, Instant};

use formgen::gate;
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

/// Times `run` and a serde_json parse of `json`, alternately, and prints one table row.
fn row(name: &str, n: usize, unit: &str, json: &str, run: &dyn Fn()) {
    let rounds = if n > 8000 { 7 } else { 15 };
    let (mut parse, mut gate) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        black_box(serde_json::from_str::<Value>(black_box(json)).unwrap());
        parse.push(t.elapsed());
        let t = Instant::now();
        run();
        gate.push(t.elapsed());
    }
    let (parse, gate) = (median(parse), median(gate));
    println!(
        "| {name} | {n} {unit} | {} KB | {:.1} ms | {:.2} µs | {:.2} ms | {:.1}x |",
        json.len() / 1024,
        gate.as_secs_f64() * 1e3,
        gate.as_secs_f64() * 1e6 / n as f64,
        parse.as_secs_f64() * 1e3,
        gate.as_secs_f64() / parse.as_secs_f64()
    );
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let bpmn = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/bpmn/vacation.bpmn")).unwrap();
    let process = formgen::bpmn::read(&bpmn).processes.remove(0);
    println!("| case | n | bytes | gate | per unit | serde_json parse | gate / parse |");
    println!("|---|---|---|---|---|---|---|");
    for n in [1000, 4000, 16000] {
        let components: Vec<Value> = (0..n).map(component).collect();
        let count = n + n / 10; // the groups' children count too
        let form = json!({"type": "default", "components": components});
        let json = serde_json::to_string_pretty(&form).unwrap();
        let answer = format!("Here is the form you asked for:\n```json\n{json}\n```\n");
        gate::schema_from(&answer, Some("bench"), Some(&process)).expect("the bench form passes");
        row("model answer, mixed", count, "components", &json, &|| {
            black_box(gate::schema_from(black_box(&answer), Some("bench"), Some(&process)).unwrap());
        });
    }
    for n in [1000, 4000, 16000] {
        let components: Vec<Value> = (0..n)
            .map(|i| json!({"type": "textfield", "key": format!("f{i}"), "label": format!("Field {i}"), "id": format!("F{i}")}))
            .collect();
        let json =
            serde_json::to_string(&json!({"type": "default", "id": "plain", "components": components}))
                .unwrap();
        gate::check(&json, None, None).expect("the plain form passes");
        row("hand-written, plain text fields", n, "components", &json, &|| {
            black_box(gate::check(black_box(&json), None, None).unwrap());
        });
    }
    for n in [8500, 34000] {
        let values: Vec<Value> =
            (0..n).map(|i| json!({"label": format!("Option {i}"), "value": format!("o{i}")})).collect();
        let json = serde_json::to_string(&json!({"type": "default", "id": "options", "components": [
            {"type": "select", "key": "choice", "label": "Choice", "id": "S1", "values": values}]}))
        .unwrap();
        gate::check(&json, None, None).expect("the select passes");
        row("one select", n, "options", &json, &|| {
            black_box(gate::check(black_box(&json), None, None).unwrap());
        });
    }
    let brackets = "[1,".repeat(350_000);
    let same_size = format!("[{}1]", "1,".repeat(brackets.len() / 2 - 1));
    row("no form: 1 MB of `[1,`", brackets.len(), "bytes", &same_size, &|| {
        black_box(gate::schema_from(black_box(&brackets), None, None).unwrap_err());
    });
}
