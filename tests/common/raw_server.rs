//! A hand-rolled HTTP peer for what wiremock cannot do: stream an endless body, never answer, and
//! record when the client closes the connection.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the peer does after reading a request.
#[derive(Clone, Copy)]
pub enum Behaviour {
    /// Answers 200 with a chunked body that never ends.
    EndlessBody,
    /// Reads the request and never answers.
    Silent,
    /// Answers 200 `text/event-stream` with one chat-completions chunk holding a whole component,
    /// then writes nothing more until the client goes away.
    StreamThenStall,
    /// Answers 200 `text/event-stream` and writes a chat-completions chunk of one space every 50 ms
    /// until the client goes away: a model that streams forever.
    StreamForever,
}

/// A running peer.
pub struct RawServer {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    /// Connections accepted.
    pub accepted: Arc<AtomicUsize>,
    /// Connections the client closed (read returned 0 or a write failed).
    pub closed: Arc<AtomicUsize>,
    /// Body bytes written before the client went away.
    pub bytes_sent: Arc<AtomicUsize>,
}

impl RawServer {
    /// Starts a peer on a free loopback port.
    pub async fn start(behaviour: Behaviour) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let accepted = Arc::new(AtomicUsize::new(0));
        let closed = Arc::new(AtomicUsize::new(0));
        let bytes_sent = Arc::new(AtomicUsize::new(0));
        let (a, c, b) = (accepted.clone(), closed.clone(), bytes_sent.clone());
        tokio::spawn(async move {
            loop {
                let Ok((socket, _)) = listener.accept().await else {
                    return;
                };
                a.fetch_add(1, Ordering::SeqCst);
                let (c, b) = (c.clone(), b.clone());
                tokio::spawn(answer(socket, behaviour, c, b));
            }
        });
        RawServer { url, accepted, closed, bytes_sent }
    }
}

/// One connection: the request head read, then the behaviour.
async fn answer(
    mut socket: tokio::net::TcpStream,
    behaviour: Behaviour,
    c: Arc<AtomicUsize>,
    b: Arc<AtomicUsize>,
) {
    // read the request head (and whatever body came with it)
    let mut buf = vec![0u8; 64 * 1024];
    let mut seen = Vec::new();
    loop {
        match socket.read(&mut buf).await {
            Ok(0) | Err(_) => {
                c.fetch_add(1, Ordering::SeqCst);
                return;
            }
            Ok(n) => {
                seen.extend_from_slice(&buf[..n]);
                if seen.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
            }
        }
    }
    match behaviour {
        Behaviour::EndlessBody => {
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
            if socket.write_all(head.as_bytes()).await.is_err() {
                c.fetch_add(1, Ordering::SeqCst);
                return;
            }
            let chunk = format!("{:x}\r\n{}\r\n", 16 * 1024, "x".repeat(16 * 1024));
            loop {
                if socket.write_all(chunk.as_bytes()).await.is_err() {
                    c.fetch_add(1, Ordering::SeqCst);
                    return;
                }
                b.fetch_add(16 * 1024, Ordering::SeqCst);
            }
        }
        Behaviour::StreamThenStall => {
            let piece = serde_json::json!({"choices": [{"delta": {"content": "{\"components\": [{\"type\": \"textfield\", \"key\": \"a\", \"label\": \"A\"},"}}]});
            let event = format!("data: {piece}\n\n");
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{event}\r\n",
                event.len()
            );
            if socket.write_all(head.as_bytes()).await.is_err() {
                c.fetch_add(1, Ordering::SeqCst);
                return;
            }
            until_closed(&mut socket, &mut buf, &c).await;
        }
        Behaviour::StreamForever => {
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
            let piece = serde_json::json!({"choices": [{"delta": {"content": " "}}]});
            let event = format!("data: {piece}\n\n");
            let chunk = format!("{:x}\r\n{event}\r\n", event.len());
            if socket.write_all(head.as_bytes()).await.is_err() {
                c.fetch_add(1, Ordering::SeqCst);
                return;
            }
            loop {
                if socket.write_all(chunk.as_bytes()).await.is_err() {
                    c.fetch_add(1, Ordering::SeqCst);
                    return;
                }
                b.fetch_add(chunk.len(), Ordering::SeqCst);
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        }
        Behaviour::Silent => {
            // wait for the client to give up
            until_closed(&mut socket, &mut buf, &c).await;
        }
    }
}

/// Reads until the client goes away, then counts it closed.
async fn until_closed(socket: &mut tokio::net::TcpStream, buf: &mut [u8], closed: &AtomicUsize) {
    while let Ok(n) = socket.read(buf).await
        && n > 0
    {}
    closed.fetch_add(1, Ordering::SeqCst);
}
