//! One generation: the builtin drafter, or a model asked once and, when the gate refuses its answer,
//! once more with the refusal sentences. Every answer passes the gate and (for a refinement) is
//! reconciled with the author's form (`draft::refine::reconciled`): a model's answer on the blocking pool
//! ([`gate_answer`]), the builtin's small draft in place (`draft::gated`). One deadline (the Worker's timeout,
//! within the installation's) covers the whole generation: the key, the first call and the repair round.

use std::sync::Arc;
use std::time::Instant;

use secrecy::SecretString;
use serde_json::Value;

use super::complete::{AnswerCheck, Compact};
use super::events::{Event, Events, Repair, Watcher};
use super::{GenerateRequest, Service, ServiceError};
use crate::check::StepCheck;
use crate::draft;
use crate::flow::{self, Contract, Picture};
use crate::gate::{self, GateError, Proposal};
use crate::model::{self, Bounds, ModelError, ModelRequest, Usage};
use crate::prompt::{GenerateInput, RepairInput};
use crate::redact::Redactor;
use crate::sources::Target;
use crate::workers::{ModelWorker, Worker};

/// What a generation produced.
#[derive(Debug)]
pub(super) struct Generation {
    /// The gated (and reconciled) form.
    pub proposal: Proposal,
    /// Tokens spent over all attempts.
    pub usage: Usage,
    /// Model calls it took (1 for the builtin drafter).
    pub attempts: u32,
    /// The model that answered.
    pub model: String,
}

/// What stays the same over a generation's attempts.
pub(super) struct Job<'a> {
    pub request: &'a GenerateRequest,
    pub target: Option<&'a Target>,
    pub form_id: Option<String>,
    /// The step's data picture, drawn once for the drafter and the prompt.
    pub picture: Option<Picture>,
    /// The step's contract, read once for the drafter and the check of the answer.
    pub contract: Option<Contract>,
    /// The builtin draft, gated, drafted once when first needed (see [`Job::gated_draft`]).
    drafted: std::cell::OnceCell<Option<Value>>,
    /// Whether the prompt starts from the builtin draft (a Worker's `starting_point`).
    pub start_from_draft: bool,
}

impl<'a> Job<'a> {
    /// The job for a request and its resolved target; the form id is chosen here, once.
    pub(super) fn new(request: &'a GenerateRequest, target: Option<&'a Target>) -> Job<'a> {
        let form_id = gate::choose_form_id(
            request.form_id.as_deref(),
            request.schema.as_ref(),
            target.map(|t| (t.process(), t.element_index())),
        );
        let picture = target.map(|t| flow::picture(t.process(), t.element_index(), t.project()));
        let contract = target.map(|t| flow::contract(t.process(), t.element_index(), t.project()));
        Job {
            request,
            target,
            form_id,
            picture,
            contract,
            drafted: std::cell::OnceCell::new(),
            start_from_draft: true,
        }
    }

    /// The check of the answer against the step's contract, when there is a process.
    pub(super) fn step_check(&self) -> Option<StepCheck> {
        let (t, contract) = (self.target?, self.contract.clone()?);
        Some(StepCheck::from_contract(t.process(), t.element_index(), t.project(), contract))
    }

    /// The step check with the builtin draft's fields, which complete a model's answer that leaves
    /// out what the process needs (and, when the prompt started from the draft, what the draft has).
    pub(super) fn answer_check(&self) -> Option<AnswerCheck> {
        Some(AnswerCheck {
            check: self.step_check()?,
            drafted: self.gated_draft().map(Compact::of),
            keep_draft: self.start_from_draft && self.request.schema.is_none(),
            brief: self.request.description.clone(),
            named: self.named(),
        })
    }

    /// The keys of the draft's fields whose label is the one the project gives the value.
    fn named(&self) -> Vec<String> {
        let (Some(t), Some(draft)) = (self.target, self.gated_draft()) else { return Vec::new() };
        let siblings = flow::embedded_siblings(t.process(), t.element_index());
        let definitions = flow::Definitions::new(t.process(), t.project(), &siblings);
        let fields = draft.get("components").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        fields
            .iter()
            .filter_map(|c| {
                let key = c.get("key")?.as_str()?;
                let label = c.get("label")?.as_str()?.trim();
                let project = |d: flow::Definition| d.label.trim() == label && !label.is_empty();
                let named = definitions.get_edited(key).is_some_and(project)
                    || definitions.get(key).is_some_and(project);
                named.then(|| key.to_string())
            })
            .collect()
    }

    /// The builtin draft as the gate accepted it, with a process only: the prompt's starting point
    /// and what completes a model's answer.
    fn gated_draft(&self) -> Option<&Value> {
        self.drafted
            .get_or_init(|| {
                self.target?;
                let form = self.builtin_draft().form;
                gate::schema_from_value(form, self.form_id.as_deref(), self.process()).ok().map(|p| p.schema)
            })
            .as_ref()
    }

    /// What the drafter reads around the step, when there is one.
    fn around(&self) -> Option<draft::Around<'_>> {
        match (self.target, &self.picture, &self.contract) {
            (Some(t), Some(picture), Some(contract)) => {
                Some(draft::Around { picture, project: t.project(), contract })
            }
            _ => None,
        }
    }

    /// The builtin drafter's draft for this job.
    fn builtin_draft(&self) -> draft::Draft {
        draft::draft_in(
            self.process(),
            self.target.and_then(Target::element_index),
            self.around(),
            self.request.description.as_deref().unwrap_or_default(),
            self.request.schema.as_ref(),
        )
    }

    fn process(&self) -> Option<&crate::bpmn::Process> {
        self.target.map(Target::process)
    }

    /// What the prompt is built from.
    pub(super) fn prompt_input(&self, budget: usize) -> GenerateInput<'_> {
        GenerateInput {
            target: self.target,
            picture: self.picture.as_ref(),
            description: self.request.description.as_deref(),
            current: self.request.schema.as_ref(),
            form_id: self.form_id.as_deref(),
            starting_point: if self.start_from_draft { self.gated_draft() } else { None },
            budget,
        }
    }
}

