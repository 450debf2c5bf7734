//! What each element reads and writes: the reader's raw places turned into variable names and scopes.
//!
//! **Reads** are the variables an element's expressions read, in every place it evaluates one (the
//! expression reader [`super::expr`] decides the names), de-duplicated in order of first appearance.
//! A read is a read whoever wrote the variable: an input mapping that uses an earlier input's target
//! reads that local.
//!
//! **Writes** are `{name, scope}`: the variable a target, result or loop output stores, by its root
//! (`a.b` writes `a`), and the id of the element whose scope holds it. The rules are Camunda 8's, as
//! bpmn.io's variable resolver applies them (`tools/variable-reference/README.md`), and serve Camunda
//! 7 and Flowable too, whose engines scope variables the same way:
//! - an input mapping's target, a multi-instance input element and a `local="true"` call output are
//!   local to the element;
//! - an output mapping's target, a loop's output collection, a caught error's variables, a
//!   `camunda:out` target, a start event's initiator and a declared form field that is not
//!   read-only go to the nearest enclosing sub-process that
//!   maps the name as an input (not the element itself), else to the process;
//! - a result variable (script, decision, connector `resultVariable` / `resultExpression` headers)
//!   stays on the element when it has output mappings (or maps the name as an input), else as above;
//! - an ad-hoc sub-process's output collection is written twice: on itself and as above.
//!
//! It knows nothing of XML: only [`crate::bpmn::Process`] and its elements' [`Access`]es.

use indexmap::IndexSet;
use serde::{Deserialize, Serialize};

use super::expr;
use crate::bpmn::{Access, Dialect, Element, Place, Process};

/// A variable an element writes, and where it lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Write {
    /// The variable (the root of a dotted target).
    pub name: String,
    /// The id of the element whose scope holds it: the element itself for a local, an enclosing
    /// sub-process, or the process.
    pub scope: String,
}

/// What one element reads and writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ElementAccess {
    /// Variable names read, de-duplicated, in order of first appearance.
    pub reads: Vec<String>,
    /// Variables written, de-duplicated, in order of first appearance.
    pub writes: Vec<Write>,
}

/// Header keys whose FEEL a connector evaluates against its own `response` / `error`, not the
/// process's variables.
const RESULT_HEADERS: &[&str] = &["resultExpression", "errorExpression"];

/// The names a connector binds for its result and error expressions.
const CONNECTOR_BOUND: &[&str] = &["response", "error"];

/// The variable names one place reads (empty for places that only store a value).
pub(crate) fn reads_of(access: &Access) -> Vec<String> {
    let text = access.expression.as_str();
    let reads = match &access.place {
        Place::InputTarget
        | Place::OutputTarget
        | Place::ResultVariable
        | Place::LoopElement
        | Place::LoopOutputCollection
        | Place::AdHocOutputCollection
        | Place::CallInTarget
        | Place::CallOutSource
        | Place::CallOutTarget { .. }
        | Place::CaughtVariable
        | Place::Initiator
        | Place::DelegateClass => return Vec::new(),
        // the bean that runs is code, not data; what it is passed is read
        Place::Delegate => expr::juel_delegate_reads(text),
        Place::Implementation => expr::juel_call_reads(text),
        _ => read_text(access.dialect, text),
    };
    let bound: &[&str] = match &access.place {
        Place::Header(key) if RESULT_HEADERS.contains(&key.as_str()) => CONNECTOR_BOUND,
        _ => &[],
    };
    reads.into_iter().map(|r| r.name).filter(|n| !n.is_empty() && !bound.contains(&n.as_str())).collect()
}

fn read_text(dialect: Dialect, text: &str) -> Vec<expr::Read> {
    match dialect {
        Dialect::Feel => expr::zeebe_value_reads(text),
        Dialect::Juel => expr::juel_reads(text),
        Dialect::Either => match text.trim_start().strip_prefix('=') {
            Some(feel) => expr::feel_reads(feel),
            None => expr::juel_reads(text),
        },
        Dialect::JuelOrName if text.contains("${") || text.contains("#{") => expr::juel_reads(text),
        Dialect::JuelOrName | Dialect::Name => {
            let name = root(text);
            if name.is_empty() {
                Vec::new()
            } else {
                vec![expr::Read { name: name.to_string(), path: text.trim().to_string() }]
            }
        }
    }
}

