//! What the process says about its variables, read once per draft: the evidence each field is typed
//! and marked required from (`field.rs`).

use std::collections::{HashMap, HashSet};

use crate::bpmn::{
    Access, Comparison, Dialect, Literal, Operator, Place, Process, Timer, read_condition, read_literal,
};
use crate::flow::Contract;
use crate::flow::expr::{ValueUse, value_uses};

/// What the process says about its variables, read once per draft: the comparisons its conditions
/// make with each (and the value a gateway's default flow stands for, `default_flow.rs`), how its
/// FEEL expressions use each and the literals it stores in each, and (with the step's contract)
/// which the step must supply.
#[derive(Debug, Default)]
pub(super) struct Said {
    comparisons: HashMap<String, Vec<Comparison>>,
    uses: HashMap<String, Vec<ValueUse>>,
    needed: Option<HashSet<String>>,
}

/// What the process says about one variable: what types its field and whether it is required.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Evidence<'a> {
    /// The comparisons the conditions make with it.
    pub comparisons: &'a [Comparison],
    /// How expressions use its value.
    pub uses: &'a [ValueUse],
    /// Whether the step must supply it, when a contract says (none: no contract to ask).
    pub needed: Option<bool>,
}

impl Said {
    /// What `process` says, with the step's contract when there is one.
    pub(super) fn new(process: &Process, contract: Option<&Contract>) -> Said {
        let mut comparisons: HashMap<String, Vec<Comparison>> = HashMap::new();
        let mut uses: HashMap<String, Vec<ValueUse>> = HashMap::new();
        let mut add = |name: String, u: ValueUse| {
            let list = uses.entry(name).or_default();
            if !list.contains(&u) {
                list.push(u);
            }
        };
        for e in crate::stop::until_stopped(&process.elements) {
            if !e.condition.is_empty() {
                for c in read_condition(&e.condition).comparisons {
                    comparisons.entry(c.variable.clone()).or_default().push(c);
                }
                if let Some(feel) = e.condition.trim_start().strip_prefix('=') {
                    value_uses(feel, true).into_iter().for_each(|(n, u)| add(n, u));
                }
            }
            for a in &e.accesses {
                if let Some(feel) = feel_text(a) {
                    let condition = matches!(a.place, Place::CompletionCondition | Place::EventCondition);
                    value_uses(feel, condition).into_iter().for_each(|(n, u)| add(n, u));
                }
                if let (Some(u), Some(name)) = (place_use(&a.place), whole_name(a)) {
                    add(name.to_string(), u);
                }
            }
        }
        // what a gateway's default flow stands for is one more value of the choice
        for c in super::default_flow::default_values(process) {
            comparisons.entry(c.variable.clone()).or_default().push(c);
        }
        for (name, literal) in assigned_literals(process) {
            match literal {
                Literal::Number(_) => add(name, ValueUse::Number),
                Literal::Bool(_) => add(name, ValueUse::Boolean),
                // a text the process sets is one more value of a choice its conditions make
                Literal::Text(_) => {
                    if let Some(list) = comparisons.get_mut(&name)
                        && list.iter().any(|c| matches!(c.literal, Literal::Text(_)))
                    {
                        list.push(Comparison { variable: name, operator: Operator::Eq, literal });
                    }
                }
                _ => {}
            }
        }
        let needed = contract.map(|c| c.must_supply.iter().map(|n| n.path.clone()).collect());
        Said { comparisons, uses, needed }
    }

    /// What is said about `name`.
    pub(super) fn of(&self, name: &str) -> Evidence<'_> {
        Evidence {
            comparisons: self.comparisons.get(name).map(Vec::as_slice).unwrap_or_default(),
            uses: self.uses.get(name).map(Vec::as_slice).unwrap_or_default(),
            needed: self.needed.as_ref().map(|n| n.contains(name)),
        }
    }
}

/// The literals the process stores in a variable as a whole (`<zeebe:output source="=0"
/// target="iteration"/>`, a script `= "email"` with its result variable): the kind of value it holds.
fn assigned_literals(process: &Process) -> Vec<(String, Literal)> {
    let mut out = Vec::new();
    for e in crate::stop::until_stopped(&process.elements) {
        for (value, stored_as) in crate::flow::stored_values(e) {
            let Some(name) = stored_as.strip_suffix('.').filter(|n| crate::formjs::bindable(n)) else {
                continue;
            };
            // FEEL, written with its `=`: a value without one is the text itself
            if value.trim_start().starts_with('=')
                && let Some(literal) = read_literal(value)
            {
                out.push((name.to_string(), literal));
            }
        }
    }
    out
}

/// The FEEL text of an access, after its `=`, when it is FEEL.
fn feel_text(a: &Access) -> Option<&str> {
    match a.dialect {
        Dialect::Feel | Dialect::Either => a.expression.trim_start().strip_prefix('='),
        _ => None,
    }
}

