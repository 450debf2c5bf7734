//! The DMN reader on the real decision files of the pairs' projects: every file yields decisions.

use std::path::{Path, PathBuf};

use crate::common;
use formgen::dmn;

/// The `.dmn` files under `dir`, recursively, sorted.
fn dmn_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x.eq_ignore_ascii_case("dmn")) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn every_real_dmn_file_yields_its_decisions() {
    let shared = common::shared();
    let mut failures = Vec::new();
    for corpus in ["corpus/pairs/projects", "corpus/pairs-extra/projects"] {
        let dir = shared.join(corpus);
        let files = dmn_files(&dir);
        assert!(!files.is_empty(), "expected .dmn files under {}", dir.display());
        let (mut decisions, mut inputs, mut outputs, mut allowed, mut required, mut literal) =
            (0, 0, 0, 0, 0, 0);
        for path in &files {
            let read = dmn::read(&std::fs::read(path).unwrap());
            let name = path.strip_prefix(&dir).unwrap().display().to_string();
            if read.decisions.is_empty() {
                failures.push(format!("{corpus}/{name}: no decision read"));
            }
            if let Some(at) = read.break_at {
                failures.push(format!("{corpus}/{name}: reading broke off at byte {at}"));
            }
            for d in &read.decisions {
                if d.inputs.iter().any(|i| i.expression.is_empty()) && d.literal_expression.is_none() {
                    failures.push(format!(
                        "{corpus}/{name}: decision {} has an input without an expression",
                        d.id
                    ));
                }
                println!(
                    "  {name}: {} ({}) {} in, {} out [{}] requires {:?}",
                    d.id,
                    d.hit_policy.as_str(),
                    d.inputs.len(),
                    d.outputs.len(),
                    d.outputs.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", "),
                    d.required_decisions
                );
            }
            decisions += read.decisions.len();
            inputs += read.decisions.iter().map(|d| d.inputs.len()).sum::<usize>();
            outputs += read.decisions.iter().map(|d| d.outputs.len()).sum::<usize>();
            allowed += read
                .decisions
                .iter()
                .flat_map(|d| &d.outputs)
                .filter(|o| !o.allowed_values.is_empty())
                .count();
            required += read.decisions.iter().map(|d| d.required_decisions.len()).sum::<usize>();
            literal += read.decisions.iter().filter(|d| d.literal_expression.is_some()).count();
        }
        println!(
            "{corpus}: {} files, {decisions} decisions ({literal} literal expressions), {inputs} inputs, \
             {outputs} outputs ({allowed} with allowed values), {required} required decisions",
            files.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
