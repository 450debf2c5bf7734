//! The step's data picture: what is known before a step, what its form must supply, and what the
//! gateways after it decide on — from the process and its project.
//!
//! - **Links.** A step that binds a form (`zeebe:formDefinition formId` naming a form of the project, or
//!   an embedded `zeebe:userTaskForm`) writes that form's input keys; a business rule task that calls a
//!   decision of the project (`zeebe:calledDecision decisionId`) reads the variables its inputs read.
//! - **Order.** What can run before the step: everything from which it can be reached along sequence
//!   flows, a boundary event after the activity it is attached to, a sub-process before its children
//!   and its children before what follows it. What can run after: what it can reach the same way.
//!   The contract's graph (`flow::graph`): the picture and the contract agree on the order.
//! - **Known before**: variables written by what can run before (with where they come from), and those
//!   read before the step (a gateway before it tests the conditions of all its ways out, not only the
//!   one to the step), or shown read-only by a later form, that nothing in the process writes: the
//!   process was started with them.
//! - **To supply**: variables read by what can run after and written by nothing in the process but
//!   the step's own form; plus the sources of the step's own output mappings (a user task with
//!   `<zeebe:output source="=approved" target="isApproved"/>` has a form that writes `approved`). For the
//!   start form: what the process reads and nothing in it writes, what it reads on some way from
//!   the start before a later form sets it, and what it only updates from itself (`= lives - 1`).
//! - **Decided on**: the variables the conditions of the gateways after the step test that nothing
//!   else in the process writes: the answers this step's form gives.
//!
//! It knows the process, its reads and writes ([`super::access`]) and the project; nothing of prompts,
//! forms to be drafted, or HTTP.

use std::collections::{HashMap, HashSet};

use indexmap::IndexSet;
use serde::Serialize;

use super::access::{self, ElementAccess};
use super::contract::root;
use super::expr;
use super::graph::{Direction, Graph};
use super::named::NamedWriters;
use crate::bpmn::ElementKind;
use crate::bpmn::{Place, Process, read_condition};
use crate::project::{Project, ProjectForm};

/// A variable known before the step, and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Known {
    /// The variable.
    pub name: String,
    /// Where it comes from, in words (`the form of "Antrag stellen"`).
    pub from: String,
    /// Whether the step or something after it reads it (what a reviewer of this step needs).
    pub used: bool,
    /// Whether a person gave it: a form's field, or a value the process was started with (read before
    /// the step, written by nothing in the process), rather than one a step computed.
    pub entered: bool,
    /// How many of the process's and the project's forms have a field for it: a value the authors
    /// put on several forms is one each step's person gets to see.
    pub in_forms: usize,
    /// Whether the sub-process the step runs in set it for the steps inside (its input mappings, its
    /// loop's element): what the step was handed to work on.
    pub handed: bool,
    /// Whether what wrote it also wrote a value the conditions on the way into the step test: the
    /// outcome the step was routed on (a failed job's details, past `= status = "FAILED"`).
    pub outcome: bool,
    /// Whether it is known only because a later form shows it and nothing in the process sets it:
    /// the process may have been started with it, or the step's own form, if it has one, sets it.
    pub shown_later: bool,
}

impl Known {
    /// A value nothing in the process writes, which the process is taken to have been started with:
    /// a person gave it, and nothing says yet that the step works on it.
    fn started_with(name: String, from: String, in_forms: usize) -> Known {
        Known {
            name,
            from,
            used: false,
            entered: true,
            in_forms,
            handed: false,
            outcome: false,
            shown_later: false,
        }
    }
}

/// A variable the step's form supplies, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Supply {
    /// The variable (a dotted path when the process reads it by path).
    pub name: String,
    /// Why, in words (`read by the condition of "Genehmigt?"`).
    pub why: String,
}

/// A variable a downstream gateway decides on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Decided {
    /// The variable.
    pub name: String,
    /// The conditions that test it, as written.
    pub conditions: Vec<String>,
}

/// The data picture of one step (or of the start form).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Picture {
    /// The step (`""` for the start form).
    pub element_id: String,
    /// Written by what can run before the step.
    pub known_before: Vec<Known>,
    /// What the step's form must supply.
    pub to_supply: Vec<Supply>,
    /// What the gateways after it decide on.
    pub decided_on: Vec<Decided>,
    /// The ids of the project's forms the process's steps bind (read for this picture).
    pub forms: Vec<String>,
    /// The ids of the project's decisions the process calls (read for this picture).
    pub decisions: Vec<String>,
    /// What the step's own output mappings set from something other than the form's value: not
    /// fields of its form (the drafter leaves them out).
    #[serde(skip)]
    pub set_by_step: Vec<String>,
    /// What the step's own assignment and schedule read (its assignee, candidates, due date), and the
    /// yes/no values every way into the step settles (`= clarified` on the way in): the engine's
    /// routing, which the person it routes the step to does not need shown.
    #[serde(skip)]
    pub routing: Vec<String>,
    /// What the input mappings of the step and of the sub-processes around it read into a local of
    /// another name (`=toolCall.message` into `message`): the step's form shows the local, not the
    /// value again under its own name.
    #[serde(skip)]
    pub mapped_in: Vec<String>,
    /// Whether the step is an AI agent's tool, or runs inside one: it or a sub-process around it takes
    /// its inputs from the agent's tool call (`fromAi(toolCall.x, ..)`). The agent chooses what such
    /// a step gets, so what it hands the step is what the step's person sees.
    #[serde(skip)]
    pub agent_tool: bool,
    /// The connectors' whole responses known before the step (`flow::access::whole_response`) that
    /// neither the step nor what follows it reads and no form shows: their parts are shown instead.
    #[serde(skip)]
    pub whole_responses: Vec<String>,
    /// What the process reads later that nothing it shows writes, but an element that may write
    /// unseen values names (`inStock` after the job worker "Check stock"), with that element in words:
    /// not the form's to supply (`named.rs`).
    #[serde(skip)]
    pub named_writers: Vec<(String, String)>,
}

/// Most variables in one list of the picture: a bound for any process size.
const MOST: usize = 200;

/// The longest condition quoted in [`Decided::conditions`] (the corpus's longest has 115 bytes); a
/// longer one is cut there with an ellipsis, so that the picture of a process whose one condition
/// names many variables does not hold that condition once per variable.
const MOST_CONDITION_BYTES: usize = 1024;

/// Most names a start form's picture walks the process for, to see whether a way from the start
/// reads them before a later form sets them (each walk is linear in the process).
const MOST_WALKS: usize = 64;

/// `condition`, cut to [`MOST_CONDITION_BYTES`] at a character boundary.
fn quoted_condition(condition: &str) -> String {
    if condition.len() <= MOST_CONDITION_BYTES {
        return condition.to_string();
    }
    let mut end = MOST_CONDITION_BYTES;
    while !condition.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &condition[..end])
}

