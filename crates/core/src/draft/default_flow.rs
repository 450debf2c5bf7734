//! The value a gateway's default flow stands for. `= complianceDecision = "APPROVED"` on the flow
//! named "approved", and the default flow named "rejected": the process reads a choice of two, and
//! the other is `"REJECTED"`, the default flow's name written as the literals are. The builtin draft
//! offers both, as the author's select does; the default flow takes the one no condition names.
//!
//! Only where every conditional flow of the gateway compares one variable for equality with texts,
//! and the default flow's name is a short name of a value: not "otherwise" (`OTHERWISE`), and not a
//! yes or no answering the gateway's question unless the literals are yes or no too (`ANSWERS`).

use std::collections::HashMap;

use crate::bpmn::{Comparison, Literal, Operator, Process, read_condition};

/// Default flow names that name no value.
const OTHERWISE: &[&str] =
    &["otherwise", "else", "default", "other", "others", "sonst", "andernfalls", "ansonsten", "none", "rest"];

/// Answers to the gateway's question ("Known?" – "yes"): a value only beside literals that are
/// answers too (`= confirmed = "yes"`, default "no").
const ANSWERS: &[&str] =
    &["yes", "no", "ja", "nein", "oui", "non", "si", "sí", "sim", "não", "nee", "true", "false"];

/// Most words a default flow's name may have to be read as a value.
const MOST_WORDS: usize = 3;

/// The comparisons the gateways' default flows stand for: `variable = "<the flow's name>"`, one per
/// gateway where the rule holds.
pub(super) fn default_values(process: &Process) -> Vec<Comparison> {
    let mut by_source: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in process.elements.iter().enumerate().filter(|(_, e)| e.is_flow()) {
        by_source.entry(e.source.as_str()).or_default().push(i);
    }
    let gateways = process.elements.iter().filter(|e| e.is_gateway() && !e.default_flow.trim().is_empty());
    let mut out = Vec::new();
    for gateway in crate::stop::until_stopped(gateways) {
        let flows = by_source.get(gateway.id.as_str()).map(Vec::as_slice).unwrap_or_default();
        let (default, conditional): (Vec<usize>, Vec<usize>) =
            flows.iter().partition(|&&f| process.elements[f].id == gateway.default_flow);
        let Some(&default) = default.first() else { continue };
        let Some((variable, literals)) = one_choice(process, &conditional) else { continue };
        if let Some(value) = value_named(&process.elements[default].name, &literals) {
            out.push(Comparison { variable, operator: Operator::Eq, literal: Literal::Text(value) });
        }
    }
    out
}

/// The variable the conditional flows all compare for equality with texts, and those texts.
fn one_choice(process: &Process, flows: &[usize]) -> Option<(String, Vec<String>)> {
    let mut variable: Option<String> = None;
    let mut literals = Vec::new();
    for &f in flows {
        let reading = read_condition(&process.elements[f].condition);
        let [only] = reading.variables.as_slice() else { return None };
        if variable.get_or_insert_with(|| only.clone()) != only || reading.comparisons.is_empty() {
            return None;
        }
        for c in &reading.comparisons {
            match (&c.operator, &c.literal) {
                (Operator::Eq, Literal::Text(t)) => literals.push(t.clone()),
                _ => return None,
            }
        }
    }
    Some((variable?, literals))
}

/// The default flow's name as one of `literals` is written (`rejected` → `REJECTED` beside
/// `APPROVED`), when it reads as an answer and is not one of them already.
fn value_named(name: &str, literals: &[String]) -> Option<String> {
    let name = crate::words::one_line(name);
    let words = name.split(' ').count();
    let plain = name.chars().all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'));
    if name.is_empty() || words > MOST_WORDS || !plain || OTHERWISE.contains(&name.to_lowercase().as_str()) {
        return None;
    }
    let is_answer = |t: &str| ANSWERS.contains(&t.to_lowercase().as_str());
    if is_answer(&name) && !literals.iter().all(|l| is_answer(l)) {
        return None;
    }
    let like = literals.first()?;
    let letters = || like.chars().filter(|c| c.is_alphabetic());
    let joiner = ['_', '-', ' '].into_iter().find(|j| like.contains(*j)).unwrap_or('_');
    let joined = name.replace(' ', &joiner.to_string());
    let value = if letters().all(char::is_uppercase) {
        joined.to_uppercase()
    } else if letters().all(char::is_lowercase) {
        joined.to_lowercase()
    } else {
        name.into_owned()
    };
    let known = literals.iter().any(|l| l.eq_ignore_ascii_case(&value));
    (!known && !value.is_empty()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process(default_name: &str, conditions: &[&str]) -> Process {
        let flows: String = conditions
            .iter()
            .enumerate()
            .map(|(i, c)| {
                format!(r#"<sequenceFlow id="c{i}" sourceRef="g" targetRef="e"><conditionExpression>{c}</conditionExpression></sequenceFlow>"#)
            })
            .collect();
        crate::bpmn::read_str(&format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="p">
              <exclusiveGateway id="g" default="d"/>{flows}
              <sequenceFlow id="d" name="{default_name}" sourceRef="g" targetRef="e"/><endEvent id="e"/>
            </process></definitions>"#
        ))
        .processes
        .remove(0)
    }

    fn values(default_name: &str, conditions: &[&str]) -> Vec<String> {
        default_values(&process(default_name, conditions)).into_iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn the_default_flow_names_the_other_answer_as_the_literals_are_written() {
        assert_eq!(values("rejected", &[r#"=decision = "APPROVED""#]), [r#"decision = "REJECTED""#]);
        assert_eq!(values("Not eligible", &[r#"=state = "eligible""#]), [r#"state = "not_eligible""#]);
        assert_eq!(values("on hold", &[r#"=s = "in-review""#, r#"=s = "done""#]), [r#"s = "on-hold""#]);
        assert_eq!(values("Rejected", &[r#"=decision = "Approved""#]), [r#"decision = "Rejected""#]);
    }

    #[test]
    fn a_default_flow_that_names_no_value_adds_none() {
        assert!(values("otherwise", &[r#"=d = "yes""#]).is_empty());
        assert!(values("", &[r#"=d = "yes""#]).is_empty());
        assert!(values("no, send it back to the applicant", &[r#"=d = "yes""#]).is_empty());
        assert!(values("rejected?", &[r#"=d = "yes""#]).is_empty());
        assert!(values("approved", &[r#"=d = "APPROVED""#]).is_empty(), "already a value");
        assert!(values("low", &["=amount > 100"]).is_empty(), "not a choice of texts");
        assert!(values("no", &[r#"=a = "x""#, r#"=b = "y""#]).is_empty(), "two variables");
        assert!(values("no", &[r#"=a = "x" and b"#]).is_empty());
        assert!(
            values("Ja", &[r#"=process = "unbekannt""#]).is_empty(),
            "an answer to the gateway's question"
        );
        assert_eq!(values("No", &[r#"=confirmed = "yes""#]), [r#"confirmed = "no""#]);
    }
}