/// What a model generation keeps while it waits on the model, which may take minutes: the prompt,
/// the form's id, the author's form for a refinement, and of the process only what the gate checks
/// keys against ([`crate::bpmn::Process::names_only`]) — not the parsed process, its project or the
/// request's text, which can be megabytes and are dropped before the first call.
pub(super) struct Asked {
    /// The user text of the first call, deflated (moved into the model request, which the repair
    /// round quotes).
    pub user: model::Packed,
    /// The form's id, chosen once.
    pub form_id: Option<String>,
    /// The form being refined.
    pub current: Option<Value>,
    /// The process's id and variable names.
    pub names: Option<Arc<crate::bpmn::Process>>,
    /// The model asked for (none: the Worker's).
    pub model: Option<String>,
    /// The keys the answer schema holds fields to, when the Worker constrains keys and the answer is
    /// held to the step's own data (none: keys are free).
    pub keys: Option<Vec<String>>,
}

impl Job<'_> {
    /// What the model path keeps of this job: the prompt rendered within `budget` by `prompts`.
    pub(super) fn asked(&self, prompts: &crate::prompt::Prompts, budget: usize) -> Asked {
        Asked {
            user: model::Packed::new(&prompts.user(&self.prompt_input(budget))),
            form_id: self.form_id.clone(),
            current: self.request.schema.clone(),
            names: self.process().map(|p| Arc::new(p.names_only())),
            model: self.request.model.clone(),
            keys: None,
        }
    }
}

impl Service {
    /// A model Worker on what `asked` kept: one deadline (the Worker's timeout, within the
    /// installation's) for the key, the first call and the repair round.
    pub(super) async fn ask_within_deadline(
        &self,
        worker: &Worker,
        settings: &ModelWorker,
        asked: Asked,
        events: Option<Events<'_>>,
    ) -> Result<Generation, ServiceError> {
        let deadline = self.limits.model_timeout(worker.timeout_s);
        match tokio::time::timeout(deadline, self.ask_model(worker, settings, asked, deadline, events)).await
        {
            Ok(result) => result,
            Err(_) => {
                let error = ModelError::Timeout { after_s: deadline.as_secs() };
                tracing::warn!(worker = %worker.name, error = %error, "the generation ran out of time");
                Err(ServiceError::Model { worker: worker.name.clone(), error })
            }
        }
    }
}