/// What the step's form supplies, at most [`MOST`]: the sources of its own output mappings, what
/// runs after reads and nothing else writes, and for the start form what is read before a later form
/// sets it.
fn to_supply(
    flow: &Flow<'_>,
    graph: &Graph,
    own: &[usize],
    after: &HashSet<usize>,
    written_elsewhere: &HashSet<String>,
) -> Vec<Supply> {
    let mut out: Vec<Supply> = Vec::new();
    let mut supplied = HashSet::new();
    let mut supply = |name: String, why: String| {
        if !name.is_empty() && out.len() < MOST && supplied.insert(name.clone()) {
            out.push(Supply { name, why });
        }
    };
    for &i in own {
        let locals = flow.locals(i);
        for a in flow.process.elements[i].accesses.iter().filter(|a| a.place == Place::OutputSource) {
            for read in expr::zeebe_value_reads(&a.expression) {
                if !locals.contains(&read.name) {
                    supply(read.name, "the step's output mapping reads it".into());
                }
            }
        }
    }
    for &i in sorted(after).iter() {
        let locals = flow.locals_around(i, own);
        for name in crate::stop::until_stopped(flow.asked_reads_of(i, true)) {
            if !written_elsewhere.contains(&name) && !locals.contains(&name) {
                supply(name, format!("read by {}", flow.phrase(i)));
            }
        }
    }
    if own.iter().all(|&i| flow.process.elements[i].is_top_level_start()) {
        for (name, why) in read_before_set(flow, graph, own, after) {
            supply(name, why);
        }
    }
    out
}

/// The variables (by their root) the input mappings of `element` read from outside it: they hold a
/// value when the step starts, before its form is shown. Not what a mapping copies into a local of
/// the same name (`source="=hint" target="hint"`): the form edits that local.
fn given_to(element: &crate::bpmn::Element) -> HashSet<String> {
    let mappings: Vec<(&str, &str)> = element.input_mappings().collect();
    let targets: HashSet<&str> = mappings.iter().map(|(_, target)| root(target)).collect();
    (mappings.iter().flat_map(|(source, _)| expr::zeebe_value_reads(source)))
        .map(|read| root(&read.name).to_string())
        .filter(|name| !targets.contains(name.as_str()))
        .collect()
}

/// What the process reads on some way from its start before anything on that way sets it, though a
/// person sets it later (a loop's step that asks again, a form that corrects it after an error): the
/// start form gives its first value. At most [`MOST_WALKS`] names are walked, each once (the elements
/// a walk reaches are kept for the name's other readers).
fn read_before_set(
    flow: &Flow<'_>,
    graph: &Graph,
    own: &[usize],
    after: &HashSet<usize>,
) -> Vec<(String, String)> {
    // only what people set later: a value the engine computes later (a tool call's results) starts
    // unset by design; an update of a value from itself (`lives - 1`) sets nothing, it needs a first
    // value
    let updates: HashMap<usize, Vec<String>> =
        after.iter().map(|&i| (i, updated_by(&flow.process.elements[i]))).collect();
    let mut writers: HashMap<String, HashSet<usize>> = HashMap::new();
    let mut computed: HashSet<String> = HashSet::new();
    for &i in sorted(after).iter() {
        let entered: HashSet<String> = flow.form_keys_of(i).into_iter().collect();
        for name in flow.writes_of(i) {
            if updates[&i].contains(&name) {
                writers.entry(name).or_default();
            } else if entered.contains(&name) {
                writers.entry(name).or_default().insert(i);
            } else {
                computed.insert(name);
            }
        }
    }
    writers.retain(|name, _| !computed.contains(name));
    let mut walked: HashMap<String, HashSet<usize>> = HashMap::new();
    let mut out = Vec::new();
    let mut found = HashSet::new();
    for &i in sorted(after).iter() {
        let locals = flow.locals(i);
        let mut reads = flow.asked_reads_of(i, true);
        reads.extend(updates[&i].iter().cloned());
        for name in crate::stop::until_stopped(reads) {
            let Some(set_by) = writers.get(&name) else { continue };
            // what an element reads of what it sets itself is its state from an earlier round
            let own_state = set_by.contains(&i);
            if own_state || locals.contains(&name) || found.contains(&name) {
                continue;
            }
            if !walked.contains_key(&name) && walked.len() >= MOST_WALKS {
                continue;
            }
            let unset_at = walked
                .entry(name.clone())
                .or_insert_with(|| graph.reach_unless(own, Direction::Forward, |e| set_by.contains(&e)));
            if unset_at.contains(&i) {
                found.insert(name.clone());
                out.push((name, format!("read by {} before anything sets it", flow.phrase(i))));
            }
        }
    }
    out
}

/// The variables the output mappings or the FEEL script of `element` set from their own value without
/// checking for it first (`= lives - 1` into `lives`, a script `= total + 1` whose result variable is
/// `total`): updates, which need a value to start from (in FEEL `null + 1` is null). Not `= guess` into
/// `guess`: that hands on what the element itself set (a user task's form, a job's result).
fn updated_by(element: &crate::bpmn::Element) -> Vec<String> {
    let result = element.accesses.iter().find(|a| a.place == Place::ResultVariable);
    let scripts = (element.accesses.iter())
        .filter(|a| a.place == Place::Script && a.dialect == crate::bpmn::Dialect::Feel)
        .filter_map(|a| result.map(|r| (a.expression.as_str(), r.expression.trim())));
    element
        .output_mappings()
        .chain(scripts)
        .filter(|(source, target)| {
            let source = source.trim_start().strip_prefix('=').unwrap_or(source).trim();
            let checked = source == *target
                || source.contains("null")
                || expr::optional_names(source).iter().any(|n| n == target)
                || expr::conditional_names(source).iter().any(|n| n == target);
            !checked && expr::feel_reads(source).iter().any(|r| r.name == *target)
        })
        .map(|(_, target)| target.to_string())
        .collect()
}

/// What the elements `read_before` the step read and nothing in the process writes: given when the
/// process started. Added to `known` (at most [`MOST`]) unless `seen`.
fn read_unset(
    flow: &Flow<'_>,
    read_before: &HashSet<usize>,
    used: &HashSet<String>,
    seen: &mut HashSet<String>,
    known: &mut Vec<Known>,
) {
    for &i in sorted(read_before).iter() {
        for name in crate::stop::until_stopped(flow.asked_reads_of(i, false)) {
            if !flow.written.contains(&name) && seen.insert(name.clone()) && known.len() < MOST {
                let from = format!("given when the process starts (read by {})", flow.phrase(i));
                let in_forms = flow.forms_with(&name);
                let used = used.contains(&name);
                known.push(Known { used, ..Known::started_with(name, from, in_forms) });
            }
        }
    }
}

