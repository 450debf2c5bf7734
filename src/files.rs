//! Files whose paths someone else controls: the process store, the project folder, prompt
//! overrides, a `file:` credential, the files the CLI is given.
//!
//! A name that was a file when a folder was listed may be a FIFO, a device or a socket by the time it
//! is opened (it was swapped meanwhile, or a link now leads elsewhere). Opening a FIFO blocks until a
//! writer comes, which may be never, and reading a device may never end. So every such file is opened
//! with `O_NONBLOCK` (opening a FIFO returns at once), its type is checked on the opened handle (not
//! on the name, which may change again: only a regular file is read), and each read is bounded in
//! time ([`Bounded`]: a read that starts past the deadline fails) as well as in bytes.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, Instant};

/// An open regular file whose reads stop at a deadline.
#[derive(Debug)]
pub struct Bounded {
    file: File,
    len: u64,
    deadline: Instant,
    timeout: Duration,
}

/// Opens `path` for reading, without blocking, if it is a regular file; its reads fail once
/// `timeout` has passed from now.
pub fn open(path: &Path, timeout: Duration) -> io::Result<Bounded> {
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if !meta.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a regular file (a FIFO, a device, a socket or a folder); only regular files are read",
        ));
    }
    Ok(Bounded { file, len: meta.len(), deadline: Instant::now() + timeout, timeout })
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

impl Bounded {
    /// The file's size when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file was empty when it was opened.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All of the file if it holds at most `limit` bytes; `None` when it holds more (never reading
    /// past `limit + 1`).
    pub fn read_capped(mut self, limit: u64) -> io::Result<Option<Vec<u8>>> {
        if self.len > limit {
            return Ok(None);
        }
        let cap = limit.saturating_add(1);
        let mut bytes = Vec::with_capacity(usize::try_from(self.len.saturating_add(1).min(cap)).unwrap_or(0));
        (&mut self).take(cap).read_to_end(&mut bytes)?;
        Ok((bytes.len() as u64 <= limit).then_some(bytes))
    }
}

impl Read for Bounded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if Instant::now() > self.deadline {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("reading it took longer than {} s", self.timeout.as_secs_f64()),
            ));
        }
        self.file.read(buf)
    }
}

impl Seek for Bounded {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.file.seek(pos)
    }
}

/// The bytes of the regular file at `path` if it holds at most `limit`; `None` when it holds more.
pub fn read_capped(path: &Path, limit: u64, timeout: Duration) -> io::Result<Option<Vec<u8>>> {
    open(path, timeout)?.read_capped(limit)
}

/// The time a read of one file may take when the caller has no limits at hand: the installation's
/// default ([`crate::Limits::file_read_timeout_s`]).
pub fn default_timeout() -> Duration {
    Duration::from_secs(crate::Limits::default().file_read_timeout_s)
}

#[cfg(all(test, unix))]
pub(crate) mod tests {
    use super::*;

    /// Makes a FIFO at `path` (nothing ever writes to it).
    pub(crate) fn mkfifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
    }

    /// Runs `f` on a thread and fails (rather than hangs) when it does not return within 5 s.
    pub(crate) fn within_5s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(5)).expect("the read did not return: it blocked")
    }

    #[test]
    fn a_fifo_is_refused_at_once_without_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("p.bpmn");
        mkfifo(&fifo);
        let err = within_5s(move || read_capped(&fifo, 1 << 20, Duration::from_secs(10)).unwrap_err());
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn devices_and_folders_are_refused_files_are_read_within_their_cap() {
        let dir = tempfile::tempdir().unwrap();
        for path in [Path::new("/dev/zero"), dir.path()] {
            let err = read_capped(path, 10, Duration::from_secs(10)).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{}: {err}", path.display());
        }
        let file = dir.path().join("f");
        std::fs::write(&file, "hello").unwrap();
        assert_eq!(read_capped(&file, 5, Duration::from_secs(10)).unwrap().unwrap(), b"hello");
        assert_eq!(read_capped(&file, 4, Duration::from_secs(10)).unwrap(), None);
    }

    #[test]
    fn a_read_past_its_deadline_fails() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "hello").unwrap();
        let opened = open(&file, Duration::ZERO).unwrap();
        std::thread::sleep(Duration::from_millis(2));
        let err = opened.read_capped(10).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }
}
