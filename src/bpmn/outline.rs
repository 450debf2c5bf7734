//! The outline JSON of DESIGN.md's contract (`formgen outline --json`, `POST /api/formgen/outline`).
//!
//! Field names and order are the contract's; this is what the reference outliner (bpmn-moddle) prints
//! too, so the two can be compared file by file.

use serde::{Deserialize, Serialize};

use super::model::{Definitions, Element, Process};

/// One input file's outline: one line of `formgen outline --json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutlineFile {
    /// The file's base name.
    pub file: String,
    /// Every process, in document order.
    pub processes: Vec<OutlineProcess>,
}

/// One process of the outline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct OutlineProcess {
    /// The process id.
    pub id: String,
    /// Its name, trimmed.
    pub name: String,
    /// Its documentation.
    pub documentation: String,
    /// Every flow element, parent before children, document order.
    pub elements: Vec<OutlineElement>,
    /// Variable names, deduplicated, in order of first appearance.
    pub variables: Vec<String>,
}

/// One flow element of the outline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineElement {
    /// The element id.
    pub id: String,
    /// The BPMN local name.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its documentation.
    pub documentation: String,
    /// A sequence flow's condition.
    pub condition: String,
    /// The form it binds.
    pub form_id: String,
}

impl From<&Element> for OutlineElement {
    fn from(e: &Element) -> Self {
        OutlineElement {
            id: e.id.clone(),
            kind: e.kind.to_string(),
            name: e.name.clone(),
            documentation: e.documentation.clone(),
            condition: e.condition.clone(),
            form_id: e.form_id.clone(),
        }
    }
}

impl From<&Process> for OutlineProcess {
    fn from(p: &Process) -> Self {
        OutlineProcess {
            id: p.id.clone(),
            name: p.name.clone(),
            documentation: p.documentation.clone(),
            elements: p.elements.iter().map(OutlineElement::from).collect(),
            variables: p.variables().into_iter().map(str::to_string).collect(),
        }
    }
}

impl OutlineFile {
    /// The outline of a read document under a file name.
    pub fn new(file: impl Into<String>, defs: &Definitions) -> Self {
        OutlineFile {
            file: file.into(),
            processes: defs.processes.iter().map(OutlineProcess::from).collect(),
        }
    }
}
