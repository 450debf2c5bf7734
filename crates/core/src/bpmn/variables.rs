//! The outline contract's variable inventory as the reader finds it: the names the contract's
//! `variables` lists (DESIGN.md), each with the role it has on its element ([`VariableUse`]), and the
//! contract's `formId` from `zeebe:formDefinition`.
//!
//! Split from `reader.rs`, which decides the structure; these rules follow what bpmn-moddle (the
//! reference outliner) lists, attribute by attribute, and must not change with the data-flow places
//! (`extensions.rs`), which are another matter.

use super::model::{VariableRole, VariableUse};
use super::reader::{Builder, trim};
use super::xml::{Ns, Tag, unescape};

/// Element kinds that carry Camunda 7's `camunda:resultVariable` (per camunda-bpmn-moddle).
pub(super) const CAMUNDA_RESULT_KINDS: &[&str] =
    &["scriptTask", "serviceTask", "businessRuleTask", "sendTask", "messageEventDefinition"];

impl Builder {
    /// `zeebe:formDefinition` directly in an element's extension elements: the first one decides.
    pub(super) fn form_definition(&mut self, index: usize, attrs: &Tag<'_>) {
        if self.form_defined == Some(index) {
            return; // only the first zeebe:formDefinition of a step counts
        }
        self.form_defined = Some(index);
        let (mut form_id, mut form_key) = (None, None);
        for (name, value) in attrs.iter() {
            match name {
                "formId" if form_id.is_none() => form_id = Some(value),
                "formKey" if form_key.is_none() => form_key = Some(value),
                _ => {}
            }
        }
        let chosen = [form_id, form_key].into_iter().flatten().map(unescape).find(|v| !trim(v).is_empty());
        if let Some(value) = chosen {
            self.process().elements[index].form_id = trim(&value).to_string().into();
        }
    }

    /// Variables named by Zeebe and Camunda 7 extension elements.
    pub(super) fn extension_variables(&mut self, ns: Ns, local: &str, attrs: &Tag<'_>) {
        let element = self.current_element();
        let names: &[(&str, VariableRole)] = match (ns, local) {
            (Ns::Zeebe, "input") => &[("target", VariableRole::Input)],
            (Ns::Zeebe, "output") => &[("target", VariableRole::Output)],
            (Ns::Zeebe, "calledDecision" | "script") => &[("resultVariable", VariableRole::Result)],
            (Ns::Zeebe, "loopCharacteristics") => &[
                ("inputElement", VariableRole::LoopInput),
                ("outputCollection", VariableRole::LoopOutput),
                ("outputElement", VariableRole::LoopOutput),
            ],
            (Ns::Camunda, "inputParameter") => &[("name", VariableRole::Input)],
            (Ns::Camunda, "outputParameter") => &[("name", VariableRole::Output)],
            (Ns::Camunda, "in") => &[("target", VariableRole::CallIn)],
            (Ns::Camunda, "out") => &[("target", VariableRole::CallOut)],
            (Ns::Camunda, "formField") => &[("id", VariableRole::FormField)],
            _ => return,
        };
        for (attr, role) in names {
            if let Some(value) = attrs.get(attr) {
                self.add_use(&unescape(value), element, *role);
            }
        }
    }

    /// `camunda:resultVariable` on an inner BPMN element that carries it (a message event definition).
    pub(super) fn camunda_result_variable(&mut self, local: &str, attrs: &Tag<'_>) {
        if !CAMUNDA_RESULT_KINDS.contains(&local) || !attrs.raw().contains("resultVariable") {
            return;
        }
        let found = attrs
            .iter()
            .find(|(q, _)| self.scopes.attribute(q) == (Some(Ns::Camunda), "resultVariable"))
            .map(|(_, v)| unescape(v).into_owned());
        if let Some(var) = found {
            let element = self.current_element();
            self.add_use(&var, element, VariableRole::Result);
        }
    }

    /// Records a variable use; returns whether it was recorded (a blank name is not).
    pub(super) fn add_use(&mut self, name: &str, element: Option<usize>, role: VariableRole) -> bool {
        let name = trim(name);
        if name.is_empty() {
            return false;
        }
        let name = name.to_string();
        self.process().variable_uses.push(VariableUse { name, element, role });
        true
    }

    /// A data object reference names a variable only when its data object has no name (moddle
    /// resolves the reference across the whole document; the first element with the id wins).
    pub(super) fn settle_data_refs(&mut self) {
        if self.data_refs.is_empty() {
            return;
        }
        let mut named: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
        for p in &self.defs.processes {
            for e in &p.elements {
                named.entry(e.id.as_str()).or_insert(!e.name.is_empty());
            }
        }
        let drop: std::collections::HashSet<(usize, usize)> = self
            .data_refs
            .iter()
            .filter(|(_, _, target)| named.get(target.as_str()).copied().unwrap_or(false))
            .map(|(p, u, _)| (*p, *u))
            .collect();
        // one pass per process, not one shift of the list per use dropped
        for (p, process) in self.defs.processes.iter_mut().enumerate() {
            let mut u = 0;
            process.variable_uses.retain(|_| {
                u += 1;
                !drop.contains(&(p, u - 1))
            });
        }
    }
}
