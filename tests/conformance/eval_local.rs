//! `formgen eval` with the local model server (llama.cpp, the CI's small model) on a handful of
//! pairs: the figures of a real model Worker, through the same command an operator runs. The
//! summary is printed for the README; the test checks that the run completed and was scored. The
//! Worker is configured as an operator would configure a 135M model on one CPU thread: one
//! generation at a time, temperature 0, the lean answer schema, one component per list (as the
//! end-to-end test does: a grammar-constrained tiny model fills every list to its cap and repeats
//! itself, which the gate rightly refuses).

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
[limits]
model_timeout_s = 300

[[workers]]
name = "local"
provider = "chat-completions"
endpoint = "{llm}/v1"
model = "local-model"
credential = "env:FORMGEN_TEST_LLM_KEY"
temperature = 0
answer_schema = "lean"
max_components = 1
max_output_tokens = 300
timeout_s = 240
max_concurrent = 1
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
    // 0: scored; 1: every pair's generation failed (a figure too, for a model this small)
    assert!(matches!(out.status.code(), Some(0 | 1)), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let summary = &summary["summary"];
    println!("eval with the local model ({PAIRS} pairs): {summary}");
    for line in stdout.lines() {
        println!("  {line}");
    }
    assert_eq!(summary["pairs"], PAIRS);
    for line in stdout.lines().take(PAIRS) {
        let row: Value = serde_json::from_str(line).unwrap();
        assert!(
            row["error"].is_string() || row["keyRecall"].is_number(),
            "each pair is scored or says why not: {row}"
        );
    }
}
