//! The reader's capture of expressions and stored values: every place an element evaluates an
//! expression or stores a value ([`Access`]), and the fields a Camunda 7 or Flowable step declares.
//!
//! `reader.rs` decides the structure (which element is open, what to skip); this file decides, for an
//! element, attribute or text the reader walks through, whether it is such a place. It records raw
//! text only: reading the expressions and deciding scopes is the data-flow stage's job
//! (`crate::flow::access`). Like the rest of the reader it never fails: a place without a value is
//! simply not recorded.

use super::ElementKind;
use super::places::{Access, DeclaredField, Dialect, FieldConstraint, FieldKind, FieldOption, Place, Timer};
use super::reader::{Builder, Frame, trim};
use super::xml::{Ns, Tag, unescape};

/// The first value of an attribute, unescaped; `""` when absent.
fn value(attrs: &Tag<'_>, name: &str) -> String {
    attrs.get(name).map(|v| unescape(v).into_owned()).unwrap_or_default()
}

/// What a Camunda 7 / Flowable attribute of a BPMN element is (`camunda:assignee="${boss}"`).
fn vendor_attribute(local: &str) -> Option<(Place, Dialect)> {
    Some(match local {
        "assignee" => (Place::Assignee, Dialect::Juel),
        "candidateUsers" => (Place::CandidateUsers, Dialect::Juel),
        "candidateGroups" => (Place::CandidateGroups, Dialect::Juel),
        "dueDate" => (Place::DueDate, Dialect::Juel),
        "followUpDate" => (Place::FollowUpDate, Dialect::Juel),
        "priority" => (Place::Priority, Dialect::Juel),
        "expression" => (Place::Implementation, Dialect::Juel),
        "delegateExpression" => (Place::Delegate, Dialect::Juel),
        "class" => (Place::DelegateClass, Dialect::Name),
        "resultVariable" | "resultVariableName" => (Place::ResultVariable, Dialect::Name),
        "formKey" => (Place::FormKey, Dialect::Juel),
        "decisionRef" => (Place::DecisionId, Dialect::Juel),
        "collection" => (Place::LoopCollection, Dialect::JuelOrName),
        "elementVariable" => (Place::LoopElement, Dialect::Name),
        "initiator" => (Place::Initiator, Dialect::Name),
        "errorCodeVariable" | "errorMessageVariable" | "escalationCodeVariable" => {
            (Place::CaughtVariable, Dialect::Name)
        }
        _ => return None,
    })
}

impl Builder {
    /// Records a place of the element at `index`, unless its value is blank.
    fn access(&mut self, index: usize, place: Place, dialect: Dialect, raw: &str) {
        self.record(index, place, dialect, &unescape(raw));
    }

    /// Records a place whose text is already unescaped, unless it is blank.
    fn record(&mut self, index: usize, place: Place, dialect: Dialect, expression: &str) {
        if !trim(expression).is_empty() {
            let expression = expression.into();
            self.process().elements[index].accesses.push(Access { place, dialect, expression });
        }
    }

    /// Records the listed attributes of a start tag, in the table's order.
    fn attributes(&mut self, index: usize, attrs: &Tag<'_>, table: &[(&str, Place, Dialect)]) {
        for (name, place, dialect) in table {
            if let Some(raw) = attrs.get(name) {
                self.access(index, place.clone(), *dialect, raw);
            }
        }
    }

    /// Opens an element whose text is a place of the element at `index`.
    fn capture(&mut self, index: usize, place: Place, dialect: Dialect) -> Frame {
        self.captures.push((index, place, dialect));
        Frame::Capture
    }

    /// Remembers that the element at `index` refers to a message, error, escalation or signal.
    fn refer(&mut self, index: usize, raw: &str) {
        let id = trim(&unescape(raw)).to_string();
        if !id.is_empty() {
            let process = self.defs.processes.len().saturating_sub(1);
            self.refs.push((process, index, id));
        }
    }

    /// Camunda 7 / Flowable attributes of any BPMN element inside (or being) the element at `index`.
    fn vendor_attributes(&mut self, index: usize, attrs: &Tag<'_>) {
        for (qname, raw) in attrs.iter() {
            if let (Some(Ns::Camunda | Ns::Flowable), local) = self.scopes.attribute(qname)
                && let Some((place, dialect)) = vendor_attribute(local)
            {
                if place == Place::FormKey && self.process().elements[index].declared().form_key.is_empty() {
                    self.process().elements[index].declared_mut().form_key = trim(&unescape(raw)).to_string();
                }
                self.access(index, place, dialect, raw);
            }
        }
    }

