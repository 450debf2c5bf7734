//! CPU-heavy requests beside `/healthz` (`FORMGEN_BENCH=cpu`): each load runs on this build and, with
//! `FORMGEN_BENCH_BASELINE=PATH`, on another build of `formgen` in the same run, one after the other;
//! `/healthz` is probed all the while, back to back from one client. The loads are the CPU work one
//! request can bring: a large inline process outlined, or generated from (a model that answers at
//! once), a large hand-written form checked, a condition that names many variables, and a model that
//! streams a form of many components. Then the cost of handing small inputs to the blocking pool
//! (one client, outlines of growing processes), and SIGTERM while large processes are read.

use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::json;

use super::{Server, model_double, ms, synthetic};

/// How long each load is measured, after a second of warming up.
const WINDOW: Duration = Duration::from_secs(6);

/// Clients sending the heavy requests, each back to back: twice the cores of this machine.
const HEAVY_CLIENTS: usize = 4;

/// One kind of heavy request.
struct Load {
    name: String,
    path: &'static str,
    body: String,
    events: bool,
}

/// What the probes saw under one load.
struct Seen {
    heavy_done: usize,
    heavy_errors: usize,
    heavy_p50: Duration,
    probes: Vec<Duration>,
    probe_errors: usize,
}

/// The builds to compare: this one, and the baseline when one is named.
fn builds() -> Vec<(&'static str, String)> {
    let mut builds = vec![("this build", env!("CARGO_BIN_EXE_formgen").to_string())];
    if let Ok(baseline) = std::env::var("FORMGEN_BENCH_BASELINE") {
        builds.push(("baseline", baseline));
    }
    builds
}

/// `formgen serve` of `bin`, with limits that let every load in and `extra` in `[server]`.
fn start(bin: &str, model_url: &str, dir: &Path, server: &str) -> Server {
    let config = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n{server}\n[limits]\nconcurrent_generations = 1000\nconcurrent_per_worker = 1000\nmodel_timeout_s = 600\nrequest_body_bytes = 40000000\nbodies_in_flight_bytes = 400000000\nbpmn_bytes = 20000000\nschema_bytes = 20000000\nanswer_bytes = 64000000\noutput_tokens = 1000000\nbody_read_timeout_s = 60\ngate_seconds = 60\n[[workers]]\nname = \"double\"\nprovider = \"chat-completions\"\nendpoint = \"{model_url}/v1\"\nmodel = \"m\"\n"
    );
    let path = dir.join("bench-cpu.toml");
    std::fs::write(&path, config).unwrap();
    super::spawn(bin, &path, None)
}

