//! Both wire formats against a real model server: llama.cpp's own server with a small model on this
//! CPU (`../shared/tools/local-llm`), started by `.ci/conformance`, which exports `FORMGEN_TEST_LLM_URL`
//! and `FORMGEN_TEST_LLM_KEY`. Token budgets stay small: it writes about 10 tokens a second.

use std::time::Duration;

use formgen::model::{self, Bounds, ModelError, ModelRequest};
use formgen::redact::Redactor;
use formgen::workers::{ModelWorker, Wire};
use secrecy::SecretString;
use serde_json::json;

use super::vault::env;

fn worker(provider: Wire) -> ModelWorker {
    let url = env("FORMGEN_TEST_LLM_URL");
    let endpoint = match provider {
        Wire::ChatCompletions => format!("{url}/v1"),
        _ => url,
    };
    ModelWorker::new(provider, endpoint.parse().unwrap())
}

fn bounds() -> Bounds {
    Bounds { timeout: Duration::from_secs(240), answer_bytes: 1 << 20 }
}

/// A deliberately small answer schema, so a grammar-constrained answer stays within a few dozen tokens.
fn small_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {"components": {"type": "array", "minItems": 1, "maxItems": 2, "items": {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": ["textfield", "number", "checkbox"]},
                "key": {"type": "string", "enum": ["name", "days", "approved"]},
                "label": {"type": "string", "enum": ["Name", "Days", "Approved"]}
            },
            "required": ["type", "key", "label"], "additionalProperties": false}}},
        "required": ["components"], "additionalProperties": false
    })
}

fn request(max_tokens: u32, schema: Option<serde_json::Value>) -> ModelRequest {
    ModelRequest {
        model: "gemma-3-270m".into(),
        system: "You write form-js forms as JSON.".into(),
        user: "A form asking for a name and a number of vacation days.".into(),
        max_tokens,
        json_schema: schema.map(std::sync::Arc::new),
        temperature: None,
    }
}

#[tokio::test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn chat_completions_against_llama_cpp() {
    let client = reqwest::Client::new();
    let key = SecretString::from(env("FORMGEN_TEST_LLM_KEY"));
    let w = worker(Wire::ChatCompletions);
    let answer = model::call(
        &client,
        &w,
        Some(&key),
        &request(120, Some(small_schema())),
        bounds(),
        &Redactor::default(),
    )
    .await
    .unwrap();
    let parsed: serde_json::Value =
        serde_json::from_str(&answer.text).expect("a grammar-constrained answer parses");
    assert!(parsed["components"].as_array().is_some_and(|c| !c.is_empty()), "{parsed}");
    assert!(answer.usage.input_tokens > 0 && answer.usage.output_tokens > 0, "{:?}", answer.usage);
    let proposal = formgen::gate::schema_from(&answer.text, Some("llm"), None);
    println!("llama.cpp chat answer: {} -> gate: {:?}", answer.text, proposal.as_ref().map(|p| &p.warnings));

    let wrong = SecretString::from("not-the-key");
    let e = model::call(&client, &w, Some(&wrong), &request(8, None), bounds(), &Redactor::default())
        .await
        .unwrap_err();
    assert_eq!(e, ModelError::CredentialRefused { status: 401 });

    let e = model::call(
        &client,
        &w,
        Some(&key),
        &request(4, Some(small_schema())),
        bounds(),
        &Redactor::default(),
    )
    .await
    .unwrap_err();
    assert!(matches!(e, ModelError::Truncated { max_tokens: 4, .. }), "{e:?}");
}

