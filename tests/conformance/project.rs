//! The project loader on the pairs' project folders, and its form keys against the pairs' `inputKeys`.

use std::path::Path;

use crate::common;
use formgen::project::{self, ProjectBounds};

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_pairs_project_folders_read_without_a_warning() {
    let shared = common::shared();
    let mut failures = Vec::new();
    for corpus in ["corpus/pairs/projects", "corpus/pairs-extra/projects"] {
        let dir = shared.join(corpus);
        let mut folders = Vec::new();
        let mut pending = vec![dir.clone()];
        while let Some(d) = pending.pop() {
            let entries =
                std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display()));
            let subfolders: Vec<_> = entries.map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
            if d != dir && subfolders.is_empty() {
                folders.push(d.clone());
            }
            pending.extend(subfolders);
        }
        folders.sort();
        let (mut forms, mut fields, mut decisions) = (0, 0, 0);
        for folder in &folders {
            let (project, listing) = project::read_folder(folder, &ProjectBounds::default())
                .unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
            for w in &project.warnings {
                failures.push(format!("{}: {w}", folder.display()));
            }
            if listing.newest().is_none() && !listing.files.is_empty() {
                failures.push(format!("{}: no modification time", folder.display()));
            }
            forms += project.forms.len();
            fields += project.forms.iter().map(|f| f.input_fields.len()).sum::<usize>();
            decisions += project.decisions.len();
        }
        println!(
            "{corpus}: {} project folders, {forms} forms with {fields} input fields, {decisions} decisions",
            folders.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn form_keys_are_the_pairs_input_keys() {
    let shared = common::shared();
    let mut failures = Vec::new();
    for pairs in ["corpus/pairs", "corpus/pairs-extra"] {
        let dir = shared.join(pairs);
        let lines = std::fs::read_to_string(dir.join("pairs.jsonl")).unwrap();
        let mut checked = 0;
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let pair: serde_json::Value = serde_json::from_str(line).unwrap();
            let form_path = dir.join(pair["form"].as_str().unwrap());
            let schema: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&form_path).unwrap()).unwrap();
            let project = project::from_request(&[schema], &[], &ProjectBounds::default()).unwrap();
            let keys: Vec<&str> = project.forms[0].input_fields.iter().map(|f| f.key.as_str()).collect();
            let expected: Vec<&str> =
                pair["inputKeys"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect();
            if keys != expected {
                failures.push(format!("{}: {keys:?} vs inputKeys {expected:?}", shown(&form_path)));
            }
            checked += 1;
        }
        println!(
            "{pairs}: {checked} authors' forms, input fields agree with inputKeys in {}",
            checked - failures.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn shown(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}
