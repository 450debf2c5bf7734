//! Fields shown only when another field of the form chooses the branch that reads them: a rejection
//! reason the process reads only past `= not(approved)` is hidden until the person says no.
//!
//! A field is hidden when every read of its value after the step is reached through one conditional
//! flow ([`crate::flow::branch`]) whose condition is FEEL and reads only other fields the person
//! edits on the same form. It is hidden while that condition is not true (`= not(<condition>)`:
//! null, as before anything is chosen, hides it too), and it moves below the fields that decide it.
//! The contract check reads the same (a hidden field supplies its value only where it is shown).

use std::collections::{HashMap, HashSet};

use serde_json::{Value, json};

use crate::bpmn::Process;

/// Most fields one draft hides: each is moved below its deciders, a walk of the form.
const MOST_HIDDEN: usize = 64;

/// Hides each field of `components` the process reads only past a condition on other fields of the
/// form, until that condition holds.
pub(super) fn hide_until_chosen(components: &mut Vec<Value>, process: &Process, target: Option<usize>) {
    let edited: Vec<String> = components
        .iter()
        .filter(|c| c.get("readonly") != Some(&json!(true)))
        .filter_map(|c| c.get("key")?.as_str().map(str::to_string))
        .collect();
    let names: Vec<&str> = edited.iter().map(String::as_str).collect();
    let only = crate::flow::branch::read_only_when(process, target, &names);
    if only.is_empty() {
        return;
    }
    let edited: HashSet<&str> = names.iter().copied().collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    for c in components.iter() {
        let Some(key) = c.get("key").and_then(Value::as_str) else { continue };
        let Some(flows) = only.get(key) else { continue };
        let chosen = flows.iter().find_map(|&f| {
            let condition = process.elements[f].condition.trim();
            let body = condition.strip_prefix('=')?.trim();
            let names = crate::bpmn::names_read(condition)?;
            let decided = !names.is_empty() && names.iter().all(|n| n != key && edited.contains(n.as_str()));
            decided.then(|| Candidate {
                key: key.to_string(),
                flow: f,
                hide: format!("={}", negated(body)),
                deciders: names,
            })
        });
        candidates.extend(chosen);
    }
    let mut per_flow: HashMap<usize, usize> = HashMap::new();
    let mut per_split: HashMap<&str, usize> = HashMap::new();
    for c in &candidates {
        *per_flow.entry(c.flow).or_default() += 1;
        *per_split.entry(process.elements[c.flow].source.as_str()).or_default() += 1;
    }
    let extras = candidates.iter().filter(|c| {
        let here = per_flow[&c.flow];
        let elsewhere = per_split[process.elements[c.flow].source.as_str()] - here;
        is_the_extra(here, elsewhere, edited.len())
    });
    for candidate in extras.take(MOST_HIDDEN) {
        let at = components.iter().position(|c| c.get("key").and_then(Value::as_str) == Some(&candidate.key));
        if let Some(at) = at {
            components[at]["conditional"] = json!({ "hide": candidate.hide });
            below_deciders(components, &candidate.key, &candidate.deciders);
        }
    }
}

/// A field the process reads only past one flow, and what hides it until that flow is chosen.
struct Candidate {
    key: String,
    flow: usize,
    hide: String,
    deciders: Vec<String>,
}

/// Whether a candidate's branch is the side one, off the way most of the form goes: the fields read
/// only past its flow (`here`) are no more than those read only past the other flows of the same
/// split (`elsewhere`), or, where those read none of the form's own, no more than the rest of the
/// form's `edited` fields. A guess stays in view beside a checkbox asking for a translation, the
/// language to translate into shows once it is ticked; a rejection reason shows once the answer is
/// no; a claim's discount and risk score, most of what a review form asks, stay in view though a
/// rejection ends the process.
fn is_the_extra(here: usize, elsewhere: usize, edited: usize) -> bool {
    if elsewhere > 0 { here <= elsewhere } else { here <= edited.saturating_sub(here) }
}

/// The FEEL condition true where `condition` is not: its inside when it is a `not(..)` whole, else
/// `not(condition)`.
fn negated(condition: &str) -> String {
    if let Some(inner) = condition.strip_prefix("not(").and_then(|rest| rest.strip_suffix(')'))
        && closes_at_end(inner)
    {
        return inner.trim().to_string();
    }
    format!("not({condition})")
}

