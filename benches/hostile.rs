//! Hostile-input benchmark: `cargo bench --bench hostile`.
//!
//! What inputs built to make formgen's work grow faster than their size cost `formgen serve`, in CPU
//! seconds of the server process (from `/proc`, so the model double and the client are not counted):
//! - **names**: one condition of 50,000 distinct names (`= v0 > 0 or v1 > 1 or …`, 1 MB), through
//!   `POST /api/formgen/outline` and the builtin's `POST /api/formgen/generate` for the step before it;
//! - **stream**: a model double streaming a form of 1,400 components (chat-completions deltas of 7
//!   bytes) into `generate` with `Accept: text/event-stream`: CPU, the bytes of events and the drafts;
//! - **xmlns**, **amp**: a process declaring 50,000 namespace prefixes before 20,000 elements, and one
//!   whose name is 400,000 `&`s, through `outline`.
//!
//! `FORMGEN_BENCH_BASE=PATH` runs every case on that build of `formgen` too (a baseline, e.g. the main
//! branch built into its own target directory), in the same run, and prints the ratio. A case on the
//! baseline is cut off after `FORMGEN_BENCH_CUTOFF_S` seconds (default 120), and said so.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The answer the model double streams: 1,400 fields.
fn streamed_form() -> String {
    let components: Vec<Value> = (0..1400)
        .map(|i| json!({"type": "textfield", "key": format!("field{i}"), "label": format!("Field {i}")}))
        .collect();
    json!({ "components": components }).to_string()
}

