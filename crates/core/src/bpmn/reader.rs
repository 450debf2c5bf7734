//! The lenient BPMN reader: XML events in, [`Definitions`] out, never an error.
//!
//! quick-xml supplies the events and the shared walk ([`super::xml::Walk`]) keeps the stack of open
//! elements and skips whole the subtrees this file ignores (diagrams, vendor extensions, unknown
//! elements); this file decides what each element and its text mean for the outline, as a [`Frame`]
//! (what the open element is to us). The rules follow what bpmn-moddle, the reader inside bpmn-js and
//! Camunda's modellers, makes of the same file: unknown BPMN elements are skipped with everything
//! inside them, extension elements of other vendors likewise, and only the elements and attributes
//! the contract names are read.
//!
//! Where moddle gives up and we do not: a document that breaks (truncated, a mismatched tag, garbage)
//! yields everything read before the break, and elements whose id is not a valid XML name or repeats
//! another id are kept. See the README's "Where formgen reads differently from bpmn-moddle".

use super::kind::ElementKind;
use super::model::{Definitions, Element, Lane, LinkedForm, Process, Text, VariableRole};
use super::places::{Access, Dialect, Place};
use super::variables::CAMUNDA_RESULT_KINDS;
use super::xml::{Ns, Scopes, Tag, Walk, push_reference, unescape, walk_str};

/// Other BPMN children a process or sub-process may have; moddle skips anything not listed.
const CONTAINER_CHILDREN: &[&str] = &[
    "laneSet",
    "textAnnotation",
    "association",
    "group",
    "ioSpecification",
    "property",
    "auditing",
    "monitoring",
    "correlationSubscription",
    "supports",
    "ioBinding",
    "performer",
    "humanPerformer",
    "potentialOwner",
    "resourceRole",
    "multiInstanceLoopCharacteristics",
    "standardLoopCharacteristics",
    "dataInputAssociation",
    "dataOutputAssociation",
    "completionCondition",
    "incoming",
    "outgoing",
];

/// Child element names that are also the names of properties of their BPMN parents: moddle accepts these
/// without a namespace.
const PROPERTY_NAMES: &[&str] = &[
    "documentation",
    "extensionElements",
    "conditionExpression",
    "flowNodeRef",
    "childLaneSet",
    "incoming",
    "outgoing",
];

/// What an open element is to the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Frame {
    /// `definitions`
    Root,
    /// `process`
    Process,
    /// A flow element, by index; `container` when flow elements may sit inside it.
    Flow { index: usize, container: bool },
    /// `extensionElements` of the process (`None`) or of an element.
    Extensions(Option<usize>),
    /// `documentation` of the process (`None`) or of an element: text collected.
    Documentation(Option<usize>),
    /// A sequence flow's `conditionExpression`: text collected.
    Condition(usize),
    /// `laneSet` / `childLaneSet`
    LaneSet,
    /// `lane`, by index into the process's lanes
    Lane(usize),
    /// `flowNodeRef` of a lane: text collected.
    FlowNodeRef(usize),
    /// `zeebe:userTaskForm`, by index into the process's linked forms: text collected.
    LinkedForm(usize),
    /// Anything else walked through for the variables inside it.
    Inner,
    /// An element whose text is an [`Access`]: what it is sits on `Builder::captures`.
    Capture,
    /// A declared form field of the element (`camunda:formField`, `formProperty`), or its validation.
    Field(usize),
    /// A message, error, escalation or signal of the definitions, by index into `Builder::root_items`.
    RootItem(usize),
    /// `collaboration`, whose participants name the pools of processes.
    Collaboration,
}

impl Frame {
    fn collects_text(self) -> bool {
        matches!(
            self,
            Frame::Documentation(_)
                | Frame::Condition(_)
                | Frame::FlowNodeRef(_)
                | Frame::LinkedForm(_)
                | Frame::Capture
        )
    }
}

/// Reads decoded BPMN text. Never fails: stops at the first break and returns what came before.
pub(super) fn read_text(text: &str) -> Definitions {
    let mut b = Builder::default();
    // (where it broke is not part of the outline)
    walk_str(text, &mut b);
    b.finish()
}

impl Walk for Builder {
    type Frame = Frame;

    fn scopes(&mut self) -> &mut Scopes {
        &mut self.scopes
    }

    fn stack(&mut self) -> &mut Vec<Frame> {
        &mut self.stack
    }

    fn skip(&mut self) -> &mut usize {
        &mut self.skip
    }

