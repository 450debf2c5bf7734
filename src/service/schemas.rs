//! The answer schemas of the model Workers, built once at start and shared by every request.
//!
//! The schema sent for structured output depends only on a Worker's settings (its component cap and
//! whether it is lean), so it is built once per distinct setting and every generation holds an `Arc`
//! to it instead of its own 25 KB copy. It knows nothing of requests or wire formats.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::prompt;
use crate::workers::{Backend, ModelWorker, Worker};

/// The answer schemas, keyed by the settings they depend on.
#[derive(Debug, Default)]
pub(super) struct AnswerSchemas {
    built: HashMap<(usize, bool), Arc<Value>>,
}

impl AnswerSchemas {
    /// One schema for each distinct setting among the Workers that ask for structured output.
    pub(super) fn new(workers: &[Worker]) -> AnswerSchemas {
        let mut built = HashMap::new();
        for worker in workers {
            if let Backend::Model(settings) = &worker.backend
                && settings.structured_output
            {
                built.entry(key(settings)).or_insert_with(|| Arc::new(build(settings)));
            }
        }
        AnswerSchemas { built }
    }

    /// The schema for a Worker's settings: the one built at start, else (a Worker not known at start)
    /// a fresh one.
    pub(super) fn get(&self, settings: &ModelWorker) -> Arc<Value> {
        self.built.get(&key(settings)).cloned().unwrap_or_else(|| Arc::new(build(settings)))
    }
}

fn key(settings: &ModelWorker) -> (usize, bool) {
    (settings.max_components, settings.lean_schema)
}

fn build(settings: &ModelWorker) -> Value {
    prompt::answer_schema(settings.max_components, settings.lean_schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workers::Wire;

    fn worker(name: &str, max_components: usize, lean: bool) -> Worker {
        let mut settings = ModelWorker::new(Wire::ChatCompletions, "http://127.0.0.1:1/v1".parse().unwrap());
        settings.max_components = max_components;
        settings.lean_schema = lean;
        Worker {
            name: name.into(),
            model: "m".into(),
            allow: Vec::new(),
            timeout_s: 0,
            max_concurrent: 0,
            backend: Backend::Model(settings),
        }
    }

    fn settings(w: &Worker) -> &ModelWorker {
        match &w.backend {
            Backend::Model(s) => s,
            Backend::Builtin => unreachable!(),
        }
    }

    #[test]
    fn one_schema_per_setting_shared_and_equal_to_a_fresh_one() {
        let workers = [worker("a", 40, false), worker("b", 40, false), worker("c", 3, true)];
        let schemas = AnswerSchemas::new(&workers);
        assert_eq!(schemas.built.len(), 2);
        let (a, b, c) = (
            schemas.get(settings(&workers[0])),
            schemas.get(settings(&workers[1])),
            schemas.get(settings(&workers[2])),
        );
        assert!(Arc::ptr_eq(&a, &b), "Workers with the same settings share one schema");
        assert_eq!(*a, prompt::answer_schema(40, false));
        assert_eq!(*c, prompt::answer_schema(3, true));
        let unknown = worker("d", 7, false);
        assert_eq!(*schemas.get(settings(&unknown)), prompt::answer_schema(7, false));
    }
}
