//! Service metrics, exposed as Prometheus text at `GET /metrics`.
//!
//! Generations by Worker and outcome, model latency, tokens spent, and generations in flight. The
//! in-flight gauge is moved by a guard that lives as long as the generation's future, so a generation
//! dropped because its author navigated away is counted out too.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    worker: String,
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct WorkerLabel {
    worker: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Tokens {
    worker: String,
    direction: String,
}

/// The service's metrics.
pub struct Metrics {
    registry: Registry,
    generations: Family<Outcome, Counter>,
    latency: Family<WorkerLabel, Histogram>,
    tokens: Family<Tokens, Counter>,
    in_flight: Gauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Metrics").field("in_flight", &self.in_flight.get()).finish()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("formgen");
        let generations = Family::<Outcome, Counter>::default();
        let latency = Family::<WorkerLabel, Histogram>::new_with_constructor(|| {
            Histogram::new(exponential_buckets(0.05, 2.0, 14))
        });
        let tokens = Family::<Tokens, Counter>::default();
        let in_flight = Gauge::default();
        registry.register("generations", "Generations by Worker and outcome", generations.clone());
        registry.register("model_latency_seconds", "Time a model call took", latency.clone());
        registry.register("model_tokens", "Tokens spent, by Worker and direction", tokens.clone());
        registry.register("generations_in_flight", "Generations running now", in_flight.clone());
        Metrics { registry, generations, latency, tokens, in_flight }
    }
}

/// Counts a generation in flight for as long as it lives.
pub struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}

impl Metrics {
    /// A generation starts; it ends when the guard is dropped.
    pub fn start(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }

    /// Generations running now.
    pub fn in_flight(&self) -> i64 {
        self.in_flight.get()
    }

    /// A generation ended with `outcome` (`ok` or an error code).
    pub fn finished(&self, worker: &str, outcome: &str) {
        self.generations.get_or_create(&Outcome { worker: worker.into(), outcome: outcome.into() }).inc();
    }

    /// A model call took `seconds` and spent these tokens.
    pub fn model_call(&self, worker: &str, seconds: f64, input_tokens: u64, output_tokens: u64) {
        self.latency.get_or_create(&WorkerLabel { worker: worker.into() }).observe(seconds);
        for (direction, n) in [("input", input_tokens), ("output", output_tokens)] {
            self.tokens
                .get_or_create(&Tokens { worker: worker.into(), direction: direction.into() })
                .inc_by(n);
        }
    }

    /// Prometheus text exposition.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry).expect("writing to a String");
        out
    }
}
