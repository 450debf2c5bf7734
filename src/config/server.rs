//! `[server]`: where to listen, which editor origins may call, which host names requests may name, the
//! shutdown grace and the page.

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;

use super::raw::{Overrides, RawServer};
use super::{Paths, Problems, Server};

impl Server {
    /// The checked `[server]` section; none when `listen` is not an address (reported).
    pub(super) fn from_raw(
        raw: &RawServer,
        paths: Paths<'_>,
        o: &Overrides,
        p: &mut Problems,
    ) -> Option<Server> {
        let listen_text = raw.listen.clone().unwrap_or_else(|| "127.0.0.1:8080".into());
        let listen = match listen_address(listen_text.trim()) {
            Ok(addr) => Some(addr),
            Err(why) => {
                p.add(format!("{}: \"{listen_text}\" {why}", o.place("server.listen")));
                None
            }
        };
        let cors_origins = raw.cors_origins.clone().unwrap_or_default();
        for (i, origin) in cors_origins.iter().enumerate() {
            let ok = origin == "*"
                || reqwest::Url::parse(origin)
                    .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.path() == "/");
            if !ok {
                p.add(format!(
                    "{}[{i}]: \"{origin}\" is not an origin such as \"https://modeler.example.com\"",
                    o.place("server.cors_origins")
                ));
            }
        }
        let mut allowed_hosts = Vec::new();
        for (i, host) in raw.allowed_hosts.iter().flatten().enumerate() {
            match allowed_host(host) {
                Some(h) => allowed_hosts.push(h),
                None => p.add(format!(
                    "{}[{i}]: \"{host}\" is not a host name such as \"formgen.internal\" (no scheme, port or path)",
                    o.place("server.allowed_hosts")
                )),
            }
        }
        // the built modeller page: where configured; the embedded default serves `web/dist` when it has
        // been built in the current folder
        let web_dir = match paths.resolve(raw.web_dir.clone()) {
            Some(d) => Some(d),
            None if paths.embedded => {
                Some(PathBuf::from("web/dist")).filter(|d| d.join("index.html").is_file())
            }
            None => None,
        };
        Some(Server {
            listen: listen?,
            cors_origins,
            shutdown_grace_s: raw.shutdown_grace_s.unwrap_or(30),
            web_dir,
            allowed_hosts,
        })
    }
}

/// `listen` as an address: an IP address and port, or a host name and port (`localhost:8081`), the
/// name resolved once, here (`localhost` to 127.0.0.1 without asking a resolver, so it is loopback
/// wherever formgen runs).
fn listen_address(text: &str) -> Result<SocketAddr, String> {
    const EXPECTED: &str = "an address and port such as \"127.0.0.1:8080\" or \"localhost:8080\"";
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!("is not {EXPECTED}: it has no port"));
    };
    let Ok(port) = port.parse::<u16>() else {
        return Err(format!("is not {EXPECTED}: \"{port}\" is not a port"));
    };
    if host.eq_ignore_ascii_case("localhost") {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    if host.is_empty() || host.contains(['/', ' ', '[', ']', ':']) {
        return Err(format!("is not {EXPECTED}"));
    }
    match (host, port).to_socket_addrs() {
        Ok(mut addrs) => addrs.next().ok_or_else(|| format!("names a host with no address; give {EXPECTED}")),
        Err(e) => Err(format!("names a host that cannot be resolved ({e}); give {EXPECTED}")),
    }
}

/// An `allowed_hosts` entry as requests are compared with it: a host name or address, lower-cased,
/// without a trailing dot; none when it holds a scheme, a port, a path or a space.
fn allowed_host(entry: &str) -> Option<String> {
    let host = entry.trim().trim_end_matches('.').to_ascii_lowercase();
    let bracketed = host.starts_with('[') && host.ends_with(']');
    let ok = !host.is_empty()
        && host.is_ascii()
        && !host.contains(['/', '@', ' ', '\t', '*', '?', '#'])
        && (bracketed || !host.contains(':'));
    ok.then_some(host)
}
