//! Service benchmark: `cargo bench --bench service`.
//!
//! The service's own overhead: `formgen serve` (this build, as a process) generates against the largest
//! corpus process (or a fixture without `../shared`) with a model double that answers instantly, at 1,
//! 16 and 256 concurrent clients: requests/s and p50/p99 latency, next to the same load on `/healthz`
//! measured in the same run. Then the cost of waiting: 5,000 concurrent generations held open by a model
//! that never answers — the server's resident memory, and `/healthz` p99 meanwhile — and the resident
//! memory once they are gone (whether the allocator gives the burst back).
//!
//! Then the latency formgen adds to generations whose model takes 1 s, at 1, 16 and 256 clients: over
//! every request, then without each client's first (all the clients start at once, so their first
//! requests queue behind each other for the CPU; later ones arrive spread out), and the slowest first.
//!
//! Then CPU-heavy requests beside `/healthz` (`service/cpu.rs`): large inline processes outlined and
//! generated from, a large form checked, a condition naming many variables, a model streaming a long
//! form; the cost of the blocking pool for small inputs; SIGTERM while large processes are read.
//!
//! `FORMGEN_BENCH_HTTP=1` or `=2` holds the generations over only one of the model doubles (HTTP/1.1,
//! or HTTPS with HTTP/2). `FORMGEN_BENCH=held` runs only the waiting part, `FORMGEN_BENCH=latency` only
//! the added latency, `FORMGEN_BENCH=throughput` only the first part, `FORMGEN_BENCH=cpu` only the
//! CPU-heavy requests; `FORMGEN_BENCH_BIN=PATH`
//! benchmarks another build of `formgen` (a baseline) instead of this one, and
//! `FORMGEN_BENCH_BASELINE=PATH` runs the CPU-heavy part on this build and on that one, in the same
//! run; `FORMGEN_BENCH_PROCESS=FILE.bpmn` uses that process instead of the largest of the corpus.

#[path = "../tests/common/tls_double.rs"]
mod tls_double;

#[path = "../tests/common/synthetic.rs"]
mod synthetic;

#[path = "service/cpu.rs"]
mod cpu;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use formgen::bpmn::ElementKind;
use serde_json::json;

const DURATION: Duration = Duration::from_secs(4);

/// A model double that answers every chat completion at once with a small valid form.
async fn instant_model() -> String {
    model_double(None).await
}

/// A model double that answers every chat completion after `delay`, as a real model takes its time.
async fn slow_model(delay: Duration) -> String {
    model_double(Some(delay)).await
}

/// A chat-completions double answering a small valid form, after `delay` when there is one.
async fn model_double(delay: Option<Duration>) -> String {
    let answer = json!({
        "choices": [{"message": {"role": "assistant", "content": json!({"components": [
            {"type": "checkbox", "key": "approved", "label": "Approved"},
            {"type": "textarea", "key": "comment", "label": "Comment"}
        ]}).to_string()}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1000, "completion_tokens": 40}
    });
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        axum::routing::post(move || {
            let answer = answer.clone();
            async move {
                if let Some(delay) = delay {
                    tokio::time::sleep(delay).await;
                }
                axum::Json(answer)
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

/// What formgen adds to a generation whose model takes 1 s, at 1, 16 and 256 concurrent clients:
/// each client's latency minus the model's second.
async fn added_latency(client: &reqwest::Client, body: &serde_json::Value, dir: &std::path::Path) {
    let delay = Duration::from_secs(1);
    let model = slow_model(delay).await;
    let server = serve(&model, dir);
    let generate = format!("{}/api/formgen/generate", server.url);
    let warm = load_for(client, &generate, Some(body), 4, Duration::from_secs(3)).await;
    assert_eq!(warm.errors, 0, "the generation fails");
    println!(
        "| clients | generations/s | added p50 ms | added p99 ms | without each client's first request: p50 / p99 ms | slowest first request ms |"
    );
    println!("|---|---|---|---|---|---|");
    for concurrency in [1, 16, 256] {
        let g = load_for(client, &generate, Some(body), concurrency, Duration::from_secs(6)).await;
        let added = |d: Duration| ms(d.saturating_sub(delay));
        println!(
            "| {concurrency} | {:.0} | {:.2} | {:.2} | {:.2} / {:.2} | {:.2} |{}",
            g.rps,
            added(g.p50),
            added(g.p99),
            added(g.steady.0),
            added(g.steady.1),
            added(g.first_max),
            if g.errors > 0 { format!(" ({} errors)", g.errors) } else { String::new() }
        );
    }
}

/// A model double that accepts connections and never answers.
async fn silent_model() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::Relaxed);
            held.push(socket);
        }
    });
    (url, accepted)
}

