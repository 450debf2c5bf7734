//! What a generation tells a caller who watches it (`Accept: text/event-stream`, the CLI's progress)
//! while it runs: progress, drafts, warnings and repair rounds. The final proposal or error is the
//! generation's result, not an event here.
//!
//! A draft is the gate's view of the components complete so far: each one still being written is
//! left out, and so is each one the gate would refuse with the others (a field that asks for a
//! secret above all), so a draft never shows what the final gate could not pass. Drafts are
//! previews; only the proposal passed the gate as a whole.
//!
//! This module knows the gate and the model's deltas; it knows nothing of HTTP.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;

use crate::bpmn::Process;
use crate::gate::{self, partial::Partial};
use crate::model::Delta;
use crate::redact::Redactor;

/// One thing that happened during a generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Event {
    /// How far the model got.
    Progress(Progress),
    /// The form so far: a whole form-js document of the components complete so far, gated.
    Draft(Value),
    /// Something the author should know, as it arises.
    Warning(Warning),
    /// The gate refused the first answer; the model is asked again with these sentences.
    Repair(Repair),
}

impl Event {
    /// This event with `redactor`'s secrets taken out of every text in it.
    pub(super) fn redacted(mut self, redactor: &Redactor) -> Event {
        match &mut self {
            Event::Progress(_) => {}
            Event::Draft(schema) => redactor.scrub_value(schema),
            Event::Warning(w) => redactor.scrub_in_place(&mut w.warning),
            Event::Repair(r) => redactor.scrub_all(&mut r.problems),
        }
        self
    }

    /// The event's name on the wire (`progress`, `draft`, `warning`, `repair`).
    pub fn name(&self) -> &'static str {
        match self {
            Event::Progress(_) => "progress",
            Event::Draft(_) => "draft",
            Event::Warning(_) => "warning",
            Event::Repair(_) => "repair",
        }
    }
}

/// `progress`: the attempt, tokens written so far (the provider's count when it reports one, else
/// the pieces received), seconds since the attempt started.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Progress {
    /// 1, or 2 in the repair round.
    pub attempt: u32,
    /// Tokens written so far.
    pub tokens: u64,
    /// Seconds so far.
    pub seconds: f64,
    /// Components complete so far.
    pub components: usize,
}

/// `warning`: one sentence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    /// The sentence.
    pub warning: String,
}

/// `repair`: why the first answer was refused.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repair {
    /// The attempt that follows (2).
    pub attempt: u32,
    /// The refusal sentences sent back to the model.
    pub problems: Vec<String>,
}

/// Where a generation's events go.
pub type Events<'a> = &'a (dyn Fn(Event) + Send + Sync);

/// The least time between two `progress` events of one attempt.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Turns one attempt's deltas into events: drafts when components complete, progress now and then.
pub(super) struct Watcher<'a> {
    events: Events<'a>,
    attempt: u32,
    started: Instant,
    last_progress: Option<Instant>,
    tokens: u64,
    reported: bool,
    partial: Partial,
    /// Components of the partial answer already judged, and those the gate let into drafts.
    judged: usize,
    accepted: Vec<Value>,
    form_id: Option<&'a str>,
    process: Option<&'a Process>,
    redactor: &'a Redactor,
}

impl<'a> Watcher<'a> {
    pub(super) fn new(
        events: Events<'a>,
        attempt: u32,
        form_id: Option<&'a str>,
        process: Option<&'a Process>,
        redactor: &'a Redactor,
    ) -> Watcher<'a> {
        Watcher {
            events,
            attempt,
            started: Instant::now(),
            last_progress: None,
            tokens: 0,
            reported: false,
            partial: Partial::new(),
            judged: 0,
            accepted: Vec::new(),
            form_id,
            process,
            redactor,
        }
    }

    /// One delta of the answer.
    pub(super) fn delta(&mut self, delta: Delta<'_>) {
        match delta {
            Delta::Text(piece) => {
                if !self.reported {
                    self.tokens += 1;
                }
                if self.partial.push(piece) > 0 {
                    self.drafts();
                }
            }
            Delta::Restart => {
                self.partial = Partial::new();
                self.judged = 0;
                self.accepted.clear();
            }
            Delta::Usage(usage) => {
                if usage.output_tokens > 0 {
                    self.reported = true;
                    self.tokens = usage.output_tokens;
                }
            }
        }
        if self.last_progress.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
            self.progress();
        }
    }

    /// A progress event now.
    pub(super) fn progress(&mut self) {
        self.last_progress = Some(Instant::now());
        (self.events)(Event::Progress(Progress {
            attempt: self.attempt,
            tokens: self.tokens,
            seconds: (self.started.elapsed().as_secs_f64() * 10.0).round() / 10.0,
            components: self.accepted.len(),
        }));
    }

    /// Judges the newly complete components; a draft when one was let in. Each is judged with the
    /// call's secrets taken out of its decoded strings, as the whole answer is.
    fn drafts(&mut self) {
        let mut draft = None;
        for component in &self.partial.components()[self.judged..] {
            let mut component = component.clone();
            self.redactor.scrub_value(&mut component);
            let mut with = self.accepted.clone();
            with.push(component);
            let form = serde_json::json!({ "components": with });
            if let Ok(p) = gate::schema_from_value(form, self.form_id, self.process) {
                self.accepted = with;
                draft = Some(p.schema);
            }
        }
        self.judged = self.partial.components().len();
        if let Some(schema) = draft {
            (self.events)(Event::Draft(schema));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    fn watch(answer: &str, step: usize) -> Vec<Event> {
        let seen = Mutex::new(Vec::new());
        let push = |e: Event| seen.lock().unwrap().push(e);
        let redactor = Redactor::default();
        let mut watcher = Watcher::new(&push, 1, Some("Form_x"), None, &redactor);
        let mut from = 0;
        while from < answer.len() {
            let mut to = (from + step).min(answer.len());
            while !answer.is_char_boundary(to) {
                to += 1;
            }
            watcher.delta(Delta::Text(&answer[from..to]));
            from = to;
        }
        drop(watcher);
        seen.into_inner().unwrap()
    }

    #[test]
    fn drafts_grow_and_never_hold_a_secret() {
        let answer = r#"```json
{"components": [
  {"type": "textfield", "key": "name", "label": "Your name"},
  {"type": "textfield", "key": "password", "label": "Password"},
  {"type": "textfield", "key": "email", "label": "Email"}
]}
```"#;
        for step in [1, 3, 17, answer.len()] {
            let drafts: Vec<Value> = watch(answer, step)
                .into_iter()
                .filter_map(|e| match e {
                    Event::Draft(d) => Some(d),
                    _ => None,
                })
                .collect();
            assert_eq!(drafts.len().min(2), if step == answer.len() { 1 } else { 2 }, "step {step}");
            for d in &drafts {
                assert_eq!(d["id"], "Form_x");
                assert!(!d.to_string().to_lowercase().contains("password"), "{d}");
            }
            let last = drafts.last().unwrap();
            let keys: Vec<&str> =
                last["components"].as_array().unwrap().iter().map(|c| c["key"].as_str().unwrap()).collect();
            assert_eq!(keys, ["name", "email"]);
        }
    }
}