    fn frame(&mut self, qname: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let (mut ns, local) = self.scopes.element(qname);
        if ns == Ns::Unbound && PROPERTY_NAMES.contains(&local) {
            ns = Ns::Bpmn; // moddle matches an unqualified child by its parent's property name
        }
        self.frame_for(ns, local, attrs)
    }

    fn close(&mut self, frame: Frame) {
        self.settle(frame);
    }

    fn text(&mut self, text: &str) {
        if self.collecting() {
            self.chunk.push_str(text);
        }
    }

    fn reference(&mut self, name: &str) {
        if self.collecting() {
            push_reference(&mut self.chunk, name);
        }
    }

    fn cdata(&mut self, text: &str) {
        if self.collecting() {
            self.body.push_str(text);
        }
    }

    /// Markup ends a text run: saxen drops a run that is only white space.
    fn markup(&mut self) {
        if !self.chunk.is_empty() {
            if trim(&self.chunk).is_empty() {
                self.chunk.clear();
            } else if self.body.is_empty() {
                std::mem::swap(&mut self.body, &mut self.chunk);
            } else {
                self.body.push_str(&self.chunk);
                self.chunk.clear();
            }
        }
    }
}

#[derive(Default)]
pub(super) struct Builder {
    pub(super) defs: Definitions,
    pub(super) scopes: Scopes,
    pub(super) stack: Vec<Frame>,
    /// Depth inside a subtree being ignored; 0 when reading.
    skip: usize,
    /// The text run since the last markup (saxen drops runs that are only white space).
    chunk: String,
    /// The text of the element being collected.
    body: String,
    /// `(process, variable use, dataObjectRef)` for data object references, settled in `finish`.
    pub(super) data_refs: Vec<(usize, usize, String)>,
    /// The element whose first `zeebe:formDefinition` was read last. An element's extension elements
    /// come together, before any element nested in it, so one slot is enough.
    pub(super) form_defined: Option<usize>,
    /// `(element, place, dialect)` of each open [`Frame::Capture`], innermost last.
    pub(super) captures: Vec<(usize, Place, Dialect)>,
    /// Messages, errors, escalations and signals of the definitions: `(id, accesses)`.
    pub(super) root_items: Vec<(String, Vec<Access>)>,
    /// `(process, element, id)`: an element refers to a root item, settled in `finish`.
    pub(super) refs: Vec<(usize, usize, String)>,
    /// `(processRef, name)` of each named participant, settled in `finish`.
    pub(super) pools: Vec<(String, String)>,
}

impl Builder {
    fn collecting(&self) -> bool {
        self.stack.last().is_some_and(|f| f.collects_text())
    }

    pub(super) fn process(&mut self) -> &mut Process {
        if self.defs.processes.is_empty() {
            self.defs.processes.push(Process::default());
        }
        self.defs.processes.last_mut().expect("a process exists")
    }

    /// The innermost flow element around the current position.
    pub(super) fn current_element(&self) -> Option<usize> {
        self.stack.iter().rev().find_map(|f| match f {
            Frame::Flow { index, .. } => Some(*index),
            _ => None,
        })
    }

    /// The innermost sub-process around the current position.
    fn current_container(&self) -> Option<usize> {
        self.stack.iter().rev().find_map(|f| match f {
            Frame::Flow { index, container: true } => Some(*index),
            _ => None,
        })
    }