/// A model double over HTTPS that speaks HTTP/2 to a client that offers it (chosen by ALPN, as hosted
/// providers do) and HTTP/1.1 to one that does not, reads every request whole and never answers. Its
/// certificate is self-signed for `localhost`; the PEM file it returns is the trust the server under
/// test is given (`SSL_CERT_FILE`).
async fn silent_model_h2(dir: &std::path::Path) -> (String, Arc<AtomicUsize>, std::path::PathBuf) {
    let requests = Arc::new(AtomicUsize::new(0));
    let count = requests.clone();
    let (port, pem) = tls_double::serve(dir, move |request| {
        let count = count.clone();
        async move {
            // the whole request read, as a provider does before it starts to think
            let _ = http_body_util::BodyExt::collect(request.into_body()).await;
            count.fetch_add(1, Ordering::Relaxed);
            std::future::pending().await
        }
    })
    .await;
    (format!("https://localhost:{port}"), requests, pem)
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

fn serve(model_url: &str, dir: &std::path::Path) -> Server {
    serve_trusting(model_url, dir, None)
}

/// [`serve`], trusting only the certificates in `trust` (a PEM file) when there is one.
fn serve_trusting(model_url: &str, dir: &std::path::Path, trust: Option<&std::path::Path>) -> Server {
    let config = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\n[limits]\nconcurrent_generations = 20000\nconcurrent_per_worker = 20000\nmodel_timeout_s = 600\nrequest_body_bytes = 20000000\nbpmn_bytes = 10000000\nmax_connections = 20000\n[[workers]]\nname = \"double\"\nprovider = \"chat-completions\"\nendpoint = \"{model_url}/v1\"\nmodel = \"m\"\n"
    );
    let path = dir.join(format!("bench-{}.toml", model_url.rsplit(':').next().unwrap()));
    std::fs::write(&path, config).unwrap();
    let bin =
        std::env::var("FORMGEN_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_formgen").to_string());
    spawn(&bin, &path, trust)
}