/// A chat-completions double that streams a form of `components` text fields, one per event.
async fn streaming_model(components: usize) -> String {
    let mut body = String::new();
    let piece = |text: String| format!("data: {}\n\n", json!({"choices": [{"delta": {"content": text}}]}));
    body.push_str(&piece("{\"components\": [".into()));
    for i in 0..components {
        let comma = if i + 1 == components { "" } else { "," };
        body.push_str(&piece(format!(
            "{{\"type\": \"textfield\", \"key\": \"field{i}\", \"label\": \"Field number {i}\"}}{comma}"
        )));
    }
    body.push_str(&piece("]}".into()));
    body.push_str(&format!(
        "data: {}\n\ndata: [DONE]\n\n",
        json!({"choices": [{"delta": {}, "finish_reason": "stop"}]})
    ));
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(move || {
            let body = body.clone();
            async move { ([(axum::http::header::CONTENT_TYPE, "text/event-stream")], body) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// A process with one conditional flow whose condition names `names` distinct variables.
fn many_names(names: usize) -> String {
    let condition: Vec<String> = (0..names).map(|i| format!("v{i} > 0")).collect();
    format!(
        r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P"><startEvent id="s"/><userTask id="t"/><sequenceFlow id="f" sourceRef="s" targetRef="t"><conditionExpression>= {}</conditionExpression></sequenceFlow></process></definitions>"#,
        condition.join(" and ")
    )
}

fn loads(large: &str, element: &str) -> Vec<Load> {
    let kb = large.len() / 1024;
    let form: Vec<_> = (0..20_000)
        .map(|i| json!({"type": "textfield", "key": format!("field{i}"), "label": format!("Field {i}")}))
        .collect();
    vec![
        Load {
            name: format!("outline of a {kb} KB processXml"),
            path: "/api/formgen/outline",
            body: json!({"processXml": large, "elementId": element}).to_string(),
            events: false,
        },
        Load {
            name: format!("generate from a {kb} KB processXml (model answers at once)"),
            path: "/api/formgen/generate",
            body: json!({"description": "Approve", "processXml": large, "elementId": element}).to_string(),
            events: false,
        },
        Load {
            name: "validate of a 20,000-field form".into(),
            path: "/api/formgen/validate",
            body: json!({"schema": {"components": form}}).to_string(),
            events: false,
        },
        Load {
            name: "outline of a condition naming 20,000 variables".into(),
            path: "/api/formgen/outline",
            body: json!({"processXml": many_names(20_000), "elementId": "t"}).to_string(),
            events: false,
        },
        Load {
            name: "generate, event stream of a model writing 1,400 components".into(),
            path: "/api/formgen/generate",
            body: json!({"description": "A long form"}).to_string(),
            events: true,
        },
    ]
}

/// `HEAVY_CLIENTS` clients sending `load` back to back and one client probing `/healthz`, for a
/// second of warm-up and then [`WINDOW`].
async fn under_load(server: &Server, load: &Load) -> Seen {
    let started = Instant::now();
    let (from, until) = (started + Duration::from_secs(1), started + Duration::from_secs(1) + WINDOW);
    let mut heavy = Vec::new();
    for _ in 0..HEAVY_CLIENTS {
        let client = reqwest::Client::new();
        let url = format!("{}{}", server.url, load.path);
        let body = load.body.clone();
        let events = load.events;
        heavy.push(tokio::spawn(async move {
            let (mut done, mut errors, mut latencies) = (0, 0, Vec::new());
            while Instant::now() < until {
                let t = Instant::now();
                let mut request =
                    client.post(&url).header("content-type", "application/json").body(body.clone());
                if events {
                    request = request.header("accept", "text/event-stream");
                }
                let answered = tokio::time::timeout_at(until.into(), request.send()).await;
                match answered {
                    Ok(Ok(r)) if r.status().is_success() => {
                        let read = tokio::time::timeout_at(until.into(), r.bytes()).await;
                        if matches!(read, Ok(Ok(_))) {
                            done += 1;
                            latencies.push(t.elapsed());
                        }
                    }
                    Ok(_) => errors += 1,
                    Err(_) => {}
                }
            }
            (done, errors, latencies)
        }));
    }
    let probe = reqwest::Client::new();
    let healthz = format!("{}/healthz", server.url);
    let (mut probes, mut probe_errors) = (Vec::new(), 0);
    while Instant::now() < until {
        let t = Instant::now();
        let ok = probe.get(&healthz).send().await.is_ok_and(|r| r.status().is_success());
        if t >= from {
            if ok {
                probes.push(t.elapsed());
            } else {
                probe_errors += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (mut heavy_done, mut heavy_errors, mut latencies) = (0, 0, Vec::new());
    for h in heavy {
        let (d, e, l) = h.await.unwrap();
        heavy_done += d;
        heavy_errors += e;
        latencies.extend(l);
    }
    latencies.sort();
    probes.sort();
    Seen {
        heavy_done,
        heavy_errors,
        heavy_p50: latencies.get(latencies.len() / 2).copied().unwrap_or_default(),
        probes,
        probe_errors,
    }
}

fn pct(v: &[Duration], p: f64) -> Duration {
    v.get(((v.len() as f64 * p) as usize).min(v.len().saturating_sub(1))).copied().unwrap_or_default()
}

/// The CPU part of the service bench.
pub(super) async fn cpu_heavy(dir: &Path) {
    let tasks = 12_000;
    let large = synthetic::process(tasks);
    let element = format!("t{}", tasks / 2);
    let instant = model_double(None).await;
    let streaming = streaming_model(1_400).await;
    println!(
        "CPU-heavy requests ({HEAVY_CLIENTS} clients back to back) beside one client probing /healthz every 5 ms:"
    );
    println!(
        "| load | build | heavy requests done | heavy p50 ms | /healthz probes | p50 ms | p99 ms | max ms |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for load in loads(&large, &element) {
        for (build, bin) in builds() {
            let model = if load.events { &streaming } else { &instant };
            let server = start(&bin, model, dir, "");
            let seen = under_load(&server, &load).await;
            println!(
                "| {} | {build} | {}{} | {:.0} | {}{} | {:.2} | {:.2} | {:.2} |",
                load.name,
                seen.heavy_done,
                if seen.heavy_errors > 0 {
                    format!(" ({} errors)", seen.heavy_errors)
                } else {
                    String::new()
                },
                ms(seen.heavy_p50),
                seen.probes.len(),
                if seen.probe_errors > 0 {
                    format!(" ({} failed)", seen.probe_errors)
                } else {
                    String::new()
                },
                ms(pct(&seen.probes, 0.5)),
                ms(pct(&seen.probes, 0.99)),
                ms(seen.probes.last().copied().unwrap_or_default()),
            );
        }
    }
    small_inputs(dir, &instant).await;
    sigterm(dir, &instant, &large, &element).await;
}

/// One client outlining processes of growing size: what reading on the blocking pool costs a small
/// input, against reading it in place.
async fn small_inputs(dir: &Path, model: &str) {
    println!("\nOne client, outline of a process of N tasks, p50 of the requests of 3 s:");
    println!("| tasks | processXml KB | build | p50 ms |");
    println!("|---|---|---|---|");
    for tasks in [5, 20, 40, 80, 320] {
        let xml = synthetic::process(tasks);
        let body = json!({"processXml": xml, "elementId": "t1"}).to_string();
        for (build, bin) in builds() {
            let server = start(&bin, model, dir, "");
            let client = reqwest::Client::new();
            let url = format!("{}/api/formgen/outline", server.url);
            let mut latencies = Vec::new();
            let until = Instant::now() + Duration::from_secs(3);
            while Instant::now() < until {
                let t = Instant::now();
                let r = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await;
                if let Ok(r) = r {
                    let _ = r.bytes().await;
                    latencies.push(t.elapsed());
                }
            }
            latencies.sort();
            println!(
                "| {tasks} | {:.1} | {build} | {:.3} |",
                xml.len() as f64 / 1024.0,
                ms(pct(&latencies, 0.5))
            );
        }
    }
}

/// SIGTERM while CPU-heavy requests run: how long until the process is gone, against its grace.
async fn sigterm(dir: &Path, model: &str, large: &str, element: &str) {
    const GRACE_S: u64 = 2;
    println!("\nSIGTERM 1.5 s into a load of {HEAVY_CLIENTS} clients back to back (grace {GRACE_S} s):");
    let loads = [
        (
            format!("outline of a {} KB processXml", large.len() / 1024),
            json!({"processXml": large, "elementId": element}),
        ),
        (
            "outline of a condition naming 50,000 variables".to_string(),
            json!({"processXml": many_names(50_000), "elementId": "t"}),
        ),
    ];
    for (name, body) in loads {
        let body = body.to_string();
        for (build, bin) in builds() {
            let mut server = start(&bin, model, dir, &format!("shutdown_grace_s = {GRACE_S}"));
            let mut heavy = Vec::new();
            for _ in 0..HEAVY_CLIENTS {
                let (client, url, body) =
                    (reqwest::Client::new(), format!("{}/api/formgen/outline", server.url), body.clone());
                heavy.push(tokio::spawn(async move {
                    loop {
                        let sent =
                            client.post(&url).header("content-type", "application/json").body(body.clone());
                        if sent.send().await.is_err() {
                            return;
                        }
                    }
                }));
            }
            tokio::time::sleep(Duration::from_millis(1_500)).await;
            let stopping = Instant::now();
            let _ =
                std::process::Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status();
            let exited = wait_gone(&mut server.child, Duration::from_secs(60));
            println!(
                "{name}, {build}: exited {} after SIGTERM",
                match exited {
                    true => format!("{:.2} s", stopping.elapsed().as_secs_f64()),
                    false => "not within 60 s".into(),
                }
            );
            for h in heavy {
                h.abort();
            }
        }
    }
}

fn wait_gone(child: &mut Child, within: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if child.try_wait().ok().flatten().is_some() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}