/// The one variable an access's whole text is, in any engine's words (`=deadline`, `${deadline}`, a
/// Camunda 7 collection's bare `items`).
fn whole_name(a: &Access) -> Option<&str> {
    let text = a.expression.trim();
    let name = match a.dialect {
        Dialect::Feel => text.strip_prefix('=')?,
        Dialect::Either => text.strip_prefix('=').or_else(|| juel(text))?,
        Dialect::Juel => juel(text)?,
        Dialect::JuelOrName => juel(text).unwrap_or(text),
        Dialect::Name => return None,
    }
    .trim();
    crate::formjs::bindable(name).then_some(name)
}

/// The text inside a JUEL expression that is the whole text (`${deadline}`).
fn juel(text: &str) -> Option<&str> {
    text.strip_prefix("${").or_else(|| text.strip_prefix("#{"))?.strip_suffix('}')
}

/// The kind of value a place takes, when its whole text is one variable (`dueDate = =deadline`, a
/// timer's date `${slotStart}`).
fn place_use(place: &Place) -> Option<ValueUse> {
    match place {
        Place::DueDate | Place::FollowUpDate | Place::Timer(Timer::Date) => Some(ValueUse::Date),
        Place::LoopCollection => Some(ValueUse::List),
        // how many times a step runs, how often its job is tried, how urgent its task is
        Place::LoopCardinality | Place::JobRetries | Place::Priority => Some(ValueUse::Number),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draft::Use;
    use crate::draft::field::field;

    fn type_of(field: &serde_json::Value) -> &str {
        field["type"].as_str().unwrap()
    }

    #[test]
    fn a_literal_the_process_stores_types_its_variable() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><serviceTask id="S"><extensionElements><zeebe:ioMapping><zeebe:output source="= 0" target="tries"/><zeebe:output source="=false" target="notify"/><zeebe:output source="=&quot;hello&quot;" target="greeting"/></zeebe:ioMapping></extensionElements></serviceTask><scriptTask id="C"><extensionElements><zeebe:script expression="=&quot;email&quot;" resultVariable="channel"/></extensionElements></scriptTask><exclusiveGateway id="G"/><sequenceFlow id="f" sourceRef="G" targetRef="E"><conditionExpression>=channel = "phone"</conditionExpression></sequenceFlow><endEvent id="E"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let said = Said::new(&process, None);
        let drafted = |name: &str| field(name, Use::Write, said.of(name));
        assert_eq!(type_of(&drafted("tries")), "number");
        assert_eq!(type_of(&drafted("notify")), "checkbox");
        // the text a script sets is one more value of the choice the condition makes
        let channel = drafted("channel");
        assert_eq!(type_of(&channel), "select");
        let values: Vec<&str> =
            channel["values"].as_array().unwrap().iter().map(|v| v["value"].as_str().unwrap()).collect();
        assert_eq!(values, ["phone", "email"]);
        // a text no condition compares is no choice of one
        assert_eq!(type_of(&drafted("greeting")), "textfield");
    }

    #[test]
    fn a_value_a_timer_or_a_due_date_is_set_to_is_a_date_in_either_engine() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"><process id="P"><intermediateCatchEvent id="W"><timerEventDefinition><timeDate>${slotStart}</timeDate></timerEventDefinition></intermediateCatchEvent><intermediateCatchEvent id="V"><timerEventDefinition><timeDate>=cutOff</timeDate></timerEventDefinition></intermediateCatchEvent><userTask id="T" camunda:dueDate="${answerBy}"/><intermediateCatchEvent id="X"><timerEventDefinition><timeDuration>${waitFor}</timeDuration></timerEventDefinition></intermediateCatchEvent></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let said = Said::new(&process, None);
        for name in ["slotStart", "cutOff", "answerBy"] {
            assert_eq!(type_of(&field(name, Use::Write, said.of(name))), "datetime", "{name}");
        }
        // a duration is no date
        assert_eq!(type_of(&field("waitFor", Use::Write, said.of("waitFor"))), "textfield");
    }

    #[test]
    fn a_value_a_step_runs_as_many_times_as_or_is_tried_or_ranked_by_is_a_number() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P"><userTask id="R"><extensionElements><zeebe:priorityDefinition priority="=urgency"/></extensionElements><multiInstanceLoopCharacteristics><loopCardinality>=reviewRounds</loopCardinality></multiInstanceLoopCharacteristics></userTask><serviceTask id="S"><extensionElements><zeebe:taskDefinition type="t" retries="=patience"/></extensionElements></serviceTask></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let said = Said::new(&process, None);
        for name in ["urgency", "reviewRounds", "patience"] {
            assert_eq!(type_of(&field(name, Use::Write, said.of(name))), "number", "{name}");
        }
    }
}
