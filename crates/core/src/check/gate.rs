//! The gate's rules a hand-written form breaks, as findings: the form is still checked against its
//! process, and each broken rule says where and what to do.

use super::{Code, Finding, Severity};
use crate::gate::Problem;

/// A finding (severity error) for each rule the form breaks, in the form's order.
pub fn gate_findings(problems: &[Problem]) -> Vec<Finding> {
    problems
        .iter()
        .map(|p| Finding {
            code: Code::from(p.rule),
            severity: Severity::Error,
            key: p.key.clone(),
            label: None,
            element_id: None,
            expression: None,
            message: p.message.clone(),
        })
        .collect()
}
