//! A model's first generation starts from the builtin draft: the prompt carries it as data (keys,
//! types and options the process reads), the process text does not say the same again, and a
//! refinement starts from the author's form instead.

use formgen::config::Config;
use formgen::service::{GenerateRequest, Service};
use serde_json::{Value, json};

fn service() -> Service {
    Service::new(&Config::load(None, &|_| None).unwrap()).unwrap()
}

fn claim() -> GenerateRequest {
    let dir = crate::common::fixtures().join("check/claim");
    let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
    let forms: Vec<Value> = ["claim-start.form", "claim-manager.form"]
        .iter()
        .map(|f| serde_json::from_str(&read(f)).unwrap())
        .collect();
    GenerateRequest {
        process_xml: Some(read("claim.bpmn")),
        element_id: Some("Task_review".into()),
        forms,
        decisions: vec![read("risk.dmn")],
        ..GenerateRequest::default()
    }
}

/// The text between the starting point's fences.
fn starting_point(prompt: &str) -> &str {
    let start = prompt.find("Start from this draft").expect("the prompt names its starting point");
    let rest = &prompt[start..];
    let open = rest.find("<<<DATA\n").unwrap() + "<<<DATA\n".len();
    let close = rest[open..].find("DATA>>>").unwrap();
    &rest[open..open + close]
}

#[tokio::test]
async fn the_prompt_starts_from_the_builtin_draft_of_the_step() {
    let prompt = service().prompt_text(&claim()).await.unwrap();
    let draft: Value = serde_json::from_str(starting_point(&prompt)).expect("the starting point is JSON");
    let components = draft["components"].as_array().unwrap();
    let by_key =
        |k: &str| components.iter().find(|c| c["key"] == k).unwrap_or_else(|| panic!("{k}: {draft}"));
    assert_eq!(by_key("decision")["type"], "select");
    let values: Vec<&Value> =
        by_key("decision")["values"].as_array().unwrap().iter().map(|v| &v["value"]).collect();
    assert_eq!(values, [&json!("approve"), &json!("reject")], "the values the gateway tests");
    assert_eq!(by_key("discount")["type"], "number", "read in a number comparison");
    assert_eq!(by_key("amount")["readonly"], true, "known before the step: shown, not asked");
    assert!(components.iter().all(|c| c.get("id").is_none()), "ids are the answer's own: {draft}");
    insta::assert_snapshot!("claim-review-prompt", prompt);
}

#[tokio::test]
async fn the_process_text_does_not_repeat_what_the_starting_point_says() {
    let prompt = service().prompt_text(&claim()).await.unwrap();
    let process = &prompt[prompt.find("The process, as data:").unwrap()..];
    assert!(process.contains("Decided on after it"), "why each variable matters stays: {process}");
    assert!(!process.contains("Already defined in the project"), "the draft's fields say it: {process}");
}

#[tokio::test]
async fn a_refinement_starts_from_the_author_s_form_not_the_draft() {
    let mut req = claim();
    req.schema = Some(json!({"components": [{"type": "textfield", "key": "reviewer", "label": "Wer"}]}));
    req.description = Some("Add a comment field".into());
    let prompt = service().prompt_text(&req).await.unwrap();
    assert!(!prompt.contains("Start from this draft"), "{prompt}");
    assert!(prompt.contains("\"Wer\""), "{prompt}");
}

#[tokio::test]
async fn a_brief_without_a_process_has_no_starting_point() {
    let req = GenerateRequest { description: Some("Name, E-Mail".into()), ..GenerateRequest::default() };
    let prompt = service().prompt_text(&req).await.unwrap();
    assert!(starting_point(&prompt).starts_with("(none"), "{prompt}");
}