/// A chat-completions double streaming `answer` in 7-byte deltas, as fast as it can write them.
async fn streaming_model(answer: String) -> String {
    let mut body = String::new();
    let chars: Vec<char> = answer.chars().collect();
    for piece in chars.chunks(7) {
        let piece: String = piece.iter().collect();
        body += &format!(
            "data: {}\n\n",
            json!({"choices": [{"delta": {"content": piece}, "finish_reason": null}]})
        );
    }
    body += &format!("data: {}\n\n", json!({"choices": [{"delta": {}, "finish_reason": "stop"}]}));
    body += "data: [DONE]\n\n";
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(move || {
            let body = body.clone();
            async move { ([("content-type", "text/event-stream")], body) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

fn process(condition: &str, extra_declarations: &str, elements: &str, name: &str) -> String {
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"{extra_declarations} id="Defs">
  <bpmn:process id="P" name="{name}" isExecutable="true">
    <bpmn:startEvent id="Start"/>
    <bpmn:userTask id="Task" name="Check"/>
    <bpmn:exclusiveGateway id="Gateway" default="Flow_no"/>
    <bpmn:endEvent id="End"/>
    <bpmn:sequenceFlow id="Flow_1" sourceRef="Start" targetRef="Task"/>
    <bpmn:sequenceFlow id="Flow_2" sourceRef="Task" targetRef="Gateway"/>
    <bpmn:sequenceFlow id="Flow_yes" sourceRef="Gateway" targetRef="End"><bpmn:conditionExpression>{}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="Flow_no" sourceRef="Gateway" targetRef="End"/>
    {elements}
  </bpmn:process>
</bpmn:definitions>
"#,
        escape(condition)
    )
}

/// One condition of 50,000 distinct names.
fn names_process() -> String {
    let condition = (0..50_000).map(|i| format!("v{i} > {i}")).collect::<Vec<_>>().join(" or ");
    process(&format!("= {condition}"), "", "", "Names")
}

fn xmlns_process() -> String {
    let declarations: String = (0..50_000).map(|i| format!(" xmlns:p{i}=\"urn:x:{i}\"")).collect();
    let elements: String = (0..20_000).map(|i| format!("<bpmn:task id=\"T{i}\"/>")).collect();
    process("= approved", &declarations, &elements, "Namespaces")
}

fn amp_process() -> String {
    process("= approved", "", "", &"&".repeat(400_000))
}

struct Server {
    child: Child,
    url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(bin: &str, model_url: &str, dir: &std::path::Path) -> Server {
    let config = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n[limits]\nmodel_timeout_s = 600\ngate_seconds = 600\nprocess_seconds = 600\nbody_read_timeout_s = 600\n\
         [[workers]]\nname = \"builtin\"\nprovider = \"builtin\"\n\
         [[workers]]\nname = \"double\"\nprovider = \"chat-completions\"\nendpoint = \"{model_url}/v1\"\nmodel = \"m\"\n"
    );
    let path = dir.join("hostile.toml");
    std::fs::write(&path, config).unwrap();
    let mut child = Command::new(bin)
        .args(["serve", "--config", path.to_str().unwrap()])
        .env("RUST_LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().strip_prefix("listening on ").expect("the listening line").to_string();
    Server { child, url }
}

/// CPU seconds the process has used so far (user + system).
fn cpu_s(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // the fields after the command name, which is in parentheses and may hold spaces
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the state
    // SAFETY: sysconf has no preconditions.
    let per_s = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (ticks(11) + ticks(12)) / per_s
}

/// What one request cost the server.
#[derive(Clone, Copy)]
struct Cost {
    cpu_s: f64,
    wall_s: f64,
    bytes: usize,
    drafts: usize,
    cut_off: bool,
}

async fn request(
    client: &reqwest::Client,
    server: &Server,
    path: &str,
    body: &Value,
    events: bool,
    cutoff: Duration,
) -> Cost {
    let before = cpu_s(server.child.id());
    let started = Instant::now();
    let mut req = client.post(format!("{}{path}", server.url)).json(body);
    if events {
        req = req.header("accept", "text/event-stream");
    }
    let answered = tokio::time::timeout(cutoff, async {
        let response = req.send().await.expect("an answer");
        assert!(response.status().is_success(), "{path}: {}", response.status());
        response.text().await.expect("a body")
    })
    .await;
    let wall_s = started.elapsed().as_secs_f64();
    let cpu = cpu_s(server.child.id()) - before;
    match answered {
        Ok(text) => {
            if events {
                let last = text.rsplit("event: ").next().unwrap_or_default();
                assert!(
                    last.starts_with("proposal"),
                    "the stream ends with its proposal: {}",
                    &last[..last.len().min(300)]
                );
            }
            let drafts = text.matches("event: draft").count();
            Cost { cpu_s: cpu, wall_s, bytes: text.len(), drafts, cut_off: false }
        }
        Err(_) => Cost { cpu_s: cpu, wall_s, bytes: 0, drafts: 0, cut_off: true },
    }
}

struct Case {
    name: &'static str,
    path: &'static str,
    body: Value,
    events: bool,
}

fn cases() -> Vec<Case> {
    let names = names_process();
    vec![
        Case {
            name: "names: outline",
            path: "/api/formgen/outline",
            body: json!({"processXml": names, "elementId": "Task"}),
            events: false,
        },
        Case {
            name: "names: generate (builtin)",
            path: "/api/formgen/generate",
            body: json!({"processXml": names, "elementId": "Task", "worker": "builtin"}),
            events: false,
        },
        Case {
            name: "stream: 1,400 components",
            path: "/api/formgen/generate",
            body: json!({"description": "A long form", "worker": "double"}),
            events: true,
        },
        Case {
            name: "xmlns: outline",
            path: "/api/formgen/outline",
            body: json!({"processXml": xmlns_process()}),
            events: false,
        },
        Case {
            name: "amp: outline",
            path: "/api/formgen/outline",
            body: json!({"processXml": amp_process()}),
            events: false,
        },
    ]
}

/// The median cost of `runs` runs of a case (one run when the first takes over 5 s).
async fn measure(
    client: &reqwest::Client,
    server: &Server,
    case: &Case,
    runs: usize,
    cutoff: Duration,
) -> Cost {
    let mut costs = vec![request(client, server, case.path, &case.body, case.events, cutoff).await];
    while costs.len() < runs && costs[0].wall_s < 5.0 && !costs[0].cut_off {
        costs.push(request(client, server, case.path, &case.body, case.events, cutoff).await);
    }
    costs.sort_by(|a, b| a.cpu_s.total_cmp(&b.cpu_s));
    costs[costs.len() / 2]
}

fn show(c: &Cost) -> String {
    if c.cut_off {
        return format!("> {:.1} (cut off) | > {:.0} | - | -", c.cpu_s, c.wall_s);
    }
    format!("{:.3} | {:.3} | {:.2} | {}", c.cpu_s, c.wall_s, c.bytes as f64 / 1e6, c.drafts)
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let cutoff = Duration::from_secs(
        std::env::var("FORMGEN_BENCH_CUTOFF_S").ok().and_then(|s| s.parse().ok()).unwrap_or(120),
    );
    let base = std::env::var("FORMGEN_BENCH_BASE").ok();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let model = streaming_model(streamed_form()).await;
        let client = reqwest::Client::new();
        let this = serve(env!("CARGO_BIN_EXE_formgen"), &model, dir.path());
        let baseline = base.as_deref().map(|bin| serve(bin, &model, dir.path()));
        println!(
            "| case | this build: CPU s | wall s | answer MB | drafts | baseline: CPU s | wall s | answer MB | drafts | CPU ratio |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for case in cases() {
            let now = measure(&client, &this, &case, 5, cutoff).await;
            let row = match &baseline {
                Some(b) => {
                    let then = measure(&client, b, &case, 3, cutoff).await;
                    let ratio = then.cpu_s / now.cpu_s.max(0.01);
                    let more = if then.cut_off { "more than " } else { "" };
                    format!("{} | {more}{ratio:.0}x", show(&then))
                }
                None => "- | - | - | - | -".to_string(),
            };
            println!("| {} | {} | {row} |", case.name, show(&now));
        }
        // the server answers after all of it
        let health = client.get(format!("{}/healthz", this.url)).send().await.unwrap();
        assert_eq!(health.status(), 200);
    });
}
