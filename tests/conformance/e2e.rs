//! End to end: `formgen serve` as a process, its Worker's key in a real OpenBao, a real llama.cpp model
//! server answering, a corpus process with `elementId` set; the answer passes the gate and the real
//! form-js library. Then the key is rotated to a wrong one in the vault, and after the credential
//! cache expires the same call is refused by the model server, without a restart.
//!
//! The CI model has 135M parameters. Its Worker is configured the way an operator would configure one
//! that small: temperature 0, the lean answer schema and one component per list — a grammar-constrained
//! tiny model fills every list to its cap and repeats itself, which the gate (rightly) refuses.

use std::time::Duration;

use serde_json::{Value, json};

use super::vault::{env, write_secret};
use crate::served::{spawn_serve, terminate, wait_exit};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn serve_with_a_vault_key_and_a_real_model() {
    let shared = crate::common::shared();
    write_secret("formgen-e2e", json!({"llm_key": env("FORMGEN_TEST_LLM_KEY")})).await;
    // SAFETY: the conformance tests run on one thread; the child process inherits this variable.
    unsafe { std::env::set_var("FORMGEN_E2E_VAULT_TOKEN", env("FORMGEN_TEST_VAULT_TOKEN")) };
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        r#"
[server]
listen = "127.0.0.1:0"

[vault]
addr = "{vault}"
token = "env:FORMGEN_E2E_VAULT_TOKEN"
cache_s = 1

[[workers]]
name = "local"
provider = "chat-completions"
endpoint = "{llm}/v1"
model = "local-model"
credential = "vault:secret/formgen-e2e#llm_key"
temperature = 0
answer_schema = "lean"
max_components = 1
max_output_tokens = 300
timeout_s = 200
"#,
        vault = env("FORMGEN_TEST_VAULT_ADDR"),
        llm = env("FORMGEN_TEST_LLM_URL")
    );
    let mut served = spawn_serve(&toml, dir.path());
    let file = shared.join("corpus/bpmn/bpmn-js-props__FormDataProps.bpmn");
    let xml = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
    let request = json!({"description": "A short form for this task", "processXml": xml, "elementId": "UserTask_1", "formId": "e2e-form"});
    let client = reqwest::Client::new();
    let response =
        client.post(format!("{}/api/formgen/generate", served.url)).json(&request).send().await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, 200, "{body}\n{}", served.stderr.lock().unwrap());
    println!("e2e: {} attempt(s), usage {}, schema {}", body["attempts"], body["usage"], body["schema"]);
    assert_eq!((body["worker"].as_str(), body["model"].as_str()), (Some("local"), Some("local-model")));
    assert_eq!(
        (body["elementId"].as_str(), body["processSource"].as_str()),
        (Some("UserTask_1"), Some("request"))
    );
    assert!(body["usage"]["outputTokens"].as_u64().unwrap() > 0);
    assert_eq!(body["schema"]["id"], "e2e-form");
    // the proposal passes the gate as a hand-written form would, and the real form-js library
    let again = formgen::gate::schema_from_value(body["schema"].clone(), Some("e2e-form"), None)
        .expect("the gate accepts it");
    assert_eq!(again.schema, body["schema"]);
    let failures = super::formjs::failures(&[("e2e".to_string(), body["schema"].clone())]);
    assert!(failures.is_empty(), "form-js rejects the proposal: {failures:?}");

    // rotation: a wrong key in the vault is used once the cache expires, and the model server refuses it
    write_secret("formgen-e2e", json!({"llm_key": "rotated-to-a-wrong-key"})).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let response =
        client.post(format!("{}/api/formgen/generate", served.url)).json(&request).send().await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!((status.as_u16(), body["code"].as_str()), (502, Some("model_credential_refused")), "{body}");
    let text = body.to_string();
    assert!(!text.contains("rotated-to-a-wrong-key") && !text.contains(&env("FORMGEN_TEST_LLM_KEY")));

    terminate(&served.child);
    wait_exit(&mut served.child, Duration::from_secs(10));
    let logs = served.stderr.lock().unwrap().clone();
    assert!(
        !logs.contains("rotated-to-a-wrong-key") && !logs.contains(&env("FORMGEN_TEST_LLM_KEY")),
        "a key in the log"
    );
}
