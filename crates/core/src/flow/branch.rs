//! Which conditions lead to an element: the conditional sequence flows every way from a step to it
//! takes. A value the process reads only past `= approved` is needed only when the step's form says
//! yes; a form may show its field only then ([`crate::check`] and the drafter read it so).
//!
//! A flow guards an element when every way from the step to the element passes it: it dominates the
//! element in the graph of what runs after the step. The dominators are worked out once per step, by
//! Cooper, Harvey and Kennedy's iteration ("A Simple, Fast Dominance Algorithm") on the process's own
//! graph, and each element keeps the nearest conditional flow among its dominators: its guards are
//! that flow's chain, at most [`MOST_FLOWS`] of them. (petgraph's version of the algorithm needs its
//! own copy of the graph and a hash set of each node's predecessors: with it the contract's peak heap
//! on a large process rose from 10× to 12–13× its text, `cargo bench --bench flow`.)

use std::collections::{HashMap, HashSet};

use super::graph::Graph;
use crate::bpmn::Process;

/// Most guards an element has: the nearest.
pub(crate) const MOST_FLOWS: usize = 32;

/// No element: not reached from the step, or no conditional flow above.
const NONE: u32 = u32::MAX;

/// What runs after a step, and through which conditions.
pub(crate) struct Branches {
    /// Per element: the nearest conditional flow every way from the step to it passes ([`NONE`]:
    /// none).
    nearest: Vec<u32>,
    /// Per element: whether it runs after the step.
    reached: Vec<bool>,
}

impl Branches {
    /// The branches after `own` (the step, or the start events).
    pub(crate) fn new(process: &Process, graph: &Graph, own: &[usize]) -> Branches {
        let n = graph.next.len();
        let (idom, order) = dominators(graph, own);
        let conditional =
            |i: usize| process.elements[i].is_flow() && !process.elements[i].condition.trim().is_empty();
        let mut nearest = vec![NONE; n];
        // a dominator comes before what it dominates, in reverse post order
        for &node in order.iter().rev().filter(|&&i| i < n) {
            let d = idom[node] as usize;
            if d < n {
                nearest[node] = if conditional(d) { d as u32 } else { nearest[d] };
            }
        }
        let reached = (0..n).map(|i| idom[i] != NONE).collect();
        Branches { nearest, reached }
    }

    /// Whether `element` runs after the step.
    fn runs_after(&self, element: usize) -> bool {
        self.reached.get(element).copied().unwrap_or(false)
    }

    /// The conditional flows every way from the step to `element` takes, nearest first, at most
    /// [`MOST_FLOWS`]; none for an element that does not run after the step. A flow's own condition
    /// is read before the flow is taken, so it is not among its guards.
    pub(crate) fn guards(&self, element: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut at = self.nearest.get(element).copied().unwrap_or(NONE);
        while at != NONE && out.len() < MOST_FLOWS {
            out.push(at as usize);
            at = self.nearest[at as usize];
        }
        out
    }
}

/// The immediate dominator of each element of `graph`, seen from a start that leads to what follows
/// `own`, and last the start's own entry (itself; [`NONE`] for what the start does not reach); with
/// the post order of what it reaches.
fn dominators(graph: &Graph, own: &[usize]) -> (Vec<u32>, Vec<usize>) {
    let n = graph.next.len();
    let root = n;
    let mut from_root = vec![false; n];
    own.iter().flat_map(|&o| graph.next[o].iter()).for_each(|&b| from_root[b] = true);
    let successors = |i: usize| -> Vec<usize> {
        if i == root { (0..n).filter(|&b| from_root[b]).collect() } else { graph.next[i].clone() }
    };
    // post order by an explicit stack: a process may be deep
    let mut number = vec![NONE; n + 1];
    let mut order: Vec<usize> = Vec::new();
    let mut seen = vec![false; n + 1];
    let mut stack: Vec<(usize, Vec<usize>)> = vec![(root, successors(root))];
    seen[root] = true;
    while let Some((node, pending)) = stack.last_mut() {
        match pending.pop() {
            Some(next) if !seen[next] => {
                seen[next] = true;
                let children = successors(next);
                stack.push((next, children));
            }
            Some(_) => {}
            None => {
                number[*node] = order.len() as u32;
                order.push(*node);
                stack.pop();
            }
        }
    }
    let mut idom = vec![NONE; n + 1];
    idom[root] = root as u32;
    let intersect = |idom: &[u32], mut a: usize, mut b: usize| {
        while a != b {
            while number[a] < number[b] {
                a = idom[a] as usize;
            }
            while number[b] < number[a] {
                b = idom[b] as usize;
            }
        }
        a
    };
    let mut changed = true;
    while changed && !crate::stop::stopped() {
        changed = false;
        for &node in order.iter().rev().filter(|&&i| i != root) {
            let predecessors = graph.prev[node].iter().copied().chain(from_root[node].then_some(root));
            let mut chosen: Option<usize> = None;
            for p in predecessors.filter(|&p| idom[p] != NONE) {
                chosen = Some(chosen.map_or(p, |c| intersect(&idom, p, c)));
            }
            if let Some(c) = chosen
                && idom[node] != c as u32
            {
                idom[node] = c as u32;
                changed = true;
            }
        }
    }
    (idom, order)
}

