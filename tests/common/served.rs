//! A `formgen serve` process for tests: started with a config file, its URL read from its first line.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A `formgen serve` process on a free port.
pub struct Served {
    pub child: Child,
    pub url: String,
    pub stderr: Arc<std::sync::Mutex<String>>,
    /// The thread copying the process's stderr into `stderr`; it ends when the process's end closes
    /// the pipe.
    reader: std::thread::JoinHandle<()>,
}

impl Served {
    /// Whether all the process wrote to stderr is in [`Served::stderr`]: once it has exited, the
    /// copying thread ends a moment later.
    #[allow(dead_code)] // not every test binary that takes this file uses it
    pub fn stderr_read_to_end(&self) -> bool {
        self.reader.is_finished()
    }

    /// The CPU time the process has used so far (user and system, from `/proc/PID/stat`): what shows
    /// from outside that it is at CPU-bound work.
    #[allow(dead_code)] // not every test binary that takes this file uses it
    pub fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // the fields after the command name, which is in parentheses and may hold anything
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        // SAFETY: sysconf only reads a configuration value
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as u64;
        Duration::from_secs_f64(ticks as f64 / per_second as f64)
    }
}

pub fn spawn_serve(config_toml: &str, dir: &Path) -> Served {
    spawn(config_toml, dir, None)
}

/// [`spawn_serve`] with the process's data (its heap) limited to `data_bytes` (`RLIMIT_DATA`): an
/// allocation past it fails and the process aborts, so a test can see that a request's memory stays
/// bounded.
#[allow(dead_code)] // not every test binary that takes this file uses it
pub fn spawn_serve_within(config_toml: &str, dir: &Path, data_bytes: u64) -> Served {
    spawn(config_toml, dir, Some(data_bytes))
}

/// Limits the data segment of the command's process to `bytes`.
pub fn limit_data(command: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe and touches no memory of the parent.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            if libc::setrlimit(libc::RLIMIT_DATA, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

fn spawn(config_toml: &str, dir: &Path, data_bytes: Option<u64>) -> Served {
    let path = dir.join("formgen.toml");
    std::fs::write(&path, config_toml).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_formgen"));
    command
        .args(["serve", "--config", path.to_str().unwrap()])
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(bytes) = data_bytes {
        limit_data(&mut command, bytes);
    }
    let mut child = command.spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    let stderr = Arc::new(std::sync::Mutex::new(String::new()));
    let sink = stderr.clone();
    let err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        for l in BufReader::new(err).lines().map_while(Result::ok) {
            sink.lock().unwrap().push_str(&(l + "\n"));
        }
    });
    Served { child, url, stderr, reader }
}

pub fn terminate(child: &Child) {
    let ok = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap().success();
    assert!(ok);
}

pub fn wait_exit(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(started.elapsed() < within, "formgen serve did not exit within {within:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