/// What a later form shows read-only, nothing in the process sets (no element, no form that lets a
/// person edit it, the step's own included) and nothing reads as data (else the step supplies it):
/// the process was started with it. Added to `known` (at most [`MOST`]) unless `seen`.
fn shown_later(
    flow: &Flow<'_>,
    after: &HashSet<usize>,
    used: &HashSet<String>,
    seen: &mut HashSet<String>,
    known: &mut Vec<Known>,
) {
    let mut set_in_process: HashSet<&str> =
        flow.access.iter().flat_map(|a| a.writes.iter().map(|w| w.name.as_str())).collect();
    for i in 0..flow.process.elements.len() {
        let shown: HashSet<&str> = flow.shown_keys[i].iter().map(String::as_str).collect();
        let edited = flow.form_keys[i].iter().flat_map(|(_, keys)| keys.iter().map(String::as_str));
        set_in_process
            .extend(edited.filter(|k| !shown.contains(k)).map(|k| k.split('.').next().unwrap_or(k)));
    }
    for &i in sorted(after).iter() {
        for name in &flow.shown_keys[i] {
            let root = name.split('.').next().unwrap_or(name);
            // what the step or a later element reads as data and nothing sets is the step's to supply
            let read = used.contains(name) || used.contains(root);
            if read || set_in_process.contains(root) || known.len() >= MOST || !seen.insert(name.clone()) {
                continue;
            }
            let from = format!("given when the process starts (shown by {})", flow.phrase(i));
            let in_forms = flow.forms_with(name);
            known.push(Known { shown_later: true, ..Known::started_with(name.clone(), from, in_forms) });
        }
    }
}

/// Marks the values known before the step at `target` that what ran `before` it wrote beside a value
/// the conditions on the way into the step test ([`Known::outcome`]).
fn mark_outcomes(
    known: &mut [Known],
    flow: &Flow<'_>,
    graph: &Graph,
    target: Option<usize>,
    before: &HashSet<usize>,
) {
    let Some(i) = target else { return };
    let tested = super::way_in::tested_on_the_way(flow.process, graph, i);
    if tested.is_empty() {
        return;
    }
    let outcome: HashSet<String> = (before.iter().map(|&e| flow.writes_of(e)))
        .filter(|w| w.iter().any(|n| tested.contains(n)))
        .flatten()
        .collect();
    known.iter_mut().for_each(|k| k.outcome = outcome.contains(&k.name));
}

/// What the picture of the step at `target` (`own`, with what runs `before` it) keeps from the
/// step's draft: its routing (what its assignment reads, what the way into it settles), what it and
/// the sub-processes around it map in under another name, whether it is an AI agent's tool, and the
/// whole responses whose parts are known.
fn left_out_of_drafts(
    picture: &mut Picture,
    process: &Process,
    graph: &Graph,
    own: &[usize],
    target: Option<usize>,
    before: &HashSet<usize>,
) {
    picture.routing = (own.iter())
        .flat_map(|&i| process.elements[i].accesses.iter())
        .filter(|a| is_routing(&a.place))
        .flat_map(access::reads_of)
        .collect();
    let responses: HashSet<String> =
        before.iter().filter_map(|&i| access::whole_response(&process.elements[i])).collect();
    picture.whole_responses = (picture.known_before.iter())
        .filter(|k| responses.contains(&k.name) && !k.used && k.in_forms == 0)
        .map(|k| k.name.clone())
        .collect();
    let Some(i) = target else { return };
    picture.routing.extend(super::way_in::settled_on_the_way(process, graph, i));
    // the step and the sub-processes around it, whose input mappings hand it its locals
    let around: Vec<&crate::bpmn::Element> = std::iter::successors(Some(i), |&e| process.elements[e].parent)
        .map(|e| &process.elements[e])
        .collect();
    picture.mapped_in = mapped_in(&around);
    picture.agent_tool =
        around.iter().any(|e| e.input_mappings().any(|(source, _)| source.contains("fromAi(")));
}

/// What the input mappings of a step and the sub-processes `around` it read into a local of another
/// name.
fn mapped_in(around: &[&crate::bpmn::Element]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (source, target) in around.iter().flat_map(|e| e.input_mappings()) {
        for read in super::expr::zeebe_value_reads(source) {
            if read.path != target && !out.contains(&read.path) {
                out.push(read.path);
            }
        }
    }
    out
}

