//! Gives the heap back to the system after a burst (glibc only).
//!
//! glibc keeps what a burst freed in its arenas: after 5,000 held generations end, the server would stay
//! at its peak. A thread looks once a second at how much of the heap is in use and, when that has
//! dropped by more than [`DROP`] since the last look at its peak, returns the free pages with
//! `malloc_trim`. Steady load trims nothing. It knows nothing of requests.

/// How far the heap in use must fall from its peak before the free pages are returned.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const DROP: usize = 32 << 20;

/// Starts the trimming thread (a no-op where the allocator is not glibc's).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn start() {
    let spawned = std::thread::Builder::new().name("heap-trim".into()).spawn(|| {
        let mut peak = 0usize;
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
            // SAFETY: mallinfo2 only reads glibc's heap statistics.
            let in_use = unsafe { libc::mallinfo2() }.uordblks;
            peak = peak.max(in_use);
            if peak - in_use > DROP {
                // SAFETY: malloc_trim only returns free pages of glibc's own arenas to the system.
                unsafe { libc::malloc_trim(0) };
                peak = in_use;
            }
        }
    });
    if let Err(e) = spawned {
        tracing::warn!(
            "the heap-trimming thread did not start ({e}); memory freed after a burst stays resident"
        );
    }
}

/// Starts the trimming thread (a no-op where the allocator is not glibc's).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(crate) fn start() {}