/// The variable a target names: the part before the first `.`, trimmed.
fn root(name: &str) -> &str {
    name.trim().split('.').next().unwrap_or("").trim()
}

/// What every element of the process reads and writes, index for index with `process.elements`.
pub fn of_process(process: &Process) -> Vec<ElementAccess> {
    (0..process.elements.len()).map(|i| of_element(process, i)).collect()
}

/// What the element at `index` reads and writes.
pub fn of_element(process: &Process, index: usize) -> ElementAccess {
    let element = &process.elements[index];
    let reads: IndexSet<String> = element.accesses.iter().flat_map(reads_of).collect();
    let mut writes: IndexSet<Write> = IndexSet::new();
    let mut push = |name: &str, scope: String| {
        if !name.is_empty() {
            writes.insert(Write { name: name.to_string(), scope });
        }
    };
    let own = || element.id.to_string();
    for access in &element.accesses {
        let name = root(&access.expression);
        match &access.place {
            Place::InputTarget => push(name, own().to_string()),
            Place::LoopElement => push(name, mapped_by_ancestor(process, index, name).unwrap_or_else(own)),
            Place::CallOutTarget { local: true } => push(name, own().to_string()),
            Place::OutputTarget
            | Place::LoopOutputCollection
            | Place::CallOutTarget { local: false }
            | Place::CaughtVariable
            | Place::Initiator => push(name, outer_scope(process, index, name)),
            Place::AdHocOutputCollection => {
                push(name, own().to_string());
                push(name, outer_scope(process, index, name));
            }
            Place::ResultVariable => push(name, result_scope(process, index, name)),
            Place::Header(key) if key == "resultVariable" => push(name, result_scope(process, index, name)),
            Place::Header(key) if key == "resultExpression" => {
                for key in context_keys(&access.expression) {
                    push(&key, result_scope(process, index, &key));
                }
            }
            _ => {}
        }
    }
    // a declared form field is what the user submits, unless it is shown read-only
    for field in element.declared().fields.iter().filter(|f| !f.readonly) {
        let name = root(&field.variable);
        push(name, outer_scope(process, index, name));
    }
    ElementAccess { reads: reads.into_iter().collect(), writes: writes.into_iter().collect() }
}

/// The names an element's input mappings pass in unchanged (`= url` mapped to `url`): though the
/// element holds them as locals, it reads them from outside, where something must have set them.
/// The reader records a mapping's source beside its target: a Camunda 8 (FEEL) source before its
/// target, a Camunda 7 or Flowable (JUEL) source after it.
pub(crate) fn passed_in(element: &Element) -> std::collections::HashSet<&str> {
    fn bare(a: &Access) -> Option<&str> {
        let text = a.expression.trim();
        let inner =
            text.strip_prefix('=').or_else(|| text.strip_prefix("${").and_then(|t| t.strip_suffix('}')));
        inner.map(str::trim).filter(|n| !n.is_empty())
    }
    let accesses = &element.accesses;
    let target_of = |k: usize| {
        let at = if accesses[k].dialect == Dialect::Feel { k.checked_add(1) } else { k.checked_sub(1) };
        at.and_then(|t| accesses.get(t)).filter(|t| t.place == Place::InputTarget)
    };
    (0..accesses.len())
        .filter(|&k| accesses[k].place == Place::InputSource)
        .filter_map(|k| {
            let name = target_of(k)?.expression.trim();
            (bare(&accesses[k]) == Some(name)).then_some(name)
        })
        .collect()
}

/// What the job worker of `element` hands back that its output mappings read into another variable
/// (an AI agent sub-process's `=agent` into `agentResult`): what the element reads of it before the job
/// runs (`=agent.context`) is its own result from its last round, not a value the process holds. Not
/// what an output mapping updates in place (`=context put(case, ..)` into `case`).
pub(crate) fn job_results(element: &Element) -> Vec<String> {
    if !element.accesses.iter().any(|a| a.place == Place::JobType) {
        return Vec::new();
    }
    let mappings: Vec<(&str, &str)> = element.output_mappings().collect();
    let updated: std::collections::HashSet<&str> = mappings.iter().map(|(_, t)| root(t)).collect();
    let read: IndexSet<String> =
        mappings.iter().flat_map(|(source, _)| expr::zeebe_value_reads(source)).map(|r| r.name).collect();
    read.into_iter().filter(|name| !updated.contains(name.as_str())).collect()
}