/// The data picture of the element at `target` (none: the start form).
pub fn picture(process: &Process, target: Option<usize>, project: &Project) -> Picture {
    let flow = Flow::new(process, project);
    let graph = Graph::new(process);
    let own: Vec<usize> = match target {
        Some(i) => vec![i],
        None => Graph::top_starts(process),
    };
    let is_own: HashSet<usize> = own.iter().copied().collect();
    // the elements that run before and after the step; a flow's condition is what `decided_on` says
    let elements = |walk: HashSet<usize>| -> HashSet<usize> {
        walk.into_iter().filter(|i| !is_own.contains(i) && !process.elements[*i].is_flow()).collect()
    };
    let back = target.map(|i| graph.reach(&[i], Direction::Back)).unwrap_or_default();
    // a gateway before the step tests every condition on its way out, the way to the step or not
    let tested_before: HashSet<usize> = (back.iter())
        .filter(|&&g| !is_own.contains(&g) && !process.elements[g].is_flow())
        .flat_map(|&g| graph.next[g].iter().copied())
        .filter(|&f| process.elements[f].is_flow())
        .collect();
    let (before, after) = match target {
        Some(i) => (elements(back), elements(graph.reach(&[i], Direction::Forward))),
        None => (HashSet::new(), (0..process.elements.len()).filter(|i| !is_own.contains(i)).collect()),
    };
    let mut picture = Picture {
        element_id: target.map(|i| process.elements[i].id.clone()).unwrap_or_default().to_string(),
        forms: flow.forms_read.clone(),
        decisions: flow.decisions_read.clone(),
        ..Picture::default()
    };
    // known before
    let used: HashSet<String> =
        own.iter().chain(after.iter()).flat_map(|&i| flow.business_reads_of(i)).collect();
    let mut seen = HashSet::new();
    let parent = target.and_then(|i| process.elements[i].parent);
    let enclosing: HashSet<usize> = std::iter::successors(parent, |&p| process.elements[p].parent).collect();
    for &i in sorted(&before).iter() {
        let form_keys: HashSet<&str> =
            flow.form_keys[i].iter().flat_map(|(_, keys)| keys.iter().map(String::as_str)).collect();
        // what the sub-process the step runs in sets for itself it hands its steps; an outer one's
        // own (an agent's settings) are its business
        let outward = flow.writes_of(i);
        // a sub-process a job worker runs (an AI agent) holds its worker's settings, not data
        let worked = process.elements[i].accesses.iter().any(|a| a.place == Place::JobType);
        let hands = parent == Some(i) && !worked;
        // what a sub-process the step runs in sets outward (its result, its output collection) it
        // sets when it completes: inside it, that is only an earlier round's state
        let writes = match (hands, enclosing.contains(&i)) {
            (true, _) => flow.all_writes_of(i).into_iter().filter(|w| !outward.contains(w)).collect(),
            (false, true) => Vec::new(),
            (false, false) => outward.clone(),
        };
        for name in writes {
            if seen.insert(name.clone()) && picture.known_before.len() < MOST {
                let root = name.split('.').next().unwrap_or(&name);
                let used = used.contains(&name) || used.contains(root);
                let entered = form_keys.contains(name.as_str());
                let in_forms = flow.forms_with(&name);
                let handed = hands && !outward.contains(&name);
                let from = flow.origin_of(i);
                picture.known_before.push(Known {
                    name,
                    from,
                    used,
                    entered,
                    in_forms,
                    handed,
                    outcome: false,
                    shown_later: false,
                });
            }
        }
    }
    let read_before: HashSet<usize> = before.union(&tested_before).copied().collect();
    read_unset(&flow, &read_before, &used, &mut seen, &mut picture.known_before);
    shown_later(&flow, &after, &used, &mut seen, &mut picture.known_before);
    mark_outcomes(&mut picture.known_before, &flow, &graph, target, &before);
    // to supply: read after, written by nothing but the step's own form
    // what the step's own output mappings set from something else than the value itself is the
    // engine's to write, not the form's
    picture.set_by_step = own.iter().flat_map(|&i| set_by_mapping(&process.elements[i])).collect();
    left_out_of_drafts(&mut picture, process, &graph, &own, target, &before);
    let written_elsewhere: HashSet<String> = (0..process.elements.len())
        .filter(|i| !is_own.contains(i))
        .flat_map(|i| flow.writes_of(i))
        .chain(picture.set_by_step.iter().cloned())
        .collect();
    picture.to_supply = to_supply(&flow, &graph, &own, &after, &written_elsewhere);
    // what the process was started with, read before the step already or by the step's own input
    // mappings, the step does not supply
    let known: HashSet<&str> = picture.known_before.iter().map(|k| k.name.as_str()).collect();
    let given: HashSet<String> = own.iter().flat_map(|&i| given_to(&process.elements[i])).collect();
    picture.to_supply.retain(|s| !known.contains(s.name.as_str()) && !given.contains(root(&s.name)));
    picture.decided_on = decided_on(&flow, &graph, &own, &written_elsewhere);
    leave_to_named_writers(&mut picture, &flow, &own);
    // what the process reads by mistake (a literal without quotes, a misspelling) is no field
    let mistaken = super::unwritten::mistaken_reads(process, project, target);
    picture.to_supply.retain(|s| !mistaken.contains(&s.name));
    picture.known_before.retain(|k| !mistaken.contains(root(&k.name)));
    picture.decided_on.retain(|d| !mistaken.contains(d.name.split('.').next().unwrap_or(&d.name)));
    picture
}

/// Takes out of what the step supplies and what is decided on the values an element that may write
/// unseen values names ([`NamedWriters`]), and records which element names each.
fn leave_to_named_writers(picture: &mut Picture, flow: &Flow<'_>, own: &[usize]) {
    let process = flow.process;
    let unseen = |i: usize| super::contract::writes_unseen(&process.elements[i], flow.form_keys[i].is_some());
    let named = NamedWriters::new(process, unseen, own);
    let mut left: Vec<(String, String)> = Vec::new();
    let mut leave = |name: &str| match named.writer_of(name) {
        Some(w) => {
            if !left.iter().any(|(n, _)| n == name) {
                left.push((name.to_string(), super::contract::phrase(&process.elements[w])));
            }
            false
        }
        None => true,
    };
    picture.to_supply.retain(|s| leave(&s.name));
    picture.decided_on.retain(|d| leave(&d.name));
    picture.named_writers = left;
}

/// The variables the conditions of the gateways after `own` test that nothing else writes, each
/// with the conditions (told apart by their text, each text looked at once) that test it.
fn decided_on(
    flow: &Flow<'_>,
    graph: &Graph,
    own: &[usize],
    written_elsewhere: &HashSet<String>,
) -> Vec<Decided> {
    let mut out: Vec<Decided> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut condition_ids: HashMap<&str, usize> = HashMap::new();
    let mut tested: Vec<HashSet<usize>> = Vec::new();
    for (g, flows) in deciding_gateways(flow.process, graph, own) {
        // what a sub-process around the gateway (and not around the step) sets for itself
        let locals = flow.locals_around(g, own);
        for f in flows {
            let next_id = condition_ids.len();
            let condition = *condition_ids.entry(f.condition.as_str()).or_insert(next_id);
            for v in read_condition(&f.condition).variables {
                let root = v.split('.').next().unwrap_or(&v);
                if written_elsewhere.contains(&v) || written_elsewhere.contains(root) || locals.contains(root)
                {
                    continue;
                }
                match at.get(&v) {
                    Some(&d) if tested[d].insert(condition) => {
                        out[d].conditions.push(quoted_condition(&f.condition));
                    }
                    Some(_) => {}
                    None if out.len() < MOST => {
                        at.insert(v.clone(), out.len());
                        tested.push(HashSet::from([condition]));
                        out.push(Decided { name: v, conditions: vec![quoted_condition(&f.condition)] });
                    }
                    None => {}
                }
            }
        }
    }
    out
}

/// The outgoing flows of each gateway that can run after `own` and decides by a condition or a
/// default flow, nearest first.
fn deciding_gateways<'p>(
    process: &'p Process,
    graph: &Graph,
    own: &[usize],
) -> Vec<(usize, Vec<&'p crate::bpmn::Element>)> {
    let mut out = Vec::new();
    for g in graph.after(own) {
        let gateway = &process.elements[g];
        if !gateway.is_gateway() {
            continue;
        }
        let flows: Vec<&crate::bpmn::Element> =
            graph.next[g].iter().map(|&f| &process.elements[f]).filter(|f| f.is_flow()).collect();
        if flows.iter().any(|f| !f.condition.is_empty() || gateway.default_flow == f.id) {
            out.push((g, flows));
        }
    }
    out
}

/// Places where the engine routes or schedules work rather than working on the process's data.
fn is_routing(place: &Place) -> bool {
    matches!(
        place,
        Place::Assignee
            | Place::CandidateGroups
            | Place::CandidateUsers
            | Place::DueDate
            | Place::FollowUpDate
            | Place::Priority
            | Place::JobType
            | Place::JobRetries
            | Place::Timer(_)
    )
}

