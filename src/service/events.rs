//! What a generation tells a caller who watches it (`Accept: text/event-stream`, the CLI's progress)
//! while it runs: progress, drafts, warnings and repair rounds. The final proposal or error is the
//! generation's result, not an event here.
//!
//! A draft is the gate's view of the components complete so far: each one still being written is
//! left out, and so is each one the gate would refuse with the others (a field that asks for a
//! secret above all), so a draft never shows what the final gate could not pass. Drafts are
//! previews; only the proposal passed the gate as a whole.
//!
//! Each draft gates the whole form so far, so drafts are judged at a bounded rate: the components
//! completed since the last draft are judged together (one by one only when the gate refuses them
//! together), at once while the work is small and then at most every [`DRAFT_EVERY`], and never
//! beyond a budget of gate work proportional to the answer ([`DRAFT_WORK`] times its bytes, plus
//! [`DRAFT_FLOOR`]). A streamed answer's drafts thus cost CPU and event bytes linear in its size; a
//! large form shows fewer, larger steps, and what is left when the answer ends is judged then.
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

/// The least time between two drafts of one attempt, once drafting is past [`DRAFT_FLOOR`].
pub const DRAFT_EVERY: Duration = Duration::from_millis(250);

/// Bytes of gate work (the answer bytes of the components a draft gates, summed over the drafts)
/// allowed per byte of answer received.
pub const DRAFT_WORK: usize = 8;