    /// Decides what a newly opened element is, recording what its start tag says. `None`: skip it.
    fn frame_for(&mut self, ns: Ns, local: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let parent = self.stack.last().copied();
        match (parent, ns) {
            (None, Ns::Bpmn) if local == "definitions" => Some(Frame::Root),
            (None | Some(Frame::Root), _) => {
                if parent == Some(Frame::Root) && ns == Ns::Bpmn && local == "process" {
                    self.open_process(attrs);
                    Some(Frame::Process)
                } else if parent == Some(Frame::Root) && ns == Ns::Bpmn && local == "collaboration" {
                    Some(Frame::Collaboration)
                } else if parent == Some(Frame::Root) && ns == Ns::Bpmn {
                    self.root_item(local, attrs)
                } else {
                    None
                }
            }
            (Some(Frame::RootItem(item)), _) => self.root_item_child(item, ns, local, attrs),
            (Some(Frame::Collaboration), Ns::Bpmn) if local == "participant" => {
                let (process, name) = (trim(&attrs.value("processRef")).to_string(), attrs.value("name"));
                if !process.is_empty() && !trim(&name).is_empty() {
                    self.pools.push((process, trim(&name).to_string()));
                }
                None
            }
            (Some(Frame::Collaboration), _) => None,
            (Some(Frame::Process | Frame::Flow { container: true, .. }), Ns::Bpmn)
                if ElementKind::parse(local).is_some() =>
            {
                Some(self.open_element(ElementKind::parse(local).expect("checked"), attrs))
            }
            (Some(Frame::Process), Ns::Bpmn) => match local {
                "documentation" => Some(Frame::Documentation(None)),
                "extensionElements" => Some(Frame::Extensions(None)),
                "laneSet" => Some(Frame::LaneSet),
                _ if CONTAINER_CHILDREN.contains(&local) => Some(Frame::Inner),
                _ => None,
            },
            (Some(Frame::Flow { index, .. }), Ns::Bpmn) => match local {
                "documentation" => Some(Frame::Documentation(Some(index))),
                "extensionElements" => Some(Frame::Extensions(Some(index))),
                "conditionExpression" if self.process().elements[index].is_flow() => {
                    Some(Frame::Condition(index))
                }
                "laneSet" => Some(Frame::LaneSet),
                _ if ElementKind::parse(local).is_some() => None,
                _ => {
                    self.camunda_result_variable(local, attrs);
                    Some(self.bpmn_child(index, true, local, attrs))
                }
            },
            (Some(Frame::LaneSet), Ns::Bpmn) if local == "lane" => {
                let lane = Lane {
                    id: attrs.value("id"),
                    name: trim(&attrs.value("name")).to_string(),
                    flow_node_refs: Vec::new(),
                };
                let lanes = &mut self.process().lanes;
                lanes.push(lane);
                Some(Frame::Lane(lanes.len() - 1))
            }
            (Some(Frame::Lane(lane)), Ns::Bpmn) => match local {
                "flowNodeRef" => Some(Frame::FlowNodeRef(lane)),
                "childLaneSet" => Some(Frame::LaneSet),
                _ => Some(Frame::Inner),
            },
            (Some(Frame::Extensions(owner)), Ns::Zeebe) if local == "formDefinition" => {
                if let Some(index) = owner {
                    self.form_definition(index, attrs);
                }
                Some(Frame::Inner)
            }
            (Some(Frame::Extensions(None)), Ns::Zeebe) if local == "userTaskForm" => {
                let forms = &mut self.process().linked_forms;
                forms.push(LinkedForm { id: attrs.value("id"), body: String::new() });
                Some(Frame::LinkedForm(forms.len() - 1))
            }
            (Some(Frame::Extensions(_) | Frame::Inner | Frame::Capture), Ns::Zeebe | Ns::Camunda) => {
                self.extension_variables(ns, local, attrs);
                self.vendor_element(ns, local, attrs)
            }
            (Some(Frame::Extensions(_) | Frame::Inner | Frame::Capture), Ns::Flowable) => {
                self.vendor_element(ns, local, attrs)
            }
            (Some(Frame::Field(index)), Ns::Camunda | Ns::Flowable) => self.field_child(index, local, attrs),
            (Some(Frame::Inner), Ns::Bpmn) => {
                self.camunda_result_variable(local, attrs);
                match self.current_element() {
                    Some(index) => Some(self.bpmn_child(index, false, local, attrs)),
                    None => Some(Frame::Inner),
                }
            }
            _ => None,
        }
    }

    fn open_process(&mut self, attrs: &Tag<'_>) {
        let mut process = Process::default();
        for (name, value) in attrs.iter() {
            match name {
                "id" if process.id.is_empty() => process.id = unescape(value).into_owned(),
                "name" if process.name.is_empty() => process.name = trim(&unescape(value)).to_string(),
                _ => {}
            }
        }
        self.defs.processes.push(process);
        self.form_defined = None;
    }

