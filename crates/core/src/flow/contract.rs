//! The step's contract: what the process needs from the form of one step, read from what the process
//! does after it.
//!
//! - **Must supply**: a variable read after the step that nothing else sets: nothing in the process
//!   writes it (no output, result, loop output or other form), it is not known before the step, and no
//!   element that may write variables formgen cannot see (a job worker without output mappings, a
//!   message, a called process, a user task whose form is not in the project, a Camunda 7 delegate)
//!   can run between the step and the read; nor, for a read that is not right after the step, before
//!   it. Not a need: a read the expression checks for first (`is defined(x)`, `x != null`,
//!   `get or else(x, ..)`, an `if` on them), an element's read of its own result or of what its job
//!   hands back (its state from an earlier round), what the step's own output mappings set whatever the form holds (from an input
//!   with a default, or a context `={..}`), a name that looks like an unquoted ISO 8601 literal
//!   (`P1D`) and nothing writes.
//!   Other steps that bind the very form being checked write none of its keys: they submit what it
//!   submits. The first such read is kept: which element, which expression, and what happens without
//!   the value.
//! - **Expected types**: how the process reads a variable the form sets, where the reading says it:
//!   a FEEL condition comparing it with a number, a string or `true`/`false` (a bare `= x` or
//!   `not(x)` is a yes/no), and the `typeRef` of a decision input that reads it.
//! - **Allowed values**: the string literals a condition compares it with (`x = "approve"`, `x in
//!   ["a", "b"]`), and per gateway whether its conditions cover every value (no default flow, every
//!   condition a plain comparison of the one variable).
//! - **Known before**: what earlier steps set (and what a sub-process the step runs in sets for the
//!   elements inside it), and whether the step or a later one reads it again.
//! - **For process findings**: the decision inputs whose rules use them as a list while their
//!   `typeRef` says otherwise ([`TypeDisagreement`]); the form is checked by what the rules use. (The
//!   names read that nothing writes are [`super::unwritten`]'s.)
//!
//! Where the process gives no way to tell (an expression that cannot be read, a writer formgen cannot
//! see), the contract says nothing: a checker that guesses teaches its users to ignore it. It knows
//! the process, its data flow and the project; nothing of the form being checked.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use super::access::{self, ElementAccess};
use super::branch::Branches;
use super::expr;
use super::graph::{Direction, Graph};
use crate::bpmn::ElementKind;
use crate::bpmn::{Comparison, Element, Literal, Operator, Place, Process, read_condition};
use crate::project::Project;

/// The kind of value a read expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expected {
    /// A number (compared with a number, a decision input of type `number`).
    Number,
    /// A string (compared with a string literal, a decision input of type `string`).
    Text,
    /// `true` / `false` (a bare condition, `not(x)`, compared with a boolean).
    Boolean,
}

impl Expected {
    /// The value in words, for a sentence: `a number`.
    pub(crate) fn phrase(self) -> &'static str {
        match self {
            Expected::Number => "a number",
            Expected::Text => "a text",
            Expected::Boolean => "true or false",
        }
    }
}

/// Where the process reads a variable: an element and the expression there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// The id of the element whose expression reads it (a condition's flow, a task). Shared, as the
    /// subject and the expression are, by every read of the expression.
    pub element_id: crate::bpmn::Text,
    /// The element a sentence names: the gateway for a flow's condition (`the gateway "Genehmigt?"`).
    pub subject: crate::bpmn::Text,
    /// The expression, as written (shortened), shared by every read of it: one condition may read
    /// 100,000 names.
    pub expression: std::sync::Arc<str>,
    /// Whether the reading element comes right after the step (the gateway the step leads to).
    pub next: bool,
    /// What happens when the value is missing or of the wrong kind there.
    pub outcome: Outcome,
}

/// What a read does with a value it cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A condition of a gateway without a default flow: no flow is taken.
    NoFlow,
    /// A condition of a gateway with a default flow: the default flow is taken.
    DefaultFlow,
    /// Any other expression: it reads null.
    Null,
    /// The step's own output mapping: it sets its target (this variable or path) to null.
    Mapping(String),
    /// A JUEL expression (Camunda 7, Flowable): the engine cannot resolve a missing variable and
    /// fails there.
    Unresolved,
}

/// A variable the step's form must supply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// The variable, as the first read names it (a dotted path when read by path).
    pub path: String,
    /// Its root variable.
    pub name: String,
    /// The first read that needs it.
    pub site: Site,
    /// The kind of value the reads expect, where they say.
    pub expected: Option<Expected>,
    /// The conditions every read of it after the step is reached through, nearest first (empty: some
    /// read happens whichever way the process goes); `None` where a read is the step's own output
    /// mapping, which runs whatever the form holds and passes the value on.
    pub only_when: Option<Vec<Guard>>,
}

/// A sequence flow's condition that every way from the step to a read takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Guard {
    /// The flow's id.
    pub flow_id: crate::bpmn::Text,
    /// Its condition, as written.
    pub condition: crate::bpmn::Text,
}

/// A read that expects a kind of value.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedRead {
    /// The variable or path read.
    pub path: String,
    /// What it expects.
    pub expected: Expected,
    /// The literal it is compared with, as FEEL writes it (`1000`, `"travel"`), or the decision
    /// input's type (`typeRef number`).
    pub with: String,
    /// Whether it orders the value (`<`, `<=`, `>`, `>=`): with null, FEEL's answer is null (an
    /// equality with null is false).
    pub orders: bool,
    /// Whether the expression checks the variable for null (`x != null`, `is defined(x)`) before it
    /// relies on it, read from the whole expression.
    pub checked: bool,
    /// Where.
    pub site: Site,
}

/// A comparison of a variable with a string literal in a condition after the step.
#[derive(Debug, Clone, PartialEq)]
pub struct LiteralRead {
    /// The variable or path compared.
    pub path: String,
    /// The literal (for `in [..]`, each).
    pub values: Vec<String>,
    /// Where.
    pub site: Site,
}

/// A flow after the step that only a variable's `false` takes: its condition says so (`= not(approved)`,
/// `${approved == false}`, joined with nothing by `or`), or it is the default flow of a gateway whose
/// other flows each test the variable for `true` (`= approved`). A form that can only submit `true`
/// never takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct FalseTest {
    /// The variable or path tested.
    pub path: String,
    /// The flow's condition, or for a default flow the condition of the gateway's other flow.
    pub site: Site,
    /// Whether the flow is the gateway's default flow.
    pub by_default: bool,
}

/// A gateway after the step all of whose conditions compare one variable with string literals and
/// that has no default flow: a value none of them names takes no flow.
#[derive(Debug, Clone, PartialEq)]
pub struct Exhaustive {
    /// The variable or path.
    pub path: String,
    /// Every literal its conditions name.
    pub values: Vec<String>,
    /// The gateway (the site of its first condition).
    pub site: Site,
}

/// A value known before the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownValue {
    /// The variable.
    pub name: String,
    /// Where it comes from, in words.
    pub from: String,
    /// A read of it by the step or after it, if there is one.
    pub read_again: Option<Site>,
    /// Whether what sets it runs only before the step (not also after it, on a loop).
    pub only_before: bool,
}

/// What the process needs from the form of one step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Contract {
    /// The step (`""` for the start form).
    pub element_id: String,
    /// What the form must supply.
    pub must_supply: Vec<Need>,
    /// The reads after the step that expect a kind of value, of variables the form may set.
    pub typed: Vec<TypedRead>,
    /// The string literals the conditions after the step compare with.
    pub literals: Vec<LiteralRead>,
    /// The gateways whose conditions cover every value of one variable.
    pub exhaustive: Vec<Exhaustive>,
    /// The conditions only a variable's `false` satisfies.
    pub false_tests: Vec<FalseTest>,
    /// What earlier steps set.
    pub known_before: Vec<KnownValue>,
    /// Every variable and path read anywhere in the process (the step's own reads included).
    pub read_anywhere: HashSet<String>,
}

