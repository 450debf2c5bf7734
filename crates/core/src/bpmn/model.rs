//! The process outline: what a BPMN document says about itself, as much as a form generator can use.
//!
//! These are plain data. The public fields are the contract of DESIGN.md ("The process outline"); the
//! rest (where a variable comes from, flow ends, default flows, lanes, linked form bodies) is kept for
//! the prompt and the builtin drafter, which need the shape of the process and not only its names.

use serde::Serialize;

use super::kind::ElementKind;
use super::places::{Access, DeclaredForm};

/// Everything read from one BPMN document. `Definitions::default()` is "nothing could be read", which
/// callers treat as "the author's description is the whole brief", never as an error.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Definitions {
    /// Every `process` of the definitions, in document order.
    pub processes: Vec<Process>,
}

impl Definitions {
    /// The process with this id, if the document has one.
    pub fn process(&self, id: &str) -> Option<&Process> {
        self.processes.iter().find(|p| p.id == id)
    }
}

/// One `process`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Process {
    /// The `id` attribute, as written.
    pub id: String,
    /// The `name` attribute, trimmed; `""` when absent.
    pub name: String,
    /// The name of the pool (a collaboration's `participant`) that shows the process, trimmed; `""`
    /// when none: what a modeller sees of a process whose own name is left empty.
    pub pool: String,
    /// The `documentation` children's text, each trimmed, empty ones dropped, joined with `\n`.
    pub documentation: String,
    /// Every flow element, descending into sub-processes (parent before children), document order.
    pub elements: Vec<Element>,
    /// Every place a variable name occurs, in document order (not deduplicated: see [`Process::variables`]).
    pub variable_uses: Vec<VariableUse>,
    /// Lanes, which name the roles that do the work.
    pub lanes: Vec<Lane>,
    /// `zeebe:userTaskForm` bodies, which a `camunda-forms:bpmn:<id>` form key links to.
    pub linked_forms: Vec<LinkedForm>,
    /// The elements by id, built on the first lookup.
    pub index: IdIndex,
}

/// The index of a process's elements by id, built once on the first lookup: the data flow looks an
/// element up by id for every flow and every read, and a scan each time made the check quadratic in
/// the process. It holds the first element of each id (a broken draft may repeat one) and answers
/// only for the element list it was built from; a list that has grown since is scanned.
#[derive(Default)]
pub struct IdIndex(std::sync::OnceLock<(usize, std::collections::HashMap<Text, usize>)>);

impl IdIndex {
    fn of(&self, elements: &[Element]) -> Option<&std::collections::HashMap<Text, usize>> {
        let (len, map) = self.0.get_or_init(|| {
            let mut map = std::collections::HashMap::with_capacity(elements.len());
            for (i, e) in elements.iter().enumerate() {
                map.entry(e.id.clone()).or_insert(i);
            }
            (elements.len(), map)
        });
        (*len == elements.len()).then_some(map)
    }
}

impl Clone for IdIndex {
    /// A copy's elements may change apart from these: it builds its own.
    fn clone(&self) -> Self {
        IdIndex::default()
    }
}

impl PartialEq for IdIndex {
    /// An index says nothing of its process: two processes are equal by what they hold.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for IdIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IdIndex")
    }
}

/// The text of an element's attribute or child. Most are short (ids, references, form ids) and are
/// kept in the 16 bytes of the value itself, without an allocation of their own. With `String`s the
/// record was 80 bytes larger and every short text allocated: `outline --json` of the 19.5 MB
/// synthetic process made 15% more allocations and peaked 6.5 MB higher.
pub type Text = ecow::EcoString;