    /// The attributes of a flow element's own start tag.
    pub(super) fn element_attributes(&mut self, index: usize, kind: &str, attrs: &Tag<'_>) {
        for (qname, raw) in attrs.iter() {
            match (self.scopes.attribute(qname), kind) {
                ((None, "messageRef"), "receiveTask" | "sendTask") => self.refer(index, raw),
                ((None, "calledElement"), "callActivity") => {
                    self.access(index, Place::CalledElement, Dialect::Either, raw);
                }
                ((None, "cancelRemainingInstances"), "adHocSubProcess") => {
                    self.access(index, Place::AdHocCancelRemaining, Dialect::Either, raw);
                }
                _ => {}
            }
        }
        self.vendor_attributes(index, attrs);
    }

    /// A BPMN child of the flow element at `index` (`direct`) or of something inside it.
    pub(super) fn bpmn_child(&mut self, index: usize, direct: bool, local: &str, attrs: &Tag<'_>) -> Frame {
        self.vendor_attributes(index, attrs);
        let either = Dialect::Either;
        match local {
            "completionCondition"
                if direct && self.process().elements[index].kind == ElementKind::AdHocSubProcess =>
            {
                self.capture(index, Place::AdHocCompletionCondition, either)
            }
            "completionCondition" => self.capture(index, Place::CompletionCondition, either),
            "loopCardinality" => self.capture(index, Place::LoopCardinality, either),
            "timeDate" => self.capture(index, Place::Timer(Timer::Date), either),
            "timeDuration" => self.capture(index, Place::Timer(Timer::Duration), either),
            "timeCycle" => self.capture(index, Place::Timer(Timer::Cycle), either),
            "condition" => self.capture(index, Place::EventCondition, either),
            "messageEventDefinition"
            | "errorEventDefinition"
            | "escalationEventDefinition"
            | "signalEventDefinition" => {
                let name = format!("{}Ref", local.trim_end_matches("EventDefinition"));
                if let Some(raw) = attrs.get(&name) {
                    self.refer(index, raw);
                }
                Frame::Inner
            }
            _ => Frame::Inner,
        }
    }

    /// A Zeebe, Camunda 7 or Flowable extension element inside a flow element (or the process).
    pub(super) fn vendor_element(&mut self, ns: Ns, local: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let Some(index) = self.current_element() else {
            return Some(Frame::Inner); // the process's own extensions: nothing of an element
        };
        if ns == Ns::Zeebe {
            self.zeebe_element(index, local, attrs);
            return Some(Frame::Inner);
        }
        let (juel, name) = (Dialect::Juel, Dialect::Name);
        match local {
            "inputParameter" | "outputParameter" => {
                let (target, source) = if local == "inputParameter" {
                    (Place::InputTarget, Place::InputSource)
                } else {
                    (Place::OutputTarget, Place::OutputSource)
                };
                self.attributes(index, attrs, &[("name", target, name)]);
                Some(self.capture(index, source, juel))
            }
            // the value of the parameter being read, however deep in its list or map
            "value" | "entry" | "script" => match self.captures.last().cloned() {
                Some((owner, place, dialect)) => Some(self.capture(owner, place, dialect)),
                None => Some(Frame::Inner),
            },
            "in" => {
                let table = [
                    ("source", Place::CallInSource, name),
                    ("sourceExpression", Place::CallInSource, juel),
                    ("target", Place::CallInTarget, name),
                ];
                self.attributes(index, attrs, &table);
                Some(Frame::Inner)
            }
            "out" => {
                let local = value(attrs, "local").trim() == "true";
                let table = [
                    ("source", Place::CallOutSource, name),
                    ("sourceExpression", Place::CallOutSource, juel),
                    ("target", Place::CallOutTarget { local }, name),
                ];
                self.attributes(index, attrs, &table);
                Some(Frame::Inner)
            }
            "formField" | "formProperty" => Some(self.declared_field(index, ns, attrs)),
            "expression" => Some(self.capture(index, Place::Expression, juel)),
            "field" => {
                self.attributes(index, attrs, &[("expression", Place::Expression, juel)]);
                Some(Frame::Inner)
            }
            "executionListener" | "taskListener" => {
                let table = [
                    ("expression", Place::Implementation, juel),
                    ("delegateExpression", Place::Delegate, juel),
                    ("class", Place::DelegateClass, name),
                ];
                self.attributes(index, attrs, &table);
                Some(Frame::Inner)
            }
            _ => Some(Frame::Inner),
        }
    }

