//! A request's CPU work off the async threads: reading the BPMN and the project it sends, outlining
//! its process, drafting or prompting from it. These are linear in the input, but a 10 MB process
//! takes a few hundred milliseconds, and an async thread that busy keeps every other caller waiting
//! (`/healthz` among them). A small input is read where it is (handing it over would cost more than
//! it saves); a large one on the blocking pool, answered within `process_seconds` and stopped, at its
//! next stage, when its caller leaves or its time is up.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::admission::Held;
use super::{Service, ServiceError};
use crate::sources::{self, Named, Resolved, Sent};

/// A request that sends at least this much BPMN is read on the blocking pool: reading and outlining
/// take about 35 µs per KB (the service bench), so 32 KB is about a millisecond, fifty times what
/// handing the work to the blocking pool and back costs (about 18 µs); below it, the handing over
/// would be a measurable part of the request.
const INLINE_BPMN_BYTES: usize = 32 * 1024;

/// How long a request answered at its bound waits for its work to stop before it answers anyway (with
/// an error in the log): the core's loops look at the stop flag every few thousand steps, so work stops
/// within milliseconds; this bounds what a loop that does not look could cost the caller.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// A form (a refinement's current one) of at least this many bytes is checked on the blocking pool.
pub(super) const INLINE_FORM_BYTES: usize = 32 * 1024;

/// A project of more forms and decision files than this is outlined on the blocking pool, whatever
/// the size of its process.
const INLINE_PROJECT_FILES: usize = 16;

/// Whether the text a request sends is worth the blocking pool: a large BPMN, or a project (its
/// forms are JSON already parsed, so their size is not known without walking them).
fn sent_is_large(process_xml: Option<&str>, forms: &[Value], decisions: &[String]) -> bool {
    process_xml.map_or(0, str::len) >= INLINE_BPMN_BYTES || !forms.is_empty() || !decisions.is_empty()
}

/// Whether outlining (or drafting, or prompting from) what was resolved is worth the blocking pool:
/// by the size of the text its process was read from (a small process can hold one condition that
/// names thousands of variables), and by its project's files.
pub(super) fn resolved_is_large(resolved: &Resolved) -> bool {
    resolved.target().is_some_and(target_is_large)
}

/// [`resolved_is_large`] for a process that was found.
pub(super) fn target_is_large(t: &crate::sources::Target) -> bool {
    t.source_bytes() >= INLINE_BPMN_BYTES as u64 || t.project().files.len() > INLINE_PROJECT_FILES
}

/// Says when offloaded work must stop: its caller left, or its time is up.
pub(super) struct Stop {
    abandoned: Arc<AtomicBool>,
    deadline: Instant,
    after_s: u64,
}

impl Stop {
    /// An error once the work should stop; checked between stages.
    pub(super) fn check(&self) -> Result<(), ServiceError> {
        if self.abandoned.load(Ordering::Relaxed) || Instant::now() > self.deadline {
            return Err(ServiceError::ProcessStopped { after_s: self.after_s });
        }
        Ok(())
    }
}

/// Sets its flag when dropped: the caller's future was dropped (the caller left).
struct Abandon(Arc<AtomicBool>);

impl Drop for Abandon {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// What a normalised request sends of its process, as the resolver takes it: the ids borrowed (none:
/// not given), the texts owned (they are read, and dropped, wherever the reading happens).
pub(super) struct Taken<'a> {
    pub process_id: Option<&'a str>,
    pub element_id: Option<&'a str>,
    pub process_xml: Option<String>,
    pub forms: Vec<Value>,
    pub decisions: Vec<String>,
}

