//! The service: one function per API call, shared by the HTTP handlers and the CLI.
//!
//! A generation goes principal → Worker → process source → outline → prompt → model → gate, and
//! returns an unsaved proposal. Nothing is written anywhere. The model call runs on the caller's task,
//! so when an author navigates away (the HTTP handler's future is dropped) the upstream call is
//! dropped with it, and the in-flight gauge and concurrency permits are released by their guards.
//! When the gate refuses a model's answer, the model is asked once more with the refusal sentences.
//!
//! Each entry point checks a request's sizes on what was sent, then normalises it (`api.rs`: ids
//! trimmed, a field not given `None`); every stage after that takes the request as it is.
//!
//! This module orchestrates; it knows the other modules' functions but no HTTP.

mod admission;
pub mod api;
mod complete;
mod controls;
pub mod error;
pub mod events;
mod fields;
mod findings;
mod generate;
mod labels;
mod offload;
mod schemas;

use std::sync::Arc;

use serde_json::Value;

use crate::auth::Principal;
use crate::bpmn::Process;
use crate::check;
use crate::config::Config;
use crate::credentials::Credentials;
use crate::gate::{self, GateError};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::outline;
use crate::prompt::{PromptError, Prompts};
use crate::sources::{self, Named, ProcessStore, Resolved};
use crate::vault::Vault;
use crate::workers::{Backend, Registry, Worker};

pub use admission::{Admission, Held, Permit};
pub use api::*;
pub use error::{BusyScope, Code, Oversized, ServiceError};
pub use events::{Event, Events};
pub use fields::Field;
use findings::Step;
use generate::Job;
use offload::Taken;

/// Most keys an answer schema holds fields to (a Worker's `constrain_keys`): a project with more
/// keys in use than this leaves them free.
const MOST_HELD_KEYS: usize = 200;

