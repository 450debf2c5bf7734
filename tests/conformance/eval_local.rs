//! `formgen eval` with the local model server (llama.cpp, the CI's small model) on the first pairs
//! of the corpus, configured by `examples/local-model.toml` with only its endpoint and credential
//! from the environment, as an operator runs it, against the builtin drafter on the same pairs in the
//! same run. The targets for a model Worker: no pair fails, its key recall is at least the builtin's
//! (it starts from the builtin draft and is completed from it), and its key precision is within 5
//! points of the builtin's (a field nobody asked for is left out). Label agreement is printed beside
//! the builtin's for the README.

use std::process::Command;

use serde_json::Value;

use super::vault::env;

/// How many corpus pairs the small CPU model drafts: enough for a figure, few enough for CI.
const PAIRS: usize = 3;

fn eval(worker: &str) -> (Value, String) {
    let pairs = crate::common::shared().join("corpus/pairs");
    let config = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/local-model.toml");
    let out = Command::new(env!("CARGO_BIN_EXE_formgen"))
        .env("FORMGEN_WORKER_LOCAL_ENDPOINT", format!("{}/v1", env("FORMGEN_TEST_LLM_URL")))
        .env("FORMGEN_WORKER_LOCAL_CREDENTIAL", "env:FORMGEN_TEST_LLM_KEY")
        .args(["eval", "--pairs", pairs.to_str().unwrap(), "--config", config.to_str().unwrap()])
        .args(["--worker", worker, "--json", "--limit", &PAIRS.to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    (summary["summary"].clone(), stdout)
}

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn the_local_model_on_a_few_pairs_is_no_worse_than_the_builtin() {
    let (builtin, _) = eval("builtin");
    let (local, lines) = eval("local");
    println!("eval on {PAIRS} pairs, builtin: {builtin}");
    println!("eval on {PAIRS} pairs, local model: {local}");
    for line in lines.lines() {
        println!("  {line}");
    }
    assert_eq!(local["pairs"], PAIRS);
    assert_eq!(local["failed"], 0, "every pair gives a form: {lines}");
    let figure = |s: &Value, name: &str| s[name].as_f64().unwrap_or_else(|| panic!("no {name}: {s}"));
    assert!(
        figure(&local, "keyRecall") >= figure(&builtin, "keyRecall"),
        "key recall {} below the builtin's {}",
        local["keyRecall"],
        builtin["keyRecall"]
    );
    assert!(
        figure(&local, "keyPrecision") >= figure(&builtin, "keyPrecision") - 0.05,
        "key precision {} more than 5 points below the builtin's {}",
        local["keyPrecision"],
        builtin["keyPrecision"]
    );
}