/// A decision input whose rules use it as another kind of value than its `typeRef` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDisagreement {
    /// The id of the first element that calls the decision.
    pub element_id: String,
    /// The decision's id.
    pub decision_id: String,
    /// The input's expression.
    pub input: String,
    /// Its declared `typeRef`.
    pub declared: String,
    /// The kind the rules use it as (`list`).
    pub used: String,
}

impl Contract {
    /// Whether the contract says anything to check a form against.
    pub fn is_empty(&self) -> bool {
        self.must_supply.is_empty() && self.typed.is_empty() && self.literals.is_empty()
    }
}

/// The kinds of value the JUEL conditions after the step compare variables with: JUEL converts where
/// it compares, so its reads only say what field a need asks for.
fn juel_kinds(process: &Process, after: &[usize]) -> Vec<(String, Expected)> {
    let mut kinds = Vec::new();
    for &i in after {
        let e = &process.elements[i];
        if e.is_flow() && !e.condition.is_empty() && !is_feel(&e.condition) && kinds.len() < MOST {
            let comparisons = read_condition(&e.condition).comparisons;
            kinds.extend(comparisons.iter().filter_map(|c| Some((c.variable.clone(), expected_of(c)?))));
        }
    }
    kinds
}

/// Most entries of one list of the contract: a bound for any process size.
const MOST: usize = 200;

/// Most variables whose setters' reach is walked (each walk is linear in the process).
const MOST_WALKS: usize = 256;

/// The contract of the element at `target` (none: the start form) of `process`, with its project.
pub fn contract(process: &Process, target: Option<usize>, project: &Project) -> Contract {
    let graph = Graph::new(process);
    let own: Vec<usize> = match target {
        Some(i) => vec![i],
        None => Graph::top_starts(process),
    };
    let facts = Facts::new(process, project, &own);
    let after = graph.after(&own);
    let before: HashSet<usize> = match target {
        Some(i) => graph.reach(&[i], Direction::Back),
        None => HashSet::new(),
    };
    let mut contract = Contract {
        element_id: target.map(|i| process.elements[i].id.to_string()).unwrap_or_default(),
        read_anywhere: facts.access.iter().flat_map(|a| a.reads.iter().cloned()).collect(),
        ..Contract::default()
    };
    let own_sets = Facts::set_by_own_mappings(process, &own);
    let always_set = Facts::always_set_by_own_mappings(process, &own);
    let first_pass = graph.first_pass_before(process, &own);
    let after_set: HashSet<usize> = (0..process.elements.len()).filter(|i| !first_pass.contains(i)).collect();
    let known = known_before(process, &facts, &before, &after_set, &own);
    // set on the way to the step (not only by what a loop runs after it and back)
    let known_names: HashSet<&str> =
        known.iter().filter(|k| k.only_before).map(|k| k.name.as_str()).collect();
    let reader = Reader::new(process, &graph, &facts, &own, &before, &first_pass);
    // must supply: what is read after the step (then what its own output mappings read) and can
    // arrive there unset: not known before, not what the process was started with, and on some way
    // from the step to the read nothing else sets it
    let settled = |read: &Read| {
        own_sets.contains(&read.name)
            || always_set.contains(&read.name)
            || (reader.unseen_before && !read.site.next)
            || (looks_like_literal(&read.name) && !facts.written.contains(&read.name))
            || known_names.contains(read.name.as_str())
            || reader.read_before(&read.name)
            || !reader.reaches_unset(read.element, &read.name)
    };
    contract.must_supply = must_supply(&reader, &after, &settled);
    // what the form's value meets after the step: reads it reaches with nothing else setting it
    let transformed = Facts::transformed_by_own_mappings(process, &own);
    let form_may_set = |name: &str, element: usize| {
        !own_sets.contains(name) && !transformed.contains(name) && reader.reaches_unset(element, name)
    };
    // every typed read, for the kind of field a need asks for (also through the step's own mapping)
    let mut kinds = juel_kinds(process, &after);
    let _ = reader.typed_reads(&after, &mut |read, element| {
        if (kinds.len() >= MOST && contract.typed.len() >= MOST) || crate::stop::stopped() {
            return ControlFlow::Break(());
        }
        if kinds.len() < MOST {
            kinds.push((read.path.clone(), read.expected));
        }
        if form_may_set(root(&read.path), element) && contract.typed.len() < MOST {
            contract.typed.push(read);
        }
        ControlFlow::Continue(())
    });
    let _ = reader.literal_reads(&after, &mut |read, element| {
        if contract.literals.len() >= MOST || crate::stop::stopped() {
            return ControlFlow::Break(());
        }
        if form_may_set(root(&read.path), element) {
            contract.literals.push(read);
        }
        ControlFlow::Continue(())
    });
    for (test, element) in reader.false_tests(&after) {
        if form_may_set(root(&test.path), element) {
            contract.false_tests.push(test);
        }
    }
    for (gateway, element) in reader.exhaustive(&after) {
        let name = root(&gateway.path).to_string();
        if form_may_set(&name, element) && contract.exhaustive.len() < MOST {
            contract.exhaustive.push(gateway);
        }
    }
    for need in &mut contract.must_supply {
        let read_as = match &need.site.outcome {
            Outcome::Mapping(target) => target.as_str(),
            _ => need.path.as_str(),
        };
        need.expected =
            kinds.iter().find(|(path, _)| path == read_as || root(path) == read_as).map(|(_, e)| *e);
    }
    // what the process reads by mistake (a literal without quotes, a misspelling) is a finding
    // about the process, not a field for the form to add
    if !contract.must_supply.is_empty() {
        let mistaken = super::unwritten::mistaken_reads(process, project, target);
        contract.must_supply.retain(|need| !mistaken.contains(&need.name));
    }
    contract.known_before = known
        .into_iter()
        .map(|k| {
            let read_again = reader.first_read_of(&k.name, &after);
            KnownValue { read_again, ..k }
        })
        .collect();
    contract
}

/// What the form must supply: the reads after the step that no other setter `settled`, one need per
/// variable at its first read, with the conditions every such read of it is reached through.
fn must_supply(reader: &Reader<'_>, after: &[usize], settled: &dyn Fn(&Read) -> bool) -> Vec<Need> {
    let mut needs = Gathered::default();
    let mut branches: Option<Branches> = None;
    let _ = reader.reads(after, &mut |read| {
        if crate::stop::stopped() {
            return ControlFlow::Break(());
        }
        if (!needs.holds(&read.name) && needs.list.len() >= MOST) || settled(&read) {
            return ControlFlow::Continue(());
        }
        let only_when = match read.site.outcome {
            Outcome::Mapping(_) => None,
            _ => Some(
                branches
                    .get_or_insert_with(|| Branches::new(reader.process, reader.graph, reader.own))
                    .guards(read.element),
            ),
        };
        needs.add(read, only_when.as_deref());
        ControlFlow::Continue(())
    });
    needs.finish(reader.process)
}

/// The needs found so far, each with the conditional flows every read of it so far is reached
/// through (`None` once one is the step's own output mapping).
#[derive(Default)]
struct Gathered {
    list: Vec<Need>,
    index: HashMap<String, usize>,
    ways: Vec<Option<Vec<usize>>>,
}

