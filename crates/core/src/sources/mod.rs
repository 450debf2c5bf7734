//! Process sources: which process, and which step of it, a request is about.
//!
//! In order: the BPMN the author has open in the editor right now (`processXml`, `processSource:
//! "request"`); else the process's draft in the store; else its deployed version (`store.rs`). The
//! service's resolver does this once per request and returns a [`Target`]: the shared parsed
//! definitions with the *indexes* of the process and the step, so no later stage looks anything up
//! by string again, and nothing is copied out of the shared definitions. The target carries the
//! process's project: the forms and decisions of the store's project folder, with those the request
//! sends (what the editor has open) laid over them.
//!
//! This module finds and reads processes and their projects; it knows nothing of HTTP, prompts or models.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::bpmn::{self, Definitions, Element, Process};
use crate::project::{self, Project, ProjectBounds};

/// Where a process was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// `processes/drafts/`: a process that is not running yet.
    Draft,
    /// `processes/deployed/`: the version currently deployed.
    Deployment,
    /// `processXml` in the request: what the author has open now.
    Request,
}

impl Origin {
    /// What the source is called in a sentence.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Origin::Draft => "process draft",
            Origin::Deployment => "deployed process",
            Origin::Request => "BPMN sent (processXml)",
        }
    }

    /// The `processSource` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Draft => "draft",
            Origin::Deployment => "deployment",
            Origin::Request => "request",
        }
    }
}

/// A resolved process and step: what every stage after the resolver works on.
#[derive(Debug, Clone)]
pub struct Target {
    definitions: Arc<Definitions>,
    process: usize,
    element: Option<usize>,
    origin: Origin,
    project: Arc<Project>,
    /// The size of the text the definitions were read from (0 when not known).
    source_bytes: u64,
}

impl Target {
    /// The process.
    pub fn process(&self) -> &Process {
        &self.definitions.processes[self.process]
    }

    /// The step's index in [`Process::elements`]; none for the start form.
    pub fn element_index(&self) -> Option<usize> {
        self.element
    }

    /// The step; none for the start form.
    pub fn element(&self) -> Option<&Element> {
        self.element.map(|i| &self.process().elements[i])
    }

    /// The step's id as the process writes it (`""` for the start form).
    pub fn element_id(&self) -> &str {
        self.element().map_or("", |e| e.id.as_str())
    }

    /// Where the process came from.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The forms and decisions around the process.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The same target with this project around it (for callers that read the project themselves).
    pub fn with_project(self, project: Arc<Project>) -> Target {
        Target { project, ..self }
    }

    /// The same target, read from `bytes` of text.
    pub fn with_source_bytes(self, bytes: u64) -> Target {
        Target { source_bytes: bytes, ..self }
    }

    /// The size of the text the process was read from (the request's BPMN, or its file in the
    /// store): what reading and outlining it costs is about proportional to it.
    pub fn source_bytes(&self) -> u64 {
        self.source_bytes
    }

    /// The whole document the process was read from (a file may hold several processes).
    pub fn definitions(&self) -> &Definitions {
        &self.definitions
    }
}

/// What a request's process fields came to.
#[derive(Debug, Clone)]
pub enum Resolved {
    /// The request named no process: the brief is all there is.
    Nothing,
    /// A source was found but holds no BPMN process (not even a broken one): the brief is all there is.
    NoProcess(Origin),
    /// The process and step.
    Found(Target),
}

impl Resolved {
    /// The target, when a process was read.
    pub fn target(&self) -> Option<&Target> {
        match self {
            Resolved::Found(t) => Some(t),
            _ => None,
        }
    }

    /// Where the process came from, when a source was read.
    pub fn origin(&self) -> Option<Origin> {
        match self {
            Resolved::Nothing => None,
            Resolved::NoProcess(o) => Some(*o),
            Resolved::Found(t) => Some(t.origin),
        }
    }

    /// What the author should know about the source.
    pub fn warnings(&self) -> Vec<String> {
        match self {
            Resolved::NoProcess(_) => vec![
                "The process could not be read (no BPMN process in it), so nothing of a process went into this."
                    .into(),
            ],
            Resolved::Found(t) => {
                let mut warnings = t.project.warnings.clone();
                warnings.extend(reading_warnings(t.process()));
                warnings
            }
            Resolved::Nothing => Vec::new(),
        }
    }
}

/// How many unread conditions a warning names before it counts the rest.
const NAMED_UNREAD: usize = 3;

/// What the author should know of how the process was read: the conditions left unread because they
/// nest too deeply ([`bpmn::nests_too_deeply`]), the first few by name and then how many more.
pub fn reading_warnings(process: &Process) -> Vec<String> {
    let unread: Vec<&Element> = process
        .elements
        .iter()
        .filter(|e| !e.condition.is_empty() && bpmn::nests_too_deeply(&e.condition))
        .collect();
    let mut warnings: Vec<String> = unread
        .iter()
        .take(NAMED_UNREAD)
        .map(|e| {
            format!(
                "The condition of the sequence flow \"{}\" nests brackets or `not`s more than {} levels deep, so it was not read; nothing it decides on went into this.",
                e.label(),
                crate::limits::nesting::EXPRESSION
            )
        })
        .collect();
    if unread.len() > NAMED_UNREAD {
        warnings.push(format!(
            "{} more conditions nest that deeply and were not read either.",
            unread.len() - NAMED_UNREAD
        ));
    }
    warnings
}

