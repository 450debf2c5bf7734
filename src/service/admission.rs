//! Admission: how many generations may be in flight, service-wide and per Worker.
//!
//! A generation holds two permits (the installation's and its Worker's) for as long as it runs; they
//! are released by their guards when it ends or is dropped (an author who navigates away).

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::{BusyScope, ServiceError};
use crate::limits::Limits;
use crate::workers::Worker;

/// Seconds a refused caller is asked to wait.
const RETRY_AFTER_S: u64 = 5;

/// The concurrency limits and their permits.
#[derive(Debug)]
pub struct Admission {
    global: Arc<Semaphore>,
    global_capacity: usize,
    per_worker: HashMap<String, (Arc<Semaphore>, usize)>,
}

/// The permits of one request, shared by the request and the CPU work it hands to the blocking pool:
/// they are given back when both have ended, so a request answered before its work stopped (a
/// timeout, a client that left) keeps its slot until the work has stopped.
pub type Held = Arc<Permit>;

/// The permits of one generation (or one validation or outline) in flight.
#[derive(Debug)]
pub struct Permit {
    _global: OwnedSemaphorePermit,
    _worker: Option<OwnedSemaphorePermit>,
}

impl Admission {
    /// The limits for these Workers.
    pub fn new(limits: &Limits, workers: &[Worker]) -> Admission {
        let per_worker = workers
            .iter()
            .map(|w| {
                let n = capacity(limits, w);
                (w.name.clone(), (Arc::new(Semaphore::new(n)), n))
            })
            .collect();
        Admission {
            global: Arc::new(Semaphore::new(limits.concurrent_generations)),
            global_capacity: limits.concurrent_generations,
            per_worker,
        }
    }

    /// Takes a service-wide and a per-Worker permit, or says how long to wait.
    pub fn admit(&self, worker: &Worker) -> Result<Held, ServiceError> {
        let busy = |in_flight, scope| ServiceError::Busy { in_flight, scope, retry_after_s: RETRY_AFTER_S };
        let global = self
            .global
            .clone()
            .try_acquire_owned()
            .map_err(|_| busy(self.global_capacity, BusyScope::Service))?;
        // a Worker the registry chose is always one these limits were built for
        let Some((semaphore, capacity)) = self.per_worker.get(&worker.name) else {
            return Err(busy(0, BusyScope::Worker));
        };
        let local = semaphore.clone().try_acquire_owned().map_err(|_| busy(*capacity, BusyScope::Worker))?;
        Ok(Arc::new(Permit { _global: global, _worker: Some(local) }))
    }

    /// Takes a service-wide permit for work that asks no Worker (a validation, an outline): they
    /// parse as much BPMN as a generation does, so they count against the same limit.
    pub fn admit_work(&self) -> Result<Held, ServiceError> {
        let global = self.global.clone().try_acquire_owned().map_err(|_| ServiceError::Busy {
            in_flight: self.global_capacity,
            scope: BusyScope::Service,
            retry_after_s: RETRY_AFTER_S,
        })?;
        Ok(Arc::new(Permit { _global: global, _worker: None }))
    }
}

/// The generations a Worker may have in flight: its own setting, else the installation's.
fn capacity(limits: &Limits, worker: &Worker) -> usize {
    match worker.max_concurrent {
        0 => limits.concurrent_per_worker,
        n => n,
    }
}
