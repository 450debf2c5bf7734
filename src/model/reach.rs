//! Why a model endpoint could not be reached, in words an operator can act on: the Worker's host and
//! port and the cause (connection refused, DNS, TLS, timeout), never the URL's path or query and never
//! a credential.
//!
//! reqwest reports a failed connection as one opaque error; the cause is read from its source chain
//! (the `std::io::Error` kind, or what hyper and rustls say). This file knows reqwest; nothing else.

use std::fmt;

/// What kept the connection from working.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// Nothing listens at that address (or a firewall says no).
    Refused,
    /// The host name does not resolve.
    Dns,
    /// The TLS handshake failed: an untrusted certificate, or not a TLS port.
    Tls,
    /// Connecting took too long.
    Timeout,
    /// The connection was closed or reset before the answer was complete.
    Closed,
    /// Anything else.
    Other,
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Cause::Refused => "the connection was refused (is the model server running, on that port?)",
            Cause::Dns => "its host name could not be resolved (DNS)",
            Cause::Tls => {
                "the TLS handshake failed (a certificate this machine does not trust, or not a TLS port)"
            }
            Cause::Timeout => "connecting timed out",
            Cause::Closed => "the connection was closed before the answer was complete",
            Cause::Other => "the connection failed",
        })
    }
}

/// `host:port` of a URL: what an error may name of an endpoint.
pub fn host_port(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(u) => match (u.host_str(), u.port_or_known_default()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            _ => "the endpoint".into(),
        },
        Err(_) => "the endpoint".into(),
    }
}

/// The cause of a failed request, from the error's source chain.
pub fn cause(e: &reqwest::Error) -> Cause {
    if e.is_timeout() {
        return Cause::Timeout;
    }
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    let mut words = String::new();
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            match io.kind() {
                std::io::ErrorKind::ConnectionRefused => return Cause::Refused,
                std::io::ErrorKind::TimedOut => return Cause::Timeout,
                std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::ConnectionAborted
                | std::io::ErrorKind::UnexpectedEof
                | std::io::ErrorKind::BrokenPipe => return Cause::Closed,
                _ => {}
            }
        }
        words.push_str(&s.to_string().to_lowercase());
        words.push(' ');
        source = s.source();
    }
    if words.contains("dns")
        || words.contains("lookup address")
        || words.contains("name or service not known")
    {
        Cause::Dns
    } else if ["certificate", "tls", "handshake", "invalidcontenttype", "peer is incompatible"]
        .iter()
        .any(|w| words.contains(w))
    {
        Cause::Tls
    } else if words.contains("connection closed") || words.contains("incomplete message") {
        Cause::Closed
    } else {
        Cause::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_host_and_port() {
        assert_eq!(host_port("https://user:pw@api.example.com/v1/chat?key=sk-1"), "api.example.com:443");
        assert_eq!(host_port("http://127.0.0.1:8089/v1"), "127.0.0.1:8089");
        assert_eq!(host_port("not a url"), "the endpoint");
    }
}