impl Service {
    /// `work` in place when `large` is false, else on the blocking pool: answered within
    /// `process_seconds`, and told to stop when the caller's future is dropped or that time is up, both
    /// between its stages ([`Stop`]) and inside the core's loops (`formgen_core::stop`). The work holds
    /// the request's permits (`held`) until it has stopped, and a request answered at its bound is
    /// answered once its work has stopped: no limit can be passed by timing out.
    pub(super) async fn cpu<T: Send + 'static>(
        &self,
        held: &Held,
        large: bool,
        work: impl FnOnce(&Stop) -> Result<T, ServiceError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        let after_s = self.limits.process_seconds;
        let bound = Duration::from_secs(after_s.max(1));
        let abandoned = Arc::new(AtomicBool::new(false));
        let stop = Stop { abandoned: abandoned.clone(), deadline: Instant::now() + bound, after_s };
        if !large {
            return work(&stop);
        }
        let _on_drop = Abandon(abandoned.clone());
        let held = held.clone();
        let mut task = tokio::task::spawn_blocking(move || {
            let _held = held;
            let _watching = formgen_core::stop::watch(stop.abandoned.clone());
            lower_this_threads_priority();
            let result = work(&stop);
            // work told to stop returns what it had: never an answer
            stop.check().and(result)
        });
        let joined = match tokio::time::timeout(bound, &mut task).await {
            Ok(joined) => joined,
            Err(_) => {
                abandoned.store(true, Ordering::Relaxed);
                // the core looks at the flag in every loop that grows with the input
                match tokio::time::timeout(STOP_GRACE, task).await {
                    Ok(_) => {}
                    Err(_) => tracing::error!(
                        within_s = STOP_GRACE.as_secs(),
                        "a request's work did not stop when told"
                    ),
                }
                return Err(ServiceError::ProcessStopped { after_s });
            }
        };
        joined.unwrap_or_else(|e| {
            tracing::error!(error = %e, "a request's blocking work failed");
            Err(ServiceError::Source(sources::SourceError::StoreFailed))
        })
    }

    /// Reads what the request sends (on the blocking pool when it is large), then resolves its process
    /// and step.
    pub(super) async fn resolve_taken(
        &self,
        held: &Held,
        taken: Taken<'_>,
    ) -> Result<Resolved, ServiceError> {
        let Taken { process_id, element_id, process_xml, forms, decisions } = taken;
        let large = sent_is_large(process_xml.as_deref(), &forms, &decisions);
        let bounds = crate::project::ProjectBounds::from_limits(&self.limits);
        let sent = self
            .cpu(held, large, move |_| {
                let named = Named {
                    process_xml: process_xml.as_deref(),
                    forms: &forms,
                    decisions: &decisions,
                    ..Named::default()
                };
                Ok(sources::read_sent(named, &bounds)?)
            })
            .await?;
        self.resolve_sent(process_id, element_id, sent).await
    }

    /// Resolves the process and step named by these ids, with what the request sent already read.
    pub(super) async fn resolve_sent(
        &self,
        process_id: Option<&str>,
        element_id: Option<&str>,
        sent: Sent,
    ) -> Result<Resolved, ServiceError> {
        let named = Named { process_id, element_id, ..Named::default() };
        Ok(sources::resolve(&self.store, named, sent).await?)
    }
}

/// The blocking pool's threads run below the async threads' priority: CPU work queued there must not
/// take the cores from the threads that answer every other request (the kernel shares a core between
/// runnable threads by weight, and twenty busy blocking threads would otherwise get twenty shares to
/// the async threads' two). Once per thread: a thread cannot raise its priority again, and need not.
pub(super) fn lower_this_threads_priority() {
    #[cfg(target_os = "linux")]
    {
        thread_local!(static LOWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
        if LOWERED.get() {
            return;
        }
        LOWERED.set(true);
        // SAFETY: gettid has no preconditions; setpriority on this thread's own id only changes its
        // nice value, and a failure (a sandbox that forbids it) leaves it as it was
        unsafe {
            let tid = libc::gettid();
            let _ = libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, BLOCKING_NICE);
        }
    }
}

/// The nice value of the blocking pool's threads that have done a request's CPU work.
#[cfg(target_os = "linux")]
const BLOCKING_NICE: libc::c_int = 10;

#[cfg(test)]
mod tests {
    use super::*;

    fn service(limits: &str) -> Service {
        let config = crate::config::Config::parse(
            &format!("[limits]\n{limits}\n"),
            "test.toml",
            std::path::Path::new("/etc/formgen"),
            false,
            &|_| None,
        )
        .unwrap();
        Service::new(&config).unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn work_that_never_ends_is_answered_at_the_bound_once_it_has_stopped() {
        let service = service("process_seconds = 1\nconcurrent_generations = 1");
        let held = service.admission.admit_work().unwrap();
        let ended = Arc::new(AtomicBool::new(false));
        let seen = ended.clone();
        // the work only ends once the core's flag is raised: the answer cannot come from it finishing
        let answer = service
            .cpu(&held, true, move |_| {
                while !formgen_core::stop::stopped() {
                    std::thread::yield_now();
                }
                std::thread::sleep(Duration::from_millis(200));
                seen.store(true, Ordering::Relaxed);
                Ok(())
            })
            .await;
        assert!(matches!(answer, Err(ServiceError::ProcessStopped { after_s: 1 })), "{answer:?}");
        assert!(ended.load(Ordering::Relaxed), "answered before the work had stopped");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_caller_that_leaves_keeps_the_slot_until_its_work_has_stopped() {
        let service = Arc::new(service("process_seconds = 30\nconcurrent_generations = 1"));
        let started = Arc::new(AtomicBool::new(false));
        let seen = started.clone();
        let (s, work_started) = (service.clone(), started.clone());
        let caller = tokio::spawn(async move {
            let held = s.admission.admit_work().unwrap();
            s.cpu(&held, true, move |_| {
                work_started.store(true, Ordering::Relaxed);
                while !formgen_core::stop::stopped() {
                    std::thread::yield_now();
                }
                std::thread::sleep(Duration::from_millis(300));
                Ok(())
            })
            .await
        });
        while !seen.load(Ordering::Relaxed) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        caller.abort(); // the client left
        let _ = caller.await;
        assert!(service.admission.admit_work().is_err(), "the slot was given back while the work ran");
        let deadline = Instant::now() + Duration::from_secs(10);
        while service.admission.admit_work().is_err() {
            assert!(Instant::now() < deadline, "the slot never came back");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
