//! The contract check through the API: `validate` answers `findings` for the step it names (or the
//! step its form's id is bound to), `generate` and `refine` for their proposal, and a warning that
//! says what a finding says is not repeated. The same cases as `formgen check` replays
//! (`fixtures/check/cases.json`), sent as an editor sends them: the process, its forms and its
//! decisions in the request.

use std::collections::BTreeSet;
use std::path::Path;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use formgen::config::Config;
use serde_json::{Value, json};
use sha2::Digest;
use tower::ServiceExt;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const TOKEN: &str = "ana-token";

fn app(workers: &str) -> Router {
    let text = format!(
        "[auth]\nmode = \"tokens\"\n[[auth.principals]]\nname = \"ana\"\ntoken_sha256 = \"{}\"\n{workers}",
        hex::encode(sha2::Sha256::digest(TOKEN.as_bytes()))
    );
    let config = Config::parse(&text, "test", Path::new("."), false, &|_| None).unwrap();
    let service = std::sync::Arc::new(formgen::service::Service::new(&config).unwrap());
    formgen::http::router(service, &config)
}

fn builtin() -> Router {
    app("[[workers]]\nname = \"builtin\"\nprovider = \"builtin\"\n")
}

async fn post(app: &Router, endpoint: &str, body: Value) -> (StatusCode, Value) {
    let req = Request::builder()
        .method("POST")
        .uri(format!("/api/formgen/{endpoint}"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(req).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

fn check_dir() -> std::path::PathBuf {
    crate::common::fixtures().join("check")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(check_dir().join(rel)).unwrap()
}

/// The process and its project as an editor sends them: the BPMN, every form of its folder, its
/// decisions.
fn context(process: &str) -> Value {
    let folder = check_dir().join(process).parent().unwrap().to_path_buf();
    let (mut forms, mut decisions) = (Vec::new(), Vec::new());
    for entry in std::fs::read_dir(&folder).unwrap() {
        let p = entry.unwrap().path();
        match p.extension().and_then(|e| e.to_str()) {
            Some("form") => {
                forms.push(serde_json::from_str::<Value>(&std::fs::read_to_string(&p).unwrap()).unwrap());
            }
            Some("dmn") => decisions.push(std::fs::read_to_string(&p).unwrap()),
            _ => {}
        }
    }
    json!({"processXml": read(process), "forms": forms, "decisions": decisions})
}

fn codes(findings: &Value) -> BTreeSet<(String, String, String)> {
    findings
        .as_array()
        .unwrap_or_else(|| panic!("findings is a list: {findings}"))
        .iter()
        .map(|f| {
            let s = |n: &str| f[n].as_str().unwrap_or_default().to_string();
            (s("code"), s("severity"), s("key"))
        })
        .collect()
}

#[tokio::test]
async fn validate_answers_each_case_s_findings_for_the_step_it_names() {
    let app = builtin();
    let cases: Vec<Value> = serde_json::from_str(&read("cases.json")).unwrap();
    let mut wrong = Vec::new();
    for case in &cases {
        let s = |n: &str| case[n].as_str().unwrap().to_string();
        let mut body = context(&s("process"));
        body["elementId"] = json!(s("element"));
        body["schema"] = serde_json::from_str(&read(&s("form"))).unwrap();
        let (status, answer) = post(&app, "validate", body).await;
        if status != StatusCode::OK {
            wrong.push(format!("{}: {status} {answer}", s("case")));
            continue;
        }
        let (got, want) = (codes(&answer["findings"]), codes(&case["findings"]));
        if got != want {
            wrong.push(format!("{}:\n  expected {want:?}\n  found    {got:?}", s("case")));
        }
        for f in answer["findings"].as_array().unwrap() {
            let message = f["message"].as_str().unwrap();
            if answer["warnings"].as_array().unwrap().iter().any(|w| w == message) {
                wrong.push(format!("{}: a warning repeats the finding {message:?}", s("case")));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn without_an_element_the_step_that_binds_the_form_s_id_is_checked() {
    let app = builtin();
    let mut body = context("claim/claim.bpmn");
    body["schema"] = serde_json::from_str(&read("forms/review-no-decision.form")).unwrap();
    let (status, answer) = post(&app, "validate", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let found = codes(&answer["findings"]);
    assert!(found.contains(&("missing_supply".into(), "error".into(), "decision".into())), "{found:?}");
    let finding = &answer["findings"][0];
    assert_eq!(finding["elementId"], "Flow_approve", "the flow whose condition reads it: {finding}");
    assert!(finding["expression"].as_str().unwrap().contains("decision"), "{finding}");

    // the form id the request gives wins over the schema's
    body["formId"] = json!("claim-start");
    let (_, answer) = post(&app, "validate", body.clone()).await;
    assert!(!codes(&answer["findings"]).iter().any(|(_, _, k)| k == "decision"), "{answer}");

    // a form no step binds is not checked: its step is not known
    body["formId"] = json!("a-form-of-no-step");
    let (status, answer) = post(&app, "validate", body).await;
    assert_eq!((status, &answer["findings"]), (StatusCode::OK, &json!([])), "{answer}");
}

#[tokio::test]
async fn a_step_that_is_not_in_the_process_is_a_clear_error() {
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_nowhere");
    body["schema"] = serde_json::from_str(&read("forms/review-ok.form")).unwrap();
    let (status, answer) = post(&builtin(), "validate", body).await;
    assert!(status.is_client_error(), "{status} {answer}");
    assert!(answer.to_string().contains("Task_nowhere"), "{answer}");
}

#[tokio::test]
async fn validate_without_a_process_has_no_findings() {
    let body =
        json!({"schema": serde_json::from_str::<Value>(&read("forms/review-no-decision.form")).unwrap()});
    let (status, answer) = post(&builtin(), "validate", body).await;
    assert_eq!((status, &answer["findings"]), (StatusCode::OK, &json!([])), "{answer}");
}

#[tokio::test]
async fn the_builtin_s_proposal_carries_its_findings_and_supplies_what_the_gateway_reads() {
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&builtin(), "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let found = codes(&answer["findings"]);
    assert!(!found.iter().any(|(code, _, _)| code == "missing_supply"), "{found:?}");
}

/// A chat-completions answer with this text.
fn chat_answer(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 20}
    }))
}

async fn model_app(answer: &str) -> (Router, MockServer) {
    model_app_with(answer, "").await
}

async fn model_app_with(answer: &str, settings: &str) -> (Router, MockServer) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(chat_answer(answer))
        .mount(&server)
        .await;
    (app(&model_worker(&server, settings)), server)
}

/// A chat-completions Worker named `m` on this double, with these settings.
fn model_worker(server: &MockServer, settings: &str) -> String {
    format!(
        "[[workers]]\nname = \"m\"\nprovider = \"chat-completions\"\nendpoint = \"{}/v1\"\nmodel = \"test-model\"\ncredential = \"none\"\n{settings}\n",
        server.uri()
    )
}

fn keys(schema: &Value) -> Vec<String> {
    schema["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["key"].as_str().map(str::to_string))
        .collect()
}

#[tokio::test]
async fn what_the_model_leaves_out_that_the_process_needs_is_completed_from_the_builtin_draft() {
    let form = json!({"components": [
        {"type": "number", "key": "discount", "label": "Nachlass", "validate": {"required": true}},
        {"type": "textfield", "key": "reviewer", "label": "Geprüft von", "validate": {"required": true}}
    ]});
    let (app, _server) = model_app(&form.to_string()).await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    body["description"] = json!("Schaden prüfen");
    let (status, answer) = post(&app, "generate", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let all = ["discount", "reviewer", "decision", "riskScore", "amount", "note", "customer"];
    assert_eq!(keys(&answer["schema"]), all, "the draft's fields kept, the answer's first: {answer}");
    let decision =
        answer["schema"]["components"].as_array().unwrap().iter().find(|c| c["key"] == "decision").unwrap();
    assert_eq!(
        decision["type"], "select",
        "the builtin's field, with the values the gateway tests: {decision}"
    );
    let warnings = answer["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w.as_str().unwrap().contains("no field for `decision`")),
        "the completion is said: {warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w
            .as_str()
            .unwrap()
            .contains("added them back: `riskScore`, `amount`, `note`, `customer`")),
        "{warnings:?}"
    );
    assert!(!codes(&answer["findings"]).iter().any(|(c, _, _)| c == "missing_supply"), "{answer}");

    // a brief that asks to leave it out is followed, and the finding says what that means
    body["description"] = json!("Schaden prüfen\nbitte ohne Entscheidung");
    let (status, answer) = post(&app, "generate", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(!keys(&answer["schema"]).contains(&"decision".to_string()), "{answer}");
    let found = codes(&answer["findings"]);
    assert!(found.contains(&("missing_supply".into(), "error".into(), "decision".into())), "{found:?}");

    // a refinement's proposal the same
    body["description"] = json!("Schaden prüfen");
    body["schema"] = serde_json::from_str(&read("forms/review-ok.form")).unwrap();
    let (status, answer) = post(&app, "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(keys(&answer["schema"]).contains(&"decision".to_string()), "{answer}");
}

#[tokio::test]
async fn without_the_starting_point_only_what_the_process_needs_is_completed() {
    let form = json!({"components": [{"type": "number", "key": "discount", "label": "Nachlass"}]});
    let (app, _server) = model_app_with(&form.to_string(), "starting_point = false").await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&app, "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(keys(&answer["schema"]), ["discount", "decision", "reviewer"], "{answer}");
}

#[tokio::test]
async fn the_openapi_document_describes_the_findings() {
    let req = Request::builder().uri("/openapi.json").body(Body::empty()).unwrap();
    let response = builtin().oneshot(req).await.unwrap();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    let schemas = &doc["components"]["schemas"];
    for name in ["Finding", "Code", "Severity"] {
        assert!(schemas[name].is_object(), "{name} missing from the OpenAPI document");
    }
    assert!(schemas["ValidateResponse"]["properties"]["findings"].is_object());
    assert!(schemas["GenerateResponse"]["properties"]["findings"].is_object());
    assert!(schemas["ValidateRequest"]["properties"]["elementId"].is_object());
}

/// A chat-completions answer cut off at its output limit with this text.
fn cut_answer(text: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({
        "choices": [{"message": {"role": "assistant", "content": text}, "finish_reason": "length"}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 300}
    }))
}

#[tokio::test]
async fn an_answer_cut_off_keeps_the_fields_it_finished_and_is_completed_from_the_draft() {
    let server = MockServer::start().await;
    let cut = r#"{"components": [{"type": "select", "key": "decision", "label": "Entscheidung", "values": [{"label": "Annehmen", "value": "approve"}, {"label": "Ablehnen", "value": "reject"}]}, {"type": "textfield", "key": "revi"#;
    Mock::given(method("POST")).respond_with(cut_answer(cut)).expect(1).mount(&server).await;
    let worker = model_worker(&server, "");
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&app(&worker), "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["attempts"], 1, "no repair round for an answer whose finished part is a form");
    let keys = keys(&answer["schema"]);
    assert_eq!(keys[0], "decision", "the model's finished field first: {keys:?}");
    assert!(keys.contains(&"reviewer".to_string()), "what it did not finish comes from the draft: {keys:?}");
    let warnings = answer["warnings"].to_string();
    assert!(warnings.contains("cut off at its") && warnings.contains("kept the 1 component"), "{warnings}");
}

/// A model double whose every answer is cut off before its first field, asked `calls` times, and a
/// Worker on it with these settings.
async fn cut_off_before_any_field(calls: u64, settings: &str) -> (MockServer, String) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(cut_answer(r#"{"components": [{"type": "sel"#))
        .expect(calls)
        .mount(&server)
        .await;
    let worker = model_worker(&server, settings);
    (server, worker)
}

#[tokio::test]
async fn an_answer_cut_off_before_any_field_is_asked_again_and_then_refused() {
    let (_server, worker) = cut_off_before_any_field(2, "").await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&app(&worker), "generate", body).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{answer}");
    assert_eq!(answer["code"], "model_answer_truncated", "{answer}");
}

/// The answer to the review step of the claim fixture (with a brief, when given), generated by a
/// model double that answers every call with `answer` and must be asked `calls` times.
async fn review_answered(answer: &Value, calls: u64, brief: Option<&str>) -> (StatusCode, Value) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(chat_answer(&answer.to_string()))
        .expect(calls)
        .mount(&server)
        .await;
    let worker = model_worker(&server, "");
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    if let Some(brief) = brief {
        body["description"] = json!(brief);
    }
    post(&app(&worker), "generate", body).await
}

#[tokio::test]
async fn a_key_bound_twice_keeps_the_first_field_without_a_repair_round() {
    let twice = json!({"components": [
        {"type": "select", "key": "decision", "label": "Entscheidung", "values": [{"label": "Annehmen", "value": "approve"}, {"label": "Ablehnen", "value": "reject"}]},
        {"type": "textfield", "key": "decision", "label": "Entscheidung (Text)"}
    ]});
    let (status, answer) = review_answered(&twice, 1, None).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["attempts"], 1, "which field is meant is plain: no second call: {answer}");
    let decision: Vec<&Value> = answer["schema"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["key"] == "decision")
        .collect();
    assert_eq!(decision.len(), 1, "{answer}");
    assert_eq!(decision[0]["type"], "select", "the first field of the key is kept");
    let warnings = answer["warnings"].to_string();
    assert!(warnings.contains("left out \\\"Entscheidung (Text)\\\" (`decision`)"), "{warnings}");
}

#[tokio::test]
async fn a_whole_object_beside_its_parts_leaves_and_the_parts_stay() {
    let beside = json!({"components": [
        {"type": "textfield", "key": "claim", "label": "Claim"},
        {"type": "number", "key": "claim.amount", "label": "Amount"},
        {"type": "textfield", "key": "claim.reason", "label": "Reason"}
    ]});
    let (status, answer) = review_answered(&beside, 1, Some("the claim's amount and reason")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["attempts"], 1, "{answer}");
    let keys = keys(&answer["schema"]);
    assert!(!keys.contains(&"claim".to_string()), "{keys:?}");
    assert!(
        keys.contains(&"claim.amount".to_string()) && keys.contains(&"claim.reason".to_string()),
        "{keys:?}"
    );
    let warnings = answer["warnings"].to_string();
    assert!(warnings.contains("kept the parts and left out \\\"Claim\\\" (`claim`)"), "{warnings}");
}

#[tokio::test]
async fn a_clash_beside_another_refusal_goes_to_the_repair_round() {
    // the clash alone is mended; a secret field is the model's to replace
    let both = json!({"components": [
        {"type": "textfield", "key": "decision", "label": "Entscheidung"},
        {"type": "textfield", "key": "decision", "label": "Entscheidung (Text)"},
        {"type": "textfield", "key": "password", "label": "Passwort"}
    ]});
    let (status, answer) = review_answered(&both, 2, None).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{answer}");
    assert_eq!(answer["code"], "unusable_answer", "{answer}");
}

#[tokio::test]
async fn a_key_form_js_cannot_bind_after_the_repair_round_is_left_out() {
    let server = MockServer::start().await;
    let hyphen = json!({"components": [
        {"type": "select", "key": "decision", "label": "Entscheidung", "values": [{"label": "Annehmen", "value": "approve"}, {"label": "Ablehnen", "value": "reject"}]},
        {"type": "textfield", "key": "reviewer-note", "label": "Notiz"}
    ]});
    Mock::given(method("POST")).respond_with(chat_answer(&hyphen.to_string())).expect(2).mount(&server).await;
    let worker = model_worker(&server, "");
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&app(&worker), "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["attempts"], 2, "the first refusal goes to the repair round: {answer}");
    let keys: Vec<&str> =
        answer["schema"]["components"].as_array().unwrap().iter().filter_map(|c| c["key"].as_str()).collect();
    assert!(keys.contains(&"decision") && !keys.contains(&"reviewer-note"), "{keys:?}");
    let warnings = answer["warnings"].to_string();
    assert!(warnings.contains("left out \\\"Notiz\\\" (`reviewer-note`)"), "{warnings}");
}

#[tokio::test]
async fn without_a_brief_a_field_nobody_asked_for_is_left_out_and_with_one_it_stays() {
    let invented = json!({"components": [
        {"type": "select", "key": "decision", "label": "Entscheidung", "values": [{"label": "Annehmen", "value": "approve"}, {"label": "Ablehnen", "value": "reject"}]},
        {"type": "textfield", "key": "documentPreviewListList", "label": "Vorschau"},
        {"type": "group", "label": "Mehr", "components": [{"type": "textfield", "key": "fraudList", "label": "Betrug"}]}
    ]});
    for (brief, kept) in [(None, false), (Some("Review the claim, with a preview and a fraud note"), true)] {
        let (app, _server) = model_app(&invented.to_string()).await;
        let mut body = context("claim/claim.bpmn");
        body["elementId"] = json!("Task_review");
        if let Some(brief) = brief {
            body["description"] = json!(brief);
        }
        let (status, answer) = post(&app, "generate", body).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let text = answer["schema"].to_string();
        assert!(keys(&answer["schema"]).contains(&"decision".to_string()), "{text}");
        assert_eq!(text.contains("documentPreviewListList"), kept, "{brief:?}: {text}");
        assert_eq!(text.contains("fraudList"), kept, "{brief:?}: inside a group too: {text}");
        let warnings = answer["warnings"].to_string();
        assert_eq!(
            warnings.contains("left them out: `documentPreviewListList`, `fraudList`"),
            !kept,
            "{warnings}"
        );
    }
}

/// The key schema of a field in the answer schema of the model's first request.
async fn sent_key_schema(server: &MockServer) -> Value {
    let sent: Value = serde_json::from_slice(&server.received_requests().await.unwrap()[0].body).unwrap();
    sent["response_format"]["json_schema"]["schema"]["$defs"]["field"]["properties"]["key"].clone()
}

#[tokio::test]
async fn with_constrain_keys_an_answer_without_a_brief_may_bind_only_the_steps_own_keys() {
    let answer = json!({"components": [{"type": "textfield", "key": "note", "label": "Notiz"}]});
    let body = |brief: Option<&str>, refine: bool| {
        let mut body = context("claim/claim.bpmn");
        body["elementId"] = json!("Task_review");
        if let Some(brief) = brief {
            body["description"] = json!(brief);
        }
        if refine {
            body["schema"] = answer.clone();
        }
        body
    };
    let (app, server) = model_app_with(&answer.to_string(), "constrain_keys = true").await;
    let (status, reply) = post(&app, "generate", body(None, false)).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let held = sent_key_schema(&server).await;
    let enumerated: Vec<&str> = held["enum"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    for key in ["decision", "riskScore", "amount", "note", "customer"] {
        assert!(enumerated.contains(&key), "the draft's `{key}` may be bound: {held}");
    }
    assert!(enumerated.iter().all(|k| formgen::formjs::bindable(k)), "{held}");
    let free = json!({"type": "string"});
    for (brief, refine, settings) in [
        (Some("Review the claim, with a fraud note"), false, "constrain_keys = true"),
        (None, true, "constrain_keys = true"),
        (None, false, ""),
    ] {
        let (app, server) = model_app_with(&answer.to_string(), settings).await;
        let (status, reply) = post(&app, "generate", body(brief, refine)).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        assert_eq!(sent_key_schema(&server).await, free, "{brief:?}, refine {refine}, `{settings}`");
    }
}

#[tokio::test]
async fn with_draft_when_unusable_an_answer_cut_off_twice_gives_the_draft_and_an_unreachable_model_still_fails()
 {
    let (_server, worker) = cut_off_before_any_field(4, "draft_when_unusable = true").await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&app(&worker), "generate", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let (_, builtin) = post(&builtin(), "generate", body.clone()).await;
    let drafted: BTreeSet<String> = keys(&builtin["schema"]).into_iter().collect();
    assert_eq!(keys(&answer["schema"]).into_iter().collect::<BTreeSet<_>>(), drafted, "{answer}");
    assert_eq!(answer["worker"], "m");
    let warnings = answer["warnings"].to_string();
    assert!(
        warnings.contains("cut off at its") && warnings.contains("answered with its own draft"),
        "{warnings}"
    );
    assert_eq!(
        answer["usage"],
        json!({"inputTokens": 200, "outputTokens": 600}),
        "the two cut answers took tokens: {answer}"
    );
    // a refinement keeps the error: the author's form is not the draft's to replace
    let mut refine = body.clone();
    refine["schema"] = builtin["schema"].clone();
    let (status, answer) = post(&app(&worker), "generate", refine).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{answer}");
    // a model that cannot be reached is the operator's to see
    let gone = "[[workers]]\nname = \"m\"\nprovider = \"chat-completions\"\nendpoint = \"http://127.0.0.1:9/v1\"\nmodel = \"x\"\ncredential = \"none\"\ndraft_when_unusable = true\n";
    let (status, answer) = post(&app(gone), "generate", body).await;
    assert_eq!(status, StatusCode::BAD_GATEWAY, "{answer}");
    assert_eq!(answer["code"], "model_failed", "{answer}");
}

#[tokio::test]
async fn a_field_labelled_by_its_key_with_another_fields_label_or_unlike_the_project_gets_the_drafts_label_back()
 {
    let answer = json!({"components": [
        {"type": "textfield", "key": "reviewer", "label": "Reviewer"},
        {"type": "number", "key": "riskScore", "label": "riskScore"},
        {"type": "select", "key": "decision", "label": "Entscheidung", "values": [{"label": "Annehmen", "value": "approve"}, {"label": "Ablehnen", "value": "reject"}]},
        {"type": "number", "key": "discount", "label": "Entscheidung"},
        {"type": "textarea", "key": "note", "label": "Begründung für den Kunden"},
        {"type": "number", "key": "amount", "label": "Kunde"}
    ]});
    let (app, _server) = model_app_with(&answer.to_string(), "").await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, reply) = post(&app, "generate", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let label = |key: &str| {
        reply["schema"]["components"].as_array().unwrap().iter().find(|c| c["key"] == key).unwrap()["label"]
            .clone()
    };
    assert_eq!(label("riskScore"), "Risk score", "{reply}");
    assert_eq!(label("reviewer"), "Geprüft von", "the project's form names it so");
    assert_eq!(label("discount"), "Nachlass (%)", "{reply}");
    assert_eq!(label("decision"), "Entscheidung", "its own label stays");
    assert_eq!(label("note"), "Notiz", "the start form names it so");
    assert_eq!(label("customer"), "Kunde", "added back with the label the answer gave `amount`");
    assert_eq!(label("amount"), "Schadenshöhe", "{reply}");
    let warnings = reply["warnings"].to_string();
    assert!(warnings.contains(r#"`riskScore` reads \"Risk score\""#), "{warnings}");
    assert!(warnings.contains(r#"`reviewer` reads \"Geprüft von\""#), "{warnings}");
    // a refinement starts from the author's form, whose labels are theirs
    body["schema"] = json!({"type": "default", "components": [{"type": "number", "key": "riskScore", "label": "riskScore", "id": "f1"}]});
    let (status, reply) = post(&app, "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert!(!reply["warnings"].to_string().contains("gave back its draft"), "{reply}");
}

#[tokio::test]
async fn with_draft_when_unusable_a_draft_after_two_refused_answers_reports_the_tokens_they_took() {
    let (app, server) =
        model_app_with("Sorry, I cannot write that form.", "draft_when_unusable = true").await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (status, answer) = post(&app, "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["warnings"].to_string().contains("answered with its own draft"), "{answer}");
    assert_eq!(server.received_requests().await.unwrap().len(), 2, "the answer and the repair round");
    assert_eq!(answer["attempts"], 2);
    assert_eq!(answer["usage"], json!({"inputTokens": 200, "outputTokens": 40}), "{answer}");
}

#[tokio::test]
async fn a_value_answered_as_plain_text_gets_the_drafts_control_back_unless_the_author_wrote_a_brief() {
    let answer = json!({"components": [
        {"type": "textfield", "key": "riskScore", "label": "Risk"},
        {"type": "textarea", "key": "decision", "label": "Entscheidung"},
        {"type": "textfield", "key": "note", "label": "Notiz"}
    ]});
    let (app, _server) = model_app_with(&answer.to_string(), "").await;
    let mut body = context("claim/claim.bpmn");
    body["elementId"] = json!("Task_review");
    let (_, builtin) = post(&builtin(), "generate", body.clone()).await;
    let of = |reply: &Value, key: &str| {
        reply["schema"]["components"].as_array().unwrap().iter().find(|c| c["key"] == key).unwrap().clone()
    };
    let (status, reply) = post(&app, "generate", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    for key in ["riskScore", "decision", "note"] {
        assert_eq!(of(&reply, key)["type"], of(&builtin, key)["type"], "{key}: {reply}");
    }
    assert_eq!(of(&reply, "decision")["values"], of(&builtin, "decision")["values"], "{reply}");
    assert_eq!(of(&reply, "riskScore")["label"], "Risk", "the answer's words stay");
    let warnings = reply["warnings"].to_string();
    assert!(warnings.contains("`decision` (textarea → select)"), "{warnings}");
    // an author's brief may ask for the plain text the model wrote
    body["description"] = json!("Review the claim; the decision as free text");
    let (status, reply) = post(&app, "generate", body).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(of(&reply, "decision")["type"], "textarea", "{reply}");
    assert!(!reply["warnings"].to_string().contains("gave back the draft's"), "{reply}");
}
