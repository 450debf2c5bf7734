//! The builtin drafter on every corpus process: the gate accepts each draft, its keys are names the
//! process uses, the real form-js library imports it, and each step's draft passes its own contract
//! check with no error.

use formgen::check::{Severity, StepCheck};
use formgen::project::Project;
use formgen::{bpmn, draft, flow, gate};

use crate::process::{at, names_used};
use formgen::bpmn::ElementKind;

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_builtin_drafter_on_every_corpus_process() {
    let dir = crate::common::shared().join("corpus/bpmn");
    let mut schemas = Vec::new();
    let (mut processes, mut drafts, mut fields) = (0, 0, 0);
    for path in crate::common::bpmn_files(&dir) {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let defs = bpmn::read(&std::fs::read(&path).unwrap());
        for (pi, p) in defs.processes.iter().enumerate() {
            processes += 1;
            let names = names_used(p);
            let targets = std::iter::once("").chain(
                p.elements
                    .iter()
                    .filter(|e| matches!(e.kind, ElementKind::UserTask | ElementKind::StartEvent))
                    .map(|e| e.id.as_str()),
            );
            for (ti, target) in targets.enumerate() {
                let draft = draft::draft(Some(p), at(p, target), "", None);
                let proposal = gate::schema_from_value(draft, None, Some(p))
                    .unwrap_or_else(|e| panic!("{stem} process {} element {target:?}: {e}", p.id));
                drafts += 1;
                for b in &proposal.bindings {
                    fields += 1;
                    assert!(
                        names.contains(&b.path),
                        "{stem} {target:?}: key {} is not a name the process uses",
                        b.path
                    );
                }
                if ti < 3 {
                    schemas.push((format!("{stem}-{pi}-{ti}"), proposal.schema));
                }
            }
        }
    }
    let failures = super::formjs::failures(&schemas);
    println!(
        "builtin drafter: {drafts} drafts for {processes} corpus processes, {fields} fields, all accepted by the gate; \
         {} checked with form-js, {} rejected",
        schemas.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "form-js rejects builtin drafts:\n{}", failures.join("\n"));
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn every_builtin_draft_passes_its_own_steps_contract_check() {
    let dir = crate::common::shared().join("corpus/bpmn");
    let project = Project::default();
    let (mut steps, mut with_contract, mut hidden) = (0, 0, Vec::new());
    let mut errors = Vec::new();
    for path in crate::common::bpmn_files(&dir) {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let defs = bpmn::read(&std::fs::read(&path).unwrap());
        for p in &defs.processes {
            let targets = std::iter::once(None).chain(
                (0..p.elements.len())
                    .filter(|&i| {
                        matches!(p.elements[i].kind, ElementKind::UserTask | ElementKind::StartEvent)
                    })
                    .map(Some),
            );
            for target in targets {
                // as the service drafts it: with the step's picture and contract
                let picture = flow::picture(p, target, &project);
                let contract = flow::contract(p, target, &project);
                let around = draft::Around { picture: &picture, project: &project, contract: &contract };
                let form = draft::draft_in(Some(p), target, Some(around), "", None).form;
                let proposal = gate::schema_from_value(form, None, Some(p)).unwrap();
                steps += 1;
                with_contract += usize::from(!contract.is_empty());
                let at = target.map_or("the start form", |i| p.elements[i].id.as_str());
                for c in proposal.schema["components"].as_array().into_iter().flatten() {
                    if let Some(hide) = c.pointer("/conditional/hide").and_then(serde_json::Value::as_str) {
                        hidden.push(format!("{stem} {at}: {} hidden when {hide}", c["key"]));
                    }
                }
                let check = StepCheck::from_contract(p, target, &project, contract);
                for f in check.of_schema(&proposal.schema).iter().filter(|f| f.severity == Severity::Error) {
                    errors.push(format!("{stem} {} {at}: {} {}", p.id, f.code.as_str(), f.message));
                }
            }
        }
    }
    println!(
        "builtin drafts checked against their own step: {steps} steps ({with_contract} with a contract), {} errors; \
         {} fields shown under a condition:\n  {}",
        errors.len(),
        hidden.len(),
        hidden.join("\n  ")
    );
    assert!(steps > 500 && with_contract > 50, "{steps} steps, {with_contract} with a contract");
    assert!(errors.is_empty(), "builtin drafts the contract check refuses:\n{}", errors.join("\n"));
}