/// One flow element: a step, an event, a gateway, a flow, a data object.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Element {
    /// The `id` attribute, as written.
    pub id: Text,
    /// Its kind: the BPMN local name (`userTask`, `sequenceFlow`, ...), parsed.
    pub kind: ElementKind,
    /// The `name` attribute, trimmed.
    pub name: Text,
    /// The `documentation` children's text, as for [`Process::documentation`].
    pub documentation: Text,
    /// A sequence flow's `conditionExpression`, trimmed; `""` otherwise.
    pub condition: Text,
    /// The form the step binds: `zeebe:formDefinition@formId`, else `@formKey`, else `camunda:formKey`.
    pub form_id: Text,
    /// Index (in [`Process::elements`]) of the sub-process this element sits in, if any.
    pub parent: Option<usize>,
    /// A sequence flow's `sourceRef`.
    pub source: Text,
    /// A sequence flow's `targetRef`.
    pub target: Text,
    /// The `default` attribute of a gateway or activity: the flow taken when no condition holds.
    pub default_flow: Text,
    /// A boundary event's `attachedToRef`.
    pub attached_to: Text,
    /// A `dataObjectReference`'s `dataObjectRef`.
    pub data_object_ref: Text,
    /// Every place the element evaluates an expression or stores a value, in document order (the
    /// message, error, escalation or signal it refers to last).
    pub accesses: Vec<Access>,
    /// The form a Camunda 7 or Flowable step declares (`camunda:formData`, `formProperty`), boxed:
    /// only those steps have one, and a record of 50,000 elements need not hold room for it in each.
    /// Read it through [`Element::declared`].
    pub declared_form: Option<Box<DeclaredForm>>,
}

/// The declared form of an element that declares none.
static NO_DECLARED_FORM: DeclaredForm = DeclaredForm { form_key: String::new(), fields: Vec::new() };

impl Element {
    /// The form the step declares; an empty one when it declares none.
    pub fn declared(&self) -> &DeclaredForm {
        self.declared_form.as_deref().unwrap_or(&NO_DECLARED_FORM)
    }

    /// The form the step declares, made when it is first written.
    pub(crate) fn declared_mut(&mut self) -> &mut DeclaredForm {
        self.declared_form.get_or_insert_with(Box::default)
    }

    /// Its output mappings as `(source, target)` texts, in document order.
    pub(crate) fn output_mappings(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        (0..self.accesses.len()).filter_map(|k| self.output_mapping_at(k))
    }

    /// The output mapping whose source is the access at `k`, as `(source, target)` texts: the reader
    /// records a mapping's source and then its target, side by side (a target without a source, or
    /// the reverse, is no mapping).
    pub(crate) fn output_mapping_at(&self, k: usize) -> Option<(&str, &str)> {
        use super::places::Place;
        self.mapping_at(k, Place::OutputSource, Place::OutputTarget)
    }

    /// Its input mappings as `(source, target)` texts, in document order.
    pub(crate) fn input_mappings(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        use super::places::Place;
        (0..self.accesses.len()).filter_map(|k| self.mapping_at(k, Place::InputSource, Place::InputTarget))
    }

    /// The mapping whose source, at `from`, is the access at `k` and whose target, at `to`, the next.
    fn mapping_at(
        &self,
        k: usize,
        from: super::places::Place,
        to: super::places::Place,
    ) -> Option<(&str, &str)> {
        match self.accesses.get(k..k + 2) {
            Some([source, target]) if source.place == from && target.place == to => {
                Some((source.expression.as_str(), target.expression.trim()))
            }
            _ => None,
        }
    }

    /// Whether this is a sequence flow.
    pub fn is_flow(&self) -> bool {
        self.kind == ElementKind::SequenceFlow
    }

    /// Whether this is a start event of the process itself, not of a sub-process: where a start form
    /// belongs.
    pub(crate) fn is_top_level_start(&self) -> bool {
        self.kind == ElementKind::StartEvent && self.parent.is_none()
    }

    /// Whether this is a gateway of any kind.
    pub(crate) fn is_gateway(&self) -> bool {
        self.kind.is_gateway()
    }

    /// The name if there is one, else the id, on one line: how the element is called in a sentence.
    pub fn label(&self) -> std::borrow::Cow<'_, str> {
        crate::words::one_line(if self.name.trim().is_empty() { &self.id } else { &self.name })
    }
}