impl Gathered {
    fn holds(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// A read that needs the form's value: a new need at its first read, else fewer ways to it.
    fn add(&mut self, read: Read, only_when: Option<&[usize]>) {
        if let Some(&i) = self.index.get(&read.name) {
            self.ways[i] = match (self.ways[i].take(), only_when) {
                (Some(mut a), Some(b)) => {
                    a.retain(|g| b.contains(g));
                    Some(a)
                }
                _ => None,
            };
            return;
        }
        self.index.insert(read.name.clone(), self.list.len());
        self.ways.push(only_when.map(<[usize]>::to_vec));
        let need =
            Need { path: read.path, name: read.name, site: read.site, expected: None, only_when: None };
        self.list.push(need);
    }

    fn finish(self, process: &Process) -> Vec<Need> {
        let mut list = self.list;
        for (need, flows) in list.iter_mut().zip(self.ways) {
            need.only_when = flows.map(|flows| flows.into_iter().map(|f| guard(process, f)).collect());
        }
        list
    }
}

/// The guard a conditional flow is.
fn guard(process: &Process, flow: usize) -> Guard {
    let e = &process.elements[flow];
    Guard { flow_id: e.id.clone(), condition: e.condition.clone() }
}

/// The root variable of a path.
pub(super) fn root(path: &str) -> &str {
    path.split('.').next().unwrap_or(path)
}

/// What earlier elements set: their writes and their forms' keys (not what the process was started
/// with: nothing set it, so no form overwrites a step's work there).
fn known_before(
    process: &Process,
    facts: &Facts,
    before: &HashSet<usize>,
    after: &HashSet<usize>,
    own: &[usize],
) -> Vec<KnownValue> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut order: Vec<usize> = before.iter().copied().filter(|i| !own.contains(i)).collect();
    // what runs only before the step first: where a value comes from on the way to the step
    order.sort_unstable_by_key(|i| (after.contains(i), *i));
    let enclosing = enclosing(process, own);
    for i in order {
        // a sub-process the step runs in holds its own inputs for the elements inside it
        let writes = if enclosing.contains(&i) {
            facts.access[i].writes.iter().map(|w| w.name.clone()).collect()
        } else {
            facts.writes_of(process, i)
        };
        for name in writes {
            if seen.insert(name.clone()) && out.len() < MOST {
                let only_before = !after.contains(&i);
                out.push(KnownValue {
                    name,
                    from: facts.origin_of(process, i),
                    read_again: None,
                    only_before,
                });
            }
        }
    }
    out
}

/// The sub-processes the elements `own` run in, however deep.
fn enclosing(process: &Process, own: &[usize]) -> HashSet<usize> {
    let mut out = HashSet::new();
    for &i in own {
        let mut at = process.elements[i].parent;
        while let Some(p) = at.filter(|p| out.insert(*p)) {
            at = process.elements[p].parent;
        }
    }
    out
}

/// What the elements of a process read and write, with the project's forms and decisions.
struct Facts {
    access: Vec<ElementAccess>,
    /// Per element: the input keys of the form it binds, when formgen knows that form.
    form_keys: Vec<Option<Vec<String>>>,
    /// Per element: the variables the decisions it calls read, with each input's `typeRef` (`""` when
    /// none) and expression.
    decision_inputs: Vec<Vec<(String, String, String)>>,
    /// Per element: whether it may write variables formgen cannot see.
    unseen: Vec<bool>,
    /// Every name something in the process or its project writes: a target, a result, a form's key
    /// (whichever step binds it).
    written: HashSet<String>,
    /// The keys of the form the step binds, as the project has it, where other steps bind it too:
    /// what those steps' reads before the step were given by that form, not by the process's start.
    same_form_keys: HashSet<String>,
}

impl Facts {
    fn new(process: &Process, project: &Project, own: &[usize]) -> Facts {
        let access = access::of_process(process);
        let mut form_keys: Vec<Option<Vec<String>>> =
            process.elements.iter().map(|e| form_keys(process, e, project)).collect();
        let written = written_names(&access, &form_keys, project);
        // another step that binds the very form under check submits what this form submits: where the
        // form lacks a key, that step does not set it either, so it writes nothing of its own here
        let own_forms: Vec<&str> =
            own.iter().map(|&i| process.elements[i].form_id.trim()).filter(|f| !f.is_empty()).collect();
        let mut same_form_keys = HashSet::new();
        for (j, e) in crate::stop::until_stopped(process.elements.iter().enumerate()) {
            if !own.contains(&j) && own_forms.contains(&e.form_id.trim()) {
                let keys = form_keys[j].replace(Vec::new()).unwrap_or_default();
                same_form_keys.extend(keys.iter().map(|k| root(k).to_string()));
            }
        }
        let decision_inputs = process.elements.iter().map(|e| decision_inputs(e, project)).collect();
        let unseen = process
            .elements
            .iter()
            .zip(&form_keys)
            .map(|(e, keys)| writes_unseen(e, keys.is_some()))
            .collect();
        Facts { access, form_keys, decision_inputs, unseen, written, same_form_keys }
    }

    /// What the step's own output mappings set whatever its form holds: a mapping whose source reads
    /// only the step's own inputs, each of which has a value whatever the process holds
    /// (`input source="=if is defined(userId) then userId else \"dave\"" target="userId"`, then
    /// `output source="=userId" target="userId"`): the form's value when it has a field, else the
    /// input's. A mapping whose source is a context (`={ref: path, name: doc.name}`) sets a context
    /// whatever its entries read.
    fn always_set_by_own_mappings(process: &Process, own: &[usize]) -> HashSet<String> {
        let mut out = HashSet::new();
        for &i in own {
            let e = &process.elements[i];
            let given: HashSet<&str> = input_mappings(e)
                .filter(|(source, _)| always_has_value(source))
                .map(|(_, t)| root(t))
                .collect();
            for (source, target) in e.output_mappings() {
                let reads = expr::zeebe_value_reads(source);
                let given_only = !reads.is_empty() && reads.iter().all(|r| given.contains(r.name.as_str()));
                if given_only || is_context(source) {
                    out.insert(root(target).to_string());
                }
            }
        }
        out
    }

    /// What the step's own output mappings set from something other than the form's value of the
    /// same name (`source="=a + b" target="total"`): the engine's to write, not the form's.
    fn set_by_own_mappings(process: &Process, own: &[usize]) -> HashSet<String> {
        let mut out = HashSet::new();
        for &i in own {
            for (source, target) in process.elements[i].output_mappings() {
                let name = root(target);
                let passes_on = expr::zeebe_value_reads(source).iter().any(|r| r.name == name)
                    || expr::juel_reads(source).iter().any(|r| r.name == name);
                if !passes_on && !name.is_empty() {
                    out.insert(name.to_string());
                }
            }
        }
        out
    }

    /// What the step's own output mappings set from an expression rather than pass on as they are
    /// (`source="=if count(x) > 0 then x[1] else null" target="x"`): what follows the step reads the
    /// mapping's value, not the form's.
    fn transformed_by_own_mappings(process: &Process, own: &[usize]) -> HashSet<String> {
        let mut out = HashSet::new();
        for &i in own {
            for (source, target) in process.elements[i].output_mappings() {
                let plain = source.trim().strip_prefix('=').map(str::trim) == Some(target.trim());
                if !plain && !target.trim().is_empty() {
                    out.insert(root(target).to_string());
                }
            }
        }
        out
    }

    /// Per variable, the elements other than `own` that write it where others see it.
    fn writers(&self, process: &Process, own: &[usize]) -> HashMap<String, Vec<usize>> {
        let mut out: HashMap<String, Vec<usize>> = HashMap::new();
        for i in crate::stop::until_stopped((0..process.elements.len()).filter(|i| !own.contains(i))) {
            for name in self.writes_of(process, i) {
                let at = out.entry(name).or_default();
                if at.last() != Some(&i) {
                    at.push(i);
                }
            }
        }
        out
    }

    /// What the element at `i` writes into a scope others see, with its form's keys (roots).
    fn writes_of(&self, process: &Process, i: usize) -> Vec<String> {
        let own = &process.elements[i].id;
        let mut out: Vec<String> =
            self.access[i].writes.iter().filter(|w| &w.scope != own).map(|w| w.name.clone()).collect();
        if let Some(keys) = &self.form_keys[i] {
            out.extend(keys.iter().map(|k| root(k).to_string()));
        }
        out
    }

    /// Where a value written by the element at `i` comes from, in words.
    fn origin_of(&self, process: &Process, i: usize) -> String {
        let e = &process.elements[i];
        match (&self.form_keys[i], e.kind) {
            (Some(_), ElementKind::StartEvent) => "the start form".to_string(),
            (Some(_), _) => format!("the form of {}", phrase(e)),
            (None, _) => phrase(e),
        }
    }
}

