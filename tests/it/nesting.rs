//! Deeply nested input never takes the service down. Every recursive reader has a depth bound
//! (`formgen::limits::nesting`), and input nested ten times past it, and as deep as an attacker sent
//! (3,000 and 30,000 brackets), is answered leniently through every way in: a real `formgen serve`
//! (which must answer the next request), the process store, the CLI. The deepest input each reader
//! accepts runs on a quarter of the 2 MiB stack tokio's threads and the test threads have.

use std::path::Path;
use std::process::Command;

use formgen::limits::nesting;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common::served::{Served, spawn_serve};

/// The sentence-start of the warning for a condition left unread.
const UNREAD: &str = "nests brackets or `not`s more than 64 levels deep, so it was not read";

/// The depths tried: ten times the bound, and what an attacker sent.
const DEPTHS: [usize; 3] = [10 * nesting::EXPRESSION, 3_000, 30_000];

/// Conditions nested `depth` deep, by shape.
fn deep_conditions(depth: usize) -> Vec<(&'static str, String)> {
    vec![
        ("brackets", format!("= {}amount > 5{}", "(".repeat(depth), ")".repeat(depth))),
        ("not(", format!("= {}approved{}", "not(".repeat(depth), ")".repeat(depth))),
        ("JUEL brackets", format!("${{{}amount > 5{}}}", "(".repeat(depth), ")".repeat(depth))),
        ("JUEL !", format!("${{{}approved}}", "!".repeat(depth))),
    ]
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A process whose step `Task_check` leads to a gateway deciding on `condition`, then calls the
/// decision `deep`; FEEL `feel` is the step's input mapping.
fn process(id: &str, condition: &str, feel: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="Defs">
  <bpmn:process id="{id}" isExecutable="true">
    <bpmn:startEvent id="Start"/>
    <bpmn:userTask id="Task_check" name="Check">
      <bpmn:extensionElements><zeebe:ioMapping><zeebe:input source="{}" target="local"/></zeebe:ioMapping></bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:exclusiveGateway id="Gateway" default="Flow_no"/>
    <bpmn:businessRuleTask id="Task_rate">
      <bpmn:extensionElements><zeebe:calledDecision decisionId="deep" resultVariable="verdict"/></bpmn:extensionElements>
    </bpmn:businessRuleTask>
    <bpmn:endEvent id="End"/>
    <bpmn:sequenceFlow id="Flow_1" sourceRef="Start" targetRef="Task_check"/>
    <bpmn:sequenceFlow id="Flow_2" sourceRef="Task_check" targetRef="Gateway"/>
    <bpmn:sequenceFlow id="Flow_yes" name="Yes" sourceRef="Gateway" targetRef="Task_rate"><bpmn:conditionExpression>{}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_no" sourceRef="Gateway" targetRef="End"/>
    <bpmn:sequenceFlow id="Flow_3" sourceRef="Task_rate" targetRef="End"/>
  </bpmn:process>
</bpmn:definitions>
"#,
        escape(feel).replace('"', "&quot;"),
        escape(condition)
    )
}

/// A decision `deep` whose input expression is `feel`, whose allowed values are `unary`, inside
/// `depth` levels of vendor extension elements.
fn decision(feel: &str, unary: &str, depth: usize) -> String {
    let extensions = format!("{}{}", "<x:n xmlns:x=\"urn:x\">".repeat(depth), "</x:n>".repeat(depth));
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="D" namespace="x">
  <decision id="deep" name="Deep">
    <extensionElements>{}</extensionElements>
    <decisionTable id="T">
      <input id="I" label="Amount"><inputExpression id="E" typeRef="number"><text>{}</text></inputExpression>
        <inputValues id="V"><text>{}</text></inputValues></input>
      <output id="O" name="verdict" typeRef="string"/>
    </decisionTable>
  </decision>
</definitions>
"#,
        extensions,
        escape(feel),
        escape(unary)
    )
}

/// FEEL brackets nested `depth` deep around a read of `amount`.
fn deep_feel(depth: usize) -> String {
    format!("={}amount{}", "(".repeat(depth), ")".repeat(depth))
}

/// A form whose groups nest `depth` deep, as JSON text (never a parsed value: the test builds no
/// deep value itself).
fn deep_form(depth: usize) -> String {
    let open = r#"{"type": "group", "label": "G", "components": ["#;
    format!(
        r#"{{"components": [{}{{"type": "textfield", "key": "x", "label": "X"}}{}]}}"#,
        open.repeat(depth),
        "]}".repeat(depth)
    )
}

async fn post(served: &Served, path: &str, body: String) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}{path}", served.url))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{path}: the server did not answer: {e}"));
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

async fn still_up(served: &mut Served, after: &str) {
    assert!(served.child.try_wait().unwrap().is_none(), "formgen serve died after {after}");
    let health = reqwest::get(format!("{}/healthz", served.url)).await;
    assert!(health.is_ok_and(|r| r.status() == 200), "no /healthz after {after}");
}

