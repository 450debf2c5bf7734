//! The reader against bpmn-moddle on the shared corpus (191 real files from 14 sources).

use crate::common;
use crate::moddle;
use formgen::bpmn;
use formgen::bpmn::ElementKind;

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn corpus_agrees_with_bpmn_moddle() {
    let shared = common::shared();
    let dir = shared.join("corpus/bpmn");
    let files = common::bpmn_files(&dir);
    assert!(files.len() >= 100, "expected the corpus in {}, found {} files", dir.display(), files.len());
    let mut total = moddle::Agreement::default();
    let (mut agreeing_files, mut refused_by_moddle) = (0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let reference_path = shared.join("corpus/reference").join(format!("{stem}.json"));
        let reference: moddle::Reference = serde_json::from_slice(&std::fs::read(&reference_path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", reference_path.display()));
        let bytes = std::fs::read(path).unwrap();
        let (agreement, problems) = moddle::compare(&bytes, &reference);
        if !reference.ok {
            refused_by_moddle += 1;
            let _ = bpmn::read(&bytes); // still read, and must not panic
        } else if problems.is_empty() {
            agreeing_files += 1;
        }
        total.elements += agreement.elements;
        total.elements_agreeing += agreement.elements_agreeing;
        total.variables += agreement.variables;
        total.variables_agreeing += agreement.variables_agreeing;
        total.explained += agreement.explained;
        failures.extend(problems.into_iter().map(|p| format!("{stem}: {p}")));
    }
    println!(
        "corpus agreement: {agreeing_files}/{} files moddle reads agree in full ({refused_by_moddle} refused by moddle, \
         read leniently); elements {}/{}; variables {}/{}; {} elements kept that moddle drops (documented)",
        files.len() - refused_by_moddle,
        total.elements_agreeing,
        total.elements,
        total.variables_agreeing,
        total.variables,
        total.explained,
    );
    assert!(failures.is_empty(), "unexplained differences from bpmn-moddle:\n{}", failures.join("\n"));
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn corpus_files_cut_anywhere_read_as_an_in_order_subset() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let files = common::bpmn_files(&common::shared().join("corpus/bpmn"));
    let skeleton = |defs: &bpmn::Definitions| -> Vec<(String, Vec<(String, String)>)> {
        defs.processes
            .iter()
            .map(|p| {
                (p.id.clone(), p.elements.iter().map(|e| (e.id.to_string(), e.kind.to_string())).collect())
            })
            .collect()
    };
    let contents: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    let fulls: Vec<_> = contents.iter().map(|b| skeleton(&bpmn::read(b))).collect();
    let mut runner = TestRunner::new(Config { cases: 2_000, ..Config::default() });
    runner
        .run(&(0..contents.len(), 0.0f64..1.0), |(i, cut)| {
            let at = (contents[i].len() as f64 * cut) as usize;
            let defs = bpmn::read(&contents[i][..at]);
            for p in &defs.processes {
                let _ = formgen::flow::access::of_process(p); // reads and writes of a cut never panic
                // nor does the data picture of its steps
                let project = formgen::project::Project::default();
                for e in (0..p.elements.len()).filter(|&e| {
                    matches!(p.elements[e].kind, ElementKind::UserTask | ElementKind::StartEvent)
                }) {
                    let _ = formgen::flow::picture(p, Some(e), &project);
                }
            }
            let part = skeleton(&defs);
            let full = &fulls[i];
            let ok = part.len() <= full.len()
                && part.iter().zip(full).all(|((pid, pel), (fid, fel))| pid == fid && fel.starts_with(pel));
            prop_assert!(ok, "{} cut at {at}: {part:?}", files[i].display());
            Ok(())
        })
        .unwrap();
}