impl Service {
    /// A model generation with its key resolved: its events and its result leave through the
    /// call's redactor (the one boundary of what a model generation hands out).
    async fn ask_model(
        &self,
        worker: &Worker,
        settings: &ModelWorker,
        asked: Asked,
        deadline: std::time::Duration,
        events: Option<Events<'_>>,
    ) -> Result<Generation, ServiceError> {
        // boxed, each: a vault's answer is read before the model is asked, so its state need not be
        // reserved in the future of every generation waiting on a model
        let key = Box::pin(self.credentials.resolve(&settings.credential))
            .await
            .map_err(|error| ServiceError::Credential { worker: worker.name.clone(), error })?;
        let redactor = Box::pin(self.credentials.redactor(&settings.credential, key.as_ref())).await;
        let guarded = events.map(|events| {
            let redactor = &redactor;
            move |event: Event| events(event.redacted(redactor))
        });
        let events = guarded.as_ref().map(|g| g as Events<'_>);
        let result =
            self.attempts(worker, settings, asked, deadline, events, (key.as_ref(), &redactor)).await;
        redacted(result, &redactor)
    }

    /// The first call and, when the gate refuses its answer, the repair round.
    async fn attempts(
        &self,
        worker: &Worker,
        settings: &ModelWorker,
        mut asked: Asked,
        deadline: std::time::Duration,
        events: Option<Events<'_>>,
        (key, redactor): (Option<&SecretString>, &Redactor),
    ) -> Result<Generation, ServiceError> {
        let model_name = asked.model.clone().unwrap_or_else(|| worker.model.clone());
        // moved, not copied: the prompt is held once while the model thinks
        let user = std::mem::take(&mut asked.user);
        let max_tokens = match settings.max_output_tokens {
            0 => self.limits.output_tokens,
            n => n.min(self.limits.output_tokens),
        };
        let request = ModelRequest {
            model: model_name.clone(),
            system: self.prompts.system_shared(),
            user,
            max_tokens,
            json_schema: settings.structured_output.then(|| {
                let schema = self.schemas.get(settings);
                match &asked.keys {
                    Some(keys) => std::sync::Arc::new(crate::prompt::with_keys(&schema, keys)),
                    None => schema,
                }
            }),
            temperature: settings.temperature,
        };
        let bounds = Bounds { timeout: deadline, answer_bytes: self.limits.answer_bytes };
        let mut usage = Usage::default();
        let done =
            |proposal, usage, attempts| Generation { proposal, usage, attempts, model: model_name.clone() };
        let watch = |attempt| {
            events
                .map(|e| Watcher::new(e, attempt, asked.form_id.as_deref(), asked.names.as_deref(), redactor))
        };
        let (problems, previous) = match self
            .ask(worker, settings, (key, redactor), &request, bounds, &mut usage, watch(1))
            .await
        {
            Ok(text) => match gate_answer(text.clone(), &asked, redactor).await {
                Ok(p) => return Ok(done(p, usage, 1)),
                Err(e) => match mended(&text, &asked, redactor, Mend::Clashes).await {
                    Some(p) => return Ok(done(p, usage, 1)),
                    None => (e.problems(), text),
                },
            },
            Err(ModelError::Truncated { max_tokens, partial, .. }) => {
                if let Some(p) = salvaged(&partial, max_tokens, &asked, redactor).await {
                    return Ok(done(p, usage, 1));
                }
                (
                    vec![format!(
                        "Your answer was cut off at the {max_tokens}-token output limit before the JSON was complete; write a shorter form."
                    )],
                    String::new(),
                )
            }
            Err(error) => return Err(ServiceError::Model { worker: worker.name.clone(), error }),
        };
        tracing::info!(worker = %worker.name, problems = problems.len(), "the gate refused the answer; one repair round");
        if let Some(events) = events {
            events(Event::Repair(Repair { attempt: 2, problems: problems.clone() }));
        }
        let repair = self.prompts.repair(&RepairInput {
            problems: &problems,
            previous: &previous,
            request: &request.user.text(),
        });
        let second = ModelRequest { user: repair.into(), ..request };
        let text =
            match self.ask(worker, settings, (key, redactor), &second, bounds, &mut usage, watch(2)).await {
                Ok(text) => text,
                Err(ModelError::Truncated { max_tokens, partial, .. }) => {
                    return match salvaged(&partial, max_tokens, &asked, redactor).await {
                        Some(p) => Ok(done(p, usage, 2)),
                        // the cut answer stays here (an error carries no model text), and the error gives
                        // on what both answers took, for the draft that may answer instead
                        None => Err(ServiceError::Model {
                            worker: worker.name.clone(),
                            error: ModelError::Truncated { max_tokens, partial: String::new(), usage },
                        }),
                    };
                }
                Err(error) => return Err(ServiceError::Model { worker: worker.name.clone(), error }),
            };
        match gate_answer(text.clone(), &asked, redactor).await {
            Ok(p) => Ok(done(p, usage, 2)),
            Err(e) => match mended(&text, &asked, redactor, Mend::ClashesAndKeys).await {
                Some(p) => Ok(done(p, usage, 2)),
                None => {
                    Err(ServiceError::Unusable { worker: worker.name.clone(), problems: e.problems(), usage })
                }
            },
        }
    }

    /// One model call, timed and counted; streamed into `watcher` when the caller watches.
    #[allow(clippy::too_many_arguments)]
    async fn ask(
        &self,
        worker: &Worker,
        settings: &ModelWorker,
        (key, redactor): (Option<&SecretString>, &Redactor),
        request: &ModelRequest,
        bounds: Bounds,
        usage: &mut Usage,
        mut watcher: Option<Watcher<'_>>,
    ) -> Result<String, ModelError> {
        let started = Instant::now();
        if let Some(w) = &mut watcher {
            w.progress();
        }
        let watcher_present = watcher.is_some();
        let mut on_delta = |d: model::Delta<'_>| {
            if let Some(w) = &mut watcher {
                w.delta(d);
            }
        };
        let sink: Option<model::Sink<'_>> = if watcher_present { Some(&mut on_delta) } else { None };
        let result = model::call_streaming(
            self.client.get_or_init(model::client),
            settings,
            key,
            request,
            bounds,
            redactor,
            sink,
        )
        .await;
        if let (Some(w), Ok(_)) = (&mut watcher, &result) {
            // what the answer completed since the last draft
            w.finish();
        }
        // a cut answer took tokens too, and the endpoint said how many
        let taken = match &result {
            Ok(a) => a.usage,
            Err(ModelError::Truncated { usage, .. }) => *usage,
            Err(_) => Usage::default(),
        };
        self.metrics.model_call(
            &worker.name,
            started.elapsed().as_secs_f64(),
            taken.input_tokens,
            taken.output_tokens,
        );
        *usage += taken;
        if let Err(e) = &result {
            tracing::warn!(worker = %worker.name, error = %e, "model call failed");
        }
        result.map(|a| a.text)
    }
}

