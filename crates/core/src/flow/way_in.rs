//! What the way into a step says. The conditions it passes name the outcome the step was routed
//! on: a step past `= status = "FAILED"` handles a failed job, and what the job wrote beside `status`
//! is what its person looks at ([`tested_on_the_way`]). And a yes/no value it settles would read the
//! same every time: a step reached only past `= clarified` (or on the default way of a gateway whose
//! other way is `= approved`) runs when `clarified` is true (when `approved` is not), so the drafter
//! leaves such values out of what it shows read-only, as it leaves out the step's routing
//! ([`settled_on_the_way`]).

use std::collections::HashSet;

use super::graph::Graph;
use crate::bpmn::{Literal, Operator, Process, read_condition};

/// The variables every way into the element at `step` compares with `true` or `false`, walking back
/// through the gateways before it. A way that comes from anything else than a gateway or a
/// conditional flow settles nothing, so a step also reached without a condition has none.
pub(crate) fn settled_on_the_way(process: &Process, graph: &Graph, step: usize) -> HashSet<String> {
    let mut walking = HashSet::new();
    into(process, graph, step, &mut walking)
}

/// The variables (roots) the conditions on any way into the element at `step` test, walking back
/// through the gateways before it; on a gateway's default way, those its other ways test.
pub(crate) fn tested_on_the_way(process: &Process, graph: &Graph, step: usize) -> HashSet<String> {
    let mut tested = HashSet::new();
    let mut walked = HashSet::new();
    let mut stack = vec![step];
    while let Some(node) = stack.pop() {
        if !walked.insert(node) {
            continue;
        }
        for &way in graph.prev[node].iter().filter(|&&w| process.elements[w].is_flow()) {
            let flow = &process.elements[way];
            let gateway = graph.prev[way].first().copied().filter(|&g| process.elements[g].is_gateway());
            // a gateway's default way is taken because its other conditions did not hold
            let conditions: Vec<usize> = match gateway {
                Some(g)
                    if flow.condition.trim().is_empty() && process.elements[g].default_flow == flow.id =>
                {
                    graph.next[g].clone()
                }
                _ => vec![way],
            };
            for c in conditions {
                let roots = (read_condition(&process.elements[c].condition).variables.into_iter())
                    .map(|v| v.split_once('.').map_or(v.clone(), |(root, _)| root.to_string()));
                tested.extend(roots);
            }
            stack.extend(gateway);
        }
    }
    tested
}

/// What every way into `node` settles.
fn into(process: &Process, graph: &Graph, node: usize, walking: &mut HashSet<usize>) -> HashSet<String> {
    if !walking.insert(node) {
        // a loop back to a gateway on the way: that way settles nothing
        return HashSet::new();
    }
    let mut all: Option<HashSet<String>> = None;
    for &way in &graph.prev[node] {
        let settled = through(process, graph, way, walking);
        let kept: HashSet<String> = match all {
            Some(held) => held.intersection(&settled).cloned().collect(),
            None => settled,
        };
        let empty = kept.is_empty();
        all = Some(kept);
        if empty {
            break;
        }
    }
    walking.remove(&node);
    all.unwrap_or_default()
}

/// What the way through the sequence flow `way` settles: its own condition's yes/no comparisons, or
/// for a gateway's default flow what its other ways' single yes/no conditions did not hold for, and
/// what every way into the gateway settles.
fn through(process: &Process, graph: &Graph, way: usize, walking: &mut HashSet<usize>) -> HashSet<String> {
    let flow = &process.elements[way];
    let Some(&source) = graph.prev[way].first().filter(|_| flow.is_flow()) else {
        return HashSet::new();
    };
    let gateway = &process.elements[source];
    if !gateway.is_gateway() {
        return yes_no(&flow.condition).into_iter().collect();
    }
    let mut settled: HashSet<String> = if flow.condition.trim().is_empty() && gateway.default_flow == flow.id
    {
        (graph.next[source].iter())
            .filter(|&&other| other != way)
            .filter_map(|&other| only_yes_no(&process.elements[other].condition))
            .collect()
    } else {
        yes_no(&flow.condition).into_iter().collect()
    };
    settled.extend(into(process, graph, source, walking));
    settled
}

