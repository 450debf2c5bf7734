//! `formgen eval` with the local model server (llama.cpp, the CI's small model) on a handful of
//! pairs: the figures of a real model Worker, through the same command an operator runs. The
//! summary is printed for the README; the test checks that the run completed and was scored.

use serde_json::Value;

use super::vault::env;

/// How many corpus pairs the small CPU model drafts: enough for a figure, few enough for CI.
const PAIRS: usize = 3;

#[test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
fn eval_with_the_local_model_on_a_few_pairs() {
    let pairs = crate::common::shared().join("corpus/pairs");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("formgen.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[[workers]]
name = "local"
provider = "chat-completions"
endpoint = "{llm}/v1"
model = "local-model"
credential = "env:FORMGEN_TEST_LLM_KEY"
temperature = 0
answer_schema = "lean"
max_components = 8
max_output_tokens = 400
timeout_s = 240
"#,
            llm = env("FORMGEN_TEST_LLM_URL")
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_formgen"))
        .args(["eval", "--pairs", pairs.to_str().unwrap(), "--config", config.to_str().unwrap()])
        .args(["--json", "--limit", &PAIRS.to_string()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let summary = &summary["summary"];
    println!("eval with the local model ({PAIRS} pairs): {summary}");
    for line in stdout.lines() {
        println!("  {line}");
    }
    assert_eq!(summary["pairs"], PAIRS);
    assert!(summary["promptChars"].as_f64().unwrap() > 0.0, "every pair was prompted");
}
