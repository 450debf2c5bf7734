//! The outline JSON of DESIGN.md's contract (`formgen outline --json`, `POST /api/formgen/outline`).
//!
//! Field names and order are the contract's; this is what the reference outliner (bpmn-moddle) prints
//! too, so the two can be compared file by file.
//!
//! After the contract's fields come the data-flow additions (DESIGN.md, "Data flow and the project"),
//! always present so a consumer needs no existence check: per element `reads` (names) and `writes`
//! (`{name, scope}`), computed by [`crate::flow::access`]; per process `declaredFields`, one entry per
//! step that declares a Camunda 7 or Flowable form (`[]` when none does). Reading an outline without
//! them (bpmn-moddle's) gives empty lists.

use serde::{Deserialize, Serialize};

use crate::bpmn::{DeclaredField, Definitions, Element, Process};
use crate::flow::access::{self, ElementAccess, Write};

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
#[serde(rename_all = "camelCase")]
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
    /// The forms its Camunda 7 / Flowable steps declare, in element order.
    #[serde(default)]
    pub declared_fields: Vec<OutlineDeclaredForm>,
}

/// The form one step declares (`camunda:formData`, `flowable:formProperty`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineDeclaredForm {
    /// The step's id.
    pub element: String,
    /// Its `formKey`, `""` when none.
    pub form_key: String,
    /// The fields, in document order.
    pub fields: Vec<DeclaredField>,
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
    /// The variables its expressions read, in order of first appearance.
    #[serde(default)]
    pub reads: Vec<String>,
    /// The variables it writes, and the id of the element whose scope holds each.
    #[serde(default)]
    pub writes: Vec<Write>,
}

impl OutlineElement {
    /// The contract's fields alone, without the data-flow additions: what bpmn-moddle is compared on.
    pub fn contract(&self) -> OutlineElement {
        OutlineElement { reads: Vec::new(), writes: Vec::new(), ..self.clone() }
    }

    fn with(mut self, access: ElementAccess) -> Self {
        self.reads = access.reads;
        self.writes = access.writes;
        self
    }
}

impl From<&Element> for OutlineElement {
    fn from(e: &Element) -> Self {
        OutlineElement {
            id: e.id.to_string(),
            kind: e.kind.to_string(),
            name: e.name.to_string(),
            documentation: e.documentation.to_string(),
            condition: e.condition.to_string(),
            form_id: e.form_id.to_string(),
            reads: Vec::new(),
            writes: Vec::new(),
        }
    }
}

impl From<&Process> for OutlineProcess {
    fn from(p: &Process) -> Self {
        OutlineProcess {
            id: p.id.clone(),
            name: p.name.clone(),
            documentation: p.documentation.clone(),
            elements: p
                .elements
                .iter()
                .zip(access::of_process(p))
                .map(|(e, access)| OutlineElement::from(e).with(access))
                .collect(),
            variables: p.variables().into_iter().map(str::to_string).collect(),
            declared_fields: p
                .elements
                .iter()
                .filter(|e| !e.declared().fields.is_empty())
                .map(|e| OutlineDeclaredForm {
                    element: e.id.to_string(),
                    form_key: e.declared().form_key.clone(),
                    fields: e.declared().fields.clone(),
                })
                .collect(),
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

/// The outline of one file borrowed from the read document: the same JSON as [`OutlineFile`] (field for
/// field, in the same order), written straight to an output without copying a string first. What
/// `formgen outline --json` prints; [`OutlineFile`] is for who must keep the outline past the document.
#[derive(Debug, Serialize)]
pub struct OutlineView<'a> {
    file: &'a str,
    processes: Vec<ProcessView<'a>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ProcessView<'a> {
    id: &'a str,
    name: &'a str,
    documentation: &'a str,
    elements: ElementsView<'a>,
    variables: Vec<&'a str>,
    declared_fields: DeclaredFieldsView<'a>,
}

/// A process's elements, each with what it reads and writes, worked out as it is written: the outline of
/// a 50,000-element process holds one element's reads and writes at a time, not all of them.
#[derive(Debug)]
struct ElementsView<'a>(&'a Process);

impl Serialize for ElementsView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        serializer.collect_seq(p.elements.iter().enumerate().map(|(i, e)| {
            let access = access::of_element(p, i);
            ElementView {
                id: &e.id,
                kind: e.kind.as_str(),
                name: &e.name,
                documentation: &e.documentation,
                condition: &e.condition,
                form_id: &e.form_id,
                reads: access.reads,
                writes: access.writes,
            }
        }))
    }
}

/// The declared form fields of a process's elements, found as they are written.
#[derive(Debug)]
struct DeclaredFieldsView<'a>(&'a Process);

impl Serialize for DeclaredFieldsView<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.elements.iter().filter(|e| !e.declared().fields.is_empty()).map(|e| {
            DeclaredView { element: &e.id, form_key: &e.declared().form_key, fields: &e.declared().fields }
        }))
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ElementView<'a> {
    id: &'a str,
    kind: &'a str,
    name: &'a str,
    documentation: &'a str,
    condition: &'a str,
    form_id: &'a str,
    reads: Vec<String>,
    writes: Vec<Write>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct DeclaredView<'a> {
    element: &'a str,
    form_key: &'a str,
    fields: &'a [DeclaredField],
}

impl<'a> OutlineView<'a> {
    /// The outline of `processes` (of one read document) under a file name.
    pub fn new(file: &'a str, processes: impl IntoIterator<Item = &'a Process>) -> Self {
        OutlineView { file, processes: processes.into_iter().map(ProcessView::new).collect() }
    }
}

/// One line of `formgen outline --json`: a file's outline and, for a step, its data picture, with what
/// is wrong with the processes themselves.
#[derive(Debug, Serialize)]
pub struct Line<'a> {
    /// The file's outline.
    #[serde(flatten)]
    pub outline: OutlineView<'a>,
    /// The step's data picture, when a step was named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<crate::flow::Picture>,
    /// What is wrong with the processes themselves (names read that nothing writes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<crate::check::Finding>,
}

impl<'a> ProcessView<'a> {
    fn new(p: &'a Process) -> Self {
        ProcessView {
            id: &p.id,
            name: &p.name,
            documentation: &p.documentation,
            elements: ElementsView(p),
            variables: p.variables(),
            declared_fields: DeclaredFieldsView(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_borrowed_view_writes_the_owned_outline_byte_for_byte() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bpmn");
        for name in [
            "vacation.bpmn",
            "dataflow-c7.bpmn",
            "dataflow-flowable.bpmn",
            "dataflow-zeebe.bpmn",
            "expense-c7.bpmn",
            "order.bpmn",
        ] {
            let defs = crate::bpmn::read(&std::fs::read(dir.join(name)).unwrap());
            let owned = serde_json::to_string(&OutlineFile::new(name, &defs)).unwrap();
            let view = serde_json::to_string(&OutlineView::new(name, &defs.processes)).unwrap();
            assert_eq!(view, owned, "{name}");
        }
    }
}