/// The generation service.
pub struct Service {
    registry: Registry,
    credentials: Credentials,
    store: Arc<ProcessStore>,
    prompts: Arc<Prompts>,
    /// The HTTP client for model endpoints, built at start only when a model Worker exists (loading the
    /// CA roots is most of a builtin-only start), else on first use.
    client: std::sync::OnceLock<reqwest::Client>,
    /// The answer schema of each model Worker's settings, built once.
    schemas: schemas::AnswerSchemas,
    limits: Limits,
    admission: Admission,
    metrics: Metrics,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("registry", &self.registry)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Service {
    /// Builds the service from a checked configuration.
    pub fn new(config: &Config) -> Result<Service, PromptError> {
        let prompts = Prompts::load(config.prompts_dir.as_deref())?;
        let vault =
            config.vault.as_ref().map(|v| (Vault::new(v.addr.clone(), v.namespace.clone()), v.token.clone()));
        let client = std::sync::OnceLock::new();
        if config.workers.iter().any(|w| matches!(w.backend, crate::workers::Backend::Model(_))) {
            let _ = client.set(crate::model::client());
        }
        Ok(Service {
            registry: Registry::new(config.workers.clone()),
            credentials: Credentials::new(vault, config.credential_cache),
            store: Arc::new(
                ProcessStore::new(config.processes_dir.clone(), config.limits.bpmn_bytes)
                    .with_project(
                        config.project_dir().map(Into::into),
                        crate::project::ProjectBounds::from_limits(&config.limits),
                    )
                    .with_read_timeout(config.limits.file_read_timeout()),
            ),
            prompts: Arc::new(prompts),
            client,
            schemas: schemas::AnswerSchemas::new(&config.workers),
            limits: config.limits.clone(),
            admission: Admission::new(&config.limits, &config.workers),
            metrics: Metrics::default(),
        })
    }

    /// The installation's limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The metrics.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// What the editor asks before drawing the button.
    pub fn capability(&self, principal: &Principal) -> Capability {
        let workers: Vec<_> = self.registry.in_reach(principal).map(Worker::view).collect();
        Capability {
            available: !workers.is_empty(),
            workers,
            limits: CapabilityLimits {
                request_body_bytes: self.limits.request_body_bytes,
                description_chars: self.limits.description_chars,
                bpmn_bytes: self.limits.bpmn_bytes,
                schema_bytes: self.limits.schema_bytes,
                // the one deadline of a generation, on the slowest Worker this caller may name
                model_timeout_s: workers_deadline(&self.registry, principal, &self.limits),
            },
        }
    }

    /// One generation (or refinement). Returns an unsaved proposal.
    ///
    /// These entry points are plain functions handing back one inner `async fn`'s future, the
    /// request boxed: an `async fn` keeps its arguments in its future and a copy of each it moves on,
    /// and a future is as large as its largest state for as long as it waits on a model.
    pub fn generate<'a>(
        &'a self,
        principal: &'a Principal,
        req: GenerateRequest,
    ) -> impl Future<Output = Result<GenerateResponse, ServiceError>> + Send + 'a {
        self.generate_inner(principal, Box::new(req), None, || {})
    }

    /// [`Service::generate`], dropping `room` once the request has been read (its process parsed,
    /// its prompt built) and before a model is asked: what the HTTP layer holds for the request's
    /// body bytes is given back while the generation waits, since nothing of those bytes is kept.
    pub fn generate_releasing<'a, R: Send + 'a>(
        &'a self,
        principal: &'a Principal,
        req: Box<GenerateRequest>,
        room: R,
    ) -> impl Future<Output = Result<GenerateResponse, ServiceError>> + Send + 'a {
        self.generate_inner(principal, req, None, move || drop(room))
    }

    /// [`Service::generate`], telling `events` what happens while it runs: progress, drafts of the
    /// form as the model writes it, warnings, a repair round. The result is the final proposal or
    /// error, exactly as [`Service::generate`] returns it.
    pub fn generate_watched<'a>(
        &'a self,
        principal: &'a Principal,
        req: GenerateRequest,
        events: Events<'a>,
    ) -> impl Future<Output = Result<GenerateResponse, ServiceError>> + Send + 'a {
        self.generate_inner(principal, Box::new(req), Some(events), || {})
    }

    /// The request's own bounds and shape, checked before any Worker is chosen; the current form's
    /// size when there is one. The bounds are of what was sent (a field of spaces over its limit is
    /// as long as any other); the request is normalised after them, and its shape checked on that.
    fn check_generate(&self, req: &mut GenerateRequest) -> Result<usize, ServiceError> {
        let chars = req.description.as_deref().map_or(0, |d| d.chars().count());
        if chars > self.limits.description_chars {
            return Err(ServiceError::TooLarge {
                what: Oversized::Description,
                size: chars,
                limit: self.limits.description_chars,
            });
        }
        self.check_fields(&[
            (Field::Worker, req.worker.as_deref()),
            (Field::Model, req.model.as_deref()),
            (Field::ProcessId, req.process_id.as_deref()),
            (Field::ElementId, req.element_id.as_deref()),
            (Field::FormId, req.form_id.as_deref()),
        ])?;
        fields::check_model_name(req.model.as_deref().unwrap_or_default())?;
        self.check_bpmn(req.process_xml.as_deref())?;
        req.normalise();
        let current_size = match &req.schema {
            Some(schema) => self.check_form(schema, Oversized::CurrentForm)?,
            None => 0,
        };
        let has_process = req.process_id.is_some() || req.process_xml.is_some();
        if req.description.is_none() && !has_process {
            return Err(ServiceError::BriefRequired);
        }
        Ok(current_size)
    }

    async fn generate_inner(
        &self,
        principal: &Principal,
        mut req: Box<GenerateRequest>,
        events: Option<Events<'_>>,
        on_read: impl FnOnce() + Send,
    ) -> Result<GenerateResponse, ServiceError> {
        let current_size = self.check_generate(&mut req)?;
        let worker = self.registry.choose(principal, req.worker.as_deref())?;
        // admitted before the BPMN is parsed: a refused request costs no parse
        let permit = self.admission.admit(worker)?;
        let mut mended = Vec::new();
        if let Some(schema) = req.schema.take() {
            // the form being refined is the author's: what breaks a rule is left out, and said
            let (schema, said) = self
                .cpu(&permit, current_size >= offload::INLINE_FORM_BYTES, move |_| {
                    gate::mend(schema).map_err(|e| ServiceError::CurrentFormRefused(e.problems()))
                })
                .await?;
            req.schema = Some(schema);
            mended = said;
        }
        // taken: the text is not needed once read, and a generation may wait on a model for minutes
        let taken = Taken {
            process_id: req.process_id.as_deref(),
            element_id: req.element_id.as_deref(),
            process_xml: req.process_xml.take(),
            forms: std::mem::take(&mut req.forms),
            decisions: std::mem::take(&mut req.decisions),
        };
        let resolved = self.resolve_taken(&permit, taken).await?;
        has_a_form(&resolved)?;
        let _in_flight = self.metrics.start();
        if let Some(events) = events {
            for warning in resolved.warnings() {
                events(Event::Warning(events::Warning { warning }));
            }
        }
        let reply = Reply::of(&resolved, &req);
        let large = offload::resolved_is_large(&resolved);
        let result = match &worker.backend {
            Backend::Builtin => {
                let drafter = worker.clone();
                let drafted = self
                    .cpu(&permit, large, move |stop| {
                        let job = Job::new(&req, resolved.target());
                        stop.check()?;
                        let generation = generate::draft(&drafter, &job)?;
                        let findings = job.step_check().map(|c| c.of_schema(&generation.proposal.schema));
                        Ok((generation, findings.unwrap_or_default()))
                    })
                    .await;
                on_read();
                if let (Some(events), Ok((generation, _))) = (events, &drafted) {
                    events(Event::Draft(generation.proposal.schema.clone()));
                }
                drafted
            }
            Backend::Model(settings) => {
                let asked = self.asked(&permit, req, resolved, settings, large).await;
                on_read();
                match asked {
                    Ok((asked, check)) => {
                        let form_id = asked.form_id.clone();
                        match self.ask_within_deadline(worker, settings, asked, events).await {
                            Ok(generation) => self.checked(&permit, generation, check, form_id, large).await,
                            Err(e) => match generate::instead_of(
                                &e,
                                worker,
                                settings,
                                (check.as_ref(), form_id.as_deref()),
                            ) {
                                Some(draft) => self.checked(&permit, draft, check, form_id, large).await,
                                None => Err(e),
                            },
                        }
                    }
                    Err(e) => Err(e),
                }
            }
        };
        let outcome = match &result {
            Ok(_) => "ok",
            Err(e) => e.code().as_str(),
        };
        self.metrics.finished(&worker.name, outcome);
        let (generation, findings) = result?;
        let mut warnings = reply.warnings;
        warnings.extend(mended);
        warnings.extend(generation.proposal.warnings);
        check::without_repeats(&mut warnings, &findings);
        Ok(GenerateResponse {
            schema: generation.proposal.schema,
            worker: worker.name.clone(),
            model: generation.model,
            process_id: reply.process_id,
            element_id: reply.element_id,
            process_source: reply.process_source,
            warnings,
            usage: generation.usage,
            attempts: generation.attempts,
            findings,
        })
    }

    /// What a model generation keeps while the model thinks, and what its answer is checked and
    /// completed with. The parsed process, its project and the request's bytes are not kept: only
    /// what the gate checks against (dropped with the closure) and the step's check.
    async fn asked(
        &self,
        held: &Held,
        req: Box<GenerateRequest>,
        resolved: Resolved,
        settings: &crate::workers::ModelWorker,
        large: bool,
    ) -> Result<(generate::Asked, Option<complete::AnswerCheck>), ServiceError> {
        let (prompts, budget) = (self.prompts.clone(), self.limits.prompt_chars);
        let start_from_draft = settings.starting_point;
        let constrain_keys = settings.structured_output && settings.constrain_keys;
        self.cpu(held, large, move |stop| {
            let mut job = Job::new(&req, resolved.target());
            job.start_from_draft = start_from_draft;
            stop.check()?;
            let mut asked = job.asked(&prompts, budget);
            let check = job.answer_check();
            if constrain_keys {
                asked.keys = check.as_ref().and_then(|c| c.keys_kept(MOST_HELD_KEYS));
            }
            Ok((asked, check))
        })
        .await
    }

    /// The user text a model Worker would be sent for this request (with the starting point unless
    /// the Worker it names turns it off): what `formgen eval` measures prompt key coverage on.
    /// The request is normalised on a copy: `formgen eval` asks for the prompt and then generates
    /// from the same request.
    pub async fn prompt_text(&self, req: &GenerateRequest) -> Result<String, ServiceError> {
        self.check_bpmn(req.process_xml.as_deref())?;
        let mut req = req.clone();
        req.normalise();
        let (process_id, element_id) = (req.process_id.as_deref(), req.element_id.as_deref());
        let sent = sources::read_sent(
            named(process_id, req.process_xml.as_deref(), element_id, &req.forms, &req.decisions),
            &crate::project::ProjectBounds::from_limits(&self.limits),
        )?;
        let resolved = self.resolve_sent(process_id, element_id, sent).await?;
        let mut job = Job::new(&req, resolved.target());
        job.start_from_draft = match self.registry.choose(&Principal::operator(), req.worker.as_deref()) {
            Ok(Worker { backend: Backend::Model(settings), .. }) => settings.starting_point,
            _ => true,
        };
        Ok(self.prompts.user(&job.prompt_input(self.limits.prompt_chars)))
    }

    fn check_fields(&self, fields: &[(Field, Option<&str>)]) -> Result<(), ServiceError> {
        fields::check(&self.limits, fields)
    }

    fn check_bpmn(&self, xml: Option<&str>) -> Result<(), ServiceError> {
        let size = xml.map_or(0, str::len);
        if size > self.limits.bpmn_bytes {
            return Err(ServiceError::TooLarge {
                what: Oversized::Bpmn,
                size,
                limit: self.limits.bpmn_bytes,
            });
        }
        Ok(())
    }

    /// The form's size as compact JSON, refused over the form limit.
    fn check_form(&self, schema: &Value, what: Oversized) -> Result<usize, ServiceError> {
        let size = serde_json::to_vec(schema).map(|v| v.len()).unwrap_or(0);
        if size > self.limits.schema_bytes {
            return Err(ServiceError::TooLarge { what, size, limit: self.limits.schema_bytes });
        }
        Ok(size)
    }

    /// The gate on a hand-written form. Its bounds are checked on what was sent, then it is
    /// normalised.
    pub async fn validate(&self, mut req: ValidateRequest) -> Result<ValidateResponse, ServiceError> {
        self.check_fields(&[
            (Field::ProcessId, req.process_id.as_deref()),
            (Field::ElementId, req.element_id.as_deref()),
            (Field::FormId, req.form_id.as_deref()),
        ])?;
        self.check_bpmn(req.process_xml.as_deref())?;
        req.normalise();
        let permit = self.admission.admit_work()?;
        let taken = Taken {
            process_id: req.process_id.as_deref(),
            element_id: req.element_id.as_deref(),
            process_xml: req.process_xml.take(),
            forms: std::mem::take(&mut req.forms),
            decisions: std::mem::take(&mut req.decisions),
        };
        let resolved = self.resolve_taken(&permit, taken).await?;
        let form_id = req.form_id.take();
        let form = match (req.schema, req.text) {
            (Some(schema), _) => {
                self.check_form(&schema, Oversized::Form)?;
                Form::Value(schema)
            }
            (None, Some(text)) => {
                if text.len() > self.limits.schema_bytes {
                    return Err(ServiceError::TooLarge {
                        what: Oversized::Form,
                        size: text.len(),
                        limit: self.limits.schema_bytes,
                    });
                }
                Form::Text(text)
            }
            (None, None) => return Err(ServiceError::FormRequired),
        };
        let result =
            self.gate_author_form(&permit, form, form_id.clone(), resolved.target().cloned()).await?;
        match result {
            Ok(gate::Reviewed { proposal: p, problems }) => {
                let mut warnings = resolved.warnings();
                warnings.extend(p.warnings);
                let mut findings = check::gate_findings(&problems);
                if let Some(target) = resolved.target() {
                    let step = Step::of_validate(req.element_id.as_deref(), form_id.as_deref(), &p.schema);
                    findings
                        .extend(self.step_findings(&permit, target.clone(), step, p.schema.clone()).await?);
                }
                findings.sort_by_key(|f| f.severity);
                check::without_repeats(&mut warnings, &findings);
                Ok(ValidateResponse { schema: p.schema, warnings, findings })
            }
            Err(GateError::Stopped) => Err(ServiceError::GateStopped { after_s: self.limits.gate_seconds }),
            Err(e @ GateError::Unreadable(_)) => Err(ServiceError::Refused(e.problems())),
            Err(GateError::Refused(problems)) => Err(ServiceError::Refused(problems)),
        }
    }

    /// The gate on a hand-written form, on the blocking pool (it is CPU work, and a large form must not
    /// hold an async thread that `/healthz` needs). It stops when the request is abandoned (the
    /// caller's future dropped) or has worked past `gate_seconds`.
    async fn gate_author_form(
        &self,
        held: &Held,
        form: Form,
        form_id: Option<String>,
        target: Option<crate::sources::Target>,
    ) -> Result<Result<gate::Reviewed, GateError>, ServiceError> {
        let abandoned = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _on_drop = Abandon(abandoned.clone());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(self.limits.gate_seconds);
        let held = held.clone();
        let work = tokio::task::spawn_blocking(move || {
            let _held = held; // the slot is given back when the gate has stopped
            offload::lower_this_threads_priority();
            let stop = || {
                abandoned.load(std::sync::atomic::Ordering::Relaxed) || std::time::Instant::now() > deadline
            };
            let options = gate::Options {
                origin: gate::Origin::Author,
                form_id: form_id.as_deref(),
                process: target.as_ref().map(|t| t.process()),
                stop: Some(&stop),
            };
            match form {
                Form::Value(v) => gate::review_value(v, &options),
                Form::Text(t) => gate::review_text(&t, &options),
            }
        });
        work.await.map_err(|e| {
            tracing::error!(error = %e, "the gate's blocking task failed");
            ServiceError::Source(crate::sources::SourceError::StoreFailed)
        })
    }

    /// What a model would be shown. Its bounds are checked on what was sent, then it is normalised.
    pub async fn outline(&self, mut req: OutlineRequest) -> Result<OutlineResponse, ServiceError> {
        self.check_fields(&[
            (Field::ProcessId, req.process_id.as_deref()),
            (Field::ElementId, req.element_id.as_deref()),
        ])?;
        self.check_bpmn(req.process_xml.as_deref())?;
        req.normalise();
        if req.process_id.is_none() && req.process_xml.is_none() {
            return Err(ServiceError::ProcessRequired);
        }
        let permit = self.admission.admit_work()?;
        let taken = Taken {
            process_id: req.process_id.as_deref(),
            element_id: req.element_id.as_deref(),
            process_xml: req.process_xml.take(),
            forms: std::mem::take(&mut req.forms),
            decisions: std::mem::take(&mut req.decisions),
        };
        let resolved = self.resolve_taken(&permit, taken).await?;
        let budget = self.limits.prompt_chars;
        self.cpu(&permit, offload::resolved_is_large(&resolved), move |stop| {
            outlined(&resolved, budget, stop)
        })
        .await
    }
}

