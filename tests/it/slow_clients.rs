//! Slow and many clients cost nothing, on real sockets: a head sent a byte a second is cut at the
//! header read time, a body that stops at the body read time, an idle kept-alive connection at the
//! idle time; connections over the cap are closed as they arrive while `/healthz` stays fast; shutdown
//! closes idle connections at once; and a CPU-bound request does not hold `formgen serve` past its
//! grace period.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use formgen::config::Config;
use formgen::http::Connections;
use formgen::service::Service;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::served::{spawn_serve, terminate, wait_exit};

fn config(toml: &str) -> Config {
    Config::parse(toml, "test", Path::new("."), false, &|_| None).unwrap_or_else(|e| panic!("{e}"))
}

/// Serves `config` in-process with its connection limits; `stop` ends it; the handle is `run`'s.
async fn serve(
    config: &Config,
    grace: Duration,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let service = Arc::new(Service::new(config).unwrap());
    let app = formgen::http::router(service, config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let shutdown = async move {
        let _ = stopped.await;
    };
    let bounds = Connections::from(&config.limits);
    let handle = tokio::spawn(async move {
        formgen::http::run_with(listener, app, shutdown, grace, bounds).await.unwrap();
    });
    (addr, stop, handle)
}

/// Reads until the peer closes; returns what was read (an error counts as closed).
async fn read_to_close(socket: &mut TcpStream, within: Duration) -> Option<String> {
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    let read = async {
        loop {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => all.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(within, read).await.ok()?;
    Some(String::from_utf8_lossy(&all).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_head_sent_a_byte_a_second_is_cut_at_the_header_read_time() {
    let (addr, _stop, _) =
        serve(&config("[limits]\nheader_read_timeout_s = 2\nidle_timeout_s = 30\n"), Duration::from_secs(1))
            .await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    let started = Instant::now();
    let head = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let mut closed_after = None;
    for byte in head {
        if socket.write_all(&[*byte]).await.is_err() {
            closed_after = Some(started.elapsed());
            break;
        }
        let mut probe = [0u8; 1];
        match tokio::time::timeout(Duration::from_secs(1), socket.read(&mut probe)).await {
            Ok(Ok(0) | Err(_)) => {
                closed_after = Some(started.elapsed());
                break;
            }
            Ok(Ok(_)) => panic!("the server answered a head that never ended"),
            Err(_) => {}
        }
    }
    let after = closed_after.expect("the slow head was still open after 38 s");
    eprintln!("FIGURE slow head closed after {:.2} s (header_read_timeout_s = 2)", after.as_secs_f64());
    assert!(after >= Duration::from_millis(1_900) && after < Duration::from_millis(3_500), "{after:?}");
}

/// A head of `header_bytes` in one `X-Pad` header, sent to `/healthz`: the answer's first line.
async fn status_of_a_head_of(addr: SocketAddr, header_bytes: usize) -> String {
    let mut socket = TcpStream::connect(addr).await.unwrap();
    let head =
        format!("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Pad: {}\r\n\r\n", "a".repeat(header_bytes));
    socket.write_all(head.as_bytes()).await.unwrap();
    let mut buf = [0u8; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), socket.read(&mut buf)).await.unwrap().unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).lines().next().unwrap_or_default().to_string()
}

/// A connection's read buffer stays at 8 KiB while its generation waits on a model: a head up to
/// that is served, a larger one answered 431.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_heads_up_to_8_kib_are_served_and_larger_ones_refused_with_431() {
    let (addr, _stop, _) = serve(&config(""), Duration::from_secs(1)).await;
    assert_eq!(status_of_a_head_of(addr, 7 * 1024).await, "HTTP/1.1 200 OK");
    assert!(status_of_a_head_of(addr, 9 * 1024).await.starts_with("HTTP/1.1 431"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_stops_is_cut_at_the_body_read_time() {
    let (addr, _stop, _) =
        serve(&config("[limits]\nbody_read_timeout_s = 1\n"), Duration::from_secs(1)).await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(b"POST /api/formgen/outline HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"processId\":")
        .await
        .unwrap();
    let started = Instant::now();
    let answer =
        read_to_close(&mut socket, Duration::from_secs(5)).await.expect("the connection stayed open");
    let after = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("\"code\":\"body_timeout\"") && answer.contains("FORMGEN_LIMIT_BODY_READ_TIMEOUT_S")
    );
    assert!(after >= Duration::from_millis(900) && after < Duration::from_millis(2_500), "{after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_kept_alive_connection_is_closed_at_the_idle_time() {
    let (addr, _stop, _) =
        serve(&config("[limits]\nidle_timeout_s = 1\nheader_read_timeout_s = 10\n"), Duration::from_secs(1))
            .await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
    let mut buf = [0u8; 1024];
    let n = socket.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let answered = Instant::now();
    read_to_close(&mut socket, Duration::from_secs(5)).await.expect("the idle connection stayed open");
    let after = answered.elapsed();
    assert!(after >= Duration::from_millis(900) && after < Duration::from_millis(2_500), "{after:?}");
}

/// `GET /healthz` on a kept-alive connection, read to the end of its answer.
async fn probe(socket: &mut TcpStream) {
    socket.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while !seen.ends_with(b"\r\n\r\nok\n") {
        let n = socket.read(&mut buf).await.unwrap();
        assert!(n > 0, "the prober's connection was closed");
        seen.extend_from_slice(&buf[..n]);
    }
    assert!(seen.starts_with(b"HTTP/1.1 200"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_cap_are_refused_while_healthz_stays_fast() {
    const CAP: usize = 64;
    const BEYOND: usize = 500;
    let cfg = config(&format!(
        "[limits]\nmax_connections = {CAP}\nheader_read_timeout_s = 60\nidle_timeout_s = 60\n"
    ));
    let (addr, _stop, _) = serve(&cfg, Duration::from_secs(1)).await;
    // the prober's one kept-alive connection is one of the cap (a pooling client could open a second
    // one between two probes, which the cap would rightly refuse)
    let mut prober = TcpStream::connect(addr).await.unwrap();
    probe(&mut prober).await;
    let mut held = Vec::new();
    for _ in 0..CAP - 1 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Part").await.unwrap();
        held.push(s);
    }
    // no wait: the listener accepts connections in the order they arrived and takes a slot as it
    // accepts one, so every held connection has its slot before the first one beyond the cap
    let mut refused = 0;
    for _ in 0..BEYOND {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let _ = s.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Part").await;
        if read_to_close(&mut s, Duration::from_secs(2)).await.is_some_and(|a| a.is_empty()) {
            refused += 1;
        }
    }
    let mut latencies = Vec::new();
    for _ in 0..1000 {
        let started = Instant::now();
        probe(&mut prober).await;
        latencies.push(started.elapsed());
    }
    latencies.sort();
    let p99 = latencies[latencies.len() * 99 / 100];
    eprintln!(
        "FIGURE {refused} of {BEYOND} partial heads beyond the cap of {CAP} refused; /healthz p50 {:?} p99 {p99:?}",
        latencies[latencies.len() / 2]
    );
    assert_eq!(refused, BEYOND, "every connection beyond the cap is closed as it arrives");
    assert!(p99 < Duration::from_millis(10), "p99 {p99:?}");
    // the held heads are still open: the cap refused, it did not evict
    for s in &mut held {
        let mut probe = [0u8; 1];
        assert!(tokio::time::timeout(Duration::from_millis(5), s.read(&mut probe)).await.is_err());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_idle_connections_and_half_sent_heads_at_once() {
    let cfg = config("[limits]\nheader_read_timeout_s = 60\nidle_timeout_s = 60\n");
    let (addr, stop, handle) = serve(&cfg, Duration::from_secs(10)).await;
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
    let mut buf = [0u8; 1024];
    assert!(idle.read(&mut buf).await.unwrap() > 0);
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHo").await.unwrap();
    // connections are accepted in the order they arrived: one connected after `half` and answered
    // shows that the server holds `half` open too
    let mut marker = TcpStream::connect(addr).await.unwrap();
    marker.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").await.unwrap();
    let answer = read_to_close(&mut marker, crate::common::wait::DEADLINE).await;
    assert!(
        answer.is_some_and(|a| a.starts_with("HTTP/1.1 200")),
        "the server answered no connection after the half-sent head"
    );
    let stopping = Instant::now();
    stop.send(()).unwrap();
    read_to_close(&mut idle, Duration::from_secs(2)).await.expect("the idle connection was kept open");
    read_to_close(&mut half, Duration::from_secs(2)).await.expect("the half-sent head was kept open");
    tokio::time::timeout(Duration::from_secs(2), handle)
        .await
        .expect("run waited for idle connections")
        .unwrap();
    let after = stopping.elapsed();
    assert!(after < Duration::from_millis(500), "shutdown took {after:?} with nothing in flight");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_wait_for_room_in_the_budget_of_bytes_in_flight() {
    // a body being read holds its room; a generation waiting on a model (one that never answers)
    // has given its room back: its request was read
    let model =
        crate::common::raw_server::RawServer::start(crate::common::raw_server::Behaviour::Silent).await;
    let cfg = config(&format!(
        "[limits]\nrequest_body_bytes = 1000\nbodies_in_flight_bytes = 1000\nbody_read_timeout_s = 1\n[[workers]]\nname = \"m\"\nprovider = \"chat-completions\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        model.url
    ));
    let (addr, _stop, _) = serve(&cfg, Duration::from_secs(1)).await;
    let padded = |n: usize| json!({"description": "x".repeat(n)}).to_string();
    let post = |body: &str, sent: usize| {
        format!(
            "POST /api/formgen/generate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
            body.len(),
            &body[..sent]
        )
    };
    let client = reqwest::Client::new();
    let outline = |body: String| {
        client
            .post(format!("http://{addr}/api/formgen/outline"))
            .header("content-type", "application/json")
            .body(body)
            .send()
    };
    let large = || json!({"processId": "x", "elementId": "e".repeat(200)}).to_string();

    // a generation that waits on the model: its 880 bytes are free again
    let waiting_body = padded(880);
    let mut waiting = TcpStream::connect(addr).await.unwrap();
    waiting.write_all(post(&waiting_body, waiting_body.len()).as_bytes()).await.unwrap();
    let started = Instant::now();
    while model.accepted.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(started.elapsed() < Duration::from_secs(5), "the generation did not start");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let r = outline(large()).await.unwrap();
    assert_eq!(r.status(), 404, "read beside a generation that waits: there is no process x");

    // a body still arriving holds room for what it sent, not for what it declares: a large body fits
    // beside one that declared 880 bytes and sent 100
    let reading_body = padded(880);
    let mut reading = TcpStream::connect(addr).await.unwrap();
    reading.write_all(post(&reading_body, 100).as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let r = outline(large()).await.unwrap();
    assert_eq!(r.status(), 404, "read and answered beside it: there is no process x");
    drop(reading);

    // bytes that arrived hold their room until their body is read or its read time is up: a large
    // body that comes meanwhile waits for that room (bodies are read in turn)
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled.write_all(post(&reading_body, 800).as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    // a small body fits beside it at once
    let r = outline(json!({"processId": "x"}).to_string()).await.unwrap();
    assert_eq!(r.status(), 404, "read and answered: there is no process x");
    let r = outline(large()).await.unwrap();
    assert_eq!(r.status(), 404, "read once the stalled body's room came back");
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(2), stalled.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "the stalled body ran out of time: {answer}");
    drop(waiting);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_with_a_cpu_bound_request_exits_within_the_grace_period() {
    const GRACE_S: u64 = 2;
    const FIELDS: usize = 150_000;
    let dir = tempfile::tempdir().unwrap();
    // limits raised so that a form the gate spends seconds on fits (the gate is linear, so it takes
    // many fields): CPU work, not waiting. Should the gate become faster still, the last assertion
    // says so: raise the count.
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\nshutdown_grace_s = {GRACE_S}\n[limits]\nschema_bytes = 200000000\nrequest_body_bytes = 200000000\nbodies_in_flight_bytes = 400000000\nbody_read_timeout_s = 60\n"
    );
    let mut served = spawn_serve(&toml, dir.path());
    let components: Vec<_> = (0..FIELDS)
        .map(|i| json!({"type": "textfield", "key": format!("field{i}"), "label": format!("Field {i}")}))
        .collect();
    let url = format!("{}/api/formgen/validate", served.url);
    let body = json!({"schema": {"components": components}}).to_string();
    let _pending = tokio::spawn(async move {
        reqwest::Client::new().post(url).header("content-type", "application/json").body(body).send().await
    });
    // the body is being parsed or gated: the server is at CPU-bound work
    let idle = served.cpu_time();
    crate::common::wait::until("formgen serve to be at CPU-bound work on the request", || {
        served.cpu_time() >= idle + Duration::from_millis(500)
    })
    .await;
    assert!(served.child.try_wait().unwrap().is_none());
    let stopping = Instant::now();
    terminate(&served.child);
    wait_exit(&mut served.child, Duration::from_secs(GRACE_S + 5));
    let after = stopping.elapsed();
    eprintln!(
        "FIGURE SIGTERM with a CPU-bound request in flight: exited after {:.2} s (grace {GRACE_S} s)",
        after.as_secs_f64()
    );
    assert!(after < Duration::from_secs(GRACE_S + 1), "exit took {after:?}");
    let logs = served.stderr.lock().unwrap().clone();
    assert!(logs.contains("did not finish within the grace period"), "the request was still running: {logs}");
}

/// A connection from `local` (any loopback address) to `addr`.
async fn connect_from(local: &str, addr: SocketAddr) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{local}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_never_read_their_answers_lose_their_connections_at_the_write_time() {
    const CAP: usize = 4;
    let cfg = config(&format!(
        "[limits]\nmax_connections = {CAP}\nwrite_timeout_s = 1\nheader_read_timeout_s = 60\nidle_timeout_s = 60\n"
    ));
    let (addr, _stop, _) = serve(&cfg, Duration::from_secs(1)).await;
    // every slot taken by a client that pipelines requests for a 20 KB answer and reads none of them
    // (a small receive window, so the answers back up into the server)
    let pipelined = "GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n".repeat(600);
    let mut writers = Vec::new();
    for _ in 0..CAP {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(addr).await.unwrap();
        let requests = pipelined.clone();
        writers.push(tokio::spawn(async move {
            let _ = stream.write_all(requests.as_bytes()).await;
            // hold the connection, never reading
            tokio::time::sleep(Duration::from_secs(60)).await;
            drop(stream);
        }));
    }
    // every writer connected before the first probe, so each had its slot first (connections are
    // accepted in the order they arrived); the slots come back once the server gives up writing to them
    let started = Instant::now();
    loop {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let _ = s.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").await;
        match read_to_close(&mut s, Duration::from_secs(2)).await {
            Some(answer) if answer.starts_with("HTTP/1.1 200") => break,
            _ => {}
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the non-reading clients still hold every connection slot"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for w in writers {
        w.abort();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_peer_gets_its_share_of_the_connections_and_no_more() {
    let cfg = config(
        "[limits]\nmax_connections = 8\nconnections_per_peer = 2\nheader_read_timeout_s = 60\nidle_timeout_s = 60\n",
    );
    let (addr, _stop, _) = serve(&cfg, Duration::from_secs(1)).await;
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = connect_from("127.0.0.1", addr).await;
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Part").await.unwrap();
        held.push(s);
    }
    // no wait: connections are accepted in the order they arrived, the two held ones first
    // a third from the same address is closed as it arrives
    let mut third = connect_from("127.0.0.1", addr).await;
    let _ = third.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
    let answer = read_to_close(&mut third, Duration::from_secs(5)).await.expect("the third stayed open");
    assert_eq!(answer, "", "refused without an answer");
    // another peer is served
    let mut other = connect_from("127.0.0.2", addr).await;
    other.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").await.unwrap();
    let answer = read_to_close(&mut other, Duration::from_secs(5)).await.expect("the other peer's answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // and once one of the first peer's connections closes, it may open another
    drop(held.pop());
    let started = Instant::now();
    loop {
        let mut again = connect_from("127.0.0.1", addr).await;
        let _ =
            again.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").await;
        if read_to_close(&mut again, Duration::from_secs(2))
            .await
            .is_some_and(|a| a.starts_with("HTTP/1.1 200"))
        {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the closed connection's share was not given back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_that_declare_much_and_send_a_byte_at_a_time_starve_no_one() {
    // the whole budget declared by slow bodies: each holds room for the bytes it sent, so a
    // legitimate body is read at once rather than after their read time
    let cfg = config(
        "[limits]\nrequest_body_bytes = 1000\nbodies_in_flight_bytes = 1000\nbody_read_timeout_s = 30\n",
    );
    let (addr, _stop, _) = serve(&cfg, Duration::from_secs(1)).await;
    let mut slow = Vec::new();
    for _ in 0..6 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(b"POST /api/formgen/outline HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{").await.unwrap();
        slow.push(s);
    }
    let trickle = tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_millis(200)).await;
            for s in &mut slow {
                let _ = s.write_all(b" ").await;
            }
        }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let answered = tokio::time::timeout(
            Duration::from_secs(10),
            client
                .post(format!("http://{addr}/api/formgen/outline"))
                .header("content-type", "application/json")
                .body(json!({"processId": "x", "elementId": "e".repeat(200)}).to_string())
                .send(),
        )
        .await
        .expect("a legitimate body waited for the room the slow bodies declared")
        .unwrap();
        assert_eq!(answered.status(), 404, "read and answered: there is no process x");
    }
    trickle.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_that_would_all_wait_for_room_are_not_left_to_wait() {
    // two bodies that each got half the budget and need more: neither could ever get room, so one
    // reads on beyond the budget, finishes, and gives its room to the other, instead of both waiting
    // out their read time
    let cfg = config(
        "[limits]\nrequest_body_bytes = 1000\nbodies_in_flight_bytes = 1000\nbody_read_timeout_s = 30\n",
    );
    let (addr, _stop, _) = serve(&cfg, Duration::from_secs(1)).await;
    let body = json!({"processId": "x", "processXml": " ".repeat(900)}).to_string();
    let head = format!(
        "POST /api/formgen/outline HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        s.write_all(format!("{head}{}", &body[..500]).as_bytes()).await.unwrap();
        sockets.push(s);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for s in &mut sockets {
        s.write_all(&body.as_bytes()[500..]).await.unwrap();
    }
    for mut s in sockets {
        let answer =
            read_to_close(&mut s, Duration::from_secs(10)).await.expect("a body waited out its read time");
        assert!(answer.starts_with("HTTP/1.1 404"), "read and answered: there is no process x: {answer}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_and_sigterm_exits_while_large_processes_are_read() {
    const GRACE_S: u64 = 1;
    let dir = tempfile::tempdir().unwrap();
    let toml = format!(
        "[server]\nlisten = \"127.0.0.1:0\"\nshutdown_grace_s = {GRACE_S}\n[limits]\nbpmn_bytes = 40000000\nrequest_body_bytes = 40000000\nbodies_in_flight_bytes = 400000000\nbody_read_timeout_s = 60\nprocess_seconds = 60\n"
    );
    let mut served = spawn_serve(&toml, dir.path());
    // as many large processes in flight as the server has threads, and one more: CPU work that
    // takes seconds each (a few hundred milliseconds in a release build)
    let xml = crate::common::synthetic::process(12_000);
    let body = json!({"processXml": xml, "elementId": "t6000"}).to_string();
    eprintln!("large process: {} KB", xml.len() / 1024);
    let client = reqwest::Client::new();
    let outline = format!("{}/api/formgen/outline", served.url);
    let heavy: Vec<_> = (0..3)
        .map(|_| {
            let request = client.post(&outline).header("content-type", "application/json").body(body.clone());
            tokio::spawn(request.send())
        })
        .collect();
    let idle = served.cpu_time();
    crate::common::wait::until("formgen serve to be at work reading the large processes", || {
        served.cpu_time() >= idle + Duration::from_millis(300)
    })
    .await;
    let probe = reqwest::Client::builder().timeout(Duration::from_secs(2)).build().unwrap();
    for _ in 0..5 {
        let answered = probe.get(format!("{}/healthz", served.url)).send().await;
        assert!(
            answered.is_ok_and(|r| r.status() == 200),
            "/healthz did not answer while processes were read"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(heavy.iter().any(|h| !h.is_finished()), "the large processes were read before the probes ended");
    terminate(&served.child);
    // exits within the grace, the CPU work still running (a generous deadline to poll)
    wait_exit(&mut served.child, Duration::from_secs(GRACE_S + 1));
    for h in heavy {
        if let Ok(Ok(r)) = h.await {
            assert!(r.status() == 200 || r.status() == 503, "{}", r.status());
        }
    }
}