/// How a variable name occurs in the process. The role says which way the data moves, which tells a
/// form generator whether a field captures the value (the step's outputs) or shows it (its inputs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum VariableRole {
    /// `zeebe:input@target`, `camunda:inputParameter@name`: the step reads it.
    Input,
    /// `zeebe:output@target`, `camunda:outputParameter@name`: the step writes it.
    Output,
    /// `resultVariable` of a decision, script or service: the step writes it.
    Result,
    /// `zeebe:loopCharacteristics@inputElement`: one item of a collection a multi-instance step reads.
    LoopInput,
    /// `zeebe:loopCharacteristics@outputCollection` / `@outputElement`.
    LoopOutput,
    /// `camunda:formField@id`: a field of a Camunda 7 generated form.
    FormField,
    /// `camunda:in@target`: passed into a called process.
    CallIn,
    /// `camunda:out@target`: passed back from a called process.
    CallOut,
    /// A `dataObject` (or `dataObjectReference`) name.
    DataObject,
}

impl VariableRole {
    /// Whether the step this occurs on produces the value (so a form for that step should capture it).
    pub fn is_written(self) -> bool {
        matches!(
            self,
            VariableRole::Output
                | VariableRole::Result
                | VariableRole::LoopOutput
                | VariableRole::FormField
                | VariableRole::CallOut
        )
    }

    /// Words for the prompt.
    pub fn describe(self) -> &'static str {
        match self {
            VariableRole::Input => "input of",
            VariableRole::Output => "output of",
            VariableRole::Result => "result of",
            VariableRole::LoopInput => "item of the loop over",
            VariableRole::LoopOutput => "collected by the loop over",
            VariableRole::FormField => "form field of",
            VariableRole::CallIn => "passed into the process called by",
            VariableRole::CallOut => "passed back from the process called by",
            VariableRole::DataObject => "data object",
        }
    }
}

/// One occurrence of a variable name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableUse {
    /// The name, trimmed, never empty.
    pub name: String,
    /// Index (in [`Process::elements`]) of the innermost flow element it occurs on; `None` on the process.
    pub element: Option<usize>,
    /// How it occurs.
    pub role: VariableRole,
}

/// A lane of a lane set: a role or department, and the steps it owns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lane {
    /// The `id` attribute.
    pub id: String,
    /// The `name` attribute, trimmed.
    pub name: String,
    /// The ids listed in its `flowNodeRef`s.
    pub flow_node_refs: Vec<String>,
}

/// A `zeebe:userTaskForm`: a form embedded in the process, linked from a step by
/// `zeebe:formDefinition formKey="camunda-forms:bpmn:<id>"`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkedForm {
    /// The `id` attribute.
    pub id: String,
    /// The form-js JSON text, as written.
    pub body: String,
}

/// A gateway downstream of a step that decides by conditions (or a default flow): the answers a form
/// collects matter where they are decided on.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<'p> {
    /// The gateway.
    pub gateway: &'p Element,
    /// Sequence flows from the step to it.
    pub distance: usize,
    /// Its outgoing flows, in document order.
    pub flows: Vec<&'p Element>,
}

/// The prefix Camunda uses for form keys that point at a `zeebe:userTaskForm` of the same process.
pub const LINKED_FORM_PREFIX: &str = "camunda-forms:bpmn:";

impl Process {
    /// The process's id and its variable names, one use each, without its elements, lanes or forms:
    /// what the gate checks a form's keys against, kept while a generation waits on a model instead
    /// of the whole parsed process.
    pub fn names_only(&self) -> Process {
        let variable_uses = self
            .variables()
            .into_iter()
            .map(|name| VariableUse { name: name.to_string(), element: None, role: VariableRole::DataObject })
            .collect();
        Process { id: self.id.clone(), variable_uses, ..Process::default() }
    }

