//! Every schema the gate accepts, through the real form-js library (`../shared/tools/formjs-check`,
//! prepared by `.ci/conformance`, which exports `FORMJS_CHECK` as the path of its `check.mjs`).

use std::path::PathBuf;

use serde_json::Value;

/// The prepared formjs-check script. Fails loudly when the conformance entry did not prepare it.
pub fn check_script() -> PathBuf {
    crate::common::shared();
    let path = std::env::var_os("FORMJS_CHECK").map(PathBuf::from).expect(
        "FORMJS_CHECK is not set: run the conformance tier through `bash .ci/conformance`, which copies \
         ../shared/tools/formjs-check to a temporary folder, runs npm ci there and exports it",
    );
    assert!(path.is_file(), "FORMJS_CHECK={} does not exist", path.display());
    path
}

/// Runs formjs-check (viewer + editor, and form-js's own JSON Schema) on named schemas; returns the
/// failures, one line each.
pub fn failures(schemas: &[(String, Value)]) -> Vec<String> {
    failures_with(schemas, true)
}

/// As [`failures`]; with `strict` false only import and render errors count (hand-written forms may
/// carry what form-js's JSON Schema disallows and the library ignores, such as a label on a text).
pub fn failures_with(schemas: &[(String, Value)], strict: bool) -> Vec<String> {
    let script = check_script();
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (name, schema) in schemas {
        let path = dir.path().join(format!("{name}.form"));
        std::fs::write(&path, serde_json::to_vec_pretty(schema).unwrap()).unwrap();
        files.push(path);
    }
    let out = std::process::Command::new("node")
        .arg(&script)
        .arg("--json-schema")
        .args(&files)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = stdout.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert_eq!(
        lines.len(),
        files.len(),
        "formjs-check answered {} lines for {} files; stderr: {}",
        lines.len(),
        files.len(),
        String::from_utf8_lossy(&out.stderr)
    );
    lines
        .iter()
        .filter(|l| {
            l["ok"] != true
                || strict && l["warnings"].as_array().is_some_and(|w| !w.is_empty())
                || strict && l["jsonSchema"]["valid"] == false
        })
        .map(|l| l.to_string())
        .collect()
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn every_accepted_gate_vector_imports_into_form_js() {
    let dir = crate::common::fixtures().join("gate");
    // model answers must pass strictly; hand-written forms are kept as written (a label on a text, a
    // custom type the host registers), so only their import counts, a kept custom type excepted
    let (mut schemas, mut authored, mut custom) = (Vec::new(), Vec::new(), Vec::new());
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let case: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if let Some(schema) = case["expect"]["accepted"].get("schema") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if case["origin"] == "author" {
                for w in case["expect"]["accepted"]["warnings"].as_array().into_iter().flatten() {
                    let w = w.as_str().unwrap_or_default();
                    if let Some(kind) = w.split("has the type \"").nth(1).and_then(|r| r.split('"').next())
                        && w.contains("it was kept as written")
                    {
                        custom.push(format!("form field of type <{kind}> not supported"));
                    }
                }
                authored.push((name, schema.clone()));
            } else {
                schemas.push((name, schema.clone()));
            }
        }
    }
    let lenient: Vec<String> = failures_with(&authored, false)
        .into_iter()
        .filter(|f| !custom.iter().any(|c| f.contains(c)))
        .collect();
    assert!(
        lenient.is_empty(),
        "form-js rejects hand-written forms the gate accepted:\n{}",
        lenient.join("\n")
    );
    assert!(schemas.len() >= 40, "only {} accepted vectors", schemas.len());
    // The harness bites: a schema form-js rejects (one key bound twice) is reported.
    let bad = serde_json::json!({"type": "default", "id": "bad", "components": [
        {"type": "textfield", "key": "a", "label": "A", "id": "F1"},
        {"type": "textfield", "key": "a", "label": "A again", "id": "F2"}]});
    assert_eq!(failures(&[("bad".into(), bad)]).len(), 1, "formjs-check must reject a duplicate key");
    let failures = failures(&schemas);
    println!("formjs-check: {} accepted gate vectors, {} rejected by form-js", schemas.len(), failures.len());
    assert!(failures.is_empty(), "form-js rejects what the gate accepted:\n{}", failures.join("\n"));
}