/// The targets of an element's output mappings whose source does not read the target itself
/// (`=null`, `="done"`, `=a + b`): the engine sets them, whatever a form there holds. An output that
/// passes a value on (`source="=hint" target="hint"`) keeps what the form gave, unless the step's
/// input mappings read that value already ([`given_to`]): then the output rebuilds what the step
/// was given (`{fileName: document.fileName, ref: path}`).
fn set_by_mapping(e: &crate::bpmn::Element) -> Vec<String> {
    let given = given_to(e);
    let mut out: IndexSet<String> = IndexSet::new();
    for (source, name) in e.output_mappings() {
        let target = root(name);
        let passes_on = !given.contains(target)
            && (expr::zeebe_value_reads(source).iter().any(|r| r.name == target)
                || expr::juel_reads(source).iter().any(|r| r.name == target));
        if !passes_on && !name.is_empty() {
            out.insert(name.to_string());
        }
    }
    out.into_iter().collect()
}

fn sorted(set: &HashSet<usize>) -> Vec<usize> {
    let mut v: Vec<usize> = set.iter().copied().collect();
    v.sort_unstable();
    v
}

/// The process's reads and writes with the project's links, and its order.
struct Flow<'p> {
    process: &'p Process,
    access: Vec<ElementAccess>,
    /// Per element: the input keys of the form it binds, and which form that is.
    form_keys: Vec<Option<(String, Vec<String>)>>,
    /// Per element: the keys the form it binds shows read-only or disabled.
    shown_keys: Vec<Vec<String>>,
    /// Per element: what the decisions it calls read.
    decision_reads: Vec<Vec<String>>,
    forms_read: Vec<String>,
    decisions_read: Vec<String>,
    /// Per key: how many distinct forms (bound by the process's steps, or in the project) bind it.
    key_forms: HashMap<String, usize>,
    /// Every variable an element or the form a step binds writes.
    written: HashSet<String>,
}

