//! The service: one function per API call, shared by the HTTP handlers and the CLI.
//!
//! A generation goes principal → Worker → process source → outline → prompt → model → gate, and
//! returns an unsaved proposal. Nothing is written anywhere. The model call runs on the caller's task,
//! so when an author navigates away (the HTTP handler's future is dropped) the upstream call is
//! dropped with it, and the in-flight gauge and concurrency permits are released by their guards.
//! When the gate refuses a model's answer, the model is asked once more with the refusal sentences.
//!
//! This module orchestrates; it knows the other modules' functions but no HTTP.

pub mod api;
pub mod error;
pub mod refine;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use secrecy::SecretString;
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::bpmn::{self, Process};
use crate::config::Config;
use crate::credentials::Credentials;
use crate::gate::{self, GateError, Proposal};
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::model::{self, Bounds, ModelError, ModelRequest, Usage, builtin};
use crate::prompt::{self, PromptError, Prompts};
use crate::sources::{Origin, ProcessStore};
use crate::vault::Vault;
use crate::workers::{Principal, Provider, Registry, Worker};

pub use api::*;
pub use error::ServiceError;

/// The process a request is about, once resolved.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The process, when one was named and could be read.
    pub process: Option<Arc<Process>>,
    /// Where it came from.
    pub origin: Option<Origin>,
    /// The element id (checked to exist when a process was read).
    pub element_id: String,
    /// Things the author should know about the source.
    pub warnings: Vec<String>,
}