/// `bin serve --config config`, trusting only `trust` (a PEM file) when there is one.
fn spawn(bin: &str, config: &std::path::Path, trust: Option<&std::path::Path>) -> Server {
    let mut command = Command::new(bin);
    // every client of the bench connects from one address: give it every connection (a build that
    // has no such limit ignores the variable)
    command.env("FORMGEN_LIMIT_CONNECTIONS_PER_PEER", "20000");
    if let Some(pem) = trust {
        command.env("SSL_CERT_FILE", pem).env_remove("SSL_CERT_DIR");
    }
    let mut child = command
        .args(["serve", "--config", config.to_str().unwrap()])
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

fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

struct Figures {
    rps: f64,
    p50: Duration,
    p99: Duration,
    errors: usize,
    /// p50 and p99 of every request but each client's first: the load once the clients that
    /// arrived together have spread out.
    steady: (Duration, Duration),
    /// The slowest of the clients' first requests: all of them arrive at once.
    first_max: Duration,
}

/// `concurrency` clients, each sending requests back to back for [`DURATION`].
async fn load(
    client: &reqwest::Client,
    url: &str,
    body: Option<&serde_json::Value>,
    concurrency: usize,
) -> Figures {
    load_for(client, url, body, concurrency, DURATION).await
}

/// [`load`] for `duration`.
async fn load_for(
    client: &reqwest::Client,
    url: &str,
    body: Option<&serde_json::Value>,
    concurrency: usize,
    duration: Duration,
) -> Figures {
    let deadline = Instant::now() + duration;
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (client, url, body) = (client.clone(), url.to_string(), body.cloned());
        tasks.push(tokio::spawn(async move {
            let (mut latencies, mut errors) = (Vec::new(), 0);
            while Instant::now() < deadline {
                let started = Instant::now();
                let request = match &body {
                    Some(b) => client.post(&url).json(b),
                    None => client.get(&url),
                };
                match request.send().await {
                    Ok(r) if r.status().is_success() => {
                        let _ = r.bytes().await;
                        latencies.push(started.elapsed());
                    }
                    _ => errors += 1,
                }
            }
            (latencies, errors)
        }));
    }
    let (mut all, mut rest, mut first_max, mut errors) = (Vec::new(), Vec::new(), Duration::ZERO, 0);
    for t in tasks {
        let (l, e) = t.await.unwrap();
        if let Some((first, others)) = l.split_first() {
            first_max = first_max.max(*first);
            rest.extend_from_slice(others);
        }
        all.extend(l);
        errors += e;
    }
    all.sort();
    rest.sort();
    let pct = |v: &[Duration], p: f64| {
        v.get(((v.len() as f64 * p) as usize).min(v.len().saturating_sub(1))).copied().unwrap_or_default()
    };
    Figures {
        rps: all.len() as f64 / duration.as_secs_f64(),
        p50: pct(&all, 0.50),
        p99: pct(&all, 0.99),
        errors,
        steady: (pct(&rest, 0.50), pct(&rest, 0.99)),
        first_max,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn largest_process() -> (String, String, String) {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bpmn");
    let mut best: Option<(usize, std::path::PathBuf)> =
        std::env::var_os("FORMGEN_BENCH_PROCESS").map(|p| (0, std::path::PathBuf::from(p)));
    if best.is_some() {
        // the process asked for
    } else if let Ok(entries) = std::fs::read_dir(&corpus) {
        for e in entries.flatten() {
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            let defs = formgen::bpmn::read(&bytes);
            let n = defs.processes.iter().map(|p| p.elements.len()).max().unwrap_or(0);
            if best.as_ref().is_none_or(|(m, _)| n > *m) {
                best = Some((n, e.path()));
            }
        }
    }
    let path = best.map(|(_, p)| p).unwrap_or_else(|| {
        println!("(../shared not found: using the vacation fixture instead of the largest corpus process)");
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bpmn/vacation.bpmn")
    });
    let bytes = std::fs::read(&path).unwrap();
    let defs = formgen::bpmn::read(&bytes);
    let p = defs.processes.iter().max_by_key(|p| p.elements.len()).unwrap();
    let element = p
        .elements
        .iter()
        .find(|e| e.kind == ElementKind::UserTask)
        .or(p.elements.first())
        .map(|e| e.id.clone())
        .unwrap_or_default();
    println!(
        "process: {} ({} elements, {} KB), element {element}",
        path.file_name().unwrap().to_string_lossy(),
        p.elements.len(),
        bytes.len() / 1024
    );
    (formgen::bpmn::decode_text(&bytes).into_owned(), p.id.clone(), element.to_string())
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let (xml, process_id, element) = largest_process();
        let body = json!({"description": "Approve or reject", "processXml": xml, "processId": process_id, "elementId": element});
        let client = reqwest::Client::builder().pool_max_idle_per_host(512).build().unwrap();
        match std::env::var("FORMGEN_BENCH").as_deref() {
            Ok("held") => held(&client, &xml, &element, dir.path()).await,
            Ok("latency") => added_latency(&client, &body, dir.path()).await,
            Ok("cpu") => cpu::cpu_heavy(dir.path()).await,
            Ok("throughput") => throughput(&client, &body, dir.path()).await,
            _ => {
                throughput(&client, &body, dir.path()).await;
                added_latency(&client, &body, dir.path()).await;
                held(&client, &xml, &element, dir.path()).await;
                cpu::cpu_heavy(dir.path()).await;
            }
        }
    });
}