impl<'p> Flow<'p> {
    fn new(process: &'p Process, project: &Project) -> Flow<'p> {
        let mut forms_read = IndexSet::new();
        let mut shown_keys = Vec::with_capacity(process.elements.len());
        let form_keys: Vec<Option<(String, Vec<String>)>> = process
            .elements
            .iter()
            .map(|e| {
                let Some(form) = linked_form(process, e, project) else {
                    shown_keys.push(Vec::new());
                    return None;
                };
                if !form.id.is_empty() {
                    forms_read.insert(form.id.clone());
                }
                let shown = form.input_fields.iter().filter(|f| f.readonly || f.disabled);
                shown_keys.push(shown.map(|f| f.key.clone()).collect());
                Some((form.id.clone(), form.input_fields.iter().map(|f| f.key.clone()).collect()))
            })
            .collect();
        let mut decisions_read = IndexSet::new();
        let decision_reads = process
            .elements
            .iter()
            .map(|e| {
                let mut reads = IndexSet::new();
                for a in e.accesses.iter().filter(|a| a.place == Place::DecisionId) {
                    let Some(d) = project.decision(a.expression.trim_start_matches('=')) else { continue };
                    decisions_read.insert(d.id.clone());
                    for text in d.expressions() {
                        reads.extend(expr::feel_reads(text).into_iter().map(|r| r.name));
                    }
                }
                reads.into_iter().collect()
            })
            .collect();
        let mut key_forms: HashMap<String, usize> = HashMap::new();
        let mut counted: HashSet<String> = HashSet::new();
        let bound = form_keys.iter().flatten().map(|(id, keys)| (id.clone(), keys.clone()));
        let in_project = project
            .forms
            .iter()
            .map(|f| (f.id.clone(), f.input_fields.iter().map(|x| x.key.clone()).collect::<Vec<_>>()));
        for (n, (id, keys)) in bound.chain(in_project).enumerate() {
            let id = if id.is_empty() { format!("#{n}") } else { id };
            if !counted.insert(id) {
                continue;
            }
            let keys: HashSet<String> = keys.into_iter().collect();
            for k in keys {
                *key_forms.entry(k).or_default() += 1;
            }
        }
        let access = access::of_process(process);
        let written = (access.iter().flat_map(|a| a.writes.iter().map(|w| w.name.clone())))
            .chain(form_keys.iter().flatten().flat_map(|(_, keys)| keys.iter().cloned()))
            .collect();
        Flow {
            key_forms,
            process,
            access,
            written,
            form_keys,
            shown_keys,
            decision_reads,
            forms_read: forms_read.into_iter().collect(),
            decisions_read: decisions_read.into_iter().collect(),
        }
    }

    /// The variables the element at `i` writes into a scope others see, and its form's keys.
    fn writes_of(&self, i: usize) -> Vec<String> {
        let own = &self.process.elements[i].id;
        let mut out: Vec<String> =
            self.access[i].writes.iter().filter(|w| &w.scope != own).map(|w| w.name.clone()).collect();
        if let Some((_, keys)) = &self.form_keys[i] {
            out.extend(keys.iter().cloned());
        }
        out
    }

    /// What the element at `i` writes, its own locals too: what its children see of it.
    fn all_writes_of(&self, i: usize) -> Vec<String> {
        let mut out: Vec<String> = self.access[i].writes.iter().map(|w| w.name.clone()).collect();
        if let Some((_, keys)) = &self.form_keys[i] {
            out.extend(keys.iter().cloned());
        }
        out
    }

    /// How many distinct forms bind `key`.
    fn forms_with(&self, key: &str) -> usize {
        self.key_forms.get(key).copied().unwrap_or(0)
    }

    /// The input keys of the form the element at `i` binds.
    fn form_keys_of(&self, i: usize) -> Vec<String> {
        self.form_keys[i].as_ref().map(|(_, keys)| keys.clone()).unwrap_or_default()
    }

    /// The variables the element at `i` reads as the data it works on (its decisions' reads
    /// included): not where the engine only routes or schedules the work (assignee, candidates, due
    /// and follow-up dates, priority, job type and retries, timers), which a person reviewing the
    /// step does not need to see.
    fn business_reads_of(&self, i: usize) -> Vec<String> {
        self.reads_where(i, |a| !is_routing(&a.place), false, &HashSet::new())
    }

    /// The variables the element at `i` reads that must exist before it runs, where a person may
    /// have to give them. Not:
    /// - an output mapping's source, or a loop's or ad-hoc sub-process's output element: they read
    ///   the job's result, the message's payload or one instance's locals;
    /// - a connector's own configuration (`zeebe:property`, `zeebe:header`): the connector's settings
    ///   and state rather than the process's data;
    /// - what an AI agent fills in (`fromAi(toolCall.x, ..)`);
    /// - a value the expression checks for first (`is defined(x)`, `get or else(x, ..)`);
    /// - the element's own locals;
    /// - its job's result from an earlier round ([`access::job_results`]);
    /// - with `routing` false, where the engine only routes or schedules the work ([`is_routing`]).
    fn asked_reads_of(&self, i: usize, routing: bool) -> Vec<String> {
        let asked = |a: &crate::bpmn::Access| {
            !matches!(
                a.place,
                Place::Property(_)
                    | Place::Header(_)
                    | Place::OutputSource
                    | Place::LoopOutputElement
                    | Place::AdHocOutputElement
            ) && (routing || !is_routing(&a.place))
                && !a.expression.contains("fromAi(")
        };
        let mut left_out = self.locals(i);
        left_out.extend(access::job_results(&self.process.elements[i]));
        self.reads_where(i, asked, true, &left_out)
    }

    /// The variables read by the places of the element at `i` that `keep` keeps, leaving out
    /// `locals` and, with `checked_first`, what an expression checks for first; then what the
    /// decisions it calls read.
    fn reads_where(
        &self,
        i: usize,
        keep: impl Fn(&crate::bpmn::Access) -> bool,
        checked_first: bool,
        locals: &HashSet<String>,
    ) -> Vec<String> {
        let mut out: IndexSet<String> = IndexSet::new();
        for a in crate::stop::until_stopped(self.process.elements[i].accesses.iter().filter(|a| keep(a))) {
            let optional: HashSet<String> = if checked_first {
                expr::optional_names(&a.expression).into_iter().collect()
            } else {
                HashSet::new()
            };
            for name in access::reads_of(a) {
                if !optional.contains(&name) && !locals.contains(&name) {
                    out.insert(name);
                }
            }
        }
        out.extend(self.decision_reads[i].iter().cloned());
        out.into_iter().collect()
    }

    /// The names local to the element at `i` (its input targets, its loop element), but what an input
    /// mapping passes in unchanged, which it reads from outside.
    fn locals(&self, i: usize) -> HashSet<String> {
        access::own_locals(&self.process.elements[i], &self.access[i].writes).map(str::to_string).collect()
    }

    /// The names local to the element at `i` or to a sub-process around it that does not also hold
    /// the step (`own`): a multi-instance sub-process's element, which the engine sets for each
    /// instance, or what its input mappings set, is set inside it, so a step outside it does not
    /// supply it; a step inside may (its form writes the local).
    fn locals_around(&self, i: usize, own: &[usize]) -> HashSet<String> {
        let parents = |e: usize| {
            std::iter::successors(self.process.elements[e].parent, |&p| self.process.elements[p].parent)
        };
        let holding_step: HashSet<usize> = own.iter().flat_map(|&o| parents(o)).collect();
        let around = std::iter::once(i).chain(parents(i).filter(|p| !holding_step.contains(p)));
        around.flat_map(|e| self.locals(e)).collect()
    }

    /// Where a value written by the element at `i` comes from, in words.
    fn origin_of(&self, i: usize) -> String {
        let e = &self.process.elements[i];
        match (&self.form_keys[i], e.kind) {
            (Some(_), ElementKind::StartEvent) => "the start form".to_string(),
            (Some((id, _)), _) if !id.is_empty() => format!("the form \"{id}\" of {}", self.phrase(i)),
            (Some(_), _) => format!("the form of {}", self.phrase(i)),
            (None, _) => format!("written by {}", self.phrase(i)),
        }
    }

    /// An element in a sentence: `the userTask "Antrag prüfen"`.
    fn phrase(&self, i: usize) -> String {
        let e = &self.process.elements[i];
        if e.is_flow() {
            return format!("the condition of the flow {}", e.label());
        }
        format!("the {} \"{}\"", e.kind, e.label())
    }
}

/// The project form (or embedded form) an element binds.
fn linked_form(process: &Process, e: &crate::bpmn::Element, project: &Project) -> Option<ProjectForm> {
    if e.form_id.is_empty() {
        return None;
    }
    if let Some(linked) = process.linked_form(e) {
        let schema = serde_json::from_str(&linked.body).ok()?;
        return ProjectForm::read(schema, format!("the embedded form {}", linked.id)).ok();
    }
    project.form(&e.form_id).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_form_walks_the_process_for_at_most_so_many_first_values() {
        // each name is read right after the start and asked again by the loop's form
        let n = MOST_WALKS + 10;
        let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let reads = names.join(" + ");
        let keys: Vec<String> =
            names.iter().map(|k| format!(r#"{{"type": "textfield", "key": "{k}"}}"#)).collect();
        let xml = format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
              <extensionElements><zeebe:userTaskForm id="again">{{"components": [{}]}}</zeebe:userTaskForm></extensionElements>
              <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="J"/><exclusiveGateway id="J"/>
              <sequenceFlow id="b" sourceRef="J" targetRef="Q"/>
              <scriptTask id="Q"><extensionElements><zeebe:script expression="={reads}" resultVariable="r"/></extensionElements></scriptTask>
              <sequenceFlow id="c" sourceRef="Q" targetRef="U"/>
              <userTask id="U"><extensionElements><zeebe:formDefinition formKey="camunda-forms:bpmn:again"/></extensionElements></userTask>
              <sequenceFlow id="d" sourceRef="U" targetRef="J"/></process></definitions>"#,
            keys.join(",")
        );
        let process = crate::bpmn::read_str(&xml).processes.remove(0);
        let picture = picture(&process, None, &Project::default());
        let first: Vec<&str> = picture.to_supply.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(first, names[..MOST_WALKS].iter().map(String::as_str).collect::<Vec<_>>());
    }

    #[test]
    fn what_the_steps_input_mappings_read_is_no_value_its_form_supplies() {
        // `document` comes in (its `ref` into the local `path`) and goes out rebuilt by the engine;
        // `note` is the form's
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
          <userTask id="attach"><extensionElements><zeebe:ioMapping>
            <zeebe:input source="=document.ref" target="path"/>
            <zeebe:input source="=hint" target="hint"/>
            <zeebe:output source="={fileName: document.fileName, ref: path, note: note}" target="document"/>
            <zeebe:output source="=hint" target="hint"/>
          </zeebe:ioMapping></extensionElements></userTask>
          <sequenceFlow id="a" sourceRef="attach" targetRef="archive"/>
          <serviceTask id="archive"><extensionElements><zeebe:taskDefinition type="t"/><zeebe:ioMapping>
            <zeebe:input source="=document" target="doc"/><zeebe:input source="=hint" target="h"/>
          </zeebe:ioMapping></extensionElements></serviceTask></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let picture = picture(&process, Some(0), &Project::default());
        let supplied: Vec<&str> = picture.to_supply.iter().map(|s| s.name.as_str()).collect();
        // a value copied into a local of its own name and out again is what the form edits
        assert_eq!(supplied, ["note", "hint"]);
        assert_eq!(picture.set_by_step, ["document"]);
        let contract = super::super::contract(&process, Some(0), &Project::default());
        let needs: Vec<&str> = contract.must_supply.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(needs, ["hint", "note"], "the contract agrees");
    }

    #[test]
    fn what_the_process_reads_by_mistake_is_no_value_known_before_a_step() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
          <scriptTask id="call"><extensionElements><zeebe:script expression="=headers" resultVariable="r"/>
            <zeebe:ioMapping><zeebe:input source="={ Content-Type: application/json, Topic: topic }" target="headers"/>
            </zeebe:ioMapping></extensionElements></scriptTask>
          <sequenceFlow id="a" sourceRef="call" targetRef="review"/><userTask id="review"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let picture = picture(&process, Some(2), &Project::default());
        let known: Vec<&str> = picture.known_before.iter().map(|k| k.name.as_str()).collect();
        assert!(known.contains(&"topic") && known.contains(&"r"), "{known:?}");
        assert!(!known.contains(&"application") && !known.contains(&"json"), "{known:?}");
    }

    #[test]
    fn a_start_form_gives_the_first_value_of_what_the_process_only_updates() {
        let process = |outputs: &str| {
            let xml = format!(
                r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
                  <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="T"/>
                  <serviceTask id="T"><extensionElements><zeebe:taskDefinition type="play"/>
                    <zeebe:ioMapping>{outputs}</zeebe:ioMapping></extensionElements></serviceTask>
                  <sequenceFlow id="b" sourceRef="T" targetRef="E"/><endEvent id="E"/></process></definitions>"#
            );
            crate::bpmn::read_str(&xml).processes.remove(0)
        };
        let first = |outputs: &str| -> Vec<String> {
            let p = process(outputs);
            picture(&p, None, &Project::default()).to_supply.into_iter().map(|s| s.name).collect()
        };
        assert_eq!(first(r#"<zeebe:output source="=lives - 1" target="lives"/>"#), ["lives"]);
        // a value checked for first, or handed on as the job set it, needs nothing from the start
        assert!(
            first(r#"<zeebe:output source="=if lives = null then 3 else lives - 1" target="lives"/>"#)
                .is_empty()
        );
        assert!(first(r#"<zeebe:output source="=lives" target="lives"/>"#).is_empty());
    }

    #[test]
    fn a_start_form_gives_the_first_value_of_what_a_script_only_updates() {
        let first = |expression: &str| -> Vec<String> {
            let xml = format!(
                r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
                  <startEvent id="S"/><sequenceFlow id="a" sourceRef="S" targetRef="T"/>
                  <scriptTask id="T"><extensionElements><zeebe:script expression="{expression}" resultVariable="total"/></extensionElements></scriptTask>
                  <sequenceFlow id="b" sourceRef="T" targetRef="E"/><endEvent id="E"/></process></definitions>"#
            );
            let p = crate::bpmn::read_str(&xml).processes.remove(0);
            picture(&p, None, &Project::default()).to_supply.into_iter().map(|s| s.name).collect()
        };
        assert_eq!(first("=total + 1"), ["total"]);
        assert!(first("=get or else(total, 0) + 1").is_empty(), "checked for first");
        assert!(first("=count + 1").iter().all(|n| n != "total"), "not its own value");
    }

    #[test]
    fn what_a_sub_process_sets_when_it_completes_is_not_known_inside_it() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
            <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="each"/>
            <subProcess id="each">
              <multiInstanceLoopCharacteristics><extensionElements>
                <zeebe:loopCharacteristics inputCollection="=orders" inputElement="order" outputCollection="results" outputElement="=result"/>
              </extensionElements></multiInstanceLoopCharacteristics>
              <extensionElements><zeebe:ioMapping><zeebe:output source="=result" target="last"/></zeebe:ioMapping></extensionElements>
              <startEvent id="ss"/><sequenceFlow id="i1" sourceRef="ss" targetRef="a"/><userTask id="a"/>
            </subProcess>
            <sequenceFlow id="f1" sourceRef="each" targetRef="e"/><endEvent id="e"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let picture = picture(&process, process.element_index("a"), &Project::default());
        let known: Vec<&str> = picture.known_before.iter().map(|k| k.name.as_str()).collect();
        assert!(known.contains(&"order"), "what it hands its steps: {known:?}");
        assert!(!known.contains(&"results") && !known.contains(&"last"), "{known:?}");
    }

    #[test]
    fn a_multi_instance_sub_processs_element_is_not_the_start_forms_to_supply() {
        // the engine sets `score` for each instance from `creditScores`; the start form gives the list
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"><process id="P">
            <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="each"/>
            <subProcess id="each">
              <multiInstanceLoopCharacteristics camunda:collection="${creditScores}" camunda:elementVariable="score"/>
              <startEvent id="ss"/><sequenceFlow id="i1" sourceRef="ss" targetRef="g"/><exclusiveGateway id="g"/>
              <sequenceFlow id="i2" sourceRef="g" targetRef="good"><conditionExpression>${score &gt; 5}</conditionExpression></sequenceFlow>
              <endEvent id="good"/>
            </subProcess>
            <sequenceFlow id="f1" sourceRef="each" targetRef="e"/><endEvent id="e"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let picture = picture(&process, None, &Project::default());
        let supplied: Vec<&str> = picture.to_supply.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(supplied, ["creditScores"]);
        assert!(picture.decided_on.is_empty(), "{:?}", picture.decided_on);
    }

    #[test]
    fn a_step_inside_a_sub_process_decides_on_its_local() {
        // the sub-process starts `answer` unset; the step inside is where it is given
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
            <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="round"/>
            <subProcess id="round"><extensionElements><zeebe:ioMapping><zeebe:input source="=null" target="answer"/></zeebe:ioMapping></extensionElements>
              <startEvent id="ss"/><sequenceFlow id="i1" sourceRef="ss" targetRef="ask"/><userTask id="ask"/>
              <sequenceFlow id="i2" sourceRef="ask" targetRef="g"/><exclusiveGateway id="g"/>
              <sequenceFlow id="i3" sourceRef="g" targetRef="done"><conditionExpression>= answer = "yes"</conditionExpression></sequenceFlow>
              <endEvent id="done"/>
            </subProcess>
            <sequenceFlow id="f1" sourceRef="round" targetRef="e"/><endEvent id="e"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let inside = picture(&process, process.element_index("ask"), &Project::default());
        let decided: Vec<&str> = inside.decided_on.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(decided, ["answer"]);
        let start = picture(&process, None, &Project::default());
        assert!(start.decided_on.is_empty(), "set inside the sub-process: {:?}", start.decided_on);
    }

    #[test]
    fn what_a_job_hands_back_and_reads_again_is_not_the_start_forms() {
        // an agent sub-process reads its last round's `agent`; a connector updates `case` in place
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
            <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="load"/>
            <serviceTask id="load"><extensionElements><zeebe:taskDefinition type="io.camunda:connector-jdbc:1"/><zeebe:ioMapping>
              <zeebe:input source="={email: case.email}" target="data.variables"/>
              <zeebe:output source="=context put(case, [&quot;customer&quot;], rows)" target="case"/>
            </zeebe:ioMapping></extensionElements></serviceTask>
            <sequenceFlow id="f1" sourceRef="load" targetRef="agentLoop"/>
            <adHocSubProcess id="agentLoop"><extensionElements>
              <zeebe:taskDefinition type="io.camunda.agenticai:aiagent-job-worker:1"/>
              <zeebe:ioMapping>
                <zeebe:input source="=agent.context" target="agentContext"/>
                <zeebe:input source="=case.request" target="data.userPrompt.prompt"/>
                <zeebe:output source="=agent" target="agentResult"/>
              </zeebe:ioMapping></extensionElements>
              <userTask id="tool"/>
            </adHocSubProcess>
            <sequenceFlow id="f2" sourceRef="agentLoop" targetRef="review"/><userTask id="review"/>
            <sequenceFlow id="f3" sourceRef="review" targetRef="e"/><endEvent id="e"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let start = picture(&process, None, &Project::default());
        let supplied: Vec<&str> = start.to_supply.iter().map(|s| s.name.as_str()).collect();
        assert!(supplied.contains(&"case") && !supplied.contains(&"agent"), "{supplied:?}");
        // the check agrees: the start form is not blamed for the agent's memory
        let contract = super::super::contract::contract(&process, None, &Project::default());
        let needs: Vec<&str> = contract.must_supply.iter().map(|n| n.name.as_str()).collect();
        assert!(needs.contains(&"case") && !needs.contains(&"agent"), "{needs:?}");
        let review = picture(&process, process.element_index("review"), &Project::default());
        let known: Vec<&str> = review.known_before.iter().map(|k| k.name.as_str()).collect();
        assert!(known.contains(&"case") && !known.contains(&"agent"), "{known:?}");
    }

    #[test]
    fn a_value_a_gateway_before_the_step_tests_was_given_at_the_start() {
        // the step is on the default way: it runs because `amount < 5000` did not hold
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P">
            <startEvent id="s"/><exclusiveGateway id="g" default="big"/>
            <userTask id="a"/><serviceTask id="auto"/><endEvent id="e"/>
            <sequenceFlow id="f0" sourceRef="s" targetRef="g"/>
            <sequenceFlow id="big" sourceRef="g" targetRef="a"/>
            <sequenceFlow id="small" sourceRef="g" targetRef="auto"><conditionExpression>= amount &lt; 5000</conditionExpression></sequenceFlow>
            <sequenceFlow id="f1" sourceRef="a" targetRef="e"/>
            <sequenceFlow id="after" sourceRef="a" targetRef="auto"><conditionExpression>= later</conditionExpression></sequenceFlow>
            </process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let picture = picture(&process, process.element_index("a"), &Project::default());
        let known: Vec<(&str, bool)> =
            picture.known_before.iter().map(|k| (k.name.as_str(), k.entered)).collect();
        assert_eq!(known, [("amount", true)], "not what the step's own way out tests");
    }

    #[test]
    fn the_picture_and_the_contract_agree_on_what_follows_a_step_inside_a_sub_process() {
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P">
            <startEvent id="s"/>
            <subProcess id="sub"><startEvent id="ss"/><userTask id="a"/><endEvent id="se"/>
              <sequenceFlow id="i1" sourceRef="ss" targetRef="a"/><sequenceFlow id="i2" sourceRef="a" targetRef="se"/>
            </subProcess>
            <exclusiveGateway id="g"/><endEvent id="e"/>
            <sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
            <sequenceFlow id="f1" sourceRef="sub" targetRef="g"/>
            <sequenceFlow id="f2" sourceRef="g" targetRef="e"><conditionExpression>= ok</conditionExpression></sequenceFlow>
            <sequenceFlow id="f3" sourceRef="g" targetRef="e"><conditionExpression>= not(ok)</conditionExpression></sequenceFlow>
            </process></definitions>"#;
        let defs = crate::bpmn::read_str(xml);
        let process = &defs.processes[0];
        let a = process.element_index("a");
        let picture = picture(process, a, &Project::default());
        let contract = crate::flow::contract(process, a, &Project::default());
        // the gateway after the sub-process decides on what the child step gives
        assert_eq!(picture.decided_on.iter().map(|d| d.name.as_str()).collect::<Vec<_>>(), ["ok"]);
        assert_eq!(contract.must_supply.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(), ["ok"]);
    }

    #[test]
    fn what_an_unseen_writer_names_is_not_the_start_forms_to_supply() {
        // "Enter shipping address" binds no form formgen knows: its name says what it sets; "Send
        // notice" uses the notice it names
        let xml = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="P">
          <startEvent id="S" name="Order placed"/><sequenceFlow id="a" sourceRef="S" targetRef="A"/>
          <userTask id="A" name="Enter shipping address"/><sequenceFlow id="b" sourceRef="A" targetRef="N"/>
          <sendTask id="N" name="Send notice"><extensionElements><zeebe:taskDefinition type="mail"/></extensionElements></sendTask>
          <sequenceFlow id="c" sourceRef="N" targetRef="Q"/>
          <scriptTask id="Q"><extensionElements><zeebe:script expression="=shippingAddress + notice + orderNumber" resultVariable="label"/></extensionElements></scriptTask>
          <sequenceFlow id="d" sourceRef="Q" targetRef="E"/><endEvent id="E"/></process></definitions>"#;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let picture = picture(&process, None, &Project::default());
        let supplied: Vec<&str> = picture.to_supply.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(supplied, ["notice", "orderNumber"]);
        let named =
            [("shippingAddress".to_string(), r#"the user task "Enter shipping address""#.to_string())];
        assert_eq!(picture.named_writers, named);
    }

    #[test]
    fn a_condition_of_many_names_is_quoted_once_per_variable_and_cut() {
        let condition =
            format!("= {}", (0..50_000).map(|i| format!("v{i} > 1")).collect::<Vec<_>>().join(" or "));
        let xml = format!(
            r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"><process id="P">
            <startEvent id="s"/><exclusiveGateway id="g"/><endEvent id="e"/>
            <sequenceFlow id="f0" sourceRef="s" targetRef="g"/>
            <sequenceFlow id="f1" sourceRef="g" targetRef="e"><conditionExpression>{}</conditionExpression></sequenceFlow>
            <sequenceFlow id="f2" sourceRef="g" targetRef="e"><conditionExpression>{}</conditionExpression></sequenceFlow>
            </process></definitions>"#,
            condition.replace('>', "&gt;"),
            condition.replace('>', "&gt;")
        );
        let defs = crate::bpmn::read_str(&xml);
        let picture = picture(&defs.processes[0], None, &Project::default());
        assert_eq!(picture.decided_on.len(), MOST);
        assert_eq!(picture.decided_on[0].name, "v0");
        for d in &picture.decided_on {
            assert_eq!(d.conditions.len(), 1, "the same text on two flows is one condition");
            assert!(d.conditions[0].len() <= MOST_CONDITION_BYTES + '…'.len_utf8());
            assert!(
                d.conditions[0].ends_with('…')
                    && condition.starts_with(d.conditions[0].trim_end_matches('…'))
            );
        }
        assert_eq!(quoted_condition("= a > 1"), "= a > 1");
    }
}