/// The keys the form an element binds sets, when formgen has that form: its editable fields (a
/// read-only or disabled field hands back the value it was shown, so it sets nothing new).
pub(crate) fn form_keys(process: &Process, e: &Element, project: &Project) -> Option<Vec<String>> {
    let declared = e.declared();
    if !declared.fields.is_empty() {
        return Some(
            declared.fields.iter().filter(|f| !f.readonly).map(|f| f.variable.trim().to_string()).collect(),
        );
    }
    if e.form_id.is_empty() {
        return None;
    }
    if let Some(linked) = process.linked_form(e) {
        let schema = serde_json::from_str(&linked.body).ok()?;
        let form = crate::project::ProjectForm::read(schema, String::new()).ok()?;
        return Some(editable_keys(&form));
    }
    project.form(&e.form_id).map(editable_keys)
}

fn editable_keys(form: &crate::project::ProjectForm) -> Vec<String> {
    form.input_fields.iter().filter(|f| !f.readonly && !f.disabled).map(|f| f.key.clone()).collect()
}

/// The most decisions followed from one call through their required decisions.
const MOST_DECISIONS: usize = 64;

/// What the decisions an element calls read from its caller: `(variable, typeRef, input expression)`,
/// through the decisions they require (whose results are not the caller's to give).
fn decision_inputs(e: &Element, project: &Project) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let decisions = called_decisions(e, project);
    let produced: HashSet<&str> = decisions
        .iter()
        .filter(|d| d.required_by_caller)
        .flat_map(|d| std::iter::once(d.id.as_str()).chain(d.outputs.iter().map(|o| o.name.as_str())))
        .collect();
    for d in &decisions {
        for input in &d.inputs {
            for r in expr::feel_reads(&input.expression) {
                if produced.contains(r.name.as_str()) {
                    continue;
                }
                // only a plain name or path: `amount * 2` says nothing of `amount`'s type; where the
                // rules test it as a list, they say what the form must give, whatever `typeRef` says
                let plain = input.expression.trim() == r.path;
                let type_ref = match (plain, input.used_as_list) {
                    (true, true) => "list".to_string(),
                    (true, false) => input.type_ref.clone(),
                    (false, _) => String::new(),
                };
                out.push((r.path, type_ref, input.expression.clone()));
            }
        }
    }
    out
}

/// A decision an element calls, or one a called decision requires.
struct Called<'p> {
    decision: &'p crate::dmn::Decision,
    /// Whether another called decision requires it (its results are not the caller's to give).
    required_by_caller: bool,
}

impl std::ops::Deref for Called<'_> {
    type Target = crate::dmn::Decision;
    fn deref(&self) -> &Self::Target {
        self.decision
    }
}

/// The decisions an element calls, each followed through the decisions it requires (at most
/// [`MOST_DECISIONS`] per call).
fn called_decisions<'p>(e: &Element, project: &'p Project) -> Vec<Called<'p>> {
    let mut out = Vec::new();
    for a in e.accesses.iter().filter(|a| a.place == Place::DecisionId) {
        let Some(called) = project.decision(a.expression.trim_start_matches('=')) else { continue };
        let mut decisions = vec![called];
        let mut k = 0;
        while k < decisions.len() && decisions.len() < MOST_DECISIONS {
            for id in &decisions[k].required_decisions {
                if let Some(d) = project.decision(id)
                    && !decisions.iter().any(|seen| seen.id == d.id)
                {
                    decisions.push(d);
                }
            }
            k += 1;
        }
        out.extend(
            decisions
                .into_iter()
                .enumerate()
                .map(|(n, decision)| Called { decision, required_by_caller: n > 0 }),
        );
    }
    out
}

/// Whether an element may write variables formgen cannot see: a job worker (Camunda 8 service, send
/// or business-rule task with a job type) without output mappings, a message it receives, a called
/// process, a Camunda 7 / Flowable task that runs code, a listener, a user task whose form is not
/// known. What writes only what it declares (a connector's result, a FEEL script's or a decision's
/// result variable, output mappings, a known form) is seen.
pub(crate) fn writes_unseen(e: &Element, known_form: bool) -> bool {
    let has = |place: &Place| e.accesses.iter().any(|a| &a.place == place);
    let maps_outputs = has(&Place::OutputTarget)
        || e.accesses.iter().any(|a| matches!(a.place, Place::CallOutTarget { .. }));
    let runs_code = [Place::Expression, Place::Implementation, Place::Delegate, Place::DelegateClass];
    if runs_code.iter().any(has) {
        return true; // a delegate or listener: code that may set anything
    }
    if maps_outputs {
        return false;
    }
    let job_type = e.accesses.iter().find(|a| a.place == Place::JobType).map(|a| a.expression.trim());
    match e.kind {
        ElementKind::UserTask => !known_form,
        ElementKind::ServiceTask | ElementKind::SendTask => {
            !job_type.is_some_and(|t| t.starts_with("io.camunda:"))
        }
        ElementKind::ScriptTask => !has(&Place::Script),
        ElementKind::BusinessRuleTask => !has(&Place::DecisionId) || job_type.is_some(),
        ElementKind::ReceiveTask | ElementKind::CallActivity | ElementKind::AdHocSubProcess => true,
        ElementKind::StartEvent | ElementKind::IntermediateCatchEvent | ElementKind::BoundaryEvent => {
            has(&Place::MessageName)
        }
        _ => false,
    }
}

/// An element in a sentence: `the gateway "Genehmigt?"`, `the service task "Buchen"`; a name the
/// modeller broke over lines reads as one line.
pub(crate) fn phrase(e: &Element) -> String {
    format!("the {} \"{}\"", kind_words(e.kind.as_str()), e.label())
}