/// The variable a connector stores its whole response in (`resultVariable`) when a result expression
/// beside it keeps the parts the process works with under other names (`triva` beside `{question:
/// .., answer: ..}`): a copy of what those parts already say.
pub(crate) fn whole_response(element: &Element) -> Option<String> {
    let header = |key: &str| {
        (element.accesses.iter())
            .find(|a| matches!(&a.place, Place::Header(k) if k == key))
            .map(|a| a.expression.trim())
    };
    let whole = header("resultVariable").filter(|v| !v.is_empty())?;
    let kept = context_keys(header("resultExpression")?);
    (!kept.is_empty() && !kept.iter().any(|k| k == whole)).then(|| whole.to_string())
}

/// The names `element` holds for itself and reads as its own, from its `writes`: its locals (input
/// targets, loop element), but what an input mapping passes in unchanged ([`passed_in`]), which it
/// reads from outside.
pub(crate) fn own_locals<'a>(element: &Element, writes: &'a [Write]) -> impl Iterator<Item = &'a str> {
    let passed_in: std::collections::HashSet<String> =
        passed_in(element).into_iter().map(str::to_string).collect();
    let id = element.id.to_string();
    writes.iter().filter(move |w| w.scope == id && !passed_in.contains(&w.name)).map(|w| w.name.as_str())
}

/// Whether an element maps `name` (or a dotted path below it) as an input.
fn maps_input(element: &Element, name: &str) -> bool {
    element.accesses.iter().any(|a| a.place == Place::InputTarget && root(&a.expression) == name)
}

/// The nearest sub-process enclosing the element at `index` (not the element) that maps `name`.
fn mapped_by_ancestor(process: &Process, index: usize, name: &str) -> Option<String> {
    let mut at = process.elements[index].parent;
    let mut steps = 0;
    while let Some(p) = at {
        let parent = process.elements.get(p)?;
        if maps_input(parent, name) {
            return Some(parent.id.to_string());
        }
        steps += 1;
        if steps > process.elements.len() {
            return None; // parents always come first, so this cannot loop; a bound anyway
        }
        at = parent.parent;
    }
    None
}

/// Where a process variable written by the element at `index` lives: an enclosing sub-process that
/// maps it, else the process.
fn outer_scope(process: &Process, index: usize, name: &str) -> String {
    mapped_by_ancestor(process, index, name).unwrap_or_else(|| process.id.clone())
}

/// A result variable stays on its element when the element maps outputs (or maps the name as an
/// input): the output mappings decide what leaves it.
fn result_scope(process: &Process, index: usize, name: &str) -> String {
    let element = &process.elements[index];
    let has_outputs = element.accesses.iter().any(|a| a.place == Place::OutputTarget);
    if has_outputs || maps_input(element, name) {
        element.id.to_string()
    } else {
        outer_scope(process, index, name)
    }
}

/// The top-level keys of a FEEL context literal (`={status: response.status, "body": x}`): what a
/// connector's `resultExpression` writes. Anything that is not a context literal gives nothing.
pub(crate) fn context_keys(value: &str) -> Vec<String> {
    let Some(body) = value.trim().strip_prefix('=') else {
        return Vec::new();
    };
    let keys: IndexSet<String> = context_entries(body).into_iter().map(|(key, _)| key).collect();
    keys.into_iter().collect()
}

/// The dotted paths of a FEEL context literal's keys, nested contexts included
/// (`={result: {jobId: r.id, status: r.status}}` gives `result`, `result.jobId`, `result.status`): the
/// shape of what a result expression or an output mapping stores. Not a context literal: nothing.
pub(crate) fn context_paths(value: &str) -> Vec<String> {
    let Some(body) = value.trim().strip_prefix('=') else {
        return Vec::new();
    };
    let mut out = IndexSet::new();
    nested_paths(body, "", 0, &mut out);
    out.into_iter().collect()
}

/// Contexts nested deeper than this are not followed.
const MOST_CONTEXT_DEPTH: usize = 8;

fn nested_paths(body: &str, prefix: &str, depth: usize, out: &mut IndexSet<String>) {
    if depth >= MOST_CONTEXT_DEPTH {
        return;
    }
    for (key, value) in context_entries(body) {
        let path = if prefix.is_empty() { key } else { format!("{prefix}.{key}") };
        out.insert(path.clone());
        nested_paths(value, &path, depth + 1, out);
    }
}