    fn open_element(&mut self, kind: ElementKind, attrs: &Tag<'_>) -> Frame {
        let parent = self.current_container();
        let mut element = Element { kind, parent, ..Element::default() };
        let mut seen = Seen::default();
        let mut camunda_form_key = String::new();
        let mut result_variable = None;
        for (qname, value) in attrs.iter() {
            match self.scopes.attribute(qname) {
                (None, local) => {
                    let slot = match local {
                        "id" => &mut element.id,
                        "name" => &mut element.name,
                        "sourceRef" => &mut element.source,
                        "targetRef" => &mut element.target,
                        "default" => &mut element.default_flow,
                        "attachedToRef" => &mut element.attached_to,
                        "dataObjectRef" => &mut element.data_object_ref,
                        _ => continue,
                    };
                    if seen.first(local) {
                        *slot = Text::from(&*unescape(value));
                    }
                }
                (Some(Ns::Camunda), "formKey") if kind.takes_a_form() && seen.first("camunda:formKey") => {
                    camunda_form_key = trim(&unescape(value)).to_string();
                }
                (Some(Ns::Camunda), "resultVariable")
                    if CAMUNDA_RESULT_KINDS.contains(&kind.as_str())
                        && seen.first("camunda:resultVariable") =>
                {
                    result_variable = Some(unescape(value).into_owned());
                }
                _ => {}
            }
        }
        if trim(&element.name).len() != element.name.len() {
            element.name = Text::from(trim(&element.name));
        }
        element.form_id = camunda_form_key.into(); // a zeebe:formDefinition, read later, takes precedence
        let container = kind.is_container();
        let process_index = self.defs.processes.len().saturating_sub(1);
        let process = self.process();
        process.elements.push(element);
        let index = process.elements.len() - 1;
        let element = &process.elements[index];
        match kind {
            ElementKind::DataObject => {
                let name = element.name.clone();
                self.add_use(&name, Some(index), VariableRole::DataObject);
            }
            ElementKind::DataObjectReference => {
                let (name, target) = (element.name.clone(), element.data_object_ref.clone());
                if self.add_use(&name, Some(index), VariableRole::DataObject) {
                    let use_index = self.process().variable_uses.len() - 1;
                    self.data_refs.push((process_index, use_index, target.to_string()));
                }
            }
            _ => {}
        }
        if let Some(var) = result_variable {
            self.add_use(&var, Some(index), VariableRole::Result);
        }
        self.element_attributes(index, kind.as_str(), attrs);
        Frame::Flow { index, container }
    }

    /// An element ends: settle the text it collected.
    fn settle(&mut self, frame: Frame) {
        if !frame.collects_text() {
            return;
        }
        let mut body = std::mem::take(&mut self.body);
        if trim(&body).len() != body.len() {
            body = trim(&body).to_string();
        }
        let text = body.as_str();
        let process = self.process();
        match frame {
            Frame::Documentation(owner) if !text.is_empty() => match owner {
                Some(index) => append_paragraph(&mut process.elements[index].documentation, &body),
                None => append_paragraph(&mut process.documentation, &body),
            },
            Frame::Condition(index) => {
                let access = Access {
                    place: Place::Condition,
                    dialect: Dialect::Either,
                    expression: Text::from(body.as_str()),
                };
                let element = &mut process.elements[index];
                if !text.is_empty() {
                    element.accesses.push(access);
                }
                element.condition = Text::from(body.as_str());
            }
            Frame::Capture => {
                if let Some((index, place, dialect)) = self.captures.pop()
                    && !body.is_empty()
                {
                    let access = Access { place, dialect, expression: Text::from(body.as_str()) };
                    self.process().elements[index].accesses.push(access);
                }
            }
            Frame::FlowNodeRef(lane) if !text.is_empty() => process.lanes[lane].flow_node_refs.push(body),
            Frame::LinkedForm(form) => process.linked_forms[form].body = body,
            _ => {}
        }
    }

    pub(super) fn finish(mut self) -> Definitions {
        self.settle_refs();
        self.settle_data_refs();
        self.settle_pools();
        self.defs
    }

    /// Gives each process the name of the first pool that shows it.
    fn settle_pools(&mut self) {
        let mut pools: std::collections::HashMap<String, String> = std::collections::HashMap::new();
        for (process, name) in std::mem::take(&mut self.pools) {
            pools.entry(process).or_insert(name);
        }
        for process in &mut self.defs.processes {
            if let Some(name) = pools.get(&process.id) {
                process.pool.clone_from(name);
            }
        }
    }
}

/// Remembers which attributes an element already had, so the first of a repeated one wins. A bit per
/// attribute the reader keeps: no allocation per element.
#[derive(Default)]
struct Seen(u16);

impl Seen {
    fn first(&mut self, name: &str) -> bool {
        const NAMES: &[&str] = &[
            "id",
            "name",
            "sourceRef",
            "targetRef",
            "default",
            "attachedToRef",
            "dataObjectRef",
            "camunda:formKey",
            "camunda:resultVariable",
        ];
        let Some(i) = NAMES.iter().position(|n| *n == name) else {
            return false;
        };
        let bit = 1u16 << i;
        let first = self.0 & bit == 0;
        self.0 |= bit;
        first
    }
}

/// Adds a paragraph to a documentation text (a string or an element's [`super::model::Text`]).
fn append_paragraph<T: std::fmt::Write + std::ops::Deref<Target = str> + for<'a> From<&'a str>>(
    doc: &mut T,
    paragraph: &str,
) {
    if doc.is_empty() {
        *doc = T::from(paragraph);
    } else {
        let _ = doc.write_char('\n');
        let _ = doc.write_str(paragraph);
    }
}

