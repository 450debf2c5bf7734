//! What the drafter tests ask of a process: the names it uses, and a step's index by id.

use formgen::bpmn::{self, Process};

/// The names a process uses: its declared variables, those its conditions and other expressions read,
/// and the fields a Camunda 7 / Flowable step declares. A drafted key must be one of them.
pub fn names_used(p: &Process) -> Vec<String> {
    let mut names: Vec<String> = p.variables().into_iter().map(str::to_string).collect();
    for e in &p.elements {
        names.extend(bpmn::read_condition(&e.condition).variables);
        names.extend(
            e.declared()
                .fields
                .iter()
                .map(|f| if f.variable.is_empty() { f.id.clone() } else { f.variable.clone() }),
        );
    }
    names.extend(formgen::flow::access::of_process(p).into_iter().flat_map(|a| a.reads));
    names
}

/// The index of the step with this id; none for the start form (`""`).
pub fn at(p: &Process, id: &str) -> Option<usize> {
    (!id.is_empty()).then(|| p.element_index(id)).flatten()
}
