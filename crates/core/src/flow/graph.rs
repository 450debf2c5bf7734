//! The order of a process's elements: what can run after what. One graph for the contract
//! ([`super::contract`]) and the data picture ([`super::picture`]), so the two never disagree on what
//! runs before or after a step.
//!
//! Sequence flows are nodes (a flow's condition runs after its source and before its target). A
//! boundary event follows the activity it is attached to. A sub-process leads to its children that
//! nothing inside leads to (its start events, an event sub-process); a child with no way on leads to
//! what follows the sub-process, and only such a child does: what follows a sub-process with
//! children runs after them, never instead of them.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::bpmn::ElementKind;
use crate::bpmn::Process;

/// Which way a walk follows the graph.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Along sequence flows.
    Forward,
    /// Against them.
    Back,
}

/// The order of a process's elements: what can run after what, sequence flows included as nodes
/// (so a flow's condition runs after its source and before its target).
pub(crate) struct Graph {
    /// Per element: what can run right after it.
    pub(crate) next: Vec<Vec<usize>>,
    /// Per element: what can run right before it.
    pub(crate) prev: Vec<Vec<usize>>,
}

impl Graph {
    /// The graph of a process.
    pub(crate) fn new(process: &Process) -> Graph {
        let n = process.elements.len();
        let mut by_id: HashMap<&str, usize> = HashMap::new();
        for (i, e) in crate::stop::until_stopped(process.elements.iter().enumerate()) {
            by_id.entry(e.id.as_str()).or_insert(i);
        }
        let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut incoming: Vec<bool> = vec![false; n];
        let mut next: Vec<HashSet<usize>> = vec![HashSet::new(); n];
        let mut has_children = vec![false; n];
        for e in process.elements.iter().filter(|e| !e.is_flow() && e.kind != ElementKind::BoundaryEvent) {
            if let Some(parent) = e.parent {
                has_children[parent] = true;
            }
        }
        for (f, e) in process.elements.iter().enumerate().filter(|(_, e)| e.is_flow()) {
            if let Some(&a) = by_id.get(e.source.as_str()) {
                // a sub-process with children is left by its children that end it, not before them
                if !has_children[a] {
                    next[a].insert(f);
                }
                outgoing[a].push(f);
            }
            if let Some(&b) = by_id.get(e.target.as_str()) {
                next[f].insert(b);
                incoming[b] = true;
            }
        }
        for (i, e) in crate::stop::until_stopped(process.elements.iter().enumerate()) {
            if e.kind == ElementKind::BoundaryEvent
                && let Some(&host) = by_id.get(e.attached_to.as_str())
            {
                next[host].insert(i);
            }
            if let Some(parent) = e.parent {
                // a sub-process starts its children that nothing inside leads to
                if !incoming[i] && !e.is_flow() && e.kind != ElementKind::BoundaryEvent {
                    next[parent].insert(i);
                }
                // a child with no way on ends the sub-process: what follows the sub-process follows it
                if !e.is_flow() && outgoing[i].is_empty() {
                    let after: Vec<usize> = outgoing[parent].clone();
                    next[i].extend(after);
                }
            }
        }
        let next: Vec<Vec<usize>> = next
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let mut v: Vec<usize> = s.into_iter().filter(|&j| j != i).collect();
                v.sort_unstable();
                v
            })
            .collect();
        let mut prev = vec![Vec::new(); n];
        for (a, targets) in next.iter().enumerate() {
            for &b in targets {
                prev[b].push(a);
            }
        }
        Graph { next, prev }
    }

    /// The start events outside any sub-process.
    pub(crate) fn top_starts(process: &Process) -> Vec<usize> {
        process.elements.iter().enumerate().filter(|(_, e)| e.is_top_level_start()).map(|(i, _)| i).collect()
    }

    /// Everything reachable from `from` (not `from` itself, unless on a loop).
    pub(crate) fn reach(&self, from: &[usize], direction: Direction) -> HashSet<usize> {
        self.reach_avoiding(from, direction, &[])
    }

    /// Everything reachable from `from` without passing through `avoid`.
    pub(crate) fn reach_avoiding(
        &self,
        from: &[usize],
        direction: Direction,
        avoid: &[usize],
    ) -> HashSet<usize> {
        self.reach_unless(from, direction, |i| avoid.contains(&i))
    }

    /// Everything reachable from `from` without passing through an element `stop` holds to: one walk,
    /// each element once, however many elements `stop` names.
    pub(crate) fn reach_unless(
        &self,
        from: &[usize],
        direction: Direction,
        stop: impl Fn(usize) -> bool,
    ) -> HashSet<usize> {
        let edges = if direction == Direction::Forward { &self.next } else { &self.prev };
        let mut seen = HashSet::new();
        let mut queue: VecDeque<usize> = from.iter().flat_map(|&f| edges[f].iter().copied()).collect();
        while let Some(i) = queue.pop_front() {
            if !stop(i) && seen.insert(i) {
                queue.extend(edges[i].iter().copied());
            }
        }
        seen
    }

    /// What can run before `own` on the way from the process's start to it (not what runs before it
    /// again only because a loop leads back to it).
    pub(crate) fn first_pass_before(&self, process: &Process, own: &[usize]) -> HashSet<usize> {
        let mut roots: Vec<usize> = Graph::top_starts(process);
        if roots.is_empty() {
            roots = (0..self.prev.len()).filter(|&i| self.prev[i].is_empty()).collect();
        }
        // the step itself may be where the process starts: then nothing runs before it
        roots.retain(|r| !own.contains(r));
        let mut out = self.reach_avoiding(&roots, Direction::Forward, own);
        out.extend(roots.iter().copied());
        out.retain(|i| !own.contains(i));
        out
    }

    /// What can run after `own`, nearest first (by sequence flows from it), each once.
    pub(crate) fn after(&self, own: &[usize]) -> Vec<usize> {
        let mut seen: HashSet<usize> = HashSet::new();
        let mut order = Vec::new();
        let mut queue: VecDeque<usize> = own.iter().flat_map(|&f| self.next[f].iter().copied()).collect();
        while let Some(i) = queue.pop_front() {
            if seen.insert(i) {
                order.push(i);
                queue.extend(self.next[i].iter().copied());
            }
        }
        order
    }
}