/// Bytes of gate work drafts may take whatever the answer's size, and below which they are not
/// held back by [`DRAFT_EVERY`]: a small form gets a draft for every component.
pub const DRAFT_FLOOR: usize = 64 * 1024;

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
    /// The answer bytes of the accepted components.
    accepted_bytes: usize,
    /// Bytes of gate work the drafts have taken, and when drafts were last judged.
    spent: usize,
    last_draft: Option<Instant>,
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
            accepted_bytes: 0,
            spent: 0,
            last_draft: None,
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
                self.partial.push(piece);
                self.drafts(false);
            }
            Delta::Restart => {
                self.partial = Partial::new();
                self.judged = 0;
                self.accepted.clear();
                self.accepted_bytes = 0;
                self.spent = 0;
                self.last_draft = None;
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

    /// The answer has ended: the components not judged yet are, within the budget, whatever the
    /// time since the last draft.
    pub(super) fn finish(&mut self) {
        self.drafts(true);
    }

    /// Judges the components completed since the last draft when the rate and the budget allow
    /// (`now`: whatever the time); a draft when one was let in.
    fn drafts(&mut self, now: bool) {
        let pending = self.partial.components().len() - self.judged;
        if pending == 0 {
            return;
        }
        let cost = self.accepted_bytes + self.partial.sizes()[self.judged..].iter().sum::<usize>();
        let cheap = self.spent + cost <= DRAFT_FLOOR;
        let due = now || self.last_draft.is_none_or(|t| t.elapsed() >= DRAFT_EVERY);
        if !(cheap || due) || !self.affords(cost) {
            return;
        }
        self.last_draft = Some(Instant::now());
        let draft = match self.judge(pending, cost) {
            Some(schema) => Some(schema),
            None if pending == 1 => {
                self.judged += 1;
                None
            }
            None => self.judge_each(),
        };
        if let Some(schema) = draft {
            (self.events)(Event::Draft(schema));
        }
    }

    /// Whether `cost` more bytes of gate work fit the budget; spends them when they do.
    fn affords(&mut self, cost: usize) -> bool {
        let budget = DRAFT_WORK.saturating_mul(self.partial.text().len()).saturating_add(DRAFT_FLOOR);
        let fits = self.spent.saturating_add(cost) <= budget;
        if fits {
            self.spent += cost;
        }
        fits
    }

    /// Gates the accepted components with the next `more` of those not judged yet; when the gate
    /// passes them together they are accepted (`bytes`: the answer bytes of all accepted then) and
    /// the schema is the draft.
    fn judge(&mut self, more: usize, bytes: usize) -> Option<Value> {
        let from = self.judged;
        // each judged with the call's secrets taken out of its decoded strings, as the whole answer is
        let mut with = self.accepted.clone();
        for component in &self.partial.components()[from..from + more] {
            let mut component = component.clone();
            self.redactor.scrub_value(&mut component);
            with.push(component);
        }
        let form = serde_json::json!({ "components": with });
        let proposal = gate::schema_from_value(form, self.form_id, self.process).ok()?;
        self.accepted = with;
        self.accepted_bytes = bytes;
        self.judged = from + more;
        Some(proposal.schema)
    }

    /// The components refused together, judged one at a time as far as the budget goes; the last
    /// schema that let one in is the draft.
    fn judge_each(&mut self) -> Option<Value> {
        let mut draft = None;
        while self.judged < self.partial.components().len() {
            let bytes = self.accepted_bytes + self.partial.sizes()[self.judged];
            if !self.affords(bytes) {
                break;
            }
            match self.judge(1, bytes) {
                Some(schema) => draft = Some(schema),
                None => self.judged += 1,
            }
        }
        draft
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
        watcher.finish();
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

    fn big_answer(n: usize, key: impl Fn(usize) -> String) -> String {
        let components: Vec<Value> = (0..n)
            .map(|i| serde_json::json!({"type": "textfield", "key": key(i), "label": format!("Field {i}")}))
            .collect();
        serde_json::json!({ "components": components }).to_string()
    }

    fn drafts_of(events: &[Event]) -> Vec<&Value> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::Draft(d) => Some(d),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_large_answer_drafts_within_a_budget_linear_in_its_size() {
        let answer = big_answer(1400, |i| format!("field{i}"));
        let events = watch(&answer, 7);
        let drafts = drafts_of(&events);
        let bytes: usize = drafts.iter().map(|d| d.to_string().len()).sum();
        // a draft per component would send the form 1,400 times (54 MB for a form like this)
        assert!(bytes <= 2 * DRAFT_WORK * answer.len() + 2 * DRAFT_FLOOR, "{bytes} bytes of drafts");
        let sizes: Vec<usize> = drafts.iter().map(|d| d["components"].as_array().unwrap().len()).collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "drafts grow: {sizes:?}");
        for d in &drafts {
            let keys: Vec<&str> =
                d["components"].as_array().unwrap().iter().map(|c| c["key"].as_str().unwrap()).collect();
            let want: Vec<String> = (0..keys.len()).map(|i| format!("field{i}")).collect();
            assert_eq!(keys, want, "each draft is the components complete so far, in order");
        }
    }

    #[test]
    fn components_refused_together_cost_no_more_than_the_budget() {
        // every other component binds the first one's key: refused with the others, each is judged
        // alone against all accepted so far, which would be quadratic without the budget
        let answer = big_answer(1400, |i| if i % 2 == 0 { format!("field{i}") } else { "field0".into() });
        let seen = Mutex::new(Vec::new());
        let push = |e: Event| seen.lock().unwrap().push(e);
        let redactor = Redactor::default();
        let mut watcher = Watcher::new(&push, 1, Some("Form_x"), None, &redactor);
        for piece in answer.as_bytes().chunks(7) {
            watcher.delta(Delta::Text(std::str::from_utf8(piece).unwrap()));
        }
        watcher.finish();
        assert!(watcher.spent <= DRAFT_WORK * answer.len() + DRAFT_FLOOR, "{} bytes gated", watcher.spent);
        assert!(watcher.judged < 1400, "the budget ran out before every component was judged");
        drop(watcher);
        let events = seen.into_inner().unwrap();
        for d in drafts_of(&events) {
            let keys: Vec<&str> =
                d["components"].as_array().unwrap().iter().map(|c| c["key"].as_str().unwrap()).collect();
            let want: Vec<String> = (0..keys.len()).map(|i| format!("field{}", 2 * i)).collect();
            assert_eq!(keys, want, "the clashing copies are left out");
        }
    }
}
