//! The builtin drafter on every corpus process: the gate accepts each draft, its keys are names the
//! process uses, and the real form-js library imports it.

use formgen::{bpmn, draft, gate};

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