    /// The attributes of a Zeebe extension element that are places.
    fn zeebe_element(&mut self, index: usize, local: &str, attrs: &Tag<'_>) {
        use Place as P;
        let (feel, name) = (Dialect::Feel, Dialect::Name);
        match local {
            "property" => {
                let key = trim(&value(attrs, "name")).to_string();
                self.attributes(index, attrs, &[("value", P::Property(key), feel)]);
            }
            "header" => {
                let key = trim(&value(attrs, "key")).to_string();
                self.attributes(index, attrs, &[("value", P::Header(key), feel)]);
            }
            "input" => self.attributes(
                index,
                attrs,
                &[("source", P::InputSource, feel), ("target", P::InputTarget, name)],
            ),
            "output" => self.attributes(
                index,
                attrs,
                &[("source", P::OutputSource, feel), ("target", P::OutputTarget, name)],
            ),
            "script" => self.attributes(
                index,
                attrs,
                &[("expression", P::Script, feel), ("resultVariable", P::ResultVariable, name)],
            ),
            "calledDecision" => self.attributes(
                index,
                attrs,
                &[("decisionId", P::DecisionId, feel), ("resultVariable", P::ResultVariable, name)],
            ),
            "loopCharacteristics" => self.attributes(
                index,
                attrs,
                &[
                    ("inputCollection", P::LoopCollection, feel),
                    ("inputElement", P::LoopElement, name),
                    ("outputCollection", P::LoopOutputCollection, name),
                    ("outputElement", P::LoopOutputElement, feel),
                ],
            ),
            "taskDefinition" => {
                self.attributes(
                    index,
                    attrs,
                    &[("type", P::JobType, feel), ("retries", P::JobRetries, feel)],
                );
            }
            "assignmentDefinition" => self.attributes(
                index,
                attrs,
                &[
                    ("assignee", P::Assignee, feel),
                    ("candidateGroups", P::CandidateGroups, feel),
                    ("candidateUsers", P::CandidateUsers, feel),
                ],
            ),
            "taskSchedule" => self.attributes(
                index,
                attrs,
                &[("dueDate", P::DueDate, feel), ("followUpDate", P::FollowUpDate, feel)],
            ),
            "priorityDefinition" => self.attributes(index, attrs, &[("priority", P::Priority, feel)]),
            "calledElement" => self.attributes(index, attrs, &[("processId", P::CalledElement, feel)]),
            "subscription" => self.attributes(index, attrs, &[("correlationKey", P::CorrelationKey, feel)]),
            "adHoc" => self.attributes(
                index,
                attrs,
                &[
                    ("activeElementsCollection", P::AdHocActiveElements, feel),
                    ("outputCollection", P::AdHocOutputCollection, name),
                    ("outputElement", P::AdHocOutputElement, feel),
                ],
            ),
            _ => {}
        }
    }

    /// A `camunda:formField` or `flowable:formProperty`: a declared field, and the places it holds.
    fn declared_field(&mut self, index: usize, ns: Ns, attrs: &Tag<'_>) -> Frame {
        let flag = |name: &str| value(attrs, name).trim().to_ascii_lowercase();
        let mut field =
            DeclaredField { id: trim(&value(attrs, "id")).to_string(), readable: true, ..Default::default() };
        field.kind = FieldKind::parse(&value(attrs, "type"));
        field.date_pattern = value(attrs, "datePattern");
        if ns == Ns::Camunda {
            field.label = trim(&value(attrs, "label")).to_string();
            field.default = value(attrs, "defaultValue");
        } else {
            field.label = trim(&value(attrs, "name")).to_string();
            field.default = value(attrs, "default");
            field.required = flag("required") == "true";
            field.readable = flag("readable") != "false";
            field.readonly = flag("writable") == "false";
            field.variable = trim(&value(attrs, "variable")).to_string();
            field.expression = value(attrs, "expression");
        }
        if field.variable.is_empty() {
            field.variable = field.id.clone();
        }
        for text in [field.default.clone(), field.expression.clone()] {
            self.record(index, Place::FieldValue, Dialect::Juel, &text);
        }
        self.process().elements[index].declared_mut().fields.push(field);
        Frame::Field(index)
    }

    /// A child of a declared field: its enum options and validation constraints.
    pub(super) fn field_child(&mut self, index: usize, local: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let fields = &mut self.process().elements[index].declared_mut().fields;
        let field = fields.last_mut()?;
        match local {
            "validation" => return Some(Frame::Field(index)),
            "value" => field.options.push(FieldOption { id: value(attrs, "id"), name: value(attrs, "name") }),
            "constraint" => {
                let constraint = FieldConstraint {
                    name: trim(&value(attrs, "name")).to_string(),
                    config: value(attrs, "config"),
                };
                match constraint.name.as_str() {
                    "required" => field.required = true,
                    "readonly" => field.readonly = true,
                    _ => {}
                }
                field.constraints.push(constraint);
            }
            _ => {}
        }
        None
    }