/// The variables a condition compares with `true` or `false` (a bare `= approved`, `not(x)`, `x =
/// false`) when it holds; none when it has an `or`, which settles no one of its parts.
fn yes_no(condition: &str) -> Vec<String> {
    let words = crate::words::split(condition);
    if condition.contains("||") || words.iter().any(|w| w == "or") {
        return Vec::new();
    }
    (read_condition(condition).comparisons.into_iter())
        .filter(|c| {
            matches!(c.operator, Operator::Eq | Operator::Ne) && matches!(c.literal, Literal::Bool(_))
        })
        .map(|c| c.variable)
        .collect()
}

/// The variable of a condition that is one yes/no comparison and nothing else: when it does not
/// hold, that variable is settled too.
fn only_yes_no(condition: &str) -> Option<String> {
    let reading = read_condition(condition);
    match (reading.variables.as_slice(), yes_no(condition).as_slice()) {
        ([one], [compared]) if one == compared => Some(compared.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled(xml: &str, step: &str) -> Vec<String> {
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let graph = Graph::new(&process);
        let i = process.elements.iter().position(|e| e.id == step).expect("the step is there");
        let mut out: Vec<String> = settled_on_the_way(&process, &graph, i).into_iter().collect();
        out.sort();
        out
    }

    fn approval(into_approve: &str, also: &str) -> String {
        format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="p">
              <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="review"/>
              <userTask id="review"/><sequenceFlow id="f1" sourceRef="review" targetRef="g"/>
              <exclusiveGateway id="g" default="no"/>
              <sequenceFlow id="yes" sourceRef="g" targetRef="pay">
                <conditionExpression>{into_approve}</conditionExpression></sequenceFlow>
              <sequenceFlow id="no" sourceRef="g" targetRef="tell"/>
              <userTask id="pay"/><userTask id="tell"/>{also}
            </process></definitions>"#
        )
    }

    #[test]
    fn a_yes_no_condition_on_the_way_settles_its_value_both_ways() {
        assert_eq!(settled(&approval("= approved", ""), "pay"), ["approved"]);
        assert_eq!(settled(&approval("= approved", ""), "tell"), ["approved"]);
        assert_eq!(settled(&approval("= not(checked) and urgent = false", ""), "pay"), ["checked", "urgent"]);
    }

    #[test]
    fn a_condition_that_is_not_one_yes_no_settles_nothing() {
        assert!(settled(&approval("= amount > 1000", ""), "pay").is_empty());
        assert!(settled(&approval("= approved or urgent", ""), "pay").is_empty());
        // the default way of `approved and urgent` is taken when either is false
        assert!(settled(&approval("= approved and urgent", ""), "tell").is_empty());
        assert!(settled(&approval("= approved", ""), "review").is_empty());
    }

    #[test]
    fn the_conditions_on_any_way_in_are_tested_on_the_way() {
        let also = r#"<sequenceFlow id="f9" sourceRef="review" targetRef="pay"/>"#;
        let process =
            crate::bpmn::read_str(&approval("= order.total > 10 and approved", also)).processes.remove(0);
        let graph = Graph::new(&process);
        let at = |id: &str| process.elements.iter().position(|e| e.id == id).expect("the step is there");
        let mut tested: Vec<String> = tested_on_the_way(&process, &graph, at("pay")).into_iter().collect();
        tested.sort();
        assert_eq!(tested, ["approved", "order"]);
        let mut otherwise: Vec<String> =
            tested_on_the_way(&process, &graph, at("tell")).into_iter().collect();
        otherwise.sort();
        assert_eq!(
            otherwise,
            ["approved", "order"],
            "the default way is taken when the condition does not hold"
        );
    }

    #[test]
    fn a_second_way_in_without_the_condition_settles_nothing() {
        let also = r#"<sequenceFlow id="f9" sourceRef="review" targetRef="pay"/>"#;
        assert!(settled(&approval("= approved", also), "pay").is_empty());
    }
}