    /// The name if there is one, else its pool's, else the id, on one line: how the process is called
    /// in a sentence.
    pub fn label(&self) -> std::borrow::Cow<'_, str> {
        crate::words::one_line(self.human_name().unwrap_or(&self.id))
    }

    /// The name a person gave the process: its own, else its pool's.
    pub fn human_name(&self) -> Option<&str> {
        [&self.name, &self.pool].into_iter().map(String::as_str).find(|n| !n.trim().is_empty())
    }

    /// The variable names, deduplicated in order of first appearance (the contract's `variables`).
    pub fn variables(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.variable_uses.iter().map(|u| u.name.as_str()).filter(|n| seen.insert(*n)).collect()
    }

    /// The index of the element with this id. With duplicate ids (a broken draft), the first one.
    pub fn element_index(&self, id: &str) -> Option<usize> {
        match self.index.of(&self.elements) {
            Some(map) => map.get(id).copied(),
            None => self.elements.iter().position(|e| e.id == id),
        }
    }

    /// The element with this id.
    pub fn element(&self, id: &str) -> Option<&Element> {
        self.element_index(id).map(|i| &self.elements[i])
    }

    /// Sequence flows leaving the element with this id, in document order.
    pub fn outgoing<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.elements.iter().filter(move |e| e.is_flow() && e.source == id)
    }

    /// Sequence flows arriving at the element with this id, in document order.
    pub fn incoming<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.elements.iter().filter(move |e| e.is_flow() && e.target == id)
    }

    /// The lanes that list this element.
    pub fn lanes_of<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Lane> + 'a {
        self.lanes.iter().filter(move |l| l.flow_node_refs.iter().any(|r| r == id))
    }

    /// The embedded form body a step's form key links to, if it links to one this process holds.
    pub fn linked_form(&self, element: &Element) -> Option<&LinkedForm> {
        let id = element.form_id.strip_prefix(LINKED_FORM_PREFIX)?;
        self.linked_forms.iter().find(|f| f.id == id)
    }

    /// The deciding gateways reachable along sequence flows from the element at `from` (and the boundary
    /// events attached to it), or from the start events when `from` is `None`; nearest first.
    pub(crate) fn decisions_after(&self, from: Option<usize>) -> Vec<Decision<'_>> {
        use std::collections::{HashMap, HashSet, VecDeque};
        let mut by_id: HashMap<&str, &Element> = HashMap::new();
        let mut outgoing: HashMap<&str, Vec<&Element>> = HashMap::new();
        for e in &self.elements {
            by_id.entry(e.id.as_str()).or_insert(e);
            if e.is_flow() {
                outgoing.entry(e.source.as_str()).or_default().push(e);
            }
        }
        let starts: Vec<&str> = match from {
            Some(i) => {
                let id = self.elements[i].id.as_str();
                std::iter::once(id)
                    .chain(
                        self.elements
                            .iter()
                            .filter(|b| b.kind == ElementKind::BoundaryEvent && b.attached_to == id)
                            .map(|b| b.id.as_str()),
                    )
                    .collect()
            }
            None => self
                .elements
                .iter()
                .filter(|e| e.kind == ElementKind::StartEvent)
                .map(|e| e.id.as_str())
                .collect(),
        };
        let mut seen: HashSet<&str> = starts.iter().copied().collect();
        let mut queue: VecDeque<(&str, usize)> = starts.into_iter().map(|s| (s, 0)).collect();
        let mut decisions = Vec::new();
        while let Some((id, distance)) = queue.pop_front() {
            let flows = outgoing.get(id).cloned().unwrap_or_default();
            if let Some(node) = by_id.get(id)
                && node.is_gateway()
                && distance > 0
                && flows.iter().any(|f| !f.condition.is_empty() || node.default_flow == f.id)
            {
                decisions.push(Decision { gateway: node, distance, flows: flows.clone() });
            }
            for f in flows {
                if seen.insert(f.target.as_str()) {
                    queue.push_back((f.target.as_str(), distance + 1));
                }
            }
        }
        decisions
    }

    /// The variable uses that occur on the element with this index.
    pub fn uses_of(&self, index: usize) -> impl Iterator<Item = &VariableUse> + '_ {
        self.variable_uses.iter().filter(move |u| u.element == Some(index))
    }
}