/// The outline's answer for what was resolved: the process, the text a model would be shown, the
/// step's data picture.
fn outlined(
    resolved: &Resolved,
    budget: usize,
    stop: &offload::Stop,
) -> Result<OutlineResponse, ServiceError> {
    let Some(target) = resolved.target() else {
        return Ok(OutlineResponse {
            process: outline::OutlineProcess::from(&Process::default()),
            text: String::new(),
            process_source: source_name(resolved),
            step: None,
            findings: Vec::new(),
        });
    };
    let picture = crate::flow::picture(target.process(), target.element_index(), target.project());
    stop.check()?;
    let text = crate::prompt::process_text(target, Some(&picture), false, budget);
    stop.check()?;
    let findings = check::process_findings(target.process(), target.project());
    Ok(OutlineResponse {
        process: outline::OutlineProcess::from(target.process()),
        text,
        process_source: source_name(resolved),
        step: Some(picture),
        findings,
    })
}

/// Only user tasks and start events have forms (no element: the start form); anything else named
/// is refused with the steps that do.
fn has_a_form(resolved: &Resolved) -> Result<(), ServiceError> {
    let Some(target) = resolved.target() else { return Ok(()) };
    let Some(element) = target.element() else { return Ok(()) };
    if element.kind.takes_a_form() {
        return Ok(());
    }
    let steps = target
        .process()
        .elements
        .iter()
        .filter(|e| e.kind.takes_a_form())
        .map(|e| (e.id.to_string(), e.name.to_string()))
        .collect();
    Err(ServiceError::NotAFormStep { element: element.id.to_string(), kind: element.kind.as_str(), steps })
}