    /// A message, error, escalation or signal of the definitions: the places elements refer to.
    pub(super) fn root_item(&mut self, local: &str, attrs: &Tag<'_>) -> Option<Frame> {
        let (place, attr) = match local {
            "message" => (Place::MessageName, "name"),
            "error" => (Place::ErrorCode, "errorCode"),
            "escalation" => (Place::EscalationCode, "escalationCode"),
            "signal" => (Place::SignalName, "name"),
            _ => return None,
        };
        let mut accesses = Vec::new();
        let text = value(attrs, attr);
        if !trim(&text).is_empty() {
            accesses.push(Access { place, dialect: Dialect::Either, expression: text.into() });
        }
        self.root_items.push((trim(&value(attrs, "id")).to_string(), accesses));
        Some(Frame::RootItem(self.root_items.len() - 1))
    }

    /// Inside a root item: its extension elements, and a message's `zeebe:subscription`.
    pub(super) fn root_item_child(
        &mut self,
        item: usize,
        ns: Ns,
        local: &str,
        attrs: &Tag<'_>,
    ) -> Option<Frame> {
        match (ns, local) {
            (Ns::Bpmn, "extensionElements") => Some(Frame::RootItem(item)),
            (Ns::Zeebe, "subscription") => {
                let key = value(attrs, "correlationKey");
                if !trim(&key).is_empty() {
                    let access = Access {
                        place: Place::CorrelationKey,
                        dialect: Dialect::Feel,
                        expression: key.into(),
                    };
                    self.root_items[item].1.push(access);
                }
                None
            }
            _ => None,
        }
    }

    /// Gives each element the places of the root items it refers to (the first item with an id wins,
    /// as in bpmn-moddle; an unknown id gives nothing).
    pub(super) fn settle_refs(&mut self) {
        for (process, index, id) in std::mem::take(&mut self.refs) {
            let Some((_, accesses)) = self.root_items.iter().find(|(item, _)| *item == id) else {
                continue;
            };
            let accesses = accesses.clone();
            if let Some(element) =
                self.defs.processes.get_mut(process).and_then(|p| p.elements.get_mut(index))
            {
                element.accesses.extend(accesses);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Place, read_str};

    /// The places of the element `id` in a process of the given extension namespace.
    fn places(ns: &str, body: &str, id: &str) -> Vec<(Place, String)> {
        let xml = format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:x="{ns}"><process id="p">{body}</process></definitions>"#
        );
        let defs = read_str(&xml);
        let e = defs.processes[0].element(id).unwrap_or_else(|| panic!("{id} in {xml}"));
        e.accesses.iter().map(|a| (a.place.clone(), a.expression.to_string())).collect()
    }

    #[test]
    fn the_code_a_task_runs_is_its_own_kind_of_place() {
        for ns in
            ["http://camunda.org/schema/1.0/bpmn", "http://flowable.org/bpmn", "http://activiti.org/bpmn"]
        {
            let body = r##"<serviceTask id="a" x:delegateExpression="#{svnService}"/>
                <serviceTask id="b" x:expression="${orderService.check(order)}"/>
                <serviceTask id="c" x:class="com.example.Notify"/>"##;
            assert_eq!(places(ns, body, "a"), [(Place::Delegate, "#{svnService}".into())], "{ns}");
            assert_eq!(
                places(ns, body, "b"),
                [(Place::Implementation, "${orderService.check(order)}".into())],
                "{ns}"
            );
            assert_eq!(places(ns, body, "c"), [(Place::DelegateClass, "com.example.Notify".into())], "{ns}");
        }
    }

    #[test]
    fn listeners_run_code_and_field_injections_hand_it_data() {
        let body = r#"<userTask id="t"><extensionElements>
            <x:taskListener event="create" delegateExpression="${assigner}"/>
            <x:taskListener event="complete" expression="${audit.log(task, comment)}"/>
            <x:executionListener event="end" class="com.example.Listener">
              <x:field name="note" expression="${summary}"/>
              <x:field name="other"><x:expression>${details}</x:expression></x:field>
            </x:executionListener>
        </extensionElements></userTask>"#;
        assert_eq!(
            places("http://camunda.org/schema/1.0/bpmn", body, "t"),
            [
                (Place::Delegate, "${assigner}".into()),
                (Place::Implementation, "${audit.log(task, comment)}".into()),
                (Place::DelegateClass, "com.example.Listener".into()),
                (Place::Expression, "${summary}".into()),
                (Place::Expression, "${details}".into()),
            ]
        );
    }
}