/// What answers instead of a model whose answers could not be used, when its Worker says so
/// (`draft_when_unusable`): the builtin draft of the step, with a warning that gives the model's
/// failure. None for any other failure, and for a refinement (the author's form is not the draft's
/// to replace).
pub(super) fn instead_of(
    error: &ServiceError,
    worker: &Worker,
    settings: &ModelWorker,
    (check, form_id): (Option<&AnswerCheck>, Option<&str>),
) -> Option<Generation> {
    let unusable = matches!(
        error,
        ServiceError::Unusable { .. } | ServiceError::Model { error: ModelError::Truncated { .. }, .. }
    );
    if !(unusable && settings.draft_when_unusable) {
        return None;
    }
    let draft = check?.fallback()?;
    let mut proposal = gate::check_value(draft, form_id, None).ok()?;
    tracing::info!(worker = %worker.name, error = %error, "the model's answers could not be used; the builtin draft answers");
    proposal.warnings.insert(
        0,
        format!("{error}; formgen answered with its own draft of the step instead (the Worker's draft_when_unusable)."),
    );
    let usage = match error {
        ServiceError::Unusable { usage, .. }
        | ServiceError::Model { error: ModelError::Truncated { usage, .. }, .. } => *usage,
        _ => Usage::default(),
    };
    Some(Generation { proposal, usage, attempts: 2, model: worker.model.clone() })
}