/// The generation service.
pub struct Service {
    registry: Registry,
    credentials: Credentials,
    store: Arc<ProcessStore>,
    prompts: Prompts,
    client: reqwest::Client,
    limits: Limits,
    global: Arc<Semaphore>,
    per_worker: HashMap<String, Arc<Semaphore>>,
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
            config.vault.as_ref().map(|v| Vault::new(v.addr.clone(), v.token.clone(), v.namespace.clone()));
        let per_worker = config
            .workers
            .iter()
            .map(|w| {
                let n = if w.max_concurrent == 0 {
                    config.limits.concurrent_per_worker
                } else {
                    w.max_concurrent
                };
                (w.name.clone(), Arc::new(Semaphore::new(n)))
            })
            .collect();
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .user_agent(concat!("formgen/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("a TLS-capable HTTP client");
        Ok(Service {
            registry: Registry::new(config.workers.clone()),
            credentials: Credentials::new(vault, config.credential_cache),
            store: Arc::new(ProcessStore::new(config.processes_dir.clone(), config.limits.bpmn_bytes)),
            prompts,
            client,
            limits: config.limits.clone(),
            global: Arc::new(Semaphore::new(config.limits.concurrent_generations)),
            per_worker,
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
                model_timeout_s: self.limits.model_timeout_s,
            },
        }
    }

    /// One generation (or refinement). Returns an unsaved proposal.
    pub async fn generate(
        &self,
        principal: &Principal,
        mut req: GenerateRequest,
    ) -> Result<GenerateResponse, ServiceError> {
        let chars = req.description.chars().count();
        if chars > self.limits.description_chars {
            return Err(too_large(
                "description",
                chars,
                "characters",
                self.limits.description_chars,
                "shorten the brief",
            ));
        }
        self.check_bpmn(&req.process_xml)?;
        if let Some(schema) = &req.schema {
            self.check_schema(schema)?;
        }
        let has_process = !req.process_id.trim().is_empty() || !req.process_xml.trim().is_empty();
        if req.description.trim().is_empty() && !has_process {
            return Err(ServiceError::BriefRequired);
        }
        let worker = self.registry.choose(principal, req.worker.trim())?.clone();
        let mut context = self.context(&req.process_id, &req.process_xml, &req.element_id).await?;
        // read: the text is not needed again, and a generation may wait on a model for minutes
        req.process_xml = String::new();
        let _permits = self.admit(&worker)?;
        let _in_flight = self.metrics.start();
        let result = self.run(&worker, &req, &mut context).await;
        let outcome = match &result {
            Ok(_) => "ok",
            Err(ServiceError::Model { error: ModelError::Timeout { .. }, .. }) => "timeout",
            Err(ServiceError::Model { .. }) => "model_failed",
            Err(ServiceError::Unusable { .. }) => "unusable_answer",
            Err(ServiceError::Credential { .. }) => "credential_unavailable",
            Err(_) => "error",
        };
        self.metrics.finished(&worker.name, outcome);
        let (proposal, usage, attempts, model) = result?;
        let mut warnings = context.warnings;
        warnings.extend(proposal.warnings);
        Ok(GenerateResponse {
            schema: proposal.schema,
            worker: worker.name.clone(),
            model,
            process_id: context.process.as_ref().map(|p| p.id.clone()).unwrap_or_default(),
            element_id: context.element_id,
            process_source: context.origin.map(|o| o.as_str().to_string()).unwrap_or_default(),
            warnings,
            usage,
            attempts,
        })
    }

    async fn run(
        &self,
        worker: &Worker,
        req: &GenerateRequest,
        context: &mut Context,
    ) -> Result<(Proposal, Usage, u32, String), ServiceError> {
        let process = context.process.clone();
        let element = context.element_id.clone();
        let form_id = self.form_id(req, process.as_deref(), &element);
        if worker.provider == Provider::Builtin {
            let draft = builtin::draft(process.as_deref(), &element, &req.description, req.schema.as_ref());
            let proposal =
                gate::schema_from_value(draft, form_id.as_deref(), process.as_deref()).map_err(|e| {
                    ServiceError::Unusable { worker: worker.name.clone(), problems: e.problems() }
                })?;
            let proposal = self.reconciled(proposal, req, form_id.as_deref(), process.as_deref());
            return Ok((proposal, Usage::default(), 1, worker.model.clone()));
        }
        let key = self
            .credentials
            .resolve(&worker.credential)
            .await
            .map_err(|error| ServiceError::Credential { worker: worker.name.clone(), error })?;
        let model_name =
            if req.model.trim().is_empty() { worker.model.clone() } else { req.model.trim().to_string() };
        let user = self.user_prompt(req, process.as_deref(), &element, form_id.as_deref());
        let max_tokens = match worker.max_output_tokens {
            0 => self.limits.output_tokens,
            n => n.min(self.limits.output_tokens),
        };
        let request = ModelRequest {
            model: model_name.clone(),
            system: self.prompts.system.clone(),
            user,
            max_tokens,
            json_schema: worker
                .structured_output
                .then(|| prompt::answer_schema(worker.max_components, worker.lean_schema)),
            temperature: worker.temperature,
        };
        let bounds = Bounds {
            timeout: self.limits.model_timeout(worker.timeout_s),
            answer_bytes: self.limits.answer_bytes,
        };
        let mut usage = Usage::default();
        let (problems, previous) = match self.ask(worker, key.as_ref(), &request, bounds, &mut usage).await {
            Ok(text) => match gate::schema_from(&text, form_id.as_deref(), process.as_deref()) {
                Ok(p) => {
                    return Ok((
                        self.reconciled(p, req, form_id.as_deref(), process.as_deref()),
                        usage,
                        1,
                        model_name,
                    ));
                }
                Err(e) => (e.problems(), text),
            },
            Err(ModelError::Truncated { max_tokens }) => (
                vec![format!(
                    "Your answer was cut off at the {max_tokens}-token output limit before the JSON was complete; write a shorter form."
                )],
                String::new(),
            ),
            Err(error) => {
                return Err(ServiceError::Model { worker: worker.name.clone(), error });
            }
        };
        tracing::info!(worker = %worker.name, problems = problems.len(), "the gate refused the answer; one repair round");
        let repair = self.repair_prompt(&problems, &previous, &request.user);
        let second = ModelRequest { user: repair, ..request };
        let text = self
            .ask(worker, key.as_ref(), &second, bounds, &mut usage)
            .await
            .map_err(|error| ServiceError::Model { worker: worker.name.clone(), error })?;
        match gate::schema_from(&text, form_id.as_deref(), process.as_deref()) {
            Ok(p) => {
                Ok((self.reconciled(p, req, form_id.as_deref(), process.as_deref()), usage, 2, model_name))
            }
            Err(e) => Err(ServiceError::Unusable { worker: worker.name.clone(), problems: e.problems() }),
        }
    }

    /// One model call, timed and counted.
    async fn ask(
        &self,
        worker: &Worker,
        key: Option<&SecretString>,
        request: &ModelRequest,
        bounds: Bounds,
        usage: &mut Usage,
    ) -> Result<String, ModelError> {
        let started = Instant::now();
        let result = model::call(&self.client, worker, key, request, bounds).await;
        let (input, output) =
            result.as_ref().map(|a| (a.usage.input_tokens, a.usage.output_tokens)).unwrap_or((0, 0));
        self.metrics.model_call(&worker.name, started.elapsed().as_secs_f64(), input, output);
        match &result {
            Ok(a) => *usage += a.usage,
            Err(e) => tracing::warn!(worker = %worker.name, error = %e, "model call failed"),
        }
        result.map(|a| a.text)
    }

    /// A refinement keeps the author's ids; the warnings say what changed.
    fn reconciled(
        &self,
        mut proposal: Proposal,
        req: &GenerateRequest,
        form_id: Option<&str>,
        process: Option<&Process>,
    ) -> Proposal {
        let Some(current) = &req.schema else {
            return proposal;
        };
        let mut revised = proposal.schema.clone();
        let diff = refine::reconcile(current, &mut revised);
        // the restored ids pass the gate again (a restored id could meet a generated one)
        if let Ok(again) = gate::schema_from_value(revised, form_id, process) {
            let mut warnings = proposal.warnings;
            warnings.extend(again.warnings);
            proposal = Proposal { warnings, ..again };
        }
        proposal.warnings.extend(diff);
        proposal
    }

    fn form_id(&self, req: &GenerateRequest, process: Option<&Process>, element: &str) -> Option<String> {
        if !req.form_id.trim().is_empty() {
            return Some(req.form_id.trim().to_string());
        }
        if let Some(current) = &req.schema {
            // a refinement keeps the current form's id
            return current
                .get("id")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_string);
        }
        // the form the step binds already, when it is a plain form id (not a C7 key or a linked form)
        let p = process?;
        let target = if element.is_empty() {
            p.elements.iter().find(|e| e.kind == "startEvent" && e.parent.is_none())
        } else {
            p.element(element)
        };
        if let Some(e) = target
            && !e.form_id.is_empty()
            && !e.form_id.contains(':')
        {
            return Some(e.form_id.clone());
        }
        // a new form: an id of its own, never one another step of the process binds already
        let base = match target {
            Some(e) if !element.is_empty() => format!("{}-{}", p.id, e.id),
            _ => format!("{}-start", p.id),
        };
        let taken = |id: &str| p.elements.iter().any(|e| e.form_id == id);
        let mut id = base.clone();
        let mut n = 2;
        while taken(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        Some(id)
    }

    fn user_prompt(
        &self,
        req: &GenerateRequest,
        process: Option<&Process>,
        element: &str,
        form_id: Option<&str>,
    ) -> String {
        let target = match (process, element) {
            (None, _) => "a form described only by the author's brief (no process was given)".to_string(),
            (Some(p), "") => format!(
                "the start form of the process \"{}\"",
                if p.name.is_empty() { &p.id } else { &p.name }
            ),
            (Some(p), id) => match p.element(id) {
                Some(e) if e.name.is_empty() => format!("the step {} ({})", e.id, e.kind),
                Some(e) => format!("the step \"{}\" ({} {})", e.name, e.kind, e.id),
                None => id.to_string(),
            },
        };
        let binding = form_id
            .map(|f| format!("The editor holds this form under the id \"{f}\".\n"))
            .unwrap_or_default();
        let description = if req.description.trim().is_empty() {
            "(no brief: draft the form the process needs at this point)".to_string()
        } else {
            prompt::fence_safe(req.description.trim())
        };
        let current = req
            .schema
            .as_ref()
            .map(|s| prompt::fence_safe(&serde_json::to_string_pretty(s).unwrap_or_default()));
        let template = if current.is_some() { &self.prompts.refine } else { &self.prompts.generate };
        let used = template.len() + description.len() + current.as_ref().map_or(0, String::len);
        let budget = self.limits.prompt_chars.saturating_sub(used).max(2_000);
        let process_text = match process {
            Some(p) => bpmn::describe(p, element, budget).unwrap_or_default(),
            None => String::new(),
        };
        let process_text = if process_text.is_empty() {
            "(no process)".to_string()
        } else {
            prompt::fence_safe(&process_text)
        };
        let vars = [
            ("target", target.as_str()),
            ("form_binding", binding.as_str()),
            ("description", description.as_str()),
            ("process", process_text.as_str()),
            ("current_form", current.as_deref().unwrap_or("")),
        ];
        let name = if current.is_some() { "refine" } else { "generate" };
        prompt::render(name, template, &vars).expect("templates were checked at start")
    }

    fn repair_prompt(&self, problems: &[String], previous: &str, request: &str) -> String {
        let problems: String = problems.iter().map(|p| format!("- {p}\n")).collect();
        let previous: String = previous.chars().take(6_000).collect();
        let previous =
            if previous.is_empty() { "(cut off)".to_string() } else { prompt::fence_safe(&previous) };
        prompt::render(
            "repair",
            &self.prompts.repair,
            &[("problems", problems.trim_end()), ("previous_answer", &previous), ("request", request)],
        )
        .expect("templates were checked at start")
    }

    /// Takes a service-wide and a per-Worker permit, or says how long to wait.
    fn admit(&self, worker: &Worker) -> Result<(OwnedSemaphorePermit, OwnedSemaphorePermit), ServiceError> {
        let global = self.global.clone().try_acquire_owned().map_err(|_| ServiceError::Busy {
            in_flight: self.limits.concurrent_generations,
            scope: "",
            retry_after_s: 5,
        })?;
        let per = self.per_worker.get(&worker.name).expect("every Worker has a semaphore").clone();
        let capacity = if worker.max_concurrent == 0 {
            self.limits.concurrent_per_worker
        } else {
            worker.max_concurrent
        };
        let local = per.try_acquire_owned().map_err(|_| ServiceError::Busy {
            in_flight: capacity,
            scope: " on this Worker",
            retry_after_s: 5,
        })?;
        Ok((global, local))
    }

    fn check_bpmn(&self, xml: &str) -> Result<(), ServiceError> {
        if xml.len() > self.limits.bpmn_bytes {
            return Err(too_large(
                "BPMN",
                xml.len(),
                "bytes",
                self.limits.bpmn_bytes,
                "send a smaller process",
            ));
        }
        Ok(())
    }

    fn check_schema(&self, schema: &Value) -> Result<(), ServiceError> {
        let size = serde_json::to_vec(schema).map(|v| v.len()).unwrap_or(0);
        if size > self.limits.schema_bytes {
            return Err(too_large(
                "current form",
                size,
                "bytes",
                self.limits.schema_bytes,
                "send a smaller form",
            ));
        }
        Ok(())
    }

    /// Resolves the process a request names: `processXml` first, else the store's draft, else its
    /// deployed version; then checks the element.
    pub async fn context(
        &self,
        process_id: &str,
        process_xml: &str,
        element_id: &str,
    ) -> Result<Context, ServiceError> {
        let (process_id, element_id) = (process_id.trim(), element_id.trim());
        let mut context = Context { element_id: element_id.to_string(), ..Context::default() };
        let (definitions, origin) = if !process_xml.trim().is_empty() {
            (Arc::new(bpmn::read_str(process_xml)), Origin::Request)
        } else if !process_id.is_empty() {
            let store = self.store.clone();
            let id = process_id.to_string();
            let found = tokio::task::spawn_blocking(move || store.lookup(&id)).await.unwrap_or(None);
            match found {
                Some(source) => (source.definitions, source.origin),
                None => return Err(ServiceError::UnknownProcess(process_id.to_string())),
            }
        } else {
            return Ok(context);
        };
        if definitions.processes.is_empty() {
            context.warnings.push(
                "The process could not be read (no BPMN process in it), so the description was the whole brief.".into(),
            );
            context.origin = Some(origin);
            context.element_id.clear();
            return Ok(context);
        }
        let process = if !process_id.is_empty() {
            definitions
                .process(process_id)
                .ok_or_else(|| ServiceError::UnknownProcess(process_id.to_string()))?
        } else if !element_id.is_empty() {
            definitions
                .processes
                .iter()
                .find(|p| p.element(element_id).is_some())
                .unwrap_or(&definitions.processes[0])
        } else {
            &definitions.processes[0]
        };
        if !element_id.is_empty() && process.element(element_id).is_none() {
            return Err(ServiceError::UnknownElement {
                process: process.id.clone(),
                element: element_id.to_string(),
            });
        }
        context.process = Some(Arc::new(process.clone()));
        context.origin = Some(origin);
        Ok(context)
    }

    /// The gate on a hand-written form.
    pub async fn validate(&self, req: ValidateRequest) -> Result<ValidateResponse, ServiceError> {
        self.check_bpmn(&req.process_xml)?;
        let context = self.context(&req.process_id, &req.process_xml, "").await?;
        let form_id = Some(req.form_id.trim()).filter(|f| !f.is_empty());
        let process = context.process.as_deref();
        let result = match (req.schema, req.text) {
            (Some(schema), _) => {
                self.check_schema(&schema)?;
                gate::check_value(schema, form_id, process)
            }
            (None, Some(text)) => {
                if text.len() > self.limits.schema_bytes {
                    return Err(too_large(
                        "form",
                        text.len(),
                        "bytes",
                        self.limits.schema_bytes,
                        "send a smaller form",
                    ));
                }
                gate::check(&text, form_id, process)
            }
            (None, None) => return Err(ServiceError::FormRequired),
        };
        match result {
            Ok(p) => {
                let mut warnings = context.warnings;
                warnings.extend(p.warnings);
                Ok(ValidateResponse { schema: p.schema, warnings })
            }
            Err(e @ (GateError::Unreadable(_) | GateError::Stopped)) => {
                Err(ServiceError::Refused(e.problems()))
            }
            Err(GateError::Refused(problems)) => Err(ServiceError::Refused(problems)),
        }
    }

    /// What a model would be shown.
    pub async fn outline(&self, req: OutlineRequest) -> Result<OutlineResponse, ServiceError> {
        self.check_bpmn(&req.process_xml)?;
        if req.process_id.trim().is_empty() && req.process_xml.trim().is_empty() {
            return Err(ServiceError::ProcessRequired);
        }
        let context = self.context(&req.process_id, &req.process_xml, &req.element_id).await?;
        let nothing = Process::default();
        let process = context.process.as_deref().unwrap_or(&nothing);
        let text = bpmn::describe(process, &context.element_id, self.limits.prompt_chars).unwrap_or_default();
        Ok(OutlineResponse {
            process: bpmn::OutlineProcess::from(process),
            text,
            process_source: context.origin.map(|o| o.as_str().to_string()).unwrap_or_default(),
        })
    }
}

fn too_large(
    what: &'static str,
    size: usize,
    unit: &'static str,
    limit: usize,
    advice: &'static str,
) -> ServiceError {
    ServiceError::TooLarge { what, size, unit, limit, advice }
}