/// A BPMN element kind in words: `userTask` → "user task", any gateway → "gateway".
fn kind_words(kind: &str) -> String {
    if kind.ends_with("Gateway") {
        return "gateway".to_string();
    }
    let mut out = String::new();
    for c in kind.chars() {
        if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// One read of a variable after the step.
struct Read {
    name: String,
    path: String,
    element: usize,
    site: Site,
}

/// Reads the process's expressions after the step, with the order and what each element writes.
struct Reader<'a> {
    process: &'a Process,
    graph: &'a Graph,
    facts: &'a Facts,
    own: &'a [usize],
    /// The variables read (needing a value) by what can run before the step.
    read_before: HashSet<String>,
    /// What neither runs before the step on the way to it nor after it: alongside it, on another
    /// branch.
    alongside: HashSet<usize>,
    /// Per variable, the elements other than the step that set it visibly.
    writers: HashMap<String, Vec<usize>>,
    /// What can run after the step before it runs again.
    after_once: HashSet<usize>,
    /// What runs after an element that may set unseen variables and can run after the step or
    /// alongside it, without passing the step.
    after_unseen: HashSet<usize>,
    /// Per variable, what runs after the elements that set it (see [`Reader::after_setters`]).
    setters_reach: std::cell::RefCell<HashMap<String, Option<std::rc::Rc<HashSet<usize>>>>>,
    /// Whether an element that may write variables formgen cannot see runs on the way to the step:
    /// what it writes passes the step to the reads after it, so those are not the form's alone. A
    /// read right after the step (the gateway it leads to, its own output mapping) stays a need: the
    /// step is there to decide it, and in real processes an earlier job worker, message or called
    /// process is hardly ever what that gateway decides on.
    unseen_before: bool,
}

impl<'a> Reader<'a> {
    fn new(
        process: &'a Process,
        graph: &'a Graph,
        facts: &'a Facts,
        own: &'a [usize],
        before: &'a HashSet<usize>,
        first_pass: &HashSet<usize>,
    ) -> Reader<'a> {
        let after_once = graph.reach_avoiding(own, Direction::Forward, own);
        // a key of the form under check read before the step was given by another step that binds
        // that form, not by the process's start
        let read_before = first_pass
            .iter()
            .flat_map(|&i| process.elements[i].accesses.iter().filter(|a| needs_value(a)))
            .flat_map(access::reads_of)
            .filter(|name| !facts.same_form_keys.contains(name))
            .collect();
        let alongside: HashSet<usize> = (0..process.elements.len())
            .filter(|i| !own.contains(i) && !after_once.contains(i) && !before.contains(i))
            .collect();
        let unseen: Vec<usize> = (0..process.elements.len())
            .filter(|&w| facts.unseen[w] && (after_once.contains(&w) || alongside.contains(&w)))
            .collect();
        let after_unseen = graph.reach_avoiding(&unseen, Direction::Forward, own);
        let unseen_before = first_pass.iter().any(|&w| facts.unseen[w] && before.contains(&w));
        Reader {
            process,
            graph,
            facts,
            own,
            read_before,
            alongside,
            writers: facts.writers(process, own),
            after_once,
            after_unseen,
            setters_reach: Default::default(),
            unseen_before,
        }
    }

    /// The site of a read on the element at `i` with this expression.
    fn site(&self, i: usize, expression: &str) -> Site {
        let e = &self.process.elements[i];
        let (subject_index, outcome) = if e.is_flow() {
            let gateway = self.process.element_index(&e.source);
            let outcome = match gateway.map(|g| &self.process.elements[g]) {
                Some(g) if !g.default_flow.is_empty() => Outcome::DefaultFlow,
                _ => Outcome::NoFlow,
            };
            (gateway.unwrap_or(i), outcome)
        } else {
            (i, Outcome::Null)
        };
        // the quoted part says the dialect: a site is made per read, and one condition may be a megabyte
        let expression = shortened(expression.trim());
        let juel = expression.contains("${") || expression.contains("#{");
        let outcome = if juel { Outcome::Unresolved } else { outcome };
        let subject = &self.process.elements[subject_index];
        let next = self.own.iter().any(|&o| {
            let flows = &self.graph.next[o];
            subject_index == o
                || flows.contains(&subject_index)
                || flows.iter().any(|&f| self.graph.next[f].contains(&subject_index))
        });
        Site {
            element_id: e.id.clone(),
            subject: phrase(subject).into(),
            expression: expression.into(),
            next,
            outcome,
        }
    }

    /// The reads that need a value, nearest first: the step's own output mappings' sources, then
    /// every read after it (not where it checks for the value first, not an output mapping's source
    /// or a connector's settings, which read the job's result).
    fn reads(&self, after: &[usize], each: &mut dyn FnMut(Read) -> ControlFlow<()>) -> ControlFlow<()> {
        // the step's own output mappings read what its form submits, where what they set is read on
        // (a mapping to a value nothing reads after the step sets null harmlessly): the names read
        // after the step are kept only when there is such a mapping
        let mapped = self.own.iter().any(|&i| self.process.elements[i].output_mappings().next().is_some());
        let mut read_on: HashSet<String> = HashSet::new();
        let mut visit = |read: Read| {
            if mapped {
                read_on.insert(read.name.clone());
            }
            each(read)
        };
        for &i in crate::stop::until_stopped(after.iter().filter(|i| !self.own.contains(i))) {
            let mut locals = self.locals(i);
            // what the element reads of its own result is its state from an earlier round (an
            // agent's memory, a loop's running value): nothing the steps before it must give
            locals.extend(own_results(&self.process.elements[i]));
            for a in self.process.elements[i].accesses.iter().filter(|a| needs_value(a)) {
                let guarded = guarded_names(&a.expression);
                let mut site: Option<Site> = None;
                for r in path_reads(a) {
                    if !locals.contains(&r.name) && !guarded.contains(&r.name) {
                        let site = site.get_or_insert_with(|| self.site(i, &a.expression)).clone();
                        visit(Read { name: r.name, path: r.path, element: i, site })?;
                    }
                }
            }
            for (path, _, expression) in &self.facts.decision_inputs[i] {
                let name = root(path).to_string();
                if !locals.contains(&name) && !guarded_names(expression).contains(&name) {
                    let site = self.site(i, expression);
                    visit(Read { name, path: path.clone(), element: i, site })?;
                }
            }
        }
        for &i in self.own {
            let locals = self.locals(i);
            let element = &self.process.elements[i];
            for (source, target) in element.output_mappings().filter(|(_, t)| read_on.contains(root(t))) {
                for r in expr::zeebe_value_reads(source) {
                    if !locals.contains(&r.name) {
                        let mut site = self.site(i, source);
                        site.subject = "this step's output mapping".into();
                        site.outcome = Outcome::Mapping(target.to_string());
                        each(Read { name: r.name, path: r.path, element: i, site })?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The first read of `name` by the step once its form is submitted, or after it. What the step
    /// reads as it starts (its input mappings, who it is assigned to, its dates) reads the value the
    /// form was shown with, not what the person entered.
    fn first_read_of(&self, name: &str, after: &[usize]) -> Option<Site> {
        let own = self.own.iter().map(|&i| (i, true));
        own.chain(after.iter().map(|&i| (i, false))).find_map(|(i, is_own)| {
            let a = self.process.elements[i].accesses.iter().find(|a| {
                !(is_own && read_on_activation(&a.place)) && access::reads_of(a).iter().any(|n| n == name)
            })?;
            Some(self.site(i, &a.expression))
        })
    }

    /// Whether something that can run before the step reads `name`: the process was started with it.
    fn read_before(&self, name: &str) -> bool {
        self.read_before.contains(name)
    }

    /// Whether the step's value of `name` reaches the element at `reader` as the step left it: no
    /// element that can run between them (after the step and before the reader, on any way) sets
    /// `name` visibly or may set variables formgen cannot see, nor one on another branch alongside the
    /// step that leads to the reader. A writer on some way only may be how the process means to set
    /// the value: then the contract says nothing. The step's own output mapping reads its value
    /// directly.
    fn reaches_unset(&self, reader: usize, name: &str) -> bool {
        if self.own.contains(&reader) {
            return true;
        }
        !self.after_unseen.contains(&reader)
            && self.after_setters(name).is_some_and(|reached| !reached.contains(&reader))
    }

    /// What runs after an element that sets `name` and can run between the step and what follows it
    /// (or alongside the step), without passing the step; memoised, for at most [`MOST_WALKS`] names
    /// (`None` past that: nothing is said of the rest).
    fn after_setters(&self, name: &str) -> Option<std::rc::Rc<HashSet<usize>>> {
        if let Some(known) = self.setters_reach.borrow().get(name) {
            return known.clone();
        }
        let walk = (self.setters_reach.borrow().len() < MOST_WALKS).then(|| {
            let setters = self.writers.get(name).map(Vec::as_slice).unwrap_or_default();
            let from: Vec<usize> =
                setters.iter().copied().filter(|w| self.between_or_alongside(*w)).collect();
            std::rc::Rc::new(self.graph.reach_avoiding(&from, Direction::Forward, self.own))
        });
        self.setters_reach.borrow_mut().insert(name.to_string(), walk.clone());
        walk
    }

    /// Whether the element at `w` can run after the step (before it runs again) or alongside it.
    fn between_or_alongside(&self, w: usize) -> bool {
        self.after_once.contains(&w) || self.alongside.contains(&w)
    }

    /// The element's own locals (its input targets, its loop element), but what an input mapping
    /// passes in unchanged (`= url` mapped to `url`), which it reads from outside.
    fn locals(&self, i: usize) -> Vec<String> {
        access::own_locals(&self.process.elements[i], &self.facts.access[i].writes)
            .map(str::to_string)
            .collect()
    }

    /// The FEEL conditions after the step that compare a variable with a literal, and the decision
    /// inputs with a type, each with the element that reads.
    fn typed_reads(
        &self,
        after: &[usize],
        each: &mut dyn FnMut(TypedRead, usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for &i in crate::stop::until_stopped(after) {
            let e = &self.process.elements[i];
            if e.is_flow() && is_feel(&e.condition) {
                let mut checked = null_checked_names(&e.condition);
                checked.extend(expr::optional_names(&e.condition));
                let mut site: Option<Site> = None;
                for c in read_condition(&e.condition).comparisons {
                    if let Some(expected) = expected_of(&c) {
                        let orders =
                            matches!(c.operator, Operator::Lt | Operator::Le | Operator::Gt | Operator::Ge);
                        let site = site.get_or_insert_with(|| self.site(i, &e.condition)).clone();
                        let with = c.literal.to_string();
                        let checked = checked.contains(&c.variable);
                        each(TypedRead { path: c.variable, expected, with, orders, checked, site }, i)?;
                    }
                }
            }
            for (path, type_ref, expression) in &self.facts.decision_inputs[i] {
                if let Some(expected) = expected_of_type_ref(type_ref) {
                    let with = format!("typeRef {type_ref}");
                    let site = self.site(i, expression);
                    let read =
                        TypedRead { path: path.clone(), expected, with, orders: false, checked: false, site };
                    each(read, i)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The string literals the conditions after the step compare a variable with (`=`, `in`).
    fn literal_reads(
        &self,
        after: &[usize],
        each: &mut dyn FnMut(LiteralRead, usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for &i in crate::stop::until_stopped(after) {
            let e = &self.process.elements[i];
            if !e.is_flow() || e.condition.is_empty() {
                continue;
            }
            let mut site: Option<Site> = None;
            for c in read_condition(&e.condition).comparisons {
                let values = text_values(&c);
                if !values.is_empty() {
                    let site = site.get_or_insert_with(|| self.site(i, &e.condition)).clone();
                    each(LiteralRead { path: c.variable, values, site }, i)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The conditions after the step only a variable's `false` satisfies (at most [`MOST`]), each
    /// with its flow.
    fn false_tests(&self, after: &[usize]) -> Vec<(FalseTest, usize)> {
        let mut out = Vec::new();
        let tests_false = |c: &Comparison| {
            matches!(
                (c.operator, &c.literal),
                (Operator::Eq, Literal::Bool(false)) | (Operator::Ne, Literal::Bool(true))
            )
        };
        for &i in crate::stop::until_stopped(after) {
            let e = &self.process.elements[i];
            if !e.is_flow() || e.condition.is_empty() || has_word(&e.condition, &["or", "||"]) {
                continue;
            }
            for c in read_condition(&e.condition).comparisons.into_iter().filter(tests_false) {
                if out.len() >= MOST {
                    return out;
                }
                out.push((
                    FalseTest { path: c.variable, site: self.site(i, &e.condition), by_default: false },
                    i,
                ));
            }
        }
        for &g in after {
            if out.len() >= MOST {
                break;
            }
            if let Some((path, tested, default)) = self.default_for_false(g) {
                // the default flow, quoting the condition it is the other way of
                let condition = &self.process.elements[tested].condition;
                out.push((FalseTest { path, site: self.site(default, condition), by_default: true }, tested));
            }
        }
        out
    }

    /// The variable the default flow of the gateway at `g` stands for `false` of, with one of the
    /// other flows and the default flow: where each other flow tests that one variable for `true` and
    /// nothing else.
    fn default_for_false(&self, g: usize) -> Option<(String, usize, usize)> {
        let gateway = &self.process.elements[g];
        if !gateway.is_gateway() || gateway.default_flow.is_empty() {
            return None;
        }
        let default = self.process.element_index(&gateway.default_flow)?;
        let mut tested: Option<(String, usize)> = None;
        for &f in self.graph.next[g].iter().filter(|&&f| f != default && self.process.elements[f].is_flow()) {
            let reading = read_condition(&self.process.elements[f].condition);
            let [c] = reading.comparisons.as_slice() else { return None };
            let is_true = c.operator == Operator::Eq && c.literal == Literal::Bool(true);
            if !is_true
                || reading.variables.len() != 1
                || tested.as_ref().is_some_and(|(p, _)| *p != c.variable)
            {
                return None;
            }
            tested.get_or_insert((c.variable.clone(), f));
        }
        tested.map(|(path, f)| (path, f, default))
    }

    /// The gateways after the step with no default flow whose every condition compares one variable
    /// with string literals (`=`, `in`), joined only by `or`.
    fn exhaustive(&self, after: &[usize]) -> Vec<(Exhaustive, usize)> {
        let mut out = Vec::new();
        for &g in after {
            let gateway = &self.process.elements[g];
            if !gateway.is_gateway() || !gateway.default_flow.is_empty() {
                continue;
            }
            let flows: Vec<usize> =
                self.graph.next[g].iter().copied().filter(|&f| self.process.elements[f].is_flow()).collect();
            if flows.len() < 2 {
                continue;
            }
            let mut path: Option<String> = None;
            let mut values: Vec<String> = Vec::new();
            let mut plain = true;
            for &f in &flows {
                let condition = &self.process.elements[f].condition;
                let reading = read_condition(condition);
                let simple = !condition.is_empty()
                    && !has_word(condition, &["and", "not", "&&", "!"])
                    && reading.variables.len() == 1
                    && !reading.comparisons.is_empty()
                    && reading.comparisons.iter().all(|c| !text_values(c).is_empty());
                if !simple || path.as_ref().is_some_and(|p| *p != reading.variables[0]) {
                    plain = false;
                    break;
                }
                path = Some(reading.variables[0].clone());
                for c in &reading.comparisons {
                    values.extend(text_values(c));
                }
            }
            if let (true, Some(path)) = (plain, path) {
                let first = &self.process.elements[flows[0]];
                let site = self.site(flows[0], &first.condition);
                out.push((Exhaustive { path, values, site }, flows[0]));
            }
        }
        out
    }
}

/// Most characters of an expression a [`Site`] quotes: a finding's sentence names the expression, and
/// one condition may be a megabyte.
const SITE_EXPRESSION_CHARS: usize = 1_000;

/// The expression as a site quotes it: whole, or its first [`SITE_EXPRESSION_CHARS`] and "…".
fn shortened(expression: &str) -> String {
    match expression.char_indices().nth(SITE_EXPRESSION_CHARS) {
        Some((cut, _)) => format!("{}…", &expression[..cut]),
        None => expression.to_string(),
    }
}

/// The names an expression compares with null (`x != null`, `null = x`, JUEL's `empty x`), in one
/// pass over it; a dotted path counts for each of its segments' suffixes and prefixes too.
fn null_checked_names(expression: &str) -> HashSet<String> {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let mut out = HashSet::new();
    let mut add = |name: &str| {
        if name.is_empty() {
            return;
        }
        for (i, _) in name.match_indices('.') {
            out.insert(name[i + 1..].to_string());
            // `order.total != null` holds only where `order` is set too
            out.insert(name[..i].to_string());
        }
        out.insert(name.to_string());
    };
    for (at, _) in expression.match_indices("null") {
        let before = expression[..at].trim_end();
        if let Some(op) = ["!=", "==", "="].iter().find(|op| before.ends_with(**op)) {
            let left = before[..before.len() - op.len()].trim_end();
            let start = left
                .char_indices()
                .rev()
                .take_while(|(_, c)| ident(*c))
                .last()
                .map_or(left.len(), |(i, _)| i);
            add(&left[start..]);
        }
        let after = expression[at + 4..].trim_start();
        if let Some(op) = ["!=", "==", "="].iter().find(|op| after.starts_with(**op)) {
            let right = after[op.len()..].trim_start();
            let end = right.char_indices().find(|(_, c)| !ident(*c)).map_or(right.len(), |(i, _)| i);
            add(&right[..end]);
        }
    }
    let mut words = expression.split(|c: char| !ident(c)).filter(|w| !w.is_empty()).peekable();
    while let Some(w) = words.next() {
        if w == "empty"
            && let Some(next) = words.peek()
        {
            add(next);
        }
    }
    out
}

/// Whether a condition is FEEL (`= ...`): JUEL converts a text to a number or a boolean where it
/// compares them, so only FEEL's comparisons say what a value must be.
fn is_feel(condition: &str) -> bool {
    condition.trim_start().starts_with('=')
}

/// Whether a condition holds one of these operators as a word (or symbol).
fn has_word(condition: &str, words: &[&str]) -> bool {
    let lower = condition.to_lowercase();
    words.iter().any(|w| {
        if w.chars().all(char::is_alphabetic) {
            lower.split(|c: char| !c.is_alphanumeric() && c != '_').any(|t| t == *w)
        } else if *w == "!" {
            lower.replace("!=", "").contains('!')
        } else {
            lower.contains(w)
        }
    })
}

/// The kind of value a comparison expects.
fn expected_of(c: &Comparison) -> Option<Expected> {
    match &c.literal {
        Literal::Number(_) => Some(Expected::Number),
        Literal::Text(_) => Some(Expected::Text),
        Literal::Bool(_) => Some(Expected::Boolean),
        Literal::List(items) => match items.first()? {
            Literal::Number(_) if items.iter().all(|l| matches!(l, Literal::Number(_))) => {
                Some(Expected::Number)
            }
            Literal::Text(_) if items.iter().all(|l| matches!(l, Literal::Text(_))) => Some(Expected::Text),
            _ => None,
        },
        Literal::Null => None,
    }
}

/// The kind of value a decision input's `typeRef` names.
fn expected_of_type_ref(type_ref: &str) -> Option<Expected> {
    match type_ref.trim().to_ascii_lowercase().as_str() {
        "number" | "integer" | "long" | "double" => Some(Expected::Number),
        "string" => Some(Expected::Text),
        "boolean" => Some(Expected::Boolean),
        _ => None,
    }
}

/// The string literals an equality (`=`, `in [..]`) compares with.
fn text_values(c: &Comparison) -> Vec<String> {
    match (&c.operator, &c.literal) {
        (Operator::Eq, Literal::Text(t)) => vec![t.clone()],
        (Operator::In, Literal::List(items)) if items.iter().all(|l| matches!(l, Literal::Text(_))) => items
            .iter()
            .filter_map(|l| if let Literal::Text(t) = l { Some(t.clone()) } else { None })
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether a place needs its variables to exist when it runs: not an output mapping's source (it
/// reads the job's result), a loop's or ad-hoc sub-process's output element, a connector's own
/// settings, or what an AI agent fills in.
fn needs_value(a: &crate::bpmn::Access) -> bool {
    !matches!(
        a.place,
        Place::Property(_)
            | Place::Header(_)
            | Place::OutputSource
            | Place::LoopOutputElement
            | Place::AdHocOutputElement
            | Place::JobType
            | Place::JobRetries
    ) && !a.expression.contains("fromAi(")
}

/// The reads of one place with their paths.
fn path_reads(a: &crate::bpmn::Access) -> Vec<expr::Read> {
    let names = access::reads_of(a);
    let text = a.expression.as_str();
    let with_paths = match text.trim_start().strip_prefix('=') {
        Some(feel) => expr::feel_reads(feel),
        None if text.contains("${") || text.contains("#{") => expr::juel_reads(text),
        None => expr::zeebe_value_reads(text),
    };
    names
        .into_iter()
        .map(|name| {
            let path =
                with_paths.iter().find(|r| r.name == name).map_or_else(|| name.clone(), |r| r.path.clone());
            expr::Read { name, path }
        })
        .collect()
}

/// Whether an element reads this place as it starts, before a form it shows is submitted.
fn read_on_activation(place: &Place) -> bool {
    matches!(
        place,
        Place::InputSource
            | Place::Assignee
            | Place::CandidateGroups
            | Place::CandidateUsers
            | Place::DueDate
            | Place::FollowUpDate
            | Place::Priority
    )
}

/// The names an expression reads only where it has checked for them (`is defined(x)`,
/// `get or else(x, ..)`, `x != null`, `x = null`, or in a branch of an `if` on such a test): it is
/// ready for them to be missing, so they are no need of a form.
pub(crate) fn guarded_names(expression: &str) -> HashSet<String> {
    let mut out = null_checked_names(expression);
    out.extend(expr::optional_names(expression));
    out.extend(expr::conditional_names(expression));
    out
}

/// The input mappings of an element as `(source, target)` texts: the reader records a mapping's
/// source and then its target, side by side.
fn input_mappings(e: &Element) -> impl Iterator<Item = (&str, &str)> + '_ {
    e.accesses.windows(2).filter_map(|pair| match pair {
        [source, target] if source.place == Place::InputSource && target.place == Place::InputTarget => {
            Some((source.expression.as_str(), target.expression.trim()))
        }
        _ => None,
    })
}

/// Whether an input mapping's source has a value whatever the process holds: a literal, or an
/// expression that reads only what it checks for first and has no `null` branch
/// (`=if is defined(userId) then userId else "dave"`).
fn always_has_value(source: &str) -> bool {
    let Some(feel) = source.trim_start().strip_prefix('=') else {
        return !source.trim().is_empty();
    };
    let words: Vec<&str> = feel.split_whitespace().collect();
    let null_branch = words.windows(2).any(|w| matches!(w, ["then" | "else", "null"]));
    let guarded = guarded_names(feel);
    !null_branch
        && words != ["null"]
        && !feel.trim().is_empty()
        && expr::feel_reads(feel).iter().all(|r| guarded.contains(&r.name))
}

/// Whether a FEEL source is a context literal (`={a: x, b: y}`), which is never null.
fn is_context(source: &str) -> bool {
    source.trim().strip_prefix('=').map(str::trim).is_some_and(|f| f.starts_with('{') && f.ends_with('}'))
}

/// The results an element writes as a whole: its result variable (a script's, a decision's, a
/// connector's `resultVariable` header), the keys of a connector's `resultExpression` context, an
/// ad-hoc sub-process's output collection; and what its job hands back for its output mappings to
/// read ([`access::job_results`]).
fn own_results(e: &Element) -> Vec<String> {
    let mut out = access::job_results(e);
    for a in &e.accesses {
        match &a.place {
            Place::ResultVariable | Place::AdHocOutputCollection => {
                out.push(root(a.expression.trim()).to_string());
            }
            Place::Header(key) if key == "resultVariable" => out.push(root(a.expression.trim()).to_string()),
            Place::Header(key) if key == "resultExpression" => {
                out.extend(access::context_keys(&a.expression));
            }
            _ => {}
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

/// Every name written in the process (any target, result or form key, whichever step binds the form)
/// or by a form of its project.
fn written_names(
    access: &[ElementAccess],
    form_keys: &[Option<Vec<String>>],
    project: &Project,
) -> HashSet<String> {
    let writes = access.iter().flat_map(|a| a.writes.iter().map(|w| w.name.clone()));
    let keys = form_keys.iter().flatten().flatten().map(|k| root(k).to_string());
    let project_keys =
        project.forms.iter().flat_map(|f| f.input_fields.iter().map(|x| root(&x.key).to_string()));
    writes.chain(keys).chain(project_keys).collect()
}

/// Whether a name read looks like an ISO 8601 literal written without its quotes: a duration
/// (`P1D`, `PT5M`, `P1Y2M`, `P2W`, `PT1.5S`) or a repetition (`R3`, of `R3/PT10M`). FEEL reads these
/// as names; nothing in a process is meant to be named so.
fn looks_like_literal(name: &str) -> bool {
    if let Some(count) = name.strip_prefix('R') {
        return !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit());
    }
    let Some(rest) = name.strip_prefix('P') else { return false };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) if !time.is_empty() => (date, Some(time)),
        Some(_) => return false,
        None => (rest, None),
    };
    let parts_ok = |text: &str, units: &str, fraction: bool| {
        let mut number = String::new();
        let mut order = 0;
        for c in text.chars() {
            if c.is_ascii_digit() || (fraction && c == '.' && !number.is_empty()) {
                number.push(c);
                continue;
            }
            // each unit once, in order, after a number
            let Some(at) = units[order..].find(c) else { return false };
            if number.is_empty() {
                return false;
            }
            number.clear();
            order += at + 1;
        }
        number.is_empty()
    };
    !(date.is_empty() && time.is_none())
        && parts_ok(date, "YMWD", false)
        && time.is_none_or(|t| parts_ok(t, "HMS", true))
}

/// Where the decisions the process calls use an input as a list in their rules while its `typeRef`
/// says otherwise, each decision input once.
/// Where a decision the process calls uses an input in its rules as another kind of value than its
/// `typeRef` declares: the rules win for the form, and the process findings report the disagreement.
pub(crate) fn type_disagreements(process: &Process, project: &Project) -> Vec<TypeDisagreement> {
    let mut out: Vec<TypeDisagreement> = Vec::new();
    for e in &process.elements {
        for d in called_decisions(e, project) {
            for input in d.inputs.iter().filter(|i| i.used_as_list && !is_list_type(&i.type_ref)) {
                let known = out.iter().any(|t| t.decision_id == d.id && t.input == input.expression);
                if !known && out.len() < MOST {
                    out.push(TypeDisagreement {
                        element_id: e.id.to_string(),
                        decision_id: d.id.clone(),
                        input: input.expression.clone(),
                        declared: input.type_ref.clone(),
                        used: "list".to_string(),
                    });
                }
            }
        }
    }
    out
}

/// Whether a `typeRef` names a list (or says nothing: no disagreement to report).
fn is_list_type(type_ref: &str) -> bool {
    let t = type_ref.trim().to_ascii_lowercase();
    t.is_empty() || t == "list" || t == "collection" || t == "any"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bpmn::zeebe_process;

    #[test]
    fn the_names_compared_with_null_in_one_pass() {
        let names = null_checked_names("= a != null and null = b.c and d==null or count(e) > 0");
        for n in ["a", "b.c", "c", "d"] {
            assert!(names.contains(n), "{n} in {names:?}");
        }
        assert!(!names.contains("e"));
        assert!(null_checked_names("${empty approver}").contains("approver"));
        assert!(null_checked_names("${not empty approver}").contains("approver"));
    }

    #[test]
    fn an_element_broken_over_lines_is_phrased_on_one() {
        let xml = "<definitions xmlns=\"http://www.omg.org/spec/BPMN/20100524/MODEL\"><process id=\"P\"><userTask id=\"T\" name=\"Assign&#10;Approver\"/></process></definitions>";
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        assert_eq!(phrase(&process.elements[0]), r#"the user task "Assign Approver""#);
    }

    #[test]
    fn iso_durations_and_repetitions_look_like_literals() {
        for name in ["P1D", "PT5M", "P1Y2M", "P2W", "PT1.5S", "P1DT12H", "R3"] {
            assert!(looks_like_literal(name), "{name}");
        }
        for name in ["P", "PT", "R", "Pay", "PD1", "P1X", "PT5M3", "P1M1Y", "Rate", "approved", "p1d"] {
            assert!(!looks_like_literal(name), "{name}");
        }
    }

    #[test]
    fn an_input_with_a_default_always_has_a_value() {
        assert!(always_has_value(r#"=if is defined(userId) then userId else "dave""#));
        assert!(always_has_value(r#"=get or else(userId, "dave")"#));
        assert!(always_has_value(r#"="dave""#));
        assert!(!always_has_value("=userId"));
        assert!(!always_has_value("=if is defined(userId) then userId else null"));
        assert!(!always_has_value("=null"));
        assert!(is_context("= {ref: path, name: doc.name}"));
        assert!(!is_context("=doc") && !is_context("={a: 1}.a"));
    }

    #[test]
    fn a_need_says_which_conditions_every_read_of_it_passes() {
        let p = zeebe_process(
            r#"<userTask id="review"/><sequenceFlow id="f1" sourceRef="review" targetRef="g"/>
            <exclusiveGateway id="g"/>
            <sequenceFlow id="no" sourceRef="g" targetRef="explain"><conditionExpression>=not(approved)</conditionExpression></sequenceFlow>
            <sequenceFlow id="yes" sourceRef="g" targetRef="j"><conditionExpression>=approved</conditionExpression></sequenceFlow>
            <serviceTask id="explain"><extensionElements><zeebe:taskDefinition type="t"/><zeebe:ioMapping>
              <zeebe:input source="=reason" target="text"/><zeebe:input source="=reason + note" target="all"/>
              <zeebe:output source="=true" target="told"/>
            </zeebe:ioMapping></extensionElements></serviceTask>
            <sequenceFlow id="f2" sourceRef="explain" targetRef="j"/><exclusiveGateway id="j"/>
            <sequenceFlow id="f3" sourceRef="j" targetRef="log"/>
            <serviceTask id="log"><extensionElements><zeebe:taskDefinition type="t"/><zeebe:ioMapping>
              <zeebe:input source="=note" target="text"/></zeebe:ioMapping></extensionElements></serviceTask>"#,
        );
        let c = contract(&p, Some(0), &Project::default());
        let only_when = |name: &str| {
            let need = c.must_supply.iter().find(|n| n.name == name).unwrap();
            let guards = need.only_when.as_ref().unwrap();
            guards.iter().map(|g| g.condition.to_string()).collect::<Vec<_>>()
        };
        assert_eq!(only_when("reason"), ["=not(approved)"]);
        assert!(only_when("note").is_empty(), "read again after the join");
        assert!(only_when("approved").is_empty(), "the gateway reads it whichever way");
    }

    #[test]
    fn a_guarded_path_guards_its_root() {
        let names = guarded_names("= if order.total != null then order.total else 0");
        assert!(names.contains("order"));
        assert!(guarded_names("=get or else(priority, 1)").contains("priority"));
        assert!(!guarded_names("= amount > 10").contains("amount"));
    }

    #[test]
    fn a_decision_input_tested_as_a_list_is_a_disagreement_and_no_text_read() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/check/dmnlist");
        let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
            .collect();
        let project = crate::project::from_files(
            files.iter().map(|(n, b)| (n.as_str(), b.as_slice())),
            &crate::project::ProjectBounds::default(),
        )
        .unwrap();
        let text = std::fs::read_to_string(dir.join("offer.bpmn")).unwrap();
        let process = crate::bpmn::read_str(&text).processes.remove(0);
        let c = contract(&process, None, &project);
        assert_eq!(
            type_disagreements(&process, &project),
            [TypeDisagreement {
                element_id: "Task_offer".into(),
                decision_id: "offer".into(),
                input: "purchases".into(),
                declared: "string".into(),
                used: "list".into(),
            }]
        );
        let typed: Vec<&str> = c.typed.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(typed, ["age"], "the rules say `purchases` is a list: no text expected");
    }

    #[test]
    fn an_element_reading_its_own_result_needs_nothing_before_it() {
        let process = zeebe_process(
            r#"<startEvent id="s"/>
            <serviceTask id="agent"><extensionElements>
              <zeebe:taskDefinition type="io.camunda.agenticai:aiagent:1"/>
              <zeebe:ioMapping><zeebe:input source="=agent.context" target="context"/></zeebe:ioMapping>
              <zeebe:taskHeaders><zeebe:header key="resultVariable" value="agent"/></zeebe:taskHeaders>
            </extensionElements></serviceTask>
            <sequenceFlow id="f1" sourceRef="s" targetRef="agent"/>"#,
        );
        assert!(contract(&process, None, &Project::default()).must_supply.is_empty());
    }

    #[test]
    fn a_site_quotes_a_long_expression_shortened() {
        let long = "x".repeat(5 * SITE_EXPRESSION_CHARS);
        let quoted = shortened(&long);
        assert_eq!(quoted.chars().count(), SITE_EXPRESSION_CHARS + 1);
        assert!(quoted.ends_with('…'));
        assert_eq!(shortened("= a > 1"), "= a > 1");
    }
}