#[tokio::test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn messages_against_llama_cpp() {
    let client = reqwest::Client::new();
    let key = SecretString::from(env("FORMGEN_TEST_LLM_KEY"));
    let mut w = worker(Wire::Messages);
    w.structured_output = false;
    let e = model::call(&client, &w, Some(&key), &request(4, None), bounds(), &Redactor::default())
        .await
        .unwrap_err();
    assert!(matches!(e, ModelError::Truncated { max_tokens: 4, .. }), "a small token limit cuts the answer");

    let answer =
        model::call(&client, &w, Some(&key), &request(400, None), bounds(), &Redactor::default()).await;
    // The base model rambles; what matters is a real Messages answer, read and counted.
    match answer {
        Ok(a) => assert!(!a.text.trim().is_empty() && a.usage.output_tokens > 0),
        Err(ModelError::Truncated { .. }) => {}
        Err(other) => panic!("{other}"),
    }

    // structured output as a forced tool: the server accepts the request
    w.structured_output = true;
    match model::call(
        &client,
        &w,
        Some(&key),
        &request(60, Some(small_schema())),
        bounds(),
        &Redactor::default(),
    )
    .await
    {
        Ok(a) => assert!(!a.text.is_empty()),
        Err(ModelError::Truncated { .. }) => {}
        Err(other) => panic!("{other}"),
    }

    let wrong = SecretString::from("not-the-key");
    let e = model::call(&client, &w, Some(&wrong), &request(8, None), bounds(), &Redactor::default())
        .await
        .unwrap_err();
    assert_eq!(e, ModelError::CredentialRefused { status: 401 });
}

/// Streams one answer; returns it with the seconds to the first piece, to the first complete
/// component, and to the end.
async fn streamed(
    w: &ModelWorker,
    schema: Option<serde_json::Value>,
) -> (Result<model::ModelAnswer, ModelError>, usize, f64, Option<f64>, f64) {
    let key = SecretString::from(env("FORMGEN_TEST_LLM_KEY"));
    let started = std::time::Instant::now();
    let (mut pieces, mut first_piece, mut first_component) = (0usize, None, None);
    let mut partial = formgen::gate::partial::Partial::new();
    let mut sink = |d: model::Delta<'_>| {
        if let model::Delta::Text(t) = d {
            pieces += 1;
            first_piece.get_or_insert(started.elapsed().as_secs_f64());
            if partial.push(t) > 0 {
                first_component.get_or_insert(started.elapsed().as_secs_f64());
            }
        }
    };
    let answer = model::call_streaming(
        &reqwest::Client::new(),
        w,
        Some(&key),
        &request(120, schema),
        bounds(),
        &Redactor::default(),
        Some(&mut sink),
    )
    .await;
    (answer, pieces, first_piece.unwrap_or(f64::NAN), first_component, started.elapsed().as_secs_f64())
}

#[tokio::test]
#[ignore = "conformance tier: run `bash .ci/conformance`"]
async fn both_wire_formats_stream_from_llama_cpp() {
    // chat completions, grammar-constrained: a form whose components complete before the end
    let (answer, pieces, first, component, total) =
        streamed(&worker(Wire::ChatCompletions), Some(small_schema())).await;
    println!(
        "chat-completions streamed: {pieces} pieces; first piece {first:.2} s, first component {component:?} s, whole answer {total:.2} s"
    );
    let answer = answer.unwrap();
    assert!(pieces > 3, "answered in {pieces} pieces: not streamed");
    let parsed: serde_json::Value = serde_json::from_str(&answer.text).expect("the streamed answer parses");
    let components = parsed["components"].as_array().expect("components");
    assert_eq!(formgen::gate::partial::components_so_far(&answer.text).as_slice(), components.as_slice());
    assert!(component.is_some_and(|c| c < total), "no component completed before the end");

    // messages: llama.cpp does not constrain a forced tool, and the small model rambles; what matters
    // is a real Messages stream, read piece by piece and counted (or cut at its token limit)
    let mut w = worker(Wire::Messages);
    w.structured_output = false;
    let (answer, pieces, first, _, total) = streamed(&w, None).await;
    println!("messages streamed: {pieces} pieces; first piece {first:.2} s, whole answer {total:.2} s");
    match answer {
        Ok(a) => assert!(!a.text.trim().is_empty() && a.usage.output_tokens > 0, "{:?}", a.usage),
        Err(ModelError::Truncated { .. }) => {}
        Err(other) => panic!("{other}"),
    }
    assert!(pieces > 3, "messages answered in {pieces} pieces: not streamed");
}