/// The entries `(key, value text)` of a FEEL context literal `{k: v, ...}` (surrounding white space
/// allowed); anything else gives none.
fn context_entries(body: &str) -> Vec<(String, &str)> {
    let Some(inner) = body.trim().strip_prefix('{').and_then(|b| b.strip_suffix('}')) else {
        return Vec::new();
    };
    let mut entries = Vec::new();
    let (mut depth, mut quote) = (0usize, None::<char>);
    let (mut key, mut start) = (None::<String>, 0usize);
    let mut finish = |key: &mut Option<String>, end: usize, start: usize| {
        if let Some(k) = key.take()
            && !k.is_empty()
        {
            entries.push((k, &inner[start..end]));
        }
    };
    let mut chars = inner.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"') => quote = Some('"'),
            (None, '{' | '[' | '(') => depth += 1,
            (None, '}' | ']' | ')') => depth = depth.saturating_sub(1),
            (None, ':') if depth == 0 && key.is_none() => {
                key = Some(inner[start..i].trim().trim_matches('"').trim().to_string());
                start = i + 1;
            }
            (None, ',') if depth == 0 => {
                finish(&mut key, i, start);
                start = i + 1;
            }
            _ => {}
        }
    }
    finish(&mut key, inner.len(), start);
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_mapping_passes_in_only_its_own_name_unchanged() {
        let zeebe = crate::bpmn::zeebe_process(
            r#"<serviceTask id="t"><extensionElements><zeebe:ioMapping>
            <zeebe:input source="= url" target="url"/>
            <zeebe:input source="=&quot;gpt&quot;" target="model"/>
            <zeebe:input source="=model" target="name"/>
            <zeebe:input source="=order.id" target="order"/>
          </zeebe:ioMapping></extensionElements></serviceTask>"#,
        );
        let camunda = r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
            xmlns:camunda="http://camunda.org/schema/1.0/bpmn"><process id="p">
          <serviceTask id="t"><extensionElements><camunda:inputOutput>
            <camunda:inputParameter name="amount">${amount}</camunda:inputParameter>
            <camunda:inputParameter name="total">${amount * 2}</camunda:inputParameter>
          </camunda:inputOutput></extensionElements></serviceTask></process></definitions>"#;
        let passed = |process: &Process| {
            let mut names: Vec<String> =
                passed_in(&process.elements[0]).into_iter().map(str::to_string).collect();
            names.sort();
            names
        };
        assert_eq!(passed(&zeebe), ["url"]);
        assert_eq!(passed(&crate::bpmn::read_str(camunda).processes.remove(0)), ["amount"]);
    }

    #[test]
    fn a_whole_response_is_one_kept_beside_its_parts_under_other_names() {
        let connector = |headers: &str| {
            let xml = format!(
                r#"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
                xmlns:zeebe="http://camunda.org/schema/zeebe/1.0"><process id="p">
                <serviceTask id="t"><extensionElements><zeebe:taskHeaders>{headers}</zeebe:taskHeaders>
                </extensionElements></serviceTask></process></definitions>"#
            );
            whole_response(&crate::bpmn::read_str(&xml).processes.remove(0).elements[0])
        };
        let parts = r#"<zeebe:header key="resultExpression" value="={question: response.body.q}"/>"#;
        let raw = r#"<zeebe:header key="resultVariable" value="raw"/>"#;
        assert_eq!(connector(&format!("{parts}{raw}")).as_deref(), Some("raw"));
        assert_eq!(connector(raw), None, "the response is all the connector keeps");
        let same = r#"<zeebe:header key="resultVariable" value="question"/>"#;
        assert_eq!(connector(&format!("{parts}{same}")), None, "the expression writes it itself");
    }

    #[test]
    fn context_keys_are_the_top_level_ones() {
        assert_eq!(
            context_keys(r#"={status: response.status, "body": {a: 1}, list: [1, {b: 2}]}"#),
            ["status", "body", "list"]
        );
        assert_eq!(context_keys(r#"={"a, b": "x: y"}"#), ["a, b"]);
        assert!(context_keys("=response.body").is_empty());
        assert!(context_keys("{a: 1}").is_empty(), "not FEEL without '='");
    }

    #[test]
    fn context_paths_follow_nested_contexts() {
        assert_eq!(
            context_paths("= {r: {jobId: x.id, \"status\": {code: 1}}, list: [{b: 2}], n: 1}"),
            ["r", "r.jobId", "r.status", "r.status.code", "list", "n"]
        );
        assert!(context_paths("=response.body").is_empty());
        assert!(context_paths("= {a: ").is_empty());
    }

    #[test]
    fn roots_of_dotted_targets() {
        assert_eq!(root(" authentication.token "), "authentication");
        assert_eq!(root(""), "");
    }

    #[test]
    fn connector_result_expressions_do_not_read_the_response() {
        let access = Access {
            place: Place::Header("resultExpression".into()),
            dialect: Dialect::Feel,
            expression: "={status: response.status, id: orderId}".into(),
        };
        assert_eq!(reads_of(&access), ["orderId"]);
    }

    #[test]
    fn the_code_an_element_runs_is_not_data_but_what_it_is_passed_is() {
        let xml = r##"<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
            xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:activiti="http://activiti.org/bpmn"
            xmlns:flowable="http://flowable.org/bpmn"><process id="p">
          <serviceTask id="svn" activiti:delegateExpression="#{svnService}"/>
          <serviceTask id="mine" camunda:delegateExpression="${myDelegate}"/>
          <serviceTask id="made" flowable:delegateExpression="${factory.get(kind)}"/>
          <serviceTask id="check" camunda:expression="${orderService.check(order)}" camunda:resultVariable="ok"/>
          <serviceTask id="plain" activiti:expression="${approved}"/>
          <serviceTask id="java" camunda:class="com.example.Notify">
            <extensionElements><camunda:field name="to" expression="${recipient}"/></extensionElements>
          </serviceTask>
          <userTask id="review"><extensionElements>
            <camunda:taskListener event="create" delegateExpression="${assigner}"/>
            <camunda:taskListener event="complete" expression="${audit.log(task, comment)}"/>
            <camunda:executionListener event="end" class="com.example.Listener"/>
          </extensionElements></userTask>
        </process></definitions>"##;
        let process = crate::bpmn::read_str(xml).processes.remove(0);
        let reads = |id: &str| of_element(&process, process.element_index(id).unwrap()).reads;
        for (id, want) in [
            ("svn", &[][..]),
            ("mine", &[]),
            ("made", &["kind"]),
            ("check", &["order"]),
            ("plain", &["approved"]),
            ("java", &["recipient"]),
            ("review", &["comment"]),
        ] {
            assert_eq!(reads(id), want, "{id}");
        }
    }
}

#[cfg(test)]
mod properties {
    use proptest::prelude::*;

    use super::*;

    fn place() -> impl Strategy<Value = Place> {
        prop_oneof![
            Just(Place::InputSource),
            Just(Place::InputTarget),
            Just(Place::OutputTarget),
            Just(Place::ResultVariable),
            Just(Place::Condition),
            Just(Place::Header("resultExpression".into())),
            Just(Place::Header("resultVariable".into())),
            Just(Place::AdHocOutputCollection),
        ]
    }

    fn dialect() -> impl Strategy<Value = Dialect> {
        prop_oneof![
            Just(Dialect::Feel),
            Just(Dialect::Juel),
            Just(Dialect::Either),
            Just(Dialect::JuelOrName),
            Just(Dialect::Name)
        ]
    }

    proptest! {
        #[test]
        fn any_text_in_any_place_never_panics(
            place in place(),
            dialect in dialect(),
            expression in r#"[=${}#\[\]().:,"a-z0-9 \\]{0,40}"#,
        ) {
            let access = Access { place, dialect, expression: expression.clone().into() };
            let reads = reads_of(&access);
            prop_assert!(reads.iter().all(|r| !r.is_empty()));
            // only a context literal has keys, each named once and none blank
            let keys = context_keys(&expression);
            let body = expression.trim().strip_prefix('=').map(str::trim);
            if !body.is_some_and(|b| b.starts_with('{') && b.ends_with('}')) {
                prop_assert!(keys.is_empty(), "{:?} from {:?}", keys, expression);
            }
            let mut seen = std::collections::HashSet::new();
            prop_assert!(keys.iter().all(|k| !k.is_empty() && seen.insert(k)), "{:?}", keys);
            let element = crate::bpmn::Element { id: "e".into(), accesses: vec![access], ..Default::default() };
            let process = Process { id: "p".into(), elements: vec![element], ..Default::default() };
            let out = of_element(&process, 0);
            prop_assert!(out.writes.iter().all(|w| !w.name.is_empty() && (w.scope == "e" || w.scope == "p")));
        }
    }
}