fn warned(body: &Value) -> bool {
    body["warnings"].as_array().is_some_and(|w| w.iter().any(|w| w.as_str().unwrap_or("").contains(UNREAD)))
}

async fn model_answering(content: &str) -> MockServer {
    let server = MockServer::start().await;
    let body =
        json!({"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;
    server
}

fn serve_with(dir: &Path, model: &MockServer) -> Served {
    let store = dir.join("processes");
    std::fs::create_dir_all(store.join("drafts")).unwrap();
    std::fs::create_dir_all(store.join("deployed")).unwrap();
    std::fs::write(store.join("drafts/deep.bpmn"), process("Deep", &deep_conditions(30_000)[1].1, "=x"))
        .unwrap();
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n[processes]\ndir = \"{}\"\n\
         [[workers]]\nname = \"builtin\"\nprovider = \"builtin\"\n\
         [[workers]]\nname = \"m\"\nprovider = \"chat-completions\"\nendpoint = \"{}/v1\"\nmodel = \"m\"\n",
        store.display(),
        model.uri()
    );
    spawn_serve(&toml, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_conditions_are_left_unread_and_the_server_stays_up() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_answering(r#"{"components": []}"#).await;
    let mut served = serve_with(dir.path(), &model);
    for depth in DEPTHS {
        for (shape, condition) in deep_conditions(depth) {
            let xml = process("P", &condition, "=x");
            let what = format!("{shape} nested {depth} deep");
            let (status, body) =
                post(&served, "/api/formgen/outline", json!({"processXml": xml}).to_string()).await;
            assert_eq!(status, 200, "outline, {what}: {body}");
            assert!(body["text"].as_str().is_some_and(|t| t.contains("Task_check")), "{what}");
            still_up(&mut served, &format!("outline, {what}")).await;
            let request = json!({"processXml": xml, "elementId": "Task_check", "worker": "builtin"});
            let (status, body) = post(&served, "/api/formgen/generate", request.to_string()).await;
            assert_eq!(status, 200, "generate, {what}: {body}");
            assert!(warned(&body), "generate, {what}: {}", body["warnings"]);
            still_up(&mut served, &format!("generate, {what}")).await;
        }
    }
    // the process store's draft, named by its id
    let (status, body) = post(
        &served,
        "/api/formgen/outline",
        json!({"processId": "Deep", "elementId": "Task_check"}).to_string(),
    )
    .await;
    assert_eq!((status, body["processSource"].as_str()), (200, Some("draft")), "{body}");
    let request = json!({"processId": "Deep", "elementId": "Task_check", "worker": "builtin"});
    let (status, body) = post(&served, "/api/formgen/generate", request.to_string()).await;
    assert_eq!(status, 200, "{body}");
    assert!(warned(&body), "{}", body["warnings"]);
    still_up(&mut served, "the store's draft").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_forms_json_answers_and_decisions_are_refused_or_read_and_the_server_stays_up() {
    let dir = tempfile::tempdir().unwrap();
    let json_deep = 10 * nesting::JSON;
    let arrays = format!("{}{}", "[".repeat(json_deep), "]".repeat(json_deep));
    let model = model_answering(&format!("Here it is: {arrays}")).await;
    let mut served = serve_with(dir.path(), &model);

    // validate: groups past the gate's bound (within JSON's), and JSON past serde_json's
    let (status, body) =
        post(&served, "/api/formgen/validate", format!(r#"{{"schema": {}}}"#, deep_form(nesting::FORM + 8)))
            .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["findings"].to_string().contains("nests groups more than 32 levels deep"), "{body}");
    still_up(&mut served, "a form nested past the gate's bound").await;
    for depth in [10 * nesting::FORM, 10 * nesting::JSON] {
        let (status, body) =
            post(&served, "/api/formgen/validate", format!(r#"{{"schema": {}}}"#, deep_form(depth))).await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"].as_str().is_some_and(|e| e.contains("recursion limit")), "{body}");
        still_up(&mut served, &format!("a form nested {depth} deep")).await;
        let text = json!({"text": deep_form(depth)}).to_string();
        let (status, body) = post(&served, "/api/formgen/validate", text).await;
        assert_eq!(status, 422, "{body}");
        still_up(&mut served, &format!("a form's text nested {depth} deep")).await;
    }
    // a model's answer nested ten times past serde_json's bound, plain and streamed
    let request = json!({"description": "A vacation request", "worker": "m"}).to_string();
    let (status, body) = post(&served, "/api/formgen/generate", request.clone()).await;
    assert_eq!((status, body["code"].as_str()), (502, Some("unusable_answer")), "{body}");
    still_up(&mut served, "a deep model answer").await;
    let streamed = reqwest::Client::new()
        .post(format!("{}/api/formgen/generate", served.url))
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .body(request)
        .send()
        .await
        .unwrap();
    let events = streamed.text().await.unwrap();
    assert!(events.contains("event: error") && events.contains("unusable_answer"), "{events}");
    still_up(&mut served, "a deep model answer, streamed").await;

    // DMN: extension elements ten times past the XML bound, FEEL and unary tests ten times past
    // the expression bound; FEEL in an input mapping likewise
    let feel = deep_feel(10 * nesting::EXPRESSION);
    let unary = format!("{}1{}", "(".repeat(10 * nesting::EXPRESSION), ")".repeat(10 * nesting::EXPRESSION));
    let request = json!({
        "processXml": process("P", "= approved", &feel),
        "elementId": "Task_check",
        "decisions": [decision(&feel, &unary, 10 * nesting::XML)],
    });
    let (status, body) = post(&served, "/api/formgen/outline", request.to_string()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["step"]["decisions"], json!(["deep"]), "the decision was read: {body}");
    still_up(&mut served, "a deep decision").await;
}

fn formgen(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_formgen")).args(args).output().unwrap()
}

#[test]
fn the_cli_reads_deep_conditions_and_checks_deep_forms() {
    let dir = tempfile::tempdir().unwrap();
    for (shape, condition) in deep_conditions(30_000) {
        let file = dir.path().join("deep.bpmn");
        std::fs::write(&file, process("P", &condition, &deep_feel(30_000))).unwrap();
        let file = file.to_str().unwrap();
        for args in [
            vec!["outline", file],
            vec!["outline", "--element", "Task_check", file],
            vec!["outline", "--json", "--element", "Task_check", file],
            vec!["generate", "--element", "Task_check", file],
        ] {
            let out = formgen(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{shape}: formgen {args:?}: {:?} {stderr}", out.status);
            assert!(stderr.contains(UNREAD), "{shape}: formgen {args:?}: {stderr}");
        }
    }
    for depth in [nesting::FORM + 8, 10 * nesting::FORM, 10 * nesting::JSON] {
        let file = dir.path().join("deep.form");
        std::fs::write(&file, deep_form(depth)).unwrap();
        let out = formgen(&["check", file.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{depth}: {said}");
        assert!(said.contains("  error    The"), "{depth}: {said}");
    }
}

/// Runs `work` on a thread with a quarter of a 2 MiB stack: what the bounds leave room for.
fn on_a_quarter_stack(work: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new().stack_size(512 * 1024).spawn(work).unwrap().join().expect("within the stack");
}

#[test]
fn the_deepest_input_each_reader_accepts_fits_a_quarter_of_the_stack() {
    on_a_quarter_stack(|| {
        let at = nesting::EXPRESSION;
        let condition = format!("= {}amount > 5{}", "(".repeat(at), ")".repeat(at));
        let reading = formgen::bpmn::read_condition(&condition);
        assert!(!reading.unread && reading.comparisons.len() == 1, "read at the bound");
        let nots = format!("${{{}approved}}", "!".repeat(at));
        assert!(!formgen::bpmn::read_condition(&nots).unread);
        // the whole reading path: outline, describe, the data picture and the drafter
        let xml = process("P", &condition, &deep_feel(10 * at));
        let defs = formgen::bpmn::read_str(&xml);
        let p = &defs.processes[0];
        let step = p.element_index("Task_check");
        let text = formgen::bpmn::describe(p, step, 48_000);
        assert!(text.contains("amount > 5"), "{text}");
        let project = formgen::project::Project::default();
        let picture = formgen::flow::picture(p, step, &project);
        assert_eq!(picture.decided_on[0].name, "amount");
        let draft = formgen::draft::draft(Some(p), step, "", None);
        assert!(draft.to_string().contains("amount"));
        // the gate at its bound, and JSON at serde_json's
        let form = deep_form(nesting::FORM);
        assert!(formgen::gate::check(&form, None, None).is_ok());
        let depth = nesting::JSON - 1;
        let value: Value =
            serde_json::from_str(&format!("{}{}", "[".repeat(depth), "]".repeat(depth))).unwrap();
        drop(value);
        // a pattern nested half as deep as the regex parser's limit (the gate's own, 64, with the
        // anchors it adds), and ten times past that limit
        for (depth, accepted) in [(nesting::EXPRESSION / 2, true), (10 * nesting::EXPRESSION, false)] {
            let pattern = format!("{}a{}", "(".repeat(depth), ")".repeat(depth));
            let form = json!({"components": [{"type": "textfield", "key": "x", "label": "X", "validate": {"pattern": pattern}}]});
            assert_eq!(formgen::gate::check(&form.to_string(), None, None).is_ok(), accepted, "{depth}");
        }
        // DMN at the XML bound
        let dmn = decision("amount", "1, 2", nesting::XML - 4);
        assert_eq!(formgen::dmn::read_str(&dmn).decisions[0].id, "deep");
    });
}
