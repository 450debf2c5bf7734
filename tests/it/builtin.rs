//! The builtin drafter: deterministic forms from the outline, passing the gate, keyed by the process's
//! own variables.

use formgen::bpmn::{self, Process};
use formgen::draft;
use formgen::gate;

use crate::common::process::{at, names_used};
use serde_json::{Value, json};

fn process(name: &str) -> Process {
    let bytes = std::fs::read(crate::common::fixtures().join("bpmn").join(name)).unwrap();
    bpmn::read(&bytes).processes.into_iter().next().unwrap()
}

fn components(schema: &Value) -> Vec<Value> {
    schema["components"].as_array().unwrap().clone()
}

fn by_key<'a>(cs: &'a [Value], key: &str) -> &'a Value {
    cs.iter().find(|c| c["key"] == key).unwrap_or_else(|| panic!("no field {key} in {cs:#?}"))
}

#[test]
fn the_approval_step_reads_and_decides() {
    let p = process("vacation.bpmn");
    let draft = draft::draft(Some(&p), at(&p, "Task_approve"), "", None);
    let proposal = gate::schema_from_value(draft, Some("approve-vacation"), Some(&p)).unwrap();
    println!("{}", serde_json::to_string_pretty(&proposal.schema).unwrap());
    let cs = components(&proposal.schema);
    assert_eq!(cs[0]["type"], "text");
    assert!(cs[0]["text"].as_str().unwrap().starts_with("# Antrag prüfen\n\nDie Teamleitung prüft"));
    let days = by_key(&cs, "urlaubstage");
    assert_eq!(
        (&days["type"], &days["label"], &days["readonly"]),
        (&json!("number"), &json!("Urlaubstage"), &json!(true))
    );
    assert_eq!(days["validate"]["min"], 0);
    assert_eq!(by_key(&cs, "startDate")["type"], "datetime");
    assert_eq!(by_key(&cs, "startDate")["dateLabel"], "Start date");
    let approved = by_key(&cs, "approved");
    assert_eq!((&approved["type"], approved.get("readonly")), (&json!("checkbox"), None));
    assert_eq!(by_key(&cs, "comment")["type"], "textarea");
    assert_eq!(proposal.bound, ["employeeName", "urlaubstage", "startDate", "approved", "comment"]);
    assert!(proposal.warnings.is_empty(), "{:?}", proposal.warnings);
}

#[test]
fn the_start_form_captures_what_the_start_writes() {
    let p = process("vacation.bpmn");
    let proposal =
        gate::schema_from_value(draft::draft(Some(&p), at(&p, ""), "", None), None, Some(&p)).unwrap();
    let cs = components(&proposal.schema);
    let keys: Vec<&str> = cs.iter().filter_map(|c| c["key"].as_str()).collect();
    assert_eq!(
        keys,
        ["urlaubstage", "startDate", "vertretung"],
        "approved is the approver's, not the start form's"
    );
    assert_eq!(by_key(&cs, "urlaubstage")["validate"]["required"], true, "a decision depends on it");
    assert!(
        proposal.schema["id"].as_str().unwrap().starts_with("Form_"),
        "an id of its own, from its content"
    );
}

#[test]
fn conditions_type_the_fields() {
    let p = process("expense-c7.bpmn");
    let proposal =
        gate::schema_from_value(draft::draft(Some(&p), at(&p, ""), "", None), None, Some(&p)).unwrap();
    let cs = components(&proposal.schema);
    let category = by_key(&cs, "category");
    assert_eq!(category["type"], "select");
    assert_eq!(
        category["values"],
        json!([{"label": "Travel", "value": "travel"}, {"label": "Hotel", "value": "hotel"}])
    );
    assert_eq!(by_key(&cs, "vip")["type"], "checkbox");
    assert_eq!(by_key(&cs, "amount")["type"], "number");

    let order = process("order.bpmn");
    let proposal = gate::schema_from_value(
        draft::draft(Some(&order), at(&order, "check"), "", None),
        None,
        Some(&order),
    )
    .unwrap();
    let cs = components(&proposal.schema);
    let shipping = by_key(&cs, "shipping");
    assert_eq!(shipping["type"], "select");
    assert_eq!(shipping["values"].as_array().unwrap().len(), 2);
    assert_eq!(by_key(&cs, "order.total")["type"], "number");
}

#[test]
fn refinement_keeps_the_form_and_adds_what_is_missing() {
    let p = process("vacation.bpmn");
    let current = json!({"type": "default", "id": "approve-vacation", "components": [
        {"type": "checkbox", "key": "approved", "label": "Genehmigen", "id": "Field_mine"}]});
    let draft = draft::draft(Some(&p), at(&p, "Task_approve"), "", Some(&current));
    let cs = components(&draft);
    assert_eq!(cs[0]["id"], "Field_mine");
    assert_eq!(cs.iter().filter(|c| c["key"] == "approved").count(), 1);
    assert!(cs.iter().any(|c| c["key"] == "comment"));
}

#[test]
fn without_a_process_the_brief_is_the_heading() {
    let draft = draft::draft(None, None, "Reisekostenabrechnung\nmit Belegen", None);
    let proposal = gate::schema_from_value(draft, Some("f"), None).unwrap();
    assert_eq!(proposal.schema["components"][0]["text"], "# Reisekostenabrechnung");
}

#[test]
fn every_fixture_process_and_step_drafts_a_form_the_gate_accepts() {
    for path in crate::common::bpmn_files(&crate::common::fixtures().join("bpmn")) {
        let defs = bpmn::read(&std::fs::read(&path).unwrap());
        for p in &defs.processes {
            let names = names_used(p);
            let targets =
                std::iter::once("").chain(p.elements.iter().filter(|e| !e.is_flow()).map(|e| e.id.as_str()));
            for target in targets {
                let draft = draft::draft(Some(p), at(p, target), "", None);
                let proposal = gate::schema_from_value(draft, None, Some(p))
                    .unwrap_or_else(|e| panic!("{} {target}: {e}", path.display()));
                for b in &proposal.bindings {
                    assert!(
                        names.contains(&b.path),
                        "{} {target}: key {} is not a process variable",
                        path.display(),
                        b.path
                    );
                }
            }
        }
    }
}