/// For each of `names`, the conditional flows after the element at `target` (none: the start form)
/// that every read of it after the step is reached through; a name nothing after the step reads has
/// no entry. Reads are every expression's (the step's own are not after it).
pub(crate) fn read_only_when(
    process: &Process,
    target: Option<usize>,
    names: &[&str],
) -> HashMap<String, Vec<usize>> {
    if names.is_empty() || !process.elements.iter().any(|e| e.is_flow() && !e.condition.trim().is_empty()) {
        return HashMap::new();
    }
    let graph = Graph::new(process);
    let own: Vec<usize> = match target {
        Some(i) => vec![i],
        None => Graph::top_starts(process),
    };
    let branches = Branches::new(process, &graph, &own);
    let wanted: HashSet<&str> = names.iter().copied().collect();
    let access = super::access::of_process(process);
    let mut out: HashMap<String, Vec<usize>> = HashMap::new();
    let mut unguarded: HashSet<&str> = HashSet::new();
    for (i, a) in crate::stop::until_stopped(access.iter().enumerate()) {
        if own.contains(&i) || !branches.runs_after(i) {
            continue;
        }
        for name in a.reads.iter().map(String::as_str).filter(|n| wanted.contains(n)) {
            if unguarded.contains(name) {
                continue;
            }
            let guards = branches.guards(i);
            let guards = guards.as_slice();
            let kept = match out.get_mut(name) {
                Some(held) => {
                    held.retain(|f| guards.contains(f));
                    !held.is_empty()
                }
                None => {
                    out.insert(name.to_string(), guards.to_vec());
                    !guards.is_empty()
                }
            };
            if !kept {
                out.remove(name);
                unguarded.insert(name);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn process(xml: &str) -> Process {
        crate::bpmn::read_str(xml).processes.remove(0)
    }

    /// A step whose form decides `approved`; the yes branch reads `reason`, both read `note` after
    /// they join.
    const SPLIT: &str = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
        xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p">
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="review"/>
      <userTask id="review"/><sequenceFlow id="f1" sourceRef="review" targetRef="g"/>
      <exclusiveGateway id="g" default="no"/>
      <sequenceFlow id="yes" sourceRef="g" targetRef="explain"><conditionExpression>=approved</conditionExpression></sequenceFlow>
      <sequenceFlow id="no" sourceRef="g" targetRef="j"/>
      <serviceTask id="explain"><extensionElements><zeebe:ioMapping>
        <zeebe:input source="=reason" target="text"/></zeebe:ioMapping></extensionElements></serviceTask>
      <sequenceFlow id="f2" sourceRef="explain" targetRef="j"/>
      <exclusiveGateway id="j"/><sequenceFlow id="f3" sourceRef="j" targetRef="log"/>
      <serviceTask id="log"><extensionElements><zeebe:ioMapping>
        <zeebe:input source="=note" target="text"/></zeebe:ioMapping></extensionElements></serviceTask>
    </process></definitions>"#;

    fn ids(process: &Process, flows: &[usize]) -> Vec<String> {
        flows.iter().map(|&f| process.elements[f].id.to_string()).collect()
    }

    #[test]
    fn a_read_past_a_condition_is_guarded_by_it_and_one_after_the_join_is_not() {
        let p = process(SPLIT);
        let review = p.elements.iter().position(|e| e.id == "review").unwrap();
        let only = read_only_when(&p, Some(review), &["reason", "note", "approved"]);
        assert_eq!(ids(&p, &only["reason"]), ["yes"]);
        assert!(!only.contains_key("note"), "read whichever way: {only:?}");
        // the condition that reads it is not behind itself
        assert!(!only.contains_key("approved"), "{only:?}");
    }

    #[test]
    fn a_read_on_both_branches_is_not_guarded() {
        let xml = SPLIT.replace("source=\"=note\"", "source=\"=reason\"");
        let p = process(&xml);
        let review = p.elements.iter().position(|e| e.id == "review").unwrap();
        assert!(read_only_when(&p, Some(review), &["reason"]).is_empty());
    }

    #[test]
    fn a_branch_that_loops_back_to_the_step_guards_its_own_reads() {
        let p = process(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
                xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p">
              <userTask id="guess"/><sequenceFlow id="f1" sourceRef="guess" targetRef="g"/>
              <exclusiveGateway id="g"/>
              <sequenceFlow id="t" sourceRef="g" targetRef="translate"><conditionExpression>=translate</conditionExpression></sequenceFlow>
              <sequenceFlow id="nt" sourceRef="g" targetRef="score"><conditionExpression>=not(translate)</conditionExpression></sequenceFlow>
              <serviceTask id="translate"><extensionElements><zeebe:ioMapping>
                <zeebe:input source="=language" target="to"/></zeebe:ioMapping></extensionElements></serviceTask>
              <sequenceFlow id="back" sourceRef="translate" targetRef="guess"/>
              <serviceTask id="score"><extensionElements><zeebe:ioMapping>
                <zeebe:input source="=answer" target="a"/></zeebe:ioMapping></extensionElements></serviceTask>
            </process></definitions>"#,
        );
        let only = read_only_when(&p, Some(0), &["language", "answer"]);
        assert_eq!(ids(&p, &only["language"]), ["t"]);
        assert_eq!(ids(&p, &only["answer"]), ["nt"]);
    }

    #[test]
    fn what_runs_before_the_step_has_no_guards() {
        let p = process(SPLIT);
        let explain = p.elements.iter().position(|e| e.id == "explain").unwrap();
        let graph = Graph::new(&p);
        let branches = Branches::new(&p, &graph, &[explain]);
        let review = p.elements.iter().position(|e| e.id == "review").unwrap();
        assert!(branches.guards(review).is_empty());
    }
}
