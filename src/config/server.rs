//! `[server]`: where to listen, which editor origins may call, the shutdown grace and the page.

use std::net::SocketAddr;
use std::path::PathBuf;

use super::raw::RawServer;
use super::{Paths, Problems, Server};

impl Server {
    /// The checked `[server]` section; none when `listen` is not an address (reported).
    pub(super) fn from_raw(raw: &RawServer, paths: Paths<'_>, p: &mut Problems) -> Option<Server> {
        let listen_text = raw.listen.clone().unwrap_or_else(|| "127.0.0.1:8080".into());
        let listen = match listen_text.parse::<SocketAddr>() {
            Ok(addr) => Some(addr),
            Err(_) => {
                p.add(format!(
                    "server.listen: \"{listen_text}\" is not an address and port such as \"127.0.0.1:8080\""
                ));
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
                    "server.cors_origins[{i}]: \"{origin}\" is not an origin such as \"https://modeler.example.com\""
                ));
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
        })
    }
}
