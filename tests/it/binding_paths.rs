//! Binding paths cost time and memory linear in their length. A key or path of 40,000 segments
//! (80 KB) or of 900 KB is refused with a sentence naming the field, through `formgen check`,
//! `validate` and a model's answer, by processes whose heap is capped far below what copying every
//! prefix would take (3.3 GB and 23.8 GB); and the linear clash check agrees with the rule said
//! plainly on random small forms.

use std::path::Path;
use std::process::Command;

use formgen::formjs::{MAX_PATH_BYTES, MAX_PATH_SEGMENTS};
use formgen::gate;
use proptest::prelude::*;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::common::served::{Served, limit_data, spawn_serve_within};

/// The heap the processes under test may take: a few times what the largest of these forms needs,
/// a hundredth of what the quadratic copies took.
const HEAP: u64 = 512 * 1024 * 1024;

/// `a.a.a…` of `segments` segments.
fn long_path(segments: usize) -> String {
    vec!["a"; segments].join(".")
}

/// The long paths tried: 40,000 segments (80 KB) and 900 KB.
fn long_paths() -> [String; 2] {
    [long_path(40_000), long_path(450_000)]
}

/// Forms binding `path` as a field's key, as a group's path, and as a dynamic list's path.
fn forms_binding(path: &str) -> Vec<(&'static str, Value)> {
    vec![
        (
            "The field \"Long one\" has a key of",
            json!({"components": [{"type": "textfield", "key": path, "label": "Long one"}]}),
        ),
        (
            "The group \"Address\" has a path of",
            json!({"components": [{"type": "group", "label": "Address", "path": path,
                "components": [{"type": "textfield", "key": "street", "label": "Street"}]}]}),
        ),
        (
            "The list \"Items\" has a path of",
            json!({"components": [{"type": "dynamiclist", "label": "Items", "path": path,
                "components": [{"type": "textfield", "key": "name", "label": "Name"}]}]}),
        ),
    ]
}

#[test]
fn formgen_check_refuses_long_paths_within_a_bounded_heap() {
    let dir = tempfile::tempdir().unwrap();
    for path in long_paths() {
        for (sentence, form) in forms_binding(&path) {
            let file = dir.path().join("long.form");
            std::fs::write(&file, form.to_string()).unwrap();
            let mut command = Command::new(env!("CARGO_BIN_EXE_formgen"));
            command.args(["check", file.to_str().unwrap()]);
            limit_data(&mut command, HEAP);
            let out = command.output().unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{} bytes: {said}", path.len());
            assert!(said.contains(sentence), "{} bytes: {said}", path.len());
            assert!(said.len() < 2_000, "the path is quoted clipped: {} bytes said", said.len());
        }
    }
}

#[test]
fn a_whole_path_past_the_bounds_is_refused_though_each_part_is_within() {
    let group = "g".repeat(MAX_PATH_BYTES - 10);
    let form = json!({"components": [{"type": "group", "label": "Address", "path": group,
        "components": [{"type": "textfield", "key": "street_name", "label": "Street"}]}]});
    let problems = gate::check(&form.to_string(), None, None).unwrap_err().problems();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("The field \"Street\" has a whole binding path (the paths of the groups around it and its own) of 2 segments and 514 bytes"),
        "{problems:?}"
    );
    let deep = json!({"components": [{"type": "group", "label": "G", "path": long_path(MAX_PATH_SEGMENTS - 1),
        "components": [{"type": "textfield", "key": "a.a", "label": "Deep"}]}]});
    let problems = gate::check(&deep.to_string(), None, None).unwrap_err().problems();
    assert!(problems[0].contains("of 33 segments"), "{problems:?}");
    // at the bounds: accepted
    let at = json!({"components": [{"type": "group", "label": "G", "path": long_path(MAX_PATH_SEGMENTS - 1),
        "components": [{"type": "textfield", "key": "a", "label": "At"}]}]});
    assert!(gate::check(&at.to_string(), None, None).is_ok());
}