/// Why the process or step a request names cannot be found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// `processId` names no stored process (or none in `processXml`).
    #[error("there is no process \"{0}\"; check the process id, or send the BPMN as processXml")]
    UnknownProcess(String),
    /// `elementId` names nothing in the process.
    #[error(
        "the process \"{process}\" has no element \"{element}\"; pick a step of this process, or none for the start form"
    )]
    UnknownElement {
        /// The process.
        process: String,
        /// The id asked for.
        element: String,
    },
    /// An element was named, but the source holds no BPMN process at all (not even a broken one).
    #[error(
        "the {} holds no BPMN process (no definitions element with a process in it), so it has no step \"{element}\"; send the .bpmn file of the process",
        .origin.noun()
    )]
    NotBpmn {
        /// Where the text came from.
        origin: Origin,
        /// The step asked for.
        element: String,
    },
    /// The request's forms and decisions are over the project limits.
    #[error("{0}")]
    ProjectTooLarge(String),
    /// Reading the store failed in a way that is formgen's fault, not the request's.
    #[error("formgen could not read its process store; the operator will find the reason in the log")]
    StoreFailed,
}

/// What a request says about its process, as the service has normalised it: the ids trimmed, and a
/// field not given (missing, `null` or blank) none.
#[derive(Debug, Clone, Copy, Default)]
pub struct Named<'a> {
    /// `processId`.
    pub process_id: Option<&'a str>,
    /// `processXml`.
    pub process_xml: Option<&'a str>,
    /// `elementId`.
    pub element_id: Option<&'a str>,
    /// `forms`: form-js schemas of the process's project the editor holds.
    pub forms: &'a [Value],
    /// `decisions`: DMN documents of the process's project the editor holds.
    pub decisions: &'a [String],
}

/// What a request sends of its process, read: the BPMN of `processXml` (none when it sends none) and
/// the project of its `forms` and `decisions` (none when it sends neither). CPU work, linear in what
/// was sent: the caller decides on which thread ([`read_sent`]).
#[derive(Debug, Default)]
pub struct Sent {
    /// `processXml`, parsed, and its size.
    pub process: Option<(Arc<Definitions>, u64)>,
    /// `forms` and `decisions`, read.
    pub project: Option<Project>,
}

/// Reads what a request sends: its project within `bounds` (refused whole past them), then its BPMN.
pub fn read_sent(named: Named<'_>, bounds: &ProjectBounds) -> Result<Sent, SourceError> {
    let project = if named.forms.is_empty() && named.decisions.is_empty() {
        None
    } else {
        Some(
            project::from_request(named.forms, named.decisions, bounds)
                .map_err(|e| SourceError::ProjectTooLarge(e.to_string()))?,
        )
    };
    let process = named.process_xml.map(|xml| (Arc::new(bpmn::read_str(xml)), xml.len() as u64));
    Ok(Sent { process, project })
}

/// Picks the process and step inside read definitions: the named process, else the one holding the
/// step, else the first.
pub fn locate(
    definitions: Arc<Definitions>,
    origin: Origin,
    process_id: &str,
    element_id: &str,
) -> Result<Resolved, SourceError> {
    let (process_id, element_id) = (process_id.trim(), element_id.trim());
    if definitions.processes.is_empty() {
        if !element_id.is_empty() {
            return Err(SourceError::NotBpmn { origin, element: element_id.to_string() });
        }
        return Ok(Resolved::NoProcess(origin));
    }
    let process = if !process_id.is_empty() {
        definitions
            .processes
            .iter()
            .position(|p| p.id == process_id)
            .ok_or_else(|| SourceError::UnknownProcess(process_id.to_string()))?
    } else if !element_id.is_empty() {
        definitions.processes.iter().position(|p| p.element_index(element_id).is_some()).unwrap_or(0)
    } else {
        0
    };
    let element = if element_id.is_empty() {
        None
    } else {
        let p = &definitions.processes[process];
        Some(p.element_index(element_id).ok_or_else(|| SourceError::UnknownElement {
            process: p.id.clone(),
            element: element_id.to_string(),
        })?)
    };
    Ok(Resolved::Found(Target {
        definitions,
        process,
        element,
        origin,
        project: Arc::default(),
        source_bytes: 0,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P"><userTask id="a"/></process><process id="Q"><userTask id="b"/></process></definitions>"#;

    fn defs() -> Arc<Definitions> {
        Arc::new(bpmn::read_str(TWO))
    }

    #[test]
    fn the_step_picks_its_process_and_is_trimmed() {
        let Resolved::Found(t) = locate(defs(), Origin::Request, "", " b ").unwrap() else { panic!() };
        assert_eq!((t.process().id.as_str(), t.element_id(), t.element_index()), ("Q", "b", Some(0)));
        let Resolved::Found(t) = locate(defs(), Origin::Request, "", "").unwrap() else { panic!() };
        assert_eq!((t.process().id.as_str(), t.element()), ("P", None));
    }

    #[test]
    fn unknown_process_and_element() {
        assert_eq!(
            locate(defs(), Origin::Request, "R", "").unwrap_err(),
            SourceError::UnknownProcess("R".into())
        );
        assert_eq!(
            locate(defs(), Origin::Request, "P", "b").unwrap_err(),
            SourceError::UnknownElement { process: "P".into(), element: "b".into() }
        );
        let none = locate(Arc::new(Definitions::default()), Origin::Draft, "", "").unwrap();
        assert!(matches!(none, Resolved::NoProcess(Origin::Draft)));
        assert_eq!(
            locate(Arc::new(Definitions::default()), Origin::Request, "", "x").unwrap_err(),
            SourceError::NotBpmn { origin: Origin::Request, element: "x".into() }
        );
        assert_eq!(none.warnings().len(), 1);
    }
}