/// Generations and `/healthz` at 1, 16 and 256 clients against a model that answers at once.
async fn throughput(client: &reqwest::Client, body: &serde_json::Value, dir: &std::path::Path) {
    {
        let model = instant_model().await;
        let server = serve(&model, dir);
        let generate = format!("{}/api/formgen/generate", server.url);
        let healthz = format!("{}/healthz", server.url);
        let warm = load(client, &generate, Some(body), 4).await;
        assert_eq!(warm.errors, 0, "the generation fails");
        println!(
            "| clients | generate req/s | p50 ms | p99 ms | /healthz req/s | p50 ms | p99 ms | generate/healthz throughput |"
        );
        println!("|---|---|---|---|---|---|---|---|");
        for concurrency in [1, 16, 256] {
            let g = load(client, &generate, Some(body), concurrency).await;
            let h = load(client, &healthz, None, concurrency).await;
            println!(
                "| {concurrency} | {:.0} | {:.2} | {:.2} | {:.0} | {:.2} | {:.2} | {:.3} |{}",
                g.rps,
                ms(g.p50),
                ms(g.p99),
                h.rps,
                ms(h.p50),
                ms(h.p99),
                g.rps / h.rps,
                if g.errors + h.errors > 0 {
                    format!(" ({} errors)", g.errors + h.errors)
                } else {
                    String::new()
                }
            );
        }
        drop(server);
    }
}

/// The cost of waiting: 5,000 generations held open by a model that never answers, then let go; once
/// over plain HTTP/1.1 (a model on the operator's own network, as llama.cpp or vLLM serve), once over
/// HTTPS with HTTP/2 (the hosted providers).
async fn held(client: &reqwest::Client, xml: &str, element: &str, dir: &std::path::Path) {
    let only = std::env::var("FORMGEN_BENCH_HTTP").unwrap_or_default();
    if only != "2" {
        let (silent, accepted) = silent_model().await;
        println!("model double over HTTP/1.1:");
        held_by(client, xml, element, serve(&silent, dir), accepted).await;
    }
    if only != "1" {
        let (silent, accepted, pem) = silent_model_h2(dir).await;
        println!("model double over HTTPS (HTTP/2 when the client offers it):");
        held_by(client, xml, element, serve_trusting(&silent, dir, Some(&pem)), accepted).await;
    }
}

/// 5,000 generations held by `server`, whose model counts what it took in `accepted`.
async fn held_by(
    client: &reqwest::Client,
    xml: &str,
    element: &str,
    server: Server,
    accepted: Arc<AtomicUsize>,
) {
    {
        let baseline_rss = rss_mb(server.child.id());
        let healthz = format!("{}/healthz", server.url);
        let generate = format!("{}/api/formgen/generate", server.url);
        let idle = load(client, &healthz, None, 4).await;
        assert_eq!(idle.errors, 0, "healthz fails on the second server");
        let held = 5_000;
        let small = json!({"description": "A form", "processXml": xml, "elementId": element});
        let mut pending = Vec::with_capacity(held);
        for i in 0..held {
            // a connection each, as browsers waiting on a generation have
            let c = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
            let (url, body) = (generate.clone(), small.clone());
            pending.push(tokio::spawn(async move { c.post(url).json(&body).send().await }));
            if i % 250 == 249 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        let started = Instant::now();
        while accepted.load(Ordering::Relaxed) < held && started.elapsed() < Duration::from_secs(60) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let waiting = accepted.load(Ordering::Relaxed);
        let rss = rss_mb(server.child.id());
        let busy = load(client, &healthz, None, 4).await;
        println!(
            "waiting: {waiting} generations held open by a model that never answers; server RSS {rss:.1} MB \
             ({baseline_rss:.1} MB idle, {:.1} KB per waiting generation); /healthz p99 {:.2} ms ({:.2} ms idle, {:.1}x), \
             {:.0} req/s ({:.0} idle)",
            (rss - baseline_rss) * 1024.0 / waiting.max(1) as f64,
            ms(busy.p99),
            ms(idle.p99),
            busy.p99.as_secs_f64() / idle.p99.as_secs_f64().max(1e-9),
            busy.rps,
            idle.rps
        );
        for p in pending {
            p.abort();
        }
        // the browsers leave: the server drops their generations; what it keeps resident after
        tokio::time::sleep(Duration::from_secs(3)).await;
        let after = rss_mb(server.child.id());
        println!(
            "released: server RSS {after:.1} MB 3 s after the {waiting} waiting generations left ({:.2}x idle)",
            after / baseline_rss.max(0.1)
        );
        drop(server);
    }
}