async fn post(served: &Served, path: &str, body: &Value) -> (u16, Value) {
    let response = reqwest::Client::new()
        .post(format!("{}{path}", served.url))
        .json(body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{path}: the server did not answer: {e}"));
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

fn problems(body: &Value) -> String {
    let all = body["problems"].as_array().map(Vec::as_slice).unwrap_or_default();
    all.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" ")
}

async fn model_answering(form: &Value) -> MockServer {
    let server = MockServer::start().await;
    let body = json!({"choices": [{"message": {"role": "assistant", "content": form.to_string()}, "finish_reason": "stop"}]});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(&server)
        .await;
    server
}

fn served(model: &MockServer, dir: &Path) -> Served {
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n[[workers]]\nname = \"m\"\nprovider = \"chat-completions\"\nendpoint = \"{}/v1\"\nmodel = \"m\"\n",
        model.uri()
    );
    spawn_serve_within(&toml, dir, HEAP)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn validate_and_a_models_answer_refuse_long_paths_and_the_server_stays_up() {
    for path in long_paths() {
        for (sentence, form) in forms_binding(&path) {
            let dir = tempfile::tempdir().unwrap();
            let model = model_answering(&form).await;
            let mut served = served(&model, dir.path());
            let (status, body) = post(&served, "/api/formgen/validate", &json!({"schema": form})).await;
            assert_eq!(status, 200, "validate, {} bytes: {body}", path.len());
            let found = body["findings"].as_array().unwrap();
            assert!(
                found
                    .iter()
                    .any(|f| f["severity"] == "error" && f["message"].as_str().unwrap().contains(sentence)),
                "validate: {body}"
            );
            let (status, body) = post(&served, "/api/formgen/generate", &json!({"description": "x"})).await;
            assert_eq!((status, body["code"].as_str()), (502, Some("unusable_answer")), "{body}");
            assert!(problems(&body).contains(sentence), "generate: {}", problems(&body));
            let events = reqwest::Client::new()
                .post(format!("{}/api/formgen/generate", served.url))
                .header("accept", "text/event-stream")
                .json(&json!({"description": "x"}))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let escaped = sentence.replace('"', "\\\"");
            assert!(events.contains("event: error") && events.contains(&escaped), "streamed: {events}");
            assert!(served.child.try_wait().unwrap().is_none(), "formgen serve died");
            let health = reqwest::get(format!("{}/healthz", served.url)).await.unwrap();
            assert_eq!(health.status(), 200);
        }
    }
}

// ---- the clash check against the rule said plainly --------------------------------------------------

/// A component of a random small form: fields, groups (with or without a path) and dynamic lists,
/// binding paths from a small alphabet so that they clash often.
fn component(depth: u32) -> BoxedStrategy<Value> {
    let key = prop::sample::select(vec!["a", "b", "a.b", "b.a", "a.a", "a.b.c"]);
    let field = key.prop_map(|k| json!({"type": "textfield", "key": k}));
    if depth == 0 {
        return field.boxed();
    }
    // empty groups half the time: a group's own path must clash without children under it
    let children = prop_oneof![Just(Vec::new()), prop::collection::vec(component(depth - 1), 1..4)];
    let path = prop::sample::select(vec!["", "a", "b", "a.b"]);
    let list_path = prop::sample::select(vec!["a", "b", "c", "a.b"]);
    prop_oneof![
        3 => field,
        1 => (path, children.clone()).prop_map(|(p, c)| json!({"type": "group", "path": p, "components": c})),
        1 => (list_path, children).prop_map(|(p, c)| json!({"type": "dynamiclist", "path": p, "components": c})),
    ]
    .boxed()
}

/// Gives every component a label of its own (so that none repeats another exactly and is removed).
fn labelled(components: &mut [Value], next: &mut usize) {
    for c in components {
        *next += 1;
        c["label"] = json!(format!("C{next}"));
        if let Some(children) = c.get_mut("components").and_then(Value::as_array_mut) {
            labelled(children, next);
        }
    }
}

/// One scope's claims: closed (a field's or a list's whole path) and open (a group's).
#[derive(Default)]
struct Scope {
    closed: Vec<String>,
    open: Vec<String>,
}

fn extends(long: &str, short: &str) -> bool {
    long.len() > short.len() && long.starts_with(short) && long.as_bytes()[short.len()] == b'.'
}

/// Whether any two claims of any scope clash, compared pair by pair: two closed paths that are equal
/// or one extends the other, or an open path equal to or extending a closed one.
fn clashes_plainly(components: &[Value]) -> bool {
    fn walk(components: &[Value], prefix: &str, scope: &mut Scope, scopes: &mut Vec<Scope>) {
        for c in components {
            let join = |p: &str| if prefix.is_empty() { p.to_string() } else { format!("{prefix}.{p}") };
            let children = c["components"].as_array().map(Vec::as_slice).unwrap_or_default();
            match c["type"].as_str().unwrap() {
                "textfield" => scope.closed.push(join(c["key"].as_str().unwrap())),
                "group" => {
                    let path = c["path"].as_str().unwrap();
                    let full = if path.is_empty() { prefix.to_string() } else { join(path) };
                    if !path.is_empty() {
                        scope.open.push(full.clone());
                    }
                    walk(children, &full, scope, scopes);
                }
                _ => {
                    scope.closed.push(join(c["path"].as_str().unwrap()));
                    let mut items = Scope::default();
                    walk(children, "", &mut items, scopes);
                    scopes.push(items);
                }
            }
        }
    }
    let mut scopes = Vec::new();
    let mut root = Scope::default();
    walk(components, "", &mut root, &mut scopes);
    scopes.push(root);
    scopes.iter().any(|s| {
        let closed_pairs = s
            .closed
            .iter()
            .enumerate()
            .any(|(i, a)| s.closed[i + 1..].iter().any(|b| a == b || extends(a, b) || extends(b, a)));
        let open_over_closed = s.open.iter().any(|o| s.closed.iter().any(|c| o == c || extends(o, c)));
        closed_pairs || open_over_closed
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn the_linear_clash_check_agrees_with_the_plain_rule(mut components in prop::collection::vec(component(2), 1..6)) {
        labelled(&mut components, &mut 0);
        let form = json!({"components": components}).to_string();
        let refused_for_a_clash = match gate::check(&form, None, None) {
            Ok(_) => false,
            Err(e) => {
                let problems = e.problems();
                let clash = |p: &String| p.contains("form-js binds each path once") || p.contains("already binds");
                prop_assert!(problems.iter().all(clash), "only clashes are wrong here: {:?}", problems);
                true
            }
        };
        prop_assert_eq!(refused_for_a_clash, clashes_plainly(&components), "{}", form);
    }
}