/// The builtin drafter on `job`: a draft, gated and reconciled, at once.
pub(super) fn draft(worker: &Worker, job: &Job<'_>) -> Result<Generation, ServiceError> {
    let mut proposal = draft::gated(
        job.process(),
        job.target.and_then(Target::element_index),
        job.around(),
        job.request.description.as_deref().unwrap_or_default(),
        job.request.schema.as_ref(),
        job.form_id.as_deref(),
    )
    .map_err(|e| ServiceError::Unusable {
        worker: worker.name.clone(),
        problems: e.problems(),
        usage: Usage::default(),
    })?;
    if let Some(model) = &job.request.model {
        proposal.warnings.push(format!(
            "the Worker \"{}\" is the builtin drafter and uses no model, so the model \"{model}\" asked for was not used",
            worker.name,
        ));
    }
    Ok(Generation { proposal, usage: Usage::default(), attempts: 1, model: worker.model.clone() })
}

/// A model's answer through the gate (and reconciled for a refinement), on the blocking pool: the
/// gate is CPU work, bounded by the answer's size limit, and must not hold an async thread. The
/// answer's JSON is decoded first and the call's secrets taken out of every decoded string, so
/// nothing the gate derives from the answer (a label, a made-up key, a quote) can hold one.
async fn gate_answer(text: String, asked: &Asked, redactor: &Redactor) -> Result<Proposal, GateError> {
    let names = asked.names.clone();
    let form_id = asked.form_id.clone();
    let current = asked.current.clone();
    let redactor = redactor.clone();
    let work = tokio::task::spawn_blocking(move || {
        super::offload::lower_this_threads_priority();
        let process = names.as_deref();
        let mut answer = gate::decode(&text)?;
        redactor.scrub_value(&mut answer);
        let proposal = gate::schema_from_value(answer, form_id.as_deref(), process)?;
        Ok(match &current {
            Some(current) => draft::refine::reconciled(proposal, current, form_id.as_deref(), process),
            None => proposal,
        })
    });
    work.await.unwrap_or_else(|e| {
        tracing::error!(error = %e, "the gate's blocking task failed");
        Err(GateError::Stopped)
    })
}

/// Which faults of a model's answer formgen mends by leaving fields out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mend {
    /// A key bound again, a whole object beside its parts: which field is meant is plain (the first of
    /// a key; an object's parts, which the process reads), so even a first answer is mended at once
    /// rather than spending a second model call.
    Clashes,
    /// Also a key form-js cannot bind (`first-name`, `# total`, `größe`): which key is meant is the
    /// model's to say, so only the answer to the repair round is mended so.
    ClashesAndKeys,
}

/// An answer the gate refuses, kept without the fields it cannot take, when those are all it refused:
/// a field for a whole object beside fields for its parts, every field after the first that binds a
/// key again, and with [`Mend::ClashesAndKeys`] a field whose key form-js cannot bind. None when there
/// is no such field or the gate still refuses the rest. The fields are left out with a warning that
/// names each one, and the completion from the builtin draft adds back any field of the step's
/// contract they held.
async fn mended(text: &str, asked: &Asked, redactor: &Redactor, mend: Mend) -> Option<Proposal> {
    let mut answer = gate::decode(text).ok()?;
    redactor.scrub_value(&mut answer);
    let components = match &mut answer {
        Value::Object(o) => o.get_mut("components")?.as_array_mut()?,
        Value::Array(a) => a,
        _ => return None,
    };
    // a key past the bounds of a binding path is the gate's to refuse, not a clash to settle
    let keys = || components.iter().filter_map(|c| c.get("key").and_then(Value::as_str));
    if !keys().all(crate::formjs::within_path_bounds) {
        return None;
    }
    let parted: std::collections::HashSet<String> = keys()
        .filter(|k| crate::formjs::bindable(k))
        .flat_map(|k| k.match_indices('.').map(|(i, _)| k[..i].to_string()).collect::<Vec<_>>())
        .collect();
    let mut bound = Bound::default();
    let (mut unbindable, mut whole, mut twice) = (Vec::new(), Vec::new(), Vec::new());
    components.retain(|c| {
        let Some(key) = c.get("key").and_then(Value::as_str) else { return true };
        let naming = || format!("\"{}\" (`{key}`)", c.get("label").and_then(Value::as_str).unwrap_or(key));
        let left = if !crate::formjs::bindable(key) {
            if mend == Mend::Clashes {
                return true;
            }
            &mut unbindable
        } else if parted.contains(key) {
            &mut whole
        } else if !bound.claim(key) {
            &mut twice
        } else {
            return true;
        };
        left.push(naming());
        false
    });
    if unbindable.is_empty() && whole.is_empty() && twice.is_empty() {
        return None;
    }
    let mut proposal = gate_answer(answer.to_string(), asked, redactor).await.ok()?;
    let again = if mend == Mend::Clashes { "" } else { ", also after a second try" };
    let warnings = [
        (twice, "bound a key twice", "kept the first field of each key and left out"),
        (whole, "gave a field for a whole object beside fields for its parts", "kept the parts and left out"),
        (
            unbindable,
            "gave a field a key form-js cannot bind (a key is ASCII letters, digits and underscores, dot-separated)",
            "left out",
        ),
    ];
    for (fields, what, done) in warnings.into_iter().filter(|(f, _, _)| !f.is_empty()) {
        let sentence = format!("The model's answer {what}{again}; formgen {done} {}.", fields.join(", "));
        proposal.warnings.insert(0, sentence);
    }
    Some(proposal)
}