/// The longest a generation may take on the Workers in reach of `principal`: its one deadline.
fn workers_deadline(registry: &Registry, principal: &Principal, limits: &Limits) -> u64 {
    registry
        .in_reach(principal)
        .map(|w| limits.model_timeout(w.timeout_s).as_secs())
        .max()
        .unwrap_or(limits.model_timeout_s)
}

/// A hand-written form as it came: parsed JSON, or text (a raw answer).
enum Form {
    Value(Value),
    Text(String),
}

/// Sets its flag when dropped: the gate's stop hook sees that the request was abandoned.
struct Abandon(Arc<std::sync::atomic::AtomicBool>);

impl Drop for Abandon {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The process fields of a normalised request, as the resolver takes them.
fn named<'a>(
    process_id: Option<&'a str>,
    process_xml: Option<&'a str>,
    element_id: Option<&'a str>,
    forms: &'a [Value],
    decisions: &'a [String],
) -> Named<'a> {
    Named { process_id, process_xml, element_id, forms, decisions }
}

/// What the response says of the request's process, taken before the process is dropped.
struct Reply {
    warnings: Vec<String>,
    process_id: String,
    element_id: String,
    process_source: String,
}

impl Reply {
    fn of(resolved: &Resolved, req: &GenerateRequest) -> Reply {
        let mut warnings = resolved.warnings();
        if matches!(resolved, Resolved::NoProcess(_)) && req.description.is_none() {
            warnings.push(
                "There was no brief either, so the form is a generic one; describe it with a brief.".into(),
            );
        }
        let element_id = match resolved {
            Resolved::Found(t) => t.element_id().to_string(),
            Resolved::NoProcess(_) => String::new(),
            Resolved::Nothing => req.element_id.clone().unwrap_or_default(),
        };
        let process_id = resolved.target().map(|t| t.process().id.clone()).unwrap_or_default();
        Reply { warnings, process_id, element_id, process_source: source_name(resolved) }
    }
}

/// The `processSource` value of a resolution.
fn source_name(resolved: &Resolved) -> String {
    resolved.origin().map(|o| o.as_str().to_string()).unwrap_or_default()
}