/// JavaScript's `String.prototype.trim`: Unicode white space and U+FEFF.
pub(crate) fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the stream gives for these bytes, next to what reading the decoded text gives.
    fn both(bytes: &[u8]) -> (Option<Definitions>, Definitions) {
        use super::super::stream::read_utf8_stream;
        let (one_thread, two_threads) = (read_utf8_stream(bytes, 0), read_utf8_stream(bytes, u64::MAX));
        assert_eq!(one_thread, two_threads, "one thread and two read alike");
        (one_thread, read_text(&super::super::decode::decode(bytes)))
    }

    #[test]
    fn a_clean_utf8_file_reads_the_same_as_a_stream() {
        for name in
            ["vacation.bpmn", "order.bpmn", "dataflow-zeebe.bpmn", "dataflow-c7.bpmn", "expense-c7.bpmn"]
        {
            let bytes =
                std::fs::read(format!("{}/../../fixtures/bpmn/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let (streamed, whole) = both(&bytes);
            let streamed = streamed.unwrap_or_else(|| panic!("{name} streams"));
            assert!(!whole.processes.is_empty(), "{name}");
            assert_eq!(streamed, whole, "{name}");
        }
    }

    proptest::proptest! {
        /// Any bytes, cut from a real process and spliced with markup, CRs and stray bytes: the stream
        /// either gives what the whole read gives, or hands the bytes to the whole read.
        #[test]
        fn a_stream_agrees_with_the_whole_read_or_declines(
            cut in 0usize..4000,
            splice in proptest::collection::vec(proptest::sample::select(vec![
                &b"<bpmn:userTask id=\"x\" name=\"A &amp; B\">"[..], b"</bpmn:userTask>", b"\r\n", b"\xe9",
                b"<![CDATA[=a > b]]>", b"&lt;", b"<!-- c -->", b"<zeebe:input source=\"=a\" target=\"b\"/>",
            ]), 0..6),
            at in 0usize..4000,
        ) {
            let base = std::fs::read(format!("{}/../../fixtures/bpmn/vacation.bpmn", env!("CARGO_MANIFEST_DIR"))).unwrap();
            let mut bytes = base[..cut.min(base.len())].to_vec();
            let at = at.min(bytes.len());
            bytes.splice(at..at, splice.concat());
            let (streamed, whole) = both(&bytes);
            if let Some(streamed) = streamed {
                proptest::prop_assert_eq!(streamed, whole);
            }
        }
    }

    #[test]
    fn what_decoding_would_change_is_left_to_the_whole_read() {
        // CR line ends, bytes that are not UTF-8, a break in the XML
        for bytes in [
            &b"<definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\">\r\n<process id=\"p\"/>\r\n</definitions>"[..],
            b"<definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\"><process id=\"p\" name=\"\xe9\"/></definitions>",
            b"<definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\"><process id=\"p\"></definition>",
        ] {
            let (streamed, whole) = both(bytes);
            assert_eq!(streamed, None, "{}", String::from_utf8_lossy(bytes));
            assert_eq!(whole.processes.len(), 1);
        }
    }
}

#[cfg(test)]
mod file_tests {
    /// Every fixture, whatever its encoding, line ends or breaks, reads from its file (streamed or
    /// whole) as it reads from its bytes.
    #[test]
    fn a_file_reads_as_its_bytes_do() {
        let dir = format!("{}/../../fixtures/bpmn", env!("CARGO_MANIFEST_DIR"));
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "bpmn") {
                let bytes = std::fs::read(&path).unwrap();
                let file = std::fs::File::open(&path).unwrap();
                let len = file.metadata().unwrap().len();
                let from_file = super::super::read_seekable(file, len, 1 << 20).unwrap();
                assert_eq!(from_file, super::super::read(&bytes), "{}", path.display());
                seen += 1;
            }
        }
        assert!(seen >= 10, "{seen} fixtures");
    }

    #[test]
    fn a_streamed_file_over_the_limit_is_refused() {
        let path = format!("{}/../../fixtures/bpmn/vacation.bpmn", env!("CARGO_MANIFEST_DIR"));
        let file = std::fs::File::open(path).unwrap();
        let len = file.metadata().unwrap().len();
        let err = super::super::read_seekable(file, len, 100).unwrap_err();
        assert!(matches!(err, super::super::ReadError::TooLarge { size: Some(_), limit: 100 }), "{err}");
    }
}