/// Whether every bracket `text` opens, it closes, never closing one it did not open (strings
/// skipped): then `not(` + `text` + `)` is one call.
fn closes_at_end(text: &str) -> bool {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' => quote = Some(c),
                '(' => depth += 1,
                ')' if depth == 0 => return false,
                ')' => depth -= 1,
                _ => {}
            },
        }
    }
    depth == 0 && quote.is_none()
}

/// Moves the field keyed `key` right below the last of the fields keyed `deciders`, when it stands
/// above it.
fn below_deciders(components: &mut Vec<Value>, key: &str, deciders: &[String]) {
    let position = |k: &str| components.iter().position(|c| c.get("key").and_then(Value::as_str) == Some(k));
    let Some(at) = position(key) else { return };
    let Some(last) = deciders.iter().filter_map(|d| position(d)).max() else { return };
    if at < last {
        let field = components.remove(at);
        components.insert(last, field);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process() -> Process {
        crate::bpmn::read_str(&process_xml()).processes.remove(0)
    }

    fn process_xml() -> String {
        String::from(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
                xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p">
              <userTask id="review"/><sequenceFlow id="f1" sourceRef="review" targetRef="g"/>
              <exclusiveGateway id="g"/>
              <sequenceFlow id="no" sourceRef="g" targetRef="explain"><conditionExpression>=not(approved)</conditionExpression></sequenceFlow>
              <sequenceFlow id="yes" sourceRef="g" targetRef="pay"><conditionExpression>=approved</conditionExpression></sequenceFlow>
              <serviceTask id="explain"><extensionElements><zeebe:ioMapping>
                <zeebe:input source="=reason" target="text"/></zeebe:ioMapping></extensionElements></serviceTask>
              <serviceTask id="pay"><extensionElements><zeebe:ioMapping>
                <zeebe:input source="=amount" target="sum"/></zeebe:ioMapping></extensionElements></serviceTask>
            </process></definitions>"#,
        )
    }

    #[test]
    fn a_field_read_on_one_branch_shows_when_the_form_chooses_it() {
        let mut components = vec![
            json!({"type": "textarea", "key": "reason"}),
            json!({"type": "checkbox", "key": "approved"}),
            json!({"type": "number", "key": "amount", "readonly": true}),
        ];
        hide_until_chosen(&mut components, &process(), Some(0));
        assert_eq!(
            components,
            [
                json!({"type": "checkbox", "key": "approved"}),
                json!({"type": "textarea", "key": "reason", "conditional": {"hide": "=approved"}}),
                json!({"type": "number", "key": "amount", "readonly": true}),
            ]
        );
    }

    #[test]
    fn the_negation_of_a_condition() {
        assert_eq!(negated("approved"), "not(approved)");
        assert_eq!(negated("not(approved)"), "approved");
        assert_eq!(negated("not(a) and not(b)"), "not(not(a) and not(b))");
        assert_eq!(negated("not(x = \")\")"), "x = \")\"");
        assert_eq!(negated("decision = \"reject\""), "not(decision = \"reject\")");
    }

    #[test]
    fn most_of_the_form_stays_in_view() {
        // the yes branch reads three of the form's four edited fields: they are the form's work
        let xml = process_xml().replace(
            r#"<zeebe:input source="=amount" target="sum"/>"#,
            r#"<zeebe:input source="=amount + fee + days" target="sum"/>"#,
        );
        let process = crate::bpmn::read_str(&xml).processes.remove(0);
        let mut components = vec![
            json!({"type": "checkbox", "key": "approved"}),
            json!({"type": "number", "key": "amount"}),
            json!({"type": "number", "key": "fee"}),
            json!({"type": "number", "key": "days"}),
        ];
        let before = components.clone();
        hide_until_chosen(&mut components, &process, Some(0));
        assert_eq!(components, before);
    }

    #[test]
    fn a_condition_on_a_value_the_form_does_not_edit_hides_nothing() {
        let mut components = vec![
            json!({"type": "textarea", "key": "reason"}),
            json!({"type": "checkbox", "key": "approved", "readonly": true}),
        ];
        let before = components.clone();
        hide_until_chosen(&mut components, &process(), Some(0));
        assert_eq!(components, before);
    }
}
