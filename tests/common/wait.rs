//! Waiting for what another task, thread or process does: the condition is polled every few
//! milliseconds until it holds, and a test fails saying what did not happen only once a generous
//! deadline has passed, so that a loaded machine makes a test slower, never wrong.

use std::time::{Duration, Instant};

/// How long anything a test waits for may take before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(10);

/// How often a condition is asked.
const EVERY: Duration = Duration::from_millis(5);

/// Polls `holds` until it does; fails naming `what` (e.g. "the model server to see its connection
/// closed") after [`DEADLINE`].
pub async fn until(what: &str, mut holds: impl FnMut() -> bool) {
    let started = Instant::now();
    while !holds() {
        assert!(started.elapsed() < DEADLINE, "waited {DEADLINE:?} for {what}, in vain");
        tokio::time::sleep(EVERY).await;
    }
}

/// [`until`] for a condition that has to be awaited (a mock server's received requests).
pub async fn until_async(what: &str, holds: impl AsyncFnMut() -> bool) {
    until_async_within(DEADLINE, what, holds).await;
}

/// [`until_async`] with its own deadline, for what takes seconds of CPU before it can be seen (a
/// megabyte-sized body parsed on a machine the rest of the suite keeps busy).
pub async fn until_async_within(deadline: Duration, what: &str, mut holds: impl AsyncFnMut() -> bool) {
    let started = Instant::now();
    while !holds().await {
        assert!(started.elapsed() < deadline, "waited {deadline:?} for {what}, in vain");
        tokio::time::sleep(EVERY).await;
    }
}

/// [`until`] outside a runtime: the thread sleeps between polls.
pub fn until_blocking(what: &str, mut holds: impl FnMut() -> bool) {
    let started = Instant::now();
    while !holds() {
        assert!(started.elapsed() < DEADLINE, "waited {DEADLINE:?} for {what}, in vain");
        std::thread::sleep(EVERY);
    }
}