/// The keys the fields kept so far bind, and every path that contains one: form-js binds each path
/// once, so a key may not equal, contain or extend another.
#[derive(Default)]
struct Bound {
    keys: std::collections::HashSet<String>,
    containing: std::collections::HashSet<String>,
}

impl Bound {
    /// Claims `key` unless it equals, contains or extends a key claimed before. A key past the
    /// bounds of a binding path is never claimed (its prefixes are not worth holding).
    fn claim(&mut self, key: &str) -> bool {
        if !crate::formjs::within_path_bounds(key) {
            return false;
        }
        let prefixes: Vec<&str> = key.match_indices('.').map(|(i, _)| &key[..i]).collect();
        if self.keys.contains(key)
            || self.containing.contains(key)
            || prefixes.iter().any(|p| self.keys.contains(*p))
        {
            return false;
        }
        self.keys.insert(key.to_string());
        self.containing.extend(prefixes.into_iter().map(str::to_string));
        true
    }
}

/// The components an answer cut off at its output limit had completed, as a form the gate accepts,
/// with a warning that says so; none when it completed no field or the gate refuses them. What the
/// answer did not get to, the completion from the builtin draft adds.
async fn salvaged(partial: &str, max_tokens: u32, asked: &Asked, redactor: &Redactor) -> Option<Proposal> {
    let components = gate::partial::components_so_far(partial);
    if !components.iter().any(|c| c.get("key").is_some() || c.get("components").is_some()) {
        return None;
    }
    let kept = components.len();
    let form = serde_json::json!({ "components": components }).to_string();
    let mut proposal = gate_answer(form, asked, redactor).await.ok()?;
    proposal.warnings.insert(
        0,
        format!(
            "The model's answer was cut off at its {max_tokens}-token output limit; formgen kept the {kept} component{} it had finished.",
            if kept == 1 { "" } else { "s" }
        ),
    );
    Some(proposal)
}

/// A model generation's result with the call's secrets taken out of every text it hands back: the
/// proposal's schema, warnings and bound keys, the refusal sentences, the model's error.
fn redacted(
    result: Result<Generation, ServiceError>,
    redactor: &Redactor,
) -> Result<Generation, ServiceError> {
    if redactor.is_empty() {
        return result;
    }
    match result {
        Ok(mut generation) => {
            let proposal = &mut generation.proposal;
            redactor.scrub_value(&mut proposal.schema);
            redactor.scrub_all(&mut proposal.warnings);
            redactor.scrub_all(&mut proposal.bound);
            Ok(generation)
        }
        Err(ServiceError::Unusable { worker, mut problems, usage }) => {
            redactor.scrub_all(&mut problems);
            Err(ServiceError::Unusable { worker, problems, usage })
        }
        Err(ServiceError::Model { worker, error }) => {
            Err(ServiceError::Model { worker, error: error.redacted(redactor) })
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::Bound;

    #[test]
    fn a_key_is_claimed_once_and_never_inside_or_around_another() {
        let mut bound = Bound::default();
        assert!(bound.claim("invoice.number"));
        assert!(!bound.claim("invoice.number"), "the same key");
        assert!(!bound.claim("invoice"), "contains a key claimed before");
        assert!(!bound.claim("invoice.number.file"), "extends a key claimed before");
        assert!(bound.claim("invoice.date"), "a sibling path");
        assert!(bound.claim("invoices"), "a longer name is another key");
        assert!(!bound.claim(&"a.".repeat(40_000)), "a path past the bounds is not held");
    }
}
